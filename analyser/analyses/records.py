"""Simulation results: the object the API returns, and reading a results file back.

A results file (written by analyser.io.results_file.RecordWriter) holds one row per
unit (per-seat fields flattened to ``rank_0, rank_1, ...``, the seat policies
as ``policy_0, ...``) and, in the file's key-value metadata under ``analyser``,
the run's configuration, seed, versions and timing, so ``analyser show`` can
rebuild every table.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.errors import UserError
from analyser.games.registry import GameSpec
from analyser.io.jsonable import jsonable, rows
from analyser.io.numbers import percent, plural
from analyser.io.results_file import records_frame
from analyser.stats.summary import policy_table, pooling, run_figures, seat_table, team_table
from analyser.stats.tally import Tally


@dataclass(eq=False)
class SimulationResult:
    meta: dict                  # RunConfig.metadata() plus timing
    game: GameSpec              # as simulated: its one_sub_unit() spec for a run of single hands
    tally: Tally
    seconds: float | None       # end to end: simulation, tally and writing
    records: np.ndarray | None  # structured array of unit records, when kept
    sim_seconds: float | None = None

    @property
    def labels(self) -> list[str]:
        return list(self.meta["policies"])

    @property
    def teams(self) -> tuple[int, ...] | None:
        return self.game.team_of(self.tally.players) if self.game.teams else None

    @cached_property
    def summary(self) -> pd.DataFrame:
        """Per seat: policy, games, win share, draw rate, mean score (95% intervals), mean rank, the game's columns."""
        return seat_table(self.tally, self.labels, self.teams, self.game.unit)

    @cached_property
    def by_policy(self) -> pd.DataFrame:
        """Seats of one policy pooled per unit (one unit, one observation)."""
        return policy_table(self.tally, self.labels, self.game.unit)

    @cached_property
    def by_team(self) -> pd.DataFrame | None:
        """Per team, for team games (None otherwise)."""
        return team_table(self.tally, self.labels, self.game.unit)

    @cached_property
    def figures(self) -> dict:
        return run_figures(self.tally, self.seconds, self.sim_seconds)

    @cached_property
    def games(self) -> pd.DataFrame:
        """One row per unit (needs the records: a run with keep_records or a results file)."""
        if self.records is None:
            why = self.meta.get("records") or "not kept"
            raise UserError(f"this result's per-unit records were {why}"
                            if "records" in self.meta else
                            "this result kept no per-unit records; run with keep_records=True or out=FILE")
        return records_frame(self.records, self.game, self.tally.players, self.labels)

    def save(self, path: str | Path) -> Path:
        """Write the records and metadata to a Parquet results file (``analyser show`` reads it)."""
        from analyser.io.results_file import RecordWriter

        if self.records is None:
            raise UserError("this result kept no per-unit records to save; run with keep_records=True")
        writer = RecordWriter(path, self.meta, self.game)
        try:
            writer.write(self.records, self.tally.players)
        except BaseException:
            writer.discard()
            raise
        writer.close({k: self.meta[k] for k in ("threads", "seconds") if k in self.meta})
        return Path(path)

    def plot(self):
        """The run's figure: win share per seat and per policy (95% intervals, fair share dashed)
        and the distribution of length; a matplotlib Figure (a notebook shows it inline; ``.savefig(path)``)."""
        from analyser.plots import result_figure

        return result_figure(self)

    def to_dict(self) -> dict:
        """The JSON form: configuration, per-seat, per-policy (and per-team) rows, run figures."""
        params = self.meta["params"]
        seat_rows = []
        for row in self.summary.to_dict("records"):
            s = int(row["seat"])
            seat_rows.append({"seat": s, "policy": self.meta["policies"][s].split(":")[0], "params": params[s],
                              **{k: jsonable(v) for k, v in row.items() if k not in ("seat", "policy")}})
        figures = {k: jsonable(v) for k, v in self.figures.items()}
        out = {**{k: self.meta[k] for k in ("game", "players", "deals", "seed", "settings")},
               "unit": self.game.unit, "units": self.meta["deals"], "first_deal": self.meta.get("first_deal", 0),
               "outcome": self.game.outcome, "policies": self.meta["policies"],
               "streams": self.meta.get("streams"), "seats": seat_rows,
               "by_policy": rows(self.by_policy), "pooling": pooling(self.game.unit),
               "games_per_second": figures.get("units_per_second"), "aborted": self.tally.aborted,
               "run": figures, "versions": self.meta["versions"]}
        if self.by_team is not None:
            out["by_team"] = rows(self.by_team)
        out.update({k: self.meta[k] for k in ("precision", "stop", "stopped") if k in self.meta})   # --precision
        return out

    def __repr__(self) -> str:
        m, f = self.meta, self.figures
        lines = [f"<SimulationResult {self.game.name}: {m['players']} players, {self.tally.units:,} "
                 f"{plural(self.game.unit)}, seed {m['seed']}, {f['aborted']:,} aborted>"]
        for row in self.by_policy.to_dict("records"):
            lines.append(f"  {row['policy']} (seats {row['seats']}): win {percent(row['win_rate'])} "
                         f"({percent(row['win_ci_low'])}-{percent(row['win_ci_high'])})")
        lines.append("  .summary .by_policy .figures .games .save(path) .to_dict()")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
        head = (f"<p><b>{html.escape(self.game.title)}</b>: {m['players']} players, {self.tally.units:,} "
                f"{plural(self.game.unit)}, seed {m['seed']} ({html.escape(settings)}); win = "
                f"{html.escape(self.game.outcome)}; {self.tally.aborted:,} aborted</p>")
        return head + self.by_policy.to_html(index=False, float_format=lambda x: f"{x:.4f}")
