"""Palace (Shed, Shithead): 2-4 players, shedding; the last player left loses.

This module declares the game without importing numba: the engine, the
policies and the trace load only when a run needs them.
"""
import numpy as np

from analyser.games.palace.catalog import POLICIES
from analyser.games.palace.constants import MAX_PLAYERS
from analyser.games.palace.records import RECORD_DTYPE
from analyser.games.registry import Column, GameSpec, SettingSpec, lazy

SETTINGS = (
    SettingSpec("short_game", 0, "deal 3 face-down, 3 face-up, 3 in hand at any player count; 16-card draw pile"),
    SettingSpec("ten_on_anything", 0, "a 10 may be played on any card, a 9 included"),
    SettingSpec("max_actions", 5000, "actions after which a game ends as aborted", kind="int", low=1, high=1_000_000),
)


def _lost(rec: np.ndarray, players: int) -> np.ndarray:
    return rec["loser"][:, None] == np.arange(players)


GAME = GameSpec(
    name="palace",
    package=__name__,
    title="Palace (Shed, Shithead)",
    min_players=2,
    max_players=4,
    default_players=4,
    max_seats=MAX_PLAYERS,
    default_policy="saver",
    settings=SETTINGS,
    policies=POLICIES,
    record_dtype=RECORD_DTYPE,
    outcome="not being the loser",
    unit="game",
    length="actions",
    win_total=lambda players: float(players - 1),
    columns=(
        Column("loser", "loser rate", kind="rate", value=_lost),
        Column("picked_up", "cards picked up"),
        Column("pickups", "pickups"),
        Column("voluntary", "voluntary pickups"),
        Column("burns", "burns made"),
        Column("turns", "plays and pickups", per="unit"),
        Column("decisions", "policy calls with a real choice", per="unit"),
    ),
    kit=lazy("analyser.games.palace.kit:PalaceKit"),
    cap=lambda players, settings: settings["max_actions"],
    score_bounds=lambda players, settings: (0.0, 1.0),      # 1 for every seat but the loser
    view=lazy("analyser.games.palace.view:PalaceView"),
    report_size=(200_000, 20_000),
)
