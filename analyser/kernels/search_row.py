"""The layout of a search player's params row, shared by the compiled search (analyser.kernels.search)
and the Python that fills it (analyser.games.search_specs); no numba here, so a game's catalog
can name the search players without compiling anything.

A policy's row holds its named parameters first (at most policy_specs.MAX_PARAMS); a search player
needs more than a policy is handed: what its rollouts play with. So every seat's row is ROW wide,
and a search seat's carries, after its own parameters, its rollout policy's row and the rules."""

ROW = 32                 # the engine's params row, for every seat
WORLDS, ROLLOUT, HORIZON = 0, 1, 2     # a search player's own parameters, in its PolicySpec's order
ROLLOUT_AT = 8           # row[8:16]: the rollout policy's parameter row
SETTINGS_AT = 16         # row[16:]: the run's rule settings

# What a search player counts in its own policy memory (pv["memory"], 8 slots; the built-in heuristics
# it rolls out with use the first ones): decisions searched, worlds drawn, rollout steps played.
SEARCHED, WORLDS_DRAWN, STEPS = 5, 6, 7
