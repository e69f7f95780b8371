"""`simulate --plot FILE` and `analyser plot FILE.parquet`: a figure file, or one line and exit code 2."""
import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def plot_app():
    """The app, or, until main.py registers ``plot``, an app with ``simulate`` and ``plot`` alone."""
    import typer

    from analyser.cli import plot, simulate

    if "plot" in typer.main.get_command(app).commands:
        return app
    local = typer.Typer()
    local.command()(simulate.simulate)
    local.command()(plot.plot)
    return local


def test_simulate_plot_writes_a_figure(tmp_path):
    path = tmp_path / "x.png"
    r = run("simulate", "palace", "-n", "200", "--no-progress", "--plot", str(path))
    assert r.exit_code == 0, r.output
    assert path.read_bytes().startswith(b"\x89PNG") and path.stat().st_size > 10_000
    assert f"wrote {path}" in r.stderr
    svg = tmp_path / "x.svg"
    r = run("simulate", "palace", "-n", "100", "--no-progress", "-f", "json", "--plot", str(svg))
    assert r.exit_code == 0 and r.stdout.lstrip().startswith("{")        # stdout keeps only the JSON
    assert b"<svg" in svg.read_bytes()[:500]


@pytest.mark.parametrize("name", ["x.jpg", "x", "missing/x.png"])
def test_simulate_bad_plot_path_is_one_line(tmp_path, name):
    r = run("simulate", "palace", "-n", "100", "--no-progress", "--plot", str(tmp_path / name))
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: cannot plot to")
    assert r.stdout == ""                      # checked before the run


def test_plot_command(tmp_path):
    cli = plot_app()

    def run(*args):
        return runner.invoke(cli, list(args))

    data = tmp_path / "r.parquet"
    assert run("simulate", "palace", "-n", "150", "--no-progress", "--out", str(data)).exit_code == 0
    r = run("plot", str(data))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r.png").read_bytes().startswith(b"\x89PNG")
    r = run("plot", str(data), "--out", str(tmp_path / "r.pdf"))
    assert r.exit_code == 0 and (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")
    for bad in (["plot", str(tmp_path / "none.parquet")], ["plot", str(data), "--out", str(tmp_path / "r.gif")]):
        r = run(*bad)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.output
