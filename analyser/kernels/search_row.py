"""The layout of a search player's params row, shared by the compiled search (analyser.kernels.search)
and the Python that fills it (analyser.games.search_specs); no numba here, so a game's catalog
can name the search players without compiling anything.

A policy's row holds its named parameters first (at most policy_specs.MAX_PARAMS); a search player
needs more than a policy is handed: what its rollouts play with. So every seat's row is ROW wide,
and a search seat's carries, after its named parameters, its rollout policy's row, the rules, and
its own parameters in the fixed places the compiled search reads (a game without parts has no
``horizon`` to name, so the named places differ between games).

The open (cheating) variant, ``open=1``, is handed what no honest policy is: the engine (each game's
rules, through analyser.kernels.reveal) writes the whole table, every seat's private record and the
hidden one, into its row after ROW (from REVEAL_AT) before each of its decisions, and stamps the row's
OPEN place REVEALED; the seat's kind is REVEAL, so the engine knows whom to show."""

ROW = 41                 # the engine's params row, for every seat (an open search seat's is longer)
ROLLOUT_AT = 8           # row[8:16]: the rollout policy's parameter row
SETTINGS_AT = 16         # row[16:32]: the run's rule settings
SEARCH_AT = 32           # row[32:]: the search's parameters, as the kernel reads them:
BUDGET, KIND, HORIZON, C = 32, 33, 34, 35     # worlds or iterations; the rollout policy's kind;
                                              # 0 the unit, 1 the part; ISMCTS's exploration constant
MARGIN = 39         # PIMC leaves its heuristic's choice only for an action this many standard errors better
VALUE, SCALE, SEATS = 36, 37, 38    # 0 the win share, 1 the score's margin over the best other seat;
                                    # 1 / the score's range (so a margin is within -1..1); the players
OPEN = 40           # 0 honest; 1 open (it sees the table); REVEALED once the engine wrote this decision's table
REVEALED = 2.0
REVEAL_AT = ROW     # row[REVEAL_AT:]: the table's bytes (every private record, then the hidden one)
REVEAL = -1         # the engine's kind of an open seat: called through its pointer, after the reveal

# What a search player counts in its own policy memory (pv["memory"], 8 slots; the built-in heuristics
# it rolls out with use the first ones): decisions searched, worlds drawn, rollout steps played.
SEARCHED, WORLDS_DRAWN, STEPS = 5, 6, 7


def reveal_words(priv, hid) -> int:
    """How many float64 places after REVEAL_AT the table of these records (numpy arrays) takes."""
    return -(-(priv.nbytes + hid.nbytes) // 8)
