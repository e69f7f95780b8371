"""The Dask backend (analyser.engine.dask_backend): a cluster's records are the local run's, byte for byte."""
import os

import pytest

pytest.importorskip("distributed")

import numba  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import analyser  # noqa: E402
from analyser.engine import dask_backend  # noqa: E402
from analyser.engine.config import RunConfig  # noqa: E402
from analyser.engine.pipeline import Chunk, Plan  # noqa: E402
from analyser.errors import UserError  # noqa: E402
from analyser.games.palace.constants import ACTION  # noqa: E402

# A notebook's cell: its functions belong to __main__, so they travel to the workers by value.
CELL = '''
from numba import njit

@njit
def always_pick_up(pub, pv, legal, params):
    if legal[ACTION.PICKUP]:
        return ACTION.PICKUP
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1

@njit
def cheat(pub, pv, legal, params):
    return ACTION.COUNT - 1      # SWAP_DONE: illegal during play
'''
NOTEBOOK = {"__name__": "__main__", "ACTION": ACTION}
exec(compile(CELL, "<notebook cell>", "exec"), NOTEBOOK)


@pytest.fixture(scope="module")
def client():
    """The cluster backend="dask" starts on this machine (a worker a core), kept for the module: every
    test below shares its workers (each takes seconds to start and to load the games' code), and
    test_the_machine_cluster_runs_one_numba_thread_a_worker checks it is the one backend="dask" uses."""
    c = dask_backend.shared_client("dask")
    try:
        yield c
    finally:
        dask_backend.restore_environ(c.analyser_environ)     # a restarted worker's nanny set it here again
        dask_backend.close_shared()


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_simulate_on_a_cluster_gives_the_local_records(client):
    mix = ["saver", "lowest", "pickup:max_pile=5", "random"]
    local = analyser.simulate("palace", players=4, policies=mix, n=1500, seed=4)
    dask = analyser.simulate("palace", players=4, policies=mix, n=1500, seed=4, chunk_size=200, backend=client)
    assert same_bytes(local.records, dask.records)
    pd.testing.assert_frame_equal(local.summary, dask.summary)


def test_a_match_game_on_a_cluster_gives_the_local_records(client):
    local = analyser.simulate("olenon", n=120, seed=2, chunk_size=50)
    dask = analyser.simulate("olenon", n=120, seed=2, chunk_size=32, backend=client)
    assert same_bytes(local.records, dask.records)
    pd.testing.assert_frame_equal(local.summary, dask.summary)


def test_compare_on_a_cluster_gives_the_local_result(client):
    local = analyser.compare("palace", ["random", "saver"], players=2, deals=400, seed=3)
    dask = analyser.compare("palace", ["random", "saver"], players=2, deals=400, seed=3, chunk_size=64,
                            backend=client)
    pd.testing.assert_frame_equal(local.summary, dask.summary)


def test_a_notebook_policy_runs_on_the_workers(client):
    policies = [NOTEBOOK["always_pick_up"], "saver"]
    local = analyser.simulate("palace", players=2, policies=policies, n=400, seed=1)
    dask = analyser.simulate("palace", players=2, policies=policies, n=400, seed=1, chunk_size=100, backend=client)
    assert same_bytes(local.records, dask.records)
    assert dask.records["voluntary"][:, 0].sum() > 0


def test_an_error_in_a_task_reaches_the_caller_as_itself(client):
    with pytest.raises(UserError, match="policy 'cheat' at seat 1 chose an illegal action"):
        analyser.simulate("palace", players=2, policies=["saver", NOTEBOOK["cheat"]], n=200, chunk_size=50,
                          backend=client)


def test_results_closed_early_cancels_the_outstanding_tasks(client):
    config = RunConfig.build("palace", players=2, policies=["saver", "random"], deals=2000, seed=5)
    executor = dask_backend.DaskExecutor(client)
    executor.prepare(Plan.of([config], chunk_size=50))
    played = executor.results([Chunk(0, start, 50) for start in range(0, 2000, 50)])
    chunk, (records,) = next(played)
    assert chunk == Chunk(0, 0, 50) and records.size == 50
    played.close()
    assert not [key for key in client.futures if executor.digests[0] in str(key)]


def test_the_machine_cluster_runs_one_numba_thread_a_worker(client):
    """backend="dask": a LocalCluster kept for the process (the module's ``client``), NUMBA_NUM_THREADS=1
    in its workers and not in this process (numba re-reads it when it compiles)."""
    before = client.analyser_environ["NUMBA_NUM_THREADS"]       # this process's, before the cluster started
    r = analyser.simulate("palace", players=2, policies=["saver", "random"], n=300, chunk_size=100, backend="dask")
    assert dask_backend.shared_client("dask") is client
    assert set(client.run(lambda: os.environ.get("NUMBA_NUM_THREADS")).values()) == {"1"}
    assert len(client.nthreads()) == dask_backend.cpu_count()
    assert os.environ.get("NUMBA_NUM_THREADS") == before
    assert numba.njit(lambda x: x + 1)(1) == 2       # compiles here: numba's thread count unchanged
    assert r.records.size == 300


def test_a_policy_the_workers_cannot_load_is_refused_in_one_line(client, tmp_path, monkeypatch):
    """An @njit function travels by value, but what it reads from an importable module (a class)
    travels by reference: that module must be importable on the workers too."""
    (tmp_path / "only_here_policies.py").write_text(
        "from enum import IntEnum\n\nfrom numba import njit\n\n\nclass START(IntEnum):\n    AT = 0\n\n\n"
        "@njit\ndef first_legal(pub, pv, legal, params):\n"
        "    for a in range(START.AT, legal.size):\n        if legal[a]:\n            return a\n    return -1\n")
    monkeypatch.syspath_prepend(str(tmp_path))      # importable here, not on the workers
    from only_here_policies import first_legal

    with pytest.raises(UserError, match="module on the workers' path") as err:
        analyser.simulate("palace", players=2, policies=[first_legal, "saver"], n=100, backend=client)
    assert "\n" not in str(err.value)


def test_an_interrupted_cluster_run_resumes_from_its_run_directory(client, tmp_path):
    from analyser.engine.pipeline import Gather, execute
    from analyser.errors import Interrupted

    config = RunConfig.build("olenon", players=4, deals=600, seed=3)
    seen = []

    def stop_at_four(chunk, records):
        seen.append(chunk.start)
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="finished chunks are kept in"):
        execute(Plan.of([config], chunk_size=50), Gather(stop_at_four), backend=client, run_dir=tmp_path)
    resumed = analyser.simulate("olenon", n=600, seed=3, chunk_size=50, backend=client, run_dir=tmp_path)
    assert same_bytes(resumed.records, analyser.simulate("olenon", n=600, seed=3).records)


def test_every_other_command_on_a_cluster_gives_the_local_result(client):
    """tournament, sweep and vary (simulate and compare above; report is made of these)."""
    runs = {
        "tournament": lambda **kw: analyser.tournament("palace", ["saver", "lowest", "pickup"], players=2, n=120,
                                                       seed=2, bootstrap=0, **kw).matrix,
        "sweep": lambda **kw: analyser.sweep("palace", ["pickup:max_pile=1|4", "saver"], players=2, n=150, seed=2,
                                             **kw).table,
        "vary": lambda **kw: analyser.vary("palace", "ten_on_anything", players=2, n=150, seed=2, **kw).table,
    }
    for name, run in runs.items():
        pd.testing.assert_frame_equal(run(), run(chunk_size=64, backend=client), obj=name)


def test_a_worker_killed_mid_run_changes_nothing(client):
    """SIGKILL one worker while its tasks run: the scheduler plays them again elsewhere (a task's
    records are a function of its key), and the result is the local one."""
    import signal

    from analyser.engine.pipeline import Gather, execute, join_records

    config = RunConfig.build("palace", players=2, policies=["saver", "random"], deals=3000, seed=8)
    local = analyser.simulate("palace", 2, ["saver", "random"], n=3000, seed=8).records
    pids = list(client.run(os.getpid).values())
    got = []

    def add(chunk, records):
        got.append(records[0])
        if len(got) == 2:
            os.kill(pids[0], signal.SIGKILL)

    execute(Plan.of([config], chunk_size=100), Gather(add), backend=client)
    assert same_bytes(join_records(got, local.dtype), local)   # np.concatenate leaves the padding undefined
    client.wait_for_workers(len(pids), timeout=120)     # the nanny has started a new one
    dask_backend.restore_environ(client.analyser_environ)   # which set the workers' environment here again


def test_without_dask_installed_the_backend_says_how_to_install_it(monkeypatch):
    import sys

    from analyser.engine.backend import make_executor

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UserError, match=r"not installed: pip install 'analyser\[distributed\]'"):
        make_executor("dask")


def test_a_tuning_on_a_cluster_gives_the_local_study(client):
    """tune plays many small plans through the same executor: on the cluster, the same trials and answer."""
    def run(**kw):
        return analyser.tune("palace", "pickup:max_pile=0..6", against=["saver"], players=2, block=30, blocks=3,
                             budget=30 * 3 * 3, seed=2, **kw)

    local, dask = run(), run(backend=client)
    pd.testing.assert_frame_equal(local.candidates, dask.candidates)
    assert local.meta["trial_rows"] == dask.meta["trial_rows"]
