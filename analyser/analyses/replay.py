"""``replay``: one unit as a self-contained HTML page to step through in a browser.

The data is built from the game kit's positions (``GameKit.play``): where every card is after
the setup and after each action, the decision at each position (legal actions and the one the
policy chose), and per seat what that seat could know there (``Position.seen_by`` and
``worlds.Knowledge``, so the cards it saw go into a hidden place stay shown). Each view is a
snapshot every SNAPSHOT_EVERY steps plus the changed locations of each step, so a Spite & Malice
match stays well under a megabyte. What only the game knows (which places a seat's box
holds, card names, the status line, each action's trace line) is its view (GameSpec.view,
analyser.games.view). The page itself is analyser.io.replay_page.
"""
from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from analyser.analyses.position_text import SEAT_PLACE, game_view, label
from analyser.analyses.rollout import fresh, position_at, steps
from analyser.analyses.trace import trace
from analyser.engine.config import RunConfig
from analyser.errors import UserError
from analyser.games.common import quiet_first_class
from analyser.games.worlds import Knowledge
from analyser.io.atomic import write_file
from analyser.io.replay_page import check_page_path, page_html

SNAPSHOT_EVERY = 64


@dataclass
class Replay:
    """A replay page's data; ``save(path)`` writes the page, and Jupyter shows it inline."""
    data: dict

    def html(self) -> str:
        return page_html(self.data)

    def save(self, path) -> Path:
        """Write the page: a temporary file renamed into place, so a failed write leaves an older page."""
        return write_file(check_page_path(path), self.html())

    def _repr_html_(self) -> str:
        return (f'<iframe srcdoc="{html.escape(self.html(), quote=True)}" '
                'style="width:100%;height:720px;border:1px solid #ccc"></iframe>')

    def __repr__(self) -> str:
        d = self.data
        return f"<Replay {d['game']} seed {d['seed']} {d['unit']} {d['deal']}: {len(d['steps'])} steps>"


def replay(game: str = "palace", seed: int = 0, deal: int = 0, players: int | None = None, policies=None,
           rules: dict | None = None, rollouts=()) -> Replay:
    """Unit ``deal`` of ``seed`` (exactly the one ``simulate`` and ``trace`` play) as a replay.
    ``rollouts``: rollouts of this unit's positions (RolloutResult, or the files ``analyser rollout
    --out`` writes), each shown at its step beside the legal actions."""
    config = RunConfig.build(game, players=players, policies=policies, deals=1, seed=seed, rules=rules, first_deal=deal)
    view = game_view(config.game)
    played = trace(game, seed=seed, deal=deal, players=players, policies=policies, rules=rules)
    with quiet_first_class():
        history, kit, runner = position_at(config, None)
        history = [Cached(p) for p in history]
        decisions = [_decision(p, kit, runner) for p in history]
        dealt = kit.dealt(config.seed, config.first_deal, config.players, runner.settings, runner.streams)
        dealt = None if dealt is None else Cached(dealt)
    places = list(history[0].locations())
    text = played.text().splitlines()
    deck = sorted(set(history[0].deck()))
    views = {"all": _stream([[view.shown(n, p.locations()[n]) for n in places] for p in history])}
    hidden_moves = {}
    for seat in range(config.players):
        seen, moves = _seat_view(history, dealt, seat, kit, places, view)
        views[str(seat)] = _stream(seen)
        hidden_moves[str(seat)] = moves
    public = set.intersection(*(history[0].seen_by(s) for s in range(config.players)))
    statuses = [view.status(p) for p in history]
    valued = rollout_values(rollouts, config, decisions)
    order = sorted({d["chosen"] for d in decisions if d} | {a for d in decisions if d for a in d["legal"]})
    for d in decisions:
        if d:
            d["legal"] = _mask(d["legal"], order)
    return Replay({
        "game": config.game.name, "title": text[0], "seed": config.seed, "deal": config.first_deal,
        "unit": config.game.unit, "sub_unit": config.game.sub_unit, "players": config.players,
        "policies": config.metadata()["policies"], "places": places,
        "labels": [label(n, view) for n in places], "public": [n in public for n in places],
        "layout": _layout(places, view.seat_places, config.players),
        "cards": {str(c): view.card(c) for c in deck}, "red": [str(c) for c in deck if view.red(c)],
        "actions": {str(a): kit.action_text(a) for a in order}, "action_order": order,
        "length": steps(kit, len(history) - 1), "log": text,
        "snapshot_every": SNAPSHOT_EVERY, "views": views, "hidden_moves": hidden_moves,
        "steps": [_step(i, decisions, statuses) | ({"r": valued[i]} if i in valued else {})
                  for i in range(len(history))],
        "lines": _log_lines(view, played.events, text, len(history)),
    })


class Cached:
    """A position whose places and views are worked out once: the page reads each many times
    (every seat's knowledge, every move's privacy), and a game may derive them at some cost."""

    def __init__(self, position):
        self.position, self.seen = position, {}
        self.places = position.locations()

    def locations(self) -> dict[str, list[int]]:
        return self.places

    def seen_by(self, seat: int) -> set[str]:
        if seat not in self.seen:
            self.seen[seat] = self.position.seen_by(seat)
        return self.seen[seat]

    def __getattr__(self, name):
        return getattr(self.position, name)


def _decision(position, kit, runner) -> dict | None:
    """The seat to move, its legal actions and the one its policy chooses (as the unit played)."""
    found = position.decision(forced=True)
    if found is None:
        return None
    seat, args = found
    chosen = int(runner.fns[seat](*fresh(args), runner.params[seat]))
    return {"seat": seat, "legal": [int(a) for a in kit.legal_actions(args)], "chosen": chosen}


def rollout_values(rollouts, config: RunConfig, decisions: list) -> dict[int, dict]:
    """Per position index, the rollout of that position: its worlds and, per action, [id, win share,
    its 95% interval, the paired difference from the best]. A rollout of another unit, line-up or
    rules than the replay's is refused in one line."""
    from analyser.analyses.rollout import RolloutResult, load_rollout

    mine = config.metadata()
    out = {}
    for r in rollouts:
        r = r if isinstance(r, RolloutResult) else load_rollout(r)
        m = r.meta
        theirs = {k: m.get(k) for k in ("game", "seed", "first_deal", "players", "policies", "settings")}
        differ = [k for k, v in theirs.items() if v != mine[k]]
        if differ:
            raise UserError(f"the rollout of step {m.get('step')} is of another {config.game.unit} than this replay's "
                            f"({differ[0]}: {theirs[differ[0]]} there, {mine[differ[0]]} here)")
        index = int(m["step"])                       # the position after K steps, the page's step K
        if index >= len(decisions) or decisions[index] is None:
            raise UserError(f"the rollout's step {m['step']} is no decision of this {config.game.unit}")
        rows = [[int(row.id), *(round(float(x), 4) for x in (row.win, row.win_ci_low, row.win_ci_high, row.diff))]
                for row in r.table.itertuples()]
        out[index] = {"worlds": int(m["trials"]), "rows": rows, "open": m.get("sampler", "").startswith("OPEN")}
    return out


def _mask(legal: list[int], order: list[int]) -> str:
    """Legal actions as hex digits, bit b of digit j for action ``order[4 j + b]`` (a third of the
    size of the ids in a Spite & Malice match)."""
    bits = [0] * ((len(order) + 3) // 4)
    for a in legal:
        k = order.index(a)
        bits[k // 4] |= 1 << (k % 4)
    return "".join(f"{b:x}" for b in bits).rstrip("0")


def _step(i: int, decisions: list, statuses: list) -> dict:
    """Step i's decision and, when it changed, the public status (``s``)."""
    step = {"d": decisions[i]} if decisions[i] else {}
    if i == 0 or statuses[i] != statuses[i - 1]:
        step["s"] = statuses[i]
    return step


def _seat_view(history, dealt, seat: int, kit, places: list[str], view):
    """What ``seat`` could know at each position: the cards of the places it sees, of every other
    place the cards it knows to be there (Knowledge) then a negative count of face-down cards;
    and the steps whose action it could not read (cards moved from the mover's private places
    into places the seat does not see: an Enemy Anemone discard)."""
    first = dealt if dealt is not None else history[0]
    knowledge = Knowledge(seat, first)
    views, hidden, last = [], [], first
    for i, position in enumerate(history):
        if position is not first:
            knowledge.see(position, kit.shuffled(last, position), kit.shown(last, position))
            if i and _private_move(last, position, seat, kit):
                hidden.append(i)
        last = position
        seen, cards = position.seen_by(seat), position.locations()
        views.append([view.shown(n, cards[n]) if n in seen else _face_down(cards[n], knowledge.known.get(n, Counter()))
                      for n in places])
    return views, hidden


def _face_down(cards: list[int], known: Counter) -> list[int]:
    shown = sorted(known.elements())
    rest = len(cards) - len(shown)
    return shown + ([-rest] if rest else [])


def _private_move(before, after, viewer: int, kit) -> bool:
    decision = before.decision(forced=True)
    if decision is None or decision[0] == viewer:
        return False
    mover_sees, viewer_sees = before.seen_by(decision[0]), after.seen_by(viewer)
    a, b = before.locations(), after.locations()
    left = sum((Counter(a[n]) - Counter(b[n]) for n in a if n in mover_sees and n not in before.seen_by(viewer)),
               Counter())
    arrived = sum((Counter(b[n]) - Counter(a[n]) for n in b if n not in viewer_sees), Counter())
    return bool(left & arrived) and not kit.shuffled(before, after)


def _stream(states: list[list[list[int]]]) -> dict:
    """A full snapshot every SNAPSHOT_EVERY steps, and per step the changed places as
    ``place index -> [cards kept from the old front, then the new rest]``."""
    diffs = [{}]
    for old, new in zip(states, states[1:], strict=False):
        step = {}
        for k, (o, n) in enumerate(zip(old, new, strict=True)):
            if o != n:
                keep = next((j for j, (x, y) in enumerate(zip(o, n, strict=False)) if x != y), min(len(o), len(n)))
                step[str(k)] = [keep, *n[keep:]]
        diffs.append(step)
    return {"snapshots": states[::SNAPSHOT_EVERY], "diffs": diffs}


def _layout(places: list[str], seat_places: tuple, players: int) -> dict:
    """Place indices per seat (the game's per-seat prefixes) and the shared ones."""
    seats: list[list[int]] = [[] for _ in range(players)]
    shared = []
    for k, name in enumerate(places):
        m = SEAT_PLACE.match(name)
        if m and m.group(1) in seat_places:
            seats[int(m.group(2))].append(k)
        else:
            shared.append(k)
    return {"seats": seats, "shared": shared}


def _log_lines(view, events: list[dict], text: list[str], steps: int) -> list[int]:
    """The trace line of each step's action (step 0: the first line), from the game's view."""
    lines = [0, *view.lines(events, text)[: steps - 1]]
    return lines + [lines[-1]] * (steps - len(lines))
