"""A PNG picture of a deal as a player sees it: Black Hole's seventeen fans of three cards and the black hole,
or the layout of another game of the family.

The foundation sits at the top left, the title beside it; the piles follow
in rows (:class:`Layout`), pile 0 first, the short last row centred, each
labelled with its number (the numbers a solution uses). A pile fans to the
right from its covered card to its free card, which is the one shown whole.
Every card is a white rounded rectangle with its rank and suit in the
top-left corner and a large suit in the middle; hearts and diamonds are red.
The picture is ``WIDTH`` x ``HEIGHT`` pixels on a green table, drawn and
written as the charts are (:func:`pipeline.reports.charts.png_figure`): the
same deal and title give the same bytes for a given matplotlib.

Each game's layout:

- Black Hole: the A♠ on the foundation, 17 fans of 3 in rows of 6;
- All in a Row: the foundation empty (an outline that says so), 13 fans of 4
  in rows of 5;
- Golf (all three rule sets): the foundation's dealt card, then the talon face
  down with its count of cards left, 7 fans of 5 in rows of 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.files import check_writable
from pipeline.game.cards import RANKS, SUIT_SYMBOLS, rank_of, suit_of
from pipeline.game.deal import NUM_PILES, PILE_SIZE, Deal
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.shuffles import deal_of_id
from pipeline.packs.family import same_game
from pipeline.packs.folders import find_deal
from pipeline.packs.manifest import read_manifest
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
TALON_GAP = 40  # between the foundation and Golf's talon, and before the title

TABLE_GREEN = "#0b6e3a"
CARD_EDGE = "#333333"
RED = "#c8102e"
BLACK = "#1a1a1a"
LABEL = "#d8efe0"
CARD_BACK = "#7a1f2b"  # the talon's face-down cards


@dataclass(frozen=True)
class Layout:
    """Where a game's piles go: ``num_piles`` fans of ``pile_size`` cards, ``per_row`` of them a row.

    >>> from pipeline.game.games import game_named
    >>> layout_of(game_named("golf")).pile_width, layout_of(game_named("golf")).margin
    (226, 100)
    """

    num_piles: int
    pile_size: int
    per_row: int

    @property
    def pile_width(self) -> int:
        """A pile's width in pixels: a card and a fan step for each covered card."""
        return CARD_WIDTH + (self.pile_size - 1) * FAN_STEP

    @property
    def margin(self) -> int:
        """The space left and right of a full row of piles, which also places the foundation."""
        return (WIDTH - self.per_row * self.pile_width - (self.per_row - 1) * PILE_GAP) // 2


BLACK_HOLE_LAYOUT = Layout(NUM_PILES, PILE_SIZE, PILES_PER_ROW)
LAYOUTS = {
    "black_hole": BLACK_HOLE_LAYOUT,
    "all_in_a_row": Layout(13, 4, 5),
    "golf": Layout(7, 5, 4),
}
"""Each game's layout by the name of its deal's layout (:attr:`pipeline.game.games.Game.layout`)."""


def layout_of(game: Game) -> Layout:
    """The picture's layout of ``game``'s deals.

    >>> from pipeline.game.games import game_named
    >>> layout_of(game_named("all_in_a_row"))
    Layout(num_piles=13, pile_size=4, per_row=5)
    """
    return LAYOUTS[game.layout]


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


def pile_origin(pile: int, layout: Layout = BLACK_HOLE_LAYOUT) -> tuple[int, int]:
    """The top-left corner, in pixels, of ``pile``'s covered card in ``layout`` (Black Hole's by default);
    the short last row is centred.

    >>> pile_origin(0), pile_origin(6), pile_origin(12)
    ((46, 240), (46, 410), (141, 580))
    >>> from pipeline.game.games import game_named
    >>> pile_origin(10, layout_of(game_named("all_in_a_row"))), pile_origin(4, layout_of(game_named("golf")))
    ((280, 580), (229, 410))
    """
    row, column = divmod(pile, layout.per_row)
    in_row = min(layout.per_row, layout.num_piles - row * layout.per_row)
    step = layout.pile_width + PILE_GAP
    indent = (layout.per_row - in_row) * step // 2
    return layout.margin + indent + column * step, PILES_TOP + row * ROW_STEP


def talon_origin(layout: Layout) -> tuple[int, int]:
    """The top-left corner of Golf's talon: beside the foundation.

    >>> from pipeline.game.games import game_named
    >>> talon_origin(layout_of(game_named("golf")))
    (230, 60)
    """
    return layout.margin + CARD_WIDTH + TALON_GAP, FOUNDATION_TOP


def draw_deal(deal: Deal, path: Path, *, title: str = "") -> None:
    """Write a PNG picture of ``deal`` at the start of play to ``path``, with ``title`` at the top."""
    layout = layout_of(deal.game)
    margin = layout.margin
    with png_figure(path, width=WIDTH, height=HEIGHT) as figure:
        figure.set_facecolor(TABLE_GREEN)
        axes = figure.add_axes((0, 0, 1, 1))
        axes.set_axis_off()
        axes.set_xlim(0, WIDTH)
        axes.set_ylim(HEIGHT, 0)  # y grows downwards, as in the layout constants
        layer = 0
        if deal.foundation is None:  # All in a Row's: any free card may start it
            _empty_slot(axes, margin, FOUNDATION_TOP)
        else:
            _card(axes, deal.foundation, margin, FOUNDATION_TOP, layer)
        _label(axes, "foundation", margin + CARD_WIDTH / 2, FOUNDATION_TOP + CARD_HEIGHT + 6)
        title_left = margin + CARD_WIDTH + TALON_GAP
        if deal.game.has_talon:
            _talon(axes, len(deal.talon), *talon_origin(layout))
            title_left += CARD_WIDTH + TALON_GAP
        if title:
            axes.text(
                title_left,
                FOUNDATION_TOP + CARD_HEIGHT / 2,
                title,
                color="white",
                fontsize=20,
                ha="left",
                va="center",
            )
        for number, pile in enumerate(deal.piles):
            left, top = pile_origin(number, layout)
            for depth, card in enumerate(pile):
                layer += 1
                _card(axes, card, left + depth * FAN_STEP, top, layer)
            # numbered from 1, as the gallery's piles: a player counts them so
            _label(axes, f"pile {number + 1}", left + layout.pile_width / 2, top + CARD_HEIGHT + 6)


def _card(axes: Axes, card: int, left: float, top: float, layer: int) -> None:
    """One card with its top-left corner at (``left``, ``top``), above every card of a lower ``layer``."""
    rank, symbol, colour = card_face(card)
    z = 2 * layer + 1  # the card's face, then its text, above every earlier card
    _card_outline(axes, left, top, facecolor="white", edgecolor=CARD_EDGE, linewidth=1, zorder=z)
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


def _card_outline(axes: Axes, left: float, top: float, **style: Any) -> None:
    """A card's rounded outline with its top-left corner at (``left``, ``top``), drawn as ``style`` says
    (matplotlib's FancyBboxPatch keywords)."""
    from matplotlib.patches import FancyBboxPatch

    boxstyle = f"round,pad=0,rounding_size={CORNER_RADIUS}"
    axes.add_patch(FancyBboxPatch((left, top), CARD_WIDTH, CARD_HEIGHT, boxstyle=boxstyle, **style))


def _label(axes: Axes, text: str, centre: float, top: float) -> None:
    axes.text(centre, top, text, color=LABEL, fontsize=11, ha="center", va="top")


def _empty_slot(axes: Axes, left: float, top: float) -> None:
    """An empty foundation: a dashed outline of a card, with "empty" in it."""
    _card_outline(axes, left, top, facecolor="none", edgecolor=LABEL, linewidth=2, linestyle="--")
    axes.text(
        left + CARD_WIDTH / 2,
        top + CARD_HEIGHT / 2,
        "empty",
        color=LABEL,
        fontsize=12,
        ha="center",
        va="center",
    )


def _talon(axes: Axes, left_in_it: int, left: float, top: float) -> None:
    """Golf's talon: a face-down card with the count of cards left on it, labelled below."""
    from matplotlib.patches import FancyBboxPatch

    for inset, colour in ((0, CARD_BACK), (6, "none")):
        axes.add_patch(
            FancyBboxPatch(
                (left + inset, top + inset),
                CARD_WIDTH - 2 * inset,
                CARD_HEIGHT - 2 * inset,
                boxstyle=f"round,pad=0,rounding_size={CORNER_RADIUS - inset / 2}",
                facecolor=colour,
                edgecolor=CARD_EDGE if inset == 0 else "white",
                linewidth=1 if inset == 0 else 2,
            )
        )
    axes.text(
        left + CARD_WIDTH / 2,
        top + CARD_HEIGHT / 2,
        str(left_in_it),
        color="white",
        fontsize=26,
        fontweight="bold",
        ha="center",
        va="center",
    )
    cards = "card" if left_in_it == 1 else "cards"
    _label(axes, f"talon: {left_in_it} {cards} left", left + CARD_WIDTH / 2, top + CARD_HEIGHT + 6)


def draw_deal_of_id(
    deal_id: str, path: Path | None, *, pack: Path | None = None, game: Game | None = None
) -> Deal:
    """Draw the deal ``deal_id`` to ``path`` (:func:`draw_deal`, titled with its id) and return it; with
    ``path`` None, only find the deal and return it.

    The deal is looked up in the pack folder ``pack`` when given, as a deal of
    the pack's game (which ``game``, when given, must be: GameMixError); else the id itself says the deal of
    ``game`` (Black Hole when None: ``seed-SEED-INDEX``, ``pysol-NUMBER``). ``path`` is
    checked first (:func:`pipeline.files.check_writable`; not inside ``pack``; not a
    device such as ``/dev/null``, nor standard output), before the deal is looked up or dealt.
    """
    if path is not None:
        check_writable(path, inputs=[pack] if pack else [])
    if pack:
        same_game(read_manifest(pack).played, game, source=str(pack))
        deal = find_deal(pack, deal_id)
    else:
        deal = deal_of_id(deal_id, game or BLACK_HOLE)
    if path is not None:
        draw_deal(deal, path, title=deal_id)
    return deal
