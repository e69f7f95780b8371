"""Olenon constants: cards, actions, settings, events.

A card is its value, 0..6: cards of one value are alike, so a hand is seven
counts. Seats 0 and 2 are team 0, seats 1 and 3 team 1 (``seat & 1``).

An action is one index (the policy's return value and its entry in the
``legal`` array): ``value * 4 + count - 1`` puts ``count`` cards of ``value``
down (a play on an empty table, an addition to a table of that value, or a
replace of a table of another value), and ``PASS`` takes a card off the table.
"""
from typing import NamedTuple

import numpy as np

from analyser.kernels.outcome import ERROR  # noqa: F401  (the games' modules name it from here)

PLAYERS = 4
TEAMS = 2
N_VALUES = 7
COPIES = (6, 5, 5, 4, 4, 4, 4)     # cards of each value: six 0s, five 1s and 2s, four of 3..6
N_CARDS = sum(COPIES)              # 32
HAND = 7                           # cards dealt to each player
SET_ASIDE = N_CARDS - PLAYERS * HAND
TABLE = 4                          # the most cards on the table
MAX_ROUNDS_TO_WIN = 9
MAX_ROUNDS = 2 * MAX_ROUNDS_TO_WIN - 1
LEGAL_SIZE = 32                    # the legal array: 29 actions, padded to whole words
DECK = np.array([v for v in range(N_VALUES) for _ in range(COPIES[v])], np.int8)


class _Action(NamedTuple):
    PASS: int = 28
    COUNT: int = 29          # actions in all


ACTION = _Action()


def put(value: int, count: int) -> int:
    """The action that puts ``count`` cards of ``value`` down."""
    return value * 4 + count - 1


def beats(w: int, v: int) -> bool:
    """A replace of value ``v`` by value ``w`` is allowed: higher, or 0 over 6."""
    return w > v or (w == 0 and v == 6)


class _Setting(NamedTuple):
    """Indices into the settings row (see SETTINGS in __init__.py)."""
    ROUND_STARTER: int = 0   # 0 rotate, 1 winner
    TALK: int = 1            # 0 none, 1 open
    ROUNDS: int = 2          # rounds a team must win to win the match
    MAX_ACTIONS: int = 3     # per round


SETTING = _Setting()


class _Event(NamedTuple):
    """Trace log events (analyser.kernels.eventlog): ``type, round, seat, a, b`` then values."""
    DEAL: int = 1        # seat = the round's starter; values: the four hands (7 each), then the set-aside cards
    PLAY: int = 2        # a = value, b = count (onto an empty table or added to it)
    REPLACE: int = 3     # a = value, b = count; values: the discarded cards' value
    PASS: int = 4        # a = the card taken
    TRICK_END: int = 5   # seat = the next leader, a = REASON; values: the card each seat takes back (-1: none)
    ROUND_END: int = 6   # seat = who went out, a = the winning team


EVENT = _Event()


class _Reason(NamedTuple):
    FOUR: int = 0            # the table holds 4 cards
    TEAM_PASSED: int = 1     # both players of one team have passed


REASON = _Reason()
REASON_NAMES = ("four", "team_passed")
