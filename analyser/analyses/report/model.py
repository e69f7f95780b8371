"""The balance report as a result: its verdicts, tables and metadata, shown in a notebook,
rendered (analyser.analyses.report.template) and written (analyser.analyses.report.writer);
analyser.analyses.report.builder makes one."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analyser.analyses.report.titles import TITLES
from analyser.errors import counted


@dataclass(eq=False)
class BalanceReport:
    """A balance report (see the module docstring).

    verdicts        section -> the one-line answer in words
    seats           per seat (team): win share, 95% interval, fair share, excess over fair and its interval
    seat_test       the test that every seat has the same win share (statistic, df, p_value)
    first_mover     the first mover's win share and advantage over the fair share, with intervals
    player_counts   per player count: first-mover advantage, Balance, the test, the largest seat gap
    player_seats    per player count and seat: the seats table
    rules           per setting and value: first mover's share, its paired change, length and its paired
                    change, the seat (team) whose share moved most, Balance
    rule_groups     per setting, value and seat (team): vary's table (win share, paired change)
    ratings         the tournament's ratings (Bradley-Terry, Elo), best first
    head_to_head    the tournament's matrix: the row policy's win share against the column policy
    shape           length and how units end, the per-step estimate (Brier, reliability) and what it shows
    meta            game, players, line-up, seed, deals, settings, what each section ran, versions
    """
    meta: dict
    verdicts: dict = field(default_factory=dict)
    parts: dict = field(default_factory=dict)      # section -> its numbers (see the builder)

    # ------------------------------------------------------------------ tables
    def _part(self, name: str, key: str):
        part = self.parts.get(name)
        return None if part is None else part.get(key)

    @property
    def seats(self) -> pd.DataFrame | None:
        return self._part("seats", "frame")

    @property
    def seat_test(self) -> dict | None:
        return self._part("seats", "test")

    @property
    def first_mover(self) -> dict | None:
        return self._part("seats", "first_mover")

    @property
    def player_counts(self) -> pd.DataFrame | None:
        return self._part("players", "frame")

    @property
    def player_seats(self) -> pd.DataFrame | None:
        return self._part("players", "seats")

    @property
    def rules(self) -> pd.DataFrame | None:
        return self._part("rules", "frame")

    @property
    def rule_groups(self) -> pd.DataFrame | None:
        return self._part("rules", "groups")

    @property
    def ratings(self) -> pd.DataFrame | None:
        return self._part("policies", "ratings")

    @property
    def head_to_head(self) -> pd.DataFrame | None:
        return self._part("policies", "matrix")

    @property
    def shape(self) -> dict | None:
        """The shape section's numbers: length, ends, the per-step estimate and its measures."""
        return self.parts.get("shape")

    # ------------------------------------------------------------------ output
    def markdown(self, figures: dict[str, str] | None = None) -> str:
        """The report as Markdown; ``figures`` maps a figure name to the path the text links to."""
        from analyser.analyses.report.template import render_markdown

        return render_markdown(self, figures or {})

    def figures(self) -> dict:
        """name -> a matplotlib Figure (seats, players, rules, policies, head_to_head: those that apply)."""
        from analyser.plots.report import report_figures

        return report_figures(self)

    def to_dict(self) -> dict:
        """Every table and figure of the report with its metadata (the JSON written beside the Markdown)."""
        from analyser.analyses.report.template import report_dict

        return report_dict(self)

    def html(self) -> str:
        """The report as one self-contained HTML page (figures embedded): what ``save("NAME.html")`` writes."""
        from analyser.analyses.report.html import figure_uris, render_page

        return render_page(self, figure_uris(self))

    def save(self, path: str | Path = None) -> Path:
        """Write ``path`` (default ``reports/<game>.md``) and ``<stem>.json`` beside it, all at once: nothing is
        replaced until everything is ready. A ``.md`` path also writes the figures in ``<stem>/``; a ``.html``
        path is one page with the figures inside."""
        from analyser.analyses.report.writer import default_path, write_report

        return write_report(self, Path(path) if path is not None else default_path(self.meta["game"]))

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def _repr_html_(self) -> str:
        from analyser.analyses.report.template import render_html

        return render_html(self)

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<BalanceReport {m['game']}: {m['players']} players, line-up {m['lineup_text']}, "
                 f"{counted(m['deals'], m['unit'])} per run, seed {m['seed']}>"]
        lines += [f"  {TITLES[k]}: {v}" for k, v in self.verdicts.items()]
        lines.append("  .verdicts .seats .seat_test .first_mover .player_counts .rules .ratings .head_to_head .shape "
                     ".markdown() .html() .figures() .save(path)")
        return "\n".join(lines)
