"""Formatting of the terminal tables."""


def test_a_tiny_aborted_share_is_not_shown_as_zero():
    """1 game in 20,000 aborted is 0.005%, not 0.00%; 2 are 0.01%, none 0.00%."""
    from rich.console import Console

    import analyser
    from analyser.cli.tables import print_tables

    for cap, shown in ((157, "1 (0.005% aborted)"), (155, "2 (0.01% aborted)"), (171, "0 (0.00% aborted)")):
        console = Console(record=True, width=200)
        print_tables(analyser.simulate("palace", players=2, policies=["lowest"], n=20_000, seed=1,
                                       rules={"max_actions": cap}), console)
        assert shown in console.export_text(), (cap, console.export_text())


def test_a_pooled_share_constant_by_construction_shows_its_interval():
    """Three random seats beside a saver win 2/3 pooled in nearly every game: the table shows an interval,
    not a bare 66.67% as if it were known exactly (only a policy on every seat is: 75.00% in Palace)."""
    from rich.console import Console

    import analyser
    from analyser.cli.tables import print_tables

    console = Console(record=True, width=200)
    print_tables(analyser.simulate("palace", players=4, policies=["random"] * 3 + ["saver"], n=300, seed=1), console)
    pooled = next(line for line in console.export_text().splitlines() if "random" in line and "0,1,2" in line)
    assert "66.7 ±" in pooled
    console = Console(record=True, width=200)
    print_tables(analyser.simulate("palace", players=2, n=100, precision=0.05, seed=1), console)
    assert "Chow-Robbins half-width" in console.export_text()
