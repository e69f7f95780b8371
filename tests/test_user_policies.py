"""Policies of one's own: a plain function is refused in one line; a PolicySpec is swept with values=."""
from dataclasses import replace

import numba
import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from analyser.errors import UserError
from analyser.games import registry
from analyser.games.palace.constants import ACTION
from analyser.games.policy_specs import ParamSpec, PolicySpec


def first_legal(pub, pv, legal, params):
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


@numba.njit
def small_pile(pub, pv, legal, params):
    if legal[ACTION.PICKUP] and pub["pile_len"] <= params[0]:
        return ACTION.PICKUP
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


MINE = PolicySpec("small_pile", small_pile, "picks up small piles",
                  (ParamSpec("max_pile", 2, "pile size", low=0, high=52, integer=True),))


def test_a_plain_function_is_refused_in_one_line():
    with pytest.raises(UserError, match=r"policy 'first_legal' is not compiled: decorate it with @numba.njit"):
        analyser.simulate("palace", policies=[first_legal, "saver"], players=2, n=20, progress=False)


def test_a_plain_function_in_the_cli_exits_2(monkeypatch):
    game = registry.get_game("palace")
    plain = PolicySpec("plain", first_legal, "not compiled")
    monkeypatch.setitem(registry._REGISTERED, "palace", replace(game, policies=game.policies + (plain,)))
    r = CliRunner().invoke(app, ["simulate", "palace", "--policy", "plain", "-n", "20", "--no-progress"])
    assert r.exit_code == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.output
    assert "decorate it with @numba.njit" in r.stderr


def test_a_policy_spec_of_ones_own_is_swept_with_values():
    curve = analyser.sweep("palace", [MINE, "saver"], players=2, values={"max_pile": [0, 3]}, n=200,
                           progress=False)
    assert list(curve.table["max_pile"]) == [0, 3]


def test_its_name_says_how_to_give_it():
    with pytest.raises(UserError, match=r"unknown policy 'small_pile'.*or a policy of your own as module:function"):
        analyser.sweep("palace", ["small_pile:max_pile=0..3", "saver"], players=2, n=200, progress=False)


@numba.njit
def raises_on_big_piles(pub, pv, legal, params):
    if pub["pile_len"] > 3:
        raise ValueError("the pile is too big for me")
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


def test_a_policy_that_raises_is_named_with_its_error():
    with pytest.raises(UserError, match=r"^policy 'raises_on_big_piles' raised ValueError: the pile is too big for "
                                        r"me$"):
        analyser.simulate("palace", policies=[raises_on_big_piles, "saver"], players=2, n=20, progress=False)


BROKEN = "import numba\nraise RuntimeError('my module is broken')\n"


@pytest.mark.parametrize("where, message", [
    ("nosuchmod:fn", "policy 'ghost': there is no module 'nosuchmod' to import 'nosuchmod:fn' from"),
    ("broken_policy_module:fn", "policy 'ghost': importing broken_policy_module raised RuntimeError: my module is "
                                "broken"),
    ("numba:no_such_function", "policy 'ghost': module numba has no 'no_such_function'"),
    ("nocolon", "policy 'ghost' names its function as 'nocolon': give it as 'module:function'"),
])
def test_a_policy_spec_that_cannot_load_is_one_line(tmp_path, monkeypatch, where, message):
    (tmp_path / "broken_policy_module.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UserError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        analyser.simulate("palace", policies=[PolicySpec("ghost", where), "saver"], players=2, n=20, progress=False)


@pytest.mark.parametrize("spec", [PolicySpec("ghost", "nosuchmod:fn"), PolicySpec("bad", raises_on_big_piles)])
def test_a_broken_policy_in_the_cli_exits_2(monkeypatch, spec):
    game = registry.get_game("palace")
    monkeypatch.setitem(registry._REGISTERED, "palace", replace(game, policies=game.policies + (spec,)))
    r = CliRunner().invoke(app, ["simulate", "palace", "--policy", spec.name, "-n", "20", "--no-progress"])
    assert r.exit_code == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.output
    assert f"policy '{spec.name}" in r.stderr


MODULE = """
import numba
from analyser.games.policy_specs import ParamSpec, PolicySpec


@numba.njit
def first(pub, pv, legal, params):
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


@numba.njit
def small_pile(pub, pv, legal, params):
    if legal[52] and pub["pile_len"] <= params[0]:
        return 52
    return first(pub, pv, legal, params)


MINE = PolicySpec("mine", small_pile, "picks up small piles", (ParamSpec("max_pile", 2, "pile size", 0, 52, True),))
"""


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A directory holding a package of user policies (``words_pols.mod``), a module of its own
    (``words_pol``) and one that raises on import, made the current directory."""
    (tmp_path / "words_pols").mkdir()
    (tmp_path / "words_pols" / "__init__.py").write_text("")
    (tmp_path / "words_pols" / "mod.py").write_text(MODULE)
    (tmp_path / "words_pol.py").write_text(MODULE)
    (tmp_path / "words_broken.py").write_text("raise RuntimeError('half written')\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("spec", ["words_pols.mod:first", "words_pol:first", "words_pols.mod:MINE:max_pile=5",
                                  "words_pol:MINE"])
def test_the_cli_takes_a_policy_of_ones_own_by_module_path(here, spec):
    assert ACTION.PICKUP == 52                   # the module's literal
    r = CliRunner().invoke(app, ["simulate", "palace", "-p", "2", "--policy", spec, "--policy", "saver", "-n", "50",
                                 "--no-progress", "--format", "json"])
    assert r.exit_code == 0, r.output
    name = spec.split(":")[1] if "MINE" not in spec else "mine"
    assert f'"{name}' in r.stdout


@pytest.mark.parametrize("spec, words", [
    ("words_nothere:fn", "policy 'words_nothere:fn': no built-in policy and no module named 'words_nothere' in the "
                         "current directory or on sys.path; built-in: random, lowest, saver, pickup, pimc, ismcts"),
    ("words_pols.nothere:fn", "policy 'words_pols.nothere:fn': no module named 'words_pols.nothere' in the current "
                              "directory or on sys.path"),
    ("words_pols.mod:nope", "policy 'words_pols.mod:nope': module words_pols.mod has no 'nope'"),
    ("words_broken:fn", "policy 'words_broken:fn': importing words_broken raised RuntimeError: half written"),
    ("words_pol:first:depth=2", "unknown parameter 'depth' for policy 'first'; valid: (none)"),
    ("saver:max_pile", "policy parameter 'max_pile' must look like name=value"),
])
def test_a_module_path_that_does_not_load_is_one_line_and_exit_2(here, spec, words):
    r = CliRunner().invoke(app, ["simulate", "palace", "-p", "2", "--policy", spec, "-n", "20", "--no-progress"])
    assert r.exit_code == 2 and r.stderr.strip() == f"error: {words}", r.output
