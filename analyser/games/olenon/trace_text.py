"""The people's form of an Olenon trace: one line per trick, at most 80 columns.

Each round opens with its starter, the rounds won so far, every seat's hand
and the set-aside cards; then each trick shows its moves in order (``s2 4 4``
a play or an addition, ``s3 5 5/4 4`` a replace of 4 4 by 5 5, ``s0 takes 5``
a pass) and how it ended: ``| four`` (the table full) or ``| team 1 passed``,
with the passed cards going back and who leads next. A round ends with who
went out. Works on a whole match and on a trace cut to one round (``--round K``).
"""
from __future__ import annotations

from analyser.io.trace_lines import pack, parts_shown, run_header


def _cards(cards) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _header(setup: dict) -> list[str]:
    lines = [f"Olenon, teams s0+s2 (team 0) and s1+s3 (team 1), seed {setup['seed']}, "
             f"{setup.get('unit', 'match')} {setup['deal']}"]
    lines += run_header(setup)
    lines.append(f"First round started by seat {setup['first']} (drawn at random)")
    return lines


def _round_head(e: dict, policies: list[str], won: list[int] | None) -> list[str]:
    score = f"; rounds won {won[0]}-{won[1]}" if won is not None else ""
    lines = ["", f"Round {e['round']} — started by seat {e['starter']}{score}"]
    width = max((len(p) for p in policies), default=0)
    for s, cards in enumerate(e["hands"]):
        label = f"  s{s} {policies[s]:<{width}}" if policies and width <= 16 else f"  s{s}"
        lines += pack(label, [_cards(cards)], 6)
    lines.append(f"  set aside: {_cards(e['set_aside'])}")
    return lines


def _move(e: dict) -> str:
    if e["type"] == "play":
        return f"s{e['seat']} {_cards(e['cards'])}"
    if e["type"] == "replace":
        return f"s{e['seat']} {_cards(e['cards'])}/{_cards(e['discarded'])}"
    return f"s{e['seat']} takes {e['card']}"


def _trick_end(e: dict) -> list[str]:
    why = "four" if e["reason"] == "four" else "team passed"
    back = [f"s{s} {c}" for s, c in enumerate(e["returned"]) if c is not None]
    pieces = [f"| {why};"] + ([f"back: {', '.join(back)};"] if back else []) + [f"s{e['next']} leads"]
    return pieces


def _result(e: dict, setup: dict) -> list[str]:
    actions = f"{e['actions']:,} actions"
    if e["aborted"]:
        return [f"Result: aborted at the action cap after {actions} in {e['rounds']} rounds: no winner."]
    t = e["winner_team"]
    won = e["rounds_won"]
    policies = setup.get("policies", [])
    names = f" ({policies[t]} + {policies[t + 2]})" if policies else ""
    head = f"Result after {actions} in {e['rounds']} rounds:"
    return pack(head, f"team {t}, s{t} and s{t + 2}{names}, wins {won[t]}-{won[1 - t]}.".split(" "), 2)


def render(events: list[dict]) -> str:
    setup = events[0]
    policies = setup.get("policies", [])
    lines = _header(setup)
    rounds, whole = parts_shown(events, "round", lines)
    won = [0, 0] if whole or rounds == [0] else None
    moves: list[str] = []
    trick = 0
    for e in events[1:]:
        t = e["type"]
        if t == "deal":
            lines += _round_head(e, policies, won)
            trick = 0
        elif t in ("play", "replace", "pass"):
            moves.append(_move(e) + ",")
        elif t == "trick_end":
            trick += 1
            moves[-1] = moves[-1].rstrip(",")
            lines += pack(f"  t{trick:<3}", moves + _trick_end(e), 7)
            moves = []
        elif t == "round_end":
            if moves:
                moves[-1] = moves[-1].rstrip(",")
                lines += pack(f"  t{trick + 1:<3}", moves, 7)
                moves = []
            if won is not None:
                won[e["winner_team"]] += 1
            lines.append(f"  s{e['seat']} goes out: team {e['winner_team']} wins round {e['round']}"
                         + (f" ({won[0]}-{won[1]})" if won is not None else ""))
        elif t == "result":
            if moves:
                moves[-1] = moves[-1].rstrip(",")
                lines += pack(f"  t{trick + 1:<3}", moves, 7)
                moves = []
            lines += [""] + _result(e, setup)
    if moves:
        moves[-1] = moves[-1].rstrip(",")
        lines += pack(f"  t{trick + 1:<3}", moves, 7)
    return "\n".join(lines)
