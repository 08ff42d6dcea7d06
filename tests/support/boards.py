"""Bad boards in the tests: the error a board's lines raise, and a check that it names the source, line and problem."""

from __future__ import annotations

import pytest

from pipeline.game.deal import BoardError, iter_boards
from pipeline.game.games import BLACK_HOLE, Game

SOURCE = "packs/input.txt"
"""The file name the tests' boards are read under."""


def board_error(lines: list[str], game: Game = BLACK_HOLE, *, source: str = SOURCE) -> BoardError:
    """The BoardError that reading ``lines`` as boards of ``game`` raises (the test fails if none does)."""
    with pytest.raises(BoardError) as caught:
        list(iter_boards("\n".join(lines) + "\n", source=source, game=game))
    return caught.value


def assert_names(error: BoardError, line: int, *fragments: str) -> None:
    """``error`` names :data:`SOURCE` and ``line`` first, and its message holds every one of ``fragments``."""
    message = str(error)
    assert message.startswith(f"{SOURCE}:{line}: "), message
    assert (error.source, error.line) == (SOURCE, line)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def edited(lines: list[str], line_number: int, new_text: str | None) -> list[str]:
    """``lines`` with line ``line_number`` (1-based) replaced, or removed when ``new_text`` is None."""
    result = list(lines)
    if new_text is None:
        del result[line_number - 1]
    else:
        result[line_number - 1] = new_text
    return result
