"""The compiled loops every game runs, written once here and bound to each game's functions.

A template below is a plain function whose free names (``play_unit_nb``, ``step_nb``, ...) are
the game's: :func:`bind` copies it with those names as its globals, and the game's module
compiles the copy with its own signature. numba then sees an ordinary function of the game:
it compiles it once per game, for any line-up (the policies are still arguments), inlines and
optimises the game's step into it as it did a hand-written copy, and caches it in the game's
folder (analyser.kernels.cache.own), so an edit of the game's rules recompiles it and no other
game's. That is why this is not a generic kernel that takes the rule functions as arguments:
those recompile per combination and defeat the cache.

- :func:`unit_loop`: ``play_unit_nb``, a unit from its setup to its end, step by step (rules.py
  of the games whose unit is stepped to its end; Palace plays its own, which skips cycles);
- :func:`simulate_loop`: ``simulate_nb`` and its ``_block_nb`` (engine.py of every game);
- :func:`playout_loop`: ``playout_nb`` and ``forced_policy`` (playouts.py of every game);
- :func:`worlds_loop`: ``play_worlds_nb`` of a game played in parts (hands, rounds), which
  reads what the world's current part scored (playouts.py of every game but Palace, whose
  game is one part and is played out by its own cycle-skipping loop);
- :func:`parallel_worlds`: the parallel loop over worlds, around a game's one-world body.
"""
from __future__ import annotations

import types as pytypes

import numpy as np
from numba import njit, prange, types

from analyser.kernels import cache
from analyser.kernels.jit import PointerEntry, kernel
from analyser.kernels.records import copy_bytes_nb

# The names a template reads from its game, given by bind() (here, so that a reader and the
# linter know they are meant; a template run unbound fails on calling None).
play_unit_nb = begin_unit_nb = step_nb = record_nb = new_state_nb = None
part_nb = reseed_nb = current_nb = None
BLOCK = LEGAL_SIZE = 0


def bind(template, owner: str, **names):
    """A copy of ``template`` whose globals include ``names``, cached with the code of the file
    ``owner`` (the game module that binds it: its ``__file__``)."""
    fn = pytypes.FunctionType(template.__code__, {**template.__globals__, **names}, template.__name__,
                              template.__defaults__)
    fn.__qualname__ = template.__qualname__
    fn.__doc__ = template.__doc__
    cache.own(fn, owner)
    return fn


def _compile(fn, signature):
    """``fn`` compiled (or loaded) for ``signature`` now, so that a pointer to it can be handed to a
    kernel; nothing under NUMBA_DISABLE_JIT, where it is a plain function (the kit's uncompiled check)."""
    if hasattr(fn, "compile"):
        fn.compile(signature.args)


def _play_unit(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """The one place a unit is played, for simulation and traces alike."""
    over = begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    while not over:
        over = step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


def unit_loop(owner: str, *, begin_unit_nb, step_nb):
    """A game's ``play_unit_nb``, a kernel (analyser.kernels.jit), compiled where it is called."""
    return kernel(bind(_play_unit, owner, begin_unit_nb=begin_unit_nb, step_nb=step_nb))


def _block(seed, first, lo, hi, players, settings, policies, kinds, params, streams, out, play_unit):
    """Units lo .. hi - 1, on buffers of this block's own (params and settings copied too: a
    shared array's refcount would bounce between threads). Not a kernel: it allocates (NRT).
    ``play_unit`` is the game's play_unit_nb, called through a pointer (simulate_loop)."""
    params = params.copy()
    settings = settings.copy()
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    for i in range(lo, hi):
        play_unit(seed, first + i, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
        record_nb(out[i], first + i, pub, hid)


def _simulate(seed, first, players, settings, policies, kinds, params, streams, out, block, play_unit):
    """Play units first .. first + len(out) - 1 into ``out``, BLOCK units per parallel work item."""
    n = out.size
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        lo = b * BLOCK
        hi = min(n, lo + BLOCK)
        block(seed, first, lo, hi, players, settings, policies, kinds, params, streams, out, play_unit)


def simulate_loop(owner: str, signature, *, unit_sig, play_unit_nb, record_nb, new_state_nb, block: int):
    """``(_block_nb, simulate_nb)`` of a game, compiled now (they load from the disk cache on import):
    ``simulate_nb`` with ``signature``, over parallel blocks of ``block`` units.

    The parallel loop calls the block, and the block the game's ``play_unit_nb`` (typed
    ``unit_sig``), through function pointers, not directly: numba links a callee's code into its
    caller and optimises all of it again, and the parallel loop is compiled twice over (its work
    function and the function around it), so direct calls compiled the game's whole engine three
    more times on every first run. A pointer call per block and per unit costs nothing a run can
    see; the hot loop, play_unit_nb, still has the game's step and policies inlined."""
    _compile(play_unit_nb, unit_sig)
    unit_t = types.FunctionType(unit_sig)
    block_sig = types.void(types.int64, types.int64, types.int64, types.int64, *signature.args[2:], unit_t)
    block_nb = njit(block_sig, nogil=True, cache=True)(bind(_block, owner, record_nb=record_nb,
                                                             new_state_nb=new_state_nb))
    template = bind(_simulate, owner, BLOCK=block)

    def make():
        kernel = njit(types.void(*signature.args, types.FunctionType(block_sig), unit_t), parallel=True,
                      nogil=True, cache=True)(template)
        return kernel, (block_nb, play_unit_nb)

    return block_nb, PointerEntry(template, signature, make, pointers=2)


def _playout(seed, unit, players, settings, policies, kinds, params, streams, pubs, privs, hids, begin, step):
    """The records after the setup and every action in row i of pubs, privs and hids; returns
    how many rows (all of them: the buffers were too small)."""
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    over = begin(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    n = 0
    while True:
        copy_bytes_nb(pubs[n], pub)
        copy_bytes_nb(privs[n], priv)
        copy_bytes_nb(hids[n], hid)
        n += 1
        if over or n == pubs.shape[0]:
            return n
        over = step(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


def _forced(pub, pv, legal, params):
    """The rollout's candidate: the action in the first parameter."""
    return np.int64(params[0])


def playout_loop(owner: str, signature, policy_sig, *, begin_sig, step_sig, begin_unit_nb, step_nb, new_state_nb):
    """``(playout_nb, forced_policy)`` of a game, compiled now: a unit kept action by action for
    the test kit and replay (``signature``: kernels.signatures.playout_signature), and the policy
    of the game's ``policy_sig`` that plays the rollout's candidate action. The playout calls the
    game's ``begin_unit_nb`` and ``step_nb`` through pointers (typed ``begin_sig`` and
    ``step_sig``), so it shares their compiled code with the engine instead of optimising it
    all again (the playout is not on a hot path)."""
    template = bind(_playout, owner, new_state_nb=new_state_nb)

    def make():
        _compile(begin_unit_nb, begin_sig)
        _compile(step_nb, step_sig)
        kernel = njit(types.int64(*signature.args, types.FunctionType(begin_sig), types.FunctionType(step_sig)),
                      cache=True)(template)
        return kernel, (begin_unit_nb, step_nb)

    playout_nb = PointerEntry(template, signature, make, pointers=2)
    forced_policy = njit(policy_sig, cache=True, _nrt=False)(bind(_forced, owner))   # see analyser.kernels.jit
    return playout_nb, forced_policy


def _world(w, policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs, privs, hids,
           actions, seed, first_world, out, current):
    """out[w, a]: the outcome of the unit of world w (pubs[w], privs[w], hids[w]) after
    ``actions[a]``; current[w, a, 0 | 1, s]: seat s's win share and score of the part world w
    was in (the game's current_nb), read when that part ends. The deciding seat plays the action
    through ``forced`` (its params row holds it) for the first step only; every action of a world
    starts from the same records and the world's own streams (the game's reseed_nb), so the
    actions are compared on the same future (common random numbers). The step is called from one
    place, so the game's step is compiled into this kernel once (three call sites took three
    times as long to compile)."""
    own = params.copy()               # this world's rows: an open search seat's table is written into its row
    for a in range(actions.size):
        pub, priv, hid = pubs[w: w + 1].copy(), privs[w].copy(), hids[w: w + 1].copy()
        legal = np.zeros(LEGAL_SIZE, np.bool_)
        log = np.zeros(0, np.int32)
        world = first_world + w
        part = part_nb(pub)
        reseed_nb(seed, world, part, streams, priv, hid)
        params_a = forced_params.copy()
        params_a[pub[0]["seat"], 0] = actions[a]
        first, read, over = True, False, False
        while not over:
            if first:
                seats, seat_kinds, rows = forced, forced_kinds, params_a
            else:
                seats, seat_kinds, rows = policies, kinds, own
            over = step_nb(seed, world, settings, streams, seats, seat_kinds, rows, pub, priv, hid, legal, log)
            first = False
            if not read and (over or part_nb(pub) != part):
                current_nb(pubs[w: w + 1], hids[w: w + 1], pub, hid, current[w, a])
                read = True
        record_nb(out[w, a], world, pub, hid)


def _over_worlds(policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs, privs, hids,
                 actions, seed, first_world, out, current, world):
    """Every world, in parallel: ``world(w, ...)`` is the game's one-world body."""
    for w in prange(pubs.shape[0]):
        world(np.int64(w), policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs,
              privs, hids, actions, seed, first_world, out, current)


def parallel_worlds(owner: str, signature, world):
    """A game's ``play_worlds_nb`` (``signature``: kernels.signatures.play_worlds_signature) from
    ``world(w, *arguments)``, its body for world w, compiled when first called
    (analyser.kernels.jit.PointerEntry): only a rollout plays worlds, and replay imports the module
    for playout_nb. The parallel loop calls the body through a function pointer, as simulate_loop's
    calls its block."""
    template = bind(_over_worlds, owner)

    def make():
        world_sig = types.void(types.int64, *signature.args)
        world_nb = njit(world_sig, nogil=True, cache=True)(world)
        kernel = njit(types.void(*signature.args, types.FunctionType(world_sig)), parallel=True, nogil=True,
                      cache=True)(template)
        return kernel, (world_nb,)

    return PointerEntry(template, signature, make, pointers=1, lazy=True)


def worlds_loop(owner: str, signature, *, step_nb, record_nb, current_nb, part_nb, reseed_nb, legal_size: int):
    """A game's ``play_worlds_nb`` (``signature``: kernels.signatures.play_worlds_signature), compiled
    on its first call: ``part_nb(pub)`` is the part of the unit a position is in, ``reseed_nb(seed, world, part,
    streams, priv, hid)`` gives a world its own streams (analyser.kernels.worlds), ``current_nb``
    reads what the part scored (see parallel_worlds)."""
    return parallel_worlds(owner, signature, bind(_world, owner, step_nb=step_nb, record_nb=record_nb,
                                                  current_nb=current_nb, part_nb=part_nb, reseed_nb=reseed_nb,
                                                  LEGAL_SIZE=legal_size))
