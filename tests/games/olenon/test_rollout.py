"""Olenon rollouts: the table of a mid-round position, worlds that keep what the seat
knows and read nothing hidden, the play replayed in every world, the action that wins at once
first, and the CLI.

What an Olenon seat knows: its hand, the table, the face-up passed cards, the discards, every
hand size (with talk=open every hand), and the cards it saw go back into a hand at a trick's end
(Knowledge), less the cards of their value that hand put down since. The play shows nothing
more (OlenonKit.consistent is None): a pass is legal on every table with cards whatever the hand
holds, and on an empty table a lead is the only action; test (c) replays every action of the
round in every world, backwards from the world's hands, and finds each legal.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analyses.rollout import position_at, rollout
from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.olenon.constants import ACTION, PLAYERS, TABLE
from analyser.games.olenon.kit import OlenonKit, OlenonPosition, legal_actions
from analyser.games.worlds import Knowledge, sample_world, unknown_places
from tests.games.olenon.positions import Table

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

KIT = OlenonKit()


def history_of(seed: int, rules=None, policies=None) -> list:
    return position_at(RunConfig.build("olenon", policies=policies, deals=1, seed=seed, rules=rules), None)[0]


def follow(positions, seat: int):
    """What ``seat`` knows at the last of ``positions`` (worlds.follow, a new round a shuffle)."""
    knowledge = Knowledge(seat, positions[0])
    for before, after in zip(positions[:-1], positions[1:], strict=True):
        knowledge.see(after, KIT.shuffled(before, after))
    return knowledge


def known_of(history, step: int, seat: int):
    return follow(history[:step], seat)


def mid_round(history, talk=False) -> int:
    """The first step at a decision on a table with cards, after the first trick, where the seat
    to move knows a card in another hand (with talk=open: any such decision)."""
    for step, position in enumerate(history, start=1):
        pb = position.pub[0]
        if position.decision() is None or pb["table_len"] == 0 or pb["trick"] == 0:
            continue
        if talk or any(known_of(history, step, int(pb["seat"])).known.values()):
            return step
    raise AssertionError("no mid-round decision with a known card")


@pytest.fixture(scope="module")
def cases():
    """(history, step) at mid-round decisions of talk=none and talk=open matches."""
    out = []
    for seed in (1, 2, 3):
        h = history_of(seed)
        out.append((h, mid_round(h)))
    h = history_of(4, {"talk": "open"})
    out.append((h, mid_round(h, talk=True)))
    return out


def fields(records) -> tuple:
    return tuple((name, records[name].tobytes()) for name in records.dtype.names)


def worlds_of(history, step, n=40, seed=0):
    position = history[step - 1]
    seat = int(position.pub[0]["seat"])
    knowledge = known_of(history, step, seat)
    return position, seat, knowledge, [sample_world(position, knowledge, np.random.default_rng([seed, t]))
                                       for t in range(n)]


# -- (a) the table

def test_a_mid_round_rollout_lists_every_legal_action_once_with_the_team_s_win():
    history = history_of(1)
    step = mid_round(history)
    position = history[step - 1]
    seat, (pb, pv, legal) = position.decision()
    r = rollout("olenon", seed=1, step=step - 1, trials=200)
    assert sorted(r.table["id"]) == legal_actions(pb, pv["hand"]) == list(np.flatnonzero(legal))
    assert r.meta["seat"] == seat and r.table["win"].between(0, 1).all()
    assert set(r.table["action"]) == {KIT.action_text(a) for a in np.flatnonzero(legal)}
    assert "pass" in set(r.table["action"])
    # the same worlds by hand: the seat's win is its team's, its partner's too, the other team's complement
    runner = ChunkRunner(RunConfig.build("olenon", deals=1, seed=1))
    _, _, knowledge, worlds = worlds_of(history, step, n=30)
    out, current = KIT.play_worlds(worlds, r.actions, runner.fns, runner.params, runner.settings, 0, 0)
    assert not out["aborted"].any()
    win = out["win"]
    assert np.array_equal(win[:, :, seat], win[:, :, seat ^ 2])
    assert np.array_equal(win[:, :, seat], 1 - win[:, :, seat ^ 1])
    for i, a in enumerate(r.actions):             # what is reported: the seat's column of those records
        assert r.table.set_index("id").loc[a, "win"] == pytest.approx(r.wins[:, i].mean())
    assert np.array_equal(out["score"][:, :, seat], out["rounds_won"][:, :, seat])


def test_worlds_are_played_on_their_own_streams_the_same_for_every_action():
    """Common random numbers: an action twice gives the same outcomes, run after run; and a world's
    later rounds are dealt from its own key, not the real match's (which no seat knows)."""
    history = history_of(2)
    step = mid_round(history)
    runner = ChunkRunner(RunConfig.build("olenon", policies=["random"] * PLAYERS, deals=1, seed=2))
    _, seat, _, worlds = worlds_of(history, step, n=40)
    legal = np.flatnonzero(worlds[0].decision()[1][-1])
    actions = np.array([legal[0], legal[-1], legal[0]])
    out, current = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 5, 0)
    assert np.array_equal(out[:, 0], out[:, 2]) and (out["rounds"] > 1).any()
    again = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 5, 0)
    assert np.array_equal(out, again[0]) and np.array_equal(current, again[1])
    for w in worlds:
        w.hid["key"] ^= 0x5DEECE66D
        w.priv["rng"] += 1
        w.hid["rng"] += 1
    again = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 5, 0)
    assert np.array_equal(out, again[0]) and np.array_equal(current, again[1])
    other = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 6, 0)[0]
    assert not np.array_equal(out["win"], other["win"])


def test_action_text():
    assert KIT.action_text(ACTION.PASS) == "pass"
    assert KIT.action_text(5 * 4 + 1) == "put down 5 5"
    assert KIT.action_text(0) == "put down 0"
    assert KIT.shuffled(*history_of(1)[:2]) is False


# -- (b) what the seat knows stays, in every world

def test_every_world_keeps_the_seat_s_cards_the_public_ones_and_the_known_ones(cases):
    for history, step in cases:
        position, seat, knowledge, worlds = worlds_of(history, step)
        here = position.locations()
        seen = position.seen_by(seat)
        hands = {position.priv[s]["hand"].tobytes() for s in range(PLAYERS)}
        varied = False
        for world in worlds:
            there = world.locations()                   # the kit's bookkeeping checks run here
            assert Counter(c for cs in there.values() for c in cs) == Counter(position.deck())
            assert {n: len(c) for n, c in there.items()} == {n: len(c) for n, c in here.items()}
            for name in seen:
                assert there[name] == here[name], name
            for name, cards in knowledge.known.items():
                assert not Counter(cards) - Counter(there[name]), (name, cards, there[name])
            assert fields(world.pub) == fields(position.pub)      # the public record, byte for byte
            assert fields(world.priv[seat: seat + 1]) == fields(position.priv[seat: seat + 1])
            varied |= {world.priv[s]["hand"].tobytes() for s in range(PLAYERS)} != hands
        # talk=open: every hand is public, only the set-aside cards are dealt anew
        assert varied != bool(position.pub[0]["talk"])


# -- (c) the play shows nothing more: every action of the round is legal in every world

def test_every_action_of_the_round_replays_in_every_world(cases):
    for history, step in cases:
        position, seat, knowledge, worlds = worlds_of(history, step)
        assert KIT.consistent(history[:step], seat) is None
        r = int(position.pub[0]["round"])
        start = next(i for i, p in enumerate(history[:step]) if int(p.pub[0]["round"]) == r)
        for world in worlds:
            for i in range(start, step - 1):
                before, after = history[i], history[i + 1]
                mover = int(before.pub[0]["seat"])
                # the world's hands then: its hands now, plus what each put down since, less what it took back
                then = [world.priv[s]["hand"].astype(int) + before.priv[s]["hand"] - position.priv[s]["hand"]
                        for s in range(PLAYERS)]
                assert all((h >= 0).all() for h in then), (i, then)
                done = _action(before, after, mover)
                assert done in legal_actions(before.pub[0], then[mover]), (i, done)


def _action(before, after, mover) -> int:
    """The action ``mover`` took between two positions of one round, from its hand and the public record."""
    put = before.priv[mover]["hand"].astype(int) - after.priv[mover]["hand"]
    if after.pub[0]["passed"][mover] >= 0 or (put < 0).any() or not put.any():
        assert before.pub[0]["table_len"] > 0
        return ACTION.PASS
    value = int(np.flatnonzero(put)[0])
    return value * 4 + int(put[value]) - 1


# -- (d) the sampler reads no hidden card

def test_the_true_hidden_deal_does_not_change_the_worlds(cases):
    for history, step in cases[:3]:
        position, seat, knowledge, worlds = worlds_of(history, step, n=20, seed=7)
        locations, pool, free = unknown_places(position, knowledge)
        moved = 0
        for r in range(5):
            shuffled = iter(np.random.default_rng(100 + r).permutation(pool).tolist())
            truth = {name: list(cards) for name, cards in locations.items()}
            for name, marks in free.items():
                truth[name] = [next(shuffled) if f else c for c, f in zip(locations[name], marks, strict=True)]
            other = position.relocate(truth)
            moved += other.locations() != position.locations()
            again = [sample_world(other, knowledge, np.random.default_rng([7, t])) for t in range(20)]
            for a, b in zip(worlds, again, strict=True):
                assert (fields(a.pub), fields(a.priv), fields(a.hid)) == (fields(b.pub), fields(b.priv), fields(b.hid))
        assert moved


def snapshots(hands):
    """Seat 3 passed taking a 6, seat 1 passes taking one too (the trick ends: both go back), seat 0
    leads a 1 and seat 1 replaces it with a 6: the positions, for seat 0 to follow."""
    t = Table(hands, leader=0, seat=1, table="6", owner=0, passed=[None, None, None, 6])
    out = [OlenonPosition(t.pub.copy(), t.priv.copy(), t.hid.copy(), t.settings)]
    for move in ("pass", "1", "6"):
        t.play(move)
        out.append(OlenonPosition(t.pub.copy(), t.priv.copy(), t.hid.copy(), t.settings))
    return out


def test_knowledge_of_alike_cards_does_not_read_the_hidden_count():
    """Seat 1 took a 6 back and then put a 6 down: seat 0 cannot tell whether it still holds one.
    Two deals that differ only in a hidden 6 and 5 swapped between seats 1 and 2 give seat 0 the
    same public history, so the same knowledge (it once kept the 6 known when seat 1 held two)."""
    a = snapshots(["1 2", "6 3 3", "4 4 5", "4"])
    b = snapshots(["1 2", "5 3 3", "4 4 6", "4"])
    for p, q in zip(a, b, strict=True):
        assert fields(p.pub) == fields(q.pub)
    assert Counter(a[2].locations()["hand1"])[6] == 2 and Counter(b[2].locations()["hand1"])[6] == 1
    ka, kb = follow(a, 0), follow(b, 0)
    assert follow(a[:3], 0).known["hand1"] == Counter({6: 1})
    assert {n: +c for n, c in ka.known.items()} == {n: +c for n, c in kb.known.items()}
    assert not ka.known["hand1"] and ka.known["hand3"] == Counter({6: 1})


# -- (e) the action that wins the match at once comes first

def going_out(seeds=range(200)):
    """(seed, step, action): the seat to move can put its whole hand down, which wins the match
    (rounds=1), and may pass instead, while an opponent holds 2 cards or fewer."""
    for seed in seeds:
        history = history_of(seed, {"rounds": 1})
        for step, position in enumerate(history, start=1):
            decision = position.decision()
            if decision is None:
                continue
            seat, (pb, pv, legal) = decision
            hand = pv["hand"]
            values = np.flatnonzero(hand)
            if len(values) != 1 or not legal[ACTION.PASS]:
                continue
            if min(pb["hand_len"][seat ^ 1], pb["hand_len"][seat ^ 3]) > 2:
                continue
            v = int(values[0])
            action = v * 4 + int(hand[v]) - 1
            if hand[v] <= TABLE and legal[action]:
                return seed, step, action
    raise AssertionError("no such position in the seeds searched")


def test_the_action_that_goes_out_is_ranked_first():
    seed, step, action = going_out()
    r = rollout("olenon", seed=seed, step=step - 1, rules={"rounds": 1}, trials=300)
    best = r.table.iloc[0]
    assert best["id"] == action and best["win"] == 1.0 and best["win_se"] == 0
    passed = r.table[r.table["id"] == ACTION.PASS].iloc[0]
    assert passed["win"] < 1.0 and passed["diff_ci_high"] < 0


# -- (f) the CLI

runner = CliRunner()


def test_the_cli_prints_the_table_and_refuses_a_bad_step_in_one_line():
    history = history_of(1)
    step = mid_round(history)
    r = runner.invoke(app, ["rollout", "olenon", "--seed", "1", "--step", str(step - 1), "--trials", "100"])
    assert r.exit_code == 0, r.output
    assert "pass" in r.output and "put down" in r.output and "played" in r.output
    r = runner.invoke(app, ["rollout", "olenon", "--seed", "1", "--step", "5000"])
    end = len(history) - 1
    assert r.exit_code == 2 and f"ends at step {end} (after {end} actions), so there is no step 5000" in r.output, \
        r.output
    assert r.output.count("\n") == 1, r.output


def test_the_current_round_is_valued_beside_the_match():
    """A match's rollout also values the round being played: one team wins it, both partners alike;
    where the match ends in that round, the round's winner is the match's; and the table has it."""
    seed, history = next((s, h) for s, h in ((s, history_of(s)) for s in range(1, 40))
                         if any(int(p.pub[0]["round"]) == 1 for p in h))
    steps = [k for k, p in enumerate(history, start=1) if int(p.pub[0]["round"]) == 1 and p.decision() is not None]
    step = steps[len(steps) // 2]
    runner = ChunkRunner(RunConfig.build("olenon", deals=1, seed=seed))
    _, seat, _, worlds = worlds_of(history, step, n=60)
    actions = np.flatnonzero(worlds[0].decision()[1][-1])
    out, current = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 3, 0)
    won = current[:, :, 0]
    assert set(np.unique(won)) == {0.0, 1.0} and np.array_equal(current[:, :, 1], won)
    assert np.array_equal(won[..., seat], won[..., seat ^ 2]) and np.array_equal(won[..., seat], 1 - won[..., seat ^ 1])
    ends = out["rounds"] == 2                     # the match ended in this round, in some worlds and not in others
    assert ends.any() and (~ends).any()
    assert np.array_equal(won[..., seat][ends], out["win"][:, :, seat][ends])
    r = rollout("olenon", seed=seed, step=step - 1, trials=200)
    assert r.meta["current"] == "round" and r.table["round_win"].between(0, 1).all()
    assert (r.table["round_win_ci_low"] <= r.table["round_win"]).all()
    assert (r.table["round_win"] != r.table["win"]).any()
