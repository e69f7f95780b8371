"""Formatting of the terminal tables."""
from analyser.cli.tables import _small_pct


def test_a_tiny_aborted_share_is_not_shown_as_zero():
    assert _small_pct(38 / 1_000_000) == "0.0038%"       # 38 aborted in a million games
    assert _small_pct(0.0) == "0.00%" and _small_pct(0.0078) == "0.78%"
