"""The hardest deals found so far (tests/data/hardest.csv): golden verdicts, and the reference's word on them."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pipeline.engine.reference import reference_solve
from pipeline.engine.solver import solve
from pipeline.game.rules import replay
from pipeline.game.shuffles import deal_of_id, seeded_deal
from pipeline.game.verdicts import Verdict

HARDEST = Path(__file__).parents[1] / "data" / "hardest.csv"


def hardest_deals() -> list[dict]:
    with HARDEST.open(newline="") as rows:
        return list(csv.DictReader(rows))


IDS = [row["deal_id"] for row in hardest_deals()]


@pytest.mark.parametrize("row", hardest_deals(), ids=IDS)
def test_hardest_deals_keep_their_verdicts(row):
    deal = deal_of_id(row["deal_id"])
    result = solve(deal)
    assert result.verdict is Verdict(row["verdict"])
    assert result.max_cards_played == int(row["max_cards_played"])
    if result.verdict is Verdict.SOLVED:
        assert replay(deal, result.solution).is_won


@pytest.mark.slow
@pytest.mark.parametrize("row", hardest_deals(), ids=IDS)
def test_reference_search_agrees_on_the_hardest_deals(row):
    result = reference_solve(deal_of_id(row["deal_id"]), max_nodes=2_000_000_000)
    assert result.verdict is Verdict(row["verdict"])
    assert result.max_cards_played == int(row["max_cards_played"])


@pytest.mark.slow
def test_solver_agrees_with_the_reference_on_2000_more_deals():
    for index in range(2_000):
        deal = seeded_deal(1, index)
        fast, plain = solve(deal), reference_solve(deal, max_nodes=2_000_000_000)
        assert (fast.verdict, fast.max_cards_played) == (plain.verdict, plain.max_cards_played), index
