"""The built-in Enemy Anemone policies on hand-built positions: each rule they
document, and legal actions everywhere."""
import numpy as np
import pytest

from analyser.games.enemy_anemone import policies
from analyser.games.enemy_anemone.catalog import POLICIES
from analyser.games.enemy_anemone.constants import ACTION, N_SUITS, POINTS, SUIT_MASK, card_of
from analyser.games.enemy_anemone.state import new_state_nb
from analyser.kernels.bits import BIT

SPECS = {s.name: s for s in POLICIES}


def mask(cards):
    return np.uint64(sum(int(BIT[c]) for c in cards))


def position(hand, trick=(), seat=0, players=4, ones=0, twos=0, played=(), discarded=(), turn=None, turns=None,
             trick_index=0, tricks=10, hand_index=0, hands=4, seed=1):
    """``hand``: card names; ``trick``: (name, seat, value) in play order. The legal
    cards are the hand's cards of suits not in the trick; with none it discards."""
    pub, priv, _, legal = new_state_nb()
    p, pv = pub[0], priv[seat]
    hand = [card_of(c) for c in hand]
    trick = [(card_of(c), s, v) for c, s, v in trick]
    suits = {c % N_SUITS for c, _, _ in trick}
    free = [c for c in hand if c % N_SUITS not in suits]
    p["players"], p["seat"], p["leader"] = players, seat, trick[0][1] if trick else seat
    p["turns"] = turns if turns is not None else (4 if players == 2 else players)
    p["turn"] = turn if turn is not None else len(trick)
    p["trick"], p["tricks"], p["hand"], p["hands"] = trick_index, tricks, hand_index, hands
    p["ones"][seat], p["twos"][seat] = ones, twos
    p["discard"] = not free
    p["trick_len"] = len(trick)
    best = low = -1
    for i, (c, s, v) in enumerate(trick):
        p["trick_card"][i], p["trick_seat"][i], p["trick_value"][i] = c, s, v
        best = i if best < 0 or v >= trick[best][2] else best
        low = i if low < 0 or v <= trick[low][2] else low
    p["best"], p["low"] = best, low
    p["to_beat"] = trick[best][2] if trick else 0
    p["trick_points"] = sum(int(POINTS[c]) for c, _, _ in trick)
    p["trick_mask"] = np.uint64(sum(int(SUIT_MASK[s]) for s in suits))
    p["played"] = mask([c for c, _, _ in trick] + [card_of(c) for c in played])
    pv["hand"] = mask(hand)
    pv["legal"] = mask(free or hand)
    pv["discarded"] = mask([card_of(c) for c in discarded])
    pv["rng"][0] = seed
    legal[free or hand] = True
    return pub, priv, legal


def act(name, pos, seat=0, **params):
    pub, priv, legal = pos
    row = SPECS[name].bind(**params).row()
    before = legal.tobytes(), pub.tobytes()     # raw bytes: a copy need not keep the padding
    a = SPECS[name].function(pub[0], priv[seat], legal, row)
    assert legal.tobytes() == before[0] and pub.tobytes() == before[1]
    return a


def play(card, k1=0, k2=0):
    return card_of(card) + ACTION.ONE * k1 + ACTION.TWO * k2


# greedy

def test_greedy_leads_its_highest_card():
    assert act("greedy", position(["A2", "B7", "C4"], ones=2, twos=2)) == play("B7")


def test_greedy_wins_as_cheaply_as_it_can_ties_going_to_the_later_card():
    hand = ["B3", "C5", "D9", "B6"]
    assert act("greedy", position(hand, [("A5", 1, 5)])) == play("C5")
    assert act("greedy", position(hand, [("A4", 1, 6), ("C2", 2, 2)], ones=3)) == play("B6")


def test_greedy_dumps_its_lowest_card_when_it_cannot_win_and_never_spends():
    assert act("greedy", position(["B3", "C5", "C2"], [("A9", 1, 9)], ones=3, twos=3)) == play("C2")


# timing: the cheapest tokens, only to win

@pytest.mark.parametrize("ones, twos, need, tokens", [
    (2, 1, 3, (1, 1)),      # value 3: a +2 and a +1
    (0, 2, 3, (0, 2)),      # no +1: value 4
    (0, 1, 1, (0, 1)),      # no +1: value 2
    (1, 1, 1, (1, 0)),
    (2, 0, 2, (2, 0)),
    (2, 2, 2, (0, 1)),      # value 2: one +2 rather than two +1s
    (3, 1, 5, (3, 1)),
])
def test_timing_attaches_the_cheapest_tokens_that_win(ones, twos, need, tokens):
    pos = position(["C7", "D2"], [("A6", 1, 7 + need), ("B2", 2, 2)], ones=ones, twos=twos)
    assert act("timing", pos) == play("C7", *tokens)


def test_timing_does_not_spend_when_the_win_is_out_of_reach_or_won_by_rank():
    assert act("timing", position(["C7", "D2"], [("A9", 1, 12), ("B2", 2, 2)], ones=1, twos=1)) == play("D2")
    assert act("timing", position(["C7", "D2"], [("A6", 1, 6), ("B2", 2, 2)], ones=1, twos=1)) == play("C7")


def test_timing_plays_the_lowest_card_that_the_cheapest_tokens_make_a_winner():
    # only a +2: C6 and C7 both need it; C6 is the cheaper card to give
    pos = position(["B7", "C6", "D3"], [("A8", 1, 8)], ones=0, twos=1)
    assert act("timing", pos, min_points=0) == play("C6", 0, 1)
    # a +1 too: B7+1 costs 1, C6 would cost 2
    pos = position(["B7", "C6", "D3"], [("A8", 1, 8)], ones=1, twos=1)
    assert act("timing", pos, min_points=0) == play("B7", 1)


def test_timing_spends_only_on_tricks_worth_min_points():
    pos = [("A9", 1, 9)]                                           # 1 point, and 1 for B7
    assert act("timing", position(["B7", "C2"], pos, ones=1, twos=1), min_points=3) == play("C2")
    assert act("timing", position(["B7", "C2"], pos, ones=1, twos=1), min_points=2) == play("B7", 0, 1)
    pos = [("A3", 1, 9)]                                           # a 3 counts 2
    assert act("timing", position(["B7", "C2"], pos, ones=1, twos=1), min_points=3) == play("B7", 0, 1)
    assert act("timing", position(["B5", "C2"], [("A7", 1, 7)], ones=0, twos=1), min_points=3) == play("B5", 0, 1)


def test_timing_hoards_below_min_tokens():
    pos = [("A9", 1, 9), ("B2", 2, 2)]
    assert act("timing", position(["C7", "D2"], pos, ones=1, twos=1), min_tokens=3) == play("D2")
    assert act("timing", position(["C7", "D2"], pos, ones=1, twos=1), min_tokens=2) == play("C7", 0, 1)


def test_timing_attaches_every_token_in_the_last_tricks_of_the_last_hand():
    hand = ["A2", "B7", "C4"]
    last = dict(hand_index=3, hands=4, tricks=10)
    assert act("timing", position(hand, ones=2, twos=3, trick_index=9, **last)) == play("B7", 2, 3)
    assert act("timing", position(hand, ones=2, twos=3, trick_index=8, **last)) == play("B7")
    assert act("timing", position(hand, ones=2, twos=3, trick_index=8, **last), late_tricks=2) == play("B7", 2, 3)
    assert act("timing", position(hand, ones=2, twos=3, trick_index=9, **last), late_tricks=0) == play("B7")
    assert act("timing", position(hand, ones=2, twos=3, trick_index=9, hand_index=2, hands=4)) == play("B7")
    # following, it counts them in: the lowest card that wins with all of them
    pos = position(["B3", "C5", "D8", "D9"], [("A9", 1, 9)], ones=1, twos=1, trick_index=9, **last)
    assert act("timing", pos) == play("D8", 1, 1)


def test_timing_tops_a_winner_up_above_the_unseen_ranks_with_only_to_win_0():
    top = dict(only_to_win=0, min_points=0)
    # leading A7: B10, C10, D10 are unseen, so it needs 11
    assert act("timing", position(["A7", "B2"], ones=2, twos=1), **top) == play("A7", 2, 1)
    # the 10s played or discarded by itself, the 9s unseen: 10 will do
    seen = dict(played=["B10", "C10"], discarded=["D10"])
    assert act("timing", position(["A7", "B2"], ones=2, twos=1, **seen), **top) == play("A7", 1, 1)
    # not affordable: no top-up; last to play, or only_to_win=1: none needed
    assert act("timing", position(["A7", "B2"], ones=0, twos=1), **top) == play("A7")
    assert act("timing", position(["A7", "B2"], ones=2, twos=1), only_to_win=1, min_points=0) == play("A7")
    pos = position(["D7", "D2"], [("A5", 1, 5), ("B2", 2, 2), ("C2", 3, 2)], ones=2, twos=1)
    assert act("timing", pos, **top) == play("D7")
    # following: its card's suit is no longer free; an unplayed suit outside the deck does not count
    pos = position(["B7"], [("A5", 1, 5)], ones=3, twos=0, played=["C10", "C9", "D10"])
    assert act("timing", pos, **top) == play("B7", 3)


# lowball

def test_lowball_ducks_then_spends_like_timing():
    pos = [("A9", 1, 9), ("B2", 2, 2)]
    for trick in range(5):
        assert act("lowball", position(["C7", "D2"], pos, ones=1, twos=1, trick_index=trick)) == play("D2")
        assert act("lowball", position(["C7", "D2"], ones=1, twos=1, trick_index=trick)) == play("D2")
    assert act("lowball", position(["C7", "D2"], pos, ones=1, twos=1, trick_index=5)) == play("C7", 0, 1)
    assert act("lowball", position(["C7", "D2"], pos, ones=1, twos=1, trick_index=2), duck=2) == play("C7", 0, 1)
    assert act("lowball", position(["C7", "D2"], pos, ones=1, twos=1, trick_index=5), min_points=4) == play("D2")


# discards

@pytest.mark.parametrize("name", ["greedy", "timing", "lowball"])
def test_discard_rules(name):
    hand = ["A2", "A8", "A3", "A9"]
    pos = lambda cards: position(cards, [("A10", 1, 10)], ones=2, twos=2)  # noqa: E731
    assert act(name, pos(hand), discard=0) == play("A3")
    assert act(name, pos(["A2", "A4", "A9"]), discard=0) == play("A2")
    assert act(name, pos(hand), discard=1) == play("A2")
    assert act(name, pos(hand), discard=2) == play("A9")


# random

def test_random_covers_every_legal_card_and_token_count_uniformly():
    counts = {}
    for seed in range(3600):
        pos = position(["B3", "C5", "D9", "A6"], [("A5", 1, 5)], ones=2, twos=1, seed=seed * 7919 + 1)
        a = act("random", pos)
        counts[a] = counts.get(a, 0) + 1
    want = {play(c, k1, k2) for c in ("B3", "C5", "D9") for k1 in range(3) for k2 in range(2)}
    assert set(counts) == want
    assert min(counts.values()) > 3600 / 18 * 0.7


def test_random_discards_any_card_and_no_token():
    seen = {act("random", position(["A2", "A8", "A9"], [("A10", 1, 10)], ones=3, twos=3, seed=s)) for s in range(200)}
    assert seen == {play("A2"), play("A8"), play("A9")}


# every policy, random positions

def random_position(rng):
    players = int(rng.integers(2, 7))
    deck = [c for c in range(60) if int(policies.DECK[players]) >> c & 1]
    rng.shuffle(deck)
    n_suits = 4 if players == 2 else min(players, N_SUITS)
    hand = deck[:int(rng.integers(1, 11))]
    rest = deck[len(hand):]
    trick, suits = [], set()
    for c in rest[:int(rng.integers(0, n_suits))]:
        if c % N_SUITS not in suits:
            suits.add(c % N_SUITS)
            trick.append((c, int(rng.integers(1, players)), c // N_SUITS + 1 + int(rng.integers(0, 4))))
    name = lambda c: "ABCDEF"[c % N_SUITS] + str(c // N_SUITS + 1)  # noqa: E731
    ones = int(rng.integers(0, 6))
    turns = 4 if players == 2 else players
    return position([name(c) for c in hand], [(name(c), s, v) for c, s, v in trick], players=players, ones=ones,
                    twos=int(rng.integers(0, 10 - ones)), played=[name(c) for c in rest[len(trick):][:5]],
                    turn=min(len(trick), turns - 1), turns=turns, trick_index=int(rng.integers(0, 10)),
                    hand_index=int(rng.integers(0, 4)), seed=int(rng.integers(1, 2**62)))


VARIANTS = [("random", {}), ("greedy", {}), ("greedy", {"discard": 2}), ("timing", {}),
            ("timing", {"only_to_win": 0, "min_points": 0, "late_tricks": 3}), ("timing", {"min_tokens": 4}),
            ("lowball", {}), ("lowball", {"duck": 0, "min_points": 0, "discard": 1})]


def test_every_policy_chooses_a_legal_card_and_tokens_it_holds():
    rng = np.random.default_rng(7)
    for _ in range(400):
        pos = random_position(rng)
        p, pv = pos[0][0], pos[1][0]
        for name, params in VARIANTS:
            a = act(name, pos, **params)
            card, k1, k2 = a % ACTION.ONE, a // ACTION.ONE % 16, a // ACTION.TWO
            assert 0 <= card < 60 and pos[2][card] and int(pv["legal"]) >> card & 1, (name, params, a)
            assert k1 <= p["ones"][0] and k2 <= p["twos"][0], (name, params, a)
            assert not (p["discard"] and k1 + k2), (name, params, a)
