"""A round robin of policies on common deals: a head-to-head matrix and ratings.

Two seatings (``tables=``), every one on the same deals: first_deal ..
first_deal + n - 1 of the same seed, the stream ids moving with the policy
instances (analyser.seatings).

``tables="pairs"`` (the default) plays every unordered pair of the policies as
``compare`` plays two (analyser.comparison): every deal in each arrangement of
the pair (2 seats: AB and BA; n seats: the rotations of A B..B and B A..A; a
team game: A on every seat of one team, B on the other, then swapped).

Head-to-head matrix: M[X][Y] is X's mean win share per seat against Y, paired
by deal: for deal d, x[d] = the mean over the pair's arrangements of the mean
win share of X's seats, and M[X][Y] = mean of x[d] over the kept deals, with
the normal 95% interval mean +- z * sd(x) / sqrt(n) (clipped to [0, 1]). The
diagonal is empty. A deal aborted in any arrangement of a pair is dropped from
that pair. At 2 seats of a game with one winner (Palace), M[X][Y] + M[Y][X]
= 1 unless a deal is drawn; at more seats the fair share is
win_total / players (Palace: 3/4 at 4 players) and the two cells need not add
up to anything, since the arrangements give X one seat in half of them and
n - 1 seats in the other half. In a team game every seat of a team plays one
policy, so M[X][Y] is X's team's win share against Y's team (fair share 1/2
with two teams) and a rating is that of a team of X's.

Ratings (analyser.stats.ratings): Bradley-Terry fitted as a binomial GLM by
statsmodels, the first policy the reference (rating 0). For a pair (X, Y) the
observed proportion is p = M[X][Y] / (M[X][Y] + M[Y][X]), X's part of the
pair's per-seat win shares (at 2 seats of a one-winner game: X's win share).
Win shares from one deal played in several arrangements are not independent
binary games, so the pair is not counted as deals x arrangements games: its
effective number of games is n_eff = p (1 - p) / var(p), var(p) the delta-method
variance of p from the paired per-deal values, so the binomial variance of the
fit equals what the duplicate deals showed (n_eff = plays when that variance
is zero). Every pair plays the same deals, so the pairs are not independent
either; the fit treats them as independent (an approximation, reported in the
method text).

``tables="mixed"`` seats distinct policies together, one per seat (per team in
a team game): every table of the design (all of them when few, else a cyclic
design that the output names; analyser.seatings) in each of its rotations. The
matrix is the share of plays in which the row policy finished above the column
policy, ties half, over the plays where both sat (analyser.stats.orders), and
the ratings are Plackett-Luce fitted by choix to the finishing orders (the
outcome block's ``rank``), ties entering as top-1 choices over the policies
strictly below, with intervals from a sandwich over deals
(analyser.stats.plackett_luce). A deal aborted in any rotation of a table is
dropped from that table.

Precision (``precision=H``): deals are added to every pair or table at once
(they stay common) until the widest half-width among the matrix cells is at
most H, or ``max_deals`` deals were played; the batches are those of compare.
"""
from __future__ import annotations

import html
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.comparison import (
    DEFAULT_MAX_DEALS,
    BatchLoop,
    _rows,
    _write,
    batch_plan,
    check_precision,
    stop_text,
)
from analyser.core.config import DEFAULT_CHUNK, MAX_INDEX, RunConfig, whole_number
from analyser.core.errors import Interrupted, UserError
from analyser.core.registry import plural
from analyser.results_file import read_results
from analyser.seatings import arrangements, is_team_game, seat_groups, table_design, table_seatings
from analyser.stats.intervals import Z95
from analyser.stats.orders import OrderTally
from analyser.stats.paired import play_values

KIND = "tournament"
WATCHED = "widest 95% interval (half-width) of the head-to-head matrix cells"
METHOD = ("Every pair of policies plays the same deals, each deal in every seat arrangement of the pair (as "
          "`compare`). M[X][Y] = mean over kept deals of x[d], x[d] = mean over the arrangements of the mean win "
          "share of X's seats; normal 95% interval over deals. Ratings: Bradley-Terry, binomial GLM (logit link, "
          "statsmodels), the reference rated 0; a pair's observed proportion p = M[X][Y] / (M[X][Y] + M[Y][X]) "
          "counts as n_eff = p(1 - p) / var(p) games (var(p) by the delta method from the paired per-deal "
          "values; win shares of one deal's arrangements are not independent games), plus half a win each side; "
          "the pairs share deals but are treated as independent (an approximation). Rating intervals: "
          "+-1.96 standard errors, relative to the reference. Elo = 400 / ln 10 * rating.")
METHOD_MIXED = ("Mixed tables: every table of distinct policies (one per seat, or per team) plays the same deals in "
                "each of its rotations. M[X][Y] = mean over deals of x[d], x[d] = the share of d's plays at kept "
                "tables holding X and Y in which X finished above Y (ties half); normal 95% interval over deals. "
                "Ratings: Plackett-Luce fitted by choix (ilsr_top1) to the finishing orders (outcome rank), the "
                "reference rated 0. Ties: each policy is a top-1 choice from itself and the policies that finished "
                "strictly below it; tied policies are not compared and last place gives no choice (exactly the PL "
                "stages without ties). One pseudo choice each way "
                "per pair that met keeps ratings finite. Rating intervals: +-1.96 robust standard errors, a "
                "sandwich of the observed information and the per-deal scores (all plays of a deal are one "
                "cluster). A deal aborted in any rotation of a table is dropped from that table. "
                "Elo = 400 / ln 10 * rating.")
TEAMS = ("Team game: each policy fills whole teams (partners play the same policy), so every comparison is one "
         "policy's team against another's and a rating is that of a team of one policy.")
CELLS = {("pairs", False): "the row policy's mean win share per seat against the column policy, paired 95% interval",
         ("pairs", True): "the row policy's team's win share against the column policy's team, paired 95% interval",
         ("mixed", False): "the share of plays the row policy finished above the column policy (ties half), "
                           "95% interval over deals",
         ("mixed", True): "the share of plays the row policy's team finished above the column policy's team "
                          "(ties half), 95% interval over deals"}
MIN_POLICIES = 2
SEATINGS = ("pairs", "mixed")

# per pair, over kept deals: sums of these per-deal values and products
VALUES = ("a", "b", "d", "sa", "sb", "sd")
PRODUCTS = ("aa", "bb", "ab", "dd", "sdsd")


@dataclass
class PairTally:
    """Sums over kept deals of each pair's per-deal values (arrangement means), exact in any chunking."""
    pairs: int
    arrangements: int
    units: np.ndarray = None          # deals played, per pair
    dropped: np.ndarray = None        # deals aborted in some arrangement, per pair
    sums: dict = None                 # name -> (pairs,)
    arr_sum: np.ndarray = None        # (pairs, K): sums of x[d, k] (win share difference) over kept deals
    arr_sq: np.ndarray = None

    def __post_init__(self):
        p, k = self.pairs, self.arrangements
        self.units = np.zeros(p, np.int64) if self.units is None else np.asarray(self.units, np.int64)
        self.dropped = np.zeros(p, np.int64) if self.dropped is None else np.asarray(self.dropped, np.int64)
        self.sums = {s: np.zeros(p) for s in VALUES + PRODUCTS} if self.sums is None else \
            {s: np.asarray(self.sums[s], float) for s in VALUES + PRODUCTS}
        self.arr_sum = np.zeros((p, k)) if self.arr_sum is None else np.asarray(self.arr_sum, float)
        self.arr_sq = np.zeros((p, k)) if self.arr_sq is None else np.asarray(self.arr_sq, float)

    def add(self, pair: int, plays: list[np.ndarray], a_seats: list, b_seats: list) -> None:
        aborted = np.zeros(plays[0].size, bool)
        for rec in plays:
            aborted |= rec["aborted"].astype(bool)
        keep = ~aborted
        per = [play_values(rec, a, b) for rec, a, b in zip(plays, a_seats, b_seats, strict=True)]
        mean = {name: np.mean([v[key] for v in per], axis=0)[keep] for name, key in
                (("a", "a_win"), ("b", "b_win"), ("d", "win_diff"), ("sa", "a_score"), ("sb", "b_score"),
                 ("sd", "score_diff"))}
        for name in VALUES:
            self.sums[name][pair] += mean[name].sum()
        for name, (x, y) in zip(PRODUCTS, (("a", "a"), ("b", "b"), ("a", "b"), ("d", "d"), ("sd", "sd")),
                                strict=True):
            self.sums[name][pair] += float(np.dot(mean[x], mean[y]))
        for k, v in enumerate(per):
            x = v["win_diff"][keep]
            self.arr_sum[pair, k] += x.sum()
            self.arr_sq[pair, k] += float(np.dot(x, x))
        self.units[pair] += plays[0].size
        self.dropped[pair] += int(aborted.sum())

    @property
    def kept(self) -> np.ndarray:
        return self.units - self.dropped

    def moments(self):
        """Per pair: means of the values and (co)variances of the per-deal values (NaN below two deals)."""
        n = self.kept.astype(float)
        safe = np.where(n > 0, n, np.nan)
        m = {s: self.sums[s] / safe for s in VALUES}
        d1 = np.where(n > 1, n - 1, np.nan)

        def cov(xy, x, y):
            return (self.sums[xy] - n * m[x] * m[y]) / d1

        c = {"aa": np.maximum(cov("aa", "a", "a"), 0), "bb": np.maximum(cov("bb", "b", "b"), 0),
             "ab": cov("ab", "a", "b"), "dd": np.maximum(cov("dd", "d", "d"), 0),
             "sdsd": np.maximum(cov("sdsd", "sd", "sd"), 0)}
        return n, m, c

    def widest_half_width(self, z: float = Z95) -> float:
        n, _, c = self.moments()
        half = z * np.sqrt(np.concatenate([c["aa"], c["bb"]]) / np.concatenate([n, n]))
        return float("nan") if np.isnan(half).any() else float(half.max())

    def state(self) -> dict:
        return {"units": self.units.tolist(), "dropped": self.dropped.tolist(),
                "sums": {s: v.tolist() for s, v in self.sums.items()}, "arr_sum": self.arr_sum.tolist(),
                "arr_sq": self.arr_sq.tolist()}

    @classmethod
    def from_state(cls, state: dict) -> PairTally:
        arr = np.asarray(state["arr_sum"], float)
        return cls(arr.shape[0], arr.shape[1], state["units"], state["dropped"], state["sums"], arr,
                   state["arr_sq"])


def pair_frame(tally: PairTally, pairs: list[tuple[str, str]], z: float = Z95) -> pd.DataFrame:
    """One row per pair (a, b): the compare summary numbers and the Bradley-Terry observation."""
    n, m, c = tally.moments()
    k = tally.arrangements

    def interval(mean, var, lo, hi):
        half = z * np.sqrt(var / n)
        return np.maximum(mean - half, lo), np.minimum(mean + half, hi), half

    a_lo, a_hi, _ = interval(m["a"], c["aa"], 0.0, 1.0)
    b_lo, b_hi, _ = interval(m["b"], c["bb"], 0.0, 1.0)
    d_lo, d_hi, d_half = interval(m["d"], c["dd"], -1.0, 1.0)
    s_lo, s_hi, _ = interval(m["sd"], c["sdsd"], -np.inf, np.inf)
    with np.errstate(invalid="ignore", divide="ignore"):
        arr_mean = tally.arr_sum / n[:, None]
        arr_var = np.maximum((tally.arr_sq - n[:, None] * arr_mean ** 2) / (n[:, None] - 1), 0)
        ind_half = z * np.sqrt(arr_var.mean(axis=1) / (n * k))
        reduction = (ind_half / d_half) ** 2
        total = m["a"] + m["b"]
        p = m["a"] / total
        grad_a, grad_b = m["b"] / total ** 2, -m["a"] / total ** 2
        var_p = (grad_a ** 2 * c["aa"] + 2 * grad_a * grad_b * c["ab"] + grad_b ** 2 * c["bb"]) / n
        plays = n * k
        n_eff = np.where((var_p > 0) & np.isfinite(var_p), p * (1 - p) / var_p, plays)
        n_eff = np.where(np.isfinite(n_eff) & (n_eff > 0), n_eff, plays)
    return pd.DataFrame({
        "a": [x for x, _ in pairs], "b": [y for _, y in pairs], "deals": tally.kept, "dropped": tally.dropped,
        "a_win_share": m["a"], "a_ci_low": a_lo, "a_ci_high": a_hi,
        "b_win_share": m["b"], "b_ci_low": b_lo, "b_ci_high": b_hi,
        "win_diff": m["d"], "ci_low": d_lo, "ci_high": d_hi, "half_width": d_half,
        "independent_half_width": ind_half, "variance_reduction": reduction,
        "score_diff": m["sd"], "score_ci_low": s_lo, "score_ci_high": s_hi,
        "a_part": p, "effective_games": n_eff})


@dataclass(eq=False)
class TournamentResult:
    """A round robin of policies on common deals (see the module docstring).

    matrix, ci_low, ci_high  policies x policies: pairs seating, the row policy's mean win share per seat
                             against the column policy, paired 95% interval; mixed tables, the share of plays
                             the row policy finished above the column policy (ties half); the diagonal NaN
    ratings                  rank, policy, rating (Bradley-Terry or Plackett-Luce strength, the reference 0), se,
                             ci_low, ci_high, elo, elo_ci_low, elo_ci_high
    pairs                    one row per pair (a, b): pairs seating, win shares, the paired win share difference
                             a - b with its interval, the independent-deals half-width, variance reduction, score
                             difference, the fit's observation (a_part) and effective games; mixed tables, the
                             deals and plays where both sat, the above shares, ties and half-width
    meta                     game, players, policies and params, seed, deals, settings, seating (arrangements or
                             tables), model, precision and stop reason, versions, timing
    """
    meta: dict
    tally: PairTally | OrderTally
    ratings: pd.DataFrame

    @property
    def policies(self) -> list[str]:
        return list(self.meta["policies"])

    @property
    def mixed(self) -> bool:
        return self.meta.get("seating") == "mixed"

    @property
    def pairs(self) -> pd.DataFrame:
        if self.mixed:
            return self.tally.pair_frame(self.policies)
        return pair_frame(self.tally, [tuple(p) for p in self.meta["pairs"]])

    def _square(self, low_high: str = "") -> pd.DataFrame:
        names = self.policies
        value = "above_share" if self.mixed else "win_share"
        a_col, b_col = (f"a_{low_high}", f"b_{low_high}") if low_high else (f"a_{value}", f"b_{value}")
        out = pd.DataFrame(np.nan, index=pd.Index(names, name="policy"), columns=pd.Index(names, name="against"))
        for row in self.pairs.to_dict("records"):
            out.loc[row["a"], row["b"]] = row[a_col]
            out.loc[row["b"], row["a"]] = row[b_col]
        return out

    @property
    def matrix(self) -> pd.DataFrame:
        return self._square()

    @property
    def ci_low(self) -> pd.DataFrame:
        return self._square("ci_low")

    @property
    def ci_high(self) -> pd.DataFrame:
        return self._square("ci_high")

    def head_to_head(self) -> pd.DataFrame:
        """The matrix in long form: policy, against, win_share (mixed tables: above_share), ci_low, ci_high."""
        value = "above_share" if self.mixed else "win_share"
        frames = [f.stack().rename(name) for f, name in ((self.matrix, value), (self.ci_low, "ci_low"),
                                                         (self.ci_high, "ci_high"))]
        long = pd.concat(frames, axis=1).reset_index()
        return long[long["policy"] != long["against"]].reset_index(drop=True)

    def plot(self):
        """The head-to-head heat map: each cell the row policy's result against the column's, its interval."""
        from analyser.plots.figures import head_to_head

        return head_to_head(self.matrix, self.ci_low, self.ci_high, self.meta)

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m.get(k) for k in ("kind", "game", "unit", "players", "deals", "first_deal", "seed", "settings",
                                     "outcome", "policies", "params", "fair_share", "seating", "cell",
                                     "arrangements", "tables")}
        out.update(head_to_head=_rows(self.head_to_head()), ratings=_rows(self.ratings), model=m["model"],
                   pairs=_rows(self.pairs), precision=m.get("precision"), stop=m["stop"], stopped=m["stopped"],
                   method=m["method"], seconds=m.get("seconds"), plays_per_second=m.get("plays_per_second"),
                   versions=m["versions"])
        return out

    def save(self, path: str | Path) -> Path:
        """Write the pairs table (mixed tables: one row per play) with the metadata and the ratings
        (see load_tournament)."""
        path = Path(path)
        meta = {**self.meta, "ratings": _rows(self.ratings)}
        if self.mixed:
            _write(path, self.tally.frame(), meta)
        else:
            _write(path, self.pairs, {**meta, "tournament_state": self.tally.state()})
        return path

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<TournamentResult {m['game']}: {len(self.policies)} policies, {design_text(m)}, "
                 f"{m['players']} players, seed {m['seed']}>",
                 f"  ratings ({m['model']['name']}, reference: {m['model']['reference']}):"]
        for r in self.ratings.to_dict("records"):
            lines.append(f"    {r['rank']}. {r['policy']}: {r['rating']:+.3f} [{r['ci_low']:+.3f}, "
                         f"{r['ci_high']:+.3f}], Elo {r['elo']:+.0f}")
        lines += [f"  {m['stopped']}", "  .matrix .ci_low .ci_high .ratings .pairs .meta .plot() .save(path) "
                  ".to_dict()"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        head = (f"<p><b>{html.escape(m['game'])}</b>: {len(self.policies)} policies, {m['players']} players, "
                f"{html.escape(design_text(m))}, seed {m['seed']}; {html.escape(m['stopped'])}</p>")
        cells = self.matrix.map(lambda v: "" if not np.isfinite(v) else f"{100 * v:.1f}%")
        model = f"<p>{html.escape(m['model']['name'])}, reference: {html.escape(m['model']['reference'])}</p>"
        return (head + cells.to_html() + model
                + self.ratings.to_html(index=False, float_format=lambda x: f"{x:.3f}"))


def design_text(meta: dict) -> str:
    """``4,000 games per pair x 8 arrangements (rotations of ABBB and BAAA)`` or the mixed tables' equivalent."""
    units = plural(meta["unit"])
    if meta.get("seating") == "mixed":
        t = meta["tables"]
        return f"{meta['deals']:,} {units} x {t['count']} tables x {t['rotations']} rotations ({t['design']})"
    arr = meta["arrangements"]
    return f"{meta['deals']:,} {units} per pair x {arr['count']} arrangements ({arr['name']})"


def tournament(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
               seed: int = 0, rules: dict | None = None, threads: int | None = None,
               precision: float | None = None, max_deals: int = DEFAULT_MAX_DEALS, first_deal: int = 0,
               unit: str | None = None, out=None, progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK,
               n: int | None = None, tables: str = "pairs") -> TournamentResult:
    """Play ``policies`` against each other on the same duplicate deals; a head-to-head matrix and ratings.

    tables: "pairs" (every pair in compare's arrangements; Bradley-Terry) or "mixed" (tables of
    distinct policies, one per seat or team, in every rotation; Plackett-Luce on the finishing orders).
    deals (or n): deals per pair or table, each played in every arrangement (default 10,000); with
    ``precision`` the first batch (default 1,000), after which batches are added everywhere until the
    widest matrix cell's 95% half-width is at most ``precision`` or ``max_deals`` deals were played.
    The first policy is the ratings' reference. out: also write a Parquet file.
    """
    from analyser.core.progress import in_notebook, preparing
    from analyser.core.runner import ChunkRunner, set_threads

    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of deals once (n={n!r}, deals={deals!r})")
    count = n if n is not None else deals
    precision = check_precision(precision)
    if tables not in SEATINGS:
        raise UserError(f"tables is {' or '.join(SEATINGS)}, not {tables!r}")
    if not isinstance(policies, (list, tuple)) or len(policies) < MIN_POLICIES:
        got = 0 if policies is None else len(policies) if isinstance(policies, (list, tuple)) else 1
        raise UserError(f"a tournament needs at least {MIN_POLICIES} policies, not {got}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise UserError(f"chunk size must be a whole number of at least 1, not {chunk_size!r}")
    if progress is None:
        progress = in_notebook()
    singles = [RunConfig.build(game, players, p, 1, seed, rules, 0, None, unit) for p in policies]
    base = singles[0]
    labels = [c.seats[0].label() for c in singles]
    seen = set()
    for label in labels:
        if label in seen:
            raise UserError(f"policy {label} is given twice; give each policy once")
        seen.add(label)
    unit_name = base.game.unit
    count, cap = batch_plan(count, precision, max_deals, unit_name)
    first_deal = whole_number(first_deal, f"the first {unit_name}", 0, MAX_INDEX - cap + 1)
    teams = base.game.team_of(base.players)
    plan = (_pairs_plan if tables == "pairs" else _mixed_plan)(labels, base.players, teams)
    configs = [[RunConfig.build(game, base.players, [policies[i] for i in who], cap, seed, rules, first_deal, ids,
                                unit) for who, ids in row] for row in plan.rows]
    threads = set_threads(threads)
    meta = _metadata(base, singles, labels, plan, precision, cap)
    if out is not None:
        from analyser.results_file import check_target

        check_target(Path(out))
    with preparing(progress):
        runners = [[ChunkRunner(c) for c in row] for row in configs]
    t_start = time.perf_counter()
    loop = BatchLoop(count, precision, cap, first_deal, chunk_size, sum(len(row) for row in runners),
                     f"{base.game.name} x{base.players}, {plan.label}", progress)

    def add(start, size, plays):
        for p, row in enumerate(plays):
            plan.add(p, np.arange(start, start + size, dtype=np.int64), row)

    try:
        stop = loop.run(lambda start, size: [[runner.run(start, size) for runner in row] for row in runners],
                        add, plan.widest)
    except KeyboardInterrupt:
        kept = "; no file was written" if out is not None else ""
        raise Interrupted(f"interrupted after {loop.done:,} {plural(unit_name)} per {plan.per}{kept}") from None
    seconds = time.perf_counter() - t_start
    plays = loop.done * loop.plays_per_deal
    meta.update(deals=loop.done, stop=stop, stopped=stop_text(stop, unit_name), batches=loop.batches,
                threads=threads, seconds=seconds, simulation_seconds=loop.simulation_seconds, plays=plays,
                plays_per_second=plays / seconds if seconds > 0 else None)
    fit = plan.fit()
    meta["model"] = {"name": fit.model, "reference": fit.reference, "text": fit.describe(), **fit.info()}
    result = TournamentResult(meta, plan.tally, fit.table)
    if out is not None:
        result.save(out)
    return result


@dataclass
class Plan:
    """One seating: the runs (rows of (policy index per seat, stream ids)), the tally they feed, how a
    batch is added and watched, the fit, and the metadata that names it."""
    rows: list
    tally: PairTally | OrderTally
    add: Callable
    widest: Callable[[], float]
    fit: Callable
    label: str
    per: str
    meta: dict


def _pairs_plan(labels: list[str], players: int, teams) -> Plan:
    seats, streams, name = arrangements(players, teams)
    pair_index = list(combinations(range(len(labels)), 2))
    rows = [[([i if c == "A" else j for c in s], st) for s, st in zip(seats, streams, strict=True)]
            for i, j in pair_index]
    a_seats = [[i for i, c in enumerate(s) if c == "A"] for s in seats]
    b_seats = [[i for i, c in enumerate(s) if c == "B"] for s in seats]
    tally = PairTally(len(pair_index), len(seats))

    def fit():
        from analyser.stats.ratings import bradley_terry

        frame = pair_frame(tally, [(labels[i], labels[j]) for i, j in pair_index])
        return bradley_terry(labels, frame["a"], frame["b"], frame["a_part"] * frame["effective_games"],
                             (1 - frame["a_part"]) * frame["effective_games"], reference=labels[0])

    meta = {"method": METHOD,
            "arrangements": {"count": len(seats), "name": name, "seats": list(seats),
                             "streams": [list(s) for s in streams], "applies_to": "every pair (A, B)"}}
    return Plan(rows, tally, lambda p, deals, plays: tally.add(p, plays, a_seats, b_seats), tally.widest_half_width,
                fit, f"{len(pair_index)} pairs x {len(seats)} arrangements", "pair", meta)


def _mixed_plan(labels: list[str], players: int, teams) -> Plan:
    groups = seat_groups(teams)
    size, what = len(groups), "team" if is_team_game(groups) else "seat"
    if len(labels) < size:
        raise UserError(f"mixed tables at {players} players need at least {size} policies (one per {what}), "
                        f"not {len(labels)}")
    design, name = table_design(len(labels), size)
    rows = table_seatings(design, groups)
    slot_seats = [[[who.index(p) for p in table] for who, _ in row] for table, row in zip(design, rows, strict=True)]
    tally = OrderTally(design, size)

    def fit():
        from analyser.stats.plackett_luce import plackett_luce

        return plackett_luce(labels, *tally.choices(), reference=labels[0])

    meta = {"method": METHOD_MIXED, "fair_share": 0.5,
            "tables": {"count": len(design), "design": name, "rotations": size,
                       "members": [[labels[i] for i in t] for t in design],
                       "seats": [[who for who, _ in row] for row in rows],
                       "streams": [[ids for _, ids in row] for row in rows]}}
    return Plan(rows, tally, lambda p, deals, plays: tally.add(p, deals, plays, slot_seats[p]),
                lambda: tally.widest_half_width(labels), fit,
                f"{len(design)} tables x {size} rotations", "table", meta)


def _metadata(base: RunConfig, singles, labels, plan: Plan, precision, cap) -> dict:
    info = base.metadata()
    groups = seat_groups(base.game.team_of(base.players))
    meta = {"kind": KIND, "game": info["game"], "unit": info["unit"], "players": base.players, "deals": 0,
            "first_deal": info["first_deal"], "seed": info["seed"], "settings": info["settings"],
            "outcome": base.game.outcome, "policies": labels,
            "params": [c.seats[0].values for c in singles],
            "fair_share": base.game.win_total(base.players) / base.players,
            "seating": "mixed" if isinstance(plan.tally, OrderTally) else "pairs",
            "pairs": [[labels[i], labels[j]] for i, j in combinations(range(len(labels)), 2)],
            "precision": None if precision is None else {"target": precision, "applies_to": WATCHED,
                                                         "max_deals": cap},
            "confidence": 0.95, "z": Z95, "versions": _versions(info["versions"]), **plan.meta}
    meta["cell"] = CELLS[meta["seating"], is_team_game(groups)]
    if is_team_game(groups):
        meta["method"] += " " + TEAMS
    return meta


def _versions(versions: dict) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = dict(versions)
    for package in ("statsmodels", "choix"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            pass
    return out


def load_tournament(path: str | Path) -> TournamentResult:
    """Read a file written by ``tournament(..., out=...)`` / ``TournamentResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a tournament (written by `analyser tournament --out`)")
    try:
        ratings = pd.DataFrame(meta.pop("ratings"))
        if meta.get("seating") == "mixed":
            t = meta["tables"]
            tally = OrderTally.from_frame(frame, [[meta["policies"].index(x) for x in m] for m in t["members"]],
                                          t["rotations"])
        else:
            tally = PairTally.from_state(meta.pop("tournament_state"))
    except (ValueError, KeyError, TypeError) as err:
        if isinstance(err, UserError):
            raise
        raise UserError(f"{path} has damaged tournament metadata ({type(err).__name__}: {err})") from None
    return TournamentResult(meta, tally, ratings)
