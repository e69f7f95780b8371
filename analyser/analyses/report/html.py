"""The balance report as one self-contained HTML page, to send to someone: verdicts first, then every section
of the Markdown report, then how it was run.

The figures are embedded as base64 PNG (data: URIs) and the style sheet is in
the page, so it opens offline, on a phone and in print; nothing is fetched.
The sections are the Markdown report's own lines (template.body_lines) rendered
by analyser.analyses.report.markup, so the page and the .md say the same.
"""
from __future__ import annotations

import base64
import html
import io

from analyser.analyses.report.markup import inline, to_html
from analyser.analyses.report.template import body_lines, glance_block, verdict_lines
from analyser.errors import counted
from analyser.io.numbers import plural

STYLE = """
:root { color-scheme: light; --rule: #d0d7de; --muted: #57606a; --accent: #1f4e79; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328;
       max-width: 62rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 .2rem; } h2 { font-size: 1.25rem; margin-top: 2rem;
     border-bottom: 1px solid var(--rule); color: var(--accent); }
.lead { color: var(--muted); margin-top: 0; }
.verdicts { background: #f6f8fa; border-left: 4px solid var(--accent); padding: .5rem 1rem .5rem 1.5rem; }
.verdicts li { margin: .4rem 0; }
.glance { border-left: 4px solid #2e8b57; padding: .1rem 1rem .3rem 1.5rem; } .glance li { margin: .3rem 0; }
.table { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-size: .85rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--rule); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.r, th.r { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) { background: #fafbfc; }
figure { margin: 1rem 0; } img { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .85rem; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
code { font-size: .9em; } dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
summary { cursor: pointer; color: var(--accent); }
@media (max-width: 40rem) { body { font-size: 15px; padding: .5rem; } dl { grid-template-columns: 1fr; }
                            .verdicts { padding: .3rem .6rem; } ul { padding-left: 1.2rem; }
                            dd { margin-bottom: .4rem; } }
@media print { body { max-width: none; font-size: 10pt; } .table { overflow: visible; }
               table { font-size: 7.5pt; } h2 { break-after: avoid; } figure, tr { break-inside: avoid; }
               summary { display: none; } }
"""
# A folded table would print as its summary line alone: open them all before printing.
PRINT_OPEN = "addEventListener('beforeprint', () => document.querySelectorAll('details').forEach(d => d.open = true));"


def figure_uris(report) -> dict[str, str]:
    """name -> the figure as a data: URI of a PNG."""
    uris = {}
    for name, fig in report.figures().items():
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        uris[name] = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return uris


def _footer(report) -> list[tuple[str, str]]:
    """How it was run: (label, escaped HTML) pairs."""
    m = report.meta
    esc = html.escape
    params = [f"seat {i}: {esc(p)} ({esc(_params(q))})"
              for i, (p, q) in enumerate(zip(m["policies"], m["params"], strict=True))]
    ran = [f"{esc(k)}: {v['seconds']:,.1f} s" for k, v in m["ran"].items() if "seconds" in v]
    rows = [("Game", esc(m["title"])), ("Players", str(m["players"])), ("Line-up", esc(m["lineup_text"])),
            ("Policy parameters", "<br>".join(params)),
            (f"{plural(m['unit']).capitalize()} per run", f"{m['deals']:,}"),
            ("Tournament deals per pair", f"{m['tournament_deals']:,}"), ("Seed", str(m["seed"])),
            ("Settings", esc(", ".join(f"{k}={v}" for k, v in m["settings"].items()))),
            ("A win is", esc(m["outcome"])), ("Sections", esc(", ".join(m["sections"])))]
    if ran:
        rows.append(("Time per section", "; ".join(ran)))
    took = f" in {m['seconds']:,.0f} s" if m.get("seconds") else ""
    threads = f" on {m['threads']} threads" if m.get("threads") else ""
    rows += [("Generated", esc(f"{m['generated']}{took}{threads}")),
             ("Versions", esc(", ".join(f"{k} {v}" for k, v in m["versions"].items())))]
    if m.get("command"):
        rows.append(("Command", f"<code>{esc(m['command'])}</code>"))
    return rows


def _params(params: dict) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items()) or "none"


def _glance(report) -> list[str]:
    """The "At a glance" block, first on the page (its sentences link to the sections)."""
    lines = glance_block(report)
    return ['<section class="glance">', to_html(lines), "</section>"] if lines else []


def render_page(report, figures: dict[str, str]) -> str:
    """The whole page; ``figures`` maps a figure name to its image source (figure_uris for a sendable page)."""
    m = report.meta
    lead = (f"{m['lineup_text']} · {m['players']} players · {counted(m['deals'], m['unit'])} per run · "
            f"seed {m['seed']} · analyser {m['versions']['analyser']}")
    footer = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in _footer(report))
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Balance report: {html.escape(m['title'])}</title>", f"<style>{STYLE}</style>",
        f"<script>{PRINT_OPEN}</script>", "</head>", "<body>",
        f"<header><h1>Balance report: {html.escape(m['title'])}</h1>",
        f'<p class="lead">{inline(lead)}</p></header>',
        *_glance(report),
        '<section class="verdicts"><h2>Verdicts</h2>', to_html(verdict_lines(report)), "</section>",
        "<main>", to_html(body_lines(report, figures)), "</main>",
        '<footer><h2>How it was run</h2>', f"<dl>{footer}</dl>", "</footer>", "</body>", "</html>", ""])
