"""Where a deals pack's rows come from: seeded shuffles, PySol FC deal numbers, board text files.

``deal_id`` is ``seed-<seed>-<index>`` for a seeded deal, ``pysol-<number>``
for a PySol FC deal, and ``import-<h>`` for an imported one, where ``<h>`` is
the first 16 hex digits of the SHA-256 of the deal's canonical board text
(:meth:`Deal.to_board_text`): the same deal gets the same id whichever file,
spelling (``10H``/``TH``, ``♥``) or position it came from, so a board may
appear only once in an imported file.

>>> table = seeded_deals(seed=7, count=2)
>>> table.column("deal_id").to_pylist()
['seed-7-0', 'seed-7-1']
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.game.cards import NUM_CARDS, card_name
from pipeline.game.deal import NUM_PILES, PILE_SIZE, BoardError, Deal, read_boards
from pipeline.game.pysol import pysol_cards_of
from pipeline.game.shuffles import PYSOL_SCHEME, SEEDED_SCHEME, pysol_deal, seeded_deal
from pipeline.packs.parquet import with_metadata, write_pack
from pipeline.packs.schema import DEAL_FIELDS, DEALS_SCHEMA, IMPORT_SCHEME, bare


def seeded_deals(*, seed: int, count: int, start: int = 0) -> pa.Table:
    """Deals ``start .. start + count - 1`` of root ``seed`` (the pinned scheme of pipeline.game.shuffles)."""
    span = DealSpan("seed", seed, start, count)
    return deals_table(span, [deal.to_board_text() for deal in span.deals()])


def pysol_deals(*, first: int, count: int) -> pa.Table:
    """PySol FC Black Hole deals ``first .. first + count - 1``.

    All dealt in one call (:func:`pysol_cards_of`) and their boards written straight
    into one byte buffer: the same table as ``pysol_deal(number).to_board_text()``
    number by number, far faster.
    """
    count = max(count, 0)  # as range(first, first + count) would: no deals
    return deals_table(DealSpan("pysol", 0, first, count), _board_texts(pysol_cards_of(first, count)))


# Board text as Deal.to_board_text writes it, for a whole array of deals at once: the
# foundation line, then card by card (Deal.from_cards order) three bytes, its two letters and
# a space, or a newline after the top card of a pile.
_FOUNDATION_LINE = np.frombuffer(b"Foundations: AS\n", dtype=np.uint8)
_BOARD_BYTES = _FOUNDATION_LINE.size + 3 * NUM_PILES * PILE_SIZE
# _CARD_TEXT[card] is card_name(card) and a space, _CARD_TEXT[NUM_CARDS + card] the name and a newline
_CARD_TEXT = np.frombuffer(
    b"".join(card_name(card).encode() + end for end in (b" ", b"\n") for card in range(NUM_CARDS)), dtype="V3"
)
# what to add to a card to index _CARD_TEXT at each place: NUM_CARDS for the top of a pile
_ENDING = np.tile(np.array([0] * (PILE_SIZE - 1) + [NUM_CARDS], dtype=np.int16), NUM_PILES)
_BOARDS_AT_ONCE = 16384  # boards written per numpy step: the temporaries stay in cache
_BOARDS_PER_ARRAY = (2**31 - 1) // _BOARD_BYTES  # a string array's offsets are 32-bit


def _board_texts(cards: npt.NDArray[np.int8]) -> pa.Array:
    """The board text of each row of ``cards`` (Deal.from_cards order), as Arrow strings."""
    count = len(cards)
    if count > _BOARDS_PER_ARRAY:  # past a string array's 32-bit offsets: in pieces
        size = _BOARDS_PER_ARRAY
        return pa.chunked_array([_board_texts(cards[at : at + size]) for at in range(0, count, size)])
    text = np.empty((count, _BOARD_BYTES), dtype=np.uint8)
    text[:, : _FOUNDATION_LINE.size] = _FOUNDATION_LINE
    # the piles' bytes of each row as 51 three-byte items (a view: each row's bytes are contiguous)
    items = text[:, _FOUNDATION_LINE.size :].view("V3")
    for start in range(0, count, _BOARDS_AT_ONCE):
        batch = slice(start, start + _BOARDS_AT_ONCE)
        items[batch] = _CARD_TEXT[cards[batch].astype(np.int16) + _ENDING]
    offsets = np.arange(count + 1, dtype=np.int32) * _BOARD_BYTES
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(text))


def imported_deals(path: Path) -> pa.Table:
    """Every board of the text file at ``path``; raises BoardError naming the file and line."""
    deals = read_boards(path)
    boards = [deal.to_board_text() for deal in deals]
    ids = [f"import-{hashlib.sha256(board.encode()).hexdigest()[:16]}" for board in boards]
    first_seen: dict[str, int] = {}
    for position, deal_id in enumerate(ids):
        if deal_id in first_seen:
            starts = _board_start_lines(path.read_text(encoding="utf-8"))
            raise BoardError(
                f"this board repeats the board on line {starts[first_seen[deal_id]]}",
                source=str(path),
                line=starts[position],
            )
        first_seen[deal_id] = position
    return _deals_table(ids, "import", [None] * len(deals), list(range(len(deals))), boards, IMPORT_SCHEME)


def _board_start_lines(text: str) -> list[int]:
    """Line number (from 1) of the first line of each blank-line-separated board."""
    starts, previous_blank = [], True
    for number, line in enumerate(text.splitlines(), start=1):
        blank = not line.strip()
        if previous_blank and not blank:
            starts.append(number)
        previous_blank = blank
    return starts


def _deals_table(
    ids: list[str],
    source: str,
    seeds: list[int | None],
    indices: list[int],
    boards: list[str] | pa.Array,
    scheme: str,
) -> pa.Table:
    columns = [ids, [source] * len(ids), seeds, indices, boards]
    table = pa.Table.from_arrays(
        [pa.array(c, f.type) for c, f in zip(columns, DEAL_FIELDS, strict=True)], schema=bare(DEALS_SCHEMA)
    )
    return with_metadata(table, dealing_scheme=scheme)


@dataclass(frozen=True)
class DealSpan:
    """A run of consecutive deals, named rather than dealt: what a run sends to a worker.

    ``source`` is ``seed`` (deals ``start .. start + count - 1`` of root ``seed``)
    or ``pysol`` (PySol FC deal numbers from ``start``; ``seed`` unused).
    """

    source: str
    seed: int
    start: int
    count: int

    def ids(self) -> list[str]:
        """The deal ids, in order."""
        numbers = range(self.start, self.start + self.count)
        if self.source == "pysol":
            return [f"pysol-{number}" for number in numbers]
        return [f"seed-{self.seed}-{index}" for index in numbers]

    def deals(self) -> list[Deal]:
        """The deals, dealt here (in the worker that holds the span)."""
        numbers = range(self.start, self.start + self.count)
        if self.source == "pysol":
            return [pysol_deal(number) for number in numbers]
        return [seeded_deal(self.seed, index) for index in numbers]


def deals_table(span: DealSpan, boards: list[str] | pa.Array) -> pa.Table:
    """The deals table of ``span`` with its deals' ``boards`` (board text, in order), as the sources write it."""
    indices = list(range(span.start, span.start + span.count))
    if span.source == "pysol":
        return _deals_table(span.ids(), "pysol", [None] * span.count, indices, boards, PYSOL_SCHEME)
    return _deals_table(span.ids(), "seed", [span.seed] * span.count, indices, boards, SEEDED_SCHEME)


def write_deals(
    path: Path,
    *,
    count: int = 0,
    seed: int | None = None,
    start: int = 0,
    first: int | None = None,
    boards: Path | None = None,
) -> int:
    """Write a deals pack to ``path``; how many deals it holds.

    The deals are those of ``boards`` (a board text file, :func:`imported_deals`)
    when given, else ``count`` seeded deals of ``seed`` from ``start``
    (:func:`seeded_deals`) when ``seed`` is given, else ``count`` PySol FC
    deals from ``first`` (:func:`pysol_deals`, default 1).
    """
    if boards is not None:
        table = imported_deals(boards)
    elif seed is not None:
        table = seeded_deals(seed=seed, count=count, start=start)
    else:
        table = pysol_deals(first=1 if first is None else first, count=count)
    write_pack(table, path)
    rows: int = table.num_rows
    return rows
