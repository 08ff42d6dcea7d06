"""Shared Hypothesis strategies: deals, and board text spelled every accepted way."""

from __future__ import annotations

from hypothesis import strategies as st

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS, RANKS, SUITS, rank_of, suit_of
from pipeline.game.deal import Deal

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
