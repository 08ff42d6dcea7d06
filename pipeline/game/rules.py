"""The rules of play, written plainly: positions, legal moves, replaying a solution.

This module is the referee, for every game of :mod:`pipeline.game.games`. It
shares nothing with the solver's internals, so a solution the solver reports
is checked by independent code. A move is a pile's number, or, in a game with
a talon, the number one past the last pile (Golf's 7), which deals the next
talon card onto the foundation.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> start = Position.start(Deal.from_board_text(EXAMPLE_BOARD))
>>> start.legal_moves()
(2, 15)
>>> start.play(2).cards_played
1
>>> from pipeline.game.games import game_named
>>> from pipeline.game.shuffles import seeded_deal
>>> golf = Position.start(seeded_deal(1, 0, game_named("golf")))
>>> golf.legal_moves()[-1], golf.play(7).talon_dealt
(7, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from typing import Any

from pipeline.errors import ArgumentError, BlackholeError, of_type, shown_value, whole_number
from pipeline.game.cards import NUM_RANKS, RANKS, card_name, rank_of
from pipeline.game.deal import NUM_PILES, PILE_SIZE, Deal
from pipeline.game.games import GAMES, FoundationStart, fits

WINNING_LENGTH = NUM_PILES * PILE_SIZE


_FITTING = {
    game.name: {
        foundation: tuple(fits(game, rank, foundation) for rank in range(NUM_RANKS))
        for foundation in (None, *range(NUM_RANKS))
    }
    for game in GAMES
}
"""For each game, on each foundation rank (None: empty), whether each rank fits (:func:`fits`): looked up
by :meth:`Position.legal_moves`, which a search asks at every position."""


class IllegalMove(BlackholeError, ValueError):
    """A move that the rules do not allow in the position it was played in."""


@dataclass(frozen=True)
class Position:
    """A deal part-way through play: how many cards each pile still holds, the
    rank on top of the foundation (None while it is empty, as All in a Row
    starts), and how many talon cards have been dealt."""

    deal: Deal
    heights: tuple[int, ...]
    foundation_rank: int | None
    talon_dealt: int = 0

    def __post_init__(self) -> None:
        rank = self.foundation_rank
        if (  # the types every play gives, checked at a glance (a replay makes a position a move)
            type(self.deal) is not Deal
            or type(self.heights) is not tuple
            or type(self.talon_dealt) is not int
            or (rank is not None and type(rank) is not int)
        ):
            self._check_types()
        game = self.deal.game
        piles, size = game.num_piles, game.pile_size
        if len(self.heights) != piles or min(self.heights) < 0 or max(self.heights) > size:
            raise ArgumentError(f"heights must be {piles} numbers from 0 to {size}")
        if self.foundation_rank is None:
            if (
                game.foundation_start is not FoundationStart.EMPTY
                or self.deal.foundation is not None
                or self.talon_dealt
                or self.cards_played
            ):
                raise ArgumentError("only All in a Row's opening position has an empty foundation")
        elif not 0 <= self.foundation_rank < NUM_RANKS:
            raise ArgumentError(f"foundation rank must be 0..{NUM_RANKS - 1}")
        if not 0 <= self.talon_dealt <= game.talon_size:
            raise ArgumentError(f"talon cards dealt must be 0..{game.talon_size}")

    def _check_types(self) -> None:
        """Refuse fields of the wrong types (TypeError naming the field); whole numbers made ints."""
        of_type(self.deal, Deal, "deal")
        heights = moves_of(self.heights, "heights")
        if heights is not self.heights:
            object.__setattr__(self, "heights", heights)
        if self.foundation_rank is not None:
            rank = whole_number(self.foundation_rank, "foundation_rank", where="Position")
            object.__setattr__(self, "foundation_rank", rank)
        object.__setattr__(
            self, "talon_dealt", whole_number(self.talon_dealt, "talon_dealt", where="Position")
        )

    @classmethod
    def start(cls, deal: Deal) -> Position:
        """The opening position: every pile full, the foundation as the game starts it."""
        of_type(deal, Deal, "deal")
        game = deal.game
        foundation = None if deal.foundation is None else rank_of(deal.foundation)
        return cls(deal, (game.pile_size,) * game.num_piles, foundation)

    @classmethod
    def after(cls, deal: Deal, moves: list[int] | tuple[int, ...]) -> Position:
        """The position reached by playing ``moves`` from the start of ``deal``."""
        position = cls.start(deal)
        for move in moves_of(moves, "moves"):
            position = position.play(move)
        return position

    @property
    def cards_played(self) -> int:
        """Cards played from the piles (talon deals are not counted)."""
        return self.deal.game.pile_cards - sum(self.heights)

    @property
    def talon_left(self) -> int:
        """Talon cards not yet dealt."""
        return self.deal.game.talon_size - self.talon_dealt

    @property
    def is_won(self) -> bool:
        return not any(self.heights)

    def top_card(self, pile: int) -> int | None:
        """The free card of ``pile``, or None when the pile is empty (IllegalMove: no such pile)."""
        if type(pile) is not int or not 0 <= pile < len(self.heights):
            pile = whole_number(pile, "pile", where="top_card")
            if not 0 <= pile < len(self.heights):
                raise IllegalMove(f"there is no pile {shown_value(pile)}")
        return self._free_card(pile)

    def _free_card(self, pile: int) -> int | None:
        height = self.heights[pile]
        return self.deal.piles[pile][height - 1] if height else None

    def legal_moves(self) -> tuple[int, ...]:
        """Piles whose free card may go on the foundation, in pile order, then the talon deal while cards are left."""
        game = self.deal.game
        fitting = _FITTING[game.name][self.foundation_rank]
        piles = tuple(
            pile
            for pile in range(game.num_piles)
            if (card := self._free_card(pile)) is not None and fitting[rank_of(card)]
        )
        return (*piles, game.talon_move) if self.talon_left else piles

    def play(self, pile: int) -> Position:
        """The position after moving the free card of ``pile`` to the foundation (or dealing the talon's next card).

        A move the rules do not allow here is IllegalMove; a ``pile`` that is no whole number a TypeError.
        """
        if type(pile) is not int:
            pile = whole_number(pile, "pile", where="play")
        game = self.deal.game
        if game.is_talon_move(pile):
            if not self.talon_left:
                raise IllegalMove("the talon is empty")
            dealt = self.deal.talon[self.talon_dealt]
            return Position(self.deal, self.heights, rank_of(dealt), self.talon_dealt + 1)
        if not 0 <= pile < game.num_piles:
            raise IllegalMove(f"there is no pile {shown_value(pile)}")
        card = self._free_card(pile)
        if card is None:
            raise IllegalMove(f"pile {pile} is empty")
        if not fits(game, rank_of(card), self.foundation_rank):
            assert self.foundation_rank is not None  # an empty foundation takes any card
            raise IllegalMove(
                f"{card_name(card)} from pile {pile} does not fit on rank {RANKS[self.foundation_rank]}"
            )
        heights = list(self.heights)
        heights[pile] -= 1
        return Position(self.deal, tuple(heights), rank_of(card), self.talon_dealt)


def replay(deal: Deal, solution: list[int] | tuple[int, ...], start: Position | None = None) -> Position:
    """Play ``solution`` from ``start`` (default: the deal's opening); raise
    IllegalMove naming the step when a move breaks the rules or the moves
    run out before every pile is empty.

    ``solution`` is a tuple or list of whole numbers (a move that is not one is a TypeError naming it);
    ``start`` must be a position of ``deal`` (ArgumentError).
    """
    of_type(deal, Deal, "deal")
    moves = moves_of(solution, "solution")
    if start is not None:
        of_type(start, Position, "start", "a Position or None")
        if start.deal != deal or start.deal.game is not deal.game:
            raise ArgumentError("replay: start is a position of another deal")
    position = start or Position.start(deal)
    for step, pile in enumerate(moves):
        try:
            position = position.play(pile)
        except IllegalMove as error:
            raise IllegalMove(f"move {step + 1}: {error}") from None
    if not position.is_won:
        raise IllegalMove(f"after {len(moves)} moves {sum(position.heights)} cards are left")
    return position


def moves_of(moves: Any, name: str) -> tuple[int, ...]:
    """``moves`` (a tuple, list, NumPy array or other ordered iterable of whole numbers) as a tuple of
    ints; else a TypeError naming ``name`` (or the move that is no whole number).

    >>> moves_of([1, 2], "solution"), moves_of("12", "solution")
    Traceback (most recent call last):
    ...
    TypeError: solution must be a sequence of moves (ints), got str
    """
    if isinstance(moves, str | bytes | Mapping | Set) or not isinstance(moves, Iterable):
        raise TypeError(f"{name} must be a sequence of moves (ints), got {type(moves).__name__}")
    if isinstance(moves, tuple) and all(type(move) is int for move in moves):
        return moves
    return tuple(whole_number(move, f"{name}[{step}]", where=name) for step, move in enumerate(moves))
