"""Skipping a game's deterministic cycle on its way to the action cap.

With deterministic policies, about 1 game in 120 falls into a loop: the draw
pile is empty, nobody can shed for good, and the same positions come round
again and again until the cap (rule book: Cap) aborts the game; those games
were a quarter of all actions simulated. A policy is a pure function of what it
is handed (its randomness comes from its seat's stream, which is part of the
position), so once the whole position repeats, the game will repeat the same
period until the cap. ``watch_nb`` finds the repeat (Brent's method: a snapshot
at 256, 512, 1024... actions, compared with every later position) and adds the
whole periods that fit below the cap to the counters at once; the game then
plays its last part-period and reaches the cap as before. The record is the
same, field for field, as that of the game played out (tests compare it with
the trace, which never skips). Positions are compared while the draw pile is
empty only: a draw changes the position for good, as burns, face-down plays
and going out do.
"""
import numpy as np

from analyser.core.jit import kernel
from analyser.games.palace.constants import MAX_PLAYERS

WATCH_FROM = 256    # actions before the first snapshot; no game that ends on its own gets near


@kernel
def same_position_nb(pub, priv, snap):
    """Does the position (public record and private records, as bytes) equal the snapshot?"""
    a = pub.view(np.uint8)
    for i in range(a.size):
        if a[i] != snap[i]:
            return False
    b = priv.view(np.uint8)
    for i in range(b.size):
        if b[i] != snap[a.size + i]:
            return False
    return True


@kernel
def snapshot_nb(pub, priv, hd):
    a = pub.view(np.uint8)
    b = priv.view(np.uint8)
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
    """Called after every action of a long game: True once it has skipped a cycle
    (the caller then stops watching)."""
    if pub[0]["draw_len"] > 0:
        return False
    if hd["snap_actions"] > 0 and same_position_nb(pub, priv, hd["snap"]):
        skip_periods_nb(hd, max_actions)
        return True
    if hd["actions"] >= 2 * hd["snap_actions"]:
        snapshot_nb(pub, priv, hd)
    return False
