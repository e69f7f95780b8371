"""Enemy Anemone constants: cards, tokens, actions, settings, events.

A card is ``(rank - 1) * 6 + suit`` (suits A..F = 0..5, ranks 1..10), so card
ids grow with rank: bit c of a 64-bit hand mask is card c, the lowest set bit
is the lowest card, and the cards of rank r or more are the bits from
``(r - 1) * 6`` up. Names for people are suit letter then rank: ``A1``, ``C10``.
"""
from typing import NamedTuple

import numpy as np

from analyser.kernels.outcome import ERROR  # noqa: F401  (the games' modules name it from here)

MAX_PLAYERS = 6
N_SUITS = 6
N_RANKS = 10
N_CARDS = N_SUITS * N_RANKS
N_TOKENS = 9
MAX_HANDS = 8
MAX_TRICK = 6          # played cards in one trick: one per suit
DRAW_PILE = 16         # the 2-player draw pile
SUIT_LETTERS = "ABCDEF"
BONUS_RANKS = (3, 5, 8)


def card_id(rank: int, suit: int) -> int:
    return (rank - 1) * N_SUITS + suit


def card_name(card: int) -> str:
    return f"{SUIT_LETTERS[card % N_SUITS]}{card // N_SUITS + 1}"


def card_of(name: str) -> int:
    """``"C10"`` -> its card id (for tests and hand-built positions)."""
    return card_id(int(name[1:]), SUIT_LETTERS.index(name[0].upper()))


def _deck(players: int) -> list[int]:
    """Setup: 2 players four suits, 6 players six, both without 1s and 10s; 3-5 one suit each, ranks 1-10."""
    suits = 4 if players == 2 else players
    ranks = range(1, 11) if 3 <= players <= 5 else range(2, 10)
    return [card_id(r, s) for r in ranks for s in range(suits)]


# DECKS[n, :DECK_SIZE[n]]: the cards in play with n players, lowest first.
DECK_SIZE = np.array([0, 0] + [len(_deck(n)) for n in range(2, MAX_PLAYERS + 1)], np.int64)
DECKS = np.zeros((MAX_PLAYERS + 1, N_CARDS), np.int8)
for _n in range(2, MAX_PLAYERS + 1):
    DECKS[_n, : DECK_SIZE[_n]] = _deck(_n)
RANK_OF = np.array([c // N_SUITS + 1 for c in range(N_CARDS)], np.int64)
SUIT_OF = np.array([c % N_SUITS for c in range(N_CARDS)], np.int64)
# What a card scores in a score pile: 1, and 1 more for a 3, 5 or 8.
POINTS = np.array([2 if c // N_SUITS + 1 in BONUS_RANKS else 1 for c in range(N_CARDS)], np.int64)
# The bits of one suit's cards (every sixth bit), and of a whole rank.
SUIT_MASK = np.array([sum(1 << card_id(r, s) for r in range(1, N_RANKS + 1)) for s in range(N_SUITS)], np.uint64)
BONUS_MASK = np.uint64(sum(1 << card_id(r, s) for r in BONUS_RANKS for s in range(N_SUITS)))   # the 3s, 5s, 8s
RANK_MASK = np.array([0] + [sum(1 << card_id(r, s) for s in range(N_SUITS)) for r in range(1, N_RANKS + 1)],
                     np.uint64)


class _Action(NamedTuple):
    """An action is ``card + ONE * k1 + TWO * k2``: the card played or discarded,
    with k1 of the seat's +1 tokens and k2 of its +2 tokens attached (never to a discard)."""
    ONE: int = 64
    TWO: int = 1024


ACTION = _Action()


class _Setting(NamedTuple):
    """Indices into the settings row (see SETTINGS in __init__.py)."""
    SPENT_TOKENS: int = 0      # 0 supply, 1 removed
    NEXT_LEADER: int = 1       # 0 winner, 1 lowest
    CATCHUP: int = 2           # 0 hand, 1 total
    HANDS: int = 3
    MAX_ACTIONS: int = 4


SETTING = _Setting()


class _Event(NamedTuple):
    """Trace log events (analyser.kernels.eventlog): ``type, hand, seat, a, b`` then the cards."""
    DEAL: int = 1        # seat -1; cards: every hand in seat order (a = cards each), then the draw pile, top first
    START: int = 2       # seat = the hand's starter
    PLAY: int = 3        # a = +1 tokens + 16 * +2 tokens attached, b = the card's value; cards: the card
    DISCARD: int = 4     # cards: the card
    TRICK: int = 5       # seat = winner, a = the lowest card's seat; cards: the cards won
    TOKEN: int = 6       # a = from (TOKEN_FROM or the giving seat), b = the token's value now + 4 * REASON
    DRAW: int = 7        # cards: the cards drawn
    HAND_END: int = 8    # seat -1; per seat: hand score, total, +1 tokens, +2 tokens


EVENT = _Event()


class _TokenFrom(NamedTuple):
    SUPPLY: int = -1
    FLIP: int = -2


TOKEN_FROM = _TokenFrom()


class _Reason(NamedTuple):
    """Why a seat takes a token: its card was the trick's lowest, or the end-of-hand award."""
    LOWEST: int = 0
    CATCHUP: int = 1


REASON = _Reason()
REASON_NAMES = ("lowest", "catchup")
