"""The people's form of a Spite & Malice trace: one line per turn, at most 80 columns.

Each round opens with its starter and why, the points so far, and each seat's
payoff pile (size and top) and hand. Then each turn is one line (continued,
indented, when long): ``t12 s0 +7 9:`` is seat 0's 12th turn of the round,
having drawn 7 and 9; then its moves in order: ``P:5>b1`` the payoff top onto
build pile 1, ``S2:5>b1`` the top of side pile 2, ``5>b1`` a hand card,
``K=6>b0`` a King played as a 6, ``[b1 done, stock 40]`` a completed pile
shuffled into the stock, ``refill 2 3 4 4 J`` an emptied hand drawn up; and how
the turn ended: ``| 9>s3`` a discard onto side pile 3, ``| stop``, or nothing
(no legal move). A round ends with its winner and score, or a draw.
"""
from __future__ import annotations

from analyser.games.spite_and_malice.constants import card_name
from analyser.io.trace_lines import pack, parts_shown, run_header


def _cards(cards) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


# What a turn's symbols mean, printed under the header (docs/rules/spite_and_malice.md says more).
LEGEND = ("Key: t12 s0 +7 9: seat 0's turn 12, drawing 7 9. P:5>b1 its payoff top onto",
          "     build pile 1, S2:5>b1 its side pile 2's top, 5>b1 a hand card, K=6 a King",
          "     as 6; | 9>s3 the discard onto side pile 3 that ends the turn.")


def _header(setup: dict) -> list[str]:
    lines = [f"Spite & Malice, seed {setup['seed']}, {setup.get('unit', 'match')} {setup['deal']}"]
    lines += run_header(setup)
    return lines + list(LEGEND)


_WHY = {"higher_top": "the higher payoff top", "tie": "equal payoff tops, drawn at random",
        "loser": "lost the round before", "after_draw": "did not start the drawn round before"}


def _deal(e: dict, policies: list[str]) -> list[str]:
    lines = []
    width = max((len(p) for p in policies), default=0)
    for s in range(2):
        label = f"  s{s} {policies[s]:<{width}}" if policies and width <= 16 else f"  s{s}"
        pile = e["payoffs"][s]
        lines += pack(label, [f"payoff {len(pile)}, top {card_name(pile[-1])};", f"hand {_cards(e['hands'][s])}"], 6)
    return lines


def _build(e: dict) -> str:
    card = "K=" + card_name(e["value"]) if e["card"] == 13 else card_name(e["card"])
    where = "P:" if e["source"] == "payoff" else f"S{e['source'][4:]}:" if e["source"].startswith("side") else ""
    return f"{where}{card}>b{e['pile']}"


def render(events: list[dict]) -> str:
    setup = events[0]
    policies = setup.get("policies", [])
    lines = _header(setup)
    rounds, whole = parts_shown(events, "round", lines)
    points = [0, 0] if whole or rounds == [0] else None     # unknown at the start of a round cut out alone
    head = ""
    moves: list[str] = []
    deal = None

    def flush():
        nonlocal head, moves
        if head:
            lines.extend(pack(head, moves, 6))
        head, moves = "", []

    for e in events[1:]:
        t = e["type"]
        if t == "deal":
            flush()
            deal = e
        elif t == "start":
            score = f"; points {points[0]}-{points[1]}" if points is not None else ""
            lines += ["", f"Round {e['round']} — s{e['seat']} starts ({_WHY[e['why']]}){score}"]
            if deal is not None:
                lines += _deal(deal, policies)
        elif t == "turn":
            flush()
            drawn = f" +{_cards(e['drawn'])}" if e["drawn"] else ""
            head = f"  t{e['turn']} s{e['seat']}{drawn}:"
        elif t == "build":
            moves.append(_build(e))
        elif t == "complete":
            moves.append(f"[b{e['pile']} done, stock {e['stock']}]")
        elif t == "refill":
            moves.append(f"refill {_cards(e['drawn'])}")
        elif t == "discard":
            moves += ["|", f"{card_name(e['card'])}>s{e['side']}"]
        elif t == "stop":
            moves += ["|", "stop"]
        elif t == "round_end":
            flush()
            points = list(e["points"])
            if e["winner"] is None:
                lines.append(f"  The stock ran out: round {e['round']} is drawn (points {points[0]}-{points[1]})")
            else:
                w = e["winner"]
                lines.append(f"  s{w} plays out its payoff pile: wins round {e['round']}, scores {e['scored']} "
                             f"({points[0]}-{points[1]})")
        elif t == "result":
            flush()
            lines += [""] + _result(e, policies)
    flush()
    return "\n".join(lines)


def _result(e: dict, policies: list[str]) -> list[str]:
    rounds = f"{e['rounds']} round" + ("" if e["rounds"] == 1 else "s")
    head = f"Result after {e['moves']:,} moves, {e['turns']:,} turns in {rounds}:"
    if e["aborted"]:
        return pack(head, "aborted at a cap: no winner.".split(" "), 2)
    p = e["points"]
    if e["winner"] is None:
        return pack(head, f"a drawn match, {p[0]}-{p[1]}.".split(" "), 2)
    w = e["winner"]
    name = f" ({policies[w]})" if policies else ""
    return pack(head, f"s{w}{name} wins {p[w]}-{p[1 - w]}.".split(" "), 2)
