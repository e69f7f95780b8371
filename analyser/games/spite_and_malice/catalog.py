"""The built-in Spite & Malice policies as users choose them: names, parameters,
what they do. The functions themselves (policies.py) load only when a run needs
them, so listing policies never imports numba.

patient's defaults were measured, one switch at a time, as the match win share
against builder (default rules; 4,000 matches with each seat order, seed 11,
95% intervals): block=1 33.2% ±1.0 (holding back cards that would set up the
opponent costs more than it saves: 0.50 drawn rounds a match against 0.08),
save_kings=0 10.9% ±0.7, side_runs=0 38.4% ±1.1, dump=0 4.9% ±0.5 (11 drawn
rounds a match: cards kept back starve the build piles); the mirror match
builder-builder is 50.0% and random wins no match (1.7% of the rounds: 2,000 matches
against builder, seed 1). Every switch's best value is
builder's, so patient with its defaults plays exactly as builder does: it
exists to ask these questions (``analyser vary`` / ``compare`` over its params).

blocker's defaults (reach=-1, spoil=2) were measured against builder (300 matches with each
seat order, seed 2, points of match win share): spoil=2 +22 [+15, +29] (at 2,000 matches, seed 1:
+22.9 [+20.5, +25.3]); spoil=1 0.0 [-1.6, +1.6] (the natural spoils are mostly builder's own dumps);
reach=0 -10 [-17, -4], reach=0 with strict=1 -25, save_kings=0 -67: Kings pay to spoil the
opponent's payoff top, cards held back do not."""
from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.games.search_specs import search_policies

_FNS = "analyser.games.spite_and_malice.policies:"

POLICIES = (
    PolicySpec("random", _FNS + "random_policy",
               "the beginner baseline: a uniformly random legal build (payoff top, side top or hand card onto "
               "any build pile that takes it) while there is one, else a uniformly random discard; it never "
               "stops while it can build"),
    PolicySpec("builder", _FNS + "builder_policy",
               "plays its payoff top when it fits; else the next card of the cheapest chain up to it (Kings "
               "only there); else any natural card that fits; else discards onto a descending run or a pair, "
               "a King last; stops on an empty hand with nothing to play"),
    PolicySpec("patient", _FNS + "patient_policy",
               "builder with switches (its defaults, the measured best, are builder's): when to use Kings, "
               "blocking the opponent's payoff top, how to discard, whether to play out cards that do not "
               "lead to the payoff top",
               (ParamSpec("save_kings", 1, "1: a King only in a chain that reaches the payoff card this turn; "
                          "0: also to bring a pile closer to the payoff top", low=0, high=1, integer=True),
                ParamSpec("block", 0, "1: a card that does not bring a pile closer to its payoff top is not "
                          "played where it leaves the pile one below the opponent's payoff top; 0: ignore the "
                          "opponent", low=0, high=1, integer=True),
                ParamSpec("side_runs", 1, "1: discard onto a side pile one above the card, else one of the same "
                          "value, else an empty one; 0: onto an empty pile, else the highest top",
                          low=0, high=1, integer=True),
                ParamSpec("dump", 1, "1: also play natural cards that take a pile past its payoff top (fewer "
                          "cards kept); 0: only builds toward the payoff top", low=0, high=1, integer=True))),
    PolicySpec("blocker", "analyser.games.spite_and_malice.blocker:blocker_policy",
               "builder that watches the opponent's payoff top: a card that does not bring its own payoff top "
               "closer is kept back where it would let the opponent reach theirs, and a card that takes a pile "
               "away from the opponent's payoff top is played first",
               (ParamSpec("reach", -1, "a build is kept back when the opponent could then reach its payoff top "
                          "with its side tops and at most this many cards from its hand; -1: never kept back",
                          low=-1, high=11, integer=True),
                ParamSpec("spoil", 2, "1: before other builds, a natural card onto a pile the opponent's payoff "
                          "top fits; 2: a King too when no natural card does; 0: never", low=0, high=2,
                          integer=True),
                ParamSpec("save_kings", 1, "1: a King only in a chain that reaches the payoff card this turn; "
                          "0: also to bring a pile closer to the payoff top", low=0, high=1, integer=True),
                ParamSpec("strict", 0, "1: reach holds back builds toward its own payoff top too; 0: only the "
                          "others", low=0, high=1, integer=True))),
)
POLICIES += search_policies("analyser.games.spite_and_malice", POLICIES, "builder", part="round", value="score",
                            margin=3)
