"""The built-in Olenon policies on hand-built positions: each rule catalog.py
documents, every parameter of tempo and partner, legal answers everywhere, and
no writes to what a policy is handed but does not own (``pub``, ``legal``).

A position is a public record and the deciding seat's private record, as the
engine hands them over: ``position("3 3 5", table="4", seat=1)`` is seat 1
holding 3 3 5 facing one 4. Actions are written as in positions.py: ``"5 5"``
puts two 5s down, ``"pass"`` takes a card.
"""
from collections import Counter

import numpy as np
import pytest

from analyser.games.olenon.catalog import POLICIES
from analyser.games.olenon.constants import ACTION, COPIES, N_VALUES, PLAYERS, TABLE
from analyser.games.olenon.kit import legal_actions
from analyser.games.olenon.state import new_state_nb
from tests.games.olenon.positions import action, counts

SPECS = {s.name: s for s in POLICIES if not s.search}     # search players: tests/test_search_players.py


def position(hand, table="", seat=0, owner=None, hand_len=None, talk=0, hands=None, seed=1):
    """Seat ``seat`` holding ``hand`` facing ``table`` (put there by ``owner``, default
    the seat before). hand_len: every seat's hand size (default 5, the seat's own
    its hand's); hands: with talk=1, every seat's hand (``pub["open"]``)."""
    pub, priv, _, legal = new_state_nb()
    pb, pv = pub[0], priv[seat]
    h = counts(hand)
    on = counts(table)
    k = int(on.sum())
    pb["talk"], pb["seat"], pb["leader"] = talk, seat, seat
    pb["table_len"] = k
    pb["table_value"] = int(np.argmax(on)) if k else -1
    pb["owner"] = ((seat - 1) % PLAYERS if owner is None else owner) if k else -1
    pb["passed"][:] = -1
    sizes = list(hand_len) if hand_len is not None else [5] * PLAYERS
    sizes[seat] = int(h.sum())
    pb["hand_len"][:] = sizes
    if talk and hands is not None:
        for s in range(PLAYERS):
            pb["open"][s] = counts(hands[s]) if s != seat else h
            pb["hand_len"][s] = pb["open"][s].sum()
    pv["hand"] = h
    pv["rng"][0] = seed
    legal[legal_actions(pb, h)] = True
    return pub, priv, legal


def act(name, pos, seat=0, **params):
    """The policy's answer; it must be legal and leave pub and legal untouched."""
    pub, priv, legal = pos
    row = SPECS[name].bind(**params).row()
    before = legal.tobytes(), pub.tobytes()     # raw bytes: a copy need not keep the padding
    a = SPECS[name].function(pub[0], priv[seat], legal, row)
    assert legal.tobytes() == before[0] and pub.tobytes() == before[1], f"{name} wrote to pub or legal"
    assert 0 <= a < ACTION.COUNT and legal[a], f"{name} answered an illegal action {a}"
    return a


def ask(name, hand, table="", seat=0, **kw):
    params = {k: kw.pop(k) for k in list(kw) if k in {p.name for p in SPECS[name].params}}
    return act(name, position(hand, table, seat, **kw), seat, **params)


# --------------------------------------------------------------------------- shed


@pytest.mark.parametrize("hand,lead", [
    ("1 3 3 5 5 5", "5 5 5"),          # the largest group
    ("1 1 4 4 6", "1 1"),              # the lowest value among equals
    ("0 0 0 0 0 2 2 2 2", "0 0 0 0"),  # a group counts at most 4: five 0s tie four 2s, the 0s are lower
    ("6", "6"),
])
def test_shed_leads_its_largest_group_lowest_value_first(hand, lead):
    assert ask("shed", hand) == action(lead)


@pytest.mark.parametrize("hand,table,answer", [
    ("2 2 2 6", "2", "2 2 2"),          # adds all it can: 1 + 3 = 4
    ("2 2 2 6", "2 2", "2 2"),          # all it can is 2 (the table holds 4 at most)
    ("2 6 6", "2 2 2", "2"),            # adding beats replacing
])
def test_shed_adds_all_it_can(hand, table, answer):
    assert ask("shed", hand, table) == action(answer)


@pytest.mark.parametrize("hand,table,answer", [
    ("4 4 5 5 6 6", "3 3", "4 4"),      # the lowest value that beats it
    ("4 5 5 6 6", "3 3", "5 5"),        # ... held as many times as the table's count
    ("0 0 5", "6 6", "0 0"),            # 0 over 6
    ("0 0 1 1", "5 5", "pass"),         # 0s beat nothing but 6; lower values never
    ("1 2 3", "4 4", "pass"),           # nothing beats it: pass
])
def test_shed_replaces_with_the_lowest_beating_value_else_passes(hand, table, answer):
    assert ask("shed", hand, table) == action(answer)


# --------------------------------------------------------------------------- tempo


def test_tempo_with_no_limits_plays_like_shed():
    free = dict(margin=6, spend=4, zeros=0, finish=0, keep_high=0)
    rng = np.random.default_rng(3)
    for _ in range(300):
        hand = [v for v in range(N_VALUES) for _ in range(int(rng.integers(0, 3)))] or [3]
        v = int(rng.integers(0, N_VALUES))
        k = int(rng.integers(0, 4))
        table = f"{v} " * k if hand.count(v) + k <= COPIES[v] else ""
        assert ask("tempo", hand, table, hand_len=[9] * 4, **free) == ask("shed", hand, table)


@pytest.mark.parametrize("margin,answer", [(1, "pass"), (2, "pass"), (3, "5"), (6, "5")])
def test_tempo_margin(margin, answer):
    # table: 2; seat 0 holds 5 6 1 1 1: its lowest beating value is 5, three steps up
    assert ask("tempo", "1 1 1 5 6", "2", margin=margin, finish=0) == action(answer)


def test_tempo_margin_counts_zero_over_six_as_one_step():
    assert ask("tempo", "0 1 1 1", "6", margin=1, zeros=0, finish=0) == action("0")


@pytest.mark.parametrize("spend,table,answer", [(1, "3 3", "pass"), (2, "3 3", "4 4"), (2, "3 3 3", "pass"),
                                                (3, "3 3 3", "4 4 4"), (1, "3", "4")])
def test_tempo_spend(spend, table, answer):
    # seat 0 holds 4 4 4 1 1 1: it replaces a table of at most `spend` cards (one step up)
    assert ask("tempo", "1 1 1 4 4 4", table, spend=spend, finish=0) == action(answer)


@pytest.mark.parametrize("zeros,answer", [(1, "pass"), (0, "0 0")])
def test_tempo_zeros(zeros, answer):
    # table: 6 6; seat 0 holds 0 0 2 3 4
    assert ask("tempo", "0 0 2 3 4", "6 6", zeros=zeros, finish=0) == action(answer)


@pytest.mark.parametrize("finish,answer", [(4, "pass"), (5, "6 6")])
def test_tempo_finish_lifts_every_limit(finish, answer):
    # table: 2 2; seat 0 holds 6 6 1 1 1 (5 cards): 6 6 is four steps up, above margin 1; with finish >= 5
    # every limit is off and it replaces
    assert ask("tempo", "1 1 1 6 6", "2 2", margin=1, spend=2, finish=finish) == action(answer)
    assert ask("tempo", "0 0 1 1 1", "6 6", zeros=1, finish=finish) == action("pass" if finish < 5 else "0 0")


@pytest.mark.parametrize("keep_high,finish,hand,lead", [
    (1, 0, "2 5 5 5", "2"),           # its largest group is its highest value: kept
    (0, 0, "2 5 5 5", "5 5 5"),       # like shed
    (1, 0, "5 5 5", "5 5 5"),         # one value held: nothing to keep it for
    (1, 4, "2 5 5 5", "5 5 5"),       # finish: 4 cards or fewer, keep_high is off
    (1, 0, "1 1 2 2 6", "1 1"),       # the highest is not the largest group anyway
])
def test_tempo_keep_high(keep_high, finish, hand, lead):
    assert ask("tempo", hand, keep_high=keep_high, finish=finish) == action(lead)


def test_tempo_never_limits_additions():
    assert ask("tempo", "1 1 1 4 4 4", "4", margin=1, spend=1, finish=0) == action("4 4 4")


# --------------------------------------------------------------------------- partner


@pytest.mark.parametrize("soon,mate_len,answer", [(2, 2, "pass"), (2, 1, "pass"), (2, 3, "5 5"), (0, 1, "5 5"),
                                                  (5, 5, "pass")])
def test_partner_passes_on_its_partners_table_when_it_can_go_out_soon(soon, mate_len, answer):
    # talk=none; table: 4 4 owned by seat 2, seat 0's partner; seat 0 holds 5 5 1: shed would replace
    sizes = [3, 5, mate_len, 5]
    assert ask("partner", "1 5 5", "4 4", seat=0, owner=2, hand_len=sizes, soon=soon) == action(answer)


def test_partner_plays_like_shed_on_an_opponents_table_or_an_empty_one():
    # table: 4 4 owned by seat 1 (an opponent); the partner holds 1 card: shed's replace all the same
    assert ask("partner", "1 5 5", "4 4", seat=0, owner=1, hand_len=[3, 5, 1, 5], soon=2) == action("5 5")
    assert ask("partner", "1 5 5", seat=0, hand_len=[3, 5, 1, 5], soon=2) == action("5 5")
    assert ask("partner", "1 4 5 5", "4 4", seat=0, owner=2, hand_len=[3, 5, 9, 5], soon=2) == action("4")


@pytest.mark.parametrize("mate,answer", [
    ("3 3 3", "pass"),          # one value, at most 4: it goes out on its next lead
    ("3 3 3 3", "pass"),
    ("0 0 0 0 0", "5 5"),       # five of one value: not in one lead
    ("3 6", "5 5"),             # two cards, but two values: it cannot go out at once
])
def test_partner_with_talk_open_reads_its_partners_hand(mate, answer):
    # talk=open; table: 4 4 owned by seat 3, seat 1's partner; seat 1 holds 1 5 5. soon=32 would pass on any
    # hand size under talk=none: with talk=open only the hand matters
    hands = ["1 2", "1 5 5", "2 2", mate]
    assert ask("partner", "1 5 5", "4 4", seat=1, owner=3, talk=1, hands=hands, soon=32) == action(answer)


def test_partner_with_talk_none_never_reads_the_open_hands():
    # talk=none: pub["open"] is zero; the partner's hand size alone decides
    pos = position("1 5 5", "4 4", seat=1, owner=3, hand_len=[5, 3, 5, 9])
    assert not pos[0][0]["open"].any() and act("partner", pos, seat=1, soon=2) == action("5 5")


# --------------------------------------------------------------------------- random


def test_random_is_uniform_over_the_legal_actions():
    # table: 3; seat 0 holds 3 3 4 6: add 3, add 3 3, replace with 4 or 6, pass: five actions
    pos = position("3 3 4 6", "3")
    pub, priv, legal = pos
    want = legal_actions(pub[0], priv[0]["hand"])
    assert len(want) == 5
    seen = Counter(act("random", pos) for _ in range(5000))     # the stream moves on with every call
    assert sorted(seen) == want
    assert all(abs(n - 1000) < 150 for n in seen.values()), seen


def test_random_differs_with_its_stream():
    answers = {act("random", position("0 1 2 3 4 5 6", seed=s)) for s in range(1, 40)}
    assert len(answers) > 3


# --------------------------------------------------------------------------- every policy


def random_position(rng):
    seat = int(rng.integers(0, PLAYERS))
    k = int(rng.integers(0, TABLE))
    v = int(rng.integers(0, N_VALUES))
    hand = [w for w in range(N_VALUES) for _ in range(int(rng.integers(0, 3)))] or [int(rng.integers(0, 7))]
    if k + hand.count(v) > COPIES[v]:
        k = 0
    talk = int(rng.integers(0, 2))
    hands = [[int(x) for x in rng.integers(0, 7, size=int(rng.integers(1, 6)))] for _ in range(PLAYERS)]
    owner = int(rng.integers(0, PLAYERS))
    owner = owner if owner != seat else (seat + 2) % PLAYERS
    return position(hand, f"{v} " * k, seat, owner=owner, hand_len=[len(h) for h in hands], talk=talk,
                    hands=hands if talk else None, seed=int(rng.integers(1, 1 << 30))), seat


@pytest.mark.parametrize("name", list(SPECS))
def test_every_policy_answers_legally_and_writes_nothing_it_does_not_own(name):
    rng = np.random.default_rng(29)
    spec = SPECS[name]
    for i in range(400):
        pos, seat = random_position(rng)
        params = {p.name: float(rng.integers(p.low, p.high + 1)) for p in spec.params} if i % 2 else {}
        act(name, pos, seat, **params)           # asserts the answer is legal and pub/legal untouched
