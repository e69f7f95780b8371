"""analyser.analyses.tournament and ``analyser tournament``: common duplicate deals for every pair, the
head-to-head matrix, Bradley-Terry ratings, results files, and one-line errors with exit code 2."""
import dataclasses
import json
from collections import Counter

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from analyser.analyses.compare import compare
from analyser.analyses.seatings import neighbour_orders, table_seatings
from analyser.analyses.tournament import load_tournament, tournament
from analyser.cli.common import Command, Group
from analyser.cli.tournament import tournament as tournament_command
from analyser.errors import UserError
from analyser.games.registry import get_game

THREE = ["random", "saver", "pickup"]

app = typer.Typer(cls=Group, pretty_exceptions_enable=False)   # main.py registers the command; not this file's
app.command(cls=Command)(tournament_command)


@app.callback()
def _root():
    pass


runner = CliRunner()
BASE = ["tournament", "palace", "--policy", "random", "--policy", "saver", "--policy", "pickup", "--no-progress"]


@pytest.fixture(scope="module")
def two():
    return tournament("palace", THREE, players=2, deals=400, seed=3)


def test_a_known_ordering_is_recovered(two):
    assert list(two.ratings["policy"]) == ["saver", "pickup", "random"]
    r = two.ratings.set_index("policy")
    # random is the reference; its near-zero win shares make every interval against it wide
    assert r.loc["saver", "rating"] > r.loc["pickup", "rating"] > r.loc["pickup", "ci_low"] > 0
    assert two.matrix.loc["saver", "pickup"] > 0.6
    assert r.loc["random", "rating"] == 0 and r.loc["random", "elo"] == 0
    m = two.meta["model"]
    assert m["reference"] == "random" and "Bradley-Terry" in m["name"] and "statsmodels" in m["name"]


def test_the_matrix_is_the_compare_of_each_pair_on_the_same_deals(two):
    matrix, low, high = two.matrix, two.ci_low, two.ci_high
    assert list(matrix.index) == THREE == list(matrix.columns)
    assert np.isnan(np.diag(matrix.to_numpy())).all()
    for a, b in two.meta["pairs"]:
        c = compare("palace", [a, b], players=2, deals=400, seed=3)
        assert matrix.loc[a, b] == pytest.approx(c.shares["a_win"])
        assert matrix.loc[b, a] == pytest.approx(c.shares["b_win"])
        assert low.loc[a, b] <= matrix.loc[a, b] <= high.loc[a, b]
        row = two.pairs.set_index(["a", "b"]).loc[(a, b)]
        assert row["win_diff"] == pytest.approx(c.summary.loc[0, "estimate"])
        assert row["half_width"] > 0 and not row["tie"]       # the variance floor: never zero-width
    # two seats, one winner, no draws: the two cells of a pair add up to 1 (a dropped deal is in neither)
    total = matrix + matrix.T
    assert np.allclose(total.to_numpy()[~np.eye(3, dtype=bool)], 1.0)


def test_four_players_precision_and_the_fair_share():
    r = tournament("palace", ["random", "saver"], players=4, deals=50, seed=1, precision=0.04, max_deals=400,
                   bootstrap=20)
    assert r.meta["arrangements"]["count"] == 8 and r.meta["fair_share"] == 0.75
    assert r.meta["stop"]["rule"] == "precision" and r.meta["precision"]["max_deals"] == 400
    assert r.meta["stop"]["reached"] == (r.tally.widest_half_width() <= 0.04)
    assert r.matrix.loc["saver", "random"] > 0.75 > r.matrix.loc["random", "saver"]
    assert list(r.ratings["policy"]) == ["saver", "random"]


def test_results_file_round_trip_and_plot(two, tmp_path):
    path = two.save(tmp_path / "t.parquet")
    back = load_tournament(path)
    assert back.to_dict() == two.to_dict()
    assert back.matrix.equals(two.matrix)
    fig = back.plot()
    assert "head-to-head" in fig._suptitle.get_text()
    assert "TournamentResult" in repr(back) and "<table" in back._repr_html_()
    compare("palace", ["random", "saver"], players=2, deals=20, out=tmp_path / "c.parquet")
    with pytest.raises(UserError, match="not a tournament"):
        load_tournament(tmp_path / "c.parquet")


@pytest.mark.parametrize("policies,message", [
    (["saver"], "at least 2 policies"),
    (["saver", "saver"], "given twice"),
    (["saver", "nonesuch"], "nonesuch"),
])
def test_bad_policies(policies, message):
    with pytest.raises(UserError, match=message):
        tournament("palace", policies, players=2, deals=10)


def test_cli_table_json_csv_out_plot(tmp_path):
    """20 bootstrap replicates, not 200: the equilibrium's intervals are not what this checks (200 solves of
    it are most of a run's time)."""
    base = [*BASE, "--bootstrap", "20"]
    r = runner.invoke(app, [*base, "-p", "2", "-n", "200"], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert "Head to head" in r.stdout and "reference: random" in r.stdout and "fixed: 200 games" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
    path, png = tmp_path / "t.parquet", tmp_path / "t.png"
    r = runner.invoke(app, [*base, "-p", "2", "-n", "100", "-f", "json", "--out", str(path), "--plot", str(png)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["kind"] == "tournament" and data["policies"] == ["random", "saver", "pickup"]
    assert data["model"]["reference"] == "random" and len(data["pairs"]) == 3 and len(data["head_to_head"]) == 6
    assert load_tournament(path).to_dict() == data and png.stat().st_size > 0
    r = runner.invoke(app, [*base, "-p", "2", "-n", "100", "-f", "csv"])
    lines = r.stdout.splitlines()
    assert lines[0] == "policy,against,win_share,ci_low,ci_high" and len(lines) == 7


@pytest.mark.parametrize("args,message", [
    (["tournament", "palace", "--policy", "saver"], "a tournament needs at least 2 policies, not 1"),
    (["tournament", "palace"], "a tournament needs at least 2 policies, not 0"),
    (["tournament", "palace", "--policy", "saver", "--policy", "saver"], "policy saver is given twice"),
    (["tournament", "palace", "--policy", "saver", "--policy", "nonesuch"], "nonesuch"),
    ([*BASE, "--precision", "2"], "precision must be a half-width between 0 and 1"),
    ([*BASE, "--precision", "0.1", "-n", "50", "--max-deals", "10"], "more than --max-deals"),
    ([*BASE, "-n", "0"], "the number of games must be from 1"),
    ([*BASE, "--plot", "x.gif"], "cannot plot to x.gif"),
    ([*BASE, "--bootstrap", "-1"], "the bootstrap replicates must be from 0"),
    (["tournament", "nogame", "--policy", "a", "--policy", "b"], "nogame"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and message in err, err


TOY = ["random", "high", "alternate"]


@pytest.mark.parametrize("tables", ["pairs", "mixed"])
def test_a_team_game_rates_teams_and_recovers_a_known_ordering(tables):
    """High card: each policy fills a whole team (partners never split); high > alternate > random."""
    r = tournament("highcard", TOY, deals=300, seed=2, tables=tables, bootstrap=20)   # the equilibrium's point only
    assert list(r.ratings["policy"]) == ["high", "alternate", "random"]
    # with its draws the toy game is not Bradley-Terry in log-odds (misfit chi2 / df well above 1.5,
    # in both seatings): the output says so; the equilibrium is high alone
    assert not r.fit["fits"] and r.fit["dispersion"] > 1.5 and "does not fit" in r.fit["warning"]
    assert r.equilibrium.iloc[0]["policy"] == "high" and r.equilibrium.iloc[0]["weight"] == 1
    assert "team" in r.meta["cell"] and "a team of one policy" in r.meta["method"]
    assert r.meta["seating"] == tables and r.meta["fair_share"] == 0.5
    if tables == "pairs":
        assert r.meta["arrangements"]["seats"] == ["ABAB", "BABA"]
    else:
        t = r.meta["tables"]
        assert t["count"] == 3 and t["rotations"] == 2 and t["members"][0] == ["random", "high"]
        assert t["seats"][0] == [[0, 1, 0, 1], [1, 0, 1, 0]] and t["streams"][0] == [[0, 1, 2, 3], [1, 0, 3, 2]]
        assert r.matrix.loc["high", "random"] + r.matrix.loc["random", "high"] == pytest.approx(1)


@pytest.fixture(scope="module")
def mixed():
    # 20 bootstrap replicates: nothing here reads the equilibrium's intervals
    return tournament("palace", ["random", "saver", "pickup", "lowest"], players=3, deals=150, seed=1, tables="mixed",
                      bootstrap=20)


def test_mixed_tables_plackett_luce(mixed):
    m = mixed.meta
    assert m["tables"]["count"] == 4 and m["tables"]["design"] == "all 4 tables of 3 of the 4 policies"
    assert m["model"]["name"].startswith("Plackett-Luce (choix 0.4.1") and m["model"]["reference"] == "random"
    assert "sandwich" in m["model"]["interval"] and "strictly below" in m["model"]["ties"]
    assert "Plackett-Luce" in m["method"] and "ties" in m["method"].lower() and m["versions"]["choix"] == "0.4.1"
    r = mixed.ratings.set_index("policy")
    assert r.loc["random", "rating"] == 0 and r.loc["pickup", "ci_low"] > 0 and r.loc["saver", "rating"] > 0
    assert list(mixed.ratings["policy"])[-1] == "random"
    # the matrix: above shares, each pair met at the two tables holding both, 2 orders x 3 rotations each
    matrix = mixed.matrix
    assert np.allclose((matrix + matrix.T).to_numpy()[~np.eye(4, dtype=bool)], 1.0)
    pairs = mixed.pairs.set_index(["a", "b"])
    t = m["tables"]
    assert t["rotations"] == 6 and t["orders"] == 2 and "neighbour-balanced" in t["balance"]
    assert (pairs["plays"] <= 150 * 2 * 6).all() and (pairs["deals"] <= 150).all()
    assert mixed.head_to_head().columns.tolist() == ["policy", "against", "above_share", "ci_low", "ci_high"]
    winners, _, deals = mixed.tally.choices()
    assert m["model"]["choices"] == winners.size and set(deals) <= set(range(150))


def test_mixed_tables_file_round_trip_and_plot(mixed, tmp_path):
    back = load_tournament(mixed.save(tmp_path / "m.parquet"))
    assert back.to_dict() == mixed.to_dict() and back.matrix.equals(mixed.matrix)
    assert "above share" in back.plot()._suptitle.get_text()
    assert "4 tables x 6 seatings" in repr(back) and "<table" in back._repr_html_()


def test_cli_mixed_tables(tmp_path):
    args = ["tournament", "palace", "-p", "3", "--tables", "mixed", "--policy", "random", "--policy", "saver",
            "--policy", "pickup", "-n", "60", "--bootstrap", "20", "--no-progress"]    # 20: as above
    r = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert "Plackett-Luce (choix 0.4.1" in r.stdout and "finished above" in r.stdout and "all 1 tables" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
    path = tmp_path / "m.parquet"
    r = runner.invoke(app, [*args, "-f", "json", "--out", str(path), "--plot", str(tmp_path / "m.png")])
    data = json.loads(r.stdout)
    assert data["seating"] == "mixed" and data["model"]["reference"] == "random" and len(data["head_to_head"]) == 6
    assert load_tournament(path).to_dict() == data and (tmp_path / "m.png").stat().st_size > 0
    lines = runner.invoke(app, [*args, "-f", "csv"]).stdout.splitlines()
    assert lines[0] == "policy,against,above_share,ci_low,ci_high" and len(lines) == 7


@pytest.mark.parametrize("args,message", [
    ([*BASE, "--tables", "round"], "tables is pairs or mixed, not 'round'"),
    ([*BASE, "-p", "4", "--tables", "mixed"], "mixed tables at 4 players need at least 4 policies (one per seat), "
                                              "not 3"),
    (["tournament", "highcard", "--policy", "high", "--tables", "mixed"], "at least 2 policies"),
])
def test_bad_seating_is_one_line_and_exit_code_2(args, message):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and message in err, err


def copy_of(name: str, game: str = "palace"):
    """The game's policy ``name`` registered again as ``name_copy``: one compiled function, two names."""
    return dataclasses.replace(get_game(game).policy_map[name], name=f"{name}_copy")


@pytest.mark.parametrize("players", [3, 4])
def test_two_policies_that_play_identically_are_named_but_not_an_exact_tie(players):
    """lowest and saver:keep=0 are two functions that play alike on these deals: the pair is 0 with the interval
    of the deals not seen (+-z^2 / (n + z^2); it was the exact tie [0, 0], which only one policy by
    construction is), no absurd game count (5e18 at 3 players before), one rating with an interval, and the
    output names them first."""
    r = tournament("palace", ["lowest", "saver:keep=0", "pickup"], players=players, deals=40, seed=1, bootstrap=20)
    row = r.pairs.iloc[0]
    bound = 1.959963984540054 ** 2 / (row["deals"] + 1.959963984540054 ** 2)
    assert row["win_diff"] == 0 and row["identical"] and not row["tie"] and row["p_value"] == 1
    assert row["ci_low"] == pytest.approx(-bound) and row["ci_high"] == pytest.approx(bound)
    assert row["effective_games"] <= row["deals"] * r.meta["arrangements"]["count"]
    rating = r.ratings.set_index("policy").loc["saver:keep=0"]
    assert rating["rating"] == 0 and rating["elo"] == 0 and rating["ci_low"] < 0 < rating["ci_high"]  # not proven
    assert r.same == [["lowest", "saver:keep=0"]] and "played identically" in r.meta["same_text"][0]
    weights = r.equilibrium.set_index("policy")["weight"]
    assert weights["lowest"] == weights["saver:keep=0"]
    assert repr(r).splitlines()[1].strip() == r.answer() and "played identically" in repr(r).splitlines()[2]
    data = r.to_dict()
    assert data["same"] == r.same and data["fit"] == r.fit and len(data["equilibrium"]) == 3


def test_one_policy_under_two_names_is_named_even_when_its_draws_differ():
    r = tournament("palace", ["random", copy_of("random"), "saver"], players=2, deals=40, seed=0, bootstrap=0)
    assert r.same == [["random", "random_copy"]] and "random draws" in r.meta["same_text"][0]
    row = r.ratings.set_index("policy").loc["random_copy"]
    assert row["ci_low"] < row["ci_high"]                          # not an exact tie: estimated, with an interval


def test_spite_and_malice_builder_and_patient_are_one_policy():
    """The package documents patient at its defaults as builder: the tournament says so up front."""
    r = tournament("spite_and_malice", ["builder", "patient", "random"], deals=10, seed=0, bootstrap=0)
    assert r.same == [["builder", "patient"]]
    rating = r.ratings.set_index("policy")
    # two functions that play alike: one rating, with an interval for the deals not seen (not proven one policy)
    patient = rating.loc["patient"]
    assert patient["rating"] == 0 and patient["ci_low"] < 0 < patient["ci_high"]
    assert rating.loc["random", "ci_low"] < rating.loc["random", "ci_high"]    # the variance floor: never certain


def test_the_fit_and_the_equilibrium_are_reported_and_saved(two, tmp_path):
    assert set(two.fit) >= {"model", "dispersion", "fits", "warning"} and two.fit["fits"] in (True, False)
    e = two.equilibrium
    assert list(e.columns) == ["policy", "weight", "weight_ci_low", "weight_ci_high", "value", "value_ci_low",
                               "value_ci_high", "indistinguishable_from"]
    assert e["weight"].sum() == pytest.approx(1) and (e["value"] <= 0).all() and e.iloc[0]["policy"] == "saver"
    assert two.meta["bootstrap"] == 200 and "Nash averaging" in two.meta["method"]
    back = load_tournament(two.save(tmp_path / "e.parquet"))
    assert back.equilibrium.equals(two.equilibrium) and back.fit == two.fit and back.same == two.same


def test_a_poor_fit_is_said_in_the_summary_and_the_ratings_table():
    """Palace at 4 players in pairs: one strength per policy does not describe the head-to-head results."""
    r = tournament("palace", ["saver", "random", "lowest", "pickup"], players=4, deals=150, seed=0, bootstrap=0)
    assert not r.fit["fits"] and "ci_scale" not in r.fit
    t = r.ratings                                                       # a misfit keeps the intervals' width
    assert (t["ci_high"] - t["ci_low"]).to_numpy() == pytest.approx(2 * 1.959964 * t["se"].to_numpy(), rel=1e-6)
    assert r.summary_lines() == [r.fit["warning"], *r.aborts()] and "does not fit" in repr(r)
    out = runner.invoke(app, ["tournament", "palace", "-p", "4", "--policy", "saver", "--policy", "random",
                              "--policy", "lowest", "--policy", "pickup", "-n", "150", "--bootstrap", "0",
                              "--no-progress"], env={"COLUMNS": "100"}).stdout
    flat = " ".join(out.split())
    assert "does not fit" in out.split("Head to head")[0] and "does not fit: a transitive summary" in flat
    assert out.index("Head to head") < out.index("Equilibrium") < out.index("Ratings")


def test_the_mixed_design_is_neighbour_balanced():
    """Each table in orders where every ordered pair of its policies sits side by side (x directly before y)
    equally often, and every policy in every seat equally often."""
    for size in (2, 3, 4, 5, 6):
        groups = [[s] for s in range(size)]
        (seatings,) = table_seatings([tuple(range(size))], groups)
        after = Counter((who[s], who[(s + 1) % size]) for who, _ in seatings for s in range(size))
        seat = Counter((who[s], s) for who, _ in seatings for s in range(size))
        assert len(set(after.values())) == 1 and len(after) == size * (size - 1), size
        assert len(set(seat.values())) == 1 and len(seat) == size * size, size
        for who, ids in seatings:                          # a policy keeps its slot's stream in every seating
            assert all(ids[s] == who[s] for s in range(size))
    assert len(neighbour_orders(4)) == 6 and len(neighbour_orders(5)) == 4 and len(neighbour_orders(6)) == 10


def test_mixed_tables_rate_a_copy_of_the_reference_at_0():
    """At 4 seats a deterministic copy of the reference is exactly 0 [0, 0] in every seed (rotations alone gave
    -0.030 [-0.044, -0.015]: who sits after whom never changed), and a copy of random covers 0 in most seeds."""
    for seed in range(3):
        r = tournament("palace", ["saver", copy_of("saver"), "pickup", "random"], players=4, deals=30, seed=seed,
                       tables="mixed", bootstrap=0)
        row = r.ratings.set_index("policy").loc["saver_copy"]
        assert row["rating"] == 0 and row["ci_low"] == 0 == row["ci_high"] and r.same == [["saver", "saver_copy"]]
        assert "neighbour-balanced" in r.meta["tables"]["balance"] and r.meta["tables"]["rotations"] == 24
    covers = 0
    for seed in range(5):
        r = tournament("palace", ["random", copy_of("random"), "saver", "pickup"], players=4, deals=30, seed=seed,
                       tables="mixed", bootstrap=0, first_deal=1000 * seed)
        row = r.ratings.set_index("policy").loc["random_copy"]
        covers += row["ci_low"] <= 0 <= row["ci_high"]
    assert covers >= 4
