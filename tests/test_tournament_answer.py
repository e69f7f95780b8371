"""A tournament leads with its answer in one line: which policy to play, from the head to head and the
equilibrium, with its interval."""
import re
from types import SimpleNamespace

import pandas as pd
from typer.testing import CliRunner

from analyser import tournament
from analyser.analyses.tournament_answer import answer
from analyser.cli.main import app


def test_a_policy_that_beats_every_other_is_the_answer_with_its_smallest_margin():
    t = tournament("palace", ["lowest", "saver"], deals=100)
    line = t.answer()
    play = (r"Play saver: it beats every other policy head to head \(smallest margin \+\d+\.\d points "
            r"\[\+\d+\.\d, \+\d+\.\d\] against lowest\) and is the equilibrium's whole support\.")
    assert re.fullmatch(play, line), line
    assert t.to_dict()["answer"] == line and line in repr(t)
    cli = CliRunner().invoke(app, ["tournament", "palace", "--policy", "lowest", "--policy", "saver", "--deals", "100"])
    assert cli.exit_code == 0 and " ".join(cli.stdout.split()).startswith(line), cli.stdout


def fake(pairs, weights, same=()):
    """A tournament result of pairs (a, b, a's win share less b's, low, high) and equilibrium weights."""
    frame = pd.DataFrame([{"a": a, "b": b, "win_diff": d, "ci_low": lo, "ci_high": hi} for a, b, d, lo, hi in pairs])
    eq = pd.DataFrame([{"policy": p, "weight": w, "weight_ci_low": max(0, w - 0.2), "weight_ci_high": min(1, w + 0.2),
                        "indistinguishable_from": ""} for p, w in weights.items()])
    return SimpleNamespace(pairs=frame, equilibrium=eq, policies=list(weights), same=list(same), mixed=False)


def test_a_cycle_answers_with_the_equilibrium_s_mix():
    cycle = fake([("rock", "paper", -0.1, -0.12, -0.08), ("rock", "scissors", 0.1, 0.08, 0.12),
                  ("paper", "scissors", -0.1, -0.12, -0.08)], {"rock": 0.34, "paper": 0.33, "scissors": 0.33})
    line = answer(cycle)
    assert line.startswith("No one policy: none beats every other head to head, and the equilibrium mixes rock 0.34 "
                           "[0.14, 0.54], paper 0.33"), line
    assert "play rock if you must play one (its largest weight; smallest margin -10.0 points [-12.0, -8.0] against " \
           "paper)" in line


def test_one_policy_under_two_names_is_answered_as_one():
    twins = fake([("a", "b", 0.0, 0.0, 0.0), ("a", "c", 0.2, 0.1, 0.3), ("b", "c", 0.2, 0.1, 0.3)],
                 {"a": 0.5, "b": 0.5, "c": 0.0}, same=[("a", "b")])
    assert answer(twins).startswith("Play a or b (they are one policy as far as these deals tell): they beat every "
                                    "other policy head to head (smallest margin: a +20.0 points [+10.0, +30.0] "
                                    "against c) and are the equilibrium's whole support.")


def test_policies_the_deals_cannot_tell_apart_are_one_answer():
    alike = fake([("a", "b", 0.0, -0.01, 0.01)], {"a": 0.5, "b": 0.5})
    alike.equilibrium["indistinguishable_from"] = ["b", "a"]
    assert answer(alike) == "Play any: a or b are one policy as far as these deals tell, so none is better to play."
