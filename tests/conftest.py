import warnings

import pytest

from tests.toygame import register

register()      # the toy game joins the registry, so the shared kit (tests/kit/) runs over it too

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


@pytest.fixture(autouse=True)
def _quiet_numba_experimental():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        yield
