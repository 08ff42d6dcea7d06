"""A deal's identity up to suit relabelling and pile order: two deals with one key are one game.

>>> from pipeline.game.deal import EXAMPLE_BOARD
>>> deal = Deal.from_board_text(EXAMPLE_BOARD)
>>> canonical_key(Deal(tuple(reversed(deal.piles)))) == canonical_key(deal)
True
"""

from __future__ import annotations

from itertools import permutations

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS, make_card, rank_of, suit_of
from pipeline.game.deal import PILE_SIZE, Deal
from pipeline.game.games import BLACK_HOLE

_SPADES = suit_of(ACE_OF_SPADES)


def _relabelling(order: tuple[int, ...]) -> bytes:
    """A ``bytes.translate`` table sending card ``c`` to the same rank in suit ``order[suit_of(c)]``."""
    table = bytearray(range(256))
    for card in range(NUM_CARDS):
        table[card] = make_card(rank_of(card), order[suit_of(card)])
    return bytes(table)


# Hearts, clubs and diamonds in every order; spades stay spades (see canonical_key).
_RELABELLINGS = tuple(_relabelling(order) for order in permutations(range(4)) if order[_SPADES] == _SPADES)


def canonical_key(deal: Deal) -> bytes:
    """51 bytes, equal for two deals exactly when one is the other with suits relabelled and/or piles moved.

    Relabelling keeps the spades: a permutation that moved them would send the
    foundation's A♠ to another ace and put the A♠ in a pile, which is not a
    deal (docs/rules.md), so two deals can only be relabellings of each other by
    one of the six orders of hearts, clubs and diamonds. The key is the
    least, over those six, of the relabelled piles sorted (each pile kept
    bottom to top) and joined.

    >>> from pipeline.game.deal import EXAMPLE_BOARD
    >>> deal = Deal.from_board_text(EXAMPLE_BOARD)
    >>> swapped = EXAMPLE_BOARD.replace("H", "x").replace("D", "H").replace("x", "D")
    >>> reordered = Deal(tuple(reversed(Deal.from_board_text(swapped).piles)))
    >>> canonical_key(reordered) == canonical_key(deal), len(canonical_key(deal))
    (True, 51)
    """
    if deal.game is not BLACK_HOLE:
        raise ValueError(f"canonical keys are Black Hole's: {deal.game.title} deals have none yet")
    cards = bytes(deal.cards())
    best = b""
    for table in _RELABELLINGS:
        relabelled = cards.translate(table)
        piles = sorted(relabelled[start : start + PILE_SIZE] for start in range(0, len(cards), PILE_SIZE))
        key = b"".join(piles)
        if not best or key < best:
            best = key
    return best
