import shutil
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))    # examples/highcard is a game written outside the package, imported as a user would

from highcard import register  # noqa: E402

from tests import warm  # noqa: E402

register()      # the example game joins the registry, so the kit (tests/kit/test_kit.py) runs over it too

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


_warm_folders = []     # the controller's: where workers say they have imported their share of the games


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist's controller, over the whole suite: each worker compiles its share of the games
    before it collects, and waits for the others (tests/warm.py says why)."""
    if node.config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    if not _warm_folders:
        _warm_folders.append(tempfile.mkdtemp(prefix="analyser-warm-"))
    workers, worker = node.workerinput["workercount"], node.workerinput["workerid"]
    index = int(worker.removeprefix("gw"))
    if index >= workers:            # a worker started in place of one that crashed: the others are past waiting
        return
    share = warm.shares(workers)[index]
    node.workerinput["warm"] = {"packages": share, "folder": _warm_folders[0], "worker": worker, "workers": workers}


def pytest_sessionstart(session):
    given = getattr(session.config, "workerinput", {}).get("warm")
    if given:
        warm.warm_then_wait(**given)


def pytest_sessionfinish(session):
    for folder in _warm_folders:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)       # before pytest-xdist's own hook reads the marks
def pytest_collection_modifyitems(items):
    """For ``--dist loadgroup``: the tests of a module that use a fixture the module makes once
    (module scope) run in one worker, which makes it once; any other test runs wherever a worker is free."""
    for item in items:
        module = item.nodeid.split("::")[0]
        shared = [d for defs in item._fixtureinfo.name2fixturedefs.values() for d in defs
                  if d.scope != "function" and d.baseid == module]
        if shared:
            item.add_marker(pytest.mark.xdist_group(module))


def pytest_configure(config):
    """``--dist loadgroup`` groups a test by a suffix xdist writes into the node id's old field; a pytest
    without that field (9.2, pytest-dev/pytest-xdist#1386) would silently make each module fixture once
    per worker, so say so instead."""
    if config.getoption("dist", "no") == "loadgroup" and not hasattr(pytest.Item, "_nodeid"):
        raise pytest.UsageError(f"pytest {pytest.__version__} breaks pytest-xdist's --dist loadgroup "
                                "(pytest-dev/pytest-xdist#1386): install the test extra's pytest "
                                "(pip install -e '.[test]')")


def pytest_runtest_setup(item):
    if item.get_closest_marker("two_threads"):
        from analyser.testing.checks import available_threads

        if available_threads() < 2:
            pytest.skip("plays on two threads: numba has one on this machine")


@pytest.fixture(autouse=True)
def _quiet_numba_experimental():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        yield
