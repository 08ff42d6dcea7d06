"""The games of the family as data: Black Hole, All in a Row and three rule sets of Golf.

Every game here is played with one deck, face up, onto one foundation: a card
goes there when its rank is one up or one down from the foundation's top.
They differ in five things, which a :class:`Game` holds:

- the layout: how many piles (``num_piles``) of how many cards (``pile_size``);
- the talon: ``talon_size`` cards dealt one by one onto the foundation,
  whatever their rank (Golf's 16; none in the others);
- how the foundation starts (:class:`FoundationStart`): with the A♠ (Black
  Hole), empty so that any free card may start it (All in a Row), or with a
  dealt card (Golf);
- ``wrap``: whether K and A are neighbours;
- ``dead_king``: whether nothing may go on a King (Dead King Golf).

A game is chosen by its name; ``black_hole`` is the default everywhere.

>>> game_named("golf").title, game_named("golf").num_piles, game_named("golf").talon_size
('Golf', 7, 16)
>>> [game.name for game in GAMES]
['black_hole', 'all_in_a_row', 'dead_king_golf', 'golf', 'relaxed_golf']
>>> fits(game_named("dead_king_golf"), 11, 12), fits(game_named("golf"), 11, 12)
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pipeline.errors import BlackholeError
from pipeline.game.cards import NUM_CARDS, NUM_RANKS


class FoundationStart(str, Enum):
    """How a game's foundation starts."""

    ACE_OF_SPADES = "ace_of_spades"
    """With the A♠, taken out of the deck (Black Hole)."""
    EMPTY = "empty"
    """Empty: the first card played may be any free card (All in a Row)."""
    DEALT = "dealt"
    """With a card dealt from the deck after the piles (Golf)."""


PUBLISHED_WIN_RATE = 0.8694
"""Share of the first 1,000,000 Black Hole PySol FC deals that are winnable (docs/rules.md)."""


GAME_KEY = "game"
"""The key that names a game where it is written (:attr:`Game.game_entry`): a pack's schema metadata, its
manifest, a run's records, a gallery, an export."""


class UnknownGame(BlackholeError, ValueError):
    """A game name that names none of this project's games."""


@dataclass(frozen=True)
class Game:
    """One game of the family: its layout and its rules (see the module's docstring)."""

    name: str
    title: str
    num_piles: int
    pile_size: int
    talon_size: int
    foundation_start: FoundationStart
    wrap: bool
    dead_king: bool
    layout: str
    """The name of the deal's layout: games with the same layout deal the same cards from a number or seed."""
    solver_arguments: tuple[str, ...]
    """The arguments that make black-hole-solver play this game."""
    seeded_scheme: str
    """The name of the game's seeded dealing scheme, which a pack's manifest records (``golf-sha256-v1``)."""
    tiers_file: str
    """The name of the tiers file shipped for the game, beside the grading stage (``tiers_golf.toml``)."""
    published_win_rate: float | None
    """The published share of winnable PySol FC deals 1 to 1,000,000 (black-hole-solver's author's
    figures), None where none was found."""
    named_in_records: bool
    """Whether what is written of the game names it (``"game": NAME``): a pack's schema metadata and
    manifest, a run's work record and config, a gallery, play records, exports. Black Hole's say no game,
    so that they are the bytes they were before the other games came (:attr:`game_entry`)."""
    headers_anywhere: bool
    """Whether the board reader knows a header line (``Talon:``, ``Foundations:``) wherever it stands in a
    board, so that one among the piles is named one too many. Black Hole's reader, as before the other
    games came, takes its first line for the foundation's and every line after it for a pile."""

    def __repr__(self) -> str:
        return f"game_named({self.name!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Pickled by name, so that a game sent to a worker is the worker's own (``is BLACK_HOLE`` holds there)."""
        return game_named, (self.name,)

    @property
    def pile_cards(self) -> int:
        """How many cards the piles hold at the start: the cards a win plays from them."""
        return self.num_piles * self.pile_size

    @property
    def talon_move(self) -> int:
        """The move that deals the next talon card: one past the last pile (Golf's 7)."""
        return self.num_piles

    @property
    def has_talon(self) -> bool:
        return self.talon_size > 0

    @property
    def num_moves(self) -> int:
        """How many different moves there are: one a pile, and the talon's deal in a game with a talon."""
        return self.num_piles + (self.talon_size > 0)

    def is_talon_move(self, move: int) -> bool:
        """Whether ``move`` deals the talon's next card (:attr:`talon_move`, in a game with a talon)."""
        return self.talon_size > 0 and move == self.num_piles

    @property
    def dealt_cards(self) -> int:
        """How many cards a deal takes from the deck: all 52, or 51 when the A♠ starts the foundation
        (Black Hole), set aside before the shuffle."""
        return NUM_CARDS - (self.foundation_start is FoundationStart.ACE_OF_SPADES)

    @property
    def game_entry(self) -> dict[str, str]:
        """``{"game": NAME}`` where what is written of the game names it, else nothing
        (:attr:`named_in_records`).

        >>> game_named("golf").game_entry, BLACK_HOLE.game_entry
        ({'game': 'golf'}, {})
        """
        return {GAME_KEY: self.name} if self.named_in_records else {}

    @property
    def recorded_name(self) -> str | None:
        """The name written of the game (:attr:`named_in_records`), None where it goes unsaid."""
        return self.name if self.named_in_records else None

    @property
    def a_title(self) -> str:
        """The title with its article, for messages: 'a Golf', 'an All in a Row'."""
        return f"{'an' if self.title[0] in 'AEIOU' else 'a'} {self.title}"


BLACK_HOLE = Game(
    name="black_hole",
    title="Black Hole",
    num_piles=17,
    pile_size=3,
    talon_size=0,
    foundation_start=FoundationStart.ACE_OF_SPADES,
    wrap=True,
    dead_king=False,
    layout="black_hole",
    solver_arguments=("--game", "black_hole"),
    seeded_scheme="blackhole-sha256-v1",
    tiers_file="tiers.toml",
    published_win_rate=PUBLISHED_WIN_RATE,
    named_in_records=False,
    headers_anywhere=False,
)
ALL_IN_A_ROW = Game(
    name="all_in_a_row",
    title="All in a Row",
    num_piles=13,
    pile_size=4,
    talon_size=0,
    foundation_start=FoundationStart.EMPTY,
    wrap=True,
    dead_king=False,
    layout="all_in_a_row",
    solver_arguments=("--game", "all_in_a_row"),
    seeded_scheme="all_in_a_row-sha256-v1",
    tiers_file="tiers_all_in_a_row.toml",
    published_win_rate=0.671,
    named_in_records=True,
    headers_anywhere=True,
)


def _golf(name: str, title: str, *, wrap: bool, dead_king: bool, solver_flag: str | None) -> Game:
    """A Golf rule set: 7 fans of 5, a talon of 16 and a dealt foundation card, whatever the ends of the ranks."""
    flags = (solver_flag,) if solver_flag else ()
    return Game(
        name,
        title,
        num_piles=7,
        pile_size=5,
        talon_size=16,
        foundation_start=FoundationStart.DEALT,
        wrap=wrap,
        dead_king=dead_king,
        layout="golf",
        solver_arguments=("--game", "golf", *flags),
        seeded_scheme="golf-sha256-v1",
        tiers_file=f"tiers_{name}.toml",
        published_win_rate=None,
        named_in_records=True,
        headers_anywhere=True,
    )


DEAD_KING_GOLF = _golf("dead_king_golf", "Dead King Golf", wrap=False, dead_king=True, solver_flag=None)
GOLF = _golf("golf", "Golf", wrap=False, dead_king=False, solver_flag="--queens-on-kings")
# wrapping lets a queen on a king too: black-hole-solver's --wrap-ranks alone
RELAXED_GOLF = _golf("relaxed_golf", "Relaxed Golf", wrap=True, dead_king=False, solver_flag="--wrap-ranks")

GAMES = (BLACK_HOLE, ALL_IN_A_ROW, DEAD_KING_GOLF, GOLF, RELAXED_GOLF)
DEFAULT_GAME = BLACK_HOLE
"""The game a call, a config or a command plays when it is given none: what says the game may leave it
unsaid when it is this one (a deal's repr, a command's hint)."""
GAME_NAMES = tuple(game.name for game in GAMES)
_GAME_OF_NAME = {game.name: game for game in GAMES}
(_UNNAMED_GAME,) = (game for game in GAMES if not game.named_in_records)  # one game at most goes unnamed


class GameName(str, Enum):
    """The games' names, for command-line choices (``--game``)."""

    BLACK_HOLE = "black_hole"
    ALL_IN_A_ROW = "all_in_a_row"
    DEAD_KING_GOLF = "dead_king_golf"
    GOLF = "golf"
    RELAXED_GOLF = "relaxed_golf"


def game_named(name: str | GameName) -> Game:
    """The game called ``name`` (one of :data:`GAME_NAMES`).

    >>> game_named("black_hole") is BLACK_HOLE
    True
    >>> game_named("klondike")
    Traceback (most recent call last):
    ...
    pipeline.game.games.UnknownGame: unknown game 'klondike': the games are black_hole, all_in_a_row, dead_king_golf, golf, relaxed_golf
    """
    if not isinstance(name, str):  # a GameName is one too
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    key = name.value if isinstance(name, GameName) else name
    game = _GAME_OF_NAME.get(key)
    if game is None:
        raise UnknownGame(f"unknown game {key!r}: the games are {', '.join(GAME_NAMES)}")
    return game


def recorded_game(name: str | None) -> Game:
    """The game a record names (a pack's, a manifest's, a play record's ``game``): the game called ``name``,
    or, when it names none (None), the game whose records go unnamed (:attr:`Game.named_in_records`).

    >>> recorded_game(None).title, recorded_game("golf").title
    ('Black Hole', 'Golf')
    """
    return _UNNAMED_GAME if name is None else game_named(name)


def fits(game: Game, rank: int, foundation_rank: int | None) -> bool:
    """Whether a card of ``rank`` (0..12) may go on a foundation topped by ``foundation_rank``.

    ``None`` is an empty foundation, which takes any card. Ranks are
    neighbours when one is one up from the other; K and A also are when the
    game wraps; and in Dead King Golf nothing goes on a King.

    >>> fits(BLACK_HOLE, 12, 0), fits(GOLF, 12, 0), fits(ALL_IN_A_ROW, 5, None)
    (True, False, True)
    """
    if foundation_rank is None:
        return True
    if game.dead_king and foundation_rank == NUM_RANKS - 1:
        return False
    gap = (rank - foundation_rank) % NUM_RANKS if game.wrap else abs(rank - foundation_rank)
    return gap == 1 or (game.wrap and gap == NUM_RANKS - 1)
