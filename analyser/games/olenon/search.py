"""Olenon's hooks for the compiled search players (analyser.kernels.search).

A world for the seat to decide is dealt from what it knows, by the rollouts' rule
(analyser.games.worlds, nothing dropped): its hand, the table, the passed cards, the discards
and every hand size stay as they are, and so do the cards every seat saw go into a hand
(``pub["known"]``, which the rules keep: a passer's card back in its hand) or, with talk=open,
every hand (``pub["open"]``). The rest, the pool (each value's copies less all those), is
shuffled over the other hands' unknown cards and the four set-aside cards. Cards of one value
are alike, so a world is its counts, and a uniform shuffle of the pool deals them as the
Python sampler's does. The play shows nothing more (kit.consistent is None): every draw is a
world.

What only the hidden record knows is set as the seat can know it: the match's counters
(plays, passes, decisions, ...) at 0; the round's action count at 0, so a world may play
``max_actions`` more actions from the decision on before the cap; the first round's starter
as ``rotate`` makes it (exact there; nothing the rules read, only the record).
"""
from __future__ import annotations

import numpy as np

from analyser.games.olenon.constants import ACTION, COPIES, LEGAL_SIZE, N_VALUES, PLAYERS, SET_ASIDE, SETTING
from analyser.games.olenon.dispatch import decide_nb
from analyser.games.olenon.engine import RECORD_DTYPE, record_nb
from analyser.games.olenon.playouts import current_nb, forced_policy, part_nb
from analyser.games.olenon.rules import legal_mask_nb, step_nb
from analyser.games.olenon.state import POLICIES_T, POLICY_SIG, new_state_nb
from analyser.kernels.bits import mark_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import next_u64_nb, shuffle_nb
from analyser.kernels.search import SearchPlayers, marked_actions_nb, sample_worlds

# The puts of one decision: on an empty table at most 4 counts of each of 7 values; on a table
# with cards at most 3 additions, 6 replaces and the pass.
MAX_CHOICES = ACTION.PASS
_COPIES = np.array(COPIES, np.int64)


@inline_kernel
def actions_nb(pb, pv, legal, out):
    """The legal puts and the pass, in id order (the engine marks ``legal`` before a pointer's call)."""
    return marked_actions_nb(legal, ACTION.COUNT, out)


@kernel
def world_nb(pb, pv, rng, pub, priv, hid):
    """One world for the seat to decide (the module docstring). False only for a position whose
    public counts leave no room for the hand sizes (no real position: a hand-built one)."""
    seat = pb["seat"]
    pub[0] = pb
    priv[seat] = pv
    hd = hid[0]
    placed = pb["open"] if pb["talk"] == 1 else pb["known"]     # what the seat can place in each hand
    pool = hd["deck"]                 # the shuffle buffer: the rules refill it at the next deal
    m = 0
    for v in range(N_VALUES):
        left = _COPIES[v] - pv["hand"][v] - pb["discarded"][v]
        if pb["table_value"] == v:
            left -= pb["table_len"]
        for s in range(PLAYERS):
            left -= pb["passed"][s] == v
            if s != seat:
                left -= placed[s, v]
        if left < 0:
            return False
        for _ in range(left):
            pool[m] = v
            m += 1
    shuffle_nb(rng, pool[:m])
    k = 0
    for s in range(PLAYERS):
        if s == seat:
            continue
        hand = priv[s]["hand"]
        free = pb["hand_len"][s]
        for v in range(N_VALUES):
            hand[v] = placed[s, v]
            free -= placed[s, v]
        if free < 0 or k + free > m:
            return False
        for i in range(k, k + free):
            hand[pool[i]] += 1
        k += free
    if m - k != SET_ASIDE:
        return False
    for i in range(SET_ASIDE):
        hd["set_aside"][i] = pool[k + i]
    hd["rng"][0] = next_u64_nb(rng)
    hd["key"] = next_u64_nb(rng)     # the match's later rounds are dealt from it
    hd["winner"] = -1
    hd["first"] = (pb["starter"] - pb["round"]) % PLAYERS
    hd["rounds_played"] = pb["round"]
    return True


sample_worlds_nb = sample_worlds(__file__, world_nb=world_nb, new_state_nb=new_state_nb)


@inline_kernel
def fill_legal_nb(pb, pv, legal):
    """The seat's legal puts and the pass, as the rules mark them before asking a pointer policy."""
    mark_nb(legal, legal_mask_nb(pb, pv["hand"]), LEGAL_SIZE // 8)


_PLAYERS = SearchPlayers(
    __file__, POLICY_SIG, POLICIES_T,
    actions_nb=actions_nb, fill_legal_nb=fill_legal_nb, world_nb=world_nb, decide_nb=decide_nb,
    step_nb=step_nb, record_nb=record_nb, current_nb=current_nb, part_nb=part_nb, new_state_nb=new_state_nb,
    FORCED=forced_policy, RECORD_DTYPE=RECORD_DTYPE, PLAYERS=PLAYERS, N_SETTINGS=len(SETTING),
    MAX_CHOICES=MAX_CHOICES)


def __getattr__(name):
    """``pimc_policy`` and ``ismcts_policy``, each compiled (or loaded from the cache) when first asked
    for (analyser.kernels.search.SearchPlayers)."""
    return _PLAYERS.policy(name)
