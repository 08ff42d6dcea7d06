"""A PNG picture of a deal as a player sees it: seventeen fans of three cards and the black hole.

The foundation (the A♠) sits at the top left, the title beside it; the piles
follow in rows of ``PILES_PER_ROW``, pile 0 first, each labelled with its
number (the numbers a solution uses). A pile fans to the right from its
covered card to its free card, which is the one shown whole. Every card is a
white rounded rectangle with its rank and suit in the top-left corner and a
large suit in the middle; hearts and diamonds are red. The picture is
``WIDTH`` x ``HEIGHT`` pixels on a green table, drawn and written as the
charts are (:func:`pipeline.reports.charts.png_figure`): the same deal and title give
the same bytes for a given matplotlib.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.files import check_writable
from pipeline.game.cards import ACE_OF_SPADES, RANKS, SUIT_SYMBOLS, rank_of, suit_of
from pipeline.game.deal import NUM_PILES, PILE_SIZE, Deal
from pipeline.game.shuffles import deal_of_id
from pipeline.packs.folders import find_deal
from pipeline.reports.charts import HEIGHT, WIDTH, png_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes


# Layout in pixels, measured from the picture's top-left corner.
CARD_WIDTH = 90
CARD_HEIGHT = 126
CORNER_RADIUS = 8
FAN_STEP = 34  # how much of a covered card shows to the left of the card on it
PILE_WIDTH = CARD_WIDTH + (PILE_SIZE - 1) * FAN_STEP
PILES_PER_ROW = 6
PILE_GAP = 32
MARGIN = (WIDTH - PILES_PER_ROW * PILE_WIDTH - (PILES_PER_ROW - 1) * PILE_GAP) // 2
FOUNDATION_TOP = 60
PILES_TOP = 240
ROW_STEP = 170  # a card, its pile label and the gap below

TABLE_GREEN = "#0b6e3a"
CARD_EDGE = "#333333"
RED = "#c8102e"
BLACK = "#1a1a1a"
LABEL = "#d8efe0"


def card_face(card: int) -> tuple[str, str, str]:
    """The rank as printed on the card, its suit symbol, and its colour.

    >>> from pipeline.game.cards import parse_card
    >>> card_face(parse_card("TD"))
    ('10', '♦', '#c8102e')
    >>> card_face(parse_card("QS"))
    ('Q', '♠', '#1a1a1a')
    """
    rank = RANKS[rank_of(card)]
    suit = suit_of(card)
    return ("10" if rank == "T" else rank), SUIT_SYMBOLS[suit], (RED if SUIT_SYMBOLS[suit] in "♥♦" else BLACK)


def pile_origin(pile: int) -> tuple[int, int]:
    """The top-left corner, in pixels, of ``pile``'s covered card; the short last row is centred.

    >>> pile_origin(0), pile_origin(6), pile_origin(12)
    ((46, 240), (46, 410), (141, 580))
    """
    row, column = divmod(pile, PILES_PER_ROW)
    in_row = min(PILES_PER_ROW, NUM_PILES - row * PILES_PER_ROW)
    indent = (PILES_PER_ROW - in_row) * (PILE_WIDTH + PILE_GAP) // 2
    return MARGIN + indent + column * (PILE_WIDTH + PILE_GAP), PILES_TOP + row * ROW_STEP


def draw_deal(deal: Deal, path: Path, *, title: str = "") -> None:
    """Write a PNG picture of ``deal`` at the start of play to ``path``, with ``title`` at the top."""
    with png_figure(path, width=WIDTH, height=HEIGHT) as figure:
        figure.set_facecolor(TABLE_GREEN)
        axes = figure.add_axes((0, 0, 1, 1))
        axes.set_axis_off()
        axes.set_xlim(0, WIDTH)
        axes.set_ylim(HEIGHT, 0)  # y grows downwards, as in the layout constants
        layer = 0
        _card(axes, ACE_OF_SPADES, MARGIN, FOUNDATION_TOP, layer)
        _label(axes, "foundation", MARGIN + CARD_WIDTH / 2, FOUNDATION_TOP + CARD_HEIGHT + 6)
        if title:
            axes.text(
                MARGIN + CARD_WIDTH + 40,
                FOUNDATION_TOP + CARD_HEIGHT / 2,
                title,
                color="white",
                fontsize=20,
                ha="left",
                va="center",
            )
        for number, pile in enumerate(deal.piles):
            left, top = pile_origin(number)
            for depth, card in enumerate(pile):
                layer += 1
                _card(axes, card, left + depth * FAN_STEP, top, layer)
            _label(axes, f"pile {number}", left + PILE_WIDTH / 2, top + CARD_HEIGHT + 6)


def _card(axes: Axes, card: int, left: float, top: float, layer: int) -> None:
    """One card with its top-left corner at (``left``, ``top``), above every card of a lower ``layer``."""
    from matplotlib.patches import FancyBboxPatch

    rank, symbol, colour = card_face(card)
    z = 2 * layer + 1  # the card's face, then its text, above every earlier card
    axes.add_patch(
        FancyBboxPatch(
            (left, top),
            CARD_WIDTH,
            CARD_HEIGHT,
            boxstyle=f"round,pad=0,rounding_size={CORNER_RADIUS}",
            facecolor="white",
            edgecolor=CARD_EDGE,
            linewidth=1,
            zorder=z,
        )
    )
    corner: dict[str, Any] = {
        "color": colour,
        "ha": "center",
        "va": "top",
        "zorder": z + 1,
        "fontweight": "bold",
    }
    axes.text(left + FAN_STEP / 2, top + 6, rank, fontsize=14, **corner)
    axes.text(left + FAN_STEP / 2, top + 28, symbol, fontsize=14, **corner)
    axes.text(
        left + CARD_WIDTH / 2 + FAN_STEP / 4,
        top + CARD_HEIGHT / 2 + 10,
        symbol,
        fontsize=34,
        color=colour,
        ha="center",
        va="center",
        zorder=z + 1,
    )


def _label(axes: Axes, text: str, centre: float, top: float) -> None:
    axes.text(centre, top, text, color=LABEL, fontsize=11, ha="center", va="top")


def draw_deal_of_id(deal_id: str, path: Path, *, pack: Path | None = None) -> Deal:
    """Draw the deal ``deal_id`` (:func:`draw_deal`, titled with its id) and return it.

    The deal is looked up in the pack folder ``pack`` when given; else the id
    itself says the deal (``seed-SEED-INDEX``, ``pysol-NUMBER``). ``path`` is
    checked first (:func:`pipeline.files.check_writable`; not inside ``pack``),
    before the deal is looked up or dealt.
    """
    check_writable(path, inputs=[pack] if pack else [])
    deal = find_deal(pack, deal_id) if pack else deal_of_id(deal_id)
    draw_deal(deal, path, title=deal_id)
    return deal
