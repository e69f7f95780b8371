"""The game checks, written once for every game: plain functions over a GameSpec.

Each ``check_*`` raises AssertionError naming what broke, or ``SkipCheck`` with
the reason when it cannot prove anything here (a one-thread machine). They
reach a game only through its GameSpec and its GameKit (analyser.games.kit),
so any game, registered or not, gets them. ``checks_of(game)`` lists every check
with the cases it plays; ``analyser.testing.check_game`` runs them, and the
project's tests/kit/test_kit.py parametrizes them over the registered games.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib.recfunctions import repack_fields

import analyser
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.errors import AbortedUnits
from analyser.games.policy_specs import as_seat_policy
from analyser.games.registry import GameSpec


class SkipCheck(Exception):  # noqa: N818  (a skip, not an error)
    """A check that cannot prove anything here; its message is the reason."""


def mix(game: GameSpec, players: int, shift: int = 0) -> list[str]:
    """Every built-in heuristic (no search player: they are checked on their own), in turn around the table."""
    names = [p.name for p in game.heuristics]
    return [names[(s + shift) % len(names)] for s in range(players)]


def entry(game: GameSpec, players: int, policies, rules: dict | None = None, streams=None) -> ChunkRunner:
    """The arguments of the game's entry points, as a run prepares them (.settings .fns .params .streams)."""
    return ChunkRunner(RunConfig.build(game, players=players, policies=policies, deals=1, seed=0, rules=rules,
                                       streams=streams))


def simulate(game: GameSpec, runner: ChunkRunner, seed: int, first: int, n: int) -> np.ndarray:
    out = np.zeros(n, game.record_dtype)
    game.simulate(seed, first, runner.config.players, runner.settings, runner.fns, runner.params, runner.streams, out)
    return out


def fresh(args: tuple) -> tuple:
    """Copies of a policy's arguments: a policy writes into its stream and memory."""
    return tuple(a.copy() if isinstance(a, (np.ndarray, np.void)) else a for a in args)


def packed(x) -> bytes:
    """The bytes of an array or record without padding, which numpy leaves
    undefined when it copies records (np.concatenate, ndarray.copy): so two
    records compare byte for byte, field by field."""
    x = np.array(x).reshape(-1)
    return (repack_fields(x) if x.dtype.names else x).tobytes()


def same_records(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and packed(a) == packed(b)


def same_bytes(a, b) -> bool:
    """Policy arguments alike byte for byte (records and arrays) or equal (scalars)."""
    if isinstance(a, (np.ndarray, np.void)):
        return type(a) is type(b) and same_records(np.asarray(a), np.asarray(b))
    return a == b


# -- playouts ------------------------------------------------------------------------------------------------

def declared(game: GameSpec, name: str):
    """The spec's ``cap`` or ``score_bounds``: what the checks hold every unit to, never guessed."""
    value = getattr(game, name)
    assert value is not None, f"{game.name} declares no {name} (GameSpec.{name})"
    return value


def check_playouts(game: GameSpec, kit, players: int, rules: dict, units: int, seed: int = 5) -> int:
    """Random playouts through the kit: after the setup and every action each card of
    the deck is in exactly one place and, until the unit is over, a seat has a legal
    action to take (as Pgx's api_test asks of every game); the unit ends within the
    spec's cap, and the simulated record of it is complete (not aborted) within the cap."""
    runner = entry(game, players, kit.playout_policies(game, players, rules), rules)
    cap = declared(game, "cap")(players, runner.config.settings)
    recs = simulate(game, runner, seed, 0, units)
    actions = 0
    for unit in range(units):
        steps = -1
        offers = True
        for pos in kit.play(seed, unit, players, runner.settings, runner.fns, runner.params, runner.streams):
            assert offers, f"unit {unit}, action {steps}: the unit went on from a position with no legal action"
            steps += 1
            assert steps <= cap, f"unit {unit} goes on past its cap of {cap} actions"
            places = pos.locations()
            held = Counter(int(c) for cards in places.values() for c in cards)
            deck = Counter(int(c) for c in pos.deck())
            if held != deck:
                raise AssertionError(f"unit {unit}, action {steps}: cards not conserved: extra "
                                     f"{dict(held - deck)}, missing {dict(deck - held)}")
            offers = pos.decision(forced=True) is not None     # read now: a position may read the live state
        assert not offers, f"unit {unit} ended with an action still to take"
        assert not recs["aborted"][unit], f"unit {unit} of random play was aborted"
        assert 0 < recs["length"][unit] <= cap, f"unit {unit} has length {recs['length'][unit]}, cap {cap}"
        actions += steps
    return actions


# -- reproducibility -----------------------------------------------------------------------------------------

def check_trace_is_record(game: GameSpec, players: int, rules: dict, units: int, seed: int = 3) -> None:
    """game.trace of unit i returns exactly record i of game.simulate, byte for byte."""
    runner = entry(game, players, mix(game, players), rules)
    first = 1000
    out = simulate(game, runner, seed, first, units)
    for i in range(units):
        events, rec = game.trace(seed, first + i, players, runner.settings, runner.fns, runner.params,
                                 runner.streams)
        assert rec.dtype == game.record_dtype and rec.size == 1
        assert same_records(rec, out[i: i + 1]), f"the trace of unit {first + i} is not its record"
        assert events, "a trace has events"


def source_of(game: GameSpec) -> str | None:
    """``"module:attribute"`` naming this very GameSpec, which a fresh process can import
    (a game's module, or a user's package that defines the spec); None if no module but
    ``__main__`` holds it."""
    for name, module in list(sys.modules.items()):
        if name == "__main__" or name.startswith("_"):
            continue
        for attr, value in list(getattr(module, "__dict__", {}).items()):
            if value is game:
                return f"{name}:{attr}"
    return None


def run_without_jit(source: str, runs: list[dict], path: Path) -> list[np.ndarray]:
    """analyser.simulate(spec, **run) for each run, in one child process with NUMBA_DISABLE_JIT=1,
    the spec imported from ``source`` there, on this process's import path."""
    search = [os.path.abspath(p or os.curdir) for p in sys.path]
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": os.pathsep.join(search)}
    done = subprocess.run([sys.executable, "-m", "analyser.testing.nojit", source, json.dumps(runs), str(path)],
                          env=env, cwd=path.parent, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the uncompiled run failed:\n{done.stderr[-3000:]}"
    with np.load(path) as saved:
        return [saved[str(i)] for i in range(len(runs))]


def check_jit_equals_no_jit(game: GameSpec, cases: list[tuple[int, dict]], n: int, tmp: Path,
                            source: str | None = None) -> None:
    """The compiled engine and the same code run as plain Python give the same records.
    ``source``: where a child process imports the spec from (default: found by source_of)."""
    source = source or source_of(game)
    if source is None:
        raise SkipCheck(f"no module holds the GameSpec {game.name}, so a child process cannot import it: "
                        f"give source='module:attribute'")
    runs = [{"players": players, "policies": mix(game, players, shift=k), "rules": rules,
             "n": n, "seed": 13, "threads": 1} for k, (players, rules) in enumerate(cases)]
    for run, plain in zip(runs, run_without_jit(source, runs, Path(tmp) / f"{game.name}.npz"), strict=True):
        compiled = analyser.simulate(game, **run).records
        for i in range(n):
            assert same_records(plain[i: i + 1], compiled[i: i + 1]), \
                f"{run['players']} players {run['rules']}, unit {i}: compiled and uncompiled records differ"


def available_threads() -> int:
    """The threads numba may run here."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def check_threads(game: GameSpec, players: int, rules: dict, n: int) -> None:
    """Records do not depend on the number of threads: 1 thread and 2 give the same.
    Skipped on a machine that runs one thread, where both would be one."""
    if available_threads() < 2:
        raise SkipCheck("numba runs one thread here: 1 thread against 2 would compare a run with itself")
    args = dict(players=players, policies=mix(game, players), rules=rules, seed=42, n=n, chunk_size=7)
    one = analyser.simulate(game, threads=1, **args).records
    two = analyser.simulate(game, threads=2, **args).records
    assert same_records(one, two), "1 thread and 2 threads differ"


def check_chunks(game: GameSpec, players: int, rules: dict, n: int) -> None:
    """Records do not depend on chunk sizes or how a run is split."""
    args = dict(players=players, policies=mix(game, players), rules=rules, seed=42, threads=1)
    one = analyser.simulate(game, n=n, chunk_size=n, **args).records
    chunked = analyser.simulate(game, n=n, chunk_size=7, **args).records
    assert same_records(one, chunked), "one chunk and chunks of 7 differ"
    tail = analyser.simulate(game, n=n - n // 3, first_deal=n // 3, chunk_size=5, **args).records
    assert same_records(one[n // 3:], tail), "a run from unit i is not the tail of the whole run"
    strip = [name for name in one.dtype.names if name != "unit"]
    assert not np.array_equal(one[:len(tail)][strip], tail[strip]), "different units played the same"


def check_hands_alone(game: GameSpec, kit, players: int, rules: dict, seed: int = 4, deals=range(4)) -> int:
    """trace(..., hand=k) is hand k of the whole trace; every event between the setup
    and the result carries its hand, hands come in order; and hand k is dealt the
    same whatever was played before it (its own sub-stream): its first event is
    the same under three line-ups that play differently."""
    def strip(events):
        return [e for e in events if e.get("type") != "setup"]

    def trace(deal, policies, hand=None):
        return analyser.trace(game, seed=seed, deal=deal, players=players, policies=policies, rules=rules,
                              hand=hand).events

    key = game.sub_unit             # the events of sub-unit k carry k under its name: "hand", "round"
    lineups = [mix(game, players), [kit.random_policy], [kit.fixed_policy or kit.random_policy]]
    most = compared = 0
    for deal in deals:
        full = trace(deal, lineups[0])
        hands = [e[key] for e in full[1:-1]]
        assert len(hands) == len(full) - 2, "an event inside the unit carries no hand"
        assert hands == sorted(hands) and sorted(set(hands)) == list(range(max(hands) + 1)), "hands out of order"
        assert key not in full[0] and key not in full[-1], "the setup and the result belong to the whole unit"
        others = [trace(deal, lineup) for lineup in lineups[1:]]
        for k in sorted(set(hands)):
            mine = [e for e in full if e.get(key) == k]
            assert strip(trace(deal, lineups[0], hand=k)) == strip(mine), f"hand {k} traced alone differs"
            for other in others:     # a match of rounds may end before round k under other play
                theirs = [e for e in other if e.get(key) == k]
                assert theirs or game.unit == "match" and k > 0, f"unit {deal}: hand {k} was not played"
                if theirs:
                    assert mine[0] == theirs[0], f"unit {deal}: hand {k} was dealt differently after other play"
                    compared += k > 0
        most = max(most, len(set(hands)))
    assert compared, "no later hand was played under two line-ups: the check proved nothing"
    return most


def check_streams_follow_policies(game: GameSpec, kit, players: int, rules: dict, n: int = 40) -> None:
    """A seat's randomness comes from its policy stream id alone, and the deal from none.

    What is exactly testable without reading a policy's draws: (1) seats whose
    policies never draw may get any stream ids: nothing changes; (2) moving the
    stream id of a seat whose policy draws changes its play (the id is used);
    (3) with a drawing policy in one seat, giving every other seat new ids
    changes nothing. (The toy game's own tests add the exact rotation.)"""
    rng = np.random.default_rng(1)
    ids = list(range(players))

    def run(policies, streams):
        return simulate(game, entry(game, players, policies, rules, streams), 9, 0, n)

    if kit.fixed_policy:
        fixed = [kit.fixed_policy] * players
        base = run(fixed, ids)
        assert same_records(base, run(fixed, list(rng.permutation(ids) + players))), \
            "stream ids changed the play of policies that never draw"
    one = [kit.random_policy] + [kit.fixed_policy or kit.random_policy] * (players - 1)
    base = run(one, ids)
    assert not same_records(base, run(one, [players] + ids[1:])), \
        "a drawing policy played the same with another stream id"
    if kit.fixed_policy:
        assert same_records(base, run(one, [0] + [players + s for s in ids[1:]])), \
            "the ids of seats that never draw changed the drawing seat's play"


# -- outcomes --------------------------------------------------------------------------------------------------

def check_outcomes(game: GameSpec, players: int, rules: dict | None, n: int, seed: int = 8) -> np.ndarray:
    """The outcome block's promises (analyser.kernels.outcome), record by record."""
    rec = analyser.simulate(game, players=players, policies=mix(game, players), rules=rules, n=n, seed=seed,
                            first_deal=10).records
    p = players
    assert np.array_equal(rec["unit"], 10 + np.arange(n)), "unit is the record's index in the run"
    teams = np.array(game.team_of(players))
    assert (rec["team"][:, :p] == teams).all(), "team is not the GameSpec's team of the seat"
    for name in ("score", "win", "rank", "team"):
        assert not rec[name][:, p:].any(), f"{name} is set for seats beyond the player count"
    done = ~rec["aborted"]
    aborted = rec[~done]
    for name in ("score", "win", "rank"):
        assert not aborted[name].any(), f"an aborted record has a {name}"
    assert not aborted["draw"].any(), "an aborted record is a draw"
    ok = rec[done]
    win, rank = ok["win"][:, :p], ok["rank"][:, :p]
    assert ((win >= 0) & (win <= 1)).all(), "a win share outside 0..1"
    low, high = declared(game, "score_bounds")(p, game.parse_settings(rules))
    score = ok["score"][:, :p]
    outside = score[(score < low) | (score > high)]
    assert not outside.size, f"scores {sorted(set(outside.tolist()))[:5]} outside the declared {low}..{high}"
    assert ((rank >= 1) & (rank <= p)).all(), "a rank outside 1..players"
    assert (rank.min(axis=1) == 1).all(), "no seat ranked first"
    draws = ok["draw"]
    assert not win[draws].any(), "a drawn unit has win shares"
    decided = win[~draws].sum(axis=1)
    assert np.allclose(decided, game.win_total(p)), f"win shares sum to {set(decided)}, not {game.win_total(p)}"
    for t in set(teams):
        seats = np.flatnonzero(teams == t)
        for name in ("win", "score", "rank"):
            values = ok[name][:, seats]
            assert (values == values[:, :1]).all(), f"partners of team {t} do not share their {name}"
    assert (ok["length"] > 0).all()
    return rec


# -- hidden information -------------------------------------------------------------------------------------

def check_hidden_information(game: GameSpec, kit, policies, players: int, rules: dict, units: int = 3,
                             seed: int = 11, min_changed: float = 0.5, lineup=None) -> tuple[int, int]:
    """At every real choice of random-and-built-in play, re-deal what the deciding
    seat cannot see (Position.redeal) and ask each of ``policies`` (names, specs,
    SeatPolicies or functions) again: the decision must not change.

    The re-deal must keep every location the seat sees and the size of every
    other one, and must change something in at least ``min_changed`` of the
    decisions, or the check proves nothing. A game whose policies are handed
    only what the seat sees (``kit.honest_args``) must give byte-identical
    arguments after the re-deal: that proves no policy, a user's included, can
    peek, and a leak into the arguments fails here even if no built-in policy
    reads it. A game that hands policies the whole table relies on the decisions.
    The seat's policy memory must survive the re-deal (it is the policy's own).
    ``lineup``: who plays the units (default: the built-in heuristics in turn, ``mix``). An open
    search player is asked with the table revealed, as the engine asks it, so it fails here.
    Returns (decisions checked, re-deals that changed something)."""
    rng = np.random.default_rng(seed)
    asked = [as_seat_policy(p, game.policy_map) for p in policies]
    runner = entry(game, players, lineup or mix(game, players), rules)
    rows = [p.engine_row(game, runner.settings, players) for p in asked]
    checked = changed = 0
    for unit in range(units):
        for pos in kit.play(seed, unit, players, runner.settings, runner.fns, runner.params, runner.streams):
            decision = pos.decision()
            if decision is None:
                continue
            seat, args = decision
            before, seen = pos.locations(), pos.seen_by(seat)
            other = pos.redeal(seat, rng)
            after = other.locations()
            assert set(after) == set(before), "a re-deal changed the locations"
            for name in before:
                if name in seen:
                    assert after[name] == before[name], f"a re-deal changed {name}, which seat {seat} sees"
                else:
                    assert len(after[name]) == len(before[name]), f"a re-deal changed the size of {name}"
            changed += any(after[name] != before[name] for name in before if name not in seen)
            again = other.decision()
            assert again is not None and again[0] == seat, "a re-deal changed who decides"
            if kit.honest_args:
                for a, b in zip(args, again[1], strict=True):
                    assert same_bytes(a, b), (f"seat {seat}'s policy arguments changed when what it cannot see "
                                              f"was re-dealt: they carry hidden information")
            mine = pos.memory(seat)
            if mine is not None:
                assert np.array_equal(mine, other.memory(seat)), "a re-deal lost the policy's memory"
            for p, row in zip(asked, rows, strict=True):
                a = p.spec.function(*fresh(args), shown(p, row, pos))
                b = p.spec.function(*fresh(again[1]), shown(p, row, other))
                assert a == b, (f"{p.label()} chose {a}, then {b} when what seat {seat} cannot see was re-dealt "
                                f"(unit {unit})")
            checked += 1
    assert checked >= 20, f"only {checked} decisions to check"
    assert changed >= min_changed * checked, f"re-deals changed hidden cards in only {changed} of {checked} decisions"
    return checked, changed


def shown(policy, row: np.ndarray, pos) -> np.ndarray:
    """The params row the engine would hand ``policy`` at ``pos`` (``row``: its engine_row): for an
    open (cheating) search player a copy with the table written in, as the engine writes it
    (analyser.kernels.reveal); for any other, ``row`` itself."""
    if not policy.cheating:
        return row
    from analyser.kernels.reveal import reveal_nb

    row = row.copy()
    reveal_nb(row, pos.priv, pos.hid)
    return row


def check_redeal_keeps_memory(game: GameSpec, kit, players: int, rules: dict, units: int = 2, seed: int = 12):
    """A re-deal keeps the deciding seat's policy memory, whatever is in it:
    written with marks at each decision, the re-dealt position carries them."""
    rng = np.random.default_rng(seed)
    runner = entry(game, players, mix(game, players), rules)
    marked = decisions = 0
    for unit in range(units):
        for pos in kit.play(seed, unit, players, runner.settings, runner.fns, runner.params, runner.streams):
            decision = pos.decision()
            decisions += decision is not None
            if decision is None or pos.memory(decision[0]) is None:
                continue
            seat = decision[0]
            memory = pos.memory(seat)
            kept = memory.copy()
            memory[:] = rng.random(memory.size)
            marks = memory.copy()
            other = pos.redeal(seat, rng)
            memory[:] = kept                     # the live game goes on as it was
            assert np.array_equal(other.memory(seat), marks), "a re-deal did not keep the seat's policy memory"
            marked += 1
    assert decisions, f"no decisions in {units} units"
    if not marked:
        raise SkipCheck("the game keeps no policy memory (Position.memory is None)")
    return marked


# -- every check with its cases -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One run of a check: ``run(tmp)`` (a folder it may write in) raises AssertionError
    or SkipCheck, or returns."""
    label: str
    run: Callable[[Path], object]


@dataclass(frozen=True)
class Check:
    name: str
    about: str
    cases: tuple[Case, ...]


def label(players: int, rules: dict) -> str:
    """``4p-default``, ``2p-payoff_size=2,target=3``: a case of the kit in a word."""
    return f"{players}p-" + (",".join(f"{k}={v}" for k, v in rules.items()) or "default")


def checks_of(game: GameSpec, policies=None, source: str | None = None) -> list[Check]:
    """Every check of ``game`` with the cases it plays, in order. ``policies``: the
    policies the hidden-information check asks (default: the game's built-in ones);
    ``source``: where a child process imports the spec from for the uncompiled run
    (default: found by source_of)."""
    if game.kit is None:
        def no_kit(tmp):
            raise AssertionError(f"{game.name} has no test kit hooks (GameSpec.kit)")
        return [Check("kit", "the GameSpec offers the kit's hooks (GameSpec.kit)", (Case("", no_kit),))]
    kit = game.kit()
    cases = list(kit.cases(game))
    assert cases, f"the kit of {game.name} names no cases to play"
    first, last = cases[0], cases[-1]
    ends = [first, last] if len(cases) > 1 else [first]
    played = cases if any(not rules for _, rules in cases) else [(game.default_players, {}), *cases]
    # every built-in policy, a search player at a budget of 2 (tests/test_search_players.py asks more)
    asked = ([p.bind(**{p.params[0].name: 2}) if p.search else p for p in game.policies] if policies is None
             else list(policies))

    def each(fn, chosen):
        return tuple(Case(label(players, rules), lambda tmp, p=players, r=rules: fn(p, r))
                     for players, rules in chosen)

    def hands_alone(players, rules):
        if game.sub_unit is None:
            raise SkipCheck(f"a {game.unit} of {game.name} has no hands or rounds")
        assert check_hands_alone(game, kit, players, rules) >= 2, f"every {game.unit} was one {game.sub_unit}"

    def aborted(players, rules):
        if kit.aborting_rules() is None:
            raise SkipCheck(f"the kit of {game.name} names no rules that abort units")
        with warnings.catch_warnings():        # aborting units is the point here: no AbortedUnits warning
            warnings.simplefilter("ignore", AbortedUnits)
            rec = check_outcomes(game, players, {**rules, **kit.aborting_rules()}, 60)
        assert rec["aborted"].any(), f"no unit aborted under {kit.aborting_rules()}"

    def hidden(players, rules):
        checked, changed = check_hidden_information(game, kit, asked, players, rules)
        assert checked >= 20 and changed >= checked // 2

    most = max(cases, key=lambda case: case[0])    # a unit can abort with seats out
    return [
        Check("playouts", "random playouts conserve every card at every action and end within the cap "
              "(the default rules always among them)",
              each(lambda p, r: check_playouts(game, kit, p, r, units=3), played)),
        Check("trace_is_record", "the trace of unit i is record i of a run, byte for byte",
              each(lambda p, r: check_trace_is_record(game, p, r, units=4), cases)),
        Check("outcomes", "the outcome block's promises (teams, ranks, win shares)",
              each(lambda p, r: check_outcomes(game, p, r, 200), cases)),
        Check("aborted_outcomes", "the outcome block of units that hit the action cap", each(aborted, [most])),
        Check("compiled_equals_uncompiled", "the compiled engine and plain Python give the same records",
              (Case(" ".join(label(*c) for c in ends),
                    lambda tmp: check_jit_equals_no_jit(game, ends, 4, tmp, source)),)),
        Check("threads", "1 thread and 2 give the same records",
              each(lambda p, r: check_threads(game, p, r, 60), [last])),
        Check("chunks", "chunk sizes and split runs give the same records",
              each(lambda p, r: check_chunks(game, p, r, 60), [last])),
        Check("hands_alone", "a hand (round) traced alone is that hand of the whole trace, dealt the same "
              "after any play", each(hands_alone, [first])),
        Check("streams", "a seat's draws come from its policy stream id alone",
              each(lambda p, r: check_streams_follow_policies(game, kit, p, r), [last])),
        Check("hidden_information", "decisions do not change when what the seat cannot see is re-dealt",
              each(hidden, ends)),
        Check("redeal_keeps_memory", "a re-deal keeps the deciding seat's policy memory",
              each(lambda p, r: check_redeal_keeps_memory(game, kit, p, r), [first])),
    ]
