"""blackhole report --plays: what the play-testers met, per deal and per tier, against figures worked out by hand."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.plays.importing import import_plays
from pipeline.plays.observed import observe
from pipeline.plays.played import played_pack
from tests.plays.making import attempt, deal_entry, document, write


def stuck_line(deal: Deal) -> list[int]:
    """The first legal move each time from the opening, until no card fits (it never wins on these deals)."""
    position, moves = Position.start(deal), []
    while position.legal_moves():
        moves.append(position.legal_moves()[0])
        position = position.play(moves[-1])
    assert not position.is_won
    return moves


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
