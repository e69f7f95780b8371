"""Results at any size: records are kept in memory only up to a documented size."""
import pytest

import analyser
from analyser.errors import UserError


def test_records_are_kept_up_to_the_limit_then_dropped_with_a_warning(monkeypatch):
    from analyser.analyses import simulate as simulate_module

    itemsize = analyser.simulate("palace", n=1).records.dtype.itemsize
    monkeypatch.setattr(simulate_module, "KEEP_LIMIT", itemsize * 250)
    assert analyser.simulate("palace", n=200, chunk_size=100).records.size == 200
    with pytest.warns(UserWarning, match="500 games would take more than"):
        big = analyser.simulate("palace", n=500, chunk_size=100)
    assert big.records is None and big.meta["deals"] == 500
    assert big.summary.equals(analyser.simulate("palace", n=500, chunk_size=100, keep_records=True).summary)
    with pytest.raises(UserError, match="records were not kept: 500 games would take"):
        _ = big.games
    assert analyser.simulate("palace", n=500, chunk_size=100, keep_records=False).records is None
    # a precision run does not know its size: it keeps blocks until they pass the limit
    with pytest.warns(UserWarning, match="past 300 games they took more than"):
        grown = analyser.simulate("palace", n=100, precision=0.001, max_deals=500, chunk_size=100)
    assert grown.records is None and grown.meta["deals"] == 500


def test_records_kept_in_one_array_are_the_blocks_joined_byte_for_byte():
    one = analyser.simulate("palace", n=300, chunk_size=300, keep_records=True).records
    blocks = analyser.simulate("palace", n=300, chunk_size=70, keep_records=True).records
    grown = analyser.simulate("palace", n=100, precision=1e-6, max_deals=300, chunk_size=70, keep_records=True)
    assert one.tobytes() == blocks.tobytes() == grown.records.tobytes()
    with pytest.raises(UserError, match="keep_records is True, False or None"):
        analyser.simulate("palace", n=5, keep_records="yes")
