"""``review`` reports what a designer can read (costly decisions under Holm's rule, a mean cost with its
interval, no sum of costs), says up front what it will cost, bounds itself to a step range, and
rollouts and reviews show their worlds on a bar whose total a precision target estimates."""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.analyses import rollout as rollout_module
from analyser.analyses.review import review
from analyser.analyses.rollout import BATCH, rollout
from analyser.cli.main import app
from analyser.stats.multiple import holm

runner = CliRunner()


@pytest.fixture(scope="module")
def palace_review():
    return review("palace", seed=1, seat=0, trials=60)


def test_a_review_reports_costly_decisions_and_a_mean_cost_within_the_stake(palace_review):
    m, table = palace_review.meta, palace_review.table
    assert "total_cost" not in m
    low, high = m["mean_cost_ci"]
    assert -1 <= low <= m["mean_cost"] <= high <= 1
    assert m["mean_cost"] == pytest.approx(table["cost"].mean())
    assert np.allclose(table["p_holm"], holm(table["p"]))
    assert list(table["costly"]) == list(table["p_holm"] < 0.05) and m["costly"] == int(table["costly"].sum())
    worse = table[table["cost"] > 0]
    assert (worse["p"] < 0.5).all() and (table.loc[table["cost"] <= 0, "p"] >= 0.5).all()   # one-sided
    assert "Holm" in m["meaning"] and "not estimated" in m["meaning"]


def test_the_review_table_says_what_its_figures_mean(palace_review):
    from rich.console import Console

    from analyser.cli.rollout import print_review

    console = Console(record=True, width=120)
    print_review(palace_review, console=console)
    text = console.export_text()
    assert "Mean cost per decision" in text and "Costly:" in text and "Holm p" in text
    assert "Total cost" not in text and "the sum over its decisions" not in text


def test_a_review_says_its_cost_first_and_that_the_unit_hit_the_cap_and_takes_a_step_range():
    cli = runner.invoke(app, ["review", "palace", "--seed", "1", "--deal", "4", "--seat", "0", "--trials", "10",
                              "--steps", "..20"])
    assert cli.exit_code == 0, cli.output
    first = cli.stderr.splitlines()[0]
    assert first.startswith("review: 4 decisions of the seat's 423 x 10 worlds") and "action cap" in first, first
    out = " ".join(cli.stdout.split())
    assert "never ended: it hit the action cap" in out and "at steps 0 to 20" in out
    r = review("palace", seed=1, deal=4, seat=0, trials=10, steps=(None, 20))
    assert r.meta["aborted"] and r.meta["decisions"] == 4 and r.table["step"].max() <= 20
    assert r.meta["decisions_in_unit"] == 423
    from analyser.analyses.review import cost_note
    from analyser.analyses.rollout import Stopping
    from analyser.engine.config import RunConfig

    unbounded = cost_note(423, 423, Stopping.of(1000, None, False, None), True, "4,999 turns",
                          RunConfig.build("palace", deals=1), False)
    assert unbounded.startswith("review: 423 decisions x 1,000 worlds") and "Bound it with --steps A..B" in unbounded


@pytest.mark.parametrize("steps, says", [("abc", "the steps are A..B"), ("30..10", "are empty"),
                                          ("9000..", "ends at step")])
def test_a_bad_step_range_is_one_line(steps, says):
    cli = runner.invoke(app, ["review", "palace", "--seed", "1", "--seat", "0", "--trials", "10", "--steps", steps])
    assert cli.exit_code == 2 and says in cli.output and "Traceback" not in cli.output, cli.output


class Recorder:
    """A stand-in for engine.progress's bar: what the run told it."""

    def __init__(self, total, label, enabled):
        self.totals, self.done, self.label = [total], 0, label

    def __enter__(self):
        bars.append(self)
        return self

    def __exit__(self, *exc):
        return False

    def advance(self, n, rate=""):
        self.done += n

    def retotal(self, total):
        self.totals.append(total)


bars: list[Recorder] = []


def test_a_precision_rollout_bar_heads_for_an_estimate_of_the_total(monkeypatch):
    bars.clear()
    monkeypatch.setattr(rollout_module, "progress_bar", Recorder)
    r = rollout("palace", seed=1, step=19, precision=0.008, trials=40_000, progress=True)
    bar, = bars
    done = r.meta["trials"]
    assert done > 2 * BATCH                              # several batches, so the first total was an estimate
    assert bar.done == done and bar.totals[-1] == done
    assert max(bar.totals[1:-1]) > BATCH                 # not the batch being played as the total
    assert abs(bar.totals[-2] - done) <= abs(bar.totals[0] - done)     # the estimate nears the end


def test_a_review_bar_counts_every_decision_s_worlds(monkeypatch):
    bars.clear()
    monkeypatch.setattr(rollout_module, "progress_bar", Recorder)
    import analyser.analyses.review as review_module

    monkeypatch.setattr(review_module, "progress_bar", Recorder)
    r = review("palace", seed=1, seat=0, trials=30, steps="..20", progress=True)
    bar, = bars
    assert bar.totals[0] == bar.totals[-1] == bar.done == 30 * r.meta["decisions"]


def test_an_older_review_file_is_named_as_such(tmp_path):
    from analyser.io.results_file import write_frame

    old = tmp_path / "old.parquet"
    write_frame(old, pd.DataFrame({"step": [1], "played": ["a"], "best": ["b"], "cost": [0.1]}),
                {"kind": "review", "total_cost": 0.794, "game": "palace"})
    cli = runner.invoke(app, ["show", str(old)])
    assert cli.exit_code == 2 and "older version" in cli.output and "run `analyser review` again" in cli.output, \
        cli.output


def test_the_review_figure_marks_the_costly_decisions(palace_review, tmp_path):
    from tests.plots.test_readable import assert_inside

    fig = palace_review.plot()
    title = fig.get_suptitle()
    assert "mean cost per decision" in title and "costly" in title and "total" not in title
    assert_inside(fig)
