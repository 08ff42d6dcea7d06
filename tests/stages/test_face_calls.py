"""The face's calls: the batch calls give what the one-deal calls give, in input order, on any number of
workers; arguments are checked where they enter; results turn into plain values."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline as blackhole
from pipeline.game.players import PLAYERS

ROOT = Path(__file__).resolve().parents[2]

# two wins, a loss, another win: the order shows in the verdicts
DEALS = [blackhole.seeded_deal(20261129, 0), blackhole.pysol_deal(1), blackhole.seeded_deal(20261129, 1)]
GOLF = blackhole.pysol_deal(2, blackhole.game_named("golf"))
SMALL_WALK = blackhole.GradeSettings(max_positions=200_000)  # wins past it are out_of_budget: a quick grade


def timeless(found: object) -> object:
    """``found`` (a SolveResult, Grade or Check) without its seconds, which no two runs share."""
    fields = {field.name for field in dataclasses.fields(found)}  # type: ignore[arg-type]
    cleared = {name: 0.0 for name in ("seconds", "grade_seconds", "cpsat_seconds") if name in fields}
    return dataclasses.replace(found, **cleared)  # type: ignore[type-var]


@pytest.mark.parametrize("jobs", [1, 2])
def test_solve_many_gives_each_deal_s_solve_in_input_order(jobs):
    deals = [*DEALS, GOLF, *DEALS]  # two games: chunks of one game each
    expected = [timeless(blackhole.solve(deal)) for deal in deals]
    found = blackhole.solve_many(iter(deals), jobs=jobs)  # a stream: its length unknown
    assert not isinstance(found, list)
    assert [timeless(result) for result in found] == expected
    assert [r.verdict.value for r in expected[:3]] == ["solved", "unsolvable", "solved"]


def test_solve_many_takes_its_settings():
    [result] = blackhole.solve_many([DEALS[0]], blackhole.SolveSettings(max_nodes=1))
    assert result.verdict is blackhole.Verdict.UNKNOWN


@pytest.mark.parametrize("jobs", [1, 2])
def test_grade_many_gives_each_deal_s_grade_in_input_order(jobs):
    deals = [*DEALS, GOLF]
    results = [blackhole.solve(deal) for deal in deals]
    expected = [
        timeless(blackhole.grade(deal, result, SMALL_WALK))
        for deal, result in zip(deals, results, strict=True)
    ]
    found = blackhole.grade_many((deal for deal in deals), iter(results), SMALL_WALK, jobs=jobs)
    assert [timeless(grade) for grade in found] == expected
    assert {grade.grade_status.value for grade in expected} >= {"exact"}


def test_grade_many_takes_the_results_solve_many_streams():
    deals = [DEALS[1], DEALS[0]]
    grades = blackhole.grade_many(deals, blackhole.solve_many(deals), SMALL_WALK)
    assert [grade.tier for grade in grades][0] is blackhole.Tier.UNSOLVABLE


@pytest.mark.parametrize("jobs", [1, 2])
def test_crosscheck_many_gives_each_deal_s_check_in_input_order(jobs):
    deals = DEALS[:2]
    results = [blackhole.solve(deal) for deal in deals]
    expected = [
        timeless(blackhole.crosscheck(deal, result)) for deal, result in zip(deals, results, strict=True)
    ]
    found = list(blackhole.crosscheck_many(deals, results, jobs=jobs))
    assert [timeless(check) for check in found] == expected
    assert [check.agrees_with(r.verdict.value) for check, r in zip(found, results, strict=True)] == [
        True,
        True,
    ]


def test_a_stream_closed_early_stops_cleanly():
    stream = blackhole.solve_many((blackhole.seeded_deal(5, index) for index in range(1000)), jobs=2)
    first = next(stream)
    stream.close()
    assert first == dataclasses.replace(blackhole.solve(blackhole.seeded_deal(5, 0)), seconds=first.seconds)


def test_the_progress_bar_is_on_stderr_and_the_results_alone_on_stdout():
    code = (
        "import pipeline as b\n"
        "deals = [b.seeded_deal(3, i) for i in range(5)]\n"
        "print(len(list(b.solve_many(deals, jobs=2, progress=True))))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert ran.stdout == "5\n"
    assert "solving" in ran.stderr


def test_no_progress_prints_nothing(capfd):
    list(blackhole.solve_many(DEALS))
    assert capfd.readouterr() == ("", "")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: list(blackhole.solve_many([DEALS[0], "Foundations: AS"])), TypeError, "deal 1 is a str"),
        (lambda: blackhole.solve_many(DEALS, jobs=0), ValueError, "jobs must be from 1 to 1024, got 0"),
        (
            lambda: blackhole.solve_many(DEALS, blackhole.GradeSettings()),
            TypeError,
            "must be a SolveSettings",
        ),
        (lambda: blackhole.solve("Foundations: AS"), TypeError, "deal must be a Deal, got str"),
        (lambda: list(blackhole.grade_many(DEALS, [])), ValueError, "no result for deal 0"),
        (
            lambda: list(blackhole.crosscheck_many(DEALS[:1], [blackhole.solve(DEALS[0])] * 2)),
            ValueError,
            "more results than the 1 deals",
        ),
        (lambda: blackhole.grade(DEALS[0], "solved"), TypeError, "result 0 is a str, not a SolveResult"),
    ],
)
def test_arguments_are_checked_where_they_enter(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_deal_ids_go_both_ways():
    for deal_id in ("seed-20261129-0", "pysol-2", "seed-0-18446744073709551615"):
        deal = blackhole.deal_of_id(deal_id)
        assert deal.deal_id == deal_id and blackhole.deal_of_id(deal.deal_id) == deal
    golf = blackhole.game_named("golf")
    assert blackhole.pysol_deal(2, golf).deal_id == "pysol-2"
    assert blackhole.deal_of_id("pysol-2", golf) == blackhole.pysol_deal(2, golf)
    assert blackhole.seeded_deal(7, 3, golf).deal_id == "seed-7-3"


def test_a_deal_s_id_is_a_name_not_part_of_the_deal():
    dealt = blackhole.seeded_deal(7, 0)
    read = blackhole.Deal.from_board_text(dealt.to_board_text())
    assert read.deal_id is None
    assert read == dealt and hash(read) == hash(dealt) and len({read, dealt}) == 1
    assert repr(dealt) == "deal_of_id('seed-7-0')" and eval(repr(dealt), vars(blackhole)) == dealt
    assert repr(read).startswith("Deal.from_board_text(")


def test_card_names_go_both_ways_for_every_card():
    names = [blackhole.card_name(card) for card in range(52)]
    assert len(set(names)) == 52 and names[0] == "AH" and names[51] == "KS"
    assert [blackhole.parse_card(name) for name in names] == list(range(52))
    with pytest.raises(blackhole.CardError):
        blackhole.card_name(52)


def test_to_dict_gives_plain_values_with_the_players_by_name():
    deal = DEALS[0]
    result = blackhole.solve(deal)
    plain = result.to_dict()
    assert list(plain) == [field.name for field in dataclasses.fields(result)]
    assert plain["verdict"] == "solved" and plain["solution"] == list(result.solution)
    grade = blackhole.grade(deal, result)
    found = grade.to_dict()
    assert list(found) == [field.name for field in dataclasses.fields(grade)]
    assert found["grade_status"] == "exact" and found["tier"] == grade.tier.value
    assert list(found["players"]) == [player.value for player in PLAYERS]
    for player in PLAYERS:
        figures = grade.figures_of(player)
        assert found["players"][player.value] == {
            "win_probability": figures.win_probability,
            "expected_attempts": figures.expected_attempts,
            "dead_ends": figures.dead_ends,
        }
    lost = blackhole.grade(DEALS[1], blackhole.solve(DEALS[1])).to_dict()
    assert lost["players"]["tips"] == {"win_probability": 0.0, "expected_attempts": None, "dead_ends": None}
    check = blackhole.crosscheck(DEALS[1], blackhole.solve(DEALS[1])).to_dict()
    assert check["cpsat_verdict"] == "unsolvable" and check["verdict"] == "unsolvable"
    for document in (plain, found, lost, check):
        assert json.loads(json.dumps(document, allow_nan=False)) == document


def test_a_walk_out_of_budget_has_no_players_in_its_plain_values():
    grade = blackhole.grade(DEALS[0], blackhole.solve(DEALS[0]), blackhole.GradeSettings(max_positions=10))
    assert grade.to_dict()["players"] is None and grade.to_dict()["grade_status"] == "out_of_budget"


def test_played_out_gives_a_player_s_figures_under_their_one_name():
    deal = DEALS[0]
    near_end = blackhole.Position.after(deal, blackhole.solve(deal).solution[:46])
    figures = blackhole.played_out(near_end, lambda p: blackhole.policy(blackhole.Player.RANDOM, p))
    assert isinstance(figures, blackhole.PlayerFigures)
    assert 0 < figures.win_probability <= 1 and not math.isnan(figures.dead_ends)
