"""Skipping a game's deterministic cycle on its way to the action cap.

With deterministic policies, about 1 game in 120 falls into a loop: the draw
pile is empty, nobody can shed for good, and the same positions come round
again and again until the cap (rule book: Cap) aborts the game; those games
were a quarter of all actions simulated. A policy is a pure function of what it
is handed (its randomness comes from its seat's stream and what it remembers
from its seat's memory, both in its private record and so part of the
position), so once the whole position repeats, the game will repeat the same
period until the cap. A policy that counts something in its memory makes the
positions of a loop differ until the count stops (``pickup`` counts its
voluntary pickups only up to its limit). ``watch_nb`` finds the repeat (Brent's method: a
snapshot, compared with every later position until a window of 32, 64, 128...
actions has passed, then a new snapshot) and adds the whole periods that fit
below the cap to the counters at once; the game then plays its last
part-period and reaches the cap as before. The record is the same, field for
field, as that of the game played out (tests compare it with the trace, which
never skips).

Positions are looked at only after a pickup with the draw pile empty, from
action 128 on (few games that end on their own get that far): a draw changes
the position for good, as burns, face-down plays and going out do, and
between pickups the pile only grows, so every cycle has a pickup and its
positions repeat there too. Looking only there is what keeps the watch cheap.
"""
import numpy as np

from analyser.games.palace.constants import MAX_PLAYERS
from analyser.games.palace.state import PUBLIC_DTYPE
from analyser.kernels.jit import kernel
from analyser.kernels.records import view_nb

WATCH_FROM = 128    # actions before the first snapshot
FIRST_WINDOW = 32   # actions compared with the first snapshot; each later window is twice as long
HAND_LEN_WORD = PUBLIC_DTYPE.fields["hand_len"][1] // 4     # as 32-bit words of the public record


@kernel
def same_position_nb(pub, priv, snap):
    """Does the position (public record and private records, as 32-bit words) equal the snapshot?
    The hand sizes first: they tell most positions with an empty pile apart."""
    a = view_nb(pub, np.uint32)
    if a[HAND_LEN_WORD] != snap[HAND_LEN_WORD] or a[HAND_LEN_WORD + 1] != snap[HAND_LEN_WORD + 1]:
        return False
    for i in range(a.size):
        if a[i] != snap[i]:
            return False
    b = view_nb(priv, np.uint32)
    for i in range(b.size):
        if b[i] != snap[a.size + i]:
            return False
    return True


@kernel
def snapshot_nb(pub, priv, hd):
    a = view_nb(pub, np.uint32)
    b = view_nb(priv, np.uint32)
    snap = hd["snap"]
    for i in range(a.size):
        snap[i] = a[i]
    for i in range(b.size):
        snap[a.size + i] = b[i]
    for s in range(MAX_PLAYERS):
        hd["snap_picked_up"][s] = hd["picked_up"][s]
        hd["snap_pickups"][s] = hd["pickups"][s]
        hd["snap_voluntary"][s] = hd["voluntary"][s]
        hd["snap_burns"][s] = hd["burns"][s]
    hd["snap_actions"] = hd["actions"]
    hd["snap_turns"] = hd["turns"]
    hd["snap_decisions"] = hd["decisions"]


@kernel
def skip_periods_nb(hd, max_actions):
    """Count the whole periods (snapshot .. now) that fit below the cap without playing them."""
    period = hd["actions"] - hd["snap_actions"]
    q = (max_actions - hd["actions"]) // period
    for s in range(MAX_PLAYERS):
        hd["picked_up"][s] += q * (hd["picked_up"][s] - hd["snap_picked_up"][s])
        hd["pickups"][s] += q * (hd["pickups"][s] - hd["snap_pickups"][s])
        hd["voluntary"][s] += q * (hd["voluntary"][s] - hd["snap_voluntary"][s])
        hd["burns"][s] += q * (hd["burns"][s] - hd["snap_burns"][s])
    hd["actions"] += q * period
    hd["turns"] += q * (hd["turns"] - hd["snap_turns"])
    hd["decisions"] += q * (hd["decisions"] - hd["snap_decisions"])


@kernel
def watch_nb(pub, priv, hd, max_actions):
    """Called after every pickup once the draw pile is empty. After a skip,
    less than a period is left before the cap, so a later repeat can only skip
    zero periods: no flag is needed to stop watching."""
    if hd["snap_window"] > 0 and same_position_nb(pub, priv, hd["snap"]):
        skip_periods_nb(hd, max_actions)
    elif hd["actions"] >= max(WATCH_FROM, hd["snap_actions"] + hd["snap_window"]):
        snapshot_nb(pub, priv, hd)
        hd["snap_window"] = max(FIRST_WINDOW, 2 * hd["snap_window"])
