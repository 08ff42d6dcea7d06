"""Bad play records, every number, time, key and text of them: refused in one line naming the file and the
place (exit 1, nothing written), never a traceback; shown escaped on a terminal. The import reads a file a
record at a time."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline import strict_json
from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.games import BLACK_HOLE, DEAD_KING_GOLF, GAMES, GOLF
from pipeline.plays.checks import check_pack
from pipeline.plays.exports import PlaysError, export_schema, parse_export, read_export
from pipeline.plays.records import PLAYED_GAME_KEY, read_plays
from tests.plays.making import write


def invoke(*args: object):
    return CliRunner().invoke(app, [str(arg) for arg in args])


@pytest.fixture(scope="module")
def small(bot_export: dict[str, Any]) -> dict[str, Any]:
    """A valid export: the bots' first two attempts at the first two deals."""
    found = copy.deepcopy(bot_export)
    found["deals"] = [deal | {"attempts": deal["attempts"][:2]} for deal in found["deals"][:2]]
    return found


def _first(found: dict[str, Any]) -> dict[str, Any]:
    return found["deals"][0]["attempts"][0]


def _text(found: dict[str, Any], *replacements: tuple[str, str]) -> bytes:
    """``found`` as JSON text, each (old, new) of ``replacements`` replaced once: values JSON cannot write."""
    text = json.dumps(found)
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text.encode()


def _label(found: dict[str, Any]) -> str:
    deal = found["deals"][0]
    return f"deals[0].attempts[0] ({deal['deal_id']} attempt {_first(found)['id']})"


def _refused(tmp_path: Path, play_pack: Path, content: bytes, expected: str) -> None:
    """Importing ``content`` exits 1 with the one line ``error: plays.json: EXPECTED``, nothing written."""
    path = tmp_path / "plays.json"
    path.write_bytes(content)
    out = tmp_path / "PLAYS.parquet"
    result = invoke("plays", "import", path, "--pack", play_pack, "--out", out)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    [line] = result.stderr.splitlines()
    assert line.replace(str(tmp_path) + "/", "") == f"error: plays.json: {expected}"
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plays.json"]  # no spool nor temporary left


# --- exports: numbers, times, keys -------------------------------------------------------------------------

HUGE = "9" * 500
VERY_HUGE = "9" * 5000  # longer than Python reads as an int


def _cases(small: dict[str, Any]) -> dict[str, tuple[bytes, str]]:
    label = _label(small)
    first = _first(small)
    seconds = f'"seconds": {json.dumps(first["seconds"])}'
    moves = f'"moves": {first["moves"]}'
    started = f'"started": "{first["started"]}"'
    return {
        "version-nan": (
            _text(small, ('"version": 2', '"version": NaN')),
            "version: NaN, which is no JSON number",
        ),
        "version-infinity": (
            _text(small, ('"version": 2', '"version": -Infinity')),
            "version: -Infinity, which is no JSON number",
        ),
        "version-1e999": (
            _text(small, ('"version": 2', '"version": 1e999')),
            "version: 1e999 is out of range",
        ),
        "version-huge": (
            _text(small, ('"version": 2', f'"version": {HUGE}')),
            "version an integer of 500 digits of the plays export; this blackhole reads versions 1 and 2",
        ),
        "version-very-huge": (
            _text(small, ('"version": 2', f'"version": {VERY_HUGE}')),
            "version: an integer of 5000 digits, out of range",
        ),
        "version-float": (
            _text(small, ('"version": 2', '"version": 2.0')),
            "version 2.0 of the plays export; this blackhole reads versions 1 and 2",
        ),
        "seconds-1e300": (
            _text(small, (seconds, '"seconds": 1e300')),
            f"{label}: seconds: 1e+300 is above 1000000000",
        ),
        "seconds-1e999": (
            _text(small, (seconds, '"seconds": 1e999')),
            f"{label}: seconds: 1e999 is out of range",
        ),
        "seconds-nan": (
            _text(small, (seconds, '"seconds": NaN')),
            f"{label}: seconds: NaN, which is no JSON number",
        ),
        "seconds-negative": (
            _text(small, (seconds, '"seconds": -0.5')),
            f"{label}: seconds: -0.5 is below 0",
        ),
        "moves-huge": (
            _text(small, (moves, f'"moves": {HUGE}')),
            f"{label}: moves: an integer of 500 digits is above 1000000000",
        ),
        "moves-very-huge": (
            _text(small, (moves, f'"moves": {VERY_HUGE}')),
            f"{label}: moves: an integer of 5000 digits, out of range",
        ),
        "moves-1e999": (_text(small, (moves, '"moves": 1e999')), f"{label}: moves: 1e999 is out of range"),
        "cards-played-52": (
            _text(small, (f'"cards_played": {first["cards_played"]}', '"cards_played": 52')),
            f"{label}: cards_played: 52 is above 51",
        ),
        "event-huge": (
            _text(small, ('"events": [', f'"events": [{HUGE}, ')),
            f"{label}: events[0]: an integer of 500 digits is not a pile 0..16 or undo, redo, restart, hint",
        ),
        "event-nan": (
            _text(small, ('"events": [', '"events": [NaN, ')),
            f"{label}: events[0]: NaN, which is no JSON number",
        ),
        "started-year-1-east": (
            _text(small, (started, '"started": "0001-01-01T00:30:00+01:00"')),
            f"{label}: started '0001-01-01T00:30:00+01:00' is out of range (a time from year 1 to 9999 in UTC)",
        ),
        "started-year-9999-west": (
            _text(small, (started, '"started": "9999-12-31T23:30:00-01:00"')),
            f"{label}: started '9999-12-31T23:30:00-01:00' is out of range (a time from year 1 to 9999 in UTC)",
        ),
        "started-year-0": (
            _text(small, (started, '"started": "0000-01-01T00:00:00Z"')),
            f"{label}: started '0000-01-01T00:00:00Z' is not a time (year 0 is out of range)",
        ),
        "exported-year-1-east": (
            _text(small, (f'"exported": "{small["exported"]}"', '"exported": "0001-01-01T00:00:00+05:00"')),
            "exported '0001-01-01T00:00:00+05:00' is out of range (a time from year 1 to 9999 in UTC)",
        ),
        "title-nan": (
            _text(small, ('"title": "Test pack"', '"title": NaN')),
            "title: NaN, which is no JSON number",
        ),
        "top-key-twice": (
            _text(small, ('"pack": "p"', '"pack": "p", "pack": "q"')),
            'the key "pack" is given twice at the top level',
        ),
        "deals-twice": (
            _text(small, ('"format"', '"deals": [], "format"')),
            'the key "deals" is given twice at the top level',
        ),
        "deal-key-twice": (
            _text(small, ('"note": ""', '"note": "", "note": "x"')),
            f'deals[0] ({small["deals"][0]["deal_id"]}): the key "note" is given twice',
        ),
        "attempt-key-twice": (
            _text(small, (moves, f"{moves}, {moves}")),
            f'deals[0].attempts[0] ({small["deals"][0]["deal_id"]}): the key "moves" is given twice',
        ),
        "unknown-game": (
            _text(small, ('"pack": "p"', '"pack": "p", "game": "chess"')),
            'game: "chess" is not one of "black_hole", "all_in_a_row", "dead_king_golf", "golf", "relaxed_golf"',
        ),
        "another-game": (
            _text(small, ('"pack": "p"', '"pack": "p", "game": "dead_king_golf"')),
            "the records are of Dead King Golf, but the pack 'p' (PACK) is of Black Hole: games are never "
            "mixed; give the pack the gallery was made from",
        ),
        "a-deal-id-with-escape-codes": (
            _text(small, (f'"deal_id": "{small["deals"][0]["deal_id"]}"', '"deal_id": "\\u001b[31mred"')),
            "deals[0] (\\x1b[31mred): the pack 'p' has no such deal",
        ),
        "a-lone-surrogate-in-a-note": (
            _text(small, ('"note": ""', '"note": "ab\\ud800"')),
            f"deals[0] ({small['deals'][0]['deal_id']}): note: \\ud800 at character 2 is half a character, not text",
        ),
        "a-lone-surrogate-in-the-title": (
            _text(small, ('"title": "Test pack"', '"title": "\\udfff"')),
            "title: \\udfff at character 0 is half a character, not text",
        ),
        "no-deals": (json.dumps(small | {"deals": None}).encode(), "deals: expected array, found null"),
        "a-deal-not-an-object": (
            json.dumps(small | {"deals": ["x"]}).encode(),
            "deals[0]: expected object, found string",
        ),
        "trailing-data": (
            json.dumps(small).encode() + b" {}",
            "line 1 column {end}: not JSON (Extra data), so not a plays export",
        ),
    }


CASE_NAMES = [
    "version-nan", "version-infinity", "version-1e999", "version-huge", "version-very-huge", "version-float",
    "seconds-1e300", "seconds-1e999", "seconds-nan", "seconds-negative", "moves-huge", "moves-very-huge",
    "moves-1e999", "cards-played-52", "event-huge", "event-nan", "started-year-1-east", "started-year-9999-west",
    "started-year-0", "exported-year-1-east", "title-nan", "top-key-twice", "deals-twice", "deal-key-twice",
    "attempt-key-twice", "unknown-game", "another-game", "a-deal-id-with-escape-codes", "no-deals",
    "a-deal-not-an-object", "trailing-data", "a-lone-surrogate-in-a-note", "a-lone-surrogate-in-the-title",
]  # fmt: skip


def test_every_case_is_run(small):
    assert sorted(CASE_NAMES) == sorted(_cases(small))


@pytest.mark.parametrize("case", CASE_NAMES)
def test_a_bad_export_is_refused_in_one_line(tmp_path, play_pack, small, case):
    content, expected = _cases(small)[case]
    expected = expected.replace("PACK", str(play_pack)).replace("{end}", str(len(json.dumps(small)) + 2))
    _refused(tmp_path, play_pack, content, expected)


def test_golf_records_are_refused_by_a_dead_king_golf_pack_of_the_same_name(small):
    golf = parse_export(json.dumps(small | {"game": "golf"}).encode(), source="golf.json")
    assert golf.game is GOLF
    check_pack(golf, name="p", game=GOLF, folder=Path("packs/p"))
    with pytest.raises(PlaysError) as raised:
        check_pack(golf, name="p", game=DEAD_KING_GOLF, folder=Path("packs/p"))
    assert str(raised.value) == (
        "golf.json: the records are of Golf, but the pack 'p' (packs/p) is of Dead King Golf: games are never "
        "mixed; give the pack the gallery was made from"
    )
    assert parse_export(json.dumps(small).encode(), source="bh.json").game is BLACK_HOLE


def test_the_schema_names_every_game():
    assert export_schema()["properties"]["game"]["enum"] == [game.name for game in GAMES]


def test_the_head_may_come_after_the_deals(tmp_path, play_pack, small):
    """JSON does not order keys: the deals first, the format last, is the same export."""
    reordered = {"deals": small["deals"], **{key: value for key, value in small.items() if key != "deals"}}
    out = tmp_path / "PLAYS.parquet"
    result = invoke(
        "plays", "import", write(tmp_path / "plays.json", reordered), "--pack", play_pack, "--out", out
    )
    assert result.exit_code == 0, result.output
    assert sum(len(deal.attempts) for deal in read_plays(out).deals) == 4


def test_a_bad_record_before_the_head_is_told_once_the_file_is_known_to_be_an_export(small):
    bad = copy.deepcopy(small)
    _first(bad)["hints"] = -1
    reordered = {"deals": bad["deals"], **{key: value for key, value in bad.items() if key != "deals"}}
    with pytest.raises(PlaysError, match=r"attempts\[0\] .*: hints: -1 is below 0$"):
        parse_export(json.dumps(reordered).encode(), source="plays.json")
    other = {"deals": bad["deals"], "format": "something else"}
    with pytest.raises(PlaysError, match='not a plays export \\(no "format"'):
        parse_export(json.dumps(other).encode(), source="plays.json")


def test_an_id_twice_in_one_file_is_refused_on_import_too(tmp_path, play_pack, small):
    bad = copy.deepcopy(small)
    bad["deals"][1]["attempts"].append(copy.deepcopy(_first(bad)))
    deal = bad["deals"][1]["deal_id"]
    attempt_id = _first(bad)["id"]
    _refused(
        tmp_path,
        play_pack,
        json.dumps(bad).encode(),
        f"deals[1].attempts[2] ({deal} attempt {attempt_id}): the id of deals[0].attempts[0] "
        f"({small['deals'][0]['deal_id']}) again",
    )


# --- read a record at a time -----------------------------------------------------------------------------


class _Sink:
    """Records what it is handed, and how much of ``file`` was read by then."""

    def __init__(self, file: io.BytesIO | None = None) -> None:
        self.file = file
        self.attempts: list[str] = []
        self.deals: list[tuple[str, int]] = []

    def attempt(self, number, deal_id, place, attempt, where):
        self.attempts.append(attempt.id)

    def deal(self, number, deal):
        self.deals.append((deal.deal_id, -1 if self.file is None else self.file.tell()))


def test_records_are_handed_on_as_the_file_is_read(tmp_path, bot_export, monkeypatch):
    """The first deal reaches the sink when little of the file is read: nothing holds it whole."""
    from pipeline.plays import exports

    found = copy.deepcopy(bot_export)
    found["deals"] = [deal | {"attempts": deal["attempts"][:2]} for deal in found["deals"][:6]]
    data = json.dumps(found).encode()
    file = io.BytesIO(data)
    sink = _Sink(file)
    monkeypatch.setattr(strict_json, "_PIECE", 64)
    head = exports._read(file, "plays.json", sink)
    assert head.deals == () and head.pack == found["pack"]
    assert sink.attempts == [attempt["id"] for deal in found["deals"] for attempt in deal["attempts"]]
    assert [deal_id for deal_id, _ in sink.deals] == [deal["deal_id"] for deal in found["deals"]]
    read = sink.deals[0][1]
    assert read < len(data) // 2, (read, len(data))
    whole = _Sink()
    assert read_export(write(tmp_path / "plays.json", found), whole).deals == ()
    assert len(whole.attempts) == 12


# --- the JSON stream ---------------------------------------------------------------------------------------


def _streamed(data: bytes, piece: int) -> Any:
    """``data`` read by a Stream a ``piece`` of bytes at a time, as a whole value (objects and arrays walked)."""
    stream = strict_json.Stream(io.BytesIO(data), piece=piece)

    def walk() -> Any:
        first = stream.peek()
        if first == "{":
            stream.take("{")
            found = {}
            while stream.peek() != "}":
                key = stream.key()
                found[key] = walk()
                if stream.peek() != "}":
                    stream.take(",")
            stream.take("}")
            return found
        if first == "[":
            stream.take("[")
            items = []
            while stream.peek() != "]":
                items.append(stream.value())
                if stream.peek() != "]":
                    stream.take(",")
            stream.take("]")
            return items
        return stream.value()

    found = walk()
    stream.end()
    return found


TEXTS = [
    '{"a": [1, 2.5, -3e2, "x\\u00e9\\"", true, null], "b": {"c": [{"d": 123456789012}]}, "e": 7}',
    '\ufeff{\n "note": "caf\u00e9 \u2603 ' + "long " * 50 + '",\n "n": [10, 20, 30]\n}\n',
]


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 64, 1 << 20])
@pytest.mark.parametrize("text", TEXTS)
def test_a_stream_reads_what_json_reads_whatever_the_pieces(text, piece):
    data = text.encode()
    assert _streamed(data, piece) == json.loads(text.removeprefix("\ufeff"))
    stream = strict_json.Stream(io.BytesIO(data), piece=piece)
    stream.value()
    stream.end()
    assert stream.sha256 == __import__("hashlib").sha256(data).hexdigest()


@pytest.mark.parametrize("piece", [1, 5, 1 << 20])
def test_a_stream_places_a_syntax_error_as_json_does(piece):
    good = '{\n  "deals": [\n    {"a": 1},\n    {"b": [1, 2]}\n  ]\n}'
    for cut in range(1, len(good)):
        broken = good[:cut] + "#" + good[cut:]
        try:
            json.loads(broken)
        except json.JSONDecodeError as error:
            expected = (error.lineno, error.colno)
        else:  # inside a string
            continue
        with pytest.raises(strict_json.StreamError) as raised:
            _streamed(broken.encode(), piece)
        assert (raised.value.lineno, raised.value.colno) == expected, broken


def test_a_stream_says_which_byte_is_not_utf8():
    with pytest.raises(strict_json.NotText) as raised:
        _streamed(b'{"a": "\xc3\xa9\xff"}', 3)
    assert raised.value.byte == 9


# --- PLAYS.parquet: numbers, times, game, and what a terminal shows -----------------------------------------


@pytest.fixture(scope="module")
def plays_file(tmp_path_factory, play_pack, small) -> Path:
    folder = tmp_path_factory.mktemp("records")
    out = folder / "PLAYS.parquet"
    marked = copy.deepcopy(small)
    marked["deals"][0]["note"] = "\x1b[31mred\x1b[0m [bold]fun[/] \x07"
    result = invoke(
        "plays", "import", write(folder / "plays.json", marked), "--pack", play_pack, "--out", out
    )
    assert result.exit_code == 0, result.output
    return out


def _rewritten(source: Path, target: Path, change, metadata: dict[bytes, bytes] | None = None) -> Path:
    """``source`` written to ``target`` with ``change`` applied to its first attempt (a dict), ``metadata`` added."""
    table = pq.read_table(source)
    entries = dict(table.schema.metadata) | (metadata or {})
    rows = table.to_pylist()
    change(rows[0]["attempts"][0])
    changed = pa.Table.from_pylist(rows, schema=table.schema.remove_metadata())
    pq.write_table(changed.replace_schema_metadata(entries), target)
    return target


def _started_at(source: Path, target: Path, micros: int) -> Path:
    """``source`` written to ``target`` with its first attempt started ``micros`` after 1970: no datetime
    holds it, so it is set in Arrow."""
    table = pq.read_table(source)
    attempts = table.column("attempts").combine_chunks()
    flat = attempts.values
    started = flat.field("started").cast(pa.int64()).to_pylist()
    started[0] = micros
    fields = [
        pa.array(started, pa.int64()).cast(field.type) if field.name == "started" else flat.field(field.name)
        for field in flat.type
    ]
    values = pa.StructArray.from_arrays(fields, fields=list(flat.type))
    rebuilt = pa.ListArray.from_arrays(attempts.offsets, values, type=attempts.type)
    index = table.schema.get_field_index("attempts")
    pq.write_table(table.set_column(index, table.schema.field("attempts"), rebuilt), target)
    return target


RECORD_CASES = {
    "seconds-1e300": (lambda a: a.update(seconds=1e300), "seconds 1e+300 is not from 0 to 1,000,000,000"),
    "seconds-inf": (lambda a: a.update(seconds=float("inf")), "seconds inf is not from 0 to 1,000,000,000"),
    "seconds-nan": (lambda a: a.update(seconds=float("nan")), "seconds nan is not from 0 to 1,000,000,000"),
    "seconds-negative": (lambda a: a.update(seconds=-1.0), "seconds -1.0 is not from 0 to 1,000,000,000"),
    "moves-negative": (lambda a: a.update(moves=-3), "moves -3 is not from 0 to 1,000,000,000"),
    "moves-above": (lambda a: a.update(moves=2**31 - 1), "moves 2147483647 is not from 0 to 1,000,000,000"),
    "cards-played-60": (lambda a: a.update(cards_played=60), "cards_played 60 is not from 0 to 51"),
}


@pytest.mark.parametrize("case", sorted(RECORD_CASES))
def test_a_bad_number_in_play_records_is_refused_by_report_in_one_line(tmp_path, play_pack, plays_file, case):
    change, problem = RECORD_CASES[case]
    bad = _rewritten(plays_file, tmp_path / "PLAYS.parquet", change)
    first = read_plays(plays_file).deals[0]
    _report_refuses(
        tmp_path, play_pack, bad, f"row 0 ({first.deal_id}): attempt {first.attempts[0].id}: {problem}"
    )


@pytest.mark.parametrize("micros", [2**62, -(2**62)])
def test_a_time_out_of_range_in_play_records_is_refused_by_report(tmp_path, play_pack, plays_file, micros):
    bad = _started_at(plays_file, tmp_path / "PLAYS.parquet", micros)
    deal_id = read_plays(plays_file).deals[0].deal_id
    problem = "an attempt's started is out of range (a time from year 1 to 9999)"
    _report_refuses(tmp_path, play_pack, bad, f"row 0 ({deal_id}): {problem}")


def _report_refuses(tmp_path: Path, play_pack: Path, bad: Path, expected: str) -> None:
    result = invoke("report", play_pack, "--plays", bad, "--charts", tmp_path / "charts")
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    assert result.stderr == f"error: {bad}: {expected}\n"
    assert not (tmp_path / "charts").exists()


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("chess", "its blackhole_plays_game metadata 'chess' names no game"),
        ("golf", "play records of Golf, but the pack 'p' (PACK) is of Black Hole: games are never mixed"),
    ],
)
def test_play_records_of_another_game_are_refused(tmp_path, play_pack, plays_file, game, expected):
    bad = _rewritten(
        plays_file, tmp_path / "PLAYS.parquet", lambda a: None, {PLAYED_GAME_KEY.encode(): game.encode()}
    )
    _report_refuses(tmp_path, play_pack, bad, expected.replace("PACK", str(play_pack)))


def test_a_note_with_escape_codes_and_markup_is_shown_as_written_escaped(tmp_path, play_pack, plays_file):
    result = invoke("report", play_pack, "--plays", plays_file, "--charts", tmp_path / "charts")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\\x1b[" in result.stdout and "[bold" in result.stdout and "\\x07" in result.stdout, result.stdout


def test_play_records_holding_a_deal_or_an_attempt_twice_are_refused(tmp_path, play_pack, plays_file):
    table = pq.read_table(plays_file)
    first = read_plays(plays_file).deals[0]
    twice = pa.concat_tables([table, table.slice(0, 1)])
    pq.write_table(twice, tmp_path / "PLAYS.parquet")
    _report_refuses(
        tmp_path, play_pack, tmp_path / "PLAYS.parquet", f"row 2 ({first.deal_id}): the deal of row 0 again"
    )
    rows = table.to_pylist()
    rows[1]["attempts"][0]["id"] = rows[0]["attempts"][0]["id"]
    again = pa.Table.from_pylist(rows, schema=table.schema)
    pq.write_table(again, tmp_path / "PLAYS.parquet")
    second = read_plays(plays_file).deals[1].deal_id
    _report_refuses(
        tmp_path,
        play_pack,
        tmp_path / "PLAYS.parquet",
        f"row 1 ({second}): attempt {first.attempts[0].id}: the id of an attempt of row 0 again",
    )


def test_a_device_is_no_plays_file():
    with pytest.raises(PlaysError, match=r"^/dev/zero: not a regular file \(a device or a pipe\)"):
        read_plays(Path("/dev/zero"))


def test_a_value_without_end_stops_at_the_longest_a_stream_reads(monkeypatch):
    """A note from a source that never ends it is refused once it passes the limit, not read into memory."""
    monkeypatch.setattr(strict_json, "LONGEST_VALUE", 1000)
    monkeypatch.setattr(strict_json, "_PIECE", 64)
    data = b'{"format": "blackhole-plays", "deals": [{"deal_id": "d", "note": "' + b"a" * 5000
    with pytest.raises(PlaysError) as raised:
        parse_export(data, source="plays.json")
    column = data.index(b'"aaa') + 1
    assert str(raised.value) == (
        f"plays.json: line 1 column {column}: a value longer than 1,000 characters, too long for a plays export"
    )
