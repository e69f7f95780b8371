"""Spite & Malice: two players race to play out their payoff piles onto shared
build piles, A to Q, with Kings wild.

A unit is a match (the first player to ``target`` points, default 50); a
round is one game of the rule book, from the deal to a payoff pile played out
(or a drawn stock-out). ``--unit round`` plays single rounds from fresh deals.
This module declares the game without importing numba: the engine, the
policies and the trace load only when a run needs them.
"""
import numpy as np

from analyser.games.registry import Column, GameSpec, SettingSpec, lazy
from analyser.games.spite_and_malice.catalog import POLICIES
from analyser.games.spite_and_malice.constants import MAX_PAYOFF, PLAYERS, STOCK_OUT_NAMES
from analyser.games.spite_and_malice.records import RECORD_DTYPE

SETTINGS = (   # the order of the settings row (constants.SETTING)
    SettingSpec("payoff_size", 20, "cards in each payoff pile", kind="int", low=1, high=MAX_PAYOFF,
                report_values=(10, 20, 30)),
    SettingSpec("centre_piles", 3, "build piles in the centre", kind="int", low=3, high=4, report_values=(3, 4)),
    SettingSpec("refill_empty_hand", 0, "a player who empties their hand by building draws 5 more and goes on "
                "(off: the hand is refilled only at the start of a turn)"),
    SettingSpec("stock_out", 0, "when the stock runs out the round is a draw: when a draw cannot be completed "
                "(on_draw), or as soon as the stock is empty (at_once)", kind="choice", options=STOCK_OUT_NAMES),
    SettingSpec("target", 50, "match points that win the match", kind="int", low=1, high=100_000,
                report_values=(30, 50, 100)),
    SettingSpec("rounds", 0, "0: play until a player reaches the target; N: the match also ends after N rounds, "
                "the player with more points winning (equal points: a drawn match)", kind="int", low=0,
                high=100_000, report_values=(0, 5, 10)),
    SettingSpec("max_turns", 2000, "turns after which a round (and its match) ends as aborted", kind="int",
                low=1, high=1_000_000),
    SettingSpec("max_moves", 20000, "builds and discards after which a round (and its match) ends as aborted",
                kind="int", low=1, high=1_000_000),
    SettingSpec("max_games", 200, "rounds after which an undecided match ends as aborted", kind="int",
                low=1, high=100_000),
)


def _per_round(field):
    def value(rec: np.ndarray, players: int) -> np.ndarray:
        return rec[field][:, :players] / np.maximum(rec["rounds"], 1)[:, None]
    return value


def _turns_per_round(rec: np.ndarray, players: int) -> np.ndarray:
    return rec["turns"] / np.maximum(rec["rounds"], 1)


def most_points(settings: dict[str, int]) -> int:
    """A seat's most match points: short of the target before its last round won, which scores at most
    the other's whole payoff pile; with a rounds limit, no more than a whole pile a round."""
    most = settings["target"] - 1 + settings["payoff_size"]
    return min(most, settings["rounds"] * settings["payoff_size"]) if settings["rounds"] else most


GAME = GameSpec(
    name="spite_and_malice",
    package=__name__,
    title="Spite & Malice",
    min_players=PLAYERS,
    max_players=PLAYERS,
    default_players=PLAYERS,
    max_seats=PLAYERS,
    default_policy="builder",
    settings=SETTINGS,
    policies=POLICIES,
    record_dtype=RECORD_DTYPE,
    outcome="the first player to reach the target points (a round: a payoff pile played out)",
    single_outcome="the first player to play out their payoff pile (a stock-out: a draw)",
    unit="match",
    sub_unit="round",
    single={"rounds": 1},
    length="builds and discards",
    columns=(
        Column("rounds_won", "rounds won"),
        Column("payoff_left_per_round", "payoff cards left at a round's end, averaged",
               value=_per_round("payoff_left")),
        Column("kings", "Kings played onto build piles"),
        Column("payoff_played", "payoff cards played"),
        Column("completed", "build piles completed"),
        Column("rounds", "rounds", per="unit", whole_only=True),
        Column("drawn_rounds", "drawn rounds", per="unit", whole_only=True),
        Column("turns", "turns", per="unit"),
        Column("turns_per_round", "turns per round, averaged", per="unit", value=_turns_per_round,
               whole_only=True),
        Column("decisions", "policy calls", per="unit"),
    ),
    kit=lazy("analyser.games.spite_and_malice.kit:SpiteKit"),
    cap=lambda players, settings: settings["max_games"] * (settings["max_moves"] + settings["max_turns"]) + 1,
    score_bounds=lambda players, settings: (0.0, float(most_points(settings))),
    view=lazy("analyser.games.spite_and_malice.view:SpiteView"),
    report_size=(100_000, 20_000),
)
