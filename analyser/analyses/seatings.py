"""Who sits where when policies are compared: seat groups, arrangements of two policies, mixed tables.

A policy always fills whole *groups* of seats: the teams of a team game
(partners play the same policy, so a comparison reads "A's team against B's
team" and a rating is that of a team of one policy), else one group per seat.
Every scheme is a set of rotations over the groups: rotation r puts the policy
of base group g on group (g + r) mod G, its k-th seat on the k-th seat of that
group. Stream ids belong to policy instances (analyser.kernels.rng): an instance
is numbered by its seat in the base (plus an offset per base), and a rotation
moves the id with the instance, so every instance keeps its own draws.

compare (two policies A and B):
  no teams:   the rotations of A B..B and of B A..A over the seats (2 seats: AB, BA);
  two teams:  A on every seat of team 0 and B on team 1, then swapped;
  G > 2 teams: the rotations of A B..B and of B A..A over the teams.
Mixed tables (tournament ``tables="mixed"``): tables of G distinct policies,
each in neighbour-balanced cyclic orders (``neighbour_orders``), each order in
its G rotations, so every policy sits in every seat and directly after every
other policy of its table equally often (in shedding games who plays after
whom matters). All G-subsets of the policies when there are at most
MAX_ALL_TABLES of them (or no more than the cyclic design would take); else a
cyclic design: the P shifts (mod P) of base blocks chosen greedily until every
difference between two policy numbers is covered, so every policy sits at the
same number of tables and every pair of policies meets at least once.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, permutations

from analyser.errors import UserError
from analyser.kernels.rng import MAX_POLICY_STREAMS

MAX_ALL_TABLES = 20


def seat_groups(teams: Sequence[int]) -> list[list[int]]:
    """The seats of each team (in team order); one group per seat in a game without teams."""
    labels = sorted(set(teams))
    groups = [[s for s, t in enumerate(teams) if t == label] for label in labels]
    if len(groups) < 2:
        raise UserError("policies are compared at a table of at least two teams or seats")
    if len({len(g) for g in groups}) > 1:
        raise UserError(f"teams of unequal size ({', '.join(str(len(g)) for g in groups)} seats) cannot swap "
                        f"policies seat for seat")
    return groups


def is_team_game(groups: list[list[int]]) -> bool:
    return len(groups[0]) > 1


def rotations(base: Sequence, groups: list[list[int]], first_id: int = 0,
              homes: Sequence[int] | None = None) -> list[tuple[list, list[int]]]:
    """The G rotations of ``base`` (one item per group): per rotation, the item on each seat
    and each seat's stream id (its instance's seat in the base, plus ``first_id``; with ``homes``,
    the seats of group ``homes[g]`` for the instance of base group g, so an instance keeps its ids
    in every order of a table)."""
    size, players = len(groups), sum(len(g) for g in groups)
    homes = range(size) if homes is None else homes
    out = []
    for r in range(size):
        who, ids = [None] * players, [0] * players
        for g, seats in enumerate(groups):
            source = (g - r) % size
            for seat, home in zip(seats, groups[homes[source]], strict=True):
                who[seat], ids[seat] = base[source], first_id + home
        out.append((who, ids))
    return out


def arrangements(players: int, teams: Sequence[int] | None = None) -> tuple[list[str], list[tuple[int, ...]], str]:
    """compare's arrangements: seat strings (``"ABBB"``), the stream id of each seat, and the scheme's name."""
    groups = seat_groups(range(players) if teams is None else teams)
    size = len(groups)
    bases = ["AB"] if size == 2 else ["A" + "B" * (size - 1), "B" + "A" * (size - 1)]
    if len(bases) * players > MAX_POLICY_STREAMS:
        raise UserError(f"compare needs {2 * players} policy streams at {players} players; "
                        f"there are {MAX_POLICY_STREAMS}")
    seats, streams = [], []
    for b, base in enumerate(bases):
        for who, ids in rotations(base, groups, b * players):
            seats.append("".join(who))
            streams.append(tuple(ids))
    return seats, streams, scheme_name(bases, groups, teams)


def scheme_name(bases: list[str], groups: list[list[int]], teams) -> str:
    if not is_team_game(groups):
        return "rotations of " + " and ".join(bases)
    labels = sorted(set(teams))
    if len(groups) == 2:
        return f"teams: A on team {labels[0]} / B on team {labels[0]}"
    return f"teams: rotations of {' and '.join(bases)} over teams {', '.join(map(str, labels))}"


def table_design(policies: int, size: int) -> tuple[list[tuple[int, ...]], str]:
    """Mixed tables of ``size`` distinct policies out of ``policies`` (see the module) and the design's name."""
    every = list(combinations(range(policies), size))
    blocks = _base_blocks(policies, size)
    cyclic = sorted({tuple(sorted((x + i) % policies for x in block)) for block in blocks for i in range(policies)})
    if len(every) <= max(MAX_ALL_TABLES, len(cyclic)):
        return every, f"all {len(every)} tables of {size} of the {policies} policies"
    per_policy = len(cyclic) * size // policies
    shown = " ".join("{" + ",".join(str(x + 1) for x in block) + "}" for block in blocks)
    return cyclic, (f"cyclic design: the {len(cyclic)} shifts mod {policies} of {shown} (policies numbered 1.. in "
                    f"the order given); each policy at {per_policy} tables, each pair at least once")


def _base_blocks(policies: int, size: int) -> list[list[int]]:
    """Blocks containing 0, each grown greedily (smallest number first among equals) by the element
    covering most differences (mod ``policies``, up to sign) not yet covered, until all are."""
    def diff(a, b):
        d = (a - b) % policies
        return min(d, policies - d)

    need = set(range(1, policies // 2 + 1))
    blocks = []
    while need:
        block = [0]
        while len(block) < size:
            x = max((x for x in range(1, policies) if x not in block),
                    key=lambda x: len(need & {diff(x, b) for b in block}))
            need -= {diff(x, b) for b in block}
            block.append(x)
        blocks.append(block)
    return blocks


def cycle_edges(order: Sequence[int]) -> list[tuple[int, int]]:
    """The ordered pairs (x, the one directly after x) of a cyclic order."""
    return [(order[i], order[(i + 1) % len(order)]) for i in range(len(order))]


@cache
def neighbour_orders(size: int) -> tuple[tuple[int, ...], ...]:
    """The fewest distinct cyclic orders of slots 0..size-1 (each starting at 0) in which every ordered pair
    of slots is adjacent (x directly before y) equally often: an exact cover of each ordered pair once,
    else twice (none exists once at 4 or 6: Tillson 1980), found by a deterministic backtracking search;
    else every cyclic order. 2 seats: one order; 3: both directions; 4: all six; 5: four; 6: ten."""
    every = [(0, *p) for p in permutations(range(1, size))]
    for times in (1, 2):
        found = _exact_cover(every, size, times)
        if found is not None:
            return tuple(found)
    return tuple(every)


def _exact_cover(orders: list[tuple[int, ...]], size: int, times: int) -> list | None:
    """Distinct orders covering every ordered pair of slots exactly ``times`` times, or None."""
    cover = {(x, y): 0 for x in range(size) for y in range(size) if x != y}
    chosen: list[tuple[int, ...]] = []

    def grow() -> bool:
        short = next((e for e, c in cover.items() if c < times), None)
        if short is None:
            return True
        for order in orders:
            edges = cycle_edges(order)
            if order in chosen or short not in edges or any(cover[e] >= times for e in edges):
                continue
            for e in edges:
                cover[e] += 1
            chosen.append(order)
            if grow():
                return True
            chosen.pop()
            for e in edges:
                cover[e] -= 1
        return False

    return list(chosen) if grow() else None


def orders_text(size: int, what: str = "seat") -> str:
    """How the mixed tables are seated, for the output (``what``: seat or team)."""
    orders = neighbour_orders(size)
    if size == 2:
        return f"two {what}s: each table in its 2 rotations"
    times = len(orders) // (size - 1)
    return (f"neighbour-balanced: each table in {len(orders)} cyclic orders x {size} rotations, so every policy "
            f"sits in every {what} equally often and directly after each other policy of its table in "
            f"{times} of the {len(orders)} orders")


def table_seatings(tables: list[tuple[int, ...]], groups: list[list[int]]) -> list[list[tuple[list, list[int]]]]:
    """Per table, its seatings (each neighbour-balanced order in each rotation): the policy index on each seat
    and each seat's stream id (a policy instance keeps the ids of its slot's seats in every seating)."""
    orders = neighbour_orders(len(groups))
    return [[seating for order in orders for seating in rotations([table[i] for i in order], groups, homes=order)]
            for table in tables]
