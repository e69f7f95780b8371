"""Toy policies of one's own for high card, to calibrate tuning (analyser tune, benchmarks/calibrate_tune.py):
the truth is known by construction.

- ``PLANTED``: plays its highest card with probability 1 - (|x - 4| / 4 + |y - 2| / 2) / 2, else its lowest,
  so its strength peaks at x = 4, y = 2 (defaults x = 0, y = 0, the weakest setting).
- ``SHIFTED``: a uniformly random card, the draw taken k places further along its stream: every k is
  exactly as strong as every other, yet each plays other cards (a null that is not an exact tie). Not a
  shift of the draw among the legal cards: a seat holds 3 cards at each play, so shifts by 0, 3 and 6 would
  play alike and a third of the settings would be the defaults themselves.
- ``INERT``: its highest card whatever x: a parameter that does nothing (every setting is the defaults' play).
"""
from numba import njit

from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.kernels.rng import below_nb, uniform_choice_nb

from .policies import extreme_nb
from .rules import POLICY_SIG


@njit(POLICY_SIG, cache=True)
def planted_policy(table, seat, legal, params):
    miss = (abs(params[0] - 4.0) / 4.0 + abs(params[1] - 2.0) / 2.0) / 2.0
    if below_nb(table["rng"][seat], 1000) < 1000 * miss:
        return extreme_nb(table, seat, legal, -1)
    return extreme_nb(table, seat, legal, 1)


@njit(POLICY_SIG, cache=True)
def shifted_policy(table, seat, legal, params):
    st = table["rng"][seat]
    for _ in range(int(params[0])):
        uniform_choice_nb(st, legal)                 # a draw skipped
    return uniform_choice_nb(st, legal)


@njit(POLICY_SIG, cache=True)
def inert_policy(table, seat, legal, params):
    return extreme_nb(table, seat, legal, 1)


PLANTED = PolicySpec("planted", planted_policy, "a planted optimum at x=4, y=2",
                     (ParamSpec("x", 0, "distance from 4 lowers the share", low=0, high=8, integer=True),
                      ParamSpec("y", 0, "distance from 2 lowers the share", low=0, high=4, integer=True)))
SHIFTED = PolicySpec("shifted", shifted_policy, "random, its draw k places along its stream",
                     (ParamSpec("k", 0, "changes which card, not how good", low=0, high=8, integer=True),))
INERT = PolicySpec("inert", inert_policy, "high, whatever x",
                   (ParamSpec("x", 0, "changes nothing", low=0, high=8, integer=True),))
