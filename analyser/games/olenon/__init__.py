"""Olenon: four players in two teams (seats 0 and 2 against 1 and 3) shedding cards.

A unit is a match (the first team to win ``rounds`` rounds, default 2);
``--unit round`` plays single rounds. This module declares the game without
importing numba: the engine, the policies and the trace load only when a run
needs them.
"""
import numpy as np

from analyser.games.olenon.catalog import POLICIES
from analyser.games.olenon.constants import MAX_ROUNDS_TO_WIN, PLAYERS
from analyser.games.olenon.records import RECORD_DTYPE
from analyser.games.registry import Column, GameSpec, SettingSpec, lazy

SETTINGS = (   # the order of the settings row (constants.SETTING)
    SettingSpec("round_starter", 0, "who starts each later round: the player after the last round's starter, "
                "or the player who went out", kind="choice", options=("rotate", "winner")),
    SettingSpec("talk", 0, "what a policy may read: its own hand and public information, or every hand "
                "(partners sharing everything aloud)", kind="choice", options=("none", "open")),
    SettingSpec("rounds", 2, "rounds a team must win to win the match", kind="int", low=1, high=MAX_ROUNDS_TO_WIN,
                report_values=(1, 2, 3)),
    SettingSpec("max_actions", 2000, "plays, replaces and passes after which a round (and its match) ends as "
                "aborted", kind="int", low=1, high=1_000_000),
)


def _actions_per_round(rec: np.ndarray, players: int) -> np.ndarray:
    return rec["length"] / np.maximum(rec["rounds"], 1)


GAME = GameSpec(
    name="olenon",
    package=__name__,
    title="Olenon",
    min_players=PLAYERS,
    max_players=PLAYERS,
    default_players=PLAYERS,
    max_seats=PLAYERS,
    default_policy="shed",
    settings=SETTINGS,
    policies=POLICIES,
    record_dtype=RECORD_DTYPE,
    outcome="the team that first wins the set number of rounds (a round: a partner goes out)",
    single_outcome="the team of the first player to go out",
    unit="match",
    sub_unit="round",
    single={"rounds": 1},
    length="plays, replaces and passes",
    teams=lambda players: tuple(s & 1 for s in range(players)),
    win_total=lambda players: players / 2,
    columns=(
        Column("rounds_won", "team rounds won"),
        Column("goes_out", "went out"),
        Column("plays", "plays"),
        Column("replaces", "replaces"),
        Column("passes", "passes"),
        Column("cards_played", "cards put down"),
        Column("rounds", "rounds", per="unit", whole_only=True),
        Column("actions_per_round", "actions per round, averaged", per="unit", value=_actions_per_round,
               whole_only=True),
        Column("decisions", "policy calls with a real choice", per="unit"),
    ),
    kit=lazy("analyser.games.olenon.kit:OlenonKit"),
    cap=lambda players, settings: settings["max_actions"] * (2 * settings["rounds"] - 1),   # a cap per round
    score_bounds=lambda players, settings: (0.0, float(settings["rounds"])),   # the team's rounds won
    view=lazy("analyser.games.olenon.view:OlenonView"),
    report_size=(200_000, 50_000),
    best_heuristic="tempo",             # PIMC's bar (benchmarks/RESULTS.md, "Strength")
)
