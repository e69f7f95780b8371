"""The built-in Enemy Anemone policies as users choose them: names, parameters,
what they do. The functions themselves (policies.py) load only when a run needs
them, so listing policies never imports numba. The defaults are reasoned, not
tuned: min_points=3 keeps tokens for tricks worth more than a lone pair of
plain cards; late_tricks=1 spends what is left on the match's last trick,
where tokens only break ties."""
from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.games.search_specs import search_policies

_FNS = "analyser.games.enemy_anemone.policies:"

# params[0] of every policy but random (policies.py reads it there).
_DISCARD = ParamSpec("discard", 0, "card to discard when no free suit: 0 lowest 3/5/8 (scores 2 in own pile), "
                     "else lowest; 1 lowest; 2 highest", low=0, high=2, integer=True)
_MIN_POINTS = ParamSpec("min_points", 3, "spend tokens only on a trick worth this many points with its own card "
                        "(3s, 5s and 8s count 2)", low=0, high=12, integer=True)
_MIN_TOKENS = ParamSpec("min_tokens", 1, "hoard: spend tokens only while holding at least this many",
                        low=0, high=9, integer=True)

POLICIES = (
    PolicySpec("random", _FNS + "random_policy",
               "uniform over the legal (card, +1 tokens, +2 tokens) choices; discards a uniformly random card"),
    PolicySpec("greedy", _FNS + "greedy_policy",
               "leads its highest card; follows with its lowest card that wins so far, else its lowest; "
               "never spends tokens", (_DISCARD,)),
    PolicySpec("timing", _FNS + "timing_policy",
               "greedy's cards, plus the cheapest tokens that make a losing card win the trick so far",
               (_DISCARD,
                ParamSpec("only_to_win", 1, "1: spend only to turn a loser into the winner so far; 0: also top a "
                          "winner up above every rank still unseen in the free suits", low=0, high=1, integer=True),
                _MIN_POINTS,
                _MIN_TOKENS,
                ParamSpec("late_tricks", 1, "in the last this-many tricks of the match's last hand, attach every "
                          "token held; 0: off", low=0, high=10, integer=True))),
    PolicySpec("lowball", _FNS + "lowball_policy",
               "ducks with its lowest card to collect tokens early in each hand, then spends them like timing",
               (_DISCARD,
                ParamSpec("duck", 5, "play the lowest card, no tokens, in the first this-many tricks of each hand",
                          low=0, high=10, integer=True),
                _MIN_POINTS,
                _MIN_TOKENS)),
)
POLICIES += search_policies("analyser.games.enemy_anemone", POLICIES, "timing", part="hand", value="win")
