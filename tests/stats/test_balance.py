"""Seat and game balance (analyser.stats.balance): known truths on synthetic
records, the same figures for any chunking, and real runs that survive a
results file."""
import io
import math

import numpy as np
import pytest
from rich.console import Console

import analyser
from analyser.cli.tables import run_table
from analyser.games.enemy_anemone.records import RECORD_DTYPE as ANEMONE_DTYPE
from analyser.games.palace.records import RECORD_DTYPE as PALACE_DTYPE
from analyser.games.registry import get_game
from analyser.stats import balance
from analyser.stats.summary import run_figures
from analyser.stats.tally import OUTCOME_QUANTITIES, Tally, partitions

PALACE = get_game("palace")
ANEMONE = get_game("enemy_anemone")
BALANCE_KEYS = ("completion", "drawishness", "duration", "shared_wins", "outright_wins", "first_mover_units",
                "first_mover_win_rate", "first_mover_win_ci_low", "first_mover_win_ci_high", "fair_share",
                "advantage", "advantage_ci_low", "advantage_ci_high", "balance", "balance_ci_low",
                "balance_ci_high", "balance_gap", "decision_moves")


def one_winner(n, players, rng, winner=None, first=None):
    """Enemy Anemone records with one winner each (random, or ``winner``) and a random first mover."""
    rec = np.zeros(n, ANEMONE_DTYPE)
    rec["unit"] = np.arange(n)
    win = rng.integers(0, players, n) if winner is None else np.full(n, winner)
    rec["win"][np.arange(n), win] = 1.0
    rec["score"] = rec["win"]
    rec["first"] = rng.integers(0, players, n) if first is None else first
    rec["length"] = 40 * players
    rec["decisions"] = rng.integers(0, 40 * players + 1, n)
    return rec


def palace(n, players, rng, loser):
    """Palace records: ``loser`` (an array) loses, every other seat wins; a random first mover."""
    rec = np.zeros(n, PALACE_DTYPE)
    rec["unit"] = np.arange(n)
    rec["win"][:, :players] = 1.0
    rec["win"][np.arange(n), loser] = 0.0
    rec["score"] = rec["win"]
    rec["loser"] = loser
    rec["first"] = rng.integers(0, players, n)
    rec["length"] = rng.integers(30, 300, n)
    rec["decisions"] = (rec["length"] * rng.random(n)).astype(np.int32)
    return rec


def figures(game, rec, players):
    return run_figures(Tally.for_run(game, players, ["p"] * players).add(rec))


def test_a_first_mover_who_always_wins():
    rng = np.random.default_rng(0)
    rec = one_winner(2000, 2, rng)
    rec["first"] = np.argmax(rec["win"][:, :2], axis=1)
    f = figures(ANEMONE, rec, 2)
    assert f["first_mover_win_rate"] == 1.0 and f["fair_share"] == pytest.approx(0.5)
    assert f["advantage"] == pytest.approx(0.5)
    assert f["advantage_ci_high"] == pytest.approx(0.5) and 0.49 < f["advantage_ci_low"] < 0.5   # Wilson, 2000/2000
    assert f["balance"] > 0.9                    # the seats themselves are even
    four = palace(2000, 4, rng, rng.integers(0, 4, 2000))
    four["first"] = (four["loser"] + 1) % 4      # Palace, 4 players: the first mover is never the loser
    f = figures(PALACE, four, 4)
    assert f["first_mover_win_rate"] == 1.0 and f["advantage"] == pytest.approx(0.25)


def test_a_first_mover_who_never_wins_and_one_who_wins_fairly():
    rng = np.random.default_rng(1)
    rec = one_winner(3000, 3, rng)
    f = figures(ANEMONE, rec, 3)
    assert f["fair_share"] == pytest.approx(1 / 3)
    assert f["advantage_ci_low"] < 0 < f["advantage_ci_high"] and abs(f["advantage"]) < 0.03
    rec["first"] = (np.argmax(rec["win"][:, :3], axis=1) + 1) % 3
    f = figures(ANEMONE, rec, 3)
    assert f["first_mover_win_rate"] == 0.0 and f["advantage"] == pytest.approx(-1 / 3)


def test_equal_seats_balance_near_1_and_the_interval_reaches_1():
    rng = np.random.default_rng(2)
    for players in (2, 3, 6):
        f = figures(ANEMONE, one_winner(20_000, players, rng), players)
        assert 0.97 < f["balance"] < 1.0 and f["balance_ci_high"] == 1.0
        assert f["balance_ci_low"] < f["balance"]
        assert f["balance_gap"] == pytest.approx(1 - f["balance"])
    f = figures(PALACE, palace(20_000, 4, rng, rng.integers(0, 4, 20_000)), 4)
    assert 0.97 < f["balance"] < 1.0 and f["balance_ci_high"] == 1.0


def test_a_seat_that_never_wins_gives_balance_0():
    rng = np.random.default_rng(3)
    f = figures(ANEMONE, one_winner(500, 2, rng, winner=0), 2)
    assert f["balance"] == 0.0 and f["balance_ci_low"] == 0.0 and 0.0 < f["balance_ci_high"] < 0.03
    f = figures(PALACE, palace(500, 4, rng, np.full(500, 3)), 4)     # seat 3 always the loser
    assert f["balance"] == 0.0 and f["balance_ci_high"] < 0.03
    f = figures(PALACE, palace(4000, 4, rng, rng.choice([2, 3], 4000)), 4)   # two seats share the losing
    assert f["balance"] == pytest.approx(0.5, abs=0.03) and f["balance_ci_low"] < 0.5 < f["balance_ci_high"]


def test_the_balance_interval_covers_a_known_gap():
    """Seat 0 wins 40% and seats 1, 2 30% each: the gap is 0.1; the interval is conservative."""
    rng = np.random.default_rng(4)
    missed = 0
    for _ in range(40):
        winner = rng.choice(3, 2000, p=[0.4, 0.3, 0.3])
        f = figures(ANEMONE, one_winner(2000, 3, rng, winner=winner), 3)
        missed += not f["balance_ci_low"] <= 0.9 <= f["balance_ci_high"]
    assert missed <= 2


def test_decision_moves_is_pooled_over_completed_units():
    """Completed units of 1 decision in 10 moves and 9 in 30 pool to 10 / 40 = 0.25 (the mean of
    their ratios is 0.2); the aborted third, 50 decisions in 50 moves, would make it 60 / 90."""
    rng = np.random.default_rng(5)
    rec = palace(999, 3, rng, rng.integers(0, 3, 999))
    rec["decisions"], rec["length"] = np.tile([1, 9, 50], 333), np.tile([10, 30, 50], 333)
    rec["aborted"][2::3] = True
    rec["win"][2::3] = 0
    f = figures(PALACE, rec, 3)
    assert f["decision_moves"] == pytest.approx(0.25, rel=1e-12)
    assert f["completion"] == pytest.approx(2 / 3) and f["duration"] == f["length_mean"] == 20
    assert f["first_mover_units"] == 666


def test_shared_wins_draws_and_the_fair_share():
    rng = np.random.default_rng(6)
    rec = one_winner(1000, 3, rng)
    rec["win"][:100, :3] = [0.5, 0.5, 0.0]       # a tie between two seats
    rec["win"][100:150] = 0.0                    # drawn
    rec["draw"][100:150] = True
    rec["aborted"][150:160] = True
    rec["win"][150:160] = 0.0
    f = figures(ANEMONE, rec, 3)
    assert f["shared_wins"] == 100 and f["draws"] == 50 and f["outright_wins"] == 990 - 150
    assert f["drawishness"] == f["draw_rate"] == pytest.approx(50 / 990)
    assert f["fair_share"] == pytest.approx((1 - 50 / 990) / 3)
    assert f["completion"] == pytest.approx(0.99)
    assert figures(PALACE, palace(300, 4, rng, rng.integers(0, 4, 300)), 4)["shared_wins"] == 0


def test_without_first_or_decisions_the_figures_are_not_available():
    rng = np.random.default_rng(7)
    rec = one_winner(200, 3, rng)
    bare = Tally(3, partitions(3, ["p"] * 3, None), OUTCOME_QUANTITIES, ()).add(rec)
    f = run_figures(bare)
    assert math.isnan(f["advantage"]) and math.isnan(f["first_mover_win_rate"]) and f["first_mover_units"] == 0
    assert math.isnan(f["decision_moves"]) and 0 < f["balance"] <= 1
    assert all(math.isnan(v) for k, v in run_figures(Tally.for_run(ANEMONE, 3, ["p"] * 3)).items()
               if k in ("balance", "advantage", "decision_moves", "completion"))


@pytest.mark.parametrize("size", [1, 37, 250, 999])
def test_any_chunking_gives_the_same_figures(size):
    rng = np.random.default_rng(8)
    rec = one_winner(1000, 4, rng)
    rec["win"][:60, :4] = [0.5, 0, 0.5, 0]
    rec["aborted"][::13] = True
    rec["win"][::13] = 0
    whole = figures(ANEMONE, rec, 4)
    parts = Tally.for_run(ANEMONE, 4, ["p"] * 4)
    for lo in range(0, rec.size, size):
        parts.merge(Tally.for_run(ANEMONE, 4, ["p"] * 4).add(rec[lo: lo + size]))
    merged = run_figures(parts)
    for key in BALANCE_KEYS:
        assert merged[key] == pytest.approx(whole[key], rel=1e-12), key


@pytest.fixture(scope="module", params=[("enemy_anemone", 3), ("palace", 4)], ids=["anemone", "palace"])
def run(request):
    game, players = request.param
    return analyser.simulate(game, n=300, players=players, progress=False)


def test_a_real_run_has_figures_in_range_that_survive_a_results_file(run, tmp_path):
    f = run.figures
    assert f["first_mover_units"] == f["completed"] > 0
    assert f["fair_share"] == pytest.approx(run.game.win_total(run.tally.players) / run.tally.players)
    assert f["first_mover_win_ci_low"] <= f["first_mover_win_rate"] <= f["first_mover_win_ci_high"]
    assert f["advantage_ci_low"] <= f["advantage"] <= f["advantage_ci_high"]
    assert 0 <= f["balance_ci_low"] <= f["balance"] <= f["balance_ci_high"] <= 1 and f["balance"] > 0.7
    assert 0.5 < f["decision_moves"] <= 1.0
    assert f["completion"] == f["completed"] / f["units"] and f["drawishness"] == f["draw_rate"]
    json_run = run.to_dict()["run"]
    assert {"balance", "advantage", "decision_moves", "completion", "drawishness", "duration",
            "draw_rate", "length_mean"} <= set(json_run)
    rebuilt = run_figures(Tally.for_run(run.game, run.tally.players, run.labels).add(run.records))   # as load() does
    for key in BALANCE_KEYS:
        assert rebuilt[key] == pytest.approx(f[key], rel=1e-12, nan_ok=True), key
    path = run.save(tmp_path / "r.parquet")
    back = analyser.load(path).figures
    for key in BALANCE_KEYS:
        assert back[key] == pytest.approx(f[key], rel=1e-12, nan_ok=True), key


def test_the_per_run_table_shows_them_at_80_columns(run):
    out = io.StringIO()
    Console(file=out, width=80).print(run_table(run))
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    f = run.figures
    assert f"{100 * f['advantage']:+.2f}% [" in text and f"{f['balance']:.3f} [" in text
    assert f"{100 * f['decision_moves']:.2f}%" in text
    assert ("won outright / shared / drawn" in text) == (f["shared_wins"] > 0)


def test_the_module_says_how_it_relates_to_ludii():
    for fn in (balance.balance, balance.first_player_advantage, balance.decision_moves, balance.endings):
        assert "Ludii" in fn.__doc__
