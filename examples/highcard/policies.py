"""High card's policies. An honest policy reads only its own hand
(``table["hands"][seat]``), the played cards, the score, its own stream and
memory. ``peek_policy`` reads the other hands: it is never registered, the kit
uses it to show that its hidden-information check catches a cheat."""
from analyser.kernels.jit import kernel
from analyser.kernels.rng import uniform_choice_nb

from .rules import POLICY_SIG, typed


@kernel
def extreme_nb(table, seat, legal, sign):
    """The legal slot of the highest (sign 1) or lowest (sign -1) rank, the first of equals."""
    best, pick = -99, -1
    for i in range(legal.size):
        if legal[i]:
            v = sign * (table["hands"][seat, i] >> 2)
            if v > best:
                best, pick = v, i
    return pick


@typed(POLICY_SIG, _nrt=False)
def random_policy(table, seat, legal, params):
    return uniform_choice_nb(table["rng"][seat], legal)


@typed(POLICY_SIG, _nrt=False)
def high_policy(table, seat, legal, params):
    return extreme_nb(table, seat, legal, 1)


@typed(POLICY_SIG, _nrt=False)
def alternate_policy(table, seat, legal, params):
    """Highest card, except every ``every``-th decision of the match: the lowest.
    Counts its decisions in its memory, which a re-deal must keep."""
    mem = table["memory"][seat]
    mem[0] += 1
    if mem[0] % params[0] == 0:
        return extreme_nb(table, seat, legal, -1)
    return extreme_nb(table, seat, legal, 1)


@typed(POLICY_SIG, _nrt=False)
def peek_policy(table, seat, legal, params):
    """Cheats: saves its high card when its partner holds a card no opponent can beat."""
    partner, top = 0, 0
    for s in range(4):
        for i in range(table["hand_len"][s]):
            r = table["hands"][s, i] >> 2
            if s == (seat + 2) % 4:
                partner = max(partner, r)
            elif s % 2 != seat % 2:
                top = max(top, r)
    return extreme_nb(table, seat, legal, -1 if partner > top else 1)
