"""Player models: how a person might choose a move, as a probability over the legal moves.

A player model is a *policy*: in a position it gives each legal move a
probability, and the probabilities depend on the position alone (not on how
it was reached, nor on what was tried before). The ladder, weakest first:

- ``random`` picks uniformly among the legal moves;
- ``tips`` follows the rules of thumb of the rule books and of players,
  softly (:func:`tip_weights`): it rarely plays a card that leaves nothing
  to play on the foundation, prefers the taller of two fans offering the
  same rank, seldom empties a one-card fan while a taller one offers its
  rank, and likes to uncover a card that nothing else on the table can
  reach;
- ``lookahead-k`` looks ``k`` moves past the move it weighs: it takes a
  move after which some line of at most ``k`` moves plays every card, avoids
  a move after which every line of at most ``k`` moves ends stuck, and
  otherwise weighs moves as ``tips`` does.

The same ladder plays the whole family (:mod:`pipeline.game.games`). A talon
deal is a move like another: ``random`` picks it as often as any other move,
and a line the lookahead looks along may deal (it is stuck only when nothing
fits and the talon is spent; it wins when the piles are empty, talon cards
left or not). ``tips`` adds one rule of thumb where there is a talon, the
one every Golf book gives first: it seldom deals while a card from the piles
fits (:data:`EARLY_DEAL_FACTOR`); its other rules read the piles alone, and
"nothing to play" means no pile card fits. Neighbouring ranks are those the
game lets follow each other (K and A only where ranks wrap).

This module is the plain reference, written on :class:`~pipeline.game.rules.Position`
and shared with nothing compiled: the game-tree walk's policies
(:mod:`pipeline.engine.policies`) are checked against it. ``docs/players.md``
says the same in a player's words, with the formulas and why the figures
built on them are exact.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> start = Position.start(Deal.from_board_text(EXAMPLE_BOARD))
>>> policy(Player.RANDOM, start)
{2: 0.5, 15: 0.5}
>>> sorted(policy(Player.TIPS, start).items())
[(2, 0.5), (15, 0.5)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from pipeline.errors import BlackholeError, of_type, shown_value
from pipeline.game.cards import rank_of, ranks_adjacent
from pipeline.game.games import Game
from pipeline.game.rules import Position

STUCK_FACTOR = 1 / 16
"""``tips``: a move after which no card fits on the foundation (cards left) weighs this much."""
TALLER_FACTOR = 2.0
"""``tips``: the move from the tallest of the fans whose free cards share a rank weighs this much more."""
LONE_CARD_FACTOR = 1 / 2
"""``tips``: emptying a one-card fan while a taller fan offers the same rank weighs this much."""
OPENING_FACTOR = 2.0
"""``tips``: uncovering a card whose rank neighbours are on no other free card weighs this much more."""
EARLY_DEAL_FACTOR = 1 / 16
"""``tips``: dealing a talon card while a card from the piles fits weighs this much."""
DISTRIBUTION_TOLERANCE = 1e-9  # how far from 1 a policy's probabilities may sum


class Player(Enum):
    """The ladder of player models, weakest first; a value is the model's name."""

    RANDOM = "random"
    TIPS = "tips"
    LOOKAHEAD_2 = "lookahead-2"
    LOOKAHEAD_4 = "lookahead-4"
    LOOKAHEAD_8 = "lookahead-8"

    @property
    def lookahead(self) -> int | None:
        """How many moves past the one it weighs the player looks; None for ``random`` and ``tips``."""
        name, _, depth = self.value.partition("-")
        return int(depth) if name == "lookahead" else None

    @property
    def words(self) -> str:
        """The player, in a player's words: "a player who follows the usual tips"."""
        if self is Player.RANDOM:
            return "a player who plays any legal move at random"
        if self is Player.TIPS:
            return "a player who follows the usual tips"
        return f"a player who follows the tips and looks {self.lookahead} moves ahead"

    @property
    def win_column(self) -> str:
        """The pack column of this player's win chance: ``tips_win_probability``..."""
        return f"{self.column_prefix}_win_probability"

    @property
    def dead_ends_column(self) -> str:
        """The pack column of this player's dead ends with undo: ``tips_dead_ends``..."""
        return f"{self.column_prefix}_dead_ends"

    @property
    def column_prefix(self) -> str:
        """How the pack's columns for this player begin: ``tips``, ``lookahead2``..."""
        return self.value.replace("-", "")


PLAYERS = tuple(Player)
PLAYER_COLUMNS = tuple(
    column for player in PLAYERS for column in (player.win_column, player.dead_ends_column)
)
"""Every player's pack columns, in the ladder's order: win chance, then dead ends."""


@dataclass(frozen=True)
class PlayerFigures:
    """What one player model meets from a position (:mod:`pipeline.game.players`; ``docs/players.md``)."""

    win_probability: float  # one attempt without undo wins
    dead_ends: float  # times stuck before the win, undoing each time to the last position a win was open from

    @property
    def expected_attempts(self) -> float:
        """The attempts without undo a win takes, on average: 1 / win_probability (infinite at 0)."""
        return 1.0 / self.win_probability if self.win_probability > 0 else math.inf

    def to_dict(self) -> dict[str, float | None]:
        """The figures as plain values, as a JSON export writes a player's: ``win_probability``,
        ``expected_attempts`` and ``dead_ends``, None where infinite (no win).

        >>> PlayerFigures(0.25, 1.5).to_dict()
        {'win_probability': 0.25, 'expected_attempts': 4.0, 'dead_ends': 1.5}
        >>> PlayerFigures(0.0, math.inf).to_dict()
        {'win_probability': 0.0, 'expected_attempts': None, 'dead_ends': None}
        """
        return {
            "win_probability": self.win_probability,
            "expected_attempts": _finite(self.expected_attempts),
            "dead_ends": _finite(self.dead_ends),
        }


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def figures_by_name(players: tuple[PlayerFigures, ...] | None) -> dict[str, dict[str, float | None]] | None:
    """Each player's figures (one per player of :data:`PLAYERS`, in its order) as plain values, keyed by the
    player's name; None when not known.

    >>> list(figures_by_name(tuple(PlayerFigures(0.5, 1.0) for _ in PLAYERS)))
    ['random', 'tips', 'lookahead-2', 'lookahead-4', 'lookahead-8']
    """
    if players is None:
        return None
    return {player.value: figures.to_dict() for player, figures in zip(PLAYERS, players, strict=True)}


Policy = Callable[[Position], Mapping[int, float]]
"""A policy: from a position with a legal move, each legal move's probability."""


class PolicyError(BlackholeError, ValueError):
    """A policy that does not give a probability distribution over the legal moves."""


def check_distribution(position: Position, chances: Mapping[int, float]) -> None:
    """Raise PolicyError unless ``chances`` gives every legal move of ``position``, and only those, a
    probability: finite, at least 0, summing to 1.

    >>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
    >>> check_distribution(Position.start(Deal.from_board_text(EXAMPLE_BOARD)), {2: 0.7, 15: 0.7})
    Traceback (most recent call last):
    ...
    pipeline.game.players.PolicyError: the probabilities sum to 1.4, not 1
    """
    if not isinstance(chances, Mapping):
        raise PolicyError(
            f"the policy gives {type(chances).__name__}, not a mapping of moves to probabilities"
        )
    legal = set(position.legal_moves())
    if set(chances) != legal or any(isinstance(move, bool) for move in chances):
        given = ", ".join(sorted(shown_value(move) for move in chances))
        raise PolicyError(f"the policy gives moves [{given}], the legal moves are {sorted(legal)}")
    for move, chance in chances.items():
        if not _probability(chance):
            raise PolicyError(f"move {move} has probability {shown_value(chance)}, not a number from 0 to 1")
    total = math.fsum(chances.values())
    if abs(total - 1.0) > DISTRIBUTION_TOLERANCE:
        raise PolicyError(f"the probabilities sum to {total:g}, not 1")


def _probability(chance: object) -> bool:
    """Whether ``chance`` is a number from 0 to 1, give or take the sum's tolerance (a bool is not a number here)."""
    if isinstance(chance, bool) or not isinstance(chance, int | float):
        return False
    try:
        return math.isfinite(chance) and 0 <= chance <= 1 + DISTRIBUTION_TOLERANCE
    except OverflowError:  # an integer past the floats
        return False


def policy(player: Player, position: Position) -> dict[int, float]:
    """``player``'s probability of each legal move of ``position`` (which has one), in any game of the family.

    ``player`` is a :class:`Player` and ``position`` a :class:`~pipeline.game.rules.Position` (else
    TypeError); a position with no legal move (won or lost) is a PolicyError.
    """
    of_type(player, Player, "player")
    of_type(position, Position, "position")
    moves = position.legal_moves()
    if not moves:
        raise PolicyError("the position has no legal move: no player chooses one")
    if player is Player.RANDOM:
        return {move: 1 / len(moves) for move in moves}
    weights = tip_weights(position)
    if player.lookahead is not None:
        weights = _looking_ahead(position, weights, player.lookahead)
    total = math.fsum(weights.values())
    return {move: weight / total for move, weight in weights.items()}


def tip_weights(position: Position) -> dict[int, float]:
    """The ``tips`` player's weight of each legal move (not yet divided by their sum)."""
    moves = position.legal_moves()
    game = position.deal.game
    piles = [move for move in moves if not _is_deal(position, move)]
    rank = {move: _top_rank(position, move) for move in piles}
    weights = {}
    for move in moves:
        weight = STUCK_FACTOR if _stuck_after(position, move) else 1.0
        if _is_deal(position, move):
            weights[move] = weight * EARLY_DEAL_FACTOR if piles else weight
            continue
        height = position.heights[move]
        same_rank = [other for other in piles if other != move and rank[other] == rank[move]]
        if same_rank and all(position.heights[other] <= height for other in same_rank):
            weight *= TALLER_FACTOR
        if height == 1 and any(position.heights[other] > 1 for other in same_rank):
            weight *= LONE_CARD_FACTOR
        if _opens_a_rank(position, move, game):
            weight *= OPENING_FACTOR
        weights[move] = weight
    return weights


def _is_deal(position: Position, move: int) -> bool:
    """Whether ``move`` deals a talon card rather than playing a pile's."""
    return position.deal.game.is_talon_move(move)


def _top_rank(position: Position, pile: int) -> int:
    card = position.top_card(pile)
    assert card is not None  # a legal move's pile has a free card
    return rank_of(card)


def _stuck_after(position: Position, move: int) -> bool:
    """Whether no pile card fits on the foundation after ``move``, with pile cards still to play."""
    child = position.play(move)
    return not child.is_won and all(_is_deal(child, after) for after in child.legal_moves())


def _neighbours(game: Game, a: int, b: int) -> bool:
    """Whether ranks ``a`` and ``b`` are one apart, as the game counts it (K and A only where ranks wrap)."""
    return ranks_adjacent(a, b) if game.wrap else abs(a - b) == 1


def _opens_a_rank(position: Position, move: int, game: Game) -> bool:
    """Whether ``move`` uncovers a card whose rank neighbours are the free card of no other pile."""
    height = position.heights[move]
    if height < 2:
        return False
    uncovered = rank_of(position.deal.piles[move][height - 2])
    return not any(
        _neighbours(game, _top_rank(position, pile), uncovered)
        for pile in range(game.num_piles)
        if pile != move and position.heights[pile] > 0
    )


def _looking_ahead(position: Position, weights: dict[int, float], depth: int) -> dict[int, float]:
    """``weights`` kept for the moves that show a win within ``depth`` moves, if any; else for the moves
    that do not show a dead end within ``depth`` moves, if any; else all of them (the others weigh 0)."""
    wins, open_moves = [], []
    for move in weights:
        reach, wins_within = line_ahead(position.play(move), depth)
        if wins_within:
            wins.append(move)
        elif reach == depth:
            open_moves.append(move)
    kept = wins or open_moves or list(weights)
    return {move: weights[move] if move in kept else 0.0 for move in weights}


def line_ahead(position: Position, depth: int) -> tuple[int, bool]:
    """The most moves that can be played in a row from ``position``, counted up to ``depth``, and whether some
    line of at most ``depth`` moves wins (a line that wins counts as reaching ``depth``)."""
    if position.is_won:
        return depth, True
    if depth == 0:
        return 0, False
    best = 0
    for move in position.legal_moves():
        reach, wins = line_ahead(position.play(move), depth - 1)
        if wins:
            return depth, True
        best = max(best, 1 + reach)
    return best, False


def longest_line(position: Position, limit: int) -> int:
    """The most moves that can be played in a row from ``position``, counted up to ``limit``."""
    if limit == 0:
        return 0
    best = 0
    for move in position.legal_moves():
        best = max(best, 1 + longest_line(position.play(move), limit - 1))
        if best == limit:
            break
    return best


def played_out(position: Position, chances_of: Policy) -> PlayerFigures:
    """The figures of the policy ``chances_of`` from ``position``, by playing out every line (small positions only).

    Every distribution the policy gives is checked (PolicyError). The dead
    ends are infinite from a position with no win. ``position`` is a
    :class:`~pipeline.game.rules.Position` and ``chances_of`` a callable (else TypeError).
    """
    of_type(position, Position, "position")
    if not callable(chances_of):
        raise TypeError(f"chances_of must be a callable (a policy), got {type(chances_of).__name__}")
    win_probability, winnable, _ = _play_out(position, chances_of)
    if not winnable:
        return PlayerFigures(win_probability, math.inf)
    return PlayerFigures(win_probability, _dead_ends(position, chances_of))


def _play_out(position: Position, chances_of: Policy) -> tuple[float, bool, dict[int, bool]]:
    """(win chance, whether a win exists, which legal moves lead to one), every line played out."""
    if position.is_won:
        return 1.0, True, {}
    moves = position.legal_moves()
    if not moves:
        return 0.0, False, {}
    chances = chances_of(position)
    check_distribution(position, chances)
    total, winning = 0.0, {}
    for move in moves:
        child_chance, child_winnable, _ = _play_out(position.play(move), chances_of)
        total += chances[move] * child_chance
        winning[move] = child_winnable
    return total, any(winning.values()), winning


def _dead_ends(position: Position, chances_of: Policy) -> float:
    """The expected dead ends from a winnable ``position``: every try of a move with no win behind it is one."""
    if position.is_won:
        return 0.0
    chances = chances_of(position)
    _, _, winning = _play_out(position, chances_of)
    good = math.fsum(chances[move] for move, wins in winning.items() if wins)
    ahead = math.fsum(
        chances[move] * _dead_ends(position.play(move), chances_of) for move, wins in winning.items() if wins
    )
    return (1.0 - good) / good + ahead / good
