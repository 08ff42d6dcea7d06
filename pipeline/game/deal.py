"""A deal of one game of the family and its board text (Black Hole's 17 piles of 3 under the A♠ by default).

Board text (docs/rules.md), as black-hole-solver reads and writes it: for a
game with a talon (Golf) a ``Talon:`` line, its cards in the order they are
dealt; a ``Foundations:`` line (``AS`` in Black Hole, ``-`` for All in a
Row's empty foundation, Golf's starting card); then one line per pile, pile 0
first, cards listed from the covered card to the free one (the right-most card
is playable). Golf's ``Talon:`` line may also come after the ``Foundations:``
line. A file may hold several boards separated by blank lines.

>>> deal = Deal.from_board_text(EXAMPLE_BOARD)
>>> deal.to_board_text() == EXAMPLE_BOARD
True
>>> card_name(deal.top_card(0))
'TH'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

from pipeline.errors import ArgumentError, BlackholeError, located, of_type, shown_value, whole_number
from pipeline.game.cards import ACE_OF_SPADES, CARD_NAMES, NUM_CARDS, CardError, card_name, parse_card
from pipeline.game.games import BLACK_HOLE, DEFAULT_GAME, GAMES, FoundationStart, Game

NUM_PILES = BLACK_HOLE.num_piles  # Black Hole's layout, which the compiled engine is built for
PILE_SIZE = BLACK_HOLE.pile_size
BOARD_LINES = 1 + NUM_PILES
"""Lines of one Black Hole board: the foundation line, then a line per pile."""
EMPTY_FOUNDATION = "-"
"""How board text writes an empty foundation (All in a Row's, before the first move)."""
LONGEST_LINE = 1000
"""Characters a board line may hold between its first and last non-blank one: far more than
three cards need, and a bound on what reading a line holds in memory."""

EXAMPLE_BOARD = """\
Foundations: AS
JD KS TH
2D 9D 8H
9H QD 2C
JC JS JH
5D AH 7D
7H 3C 6D
7C 4C 8S
5H 5C 8D
KD TS QS
KC QH 6C
9S 4H 3D
5S AC 8C
AD 4D TC
QC 7S 6S
KH 3S 9C
3H TD 2H
2S 4S 6H
"""


class BoardError(BlackholeError, ValueError):
    """Board text that is not a valid deal; the message names where and what."""

    def __init__(self, problem: str, *, source: str = "<board>", line: int = 0) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        super().__init__(located(problem, source=source, line=line))


def check_game(game: Any, name: str = "game") -> None:
    """Refuse ``game`` with a TypeError naming ``name`` unless it is a :class:`~pipeline.game.games.Game`;
    a game's name is not one (``game_named`` gives the game of a name).

    >>> check_game("golf")
    Traceback (most recent call last):
    ...
    TypeError: game must be a Game, got str 'golf' (game_named('golf') is the game of a name)
    """
    if isinstance(game, str):
        raise TypeError(
            f"{name} must be a Game, got str {shown_value(game)} (game_named({shown_value(game)}) is the game of a name)"
        )
    of_type(game, Game, name)
    if id(game) not in _KNOWN:
        raise ArgumentError(
            located(
                f"{game.name!r} is a Game made by hand: game_named(NAME) gives each of the family's",
                source=name,
            )
        )


_KNOWN = frozenset(map(id, GAMES))
"""The family's games, told by identity: a game made by hand is none of them, whatever it holds."""


def _tupled(value: Any, name: str, what: str) -> tuple[Any, ...]:
    """``value`` as a tuple when it is a tuple or a list; else a TypeError naming ``name``."""
    if not isinstance(value, tuple | list):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    return tuple(value)


def board_lines(game: Game) -> int:
    """Lines of one board of ``game``: the talon's line if it has one, the foundation's, a line per pile.

    >>> from pipeline.game.games import game_named
    >>> board_lines(BLACK_HOLE), board_lines(game_named("golf"))
    (18, 9)
    """
    return len(_headers(game)) + game.num_piles


@dataclass(frozen=True)
class Deal:
    """The piles of a deal of ``game``, each listed bottom (covered) to top (free); its foundation and talon.

    In Black Hole (the default) the foundation always starts with the A♠,
    which is not in any pile; in All in a Row it starts empty (``None``); in
    Golf with a dealt card, and ``talon`` holds the other cards in the order
    they are dealt.

    ``deal_id`` names a dealt deal (``seed-SEED-INDEX``, ``pysol-NUMBER``: what
    :func:`~pipeline.game.shuffles.seeded_deal` and ``pysol_deal`` give it, and
    what :func:`~pipeline.game.shuffles.deal_of_id` reads back); None for a
    board read from text. It is a name, not part of the deal: two deals with
    the same cards are equal whatever their ids.
    """

    piles: tuple[tuple[int, ...], ...]
    game: Game = BLACK_HOLE
    foundation: int | None = ACE_OF_SPADES
    talon: tuple[int, ...] = ()
    deal_id: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if id(self.game) not in _KNOWN:
            check_game(self.game)
        if self.deal_id is not None and type(self.deal_id) is not str:
            of_type(self.deal_id, str, "deal_id", "a str or None")
        if type(self.piles) is not tuple or set(map(type, self.piles)) != {tuple}:
            piles = _tupled(self.piles, "piles", "a tuple of piles (tuples of cards)")
            piles = tuple(
                _tupled(pile, f"piles[{number}]", "a tuple of cards") for number, pile in enumerate(piles)
            )
            object.__setattr__(self, "piles", piles)
        talon: Any = self.talon  # whatever the caller gave
        if type(talon) is not tuple:
            object.__setattr__(self, "talon", _tupled(talon, "talon", "a tuple of cards"))
        problem = deal_problem(self.piles, self.game, self.foundation, self.talon)
        if problem:
            raise BoardError(problem)

    def __repr__(self) -> str:
        if self.deal_id is not None:  # the call that deals it again
            game = "" if self.game is DEFAULT_GAME else f", {self.game!r}"
            return f"deal_of_id({self.deal_id!r}{game})"
        if self.game is DEFAULT_GAME:
            return f"Deal.from_board_text({self.to_board_text()!r})"
        # a Game's repr is the call that finds it: game_named('golf')
        return f"Deal.from_board_text({self.to_board_text()!r}, game={self.game!r})"

    def top_card(self, pile: int) -> int:
        """The free card of ``pile`` at the start of play (ArgumentError: no such pile)."""
        if type(pile) is not int or not 0 <= pile < len(self.piles):
            pile = whole_number(pile, "pile", lowest=0, highest=len(self.piles) - 1, where="top_card")
        return self.piles[pile][-1]

    def cards(self) -> tuple[int, ...]:
        """The dealt cards in :meth:`from_cards` order: pile by pile, bottom to top, then Golf's
        foundation card and its talon (Black Hole's 51, All in a Row's 52, Golf's 52)."""
        piled = tuple(card for pile in self.piles for card in pile)
        if self.game.foundation_start is FoundationStart.DEALT and self.foundation is not None:
            return (*piled, self.foundation, *self.talon)
        return piled

    def to_board_text(self) -> str:
        """Board text, one trailing newline."""
        # the cards were checked when the deal was made: no card_name check per card
        piles = [" ".join([CARD_NAMES[card] for card in pile]) for pile in self.piles]
        foundation = EMPTY_FOUNDATION if self.foundation is None else CARD_NAMES[self.foundation]
        lines = (
            ["Talon: " + " ".join([CARD_NAMES[card] for card in self.talon])] if self.game.has_talon else []
        )
        return "\n".join([*lines, f"Foundations: {foundation}", *piles]) + "\n"

    @classmethod
    def from_cards(
        cls, cards: list[int] | tuple[int, ...], game: Game = BLACK_HOLE, *, deal_id: str | None = None
    ) -> Deal:
        """The deal of ``game`` whose piles take ``cards`` a pile at a time, bottom to top; in Golf the
        next card starts the foundation and the rest are the talon, first dealt first. ``deal_id`` names it.

        >>> from pipeline.game.games import game_named
        >>> deal = Deal.from_cards(range(52), game_named("golf"))
        >>> card_name(deal.piles[0][-1]), card_name(deal.foundation), card_name(deal.talon[0])
        ('2H', '9S', 'TH')
        """
        given: Any = cards  # whatever the caller gave
        if isinstance(given, str | bytes) or not isinstance(given, Sequence):
            raise TypeError(f"cards must be a sequence of cards, got {type(given).__name__}")
        check_game(game)
        size, piled = game.pile_size, game.pile_cards
        if game.foundation_start is not FoundationStart.DEALT:  # every card in a pile: one too many is named
            piled_all = tuple(tuple(cards[i : i + size]) for i in range(0, len(cards), size))
            start = ACE_OF_SPADES if game.foundation_start is FoundationStart.ACE_OF_SPADES else None
            return cls(piled_all, game, start, deal_id=deal_id)
        piles = tuple(tuple(cards[i : i + size]) for i in range(0, min(len(cards), piled), size))
        rest = tuple(cards[piled:])
        return cls(piles, game, rest[0] if rest else None, rest[1:], deal_id=deal_id)

    @classmethod
    def from_board_text(cls, text: str, *, source: str = "<board>", game: Game = BLACK_HOLE) -> Deal:
        """Parse exactly one board of ``game``; errors name ``source`` and the line.

        ``text`` and ``source`` are str and ``game`` a :class:`~pipeline.game.games.Game` (not its
        name: :func:`~pipeline.game.games.game_named` gives it), else TypeError.
        """
        of_type(text, str, "text")
        of_type(source, str, "source")
        check_game(game)
        deals = list(iter_boards(text, source=source, game=game))
        if len(deals) != 1:
            raise BoardError(f"expected one board, found {len(deals)}", source=source)
        return deals[0]


_CARDS = frozenset(range(NUM_CARDS))
"""Every card's number: a deal's cards, once each and all ints, are a subset of it."""


def deal_problem(
    piles: tuple[tuple[int, ...], ...],
    game: Game = BLACK_HOLE,
    foundation: int | None = ACE_OF_SPADES,
    talon: tuple[int, ...] = (),
) -> str | None:
    """Why ``piles``, ``foundation`` and ``talon`` (a :class:`Deal`'s, its defaults too) are not a deal of
    ``game``, or None when they are one: any game of the family.

    The first problem is named, asked in this order: the number of piles, the foundation's start, the
    talon's size, each pile's size, then every card (the foundation's, the talon's, the piles' in order)
    for one that is not a card, one that repeats the foundation's card (named so in every game) or one
    that repeats another.

    >>> piles = Deal.from_board_text(EXAMPLE_BOARD).piles
    >>> deal_problem(piles) is None
    True
    >>> deal_problem(piles[:16])
    'expected 17 piles, found 16'
    >>> deal_problem(((piles[0][0], piles[0][1], ACE_OF_SPADES), *piles[1:]))
    'pile 0 holds AS, which is the foundation'
    >>> deal_problem(((piles[0][0], piles[0][1], piles[1][0]), *piles[1:]))
    'duplicate card 2D'
    """
    if len(piles) != game.num_piles:
        return f"expected {game.num_piles} piles, found {len(piles)}"
    start = game.foundation_start
    if start is FoundationStart.ACE_OF_SPADES and foundation != ACE_OF_SPADES:
        return f"{game.a_title} deal starts with AS on the foundation"
    if start is FoundationStart.EMPTY and foundation is not None:
        return f"{game.a_title} deal starts with an empty foundation"
    if start is FoundationStart.DEALT and foundation is None:
        return f"{game.a_title} deal starts with a card on the foundation"
    if len(talon) != game.talon_size:
        return f"the talon has {len(talon)} cards, expected {game.talon_size}"
    size = game.pile_size
    if set(map(len, piles)) != {size}:
        for number, pile in enumerate(piles):
            if len(pile) != size:
                return f"pile {number} has {len(pile)} cards, expected {size}"
    laid = [*chain.from_iterable(piles), *talon]
    if foundation is not None:
        laid.append(foundation)
    # a good deal's cards are checked in a few C-speed passes (a Deal is built for every row of a pack
    # read); only a bad one is walked card by card below, to name its first problem
    if set(map(type, laid)) == {int}:  # a bool or a NumPy integer is no card
        seen = set(laid)
        if len(seen) == len(laid) and seen <= _CARDS:
            return None
    seen = set()
    laid_out = [("the foundation", foundation)] if foundation is not None else []
    laid_out += [("the talon", card) for card in talon]
    laid_out += [(f"pile {number}", card) for number, pile in enumerate(piles) for card in pile]
    for place, card in laid_out:
        if type(card) is not int or not 0 <= card < NUM_CARDS:
            return f"{place} holds {shown_value(card)}, which is not a card"
        if card in seen:
            if card == foundation:
                return f"{place} holds {card_name(card)}, which is the foundation"
            return f"duplicate card {card_name(card)}"
        seen.add(card)
    return None


def iter_boards(text: str, *, source: str = "<board>", game: Game = BLACK_HOLE) -> Iterator[Deal]:
    """Every board of ``game`` in ``text`` (boards separated by blank lines), in order.

    Raises BoardError naming ``source``, the line number and the problem.
    """
    found = False
    for _, deal in numbered_boards(text.splitlines(), source=source, game=game):
        found = True
        yield deal
    if not found:
        raise BoardError("no board found (empty input)", source=source)


def numbered_boards(
    lines: Iterable[str], *, source: str = "<board>", game: Game = BLACK_HOLE
) -> Iterator[tuple[int, Deal]]:
    """Each board of ``game`` in ``lines`` (line 1 first, boards separated by blank lines) and its first line's number.

    Lines are taken one at a time and a board is parsed as soon as its block
    ends, so a bad board is reported (its BoardError raised) before a line
    after it is taken. A block
    ends at a blank line, at the end, or at the line one past a whole board
    (:func:`board_lines`), which is an error there however long the block goes
    on; so is a line longer than :data:`LONGEST_LINE` once stripped. Memory
    holds one block, whatever the input.

    >>> [first for first, _ in numbered_boards(["", *EXAMPLE_BOARD.splitlines(), "", *EXAMPLE_BOARD.splitlines()])]
    [2, 21]
    """
    for first, found in boards_or_errors(lines, source=source, game=game):
        if isinstance(found, BoardError):
            raise found
        yield first, found


def boards_or_errors(
    lines: Iterable[str], *, source: str = "<board>", game: Game = BLACK_HOLE
) -> Iterator[tuple[int, Deal | BoardError]]:
    """:func:`numbered_boards`, but a bad board comes back as its BoardError and the reading goes on.

    A bad board is one error: after a block that ran past a whole board, or a
    line too long, the lines up to the next blank one are skipped with it.

    >>> bad = ["Foundations: AS", "JD KS"]
    >>> [(first, type(found).__name__) for first, found in boards_or_errors([*bad, "", *EXAMPLE_BOARD.splitlines()])]
    [(1, 'BoardError'), (4, 'Deal')]
    """
    whole = board_lines(game)
    block: list[tuple[int, str]] = []
    skipping = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if skipping:
            skipping = bool(line)
            continue
        if line:
            if len(line) > LONGEST_LINE:
                problem = f"a line of more than {LONGEST_LINE} characters: no board has one"
                yield (block[0][0] if block else number), BoardError(problem, source=source, line=number)
                block, skipping = [], True
                continue
            block.append((number, line))
            if len(block) <= whole:
                continue
        elif not block:
            continue
        found = _parsed(block, source, game)
        yield block[0][0], found
        skipping = isinstance(found, BoardError) and len(block) > whole
        block = []
    if block:
        yield block[0][0], _parsed(block, source, game)


def _parsed(block: list[tuple[int, str]], source: str, game: Game) -> Deal | BoardError:
    try:
        return _parse_block(block, source, game)
    except BoardError as error:
        return error


def read_boards(path: Path, game: Game = BLACK_HOLE) -> list[Deal]:
    """Every board of ``game`` in the file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise BoardError(f"not UTF-8 text ({error.reason})", source=str(path)) from None
    return list(iter_boards(text, source=str(path), game=game))


_HEADER_NAMES = {"talon": "talon", "foundations": "foundations", "foundation": "foundations"}
"""The labels of a board's header lines, read in any case, and the header each names."""


def _headers(game: Game) -> tuple[str, ...]:
    """The header lines a board of ``game`` starts with: its talon's (if it has one), its foundation's."""
    return ("talon", "foundations") if game.has_talon else ("foundations",)


def _parse_block(block: list[tuple[int, str]], source: str, game: Game) -> Deal:
    """One board of ``game``: its header lines (talon, foundation), then its piles, as the game's layout says.

    A reader of a game whose header lines may stand anywhere (:attr:`~pipeline.game.games.Game.headers_anywhere`)
    names one among the piles as one too many; Black Hole's reads its first line for the foundation's (with or
    without a colon) and every line after it as a pile, as it did before the other games came.
    """
    headers = _headers(game)
    labelled = _header_lines(block, source, game, headers)
    if any(key not in labelled for key in headers):  # a block too short to hold every header line
        missing = " or ".join(f"'{key.title()}:'" for key in headers if key not in labelled)
        raise BoardError(f"no {missing} line: the board ends first", source=source, line=block[-1][0])
    where: dict[int, int] = {}
    foundation_number, foundation_words = labelled["foundations"]
    foundation = _foundation(game, foundation_words, foundation_number, where, source)
    talon: tuple[int, ...] = ()
    if "talon" in headers:
        talon_number, talon_words = labelled["talon"]
        if len(talon_words) != game.talon_size:
            raise BoardError(
                f"the talon has {len(talon_words)} cards, expected {game.talon_size}",
                source=source,
                line=talon_number,
            )
        talon = tuple(_cards_at(talon_words, talon_number, where, source))
    pile_lines = block[len(headers) :]
    if len(pile_lines) != game.num_piles:
        last = pile_lines[-1][0] if pile_lines else block[-1][0]
        # numbered_boards stops a block at the first line too many: there may be more
        found = f"{len(pile_lines)} or more" if len(pile_lines) > game.num_piles else len(pile_lines)
        raise BoardError(f"expected {game.num_piles} piles, found {found}", source=source, line=last)
    piles = tuple(
        _pile_at(pile_number, number, line, game.pile_size, where, source)
        for pile_number, (number, line) in enumerate(pile_lines)
    )
    return Deal(piles, game, foundation, talon)


def _header_lines(
    block: list[tuple[int, str]], source: str, game: Game, headers: tuple[str, ...]
) -> dict[str, tuple[int, list[str]]]:
    """The header lines of ``block`` by the header each names: its line's number and the words after the
    label. The first lines must be the ``headers`` in some order; a game whose header lines may stand anywhere
    has every line read, and a header line among the piles is an error."""
    labelled: dict[str, tuple[int, list[str]]] = {}
    anywhere = game.headers_anywhere
    for index, (number, line) in enumerate(block if anywhere else block[: len(headers)]):
        label, colon, rest = line.partition(":")
        name = _HEADER_NAMES.get(label.strip().lower()) if colon or not anywhere else None
        if name is None:
            if index >= len(headers):
                continue
            if "talon" not in headers:
                start = _written_start(game)
                raise BoardError(
                    f"expected 'Foundations: {start}', found {line!r}", source=source, line=number
                )
            missing = " or ".join(f"'{key.title()}:'" for key in headers if key not in labelled)
            raise BoardError(
                f"no {missing} line before the piles: {game.a_title} board starts with a 'Talon:' and a "
                f"'Foundations:' line, found {line!r}",
                source=source,
                line=number,
            )
        if name not in headers:  # a Talon line in a game without one
            problem = (
                f"a Talon line, as in Golf: {game.title} has no talon{_GIVE_THE_GAME}"
                if game is DEFAULT_GAME
                else f"a Talon line, but {game.title} has no talon"
            )
            raise BoardError(problem, source=source, line=number)
        if name in labelled:
            raise BoardError(f"a second {label.strip()} line", source=source, line=number)
        labelled[name] = (number, rest.split())
    return labelled


_GIVE_THE_GAME = " (give the board's game)"
"""What a message of the default game's reader adds where the board looks like another game's: a board
read without its game is read as the default's (:data:`~pipeline.game.games.DEFAULT_GAME`)."""


def _written_start(game: Game) -> str:
    """How board text writes the card a game's foundation starts with when the deal does not choose it."""
    return EMPTY_FOUNDATION if game.foundation_start is FoundationStart.EMPTY else CARD_NAMES[ACE_OF_SPADES]


def _pile_at(
    pile_number: int, number: int, line: str, size: int, where: dict[int, int], source: str
) -> tuple[int, ...]:
    """The cards of the pile on line ``number``; ``where`` gives the line of every card read so far."""
    words = line.split()
    if len(words) != size:
        raise BoardError(
            f"pile {pile_number} has {len(words)} cards, expected {size}", source=source, line=number
        )
    return tuple(_cards_at(words, number, where, source))


def _cards_at(words: list[str], number: int, where: dict[int, int], source: str) -> list[int]:
    """The cards ``words`` on line ``number``, each new to ``where`` (which they join)."""
    cards = []
    for word in words:
        card = _card_at(word, source, number)
        if card in where:
            raise BoardError(
                f"duplicate card {card_name(card)} (also on line {where[card]})", source=source, line=number
            )
        where[card] = number
        cards.append(card)
    return cards


def _foundation(game: Game, words: list[str], number: int, where: dict[int, int], source: str) -> int | None:
    """The card the foundation line ``words`` names (None for All in a Row's ``-``), checked against ``game``."""
    if game.foundation_start is FoundationStart.EMPTY:
        if words != [EMPTY_FOUNDATION]:
            found = " ".join(["Foundations:", *words])
            raise BoardError(
                f"{game.title} starts with an empty foundation: expected 'Foundations: -', found {found!r}",
                source=source,
                line=number,
            )
        return None
    ace = game.foundation_start is FoundationStart.ACE_OF_SPADES
    if words == [EMPTY_FOUNDATION]:
        starts = "AS" if ace else "a card on the foundation"
        hint = _GIVE_THE_GAME if game is DEFAULT_GAME else ""
        raise BoardError(
            f"an empty foundation, as in All in a Row: {game.a_title} deal starts with {starts}{hint}",
            source=source,
            line=number,
        )
    if len(words) != 1:
        raise BoardError("the foundation line must name exactly one card", source=source, line=number)
    card = _card_at(words[0], source, number)
    if ace and card != ACE_OF_SPADES:
        raise BoardError(
            f"foundation is {card_name(card)}, a deal starts with AS", source=source, line=number
        )
    where[card] = number
    return card


_CARD_OF_NAME = {name: card for card, name in enumerate(CARD_NAMES)}  # the usual spelling, looked up at once


def _card_at(word: str, source: str, line: int) -> int:
    card = _CARD_OF_NAME.get(word)
    if card is not None:
        return card
    try:
        return parse_card(word)
    except CardError as error:
        raise BoardError(str(error), source=source, line=line) from None
