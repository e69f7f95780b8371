"""The Markdown the report writes, as HTML: headings, paragraphs, lists, tables, code, figures and details.

Only the subset analyser.analyses.report.template writes, so no Markdown library
is a dependency; rendering the same lines keeps the HTML page and the Markdown
file word for word the same. Every piece of text is escaped (html.escape)
before the few inline marks (**bold**, *italic*, `code`) become tags.
"""
from __future__ import annotations

import html
import re

_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)\)")
_DETAILS = re.compile(r"<details><summary>(?P<summary>.*)</summary>")
_CELL = re.compile(r"(?<!\\)\|")
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((#[\w\-]+)\)")     # a link within the page only


def anchor(heading: str) -> str:
    """A heading's link target, as GitHub makes it from a Markdown heading: the page's headings get it as id."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def inline(text: str) -> str:
    """One line of the report's Markdown as escaped HTML with its inline marks as tags."""
    pieces = _CODE.split(text)            # odd pieces were inside backticks: escaped, never formatted
    out = []
    for i, piece in enumerate(pieces):
        if i % 2:
            out.append(f"<code>{html.escape(piece)}</code>")
        else:
            escaped = _BOLD.sub(r"<strong>\1</strong>", html.escape(piece))
            out.append(_LINK.sub(r'<a href="\2">\1</a>', _ITALIC.sub(r"<em>\1</em>", escaped)))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip().replace("\\|", "|") for c in _CELL.split(line.strip())[1:-1]]


def _table(lines: list[str]) -> str:
    head, rule, *body = lines
    right = [' class="r"' if c.endswith(":") and not c.startswith(":") else "" for c in _cells(rule)]

    def row(cells, tag):
        return "<tr>" + "".join(f"<{tag}{right[i]}>{inline(c)}</{tag}>" for i, c in enumerate(cells)) + "</tr>"

    return ('<div class="table"><table><thead>' + row(_cells(head), "th") + "</thead><tbody>"
            + "".join(row(_cells(r), "td") for r in body) + "</tbody></table></div>")


def _block(lines: list[str]) -> str:
    first = lines[0]
    if first.startswith("#"):
        level = len(first) - len(first.lstrip("#"))
        text = first[level:].strip()
        return f'<h{level} id="{html.escape(anchor(text))}">{inline(text)}</h{level}>'
    if first.startswith("|"):
        return _table(lines)
    if first.startswith("- "):
        return "<ul>" + "".join(f"<li>{inline(x[2:])}</li>" for x in lines) + "</ul>"
    if (image := _IMAGE.fullmatch(first)) and len(lines) == 1:
        return (f'<figure><img src="{html.escape(image["src"])}" alt="{html.escape(image["alt"])}">'
                f"<figcaption>{html.escape(image['alt'])}</figcaption></figure>")
    if (details := _DETAILS.fullmatch(first)) and len(lines) == 1:
        return f"<details><summary>{inline(details['summary'])}</summary>"
    if first == "</details>" and len(lines) == 1:
        return "</details>"
    return "<p>" + "<br>".join(inline(x.rstrip()) for x in lines) + "</p>"


def to_html(lines: list[str]) -> str:
    """The report's Markdown lines (blocks separated by blank lines; ```-fenced code kept whole) as HTML;
    a line may hold several (a table is one string)."""
    out, block, fence = [], [], None
    for line in "\n".join(lines).split("\n"):
        if fence is not None:
            if line.startswith("```"):
                out.append("<pre><code>" + html.escape("\n".join(fence)) + "</code></pre>")
                fence = None
            else:
                fence.append(line)
        elif line.startswith("```"):
            fence = []
        elif line.strip():
            block.append(line)
            continue
        if block:
            out.append(_block(block))
            block = []
    if block:
        out.append(_block(block))
    return "\n".join(out)
