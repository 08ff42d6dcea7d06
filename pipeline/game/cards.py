"""Cards as small integers: ranks, suits, parsing and naming.

A card is an int ``0..51``: ``rank * 4 + suit``, where ``rank`` is ``0..12``
for A, 2, ..., K and ``suit`` is ``0..3`` for H, C, D, S (the order of docs/rules.md).

>>> card_name(parse_card("QH"))
'QH'
>>> card_name(parse_card("10♠"))
'TS'
>>> rank_of(parse_card("AS")), suit_of(parse_card("AS"))
(0, 3)
"""

from __future__ import annotations

from pipeline.errors import BlackholeError, of_type, shown_value, whole_number

RANKS = "A23456789TJQK"
SUITS = "HCDS"
NUM_RANKS = 13
NUM_CARDS = 52

SUIT_SYMBOLS = "♥♣♦♠"  # in SUITS order: H C D S, as pictures show them
_SUIT_OF_SYMBOL = dict(zip(SUIT_SYMBOLS + "♡♧♢♤", "HCDS" * 2, strict=True))  # outline symbols too, on input


class CardError(BlackholeError, ValueError):
    """A card name that does not name one of the 52 cards."""


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = ace .. 12 = king) and ``suit`` (0..3, HCDS).

    >>> card_name(make_card(12, 0))
    'KH'
    """
    return rank * 4 + suit


def rank_of(card: int) -> int:
    """Rank index 0..12 (A..K) of ``card``."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0..3 (H, C, D, S) of ``card``."""
    return card & 3


def card_name(card: int) -> str:
    """Two-character name of ``card``: rank letter then suit letter.

    >>> card_name(0)
    'AH'

    A number outside 0..51 is a CardError; anything but a whole number (a bool, a float, a text) a TypeError.
    """
    number = whole_number(card, "card", where="card_name")
    if not 0 <= number < NUM_CARDS:
        raise CardError(f"no card has number {shown_value(number)}")
    return CARD_NAMES[number]


def parse_card(text: str) -> int:
    """The card named by ``text`` (``QH``, ``qh``, ``10D``, ``T♦``).

    >>> parse_card("ah") == parse_card("A♥")
    True
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    pipeline.game.cards.CardError: unknown card '1H'
    """
    of_type(text, str, "text")
    name = text.strip()
    if len(name) < 2:
        raise CardError(f"unknown card {text!r}")
    rank_text, suit_text = name[:-1].upper(), name[-1]
    suit_text = _SUIT_OF_SYMBOL.get(suit_text, suit_text.upper())
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS:
        raise CardError(f"unknown card {text!r}")
    return make_card(RANKS.index(rank_text), SUITS.index(suit_text))


def ranks_adjacent(a: int, b: int) -> bool:
    """True when ranks ``a`` and ``b`` (0..12) are neighbours on the circle.

    >>> ranks_adjacent(0, 12), ranks_adjacent(0, 1), ranks_adjacent(3, 3)
    (True, True, False)
    """
    return (a - b) % NUM_RANKS in (1, NUM_RANKS - 1)


ACE_OF_SPADES = make_card(0, 3)


CARD_NAMES = tuple(RANKS[rank_of(card)] + SUITS[suit_of(card)] for card in range(NUM_CARDS))
"""Every card's two-character name, indexed by card number (``CARD_NAMES[0] == 'AH'``)."""
