"""analyser.merge: results files of one configuration and disjoint unit ranges as one run."""
import json

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import analyser
from analyser.errors import UserError
from analyser.io.results_file import META_KEY
from analyser.stats.tally import Tally

POLICIES = ["saver", "lowest", "pickup", "random"]
TIMING = ("seconds", "simulation_seconds", "units_per_second", "simulation_units_per_second")


def simulate(path=None, n=300, first=0, seed=3, game="palace", **kw):
    kw.setdefault("policies", POLICIES if game == "palace" else None)
    return analyser.simulate(game, n=n, seed=seed, first_deal=first, out=path, threads=1, **kw)


def rewrite_meta(src, dst, **changes):
    """A copy of results file ``src`` whose metadata has ``changes`` (None: the key removed)."""
    table = pq.read_table(src)
    meta = {**json.loads(pq.ParquetFile(src).metadata.metadata[META_KEY]), **changes}
    meta = {k: v for k, v in meta.items() if v is not None}
    table = table.replace_schema_metadata({**table.schema.metadata, META_KEY: json.dumps(meta).encode()})
    pq.write_table(table, dst)
    return dst


def without_timing(d: dict) -> dict:
    d = {k: v for k, v in d.items() if k not in ("games_per_second", "covers", "ranges", "merged")}
    d["run"] = {k: v for k, v in d["run"].items() if k not in TIMING}
    return d


def assert_same_tables(merged, single):
    pd.testing.assert_frame_equal(merged.summary, single.summary)
    pd.testing.assert_frame_equal(merged.by_policy, single.by_policy)
    if single.by_team is not None:
        pd.testing.assert_frame_equal(merged.by_team, single.by_team)
    assert without_timing(merged.to_dict()) == without_timing(single.to_dict())


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("merge")
    simulate(d / "a.parquet", 300, 0)
    simulate(d / "b.parquet", 500, 300)
    simulate(d / "late.parquet", 300, 500)
    simulate(d / "seed4.parquet", 500, 300, seed=4)
    return d


@pytest.mark.parametrize("game", ["palace", "olenon"])
def test_contiguous_files_give_exactly_the_one_run(tmp_path, game):
    simulate(tmp_path / "a.parquet", 300, 0, game=game)
    simulate(tmp_path / "b.parquet", 500, 300, game=game)
    single = simulate(None, 800, 0, game=game)
    merged = analyser.merge([tmp_path / "b.parquet", tmp_path / "a.parquet"])   # any order
    assert_same_tables(merged, single)
    assert np.array_equal(merged.records, single.records)
    assert merged.meta["deals"] == 800 and merged.meta["first_deal"] == 0
    assert merged.meta["ranges"] == [[0, 799]] and merged.covers == f"{game}s 0-799 of seed 3".replace(
        "olenons", "matches").replace("palaces", "games")
    assert [m["ranges"] for m in merged.meta["merged"]] == [[[0, 299]], [[300, 799]]]


def test_a_gap_is_allowed_and_named(files):
    merged = analyser.merge([files / "a.parquet", files / "late.parquet"])
    assert merged.covers == "games 0-299, 500-799 of seed 3"
    assert merged.meta["ranges"] == [[0, 299], [500, 799]]
    assert merged.meta["deals"] == 600 and merged.meta["first_deal"] == 0 and merged.tally.units == 600
    assert merged.to_dict()["covers"] == merged.covers and "games 0-299, 500-799" in repr(merged)
    whole = simulate(None, 800, 0).records
    kept = whole[(whole["unit"] < 300) | (whole["unit"] >= 500)]
    assert np.array_equal(merged.records, kept)
    expected = Tally.for_run(merged.game, 4, POLICIES).add(kept)
    assert merged.tally.sums.keys() == expected.sums.keys()
    for key in expected.sums:
        assert np.array_equal(merged.tally.sums[key], expected.sums[key])


def test_out_writes_one_results_file_that_show_and_merge_read(files, tmp_path):
    out = tmp_path / "m.parquet"
    merged = analyser.merge([files / "late.parquet", files / "a.parquet"], out=out)
    back = analyser.load(out)
    assert back.meta["deals"] == 600 and back.meta["first_deal"] == 0
    assert back.meta["ranges"] == [[0, 299], [500, 799]]
    assert list(back.records["unit"]) == [*range(300), *range(500, 800)]
    pd.testing.assert_frame_equal(back.summary, merged.summary)
    # the merged file with its gap, and the file that fills it: the whole run
    filler = simulate(tmp_path / "gap.parquet", 200, 300)
    again = analyser.merge([out, tmp_path / "gap.parquet"])
    assert again.meta["ranges"] == [[0, 799]] and filler.tally.units == 200
    assert_same_tables(again, simulate(None, 800, 0))


def test_one_file_is_its_own_summary(files):
    merged = analyser.merge(files / "a.parquet")
    assert_same_tables(merged, analyser.load(files / "a.parquet"))


def test_different_configurations_are_refused_naming_the_field(files, tmp_path):
    a, b = files / "a.parquet", files / "b.parquet"
    with pytest.raises(UserError, match=f"^{a} and {files / 'seed4.parquet'} differ in seed: 3 and 4;"):
        analyser.merge([a, files / "seed4.parquet"])
    other = simulate(tmp_path / "p.parquet", 100, 300, policies=["saver", "lowest", "pickup", "saver"])
    with pytest.raises(UserError, match=r"differ in policies: \[saver, lowest, pickup, random\] and "
                                        r"\[saver, lowest, pickup, saver\]"):
        analyser.merge([a, tmp_path / "p.parquet"])
    assert other.tally.units == 100
    simulate(tmp_path / "r.parquet", 100, 300, rules={"ten_on_anything": True})
    with pytest.raises(UserError, match="differ in settings.ten_on_anything: False and True"):
        analyser.merge([a, tmp_path / "r.parquet"])
    simulate(tmp_path / "three.parquet", 100, 300, players=3, policies=POLICIES[:3])
    with pytest.raises(UserError, match="differ in players: 4 and 3"):
        analyser.merge([a, tmp_path / "three.parquet"])
    meta = analyser.load(b).meta
    rewrite_meta(b, tmp_path / "v.parquet", versions={**meta["versions"], "analyser": "9.9"})
    with pytest.raises(UserError, match=r"different analyser versions \(0\.\d+\.\d+\S* and 9\.9\)"):
        analyser.merge([a, tmp_path / "v.parquet"])
    rewrite_meta(b, tmp_path / "c.parquet", versions={**meta["versions"], "game_code": "0/palace-edited"})
    with pytest.raises(UserError, match=rf"different code of palace \(game_code {meta['versions']['game_code']} and "
                                        r"0/palace-edited\)"):
        analyser.merge([a, tmp_path / "c.parquet"])
    rewrite_meta(b, tmp_path / "n.parquet", versions={**meta["versions"], "numpy": "0.0"})   # allowed
    assert analyser.merge([a, tmp_path / "n.parquet"]).meta["versions"]["numpy"].endswith(", 0.0")


def test_overlapping_ranges_are_refused_naming_files_and_units(files):
    a, b, late = files / "a.parquet", files / "b.parquet", files / "late.parquet"
    with pytest.raises(UserError, match=f"^{b} and {late} overlap in games 500-799;"):
        analyser.merge([a, b, late])
    with pytest.raises(UserError, match=f"^{a} is given twice"):
        analyser.merge([a, a])


@pytest.mark.parametrize("case,message", [
    ("none", "merge needs at least one results file"),
    ("missing", "no results file at "),
    ("text", "is not a readable analyser results file"),
    ("plain", "is a Parquet file without analyser metadata"),
    ("compare", "holds a compare result; merge combines results files of `analyser simulate --out`"),
    ("count", "has damaged analyser metadata: it says 299 games (0-298), its records are 300 records, "
              "units 0-299"),
    ("seed", "has damaged analyser metadata"),
])
def test_what_is_not_a_simulate_results_file_is_refused(files, tmp_path, case, message):
    a = files / "a.parquet"
    path = tmp_path / "x.parquet"
    if case == "text":
        path.write_text("not parquet")
    elif case == "plain":
        pq.write_table(pq.read_table(a).replace_schema_metadata({}), path)
    elif case == "compare":
        rewrite_meta(a, path, kind="compare")
    elif case == "count":
        rewrite_meta(a, path, deals=299)
    elif case == "seed":
        rewrite_meta(a, path, game=None)
    paths = [] if case == "none" else [a, path] if case != "missing" else [a, tmp_path / "nope.parquet"]
    with pytest.raises(UserError) as err:
        analyser.merge(paths)
    assert message in str(err.value) and "\n" not in str(err.value)
