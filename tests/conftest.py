import sys
import warnings
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))    # examples/highcard is a game written outside the package, imported as a user would

from highcard import register  # noqa: E402

register()      # the example game joins the registry, so the kit (tests/kit/test_kit.py) runs over it too

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


@pytest.fixture(autouse=True)
def _quiet_numba_experimental():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        yield
