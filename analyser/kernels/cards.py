"""The standard 52-card deck: card ids, ranks and the names a trace prints.

A card id is ``rank * 4 + suit`` with rank 0..12 for 2..A and suit 0..3 for
C, D, H, S, so ``card >> 2`` is its rank and cards of one rank are adjacent.
"""
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = ("C", "D", "H", "S")
N_RANKS = 13
N_CARDS = 52


def card_name(card: int) -> str:
    """``card_name(35) == '10S'``: rank then suit."""
    return RANK_NAMES[card >> 2] + SUIT_NAMES[card & 3]


def card_names(cards) -> list[str]:
    return [card_name(int(c)) for c in cards]


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name`; used by tests to build positions."""
    rank, suit = name[:-1].upper(), name[-1].upper()
    return RANK_NAMES.index(rank) * 4 + SUIT_NAMES.index(suit)


def rank_value(name: str) -> int:
    """Rank index of a rank written as a user would: '2'..'10', 'J', 'Q', 'K', 'A'."""
    return RANK_NAMES.index(name.upper())
