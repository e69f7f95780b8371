"""Simulation results: the object the API returns, and the Parquet file behind ``--out``.

A results file holds one row per deal (per-seat fields flattened to
``place_0, place_1, ...`` and the seat policies as ``policy_0, ...``) and, in
the file's key-value metadata under ``analyser``, the run's configuration,
seed, versions and timing, so ``analyser show`` can rebuild every table.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.core.errors import UserError
from analyser.core.registry import GameSpec, get_game
from analyser.stats.summary import policy_table, run_figures, seat_table
from analyser.stats.tally import Tally

META_KEY = b"analyser"


@dataclass
class SimulationResult:
    meta: dict                  # RunConfig.metadata() plus timing
    game: GameSpec
    tally: Tally
    seconds: float | None
    records: np.ndarray | None  # structured array of game records, when kept

    @property
    def labels(self) -> list[str]:
        return list(self.meta["policies"])

    @property
    def summary(self) -> pd.DataFrame:
        """Per seat: policy, games, win/loser rates with 95% Wilson intervals, mean place, events."""
        return seat_table(self.tally, self.labels)

    @property
    def by_policy(self) -> pd.DataFrame:
        return policy_table(self.tally, self.labels)

    @property
    def figures(self) -> dict:
        return run_figures(self.tally, self.seconds)

    @property
    def games(self) -> pd.DataFrame:
        """One row per deal (needs the records: a run with keep_records or a results file)."""
        if self.records is None:
            raise UserError("this result kept no per-game records; run with keep_records=True or out=FILE")
        return records_frame(self.records, self.tally.players, self.labels)

    def to_dict(self) -> dict:
        """The JSON form: configuration, per-seat rows, per-policy rows and run figures."""
        seats = self.summary
        params = self.meta["params"]
        seat_rows = []
        for row in seats.to_dict("records"):
            s = int(row["seat"])
            seat_rows.append({"seat": s, "policy": self.meta["policies"][s].split(":")[0], "params": params[s],
                              **{k: _plain(v) for k, v in row.items() if k not in ("seat", "policy")}})
        figures = {k: _plain(v) for k, v in self.figures.items()}
        return {**{k: self.meta[k] for k in ("game", "players", "deals", "seed", "settings")},
                "first_deal": self.meta.get("first_deal", 0),
                "policies": self.meta["policies"], "seats": seat_rows,
                "by_policy": [{k: _plain(v) for k, v in r.items()} for r in self.by_policy.to_dict("records")],
                "games_per_second": figures.get("games_per_second"), "aborted": self.tally.aborted,
                "run": figures, "versions": self.meta["versions"]}


def _plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if np.isnan(v) else float(v)
    return v


def records_frame(rec: np.ndarray, players: int, labels: list[str]) -> pd.DataFrame:
    """Flatten a structured record array: sub-arrays become one column per seat."""
    cols: dict = {}
    for name in rec.dtype.names:
        field = rec[name]
        if field.ndim == 2:
            for s in range(players):
                cols[f"{name}_{s}"] = field[:, s].astype(bool) if name == "win" else field[:, s]
        else:
            cols[name] = field
    frame = pd.DataFrame(cols)
    for s in range(players):
        frame[f"policy_{s}"] = pd.Categorical([labels[s]] * len(frame))
    return frame


def frame_records(frame: pd.DataFrame, dtype: np.dtype, players: int) -> np.ndarray:
    """Inverse of :func:`records_frame` (missing seats stay zero)."""
    rec = np.zeros(len(frame), dtype)
    for name in dtype.names:
        if rec[name].ndim == 2:
            for s in range(players):
                rec[name][:, s] = frame[f"{name}_{s}"].to_numpy()
        else:
            rec[name] = frame[name].to_numpy()
    return rec


class RecordWriter:
    """Streams record chunks into a Parquet file; metadata is completed on close."""

    def __init__(self, path: str | Path, meta: dict):
        import pyarrow.parquet  # noqa: F401  (fail here, before any simulation, if missing)

        self.path = Path(path)
        self.meta = meta
        self._writer = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "wb"):
                pass
        except OSError as err:
            raise UserError(f"cannot write results file {self.path}: {err.strerror}") from None

    def write(self, rec: np.ndarray, players: int):
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(records_frame(rec, players, self.meta["policies"]), preserve_index=False)
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.path, table.schema)
        self._writer.write_table(table)

    def close(self, extra: dict):
        if self._writer is None:
            return
        self._writer.add_key_value_metadata({META_KEY: json.dumps({**self.meta, **extra})})
        self._writer.close()


def load(path: str | Path) -> SimulationResult:
    """Read a results file back into a SimulationResult (records included)."""
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.is_file():
        raise UserError(f"no results file at {path}")
    try:
        pf = pq.ParquetFile(path)
        meta = json.loads(pf.metadata.metadata[META_KEY])
        frame = pf.read().to_pandas()
    except Exception as err:  # pyarrow raises several types for a damaged file
        raise UserError(f"{path} is not a readable analyser results file ({type(err).__name__}: "
                        f"{str(err).splitlines()[0] if str(err) else 'no details'})") from None
    game = get_game(meta["game"])
    players = int(meta["players"])
    try:
        records = frame_records(frame, game.record_dtype, players)
    except KeyError as err:
        raise UserError(f"{path} lacks the column {err} of a {game.name} results file") from None
    tally = Tally(players, game.seat_events, game.game_events).add(records)
    return SimulationResult(meta, game, tally, meta.get("seconds"), records)
