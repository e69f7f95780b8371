"""How an engine asks a seat's policy: a built-in policy by a direct call, any other through its pointer.

The engine takes one first-class function pointer per seat (each game's
``state.POLICY_T``), so a policy written in a notebook plugs in without
recompiling anything. A call through a pointer cannot be inlined, passes every
argument through memory, and needs the boolean ``legal`` array filled at every
decision. The built-in policies are known when the engine compiles, and most
read what they need from the state (a mask, the hand's counts), so every game's
engine calls them directly, by number (their *kind*), and builds ``legal`` only
for a policy that reads it.

Written once, here: the kinds, named from Python once per run (``policy_kinds``:
``POINTER``, or 1 + the policy's place in the game's ``BUILT_IN`` tuple; ``REVEAL`` for an open
search seat, which is called through its pointer after the engine shows it the table:
analyser.kernels.reveal), and
``with_kinds``, the entry point that passes them to a compiled kernel. A run's
records do not depend on the path taken (the kit's compiled-against-uncompiled
check and benchmarks/same_records.py cover both). Per game, in its
``dispatch.py``: ``BUILT_IN`` and ``decide_nb``, an if-chain over the kinds
calling each built-in by name. That chain cannot be shared: numba calls a
function chosen at run time only through a pointer, which is what the chain
avoids, and which policies need ``legal`` (and what else they skip) is the
game's to say.
"""
from __future__ import annotations

import numpy as np

from analyser.kernels.search_row import OPEN, REVEAL

POINTER = 0


def policy_kinds(fns, built_in: tuple, params: np.ndarray) -> np.ndarray:
    """Each seat's kind: 1 + the index of its function in ``built_in``, POINTER for any other, and
    REVEAL for a seat whose params row asks to see the table (an open search player's)."""
    kinds = np.array([next((k + 1 for k, f in enumerate(built_in) if f is fn), POINTER) for fn in fns], np.int64)
    if params.shape[1] > OPEN:                  # (a hand-made row may be shorter: no search player's)
        kinds[params[: len(fns), OPEN] != 0] = REVEAL
    return kinds


def with_kinds(kernel, built_in: tuple):
    """``kernel(seed, unit, players, settings, fns, kinds, params, *rest)`` as an entry point without
    ``kinds``: ``entry(seed, unit, players, settings, fns, params, *rest)`` names them from ``fns``
    and ``params``."""
    def entry(seed, unit, players, settings, fns, params, *rest):
        return kernel(seed, unit, players, settings, fns, policy_kinds(fns, built_in, params), params, *rest)

    entry.__doc__ = f"{kernel.__name__}, each seat's built-in policy called directly (analyser.games.dispatch)."
    return entry
