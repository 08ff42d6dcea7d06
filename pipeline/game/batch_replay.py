"""The referee for many deals at once: board text parsed and solutions replayed with numpy, a batch at a time.

:func:`pipeline.game.rules.replay` checks one solution at a time in plain
Python, too slow for a million rows (docs/benchmarks.md gives what one
costs). A whole batch is checked here in a handful of array operations
instead, and a row that fails is handed back to the plain referee for the
precise message.

**Boards.** Texts come as the bytes of all of them (``data``) and where
each starts (``offsets``, one more than there are texts), as Arrow keeps a
column of strings. A text in the canonical spelling (``Deal.to_board_text``)
has a fixed layout of :data:`CANONICAL_BOARD_LENGTH` bytes, so a batch of
them is one ``(N, 169)`` array whose cards are read by table look-ups
(:func:`canonical_cards`); any other text goes to ``Deal.from_board_text``,
which reads every accepted spelling and names the problem of a bad one
(:func:`board_cards`).

**Solutions.** A win is exactly 51 moves, each pile played exactly three
times: a pile's ``k``-th play takes its ``k``-th card from the top, whatever
the other piles do, so the cards a solution plays are known without playing
it, and the solution wins exactly when each card's rank is next to the rank
before it on the circle, the first next to the A♠'s
(:func:`failed_replays`). A sequence of any other length, or that plays a
pile other than three times (an empty pile, a pile that does not exist), is
no win; the plain referee rejects the same ones.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> text = np.frombuffer(EXAMPLE_BOARD.encode(), np.uint8)
>>> cards, parsed = canonical_cards(text, np.array([0, text.size]))
>>> parsed.tolist(), tuple(cards[0].tolist()) == Deal.from_board_text(EXAMPLE_BOARD).cards()
([True], True)
>>> failed_replays(cards, np.arange(51, dtype=np.uint8) % 17, np.array([0, 51])).tolist()
[True]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pipeline.game.cards import ACE_OF_SPADES, CARD_NAMES, NUM_CARDS, NUM_RANKS, rank_of
from pipeline.game.deal import NUM_PILES, PILE_SIZE, Deal
from pipeline.game.games import FoundationStart, Game
from pipeline.game.rules import WINNING_LENGTH

_HEADER = np.frombuffer(b"Foundations: AS\n", np.uint8)
CANONICAL_BOARD_LENGTH = _HEADER.size + 3 * WINNING_LENGTH
"""Bytes of a board text in the canonical spelling: the foundation line, then 17 lines ``XX XX XX``
(each card two letters, then a space or, after a pile's top card, a newline)."""

# A card's two letters read as one little-endian 16-bit number (first letter low): the card, or
# -1; and the card's bit, or bit 63 (no card has it). 51 cards covering the bits of the 51
# dealt cards are every one of them, none twice, and no A♠.
_LETTER_PAIRS = [ord(name[0]) | (ord(name[1]) << 8) for name in CARD_NAMES]
_CARD_OF_LETTERS = np.full(1 << 16, -1, np.int8)
_CARD_OF_LETTERS[_LETTER_PAIRS] = np.arange(NUM_CARDS)
_BIT_OF_LETTERS = np.full(1 << 16, 1 << 63, np.uint64)
_BIT_OF_LETTERS[_LETTER_PAIRS] = np.left_shift(np.uint64(1), np.arange(NUM_CARDS, dtype=np.uint64))
_DEALT = np.uint64(((1 << NUM_CARDS) - 1) & ~(1 << ACE_OF_SPADES))
_ENDINGS = np.frombuffer((b" " * (PILE_SIZE - 1) + b"\n") * NUM_PILES, np.uint8)

_NO_PILE = NUM_PILES  # what a move to no pile (past the last, or below 0) counts as
_STEP_BITS = 6  # a move's step (0..50) in the low bits of its sort key, its pile above
_STEPS = np.arange(WINNING_LENGTH, dtype=np.uint16)
_EACH_PILE_THRICE = np.repeat(np.arange(NUM_PILES, dtype=np.uint16), PILE_SIZE)
# The places of Deal.cards() pile by pile, each pile top first: the order a pile's plays take its cards.
_TOP_FIRST = np.arange(WINNING_LENGTH).reshape(NUM_PILES, PILE_SIZE)[:, ::-1].ravel()
_START_RANK = rank_of(ACE_OF_SPADES)


def batch_replayed(game: Game) -> bool:
    """Whether ``game``'s deals are checked here: the games of Black Hole's layout (17 piles of 3 under the
    A♠, no talon, K and A neighbours), which this module's arrays are built for; the others' deals one at
    a time by the plain referee.

    >>> from pipeline.game.games import GAMES
    >>> [game.name for game in GAMES if batch_replayed(game)]
    ['black_hole']
    """
    return (
        (game.num_piles, game.pile_size, game.talon_size) == (NUM_PILES, PILE_SIZE, 0)
        and game.foundation_start is FoundationStart.ACE_OF_SPADES
        and game.wrap
        and not game.dead_king
    )


Cards = npt.NDArray[np.int8]
Mask = npt.NDArray[np.bool_]


def canonical_cards(data: npt.NDArray[np.uint8], offsets: npt.NDArray[np.integer]) -> tuple[Cards, Mask]:
    """The 51 cards (``Deal.cards()`` order) of each text in canonical spelling, and which texts are.

    Text ``i`` is ``data[offsets[i]:offsets[i + 1]]``. A row that is not a
    deal in the canonical layout is False in the mask, its cards left 0.

    >>> from pipeline.game.deal import EXAMPLE_BOARD
    >>> texts = [EXAMPLE_BOARD, EXAMPLE_BOARD.lower(), EXAMPLE_BOARD.replace("JD", "AS")]
    >>> data = np.frombuffer("".join(texts).encode(), np.uint8)
    >>> canonical_cards(data, np.cumsum([0, *map(len, texts)]))[1].tolist()
    [True, False, False]
    """
    offsets = np.asarray(offsets, np.int64)
    starts, lengths = offsets[:-1], np.diff(offsets)
    count = len(starts)
    parsed = lengths == CANONICAL_BOARD_LENGTH
    fixed = np.flatnonzero(parsed)
    cards = np.zeros((count, WINNING_LENGTH), np.int8)
    if not fixed.size:
        return cards, parsed
    if fixed.size == count and np.all(starts == offsets[0] + CANONICAL_BOARD_LENGTH * np.arange(count)):
        text = data[offsets[0] : offsets[-1]]  # the texts back to back: a view
    else:
        text = data[starts[fixed, None] + np.arange(CANONICAL_BOARD_LENGTH)].ravel()
    rows = text.reshape(fixed.size, CANONICAL_BOARD_LENGTH)
    # each card's two letters as one 16-bit number, read in place (every third byte from the header on)
    letters = np.ndarray(
        (fixed.size, WINNING_LENGTH),
        "<u2",
        np.ascontiguousarray(text),
        _HEADER.size,
        (CANONICAL_BOARD_LENGTH, 3),
    )
    good = (
        np.all(rows[:, : _HEADER.size] == _HEADER, axis=1)
        & np.all(rows[:, _HEADER.size + 2 :: 3] == _ENDINGS, axis=1)
        & (np.bitwise_or.reduce(_BIT_OF_LETTERS[letters], axis=1) == _DEALT)
    )
    found = _CARD_OF_LETTERS[letters]
    found[~good] = 0
    cards[fixed] = found
    parsed[fixed] = good
    return cards, parsed


def board_cards(
    data: npt.NDArray[np.uint8],
    offsets: npt.NDArray[np.integer],
    *,
    source: Callable[[int], str] = lambda row: f"<board {row}>",
) -> Cards:
    """The 51 cards of each board text (``Deal.cards()`` order): :func:`canonical_cards`, and
    ``Deal.from_board_text`` for the texts in another spelling.

    A text that is no board raises BoardError naming ``source(row)`` (its row
    from 0), the line and the problem, exactly as ``Deal.from_board_text`` does.
    """
    cards, parsed = canonical_cards(data, offsets)
    for row in np.flatnonzero(~parsed).tolist():
        text = data[offsets[row] : offsets[row + 1]].tobytes().decode("utf-8", errors="replace")
        cards[row] = Deal.from_board_text(text, source=source(row)).cards()
    return cards


def failed_replays(cards: Cards, moves: npt.NDArray[np.integer], offsets: npt.NDArray[np.integer]) -> Mask:
    """Which rows' moves are not a win of their deal: True where ``rules.replay`` would raise IllegalMove.

    Row ``i`` plays the piles ``moves[offsets[i]:offsets[i + 1]]`` in the deal
    whose cards (``Deal.cards()`` order) are ``cards[i]``.
    """
    offsets = np.asarray(offsets, np.int64)
    count = len(offsets) - 1
    failed: Mask = np.diff(offsets) != WINNING_LENGTH
    whole = np.flatnonzero(~failed)
    if not whole.size:
        return failed
    moves = np.asarray(moves)
    if whole.size == count:  # every row 51 moves long: one block of the moves
        played = moves[offsets[0] : offsets[-1]].reshape(count, WINNING_LENGTH)
    else:
        played = moves[offsets[whole, None] + np.arange(WINNING_LENGTH)]
    played = np.where((played >= 0) & (played < NUM_PILES), played, _NO_PILE).astype(np.uint16)
    # Each move's pile and step, sorted: each pile's plays in play order, a pile after another. A win
    # plays each pile thrice; and then the k-th play of a pile takes its k-th card from the top,
    # whatever the other piles do, so the ranks taken pile by pile, put back in play order (the
    # steps), are the ranks played (rank_of: card >> 2).
    key = (played << _STEP_BITS) | _STEPS
    key.sort(axis=1)  # the keys of a row differ: any sort keeps play order within a pile
    thrice = np.all((key >> _STEP_BITS) == _EACH_PILE_THRICE, axis=1)
    steps = (key & ((1 << _STEP_BITS) - 1)).astype(np.intp) + WINNING_LENGTH * np.arange(whole.size)[:, None]
    ranks = np.empty((whole.size, WINNING_LENGTH), np.int8)
    np.put(ranks, steps, cards[whole][:, _TOP_FIRST] >> 2)
    before = np.empty_like(ranks)
    before[:, 0] = _START_RANK
    before[:, 1:] = ranks[:, :-1]
    step = np.abs(ranks - before)
    fits = np.all((step == 1) | (step == NUM_RANKS - 1), axis=1)  # ranks_adjacent
    failed[whole] = ~(thrice & fits)
    return failed
