"""Palace (Shed, Shithead): 2-4 players, shedding; the last player left loses."""
import numpy as np

from analyser.core.registry import GameSpec, SettingSpec
from analyser.games.palace.constants import ERROR
from analyser.games.palace.policies import POLICIES
from analyser.games.palace.state import RECORD_DTYPE, SETTING_NAMES


def _simulate(seed, first_deal, players, settings, fns, params, out):
    from analyser.games.palace.engine import simulate_nb

    simulate_nb(seed, first_deal, players, settings, fns, params, out)


def _trace(seed, deal, players, settings, fns, params):
    from analyser.games.palace.trace import trace_deal

    return trace_deal(seed, deal, players, settings, fns, params)


def _trace_text(events):
    from analyser.games.palace.trace_text import render

    return render(events)


def _policy_error(rec: np.ndarray):
    """The seat whose policy chose an illegal action in these records, if any."""
    bad = np.flatnonzero(rec["error"] == ERROR.ILLEGAL_ACTION)
    return int(rec["error_seat"][bad[0]]) if bad.size else None


SETTINGS = (
    SettingSpec("short_game", 0, "deal 3 face-down, 3 face-up, 3 in hand at any player count; 16-card draw pile"),
    SettingSpec("ten_on_anything", 0, "a 10 may be played on any card, a 9 included"),
    SettingSpec("max_actions", 5000, "actions after which a game ends as aborted", kind="int", low=1, high=1_000_000),
)
assert tuple(s.name for s in SETTINGS) == SETTING_NAMES

GAME = GameSpec(
    name="palace",
    title="Palace (Shed, Shithead)",
    min_players=2,
    max_players=4,
    default_players=4,
    default_policy="saver",
    settings=SETTINGS,
    policies=POLICIES,
    record_dtype=RECORD_DTYPE,
    seat_events=("picked_up", "pickups", "voluntary", "burns"),
    game_events=("actions", "turns", "decisions"),
    policy_error=_policy_error,
    simulate=_simulate,
    trace=_trace,
    trace_text=_trace_text,
    describe_events={
        "picked_up": "cards picked up", "pickups": "pickups", "voluntary": "voluntary pickups",
        "burns": "burns made", "actions": "swaps, plays and pickups", "turns": "plays and pickups",
        "decisions": "policy calls with a real choice",
    },
)
