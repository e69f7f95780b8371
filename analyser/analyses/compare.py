"""Fair comparison of two policies by duplicate deals, and precision targets.

``compare(game, policies=[A, B])`` plays every deal once in each seat
arrangement of A and B (the same cards: deals depend only on (seed, unit)),
as duplicate bridge and the computer poker competitions do, and reports A's
advantage over B paired by deal (see analyser.stats.paired for the numbers).

Arrangements (analyser.analyses.seatings):
  2 seats:   AB and BA (the rotations of AB);
  n seats:   the n rotations of A B...B and the n rotations of B A...A, a
             balanced subset of the 2^n - 2 mixed tables: each policy sits in
             every seat equally often, alone and as the majority (2n plays
             per deal; "rotations of ABBB and BAAA" at 4 players);
  team game: each policy fills whole teams, partners never split: with two
             teams A on every seat of team 0 and B on team 1, then swapped
             ("teams: A on team 0 / B on team 0"; more teams: the rotations of
             A B..B and B A..A over the teams). A - B then reads as A's team
             against B's team.
Stream ids: the policy instances of a base arrangement are numbered by seat
(ABBB: 0 1 2 3; BAAA: 4 5 6 7, i.e. n + seat) and a rotation moves each id
with its instance, so every policy instance keeps its own random draws across
the rotations of its table, and A and B never share an id (A holds 0 and
n+1..2n-1, B holds 1..n-1 and n; at 2 seats A holds 0 and B 1, exactly the
default streams of ``simulate --policy A --policy B``). In a team game the
swap moves the k-th seat of one team to the k-th seat of the other, its id
with it (high card, teams 0 2 / 1 3: ABAB with ids 0 1 2 3, BABA with 1 0 3 2).

Each arrangement is one ChunkRunner (one compiled engine serves them all: it
is compiled for the tuple of function pointers, not for the policies), and
deals first_deal .. first_deal + n - 1 are played with every arrangement.

Identical policies: when A and B are one policy under two names
(core.policy.same_policy) the result says so up front; a deterministic one then
gives an exact tie (0, interval [0, 0]).

Tables: with 3+ seats, A's advantage where A sits alone and where B does is
tested for a difference paired by deal (stats.paired.heterogeneity); when the
kinds of table disagree, the result says so with both effects.

Precision (``precision=H``): deals are added in batches until the Chow-Robbins
half-width z sqrt((s^2 + 1/n) / n) of the paired win share difference
(intervals.stop_half_width: the variance floor 1/n keeps a batch that happens
to be constant from stopping at once) is at most H, after at least
MIN_STOP_UNITS deals, or ``max_deals`` deals were played; the result says which
and names the rule. Only the win share difference is watched: the score
difference has the game's units (in Palace it equals the win share
difference). The loop never stops on "A is better": a fixed-width stopping
rule keeps the interval's coverage, a significance one would not. A batch is
the predicted remainder (n * (h / H)^2 * 1.1 - n: at least a tenth of n, and at
least what MIN_STOP_UNITS needs) and at most n (so the run at most doubles),
within the cap.

``simulate --precision`` (PrecisionTarget) stops the same way on the widest
share interval. Its estimates carry a small bias: the share whose interval is
the widest drives the stop, and a stop comes sooner after a batch that moved
that share towards 0 or 1 (where its variance is smaller). ``rerun=True``
then plays the count reached again on fresh deals (the next ones of the same
seed, which the stop never saw) and reports that fixed-count run instead.
"""
from __future__ import annotations

import html
import json
import math
import numbers
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.seatings import arrangements, is_team_game, seat_groups
from analyser.engine.config import DEFAULT_CHUNK, MAX_INDEX, RunConfig, whole_number
from analyser.engine.errors import Interrupted, UserError
from analyser.engine.policies import same_policy
from analyser.engine.registry import plural
from analyser.io.results_file import read_results
from analyser.stats.intervals import MIN_STOP_UNITS, Z95, stop_half_width
from analyser.stats.paired import (
    PairedTally,
    arrangement_frame,
    heterogeneity,
    kinds_of,
    stop_width,
    summary_frame,
)

DEFAULT_DEALS = 10_000
DEFAULT_FIRST_BATCH = 1_000
DEFAULT_MAX_DEALS = 10_000_000
KIND = "compare"
WATCHED = "paired 95% interval of the win share difference"
STOP_RULE = (f"Chow-Robbins: z sqrt((s^2 + 1/n) / n) <= H (the variance floor 1/n), after at least "
             f"{MIN_STOP_UNITS} deals")
METHOD = ("paired by deal: a[d] = mean over arrangements of (mean win share (score) of A's seats - that of "
          "B's seats), exact to 1e-9; 95% interval of the mean of a[d] over deals: the effective-n Wilson "
          "interval within [-1, 1] for the win share, the normal one for the score, both with the variance "
          "floor s^2 + 1/n; a difference of exactly 0 on every deal is an exact tie, [0, 0]. Independent deals: "
          "the same number of plays, each arrangement on fresh deals (variance mean_k var_k / (deals * "
          "arrangements)). Variance reduction = independent / paired variance of the mean (floored). With 3+ "
          "seats the tables where A sits alone and where B does are compared paired by deal (heterogeneity). "
          "A deal aborted in any arrangement is dropped.")
TEAMS = ("Team game: each policy fills whole teams (partners play the same policy), so A - B is A's team against "
         "B's team.")


def check_precision(precision) -> float | None:
    if precision is None:
        return None
    if isinstance(precision, bool) or not isinstance(precision, numbers.Real) or not 0 < precision < 1 \
            or not math.isfinite(precision):
        raise UserError(f"precision must be a half-width between 0 and 1 (0.005 is +-0.5 percentage points), "
                        f"not {precision!r}")
    return float(precision)


def next_batch(done: int, half: float, target: float, cap: int) -> int:
    """How many deals to add after ``done`` with half-width ``half`` to reach ``target`` (see the module)."""
    if not math.isfinite(half):
        want = done
    else:
        want = math.ceil(done * (half / target) ** 2 * 1.1) - done
    return min(max(1, MIN_STOP_UNITS - done, min(want, done)), cap - done)


def precision_stop(half: float, done: int, target: float, cap: int) -> dict | None:
    """The stop after ``done`` units at half-width ``half`` (None: go on): reached once the half-width is
    at most the target after at least MIN_STOP_UNITS units, or capped at ``cap``."""
    reached = bool(math.isfinite(half) and half <= target and done >= MIN_STOP_UNITS)
    if not reached and done < cap:
        return None
    return {"rule": "precision", "stopping": STOP_RULE, "reached": reached, "target": target,
            "half_width": _plain(half), "deals": done, "max_deals": cap}


def batch_plan(count, precision, max_deals, unit_name: str) -> tuple[int, int]:
    """``(first batch, most deals)``: without a precision target both are the count
    (default 10,000); with one, the first batch (default 1,000) and ``--max-deals``."""
    if precision is None:
        count = whole_number(count if count is not None else DEFAULT_DEALS, f"the number of {plural(unit_name)}", 1)
        return count, count
    cap = whole_number(max_deals, "--max-deals", 1)
    count = whole_number(count if count is not None else min(DEFAULT_FIRST_BATCH, cap),
                         f"the first batch of {plural(unit_name)}", 1)
    if count > cap:
        raise UserError(f"the first batch ({count:,} {plural(unit_name)}) is more than --max-deals ({cap:,})")
    return count, cap


@dataclass(eq=False)
class BatchLoop:
    """compare's and tournament's loop: batches of deals, one progress bar a batch,
    until the count is played or, with ``precision``, the interval is narrow enough
    or ``cap`` deals are played (precision_stop, next_batch). ``done`` counts the deals
    of whole batches, so after Ctrl-C it says what was tallied."""

    count: int
    precision: float | None
    cap: int
    first: int
    chunk_size: int
    plays_per_deal: int
    label: str
    progress: bool
    done: int = 0
    simulation_seconds: float = 0.0
    batches: list[dict] = field(default_factory=list)

    def run(self, simulate, add, half_width) -> dict:
        """``simulate(start, size)`` plays deals start .. start + size - 1 (timed as
        simulation), ``add(start, size, plays)`` tallies them, ``half_width()`` is the
        half-width the precision target watches (a Chow-Robbins one: intervals.stop_half_width).
        Returns the stop (see stop_text)."""
        from analyser.engine.pipeline import chunks
        from analyser.engine.progress import progress_bar

        t_start = time.perf_counter()
        played, batch = 0, self.count
        while True:
            with progress_bar(batch * self.plays_per_deal, self.label, self.progress) as bar:
                for start, size in chunks(self.first + self.done, batch, self.chunk_size):
                    t0 = time.perf_counter()
                    plays = simulate(start, size)
                    self.simulation_seconds += time.perf_counter() - t0
                    add(start, size, plays)
                    played += size * self.plays_per_deal
                    if bar:
                        rate = played / max(time.perf_counter() - t_start, 1e-9)
                        bar.advance(size * self.plays_per_deal, f"{rate:,.0f} plays/s")
            self.done += batch
            if self.precision is None:
                return {"rule": "fixed", "deals": self.done}
            half = half_width()
            self.batches.append({"deals": self.done, "half_width": _plain(half)})
            stop = precision_stop(half, self.done, self.precision, self.cap)
            if stop is not None:
                return stop
            batch = next_batch(self.done, half, self.precision, self.cap)


def stop_text(stop: dict, unit: str) -> str:
    if stop["rule"] == "fixed":
        return f"fixed: {stop['deals']:,} {plural(unit)}"
    if stop["rule"] == "rerun":
        first, n, before = stop["first_deal"], stop["deals"], stop["precision_stop"]
        return (f"fixed-count rerun: {n:,} {plural(unit)} on fresh deals {first:,} to {first + n - 1:,}, the count "
                f"a precision stop reached (H = {before['target']:g}); unbiased by the stop")
    hw, h = stop["half_width"], stop["target"]    # None: no completed unit yet, so no interval
    rule = "Chow-Robbins" if stop.get("stopping") else "half-width"
    if stop["reached"]:
        return f"stopped: {rule} half-width {hw:.4g} <= {h:g} after {stop['deals']:,} {plural(unit)}"
    shown = "undefined" if hw is None else f"{hw:.4g}"
    if hw is not None and hw <= h:          # narrow enough, but fewer units than the rule's minimum
        return f"stopped at --max-deals {stop['max_deals']:,}: below the {MIN_STOP_UNITS} {plural(unit)} " \
               f"the stopping rule needs"
    return f"stopped at --max-deals {stop['max_deals']:,}: {rule} half-width {shown} > {h:g}"


@dataclass(eq=False)
class CompareResult:
    """A duplicate-deal comparison of policy A against policy B.

    summary         rows: win share difference, score difference (A - B); paired estimate, ci_low, ci_high,
                    half_width, tie (an exact tie: [0, 0]), sd_per_deal, independent_ci_low / _high /
                    _half_width, variance_reduction (NaN for a tie)
    by_arrangement  per arrangement: seats (``ABBB``), kind, streams, A's and B's mean win share and score,
                    the win share difference with its interval
    heterogeneity   A's advantage where A sits alone and where B does, and whether they differ (3+ seats)
    deals_frame     per deal: deal, aborted, win_diff, score_diff (the paired values a[d]), and per kind
    meta            game, players, policies A and B with params, seed, deals, arrangements, streams,
                    settings, precision and stop reason, versions, timing
    """
    meta: dict
    tally: PairedTally

    @property
    def summary(self) -> pd.DataFrame:
        return summary_frame(self.tally)

    @property
    def by_arrangement(self) -> pd.DataFrame:
        arr = self.meta["arrangements"]
        return arrangement_frame(self.tally, arr["seats"], [tuple(s) for s in arr["streams"]])

    @property
    def heterogeneity(self) -> dict:
        return heterogeneity(self.tally)

    @property
    def deals_frame(self) -> pd.DataFrame:
        return self.tally.frame()

    def verdict(self) -> str:
        """One sentence on the win share difference: an exact tie, or the paired estimate and interval, and
        whether it depends on the table (heterogeneity)."""
        win = self.summary.set_index("quantity").loc["win share difference"]
        if win["tie"]:
            text = "A - B = 0 on every deal: an exact tie, interval [0, 0]"
        else:
            text = f"A - B {_pp(win['estimate'])} [{_pp(win['ci_low'])}, {_pp(win['ci_high'])}] paired"
        het = self.heterogeneity
        return text + (f"; {heterogeneity_text(het)}" if het["flag"] else "")

    @property
    def shares(self) -> dict:
        """A's and B's mean win share and score over all arrangements (each seat-averaged)."""
        t, n = self.tally, self.tally.kept
        return {k: float(t.sums[k].mean() / n) if n else None for k in ("a_win", "b_win", "a_score", "b_score")}

    def plot(self):
        """A's advantage over B with its paired 95% interval, the independent one beside it, and with
        3+ seats the effect per kind of table (a matplotlib Figure; a notebook shows it inline)."""
        from analyser.plots.figures import paired_difference

        frame = self.summary.reset_index().rename(columns={"estimate": "difference"})
        if np.array_equal(self.tally.values("win"), self.tally.values("score"), equal_nan=True):
            frame = frame.iloc[:1]                                # Palace: the score is the win share
        sides, het = self.meta["policies"], self.heterogeneity
        tables = pd.DataFrame(het["effects"]) if het["tested"] else None
        note = None if not het["tested"] else ("the answer depends on the table: they "
                                               + ("disagree in sign" if het["opposite"] else "differ")
                                               if het["flag"] else "no evidence the tables differ")
        return paired_difference(frame, {**self.meta, "a": sides["A"], "b": sides["B"]}, tables, note)

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m[k] for k in ("kind", "game", "unit", "players", "deals", "first_deal", "seed", "settings",
                                 "outcome", "policies", "params")}
        out.update(same_policy=m.get("same_policy", False), completed=self.tally.kept, aborted=self.tally.dropped,
                   arrangements=m["arrangements"], shares=self.shares, summary=_rows(self.summary),
                   heterogeneity=_plain_tree(self.heterogeneity), by_arrangement=_rows(self.by_arrangement),
                   precision=m.get("precision"), stop=m["stop"], stopped=m["stopped"], method=m["method"],
                   seconds=m.get("seconds"), plays_per_second=m.get("plays_per_second"),
                   versions=m["versions"])
        return out

    def save(self, path: str | Path) -> Path:
        """Write the per-deal paired values with the metadata (``analyser show`` reads it: see load_compare)."""
        path = Path(path)
        _write(path, self.tally.frame(), {**self.meta, "paired_state": self.tally.state()})
        return path

    def __repr__(self) -> str:
        m, s = self.meta, self.summary.set_index("quantity")
        win = s.loc["win share difference"]
        lines = [f"<CompareResult {m['game']}: A={m['policies']['A']} vs B={m['policies']['B']}, "
                 f"{m['players']} players, {self.tally.kept:,} {plural(m['unit'])} x "
                 f"{m['arrangements']['count']} arrangements ({m['arrangements']['name']}), seed {m['seed']}>"]
        if m.get("same_policy"):
            lines.append(f"  {SAME}")
        beside = "" if win["tie"] else (f"; independent deals +-{_hw(win['independent_half_width'])}; "
                                        f"variance reduction {_num(win['variance_reduction'])}x")
        lines += [f"  win share {self.verdict()}{beside}",
                  f"  {m['stopped']}; {self.tally.dropped:,} {plural(m['unit'])} dropped (aborted)",
                  "  .summary .by_arrangement .heterogeneity .deals_frame .meta .save(path) .to_dict()"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        head = (f"<p><b>{html.escape(m['game'])}</b>: A = {html.escape(m['policies']['A'])}, B = "
                f"{html.escape(m['policies']['B'])}; {m['players']} players, {self.tally.kept:,} "
                f"{plural(m['unit'])} x {m['arrangements']['count']} arrangements "
                f"({html.escape(m['arrangements']['name'])}), seed {m['seed']}; {html.escape(m['stopped'])}</p>")
        if m.get("same_policy"):
            head = f"<p><b>{html.escape(SAME)}</b></p>" + head
        head += f"<p>win share {html.escape(self.verdict())}</p>"
        return head + self.summary.to_html(index=False, float_format=lambda x: f"{x:.4f}")


def compare(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
            seed: int = 0, rules: dict | None = None, threads: int | None = None, precision: float | None = None,
            max_deals: int = DEFAULT_MAX_DEALS, first_deal: int = 0, unit: str | None = None, out=None,
            progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK, n: int | None = None) -> CompareResult:
    """Compare policy A (``policies[0]``) with B (``policies[1]``) on duplicate deals.

    Every deal is played in every arrangement (see the module docstring); the result's
    ``summary`` has A's advantage in win share and score with a paired 95% interval,
    the interval independent deals would have given, and the variance reduction.
    deals (or n): the number of deals (default 10,000); with ``precision`` the first
    batch (default 1,000), after which batches are added until the paired win share
    difference's half-width is at most ``precision`` or ``max_deals`` are played.
    out: also write the per-deal values and metadata to this Parquet file.
    """
    from analyser.engine.pipeline import ChunkRunner, set_threads
    from analyser.engine.progress import in_notebook, preparing

    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of deals once (n={n!r}, deals={deals!r})")
    count = n if n is not None else deals
    precision = check_precision(precision)
    if not isinstance(policies, (list, tuple)) or len(policies) != 2:
        got = 0 if policies is None else len(policies) if isinstance(policies, (list, tuple)) else 1
        raise UserError(f"compare takes exactly two policies, A and B, not {got}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise UserError(f"chunk size must be a whole number of at least 1, not {chunk_size!r}")
    if progress is None:
        progress = in_notebook()
    base = RunConfig.build(game, players, policies[0], 1, seed, rules, 0, None, unit)   # game, players, rules
    unit_name = base.game.unit
    count, cap = batch_plan(count, precision, max_deals, unit_name)
    first_deal = whole_number(first_deal, f"the first {unit_name}", 0, MAX_INDEX - cap + 1)
    teams = base.game.team_of(base.players)
    seats, streams, name = arrangements(base.players, teams)
    configs = [RunConfig.build(game, base.players, [policies[0] if c == "A" else policies[1] for c in s], cap, seed,
                               rules, first_deal, st, unit) for s, st in zip(seats, streams, strict=True)]
    threads = set_threads(threads)
    meta = _metadata(configs[0], seats, streams, name, precision, cap, is_team_game(seat_groups(teams)))
    meta["same_policy"] = same_policy(configs[0].seats[seats[0].index("A")], configs[0].seats[seats[0].index("B")])
    if out is not None:
        from analyser.io.results_file import check_target

        check_target(Path(out))
    with preparing(progress):
        runners = [ChunkRunner(c) for c in configs]
    a_seats = [[i for i, c in enumerate(s) if c == "A"] for s in seats]
    b_seats = [[i for i, c in enumerate(s) if c == "B"] for s in seats]
    tally = PairedTally(len(seats), kinds_of(seats))
    t_start = time.perf_counter()
    loop = BatchLoop(count, precision, cap, first_deal, chunk_size, len(seats),
                     f"{base.game.name} x{base.players}, {len(seats)} arrangements", progress)
    try:
        stop = loop.run(lambda start, size: [runner.run(start, size) for runner in runners],
                        lambda start, size, plays: tally.add(np.arange(start, start + size, dtype=np.int64), plays,
                                                             a_seats, b_seats),
                        lambda: stop_width(tally, "win"))
    except KeyboardInterrupt:
        kept = "; no file was written" if out is not None else ""
        raise Interrupted(f"interrupted after {tally.units:,} {plural(unit_name)}{kept}") from None
    seconds = time.perf_counter() - t_start
    plays = tally.units * len(seats)
    meta.update(deals=tally.units, stop=stop, stopped=stop_text(stop, unit_name), batches=loop.batches,
                threads=threads, seconds=seconds, simulation_seconds=loop.simulation_seconds, plays=plays,
                plays_per_second=plays / seconds if seconds > 0 else None)
    result = CompareResult(meta, tally)
    if out is not None:
        result.save(out)
    return result


def _metadata(config: RunConfig, seats, streams, name, precision, cap, teams: bool) -> dict:
    base = config.metadata()
    a = seats[0].index("A")
    b = seats[0].index("B")
    return {"kind": KIND, "game": base["game"], "unit": base["unit"], "players": config.players,
            "deals": 0, "first_deal": base["first_deal"], "seed": base["seed"], "settings": base["settings"],
            "outcome": config.game.outcome,
            "policies": {"A": base["policies"][a], "B": base["policies"][b]},
            "params": {"A": base["params"][a], "B": base["params"][b]},
            "arrangements": {"count": len(seats), "name": name, "seats": list(seats),
                             "streams": [list(s) for s in streams], "teams": teams},
            "precision": None if precision is None else {"target": precision, "applies_to": WATCHED,
                                                         "stopping": STOP_RULE, "max_deals": cap},
            "method": METHOD + (" " + TEAMS if teams else ""), "confidence": 0.95, "z": Z95,
            "versions": base["versions"]}


def _write(path: Path, frame: pd.DataFrame, meta: dict) -> None:
    """Parquet with the metadata under the results-file key: a temporary file renamed into place."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from analyser.io.results_file import META_KEY, check_target

    check_target(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
        os.close(fd)
    except OSError as err:
        raise UserError(f"cannot write results file {path}: {err.strerror}") from None
    try:
        table = pa.Table.from_pandas(frame, preserve_index=False)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               META_KEY: json.dumps(meta, default=_plain)})
        pq.write_table(table, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_compare(path: str | Path) -> CompareResult:
    """Read a file written by ``compare(..., out=...)`` / ``CompareResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a comparison (written by `analyser compare --out`)")
    try:
        state = meta.pop("paired_state")
        tally = PairedTally.from_frame(frame, state)
    except (ValueError, KeyError, TypeError) as err:
        if isinstance(err, UserError):
            raise
        raise UserError(f"{path} has damaged comparison metadata or columns ({type(err).__name__}: {err})") from None
    return CompareResult(meta, tally)


class PrecisionTarget:
    """The runner's ``more`` rule for ``simulate --precision``: after each batch, stop once
    every share the tables report (win share per seat, policy and team, the game's rate
    columns; the score too where it is a 0/1 payoff, as in Palace) has a Chow-Robbins
    half-width (share_half_width) at most ``target``, after at least MIN_STOP_UNITS
    units, or ``cap`` units were played (precision_stop); else ask for the next batch.
    Mean scores in game units and per-unit means are not watched. ``meta`` has
    ``precision``, ``stop``, ``stopped`` (the sentence the output prints) and ``batches``
    once it has said stop."""

    def __init__(self, target: float, cap: int, game):
        self.target, self.cap, self.game = target, cap, game
        self.batches: list[dict] = []
        self.meta: dict = {}

    def __call__(self, tally, done: int) -> int:
        half = share_half_width(tally, self.game)
        self.batches.append({"deals": done, "half_width": _plain(half)})
        stop = precision_stop(half, done, self.target, self.cap)
        if stop is None:
            return next_batch(done, half, self.target, self.cap)
        self.meta = {"stop": stop, "stopped": stop_text(stop, self.game.unit), "batches": self.batches,
                     "precision": {"target": self.target, "applies_to": SHARES, "stopping": STOP_RULE,
                                   "max_deals": self.cap, "bias": PRECISION_BIAS}}
        return 0


SHARES = "every share interval (win share, the game's rates; a 0/1 score)"
PRECISION_BIAS = ("the share whose interval is the widest drives the stop, which can bias its estimate slightly "
                  "(-0.02 +- 0.06 points for random, Palace 4p saver/lowest/pickup/random at H = 0.01, 300 seeds); "
                  "rerun=True (--rerun) plays the same count again on fresh deals for unbiased estimates")


@dataclass
class FixedRerun:
    """The runner's ``more`` rule for the fixed-count rerun of a precision run: stop at once, and say what
    the run is (its ``meta`` joins the result's metadata and the results file)."""
    stopped: dict
    unit: str
    meta: dict = field(default_factory=dict)

    def __call__(self, tally, done: int) -> int:
        return 0

    def begin(self, first: int) -> FixedRerun:
        n = self.stopped["stop"]["deals"]
        stop = {"rule": "rerun", "deals": n, "first_deal": first, "precision_stop": self.stopped["stop"]}
        self.meta = {"stop": stop, "stopped": stop_text(stop, self.unit), "batches": self.stopped["batches"],
                     "precision": self.stopped["precision"]}
        return self


def simulate_to_precision(config: RunConfig, precision: float, max_deals: int = DEFAULT_MAX_DEALS,
                          threads: int | None = None, chunk_size: int = DEFAULT_CHUNK, keep_records: bool = False,
                          progress: bool = False, out=None, rerun: bool = False):
    """``simulate`` with a precision target (see PrecisionTarget): ``config.deals`` is the
    first batch. The runner plays it, so ``out`` streams as ``simulate --out`` does.
    rerun: after the stop at N units, play N units again on the next N deals of the same seed
    (fresh deals the stop never saw) and return that fixed-count run, free of the stop's bias."""
    from dataclasses import replace

    from analyser.engine.pipeline import run

    precision = check_precision(precision)
    cap = whole_number(max_deals, "--max-deals", 1)
    if config.deals > cap:
        raise UserError(f"the first batch ({config.deals:,}) is more than --max-deals ({cap:,})")
    if not isinstance(rerun, bool):
        raise UserError(f"rerun must be True or False, not {rerun!r}")
    if rerun and config.first_deal + 2 * cap > MAX_INDEX + 1:
        raise UserError(f"--rerun needs room for twice --max-deals ({2 * cap:,}) after the first "
                        f"{config.game.unit} {config.first_deal:,}; lower --max-deals")
    target = PrecisionTarget(precision, cap, config.game)
    if not rerun:
        return run(config, threads=threads, chunk_size=chunk_size, progress=progress, keep_records=keep_records,
                   out=out, more=target)
    run(config, threads=threads, chunk_size=chunk_size, progress=progress, more=target)
    again = replace(config, deals=target.meta["stop"]["deals"],
                    first_deal=config.first_deal + target.meta["stop"]["deals"])
    return run(again, threads=threads, chunk_size=chunk_size, progress=progress, keep_records=keep_records,
               out=out, more=FixedRerun(target.meta, config.game.unit).begin(again.first_deal))


def share_half_width(tally, game) -> float:
    """The widest Chow-Robbins half-width (intervals.stop_half_width) among the shares simulate's tables
    report, per seat, policy and team (see PrecisionTarget); NaN before two completed units."""
    names = ["win"] + [c.name for c in game.columns if c.per == "seat" and c.kind == "rate"]
    if bool(tally.is_binary("seat", "score").all()):
        names.append("score")
    widest = 0.0
    for part in tally.groups:
        for q in names:
            _, sd = tally.mean_and_sd(part, q)
            for v in sd:
                half = stop_half_width(float(v) ** 2, tally.completed)
                if not math.isfinite(half):
                    return float("nan")
                widest = max(widest, half)
    return widest


SAME = ("A and B are one policy under two names (the same function and parameters): they differ only in "
        "their random streams, so any difference is noise, and exactly 0 for a deterministic policy.")


def heterogeneity_text(het: dict) -> str:
    """The sentence a result prints when its kinds of table disagree (paired.heterogeneity)."""
    effects = "; ".join(f"{e['name']} {_pp(e['estimate'])} [{_pp(e['ci_low'])}, {_pp(e['ci_high'])}]"
                        for e in het["effects"])
    how = "disagree in sign" if het["opposite"] else "differ beyond their intervals"
    d = het["difference"]
    return (f"the answer depends on the table: the arrangements {how} ({effects}; difference "
            f"{_pp(d['estimate'])} [{_pp(d['ci_low'])}, {_pp(d['ci_high'])}], p {_p(d['p_value'])}, paired by deal)")


def _p(p) -> str:
    return "-" if p is None or not math.isfinite(p) else "< 0.0001" if p < 1e-4 else f"= {p:.2g}"


def _plain_tree(v):
    """``_plain`` through dicts and lists (JSON-ready nested metadata)."""
    if isinstance(v, dict):
        return {k: _plain_tree(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain_tree(x) for x in v]
    return _plain(v)


def _rows(frame: pd.DataFrame) -> list[dict]:
    return [{k: _plain(v) for k, v in r.items()} for r in frame.to_dict("records")]


def _plain(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if not math.isfinite(v) else float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    return v


def _pp(x) -> str:
    """A share difference in percentage points."""
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:+.2f}pp"


def _hw(x) -> str:
    """A half-width in percentage points."""
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.2f}pp"


def _num(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:.2f}"
