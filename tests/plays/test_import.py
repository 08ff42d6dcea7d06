"""blackhole plays import: exports checked against their pack and merged, bad input refused in one line, nothing written."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.rules import Position
from pipeline.plays.checks import check_export
from pipeline.plays.deals import PackDeals, pack_deals
from pipeline.plays.events import COUNT_FIELDS, card_text, replay_events
from pipeline.plays.exports import Outcome, PlaysError, parse_export
from pipeline.plays.records import read_plays
from tests.plays.making import PACK, attempt, deal_entry, document, when, write


def invoke(*args: object):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def import_files(play_pack: Path, out: Path, *files: Path):
    return invoke("plays", "import", *files, "--pack", play_pack, "--out", out)


@pytest.fixture(scope="module")
def small(bot_export: dict[str, Any]) -> dict[str, Any]:
    """A valid export: the bots' first two attempts at the first three deals."""
    found = copy.deepcopy(bot_export)
    found["deals"] = [deal | {"attempts": deal["attempts"][:2]} for deal in found["deals"][:3]]
    return found


def test_an_export_is_imported_with_every_attempt_and_count(tmp_path, play_pack, small):
    out = tmp_path / "PLAYS.parquet"
    result = import_files(play_pack, out, write(tmp_path / "plays.json", small))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote {out}: 6 attempts (6 finished) at 3 deals from 1 file\n"
    records = read_plays(out)
    assert records.pack == PACK and records.curated_from is None
    assert [source.file for source in records.sources] == ["plays.json"]
    in_pack_order = [
        deal_id
        for deal_id in pack_deals(play_pack).deals
        if deal_id in {d["deal_id"] for d in small["deals"]}
    ]
    assert [deal.deal_id for deal in records.deals] == in_pack_order
    entries = {deal["deal_id"]: deal for deal in small["deals"]}
    for deal in records.deals:
        for found, given in zip(deal.attempts, entries[deal.deal_id]["attempts"], strict=True):
            assert list(found.events) == given["events"]
            assert found.counts() == {name: given[name] for name in COUNT_FIELDS}
            assert (found.id, found.outcome.value, found.clean, found.seconds) == (
                given["id"],
                given["outcome"],
                given["clean"],
                given["seconds"],
            )
            assert found.started == datetime.fromisoformat(given["started"])
            assert found.gallery == small["gallery"]


# --- refusals: one line naming the file and the record, exit 1, nothing written --------------------------


def _first(found: dict[str, Any]) -> dict[str, Any]:
    return found["deals"][0]["attempts"][0]


def _label(found: dict[str, Any]) -> str:
    deal = found["deals"][0]
    return rf"deals\[0\]\.attempts\[0\] \({deal['deal_id']} attempt {_first(found)['id']}\)"


def _illegal_first_move(found: dict[str, Any], pack_rows: Any) -> str:
    """Make the first attempt open with a card that does not fit on the A♠; the problem it gives."""
    from pipeline.game.deal import Deal

    board = next(
        row["board"] for row in pack_rows.to_pylist() if row["deal_id"] == found["deals"][0]["deal_id"]
    )
    start = Position.start(Deal.from_board_text(board))
    pile = next(pile for pile in range(17) if pile not in start.legal_moves())
    _first(found)["events"][0] = pile
    card = start.top_card(pile)
    assert card is not None
    return f"event 1 plays pile {pile}, whose free card {card_text(card)} does not fit on A♠"


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], str]:
    def change(found: dict[str, Any]) -> str:
        _first(found)[key] = value
        return ""

    return change


# The refusals the command is tested with end to end; those of RECORD_REFUSALS are read by the library alone
# (the same messages, without the command's "error: " and exit code), to keep the tests quick.
REFUSALS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "another-pack": (
        lambda f: f.update(pack="q"),
        r"plays\.json: the records are of the pack 'q', not of 'p' \(",
    ),
    "wrong-version": (
        lambda f: f.update(version=3),
        r"plays\.json: version 3 of the plays export; this blackhole reads versions 1 and 2$",
    ),
    "not-an-export": (
        lambda f: f.update(format="blackhole-manifest"),
        r'plays\.json: not a plays export \(no "format": "blackhole-plays"',
    ),
    "unknown-deal": (
        lambda f: f["deals"][0].update(deal_id="seed-99-1"),
        r"plays\.json: deals\[0\] \(seed-99-1\): the pack 'p' has no such deal$",
    ),
    "a-count-that-disagrees": (
        lambda f: _first(f).update(undos=_first(f)["undos"] + 1),
        r"OUTCOME: undos is (\d+), but its events give (\d+)$",
    ),
}
RECORD_REFUSALS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "a-deal-twice": (
        lambda f: f["deals"].append(copy.deepcopy(f["deals"][0]) | {"attempts": []}),
        r"plays\.json: deals\[3\] \(seed-77-\d+\): the deal of deals\[0\] again$",
    ),
    "an-id-twice": (
        lambda f: f["deals"][1]["attempts"].append(copy.deepcopy(_first(f))),
        r"plays\.json: deals\[1\]\.attempts\[2\] \(seed-77-\d+ attempt bot0x0-\w+\): the id of deals\[0\]\.attempts\[0\] \(seed-77-\d+\) again$",
    ),
    "outcome-not-known": (
        _set("outcome", "wins"),
        r'OUTCOME: outcome: "wins" is not one of "won", "stuck", "abandoned", "out_of_time", "playing"$',
    ),
    "a-count-missing": (lambda f: _first(f).pop("undos"), r'OUTCOME: "undos" is missing$'),
    "an-unknown-key": (_set("player", "me"), r'OUTCOME: "player" is no key of a plays export$'),
    "no-event": (
        _set("events", []),
        r"OUTCOME: events: empty \(an attempt without an event is never recorded\)$",
    ),
    "an-event-not-known": (
        lambda f: _first(f)["events"].insert(0, "shuffle"),
        r"OUTCOME: events\[0\]: \"shuffle\" is not a pile 0\.\.16 or undo, redo, restart, hint$",
    ),
    "a-time-not-iso": (
        _set("started", "yesterday"),
        r'OUTCOME: started: "yesterday" is not an ISO 8601 time',
    ),
    "a-time-that-is-no-time": (
        _set("started", "2026-12-01T10:64:00+00:00"),
        r"OUTCOME: started '2026-12-01T10:64:00\+00:00' is not a time \(minute must be in 0\.\.59\)$",
    ),
    "ended-before-started": (
        _set("ended", when(-5)),
        r"OUTCOME: ended \(2026-12-01T09:55:00\+00:00\) is before started$",
    ),
    "ended-while-playing": (
        _set("outcome", "playing"),
        r"OUTCOME: ended is set, but the attempt is still playing$",
    ),
    "dead-ends-that-disagree": (
        lambda f: _first(f).update(dead_ends=_first(f)["dead_ends"] + 2),
        r"OUTCOME: dead_ends is \d+, but its events give \d+$",
    ),
    "cards-that-disagree": (
        _set("cards_played", 50),
        r"OUTCOME: cards_played is 50, but its events give 51$",
    ),
    "an-outcome-that-disagrees": (
        _set("outcome", "abandoned"),
        r'OUTCOME: outcome is "abandoned", but its events win$',
    ),
    "clean-that-disagrees": (
        lambda f: _first(f).update(clean=not _first(f)["clean"]),
        r"OUTCOME: clean is (true|false), but it is ",
    ),
    "a-negative-count": (_set("hints", -1), r"OUTCOME: hints: -1 is below 0$"),
    "a-number-as-a-count": (_set("moves", 51.0), r"OUTCOME: moves: expected integer, found number$"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_bad_export_is_refused_in_one_line_naming_the_file_and_the_record(tmp_path, play_pack, small, case):
    change, pattern = REFUSALS[case]
    found = copy.deepcopy(small)
    change(found)
    _refused(
        tmp_path,
        play_pack,
        write(tmp_path / "plays.json", found),
        pattern.replace("OUTCOME", r"plays\.json: " + _label(small)),
    )


@pytest.fixture(scope="module")
def small_deals(play_pack: Path, small: dict[str, Any]) -> PackDeals:
    return pack_deals(play_pack, {deal["deal_id"] for deal in small["deals"]} | {"seed-77-1"})


@pytest.mark.parametrize("case", sorted(RECORD_REFUSALS))
def test_a_bad_record_is_refused_naming_the_file_and_the_record(small, small_deals, case):
    change, pattern = RECORD_REFUSALS[case]
    found = copy.deepcopy(small)
    change(found)
    with pytest.raises(PlaysError) as raised:
        check_export(parse_export(json.dumps(found).encode(), source="plays.json"), small_deals)
    assert "\n" not in str(raised.value)
    assert re.search(pattern.replace("OUTCOME", r"plays\.json: " + _label(small)), str(raised.value)), (
        raised.value
    )


def test_a_move_that_does_not_replay_is_refused_naming_the_event(tmp_path, play_pack, small, pack_rows):
    found = copy.deepcopy(small)
    problem = _illegal_first_move(found, pack_rows)
    _refused(
        tmp_path,
        play_pack,
        write(tmp_path / "plays.json", found),
        rf"plays\.json: {_label(small)}: {re.escape(problem)}$",
    )


@pytest.mark.parametrize(
    ("content", "pattern"),
    [
        (
            b'{"format": "blackhole-plays", "version": 1, "deals": [',
            r"plays\.json: line 1 column \d+: not JSON \(.*\), so not a plays export$",
        ),
        (b"\xff\xfe{}", r"plays\.json: byte 0: not UTF-8 text, so not a plays export$"),
        (
            b'{"format": "blackhole-plays", "version": 1, "seconds": NaN}',
            r"plays\.json: seconds: NaN, which is no JSON number$",
        ),
        (b"[1, 2]", r"plays\.json: not a plays export"),
        (
            b'{"format": "blackhole-plays", "format": "blackhole-plays", "version": 1}',
            r'plays\.json: the key "format" is given twice at the top level$',
        ),
    ],
    ids=["damaged", "not-utf8", "nan", "a-list", "a-key-twice"],
)
def test_a_damaged_file_is_refused_in_one_line(tmp_path, play_pack, content, pattern):
    path = tmp_path / "plays.json"
    path.write_bytes(content)
    _refused(tmp_path, play_pack, path, pattern)


def test_a_missing_file_and_a_folder_are_refused(tmp_path, play_pack):
    _refused(tmp_path, play_pack, tmp_path / "none.json", r"none\.json: no such file$")
    (tmp_path / "folder.json").mkdir()
    _refused(
        tmp_path,
        play_pack,
        tmp_path / "folder.json",
        r"folder\.json: is a folder, expected a plays export \(JSON\)$",
    )


def test_a_refusal_leaves_an_earlier_plays_file_as_it_was(tmp_path, play_pack, small):
    out = tmp_path / "PLAYS.parquet"
    assert import_files(play_pack, out, write(tmp_path / "good.json", small)).exit_code == 0
    before = out.read_bytes()
    bad = copy.deepcopy(small)
    bad["deals"][2]["attempts"][1]["moves"] += 1
    result = import_files(play_pack, out, tmp_path / "good.json", write(tmp_path / "bad.json", bad))
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stderr.startswith("error: ") and "bad.json: deals[2].attempts[1]" in result.stderr
    assert out.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["PLAYS.parquet", "bad.json", "good.json"]


def _refused(tmp_path: Path, play_pack: Path, path: Path, pattern: str) -> None:
    out = tmp_path / "PLAYS.parquet"
    result = import_files(play_pack, out, path)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines
    assert re.search(pattern, lines[0].removeprefix("error: ").replace(str(tmp_path) + "/", "")), lines[0]
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left either


# --- merging --------------------------------------------------------------------------------------------


def test_the_same_file_imported_twice_keeps_each_attempt_once(tmp_path, play_pack, small):
    once, twice = tmp_path / "once.parquet", tmp_path / "twice.parquet"
    path = write(tmp_path / "plays.json", small)
    assert import_files(play_pack, once, path).exit_code == 0
    result = import_files(play_pack, twice, path, path)
    assert result.exit_code == 0, result.output
    assert "6 found again and kept once" in result.stderr
    assert read_plays(twice).deals == read_plays(once).deals


def _playing_prefix(entry: dict[str, Any], deal: Any, events: int) -> dict[str, Any]:
    """``entry`` as an export taken while it was played, about ``events`` events in (fewer when a dead end
    is there: the page records an attempt at a dead end as stuck)."""
    while events > 1 and replay_events(deal, entry["events"][:events]).stuck:
        events -= 1
    kept = entry["events"][:events]
    tally = replay_events(deal, kept)
    counts = tally.counts()
    return entry | {
        "events": kept,
        "outcome": "playing",
        "ended": None,
        "clean": False,
        "seconds": 3.0,
        **counts,
    }


@pytest.mark.parametrize("earlier_first", [True, False])
def test_an_attempt_exported_while_playing_gives_way_to_its_later_record(
    tmp_path, play_pack, small, deals, earlier_first
):
    deal_id, deal = deals[0]
    later = copy.deepcopy(small)
    full = later["deals"][0]["attempts"][0]
    earlier = document([deal_entry(deal_id, [_playing_prefix(full, deal, 20)])], exported=5.0)
    files = [write(tmp_path / "earlier.json", earlier), write(tmp_path / "later.json", later)]
    out = tmp_path / "PLAYS.parquet"
    result = import_files(play_pack, out, *(files if earlier_first else files[::-1]))
    assert result.exit_code == 0, result.output
    assert "1 played on in a later export" in result.stderr
    [kept] = [found for deal in read_plays(out).deals for found in deal.attempts if found.id == full["id"]]
    assert list(kept.events) == full["events"] and kept.outcome is Outcome(full["outcome"])
    assert sum(len(deal.attempts) for deal in read_plays(out).deals) == 6


def test_two_records_of_one_id_that_are_not_one_attempt_are_refused_naming_both(
    tmp_path, play_pack, small, deals
):
    deal_id, deal = deals[0]
    full = small["deals"][0]["attempts"][0]
    other = _playing_prefix(full, deal, 20)
    position = Position.after(deal, [event for event in other["events"] if isinstance(event, int)][:0])
    other = _playing_prefix(full | {"events": [position.legal_moves()[-1], *full["events"][1:]]}, deal, 1)
    if other["events"] == full["events"][:1]:
        pytest.skip("the deal opens with one legal move")
    first = write(tmp_path / "a.json", small)
    second = write(tmp_path / "b.json", document([deal_entry(deal_id, [other])]))
    result = import_files(play_pack, tmp_path / "PLAYS.parquet", first, second)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    [line] = result.stderr.splitlines()
    assert f"b.json: deals[0].attempts[0] ({deal_id} attempt {full['id']}): another attempt than" in line
    assert f"a.json: deals[0].attempts[0] ({deal_id} attempt {full['id']}), which has the same id" in line
    assert line.endswith("(neither's events begin the other's)")
    assert not (tmp_path / "PLAYS.parquet").exists()


def test_an_ended_attempt_that_plays_on_elsewhere_is_refused(tmp_path, play_pack, small, deals):
    deal_id, deal = deals[0]
    full = small["deals"][0]["attempts"][0]
    stopped = _playing_prefix(full, deal, 20) | {"outcome": "abandoned", "ended": when(30)}
    files = [
        write(tmp_path / "a.json", small),
        write(tmp_path / "b.json", document([deal_entry(deal_id, [stopped])])),
    ]
    result = import_files(play_pack, tmp_path / "PLAYS.parquet", *files)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    assert f'the one with fewer events ended "{stopped["outcome"]}", yet the other plays on' in result.stderr


def test_notes_and_marks_are_those_of_the_later_export(tmp_path, play_pack, deals):
    first_id, second_id = deals[0][0], deals[1][0]
    early = document(
        [deal_entry(first_id, [], note="fun", mark="ship"), deal_entry(second_id, [], note="dull")],
        exported=10,
    )
    late = document([deal_entry(first_id, [], note="", mark="reject")], exported=20)
    for order in ([early, late], [late, early]):
        paths = [write(tmp_path / f"{number}.json", found) for number, found in enumerate(order)]
        out = tmp_path / "PLAYS.parquet"
        result = import_files(play_pack, out, *paths)
        assert result.exit_code == 0, result.output
        assert "1 deal marked reject" in result.stderr
        found = {
            deal.deal_id: (deal.note, None if deal.mark is None else deal.mark.value)
            for deal in read_plays(out).deals
        }
        assert found == {first_id: ("", "reject"), second_id: ("dull", None)}


def test_an_export_written_by_hand_with_every_kind_of_event_is_read(tmp_path, play_pack, deals):
    """Undo, redo, restart (undone too) and hints, as the schema's documentation shows them."""
    deal_id, deal = deals[0]
    start = Position.start(deal)
    one = start.legal_moves()[0]
    two = start.play(one).legal_moves()[0]
    events = [one, "hint", two, "undo", "redo", "restart", "undo", "hint"]
    record = attempt(
        "mq3k1x0-a8d0x2kq",
        events,
        outcome="abandoned",
        moves=2,
        undos=2,
        redos=1,
        restarts=1,
        hints=2,
        cards_played=2,
    )
    out = tmp_path / "PLAYS.parquet"
    result = import_files(
        play_pack, out, write(tmp_path / "plays.json", document([deal_entry(deal_id, [record])]))
    )
    assert result.exit_code == 0, result.output
    [found] = read_plays(out).deals[0].attempts
    assert list(found.events) == events and found.restarts == 1 and found.redos == 1


def test_the_schema_is_draft_2020_12_and_names_what_the_code_names():
    import jsonschema

    from pipeline.plays.events import Action
    from pipeline.plays.exports import Mark, export_schema

    schema = export_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    attempt_schema = schema["$defs"]["attempt"]
    assert attempt_schema["properties"]["outcome"]["enum"] == [outcome.value for outcome in Outcome]
    assert schema["$defs"]["deal"]["properties"]["mark"]["enum"] == [None, *(mark.value for mark in Mark)]
    assert schema["$defs"]["event"]["anyOf"][1]["enum"] == [action.value for action in Action]
    assert attempt_schema["required"] == list(attempt_schema["properties"])
    assert [name for name in attempt_schema["properties"] if name in COUNT_FIELDS] == list(COUNT_FIELDS)


def test_the_bots_export_is_valid_under_the_schema(bot_export):
    """The schema itself, not the import's quicker check of the events (its first 3 deals: jsonschema is slow)."""
    import jsonschema

    from pipeline.plays.exports import export_schema

    jsonschema.validate(
        json.loads(json.dumps(bot_export | {"deals": bot_export["deals"][:3]})), export_schema()
    )


def test_the_schema_page_documents_the_export_and_every_column_of_plays_parquet():
    import jsonschema

    from pipeline.plays.exports import export_schema
    from pipeline.plays.records import ATTEMPT_TYPE, PLAYS_SCHEMA

    page = (Path(__file__).parents[2] / "docs" / "schema.md").read_text(encoding="utf-8")
    section = page.split("## Play records", 1)[1]
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    jsonschema.validate(example, export_schema())
    for key in export_schema()["$defs"]["attempt"]["properties"]:
        assert f"`{key}`" in section, key
    for name in [*PLAYS_SCHEMA.names, *(field.name for field in ATTEMPT_TYPE)]:
        assert f"| `{name}`" in section or f"`{name}`," in section, name


def test_an_export_is_read_from_standard_input(tmp_path, play_pack, small):
    out = tmp_path / "PLAYS.parquet"
    text = json.dumps(small)
    result = CliRunner().invoke(
        app, ["plays", "import", "-", "--pack", str(play_pack), "--out", str(out)], input=text
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote {out}: 6 attempts (6 finished) at 3 deals from 1 file\n"
    assert [source.file for source in read_plays(out).sources] == ["<stdin>"]


def test_standard_input_is_read_once(tmp_path, play_pack):
    result = import_files(play_pack, tmp_path / "PLAYS.parquet", Path("-"), Path("-"))
    assert result.exit_code == ExitCode.USAGE, result.output
    bad = CliRunner().invoke(
        app,
        ["plays", "import", "-", "--pack", str(play_pack), "--out", str(tmp_path / "P.parquet")],
        input="{}",
    )
    assert bad.exit_code == 1, bad.output
    assert bad.stderr.startswith("error: <stdin>: not a plays export"), bad.stderr
    assert not any(tmp_path.iterdir())
