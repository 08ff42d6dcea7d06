"""The rules of play, written plainly: positions, legal moves, replaying a solution.

This module is the referee. It shares nothing with the solver's internals, so
a solution the solver reports is checked by independent code.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> start = Position.start(Deal.from_board_text(EXAMPLE_BOARD))
>>> start.legal_moves()
(2, 15)
>>> start.play(2).cards_played
1
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import BlackholeError
from pipeline.game.cards import NUM_RANKS, card_name, rank_of, ranks_adjacent
from pipeline.game.deal import NUM_PILES, PILE_SIZE, Deal

WINNING_LENGTH = NUM_PILES * PILE_SIZE


class IllegalMove(BlackholeError, ValueError):
    """A move that the rules do not allow in the position it was played in."""


@dataclass(frozen=True)
class Position:
    """A deal part-way through play: how many cards each pile still holds and
    the rank on top of the foundation."""

    deal: Deal
    heights: tuple[int, ...]
    foundation_rank: int

    def __post_init__(self) -> None:
        if len(self.heights) != NUM_PILES or min(self.heights) < 0 or max(self.heights) > PILE_SIZE:
            raise ValueError(f"heights must be {NUM_PILES} numbers from 0 to {PILE_SIZE}")
        if not 0 <= self.foundation_rank < NUM_RANKS:
            raise ValueError(f"foundation rank must be 0..{NUM_RANKS - 1}")

    @classmethod
    def start(cls, deal: Deal) -> Position:
        """The opening position: every pile full, the A♠ on the foundation."""
        return cls(deal, (PILE_SIZE,) * NUM_PILES, 0)

    @classmethod
    def after(cls, deal: Deal, moves: list[int] | tuple[int, ...]) -> Position:
        """The position reached by playing ``moves`` from the start of ``deal``."""
        position = cls.start(deal)
        for move in moves:
            position = position.play(move)
        return position

    @property
    def cards_played(self) -> int:
        return WINNING_LENGTH - sum(self.heights)

    @property
    def is_won(self) -> bool:
        return not any(self.heights)

    def top_card(self, pile: int) -> int | None:
        """The free card of ``pile``, or None when the pile is empty."""
        height = self.heights[pile]
        return self.deal.piles[pile][height - 1] if height else None

    def legal_moves(self) -> tuple[int, ...]:
        """Piles whose free card may go on the foundation, in pile order."""
        return tuple(
            pile
            for pile in range(NUM_PILES)
            if (card := self.top_card(pile)) is not None
            and ranks_adjacent(rank_of(card), self.foundation_rank)
        )

    def play(self, pile: int) -> Position:
        """The position after moving the free card of ``pile`` to the foundation."""
        if not 0 <= pile < NUM_PILES:
            raise IllegalMove(f"there is no pile {pile}")
        card = self.top_card(pile)
        if card is None:
            raise IllegalMove(f"pile {pile} is empty")
        if not ranks_adjacent(rank_of(card), self.foundation_rank):
            raise IllegalMove(
                f"{card_name(card)} from pile {pile} does not fit on rank {'A23456789TJQK'[self.foundation_rank]}"
            )
        heights = list(self.heights)
        heights[pile] -= 1
        return Position(self.deal, tuple(heights), rank_of(card))


def replay(deal: Deal, solution: list[int] | tuple[int, ...], start: Position | None = None) -> Position:
    """Play ``solution`` from ``start`` (default: the deal's opening); raise
    IllegalMove naming the step when a move breaks the rules or the moves
    run out before every pile is empty."""
    position = start or Position.start(deal)
    for step, pile in enumerate(solution):
        try:
            position = position.play(int(pile))
        except IllegalMove as error:
            raise IllegalMove(f"move {step + 1}: {error}") from None
    if not position.is_won:
        raise IllegalMove(f"after {len(solution)} moves {sum(position.heights)} cards are left")
    return position
