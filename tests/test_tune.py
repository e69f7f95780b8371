"""Tuning (analyser.analyses.tune): a planted optimum is found and confirmed on fresh deals; a parameter
that does nothing keeps the defaults; equally strong settings keep them too and the confirmed interval
covers 0; the same seed gives the same study on 1 or 2 threads; a study cut by Ctrl-C resumes to the
same answer; the three streams never overlap; every optimizer runs its own way."""
import numpy as np
import optuna
import pandas as pd
import pytest
from highcard.toys import INERT, PLANTED, SHIFTED
from optuna.storages.journal import JournalFileBackend, JournalStorage

from analyser.analyses import tune as tune_module
from analyser.analyses.tune import STREAM_SPAN, check_streams, stream_layout, tune
from analyser.analyses.tune_result import load_tune
from analyser.analyses.tune_search import STUDY_FILE
from analyser.errors import Interrupted, UserError

SMALL = {"block": 20, "blocks": 8, "threads": 1}
SPACE = {"x": range(9), "y": range(5)}


def planted_run(**kwargs):
    return tune("highcard", PLANTED, against=["high"], space=SPACE, budget=20 * 8 * 12, seed=3,
                **{**SMALL, **kwargs})


@pytest.fixture(scope="module")
def planted():
    return planted_run()


def test_a_planted_optimum_is_found_and_confirmed(planted):
    w = planted.winner
    assert not planted.kept and abs(w["x"] - 4) <= 1 and abs(w["y"] - 2) <= 1, planted
    row = planted.row("winner")
    assert row["confirmed_ci_low"] > 0.1 and row["confirmed_ci_low"] < row["confirmed"] < row["confirmed_ci_high"]
    assert np.isfinite(row["search_estimate"]) and row["curse"] == pytest.approx(row["search_estimate"] -
                                                                                 row["confirmed"])
    conf = planted.confirmation
    assert set(conf["opponent"]) == {"high", "all"} and set(conf["role"]) >= {"winner", "defaults"}
    sens = planted.sensitivity
    assert set(sens["parameter"]) == {"x", "y"} and (sens["vs_winner"] <= 0.02).all()
    assert len(planted.trials) == planted.meta["trials"]["count"] > 5 and planted.meta["trials"]["pruned"] > 0
    assert "search said" in repr(planted) and "confirmed" in repr(planted)


def test_the_streams_never_overlap(planted):
    s = planted.meta["streams"]
    spans = sorted((v["first"], v["first"] + v["deals"]) for v in s.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    with pytest.raises(AssertionError, match="the search and selection streams overlap"):
        stream_layout(STREAM_SPAN + 1, 10, 10)
    with pytest.raises(AssertionError, match="overlap"):
        check_streams({"search": (0, 100), "selection": (50, 100), "confirmation": (500, 10)})
    check_streams({"search": (0, 100), "selection": (100, 100), "confirmation": (200, 10)})


def test_a_parameter_that_does_nothing_keeps_the_defaults():
    r = tune("highcard", INERT, against=["high"], space={"x": range(9)}, budget=20 * 8 * 6, seed=1, **SMALL)
    assert r.kept and r.winner == {"x": 0}
    assert r.candidates["race_out"].isna().all()              # played identically: nothing eliminated
    c = r.row("challenger")
    assert c["confirmed"] == 0 and c["confirmed_ci_low"] < 0 < c["confirmed_ci_high"]   # the deals not seen


@pytest.mark.parametrize("seed", [0, 1])
def test_equally_strong_settings_keep_the_defaults(seed):
    """A small seeded version of benchmarks/calibrate_tune.py's null: the search's best looks better than it
    is; the race keeps the defaults and the challenger's confirmed interval covers 0."""
    r = tune("highcard", SHIFTED, against=["random"], space={"k": range(9)}, budget=20 * 8 * 8, seed=seed, **SMALL)
    c = r.row("challenger")
    assert r.kept and c["confirmed_ci_low"] < 0 < c["confirmed_ci_high"]
    assert (r.candidates["race_diff_ci_high"].iloc[1:] > 0).all()     # not exact ties: they play other cards


def test_every_null_setting_plays_other_cards_than_the_defaults():
    """The null's settings are equally strong but none plays as the defaults: a setting that did (a shift of the
    draw by a multiple of the 3 cards a seat holds) would be a copy of the defaults, whose interval covers 0
    whatever the deals, and would lift the null's coverage in benchmarks/calibrate_tune.py above 95%."""
    from analyser.analyses.sweep import sweep

    r = sweep("highcard", [SHIFTED, "random"], values={"k": range(9)}, deals=60, seed=0, threads=1, progress=False)
    assert not r.table["identical"].any() and (r.table["win_diff"] != 0).sum() >= 6


@pytest.mark.two_threads
def test_the_same_seed_gives_the_same_study_on_two_threads(planted):
    again = planted_run(threads=2)
    pd.testing.assert_frame_equal(again.candidates, planted.candidates)
    assert again.meta["trial_rows"] == planted.meta["trial_rows"]
    pd.testing.assert_frame_equal(again.sensitivity, planted.sensitivity)


@pytest.mark.parametrize("optimizer", ["tpe", "ntbea"])
def test_a_study_cut_by_ctrl_c_resumes_to_the_same_answer(optimizer, planted, tmp_path, monkeypatch):
    whole = planted if optimizer == "tpe" else planted_run(optimizer=optimizer)
    study = tmp_path / "study"
    real, calls = tune_module.Player.plays, []

    def cut(self, *args):
        calls.append(1)
        if len(calls) == 25:
            raise KeyboardInterrupt
        return real(self, *args)

    monkeypatch.setattr(tune_module.Player, "plays", cut)
    with pytest.raises(Interrupted, match=r"^interrupted after [\d,]+ deals of the tuning; the trials finished are "
                                          r"kept in .*study: run it again to resume$"):
        planted_run(study=study, optimizer=optimizer)
    monkeypatch.setattr(tune_module.Player, "plays", real)
    resumed = planted_run(study=study, optimizer=optimizer)
    storage = JournalStorage(JournalFileBackend(str(study / STUDY_FILE)))
    states = [t.state.name for s in optuna.get_all_study_names(storage)
              for t in optuna.load_study(study_name=s, storage=storage).trials]
    assert states.count("FAIL") == 1                          # the trial Ctrl-C cut, never counted
    pd.testing.assert_frame_equal(resumed.candidates, whole.candidates)
    strip = [{k: v for k, v in t.items() if k != "number"} for t in whole.meta["trial_rows"]]
    assert [{k: v for k, v in t.items() if k != "number"} for t in resumed.meta["trial_rows"]] == strip
    assert planted_run(study=study, optimizer=optimizer).meta["trial_rows"] == resumed.meta["trial_rows"]
    with pytest.raises(UserError, match="another tuning .*seed"):
        tune("highcard", PLANTED, against=["high"], space=SPACE, budget=20 * 8 * 12, seed=4, study=study,
             optimizer=optimizer, **SMALL)


@pytest.mark.parametrize("optimizer,runs", [("random", 1), ("ntbea", 3)])
def test_every_optimizer_finds_the_planted_optimum(optimizer, runs):
    r = planted_run(optimizer=optimizer)
    assert {t["run"] for t in r.meta["trial_rows"]} == set(range(runs))
    assert not r.kept and r.row("winner")["confirmed_ci_low"] > 0.05, r


def test_results_file_round_trip(planted, tmp_path):
    path = planted.save(tmp_path / "tuned.parquet")
    back = load_tune(path)
    pd.testing.assert_frame_equal(back.candidates, planted.candidates, check_dtype=False)
    assert back.winner == planted.winner and back.meta["versions"] == planted.meta["versions"]
    assert back.to_dict()["summary"] == planted.to_dict()["summary"]
    assert planted.plot().axes


def test_bad_spaces_are_one_line():
    for kwargs, message in [({"space": {"z": range(3)}}, "unknown parameter 'z'"),
                            ({"space": {"x": range(20)}}, "out of range 0..8"),
                            ({"space": {"x": "5..1"}}, "ends below its start"),
                            ({"space": {"x": [3]}}, "nothing to tune"),
                            ({"space": {"x": range(9)}, "budget": 10}, "smaller than one block")]:
        with pytest.raises(UserError, match=message):
            tune("highcard", PLANTED, against=["high"], **{**SMALL, "budget": 1000, **kwargs})
