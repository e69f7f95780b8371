"""High card: a game written outside the analyser, registered through the public API.

Rules in rules.py. It is an example of adding a game (examples/README.md) and
gives the project's checks a game unlike the built-in ones: matches of several
hands with their own sub-streams, two teams whose partners share one result,
tied hands, drawn matches, and policies that are handed the whole table (so a
peeking one can be written, and caught). ``register()`` adds it to the
registry; examples/check_highcard.py and the project's tests/conftest.py call it.
Its modules name one another relatively (``__name__``), so the package works
under whatever name it is imported.
"""
import numpy as np

from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.games.registry import Column, GameSpec, SettingSpec, game_names, lazy, register_game

from .rules import RECORD_DTYPE, SEATS

NAME = "highcard"
_FNS = f"{__name__}.policies:"
POLICIES = (
    PolicySpec("random", _FNS + "random_policy", "a random card from the seat's own stream"),
    PolicySpec("high", _FNS + "high_policy", "its highest card"),
    PolicySpec("alternate", _FNS + "alternate_policy", "its highest card, but its lowest every n-th decision",
               (ParamSpec("every", 2, "play the lowest card every this many decisions", low=1, high=9,
                          integer=True),)),
)


def _trace(seed, unit, players, settings, fns, params, streams):
    from analyser.kernels.cards import card_names

    from .rules import DEAL, HAND_END, LOG_PER_HAND, PLAY, trace_nb

    log = np.zeros(8 + LOG_PER_HAND * int(settings[0]), np.int32)
    out = np.zeros(1, RECORD_DTYPE)
    trace_nb(seed, unit, players, settings, fns, params, streams, log, out)
    events = [{"type": "match", "teams": [s % 2 for s in range(players)], "hands": int(settings[0])}]
    p = 1
    while p < log[0]:
        kind, hand, a, b = (int(x) for x in log[p: p + 4])
        p += 4
        if kind == DEAL:
            cards = card_names(log[p: p + 20] + 32)          # ranks 10..A of the 52-card names
            p += 20
            events.append({"type": "deal", "hand": hand, "starter": a,
                           "hands": [cards[3 * s: 3 * s + 3] for s in range(4)], "stock": cards[12:]})
        elif kind == PLAY:
            events.append({"type": "play", "hand": hand, "seat": a, "card": card_names([b + 32])[0]})
        elif kind == HAND_END:
            events.append({"type": "hand_won", "hand": hand, "team": a if a >= 0 else None})
    rec = out[0]
    events.append({"type": "result", "hands_won": [int(x) for x in rec["hands_won"][:players]],
                   "rank": [int(x) for x in rec["rank"][:players]], "draw": bool(rec["draw"]),
                   "aborted": bool(rec["aborted"]), "plays": int(rec["length"])})
    return events, out


def _trace_text(events) -> str:
    return "\n".join(" ".join(f"{k}={v}" for k, v in e.items()) for e in events)


def _policy_error(rec):
    bad = np.flatnonzero(rec["illegal_seat"] >= 0)
    return int(rec["illegal_seat"][bad[0]]) if bad.size else None


GAME = GameSpec(
    name=NAME, title="High card (an example game)", min_players=4, max_players=4, default_players=4,
    max_seats=4, default_policy="high", policies=POLICIES, record_dtype=RECORD_DTYPE,
    settings=(SettingSpec("hands", 3, "hands in a match", kind="int", low=1, high=40),
              SettingSpec("max_actions", 1000, "plays after which a match ends as aborted", kind="int", low=1,
                          high=10_000)),
    policy_signature=("table", "seat", "legal", "params"), outcome="team won the match",
    unit="match", sub_unit="hand", single={"hands": 1}, length="plays", teams=lambda n: (0, 1, 0, 1),
    win_total=lambda n: 2.0,
    columns=(Column("hands_won", "hands won by the seat's team"), Column("ties", "tied hands", per="unit")),
    simulate=lazy(f"{__name__}.rules:simulate_nb"), trace=_trace, trace_text=_trace_text,
    policy_error=_policy_error, kit=lazy(f"{__name__}.kit:HighCardKit"), view=lazy(f"{__name__}.view:HighCardView"),
    cap=lambda players, settings: min(settings["max_actions"], SEATS * settings["hands"]),
    score_bounds=lambda players, settings: (0.0, float(settings["hands"])),   # the team's hands won
)


def register() -> None:
    """Add high card to the registry (once per process)."""
    if NAME not in game_names():
        register_game(GAME)
