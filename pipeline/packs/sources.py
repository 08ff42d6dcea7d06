"""Where a deals pack's rows come from: seeded shuffles, PySol FC deal numbers, board text files.

``deal_id`` is ``seed-<seed>-<index>`` for a seeded deal, ``pysol-<number>``
for a PySol FC deal, and ``import-<h>`` for an imported one, where ``<h>`` is
the first 16 hex digits of the SHA-256 of the deal's canonical board text
(:meth:`Deal.to_board_text`): the same deal gets the same id whichever file,
spelling (``10H``/``TH``, ``♥``) or position it came from, so a board may
appear only once in an imported file.

:func:`write_deals` (``blackhole generate`` and ``import``) deals, or reads
the board file line by line, and writes :data:`BATCH_ROWS` deals at a time:
memory does not grow with the number of deals.

>>> table = seeded_deals(seed=7, count=2)
>>> table.column("deal_id").to_pylist()
['seed-7-0', 'seed-7-1']
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.files import check_writable
from pipeline.game.cards import NUM_CARDS, card_name
from pipeline.game.deal import NUM_PILES, PILE_SIZE, BoardError, Deal, iter_boards
from pipeline.game.pysol import pysol_cards_of
from pipeline.game.shuffles import PYSOL_SCHEME, SEEDED_SCHEME, pysol_deal, seeded_deal
from pipeline.packs.parquet import BATCH_ROWS, with_metadata, writing_pack
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
    """Every board of the text file at ``path`` as one table (:func:`imported_batches`)."""
    return pa.concat_tables(imported_batches(path))


def imported_batches(path: Path, *, batch_rows: int = BATCH_ROWS) -> Iterator[pa.Table]:
    """The boards of the text file at ``path`` in tables of at most ``batch_rows``, the file read line by line.

    Raises BoardError naming the file and line, as :func:`read_boards` does.
    A board that repeats an earlier one is reported once the whole file is
    read, so that a bad board further down is reported first, as when the file
    was read whole. Memory holds a batch and the ids seen so far (8 bytes a board).
    """
    seen = _SeenIds()
    repeat: tuple[int, str] | None = None  # the first board that repeats an earlier one: its line and id
    rows = 0
    numbered = _numbered_deals(path)
    while batch := list(islice(numbered, batch_rows)):
        if repeat is not None:
            continue  # nothing more to write: read on only for a bad board further down
        boards = [deal.to_board_text() for _, deal in batch]
        ids = [_import_id(board) for board in boards]
        repeated = seen.add(ids)
        if repeated is not None:
            repeat = batch[repeated][0], ids[repeated]
            continue
        indices = list(range(rows, rows + len(ids)))
        yield _deals_table(ids, "import", [None] * len(ids), indices, boards, IMPORT_SCHEME)
        rows += len(ids)
    if repeat is not None:
        line, deal_id = repeat
        first = next(
            start for start, deal in _numbered_deals(path) if _import_id(deal.to_board_text()) == deal_id
        )
        raise BoardError(f"this board repeats the board on line {first}", source=str(path), line=line)
    if not rows:
        raise BoardError("no board found (empty input)", source=str(path))


def _import_id(board: str) -> str:
    return f"import-{hashlib.sha256(board.encode()).hexdigest()[:16]}"


class _SeenIds:
    """Import ids seen so far, kept as their 64-bit hashes in one sorted numpy array: 8 bytes an id."""

    def __init__(self) -> None:
        self.hashes = np.empty(0, np.uint64)

    def add(self, ids: list[str]) -> int | None:
        """Add ``ids``; or, when one repeats an id seen before or earlier in ``ids``, add none and
        return the position in ``ids`` of the first that does."""
        hashes = np.array([int(deal_id.removeprefix("import-"), 16) for deal_id in ids], np.uint64)
        at = np.searchsorted(self.hashes, hashes)
        inside = at < len(self.hashes)
        repeats = np.ones(len(hashes), bool)
        repeats[np.unique(hashes, return_index=True)[1]] = False  # an id's first place in ``ids``...
        repeats[inside] |= self.hashes[at[inside]] == hashes[inside]  # ...unless it was seen before
        if repeats.any():
            return int(np.argmax(repeats))
        ordered = np.sort(hashes)
        self.hashes = np.insert(self.hashes, np.searchsorted(self.hashes, ordered), ordered)
        return None


def _numbered_deals(path: Path) -> Iterator[tuple[int, Deal]]:
    """Each board of the text file at ``path`` with the number of its first line, the file read line by line."""
    source = str(path)
    for first, lines in _board_blocks(path):
        block = "\n".join(lines)
        try:
            deal = Deal.from_board_text(block, source=source)
        except BoardError:
            # Alone, the board counts lines from its own start: parse it again after first - 1
            # empty lines, so that the error names the lines of the file (on this error path only).
            next(iter_boards("\n" * (first - 1) + block, source=source))
            raise
        yield first, deal


def _board_blocks(path: Path) -> Iterator[tuple[int, list[str]]]:
    """The number of the first line, and the lines stripped, of each blank-line-separated block of ``path``.

    Lines are split and numbered as ``str.splitlines`` does the whole text
    (:func:`read_boards`), one line of the file at a time.
    """
    block: list[str] = []
    first = number = 0
    try:
        with open(path, encoding="utf-8-sig", newline="") as text:
            for chunk in text:
                for raw in chunk.splitlines():
                    number += 1
                    line = raw.strip()
                    if line:
                        first = first if block else number
                        block.append(line)
                    elif block:
                        yield first, block
                        block = []
    except UnicodeDecodeError as error:
        raise BoardError(f"not UTF-8 text ({error.reason})", source=str(path)) from None
    if block:
        yield first, block


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
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Write a deals pack to ``path``, ``batch_rows`` deals at a time; how many deals it holds.

    The deals are those of ``boards`` (a board text file, :func:`imported_batches`)
    when given, else ``count`` seeded deals of ``seed`` from ``start``
    (:func:`seeded_deals`) when ``seed`` is given, else ``count`` PySol FC
    deals from ``first`` (:func:`pysol_deals`, default 1). Memory holds one
    batch whatever the count. The file appears when the last batch is written
    (:func:`writing_pack`), or not at all: a bad board anywhere in ``boards``
    leaves none.
    """
    check_writable(path, inputs=[] if boards is None else [boards])
    if boards is not None:
        tables = imported_batches(boards, batch_rows=batch_rows)
    elif seed is not None:
        runs = _runs(start, count, batch_rows)
        tables = (seeded_deals(seed=seed, count=size, start=at) for at, size in runs)
    else:
        runs = _runs(1 if first is None else first, count, batch_rows)
        tables = (pysol_deals(first=at, count=size) for at, size in runs)
    written = 0
    with writing_pack(path) as write:
        for table in tables:
            write(table)
            written += table.num_rows
    return written


def _runs(start: int, count: int, size: int) -> Iterator[tuple[int, int]]:
    """The first number and length of each run of at most ``size`` numbers that together make
    ``start .. start + count - 1``; one empty run when ``count`` is 0, so that an empty pack is still written.

    >>> list(_runs(1, 5, 2)), list(_runs(7, 0, 2))
    ([(1, 2), (3, 2), (5, 1)], [(7, 0)])
    """
    if count <= 0:
        yield start, 0
    for at in range(start, start + count, size):
        yield at, min(size, start + count - at)
