"""The layout of a search player's params row, shared by the compiled search (analyser.kernels.search)
and the Python that fills it (analyser.games.search_specs); no numba here, so a game's catalog
can name the search players without compiling anything.

A policy's row holds its named parameters first (at most policy_specs.MAX_PARAMS); a search player
needs more than a policy is handed: what its rollouts play with. So every seat's row is ROW wide,
and a search seat's carries, after its named parameters, its rollout policy's row, the rules, and
its own parameters in the fixed places the compiled search reads (a game without parts has no
``horizon`` to name, so the named places differ between games)."""

ROW = 40                 # the engine's params row, for every seat
ROLLOUT_AT = 8           # row[8:16]: the rollout policy's parameter row
SETTINGS_AT = 16         # row[16:32]: the run's rule settings
SEARCH_AT = 32           # row[32:]: the search's parameters, as the kernel reads them:
BUDGET, KIND, HORIZON, C = 32, 33, 34, 35     # worlds or iterations; the rollout policy's kind;
                                              # 0 the unit, 1 the part; ISMCTS's exploration constant
MARGIN = 39         # PIMC leaves its heuristic's choice only for an action this many standard errors better
VALUE, SCALE, SEATS = 36, 37, 38    # 0 the win share, 1 the score's margin over the best other seat;
                                    # 1 / the score's range (so a margin is within -1..1); the players

# What a search player counts in its own policy memory (pv["memory"], 8 slots; the built-in heuristics
# it rolls out with use the first ones): decisions searched, worlds drawn, rollout steps played.
SEARCHED, WORLDS_DRAWN, STEPS = 5, 6, 7
