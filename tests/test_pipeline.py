"""The run pipeline every command is a plan over: one argument check, one Ctrl-C message, first_deal honoured."""
from __future__ import annotations

import numpy as np
import pytest

import analyser
from analyser.engine.config import RunConfig
from analyser.engine.pipeline import Gather, Plan, execute, join_records
from analyser.engine.stopping import Precision
from analyser.errors import Interrupted, UserError
from analyser.stats.effects import EffectTally


def _plan(n=30, chunk=10, seeds=(1,)):
    configs = [RunConfig.build("palace", players=2, policies=["saver", "lowest"], deals=n, seed=s) for s in seeds]
    return Plan.of(configs, chunk_size=chunk, label="test")


@pytest.mark.parametrize("run", [
    lambda: analyser.simulate("palace", n=5, deals=6),
    lambda: analyser.compare("palace", ["saver", "pickup"], n=5, deals=6),
    lambda: analyser.tournament("palace", ["saver", "pickup"], n=5, deals=6),
    lambda: analyser.sweep("palace", ["pickup:max_pile=1|2", "saver"], n=5, deals=6),
    lambda: analyser.vary("palace", "ten_on_anything", n=5, deals=6),
])
def test_every_analysis_refuses_two_different_counts(run):
    with pytest.raises(UserError, match=r"give the number of \w+ once \(n=5, deals=6\)"):
        run()


def test_chunks_arrive_in_order_and_cover_the_units_once():
    seen = []
    run = execute(_plan(n=25, chunk=10), Gather(lambda chunk, recs: seen.append((chunk.start, chunk.count, recs))),
                  threads=1)
    assert [(s, n) for s, n, _ in seen] == [(0, 10), (10, 10), (20, 5)]
    assert np.concatenate([r[0]["unit"] for *_, r in seen]).tolist() == list(range(25))
    assert run.units == 25 and run.plays == 25 and run.stop == {"rule": "fixed", "deals": 25}


def test_ctrl_c_names_what_was_played_and_the_file(tmp_path):
    def add(chunk, recs):
        if chunk.start == 10:
            raise KeyboardInterrupt

    out = tmp_path / "r.parquet"
    with pytest.raises(Interrupted, match=rf"^interrupted after 20 games; no {out} was written$"):
        execute(_plan(), Gather(add, out), threads=1)
    out.write_bytes(b"old")
    with pytest.raises(Interrupted, match=rf"^interrupted after 20 games; {out} was left as it was$"):
        execute(_plan(), Gather(add, out), threads=1)
    several = Plan((_plan().groups[0], _plan(seeds=(2,)).groups[0]), 0, 30, 10, "test", "settings")

    def add_second(chunk, recs):
        if chunk.group == 1:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match=r"^interrupted after 1 of 2 settings$"):
        execute(several, Gather(add_second), threads=1)


def test_a_precision_stop_adds_batches_from_where_the_last_ended():
    starts = []
    widths = iter([0.5, 0.2, 0.001])
    stop = Precision(0.01, 10_000, lambda: next(widths))
    run = execute(_plan(n=100, chunk=1000), Gather(lambda chunk, recs: starts.append(chunk.start)), stop, threads=1)
    assert starts == [0, 100, 200] and run.units == 400          # batches of 100, 100 (at most doubling), 200
    assert [b["deals"] for b in stop.batches] == [100, 200, 400] and run.stop["reached"]


def test_vary_honours_first_deal(monkeypatch):
    """vary from deal 400 tallies the very records simulate plays from deal 400 under each value."""
    import analyser.analyses.vary as vary_module

    tallied = []

    class Seen(EffectTally):
        def add(self, recs):
            tallied.append(recs)
            return super().add(recs)

    monkeypatch.setattr(vary_module, "EffectTally", Seen)
    r = analyser.vary("palace", "ten_on_anything", players=2, policies=["saver", "lowest"], n=150, first_deal=400,
                      seed=3)
    assert r.meta["first_deal"] == 400
    recs = [analyser.simulate("palace", 2, ["saver", "lowest"], n=150, first_deal=400, seed=3,
                              rules={"ten_on_anything": v}).records for v in (False, True)]
    assert [rec["unit"][0] for rec in recs] == [400, 400]
    for value, rec in enumerate(recs):
        seen = join_records([chunk[value] for chunk in tallied], rec.dtype)
        assert seen.tobytes() == rec.tobytes()
    monkeypatch.undo()
    other = analyser.vary("palace", "ten_on_anything", players=2, policies=["saver", "lowest"], n=150, seed=3)
    assert not np.allclose(other.table["win_mean"], r.table["win_mean"])    # other deals, other shares


def test_a_backend_is_a_name_of_the_executors_table(monkeypatch):
    """Every analysis's ``backend`` is looked up in engine.backend.EXECUTORS: a name added there is
    served by its factory; an unknown one is refused naming the table's names."""
    from analyser.engine import backend
    from analyser.engine.local import LocalExecutor

    made = []
    monkeypatch.setitem(backend.EXECUTORS, "mine", lambda given, progress: made.append(given) or LocalExecutor())
    same = analyser.simulate("palace", n=20, players=2, backend="mine")
    assert made == ["mine"]
    assert same.summary.equals(analyser.simulate("palace", n=20, players=2).summary)
    with pytest.raises(UserError, match="unknown backend 'nowhere'; choose from: local, dask, mine, a Dask"):
        analyser.compare("palace", ["saver", "pickup"], n=5, backend="nowhere")
