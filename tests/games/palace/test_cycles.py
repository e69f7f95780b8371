"""Skipping a repeating cycle on the way to the cap gives the record of the game played out."""
import numpy as np

import analyser
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.dispatch import policy_kinds
from analyser.games.palace import stepwise
from analyser.games.palace.constants import MAX_PLAYERS
from analyser.games.palace.cycles import WATCH_FROM, same_position_nb, snapshot_nb
from analyser.games.palace.dispatch import BUILT_IN
from analyser.games.palace.rules import deal_nb
from analyser.games.palace.state import MEMORY, new_state_nb
from analyser.games.palace.trace import trace_unit

POLICIES = ["saver", "lowest", "pickup", "saver"]


def played_out(seed, deal, rules=None):
    """The record of the deal as the trace plays it: every action, no skipping."""
    runner = ChunkRunner(RunConfig.build("palace", players=4, policies=POLICIES, deals=1, seed=seed, rules=rules,
                                         first_deal=deal))
    _, record = trace_unit(seed, deal, 4, runner.settings, runner.fns, runner.params, runner.streams)
    return record[0]


def same_record(a, b):
    return all(np.array_equal(a[name], b[name]) for name in a.dtype.names)


def test_skipped_cycles_give_the_played_out_record():
    sim = analyser.simulate("palace", policies=POLICIES, deals=1500, seed=1, progress=False)
    aborted = np.flatnonzero(sim.records["aborted"])
    assert aborted.size >= 3          # about 1 deal in 120 cycles with these policies
    for deal in aborted[:3]:
        rec = sim.records[deal]
        assert rec["length"] == 5000
        assert same_record(rec, played_out(1, deal))


def test_a_cap_that_is_not_a_whole_number_of_periods():
    rules = {"max_actions": 1001}
    sim = analyser.simulate("palace", policies=POLICIES, deals=600, seed=1, rules=rules, progress=False)
    long = np.flatnonzero(sim.records["length"] > WATCH_FROM)
    assert long.size > 0
    for deal in long[:3]:
        assert same_record(sim.records[deal], played_out(1, deal, rules))


def test_stepping_plays_every_action_of_a_cycling_game():
    # a cap of 1,000 actions, far past where a simulation starts skipping (WATCH_FROM), stepped in Python
    rules = {"max_actions": 1000}
    sim = analyser.simulate("palace", policies=POLICIES, deals=600, seed=1, rules=rules, progress=False)
    deal = int(np.flatnonzero(sim.records["aborted"])[0])
    assert sim.records[deal]["length"] == 1000
    runner = ChunkRunner(RunConfig.build("palace", players=4, policies=POLICIES, deals=1, seed=1, first_deal=deal,
                                         rules=rules))
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)         # no trace log, as in a simulation
    kinds = policy_kinds(runner.fns, BUILT_IN, runner.params)
    stepwise.begin_unit(1, deal, 4, runner.settings, runner.streams, runner.fns, kinds, runner.params,
                        pub, priv, hid, legal, log)
    swaps = hid[0]["actions"]
    steps = 0
    while not stepwise.step(1, deal, runner.settings, runner.streams, runner.fns, kinds, runner.params, pub, priv, hid,
                         legal, log):
        steps += 1
    assert hid[0]["aborted"] and hid[0]["actions"] == 1000
    assert swaps + steps == 1000        # one action a step: nothing skipped


def test_positions_that_differ_only_in_a_policys_memory_differ():
    # a dealt position and its snapshot; a policy's memory (first and last slot of
    # every seat's private record) is part of the position the cycle skip compares
    pub, priv, hid, _ = new_state_nb()
    deal_nb(1, 0, 4, np.array([0, 0, 5000], np.int64), np.arange(MAX_PLAYERS, dtype=np.int64), pub, priv, hid)
    snapshot_nb(pub, priv, hid[0])
    snap = hid[0]["snap"]
    assert same_position_nb(pub, priv, snap)
    for s in range(MAX_PLAYERS):
        for slot in (0, MEMORY - 1):
            priv[s]["memory"][slot] = 1.0
            assert not same_position_nb(pub, priv, snap)
            priv[s]["memory"][slot] = 0.0
            assert same_position_nb(pub, priv, snap)
