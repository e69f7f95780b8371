"""A tuning's result: the candidates (search, race and confirmation side by side), the confirmation
against each opponent, the sensitivity around the winner, the sentences that say them, and the results
file read back (see analyser.analyses.tune).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyser.errors import UserError
from analyser.io.jsonable import jsonable, rows
from analyser.io.numbers import general, hundred, plural
from analyser.io.results_file import read_results, write_frame

KIND = "tune"


@dataclass(eq=False)
class TuneResult:
    """One policy tuned against opponents.

    candidates    one row per raced setting, the defaults first: the parameter columns, label, defaults,
                  run (the search run it came from), search_estimate (its mean difference from the defaults on
                  the search blocks), race_deals, race_out (the stage after which it was eliminated; NaN:
                  survived), race_p_holm, race_diff with race_diff_ci_low / _high (paired, selection stream),
                  winner, challenger, and for the confirmed ones confirmed with confirmed_ci_low / _high (the
                  win share difference from the defaults on the confirmation stream) and curse (search -
                  confirmed)
    confirmation  per confirmed setting (role: winner, challenger, defaults) and opponent (and "all"): the win
                  share with its interval, the fair share, the margin over it with its interval, and the
                  difference from the defaults (a sweep's setting row: win_diff, its interval, p_value, ...)
    sensitivity   per parameter and one-step deviation around the winner: win_rate, vs_winner and vs_defaults
                  (paired win share differences) with their intervals
    meta          kind, game, unit, players, policy, tuned, parameters, against, optimizer, budget, block, blocks,
                  runs, top, study, streams, trials (and trial_rows: every finished trial), race, seed, settings,
                  method, versions, timing
    """
    candidates: pd.DataFrame
    confirmation: pd.DataFrame
    sensitivity: pd.DataFrame
    meta: dict

    @property
    def parameters(self) -> list[str]:
        return [p["name"] for p in self.meta["parameters"]]

    @property
    def trials(self) -> pd.DataFrame:
        """Every finished trial of the search: run, number, k, state, value, blocks, and its parameters."""
        out = pd.DataFrame([{k: v for k, v in t.items() if k != "params"} | t["params"]
                            for t in self.meta["trial_rows"]])
        return out

    def row(self, role: str) -> dict:
        """The candidate that is the winner or the challenger (``role``), as a dict."""
        found = self.candidates[self.candidates[role]]
        return found.iloc[0].to_dict() if len(found) else {}

    @property
    def winner(self) -> dict:
        """The winning setting's parameters (the defaults' when they were not beaten)."""
        r = self.row("winner")
        return {n: jsonable(r[n]) for n in self.parameters}

    @property
    def kept(self) -> bool:
        """Whether the defaults won: no setting beat them in the race."""
        return bool(self.candidates["defaults"].iloc[0] and self.candidates["winner"].iloc[0])

    def plot(self):
        """The winner's curse (search, race and confirmed estimates of each candidate) and the sensitivity."""
        from analyser.plots.tune import tune_figure

        return tune_figure(self.candidates, self.sensitivity, self.meta)

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m.get(k) for k in ("kind", "game", "unit", "players", "policy", "tuned", "fixed", "parameters",
                                     "defaults", "against", "optimizer", "budget", "block", "blocks", "runs", "top",
                                     "study", "streams", "trials", "race", "seed", "settings", "fair_share",
                                     "method")}
        out.update(winner=self.winner, kept=self.kept, summary=summary_lines(self), candidates=rows(self.candidates),
                   confirmation=rows(self.confirmation), sensitivity=rows(self.sensitivity),
                   trial_rows=m.get("trial_rows"), deals_played=m.get("deals_played"), seconds=m.get("seconds"),
                   threads=m.get("threads"), versions=m.get("versions"))
        return out

    def save(self, path: str | Path) -> Path:
        """Parquet: the candidates, with the metadata, the confirmation and the sensitivity under the analyser key."""
        path = Path(path)
        write_frame(path, self.candidates, {**self.meta, "confirmation": rows(self.confirmation),
                                            "sensitivity": rows(self.sensitivity)})
        return path

    def __repr__(self) -> str:
        lines = summary_lines(self)
        return "\n".join([f"<TuneResult {lines[0]}>", *(f"  {line}" for line in lines[1:]),
                          "  .candidates .confirmation .sensitivity .trials .winner .kept .plot() .save(path)"])

    def _repr_html_(self) -> str:
        head = "<p>" + "<br>".join(html.escape(line) for line in summary_lines(self)) + "</p>"
        return head + self.candidates.to_html(index=False, float_format=lambda x: f"{x:.4f}")


def setting_text(params: dict) -> str:
    return ", ".join(f"{k}={general(v)}" for k, v in params.items())


def _pp(x) -> str:
    return hundred(x, sign=True) + " points"


def _ci(low, high) -> str:
    return f"[{hundred(low, sign=True)}, {hundred(high, sign=True)}]"


def summary_lines(result: TuneResult) -> list[str]:
    """The tuning in a few lines: what was tuned, the search, the race, the confirmation (the search's
    estimate beside the confirmed one), and the winner against each opponent."""
    m, c = result.meta, result.candidates
    against = ", ".join(a["label"] for a in m["against"])
    t = m["trials"]
    lines = [f"{m['game']}: {m['tuned']} against {against}; {m['players']} players, seed {m['seed']}",
             f"search: {m['optimizer']}, {t['count']} trials ({t['pruned']} pruned) over {len(m['parameters'])} "
             f"parameters ({m['space_size']:,} settings), {t['search_deals']:,} of a budget of {m['budget']:,} "
             f"{plural(m['unit'])} in blocks of {m['block']}",
             f"race: the defaults and {len(c) - 1} settings over {m['race']['stages']} stages on the selection "
             f"stream; " + ("the defaults were not beaten and are kept" if result.kept else
                            "the defaults were beaten")]
    for role in ("winner", "challenger"):
        r = result.row(role)
        if not r or (role == "challenger" and r.get("winner")):
            continue
        params = {n: r[n] for n in result.parameters}
        head = f"{role}: {setting_text(params)}" + (" (the defaults)" if r["defaults"] else "")
        if r["defaults"]:
            lines.append(head)
            continue
        lines.append(f"{head}: search said {_pp(r['search_estimate'])}, confirmed {_pp(r['confirmed'])} "
                     f"{_ci(r['confirmed_ci_low'], r['confirmed_ci_high'])} against the defaults "
                     f"(winner's curse {_pp(r['curse'])})")
    conf = result.confirmation
    mine = conf[(conf["role"] == "winner") & (conf["opponent"] != "all")]
    for r in mine.to_dict("records"):
        lines.append(f"  vs {r['opponent']}: win share {hundred(r['win_rate'])}% [{hundred(r['win_ci_low'])}, "
                     f"{hundred(r['win_ci_high'])}], margin over the fair share {_pp(r['margin'])} "
                     f"{_ci(r['margin_ci_low'], r['margin_ci_high'])}")
    return lines


def load_tune(path: str | Path) -> TuneResult:
    """Read a file written by ``tune(..., out=...)`` / ``TuneResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a tuning (written by `analyser tune --out`)")
    try:
        confirmation = pd.DataFrame(meta.pop("confirmation"))
        sensitivity = pd.DataFrame(meta.pop("sensitivity"))
        missing = [k for k in ("parameters", "trials", "race", "streams") if k not in meta]
        if missing:
            raise KeyError(", ".join(missing))
    except (KeyError, TypeError) as err:
        raise UserError(f"{path} has damaged tuning metadata ({type(err).__name__}: {err})") from None
    return TuneResult(frame, confirmation, sensitivity, meta)
