"""The answers of a stream of boards (:mod:`pipeline.stages.board_stream`) in each format, and the exit code.

A board's answer is what goes to standard output and what goes to standard
error (the ``error:`` line of a board that could not be read), in its
:class:`~pipeline.reports.board_formats.BoardFormat`:

- ``text``: :func:`~pipeline.reports.results.result_text`; with several boards each
  after a line ``board N (FILE:LINE)`` and before a blank line; a bad board's
  ``error:`` line on standard error.
- ``json``: one board's result as one JSON object
  (:func:`~pipeline.reports.results.result_json`); with several boards, as ``jsonl``.
- ``jsonl``: one JSON object a board, its ``position`` and ``source``
  (``FILE:LINE``) first, then an ``id`` echoed from JSON Lines input, then the
  result's keys; a bad board's line holds ``position``, ``source`` (where the
  problem is), the ``id`` if any and ``error`` instead, on standard output like the others.
- ``bhs``: :func:`~pipeline.reports.bhs_dialect.bhs_text`; with several boards
  each between black-hole-solver's ``[= Starting file NAME =]`` and
  ``[= END of file NAME =]`` lines (NAME the file, or FILE:LINE when the file
  holds more than one board); a bad board's ``error:`` line on standard error.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pipeline.errors import ExitCode
from pipeline.game.verdicts import Verdict
from pipeline.reports.bhs_dialect import EXIT_CODES, bhs_file_block, bhs_text
from pipeline.reports.board_formats import BoardFormat
from pipeline.reports.results import result_json, result_text

if TYPE_CHECKING:
    from pipeline.stages.board_stream import Answer


def answer_output(answer: Answer, form: BoardFormat, *, several: bool) -> tuple[str, str]:
    """What to write for ``answer``: (standard output's text, standard error's), each empty or ending in a newline.

    ``several`` says whether the stream holds more than one board.
    """
    error, deal, result = answer.error, answer.deal, answer.result
    if form is BoardFormat.JSONL or (form is BoardFormat.JSON and several):
        return json.dumps(answer_fields(answer)) + "\n", ""
    if error is not None:
        return "", f"error: {' '.join(str(error).split())}\n"
    assert deal is not None and result is not None  # a board read is a board solved
    if form is BoardFormat.JSON:
        return result_json(result) + "\n", ""
    if form is BoardFormat.BHS:
        text = bhs_text(deal, result)
        item = answer.item
        return (bhs_file_block(item.source if item.alone else item.where, text) if several else text), ""
    text = result_text(deal, result) + "\n"
    if several:
        text = f"board {answer.item.position} ({answer.item.where})\n{text}\n"
    return text, ""


def answer_fields(answer: Answer) -> dict[str, Any]:
    """The JSON Lines object of ``answer`` (see the module's docstring)."""
    item, error, result = answer.item, answer.error, answer.result
    where = item.where if error is None else f"{error.source}:{error.line}" if error.line else error.source
    fields: dict[str, Any] = {"position": item.position, "source": where}
    if item.key is not None:
        fields["id"] = item.key
    if error is not None:
        return fields | {"error": error.problem}
    assert result is not None
    solved: dict[str, Any] = json.loads(result_json(result))
    return fields | solved


def stream_exit_code(form: BoardFormat, *, several: bool, failed: bool, verdict: Verdict | None) -> ExitCode:
    """The exit code of a stream: BAD_INPUT when a board could not be read; else OK, but for one board in
    ``bhs``, black-hole-solver's code for its ``verdict`` (0, 255 or 254).

    >>> stream_exit_code(BoardFormat.BHS, several=False, failed=False, verdict=Verdict.UNSOLVABLE).value
    255
    >>> stream_exit_code(BoardFormat.TEXT, several=False, failed=False, verdict=Verdict.UNSOLVABLE).value
    0
    """
    if failed:
        return ExitCode.BAD_INPUT
    if form is BoardFormat.BHS and not several and verdict is not None:
        return EXIT_CODES[verdict]
    return ExitCode.OK
