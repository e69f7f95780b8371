"""The people's form of an Enemy Anemone trace: one line per trick, at most 80 columns.

Each hand opens with its starter, every seat's dealt cards (by suit) and, at two
players, the draw pile; then each trick shows the cards in the order played
(``A9+2=11``: a +2 token attached, ``A9+1+1=11`` two +1s), the discards, the winner, the points won
and who takes the token for the lowest card; then the hand's end-of-hand tokens,
scores, totals and the tokens each seat holds. Works on a whole match and on a
trace cut to one hand (``--hand K``: the setup and that hand's events).
"""
from __future__ import annotations

from analyser.io.trace_lines import WIDTH, pack, parts_shown, run_header

BONUS_RANKS = (3, 5, 8)


def _rank(card: str) -> int:
    return int(card[1:])


def _by_suit(cards) -> str:
    return " ".join(sorted(cards, key=lambda c: (c[0], _rank(c)))) or "-"


def _points(cards) -> int:
    return sum(2 if _rank(c) in BONUS_RANKS else 1 for c in cards)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _seats(seats) -> str:
    names = [f"s{s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _held(values) -> str:
    return "".join(f"+{v}" for v in values) or "-"


def _token(e: dict) -> str:
    """What a token event did: ``s3 takes a new +1`` (from the supply), ``s3 turns
    a +1 to +2``, ``s3 gets a +2 from s1`` (the supply empty; the value as s3 holds it)."""
    seat, source, value = e["seat"], e["from"], e["value"]
    if source == "supply":
        return f"s{seat} takes a new +{value}"
    if source == "flip":
        return f"s{seat} turns a +1 to +2"
    return f"s{seat} gets a +{value} from s{source}"


def _header(setup: dict) -> list[str]:
    players = setup["players"]
    lines = [f"Enemy Anemone, {players} players, seed {setup['seed']}, {setup.get('unit', 'match')} {setup['deal']}"]
    lines += run_header(setup)
    lines.append(f"First hand started by seat {setup['first']} (drawn at random)")
    return lines


class _Hand:
    """One hand as the events come: collects each trick's moves and its token, and
    the draws after it, and writes them out once they are complete."""

    def __init__(self, deal: dict, players: int):
        self.deal, self.players = deal, players
        self.pile = len(deal["draw_pile"])
        self.tricks = 0
        self.moves: list[str] = []
        self.trick: dict | None = None
        self.trick_token: dict | None = None
        self.draws: list[dict] = []
        self.awards: list[dict] = []

    def flush(self, out: list[str]):
        """The pending trick's line and draws (a trick is complete once its token has been seen)."""
        if self.trick is not None:
            t = self.trick
            self.tricks += 1
            won = t["cards"]
            result = [f"-> s{t['winner']} wins ({_plural(_points(won), 'pt')});",
                      _token(self.trick_token) if self.trick_token is not None else f"no token left for s{t['low']}"]
            moves = [m + "," for m in self.moves]
            moves[-1] = moves[-1].rstrip(",")
            out += pack(f"  t{self.tricks:<3}", moves + result, 7)
            self.moves, self.trick, self.trick_token = [], None, None
        if self.draws:
            self.pile -= sum(len(d["cards"]) for d in self.draws)
            pieces = [f"s{d['seat']} {' '.join(d['cards']) or 'nothing'}," for d in self.draws]
            pieces[-1] = pieces[-1].rstrip(",") + f" ({self.pile} left)"
            out += pack("       draw:", pieces, 13)
            self.draws = []

    def heading(self, starter: int, policies: list[str], held) -> list[str]:
        lines = ["", f"Hand {self.deal['hand']} — started by seat {starter}"]
        width = max((len(p) for p in policies), default=0)
        for s, cards in enumerate(self.deal["hands"]):
            label = f"  s{s} {policies[s]:<{width}}" if policies and width <= 16 else f"  s{s}"
            lines += pack(label, [_by_suit(cards)], 6)
        pile = self.deal["draw_pile"]
        if pile:
            lines += pack(f"  draw pile ({len(pile)}, top first):", pile, 4)
        if held is not None and not any(held):
            lines.append("  tokens held: none")
        elif held is not None:
            lines += pack("  tokens held:", [f"s{s} {_held(h)}," for s, h in enumerate(held)], 4)
            lines[-1] = lines[-1].rstrip(",")
        return lines


def _hand_end(e: dict, awards: list[dict], players: int) -> list[str]:
    lines = []
    if awards:
        lines += pack("  end of hand:", [_token(a) + ";" for a in awards], 7)
        lines[-1] = lines[-1].rstrip(";")
    cells = {"": [f"s{s}" for s in range(players)], "score": [str(x) for x in e["scores"]],
             "total": [str(x) for x in e["totals"]], "held": [_held(t) for t in e["tokens"]]}
    widths = [max(len(col[s]) for col in cells.values()) for s in range(players)]
    for name, row in cells.items():
        line = f"  {name:<7}" + "".join(f"  {v:>{w}}" for v, w in zip(row, widths, strict=True))
        if len(line) > WIDTH:   # at most 9 tokens: only a very unlikely spread gets here
            lines += pack(f"  {name:<7}", [f"s{s}:{v}" for s, v in enumerate(row)], 11)
        else:
            lines.append(line)
    return lines


def _result(e: dict, setup: dict, last_totals) -> list[str]:
    players = setup["players"]
    actions = _plural(e["actions"], "play") + " and discards"
    if e["aborted"]:
        lines = [f"Result: aborted at the action cap, after {actions}: no winner."]
        if last_totals is not None:
            lines.append("  totals after the last complete hand: "
                         + ", ".join(f"s{s} {t}" for s, t in enumerate(last_totals)))
        return lines
    totals, tokens = e["totals"], e["tokens"]
    top = max(totals)
    level = [s for s in range(players) if totals[s] == top]
    winners = [s for s in range(players) if e["win"][s] > 0]
    names = _seats(winners)
    if len(level) == 1:
        head = f"{names} wins"
    else:
        head = _seats(level) + f" tie on {top} points; "
        if not e["tiebreak"]:
            head += "they share the win, level on tokens held too"
        elif len(winners) == 1:
            head += f"{names} wins, holding more tokens"
        else:
            head += f"{names} share the win, holding more tokens"
    lines = pack(f"Result after {actions}:", (head + ".").split(" "), 2)
    policies = setup.get("policies", [""] * players)
    for s in sorted(range(players), key=lambda s: (e["rank"][s], s)):
        lines.append(f"  {e['rank'][s]}. s{s} {totals[s]:>4} points, {_plural(tokens[s], 'token'):<9} "
                     f" {policies[s]}".rstrip())
    return lines


def render(events: list[dict]) -> str:
    setup = events[0]
    players = setup["players"]
    policies = setup.get("policies", [])
    lines = _header(setup)
    parts_shown(events, "hand", lines)
    held = None          # each seat's tokens as the current hand starts, when the events tell
    last_totals = None
    hand = None
    for e in events[1:]:
        t = e["type"]
        if t == "deal":
            hand = _Hand(e, players)
            if e["hand"] == 0:
                held = [[] for _ in range(players)]
        elif t == "start":
            lines += hand.heading(e["seat"], policies, held)
        elif t in ("play", "discard"):
            hand.flush(lines)
            if t == "discard":
                hand.moves.append(f"s{e['seat']} discards {e['card']}")
            else:
                extra = "".join(f"+{v}" for v in e["tokens"]) + f"={e['value']}" if e["tokens"] else ""
                hand.moves.append(f"s{e['seat']} {e['card']}{extra}")
        elif t == "trick":
            hand.trick = e
        elif t == "token":
            if e["for"] == "lowest":
                hand.trick_token = e
            else:
                hand.flush(lines)
                hand.awards.append(e)
        elif t == "draw":
            hand.draws.append(e)
        elif t == "hand_end":
            hand.flush(lines)
            lines += _hand_end(e, hand.awards, players)
            held = [list(x) for x in e["tokens"]]
            last_totals = e["totals"]
            hand = None
        elif t == "result":
            if hand is not None:
                hand.flush(lines)
                hand = None
            lines += [""] + _result(e, setup, last_totals)
    if hand is not None:
        hand.flush(lines)
    return "\n".join(lines)
