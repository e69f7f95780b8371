"""The replay page's script run in node against a minimal stand-in for the DOM (no browser needed):
the words it writes for a decision."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import analyser.io
from analyser import replay

NODE = shutil.which("node")

# A stand-in DOM: every element records its text and children; the script's one data element holds
# the page's JSON; `go(K)` moves the slider to step K; the decision box's text is printed.
STAND_IN = r"""
function El(tag) { this.tag = tag; this.children = []; this.own = ""; this.className = "";
  this.dataset = {}; this.value = ""; this.handlers = {}; this.style = {};
  this.classList = { add: function () {}, remove: function () {}, toggle: function () {} }; }
Object.defineProperty(El.prototype, "textContent", {   // setting it drops the children, as in a DOM
  get: function () { return this.own; }, set: function (t) { this.own = String(t); this.children = []; } });
El.prototype.appendChild = function (c) { this.children.push(c); return c; };
El.prototype.addEventListener = function (k, f) { this.handlers[k] = f; };
El.prototype.scrollIntoView = function () {};
El.prototype.querySelector = function () { return null; };
var ids = {};
global.document = {
  getElementById: function (id) { if (!ids[id]) { ids[id] = new El("div"); } return ids[id]; },
  createElement: function (tag) { return new El(tag); },
  addEventListener: function () {}
};
document.getElementById("data").textContent = require("fs").readFileSync(0, "utf8");
function text(e) { return [e.textContent].concat(e.children.map(text)).filter(Boolean).join(" | "); }
"""


def decision_text(data: dict, step: int) -> str:
    """The decision box's text at ``step`` as the page's script draws it."""
    script = (Path(analyser.io.__file__).parent / "replay_page.js").read_text(encoding="utf-8")
    go = (f"\nvar s = document.getElementById('slider'); s.value = '{step}'; s.handlers.input();"
          "\nconsole.log(text(document.getElementById('decision')));")
    run = subprocess.run([NODE, "-e", STAND_IN + script + go], input=json.dumps(data), capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_one_legal_action_is_singular():
    data = replay("palace", seed=1, deal=0, players=4).data
    counts = {i: bin(int(s["d"]["legal"] or "0", 16)).count("1") for i, s in enumerate(data["steps"]) if "d" in s}
    one, many = (next(i for i, c in counts.items() if test(c)) for test in (lambda c: c == 1, lambda c: c > 1))
    assert "1 legal action:" in decision_text(data, one)
    assert f"{counts[many]} legal actions:" in decision_text(data, many)
