"""The report's Skill and luck section (analyses.report.skill_section): analyser skill at report size."""
import json

import pytest

import analyser


@pytest.fixture(scope="module")
def palace(tmp_path_factory):
    path = tmp_path_factory.mktemp("skill") / "palace.md"
    return analyser.report("palace", players=2, deals=200, seed=2, sections="skill", skill_deals=20, out=path), path


def test_the_section_runs_skill_at_report_size(palace):
    r, _ = palace
    ran = r.meta["ran"]["skill"]
    assert ran["strong"] == "pimc:worlds=4" and ran["field"] == "saver" and ran["deals"] == 20
    assert ran["replays"] == 4 and ran["budgets"] == [1, 2, 4]
    assert set(ran["seconds_by_part"]) == {"relative", "luck", "ladder"}
    result = r.parts["skill"]["result"]
    assert r.verdicts["skill"].startswith(f"Relative skill RS = {result.relative['rs']:.2f} [")
    assert "with saver (every replay alike" in r.verdicts["skill"] and "skill ladder: " in r.verdicts["skill"]


def test_markdown_and_json(palace):
    r, path = palace
    text = path.read_text()
    for needle in ("## 1. Skill and luck", "| beginner | random |", "| strong | pimc:worlds=4 |",
                   "Luck share (the deal's part", "Skill ladder (2B against B", "not among the report's tests",
                   "- **Skill and luck:** Relative skill RS ="):
        assert needle in text
    data = json.loads(path.with_suffix(".json").read_text())
    assert data["skill"]["relative"]["rs"] == pytest.approx(r.parts["skill"]["result"].relative["rs"])
    assert data["skill"]["meta"]["policies"]["open"] == "pimc:worlds=4,open=yes (cheating)"
    assert r.meta["tests"]["made"] == 0              # descriptive figures: no test joins the FDR family


def test_a_game_without_a_search_player_skips_it(tmp_path):
    r = analyser.report("highcard", deals=50, seed=1, sections="skill", out=tmp_path / "hc.md")
    assert r.verdicts["skill"] == ("not applicable: High card (an example game) has no search player with an "
                                   "open-cards variant to measure skill with.")
    assert "*Skipped:* High card" in (tmp_path / "hc.md").read_text()


def test_skill_deals_is_checked_before_anything_plays(tmp_path):
    from typer.testing import CliRunner

    from analyser.cli.main import app
    from tests.cli.test_bad_input import assert_one_line

    r = CliRunner().invoke(app, ["report", "palace", "--section", "skill", "--skill-deals", "1", "--no-progress",
                                 "--out", str(tmp_path / "p.md")])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "the skill section's deals must be from 2")
    assert not (tmp_path / "p.md").exists()


def test_a_match_game_is_read_a_round_at_a_time(tmp_path):
    r = analyser.report("olenon", deals=100, seed=1, sections="skill", skill_deals=10, out=tmp_path / "o.md")
    ran = r.meta["ran"]["skill"]
    assert ran["unit"] == "round" and ran["field"] == "tempo" and ran["replays"] == 3      # 15 streams // 4 seats
    assert "(single rounds from fresh deals, not whole matches" in (tmp_path / "o.md").read_text()
