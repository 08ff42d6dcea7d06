"""Play records of version 2: each attempt's mode, clock and move limit imported, checked and kept in
PLAYS.parquet; version 1 files (and PLAYS.parquet written before modes) still read; each refusal one line."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import Deal
from pipeline.plays.events import ReplayError
from pipeline.plays.exports import MOVE_LIMITS, Mode, Outcome, PlaysError, parse_export
from pipeline.plays.records import ATTEMPT_TYPE, MODE_FIELDS, PLAYS_SCHEMA_V1, read_plays
from tests.plays.making import GALLERY, as_version_1, deal_entry, document, replayed, write
from tests.support.lines import stuck_line


def invoke(*args: object):
    return CliRunner().invoke(app, [str(arg) for arg in args])


@pytest.fixture(scope="module")
def boards(pack_rows: Any) -> list[tuple[str, Deal, list[int]]]:
    """The id, deal and solution of the first two solvable deals of the pack."""
    rows = [row for row in pack_rows.to_pylist() if row["verdict"] == "solved"][:2]
    return [(row["deal_id"], Deal.from_board_text(row["board"]), list(row["solution"])) for row in rows]


ONE_ATTEMPT = {"mode": "one_attempt"}


@pytest.fixture(scope="module")
def every_mode(boards: list[tuple[str, Deal, list[int]]]) -> dict[str, Any]:
    """An export of version 2 with an attempt of each mode and clock, and each outcome."""
    (first_id, first, solution), (second_id, second, _) = boards
    line = stuck_line(first)
    attempts = [
        replayed("r1-relaxed", first, [*line, "undo", "hint"], started=0),
        replayed("r2-relaxed", first, solution, started=1, timed=True),
        replayed("o1-onetry", first, line, started=2, **ONE_ATTEMPT),
        replayed("o2-onetry", first, solution, started=3, timed=True, move_limit=10, **ONE_ATTEMPT),
        replayed("o3-onetry", first, line[:3], outcome="out_of_time", started=4, timed=True, move_limit=30, **ONE_ATTEMPT),
        replayed("o4-onetry", first, line[:2], outcome="abandoned", started=5, **ONE_ATTEMPT),
        replayed("o5-onetry", first, line[:1], started=6, timed=True, move_limit=60, **ONE_ATTEMPT),
    ]  # fmt: skip
    others = [replayed("r3-relaxed", second, stuck_line(second), started=7, timed=True, move_limit=60)]
    return document([deal_entry(first_id, attempts), deal_entry(second_id, others)])


def test_an_export_of_every_mode_is_imported_and_kept_as_it_was_played(tmp_path, play_pack, every_mode):
    out = tmp_path / "PLAYS.parquet"
    result = invoke(
        "plays", "import", write(tmp_path / "plays.json", every_mode), "--pack", play_pack, "--out", out
    )
    assert result.exit_code == 0, result.output
    assert "8 attempts (6 finished) at 2 deals from 1 file\n" in result.stderr
    given = {entry["id"]: entry for deal in every_mode["deals"] for entry in deal["attempts"]}
    found = {found.id: found for deal in read_plays(out).deals for found in deal.attempts}
    assert found.keys() == given.keys()
    for attempt_id, attempt in found.items():
        entry = given[attempt_id]
        assert (attempt.mode.value, attempt.timed, attempt.move_limit, attempt.outcome.value) == (
            entry["mode"], entry["timed"], entry["move_limit"], entry["outcome"]
        )  # fmt: skip
    assert found["r1-relaxed"].outcome is Outcome.PLAYING  # an undo took it up again after the dead end
    assert found["o1-onetry"].outcome is Outcome.STUCK and found["o1-onetry"].mode is Mode.ONE_ATTEMPT
    assert found["o3-onetry"].outcome is Outcome.OUT_OF_TIME and found["o3-onetry"].finished
    assert {attempt.move_limit for attempt in found.values()} == {None, *MOVE_LIMITS}
    columns = pq.read_schema(out).field("attempts").type.value_type
    assert [field.name for field in columns][-4:] == ["clean", *MODE_FIELDS]


def test_a_version_1_export_is_read_as_relaxed_and_untimed_with_its_old_rule_of_outcome(
    tmp_path, play_pack, boards
):
    """Version 1 let an attempt at a dead end be playing: it is still read so; version 2 refuses it."""
    deal_id, deal, solution = boards[0]
    line = stuck_line(deal)
    attempts = [
        replayed("v1-won", deal, solution),
        replayed("v1-open", deal, line, outcome="playing", started=1),
    ]
    old = document([deal_entry(deal_id, attempts)], version=1)
    assert all("mode" not in entry for entry in old["deals"][0]["attempts"])
    out = tmp_path / "PLAYS.parquet"
    result = invoke("plays", "import", write(tmp_path / "old.json", old), "--pack", play_pack, "--out", out)
    assert result.exit_code == 0, result.output
    found = read_plays(out).deals[0].attempts
    assert [(a.mode, a.timed, a.move_limit) for a in found] == [(Mode.RELAXED, False, None)] * 2
    assert [a.outcome for a in found] == [Outcome.WON, Outcome.PLAYING]
    assert parse_export(json.dumps(old).encode(), source="old.json").version == 1
    newer = document([deal_entry(deal_id, attempts)])
    (tmp_path / "newer").mkdir()
    _refused(
        tmp_path / "newer",
        play_pack,
        newer,
        rf'deals\[0\]\.attempts\[1\] \({deal_id} attempt v1-open\): outcome is "playing", but no move is left '
        r'at the end of its events \(that is "stuck"\)$',
    )


def _refused(tmp_path: Path, play_pack: Path, found: dict[str, Any], pattern: str) -> None:
    """Importing ``found`` exits 1 with one line ``error: plays.json: ...`` matching ``pattern``; nothing written."""
    out = tmp_path / "PLAYS.parquet"
    result = invoke(
        "plays", "import", write(tmp_path / "plays.json", found), "--pack", play_pack, "--out", out
    )
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    [line] = result.stderr.splitlines()
    line = line.replace(str(tmp_path) + "/", "")
    assert line.startswith("error: plays.json: "), line
    assert re.search(pattern, line.removeprefix("error: plays.json: ")), line
    assert not out.exists()


def _one(boards, events, *, outcome=None, **keys) -> tuple[dict[str, Any], str]:
    """An export of one attempt at the first deal, and the label of its record (a pattern)."""
    deal_id, deal, _ = boards[0]
    try:
        entry = replayed("x1-aaaaaaaa", deal, events, outcome=outcome, **keys)
    except ReplayError:  # events that do not replay relaxed: the counts of the first, the events as given
        entry = replayed("x1-aaaaaaaa", deal, events[:1], outcome=outcome, **keys) | {"events": list(events)}
    return document(
        [deal_entry(deal_id, [entry])]
    ), rf"deals\[0\]\.attempts\[0\] \({deal_id} attempt x1-aaaaaaaa\): "


def _refusals(boards) -> dict[str, tuple[dict[str, Any], str]]:
    _, deal, solution = boards[0]
    line = stuck_line(deal)
    first = line[0]
    cases: dict[str, tuple[list[Any], dict[str, Any], str]] = {
        "an-undo-in-a-one-attempt-game": (
            [first, "undo"], ONE_ATTEMPT, r"event 2 is an undo, which a one-attempt game does not allow$"
        ),
        "a-hint-in-a-one-attempt-game": (
            ["hint", first], ONE_ATTEMPT, r"event 1 is a hint, which a one-attempt game does not allow$"
        ),
        "a-restart-in-a-one-attempt-game": (
            [first, "restart"], ONE_ATTEMPT, r"event 2 is a restart, which a one-attempt game does not allow$"
        ),
        "a-redo-in-a-one-attempt-game": (
            [first, "redo"], ONE_ATTEMPT, r"event 2 is a redo, which a one-attempt game does not allow$"
        ),
        "an-event-after-a-one-attempt-dead-end": (
            [*line, first], ONE_ATTEMPT | {"outcome": "stuck"},
            rf"event {len(line) + 1} \(pile {first}\) comes after the dead end of event {len(line)}, "
            r"where a one-attempt game ends$",
        ),
        "playing-at-a-dead-end": (
            line, {"outcome": "playing"},
            r'outcome is "playing", but no move is left at the end of its events \(that is "stuck"\)$',
        ),
        "out-of-time-at-a-dead-end": (
            line, {"outcome": "out_of_time", "timed": True, "move_limit": 30},
            r'outcome is "out_of_time", but no move is left at the end of its events \(that is "stuck"\)$',
        ),
        "out-of-time-after-the-win": (
            solution, {"outcome": "out_of_time", "timed": True, "move_limit": 10},
            r'outcome is "out_of_time", but its events win$',
        ),
        "out-of-time-without-a-move-limit": (
            [first], {"outcome": "out_of_time", "timed": True},
            r'outcome is "out_of_time", but move_limit is null \(only a move limit runs out\)$',
        ),
        "a-move-limit-without-the-clock": (
            [first], {"move_limit": 30},
            r"move_limit is 30, but timed is false \(a move limit runs on the clock\)$",
        ),
        "a-move-limit-not-offered": (
            [first], {"timed": True, "move_limit": 45}, r"move_limit: 45 is not one of 10, 30, 60$"
        ),
        "a-mode-not-known": (
            [first], {"mode": "purist"}, r'mode: "purist" is not one of "relaxed", "one_attempt"$'
        ),
    }  # fmt: skip
    made = {}
    for name, (events, keys, problem) in cases.items():
        outcome = keys.pop("outcome", None)
        found, label = _one(boards, events, outcome=outcome, **keys)
        made[name] = (found, label + problem)
    return made


REFUSAL_NAMES = [
    "an-undo-in-a-one-attempt-game", "a-hint-in-a-one-attempt-game", "a-restart-in-a-one-attempt-game",
    "a-redo-in-a-one-attempt-game", "an-event-after-a-one-attempt-dead-end", "playing-at-a-dead-end",
    "out-of-time-at-a-dead-end", "out-of-time-after-the-win", "out-of-time-without-a-move-limit",
    "a-move-limit-without-the-clock", "a-move-limit-not-offered", "a-mode-not-known",
]  # fmt: skip


def test_every_refusal_is_run(boards):
    assert sorted(REFUSAL_NAMES) == sorted(_refusals(boards))


@pytest.mark.parametrize("case", REFUSAL_NAMES)
def test_an_attempt_against_its_mode_is_refused_in_one_line(tmp_path, play_pack, boards, case):
    found, pattern = _refusals(boards)[case]
    _refused(tmp_path, play_pack, found, pattern)


def test_an_attempt_of_the_other_version_is_refused_wherever_the_head_is(boards):
    """A version 1 file with a mode, a version 2 file without: refused, the version before or after the deals."""
    deal_id, deal, _ = boards[0]
    entry = replayed("x1-aaaaaaaa", deal, stuck_line(deal)[:1])
    label = f"plays.json: deals[0].attempts[0] ({deal_id} attempt x1-aaaaaaaa): "
    newer = document([deal_entry(deal_id, [entry])])
    older = newer | {"version": 1}
    bare = newer | {"deals": [deal_entry(deal_id, [as_version_1(entry)])]}
    for found, problem in [
        (older, '"mode" is no key of a plays export of version 1'),
        (bare, '"mode" is missing'),
    ]:
        deals_first = {"deals": found["deals"]} | {
            key: value for key, value in found.items() if key != "deals"
        }
        for ordered in (found, deals_first):
            with pytest.raises(PlaysError) as raised:
                parse_export(json.dumps(ordered).encode(), source="plays.json")
            assert str(raised.value) == label + problem
    deals_first = {"deals": newer["deals"]} | {key: value for key, value in newer.items() if key != "deals"}
    [read] = parse_export(json.dumps(deals_first).encode(), source="plays.json").deals
    assert read.attempts[0].mode is Mode.RELAXED and read.attempts[0].timed is False


# --- merging ----------------------------------------------------------------------------------------------


def test_a_relaxed_attempt_recorded_stuck_and_then_played_on_is_kept_once_as_played_on(
    tmp_path, play_pack, boards
):
    deal_id, deal, _ = boards[0]
    line = stuck_line(deal)
    stuck = replayed("s1-aaaaaaaa", deal, line)
    later = replayed("s1-aaaaaaaa", deal, [*line, "undo"], seconds=40)
    assert (stuck["outcome"], later["outcome"]) == ("stuck", "playing")
    files = [
        write(tmp_path / "a.json", document([deal_entry(deal_id, [stuck])], exported=10)),
        write(tmp_path / "b.json", document([deal_entry(deal_id, [later])], exported=20)),
    ]
    out = tmp_path / "PLAYS.parquet"
    result = invoke("plays", "import", *files, "--pack", play_pack, "--out", out)
    assert result.exit_code == 0, result.output
    [kept] = read_plays(out).deals[0].attempts
    assert kept.events[-1] == "undo" and kept.outcome is Outcome.PLAYING


def test_one_attempt_id_in_two_modes_is_refused_naming_both(tmp_path, play_pack, boards):
    deal_id, deal, _ = boards[0]
    first = stuck_line(deal)[:1]
    relaxed = replayed("m1-aaaaaaaa", deal, first)
    strict = replayed("m1-aaaaaaaa", deal, first, timed=True, move_limit=30, **ONE_ATTEMPT)
    files = [
        write(tmp_path / "a.json", document([deal_entry(deal_id, [relaxed])])),
        write(tmp_path / "b.json", document([deal_entry(deal_id, [strict])])),
    ]
    result = invoke("plays", "import", *files, "--pack", play_pack, "--out", tmp_path / "PLAYS.parquet")
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    [line] = result.stderr.splitlines()
    assert "b.json: deals[0].attempts[0]" in line and "a.json: deals[0].attempts[0]" in line
    assert line.endswith("(played as relaxed, the other as one attempt, timed, 30 s a move)"), line


# --- the gallery build ------------------------------------------------------------------------------------


def test_records_of_two_gallery_builds_are_imported_and_the_summary_says_so(tmp_path, play_pack, boards):
    """The build id is provenance: a gallery rebuilt from the same pack plays the same deals, and every
    attempt is replayed against the pack's deals, which is the check."""
    (first_id, first, _), (second_id, second, _) = boards
    one = document([deal_entry(first_id, [replayed("g1-aaaaaaaa", first, stuck_line(first))])])
    other = document(
        [deal_entry(second_id, [replayed("g2-aaaaaaaa", second, stuck_line(second))])],
        gallery="fedcba9876543210",
    )
    out = tmp_path / "PLAYS.parquet"
    paths = [write(tmp_path / "one.json", one), write(tmp_path / "other.json", other)]
    result = invoke("plays", "import", *paths, "--pack", play_pack, "--out", out)
    assert result.exit_code == 0, result.output
    assert "from 2 files of 2 gallery builds" in result.stderr
    galleries = {attempt.gallery for deal in read_plays(out).deals for attempt in deal.attempts}
    assert galleries == {GALLERY, "fedcba9876543210"}
    alone = invoke("plays", "import", paths[0], paths[0], "--pack", play_pack, "--out", out)
    assert alone.exit_code == 0 and "gallery build" not in alone.stderr


# --- PLAYS.parquet ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plays_file(tmp_path_factory, play_pack, every_mode) -> Path:
    folder = tmp_path_factory.mktemp("modes")
    out = folder / "PLAYS.parquet"
    result = invoke(
        "plays", "import", write(folder / "plays.json", every_mode), "--pack", play_pack, "--out", out
    )
    assert result.exit_code == 0, result.output
    return out


def test_a_plays_file_written_before_modes_is_read_as_relaxed_and_untimed(tmp_path, plays_file):
    table = pq.read_table(plays_file)
    rows = table.to_pylist()
    for row in rows:
        for attempt in row["attempts"]:
            for name in MODE_FIELDS:
                del attempt[name]
            if attempt["outcome"] == "out_of_time":
                attempt["outcome"] = "abandoned"
    old = pa.Table.from_pylist(rows, schema=PLAYS_SCHEMA_V1).replace_schema_metadata(table.schema.metadata)
    pq.write_table(old, tmp_path / "PLAYS.parquet")
    records = read_plays(tmp_path / "PLAYS.parquet")
    attempts = [attempt for deal in records.deals for attempt in deal.attempts]
    assert len(attempts) == 8
    assert {(attempt.mode, attempt.timed, attempt.move_limit) for attempt in attempts} == {
        (Mode.RELAXED, False, None)
    }
    now = [attempt for deal in read_plays(plays_file).deals for attempt in deal.attempts]
    assert [attempt.events for attempt in attempts] == [attempt.events for attempt in now]


PLAYS_CASES = {
    "mode-banana": ({"mode": "banana"}, "mode 'banana' is not one of relaxed, one_attempt"),
    "move-limit-45": ({"timed": True, "move_limit": 45}, "move_limit 45 is not one of 10, 30, 60"),
    "move-limit-without-the-clock": (
        {"timed": False, "move_limit": 30},
        "move_limit is 30, but timed is false (a move limit runs on the clock)",
    ),
    "out-of-time-without-a-limit": (
        {"outcome": "out_of_time", "move_limit": None},
        'outcome is "out_of_time", but move_limit is null (only a move limit runs out)',
    ),
}


@pytest.mark.parametrize("case", sorted(PLAYS_CASES))
def test_a_mode_out_of_range_in_a_plays_file_is_refused_naming_its_row(tmp_path, plays_file, case):
    change, problem = PLAYS_CASES[case]
    table = pq.read_table(plays_file)
    rows = copy.deepcopy(table.to_pylist())
    rows[0]["attempts"][1].update(change)  # r2-relaxed: won, timed
    bad = tmp_path / "PLAYS.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), bad)
    first = read_plays(plays_file).deals[0]
    with pytest.raises(PlaysError) as raised:
        read_plays(bad)
    assert str(raised.value) == f"{bad}: row 0 ({first.deal_id}): attempt {first.attempts[1].id}: {problem}"


def test_the_attempt_columns_end_with_the_mode():
    assert [field.name for field in ATTEMPT_TYPE][-3:] == list(MODE_FIELDS)
    assert not ATTEMPT_TYPE.field("mode").nullable and ATTEMPT_TYPE.field("move_limit").nullable
    assert ATTEMPT_TYPE.field("move_limit").type == pa.int32()


def test_the_schema_names_the_modes_the_code_names_and_version_1_is_version_2_without_them():
    from pipeline.plays.exports import MODE_KEYS, export_schema

    defs = export_schema()["$defs"]
    newer, older = defs["attempt"]["properties"], defs["attempt_v1"]["properties"]
    assert newer["mode"]["enum"] == [mode.value for mode in Mode]
    assert newer["move_limit"]["anyOf"][1]["enum"] == list(MOVE_LIMITS)
    assert list(newer)[-3:] == list(MODE_KEYS) == list(MODE_FIELDS)
    assert {key: value for key, value in newer.items() if key not in MODE_KEYS and key != "outcome"} == {
        key: value for key, value in older.items() if key != "outcome"
    }
    assert older["outcome"]["enum"] == [o.value for o in Outcome if o is not Outcome.OUT_OF_TIME]
    assert defs["attempt_v1"]["required"] == list(older)
