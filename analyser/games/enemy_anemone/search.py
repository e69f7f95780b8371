"""Enemy Anemone's hooks for the compiled search players (analyser.kernels.search).

A world for the seat to decide is dealt from what it knows: its hand and discards, the trick,
the score piles, the tokens and every count stay as they are; the pool (the deck less those
cards and the ones played this hand) is dealt over the other hands, their face-down discards
and, with 2 players, the draw pile (its order too). No card goes where the seat saw it go
into a hidden place, so the play shows only voids (kit.Shown), which the rules keep public in
``pb["voided"]``: a seat that showed it holds no card of a suit holds none now, and its k-th
discard is of no suit it had shown void in by then.

At 3-6 players that is all the play showed, and the worlds are the Python sampler's with
kit.consistent (each consistent deal as likely). At 2 players the seat draws after tricks and a
draw may bring a void suit back; ``voided`` forgets a seat's voids when it draws, so the worlds
drop what the voids before its last draw still tell (that at most the cards drawn since are of
those suits, and which suits its earlier discards could be): an honest sampler, uniform over
the deals consistent with the voids shown since each seat's last draw.

Uniform without plain rejection (a seat void in two suits of four would reject most deals):
each seat that showed a void gets its hand drawn from the pool's cards of the suits it may
hold, and its discards from those it may have discarded; a draw that takes a card an earlier
seat took is drawn again from the start, so every consistent deal has the same chance (each
seat's draw is uniform over its allowed cards, whatever the others took). The rest is shuffled
over the other places, and a world whose discards cannot be matched to the discard events
(kit.Shown) is drawn again too.

What only the hidden record knows is set as the seat can know it: the match's action count
exactly (each trick takes one action a turn, so it follows from the hand, trick and turn, and the
cap holds as in the real match); the hands played; the first hand's starter in hand 0 (later,
0: it is on record only); the other counters (decisions, tricks and tokens per seat) at 0.
"""
from __future__ import annotations

import numpy as np

from analyser.games.enemy_anemone.constants import (
    ACTION,
    DECK_SIZE,
    DECKS,
    MAX_PLAYERS,
    N_RANKS,
    N_SUITS,
    SETTING,
    SUIT_MASK,
)
from analyser.games.enemy_anemone.dispatch import decide_nb
from analyser.games.enemy_anemone.engine import RECORD_DTYPE, record_nb
from analyser.games.enemy_anemone.playouts import current_nb, forced_policy, part_nb
from analyser.games.enemy_anemone.rules import step_nb
from analyser.games.enemy_anemone.state import POLICIES_T, POLICY_SIG, new_state_nb
from analyser.kernels.bits import BIT, NONE, count_nb, lowest_nb, mark_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import next_u64_nb, shuffle_from_nb, shuffle_nb
from analyser.kernels.search import SearchPlayers, sample_worlds

# A hand's cards (10 at most) times the token combinations: k1 + k2 <= 9 tokens, (k1 + 1)(k2 + 1) <= 30.
MAX_CHOICES = N_RANKS * 30
MAX_TRIES = 10_000           # draws for one world before the caller falls back
EVERY_SUIT = np.uint64(sum(int(m) for m in SUIT_MASK))
DECK_MASK = np.array([sum(1 << int(c) for c in DECKS[n, : DECK_SIZE[n]]) for n in range(MAX_PLAYERS + 1)],
                     np.uint64)


@inline_kernel
def actions_nb(pb, pv, legal, out):
    """The legal cards with every count of +1 and +2 tokens the seat can attach (none to a discard),
    in id order (card + ACTION.ONE * k1 + ACTION.TWO * k2: +2s, then +1s, then the card). Read
    from ``pv["legal"]``, the cards the engine marks into ``legal``, so it serves at any node."""
    seat = np.uint8(pb["seat"])
    ones = 0 if pb["discard"] else pb["ones"][seat]
    twos = 0 if pb["discard"] else pb["twos"][seat]
    n = 0
    for k2 in range(twos + 1):
        for k1 in range(ones + 1):
            m = pv["legal"]
            while m != NONE:
                out[n] = lowest_nb(m) + ACTION.ONE * k1 + ACTION.TWO * k2
                n += 1
                m &= m - np.uint64(1)
    return n


@inline_kernel
def suits_nb(pb, s, low, high):
    """The cards of the suits u whose ``pb["voided"][s, u]`` is not in [low, high]."""
    out = NONE
    for u in range(N_SUITS):
        v = pb["voided"][s, u]
        if v < low or v > high:
            out |= SUIT_MASK[u]
    return out


@kernel
def holds_nb(pb, s, hand, discarded):
    """Whether seat s may hold ``hand`` and have discarded ``discarded`` (card masks) given the voids
    it showed: no hand card of a void suit, and its discards matched to its discard events, each of
    a suit not void by then (a card of a suit first shown void at its k-th discard went at one of
    the first k - 1: Hall's condition on those prefixes)."""
    if hand & ~suits_nb(pb, s, 1, 127) != NONE:
        return False
    early = 0                        # discards that had to go by the k-th event
    for k in range(1, pb["discards"][s] + 1):
        for u in range(N_SUITS):
            if pb["voided"][s, u] == k:
                early += count_nb(discarded & SUIT_MASK[u])
        if early > k - 1:
            return False
    return True


@inline_kernel
def pick_nb(rng, allowed, k, buf):
    """k cards drawn uniformly from the card mask ``allowed`` (holding k or more)."""
    n = 0
    m = allowed
    while m != NONE:
        buf[n] = lowest_nb(m)
        n += 1
        m &= m - np.uint64(1)
    if k >= n:
        return allowed
    out = NONE
    if k > 0:
        shuffle_from_nb(rng, buf[:n], n - k)
        for i in range(n - k, n):
            out |= BIT[buf[i]]
    return out


@kernel
def deal_nb(pb, seat, pool, rng, priv, hd):
    """One try (the module docstring): False if a seat's draw took a card already taken or the
    discards do not match their events."""
    players = pb["players"]
    buf = hd["deck"]                 # the shuffle buffer: the rules refill it at the next deal
    taken = NONE
    for s in range(players):
        pv = priv[s]
        if s == seat:
            continue
        pv["hand"] = NONE
        pv["discarded"] = NONE
        if suits_nb(pb, s, 1, 127) != EVERY_SUIT:      # a void shown: the hand from its suits
            pv["hand"] = pick_nb(rng, pool & suits_nb(pb, s, 1, 127), pb["hand_len"][s], buf)
            if pv["hand"] & taken != NONE:
                return False
            taken |= pv["hand"]
        if suits_nb(pb, s, 1, 1) != EVERY_SUIT:        # void at its first discard
            pv["discarded"] = pick_nb(rng, pool & suits_nb(pb, s, 1, 1), pb["discards"][s], buf)
            if pv["discarded"] & taken != NONE:
                return False
            taken |= pv["discarded"]
    n = 0
    m = pool & ~taken
    while m != NONE:
        buf[n] = lowest_nb(m)
        n += 1
        m &= m - np.uint64(1)
    shuffle_nb(rng, buf[:n])
    k = 0
    for s in range(players):
        pv = priv[s]
        if s == seat:
            continue
        if pv["hand"] == NONE:
            for _ in range(pb["hand_len"][s]):
                pv["hand"] |= BIT[buf[k]]
                k += 1
        if pv["discarded"] == NONE:
            for _ in range(pb["discards"][s]):
                pv["discarded"] |= BIT[buf[k]]
                k += 1
        if not holds_nb(pb, s, pv["hand"], pv["discarded"]):
            return False
    for i in range(pb["draw_len"]):
        hd["draw"][i] = buf[k + i]
    return True


@kernel
def world_nb(pb, pv, rng, pub, priv, hid):
    """One world for the seat to decide (the module docstring). False: no consistent world found in
    MAX_TRIES draws, or none exists (a void seat's suits hold fewer cards than it must have)."""
    seat = pb["seat"]
    players = pb["players"]
    pub[0] = pb
    priv[seat] = pv
    hd = hid[0]
    pool = DECK_MASK[players] & ~(pv["hand"] | pv["discarded"] | pb["played"])
    need = pb["draw_len"]
    for s in range(players):
        if s != seat:
            need += pb["hand_len"][s] + pb["discards"][s]
            if (count_nb(pool & suits_nb(pb, s, 1, 127)) < pb["hand_len"][s]
                    or count_nb(pool & suits_nb(pb, s, 1, 1)) < pb["discards"][s]):
                return False
    if count_nb(pool) != need:
        return False
    dealt = False
    for _ in range(MAX_TRIES):
        dealt = deal_nb(pb, seat, pool, rng, priv, hd)
        if dealt:
            break
    if not dealt:
        return False
    for s in range(players):         # as the rules leave them (kit.AnemonePosition.place)
        legal = priv[s]["hand"] & ~pb["trick_mask"]
        priv[s]["legal"] = legal if legal != NONE else priv[s]["hand"]
    hd["rng"][0] = next_u64_nb(rng)
    hd["first"] = pb["starter"] if pb["hand"] == 0 else 0
    hd["hands_played"] = pb["hand"]
    hd["actions"] = (pb["hand"] * pb["tricks"] + pb["trick"]) * pb["turns"] + pb["turn"]
    hd["error_seat"] = -1
    return True


sample_worlds_nb = sample_worlds(__file__, world_nb=world_nb, new_state_nb=new_state_nb)


@inline_kernel
def fill_legal_nb(pb, pv, legal):
    """The seat's legal cards, as the engine marks them before asking a pointer policy."""
    mark_nb(legal, pv["legal"], 8)


@inline_kernel
def fallback_nb(kind, policies, pb, pv, legal, row):
    """The rollout policy's action (no world found within MAX_TRIES)."""
    return decide_nb(kind, policies, pb["seat"], pb, pv, legal, row, pv["legal"])


_PLAYERS = SearchPlayers(
    __file__, POLICY_SIG, POLICIES_T,
    actions_nb=actions_nb, fill_legal_nb=fill_legal_nb, world_nb=world_nb, fallback_nb=fallback_nb,
    step_nb=step_nb, record_nb=record_nb, current_nb=current_nb, part_nb=part_nb, new_state_nb=new_state_nb,
    FORCED=forced_policy, RECORD_DTYPE=RECORD_DTYPE, PLAYERS=MAX_PLAYERS, N_SETTINGS=len(SETTING),
    MAX_CHOICES=MAX_CHOICES)


def __getattr__(name):
    """``pimc_policy`` and ``ismcts_policy``, each compiled (or loaded from the cache) when first asked
    for (analyser.kernels.search.SearchPlayers)."""
    return _PLAYERS.policy(name)
