"""The one JSON encoder: numpy scalars and arrays to Python, every non-finite number to null.

``json.dumps`` writes NaN and infinity as ``NaN`` and ``Infinity``, which are
not JSON; every results file, report and ``--format json`` output goes
through :func:`dumps`, so none carries them.
"""
from __future__ import annotations

import json
import math

import numpy as np


def jsonable(v):
    """One value as JSON has it: numpy scalars as Python ones, NaN and infinities as None, arrays as lists."""
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return float(v) if math.isfinite(v) else None
    if isinstance(v, np.ndarray):
        return jsonable_tree(v.tolist())
    return v


def jsonable_tree(v):
    """:func:`jsonable` through dicts (keys as strings), lists, tuples and DataFrames (as rows)."""
    if hasattr(v, "to_dict") and hasattr(v, "columns"):      # a DataFrame, without importing pandas
        return [jsonable_tree(r) for r in v.to_dict("records")]
    if isinstance(v, dict):
        return {str(k): jsonable_tree(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable_tree(x) for x in v]
    return jsonable(v)


def rows(frame) -> list[dict]:
    """A DataFrame's rows as JSON-ready dicts."""
    return [{k: jsonable(v) for k, v in r.items()} for r in frame.to_dict("records")]


def dumps(value, **options) -> str:
    """``json.dumps`` of :func:`jsonable_tree` (strict JSON: no NaN or Infinity)."""
    return json.dumps(jsonable_tree(value), allow_nan=False, **options)
