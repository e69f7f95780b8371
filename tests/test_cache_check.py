"""An unwritable ANALYSER_CACHE_DIR: one line on stderr, once, saying where numba caches instead."""
import pytest
from typer.testing import CliRunner

from analyser import cache_check
from analyser.cli.main import app
from analyser.kernels import paths


@pytest.fixture
def unwritable_cache(tmp_path, monkeypatch):
    (tmp_path / "a_file").write_text("not a folder")
    monkeypatch.setattr(paths, "CACHE_DIR", str(tmp_path / "a_file" / "cache"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    cache_check.check_cache_dir.cache_clear()
    yield tmp_path
    cache_check.check_cache_dir.cache_clear()


def test_an_unwritable_cache_is_said_once(unwritable_cache):
    runner = CliRunner()
    first = runner.invoke(app, ["simulate", "olenon", "-n", "5", "--no-progress"])
    second = runner.invoke(app, ["simulate", "olenon", "-n", "5", "--no-progress"])
    assert first.exit_code == 0 and second.exit_code == 0, first.output
    lines = [line for line in first.stderr.splitlines() if "compile cache" in line]
    assert lines == [f"warning: the compile cache {unwritable_cache / 'a_file' / 'cache'} cannot be written (not a "
                     f"directory); compiled code is cached in NUMBA_CACHE_DIR ({unwritable_cache / 'numba'}) instead "
                     f"(set ANALYSER_CACHE_DIR to a folder you can write)"]
    assert "compile cache" not in second.stderr                 # once a process


def test_the_fallback_named_is_numbas(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(cache_check, "PACKAGE_DIR", tmp_path / "a_file")
    (tmp_path / "a_file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_check.numba_fallback() == f"numba's own cache folder ({tmp_path / 'numba'})"


def test_a_writable_cache_says_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "CACHE_DIR", str(tmp_path))
    cache_check.check_cache_dir.cache_clear()
    cache_check.check_cache_dir()
    cache_check.check_cache_dir.cache_clear()
    assert capsys.readouterr().err == ""
