"""Palace constants as NamedTuple instances: numba folds them, Python reads names."""
from typing import NamedTuple

from analyser.kernels.outcome import ERROR  # noqa: F401  (the games' modules name it from here)

MAX_PLAYERS = 4
MAX_SLOTS = 6          # face-down / face-up cards per player at most (2 players)
N_CARDS = 52
N_RANKS = 13
DRAW_PILE = 16
MAX_SWAPS = 64         # swap decisions per seat before the swap ends by force


class _Ranks(NamedTuple):
    TWO: int = 0
    THREE: int = 1
    NINE: int = 7
    TEN: int = 8
    ACE: int = 12


RANK = _Ranks()


class _Actions(NamedTuple):
    """Action ids. PLAY(rank, k) = rank * 4 + k - 1 plays k cards of one rank
    from the current source; FACE_DOWN + i turns over face-down slot i;
    SWAP + rank * MAX_SLOTS + j exchanges a hand card of that rank with
    face-up slot j; SWAP_DONE ends the seat's swap."""

    PICKUP: int = 52
    FACE_DOWN: int = 53
    SWAP: int = 53 + MAX_SLOTS
    SWAP_DONE: int = 53 + MAX_SLOTS + N_RANKS * MAX_SLOTS
    COUNT: int = 54 + MAX_SLOTS + N_RANKS * MAX_SLOTS   # actions in all


ACTION = _Actions()


class _Setting(NamedTuple):
    """Indices into the settings row (see SETTINGS in __init__.py)."""
    SHORT_GAME: int = 0
    TEN_ON_ANYTHING: int = 1
    MAX_ACTIONS: int = 2


SETTING = _Setting()


class _Phases(NamedTuple):
    SWAP: int = 0
    PLAY: int = 1
    OVER: int = 2


PHASE = _Phases()


class _Sources(NamedTuple):
    HAND: int = 0
    FACE_UP: int = 1
    FACE_DOWN: int = 2


SOURCE = _Sources()
SOURCE_NAMES = ("hand", "face_up", "face_down")


class _Events(NamedTuple):
    """Trace log events (analyser.kernels.eventlog): ``type, 0, seat, a, 0`` then the cards
    (see trace.py for the decoded form)."""

    SWAP: int = 1
    PLAY: int = 2
    PICKUP: int = 3
    DRAW: int = 4
    BURN: int = 5
    OUT: int = 6


EVENT = _Events()
