"""Where deals come from: seeded shuffles and PySol FC's numbered deals.

Seeded scheme ``blackhole-sha256-v1`` (pinned; golden tests guard it):

1. The A♠ is taken out; the other 51 cards start in card-number order
   (``rank * 4 + suit``, ranks A..K, suits H C D S).
2. A stream of 32-bit words comes from SHA-256 in counter mode: block ``k`` is
   ``SHA-256(b"blackhole-deal-v1" || S || i || k)`` with the root seed ``S``
   and the deal index ``i`` as unsigned 64-bit and ``k`` as unsigned 32-bit
   big-endian integers; each block gives eight little-endian 32-bit words.
3. A Fisher-Yates shuffle: for ``j`` from 50 down to 1, draw words until one
   is below ``2**32 - (2**32 % (j + 1))`` (rejection keeps it uniform), take
   it modulo ``j + 1`` as ``r``, and swap positions ``j`` and ``r``.
4. Pile ``p`` gets shuffled cards ``3p, 3p+1, 3p+2``, bottom to top.

Deal ``i`` of seed ``S`` depends on ``(S, i)`` alone, so any worker can build
any deal, and nothing depends on the number of workers.

The other games deal by the same scheme with three differences: all 52 cards
are shuffled (``j`` runs from 51 down); the domain names the game's layout
(``b"all_in_a_row-deal-v1"``, ``b"golf-deal-v1"``), so the three rule sets of
Golf deal the same cards from the same seed and index; and the shuffled cards
are laid out by :meth:`~pipeline.game.deal.Deal.from_cards`: pile by pile,
bottom to top, then (Golf) the foundation's card and the talon, first dealt
first. Their scheme is named ``LAYOUT-sha256-v1`` (:func:`seeded_scheme`).

>>> seeded_deal(7, 0) == seeded_deal(7, 0)
True
>>> seeded_deal(7, 0) == seeded_deal(7, 1)
False
>>> from pipeline.game.games import game_named
>>> seeded_deal(7, 0, game_named("golf")).piles == seeded_deal(7, 0, game_named("relaxed_golf")).piles
True
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterator
from enum import Enum

from pipeline.errors import ArgumentError, located, of_type, shown_value, whole_number
from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS
from pipeline.game.deal import BoardError, Deal, check_game
from pipeline.game.games import BLACK_HOLE, FoundationStart, Game
from pipeline.game.pysol_numbers import MAX_PYSOL_DEAL as MAX_PYSOL_DEAL  # for the callers that check one


class DealSource(str, Enum):
    """Where dealt deals come from: ``seed``, seeded shuffles, or ``pysol``, PySol FC's numbered deals.

    (Imported boards say ``import`` in a pack's ``source`` column: they are read, not dealt.)
    """

    SEED = "seed"
    PYSOL = "pysol"


SEEDED_SCHEME = BLACK_HOLE.seeded_scheme
PYSOL_SCHEME = "pysol-fc"
MAX_SEED = 2**64 - 1


def seeded_scheme(game: Game = BLACK_HOLE) -> str:
    """The name of the seeded dealing scheme of ``game`` (:attr:`~pipeline.game.games.Game.seeded_scheme`;
    Black Hole's is :data:`SEEDED_SCHEME`).

    >>> from pipeline.game.games import game_named
    >>> seeded_scheme(), seeded_scheme(game_named("dead_king_golf"))
    ('blackhole-sha256-v1', 'golf-sha256-v1')
    """
    return game.seeded_scheme


def _domain(game: Game) -> bytes:
    """What a game's seeded deals hash before the seed and the index: its scheme's name with ``deal`` for
    ``sha256`` (``b"blackhole-deal-v1"``, ``b"golf-deal-v1"``), so that the games of one layout deal alike."""
    return game.seeded_scheme.replace("-sha256-", "-deal-").encode()


def _words(seed: int, index: int, domain: bytes) -> Iterator[int]:
    prefix = domain + struct.pack(">QQ", seed, index)
    block = 0
    while True:
        digest = hashlib.sha256(prefix + struct.pack(">I", block)).digest()
        yield from struct.unpack("<8I", digest)
        block += 1


def seeded_id(seed: int, index: int) -> str:
    """The id of deal ``index`` of root seed ``seed``: ``seed-SEED-INDEX``, the same in every game.

    >>> seeded_id(20261129, 0)
    'seed-20261129-0'
    """
    return f"seed-{seed}-{index}"


def pysol_id(number: int) -> str:
    """The id of PySol FC's deal ``number``: ``pysol-NUMBER``, the same in every game.

    >>> pysol_id(2)
    'pysol-2'
    """
    return f"pysol-{number}"


def seeded_deal(seed: int, index: int, game: Game = BLACK_HOLE) -> Deal:
    """Deal ``index`` of root seed ``seed`` of ``game`` under the pinned scheme above, named
    :func:`seeded_id` (``deal.deal_id``).

    ``seed`` and ``index`` are whole numbers from 0 to :data:`MAX_SEED` (else ArgumentError; a bool
    or a float is a TypeError), ``game`` a :class:`~pipeline.game.games.Game` (TypeError).

    >>> seeded_deal(-1, 0)
    Traceback (most recent call last):
    ...
    pipeline.errors.ArgumentError: seeded_deal: seed must be from 0 to 18446744073709551615, got -1
    """
    seed = whole_number(seed, "seed", lowest=0, highest=MAX_SEED, where="seeded_deal")
    index = whole_number(index, "index", lowest=0, highest=MAX_SEED, where="seeded_deal")
    check_game(game)
    if game.foundation_start is FoundationStart.ACE_OF_SPADES:
        cards = [card for card in range(NUM_CARDS) if card != ACE_OF_SPADES]
    else:
        cards = list(range(NUM_CARDS))
    words = _words(seed, index, _domain(game))
    for j in range(len(cards) - 1, 0, -1):
        span = j + 1
        limit = 2**32 - (2**32 % span)
        word = next(words)
        while word >= limit:
            word = next(words)
        r = word % span
        cards[j], cards[r] = cards[r], cards[j]
    return Deal.from_cards(cards, game, deal_id=seeded_id(seed, index))


def pysol_deal(number: int, game: Game = BLACK_HOLE) -> Deal:
    """PySol FC's deal ``number`` of ``game``, as PySol FC (and the ``pysol_cards`` package) deals it,
    named :func:`pysol_id` (``deal.deal_id``). A ``number`` outside 1 to :data:`MAX_PYSOL_DEAL` is an
    ArgumentError, one that is no whole number (a bool, a float) a TypeError.

    The dealing is this project's port, :mod:`pipeline.game.pysol` (tests check it
    against ``pysol_cards``); it is imported here, not at the top, because it loads numpy.
    """
    from pipeline.game.pysol import pysol_deal_cards

    number = whole_number(number, "number", where="pysol_deal")
    if not 1 <= number <= MAX_PYSOL_DEAL:
        raise ArgumentError(
            located(
                f"PySol FC deal numbers run from 1 to {MAX_PYSOL_DEAL}, got {shown_value(number)}",
                source="pysol_deal",
            )
        )
    check_game(game)
    return Deal.from_cards(pysol_deal_cards(number, game), game, deal_id=pysol_id(number))


def deal_of_id(deal_id: str, game: Game = BLACK_HOLE) -> Deal:
    """The deal of ``game`` a seeded or PySol FC deal id names (``seed-SEED-INDEX``, ``pysol-NUMBER``).

    Raises BoardError for any other id (an imported deal is known only by its pack). The deal
    carries its id back: ``deal_of_id(deal.deal_id) == deal``.

    >>> deal_of_id("seed-7-0") == seeded_deal(7, 0), deal_of_id("pysol-5") == pysol_deal(5)
    (True, True)
    >>> deal_of_id("seed-7-0").deal_id, pysol_deal(5).deal_id
    ('seed-7-0', 'pysol-5')
    """
    of_type(deal_id, str, "deal_id")
    check_game(game)
    source = deal_id if deal_id.isprintable() else repr(deal_id)  # one line, escapes escaped
    seeded = re.fullmatch(r"seed-([0-9]+)-([0-9]+)", deal_id)  # ASCII digits: not any Unicode digit
    if seeded:
        # past 20 digits a number is out of range: int() is not asked (it refuses past 4,300 digits)
        seed, index = (int(text) if len(text) <= 20 else MAX_SEED + 1 for text in seeded.groups())
        if seed > MAX_SEED or index > MAX_SEED:
            raise BoardError(f"seeds and deal indices run from 0 to {MAX_SEED}", source=source)
        return seeded_deal(seed, index, game)
    numbered = re.fullmatch(r"pysol-([0-9]+)", deal_id)
    if numbered:
        if len(numbered.group(1)) > 20 or not 1 <= int(numbered.group(1)) <= MAX_PYSOL_DEAL:
            raise BoardError(f"PySol FC deal numbers run from 1 to {MAX_PYSOL_DEAL}", source=source)
        return pysol_deal(int(numbered.group(1)), game)
    raise BoardError(
        "not a seeded (seed-SEED-INDEX) or PySol FC (pysol-NUMBER) deal id; give --pack to look it up",
        source=source,
    )
