"""Formatting of the terminal tables."""
from analyser.cli.tables import _small_pct


def test_a_tiny_aborted_share_is_not_shown_as_zero():
    assert _small_pct(38 / 1_000_000) == "0.0038%"       # 38 aborted in a million games
    assert _small_pct(0.0) == "0.00%" and _small_pct(0.0078) == "0.78%"


def test_a_pooled_share_constant_by_construction_shows_its_interval():
    """Three random seats beside a saver win 2/3 pooled in nearly every game: the table shows an interval,
    not a bare 66.67% as if it were known exactly (only a policy on every seat is: 75.00% in Palace)."""
    from rich.console import Console

    import analyser
    from analyser.cli.tables import print_tables

    console = Console(record=True, width=200)
    print_tables(analyser.simulate("palace", players=4, policies=["random"] * 3 + ["saver"], n=300, seed=1), console)
    pooled = next(line for line in console.export_text().splitlines() if "random" in line and "0,1,2" in line)
    assert "66.67% [" in pooled
    console = Console(record=True, width=200)
    print_tables(analyser.simulate("palace", players=2, n=100, precision=0.05, seed=1), console)
    assert "Chow-Robbins half-width" in console.export_text()
