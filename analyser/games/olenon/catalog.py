"""The built-in Olenon policies as users choose them: names, parameters, what
they do. The functions themselves (policies.py) load only when a run needs
them, so listing policies never imports numba.

The defaults were measured (team 0 against a team of shed, 40,000 matches a
value, seed 11): every limit on replacing lost (margin=1, spend=2: 37% of
matches; no limit: 52%), so tempo's limits are off by default and its edge is
keep_high (+3 points against leading like shed). partner's passing lost too
(soon=2: 44%; soon=1: 48%; with talk=open 48%): a pass takes a card back into
the passer's hand. Its default, soon=1, passes only for a partner about to go out."""
from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.games.search_specs import search_policies

_FNS = "analyser.games.olenon.policies:"

POLICIES = (
    PolicySpec("random", _FNS + "random_policy", "uniform over the legal plays, replaces and passes"),
    PolicySpec("shed", _FNS + "shed_policy",
               "leads its largest group (the lowest value among equals); on a table adds all it can, else "
               "replaces with the lowest value that beats it, else passes"),
    PolicySpec("tempo", _FNS + "tempo_policy",
               "shed that keeps its highest value for going out, with optional limits on replacing",
               (ParamSpec("margin", 6, "replace only with a value at most this many steps above the table's "
                          "(0 over 6 is one step); 6: any", low=1, high=6, integer=True),
                ParamSpec("spend", 4, "replace only a table of at most this many cards (a replace spends as "
                          "many); 1: pass rather than spend a pair", low=1, high=4, integer=True),
                ParamSpec("zeros", 0, "1: pass rather than spend 0s on a table of 6s; 0: spend them",
                          low=0, high=1, integer=True),
                ParamSpec("finish", 2, "holding this many cards or fewer, every limit is off (it plays to go "
                          "out)", low=0, high=32, integer=True),
                ParamSpec("keep_high", 1, "1: when leading with two or more values, never lead the highest "
                          "(kept to replace with at the end); 0: lead like shed", low=0, high=1, integer=True))),
    PolicySpec("partner", _FNS + "partner_policy",
               "passes on its partner's table when the partner can go out soon; otherwise plays like shed",
               (ParamSpec("soon", 1, "talk=none: the partner holds at most this many cards (public); with "
                          "talk=open it reads the partner's hand instead: one value, at most 4 cards",
                          low=0, high=32, integer=True),)),
)
POLICIES += search_policies("analyser.games.olenon", POLICIES, "shed", part="round")
