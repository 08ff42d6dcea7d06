"""blackhole report --plays: what the play-testers met, per deal and per tier, against figures worked out by hand."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import Deal
from pipeline.plays.exports import Attempt, Mark, Mode, Outcome
from pipeline.plays.importing import import_plays
from pipeline.plays.observed import DealObserved, Modes, Observed, PlayObservation, observe
from pipeline.plays.played import played_pack
from pipeline.reports.play_tables import NO_ONE_ATTEMPT, play_tables
from tests.plays.making import attempt, deal_entry, document, write
from tests.plays.remaking import with_attempts
from tests.support.lines import stuck_line


def won_with_detours(deal: Deal, solution: list[int], detours: int) -> tuple[list[int | str], int]:
    """Events of a win after ``detours`` times into the stuck line and back to the opening by undo; its moves."""
    line = stuck_line(deal)
    events: list[int | str] = []
    for _ in range(detours):
        events += [*line, *["undo"] * len(line)]
    return [*events, *solution], detours * len(line) + 51


@pytest.fixture(scope="module")
def hand_plays(tmp_path_factory: pytest.TempPathFactory, play_pack: Path, pack_rows: Any) -> Path:
    """Records worked out by hand: five attempts at an easy deal (one still playing) and one at an expert deal.

    Easy deal, in the order they started: won after 2 dead ends (100 s); stuck (20 s); won clean (30 s);
    abandoned after one card (5 s); one card played, still playing (9 s). Expert deal: won after 3 dead
    ends (200 s). So the runs (a win and the unwon attempts before it) are 2 dead ends in 100 s and 1 in
    50 s at the easy deal, and 3 in 200 s at the expert one.
    """
    rows = {row["tier"]: row for row in reversed(pack_rows.to_pylist()) if row["verdict"] == "solved"}
    easy, expert = rows["easy"], rows["expert"]
    easy_deal, expert_deal = Deal.from_board_text(easy["board"]), Deal.from_board_text(expert["board"])
    two, two_moves = won_with_detours(easy_deal, easy["solution"], 2)
    line = stuck_line(easy_deal)
    three, three_moves = won_with_detours(expert_deal, expert["solution"], 3)
    won = {"outcome": "won", "cards_played": 51}
    first = line[0]
    easy_attempts = [
        attempt(
            "a1-aaaaaaaa",
            two,
            started=0,
            seconds=100,
            moves=two_moves,
            undos=two_moves - 51,
            dead_ends=2,
            **won,
        ),
        attempt(
            "a2-aaaaaaaa",
            line,
            outcome="stuck",
            started=10,
            seconds=20,
            moves=len(line),
            dead_ends=1,
            cards_played=len(line),
        ),
        attempt("a3-aaaaaaaa", easy["solution"], started=20, seconds=30, moves=51, clean=True, **won),
        attempt("a4-aaaaaaaa", [first], outcome="abandoned", started=30, seconds=5, moves=1, cards_played=1),
        attempt(
            "a5-aaaaaaaa",
            [first, "hint"],
            outcome="playing",
            started=40,
            seconds=9,
            moves=1,
            hints=1,
            cards_played=1,
        ),
    ]
    expert_attempts = [
        attempt(
            "b1-bbbbbbbb",
            three,
            started=5,
            seconds=200,
            moves=three_moves,
            undos=three_moves - 51,
            dead_ends=3,
            **won,
        )
    ]
    found = document(
        [
            deal_entry(easy["deal_id"], easy_attempts, note="a gentle start", mark="ship"),
            deal_entry(expert["deal_id"], expert_attempts),
        ]
    )
    folder = tmp_path_factory.mktemp("hand")
    out = folder / "PLAYS.parquet"
    import_plays([write(folder / "plays.json", found)], play_pack, out)
    return out


def test_each_deal_and_tier_has_the_figures_worked_out_by_hand(hand_plays, play_pack):
    observation = observe(played_pack(hand_plays, play_pack))
    easy, expert = observation.tiers["easy"], observation.tiers["expert"]
    assert (easy.deals, easy.attempts, easy.playing) == (1, 4, 1)
    assert (easy.wins.successes, easy.wins.trials, easy.clean.successes) == (2, 4, 1)
    assert (round(easy.wins.low, 4), round(easy.wins.high, 4)) == (0.15, 0.85)  # Wilson, 2 of 4
    # mistakes before a win: runs of 2 and 1 dead ends; mean 1.5, s = 0.7071, t(1) = 12.706
    assert easy.mistakes.count == 2 and easy.mistakes.mean == 1.5
    assert easy.mistakes.high == pytest.approx(1.5 + 12.7062 * math.sqrt(0.5) / math.sqrt(2), abs=1e-3)
    # seconds to a win: runs of 100 s and 20 + 30 s
    assert easy.seconds.mean == 75.0 and easy.seconds.low == pytest.approx(
        75 - 12.7062 * 35.3553 / 1.41421, abs=0.01
    )
    assert (expert.attempts, expert.wins.successes, expert.mistakes.mean, expert.seconds.mean) == (
        1,
        1,
        3.0,
        200.0,
    )
    assert expert.mistakes.low is None  # one win: no interval
    total = observation.total
    assert (total.attempts, total.wins.successes, total.mistakes.mean) == (5, 3, 2.0)  # runs 2, 1 and 3
    assert total.mistakes.high == pytest.approx(2 + 4.3027 * 1 / math.sqrt(3), abs=1e-3)
    assert [tier for tier, found in observation.tiers.items() if found.attempts] == ["easy", "expert"]


def test_the_report_shows_them_in_words_with_their_intervals(hand_plays, play_pack, tmp_path):
    result = CliRunner().invoke(
        app,
        ["report", str(play_pack), "--plays", str(hand_plays), "--charts", str(tmp_path)],
        env={"COLUMNS": "250"},
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert (
        "What the play-testers met, by tier" in out
        and "What the play-testers met, deal by deal (2 deals)" in out
    )
    for shown in (
        "4 (+1 playing)",
        "2 of 4, 50 % [15 %, 85 %]",  # won
        "1 of 4, 25 % [5 %, 70 %]",  # won without undo
        "1.5 [0, 7.9]",  # mistakes before a win: the interval's low end held at 0
        "1 min 15 s [0 s, 6 min 33 s]",  # seconds to a win
        "1 of 1, 100 % [21 %, 100 %]",
        "3 (1 win)",
        "3 min 20 s (1 win)",
        "3 of 5, 60 % [23 %, 88 %]",  # all
        "2 [0, 4.5]",
        "ship",
        "a gentle start",
    ):
        assert shown in out, shown
    said = " ".join(out.split())
    assert "finished attempts by mode: 5 relaxed, 0 one-attempt; 0 timed, 0 out of time" in said
    assert (
        "no one-attempt game recorded: wins without undo are counted from relaxed games that used no undo, "
        "restart or hint" in said
    )


def test_records_of_another_pack_are_refused(hand_plays, tmp_path, pack_rows):
    from pipeline import __version__
    from pipeline.game.shuffles import SEEDED_SCHEME
    from pipeline.packs.folders import write_pack_folder
    from pipeline.packs.manifest import Origin

    other = tmp_path / "packs" / "q"
    write_pack_folder(
        other, [pack_rows], origin=Origin("q", "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    result = CliRunner().invoke(
        app, ["report", str(other), "--plays", str(hand_plays), "--charts", str(tmp_path / "c")]
    )
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stderr.count("\n") == 1
    assert "PLAYS.parquet: play records of the pack 'p', not of 'q'" in result.stderr


def test_a_file_that_is_no_plays_file_is_refused(play_pack, tmp_path):
    bad = tmp_path / "PLAYS.parquet"
    bad.write_bytes(b"PAR1 not really")
    result = CliRunner().invoke(
        app, ["report", str(play_pack), "--plays", str(bad), "--charts", str(tmp_path / "c")]
    )
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stderr.startswith(f"error: {bad}: not a readable Parquet file")


# ---------------------------------------------------------------- modes


@pytest.fixture(scope="module")
def moded_plays(hand_plays: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand records with the easy deal's stuck game, clean win and short game played in one attempt,
    the short one timed at 10 s a move and out of time."""

    def change(deal_id: str, place: int, found: Attempt) -> Attempt:
        if found.id in ("a2-aaaaaaaa", "a3-aaaaaaaa"):
            return replace(found, mode=Mode.ONE_ATTEMPT)
        if found.id == "a4-aaaaaaaa":
            return replace(
                found, mode=Mode.ONE_ATTEMPT, timed=True, move_limit=10, outcome=Outcome.OUT_OF_TIME
            )
        return found

    return with_attempts(hand_plays, tmp_path_factory.mktemp("modes") / "PLAYS.parquet", change)


def test_one_attempt_games_are_counted_apart_by_mode(moded_plays, play_pack):
    observation = observe(played_pack(moded_plays, play_pack))
    easy, total = observation.tiers["easy"], observation.total
    assert (easy.one_attempt.successes, easy.one_attempt.trials) == (1, 3)  # the clean win of three
    assert easy.modes == Modes(relaxed=1, one_attempt=3, timed=1, out_of_time=1)  # the playing one in none
    assert total.modes == Modes(relaxed=2, one_attempt=3, timed=1, out_of_time=1)
    assert observation.tiers["expert"].one_attempt.trials == 0
    assert total.hinted == 0  # the hint of the attempt still playing is in no figure


def test_the_report_says_the_modes_and_the_one_attempt_win_rate(moded_plays, play_pack, tmp_path):
    result = CliRunner().invoke(
        app,
        ["report", str(play_pack), "--plays", str(moded_plays), "--charts", str(tmp_path)],
        env={"COLUMNS": "250"},
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "one-attempt games won" in out
    assert "1 of 3, 33 % [6 %, 79 %]" in out  # the easy tier, and all
    assert "finished attempts by mode: 2 relaxed, 3 one-attempt; 1 timed, 1 out of time" in out
    assert NO_ONE_ATTEMPT not in " ".join(out.split())


# ---------------------------------------------------------------- deal ids whole at any width

LONG_IDS = ("seed-20261129-123456", "seed-20261129-123457", "pysol-20261129123")


def long_id_observation() -> PlayObservation:
    """Three deals with long ids, each with a win after two dead ends, a stuck one-attempt game and a note."""
    start = datetime(2026, 12, 1, tzinfo=UTC)

    def made(number: int, outcome: Outcome, dead_ends: int, mode: Mode) -> Attempt:
        moment = start + timedelta(minutes=number)
        return Attempt(
            f"a{number}", moment, moment, 30.0, outcome, (), 51, 0, 0, 0, 0, dead_ends, 51, False, mode=mode
        )

    deals = tuple(
        DealObserved(
            deal_id,
            "hard",
            Mark.SHIP if number == 0 else None,
            "too easy for its tier, said a tester" if number == 0 else "",
            Observed.of(
                [[made(1, Outcome.WON, 2, Mode.RELAXED), made(2, Outcome.STUCK, 1, Mode.ONE_ATTEMPT)]]
            ),
        )
        for number, deal_id in enumerate(LONG_IDS)
    )
    pooled = Observed.of([[made(1, Outcome.WON, 2, Mode.RELAXED)]])
    return PlayObservation(deals, {"hard": pooled}, pooled)


@pytest.mark.parametrize("width", [60, 80, 140])
def test_every_deal_id_is_shown_whole_and_no_figure_is_left_out(width):
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None)
    for renderable in play_tables(long_id_observation()):
        console.print(renderable)
    text = console.export_text()
    lines = text.splitlines()
    assert max(map(len, lines)) <= width
    for deal_id in LONG_IDS:  # whole on every row that shows it: the first table and each continued one
        rows = [line for line in lines if deal_id in line]
        assert rows, deal_id
        assert not any(line.count("…") for line in rows), rows
    assert "seed-…" not in text and "seed-2026…" not in text
    heads = [line for line in lines if line.startswith("┃ deal ")]  # one a part: each starts with the deal
    assert heads and sum(line.startswith("│ seed-20261129-123456 ") for line in lines) == len(heads)
    words = text.split()
    for word in ("tier", "mark", "attempts", "one-attempt", "ship", "30", "win)"):
        assert word in words, word
    assert all(word in words for word in "too easy for its tier, said a tester".split())


def test_the_command_shows_each_deal_id_whole_at_80_columns(hand_plays, play_pack, tmp_path):
    result = CliRunner().invoke(
        app,
        ["report", str(play_pack), "--plays", str(hand_plays), "--charts", str(tmp_path)],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    deal_ids = {deal.deal_id for deal in observe(played_pack(hand_plays, play_pack)).deals}
    block = result.stdout[result.stdout.index("deal by deal") :]
    assert "…" not in block
    for deal_id in deal_ids:
        assert re.search(rf"│ {re.escape(deal_id)} +│", block), deal_id
    assert {"a", "gentle", "start"} <= set(block.split())
