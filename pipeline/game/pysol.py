"""PySol FC's numbered deals of every game here, dealt by this project (many at a time with numpy).

PySol FC (and the ``pysol_cards`` package, which reproduces its dealing) turns
a deal number into a deal in three steps; only the last depends on the game.

**The generator.** PySol FC numbers use one of two generators, chosen by the
number alone:

- numbers 1 to 32,000 (:data:`LAST_MICROSOFT_DEAL`) use the Microsoft C
  runtime's ``rand()``, the generator of the original FreeCell deals: a linear
  congruential generator ``state = state * 214013 + 2531011`` started at the
  deal number, each draw being bits 16 to 30 of the new state (0 to 32767).
  ``pysol_cards`` keeps 33 bits of state, but only bits 16 to 30 are ever
  read, and they depend on the low 31 bits alone. (Its extra rules for seeds
  of 2**31 and more apply to ``ms``-prefixed deals, never to PySol FC numbers.)
- numbers above 32,000 use Python's own Mersenne Twister (MT19937),
  ``random.Random(number)``: the number, cut into 32-bit words from the low
  end, is its seed key (one word below 2**32, two words from 2**32 on), and
  each draw is ``random()``, a double of 53 random bits made from two 32-bit
  outputs (the first shifted right by 5, the second by 6).

PySol's other generator, a 64-bit LCG, deals its old "PySol" numbering and is
never used for PySol FC numbers. This project stops at ``MAX_PYSOL_DEAL =
2**33 - 1`` (:mod:`pipeline.game.shuffles`); PySol FC itself goes on with the
twister.

**The shuffle.** The 52 cards start in an order that depends on the
generator: for Microsoft's, rank by rank (A to K) and within a rank the suits
C, D, H, S (the FreeCell order); for the twister, suit by suit (C, S, H, D)
and within a suit A to K. A Fisher-Yates shuffle then runs from the end: for
``n`` from 51 down to 1 it picks ``j`` from 0 to ``n`` and swaps positions
``n`` and ``j``. Microsoft's draws give ``j = rand() % (n + 1)``; the
twister's ``j = int(random() * (n + 1))``, computed in doubles exactly as
Python does.

**The layout.** PySol deals from the end of the shuffled list, so the list is
read backwards, and cards go round the piles in turn: with ``n`` piles, pile
``p`` gets the cards ``p``, ``p + n``, ``p + 2n``, ... of what is dealt, the
first of them at the bottom (covered) and the last on top (free).

- Black Hole takes the A♠ out of the list for the foundation; the other 51
  cards go round the 17 piles.
- All in a Row moves the A♠ to the end of the list (so it is dealt last, on
  top of pile 12); the 52 cards go round the 13 piles.
- Golf deals 35 cards round the 7 piles; the next card starts the
  foundation, and the last 16 are the talon, in the order they come.

:func:`pysol_cards_of` returns the cards in the order
:meth:`pipeline.game.deal.Deal.from_cards` takes: pile 0 first, each pile
bottom to top, then Golf's foundation card and talon (51 cards for Black Hole,
52 for the others). It runs the generators on whole arrays of deal numbers at
once (the twister's seeding dominates: 1,247 dependent steps per deal, run
as numpy operations over thousands of deals). :func:`pysol_deal_cards` deals
one number with Python's own ``random.Random``, for single deals.

>>> from pipeline.game.cards import card_name
>>> cards = pysol_cards_of(1, 2)
>>> cards.shape, cards.dtype
((2, 51), dtype('int8'))
>>> [card_name(card) for card in cards[0, :3].tolist()]  # deal 1, pile 0, bottom to top
['JD', 'KS', 'TH']
>>> pysol_cards_of(32000, 2).tolist() == [pysol_deal_cards(32000), pysol_deal_cards(32001)]
True
>>> pysol_cards_of(2**32 - 1, 2).tolist() == [pysol_deal_cards(2**32 - 1), pysol_deal_cards(2**32)]
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS, NUM_RANKS, SUITS, make_card
from pipeline.game.games import BLACK_HOLE, FoundationStart, Game
from pipeline.game.pysol_numbers import MAX_PYSOL_DEAL

LAST_MICROSOFT_DEAL = 32000  # PySol FC numbers up to here use Microsoft's rand(); above, the twister
DEALT = BLACK_HOLE.pile_cards  # Black Hole's 51 cards in the piles

# The decks before shuffling, as this project's card ints.
_MICROSOFT_DECK = tuple(make_card(rank, SUITS.index(suit)) for rank in range(NUM_RANKS) for suit in "CDHS")
_TWISTER_DECK = tuple(make_card(rank, SUITS.index(suit)) for suit in "CSHD" for rank in range(NUM_RANKS))


@functools.cache
def _layout(game: Game) -> npt.NDArray[np.intp]:
    """For each card of ``game``'s :meth:`Deal.from_cards` order, its place in the list PySol deals from."""
    piles, size = game.num_piles, game.pile_size
    piled = [pile + piles * height for pile in range(piles) for height in range(size)]
    return np.array(piled + list(range(len(piled), game.dealt_cards)), dtype=np.intp)


# _SPANS[s] = n + 1 at shuffle step s (n = 51 - s): how many positions j may take.
_SPANS = np.arange(NUM_CARDS, 1, -1)

# Microsoft's rand(): state * 214013 + 2531011; pysol_cards keeps 33 bits of state.
_MS_MULTIPLIER, _MS_INCREMENT, _MS_STATE_MASK = 214013, 2531011, 2**33 - 1

# MT19937 as CPython's _randommodule.c runs it (Matsumoto and Nishimura's reference code).
_MT_N, _MT_M = 624, 397
_MT_INIT_SEED = 19650218  # init_by_array starts from init_genrand(19650218)
_MT_DRAWS = 2 * (NUM_CARDS - 1)  # 51 random() calls, each of two 32-bit outputs
_UPPER, _LOWER, _MATRIX_A = 0x80000000, 0x7FFFFFFF, 0x9908B0DF
_WORD = 0xFFFFFFFF

# How many deals one batch of numpy operations handles: the twister's state is
# 624 words a deal, so 8,192 deals hold 20 MB; larger batches run slower (measured), smaller ones
# pay numpy's per-call overhead more often.
_BATCH = 8192


def pysol_cards_of(first: int, count: int, game: Game = BLACK_HOLE) -> npt.NDArray[np.int8]:
    """The cards of PySol FC deals ``first .. first + count - 1`` of ``game``, shape ``(count, 51)`` (52 but in
    Black Hole).

    Row ``i`` is deal ``first + i`` in :meth:`Deal.from_cards` order (pile 0
    first, each pile bottom to top, then Golf's foundation card and talon),
    cards as ``rank * 4 + suit``.
    """
    if count < 0:
        raise ValueError(f"count must not be negative, got {count}")
    if count and not 1 <= first <= first + count - 1 <= MAX_PYSOL_DEAL:
        raise ValueError(
            f"PySol FC deal numbers run from 1 to {MAX_PYSOL_DEAL}, got {first} to {first + count - 1}"
        )
    return pysol_cards_for(np.arange(first, first + count, dtype=np.int64), game)


def pysol_cards_for(numbers: npt.ArrayLike, game: Game = BLACK_HOLE) -> npt.NDArray[np.int8]:
    """The cards of the PySol FC deals ``numbers`` of ``game`` (any order, repeats allowed), one row each.

    >>> pysol_cards_for([5, 1])[1].tolist() == pysol_cards_of(1, 1)[0].tolist()
    True
    """
    wanted = np.asarray(numbers, dtype=np.int64).reshape(-1)
    if wanted.size and not (wanted.min() >= 1 and wanted.max() <= MAX_PYSOL_DEAL):
        raise ValueError(f"PySol FC deal numbers run from 1 to {MAX_PYSOL_DEAL}")
    cards = np.empty((wanted.size, game.dealt_cards), dtype=np.int8)
    microsoft = wanted <= LAST_MICROSOFT_DEAL
    for uses_microsoft, deck, draws in (
        (True, _MICROSOFT_DECK, _microsoft_draws),
        (False, _TWISTER_DECK, _twister_draws),
    ):
        rows = np.flatnonzero(microsoft == uses_microsoft)
        for start in range(0, rows.size, _BATCH):
            batch = rows[start : start + _BATCH]
            cards[batch] = _deal(deck, draws(wanted[batch]), game)
    return cards


def pysol_deal_cards(number: int, game: Game = BLACK_HOLE) -> list[int]:
    """The cards of PySol FC deal ``number`` of ``game``, in :meth:`Deal.from_cards` order.

    One deal at a time, with Python's ``random.Random`` (the very generator
    PySol FC uses above 32,000) instead of numpy; :func:`pysol_cards_of` is
    the same deal.
    """
    if not 1 <= number <= MAX_PYSOL_DEAL:
        raise ValueError(f"PySol FC deal numbers run from 1 to {MAX_PYSOL_DEAL}, got {number}")
    if number <= LAST_MICROSOFT_DEAL:
        deck = list(_MICROSOFT_DECK)
        state = number
        for n in range(NUM_CARDS - 1, 0, -1):
            state = (state * _MS_MULTIPLIER + _MS_INCREMENT) & _MS_STATE_MASK
            j = ((state >> 16) & 0x7FFF) % (n + 1)
            deck[n], deck[j] = deck[j], deck[n]
    else:
        deck = list(_TWISTER_DECK)
        twister = random.Random(number)
        for n in range(NUM_CARDS - 1, 0, -1):
            j = int(twister.random() * (n + 1))
            deck[n], deck[j] = deck[j], deck[n]
    deck.reverse()  # PySol deals from the end of the list
    if game.foundation_start is not FoundationStart.DEALT:
        deck.remove(ACE_OF_SPADES)  # to the foundation (Black Hole), or
        if game.foundation_start is FoundationStart.EMPTY:
            deck.append(ACE_OF_SPADES)  # dealt last (All in a Row)
    return [deck[position] for position in _layout(game).tolist()]


# --- the vectorised generators: every row is one deal -------------------------------------------


def _microsoft_draws(numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """``j`` for each of the 51 shuffle steps (rows) of each deal (columns), by Microsoft's rand()."""
    state = numbers.astype(np.int64)  # below 2**33, so state * 214013 fits in 64 bits
    picks = np.empty((NUM_CARDS - 1, numbers.size), dtype=np.intp)
    for step, span in enumerate(_SPANS.tolist()):
        state = (state * _MS_MULTIPLIER + _MS_INCREMENT) & _MS_STATE_MASK
        picks[step] = ((state >> 16) & 0x7FFF) % span
    return picks


def _twister_draws(numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """``j`` for each of the 51 shuffle steps (rows) of each deal (columns), by ``random.Random(number)``."""
    words = _twister_words(numbers)
    high = (words[0::2] >> 5).astype(np.float64)  # random(): 27 bits from the first output,
    low = (words[1::2] >> 6).astype(np.float64)  # 26 from the second
    uniform = (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)  # exact: / 2**53
    # int(random() * (n + 1)): the same double product Python forms (so the same rounding), truncated
    picks: npt.NDArray[np.intp] = (uniform * _SPANS[:, None].astype(np.float64)).astype(np.intp)
    return picks


def _twister_words(numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.uint32]:
    """The first 102 outputs of MT19937 seeded as ``random.Random(number)`` seeds it, one column a deal.

    Seeding is init_by_array(key): the key is the number's 32-bit words, low
    word first (one word below 2**32, two above). Its two mixing passes are a
    chain of 1,247 dependent steps per deal: they run in order, each step on
    every deal of the batch at once, on a (624, deals) state.
    """
    size = numbers.size
    low_word = (numbers & _WORD).astype(np.uint32)
    high_word = (numbers >> 32).astype(np.uint32)
    # the first pass adds key[j] + j with j cycling through the key: for a one-word key
    # that is key[0] every step, for a two-word key key[0] then key[1] + 1 in turn
    added = (low_word, np.where(high_word != 0, high_word + np.uint32(1), low_word))
    initial = _mt_initial_state()
    state = np.empty((_MT_N, size), dtype=np.uint32)
    state[0] = initial[0]
    mixed = np.empty(size, dtype=np.uint32)
    i = 1
    for step in range(_MT_N):  # max(624, key length) steps
        previous, current = state[i - 1], state[i]
        np.right_shift(previous, 30, out=mixed)
        mixed ^= previous
        mixed *= np.uint32(1664525)
        # word i still holds its initial value, the same for every deal, until this pass
        # wraps round to word 1 (at the last step)
        np.bitwise_xor(mixed, current if step >= _MT_N - 1 else initial[i], out=current)
        current += added[step % 2]  # uint32 arithmetic wraps, as in C
        i += 1
        if i >= _MT_N:
            state[0] = state[_MT_N - 1]
            i = 1
    for _ in range(_MT_N - 1):
        previous, current = state[i - 1], state[i]
        np.right_shift(previous, 30, out=mixed)
        mixed ^= previous
        mixed *= np.uint32(1566083941)
        current ^= mixed
        current -= np.uint32(i)
        i += 1
        if i >= _MT_N:
            state[0] = state[_MT_N - 1]
            i = 1
    state[0] = _UPPER  # init_by_array ends by making the state non-zero
    # The first twist, for the outputs we use only: output k (k < 227) reads words k, k + 1
    # and k + 397 of the seeded state, none of which the twist has rewritten yet.
    y = (state[0:_MT_DRAWS] & np.uint32(_UPPER)) | (state[1 : _MT_DRAWS + 1] & np.uint32(_LOWER))
    one = np.uint32(1)
    words: npt.NDArray[np.uint32] = (
        state[_MT_M : _MT_M + _MT_DRAWS] ^ (y >> one) ^ ((y & one) * np.uint32(_MATRIX_A))
    )
    # tempering
    words ^= words >> np.uint32(11)
    words ^= (words << np.uint32(7)) & np.uint32(0x9D2C5680)
    words ^= (words << np.uint32(15)) & np.uint32(0xEFC60000)
    words ^= words >> np.uint32(18)
    return words


_INITIAL_STATE: list[npt.NDArray[np.uint32]] = []


def _mt_initial_state() -> npt.NDArray[np.uint32]:
    """init_genrand(19650218), where every seeding starts (the same for every deal; made once)."""
    if not _INITIAL_STATE:
        words = [_MT_INIT_SEED]
        for i in range(1, _MT_N):
            words.append((1812433253 * (words[-1] ^ (words[-1] >> 30)) + i) & _WORD)
        _INITIAL_STATE.append(np.array(words, dtype=np.uint32))
    return _INITIAL_STATE[0]


def _deal(deck: Sequence[int], picks: npt.NDArray[np.intp], game: Game) -> npt.NDArray[np.int8]:
    """Shuffle ``deck`` once per column of ``picks`` (Fisher-Yates from the end) and lay out ``game``'s deal."""
    size = picks.shape[1]
    cards = np.tile(np.array(deck, dtype=np.int8), (size, 1))
    flat = cards.reshape(-1)
    row_starts = np.arange(size) * NUM_CARDS
    for step, n in enumerate(range(NUM_CARDS - 1, 0, -1)):
        # swap positions n and j of every deal at once (when j == n, both writes put the card back)
        where = row_starts + picks[step]
        picked = flat[where]
        flat[where] = cards[:, n]
        cards[:, n] = picked
    layout = _layout(game)[None, :]
    if game.foundation_start is FoundationStart.DEALT:  # the list read backwards, as it is
        positions = np.broadcast_to(layout, (size, layout.shape[1]))
    else:
        # Read backwards with the A♠ taken out, position p is shuffled position 51 - p, or
        # 51 - (p + 1) from the A♠'s place on; All in a Row puts the A♠ back at the end, position 51.
        ace = (NUM_CARDS - 1 - np.argmax(cards == ACE_OF_SPADES, axis=1))[
            :, None
        ]  # the A♠'s place, backwards
        positions = np.where(layout == NUM_CARDS - 1, ace, layout + (layout >= ace))
    dealt: npt.NDArray[np.int8] = np.take_along_axis(cards, NUM_CARDS - 1 - positions, axis=1)
    return dealt
