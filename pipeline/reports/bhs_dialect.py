"""Solve results in black-hole-solver's own words, so a script written for it can read ours.

black-hole-solver (version 1.14) prints ``Solved!``, ``Unsolved!`` or
``Intractable!`` (its iteration limit hit); after ``Solved!``, each move on a
line of its own, then ``Info: Card moved is XY`` and a rule of ``=``; and last
two counters. The verdict line, the move lines, the card lines and the layout
of blank lines and rules are its own, byte for byte; the two counters carry
this solver's figure, its ``nodes``, in both (black-hole-solver counts states
checked and states generated, which this solver does not tell apart). Where
both solvers win a deal they may find different wins, each as valid.

Its single-board program exits 0, 255 or 254 for those verdicts
(:data:`EXIT_CODES`); its multi-board program writes each file's output
between ``[= Starting file NAME =]`` and ``[= END of file NAME =]`` lines
(:func:`bhs_file_block`).

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> from pipeline.game.verdicts import SolveResult, Verdict
>>> print(bhs_text(Deal.from_board_text(EXAMPLE_BOARD), SolveResult(Verdict.UNSOLVABLE, (), 8, 0.001, 3)), end="")
Unsolved!
<BLANKLINE>
<BLANKLINE>
--------------------
Total number of states checked is 8.
This scan generated 8 states.
"""

from __future__ import annotations

from pipeline.errors import ExitCode
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.reports.results import moves_played

VERDICT_LINES = {Verdict.SOLVED: "Solved!", Verdict.UNSOLVABLE: "Unsolved!", Verdict.UNKNOWN: "Intractable!"}
"""black-hole-solver's verdict line for each verdict (``Intractable!``: its iteration limit stopped it)."""
EXIT_CODES = {
    Verdict.SOLVED: ExitCode.OK,
    Verdict.UNSOLVABLE: ExitCode.BHS_UNSOLVED,
    Verdict.UNKNOWN: ExitCode.BHS_INTRACTABLE,
}
"""black-hole-solver's exit code for each verdict of one board: 0, 255 (its -1) and 254 (its -2)."""
MOVE_END = "\n\n\n====================\n\n"
"""What follows each move's ``Info`` line."""


def bhs_text(deal: Deal, result: SolveResult) -> str:
    """What black-hole-solver prints for ``deal`` solved as ``result`` (its counters carry our nodes).

    >>> from pipeline.game.shuffles import pysol_deal
    >>> from pipeline.game.games import game_named
    >>> deal = pysol_deal(1, game_named("golf"))
    >>> print(bhs_text(deal, SolveResult(Verdict.SOLVED, (7,), 1, 0.0, 35)).split("---")[0], end="")
    Solved!
    Deal talon
    <BLANKLINE>
    Info: Card moved is 8H
    <BLANKLINE>
    <BLANKLINE>
    ====================
    <BLANKLINE>
    <BLANKLINE>
    <BLANKLINE>
    """
    moves = "".join(
        f"{words}\n\nInfo: Card moved is {card_name(card)}{MOVE_END}"
        for words, card in moves_played(deal, result.solution)
    )
    return (
        f"{VERDICT_LINES[result.verdict]}\n{moves}\n\n--------------------\n"
        f"Total number of states checked is {result.nodes}.\n"
        f"This scan generated {result.nodes} states.\n"
    )


def bhs_file_block(name: str, text: str) -> str:
    """``text`` between the lines that black-hole-solver's multi-board program writes around each file's output.

    >>> bhs_file_block("golf1.board", "Solved!\\n")
    '[= Starting file golf1.board =]\\nSolved!\\n[= END of file golf1.board =]\\n'
    """
    return f"[= Starting file {name} =]\n{text}[= END of file {name} =]\n"
