"""A round robin of policies on common deals: a head-to-head matrix, its equilibrium, and ratings.

Two seatings (``tables=``, analyser.analyses.tournament_seatings), every one on the same deals: first_deal ..
first_deal + n - 1 of the same seed, the stream ids moving with the policy
instances (analyser.analyses.seatings).

``tables="pairs"`` (the default) plays every unordered pair of the policies as
``compare`` plays two (analyser.analyses.compare): every deal in each arrangement of
the pair (2 seats: AB and BA; n seats: the rotations of A B..B and B A..A; a
team game: A on every seat of one team, B on the other, then swapped).

Head-to-head matrix: M[X][Y] is X's mean win share per seat against Y, paired
by deal: for deal d, x[d] = the mean over the pair's arrangements of the mean
win share of X's seats (through intervals.exact, so float residues cannot pose
as effects), and M[X][Y] = mean of x[d] over the kept deals, with the
effective-n Wilson 95% interval over deals (intervals.mean_ci). The diagonal
is empty. A deal aborted in any arrangement of a pair is dropped from that
pair. At 2 seats of a game with one winner (Palace), M[X][Y] + M[Y][X] = 1
unless a deal is drawn; at more seats the fair share is win_total / players
(Palace: 3/4 at 4 players) and the two cells need not add up to anything. In a
team game every seat of a team plays one policy, so M[X][Y] is X's team's win
share against Y's team (fair share 1/2 with two teams) and a rating is that of
a team of X's. The pair's win share difference goes through
intervals.differences_ci (Tango's score interval on the deals where the pair's
results differ): an exact tie, 0 [0, 0], only for one policy under two names
that gave 0 on every deal; 0 on every deal otherwise is "played identically",
with the interval of the deals not seen.

One policy under two names: a pair that is the same function with the same
parameters (games.policy_specs.same_policy), or that played identically (every per-
deal value of one equals the other's, against each other and against every
other policy), is named first in the output (``same``). Those that played
identically get one rating (ratings.RatingFit.adjusted) and equal weights in
the equilibrium.

Equilibrium (analyser.stats.nash): Nash averaging over A = (M - M^T) / 2, the
maximum-entropy equilibrium mix and each policy's value against it, with
intervals from a bootstrap over deals.

Ratings (analyser.stats.ratings): Bradley-Terry fitted as a binomial GLM by
statsmodels, the first policy the reference (rating 0). For a pair (X, Y) the
observed proportion is p = M[X][Y] / (M[X][Y] + M[Y][X]), X's part of the
pair's per-seat win shares, counted as n_eff = p (1 - p) / var(p) games (var(p)
by the delta method from the paired per-deal values; at most the pair's plays,
and the plays when var(p) is 0), so the binomial variance of each pair is what
its duplicate deals showed. All pairs play the same deals, so the rating
errors are a sandwich clustered by deal (each deal's influence on every
pair's p at once), with a variance floor: a pair whose p did not vary over
its n deals (one side won every time) counts var(p) = 1 / n^2, so that it
does not give a zero-width interval. (A floor for every pair would be far too
wide here: averaged over 8 arrangements a 4-player pair's p varies by
var(p) ~ 1e-6 at 200 deals, well below 1 / n^2.) Fit quality: a GLS chi2 test of the
pairwise logits that allows for the pairs' shared deals (ratings.misfit_chi2,
ratings.fit_quality); when the model does not fit, the output says so (the
results are not transitive: a misfit of the mean, not noise) and the rating
intervals keep their width.

``tables="mixed"`` seats distinct policies together, one per seat (per team in
a team game): every table of the design (all of them when few, else a cyclic
design that the output names; analyser.analyses.seatings) in neighbour-balanced cyclic
orders, each in every rotation. The matrix is the share of plays in which the
row policy finished above the column policy, ties half, over the plays where
both sat (analyser.stats.orders), and the ratings are Plackett-Luce fitted by
choix to the finishing orders (the outcome block's ``rank``), ties entering as
top-1 choices over the policies strictly below, with intervals from a
sandwich over deals (analyser.stats.plackett_luce); its fit quality compares
the same test on the pairwise shares of the untied plays (ratings.misfit_chi2). A
deal aborted in any seating of a table is dropped from that table.

Aborted deals: a cell is over the deals its pair (table) completed, which
flatters a policy whose worst deals loop to the cap; every pair row also has
the bounds over all deals (stats.paired.abort_bounds; pairs: every aborted play
lost by a, then won by a; mixed: a below b, then above), printed for each pair
whose deals aborted more than 1% of the time. A pair with fewer than two
completed deals is an error (TooFewCompleted), not a failed fit.

Precision (``precision=H``): deals are added to every pair or table at once
(they stay common) until the Chow-Robbins half-width (intervals.stop_half_width)
of the widest matrix cell is at most H, or ``max_deals`` deals were played;
the batches are those of compare.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.aborts import bounds_text, require_completed
from analyser.analyses.seatings import is_team_game, seat_groups
from analyser.analyses.tournament_seatings import SEATINGS, Seating
from analyser.engine.config import DEFAULT_CHUNK, RunConfig, whole_number
from analyser.engine.pipeline import Gather, Plan, execute, run_meta
from analyser.engine.play_args import play_args
from analyser.engine.stopping import DEFAULT_MAX_COUNT, stop_text
from analyser.errors import UserError
from analyser.games.policy_specs import same_policy
from analyser.io.jsonable import rows
from analyser.io.numbers import percent, plural
from analyser.io.results_file import read_results, write_frame
from analyser.stats.intervals import Z95, exact
from analyser.stats.nash import DEFAULT_BOOTSTRAP, nash_table
from analyser.stats.nash import METHOD as NASH
from analyser.stats.orders import OrderTally
from analyser.stats.pairs import PairTally, pair_frame
from analyser.stats.ratings import fit_quality

KIND = "tournament"
WATCHED = "the Chow-Robbins half-width z sqrt((s^2 + 1/n) / n) of the widest head-to-head matrix cell"
FIT = ("Fit quality: a GLS chi2 test of the pairwise logits against one strength per policy, its covariance "
       "clustered by deal (the pairs share deals); the model does not fit when chi2 / df exceeds 1.5 and the test "
       "rejects at 1%: the results are then not transitive, the ratings are their best transitive summary (their "
       "intervals keep their width) and the head-to-head matrix and equilibrium are the results to read. "
       "Policies that played identically on every deal get one rating and equal weights.")
TEAMS = ("Team game: each policy fills whole teams (partners play the same policy), so every comparison is one "
         "policy's team against another's and a rating is that of a team of one policy.")
CELLS = {("pairs", False): "the row policy's mean win share per seat against the column policy, paired 95% interval",
         ("pairs", True): "the row policy's team's win share against the column policy's team, paired 95% interval",
         ("mixed", False): "the share of plays the row policy finished above the column policy (ties half), "
                           "95% interval over deals",
         ("mixed", True): "the share of plays the row policy's team finished above the column policy's team "
                          "(ties half), 95% interval over deals"}
MIN_POLICIES = 2
MAX_BOOTSTRAP = 100_000
SAME_TEXT = {(True, True): "are one policy under two names (the same function and parameters) and played identically "
                           "on every deal: one rating, an exact tie",
             (True, False): "are one policy under two names (the same function and parameters); they differ only by "
                            "their random draws",
             (False, True): "played identically on every deal (the same results against each other and every "
                            "other policy, which these deals show but do not prove): one rating, as far as these "
                            "deals show"}

NASH_STREAM = 16                                      # the bootstrap's seed is (run seed, NASH_STREAM)


@dataclass(eq=False)
class TournamentResult:
    """A round robin of policies on common deals (see the module docstring).

    matrix, ci_low, ci_high  policies x policies: pairs seating, the row policy's mean win share per seat
                             against the column policy, paired 95% interval; mixed tables, the share of plays
                             the row policy finished above the column policy (ties half); the diagonal NaN
    equilibrium              the meta-game (analyser.stats.nash): policy, weight, weight_ci_low, weight_ci_high,
                             value, value_ci_low, value_ci_high (bootstrap over deals)
    ratings                  rank, policy, rating (Bradley-Terry or Plackett-Luce strength, the reference 0), se,
                             ci_low, ci_high, elo, elo_ci_low, elo_ci_high
    fit                      model, dispersion (misfit chi2 / df: ratings.misfit_chi2), df, pvalue, fits, warning
    same                     [name, name] pairs that are one policy under two names or played identically
    pairs                    one row per pair (a, b): pairs seating, win shares, the paired win share difference
                             a - b with its interval, the independent-deals half-width, variance reduction, score
                             difference, the fit's observation (a_part) and effective games, tie; mixed tables,
                             the deals and plays where both sat, the above shares, ties, half-width, tie
    meta                     game, players, policies and params, seed, deals, settings, seating (arrangements or
                             tables), model, fit, same, precision and stop reason, versions, timing
    """
    meta: dict
    tally: PairTally | OrderTally
    ratings: pd.DataFrame
    equilibrium: pd.DataFrame

    @property
    def policies(self) -> list[str]:
        return list(self.meta["policies"])

    @property
    def mixed(self) -> bool:
        return self.meta.get("seating") == "mixed"

    @property
    def fit(self) -> dict:
        return self.meta["fit"]

    @property
    def same(self) -> list[list[str]]:
        return [list(p) for p in self.meta["same"]]

    @property
    def pairs(self) -> pd.DataFrame:
        proven = self.meta.get("one_policy", ())
        if self.mixed:
            return self.tally.pair_frame(self.policies, proven=proven)
        return pair_frame(self.tally, [tuple(p) for p in self.meta["pairs"]], proven=proven)

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
        """The head-to-head heat map (each cell the row policy's result against the column's, its interval)
        beside the equilibrium's weights."""
        from analyser.plots.tournament import head_to_head

        return head_to_head(self.matrix, self.ci_low, self.ci_high, self.meta, self.equilibrium)

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m.get(k) for k in ("kind", "game", "unit", "players", "deals", "first_deal", "seed", "settings",
                                     "outcome", "policies", "params", "fair_share", "seating", "cell",
                                     "arrangements", "tables")}
        out.update(answer=self.answer(), same=self.same, same_text=m["same_text"], fit=self.fit,
                   head_to_head=rows(self.head_to_head()),
                   equilibrium=rows(self.equilibrium), ratings=rows(self.ratings), model=m["model"],
                   pairs=rows(self.pairs), aborts=self.aborts(), precision=m.get("precision"), stop=m["stop"],
                   stopped=m["stopped"], method=m["method"], seconds=m.get("seconds"),
                   plays_per_second=m.get("plays_per_second"), versions=m["versions"])
        return out

    def save(self, path: str | Path) -> Path:
        """Write the per-deal values (pairs seating: one row per pair and deal; mixed tables: one row per play)
        with the metadata, the ratings and the equilibrium (see load_tournament)."""
        path = Path(path)
        meta = {**self.meta, "ratings": rows(self.ratings), "equilibrium": rows(self.equilibrium)}
        if not self.mixed:
            meta["tournament_state"] = self.tally.state()
        write_frame(path, self.tally.frame(), meta)
        return path

    def aborts(self) -> list[str]:
        """One line per pair whose deals aborted more than 1% of the time: its bounds over all deals."""
        unit, out = self.meta["unit"], []
        pairs = list(combinations(self.policies, 2)) if self.mixed else [tuple(p) for p in self.meta["pairs"]]
        bounds = self.tally.bounds(len(self.policies)) if self.mixed else \
            [self.tally.bounds(p) for p in range(len(pairs))]
        for (a, b), bound in zip(pairs, bounds, strict=True):
            line = (bounds_text(bound, unit, a, f"{a}'s share above {b}", " at some table holding both", percent)
                    if self.mixed else bounds_text(bound, unit, a, f"{a} - {b}", " in some arrangement of the pair"))
            out += [line] if line else []
        return out

    def answer(self) -> str:
        """Which policy to play, in one line (analyses.tournament_answer)."""
        from analyser.analyses.tournament_answer import answer

        return answer(self)

    def summary_lines(self) -> list[str]:
        """What to read first: policies that are one, whether one rating per policy fits, and the bounds of
        the pairs whose deals aborted more than 1% of the time."""
        return [*self.meta["same_text"], *([self.fit["warning"]] if self.fit.get("warning") else []),
                *self.aborts()]

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<TournamentResult {m['game']}: {len(self.policies)} policies, {design_text(m)}, "
                 f"{m['players']} players, seed {m['seed']}>", f"  {self.answer()}",
                 *[f"  {line}" for line in self.summary_lines()],
                 "  equilibrium (Nash averaging, 95% bootstrap intervals):"]
        for r in self.equilibrium.to_dict("records"):
            lines.append(f"    {r['policy']}: weight {r['weight']:.3f} [{r['weight_ci_low']:.3f}, "
                         f"{r['weight_ci_high']:.3f}], value {r['value']:+.4f} [{r['value_ci_low']:+.4f}, "
                         f"{r['value_ci_high']:+.4f}]")
        lines.append(f"  ratings ({m['model']['name']}, reference: {m['model']['reference']}"
                     f"{'' if self.fit['fits'] else '; the model does not fit'}):")
        for r in self.ratings.to_dict("records"):
            lines.append(f"    {r['rank']}. {r['policy']}: {r['rating']:+.3f} [{r['ci_low']:+.3f}, "
                         f"{r['ci_high']:+.3f}], Elo {r['elo']:+.0f}")
        lines += [f"  {m['stopped']}", "  .matrix .ci_low .ci_high .equilibrium .ratings .fit .same .pairs .meta "
                  ".plot() .save(path) .to_dict()"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        head = (f"<p><b>{html.escape(m['game'])}</b>: {len(self.policies)} policies, {m['players']} players, "
                f"{html.escape(design_text(m))}, seed {m['seed']}; {html.escape(m['stopped'])}</p>")
        notes = "".join(f"<p><b>{html.escape(line)}</b></p>" for line in [self.answer(), *self.summary_lines()])
        cells = self.matrix.map(lambda v: "" if not np.isfinite(v) else f"{100 * v:.1f}%")
        model = f"<p>{html.escape(m['model']['name'])}, reference: {html.escape(m['model']['reference'])}</p>"
        return (head + notes + cells.to_html() + "<p>Equilibrium (Nash averaging)</p>"
                + self.equilibrium.to_html(index=False, float_format=lambda x: f"{x:.3f}") + model
                + self.ratings.to_html(index=False, float_format=lambda x: f"{x:.3f}"))


def design_text(meta: dict) -> str:
    """``4,000 games per pair x 8 arrangements (rotations of ABBB and BAAA)`` or the mixed tables' equivalent."""
    units = plural(meta["unit"])
    if meta.get("seating") == "mixed":
        t = meta["tables"]
        return f"{meta['deals']:,} {units} x {t['count']} tables x {t['rotations']} seatings ({t['design']})"
    arr = meta["arrangements"]
    return f"{meta['deals']:,} {units} per pair x {arr['count']} arrangements ({arr['name']})"


def tournament(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
               seed: int = 0, rules: dict | None = None, threads: int | None = None,
               precision: float | None = None, max_deals: int = DEFAULT_MAX_COUNT, first_deal: int = 0,
               unit: str | None = None, out=None, progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK,
               n: int | None = None, tables: str = "pairs", bootstrap: int = DEFAULT_BOOTSTRAP, backend=None,
               run_dir=None) -> TournamentResult:
    """Play ``policies`` against each other on the same duplicate deals: a head-to-head matrix, the
    meta-game's equilibrium and ratings.

    tables: "pairs" (every pair in compare's arrangements; Bradley-Terry) or "mixed" (tables of
    distinct policies, one per seat or team, in neighbour-balanced orders and every rotation;
    Plackett-Luce on the finishing orders).
    deals (or n): deals per pair or table, each played in every arrangement (default 10,000); with
    ``precision`` the first batch (default 1,000), after which batches are added everywhere until the
    widest matrix cell's 95% half-width is at most ``precision`` or ``max_deals`` deals were played.
    bootstrap: replicates of the bootstrap over deals for the equilibrium's intervals (0: none).
    The first policy is the ratings' reference. out: also write a Parquet file.
    backend, run_dir: as simulate's.
    """
    if tables not in SEATINGS:
        raise UserError(f"tables is {' or '.join(SEATINGS)}, not {tables!r}")
    if not isinstance(policies, (list, tuple)) or len(policies) < MIN_POLICIES:
        got = 0 if policies is None else len(policies) if isinstance(policies, (list, tuple)) else 1
        raise UserError(f"a tournament needs at least {MIN_POLICIES} policies, not {got}")
    args = play_args(game, players, policies[0], seed, rules, unit, n=n, deals=deals, precision=precision,
                     max_deals=max_deals, first_deal=first_deal, chunk_size=chunk_size, backend=backend,
                     run_dir=run_dir)
    bootstrap = whole_number(bootstrap, "the bootstrap replicates", 0, MAX_BOOTSTRAP)
    base = args.base
    singles = [base] + [RunConfig.build(game, players=players, policies=p, deals=1, seed=seed, rules=rules, unit=unit)
                        for p in policies[1:]]
    labels = [c.seats[0].label() for c in singles]
    seen = set()
    for label in labels:
        if label in seen:
            raise UserError(f"policy {label} is given twice; give each policy once")
        seen.add(label)
    teams = base.game.team_of(base.players)
    seating = SEATINGS[tables](labels, base.players, teams)
    configs = [[RunConfig.build(game, players=base.players, policies=[policies[i] for i in who], deals=args.cap,
                                seed=seed, rules=rules, first_deal=args.first_deal, streams=ids, unit=unit)
                for who, ids in row] for row in seating.rows]
    meta = _metadata(base, singles, labels, seating, args.precision, args.cap)
    sizes = [len(row) for row in configs]
    plan = Plan.of([c for row in configs for c in row], args.count, args.chunk_size,
                   f"{base.game.name} x{base.players}, {seating.label}", per=seating.per)
    def widest():         # a precision target that can never be met stops at once, not at max_deals
        require_pairs(seating.cells(), labels, meta["unit"])
        return seating.widest()

    stop = args.stop_rule(widest)

    def add(chunk, plays):
        deal_index = np.arange(chunk.start, chunk.start + chunk.count, dtype=np.int64)
        at = 0
        for p, size in enumerate(sizes):
            seating.add(p, deal_index, plays[at: at + size])
            at += size

    run = execute(plan, Gather(add, out), stop, threads=threads, progress=progress, **args.where)
    meta.update(run_meta(run, stop), stopped=stop_text(run.stop, args.unit))
    result = conclude(meta, seating, labels, [c.seats[0] for c in singles], bootstrap)
    if out is not None:
        result.save(out)
    return result


def conclude(meta: dict, seating: Seating, labels: list[str], seats: list, bootstrap: int) -> TournamentResult:
    """From the tally: the policies that are one, the fit and its quality, the ratings and the equilibrium."""
    cells = seating.cells()
    require_pairs(cells, labels, meta["unit"])
    same, groups, notes = same_policies(labels, seats, cells)
    fit, chi2, df = seating.fit()
    quality = fit_quality(fit.model, chi2, df)
    k = len(labels)
    pair_index = list(combinations(range(k), 2))
    one = {frozenset((labels[i], labels[j])) for i, j in pair_index if same_policy(seats[i], seats[j])}
    proven = [g for g in groups if all(frozenset(p) in one for p in combinations(g, 2))]
    fit = fit.adjusted(groups, proven)
    equilibrium = nash_table(labels, exact((cells[0] - cells[1]) / 2), pair_index, [int(meta["seed"]), NASH_STREAM],
                             bootstrap)
    one_policy = [[labels[i], labels[j]] for i, j in pair_index if frozenset((labels[i], labels[j])) in one]
    meta.update(same=same, one_policy=one_policy, same_text=notes, fit=quality,
                equilibrium_method=NASH.format(b=bootstrap),
                bootstrap=bootstrap, model={"name": fit.model, "reference": fit.reference, "text": fit.describe(),
                                            **fit.info()})
    meta["method"] += " " + meta["equilibrium_method"] + " " + FIT
    return TournamentResult(meta, seating.tally, fit.table, equilibrium)


def require_pairs(cells: tuple[np.ndarray, np.ndarray], labels: list[str], unit: str) -> None:
    """TooFewCompleted for the pair with the fewest completed deals when it has fewer than two."""
    kept = np.isfinite(cells[0]).sum(axis=0)          # per pair: deals with a completed value
    if kept.size and kept.min() < 2:
        a, b = list(combinations(labels, 2))[int(np.argmin(kept))]
        require_completed(int(kept.min()), int(cells[0].shape[0]), unit, f"the head-to-head of {a} and {b}")


def same_policies(labels: list[str], seats: list, cells: tuple[np.ndarray, np.ndarray]):
    """``(same, groups, notes)``: the [name, name] pairs that are one policy under two names (same function and
    parameters) or played identically (every per-deal value of one equals the other's, against each other and
    against every other policy); the groups of those that played identically; one line per pair."""
    k = len(labels)
    index = {pair: c for c, pair in enumerate(combinations(range(k), 2))}

    def side(i, j):
        return cells[0][:, index[i, j]] if i < j else cells[1][:, index[j, i]]

    def identical(i, j):
        return np.isfinite(side(i, j)).any() and all(np.array_equal(side(i, x), side(j, x), equal_nan=True)
                                                     for x in range(k) if x not in (i, j)) \
            and np.array_equal(side(i, j), side(j, i), equal_nan=True)

    same, notes, group_of = [], [], list(range(k))
    for i, j in combinations(range(k), 2):
        one, played = same_policy(seats[i], seats[j]), identical(i, j)
        if not (one or played):
            continue
        same.append([labels[i], labels[j]])
        if played:
            old = group_of[j]
            group_of = [group_of[i] if g == old else g for g in group_of]
        notes.append(f"{labels[i]} and {labels[j]} " + SAME_TEXT[one, played])
    groups = [[labels[i] for i in range(k) if group_of[i] == g] for g in sorted(set(group_of))]
    return same, [g for g in groups if len(g) > 1], notes


def _metadata(base: RunConfig, singles, labels, seating: Seating, precision, cap) -> dict:
    info = base.metadata()
    groups = seat_groups(base.game.team_of(base.players))
    meta = {"kind": KIND, "game": info["game"], "unit": info["unit"], "players": base.players, "deals": 0,
            "first_deal": info["first_deal"], "seed": info["seed"], "settings": info["settings"],
            "outcome": base.game.outcome, "policies": labels,
            "params": [c.seats[0].values for c in singles],
            "fair_share": base.game.win_total(base.players) / base.players,
            "seating": "mixed" if isinstance(seating.tally, OrderTally) else "pairs",
            "pairs": [[labels[i], labels[j]] for i, j in combinations(range(len(labels)), 2)],
            "precision": None if precision is None else {"target": precision, "applies_to": WATCHED,
                                                         "max_deals": cap},
            "confidence": 0.95, "z": Z95, "versions": _versions(info["versions"]), **seating.meta}
    meta["cell"] = CELLS[meta["seating"], is_team_game(groups)]
    if is_team_game(groups):
        meta["method"] += " " + TEAMS
    return meta


def _versions(versions: dict) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = dict(versions)
    for package in ("statsmodels", "choix", "scipy"):
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
        equilibrium = pd.DataFrame(meta.pop("equilibrium"))
        if meta.get("seating") == "mixed":
            t = meta["tables"]
            tally = OrderTally.from_frame(frame, [[meta["policies"].index(x) for x in m] for m in t["members"]],
                                          t["rotations"])
        else:
            tally = PairTally.from_frame(frame, meta.pop("tournament_state"))
    except (ValueError, KeyError, TypeError) as err:
        if isinstance(err, UserError):
            raise
        raise UserError(f"{path} has damaged tournament metadata ({type(err).__name__}: {err})") from None
    return TournamentResult(meta, tally, ratings, equilibrium)
