"""One package per game; each registers a GameSpec in analyser.games.registry.

Every game has one shape, so that what is built on top (the kit, rollouts,
search players) is written once. Olenon (``analyser/games/olenon/``) is the
cleanest full example and ``examples/highcard`` the smallest (a game written
outside the package, with its own state layout). What a game writes
(``analyser/games/<game>/``, as the four built-in games do):

- ``__init__.py``: its ``GAME = GameSpec(...)``: players, rule settings, policy
  catalogue, record dtype, summary columns, the ``cap`` on a unit's actions and
  every seat's ``score_bounds`` (what the kit checks every unit against),
  ``package=__name__``; importing it never loads numba.
- ``constants.py``: cards, actions (``ACTION.COUNT`` of them), the settings row's
  indices (``SETTING``), the trace events (``EVENT``).
- ``records.py``: its counters (ending with analyser.kernels.outcome.STATUS_COUNTERS)
  and ``RECORD_DTYPE = record_dtype(...)`` (the outcome block first); plain numpy.
- ``state.py``: the public, private and hidden dtypes, ``new_state_nb`` and the
  numba types from analyser.kernels.signatures.state_types.
- ``rules.py``: the rules as ``kernel``/``inline_kernel`` functions
  (analyser.kernels.jit), logging through analyser.kernels.eventlog, with the
  three entry points every game shares (tests/kit/test_shape.py holds them to it):

      begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params,
                    pub, priv, hid, legal, log) -> over
          the unit's setup (clearing the state with analyser.kernels.records.reset_nb,
          dealing, Palace's swap); True when it ended there (an illegal swap);
      step_nb(seed, unit, settings, streams, policies, kinds, params,
              pub, priv, hid, legal, log) -> over
          one action by the seat to act and whatever follows from it (a trick's
          end, the next hand dealt from (seed, unit)); True when the unit is over;
      play_unit_nb(<begin_unit_nb's arguments>)
          the one place a unit is played, for simulation and traces alike
          (analyser.kernels.loops.unit_loop, bound to the game's two above).

- ``engine.py``: ``record_nb`` (the unit's outcome; the status fields by
  analyser.kernels.records.record_status_nb), ``_block_nb`` and ``simulate_nb``
  (analyser.kernels.loops.simulate_loop) and ``simulate`` (the entry point:
  analyser.games.dispatch.with_kinds).
- ``dispatch.py``: ``BUILT_IN`` and ``decide_nb`` (analyser.games.dispatch).
- ``trace.py``: ``trace_nb``, ``decode_log`` and ``trace_unit`` (run through
  analyser.games.common.run_trace); ``trace_text.py``: ``render``.
- ``catalog.py``/``policies.py``: the policies.
- ``playouts.py``: the compiled play-outs of the kit and rollouts, in the shared
  signatures of analyser.kernels.signatures: ``playout_nb`` (a unit's records after
  every action) and ``forced_policy`` (analyser.kernels.loops.playout_loop), and
  ``play_worlds_nb`` (every world after every candidate action, its streams reseeded by analyser.kernels.worlds;
  compiled on its first call: analyser.kernels.loops.parallel_worlds).
- ``kit.py``: its ``RecordsPosition`` (where the cards are, what a seat sees) and a
  ``RecordsKit`` naming its facts as class attributes (analyser.games.kit).
- ``view.py``: how a replay page shows it (analyser.games.view.GameView), named by ``view``.

``__init__.py``, ``trace_text.py`` and ``view.py`` are left out of the game's compile-cache key
(analyser.kernels.cache.PLAIN_GAME_FILES), so editing a description or a trace's
wording recompiles nothing: no kernel may live in them, and nothing compiled may read
a value from them (tests/test_cache.py checks both).

The loops that only drive a game's own kernels are written once, in
analyser.kernels.loops, and each game binds them to its functions: ``play_unit_nb``
(rules.py, but Palace's, which skips cycles), ``_block_nb`` and ``simulate_nb``
(engine.py), ``playout_nb`` and ``forced_policy`` (playouts.py). A bound loop is the
game's own function to numba (compiled for the game's types, the game's step inlined
into it, cached in the game's folder), so it costs what a hand-written copy did. Where a
loop is not the hot path, it calls the game's code through a pointer instead (the
parallel loops their block or world, the playout its begin and step): numba links a
callee's code into each caller and optimises it all again, so a direct call there only
compiled the engine once more on a user's first run.
What stays per game is what names the game's records: ``new_state_nb``, ``trace_nb``,
``play_worlds_nb`` (where a world's part of the unit ends, and what the current part
scored) and the rules. Shared kernels that take the game's arrays as arguments
(reset_nb, record_status_nb, the event log, rng, bits) are compiled once per game's
types and cost what the game's own copy did.

What a game gets: GameSpec finds ``simulate``, ``trace`` and ``trace_text`` in
its ``package`` (registry.ENTRY_POINTS) and defaults ``policy_signature`` to
``(pub, pv, legal, params)`` and ``policy_error`` to the seat of the first
``ILLEGAL_ACTION`` error; a game names one only to differ.

How an engine calls its built-in policies directly and any other through its
pointer: analyser.games.dispatch (each game's ``dispatch.py`` holds its piece).
"""
