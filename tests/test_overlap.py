"""simulate tallies and writes a chunk in a thread of its own while the next one plays
(engine.background.Background, analyses.simulate.TallySink): the same file and tally as one
after the other, errors raised in the caller's thread, and a run that stops early leaves
no partial file and an older file as it was."""
import threading
import time

import numpy as np
import pyarrow.parquet as pq
import pytest

import analyser
import analyser.analyses.simulate as simulate_module
from analyser.engine.background import Background
from analyser.engine.config import RunConfig
from analyser.engine.local import LocalExecutor
from analyser.engine.pipeline import Plan
from analyser.errors import Interrupted
from analyser.io.results_file import RecordWriter, read_results

MIX = ["saver", "lowest", "pickup", "random"]
TIMING = {"seconds", "simulation_seconds"}


def partials(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


def written(path, overlap, monkeypatch, **run):
    monkeypatch.setattr(simulate_module, "OVERLAP", overlap)
    result = analyser.simulate("palace", policies=MIX, n=500, seed=4, chunk_size=64, out=path, progress=False, **run)
    monkeypatch.undo()
    return result


@pytest.mark.parametrize("threads", [1, pytest.param(2, marks=pytest.mark.two_threads)])
def test_the_overlapped_file_and_tally_are_the_sequential_ones(tmp_path, monkeypatch, threads):
    """Eight chunks into a reused double buffer while the previous one is written: the records
    table read back is the one written one chunk after the other, bit for bit, and the kept
    records' too; so is the tally."""
    one = written(tmp_path / "one.parquet", False, monkeypatch, threads=threads, keep_records=True)
    two = written(tmp_path / "two.parquet", True, monkeypatch, threads=threads, keep_records=False)
    a, b = pq.read_table(tmp_path / "one.parquet"), pq.read_table(tmp_path / "two.parquet")
    assert a.equals(b) and a.schema.equals(b.schema, check_metadata=True)
    assert pq.ParquetFile(tmp_path / "two.parquet").metadata.num_row_groups == 8
    meta_a, frame_a, _ = read_results(tmp_path / "one.parquet")
    meta_b, frame_b, _ = read_results(tmp_path / "two.parquet")
    assert {k: v for k, v in meta_a.items() if k not in TIMING} == {k: v for k, v in meta_b.items() if k not in TIMING}
    back = analyser.load(tmp_path / "two.parquet").records
    assert back.tobytes() == one.records.tobytes()
    for key, value in one.tally.sums.items():
        assert value.tobytes() == two.tally.sums[key].tobytes()
        assert one.tally.squares[key].tobytes() == two.tally.squares[key].tobytes()
    assert one.to_dict()["seats"] == two.to_dict()["seats"]
    assert partials(tmp_path) == []


def test_the_executor_keeps_two_buffers_for_a_sink_that_holds_one_chunk():
    config = RunConfig.build("palace", players=2, policies=["saver", "lowest"], deals=30, seed=1)
    executor = LocalExecutor()
    executor.prepare(Plan.of([config], chunk_size=10), reuse_buffers=True, held=1)
    from analyser.engine.pipeline import Chunk

    first, second, third = (executor.play(Chunk(0, 10 * k, 10))[0] for k in range(3))
    assert not np.shares_memory(first, second) and np.shares_memory(first, third)
    executor.prepare(Plan.of([config], chunk_size=10), reuse_buffers=True)
    assert np.shares_memory(executor.play(Chunk(0, 0, 10))[0], executor.play(Chunk(0, 10, 10))[0])


def test_an_error_in_the_thread_is_raised_in_the_callers():
    done = []

    def work(k):
        if k == 1:
            raise OSError(28, "No space left on device")
        done.append(k)

    background = Background()
    background.submit(work, 0)
    background.submit(work, 1)
    with pytest.raises(OSError, match="No space left"):
        background.submit(work, 2)        # waits for 1, raises its error; 2 never starts
    background.settle()
    assert done == [0]


def test_settle_waits_for_the_work_in_flight_through_ctrl_c(monkeypatch):
    """Ctrl-C while waiting leaves the piece in flight; settle waits for it to end, whatever
    it raises, so the caller may then close and delete its file."""
    release = threading.Event()
    over = []

    def work():
        release.wait(5)
        over.append(True)
        raise RuntimeError("ignored: the run stops for Ctrl-C")

    background = Background()
    background.submit(work)
    pending = background._pending
    real_result = pending.result
    calls = []

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real_result(*args)

    monkeypatch.setattr(pending, "result", interrupted)
    with pytest.raises(KeyboardInterrupt):
        background.wait()
    assert background._pending is pending          # still in flight
    threading.Timer(0.2, release.set).start()
    background.settle()
    assert over == [True] and background._pending is None


def test_a_writer_error_surfaces_and_removes_the_partial_file(tmp_path, monkeypatch):
    """The writer's thread fails on the third chunk: simulate raises that error, as the writer
    would have itself, and the older file stays as it was."""
    path = tmp_path / "r.parquet"
    path.write_bytes(b"the old results")
    real_write = RecordWriter.write
    calls = []

    def failing(self, rec, players):
        calls.append(threading.current_thread().name)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real_write(self, rec, players)

    monkeypatch.setattr(RecordWriter, "write", failing)
    with pytest.raises(OSError, match="No space left"):
        analyser.simulate("palace", policies=MIX, n=400, seed=1, chunk_size=50, out=path, progress=False)
    assert all(name.startswith("analyser-sink") for name in calls)      # written beside the simulation
    assert path.read_bytes() == b"the old results" and partials(tmp_path) == []


def test_ctrl_c_while_a_chunk_is_written_leaves_no_partial_file(tmp_path, monkeypatch):
    """Ctrl-C comes in the main thread while the writer's thread is busy with the last chunk:
    the run waits for it, drops the partial file and says what was played."""
    path = tmp_path / "r.parquet"
    path.write_bytes(b"the old results")
    real_write, real_play = RecordWriter.write, LocalExecutor.play
    writing = threading.Event()

    def slow_write(self, rec, players):
        writing.set()
        time.sleep(0.3)
        real_write(self, rec, players)

    def play(self, chunk):
        if chunk.start == 100:
            assert writing.wait(5)
            raise KeyboardInterrupt
        return real_play(self, chunk)

    monkeypatch.setattr(RecordWriter, "write", slow_write)
    monkeypatch.setattr(LocalExecutor, "play", play)
    with pytest.raises(Interrupted, match=rf"^interrupted after 100 games; {path} was left as it was$"):
        analyser.simulate("palace", policies=MIX, n=400, seed=1, chunk_size=50, out=path, progress=False)
    assert path.read_bytes() == b"the old results" and partials(tmp_path) == []
