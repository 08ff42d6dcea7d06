"""Solve and cross-check results as text for people and as JSON for programs.

Moves use black-hole-solver's wording ("Move a card from stack k to the
foundations", and in Golf "Deal talon"), so its users can compare solutions
line by line.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> from pipeline.game.verdicts import SolveResult, Verdict
>>> result = SolveResult(Verdict.UNSOLVABLE, (), 67, 0.001, 8)
>>> print(result_text(Deal.from_board_text(EXAMPLE_BOARD), result))
unsolvable: at most 8 of 51 cards can be played
nodes: 67
seconds: 0.001
>>> result_json(result)
'{"verdict": "unsolvable", "solution": [], "nodes": 67, "seconds": 0.001, "max_cards_played": 8}'
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pipeline.free_text import printable
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.game.verdicts import SolveResult, Verdict

if TYPE_CHECKING:
    from pipeline.stages.crosscheck import Disagreement


def move_lines(deal: Deal, solution: tuple[int, ...] | list[int]) -> list[str]:
    """One line per move of ``solution``: the pile (or the talon), in black-hole-solver's words, and the card.

    >>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
    >>> move_lines(Deal.from_board_text(EXAMPLE_BOARD), [2])
    ['Move a card from stack 2 to the foundations (2C)']
    >>> from pipeline.game.games import game_named
    >>> from pipeline.game.shuffles import pysol_deal
    >>> move_lines(pysol_deal(1, game_named("golf")), [7])
    ['Deal talon (8H)']
    """
    return [f"{words} ({card_name(card)})" for words, card in moves_played(deal, solution)]


def moves_played(deal: Deal, solution: tuple[int, ...] | list[int]) -> list[tuple[str, int]]:
    """Each move of ``solution`` in black-hole-solver's words, with the card it puts on the foundation."""
    played = []
    position = Position.start(deal)
    for move in solution:
        if deal.game.is_talon_move(move):
            dealt = deal.talon[position.talon_dealt]
            position = position.play(move)
            played.append(("Deal talon", dealt))
            continue
        card = position.top_card(move)
        position = position.play(move)
        assert card is not None  # play() raised IllegalMove for an empty pile
        played.append((f"Move a card from stack {move} to the foundations", card))
    return played


def result_text(deal: Deal, result: SolveResult) -> str:
    """The verdict line, the moves of a win, then the search effort."""
    cards = deal.game.pile_cards
    if result.verdict is Verdict.SOLVED:
        lines = [f"solved: all {cards} cards in {len(result.solution)} moves"]
        lines += move_lines(deal, result.solution)
    elif result.verdict is Verdict.UNSOLVABLE and result.max_cards_played is not None:
        lines = [f"unsolvable: at most {result.max_cards_played} of {cards} cards can be played"]
    elif result.verdict is Verdict.UNSOLVABLE:
        lines = ["unsolvable: the node limit stopped the count of the most cards that can be played"]
    else:
        lines = ["unknown: the node limit stopped the search"]
    lines += [f"nodes: {result.nodes}", f"seconds: {result.seconds:.3f}"]
    return "\n".join(lines)


def result_json(result: SolveResult) -> str:
    """One JSON object with keys verdict, solution, nodes, seconds, max_cards_played."""
    return json.dumps(
        {
            "verdict": result.verdict.value,
            "solution": list(result.solution),
            "nodes": result.nodes,
            "seconds": result.seconds,
            "max_cards_played": result.max_cards_played,
        }
    )


def disagreement_text(disagreement: Disagreement) -> str:
    """A disagreeing deal: its id (shown escaped: :func:`~pipeline.free_text.printable`) and row, both
    verdicts and which check decided, then its board.

    >>> from pipeline.stages.crosscheck import Check, Disagreement
    >>> check = Check(Verdict.SOLVED, 0.5, "cpsat", Verdict.SOLVED)
    >>> print(disagreement_text(Disagreement(3, "seed-1-3", "unsolvable", check, "Foundations: AS")))
    DISAGREEMENT seed-1-3 (row 3): the pack says unsolvable, cpsat says solved
    Foundations: AS
    """
    check = disagreement.check
    assert check.verdict is not None  # a check that disagrees has decided
    return (
        f"DISAGREEMENT {printable(disagreement.deal_id)} (row {disagreement.row}): the pack says {disagreement.verdict}, "
        f"{check.checked_by} says {check.verdict.value}\n{disagreement.board.rstrip()}"
    )
