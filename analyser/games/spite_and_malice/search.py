"""Spite & Malice's hooks for the compiled search players (analyser.kernels.search).

A world for the seat to decide is dealt from what it knows, by the rollouts' rule
(analyser.games.worlds, nothing dropped): its hand, both payoff tops, every side pile and
every build pile stay as they are; the rest, the pool (each value's eight copies less all
those), is shuffled over the other hand, both payoff piles below their tops (the seat's own
too: it is face down) and the stock's order. No card ever goes from a place the seat saw into
one it does not, except a completed build pile into the stock, and the stock is then shuffled
whole, which the rollouts count as a shuffle (kit.shuffled: what was known is forgotten); and
the play shows nothing more (kit.consistent is None). So no public field is needed and every
draw is a world. Cards of one value are alike, so a uniform shuffle of the pool's values deals
the worlds the Python sampler deals.

What only the hidden record knows is set as the seat can know it: the match's counters
(builds, turns, completed piles, ...) at 0; the round's move count at 0, so a world may play
``max_moves`` more builds and discards from the decision on before the cap; the first round's
starter exact in round 0 (this round's), else 0 (the record's field only: no rule reads it);
the rounds played as the round's index; the round's stream (it shuffles the stock at every
completed pile) and the match key (the later rounds' deals) drawn from the seat's stream.
"""
from __future__ import annotations

from analyser.games.spite_and_malice.constants import COPIES, HAND, MAX_CENTRE, N_VALUES, PLAYERS, SETTING, SIDES
from analyser.games.spite_and_malice.dispatch import decide_nb
from analyser.games.spite_and_malice.engine import RECORD_DTYPE, record_nb
from analyser.games.spite_and_malice.playouts import current_nb, forced_policy, part_nb
from analyser.games.spite_and_malice.rules import legal_nb, step_nb
from analyser.games.spite_and_malice.state import POLICIES_T, POLICY_SIG, new_state_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import next_u64_nb, shuffle_nb
from analyser.kernels.search import SearchPlayers, marked_actions_nb, sample_worlds

# One decision: onto each build pile the payoff top, four side tops, the next value and a King
# from the hand; and each of at most five hand values onto each side pile (a stop only with an
# empty hand, when there are no discards).
MAX_CHOICES = MAX_CENTRE * (1 + SIDES + 2) + HAND * SIDES


@inline_kernel
def actions_nb(pb, pv, legal, out):
    """The legal builds, discards and the stop, in id order (the engine marks ``legal`` before a
    pointer's call: dispatch.reads_legal_nb)."""
    return marked_actions_nb(legal, legal.size, out)


@kernel
def world_nb(pb, pv, rng, pub, priv, hid):
    """One world for the seat to decide (the module docstring). False only for a position whose
    public cards and sizes leave a pool of the wrong size (no real position: a hand-built one)."""
    seat = pb["seat"]
    pub[0] = pb
    priv[seat] = pv
    hd = hid[0]
    seen = hd["payoff"][0, : N_VALUES + 1]      # scratch (zeroed by the caller): the public cards by value
    for s in range(PLAYERS):
        seen[pb["payoff_top"][s]] += 1             # an empty pile's 0 counts nothing
        for i in range(SIDES):
            for k in range(pb["side_len"][s, i]):
                seen[pb["side"][s, i, k]] += 1
    for b in range(MAX_CENTRE):
        for k in range(pb["build_len"][b]):
            seen[pb["build"][b, k]] += 1
    other = 1 - seat
    under0 = max(pb["payoff_len"][0] - 1, 0)
    under1 = max(pb["payoff_len"][1] - 1, 0)
    places = pb["hand_len"][other] + under0 + under1 + pb["stock_len"]
    pool = hd["stock"]                             # the shuffle buffer: the stock is dealt from its start
    m = 0
    for v in range(1, N_VALUES + 1):
        left = COPIES - int(pv["hand"][v]) - int(seen[v])     # the value's copies the seat cannot place
        if left < 0:
            return False
        for _ in range(left):
            if m == places:
                return False
            pool[m] = v
            m += 1
    if m != places:
        return False
    for v in range(N_VALUES + 1):
        seen[v] = 0
    shuffle_nb(rng, pool[:m])
    k = m
    hand = priv[other]["hand"]
    for _ in range(pb["hand_len"][other]):
        k -= 1
        hand[pool[k]] += 1
        pool[k] = 0
    for s in range(PLAYERS):
        for j in range(max(pb["payoff_len"][s] - 1, 0)):
            k -= 1
            hd["payoff"][s, j] = pool[k]
            pool[k] = 0
        if pb["payoff_len"][s] > 0:
            hd["payoff"][s, pb["payoff_len"][s] - 1] = pb["payoff_top"][s]
    hd["rng"][0] = next_u64_nb(rng)
    hd["key"] = next_u64_nb(rng)      # the match's later rounds are dealt from it
    hd["winner"] = -1
    hd["first"] = pb["starter"] if pb["round"] == 0 else 0
    hd["rounds_played"] = pb["round"]
    return True


sample_worlds_nb = sample_worlds(__file__, world_nb=world_nb, new_state_nb=new_state_nb)


@inline_kernel
def fill_legal_nb(pb, pv, legal):
    """The seat's legal moves, as the rules mark them before asking a pointer policy."""
    legal_nb(pb, pv["hand"], pb["seat"], legal)


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
