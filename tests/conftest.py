import warnings

import pytest

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


@pytest.fixture(autouse=True)
def _quiet_numba_experimental():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        yield
