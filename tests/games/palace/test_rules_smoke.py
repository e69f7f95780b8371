from tests.games.palace.table import PICKUP, PLAY, Table


def test_harness_plays_and_draws():
    # seat 0: hand 3C 4D 9H, pile 2S ; draw pile QC KD
    t = Table(hands=["3C 4D 9H", "5H 6H 7H"], pile="2S", draw="QC KD")
    assert PLAY("3") in t.legal_actions() and PICKUP in t.legal_actions()
    t.play(PLAY("4"))
    assert t.pile() == ["2S", "4D"]
    assert t.hand(0) == ["3C", "9H", "QC"]
    assert t.draw_pile() == ["KD"]
    assert t.seat == 1
