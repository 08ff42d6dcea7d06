"""A table too wide for the terminal, split into tables that each repeat its first column, which is never cut.

Rich fits a wide table to the terminal by wrapping its cells and, past
that, by cutting every column, the first too: at 80 columns a deal id
``seed-20261129-123456`` became ``seed-…``. A :class:`SplitTable` shows its
first column (the key: a deal id, a tier) whole, keeps beside it as many of
the next columns as fit, in order, each at least as wide as its longest word,
and puts the rest in further tables with the key again ("…, continued"):
nothing is cut, and nothing is left out. Cells are plain text: control
characters escaped, no rich markup read (:func:`pipeline.free_text.printable`).

>>> from rich.console import Console
>>> table = SplitTable("Deals", [Column("deal"), Column("won", "right"), Column("note")],
...                    [["seed-20261129-123456", "1 of 2", "a long note that wraps"]])
>>> console = Console(width=40, color_system=None)
>>> with console.capture() as captured:
...     console.print(table)
>>> "seed-20261129-123456" in captured.get() and "continued" in captured.get()
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from rich.cells import cell_len

from pipeline.free_text import printable

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions
    from rich.table import Table

PADDING = 2  # a cell's padding, one space each side (rich's default)
COMFORTABLE = 13  # a cell this wide or narrower stays on one line: "2 of 3, 67 %" above "[21 %, 94 %]"


@dataclass(frozen=True)
class Column:
    """A column's header and how its cells are justified."""

    header: str
    justify: Literal["left", "right"] = "left"


@dataclass(frozen=True)
class SplitTable:
    """A table of ``rows`` (plain text, one cell a column) under ``columns``, the first the key; split to fit
    the terminal when printed (see the module). ``caption`` goes under the last part."""

    title: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[str]]
    caption: str | None = None
    cells: tuple[tuple[str, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(tuple(printable(cell) for cell in row) for row in self.rows))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        groups = self.groups(options.max_width)
        for number, group in enumerate(groups):
            yield self._table(group, options.max_width, number, len(groups))

    def groups(self, width: int) -> list[list[int]]:
        """The columns of each part at ``width``: the key (0), then as many of the next as fit at their narrowest."""
        groups: list[list[int]] = []
        group = [0]
        for index in range(1, len(self.columns)):
            if len(group) > 1 and _total([self.narrowest(i) for i in [*group, index]]) > width:
                groups.append(group)
                group = [0]
            group.append(index)
        return [*groups, group]

    def narrowest(self, index: int) -> int:
        """Column ``index``'s least width: its longest word, and its longest cell up to :data:`COMFORTABLE`
        (so that a share with its interval takes two lines, not eight); the key: its longest cell, never
        wrapped."""
        cells = [row[index] for row in self.cells]
        texts = [self.columns[index].header, *cells]
        if index == 0:
            return max(map(cell_len, texts))
        word = max((cell_len(word) for text in texts for word in text.split()), default=1)
        return max(word, min(max(map(cell_len, cells), default=0), COMFORTABLE))

    def widest(self, index: int) -> int:
        """Column ``index``'s natural width: its longest header or cell, unwrapped."""
        return max(
            cell_len(text) for text in [self.columns[index].header, *(row[index] for row in self.cells)]
        )

    def widths(self, group: Sequence[int], width: int) -> list[int]:
        """The widths of ``group``'s columns at ``width``: each its narrowest, then the room left given to the
        columns that need the least of it to reach their natural width, so that most cells stay on one line."""
        widths = [self.narrowest(index) for index in group]
        room = width - _total(widths)
        for place in sorted(
            range(1, len(group)), key=lambda place: self.widest(group[place]) - widths[place]
        ):
            grown = min(room, max(self.widest(group[place]) - widths[place], 0))
            widths[place] += grown
            room -= grown
        return widths

    def _table(self, group: Sequence[int], width: int, number: int, parts: int) -> Table:
        from rich.table import Table
        from rich.text import Text

        title = self.title if number == 0 else f"{self.title}, continued ({number + 1} of {parts})"
        table = Table(title=title, caption=self.caption if number == parts - 1 else None)
        for index, column_width in zip(group, self.widths(group, width), strict=True):
            column = self.columns[index]
            table.add_column(
                column.header,
                justify=column.justify,
                width=column_width,
                no_wrap=index == 0,
                overflow="fold",
            )
        for row in self.cells:
            table.add_row(*(Text(row[index]) for index in group))
        return table


def _total(widths: Sequence[int]) -> int:
    """A table's width with columns of ``widths``: each with its padding, and a border before, between and after."""
    return sum(widths) + PADDING * len(widths) + len(widths) + 1
