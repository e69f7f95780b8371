"""Balance reports (``analyser report`` / ``analyser.report``): verdicts, metadata, the written files."""
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

import analyser
from analyser.analyses.report import builder, verdicts
from analyser.cli.main import app
from analyser.errors import Interrupted

SMALL = {"deals": 600, "tournament_deals": 60, "seed": 1, "skill_deals": 20}


@pytest.fixture(scope="module")
def palace(tmp_path_factory):
    """A whole Palace report at 3 players, written to a file."""
    path = tmp_path_factory.mktemp("report") / "palace.md"
    return analyser.report("palace", players=3, out=path, **SMALL), path


def test_a_mixed_line_up_is_rotated_so_the_seat_verdict_is_about_seats():
    """random in seat 0 against three savers used to read as "Unfair: seat 0": the line-up is now played in
    every rotation on the same deals, each seat holds each policy in turn, and the seats come out fair."""
    r = analyser.report("palace", policies=["random", "saver", "saver", "saver"], deals=800, seed=2,
                        sections="seats")
    ran = r.meta["ran"]["seats"]
    assert ran["runs"] == 4 and ran["arrangements"][1] == "saver, random, saver, saver"
    seats = r.seats
    assert (seats["ci_low"] <= 0.75).all() and (seats["ci_high"] >= 0.75).all()
    assert seats["policies"].iloc[0] == "each in turn: random, saver"
    assert r.seat_test["p_adjusted"] >= 0.05
    assert r.verdicts["seats"].startswith("The line-up was rotated over the seats (4 arrangements")
    assert "No seat is shown to be unfair" in r.verdicts["seats"] and list(r.verdicts) == ["seats"]
    assert "rotated over the seats" in r.markdown()


def test_a_first_mover_chosen_by_the_policies_play_is_not_judged_for_a_mixed_line_up():
    """report palace -p 2 --policy random --policy saver used to say "first mover has an advantage: 66.0%".
    Rotating the line-up does not mend that: in Palace the starter holds the lowest card after the swaps, so
    the policies' own play decides who starts (saver does, mostly) and the first mover's share is saver's
    edge. The seats are judged, the first mover is not, and no first-mover test enters the family."""
    r = analyser.report("palace", players=2, policies=["random", "saver"], deals=400, seed=1, sections="seats")
    assert r.meta["ran"]["seats"]["arrangements"] == ["random, saver", "saver, random"]
    assert r.seat_test["p_adjusted"] >= 0.05 and abs(r.seats["excess"]).max() < 0.01
    fm = r.first_mover
    assert "who moves first depends on their play" in fm["withheld"] and "saver moved first" in fm["withheld"]
    assert fm["advantage_p"] != fm["advantage_p"]                                # NaN: no test made
    assert "The first mover is not judged" in r.verdicts["seats"] and "advantage" not in r.verdicts["seats"]
    assert "First mover: The first mover is not judged" in r.markdown()
    one = analyser.report("palace", players=2, policies=["saver"], deals=400, seed=1, sections="seats")
    assert "withheld" not in one.first_mover and one.first_mover["advantage_p"] == one.first_mover["advantage_p"]


def test_teams_are_rotated_as_teams():
    """Olenon partner against shed used to read "Unfair: the teams' win shares differ"."""
    r = analyser.report("olenon", policies=["partner", "shed"], deals=400, seed=1, sections="seats")
    assert r.meta["ran"]["seats"]["arrangements"] == ["partner, shed, partner, shed", "shed, partner, shed, partner"]
    assert (r.seats["ci_low"] <= 0.5).all() and (r.seats["ci_high"] >= 0.5).all()
    assert not r.verdicts["seats"].split(": a team's effect, not a policy's. ")[1].startswith("Unfair")


def test_every_test_is_adjusted_together_and_the_verdicts_follow_the_adjusted_values(palace):
    """The fixture's ten_on_anything=on moves the first mover by an interval that excludes 0 (p = 0.02 on its
    own), which the verdict used to flag; among the report's tests its adjusted p-value is not significant."""
    from statsmodels.stats.multitest import multipletests

    r, path = palace
    tests = r.parts["tests"]["frame"]
    assert len(tests) == r.meta["tests"]["made"] == 22
    np.testing.assert_allclose(tests["p_adjusted"], multipletests(tests["p_value"], method="fdr_bh")[1])
    assert set(tests["section"]) == {"seats", "players", "rules", "policies"}
    assert tests["test"].is_unique                             # the seats run's tests are not counted twice
    ten = r.rules[(r.rules["setting"] == "ten_on_anything") & ~r.rules["baseline"]].iloc[0]
    assert ten["first_mover_change_p"] < 0.05 <= ten["first_mover_change_p_adjusted"]
    assert ten["first_mover_change_ci_low"] > 0 or ten["first_mover_change_ci_high"] < 0
    assert r.verdicts["rules"].startswith("No setting moves seat balance at FDR 5%")
    assert r.seat_test["p_adjusted"] == tests.loc[tests["test"] == "equal seat win shares at 3 players",
                                                  "p_adjusted"].item()
    data = json.loads(path.with_suffix(".json").read_text())
    assert len(data["tests"]) == len(tests) and {"p_value", "p_adjusted", "significant"} <= set(data["tests"][0])
    assert data["rules"]["table"][1]["first_mover_change_p_adjusted"] == pytest.approx(
        r.rules["first_mover_change_p_adjusted"].iloc[1])
    assert f"this report made {len(tests)} tests" in path.read_text()


def test_rule_steps_are_the_declared_report_values():
    """target 49 / 51 is not worth a line and rounds 0 ("no limit") is not next to 1."""
    from analyser.analyses.report.sections import setting_values
    from analyser.games.registry import get_game

    spec = {s.name: s for s in get_game("spite_and_malice").settings}
    assert setting_values(spec["target"], 50) == [50, 30, 100]
    assert setting_values(spec["rounds"], 0) == [0, 5, 10]
    assert setting_values(spec["payoff_size"], 20) == [20, 10, 30]
    assert setting_values(spec["stock_out"], 0) == [0, 1]
    assert setting_values(spec["max_turns"], 2000) == [2000, 1999, 2001]       # caps: skipped by skip_reason
    from analyser.games.registry import SettingSpec

    with pytest.raises(ValueError, match="report_values"):
        SettingSpec("hands", 3, "hands", kind="int", low=1, high=8, report_values=(2, 9))


def test_a_constant_share_has_an_honest_interval():
    """saver beats random in all 300 games: the per-seat rule table gives 100.0% [98.7%, 100.0%], not a
    zero-width interval, and a change that is exactly 0 on every deal keeps the interval of the deals not seen
    (a rule value is never an exact tie [0, 0])."""
    r = analyser.report("palace", players=2, policies=["random", "saver"], deals=300, seed=1, sections="rules")
    saver = r.rule_groups[r.rule_groups["policies"] == "saver"]
    assert (saver["win_mean"] == 1).all() and (saver["win_ci_low"] < 0.99).all()
    changed = saver[saver["win_diff"].notna()]
    assert changed["win_diff_identical"].all() and (changed["win_diff"] == 0).all()
    assert (changed["win_diff_ci_low"] < 0).all() and (changed["win_diff_ci_high"] > 0).all()
    assert "[100.0%, 100.0%]" not in r.markdown()


def test_a_fair_line_up_covers_the_fair_share(palace):
    r, _ = palace
    seats = r.seats
    assert (seats["ci_low"] <= seats["fair_share"]).all() and (seats["fair_share"] <= seats["ci_high"]).all()
    assert seats["fair_share"].iloc[0] == pytest.approx(2 / 3)
    assert r.seat_test["p_value"] > 0.05 and r.verdicts["seats"].startswith("No seat is shown to be unfair")
    fm = r.first_mover
    assert fm["advantage_ci_low"] <= 0 <= fm["advantage_ci_high"]


def test_every_section_has_a_verdict_and_its_tables(palace):
    r, _ = palace
    assert list(r.verdicts) == ["seats", "players", "rules", "policies", "skill", "shape"]
    assert list(r.player_counts["players"]) == [2, 3, 4]
    assert set(r.player_seats["players"]) == {2, 3, 4} and len(r.player_seats) == 9
    rules = r.rules
    assert set(rules["setting"]) == {"short_game", "ten_on_anything"}          # max_actions is a cap: skipped
    assert "max_actions" in r.parts["rules"]["skipped"]
    changed = rules[~rules["baseline"]]
    assert (changed["length_change_ci_low"] <= changed["length_change"]).all()
    assert list(r.ratings["policy"].sort_values()) == ["lowest", "pickup", "random", "saver"]
    assert r.ratings.iloc[-1]["policy"] == "random"
    assert r.head_to_head.shape == (4, 4)


def test_rule_changes_are_vary_s_on_the_same_deals():
    """The per-seat change of a rule value is exactly what ``vary`` reports for it."""
    r = analyser.report("palace", players=2, deals=400, seed=3, sections="rules")
    v = analyser.vary("palace", "ten_on_anything", players=2, n=400, seed=3)
    mine = r.rule_groups[r.rule_groups["setting"] == "ten_on_anything"].reset_index(drop=True)
    theirs = v.table.reset_index(drop=True)
    for col in ("win_mean", "win_diff", "win_diff_ci_low", "win_diff_ci_high"):
        assert mine[col].to_numpy() == pytest.approx(theirs[col].to_numpy(), nan_ok=True)
    # at 2 players short_game deals fewer cards: not the same games
    short = r.rules[(r.rules["setting"] == "short_game") & ~r.rules["baseline"]].iloc[0]
    assert not short["identical"]


def test_metadata_in_the_report_and_its_json(palace):
    r, path = palace
    m = r.meta
    assert m["seed"] == 1 and m["deals"] == 600 and m["tournament_deals"] == 60 and m["players"] == 3
    assert m["settings"] == {"short_game": False, "ten_on_anything": False, "max_actions": 5000}
    assert m["policies"] == ["saver"] * 3 and m["params"][0] == {"swap": 1.0, "keep": 8.0, "burn_at": 5.0}
    assert {"analyser", "numba", "numpy", "python"} <= set(m["versions"])
    assert set(m["ran"]) == {"seats", "players", "rules", "policies", "skill", "shape"}
    data = json.loads(path.with_suffix(".json").read_text())
    assert data["meta"]["seed"] == 1 and data["meta"]["versions"] == m["versions"]
    assert data["verdicts"] == r.verdicts
    assert data["seats"]["table"][0]["group"] == "seat 0"
    assert not any(isinstance(x, float) and math.isnan(x) for x in _leaves(data))
    text = path.read_text()
    for needle in ("seed:** 1", f"numba {m['versions']['numba']}", "## 4. Policies", "(palace/seats.png)"):
        assert needle in text
    assert sorted(p.name for p in path.with_suffix("").iterdir()) == [
        "head_to_head.png", "length.png", "players.png", "policies.png", "reliability.png", "rules.png", "seats.png"]
    assert r._repr_markdown_().startswith("# Balance report: Palace")
    assert "<li><b>Seats:</b>" in r._repr_html_() and "BalanceReport palace" in repr(r)


def _leaves(x):
    if isinstance(x, dict):
        for v in x.values():
            yield from _leaves(v)
    elif isinstance(x, list):
        for v in x:
            yield from _leaves(v)
    else:
        yield x


def _snapshot(path):
    folder = path.with_suffix("")
    files = [path, path.with_suffix(".json")] + sorted(folder.iterdir())
    return {str(f): f.read_bytes() for f in files}


def test_an_interrupted_report_leaves_the_old_one_untouched(tmp_path, monkeypatch):
    path = tmp_path / "palace.md"
    analyser.report("palace", players=2, deals=200, seed=4, sections=["seats", "rules"], out=path)
    before = _snapshot(path)

    def interrupt(report, ctx):
        raise KeyboardInterrupt

    monkeypatch.setitem(builder.BUILDERS, "rules", interrupt)         # Ctrl-C in the middle of a section
    with pytest.raises(Interrupted, match=r"interrupted in the rule settings section; .*palace.md was left as it"):
        analyser.report("palace", players=2, deals=300, seed=5, sections=["seats", "rules"], out=path)
    assert _snapshot(path) == before
    monkeypatch.undo()

    import analyser.analyses.report.template as template

    def broken(report):
        raise KeyboardInterrupt

    monkeypatch.setattr(template, "report_dict", broken)              # Ctrl-C while the files are written
    with pytest.raises(Interrupted, match="interrupted in the writing of the report"):
        analyser.report("palace", players=2, deals=300, seed=5, sections="seats", out=path)
    assert _snapshot(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["palace", "palace.json", "palace.md"]   # no partial


def test_no_file_until_the_report_is_done(tmp_path, monkeypatch):
    path = tmp_path / "new.md"

    def interrupt(report, ctx):
        raise KeyboardInterrupt

    monkeypatch.setitem(builder.BUILDERS, "seats", interrupt)
    with pytest.raises(Interrupted, match="no report was written"):
        analyser.report("palace", deals=100, sections="seats", out=path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "message"), [
    (["nosuchgame"], "unknown game 'nosuchgame'; valid: palace, enemy_anemone, olenon"),
    (["palace", "--policy", "clever"], "unknown policy 'clever'; valid: random, lowest, saver, pickup"),
    (["palace", "--players", "9"], "palace is for 2 to 4 players, not 9; valid: 2, 3, 4"),
    (["palace", "--rule", "bogus=1"], "unknown rule 'bogus' for palace; valid: short_game, ten_on_anything"),
    (["palace", "-n", "0"], "the number of games must be from 1"),
    (["palace", "-n", "-5"], "the number of games must be from 1"),
    (["palace", "--tournament-deals", "0"], "deals per pair must be from 1"),
    (["palace", "--section", "bogus"], "unknown report section bogus; valid: seats, players, rules, policies"),
    (["palace", "--out", "x.txt"], "name a .md or .html file (valid: .md, .html)"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    result = CliRunner().invoke(app, ["report", *args, "--no-progress"] + ([] if "--out" in args else
                                                                         ["--out", str(tmp_path / "r.md")]))
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
    assert message in err, err
    assert not list(tmp_path.iterdir())


def test_the_command_writes_the_report_and_prints_the_verdicts(tmp_path):
    """Two sections of four chosen (player counts, not the policies' tournament, whose bootstrap of the
    equilibrium is what a report spends most on: the module's fixture has one)."""
    out = tmp_path / "sub" / "p.md"
    result = CliRunner().invoke(app, ["report", "palace", "-p", "2", "-n", "300", "--tournament-deals", "40",
                                      "--section", "seats", "--section", "players", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Seats:" in result.stdout and "Player counts:" in result.stdout
    assert "Rule settings:" not in result.stdout and "Policies:" not in result.stdout
    assert f"wrote {out}" in result.stderr
    text = out.read_text()
    assert f"analyser report palace --players 2 --deals 300 --tournament-deals 40 --seed 0 --section seats " \
           f"--section players --out {out}" in text
    folder = tmp_path / "sub" / "p"
    assert (folder / "seats.png").is_file() and (folder / "players.png").is_file()
    assert not (folder / "rules.png").exists() and not (folder / "policies.png").exists()


def test_the_toy_team_game(tmp_path):
    """High card (examples/highcard): one player count, teams, a whole-number setting, no first mover recorded."""
    r = analyser.report("highcard", deals=300, tournament_deals=40, seed=1, out=tmp_path / "hc.md")
    draws = r.parts["seats"]["draw_rate"]
    assert list(r.seats["group"]) == ["team 0", "team 1"] and 0 < draws < 0.5
    assert r.seats["fair_share"].iloc[0] == pytest.approx(0.5 * (1 - draws))     # a drawn match: no team wins
    assert r.seat_test["df"] == 1
    assert r.verdicts["players"].startswith("not applicable") and r.player_counts is None
    assert list(r.rules["value"]) == ["3", "2", "4"] and "max_actions" in r.parts["rules"]["skipped"]
    assert math.isnan(r.first_mover["first_mover_win_rate"])
    assert set(r.ratings["policy"]) == {"high", "random", "alternate"}
    assert "does not say who moved first" in (tmp_path / "hc.md").read_text()
    assert sorted(p.name for p in (tmp_path / "hc").iterdir()) == [
        "head_to_head.png", "length.png", "policies.png", "rules.png", "seats.png"]


def test_a_nearly_constant_share_cannot_make_the_seat_test_overconfident():
    """Three savers beside one random, rotated: every seat wins 3/4 in almost every deal. Four deals of 2,000
    that happen to favour seat 0 made the unfloored Wald test say p = 0.045 (a sign test says 0.125); with the
    variance floor it does not call that unfair."""
    from analyser.analyses.report.sections import equal_shares_test

    values = np.full((2000, 2), 0.75)
    values[:4] = [1.0, 0.5]
    test = equal_shares_test(values)
    assert test["df"] == 1 and test["p_value"] > 0.2
    assert equal_shares_test(np.full((50, 3), 0.5))["p_value"] == 1.0
    assert 0 < equal_shares_test(np.tile([1.0, 0.0], (10, 1)))["p_value"] < 1e-3


def test_the_policies_verdict_says_when_the_ratings_do_not_fit():
    import pandas as pd

    ratings = pd.DataFrame({"policy": ["lowest", "saver"], "elo": [0.0, -20.0], "elo_ci_low": [0.0, -40.0],
                            "elo_ci_high": [0.0, 0.0]})
    summary = {"ratings": ratings, "model": {"reference": "lowest"}, "same": [("builder", "patient")],
               "duel": {"best": "lowest", "second": "saver", "win_diff": -0.04, "ci_low": -0.06, "ci_high": -0.02,
                        "p_adjusted": 0.001},
               "fit": {"model": "Bradley-Terry", "dispersion": 12000.0, "fits": False, "warning": None},
               "equilibrium": pd.DataFrame({"policy": ["saver", "lowest"], "weight": [0.7, 0.3]})}
    text = verdicts.policies_verdict(summary)
    assert text.startswith("The names builder and patient are one policy")
    assert "The ratings do not fit the results: misfit chi2 / df 1.2e+04" in text
    assert "Head to head, saver beats lowest (significant at FDR 5%): +4.0 points of win share for saver " \
           "[+2.0, +6.0]" in text
    assert "the ratings (not to be trusted here) put lowest first" in text
    assert text.endswith("equilibrium (a mix no policy beats on average) is saver 70.0%, lowest 30.0%.")
    summary["fit"] = {"fits": True, "dispersion": 1.1}
    assert "do not fit" not in verdicts.policies_verdict(summary)
    summary["duel"]["p_adjusted"] = 0.2                     # excludes 0 on its own, not among all the tests
    assert "no clear difference between lowest and saver (adjusted p = 0.2): +4.0 points of win share for " \
           "saver [+2.0, +6.0, an unadjusted interval]" in verdicts.policies_verdict(summary)


def test_the_head_to_head_matrix_leads_the_policies_section(palace):
    r, _ = palace
    text = r.markdown()
    policies = text[text.index("## 4. Policies"):]
    assert policies.index("Head to head:") < policies.index("Pairs:") < policies.index("Ratings (")
    assert "| saver | 0 (reference) | - | 0 (reference) | - |" in policies


def test_the_policies_section_leads_with_which_policy_to_play_and_the_matrix_figure(palace):
    r, _ = palace
    line = r.parts["policies"]["answer"]
    assert line.startswith(("Play ", "No one policy")) and r.verdicts["policies"].startswith(line)
    text = r.markdown({"head_to_head": "h.png", "policies": "p.png"})
    assert text.index("(h.png)") < text.index("(p.png)")
    names = list(r.figures())
    assert names.index("head_to_head") < names.index("policies")


@pytest.mark.parametrize("seed", range(3))
def test_a_fair_report_flags_no_null_test(seed):
    """A small seeded version of benchmarks/calibrate_report.py: one policy in every seat of Enemy Anemone,
    where every seat test and every seat's change under a rule value is null by construction (seats are
    exchangeable, shared wins sum to 1): none of them is significant at FDR 5%."""
    r = analyser.report("enemy_anemone", deals=300, seed=seed, sections=["seats", "rules"])
    tests = r.parts["tests"]["frame"]
    null = tests["test"].str.startswith("equal ") | tests["test"].str.contains(r"seat \d's win share$")
    assert null.sum() == 21 and len(tests) == 32
    assert not (tests["significant"] & null).any()


def test_two_outs_write_markdown_and_html_from_one_run(tmp_path):
    md, page = tmp_path / "p.md", tmp_path / "p.html"
    result = CliRunner().invoke(app, ["report", "palace", "-p", "2", "-n", "300", "--section", "seats",
                                      "--no-progress", "--out", str(md), "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert f"wrote {md}" in result.stderr and f"wrote {page}" in result.stderr
    assert (tmp_path / "p" / "seats.png").is_file() and (tmp_path / "p.json").is_file()
    assert f"--out {md} --out {page}" in md.read_text() and "<html" in page.read_text()


def sentences(markdown: str) -> list[str]:
    """The prose of a report, a sentence at a time: code blocks, tables, figures, markup and the
    name=value settings (lists of names that repeat by design) left out."""
    import re

    text = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)|<[^>]+>|\S+=\S+", " ", text)
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            continue
        line = " ".join(re.sub(r"[*_`#]", "", line).split()).lstrip("- ")
        out += [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(])", line) if s]
    return out


def joined(sentence: str) -> list[str]:
    """What makes a sentence read as two run together: three or more colons outside brackets in one
    clause (between semicolons or dots of a list: a clause hung on a clause hung on a clause), four
    words said twice, a word doubled, a lower-case start."""
    import re

    depth, flat = 0, []
    for ch in sentence:
        depth += ch in "([{"
        depth -= ch in ")]}"
        flat.append(ch if depth == 0 else " ")
    flat = "".join(flat)
    words = re.findall(r"[a-z]+", flat.lower())
    grams = [" ".join(words[i: i + 4]) for i in range(len(words) - 3)]
    chained = any(clause.count(": ") > 2 for clause in re.split(r"[;·]", flat))
    return ((["a chain of colons"] if chained else [])
            + [f"'{g}' twice" for g in sorted({g for g in grams if grams.count(g) > 1})]
            + (["a doubled word"] if re.search(r"\b(\w+) \1\b", sentence, re.I) else [])
            + (["a lower-case start"] if sentence[:1].islower() else []))


def test_joined_sentences_are_found():
    assert joined("Fit: BT: the ratings do NOT fit: the model does not fit.") == ["a chain of colons"]
    assert joined("The ratings do not fit the results because the ratings do not fit.") == [
        "'ratings do not fit' twice", "'the ratings do not' twice"]
    assert joined("Seat 0 (in Palace: a: b: c) wins.") == []
    assert joined("By count 2: -4.0; 3: +1.0; 4: -0.3 · seed: 1.") == []


def test_no_sentence_of_any_section_reads_as_two_joined(palace):
    """Every section's verdict, tables' words and method, as written, and again with ratings that do
    not fit (the policies section's other branch: its fit line and verdict)."""
    from analyser.stats.ratings import fit_quality

    r, _ = palace
    part = r.parts["policies"]
    kept = part.get("fit")
    try:
        texts = [r.markdown()]
        part["fit"] = fit_quality("Bradley-Terry (binomial GLM, logit link, statsmodels)", 3000.0, 3)
        summary = {**part, "fit": part["fit"]}
        texts += [r.markdown(), verdicts.policies_verdict(summary)]
    finally:
        part["fit"] = kept
    bad = {s: joined(s) for text in texts for s in sentences(text) if joined(s)}
    assert not bad, bad


def test_a_policy_declared_the_reference_s_twin_gets_no_elo_of_its_own():
    """Spite & Malice's builder and patient are one policy: the verdict said "patient the runner-up
    (Elo +0 [+0, +0] relative to builder)"; it names the first policy with a rating of its own."""
    import pandas as pd

    ratings = pd.DataFrame({"policy": ["builder", "patient", "random"], "elo": [0.0, 0.0, -300.0],
                            "elo_ci_low": [0.0, 0.0, -320.0], "elo_ci_high": [0.0, 0.0, -280.0]})
    summary = {"ratings": ratings, "model": {"reference": "builder"}, "same": [("builder", "patient")],
               "duel": None, "fit": {"fits": True}}
    text = verdicts.policies_verdict(summary)
    assert "+0 [+0, +0]" not in text
    assert ("put builder first (the reference, Elo 0, as is patient, one policy with it), random the runner-up "
            "(Elo -300 [-320, -280] relative to builder).") in text
    summary["ratings"] = ratings.iloc[:2]
    assert "every policy here is one with it" in verdicts.policies_verdict(summary)


def test_the_seat_test_s_method_is_the_game_s_own():
    """The Olenon report's method said "(in Palace, for one, exactly one seat loses)"."""
    from analyser.analyses.report import sections

    for what in ("seat", "team"):
        text = sections.TEST_TEXT.format(what=what)
        assert "Palace" not in text and f"between the {what}s of one unit" in text


def test_the_shape_section_and_the_glance_render_with_their_numbers(palace):
    """At a glance comes first, each sentence linking to its section; the shape section has the length
    quantiles, the ways a game ended, the estimate (out of sample, better than the base rate) and its
    measures, in the Markdown, the JSON and the page; the policies section says whether a policy dominates."""
    r, path = palace
    part = r.parts["shape"]
    text = path.read_text()
    assert text.index("## At a glance") < text.index("## Verdicts") < text.index("## 6. Shape of a game")
    glance = text[text.index("## At a glance"): text.index("## Verdicts")]
    assert glance.count("\n- ") >= 4 and "(#1-seats)" in glance and "(#6-shape-of-a-game)" in glance
    assert "relative skill" in glance and "(#5-skill-and-luck)" in glance
    assert "(#4-policies)" in glance and "%" in glance
    q = {row["quantile"]: row for row in part["length"]["quantiles"]}
    assert f"{q[0.5]['length']:.0f} actions at the median" in r.verdicts["shape"]
    assert part["orientation"] == "loser" and {e["way"] for e in part["ends"]} <= set(
        [f"seat {s} the loser" for s in range(3)] + ["aborted at the action cap"])
    assert sum(e["units"] for e in part["ends"]) == 600
    b = part["estimate"]["brier"]
    assert b["gain_ci_low"] > 0 and f"Brier {b['brier']:.3f} against {b['base']:.3f}" in r.verdicts["shape"]
    for needle in ("| quantile | length |", "| way | games |", "| this evaluator |", "| lead changes |",
                   "| comeback rate |", "| decisive point |", "| drama |", "(palace/length.png)",
                   "(palace/reliability.png)", "Equilibrium:", "dominant strategy"):
        assert needle.lower() in text.lower(), needle
    data = json.loads(path.with_suffix(".json").read_text())
    assert data["shape"]["estimate"]["brier"]["brier"] == pytest.approx(b["brier"])
    assert data["policies"]["strategy"]["support"] >= 1
    page = r.html()
    assert page.index('class="glance"') < page.index('class="verdicts"') and 'id="6-shape-of-a-game"' in page
    assert '<a href="#6-shape-of-a-game">' in page
