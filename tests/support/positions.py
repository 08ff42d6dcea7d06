"""Hand-built positions for the engine's tests: a few named cards left, every other card played."""

from __future__ import annotations

from pipeline.game.cards import parse_card
from pipeline.game.deal import Deal
from pipeline.game.rules import Position


def hand_built(remaining: list[list[str]], foundation_rank: int) -> tuple[Deal, Position]:
    """A position whose first piles hold ``remaining`` (bottom card first); every other card is played."""
    chosen = [[parse_card(name) for name in pile] for pile in remaining]
    used = {card for pile in chosen for card in pile} | {parse_card("AS")}
    rest = iter(card for card in range(52) if card not in used)
    piles, heights = [], []
    for pile in range(17):
        cards = chosen[pile] if pile < len(chosen) else []
        piles.append(tuple(cards + [next(rest) for _ in range(3 - len(cards))]))
        heights.append(len(cards))
    deal = Deal(tuple(piles))
    return deal, Position(deal, tuple(heights), foundation_rank)
