"""A deal of Black Hole (17 piles of 3 under the A♠) and its board text.

Board text (docs/rules.md): a ``Foundations: AS`` line, then one line per pile,
pile 0 first, cards listed from the covered card to the free one (the
right-most card is playable). A file may hold several boards separated by
blank lines.

>>> deal = Deal.from_board_text(EXAMPLE_BOARD)
>>> deal.to_board_text() == EXAMPLE_BOARD
True
>>> card_name(deal.top_card(0))
'TH'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import BlackholeError, located
from pipeline.game.cards import ACE_OF_SPADES, CARD_NAMES, NUM_CARDS, CardError, card_name, parse_card

NUM_PILES = 17
PILE_SIZE = 3
BOARD_LINES = 1 + NUM_PILES
"""Lines of one board: the foundation line, then a line per pile."""
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


@dataclass(frozen=True)
class Deal:
    """Seventeen piles of three cards, each listed bottom (covered) to top (free).

    The foundation always starts with the A♠, which is not in any pile.
    """

    piles: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        problem = deal_problem(self.piles)
        if problem:
            raise BoardError(problem)

    def __repr__(self) -> str:
        return f"Deal.from_board_text({self.to_board_text()!r})"

    def top_card(self, pile: int) -> int:
        """The free card of ``pile`` at the start of play."""
        return self.piles[pile][-1]

    def cards(self) -> tuple[int, ...]:
        """The 51 dealt cards, pile by pile, bottom to top."""
        return tuple(card for pile in self.piles for card in pile)

    def to_board_text(self) -> str:
        """Board text, one trailing newline."""
        lines = ["Foundations: AS"]
        # the cards were checked when the deal was made: no card_name check per card
        lines += [" ".join([CARD_NAMES[card] for card in pile]) for pile in self.piles]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_cards(cls, cards: list[int] | tuple[int, ...]) -> Deal:
        """The deal whose piles take ``cards`` three at a time, bottom to top."""
        return cls(tuple(tuple(cards[i : i + PILE_SIZE]) for i in range(0, len(cards), PILE_SIZE)))

    @classmethod
    def from_board_text(cls, text: str, *, source: str = "<board>") -> Deal:
        """Parse exactly one board; errors name ``source`` and the line."""
        deals = list(iter_boards(text, source=source))
        if len(deals) != 1:
            raise BoardError(f"expected one board, found {len(deals)}", source=source)
        return deals[0]


def deal_problem(piles: tuple[tuple[int, ...], ...]) -> str | None:
    """Why ``piles`` is not a deal, or None when it is one."""
    if len(piles) != NUM_PILES:
        return f"expected {NUM_PILES} piles, found {len(piles)}"
    seen: set[int] = set()
    for number, pile in enumerate(piles):
        if len(pile) != PILE_SIZE:
            return f"pile {number} has {len(pile)} cards, expected {PILE_SIZE}"
        for card in pile:
            if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
                return f"pile {number} holds {card!r}, which is not a card"
            if card == ACE_OF_SPADES:
                return f"pile {number} holds AS, which is the foundation"
            if card in seen:
                return f"duplicate card {card_name(card)}"
            seen.add(card)
    return None


def iter_boards(text: str, *, source: str = "<board>") -> Iterator[Deal]:
    """Every board in ``text`` (boards separated by blank lines), in order.

    Raises BoardError naming ``source``, the line number and the problem.
    """
    found = False
    for _, deal in numbered_boards(text.splitlines(), source=source):
        found = True
        yield deal
    if not found:
        raise BoardError("no board found (empty input)", source=source)


def numbered_boards(lines: Iterable[str], *, source: str = "<board>") -> Iterator[tuple[int, Deal]]:
    """Each board of ``lines`` (line 1 first, boards separated by blank lines) and the number of its first line.

    Lines are taken one at a time and a board is parsed as soon as its block
    ends, so a bad board is reported before a line after it is taken. A block
    ends at a blank line, at the end, or at the line one past a whole board
    (:data:`BOARD_LINES`), which is an error there however long the block goes
    on; so is a line longer than :data:`LONGEST_LINE` once stripped. Memory
    holds one block, whatever the input.

    >>> [first for first, _ in numbered_boards(["", *EXAMPLE_BOARD.splitlines(), "", *EXAMPLE_BOARD.splitlines()])]
    [2, 21]
    """
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line:
            if len(line) > LONGEST_LINE:
                raise BoardError(
                    f"a line of more than {LONGEST_LINE} characters: no board has one",
                    source=source,
                    line=number,
                )
            block.append((number, line))
            if len(block) <= BOARD_LINES:
                continue
        elif not block:
            continue
        yield block[0][0], _parse_block(block, source)
        block = []
    if block:
        yield block[0][0], _parse_block(block, source)


def read_boards(path: Path) -> list[Deal]:
    """Every board in the file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise BoardError(f"not UTF-8 text ({error.reason})", source=str(path)) from None
    return list(iter_boards(text, source=str(path)))


def _parse_block(block: list[tuple[int, str]], source: str) -> Deal:
    first_number, first = block[0]
    label, _, rest = first.partition(":")
    if label.strip().lower() not in ("foundations", "foundation"):
        raise BoardError(f"expected 'Foundations: AS', found {first!r}", source=source, line=first_number)
    foundation_words = rest.split()
    if len(foundation_words) != 1:
        raise BoardError("the foundation line must name exactly one card", source=source, line=first_number)
    foundation = _card_at(foundation_words[0], source, first_number)
    if foundation != ACE_OF_SPADES:
        raise BoardError(
            f"foundation is {card_name(foundation)}, a deal starts with AS", source=source, line=first_number
        )
    pile_lines = block[1:]
    if len(pile_lines) != NUM_PILES:
        last = pile_lines[-1][0] if pile_lines else first_number
        # numbered_boards stops a block at the first line too many: there may be more
        found = f"{len(pile_lines)} or more" if len(pile_lines) > NUM_PILES else len(pile_lines)
        raise BoardError(f"expected {NUM_PILES} piles, found {found}", source=source, line=last)
    where: dict[int, int] = {ACE_OF_SPADES: first_number}
    piles = []
    for pile_number, (number, line) in enumerate(pile_lines):
        words = line.split()
        if len(words) != PILE_SIZE:
            raise BoardError(
                f"pile {pile_number} has {len(words)} cards, expected {PILE_SIZE}", source=source, line=number
            )
        pile = []
        for word in words:
            card = _card_at(word, source, number)
            if card in where:
                raise BoardError(
                    f"duplicate card {card_name(card)} (also on line {where[card]})",
                    source=source,
                    line=number,
                )
            where[card] = number
            pile.append(card)
        piles.append(tuple(pile))
    return Deal(tuple(piles))


_CARD_OF_NAME = {name: card for card, name in enumerate(CARD_NAMES)}  # the usual spelling, looked up at once


def _card_at(word: str, source: str, line: int) -> int:
    card = _CARD_OF_NAME.get(word)
    if card is not None:
        return card
    try:
        return parse_card(word)
    except CardError as error:
        raise BoardError(str(error), source=source, line=line) from None
