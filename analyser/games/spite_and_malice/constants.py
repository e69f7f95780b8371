"""Spite & Malice constants: cards, actions, settings, events.

A card is its value, 1..13 (A=1, J=11, Q=12, K=13): suits never matter, so a
hand is thirteen counts (``hand[v]``, index 0 unused). A build pile counts up
from empty (0) and its value is its number of cards; a King on it counts as
the value it completes.

An action is one index (the policy's return value and its entry in the
``legal`` array): ``src * 8 + dst``. Sources: 0 the payoff top, 1..4 the top of
side pile 0..3, ``HAND + v`` a card of value v from the hand (HAND = 4, so
5..17). Destinations: 0..3 build pile 0..3, 4..7 side pile 0..3 (a discard,
from the hand only). ``ACTION.STOP`` ends a turn with an empty hand.
"""
from typing import NamedTuple

import numpy as np

from analyser.kernels.outcome import ERROR  # noqa: F401  (the games' modules name it from here)

PLAYERS = 2
KING = 13
N_VALUES = 13
COPIES = 8                         # two decks: eight cards of each value
N_CARDS = N_VALUES * COPIES        # 104
HAND = 5                           # cards a player holds after drawing
SIDES = 4                          # side piles per player
MAX_CENTRE = 4                     # build piles (setting centre_piles: 3 or 4)
COMPLETE = 12                      # a build pile reaching Q is complete
MAX_PAYOFF = 40                    # payoff_size at most (the stock keeps 14 cards at the deal)
SIDE_CAP = N_CARDS                 # room in one side pile (a bound no game reaches)
DECK = np.array([v for v in range(1, N_VALUES + 1) for _ in range(COPIES)], np.int8)

SRC_PAYOFF = 0
SRC_SIDE = 1                       # side pile i: SRC_SIDE + i
SRC_HAND = 4                       # a hand card of value v: SRC_HAND + v (v >= 1)
SIDE_END = SRC_SIDE + SIDES        # 5: sources below it (and above 0) are side piles, from it hand cards
N_SRC = SRC_HAND + N_VALUES + 1    # 18
DST_SIDE = 4                       # destination of a discard onto side pile i: DST_SIDE + i
LEGAL_SIZE = 152                   # the legal array: 145 actions, padded to whole words


class _Action(NamedTuple):
    STOP: int = N_SRC * 8          # 144: end the turn (only with an empty hand)
    COUNT: int = N_SRC * 8 + 1


ACTION = _Action()


def build(src: int, pile: int) -> int:
    """The action moving the card of ``src`` onto build pile ``pile``."""
    return src * 8 + pile


def discard(value: int, side: int) -> int:
    """The action putting a hand card of ``value`` onto side pile ``side``."""
    return (SRC_HAND + value) * 8 + DST_SIDE + side


CARD_NAMES = ("-", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def card_name(v: int) -> str:
    return CARD_NAMES[v]


class _Setting(NamedTuple):
    """Indices into the settings row (see SETTINGS in __init__.py)."""
    PAYOFF_SIZE: int = 0
    CENTRE_PILES: int = 1      # 3 or 4
    REFILL_EMPTY_HAND: int = 2  # 0 off, 1 on
    STOCK_OUT: int = 3         # 0 on_draw, 1 at_once
    TARGET: int = 4            # match points that win the match
    ROUNDS: int = 5            # 0: play to target; N: the match ends after N rounds at most
    MAX_TURNS: int = 6         # per round
    MAX_MOVES: int = 7         # per round
    MAX_GAMES: int = 8         # rounds per match


SETTING = _Setting()
STOCK_OUT_NAMES = ("on_draw", "at_once")


class _Event(NamedTuple):
    """Trace log events (analyser.kernels.eventlog): ``type, round, seat, a, b`` then values."""
    DEAL: int = 1        # one per seat; a = payoff size; values: the payoff pile bottom to top, then the hand
    START: int = 2       # seat = the round's starter, a = START_WHY
    TURN: int = 3        # seat starts a turn, a = the turn's number in the round; values: the cards drawn
    BUILD: int = 4       # a = source, b = build pile; values: the card, the value it counts as
    DISCARD: int = 5     # a = the card, b = side pile
    STOP: int = 6        # the seat ends its turn with an empty hand
    COMPLETE: int = 7    # a = build pile; values: the stock's size after the shuffle
    REFILL: int = 8      # an empty hand drawn up mid-turn; values: the cards drawn
    ROUND_END: int = 9   # seat = winner (-1: a draw), a = ROUND_WHY, b = points scored; values: points after


EVENT = _Event()


class _StartWhy(NamedTuple):
    HIGHER_TOP: int = 0    # the first round: the higher payoff top
    TIE: int = 1           # the first round, equal tops: the round's random stream
    LOSER: int = 2         # the loser of the round before
    AFTER_DRAW: int = 3    # the round before was drawn: the player who did not start it


START_WHY = _StartWhy()
START_NAMES = ("higher_top", "tie", "loser", "after_draw")


class _RoundWhy(NamedTuple):
    WIN: int = 0           # a payoff pile played out
    STOCK_OUT: int = 1     # a draw: the stock could not give the cards needed (or, at_once, is empty)


ROUND_WHY = _RoundWhy()
ROUND_NAMES = ("win", "stock_out")
