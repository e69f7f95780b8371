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

The arrangements are one group of the run's plan (engine.pipeline: one compiled
engine serves them all: it is compiled for the tuple of function pointers, not
for the policies), and deals first_deal .. first_deal + n - 1 are played with
every arrangement.

Identical policies: when A and B are one policy under two names
(games.policy_specs.same_policy) the result says so up front; a deterministic one then
gives an exact tie (0, interval [0, 0]). That is the only exact tie: two
policies that differ but played identically on every deal of the run get the
interval of the deals not seen ("played identically on all n deals").

Tables: with 3+ seats, A's advantage where A sits alone and where B does is
tested for a difference paired by deal (stats.paired.heterogeneity); when the
kinds of table disagree, the result says so with both effects.

Aborted deals: the estimate is over the deals that completed in every
arrangement, which flatters a side whose worst deals loop to the cap. So the
summary also has the bounds over all deals (stats.paired.abort_bounds: every
aborted play counted as lost by A, then as won by A, each with its interval),
printed when more than 1% of the deals aborted; fewer than two completed
deals is an error (TooFewCompleted), not NaN.

Precision (``precision=H``): batches of deals are added until the paired win
share difference's Chow-Robbins half-width is at most H, or ``max_deals`` deals
were played (engine.stopping.Precision); the result says which and names the
rule. Only the win share difference is watched: the score difference has the
game's units (in Palace it equals the win share difference).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.aborts import bounds_text, require_completed, score_range
from analyser.analyses.seatings import arrangements, is_team_game, seat_groups
from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.pipeline import Gather, Plan, execute, run_meta
from analyser.engine.play_args import play_args
from analyser.engine.stopping import DEFAULT_MAX_COUNT, STOP_RULE, stop_text
from analyser.errors import UserError, counted
from analyser.games.policy_specs import same_policy
from analyser.io.jsonable import jsonable_tree, rows
from analyser.io.numbers import num, p_text, plural, points
from analyser.io.results_file import read_results, write_frame
from analyser.stats.intervals import Z95
from analyser.stats.paired import (
    PairedTally,
    arrangement_frame,
    heterogeneity,
    kinds_of,
    stop_width,
    summary_frame,
)

KIND = "compare"
WATCHED = "paired 95% interval of the win share difference"
METHOD = ("paired by deal: a[d] = mean over arrangements of (mean win share (score) of A's seats - that of "
          "B's seats), exact to 1e-9; 95% interval of the mean of a[d] over deals: Tango's score interval on the "
          "deals where a[d] is not 0 (counted in units of sum a^2 / sum |a|), within [-1, 1] for the win share "
          "and the scores' range for the score; an exact tie, [0, 0], only for one policy under two names with "
          "a[d] = 0 on every deal; 0 on every deal otherwise is 'played identically', with the interval of the "
          "deals not seen (+-z^2 / (n + z^2) times the range). Independent deals: "
          "the same number of plays, each arrangement on fresh deals (variance mean_k var_k / (deals * "
          "arrangements)). Variance reduction = independent / paired variance of the mean (floored). With 3+ "
          "seats the tables where A sits alone and where B does are compared paired by deal (heterogeneity). "
          "A deal aborted in any arrangement is dropped from the estimate; when more than 1% of the deals "
          "aborted, the bounds over all deals are given too: every aborted play counted as lost by A (A's "
          "seats at the lowest win share (score) a seat can have, B's at the highest), then as won by A, each "
          "with its interval.")
TEAMS = ("Team game: each policy fills whole teams (partners play the same policy), so A - B is A's team against "
         "B's team.")


@dataclass(eq=False)
class CompareResult:
    """A duplicate-deal comparison of policy A against policy B.

    summary         rows: win share difference, score difference (A - B); paired estimate, ci_low, ci_high,
                    half_width, tie (an exact tie: [0, 0], one policy by construction), identical (0 on
                    every deal), p_value, sd_per_deal, independent_ci_low / _high / _half_width,
                    variance_reduction (NaN when no deal differed); aborted_deals, aborted_share and the bounds over
                    all deals, aborts_lost / aborts_won with _ci_low / _ci_high (NaN when none aborted)
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
        return summary_frame(self.tally, tie=self.proven)

    @property
    def proven(self) -> bool:
        """A and B are one policy by construction (same_policy): the only case an exact tie can be."""
        return bool(self.meta.get("same_policy"))

    @property
    def by_arrangement(self) -> pd.DataFrame:
        arr = self.meta["arrangements"]
        return arrangement_frame(self.tally, arr["seats"], [tuple(s) for s in arr["streams"]], tie=self.proven)

    @property
    def heterogeneity(self) -> dict:
        return heterogeneity(self.tally, tie=self.proven)

    @property
    def deals_frame(self) -> pd.DataFrame:
        return self.tally.frame()

    def verdict(self) -> str:
        """One sentence on the win share difference: an exact tie, identical play on the sample, or the paired
        estimate and interval, and whether it depends on the table (heterogeneity)."""
        win = self.summary.set_index("quantity").loc["win share difference"]
        if win["tie"]:
            text = "A - B = 0 on every deal: an exact tie (one policy), interval [0, 0]"
        elif win["identical"]:
            text = (f"A - B = 0: played identically on all {counted(int(win['deals']), self.meta['unit'])}, "
                    f"[{points(win['ci_low'])}, {points(win['ci_high'])}] for those not seen")
        else:
            text = f"A - B {points(win['estimate'])} [{points(win['ci_low'])}, {points(win['ci_high'])}] paired"
        het = self.heterogeneity
        return text + (f"; {heterogeneity_text(het)}" if het["flag"] else "")

    def aborts(self) -> str | None:
        """The line with the win share difference's bounds over all deals, when more than 1% aborted."""
        return bounds_text(self.tally.bounds("win"), self.meta["unit"], where=" in some arrangement")

    @property
    def shares(self) -> dict:
        """A's and B's mean win share and score over all arrangements (each seat-averaged)."""
        t, n = self.tally, self.tally.kept
        return {k: float(t.sums[k].mean() / n) if n else None for k in ("a_win", "b_win", "a_score", "b_score")}

    def plot(self):
        """A's advantage over B with its paired 95% interval, the independent one beside it, and with
        3+ seats the effect per kind of table (a matplotlib Figure; a notebook shows it inline)."""
        from analyser.plots.compare import paired_difference

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
                   arrangements=m["arrangements"], shares=self.shares, summary=rows(self.summary),
                   heterogeneity=jsonable_tree(self.heterogeneity), by_arrangement=rows(self.by_arrangement),
                   aborts=self.aborts(), precision=m.get("precision"), stop=m["stop"], stopped=m["stopped"],
                   method=m["method"],
                   seconds=m.get("seconds"), plays_per_second=m.get("plays_per_second"),
                   versions=m["versions"])
        return out

    def save(self, path: str | Path) -> Path:
        """Write the per-deal paired values with the metadata (``analyser show`` reads it: see load_compare)."""
        path = Path(path)
        write_frame(path, self.tally.frame(), {**self.meta, "paired_state": self.tally.state()})
        return path

    def __repr__(self) -> str:
        m, s = self.meta, self.summary.set_index("quantity")
        win = s.loc["win share difference"]
        lines = [f"<CompareResult {m['game']}: A={m['policies']['A']} vs B={m['policies']['B']}, "
                 f"{m['players']} players, {counted(self.tally.kept, m['unit'])} x "
                 f"{m['arrangements']['count']} arrangements ({m['arrangements']['name']}), seed {m['seed']}>"]
        if m.get("same_policy"):
            lines.append(f"  {SAME}")
        beside = "" if win["identical"] else (f"; independent deals "
                                              f"±{points(win['independent_half_width'], sign=False)}; "
                                        f"variance reduction {num(win['variance_reduction'])}x")
        aborts = self.aborts()
        lines += [f"  win share {self.verdict()}{beside}",
                  *([f"  {aborts}"] if aborts else []),
                  f"  {m['stopped']}; {counted(self.tally.dropped, m['unit'])} dropped (aborted)",
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
        if aborts := self.aborts():
            head += f"<p>{html.escape(aborts)}</p>"
        return head + self.summary.to_html(index=False, float_format=lambda x: f"{x:.4f}")


def compare(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
            seed: int = 0, rules: dict | None = None, threads: int | None = None, precision: float | None = None,
            max_deals: int = DEFAULT_MAX_COUNT, first_deal: int = 0, unit: str | None = None, out=None,
            progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK, n: int | None = None, backend=None,
            run_dir=None) -> CompareResult:
    """Compare policy A (``policies[0]``) with B (``policies[1]``) on duplicate deals.

    Every deal is played in every arrangement (see the module docstring); the result's
    ``summary`` has A's advantage in win share and score with a paired 95% interval,
    the interval independent deals would have given, and the variance reduction.
    deals (or n): the number of deals (default 10,000); with ``precision`` the first
    batch (default 1,000), after which batches are added until the paired win share
    difference's half-width is at most ``precision`` or ``max_deals`` are played.
    out: also write the per-deal values and metadata to this Parquet file.
    backend, run_dir: as simulate's.
    """
    if not isinstance(policies, (list, tuple)) or len(policies) != 2:
        got = 0 if policies is None else len(policies) if isinstance(policies, (list, tuple)) else 1
        raise UserError(f"compare takes exactly two policies, A and B, not {got}")
    args = play_args(game, players, policies[0], seed, rules, unit, n=n, deals=deals, precision=precision,
                     max_deals=max_deals, first_deal=first_deal, chunk_size=chunk_size, backend=backend,
                     run_dir=run_dir)
    base = args.base
    teams = base.game.team_of(base.players)
    seats, streams, name = arrangements(base.players, teams)
    configs = [RunConfig.build(game, players=base.players,
                               policies=[policies[0] if c == "A" else policies[1] for c in s],
                               deals=args.cap, seed=seed, rules=rules, first_deal=args.first_deal, streams=st,
                               unit=unit)
               for s, st in zip(seats, streams, strict=True)]
    meta = _metadata(configs[0], seats, streams, name, args.precision, args.cap, is_team_game(seat_groups(teams)))
    meta["same_policy"] = same_policy(configs[0].seats[seats[0].index("A")], configs[0].seats[seats[0].index("B")])
    a_seats = [[i for i, c in enumerate(s) if c == "A"] for s in seats]
    b_seats = [[i for i, c in enumerate(s) if c == "B"] for s in seats]
    tally = PairedTally(len(seats), kinds_of(seats), score_bounds=score_range(base.game, base.players,
                                                                               configs[0].settings))
    plan = Plan.of(configs, args.count, args.chunk_size, f"{base.game.name} x{base.players}, {len(seats)} arrangements")
    task = "comparing A with B (paired by deal)"

    def width():          # a precision target that can never be met stops at once, not at max_deals
        require_completed(tally.kept, tally.units, args.unit, task)
        return stop_width(tally, "win")

    stop = args.stop_rule(width)

    def add(chunk, plays):
        tally.add(np.arange(chunk.start, chunk.start + chunk.count, dtype=np.int64), plays, a_seats, b_seats)

    run = execute(plan, Gather(add, out), stop, threads=threads, progress=progress, **args.where)
    meta.update(run_meta(run, stop), stopped=stop_text(run.stop, args.unit))
    require_completed(tally.kept, tally.units, args.unit, task)
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


SAME = ("A and B are one policy under two names (the same function and parameters): they differ only in "
        "their random streams, so any difference is noise, and exactly 0 for a deterministic policy.")


def heterogeneity_text(het: dict) -> str:
    """The sentence a result prints when its kinds of table disagree (paired.heterogeneity)."""
    effects = "; ".join(f"{e['name']} {points(e['estimate'])} [{points(e['ci_low'])}, {points(e['ci_high'])}]"
                        for e in het["effects"])
    how = "disagree in sign" if het["opposite"] else "differ beyond their intervals"
    d = het["difference"]
    return (f"the answer depends on the table: the arrangements {how} ({effects}; difference "
            f"{points(d['estimate'])} [{points(d['ci_low'])}, {points(d['ci_high'])}], p {p_text(d['p_value'])}, "
            f"paired by deal)")
