"""Built-in Enemy Anemone policies.

A policy is an ``@njit`` function ``(pub, pv, legal, params) -> action`` with
``POLICY_SIG``: ``pub`` the public record, ``pv`` the deciding seat's private
record, ``legal`` the legal cards (also ``pv["legal"]`` as a mask), ``params``
the seat's parameter row in the order of its ParamSpecs (catalog.py). An
action is ``card + ACTION.ONE * k1 + ACTION.TWO * k2``: ``play_nb(card, k1, k2)``
builds one, from numba or Python. When ``pub["discard"]`` is set the action is
a bare card, discarded. A policy is a pure function of its arguments
(randomness from ``pv["rng"]``); it never writes to ``pub`` or ``legal``.

Everything works on uint64 card masks (ids grow with rank, so the lowest set
bit is the lowest card): a decision is a handful of instructions, no loop over
the deck. Discard rules (the ``discard`` parameter, params[0] of every policy
but random): 0 bonus - the lowest 3, 5 or 8 (it scores 2 in its own pile),
else the lowest card; 1 lowest; 2 highest.
"""
import numpy as np
from numba import njit

from analyser.games.enemy_anemone.constants import (
    ACTION,
    BONUS_RANKS,
    DECK_SIZE,
    DECKS,
    MAX_PLAYERS,
    N_RANKS,
    N_SUITS,
    POINTS,
    RANK_MASK,
    RANK_OF,
    SUIT_MASK,
)
from analyser.games.enemy_anemone.state import POLICY_SIG
from analyser.kernels.bits import count_nb, highest_nb, lowest_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import below_nb

DISCARD_BONUS, DISCARD_LOWEST, DISCARD_HIGHEST = 0, 1, 2
_ONE = np.uint64(1)
# AT_LEAST[v]: every card of rank v or more (v = 0..11; all cards for v <= 1, none for v > 10).
AT_LEAST = np.array([sum(int(RANK_MASK[r]) for r in range(max(v, 1), N_RANKS + 1)) for v in range(N_RANKS + 2)],
                    np.uint64)
BONUS = np.uint64(sum(int(RANK_MASK[r]) for r in BONUS_RANKS))
# DECK[n]: the cards in play with n players, as a mask.
DECK = np.array([sum(1 << int(c) for c in DECKS[n, : DECK_SIZE[n]]) for n in range(MAX_PLAYERS + 1)], np.uint64)


@inline_kernel
def play_nb(card, ones, twos):
    """The action playing ``card`` with ``ones`` +1 tokens and ``twos`` +2 tokens attached."""
    return np.int64(card) + ACTION.ONE * np.int64(ones) + ACTION.TWO * np.int64(twos)


@inline_kernel
def rank_nb(card):
    """A lookup: ``card // N_SUITS + 1`` on a signed card cost a dozen instructions."""
    return RANK_OF[np.uint8(card)]


@inline_kernel
def nth_nb(mask, k):
    """The k-th lowest card of a mask (k < its count)."""
    for _ in range(k):
        mask &= mask - _ONE
    return lowest_nb(mask)


@inline_kernel
def discard_nb(cards, rule):
    """The card a discard rule (see the module docstring) throws away."""
    if rule == DISCARD_HIGHEST:
        return highest_nb(cards)
    if rule == DISCARD_BONUS and cards & BONUS:
        return lowest_nb(cards & BONUS)
    return lowest_nb(cards)


@inline_kernel
def cheapest_nb(need, ones, twos):
    """The least token value >= need the seat can attach (0 if need <= 0, -1 if
    out of reach): every value up to ones + 2 * twos when it holds a +1, else
    only even ones. Selects, not branches: the cards decide them."""
    need = max(need, 0)
    need += (need & 1) * np.int64(ones == 0)
    return need if need <= ones + 2 * twos else -1


@inline_kernel
def tokens_nb(value, twos):
    """The tokens making up ``value`` (cheapest_nb's) with the fewest tokens: +2s first."""
    k2 = min(twos, value >> 1)
    return ACTION.ONE * (value - 2 * k2) + ACTION.TWO * k2


@inline_kernel
def greedy_card_nb(pub, cards, budget):
    """Leading: the highest card. Following: the lowest card that wins so far with
    ``budget`` more value, else the lowest card."""
    if pub["trick_len"] == 0:
        return highest_nb(cards)
    winners = cards & AT_LEAST[min(max(np.int64(pub["to_beat"]) - budget, 0), N_RANKS + 1)]
    return lowest_nb(winners if winners else cards)


@kernel
def unseen_high_nb(pub, pv, card):
    """The highest rank this seat has not seen among the suits still free after
    ``card`` (not in its hand, its discards or played this hand); 0 if none."""
    seen = pv["hand"] | pv["discarded"] | pub["played"] | pub["trick_mask"] | SUIT_MASK[card % N_SUITS]
    unseen = DECK[pub["players"]] & ~seen
    return rank_nb(highest_nb(unseen)) if unseen else 0


@inline_kernel
def timing_nb(pub, pv, only_to_win, min_points, min_tokens):
    """Greedy's card, plus the cheapest tokens that turn a loser into the winner
    so far; with only_to_win=0 also a top-up above every unseen rank of the free
    suits while opponents are still to play. Only for a trick worth min_points
    (its cards and this one) and while holding min_tokens tokens (at least one).
    Both readings (a card that wins by rank, one that needs tokens) are computed
    and one is selected: branches on the cards mispredicted at most decisions."""
    seat = np.uint8(pub["seat"])        # unsigned: no negative-index check
    ones, twos = np.int64(pub["ones"][seat]), np.int64(pub["twos"][seat])
    cards = pv["legal"]
    card = greedy_card_nb(pub, cards, 0)
    if ones + twos < max(min_tokens, 1):
        return card
    best = np.int64(pub["to_beat"])
    losing = rank_nb(card) < best            # no card wins by rank
    need = cheapest_nb(best - rank_nb(highest_nb(cards)), ones, twos)
    winners = cards & AT_LEAST[min(max(best - need, 0), N_RANKS + 1)]     # none when need < 0
    spend = need if losing else 0
    play = (lowest_nb(winners) if winners else card) if losing else card
    use = (spend >= 0) & (pub["trick_points"] + POINTS[np.uint8(play)] >= min_points)
    if only_to_win == 0 and use and pub["turn"] < pub["turns"] - 1:
        rank = rank_nb(play)
        high = unseen_high_nb(pub, pv, play)
        if high >= rank + spend:
            more = cheapest_nb(high + 1 - rank, ones, twos)
            spend = more if more >= 0 else spend
    return play + tokens_nb(spend, twos) if use else card


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def random_policy(pub, pv, legal, params):
    """Uniform over the legal (card, k1, k2): one draw over cards * (ones+1) * (twos+1)."""
    cards = pv["legal"]
    n = count_nb(cards)
    if pub["discard"]:
        return nth_nb(cards, below_nb(pv["rng"], n))
    seat = pub["seat"]
    ones, twos = np.int64(pub["ones"][seat]), np.int64(pub["twos"][seat])
    k = below_nb(pv["rng"], n * (ones + 1) * (twos + 1))
    rest = k // n
    return play_nb(nth_nb(cards, k % n), rest % (ones + 1), rest // (ones + 1))


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def greedy_policy(pub, pv, legal, params):
    """Wins the trick when it can, as cheaply as possible, else dumps its lowest card; never spends tokens."""
    if pub["discard"]:
        return discard_nb(pv["legal"], params[0])
    return greedy_card_nb(pub, pv["legal"], 0)


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def timing_policy(pub, pv, legal, params):
    """timing_nb, except in the last late_tricks tricks of the match, where tokens
    are worth nothing but a tiebreak: it then plays greedy's card counting every
    token it holds, and attaches them all."""
    if pub["discard"]:
        return discard_nb(pv["legal"], params[0])
    late = params[4]
    if late > 0 and pub["hand"] == pub["hands"] - 1 and pub["trick"] >= pub["tricks"] - late:
        seat = pub["seat"]
        ones, twos = np.int64(pub["ones"][seat]), np.int64(pub["twos"][seat])
        return play_nb(greedy_card_nb(pub, pv["legal"], ones + 2 * twos), ones, twos)
    return timing_nb(pub, pv, params[1], params[2], params[3])


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def lowball_policy(pub, pv, legal, params):
    """Ducks with its lowest card for the first ``duck`` tricks of each hand (the
    lowest card takes a token), then spends them as timing with only_to_win=1."""
    if pub["discard"]:
        return discard_nb(pv["legal"], params[0])
    if pub["trick"] < params[1]:
        return lowest_nb(pv["legal"])
    return timing_nb(pub, pv, 1, params[2], params[3])
