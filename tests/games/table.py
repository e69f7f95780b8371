"""What every game's hand-built position (the ``Table`` of its tests) shares: the
engine's own state arrays read by name, a run of moves, and the scripted policy
that answers whatever the test asks it to."""
from __future__ import annotations

from numba import njit

from analyser.testing.checks import fresh


def answer_params(pub, pv, legal, params):
    """Answers the action in params[0] (a Table's play puts it there)."""
    return int(params[0])


def scripted_policy(policy_sig):
    """``answer_params`` compiled as a policy of the game whose signature is ``policy_sig``."""
    return njit(policy_sig, cache=True)(answer_params)


class StateTable:
    """A position over the engine's ``pub``, ``priv`` and ``hid`` arrays; a game's
    Table builds it and adds ``play`` (one move, True when the unit is over)."""

    @property
    def pb(self):
        return self.pub[0]

    @property
    def hd(self):
        return self.hid[0]

    @property
    def seat(self) -> int:
        return int(self.pb["seat"])

    def ask(self, policy, game, legal, players, seed=None) -> int:
        """``policy``'s action here, called as the engine calls it: ``legal`` the marked legal actions,
        the seat's own records (``seed``: its stream, else the table's), its params row."""
        pv = self.priv[self.seat].copy()
        if seed is not None:
            pv["rng"][0] = seed
        args = fresh((self.pb, pv, legal))
        return int(policy.spec.function(*args, policy.engine_row(game, self.settings, players)))

    def plays(self, *moves) -> bool:
        """One ``play`` a move (None: a forced move); True when the unit is over."""
        over = False
        for m in moves:
            over = self.play(m)
        return over
