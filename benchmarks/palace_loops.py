"""Why Palace games reach the action cap: the aborted games of some line-ups, each one classified.

    .venv/bin/python benchmarks/palace_loops.py [--games 20000] [--seed 1] [--lineup 4:saver ...] [--rule K=V ...]

A line-up is ``PLAYERS:POLICY[,POLICY...]`` (default: saver x4, saver x2, random x2, saver vs random at 2
players, random x4). Each is simulated for ``--games`` games; then every aborted game is looked at:

- with random in a seat, the seat's stream is part of the position, so no position comes round again:
  the aborted games are played again with a cap of 1,000,000 actions (the same games: a cap only cuts a
  game short), and the script says whether they all end, and when;
- with deterministic policies only (saver, lowest, pickup) the game is stepped one action at a time from
  the deal until a whole position (public and private records) repeats: the loop. Over one period it
  counts the real decisions, and for each pickup the pile's top rank, whether the pickup was forced, and
  whether the picker held a 10 in the source it plays from (a 10 that ``ten_on_anything`` would let it
  play). Then, at each decision of the period, every other legal action is played once (the policies
  play on) until the game ends or a position repeats: a loop that some single different decision ends
  is the policies' loop, not one the rules force.

The findings are written up in docs/rules/palace.md (Aborted games: why games loop).
"""
from __future__ import annotations

import argparse
import time
import warnings
from collections import Counter

import numpy as np
from numba import njit

import analyser
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.palace import stepwise
from analyser.games.palace.constants import ACTION, RANK, SOURCE
from analyser.games.palace.policies import lowest_policy, pickup_policy, saver_policy
from analyser.games.palace.rules import fill_play_legal_nb
from analyser.games.palace.state import PLAY_WORDS, POLICY_SIG, new_state_nb

LINEUPS = ("4:saver", "2:saver", "2:random", "2:saver,random", "4:random")
RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
FORCE = 7           # the memory slot a wrapped policy reads: an action + 1 to play once instead of its own
LONG_CAP = 1_000_000


def forcing(base):
    """``base``, except that it plays the action left in its memory slot FORCE once (a deviation)."""
    @njit(POLICY_SIG)
    def policy(pub, pv, legal, params):
        a = int(pv["memory"][FORCE]) - 1
        if a >= 0:
            pv["memory"][FORCE] = 0.0
            return a
        return base(pub, pv, legal, params)
    return policy


DETERMINISTIC = {"saver": saver_policy, "lowest": lowest_policy, "pickup": pickup_policy}


class Game:
    """One deal played one action at a time, every seat through its pointer (a forcing policy)."""

    def __init__(self, players, policies, seed, deal, rules):
        config = RunConfig.build("palace", players=players, policies=policies, deals=1, seed=seed,
                                 first_deal=deal, rules=rules)
        runner = ChunkRunner(config)
        names = [seat.spec.name for seat in config.seats]
        names += [names[0]] * (len(runner.fns) - len(names))
        self.fns = tuple(FORCING[name] for name in names)
        self.kinds = np.zeros(len(self.fns), np.int64)
        self.seed, self.deal, self.players = seed, deal, players
        self.settings, self.params, self.streams = runner.settings, runner.params, runner.streams
        self.cap = int(config.settings["max_actions"])
        self.log = np.zeros(0, np.int32)

    def begin(self):
        state = list(new_state_nb())
        stepwise.begin_unit(self.seed, self.deal, self.players, self.settings, self.streams, self.fns, self.kinds,
                            self.params, *state, self.log)
        return state

    def step(self, state) -> bool:
        return stepwise.step(self.seed, self.deal, self.settings, self.streams, self.fns, self.kinds, self.params,
                             *state, self.log)


def key(state) -> bytes:
    """The position, field by field (a copied record need not keep its padding bytes)."""
    pub, priv = state[0], state[1]
    return b"".join(pub[f].tobytes() for f in pub.dtype.names) + b"".join(priv[f].tobytes() for f in priv.dtype.names)


def copy(state):
    return [a.copy() for a in state]


def legal_of(state):
    """(seat to move, its source, its legal actions), from a copy: filling the mask writes the source."""
    pb = state[0].copy()[0]
    seat = int(pb["seat"])
    legal = np.zeros(ACTION.COUNT, np.bool_)
    fill_play_legal_nb(pb, state[1][seat], seat, legal, legal[: 8 * PLAY_WORDS].view(np.uint64))
    return seat, int(pb["source"]), np.flatnonzero(legal)


def run(game, state, keep=False):
    """Step until the game is over (("over", state)) or a position seen on the way repeats
    (("loop", first index, period, the states from the start)). Only positions with the draw pile
    empty are compared: a draw changes the position for good."""
    seen, states, i = {}, [], 0
    while True:
        if state[0][0]["draw_len"] == 0:
            k = key(state)
            if k in seen:
                states.append(copy(state))
                return ("loop", seen[k], i - seen[k], states)
            seen[k] = i
        if keep:
            states.append(copy(state))
        if game.step(state):
            return ("over", state)
        i += 1


def tens_in_source(state, seat, source) -> int:
    if source == SOURCE.HAND:
        return int(state[1]["counts"][seat, RANK.TEN])
    if source == SOURCE.FACE_UP:
        return sum(int(c) >= 0 and int(c) >> 2 == RANK.TEN for c in state[0][0]["face_up"][seat])
    return 0


def classify(game) -> dict:
    found = run(game, game.begin(), keep=True)
    if found[0] == "over":
        return {"kind": "no repeat before the cap" if found[1][2][0]["aborted"] else "ended"}
    _, first, period, states = found
    loop = states[first: first + period + 1]
    pb = loop[0][0][0]
    out = {"kind": "loop", "period": period, "players_in": int((pb["place"][: game.players] == 0).sum()),
           "decisions": 0, "pickups": 0, "forced_pickups": 0, "tops": Counter(), "picker_holds_ten": 0,
           "escapes": 0, "escapes_deviator_not_loser": 0}
    for i in range(period):
        before, after = loop[i], loop[i + 1]
        seat, source, actions = legal_of(before)
        if after[2][0]["pickups"].sum() > before[2][0]["pickups"].sum():
            out["pickups"] += 1
            out["forced_pickups"] += len(actions) == 1
            out["tops"][RANKS[int(before[0][0]["top_rank"])]] += 1
            out["picker_holds_ten"] += tens_in_source(before, seat, source) > 0
        if len(actions) < 2:
            continue
        out["decisions"] += 1
        for a in actions:
            other = copy(before)
            other[1]["memory"][seat, FORCE] = a + 1
            game.step(other)
            if key(other) == key(after):
                continue                            # the policy's own choice
            result = run(game, other)
            if result[0] == "over" and not result[1][2][0]["aborted"]:
                out["escapes"] += 1
                out["escapes_deviator_not_loser"] += int(result[1][0][0]["place"][seat]) != game.players
    return out


def tops_kind(tops) -> str:
    """What the loop's pickups were of: a 9 on top (nothing above 9 may follow, a 10 neither unless
    ten_on_anything), a high card (J, Q, K, A) that the picker could not beat, or both."""
    if set(tops) == {"9"}:
        return "9s only"
    return "9s and high cards" if "9" in tops else "high cards only"


def share(k, n) -> str:
    return f"{k} of {n} ({k / n:.2%})" if n else "0"


def report_random(players, policies, games, seed, rules, aborted):
    """A line-up with random: the aborted games played again with a cap of LONG_CAP actions."""
    rec = analyser.simulate("palace", players=players, policies=policies, n=games, seed=seed, threads=1,
                            keep_records=True, progress=False, rules={**rules, "max_actions": LONG_CAP}).records
    length = rec["length"]
    print(f"  random in a seat: no position repeats (the seat's stream is part of it); with a cap of "
          f"{LONG_CAP:,}: {int(rec['aborted'].sum())} of {games} abort; the {aborted.size} aborted at the cap end "
          + (f"after {int(np.median(length[aborted]))} actions (median), {int(length[aborted].max())} at most"
             if aborted.size else "(none)"))
    tail = ", ".join(f"{x:,}: {(length > x).mean():.3%}" for x in (1000, 2000, 5000, 10000))
    turns = rec["turns"]
    pickups = rec["pickups"][:, :players].sum(axis=1)
    voluntary = rec["voluntary"][:, :players].sum(axis=1)
    print(f"  length: mean {length.mean():.0f}, median {np.median(length):.0f}; longer than {tail}; "
          f"pickups {pickups.sum() / turns.sum():.1%} of turns, {voluntary.sum() / pickups.sum():.1%} of them "
          f"voluntary")


def report_loops(results):
    loops = [r for r in results if r["kind"] == "loop"]
    other = Counter(r["kind"] for r in results if r["kind"] != "loop")
    if other:
        print(f"  not a loop: {dict(other)}")
    if not loops:
        return
    tops = Counter()
    for r in loops:
        tops.update(r["tops"])
    print(f"  loops: {len(loops)}; players still in: {dict(sorted(Counter(r['players_in'] for r in loops).items()))}; "
          f"periods (actions): {dict(sorted(Counter(r['period'] for r in loops).items()))}")
    print(f"  pickups of the loops by the pile's top: {dict(tops.most_common())}; every pickup forced in "
          f"{sum(r['forced_pickups'] == r['pickups'] for r in loops)} loops")
    print(f"  loops by what is picked up: {dict(Counter(tops_kind(r['tops']) for r in loops).most_common())}")
    print(f"  a forced picker holds a 10 in the source it plays from (one ten_on_anything lets it play): "
          f"{share(sum(r['picker_holds_ten'] > 0 for r in loops), len(loops))}")
    print(f"  loops without a real decision (the rules alone keep them going): "
          f"{sum(r['decisions'] == 0 for r in loops)}")
    print(f"  one different decision ends the game: {share(sum(r['escapes'] > 0 for r in loops), len(loops))}; "
          f"with the seat that deviates not the loser: "
          f"{share(sum(r['escapes_deviator_not_loser'] > 0 for r in loops), len(loops))}")


FORCING = {name: forcing(fn) for name, fn in DETERMINISTIC.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lineup", action="append", help="PLAYERS:POLICY[,POLICY...] (repeatable)")
    parser.add_argument("--rule", action="append", default=[], help="NAME=VALUE (repeatable)")
    args = parser.parse_args()
    rules = {k: int(v) for k, v in (r.split("=") for r in args.rule)}
    warnings.simplefilter("ignore")          # the AbortedUnits warning: counting them is the point here
    for lineup in args.lineup or LINEUPS:
        started = time.time()
        players, _, names = lineup.partition(":")
        players, policies = int(players), names.split(",")
        rec = analyser.simulate("palace", players=players, policies=policies, n=args.games, seed=args.seed,
                                threads=1, keep_records=True, progress=False, rules=rules).records
        aborted = np.flatnonzero(rec["aborted"])
        print(f"{lineup} {rules or ''}: {share(aborted.size, args.games)} games aborted at the cap "
              f"(seed {args.seed})")
        if all(p.split(":")[0] in DETERMINISTIC for p in policies):
            report_loops([classify(Game(players, policies, args.seed, int(d), rules)) for d in aborted])
        else:
            report_random(players, policies, args.games, args.seed, rules, aborted)
        print(f"  ({time.time() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
