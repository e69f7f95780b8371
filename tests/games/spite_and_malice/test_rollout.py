"""Spite & Malice rollouts: the table of a mid-round position, worlds that keep what the
seat knows and read nothing hidden, the play showing nothing beyond where the cards went, the
action that plays out the payoff pile first, and the CLI.

What a Spite & Malice seat knows (the rule book's "Clarifications"): its hand, both payoff tops,
every side pile, every build pile, every size. Hidden from it: the other hand, the stock's order,
and the face-down payoff cards, its own included (nobody sees them). No card ever goes from a
place the seat sees into a hidden one except a completed build pile into the stock, which is
shuffled whole (SpiteKit.shuffled, as a new round is), so the seat never knows where a hidden
card is: every hidden card is dealt anew in every world. No move is forced, so the play shows
nothing more (SpiteKit.consistent is None); test (c) checks it of every decision played.

Short matches (payoff piles of 5, target 8) keep the playouts quick.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analyses.rollout import position_at, rollout
from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.games.spite_and_malice.constants import ACTION, PLAYERS, SRC_HAND, SRC_PAYOFF, build, discard
from analyser.games.spite_and_malice.kit import SpiteKit, legal_actions
from analyser.games.worlds import Knowledge, sample_world, unknown_places

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

KIT = SpiteKit()
RULES = {"payoff_size": 5, "target": 8}
RULE_ARGS = ["--rule", "payoff_size=5", "--rule", "target=8"]


def played(seed: int, rules=RULES, policies=None):
    """The match's positions and the runner that played it."""
    config = RunConfig.build("spite_and_malice", policies=policies, deals=1, seed=seed, rules=rules)
    history, _, runner = position_at(config, None)
    return history, runner


def follow(positions, seat: int, shuffles=True):
    """What ``seat`` knows at the last of ``positions`` (worlds.follow; ``shuffles``: the kit's)."""
    knowledge = Knowledge(seat, positions[0])
    for before, after in zip(positions[:-1], positions[1:], strict=True):
        knowledge.see(after, shuffles and KIT.shuffled(before, after))
    return knowledge


def completions(history) -> list[int]:
    """The steps i (history[i] -> history[i + 1]) in which a build pile was completed, in one round."""
    return [i for i in range(len(history) - 1)
            if history[i + 1].hid[0]["completed"].sum() != history[i].hid[0]["completed"].sum()
            and history[i + 1].pub[0]["round"] == history[i].pub[0]["round"]]


def mid_round(history) -> int:
    """The first step at a decision after a build pile was completed in the round, the other seat
    holding cards and both payoff piles more than their tops."""
    after = completions(history)[0] + 2
    for step, position in enumerate(history[after - 1:], start=after):
        if position.decision() is None:
            continue
        pb = position.pub[0]
        seat = int(pb["seat"])
        if pb["hand_len"][1 - seat] > 0 and (pb["payoff_len"] > 1).all():
            return step
    raise AssertionError("no mid-round decision")


CASES = ((1, RULES), (2, RULES), (3, {"payoff_size": 6, "centre_piles": 4, "refill_empty_hand": "on", "target": 10}))


@pytest.fixture(scope="module")
def cases():
    """(history, runner, step) at mid-round decisions, one with 4 build piles and refills."""
    out = []
    for seed, rules in CASES:
        history, runner = played(seed, rules)
        out.append((history, runner, mid_round(history)))
    return out


def fields(records) -> tuple:
    return tuple((name, records[name].tobytes()) for name in records.dtype.names)


def worlds_of(history, step, n=40, seed=0):
    position = history[step - 1]
    seat = int(position.pub[0]["seat"])
    knowledge = follow(history[:step], seat)
    return position, seat, knowledge, [sample_world(position, knowledge, np.random.default_rng([seed, t]))
                                       for t in range(n)]


# -- (a) the table

def test_a_mid_round_rollout_lists_every_legal_action_once_with_the_seat_s_win(cases):
    history, runner, step = cases[0]
    position = history[step - 1]
    seat, (pb, pv, legal) = position.decision()
    r = rollout("spite_and_malice", seed=1, step=step - 1, rules=RULES, trials=200)
    assert sorted(r.table["id"]) == legal_actions(pb, pv["hand"], seat) == list(np.flatnonzero(legal))
    assert r.meta["seat"] == seat and r.table["win"].between(0, 1).all()
    texts = [KIT.action_text(a) for a in np.flatnonzero(legal)]
    assert set(r.table["action"]) == set(texts) and len(set(texts)) == len(texts)
    assert r.table["played"].sum() == 1
    # the same worlds by hand: the match's winner is one seat, its points the score
    _, _, _, worlds = worlds_of(history, step, n=30)
    out, current = KIT.play_worlds(worlds, r.actions, runner.fns, runner.params, runner.settings, 0, 0)
    assert not out["aborted"].any()
    win = out["win"]
    assert np.array_equal(win[:, :, seat] + win[:, :, 1 - seat], 1 - out["draw"])
    assert np.array_equal(out["score"][:, :, seat], out["points"][:, :, seat])
    assert (out["points"].max(axis=2) >= RULES["target"]).all()
    for i, a in enumerate(r.actions):             # what is reported: the seat's column of those records
        assert r.table.set_index("id").loc[a, "win"] == pytest.approx(r.wins[:, i].mean())


def test_worlds_are_played_on_their_own_streams_the_same_for_every_action(cases):
    """Common random numbers: an action twice gives the same outcomes, run after run; and a world's
    stock reshuffles and later rounds come from its own key, not the real match's (which no seat knows)."""
    history, _, step = cases[1]
    config = RunConfig.build("spite_and_malice", policies=["random"] * PLAYERS, deals=1, seed=2, rules=RULES)
    runner = position_at(config, 1)[2]                  # the random line-up's runner (its match is not needed)
    _, seat, _, worlds = worlds_of(history, step, n=12)
    legal = np.flatnonzero(worlds[0].decision()[1][-1])
    actions = np.array([legal[0], legal[-1], legal[0]])
    out, current = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 5, 0)
    assert np.array_equal(out[:, 0], out[:, 2]) and (out["rounds"] > int(worlds[0].pub[0]["round"]) + 1).any()
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
    assert KIT.action_text(build(SRC_HAND + 7, 2)) == "play 7 from hand to build 2"
    assert KIT.action_text(build(SRC_HAND + 13, 0)) == "play K from hand to build 0"
    assert KIT.action_text(build(SRC_PAYOFF, 1)) == "play the payoff top to build 1"
    assert KIT.action_text(build(2, 3)) == "play side 1's top to build 3"
    assert KIT.action_text(discard(12, 3)) == "discard Q to side 3"
    assert KIT.action_text(discard(1, 0)) == "discard A to side 0"
    assert KIT.action_text(ACTION.STOP) == "stop"
    texts = {KIT.action_text(a) for a in range(ACTION.COUNT) if (a & 7) < 4 or (a >> 3) > SRC_HAND}
    assert len(texts) == len([a for a in range(ACTION.COUNT) if (a & 7) < 4 or (a >> 3) > SRC_HAND])


def test_a_completed_pile_and_a_new_round_are_shuffles(cases):
    history, _, step = cases[0]
    rounds = [i for i in range(len(history) - 1) if history[i + 1].pub[0]["round"] != history[i].pub[0]["round"]]
    done = completions(history)
    assert rounds and done
    assert all(KIT.shuffled(history[i], history[i + 1]) for i in rounds + done)
    plain = [i for i in range(len(history) - 1) if i not in rounds and i not in done]
    assert not any(KIT.shuffled(history[i], history[i + 1]) for i in plain)
    # without the shuffle the completed pile's cards would be "known" in the stock, and kept in place
    i = done[0]
    seat = int(history[i + 1].pub[0]["seat"])
    assert not any(follow(history[: i + 2], seat).known.values())
    assert follow(history[: i + 2], seat, shuffles=False).known.get("stock")


# -- (b) what the seat sees stays, in every world; everything else is dealt anew

def test_seen_by_is_the_rule_book_s():
    history, _ = played(1)
    position = history[10]
    for seat in range(PLAYERS):
        hidden = {"stock", "payoff0", "payoff1", f"hand{1 - seat}"}
        assert position.seen_by(seat) == set(position.locations()) - hidden
        assert {f"payoff_top{s}" for s in range(PLAYERS)} <= position.seen_by(seat)


def test_every_world_keeps_the_seat_s_cards_and_the_public_ones(cases):
    for history, _, step in cases:
        position, seat, knowledge, worlds = worlds_of(history, step)
        here = position.locations()
        seen = position.seen_by(seat)
        assert not any(knowledge.known.values())         # no hidden card is ever known (module docstring)
        varied = Counter()
        for world in worlds:
            there = world.locations()                   # the kit's bookkeeping checks run here
            assert Counter(c for cs in there.values() for c in cs) == Counter(position.deck())
            assert {n: len(c) for n, c in there.items()} == {n: len(c) for n, c in here.items()}
            for name in seen:
                assert there[name] == here[name], name
            assert fields(world.pub) == fields(position.pub)      # the public record, byte for byte
            assert fields(world.priv[seat: seat + 1]) == fields(position.priv[seat: seat + 1])
            for name in ("stock", f"hand{1 - seat}", f"payoff{seat}", f"payoff{1 - seat}"):
                varied[name] += there[name] != here[name]
        # the other hand, the stock's order and both face-down payoff piles (the seat's own too) vary
        assert all(varied[name] > len(worlds) // 2 for name in varied), varied


# -- (c) the play shows nothing more: a decision's action depends on the hand only through its card

def _hand_card(a: int) -> int:
    """The hand card action ``a`` plays (0: none)."""
    return 0 if a == ACTION.STOP or (a >> 3) <= SRC_HAND else (a >> 3) - SRC_HAND


def test_every_action_played_is_legal_with_any_hand_of_its_size_holding_its_card(cases):
    """Whatever the mover held beside the card it played (its hand size is public), the action was
    legal: so no world is ruled out by a past action, and a kit's ``consistent`` has nothing to add."""
    rng = np.random.default_rng(3)
    for history, runner, step in cases:
        assert KIT.consistent(history[:step], 0) is None and KIT.consistent(history[:step], 1) is None
        checked = 0
        for position in history[: step - 1]:
            decision = position.decision()
            if decision is None:
                continue
            mover, args = decision
            pb = position.pub[0]
            a = int(runner.fns[mover](*[x.copy() for x in args], runner.params[mover]))
            card, size = _hand_card(a), int(pb["hand_len"][mover])
            assert a in legal_actions(pb, position.priv[mover]["hand"], mover)
            for _ in range(5):
                hand = np.zeros(14, np.int8)
                held = ([card] if card else []) + list(rng.integers(1, 14, size - (1 if card else 0)))
                np.add.at(hand, np.array(held, np.int64), 1)
                assert a in legal_actions(pb, hand, mover), (a, held)
                checked += 1
        assert checked > 20


# -- (d) the sampler reads no hidden card

def test_the_true_hidden_deal_does_not_change_the_worlds(cases):
    for history, _, step in cases:
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
        assert moved == 5


# -- (e) the action that plays out the payoff pile comes first

WIN_RULES = {"payoff_size": 2, "rounds": 1}      # a match of one round: playing out the payoff pile wins it


def going_out(seeds=range(100)):
    """(seed, step, winning actions): the seat to move holds one payoff card, which fits a build pile,
    and the other seat's payoff pile is one card."""
    for seed in seeds:
        history, _ = played(seed, WIN_RULES)
        for step, position in enumerate(history, start=1):
            decision = position.decision()
            if decision is None:
                continue
            seat, (pb, _, legal) = decision
            wins = [build(SRC_PAYOFF, b) for b in range(int(pb["centre"])) if legal[build(SRC_PAYOFF, b)]]
            if pb["payoff_len"][seat] == 1 and pb["payoff_len"][1 - seat] == 1 and wins:
                return seed, step, wins
    raise AssertionError("no such position in the seeds searched")


def test_the_action_that_plays_out_the_payoff_pile_is_ranked_first():
    seed, step, wins = going_out()
    r = rollout("spite_and_malice", seed=seed, step=step - 1, rules=WIN_RULES, trials=300)
    best = r.table.iloc[0]
    assert best["id"] in wins and best["win"] == 1.0 and best["win_se"] == 0
    assert (r.table[r.table["id"].isin(wins)]["win"] == 1.0).all()
    others = r.table[~r.table["id"].isin(wins)]
    assert len(others) and (others["win"] < 1.0).all() and (others["diff_ci_high"] < 0).all()


# -- (f) the CLI

runner = CliRunner()


def test_the_cli_prints_the_table_and_refuses_a_bad_step_in_one_line(cases):
    history, _, step = cases[0]
    r = runner.invoke(app, ["rollout", "spite_and_malice", "--seed", "1", "--step", str(step - 1), "--trials", "100",
                            *RULE_ARGS])
    assert r.exit_code == 0, r.output
    assert "discard" in r.output and "to side" in r.output and "played" in r.output
    r = runner.invoke(app, ["rollout", "spite_and_malice", "--seed", "1", "--step", "50000", *RULE_ARGS])
    end = len(history) - 1
    assert r.exit_code == 2 and f"ends at step {end} (after {end:,} moves), so there is no step 50000" in r.output, \
        r.output
    assert r.output.count("\n") == 1, r.output


def test_the_current_round_is_valued_beside_the_match(cases):
    """A match's rollout also values the round being played: at most one seat wins it and only the
    winner scores; where the match ends in that round, its points and win are the match's gain; and
    the table has it."""
    history, runner, _ = cases[0]
    last = int(history[-1].pub[0]["round"])       # the match's last round: in some worlds its last too
    steps = [k for k, p in enumerate(history, start=1) if int(p.pub[0]["round"]) == last and p.decision()]
    step = steps[len(steps) // 3]
    position, seat, _, worlds = worlds_of(history, step, n=60)
    actions = np.flatnonzero(position.decision()[1][-1])
    out, current = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 3, 0)
    won, scored = current[:, :, 0], current[:, :, 1]
    assert set(np.unique(won)) <= {0.0, 1.0} and (won.sum(axis=2) <= 1).all() and won.any()
    assert np.array_equal(scored > 0, won > 0)
    start_points = position.pub[0]["points"].astype(float)
    start_won = position.hid[0]["rounds_won"].astype(float)
    assert (scored <= out["points"] - start_points).all()
    ends = out["rounds"] == int(position.pub[0]["round"]) + 1
    assert ends.any() and (~ends).any()
    assert np.array_equal(scored[ends], (out["points"] - start_points)[ends])
    assert np.array_equal(won[ends], (out["rounds_won"] - start_won)[ends])
    r = rollout("spite_and_malice", seed=1, step=step - 1, rules=RULES, trials=100)
    assert r.meta["current"] == "round" and r.table["round_win"].between(0, 1).all()
    assert {"round_score", "round_score_ci_low", "round_score_ci_high"} <= set(r.table.columns)
