"""The Python API validates like the CLI: every bad input is a UserError with a clear
message, never an OverflowError, a raw TypeError or a silent float."""
import os
import subprocess
import sys

import pytest

import analyser
from analyser.errors import UserError


@pytest.mark.parametrize("kwargs,message", [
    ({"deals": 10.5}, "must be a whole number, not 10.5"),
    ({"n": 10.5}, "must be a whole number, not 10.5"),
    ({"deals": "100"}, "must be a whole number, not '100'"),
    ({"deals": True}, "must be a whole number"),
    ({"deals": 0}, "must be from 1"),
    ({"deals": -5}, "must be from 1"),
    ({"n": 5, "deals": 6}, "give the number of deals once"),
    ({"seed": 1.5}, "seed must be a whole number, not 1.5"),
    ({"seed": -1}, "seed must be from 0"),
    ({"seed": 2**64}, "seed must be from 0"),
    ({"first_deal": -1}, "must be from 0"),
    ({"first_deal": 2**63}, "must be from 0"),
    ({"deals": 10, "first_deal": 2**63 - 5}, "must be from 0"),     # the last unit would pass 2**63 - 1
    ({"players": 2.5}, "players must be a whole number"),
    ({"players": 9}, "palace is for 2 to 4 players"),
    ({"threads": 0}, "threads must be a whole number from 1"),
    ({"threads": 10_000}, "threads must be a whole number from 1"),
    ({"threads": 1.5}, "threads must be a whole number from 1"),
    ({"chunk_size": 0}, "chunk size must be a whole number of at least 1"),
    ({"policies": "saver:keep=1,keep=2"}, "parameter 'keep' is given twice"),
    ({"policies": ["saver", "lowest"]}, "give one policy for all seats or one per seat (4), not 2"),
    ({"policies": []}, "give at least one policy"),
    ({"policies": 42}, "a policy must be a name, a PolicySpec or an @njit function"),
    ({"rules": "ten_on_anything"}, "rules must be a dict"),
    ({"rules": {"jokers": True}}, "unknown rule 'jokers'"),
])
def test_simulate_refuses(kwargs, message):
    with pytest.raises(UserError, match=None) as err:
        analyser.simulate("palace", **{"deals": 10, **kwargs} if "n" not in kwargs else kwargs)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("kwargs,message", [
    ({"deal": 2**64}, "must be from 0"),
    ({"deal": 2**63}, "must be from 0"),
    ({"deal": -1}, "must be from 0"),
    ({"deal": 1.5}, "must be a whole number"),
    ({"seed": 2**63}, "seed must be from 0"),
    ({"hand": 1}, "palace has no hands or rounds"),
])
def test_trace_refuses(kwargs, message):
    with pytest.raises(UserError) as err:
        analyser.trace("palace", **kwargs)
    assert message in str(err.value)


def test_unknown_game():
    with pytest.raises(UserError, match="unknown game 'chess'"):
        analyser.simulate("chess", deals=10)


def test_policy_function_with_the_wrong_number_of_arguments():
    numba = pytest.importorskip("numba")

    @numba.njit
    def two_args(pub, pv):
        return 0

    with pytest.raises(UserError, match="takes 2 arguments; a policy of this game takes 4"):
        analyser.simulate("palace", policies=[two_args], deals=10)


def test_a_single_policy_spec_not_in_a_list():
    from analyser.games.registry import get_game

    saver = get_game("palace").policy_map["saver"]
    result = analyser.simulate("palace", policies=saver, deals=20, players=2)
    assert result.meta["policies"] == ["saver", "saver"]


def test_out_a_directory(tmp_path):
    with pytest.raises(UserError, match="not a regular file"):
        analyser.simulate("palace", deals=10, out=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_out_dev_stdout_in_a_subprocess():
    # Only with stdout a pipe: in-process, pytest's fd 1 can be a regular file.
    code = ("import analyser\n"
            "from analyser.errors import UserError\n"
            "try:\n"
            "    analyser.simulate('palace', deals=10, out='/dev/stdout')\n"
            "except UserError as err:\n"
            "    print('UserError:', err, flush=True, file=__import__('sys').stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ))
    assert "UserError: cannot write results file /dev/stdout" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert os.path.islink("/dev/stdout")


@pytest.mark.parametrize("game,kwargs,message", [
    ("palace", {"unit": "hand"}, "palace simulates only whole games, not 'hand'"),
    ("highcard", {"unit": "round"}, "highcard simulates a match or a hand, not 'round'"),
    ("highcard", {"unit": "hand", "rules": {"hands": 3}}, "rule hands is fixed at 1 when simulating single hands"),
])
def test_a_unit_the_game_does_not_offer_is_refused(game, kwargs, message):
    for run in (analyser.simulate, analyser.trace):
        with pytest.raises(UserError) as err:
            run(game, **kwargs)
        assert str(err.value) == message


def test_single_hands_are_counted_as_hands():
    with pytest.raises(UserError, match="the number of hands must be from 1"):
        analyser.simulate("highcard", unit="hand", n=0)
