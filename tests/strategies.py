"""Shared Hypothesis strategies: deals, and board text spelled every accepted way."""

from __future__ import annotations

from hypothesis import strategies as st

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS, RANKS, SUITS, rank_of, suit_of
from pipeline.game.deal import EMPTY_FOUNDATION, NUM_PILES, PILE_SIZE, Deal
from pipeline.game.games import BLACK_HOLE, Game

DEALT_CARDS = tuple(card for card in range(NUM_CARDS) if card != ACE_OF_SPADES)

# docs/rules.md: suits are case-insensitive and the symbols ♠ ♥ ♦ ♣ are accepted.
SUIT_SPELLINGS = {"H": ("H", "h", "♥"), "C": ("C", "c", "♣"), "D": ("D", "d", "♦"), "S": ("S", "s", "♠")}


def deals() -> st.SearchStrategy[Deal]:
    """Any deal: a permutation of the 51 cards other than the A♠, dealt three a pile."""
    return st.permutations(DEALT_CARDS).map(Deal.from_cards)


@st.composite
def card_spellings(draw: st.DrawFn, card: int) -> str:
    """One accepted spelling of ``card``: any case, ``10`` or ``T``, letter or symbol suit."""
    rank = RANKS[rank_of(card)]
    rank_choices = ("T", "t", "10") if rank == "T" else (rank, rank.lower())
    return draw(st.sampled_from(rank_choices)) + draw(st.sampled_from(SUIT_SPELLINGS[SUITS[suit_of(card)]]))


_SEPARATORS = st.sampled_from((" ", "  ", "\t", " \t "))
_TRAILING = st.sampled_from(("", " ", "  ", "\t", " \t"))


@st.composite
def board_texts(draw: st.DrawFn, deal: Deal) -> str:
    """Board text for ``deal`` with varied card spellings, spacing, trailing whitespace and line ends."""
    newline = draw(st.sampled_from(("\n", "\r\n")))
    lines = ["Foundations: " + draw(card_spellings(ACE_OF_SPADES)) + draw(_TRAILING)]
    for pile in deal.piles:
        words = [draw(card_spellings(card)) for card in pile]
        line = words[0]
        for word in words[1:]:
            line += draw(_SEPARATORS) + word
        lines.append(line + draw(_TRAILING))
    return newline.join(lines) + draw(st.sampled_from(("", newline)))


@st.composite
def boards(draw: st.DrawFn) -> tuple[Deal, str]:
    """A deal and one of its variant board texts."""
    deal = draw(deals())
    return deal, draw(board_texts(deal))


@st.composite
def multi_boards(draw: st.DrawFn, max_boards: int = 3) -> tuple[list[Deal], str]:
    """Several deals and one file holding them, separated by one or more blank
    (possibly whitespace-only) lines, with optional blank lines at either end."""
    found = draw(st.lists(deals(), min_size=1, max_size=max_boards))
    blank = st.sampled_from(("", " ", "\t", "   "))
    gap = st.lists(blank, min_size=1, max_size=3).map(lambda lines: "".join(line + "\n" for line in lines))
    text = draw(st.lists(blank, max_size=2).map(lambda lines: "".join(line + "\n" for line in lines)))
    for number, deal in enumerate(found):
        if number:
            text += draw(gap)
        text += draw(board_texts(deal)).replace("\r\n", "\n").rstrip("\n") + "\n"
    text += draw(st.lists(blank, max_size=2).map(lambda lines: "".join(line + "\n" for line in lines)))
    return found, text


def family_deals(game: Game) -> st.SearchStrategy[Deal]:
    """Any deal of ``game``: a permutation of its cards (Black Hole's 51, the others' 52) laid out by
    :meth:`Deal.from_cards`."""
    cards = DEALT_CARDS if game is BLACK_HOLE else tuple(range(NUM_CARDS))
    return st.permutations(cards).map(lambda shuffled: Deal.from_cards(shuffled, game))


def _spelled_line(draw: st.DrawFn, words: list[str]) -> str:
    line = words[0]
    for word in words[1:]:
        line += draw(_SEPARATORS) + word
    return line + draw(_TRAILING)


@st.composite
def family_board_texts(draw: st.DrawFn, deal: Deal) -> str:
    """Board text for ``deal`` of any game with varied card spellings, spacing and line ends, and a Golf
    Talon line before or after the Foundations line."""
    newline = draw(st.sampled_from(("\n", "\r\n")))
    foundation = EMPTY_FOUNDATION if deal.foundation is None else draw(card_spellings(deal.foundation))
    headers = ["Foundations: " + foundation + draw(_TRAILING)]
    if deal.game.has_talon:
        talon = "Talon: " + _spelled_line(draw, [draw(card_spellings(card)) for card in deal.talon])
        headers.insert(draw(st.integers(0, 1)), talon)
    piles = [_spelled_line(draw, [draw(card_spellings(card)) for card in pile]) for pile in deal.piles]
    return newline.join(headers + piles) + draw(st.sampled_from(("", newline)))


@st.composite
def family_boards(draw: st.DrawFn, game: Game) -> tuple[Deal, str]:
    """A deal of ``game`` and one of its variant board texts."""
    deal = draw(family_deals(game))
    return deal, draw(family_board_texts(deal))


def json_values(max_leaves: int = 20) -> st.SearchStrategy[object]:
    """Any JSON value: null, booleans, integers, finite floats, strings, and arrays and objects of them."""
    finite = st.floats(allow_nan=False, allow_infinity=False)
    return st.recursive(
        st.none() | st.booleans() | st.integers() | finite | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=max_leaves,
    )


# --- damaged text and TOML documents, for the parsers' fuzz tests (tests/test_fuzz_parsers.py) ---

# characters that parsers treat specially: line ends of every kind, NUL, a byte order mark, TOML punctuation
_AWKWARD = st.sampled_from(
    list("\x00\r\n\t \x0b\x0c\x1c\x85\u2028\ufeff[]=\"'#.,{}:\\") + ["10", "AS", "nan", "inf"]
)


@st.composite
def edited(draw: st.DrawFn, text: str, max_edits: int = 4) -> str:
    """``text`` after up to ``max_edits`` edits: a character inserted, deleted or replaced; a line repeated,
    dropped or swapped with the next."""
    for _ in range(draw(st.integers(1, max_edits))):
        lines = text.split("\n")
        at = draw(st.integers(0, len(text)))
        row = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(("insert", "delete", "replace", "repeat", "drop", "swap")))
        if kind in ("insert", "replace"):
            new = draw(_AWKWARD | st.characters(exclude_categories=("Cs",)))
            text = text[:at] + new + text[at + (kind == "replace") :]
        elif kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "repeat":
            text = "\n".join(lines[: row + 1] + lines[row:])
        elif kind == "drop":
            text = "\n".join(lines[:row] + lines[row + 1 :])
        elif row + 1 < len(lines):
            lines[row], lines[row + 1] = lines[row + 1], lines[row]
            text = "\n".join(lines)
    return text


def toml_values(max_leaves: int = 6) -> st.SearchStrategy[object]:
    """Any TOML value: integers past 64 bits, floats with nan and inf, text with control characters,
    booleans, dates and times, arrays and inline tables."""
    scalars = (
        st.integers()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.sampled_from((0, 1, -1, 2**63 - 1, 2**63, 2**64, 10**400))
        | st.floats()
        | st.text(max_size=12)
        | st.booleans()
        | st.dates()
        | st.datetimes()
        | st.times()
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=max_leaves,
    )


def toml_documents(known: dict[str, list[str]]) -> st.SearchStrategy[dict[str, dict[str, object]]]:
    """TOML documents of tables, mostly the ``known`` tables and keys (``{table: [key, ...]}``), some others."""
    tables = st.sampled_from(sorted(known)) | st.text(min_size=1, max_size=8)

    def entries(table: str) -> st.SearchStrategy[dict[str, object]]:
        keys = st.sampled_from(known.get(table) or ["x"]) | st.text(min_size=1, max_size=8)
        return st.dictionaries(keys, toml_values(), max_size=6)

    return st.lists(tables, max_size=5, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: entries(name) for name in names})
    )


def toml_text(document: dict[str, dict[str, object]]) -> str:
    """``document`` written as TOML: one ``[table]`` per entry, every key and string quoted."""
    lines = []
    for table, entries in document.items():
        lines.append(f"[{_toml_string(table)}]")
        lines += [f"{_toml_string(key)} = {_toml_value(value)}" for key, value in entries.items()]
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_string(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and control characters escaped."""
    escaped = []
    for character in text:
        if character in '"\\':
            escaped.append("\\" + character)
        elif ord(character) < 0x20 or ord(character) == 0x7F:
            escaped.append(f"\\u{ord(character):04x}")
        else:
            escaped.append(character)
    return '"' + "".join(escaped) + '"'


def _walk_edges(end: int) -> list[int]:
    """How often a win ending on rank ``end`` steps between ranks r and r + 1 (index r), A = 0.

    A win's ranks, the A♠ first, show each rank 4 times: rank r touches its two
    steps 8 times, less one at each end of the walk. On a circle of 13 (odd)
    that fixes every count."""
    degree = [8 - (rank == 0) - (rank == end) for rank in range(len(RANKS))]
    for last in range(9):
        steps, before = [], last
        for rank in range(len(RANKS)):
            before = degree[rank] - before
            steps.append(before)
        if steps[-1] == last and min(steps) >= 0:
            return steps
    raise AssertionError(f"no walk ends on rank {end}")


def _joined(steps: list[int], at: int) -> bool:
    """Whether the steps left (counts by edge) form one piece touching rank ``at``, or none are left."""
    if not any(steps):
        return True
    pieces = sum(1 for edge, count in enumerate(steps) if count and not steps[edge - 1])
    return pieces <= 1 and bool(steps[at] or steps[at - 1])


@st.composite
def won_deals(draw: st.DrawFn) -> tuple[Deal, tuple[int, ...]]:
    """A winnable deal and a win of it, built backwards from a random winning line.

    The ranks played are a random walk around the circle using each rank's
    cards once (an Euler trail, drawn by Fleury's rule: never a step that
    cuts off the steps left); each rank's suits come in a random order; and
    a random order of the piles, each played three times, says where each
    card lies: the first card played from a pile is its top card.
    """
    chance = draw(st.randoms(use_true_random=False))
    steps = _walk_edges(draw(st.integers(0, len(RANKS) - 1)))
    ranks, here = [], 0
    for _ in range(len(DEALT_CARDS)):
        fine = []
        for move in (1, -1):
            edge = here if move == 1 else here - 1
            if steps[edge]:
                steps[edge] -= 1
                if _joined(steps, (here + move) % len(RANKS)):
                    fine.append(move)
                steps[edge] += 1
        move = chance.choice(fine)
        steps[here if move == 1 else here - 1] -= 1
        here = (here + move) % len(RANKS)
        ranks.append(here)
    suits = {
        rank: chance.sample([c for c in DEALT_CARDS if rank_of(c) == rank], ranks.count(rank))
        for rank in ranks
    }
    played = [suits[rank].pop() for rank in ranks]
    moves = [pile for pile in range(NUM_PILES) for _ in range(PILE_SIZE)]
    chance.shuffle(moves)
    piles: list[list[int]] = [[] for _ in range(NUM_PILES)]
    for pile, card in zip(moves, played, strict=True):
        piles[pile].insert(0, card)  # each card played from a pile lay on the ones played after it
    return Deal(tuple(tuple(pile) for pile in piles)), tuple(moves)
