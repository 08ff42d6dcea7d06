"""Where a deals pack's rows come from: seeded shuffles, PySol FC deal numbers, board text files.

``deal_id`` is ``seed-<seed>-<index>`` for a seeded deal, ``pysol-<number>``
for a PySol FC deal, and ``import-<h>`` for an imported one, where ``<h>`` is
the first 16 hex digits of the SHA-256 of the deal's canonical board text
(:meth:`Deal.to_board_text`): the same deal gets the same id whichever file,
spelling (``10H``/``TH``, ``♥``) or position it came from, so a board may
appear only once in an imported file.

:func:`write_deals` (``blackhole generate`` and ``import``) deals, or reads
the board file as it parses it, and writes :data:`BATCH_ROWS` deals at a time:
memory does not grow with the number of deals (but for import's 9 bytes a
board to catch a repeat as soon as it is read).

Every source deals or reads the deals of one game (``game``, Black Hole by
default); a pack of another game says so in its schema metadata
(:func:`pipeline.packs.family.game_entries`), a Black Hole pack does not.

>>> table = seeded_deals(seed=7, count=2)
>>> table.column("deal_id").to_pylist()
['seed-7-0', 'seed-7-1']
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.files import STDIN_SOURCE, check_writable, copied_stdin, is_standard_stream
from pipeline.game.cards import NUM_CARDS, card_name
from pipeline.game.deal import LONGEST_LINE, BoardError, Deal, numbered_boards
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.pysol import pysol_cards_of
from pipeline.game.shuffles import PYSOL_SCHEME, DealSource, pysol_deal, seeded_deal, seeded_scheme
from pipeline.packs.family import game_entries
from pipeline.packs.parquet import BATCH_ROWS, with_metadata, writing_pack_file
from pipeline.packs.schema import DEAL_FIELDS, DEALS_SCHEMA, IMPORT_SCHEME, bare
from pipeline.packs.seen import SeenNumbers, text_number


def seeded_deals(*, seed: int, count: int, start: int = 0, game: Game = BLACK_HOLE) -> pa.Table:
    """Deals ``start .. start + count - 1`` of root ``seed`` of ``game`` (the pinned scheme of pipeline.game.shuffles)."""
    span = DealSpan(DealSource.SEED, seed, start, count, game)
    return deals_table(span, [deal.to_board_text() for deal in span.deals()])


def pysol_deals(*, first: int, count: int, game: Game = BLACK_HOLE) -> pa.Table:
    """PySol FC deals ``first .. first + count - 1`` of ``game``.

    All dealt in one call (:func:`pysol_cards_of`). The boards of a game whose cards all go in its piles
    (Black Hole, All in a Row) are written straight into one byte buffer: the same table as
    ``pysol_deal(number).to_board_text()`` number by number, far faster. Golf's, whose foundation and
    talon lines differ deal by deal, are written deal by deal (``Deal.from_cards``), some 45,000 a second.
    """
    count = max(count, 0)  # as range(first, first + count) would: no deals
    span = DealSpan(DealSource.PYSOL, 0, first, count, game)
    cards = pysol_cards_of(first, count, game)
    if game.dealt_cards == game.pile_cards:
        return deals_table(span, _board_texts(cards, game))
    return deals_table(span, [Deal.from_cards(row, game).to_board_text() for row in cards.tolist()])


# Board text as Deal.to_board_text writes it, for a whole array of deals at once: the
# foundation line, then card by card (Deal.from_cards order) three bytes, its two letters and
# a space, or a newline after the top card of a pile.
# _CARD_TEXT[card] is card_name(card) and a space, _CARD_TEXT[NUM_CARDS + card] the name and a newline
_CARD_TEXT = np.frombuffer(
    b"".join(card_name(card).encode() + end for end in (b" ", b"\n") for card in range(NUM_CARDS)), dtype="V3"
)
_BOARDS_AT_ONCE = 16384  # boards written per numpy step: the temporaries stay in cache
_OFFSETS_LIMIT = 2**31 - 1  # a string array's offsets are 32-bit


@dataclass(frozen=True)
class _BoardLayout:
    """The bytes every board of a game whose cards all go in its piles shares: its foundation line, and
    what to add to a card to index :data:`_CARD_TEXT` at each place (NUM_CARDS for the top of a pile)."""

    foundation_line: npt.NDArray[np.uint8]
    ending: npt.NDArray[np.int16]

    @property
    def board_bytes(self) -> int:
        return self.foundation_line.size + 3 * self.ending.size


@functools.cache
def _board_layout(game: Game) -> _BoardLayout:
    deal = Deal.from_cards(pysol_cards_of(1, 1, game)[0].tolist(), game)  # any deal: its first line
    foundation = deal.to_board_text().partition("\n")[0]
    top = [0] * (game.pile_size - 1) + [NUM_CARDS]
    return _BoardLayout(
        np.frombuffer(f"{foundation}\n".encode(), dtype=np.uint8),
        np.tile(np.array(top, dtype=np.int16), game.num_piles),
    )


def _board_texts(cards: npt.NDArray[np.int8], game: Game) -> pa.Array:
    """The board text of each row of ``cards`` (Deal.from_cards order) of ``game``, as Arrow strings."""
    layout = _board_layout(game)
    size = layout.board_bytes
    count = len(cards)
    per_array = _OFFSETS_LIMIT // size
    if count > per_array:  # past a string array's 32-bit offsets: in pieces
        return pa.chunked_array(
            [_board_texts(cards[at : at + per_array], game) for at in range(0, count, per_array)]
        )
    text = np.empty((count, size), dtype=np.uint8)
    header = layout.foundation_line.size
    text[:, :header] = layout.foundation_line
    # the piles' bytes of each row as three-byte items, one a card (a view: each row's bytes are contiguous)
    items = text[:, header:].view("V3")
    for start in range(0, count, _BOARDS_AT_ONCE):
        batch = slice(start, start + _BOARDS_AT_ONCE)
        items[batch] = _CARD_TEXT[cards[batch].astype(np.int16) + layout.ending]
    offsets = np.arange(count + 1, dtype=np.int32) * size
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(text))


def imported_deals(path: Path, game: Game = BLACK_HOLE) -> pa.Table:
    """Every board (of ``game``) of the text file at ``path`` as one table (:func:`imported_batches`)."""
    return pa.concat_tables(imported_batches(path, game=game))


def imported_batches(
    path: Path, *, batch_rows: int = BATCH_ROWS, game: Game = BLACK_HOLE
) -> Iterator[pa.Table]:
    """The boards of ``game`` in the text file at ``path`` in tables of at most ``batch_rows``, the file read as it is parsed.

    ``-`` reads standard input, named ``<stdin>`` in messages: it is copied to a
    hidden temporary file first (:func:`pipeline.files.copied_stdin`), which
    is read as a file is. Raises BoardError naming the file and line, as :func:`read_boards` does,
    as soon as the bad board is read: a board that repeats an earlier one is
    reported there (the file is then read again up to it, to name the line of
    the first), a block longer than a board at its line one too many, a line
    longer than any board line when it grows past that. Memory holds a batch
    and the ids seen so far (about 9 bytes a board, :class:`~pipeline.packs.seen.SeenNumbers`); time
    goes with what is read.
    """
    if is_standard_stream(path):
        with copied_stdin() as copy:
            yield from _imported_batches(copy, STDIN_SOURCE, batch_rows, game)
    else:
        yield from _imported_batches(Path(path), str(path), batch_rows, game)


def _imported_batches(path: Path, source: str, batch_rows: int, game: Game) -> Iterator[pa.Table]:
    """:func:`imported_batches` of the file at ``path``, named ``source`` in messages."""
    seen = SeenNumbers()
    ids: list[str] = []
    boards: list[str] = []
    rows = 0
    for line, deal in _numbered_deals(path, game, source):
        board = deal.to_board_text()
        number = _import_number(board)
        if not seen.add(number):
            raise BoardError(_repeat_problem(path, number, game, source), source=source, line=line)
        ids.append(f"import-{number:016x}")
        boards.append(board)
        if len(ids) == batch_rows:
            yield _imported_table(ids, boards, rows, game)
            rows += len(ids)
            ids, boards = [], []
    if ids:
        yield _imported_table(ids, boards, rows, game)
    elif not rows:
        raise BoardError("no board found (empty input)", source=source)


def _imported_table(ids: list[str], boards: list[str], start: int, game: Game) -> pa.Table:
    """The rows of imported ``boards`` of ``game`` with their ``ids``, the first at index ``start``."""
    indices = list(range(start, start + len(ids)))
    return _deals_table(ids, "import", [None] * len(ids), indices, boards, IMPORT_SCHEME, game)


def _import_number(board: str) -> int:
    """The first 64 bits of the SHA-256 of ``board``: ``import-<h>`` is this number in 16 hex digits."""
    return text_number(board)


def _repeat_problem(path: Path, number: int, game: Game, source: str) -> str:
    """What to say of a board of ``path`` whose import number ``number`` came before: the line of the first."""
    first = next(
        (
            at
            for at, deal in _numbered_deals(path, game, source)
            if _import_number(deal.to_board_text()) == number
        ),
        None,
    )
    if first is None:  # the file changed under the reader
        return "this board repeats an earlier board"
    return f"this board repeats the board on line {first}"


def _numbered_deals(path: Path, game: Game, source: str) -> Iterator[tuple[int, Deal]]:
    """Each board of ``game`` in the text file at ``path`` (``source`` in messages) with the number of its
    first line, the file read as it is parsed."""
    return numbered_boards(_file_lines(path, source), source=source, game=game)


_CHARACTERS_READ = 1 << 16  # characters read at a time
_LINE_ENDS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")  # where str.splitlines ends a line


def _file_lines(path: Path, source: str) -> Iterator[str]:
    """The lines of the text file at ``path`` without their ends, split as ``str.splitlines`` splits the whole text.

    The file is read :data:`_CHARACTERS_READ` at a time, so one huge line is
    not read whole: once a line holds more than :data:`LONGEST_LINE` characters
    between its first and last non-blank one it is given as it is so far and
    reading stops (:func:`numbered_boards` rejects it).
    """
    partial = ""  # the start of a line whose end is still to come
    after_cr = False  # the last text read ended with a carriage return: a line feed next ends no new line
    try:
        with open(path, encoding="utf-8-sig", newline="") as text:
            while chunk := text.read(_CHARACTERS_READ):
                if after_cr and chunk[0] == "\n":
                    chunk = chunk[1:]
                    if not chunk:
                        continue
                after_cr = chunk[-1] == "\r"
                lines = (partial + chunk).splitlines()
                partial = "" if chunk[-1] in _LINE_ENDS else lines.pop()
                yield from lines
                if len(partial) > LONGEST_LINE:
                    partial = partial.lstrip()  # the leading blanks are not counted
                    if len(partial.rstrip()) > LONGEST_LINE:
                        yield partial
                        return
                    partial = partial[: LONGEST_LINE + 1]  # if more text follows, the line is too long anyway
    except UnicodeDecodeError as error:
        raise BoardError(f"not UTF-8 text ({error.reason})", source=source) from None
    if partial:
        yield partial


def _deals_table(
    ids: list[str],
    source: str,
    seeds: list[int | None],
    indices: list[int],
    boards: list[str] | pa.Array,
    scheme: str,
    game: Game,
) -> pa.Table:
    columns = [ids, [source] * len(ids), seeds, indices, boards]
    table = pa.Table.from_arrays(
        [pa.array(c, f.type) for c, f in zip(columns, DEAL_FIELDS, strict=True)], schema=bare(DEALS_SCHEMA)
    )
    return with_metadata(table, dealing_scheme=scheme, **game_entries(game))


@dataclass(frozen=True)
class DealSpan:
    """A run of consecutive deals, named rather than dealt: what a run sends to a worker.

    ``source`` is ``seed`` (deals ``start .. start + count - 1`` of root ``seed``)
    or ``pysol`` (PySol FC deal numbers from ``start``; ``seed`` unused); the deals are of ``game``.
    """

    source: DealSource
    seed: int
    start: int
    count: int
    game: Game = BLACK_HOLE

    def ids(self) -> list[str]:
        """The deal ids, in order."""
        numbers = range(self.start, self.start + self.count)
        if self.source == DealSource.PYSOL:
            return [f"pysol-{number}" for number in numbers]
        return [f"seed-{self.seed}-{index}" for index in numbers]

    def deals(self) -> list[Deal]:
        """The deals, dealt here (in the worker that holds the span)."""
        numbers = range(self.start, self.start + self.count)
        if self.source == DealSource.PYSOL:
            return [pysol_deal(number, self.game) for number in numbers]
        return [seeded_deal(self.seed, index, self.game) for index in numbers]


def deals_table(span: DealSpan, boards: list[str] | pa.Array) -> pa.Table:
    """The deals table of ``span`` with its deals' ``boards`` (board text, in order), as the sources write it."""
    indices = list(range(span.start, span.start + span.count))
    source = DealSource(span.source)
    seeded = source is DealSource.SEED
    seeds = [span.seed if seeded else None] * span.count
    scheme = seeded_scheme(span.game) if seeded else PYSOL_SCHEME
    return _deals_table(span.ids(), source.value, seeds, indices, boards, scheme, span.game)


def write_deals(
    path: Path,
    *,
    count: int = 0,
    seed: int | None = None,
    start: int = 0,
    first: int | None = None,
    boards: Path | None = None,
    batch_rows: int = BATCH_ROWS,
    game: Game = BLACK_HOLE,
) -> int:
    """Write a deals pack to ``path``, ``batch_rows`` deals at a time; how many deals it holds.

    The deals are those of ``boards`` (a board text file, or ``-`` for standard input: :func:`imported_batches`)
    when given, else ``count`` seeded deals of ``seed`` from ``start``
    (:func:`seeded_deals`) when ``seed`` is given, else ``count`` PySol FC
    deals from ``first`` (:func:`pysol_deals`, default 1); every deal of ``game``. Memory holds one
    batch whatever the count. The file appears when the last batch is written
    (:func:`writing_pack_file`), or not at all: a bad board anywhere in ``boards``
    leaves none.
    """
    check_writable(path, inputs=[] if boards is None or is_standard_stream(boards) else [boards])
    if boards is not None:
        tables = imported_batches(boards, batch_rows=batch_rows, game=game)
    elif seed is not None:
        runs = _runs(start, count, batch_rows)
        tables = (seeded_deals(seed=seed, count=size, start=at, game=game) for at, size in runs)
    else:
        runs = _runs(1 if first is None else first, count, batch_rows)
        tables = (pysol_deals(first=at, count=size, game=game) for at, size in runs)
    written = 0
    with writing_pack_file(path) as write:
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
