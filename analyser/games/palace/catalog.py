"""The built-in Palace policies as users choose them: names, parameters, what
they do. The functions themselves (policies.py) load only when a run needs
them, so listing policies never imports numba."""
from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.games.search_specs import search_policies

_FNS = "analyser.games.palace.policies:"
# pickup's max_voluntary: 20 ends the loops of four pickup seats (at 4 players,
# 23.6% of games reached the cap without a limit, 0.3% with it, as with four
# saver seats) and leaves the games that end anyway nearly alone: in those a
# seat picks up by choice more than 20 times in 0.05%, and pickup's win rate
# beside saver, lowest, saver is the same as with a limit of 100 (34.17%, seed 1).
# VOLUNTARY_NO_LIMIT, the highest value, turns the limit and its count off.
MAX_VOLUNTARY = 20
VOLUNTARY_NO_LIMIT = 5000

_SWAP = ParamSpec("swap", 1, "swap rule: 0 keep, 1 strong cards face up, 2 strong cards in hand, 3 random",
                  low=0, high=3, integer=True)
_KEEP = ParamSpec("keep", 8, "how many 2s and 10s to hold back while anything else is legal",
                  low=0, high=8, integer=True)
_BURN_AT = ParamSpec("burn_at", 5, "when forced to spend a special, play a 10 rather than a 2 once the pile has "
                     "this many cards", low=0, high=52, integer=True)

POLICIES = (
    PolicySpec("random", _FNS + "random_policy", "a uniformly random legal action from the seat's own stream",
               (ParamSpec("swap", 3, _SWAP.description, low=0, high=3, integer=True),)),
    PolicySpec("lowest", _FNS + "lowest_policy", "play the lowest legal rank, all copies; never pick up by choice",
               (_SWAP,)),
    PolicySpec("saver", _FNS + "saver_policy", "like lowest, but keeps 2s and 10s until nothing else is legal",
               (_SWAP, _KEEP, _BURN_AT)),
    PolicySpec("pickup", _FNS + "pickup_policy",
               "picks up a small pile rather than spend a high card or a special (a limited number of times "
               "a game); else plays like saver",
               (_SWAP, _KEEP, _BURN_AT,
                ParamSpec("max_pile", 3, "pick up only piles of at most this many cards", low=0, high=52,
                          integer=True),
                ParamSpec("spend_rank", 13, "cards of this value or higher (J=11 Q=12 K=13 A=14) count as expensive",
                          low=2, high=14, integer=True),
                ParamSpec("max_voluntary", MAX_VOLUNTARY, "pick up by choice at most this many times a game, "
                          f"then play like saver; {VOLUNTARY_NO_LIMIT}: no limit", low=0, high=VOLUNTARY_NO_LIMIT,
                          integer=True))),
)
POLICIES += search_policies("analyser.games.palace", POLICIES, "saver")
