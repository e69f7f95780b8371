"""The result object and results files: reprs, caching, saving, files that are never half there."""
import numpy as np
import pandas as pd
import pytest

import analyser
from analyser.games.registry import game_names, get_game
from analyser.io.results_file import RecordWriter

MIX = ["saver", "lowest", "pickup", "saver"]


@pytest.fixture(scope="module")
def result():
    return analyser.simulate("palace", policies=MIX, n=400, seed=3)


def test_repr_is_short_and_names_the_policies(result):
    text = repr(result)
    assert len(text) < 600 and text.count("\n") <= 6
    assert "palace" in text and "saver (seats 0,3)" in text and "pickup (seats 2)" in text


def test_notebook_repr_is_a_table(result):
    page = result._repr_html_()
    assert page.count("<table") == 1 and "not being the loser" in page and "lowest" in page


def test_games_is_built_once(result):
    assert result.games is result.games


def test_save_writes_a_file_show_reads(result, tmp_path):
    path = result.save(tmp_path / "r.parquet")
    back = analyser.load(path)
    pd.testing.assert_frame_equal(back.summary, result.summary)
    assert back.meta["seed"] == 3 and back.meta["policies"] == MIX


@pytest.mark.two_threads
def test_records_are_the_same_bytes_for_any_chunking():
    """Joining chunks copies bytes: np.concatenate leaves an aligned dtype's padding undefined."""
    a = analyser.simulate("palace", policies=MIX, n=300, seed=5, chunk_size=300, threads=1).records
    b = analyser.simulate("palace", policies=MIX, n=300, seed=5, chunk_size=37, threads=2).records
    assert a.tobytes() == b.tobytes()


def test_a_rate_score_has_an_interval_inside_0_and_1():
    r = analyser.simulate("palace", policies=["lowest", "pickup:max_pile=52,spend_rank=2"], players=2, n=300,
                          seed=1)
    frame = r.summary
    assert (frame["score_ci_low"] >= 0).all() and (frame["score_ci_high"] <= 1).all()
    assert np.allclose(frame["score_ci_low"], frame["win_ci_low"])      # Palace's score is its win


def test_speed_is_end_to_end_with_the_simulation_beside_it(result):
    f = result.figures
    assert 0 < f["units_per_second"] <= f["simulation_units_per_second"]
    assert result.to_dict()["games_per_second"] == pytest.approx(f["units_per_second"])


def test_a_discarded_writer_leaves_the_old_file_and_no_partial_file(result, tmp_path):
    path = tmp_path / "old.parquet"
    path.write_bytes(b"the old results")
    writer = RecordWriter(path, result.meta, get_game("palace"))
    writer.write(result.records[:50], 4)
    writer.discard()
    assert path.read_bytes() == b"the old results"
    assert list(tmp_path.iterdir()) == [path]


def test_a_closed_writer_replaces_the_file_whole(result, tmp_path):
    path = tmp_path / "new.parquet"
    path.write_bytes(b"the old results")
    writer = RecordWriter(path, result.meta, get_game("palace"))
    writer.write(result.records, 4)
    writer.close({"seconds": 1.0})
    assert analyser.load(path).tally.units == 400
    assert list(tmp_path.iterdir()) == [path]


def test_a_link_is_not_a_results_file(result, tmp_path):
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep me")
    link = tmp_path / "link.parquet"
    link.symlink_to(target)
    with pytest.raises(analyser.UserError, match="not a regular file"):
        RecordWriter(link, result.meta, get_game("palace"))
    assert target.read_bytes() == b"keep me"


def test_an_enemy_anemone_file_keeps_every_field(tmp_path):
    """Per-seat fields with a row per seat (hand_score: seat x hand) flatten to one column each and back."""
    run = analyser.simulate("enemy_anemone", players=3, n=50, seed=4, progress=False)
    back = analyser.load(run.save(tmp_path / "ea.parquet"))
    assert "hand_score_2_3" in run.games.columns and "hand_score_3_0" not in run.games.columns
    for name in run.records.dtype.names:
        assert np.array_equal(back.records[name], run.records[name]), name


@pytest.mark.parametrize("game", game_names())
def test_the_records_table_is_pandas_own_without_pandas(game, tmp_path):
    """RecordWriter builds its Arrow table from the record fields: the table, schema and pandas
    metadata from_pandas gives of records_frame; the file reads back as that frame (at the fewest
    players, so a game with more seats has unused per-seat columns)."""
    import pyarrow as pa

    from analyser.io.results_file import read_results, records_frame

    players = get_game(game).min_players
    run = analyser.simulate(game, players=players, n=30, seed=2, progress=False)
    writer = RecordWriter(tmp_path / "r.parquet", run.meta, run.game)
    for part in (run.records[:1], run.records[1:], run.records):
        ours = writer.table(part, players)
        theirs = pa.Table.from_pandas(records_frame(part, run.game, players, run.labels), preserve_index=False)
        assert ours.equals(theirs) and ours.schema.equals(theirs.schema, check_metadata=True)
    writer.write(run.records[:17], players)
    writer.write(run.records[17:], players)
    writer.close({})
    _, frame, _ = read_results(tmp_path / "r.parquet")
    pd.testing.assert_frame_equal(frame, run.games)
