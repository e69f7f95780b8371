"""``analyser replay``: the page's data (what a seat view holds, the sizes), bad input, and the page
itself in headless Chromium (every step drawn without a script error, a seat view hiding what
it must, a screenshot that is not blank)."""
import io
import shutil
import tempfile
from collections import Counter

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from analyser import replay
from analyser.analyses.replay import SNAPSHOT_EVERY
from analyser.analyses.rollout import position_at
from analyser.analyses.trace import trace
from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.games.registry import game_names, get_game

GAMES = [name for name in game_names() if get_game(name).view is not None]   # every game with a replay view
PALACE = dict(seed=1, deal=0, players=4)       # a game in which a seat other than 0 picks up the pile


def case(game: str) -> dict:
    """Unit 0 of seed 1 in the game's first kit case (small, as the kit plays it)."""
    spec = get_game(game)
    players, rules = spec.kit().cases(spec)[0]
    return dict(seed=1, deal=0, players=players, rules=rules)


def page(game: str, kw: dict, folder):
    r = replay(game, **kw)
    return r, r.save(folder / f"{game}.html")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replay")
    return {game: page(game, case(game), folder) for game in GAMES}


@pytest.fixture(scope="module")
def palace(tmp_path_factory):
    return page("palace", PALACE, tmp_path_factory.mktemp("palace"))


def states(stream) -> list:
    """Every step's places, rebuilt from the snapshots and the per-step changes as the page does."""
    now, out = None, []
    for i, diff in enumerate(stream["diffs"]):
        if i % SNAPSHOT_EVERY == 0:
            now = [list(p) for p in stream["snapshots"][i // SNAPSHOT_EVERY]]
        else:
            for k, change in diff.items():
                now[int(k)] = now[int(k)][: change[0]] + change[1:]
        out.append([list(p) for p in now])
    return out


def positions(game):
    kw = case(game)
    config = RunConfig.build(game, players=kw.get("players"), deals=1, seed=kw["seed"], rules=kw.get("rules"),
                             first_deal=kw["deal"])
    history, kit, _ = position_at(config, None)
    return history, kit


@pytest.mark.parametrize("game", GAMES)
def test_seat_views_hold_only_what_the_seat_sees_or_knows(pages, game):
    data = pages[game][0].data
    history, kit = positions(game)
    view = get_game(game).view()                                 # a stock is shown top first (view.shown)
    everything = states(data["views"]["all"])
    assert len(everything) == len(history) == len(data["steps"]) == len(data["lines"])
    for step, position in enumerate(history):
        assert everything[step] == [view.shown(n, position.locations()[n]) for n in data["places"]]
        d = data["steps"][step].get("d")
        assert (d is None) == (position.decision(forced=True) is None)
        if d:
            legal = [a for j, h in enumerate(d["legal"]) for b in range(4) if int(h, 16) >> b & 1
                     for a in [data["action_order"][4 * j + b]]]
            assert d["chosen"] in legal and legal == sorted(kit.legal_actions(position.decision(forced=True)[1]))
    for seat in range(data["players"]):
        for step, (view, position) in enumerate(zip(states(data["views"][str(seat)]), history, strict=True)):
            seen = position.seen_by(seat)
            for name, shown, real in zip(data["places"], view, everything[step], strict=True):
                if name in seen:
                    assert shown == real
                    continue
                known = [c for c in shown if c >= 0]
                assert not Counter(known) - Counter(real), f"{game} seat {seat} step {step}: {name} shows others"
                assert len(known) + sum(-c for c in shown if c < 0) == len(real)


def palace_pickup(data) -> tuple[int, int]:
    """The first step after a seat other than 0 picked up the pile, and that seat."""
    return next((i + 1, s["d"]["seat"]) for i, s in enumerate(data["steps"][:-1])
                if s.get("d", {}).get("seat", 0) != 0 and data["actions"][str(s["d"]["chosen"])] == "pick up the pile")


def test_palace_seat_view_shows_a_picked_up_pile_and_hides_the_rest(palace):
    data = palace[0].data
    setup = trace("palace", **PALACE).events[0]
    seat0, everything = states(data["views"]["0"]), states(data["views"]["all"])
    step, seat = palace_pickup(data)
    hand = data["places"].index(f"hand{seat}")
    first = [data["cards"][str(c)] for c in seat0[0][hand] if c >= 0]
    assert set(first) <= set(setup["face_up"][seat])         # only cards the seat swapped up from its face-up row
    pile = everything[step - 1][data["places"].index("pile")]
    assert pile and set(pile) <= set(seat0[step][hand])      # the pile went into that hand, known to seat 0
    assert seat0[step][hand][-1] < 0 and set(everything[step][hand]) - set(pile)     # and the rest stays hidden


def test_sizes():
    palace = replay("palace", seed=1, deal=17).html()
    assert len(palace.encode()) < 100_000
    match = replay("spite_and_malice", seed=1, deal=0).html()      # a whole match to 50 points
    assert len(match.encode()) < 1_000_000


def test_cli_writes_a_page_and_refuses_bad_input(tmp_path):
    runner = CliRunner()
    out = tmp_path / "game.html"
    r = runner.invoke(app, ["replay", "olenon", "--seed", "1", "--rule", "rounds=1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "http://" not in page and "https://" not in page
    for args in (["nogame"], ["palace", "--policy", "nope"], ["palace", "--deal", "-1"],
                 ["palace", "--rule", "nope=1"]):
        r = runner.invoke(app, ["replay", *args, "--out", str(tmp_path / "x.html")])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    for bad in (tmp_path / "x.htm", tmp_path / "missing" / "x.html", tmp_path):
        r = runner.invoke(app, ["replay", "palace", "--out", str(bad)])
        assert r.exit_code == 2 and "cannot write" in r.output, r.output


def test_jupyter_shows_it_inline(palace):
    shown = palace[0]._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and "&lt;script" in shown


# ------------------------------------------------------------------ in a real browser

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking "
         "--disable-component-update --disable-sync --no-first-run --window-size=1400,1000").split()


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


STEP_ALL = """
var errors = [];
window.addEventListener('error', function (e) { errors.push(String(e.message)); });
var forward = document.getElementById('forward'), n = Number(document.getElementById('slider').max);
var seen = [];
for (var i = 0; i < n; i++) { forward.click(); seen.push(document.getElementById('where').textContent); }
return [n, seen[seen.length - 1], errors, document.querySelectorAll('#log .current').length];
"""


def severe(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


@pytest.mark.parametrize("game", GAMES)
def test_every_step_draws_without_a_script_error(pages, browser, game):
    data, path = pages[game][0].data, pages[game][1]
    browser.get(path.as_uri())
    n, where, errors, current = browser.execute_script(STEP_ALL)
    assert n == len(data["steps"]) - 1 and where == f"step {n} / {n}"
    assert errors == [] and severe(browser) == []
    assert browser.find_element("id", "errors").text == ""
    assert current == 1                                    # the trace line of the last action, highlighted
    # the forward steps drew the all-seeing view (the page's first); seat 0's view, stepped back through to
    # the start one step a click; then the all-seeing view again at the start, where one more click stays
    for view, start, clicks in [("0", n, n), ("all", 0, 1)]:
        where = browser.execute_script(
            f"var v = document.getElementById('view'); v.value = '{view}'; v.dispatchEvent(new Event('change'));"
            f"var seen = []; for (var i = 0; i < {clicks}; i++) {{ document.getElementById('back').click();"
            "seen.push(document.getElementById('where').textContent); } return seen;")
        assert where == [f"step {max(start - i, 0)} / {n}" for i in range(1, clicks + 1)]
        assert browser.find_element("id", "where").text == f"step 0 / {n}"
    assert severe(browser) == [] and browser.find_element("id", "errors").text == ""
    image = np.asarray(Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")).astype(np.uint32)
    colours = image[..., 0] << 16 | image[..., 1] << 8 | image[..., 2]      # one integer a colour
    assert len(np.unique(colours)) > 20                           # a drawn table, not a blank page


def test_palace_seat_view_in_the_browser(palace, browser):
    data, path = palace[0].data, palace[1]
    step, seat = palace_pickup(data)
    mine, everything = states(data["views"]["0"])[step], states(data["views"]["all"])[step]
    hand = data["places"].index(f"hand{seat}")
    known = [data["cards"][str(c)] for c in mine[hand] if c >= 0]
    hidden = [data["cards"][str(c)] for c in set(everything[hand]) - set(mine[hand])]
    assert known and hidden
    browser.get(path.as_uri())
    browser.execute_script("var v = document.getElementById('view'); v.value = '0';"
                           "v.dispatchEvent(new Event('change'));"
                           f"var s = document.getElementById('slider'); s.value = {step};"
                           "s.dispatchEvent(new Event('input'));")
    assert browser.find_element("id", "where").text.startswith(f"step {step} ")
    box = browser.find_element("css selector", f'.seat[data-seat="{seat}"] [data-place="hand{seat}"]')
    backs = box.find_elements("css selector", ".card.back")
    assert len(backs) == min(len(hidden), 6) and all(b.text == "" for b in backs)
    assert sorted(e.text for e in box.find_elements("css selector", ".card:not(.back)")) == sorted(known)
    page = browser.execute_script("return document.getElementById('table').outerHTML + "
                                  "document.getElementById('decision').outerHTML + "
                                  "document.getElementById('log').outerHTML + document.body.innerText")
    for name in hidden:
        assert f">{name}<" not in page and f" {name} " not in page, f"{name} of seat {seat}'s hand shows to seat 0"
    assert severe(browser) == []


def test_a_rollout_shows_at_its_step(tmp_path, browser):
    """A rollout of one of the unit's positions (where a rollout exists for that step, its values):
    the page shows its table at that step; one of another unit is refused in one line."""
    import analyser
    from analyser.errors import UserError

    r = analyser.rollout("palace", seed=1, step=19, trials=50)
    saved = r.save(tmp_path / "r.parquet")
    page = replay("palace", seed=1, deal=0, rollouts=[saved])
    shown = page.data["steps"][19]["r"]
    assert shown["worlds"] == 50 and [row[0] for row in shown["rows"]] == list(r.table["id"])
    assert all("r" not in s for i, s in enumerate(page.data["steps"]) if i != 19)
    with pytest.raises(UserError, match=r"another game than this replay's \(seed: 1 there, 2 here\)"):
        replay("palace", seed=2, deal=0, rollouts=[saved])
    path = page.save(tmp_path / "p.html")
    browser.get(path.as_uri())
    browser.execute_script("var s = document.getElementById('slider'); s.value = 19;"
                           "s.dispatchEvent(new Event('input'));")
    text = browser.find_element("id", "decision").text
    assert "rollout over 50 worlds" in text and "best" in text and r.best() in text
    assert severe(browser) == []
    ok = CliRunner().invoke(app, ["replay", "palace", "--seed", "1", "--out", str(tmp_path / "c.html"),
                                  "--rollout", str(saved)])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(app, ["replay", "palace", "--seed", "3", "--out", str(tmp_path / "d.html"),
                                   "--rollout", str(saved)])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1 and "another game" in bad.output
