"""Dealing benchmark: deals per second of each way this project deals.

- seeded deals (:func:`pipeline.game.shuffles.seeded_deal`, one at a time), over 20,000;
- PySol FC deals one at a time (:func:`pipeline.game.shuffles.pysol_deal`, the port's
  scalar path) and through ``pysol_cards`` (the reference the port replaced), over 2,000;
- the vectorised port (:func:`pipeline.game.pysol.pysol_cards_of`) over 1,000,000 numbers
  from 1 and 1,000,000 numbers ending at MAX_PYSOL_DEAL;
- the deals table of PySol FC deals 1 to 1,000,000 (:func:`pipeline.packs.sources.pysol_deals`:
  dealing plus board text).

All on one core (numpy runs single-threaded here). Prints a Markdown table and
writes output/bench/dealing.json.

    .venv/bin/python bench/bench_dealing.py
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from pipeline.game.pysol import pysol_cards_of
from pipeline.game.shuffles import MAX_PYSOL_DEAL, pysol_deal, seeded_deal
from pipeline.packs.sources import pysol_deals

SEEDED_DEALS = 20_000
SINGLE_DEALS = 2_000
VECTOR_DEALS = 1_000_000
ROOT = Path(__file__).resolve().parent.parent


def rate(count: int, work: Callable[[], object]) -> tuple[float, float]:
    """(deals per second, seconds) of ``work``, which makes ``count`` deals."""
    start = time.perf_counter()
    work()
    seconds = time.perf_counter() - start
    return count / seconds, seconds


def reference_deals(first: int, count: int) -> None:
    for number in range(first, first + count):
        Game("black_hole", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))


def main() -> None:
    pysol_cards_of(1, 10)  # load numpy and build the constant tables outside the clock
    near_max = MAX_PYSOL_DEAL - VECTOR_DEALS + 1
    rows = {
        f"seeded_deal, {SEEDED_DEALS:,} deals of seed 1": rate(
            SEEDED_DEALS, lambda: [seeded_deal(1, index) for index in range(SEEDED_DEALS)]
        ),
        f"pysol_cards (reference), {SINGLE_DEALS:,} deals from 40,001": rate(
            SINGLE_DEALS, lambda: reference_deals(40_001, SINGLE_DEALS)
        ),
        f"pysol_deal (port, one at a time), {SINGLE_DEALS:,} deals from 40,001": rate(
            SINGLE_DEALS, lambda: [pysol_deal(number) for number in range(40_001, 40_001 + SINGLE_DEALS)]
        ),
        f"pysol_cards_of, {VECTOR_DEALS:,} deals from 1": rate(
            VECTOR_DEALS, lambda: pysol_cards_of(1, VECTOR_DEALS)
        ),
        f"pysol_cards_of, {VECTOR_DEALS:,} deals to MAX_PYSOL_DEAL": rate(
            VECTOR_DEALS, lambda: pysol_cards_of(near_max, VECTOR_DEALS)
        ),
        f"pysol_deals table (cards + board text), {VECTOR_DEALS:,} deals from 1": rate(
            VECTOR_DEALS, lambda: pysol_deals(first=1, count=VECTOR_DEALS)
        ),
    }
    print("| dealing | deals/s | seconds |")
    print("| --- | ---: | ---: |")
    for name, (per_second, seconds) in rows.items():
        print(f"| {name} | {per_second:,.0f} | {seconds:.2f} |")
    out = ROOT / "output" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    report = {name: {"deals_per_second": r, "seconds": s} for name, (r, s) in rows.items()}
    (out / "dealing.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
