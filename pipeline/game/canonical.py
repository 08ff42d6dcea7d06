"""A deal's identity up to suit relabelling and pile order: two deals with one key are one game.

>>> from pipeline.game.deal import EXAMPLE_BOARD
>>> deal = Deal.from_board_text(EXAMPLE_BOARD)
>>> canonical_key(Deal(tuple(reversed(deal.piles)))) == canonical_key(deal)
True
"""

from __future__ import annotations

from itertools import permutations

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS, make_card, rank_of, suit_of
from pipeline.game.deal import Deal
from pipeline.game.games import FoundationStart

_SPADES = suit_of(ACE_OF_SPADES)


def _relabelling(order: tuple[int, ...]) -> bytes:
    """A ``bytes.translate`` table sending card ``c`` to the same rank in suit ``order[suit_of(c)]``."""
    table = bytearray(range(256))
    for card in range(NUM_CARDS):
        table[card] = make_card(rank_of(card), order[suit_of(card)])
    return bytes(table)


# Hearts, clubs and diamonds in every order, spades staying spades (see canonical_key); then every order.
_SPADES_KEPT = tuple(_relabelling(order) for order in permutations(range(4)) if order[_SPADES] == _SPADES)
_EVERY_ORDER = tuple(_relabelling(order) for order in permutations(range(4)))


def canonical_key(deal: Deal) -> bytes:
    """Bytes equal for two deals of one game exactly when one is the other with suits relabelled and/or piles moved.

    In Black Hole relabelling keeps the spades: a permutation that moved them would send the
    foundation's A♠ to another ace and put the A♠ in a pile, which is not a
    deal (docs/rules.md), so two deals can only be relabellings of each other by
    one of the six orders of hearts, clubs and diamonds. The other games start
    with no card fixed, so every one of the 24 orders of the suits counts. The
    key is the least, over those orders, of the relabelled piles sorted (each
    pile kept bottom to top) and joined, then Golf's starting card and its
    talon in the order it is dealt (51 bytes in Black Hole, 52 in the others).

    >>> from pipeline.game.deal import EXAMPLE_BOARD
    >>> deal = Deal.from_board_text(EXAMPLE_BOARD)
    >>> swapped = EXAMPLE_BOARD.replace("H", "x").replace("D", "H").replace("x", "D")
    >>> reordered = Deal(tuple(reversed(Deal.from_board_text(swapped).piles)))
    >>> canonical_key(reordered) == canonical_key(deal), len(canonical_key(deal))
    (True, 51)
    """
    game = deal.game
    piled = bytes(card for pile in deal.piles for card in pile)
    rest = bytes(deal.cards()[len(piled) :])  # Golf's starting card and talon
    size = game.pile_size
    orders = _SPADES_KEPT if game.foundation_start is FoundationStart.ACE_OF_SPADES else _EVERY_ORDER
    best = b""
    for table in orders:
        relabelled = piled.translate(table)
        piles = sorted(relabelled[start : start + size] for start in range(0, len(piled), size))
        key = b"".join(piles) + rest.translate(table)
        if not best or key < best:
            best = key
    return best
