"""The kinds of results file, each with what reads one back and what prints it.

A results file carries its ``kind`` in its metadata (none: ``simulate``'s).
``analyser.load`` / ``analyser show`` read the file with the kind's loader and
the CLI prints the result with its printer (the CLI's, named here so that a new
kind of result is one entry). Both are ``module:function`` names, imported only
when a file of that kind is read.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResultKind:
    loader: str     # path -> the result
    printer: str    # (result, fmt) -> None, printing it as the command that wrote it does


SIMULATE = ResultKind("analyser.analyses.show:load_simulation", "analyser.cli.output:print_result")
KINDS = {
    "simulate": SIMULATE,
    "compare": ResultKind("analyser.analyses.compare:load_compare", "analyser.cli.compare:print_compare"),
    "sweep": ResultKind("analyser.analyses.sweep_result:load_sweep", "analyser.cli.sweep:print_sweep"),
    "tournament": ResultKind("analyser.analyses.tournament:load_tournament",
                             "analyser.cli.tournament:print_tournament"),
    "tune": ResultKind("analyser.analyses.tune_result:load_tune", "analyser.cli.tune:print_tune"),
    "vary": ResultKind("analyser.analyses.vary:load_vary", "analyser.cli.vary:print_vary"),
    "rollout": ResultKind("analyser.analyses.rollout:load_rollout", "analyser.cli.rollout:print_rollout"),
    "review": ResultKind("analyser.analyses.review:load_review", "analyser.cli.rollout:print_review"),
}


def kind_of(meta: dict) -> ResultKind:
    """The kind of a file with this metadata: a simulate file's when it names no other."""
    return KINDS.get(meta.get("kind"), SIMULATE)
