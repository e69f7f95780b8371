import sys
import warnings
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))    # examples/highcard is a game written outside the package, imported as a user would

from highcard import register  # noqa: E402

register()      # the example game joins the registry, so the kit (tests/kit/test_kit.py) runs over it too

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


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
