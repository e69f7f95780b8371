"""``merge``: simulate results files of one configuration and disjoint unit ranges as one run.

Unit *i* of a seed plays the same whatever else is played (see the README's "How a run is
reproducible"), so files of one configuration whose unit ranges do not overlap (``simulate
--first-deal 0 -n 100000`` on one machine, ``--first-deal 100000`` on another) hold the records
one run over all their units would have. Their records, in unit order, are tallied again in the
chunks such a run tallies (DEFAULT_CHUNK units), so a merge of contiguous ranges gives exactly
that run's tables. Gaps between the ranges are allowed; the result says which units it covers.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from analyser.analyses.records import SimulationResult
from analyser.analyses.show import load
from analyser.engine.config import DEFAULT_CHUNK
from analyser.errors import UserError, counted
from analyser.io.numbers import plural
from analyser.io.results_file import META_KEY
from analyser.stats.tally import Tally

# What makes two files one configuration, compared in this order (the first that differs is named).
CONFIGURATION = ("game", "unit", "players", "seed", "settings", "policies", "params", "streams")
# A precision run's stop says why that run ended; it says nothing about a merge of runs.
DROPPED = ("stop", "stopped", "batches", "precision")


class MergedResult(SimulationResult):
    """A SimulationResult of merged files: ``meta["ranges"]`` holds the unit ranges covered
    (``[first, last]``, adjacent ranges joined) and ``meta["merged"]`` each file's own range."""

    @property
    def covers(self) -> str:
        """``games 0-299, 500-799 of seed 3``."""
        return f"{plural(self.game.unit)} {_spans(self.meta['ranges'])} of seed {self.meta['seed']}"

    def to_dict(self) -> dict:
        return {**super().to_dict(), "covers": self.covers, "ranges": self.meta["ranges"],
                "merged": self.meta["merged"]}

    def __repr__(self) -> str:
        head, _, rest = super().__repr__().partition("\n")
        return f"{head}\n  merged {len(self.meta['merged'])} files: {self.covers}\n{rest}"


def merge(paths, out=None) -> MergedResult:
    """Combine simulate results files of one configuration (game, unit, players, seed, settings,
    policies, parameters, streams, analyser version) and disjoint unit ranges into the result
    of one run that played all their units; ``out``: also write it as one results file
    (``analyser show`` reads it). Raises UserError, naming the files, for anything else."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    paths = [Path(p) for p in paths]
    if not paths:
        raise UserError("merge needs at least one results file")
    seen: dict[Path, Path] = {}
    for p in paths:
        if p.resolve() in seen:
            raise UserError(f"{p} is given twice; merge takes each results file once")
        seen[p.resolve()] = p
    parts = sorted((_read(p) for p in paths), key=lambda part: part[1][0][0])
    first_path, _, first = parts[0]
    for path, _, result in parts[1:]:
        _check_same(first_path, first.meta, path, result.meta)
    _check_disjoint(parts, first.game.unit)
    game, players = first.game, first.tally.players
    records = np.concatenate([result.records for _, _, result in parts]) if len(parts) > 1 else first.records
    if np.any(np.diff(records["unit"]) < 0):      # a merged file with a gap that another file fills
        records = records[np.argsort(records["unit"], kind="stable")]
    tally = Tally.for_run(game, players, first.labels)
    for start in range(0, records.size, DEFAULT_CHUNK):
        tally.add(records[start:start + DEFAULT_CHUNK])
    meta = _merged_meta(parts, records)
    result = MergedResult(meta, game, tally, meta.get("seconds"), records, meta.get("simulation_seconds"))
    if out is not None:
        result.save(out)
    return result


def _read(path: Path) -> tuple[Path, list[list[int]], SimulationResult]:
    """``(path, its unit ranges [first, last], result)`` of one simulate results file (a merged
    one included), its records checked against its metadata."""
    kind = _kind(path)
    if kind is not None:
        raise UserError(f"{path} holds a {kind} result; merge combines results files of `analyser simulate --out`")
    result = load(path)      # show's reading: no file, a damaged one, no metadata get its one-line messages
    meta = result.meta
    try:
        first, deals = int(meta.get("first_deal", 0)), int(meta["deals"])
        ranges = [[int(a), int(b)] for a, b in meta.get("ranges", [[first, first + deals - 1]])]
    except (KeyError, TypeError, ValueError) as err:
        raise UserError(f"{path} has damaged analyser metadata ({type(err).__name__}: {err})") from None
    expected = np.concatenate([np.arange(a, b + 1) for a, b in ranges]) if ranges else np.zeros(0, np.int64)
    units = result.records["unit"]
    if not ranges or expected.size != deals or not np.array_equal(units, expected):
        held = f"{units.size:,} records" + (f", units {units.min()}-{units.max()}" if units.size else "")
        raise UserError(f"{path} has damaged analyser metadata: it says {counted(deals, result.game.unit)} "
                        f"({_spans(ranges)}), its records are {held}")
    return path, ranges, result


def _kind(path: Path):
    """The ``kind`` in a results file's metadata (None: a simulate file), from its footer alone;
    None too for a file that cannot be read that way, which ``load`` then names."""
    import pyarrow.parquet as pq

    try:
        kind = json.loads(pq.read_metadata(path).metadata[META_KEY]).get("kind")
    except Exception:  # no file, not Parquet, no or damaged metadata: load's messages say which
        return None
    return str(kind) if kind is not None else None


def _check_same(path_a: Path, a: dict, path_b: Path, b: dict) -> None:
    for key in CONFIGURATION:
        va, vb = a.get(key), b.get(key)
        if va == vb:
            continue
        if isinstance(va, dict) and isinstance(vb, dict):
            sub = next(k for k in [*va, *vb] if va.get(k) != vb.get(k))
            key, va, vb = f"{key}.{sub}", va.get(sub, "(none)"), vb.get(sub, "(none)")
        raise UserError(f"{path_a} and {path_b} differ in {key}: {_show(va)} and {_show(vb)}; merge combines "
                        f"runs of one configuration")
    va, vb = (m.get("versions", {}).get("analyser") for m in (a, b))
    if va != vb:
        raise UserError(f"{path_a} and {path_b} were written by different analyser versions ({va} and {vb}); "
                        f"merge combines files of one version, whose records have one format")
    ca, cb = (m.get("versions", {}).get("game_code", "(none)") for m in (a, b))
    if ca != cb:
        raise UserError(f"{path_a} and {path_b} were played by different code of {a.get('game')} "
                        f"(game_code {ca} and {cb}); merge combines runs of one game's code")


def _show(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_show(v)}" for k, v in value.items()) + "}"
    return str(value)


def _spans(ranges) -> str:
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in ranges)


def _check_disjoint(parts, unit: str) -> None:
    """No unit in two files."""
    spans = sorted((a, b, path) for path, ranges, _ in parts for a, b in ranges)
    reach_path, reach = spans[0][2], spans[0][1]        # the file that reaches furthest, its last unit
    for a, b, path in spans[1:]:
        if a <= reach:
            raise UserError(f"{reach_path} and {path} overlap in {plural(unit)} {_spans([[a, min(reach, b)]])}; "
                            f"merge combines files of disjoint {unit} ranges (--first-deal)")
        if b > reach:
            reach_path, reach = path, b


def _merged_meta(parts, records) -> dict:
    """The first file's metadata as one run's: the lowest first unit, the total count, the ranges
    covered and each file's own; times summed, threads kept when all agree, a precision stop dropped."""
    metas = [result.meta for _, _, result in parts]
    meta = {k: v for k, v in metas[0].items() if k not in DROPPED}
    meta.update(deals=int(records.size), first_deal=int(records["unit"][0]))
    ranges: list[list[int]] = []
    for a, b in sorted(r for _, rs, _ in parts for r in rs):
        if ranges and ranges[-1][1] + 1 == a:
            ranges[-1][1] = b
        else:
            ranges.append([a, b])
    meta["ranges"] = ranges
    meta["merged"] = [{"file": str(path), "ranges": rs, "deals": result.tally.units,
                       **{k: result.meta[k] for k in ("threads", "seconds") if k in result.meta}}
                      for path, rs, result in parts]
    for key in ("seconds", "simulation_seconds"):
        values = [m.get(key) for m in metas]
        if all(isinstance(v, (int, float)) for v in values):
            meta[key] = float(sum(values))
        else:
            meta.pop(key, None)
    if len({m.get("threads") for m in metas}) > 1:
        meta.pop("threads", None)
    versions = dict(metas[0].get("versions", {}))
    for name in versions:                 # numba, numpy, python: each distinct value, in file order
        values = list(dict.fromkeys(str(m.get("versions", {}).get(name)) for m in metas))
        versions[name] = ", ".join(values) if len(values) > 1 else versions[name]
    meta["versions"] = versions
    return meta
