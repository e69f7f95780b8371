"""Enemy Anemone: trick taking for 2-6 players with two-sided bonus tokens.

A unit is a match of ``hands`` hands (default 4); ``--unit hand`` plays single
hands. This module declares the game without importing numba: the engine, the
policies and the trace load only when a run needs them.
"""
from analyser.games.enemy_anemone.catalog import POLICIES
from analyser.games.enemy_anemone.constants import DECK_SIZE, DECKS, MAX_HANDS, MAX_PLAYERS, POINTS
from analyser.games.enemy_anemone.records import RECORD_DTYPE
from analyser.games.registry import Column, GameSpec, SettingSpec, lazy

SETTINGS = (   # the order of the settings row (constants.SETTING)
    SettingSpec("spent_tokens", 0, "where tokens attached to a card go: back to the supply +1 side up, or out "
                "of the match", kind="choice", options=("supply", "removed")),
    SettingSpec("next_leader", 0, "who leads the next trick: its winner, or the taker of its token (lowest "
                "card)", kind="choice", options=("winner", "lowest")),
    SettingSpec("catchup", 0, "the end-of-hand token (2-5 players) goes to the lowest score of the hand, or "
                "the lowest match total", kind="choice", options=("hand", "total")),
    SettingSpec("hands", 4, "hands in a match", kind="int", low=1, high=MAX_HANDS, report_values=(2, 4, 8)),
    SettingSpec("max_actions", 2000, "plays and discards after which a match ends as aborted", kind="int",
                low=1, high=1_000_000),
)


def deck_points(players: int) -> int:
    """The points of every card in play: the most a seat can score in a hand (each card scores once,
    won in a trick or discarded)."""
    return int(POINTS[DECKS[players, : DECK_SIZE[players]]].sum())


GAME = GameSpec(
    name="enemy_anemone",
    package=__name__,
    title="Enemy Anemone",
    min_players=2,
    max_players=MAX_PLAYERS,
    default_players=4,
    max_seats=MAX_PLAYERS,
    default_policy="timing",
    settings=SETTINGS,
    policies=POLICIES,
    record_dtype=RECORD_DTYPE,
    outcome="the highest match total (ties: more tokens held, then shared)",
    unit="match",
    sub_unit="hand",
    single={"hands": 1},
    length="plays and discards",
    columns=(
        Column("tricks", "tricks won"),
        Column("tokens_taken", "tokens taken"),
        Column("tokens_spent", "tokens spent"),
        Column("value_spent", "token value spent"),
        Column("tokens_held", "tokens held at the end"),
        Column("discards", "discards"),
        Column("tiebreak", "ties broken by tokens", kind="rate", per="unit"),
        Column("decisions", "policy calls with a real choice", per="unit"),
    ),
    kit=lazy("analyser.games.enemy_anemone.kit:AnemoneKit"),
    cap=lambda players, settings: settings["max_actions"],
    score_bounds=lambda players, settings: (0.0, float(settings["hands"] * deck_points(players))),
    view=lazy("analyser.games.enemy_anemone.view:AnemoneView"),
    report_size=(100_000, 20_000),
)
