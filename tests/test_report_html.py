"""The balance report as one HTML page (``analyser report GAME --out NAME.html``, ``BalanceReport.html()``):
self-contained, verdicts first, every section of the Markdown, the metadata, well-formed and escaped."""
import json
import re
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

import analyser
from analyser.analyses.report.markup import inline
from analyser.cli.main import app

SMALL = {"deals": 400, "tournament_deals": 40, "seed": 1, "skill_deals": 20}
VOID = {"meta", "img", "br", "hr", "link", "input", "source", "wbr", "col", "area", "base", "embed", "track"}


class Page(HTMLParser):
    """The page's tags in order, its headings' text, every src/href, and whether the tags balance."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.stack, self.order, self.links, self.headings, self.unbalanced = [], [], [], [], []
        self._heading = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.order.append(tag)
        self.links += [(tag, name, value) for name, value in attrs if name in ("src", "href")]
        if tag not in VOID:
            self.stack.append(tag)
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = []

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack.pop() != tag:
            self.unbalanced.append(tag)
        if re.fullmatch(r"h[1-6]", tag) and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading.append(data)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A whole Palace report at 3 players, written as HTML."""
    path = tmp_path_factory.mktemp("html") / "palace.html"
    return analyser.report("palace", players=3, out=path, **SMALL), path


def test_the_page_is_well_formed_and_self_contained(written):
    r, path = written
    text = path.read_text(encoding="utf-8")
    page = Page(text)
    assert text.startswith("<!DOCTYPE html>") and page.unbalanced == [] and page.stack == []
    images = [v for tag, name, v in page.links if tag == "img"]
    assert len(images) == len(r.figures()) == 7
    targets = re.findall(r'href="#([^"]+)"', text)          # the glance's links, each to a heading's id
    assert len(targets) >= 4 and set(targets) <= set(re.findall(r'<h2 id="([^"]+)"', text))
    assert all(v.startswith("data:image/png;base64,") for v in images)
    assert not [link for link in page.links if link[2].startswith(("http:", "https:", "//"))]
    assert "link" not in page.order and not re.search(r"""(src|href)\s*=\s*["']?https?:""", text)
    assert sorted(p.name for p in path.parent.iterdir()) == ["palace.html", "palace.json"]   # no folder, no leftovers


def test_the_verdicts_come_first_then_every_section_of_the_markdown(written):
    r, path = written
    text = path.read_text(encoding="utf-8")
    page = Page(text)
    markdown_headings = [inline(line.lstrip("#").strip()) for line in r.markdown().splitlines()
                         if re.match(r"#{1,6} ", line)]
    assert len(markdown_headings) == 10              # title, at a glance, verdicts, 6 sections, how to read it
    assert all(_text(h) in page.headings for h in markdown_headings)
    assert page.headings.index("At a glance") < page.headings.index("Verdicts") < page.headings.index("1. Seats")
    assert text.index("Verdicts") < text.index("<table")
    for verdict in r.verdicts.values():
        assert inline(verdict) in text
    assert page.order.count("table") == r.markdown().count("\n|:---|") + r.markdown().count("\n|---:|")


def test_the_metadata_is_in_the_footer(written):
    r, path = written
    text = path.read_text(encoding="utf-8")
    footer = text[text.index("<footer>"):]
    m = r.meta
    for needle in ("How it was run", "<dt>Seed</dt><dd>1</dd>", "short_game=False, ten_on_anything=False",
                   "saver in every seat", "swap=1, keep=8, burn_at=5", f"numba {m['versions']['numba']}",
                   f"analyser {m['versions']['analyser']}", "<dd>400</dd>", "<dd>40</dd>", m["generated"]):
        assert needle in footer, needle
    data = json.loads(path.with_suffix(".json").read_text())
    assert data["meta"]["seed"] == 1 and data["verdicts"] == r.verdicts


def test_text_is_escaped():
    assert inline("a <b> & \"c\" **d** `<e>` *f*") == \
        "a &lt;b&gt; &amp; &quot;c&quot; <strong>d</strong> <code>&lt;e&gt;</code> <em>f</em>"
    r = analyser.report("olenon", deals=200, seed=1, sections="seats")
    r.verdicts["seats"] = "<script>alert(1)</script> & more"
    page = r.html()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page and "<script>alert" not in page


def test_the_command_line_writes_html_and_refuses_other_suffixes(tmp_path):
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", "olenon", "-n", "200", "--tournament-deals", "20", "--section",
                                      "seats", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "analyser report olenon --deals 200" in text and out.with_suffix(".json").exists()
    assert not out.with_suffix("").exists() and f"wrote {out}" in result.stderr
    for bad in ("r.htm", "r.txt", "r"):
        result = CliRunner().invoke(app, ["report", "olenon", "--no-progress", "--out", str(tmp_path / bad)])
        err = result.stderr.strip()
        assert result.exit_code == 2 and "\n" not in err and "valid: .md, .html" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]


def _text(fragment: str) -> str:
    """A heading's HTML as the parser reads its text."""
    parser = Page(f"<h1>{fragment}</h1>")
    return parser.headings[0]
