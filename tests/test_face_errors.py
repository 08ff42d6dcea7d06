"""The face raises its own errors: each public call, driven with arbitrary arguments, raises nothing but
a TypeError naming a parameter or a documented BlackholeError (and, for a file it cannot read, an OSError
naming it); the settings objects take exactly the bounds the command line takes; grade and crosscheck
refuse a solve result that is not of their deal."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import pipeline as blackhole
from pipeline.engine.budgets import LEAST_MAX_MEMORY_MIB
from pipeline.errors import ArgumentError, BlackholeError
from pipeline.stages.settings import PassOptions, bounds_of

DEAL = blackhole.seeded_deal(20261129, 0)  # won in 51 moves
OTHER = blackhole.seeded_deal(20261129, 1)
LOST = blackhole.pysol_deal(1)  # lost after 3 cards
GOLF = blackhole.pysol_deal(2, blackhole.game_named("golf"))
DEALS = (DEAL, OTHER, LOST, GOLF)
RESULTS = tuple(blackhole.solve(deal) for deal in DEALS)
SMALL_GRADE = blackhole.GradeSettings(max_positions=1000)
SMALL_CHECK = blackhole.CrosscheckSettings(time_limit=0.01, reference_nodes=1)
SMALL_SOLVE = blackhole.SolveSettings(max_nodes=1000)

FEW = hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

numbers = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([0, -1, 1, 2**63, 2**64, 2**70, -(2**64), 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.sampled_from([np.int64(3), np.int8(-1), np.uint64(2**64 - 1), np.float64("nan"), np.True_]),
)
texts = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "golf",
            "black_hole",
            "seed-1-2",
            "pysol-1",
            "pysol-0",
            "AH",
            "\x1b[31m",
            "a\x00b",
            "",
            "\udce9x",
            "x" * 5000,
        ]
    ),
    st.just(DEAL.to_board_text()),
)
objects = st.sampled_from(
    [
        None,
        object(),
        b"bytes",
        [],
        {},
        {1: 0.5},
        (1, 2),
        [1, 2, 3],
        Path("."),
        DEAL,
        LOST,
        GOLF,
        RESULTS[0],
        RESULTS[2],
        blackhole.game_named("golf"),
        blackhole.Verdict.SOLVED,
        blackhole.Player.TIPS,
        SMALL_SOLVE,
        SMALL_GRADE,
        SMALL_CHECK,
        dataclasses.replace(blackhole.game_named("golf"), name="golf"),  # a Game made by hand
    ]
)
anything = st.one_of(numbers, texts, objects, st.lists(numbers, max_size=4), st.tuples(numbers, numbers))


def documented(call: Callable[[], Any], *, reads_files: bool = False) -> None:
    """Call ``call``; pass when it returns or raises what the face documents, fail on anything else."""
    try:
        call()
    except TypeError as error:
        assert str(error), "a TypeError says what it wants"
    except BlackholeError as error:
        assert "\n" not in str(error), f"one line: {error!r}"
    except OSError as error:
        if not reads_files or error.filename is None:
            raise


def fake_results() -> st.SearchStrategy[blackhole.SolveResult]:
    """Solve results of any fields, the real ones among them."""
    made = st.builds(
        blackhole.SolveResult,
        verdict=st.one_of(st.sampled_from(blackhole.Verdict), anything),
        solution=st.one_of(
            st.sampled_from([r.solution for r in RESULTS]), st.lists(numbers, max_size=5), anything
        ),
        nodes=numbers,
        seconds=numbers,
        max_cards_played=st.one_of(st.none(), numbers),
    )
    return st.one_of(st.sampled_from(RESULTS), made, anything)


def one_job(jobs: Any) -> Any:
    """``jobs``, but never more than one real worker: a valid count above 1 becomes 1 (workers take a second to start)."""
    if isinstance(jobs, int) and not isinstance(jobs, bool) and 1 < jobs <= 1024:
        return 1
    return jobs


@FEW
@given(anything, anything, st.one_of(anything, st.sampled_from([blackhole.game_named("golf")])))
def test_dealing_raises_only_documented_errors(seed, index, game):
    documented(lambda: blackhole.seeded_deal(seed, index))
    documented(lambda: blackhole.seeded_deal(seed, index, game))
    documented(lambda: blackhole.pysol_deal(seed))
    documented(lambda: blackhole.pysol_deal(seed, game))
    documented(lambda: blackhole.deal_of_id(seed))
    documented(lambda: blackhole.deal_of_id(seed, game))
    documented(lambda: blackhole.game_named(seed))


@FEW
@given(anything)
def test_cards_raise_only_documented_errors(value):
    documented(lambda: blackhole.card_name(value))
    documented(lambda: blackhole.parse_card(value))


@FEW
@given(anything, anything, anything, anything, anything)
def test_deals_raise_only_documented_errors(piles, game, foundation, talon, deal_id):
    documented(lambda: blackhole.Deal.from_board_text(piles))
    documented(lambda: blackhole.Deal.from_board_text(DEAL.to_board_text(), source=deal_id, game=game))
    documented(lambda: blackhole.Deal.from_cards(piles, game))
    documented(lambda: blackhole.Deal(piles, game, foundation, talon, deal_id))
    documented(
        lambda: blackhole.Deal(DEAL.piles, blackhole.game_named("black_hole"), foundation, talon, deal_id)
    )


@FEW
@given(anything, anything, anything, anything)
def test_positions_and_replays_raise_only_documented_errors(deal, moves, rank, dealt):
    documented(lambda: blackhole.Position.start(deal))
    documented(lambda: blackhole.Position.after(DEAL, moves))
    documented(lambda: blackhole.Position(DEAL, moves, rank, dealt))
    documented(lambda: blackhole.replay(DEAL, moves))
    documented(lambda: blackhole.replay(deal, RESULTS[0].solution, start=rank))
    documented(lambda: blackhole.Position.start(GOLF).play(rank))
    documented(lambda: blackhole.Position.start(GOLF).top_card(rank))
    documented(lambda: DEAL.top_card(rank))


NEAR_END = blackhole.Position.after(DEAL, RESULTS[0].solution[:46])


@FEW
@given(anything, anything)
@example(player=None, returned=8.98846567431158e307)  # two such chances once overflowed the sum
@example(player=None, returned=2**1100)
def test_player_models_raise_only_documented_errors(player, returned):
    documented(lambda: blackhole.policy(player, NEAR_END))
    documented(lambda: blackhole.policy(blackhole.Player.TIPS, player))
    documented(lambda: blackhole.played_out(NEAR_END, player))
    documented(lambda: blackhole.played_out(NEAR_END, lambda position: returned))
    chances = {move: returned for move in NEAR_END.legal_moves()}
    documented(lambda: blackhole.played_out(NEAR_END, lambda position: chances))


@FEW
@given(anything, anything, anything, anything, anything)
@example(a=10**400, b=0, c=0, d=0, e=0)  # once an OverflowError out of tier_of
@example(a=-(10**400), b=0, c=0, d=0, e=0)
def test_settings_and_tiers_raise_only_documented_errors(a, b, c, d, e):
    documented(lambda: blackhole.SolveSettings(max_nodes=a, longest_play=b))
    documented(lambda: blackhole.GradeSettings(max_positions=a, tiers=b, sample=c, seed=d, max_memory_mib=e))
    documented(
        lambda: blackhole.CrosscheckSettings(sample=a, seed=b, loss_sample=c, time_limit=d, reference_nodes=e)
    )
    documented(lambda: blackhole.Tiers(a, b, c, d))
    documented(lambda: blackhole.Tiers(1.0, 2.0, c))
    documented(lambda: blackhole.Difficulty(a, b))
    documented(lambda: blackhole.load_tiers(blackhole.GradeSettings().tiers).tier_of(a))
    documented(lambda: blackhole.load_tiers(a), reads_files=True)


@FEW
@given(st.one_of(st.sampled_from(DEALS), anything), anything)
def test_solve_raises_only_documented_errors(deal, settings):
    documented(lambda: blackhole.solve(deal, settings if settings is not None else SMALL_SOLVE))


@FEW
@given(st.lists(st.one_of(st.sampled_from(DEALS), anything), max_size=3), anything, anything, anything)
def test_solve_many_raises_only_documented_errors(deals, settings, jobs, progress):
    documented(lambda: list(blackhole.solve_many(deals, SMALL_SOLVE, jobs=one_job(jobs), progress=False)))
    documented(lambda: list(blackhole.solve_many(deals, settings)))
    documented(lambda: blackhole.solve_many(settings, SMALL_SOLVE, progress=progress))


@FEW
@given(st.sampled_from(DEALS), fake_results(), st.one_of(st.just(SMALL_GRADE), anything), anything)
def test_grade_raises_only_documented_errors(deal, result, settings, tiers):
    documented(lambda: blackhole.grade(deal, result, SMALL_GRADE))
    documented(lambda: blackhole.grade(deal, result, settings, tiers=tiers))
    documented(lambda: list(blackhole.grade_many([deal, deal], [result], SMALL_GRADE, jobs=one_job(tiers))))
    documented(lambda: list(blackhole.grade_many([deal], [result], SMALL_GRADE)))


@FEW
@given(st.sampled_from(DEALS), fake_results(), st.one_of(st.just(SMALL_CHECK), anything), anything)
def test_crosscheck_raises_only_documented_errors(deal, result, settings, jobs):
    documented(lambda: blackhole.crosscheck(deal, result, SMALL_CHECK))
    documented(lambda: blackhole.crosscheck(deal, result, settings if settings is not None else SMALL_CHECK))
    documented(lambda: list(blackhole.crosscheck_many([deal], [result], SMALL_CHECK, jobs=one_job(jobs))))


@pytest.fixture(scope="module")
def face_pack(pack: Path) -> Any:
    return blackhole.open_pack(pack)


@FEW
@given(anything)
def test_packs_raise_only_documented_errors(face_pack, value):
    documented(lambda: blackhole.open_pack(value), reads_files=True)
    documented(lambda: face_pack.find(value))


# --- each defect the issue names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: blackhole.pysol_deal(0), "pysol_deal: PySol FC deal numbers run from 1 to"),
        (lambda: blackhole.seeded_deal(-1, 0), "seeded_deal: seed must be from 0 to"),
        (lambda: blackhole.SolveSettings(max_nodes=2**70), "SolveSettings: max_nodes must be from 1 to"),
        (lambda: blackhole.SolveSettings(max_nodes=-1), "got -1"),
        (lambda: blackhole.SolveSettings(max_nodes=0), "got 0"),
        (lambda: blackhole.GradeSettings(max_positions=2**80), "GradeSettings: max_positions"),
        (lambda: blackhole.GradeSettings(max_positions=-5), "got -5"),
        (
            lambda: blackhole.GradeSettings(max_memory_mib=256),
            f"GradeSettings: max_memory_mib must be from {LEAST_MAX_MEMORY_MIB} to 1048576, got 256",
        ),
        (lambda: blackhole.CrosscheckSettings(time_limit=-1), "time_limit must be from 0.01"),
        (
            lambda: blackhole.CrosscheckSettings(time_limit=math.nan),
            "time_limit must be a finite number, got nan",
        ),
        (lambda: blackhole.CrosscheckSettings(sample=math.inf), "sample must be a finite number, got inf"),
        (lambda: blackhole.solve_many([DEAL], jobs=0), "solve_many: jobs must be from 1 to 1024, got 0"),
    ],
)
def test_a_value_out_of_range_is_an_argument_error(call, message):
    with pytest.raises(ArgumentError, match=message) as raised:
        call()
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, BlackholeError)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: blackhole.Deal.from_board_text(GOLF.to_board_text(), game="golf"), r"game_named\('golf'\)"),
        (lambda: blackhole.seeded_deal(1, 2.0), "index must be an int, got float"),
        (lambda: blackhole.seeded_deal(True, 2), "seed must be an int, got bool"),
        (lambda: blackhole.SolveSettings(max_nodes=True), "max_nodes must be an int, got bool"),
        (lambda: blackhole.SolveSettings(longest_play="no"), "longest_play must be a bool"),
        (lambda: blackhole.CrosscheckSettings(time_limit="1"), "time_limit must be a number, got str"),
        (lambda: blackhole.card_name(1.0), "card must be an int"),
        (lambda: blackhole.parse_card(5), "text must be a str"),
        (lambda: blackhole.game_named(5), "name must be a str"),
        (lambda: blackhole.replay(DEAL, "123"), "solution must be a sequence of moves"),
        (lambda: blackhole.replay(DEAL, ["x"]), r"solution\[0\] must be an int"),
        (lambda: blackhole.solve_many(5), "deals must be an iterable of Deals, got int"),
        (lambda: blackhole.grade(DEAL, RESULTS[0], tiers="tiers.toml"), "tiers must be a Tiers or None"),
        (lambda: blackhole.load_tiers(5), "path must be a path, got int"),
        (lambda: blackhole.open_pack(None), "folder must be a path, got NoneType"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_type_error_naming_the_parameter(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_find_takes_a_text_id(pack):
    with pytest.raises(TypeError, match="deal_id must be a str, got int"):
        blackhole.open_pack(pack).find(12345)


def test_numpy_integers_are_whole_numbers():
    assert blackhole.seeded_deal(np.int64(20261129), np.uint8(0)) == DEAL
    assert blackhole.card_name(np.int16(0)) == "AH"
    assert blackhole.SolveSettings(max_nodes=np.int64(5)).max_nodes == 5


BOUNDED = [
    (kind, declared.name)
    for kind in (blackhole.SolveSettings, blackhole.GradeSettings, blackhole.CrosscheckSettings, PassOptions)
    for declared in dataclasses.fields(kind)
    if bounds_of(kind, declared.name).lowest is not None
]


@pytest.mark.parametrize(("kind", "name"), BOUNDED, ids=[f"{kind.__name__}.{name}" for kind, name in BOUNDED])
def test_a_settings_object_takes_exactly_the_command_line_s_bounds(kind, name):
    """The bounds the CLI's options take (Typer's min and max) are the ones the object enforces."""
    bounds = bounds_of(kind, name)
    assert bounds.lowest is not None and bounds.highest is not None
    assert getattr(kind(**{name: bounds.lowest}), name) == bounds.lowest
    assert getattr(kind(**{name: bounds.highest}), name) == bounds.highest
    step = 1 if isinstance(bounds.lowest, int) else 1e-9
    for outside in (bounds.lowest - step, bounds.highest + step * max(1, abs(bounds.highest))):
        with pytest.raises(ArgumentError, match=f"{kind.__name__}: {name} must be from"):
            kind(**{name: outside})


def test_the_tiers_path_may_be_text():
    assert blackhole.GradeSettings(tiers="mine.toml").tiers == Path("mine.toml")


# --- a result of another deal ---------------------------------------------------------------------


def test_grade_refuses_the_result_of_another_deal():
    with pytest.raises(
        ArgumentError, match="grade: result is not of deal seed-20261129-0: its solution does not"
    ):
        blackhole.grade(DEAL, RESULTS[1], SMALL_GRADE)


def test_grade_refuses_a_claimed_loss_of_a_deal_with_a_win():
    with pytest.raises(ArgumentError, match="it says the deal is lost, but the solver wins it in 51 moves"):
        blackhole.grade(DEAL, RESULTS[2])


def test_grade_refuses_a_loss_with_another_longest_play():
    lost = RESULTS[2]
    assert lost.verdict is blackhole.Verdict.UNSOLVABLE and lost.max_cards_played == 3
    with pytest.raises(
        ArgumentError, match="at most 17 cards can be played, but the deal's longest play is 3"
    ):
        blackhole.grade(LOST, dataclasses.replace(lost, max_cards_played=17))
    assert blackhole.grade(LOST, lost).tier is blackhole.Tier.UNSOLVABLE  # its own result is graded
    assert (
        blackhole.grade(LOST, dataclasses.replace(lost, max_cards_played=None)).tier
        is blackhole.Tier.UNSOLVABLE
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"verdict": "solved"}, "result.verdict must be a Verdict, got str"),
        ({"max_cards_played": 50}, "but a win plays all 51 cards"),
        ({"nodes": -1}, "result.nodes must be at least 0"),
        ({"seconds": math.nan}, "result.seconds must be a finite number"),
        ({"solution": (99,)}, r"result.solution\[0\] must be from 0 to 16"),
        ({"verdict": blackhole.Verdict.UNKNOWN}, "says unknown but holds a solution of 51 moves"),
    ],
)
def test_grade_refuses_a_result_that_no_solve_gives(change, message):
    with pytest.raises((ArgumentError, TypeError), match=message):
        blackhole.grade(DEAL, dataclasses.replace(RESULTS[0], **change), SMALL_GRADE)


def test_grade_many_refuses_the_foreign_result_where_it_is_drawn():
    """The iterator raises when it draws the row (a chunk is drawn before its first grade comes back)."""
    grades = blackhole.grade_many(iter([DEAL, OTHER]), iter([RESULTS[0], RESULTS[0]]), SMALL_GRADE)
    with pytest.raises(ArgumentError, match="grade_many: result 1 is not of deal seed-20261129-1"):
        list(grades)


def test_crosscheck_refuses_a_win_of_another_deal_but_answers_a_false_loss():
    with pytest.raises(ArgumentError, match="crosscheck: result is not of deal"):
        blackhole.crosscheck(DEAL, RESULTS[1], SMALL_CHECK)
    check = blackhole.crosscheck(DEAL, RESULTS[2], blackhole.CrosscheckSettings(time_limit=5.0))
    assert check.agrees_with(blackhole.Verdict.UNSOLVABLE) is False


@pytest.mark.parametrize("deal_id", ["seed-١-0", "seed-1-٣", "pysol-１"])
def test_a_deal_id_is_read_in_ascii_digits_only(deal_id):
    """``\\d`` would read Arabic-Indic or full-width digits as a seed: ``seed-١-0`` was ``seed-1-0``."""
    with pytest.raises(blackhole.BoardError, match="not a seeded"):
        blackhole.deal_of_id(deal_id)
    from typer.testing import CliRunner

    from pipeline.cli import app

    shown = CliRunner().invoke(app, ["show", deal_id])
    assert shown.exit_code == 1 and "not a seeded" in shown.output


def test_an_id_with_control_characters_is_named_escaped():
    with pytest.raises(blackhole.BoardError) as raised:
        blackhole.deal_of_id("seed-\x1b[31m1")
    assert "\x1b" not in str(raised.value) and "\\x1b[31m" in str(raised.value)


@pytest.fixture(scope="module")
def answers():
    """A Check and a Grade of the example deal, whose methods take arguments too."""
    result = blackhole.solve(DEAL)
    return blackhole.crosscheck(DEAL, result, SMALL_CHECK), blackhole.grade(DEAL, result)


@FEW
@given(anything)
def test_the_answers_methods_raise_only_documented_errors(answers, value):
    check, grade = answers
    documented(lambda: check.agrees_with(value))
    documented(lambda: grade.figures_of(value))


def test_the_answers_methods_name_their_parameter(answers):
    check, grade = answers
    assert check.agrees_with(blackhole.Verdict.SOLVED) is check.agrees_with("solved")
    with pytest.raises(TypeError, match="verdict must be a Verdict or its value, got int"):
        check.agrees_with(5)
    with pytest.raises(blackhole.ArgumentError, match="verdict 'banana' is not one of solved, unsolvable"):
        check.agrees_with("banana")
    with pytest.raises(TypeError, match="player must be a Player, got str"):
        grade.figures_of("random")
    assert grade.figures_of(blackhole.Player.RANDOM) is not None


def test_a_difficulty_past_the_floats_is_still_placed_in_a_tier():
    tiers = blackhole.load_tiers(blackhole.GradeSettings().tiers)
    assert tiers.tier_of(10**400) is blackhole.Tier.EXPERT
    assert tiers.tier_of(-(10**400)) is blackhole.Tier.EASY


def test_a_policy_chance_above_one_is_named_not_summed():
    chances = {move: 8.98846567431158e307 for move in NEAR_END.legal_moves()}
    with pytest.raises(blackhole.PolicyError, match="not a number from 0 to 1"):
        blackhole.played_out(NEAR_END, lambda position: chances)
