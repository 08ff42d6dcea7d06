"""The harness: every command over a corpus of bad inputs of the newer kinds, held to the promise of
docs/when-things-go-wrong.md.

tests/test_bad_inputs.py checks each of its cases' exact error line; this harness
sweeps wider and checks less about each case, more about all of them. Its
corpus (:data:`CASES`, one row a case, its kind in :data:`KINDS`) is built by
code from a few good inputs made once a session (:func:`harness_built`): play-record
exports and ``PLAYS.parquet`` with numbers, dates, keys and types out of range;
packs, boards and records of the family's other games where they do not belong;
free text (names, notes, titles, deal ids) holding escape codes, tabs, NULs and
a spreadsheet's formula marks; packs whose data files are damaged with their
checksums brought up to date; configurations and boards with numbers past
their range. Every case runs ``blackhole`` in process (typer's CliRunner) in
an empty folder of its own, and must:

- end with a code of the documented table (pipeline/errors.py) other than 70,
  and one of the case's own: no input, however bad, is a bug;
- print no traceback, and let no exception out;
- on exit 1, print one printable ``error: `` line on stderr (naming what the case's
  ``expect`` says, where it says) and nothing on stdout (solve-board prints its
  good boards' answers, and in JSON the errors too);
- print nothing unprintable anywhere (control characters are shown escaped);
- when it fails, leave its folder as it was;
- pass the case's own check of what it wrote, if it has one (a CSV cell that a
  spreadsheet would run as a formula is neutralised).

``pytest tests/test_bad_input_harness.py -k corpus_size -s`` prints the corpus's size by kind; with
``BLACKHOLE_HARNESS_LOG=FILE`` set, each case appends its kind, exit code and last line to FILE.
"""

from __future__ import annotations

import copy
import csv
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import Deal
from pipeline.game.games import GAMES, game_named
from pipeline.packs.folders import sha256_of
from pipeline.plays.events import replay_events
from pipeline.plays.records import PLAYS_SCHEMA
from tests.plays.making import attempt, deal_entry, document
from tests.test_bad_inputs import Scratch, built, cell, feather_bytes, snapshot

__all__ = ["built"]  # test_bad_inputs.py's fixture, which harness_built extends

Args = list[Any]
Check = Callable[[Path, Any], None]

DOCUMENTED = frozenset(int(code) for code in ExitCode) - {ExitCode.INTERNAL_ERROR}
"""The exit codes a bad input may end with: the table's, but a bug's."""
REFUSED = frozenset({ExitCode.BAD_INPUT})
USAGE = frozenset({ExitCode.USAGE})
REFUSED_OR_USAGE = REFUSED | USAGE
TAKEN_OR_REFUSED = frozenset({ExitCode.OK, ExitCode.BAD_INPUT})
"""For an input that a command may take as it is (shown escaped) or refuse: either is the promise kept."""
ANY_BUT_A_BUG = DOCUMENTED

KINDS = {
    "plays": "play-record exports and PLAYS.parquet: numbers, dates, keys and types out of range, damage",
    "family": "the family's games where another is expected: deals, part files, boards, records, --game",
    "free text": "names, notes, titles and deal ids holding escape codes, tabs, NULs, formula marks",
    "damaged packs": "data files damaged with their checksums updated, manifests with numbers past range",
    "numbers": "configurations, tiers files, boards, deal ids and options with numbers out of range",
}
AT_LEAST = {"plays": 150, "family": 100, "free text": 50, "damaged packs": 130, "numbers": 80}
"""The fewest cases of each kind the corpus holds."""

LOG = "BLACKHOLE_HARNESS_LOG"
PACK = "packs/p"  # the Black Hole pack of the 20 deals of seed 77, named p
PLAYS = "PLAYS.parquet"  # records of it
EXPORT = "plays.json"  # an export of play of it
GOLF = "family/golf/packs/g"  # a Golf pack of 4 deals, named g
DEAD_KING = "family/dead_king_golf/packs/g"  # a Dead King Golf pack of the same 4 seeds, named g too
ROW = "family/all_in_a_row/packs/g"  # an All in a Row pack, likewise
FAMILY = {"golf": GOLF, "dead_king_golf": DEAD_KING, "all_in_a_row": ROW}


@dataclass(frozen=True)
class Case:
    """A bad input of ``kind``: how to make it and the command line (``build``), the exit codes it may
    give, what it feeds on standard input, and a ``check`` of what it wrote (the folder, the result)."""

    id: str
    kind: str
    build: Callable[[Scratch], Args]
    codes: frozenset[int] = REFUSED
    stdin: str | bytes | None = None
    check: Check | None = None
    expect: str | None = None  # a pattern the one error line must hold, where it matters what it names


SLOW = {
    *(f"report-plays-note-{name}" for name in ("tab", "nul", "newlines", "formula", "bidi")),
    *(
        f"report-plays-{name}"
        for name in ("started-year-0001", "started-year-9999", "no-rows", "seconds-1e308")
    ),
    "report-plays-deal-twice",
}
"""The cases whose input the command may take and then draw charts of, beyond one of each kind."""


def invoke(*args: object) -> Any:
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


# --- the good inputs the cases damage ----------------------------------------------------------------


@pytest.fixture(scope="session")
def harness_built(tmp_path_factory: pytest.TempPathFactory, built: Path, pack_rows: pa.Table) -> Path:
    """test_bad_inputs.py's good inputs (deals.parquet, solved.parquet, packs/p, packs/c, tiers.toml) and:

    ``plays.json``, an export of play of packs/p (a win and a loss at each of
    three deals, a note and a mark), and ``PLAYS.parquet`` imported from it;
    ``family/GAME/packs/g`` for Golf, Dead King Golf and All in a Row, a run
    of 4 deals of seed 2 each, all named ``g``; ``golf-plays.json``, an export
    of play of the Golf pack (a win and a loss); ``golf-deals.parquet`` and ``golf.txt``,
    3 Golf deals as a deals pack and as board text.
    """
    folder = tmp_path_factory.mktemp("harness") / "built"
    shutil.copytree(built, folder)
    rows = pack_rows.select(["deal_id", "board", "solution"]).to_pylist()
    wins = [row for row in rows if row["solution"]][:3]
    (folder / EXPORT).write_text(json.dumps(_play_of(wins, Deal.from_board_text, pack="p"), indent=1))
    invoke("plays", "import", folder / EXPORT, "--pack", folder / PACK, "--out", folder / PLAYS, "-q")
    for name in FAMILY:
        runs = folder / "family" / name
        runs.mkdir(parents=True)
        (runs / "run.toml").write_text(
            f'[run]\nname = "g"\nseed = 2\ncount = 4\ngame = "{name}"\noutput = "."\n'
            "[crosscheck]\nsample = 0\nloss_sample = 0\n"
        )
        invoke("run", "--config", runs / "run.toml", "-q")
    golf = game_named("golf")
    golf_rows = [
        row
        for part in sorted((folder / GOLF).glob("tier=*/part-0.parquet"))
        for row in pq.read_table(part).select(["deal_id", "board", "solution"]).to_pylist()
    ]
    golf_wins = [row for row in golf_rows if row["solution"]][:1]
    play = _play_of(golf_wins, lambda board: Deal.from_board_text(board, game=golf), pack="g")
    (folder / "golf-plays.json").write_text(json.dumps(play | {"game": "golf"}, indent=1))
    invoke("generate", "--game", "golf", "--seed", "9", "-n", "3", "-o", folder / "golf-deals.parquet", "-q")
    boards = [Deal.from_board_text(row["board"], game=golf).to_board_text() for row in golf_rows[:3]]
    (folder / "golf.txt").write_text("\n".join(boards))
    return folder


def _play_of(wins: list[dict[str, Any]], deal_of: Callable[[str], Deal], *, pack: str) -> dict[str, Any]:
    """An export of play of ``wins`` (rows with a board and a solution): at each, a win by its solution
    and a loss (its first two moves, then abandoned); the first deal with a note, the second marked ship."""
    entries = []
    for number, row in enumerate(wins):
        deal = deal_of(row["board"])
        won, lost = list(row["solution"]), list(row["solution"][:2])
        attempts = [
            _attempt(f"win{number}", deal, won, started=10.0 * number),
            _attempt(f"loss{number}", deal, lost, started=10.0 * number + 5),
        ]
        note = "a fine ending" if number == 0 else ""
        entries.append(deal_entry(row["deal_id"], attempts, note=note, mark="ship" if number == 1 else None))
    return document(entries, pack=pack)


def _attempt(attempt_id: str, deal: Deal, events: list[int], *, started: float) -> dict[str, Any]:
    """The attempt entry of ``events`` at ``deal``, its counts and outcome those the replay gives."""
    tally = replay_events(deal, events)
    outcome = "won" if tally.won else "stuck" if tally.stuck else "abandoned"
    return attempt(attempt_id, events, outcome=outcome, started=started, clean=tally.clean, **tally.counts())


# --- making bad inputs from good ones ----------------------------------------------------------------


class Inputs(Scratch):
    """A case's folder and the means to fill it: :class:`~tests.test_bad_inputs.Scratch`'s, and these."""

    def export(self, change: Callable[[dict[str, Any]], Any], *, name: str = EXPORT, of: str = EXPORT) -> str:
        """The export ``of`` changed by ``change``, which changes it in place (returning None) or returns
        the new document, or its text or bytes as the file holds them."""
        found = json.loads((self.built / of).read_text(encoding="utf-8"))
        made = change(found)
        made = found if made is None else made
        text = made if isinstance(made, str | bytes) else json.dumps(made, indent=1)
        return self.write(name, text)

    def plays(
        self, change: Callable[[list[dict[str, Any]]], None], *, metadata: dict[bytes, bytes] | None = None
    ) -> str:
        """``PLAYS.parquet`` with its rows changed in place by ``change`` and its metadata's keys by
        ``metadata``: of the records' own types where the new values fit them, else of those Arrow finds."""
        table = pq.read_table(self.built / PLAYS)
        rows = table.to_pylist()
        change(rows)
        kept = {**(table.schema.metadata or {}), **(metadata or {})}
        try:
            made = pa.Table.from_pylist(rows, schema=PLAYS_SCHEMA.with_metadata(kept))
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, TypeError):
            made = pa.Table.from_pylist(rows).replace_schema_metadata(kept)
        pq.write_table(made, self.folder / PLAYS, compression="zstd")
        return PLAYS

    def signed(self, pack: str, relative: str, data: bytes, *, rows: int | None = None) -> str:
        """The pack folder ``pack`` with its file ``relative`` holding ``data``, the manifest's SHA-256 (and
        row count, given ``rows``) of it brought up to date: only a reader of the file itself can tell."""
        self.fixture(pack)
        path = self.folder / pack / relative
        path.write_bytes(data)
        manifest = self.folder / pack / "_manifest.json"
        found = json.loads(manifest.read_text(encoding="utf-8"))
        for entry in found["files"]:
            if entry["path"] == relative:
                entry["sha256"] = sha256_of(path)
                if rows is not None:
                    entry["rows"] = rows
        manifest.write_text(json.dumps(found, indent=2), encoding="utf-8")
        return pack

    def part(self, pack: str, change: Callable[[bytes], bytes], *, tier: str = "easy") -> str:
        """``pack`` with the bytes of ``tier``'s data file changed by ``change``, signed."""
        relative = f"tier={tier}/part-0.parquet"
        return self.signed(pack, relative, change((self.built / pack / relative).read_bytes()))

    def manifest_text(self, change: Callable[[str], str], pack: str = PACK) -> str:
        """``pack`` with its manifest's text changed by ``change`` (numbers JSON's parser reads past range)."""
        self.fixture(pack)
        path = self.folder / pack / "_manifest.json"
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
        return pack

    def mixed_pack(self, into: str = PACK, of: str = GOLF, *, claims: str = "its own") -> str:
        """``into`` with its ``easy`` data file replaced by ``of``'s, the manifest agreeing in every count.

        ``claims``: what the new file's metadata says: ``its own`` (all of ``of``'s file), ``its game``
        (``into``'s file's, but its game and dealing scheme: only the game differs), ``the pack's`` (all of
        ``into``'s file's: only its boards can tell).
        """
        relative = "tier=easy/part-0.parquet"
        table = pq.read_table(self.built / of / relative)
        self.fixture(into)
        was = pq.read_table(self.folder / into / relative)
        metadata = dict(table.schema.metadata or {})
        if claims != "its own":
            game = {key: metadata[key] for key in (b"game", b"dealing_scheme") if key in metadata}
            metadata = dict(was.schema.metadata or {}) | (game if claims == "its game" else {})
        pq.write_table(
            table.replace_schema_metadata(metadata), self.folder / into / relative, compression="zstd"
        )
        manifest = self.folder / into / "_manifest.json"
        found = json.loads(manifest.read_text(encoding="utf-8"))
        entry = next(entry for entry in found["files"] if entry["path"] == relative)
        more = table.num_rows - was.num_rows
        found["deals"] += more
        found["tiers"]["easy"] += more
        found["verdicts"]["solved"] += more
        entry.update(sha256=sha256_of(self.folder / into / relative), rows=table.num_rows)
        manifest.write_text(json.dumps(found, indent=2), encoding="utf-8")
        return into

    def pack_file(self, fixture: str, column: str, values: list[Any]) -> str:
        """The Parquet fixture ``fixture`` with the first values of ``column`` made ``values``."""

        def change(table: pa.Table) -> pa.Table:
            found = table.column(column).to_pylist()
            found[: len(values)] = values
            at = table.column_names.index(column)
            field = table.schema.field(column)
            return table.set_column(at, field, pa.array(found, field.type))

        return self.table(fixture, change)


def _first_attempt(change: Callable[[dict[str, Any]], None]) -> Callable[[list[dict[str, Any]]], None]:
    """A change of PLAYS.parquet's rows: ``change`` of the first deal's first attempt."""
    return lambda rows: change(rows[0]["attempts"][0])


def _set(**values: Any) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.update(values)


def _in_attempt(**values: Any) -> Callable[[dict[str, Any]], None]:
    """A change of an export: ``values`` set in its first deal's first attempt."""
    return lambda found: found["deals"][0]["attempts"][0].update(values)


def _in_deal(**values: Any) -> Callable[[dict[str, Any]], None]:
    return lambda found: found["deals"][0].update(values)


def _raw(old: str, new: str, count: int = 1) -> Callable[[dict[str, Any]], str]:
    """A change of an export's text (indented JSON): ``old`` replaced by ``new``, for what json.dumps cannot write."""

    def change(found: dict[str, Any]) -> str:
        text = json.dumps(found, indent=1)
        assert old in text, old
        return text.replace(old, new, count)

    return change


MARK = "@@literal@@"


def _literal(text: str, *, key: str, top: bool = False) -> Callable[[dict[str, Any]], str]:
    """A change of an export: ``key`` of its first attempt (or, ``top``, of the document) holding the JSON
    text ``text`` as it stands, for what json.dumps cannot write (NaN, ``1e999``, 400 digits)."""

    def change(found: dict[str, Any]) -> str:
        (found if top else found["deals"][0]["attempts"][0])[key] = MARK
        return json.dumps(found, indent=1).replace(f'"{MARK}"', text)

    return change


def _times(started: str, ended: str) -> Callable[[dict[str, Any]], None]:
    return _in_attempt(started=started, ended=ended)


def _signed_table(make: Callable[[pa.Table], pa.Table]) -> Callable[[bytes], bytes]:
    """A change of a data file's bytes: its table made into ``make``'s, written as Parquet."""

    def change(data: bytes) -> bytes:
        table = pq.read_table(pa.BufferReader(data))
        sink = pa.BufferOutputStream()
        pq.write_table(make(table), sink, compression="zstd")
        return sink.getvalue().to_pybytes()

    return change


def _as_feather(data: bytes) -> bytes:
    return feather_bytes(pq.read_table(pa.BufferReader(data)))


def _csv_cells_are_safe(name: str) -> Check:
    """A check that no cell of the CSV file ``name`` starts as a spreadsheet formula does."""

    def check(folder: Path, result: Any) -> None:
        if result.exit_code != 0:
            return
        with (folder / name).open(newline="", encoding="utf-8") as lines:
            for row in csv.reader(lines):
                for cell in row:
                    assert not cell or cell[0] not in "=+-@\t\r" or _number(cell), f"a formula cell: {cell!r}"

    return check


def _markup_is_text(name: str) -> Check:
    """A check that the page ``name``, when written, shows the title's markup as text: escaped, never run."""

    def check(folder: Path, result: Any) -> None:
        if result.exit_code == 0:
            page = (folder / name).read_text(encoding="utf-8")
            assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page

    return check


def _reads_back(pack: str) -> Check:
    """A check that the pack folder ``pack``, when the command wrote it, is read back: a name is held to
    one rule where a pack is written and where it is read."""

    def check(folder: Path, result: Any) -> None:
        if result.exit_code == 0:
            again = CliRunner().invoke(app, ["report", str(folder / pack), "--json", "-q"])
            assert again.exit_code == 0, f"written, then refused: {again.stderr.strip()}"

    return check


def _number(cell: str) -> bool:
    """Whether ``cell`` reads as a number (``-5``, ``-0.25``): a sign there is no formula."""
    try:
        float(cell)
    except ValueError:
        return False
    return True


# --- the commands, each over an input made by a builder ----------------------------------------------

Make = Callable[[Inputs], str]


def _fixture(name: str) -> Make:
    return lambda s: s.fixture(name)


def plays_import(export: Make, pack: Make | None = None) -> Callable[[Inputs], Args]:
    pack = pack or _fixture(PACK)
    return lambda s: ["plays", "import", export(s), "--pack", pack(s), "--out", "out.parquet", "-q"]


def report_plays(plays: Make, pack: Make | None = None) -> Callable[[Inputs], Args]:
    pack = pack or _fixture(PACK)
    return lambda s: ["report", pack(s), "--plays", plays(s), "--charts", "charts", "-q"]


def calibrate_plays(plays: Make, pack: Make | None = None) -> Callable[[Inputs], Args]:
    pack = pack or _fixture(PACK)
    return lambda s: ["calibrate", "--plays", plays(s), "--pack", pack(s), "--charts", "charts", "-q"]


def curate_plays(plays: Make, pack: Make | None = None) -> Callable[[Inputs], Args]:
    pack = pack or _fixture(PACK)
    return lambda s: ["curate", pack(s), "--out", "best", "--plays", plays(s), "-q"]


PLAYS_READERS = {"report": report_plays, "calibrate": calibrate_plays, "curate": curate_plays}


def _export(change: Callable[[dict[str, Any]], Any], *, of: str = EXPORT) -> Make:
    return lambda s: s.export(change, of=of)


def _plays(change: Callable[[list[dict[str, Any]]], None], **metadata: str) -> Make:
    return lambda s: s.plays(
        change, metadata={key.encode(): value.encode() for key, value in metadata.items()}
    )


def reader_commands(pack: Make) -> dict[str, Callable[[Inputs], Args]]:
    """Every command that reads a pack folder, over the pack ``pack`` makes: its name and command line."""
    # fmt: off
    return {
        "report": lambda s: ["report", pack(s), "--charts", "charts", "-q"],
        "report-json": lambda s: ["report", pack(s), "--json", "-q"],
        "export-json": lambda s: ["export", pack(s), "-f", "json", "-o", "d.json", "-q"],
        "export-jsonl": lambda s: ["export", pack(s), "-f", "jsonl", "-o", "-", "-q"],
        "export-boards": lambda s: ["export", pack(s), "-f", "boards", "-o", "d.txt", "-q"],
        "export-csv": lambda s: ["export", pack(s), "-f", "csv", "-o", "d.csv", "-q"],
        "curate": lambda s: ["curate", pack(s), "--out", "best", "-q"],
        "gallery": lambda s: ["gallery", pack(s), "--out", "site", "-q"],
        "show": lambda s: ["show", "seed-77-0", "--pack", pack(s), "-q"],
        "plays-import": lambda s: ["plays", "import", s.fixture(EXPORT), "--pack", pack(s), "--out", "o.parquet", "-q"],
        "report-plays": lambda s: ["report", pack(s), "--plays", s.fixture(PLAYS), "--charts", "charts", "-q"],
        "curate-plays": lambda s: ["curate", pack(s), "--out", "best", "--plays", s.fixture(PLAYS), "-q"],
        "calibrate-plays": lambda s: ["calibrate", "--plays", s.fixture(PLAYS), "--pack", pack(s), "--charts", "charts", "-q"],
    }
    # fmt: on


def _swept(
    kind: str,
    prefix: str,
    pack: Make,
    codes: frozenset[int] = REFUSED,
    only: tuple[str, ...] = (),
    expect: str | None = None,
) -> list[Case]:
    """A case for each reader of :func:`reader_commands` (or ``only`` those) over the pack ``pack`` makes."""
    return [
        Case(f"{name}-{prefix}", kind, build, codes, expect=expect)
        for name, build in reader_commands(pack).items()
        if not only or name in only
    ]


# --- the corpus, by kind -------------------------------------------------------------------------------

DIGITS_400 = "9" * 400
DIGITS_5000 = "9" * 5000

# An export's change (of plays.json) and whether a careful reader may take it (TAKEN_OR_REFUSED) or must refuse it.
# fmt: off
EXPORT_CHANGES: list[tuple[str, Callable[[dict[str, Any]], Any], frozenset[int]]] = [
    ("version-nan", _literal("NaN", key="version", top=True), REFUSED),
    ("version-infinity", _literal("Infinity", key="version", top=True), REFUSED),
    ("version-1e999", _literal("1e999", key="version", top=True), REFUSED),
    ("version-minus-1e999", _literal("-1e999", key="version", top=True), REFUSED),
    ("version-400-digits", _literal(DIGITS_400, key="version", top=True), REFUSED),
    ("version-5000-digits", _literal(DIGITS_5000, key="version", top=True), REFUSED),
    ("version-1e-999", _literal("1e-999", key="version", top=True), REFUSED),
    ("version-as-text", lambda f: f.update(version="1"), REFUSED),
    ("version-three", lambda f: f.update(version=3), REFUSED),
    ("version-one-with-a-mode", lambda f: f.update(version=1), REFUSED),
    ("mode-unknown", _in_attempt(mode="purist"), REFUSED),
    ("mode-missing", lambda f: f["deals"][0]["attempts"][0].pop("mode"), REFUSED),
    ("timed-as-number", _in_attempt(timed=1), REFUSED),
    ("move-limit-45", _in_attempt(timed=True, move_limit=45), REFUSED),
    ("move-limit-as-float", _in_attempt(timed=True, move_limit=30.0), REFUSED),
    ("move-limit-without-clock", _in_attempt(move_limit=30), REFUSED),
    ("out-of-time-without-limit", _in_attempt(outcome="out_of_time"), REFUSED),
    ("version-one-point-zero", _literal("1.0", key="version", top=True), TAKEN_OR_REFUSED),
    ("seconds-nan", _literal("NaN", key="seconds"), REFUSED),
    ("seconds-1e999", _literal("1e999", key="seconds"), REFUSED),
    ("seconds-1e308", _in_attempt(seconds=1e308), TAKEN_OR_REFUSED),
    ("seconds-400-digits", _literal(DIGITS_400, key="seconds"), REFUSED),
    ("seconds-negative", _in_attempt(seconds=-1), REFUSED),
    ("seconds-as-text", _in_attempt(seconds="10"), REFUSED),
    ("moves-negative", _in_attempt(moves=-1), REFUSED),
    ("moves-400-digits", _literal(DIGITS_400, key="moves"), REFUSED),
    ("moves-past-int32", _in_attempt(moves=2**31), REFUSED),
    ("moves-past-int64", _in_attempt(moves=2**64), REFUSED),
    ("moves-a-fraction", _in_attempt(moves=1.5), REFUSED),
    ("moves-true", _in_attempt(moves=True), REFUSED),
    ("moves-null", _in_attempt(moves=None), REFUSED),
    ("undos-negative", _in_attempt(undos=-3), REFUSED),
    ("dead-ends-1e999", _literal("1e999", key="dead_ends"), REFUSED),
    ("cards-played-52", _in_attempt(cards_played=52), REFUSED),
    ("clean-as-number", _in_attempt(clean=1), REFUSED),
    ("started-year-0001", _times("0001-01-01T00:00:00.000Z", "0001-01-01T00:10:00.000Z"), TAKEN_OR_REFUSED),
    ("started-year-0001-east", _times("0001-01-01T00:00:00.000+05:00", "0001-01-01T06:00:00.000+05:00"), REFUSED),
    ("started-year-9999", _times("9999-12-31T23:00:00.000Z", "9999-12-31T23:59:59.999Z"), TAKEN_OR_REFUSED),
    ("ended-year-9999-west", _times("9999-12-31T22:00:00.000Z", "9999-12-31T23:59:59.999-05:00"), REFUSED),
    ("started-year-0000", _times("0000-01-01T00:00:00.000Z", "0000-01-01T00:10:00.000Z"), REFUSED),
    ("started-february-30", _times("2026-02-30T00:00:00.000Z", "2026-03-01T00:10:00.000Z"), REFUSED),
    ("started-hour-25", _times("2026-12-01T25:00:00.000Z", "2026-12-02T00:10:00.000Z"), REFUSED),
    ("started-offset-24-hours", _times("2026-12-01T10:00:00.000+24:00", "2026-12-01T10:10:00.000Z"), REFUSED),
    ("started-leap-second", _times("2026-12-31T23:59:60.000Z", "2027-01-01T00:10:00.000Z"), REFUSED),
    ("ended-before-started", _times("2026-12-01T10:00:00.000Z", "2026-12-01T09:00:00.000Z"), REFUSED),
    ("exported-year-0001-east", lambda f: f.update(exported="0001-01-01T00:00:00.000+01:00"), REFUSED),
    ("exported-year-9999-west", lambda f: f.update(exported="9999-12-31T23:59:59.999-01:00"), REFUSED),
    ("exported-not-a-time", lambda f: f.update(exported="yesterday"), REFUSED),
    ("top-level-key-twice", _raw('"format": "blackhole-plays",', '"format": "blackhole-plays", "format": "blackhole-plays",'), REFUSED),
    ("deals-key-twice", _raw('"deals": [', '"deals": [], "deals": ['), REFUSED),
    ("attempt-key-twice", _literal('10.0, "seconds": 10.0', key="seconds"), REFUSED),
    ("deals-an-object", lambda f: f.update(deals={}), REFUSED),
    ("deals-null", lambda f: f.update(deals=None), REFUSED),
    ("attempts-a-string", _in_deal(attempts="many"), REFUSED),
    ("events-a-string", _in_attempt(events="1 2 3"), REFUSED),
    ("events-empty", _in_attempt(events=[]), REFUSED),
    ("event-pile-17", _in_attempt(events=[17]), REFUSED),
    ("event-pile-negative", _in_attempt(events=[-1]), REFUSED),
    ("event-1e999", _literal("[1e999]", key="events"), REFUSED),
    ("event-400-digits", _literal(f"[{DIGITS_400}]", key="events"), REFUSED),
    ("event-a-word", _in_attempt(events=["jump"]), REFUSED),
    ("event-a-float", _in_attempt(events=[1.0]), REFUSED),
    ("note-a-number", _in_deal(note=5), REFUSED),
    ("mark-banana", _in_deal(mark="banana"), REFUSED),
    ("pack-a-number", lambda f: f.update(pack=5), REFUSED),
    ("pack-of-another", lambda f: f.update(pack="q"), REFUSED),
    ("gallery-in-capitals", lambda f: f.update(gallery="0123456789ABCDEF"), REFUSED),
    ("deal-unknown", _in_deal(deal_id="seed-77-99"), REFUSED),
    ("deal-twice", lambda f: f["deals"].append(copy.deepcopy(f["deals"][0])), REFUSED),
    ("attempt-id-twice", lambda f: f["deals"][0]["attempts"].append(copy.deepcopy(f["deals"][0]["attempts"][0])), REFUSED),
    ("extra-key", lambda f: f.update(extra=1), REFUSED),
    ("a-list", lambda f: [f], REFUSED),
    ("null", lambda f: "null", REFUSED),
    ("empty", lambda f: "", REFUSED),
    ("truncated", lambda f: json.dumps(f, indent=1)[: len(json.dumps(f, indent=1)) // 2], REFUSED),
    ("truncated-in-a-number", lambda f: json.dumps(f, indent=1).split('"seconds": 1')[0] + '"seconds": 1', REFUSED),
    ("only-a-brace", lambda f: "{", REFUSED),
    ("bom", lambda f: "\ufeff" + json.dumps(f), TAKEN_OR_REFUSED),
    ("bom-twice", lambda f: "\ufeff\ufeff" + json.dumps(f), REFUSED),
    ("utf-16", lambda f: json.dumps(f).encode("utf-16"), REFUSED),
    ("latin-1-note", lambda f: json.dumps(f, ensure_ascii=False).replace("a fine ending", "caf\u00e9").encode("latin-1"), REFUSED),
    ("nul-bytes", lambda f: b"\x00" * 64, REFUSED),
    ("nested-too-deeply", lambda f: '{"deals": ' + "[" * 100_000 + "]" * 100_000 + "}", REFUSED),
    ("a-parquet-file", lambda f: b"PAR1" + b"\x00" * 32 + b"PAR1", REFUSED),
]
# fmt: on

# A PLAYS.parquet's change, given to report, calibrate and curate --plays, and the codes each may give.
# fmt: off
PLAYS_CHANGES: list[tuple[str, Make, frozenset[int]]] = [
    ("seconds-1e308", _plays(_first_attempt(_set(seconds=1e308))), TAKEN_OR_REFUSED),
    ("seconds-infinite", _plays(_first_attempt(_set(seconds=float("inf")))), REFUSED),
    ("seconds-nan", _plays(_first_attempt(_set(seconds=float("nan")))), REFUSED),
    ("seconds-negative", _plays(_first_attempt(_set(seconds=-5.0))), REFUSED),
    ("started-year-0001", _plays(_first_attempt(_set(started=datetime(1, 1, 1, tzinfo=UTC)))), TAKEN_OR_REFUSED),
    ("started-year-9999", _plays(_first_attempt(_set(started=datetime(9999, 12, 31, tzinfo=UTC), ended=datetime(9999, 12, 31, 23, tzinfo=UTC)))), TAKEN_OR_REFUSED),
    ("ended-before-started", _plays(_first_attempt(_set(ended=datetime(2000, 1, 1, tzinfo=UTC)))), REFUSED),
    ("moves-negative", _plays(_first_attempt(_set(moves=-5))), REFUSED),
    ("moves-int32-max", _plays(_first_attempt(_set(moves=2**31 - 1))), REFUSED),
    ("event-100", _plays(_first_attempt(_set(events=[100]))), REFUSED),
    ("events-empty", _plays(_first_attempt(_set(events=[]))), REFUSED),
    ("outcome-banana", _plays(_first_attempt(_set(outcome="banana"))), REFUSED),
    ("mark-banana", _plays(lambda rows: rows[0].update(mark="banana")), REFUSED),
    ("mode-banana", _plays(_first_attempt(_set(mode="banana"))), REFUSED),
    ("move-limit-45", _plays(_first_attempt(_set(timed=True, move_limit=45))), REFUSED),
    ("move-limit-without-clock", _plays(_first_attempt(_set(move_limit=30))), REFUSED),
    ("deal-not-in-the-pack", _plays(lambda rows: rows[0].update(deal_id="seed-77-99")), REFUSED),
    ("deal-twice", _plays(lambda rows: rows.append(copy.deepcopy(rows[0]))), REFUSED),
    ("of-another-pack", _plays(lambda rows: None, blackhole_plays_pack="q"), REFUSED),
    ("of-golf", _plays(lambda rows: None, blackhole_plays_game="golf"), REFUSED),
    ("of-game-chess", _plays(lambda rows: None, blackhole_plays_game="chess"), REFUSED),
    ("sources-not-json", _plays(lambda rows: None, blackhole_plays_sources="{oops"), TAKEN_OR_REFUSED),
    ("no-rows", _plays(lambda rows: rows.clear()), TAKEN_OR_REFUSED),
    ("a-text-file", lambda s: s.write(PLAYS, "deal_id,note\n"), REFUSED),
    ("truncated", lambda s: s.damaged(PLAYS, lambda b: b[: len(b) // 2]), REFUSED),
    ("a-pack-part-file", lambda s: s.write(PLAYS, (s.built / PACK / "tier=easy" / "part-0.parquet").read_bytes()), REFUSED),
    ("a-deals-pack", lambda s: s.write(PLAYS, (s.built / "deals.parquet").read_bytes()), REFUSED),
    ("missing", lambda s: PLAYS, REFUSED),
]
# fmt: on

PLAYS_EXPECT = {
    "outcome-banana": r"outcome\W+banana", "mark-banana": r"mark\W+banana", "mode-banana": r"mode\W+banana"
}  # fmt: skip
"""What the error line of a PLAYS.parquet's change must name: the field, not Python's enum."""

# fmt: off
PLAYS_CASES = [
    Case(f"plays-import-{name}", "plays", plays_import(_export(change)), codes)
    for name, change, codes in EXPORT_CHANGES
] + [
    Case(f"{reader}-plays-{name}", "plays", read(plays), codes, expect=PLAYS_EXPECT.get(name))
    for name, plays, codes in PLAYS_CHANGES
    for reader, read in PLAYS_READERS.items()
] + [
    Case("plays-import-stdin-garbage", "plays", lambda s: ["plays", "import", "-", "--pack", s.fixture(PACK), "--out", "o.parquet"], stdin="{\x00\x1b[31m"),
    Case("plays-import-a-folder", "plays", lambda s: ["plays", "import", s.folder_named("x.json"), "--pack", s.fixture(PACK), "--out", "o.parquet"]),
    Case("plays-import-missing", "plays", lambda s: ["plays", "import", "x.json", "--pack", s.fixture(PACK), "--out", "o.parquet"]),
    Case("plays-import-stdin-twice", "plays", lambda s: ["plays", "import", "-", "-", "--pack", s.fixture(PACK), "--out", "o.parquet"], USAGE),
    Case("plays-import-out-inside-the-pack", "plays", lambda s: ["plays", "import", s.fixture(EXPORT), "--pack", s.fixture(PACK), "--out", f"{PACK}/PLAYS.parquet"]),
    Case("plays-import-out-a-symlink", "plays", lambda s: ["plays", "import", s.fixture(EXPORT), "--pack", s.fixture(PACK), "--out", s.link("o.parquet", s.fixture(PLAYS))]),
    Case("plays-import-the-same-file-twice", "plays", lambda s: ["plays", "import", s.fixture(EXPORT), EXPORT, "--pack", s.fixture(PACK), "--out", "o.parquet"], TAKEN_OR_REFUSED),
    Case("plays-import-pack-a-file", "plays", lambda s: ["plays", "import", s.fixture(EXPORT), "--pack", s.fixture(PLAYS), "--out", "o.parquet"]),
    Case("curate-by-play-without-plays", "plays", lambda s: ["curate", s.fixture(PACK), "--out", "best", "--by-play"], USAGE),
    Case("curate-by-play-plays-seconds-nan", "plays", lambda s: ["curate", s.fixture(PACK), "--out", "best", "--by-play", "--plays", _plays(_first_attempt(_set(seconds=float("nan"))))(s)]),
    Case("calibrate-plays-out-a-folder", "plays", lambda s: ["calibrate", "--plays", s.fixture(PLAYS), "--pack", s.fixture(PACK), "--out", s.folder_named("t.toml")], USAGE),
    Case("calibrate-plays-with-seed", "plays", lambda s: ["calibrate", "--plays", s.fixture(PLAYS), "--pack", s.fixture(PACK), "--seed", "1"], USAGE),
    Case("plays-import-out-is-the-export", "plays", lambda s: ["plays", "import", s.fixture(EXPORT), "--pack", s.fixture(PACK), "--out", EXPORT]),
    Case("plays-import-two-files-one-attempt-changed", "plays", lambda s: ["plays", "import", s.fixture(EXPORT), s.export(_in_attempt(seconds=99.0), name="later.json"), "--pack", s.fixture(PACK), "--out", "o.parquet"], TAKEN_OR_REFUSED),
]
# fmt: on


def _golf_boards_with(extra: Callable[[Inputs], str]) -> Make:
    """golf.txt with the board text ``extra`` gives added after its boards: a file of two games."""
    return lambda s: s.write("mixed.txt", (s.built / "golf.txt").read_text() + "\n\n" + extra(s))


def _bh_board(s: Inputs) -> str:
    return pq.read_table(s.built / "deals.parquet").column("board")[0].as_py()


def _golf_board(s: Inputs) -> str:
    return (s.built / "golf.txt").read_text().split("\n\n")[0] + "\n"


def _golf_row_in_deals(s: Inputs) -> str:
    """deals.parquet (Black Hole) with its second board a Golf deal's."""
    return s.pack_file("deals.parquet", "board", [_bh_board(s), _golf_board(s)])


def _file_with_metadata(s: Inputs, key: bytes, value: bytes) -> str:
    """solved.parquet with its schema metadata's ``key`` holding ``value`` (bytes as the file holds them)."""
    return s.table(
        "solved.parquet", lambda t: t.replace_schema_metadata({**(t.schema.metadata or {}), key: value})
    )


def _part_with_metadata(s: Inputs, key: bytes, value: bytes) -> str:
    """packs/p's easy data file as a pack file of its own, its schema metadata's ``key`` holding ``value``."""
    table = pq.read_table(s.built / PACK / "tier=easy" / "part-0.parquet")
    pq.write_table(
        table.replace_schema_metadata({**(table.schema.metadata or {}), key: value}), s.folder / "g.parquet"
    )
    return "g.parquet"


def _file_of_game(s: Inputs, fixture: str, game: bytes) -> str:
    """The pack file ``fixture`` with its metadata naming the game ``game`` (bytes as the file holds them)."""
    return s.table(fixture, lambda t: t.replace_schema_metadata({**(t.schema.metadata or {}), b"game": game}))


def _solve_board(board: Make, fmt: str, game: str = "black_hole") -> Callable[[Inputs], Args]:
    return lambda s: ["solve-board", board(s), "--format", fmt, "--game", game, "--max-nodes", "100000"]


FORMATS = ("text", "json", "jsonl", "bhs")
NAMES_THE_GAME = r"tier=easy/part-0\.parquet: .*(Golf|golf)"
"""What the error of a pack holding a file of another game says: the file, and its game."""
DAMAGED = r"tier=easy/part-0\.parquet: .*damaged"
"""What the error of a data file whose checksum matches but whose bytes are not Parquet says."""
OTHER_GAMES = [game.name for game in GAMES if game.name != "black_hole"]

# fmt: off
FAMILY_CASES = [
    *_swept("family", "a-golf-part-in-a-black-hole-pack", lambda s: s.mixed_pack(), expect=NAMES_THE_GAME),
    *_swept("family", "a-golf-part-of-the-packs-tiers-in-a-black-hole-pack", lambda s: s.mixed_pack(claims="its game"), expect=NAMES_THE_GAME),
    *_swept("family", "a-golf-part-said-black-hole-in-a-black-hole-pack", lambda s: s.mixed_pack(claims="the pack's"), only=("report", "export-csv", "curate", "gallery", "show", "plays-import"), expect=r"part-0\.parquet"),
    *_swept("family", "a-black-hole-part-in-a-golf-pack", lambda s: s.mixed_pack(GOLF, PACK), only=("report", "export-csv", "curate", "gallery"), expect=r"part-0\.parquet: .*Black Hole"),
    *_swept("family", "an-all-in-a-row-part-in-a-golf-pack", lambda s: s.mixed_pack(GOLF, ROW), only=("report", "export-json", "curate"), expect=r"part-0\.parquet: .*All in a Row"),
    Case("report-golf-pack-said-black-hole", "family", lambda s: ["report", s.manifest(lambda m: {k: v for k, v in m.items() if k != "game"}, pack=GOLF), "--json"]),
    Case("export-golf-pack-said-all-in-a-row", "family", lambda s: ["export", s.manifest(lambda m: {**m, "game": "all_in_a_row"}, pack=GOLF), "-f", "json", "-o", "d.json"]),
    Case("export-golf-pack-game-chess", "family", lambda s: ["export", s.manifest(lambda m: {**m, "game": "chess"}, pack=GOLF), "-f", "json", "-o", "d.json"]),
    Case("export-golf-pack-game-a-number", "family", lambda s: ["export", s.manifest(lambda m: {**m, "game": 7}, pack=GOLF), "-f", "json", "-o", "d.json"]),
    *[Case(f"{command}-black-hole-pack-as-{game}", "family", lambda s, c=command, g=game: [*c.split(), s.fixture(PACK), *{"export": ["-f", "csv", "-o", "d.csv"], "curate": ["--out", "best"], "gallery": ["--out", "site"], "report": ["--json"]}[c], "--game", g])
      for command in ("export", "curate", "gallery", "report") for game in ("golf", "all_in_a_row")],
    Case("solve-golf-deals-as-black-hole", "family", lambda s: ["solve", s.fixture("golf-deals.parquet"), "-o", "o.parquet", "--game", "black_hole", "-q"]),
    Case("solve-black-hole-deals-as-dead-king-golf", "family", lambda s: ["solve", s.fixture("deals.parquet"), "-o", "o.parquet", "--game", "dead_king_golf", "-q"]),
    Case("solve-deals-holding-a-golf-board", "family", lambda s: ["solve", _golf_row_in_deals(s), "-o", "o.parquet", "-q"]),
    Case("grade-golf-pack-file-as-black-hole", "family", lambda s: ["grade", s.write("g.parquet", (s.built / GOLF / "tier=easy" / "part-0.parquet").read_bytes()), "-o", "o.parquet", "--game", "black_hole", "-q"]),
    Case("crosscheck-golf-pack-file-as-relaxed-golf", "family", lambda s: ["crosscheck", s.write("g.parquet", (s.built / GOLF / "tier=easy" / "part-0.parquet").read_bytes()), "-o", "o.parquet", "--game", "relaxed_golf", "-q"]),
    *[Case(f"import-golf-boards-as-{game}", "family", lambda s, g=game: ["import", s.fixture("golf.txt"), "-o", "o.parquet", "--game", g, "-q"]) for game in ("black_hole", "all_in_a_row")],
    Case("import-golf-and-black-hole-boards", "family", lambda s: ["import", _golf_boards_with(_bh_board)(s), "-o", "o.parquet", "--game", "golf", "-q"]),
    *[Case(f"solve-board-{fmt}-golf-board-as-black-hole", "family", _solve_board(lambda s: s.write("b.txt", _golf_board(s)), fmt)) for fmt in FORMATS],
    *[Case(f"solve-board-{fmt}-black-hole-board-as-{game}", "family", _solve_board(lambda s: s.write("b.txt", _bh_board(s)), fmt, game)) for fmt in FORMATS for game in OTHER_GAMES],
    *[Case(f"solve-board-{fmt}-golf-and-black-hole-boards", "family", _solve_board(_golf_boards_with(_bh_board), fmt, "golf")) for fmt in FORMATS],
    Case("show-golf-deal-of-a-golf-pack-as-black-hole", "family", lambda s: ["show", "seed-2-0", "--pack", s.fixture(GOLF), "--game", "black_hole"]),
    Case("show-golf-deal-of-a-black-hole-pack", "family", lambda s: ["show", "seed-2-0", "--pack", s.fixture(PACK)]),
    Case("plays-import-golf-records-into-dead-king-golf-pack", "family", plays_import(_fixture("golf-plays.json"), _fixture(DEAD_KING))),
    Case("plays-import-golf-records-into-all-in-a-row-pack", "family", plays_import(_fixture("golf-plays.json"), _fixture(ROW))),
    Case("plays-import-golf-records-said-black-hole-into-golf-pack", "family", plays_import(_export(lambda f: {k: v for k, v in f.items() if k != "game"}, of="golf-plays.json"), _fixture(GOLF))),
    Case("plays-import-golf-records-said-dead-king-golf-into-its-pack", "family", plays_import(_export(lambda f: f.update(game="dead_king_golf"), of="golf-plays.json"), _fixture(DEAD_KING)), TAKEN_OR_REFUSED),
    Case("plays-import-golf-records-named-p-into-black-hole-pack", "family", plays_import(_export(lambda f: f.update(pack="p"), of="golf-plays.json"))),
    Case("plays-import-black-hole-records-named-g-into-golf-pack", "family", plays_import(_export(lambda f: f.update(pack="g")), _fixture(GOLF))),
    Case("plays-import-golf-and-black-hole-records", "family", lambda s: ["plays", "import", s.fixture(EXPORT), s.fixture("golf-plays.json"), "--pack", s.fixture(PACK), "--out", "o.parquet"]),
    Case("report-plays-of-black-hole-on-golf-pack", "family", report_plays(_fixture(PLAYS), _fixture(GOLF))),
    *[Case(f"{command}-pack-file-of-game-{name}", "family", lambda s, c=command, f=fixture, g=game, r=rest: [c, _file_of_game(s, f, g), *r])
      for name, game in [("chess", b"chess"), ("in-capitals", b"GOLF"), ("empty", b""), ("not-utf-8", b"\xff")]
      for command, fixture, rest in [("solve", "deals.parquet", ["-o", "o.parquet", "-q"]), ("export", "solved.parquet", ["-f", "json", "-o", "d.json", "-q"]),
                                     ("report", "solved.parquet", ["--json", "-q"])]],
    Case("generate-game-chess", "family", lambda s: ["generate", "-o", "o.parquet", "-n", "1", "--seed", "1", "--game", "chess"], USAGE),
]
# fmt: on

ESCAPE = "\x1b[31mred\x1b[0m"
FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(1)", "+1+1", "-1+cmd", "\tx", "\rx"]


def _with_ids(ids: list[str]) -> Make:
    """solved.parquet with its deal ids ``ids``: a pack file whose ids a spreadsheet would run."""
    return lambda s: s.pack_file("solved.parquet", "deal_id", ids)


def _noted(note: str, *, deal_id: str | None = None) -> Make:
    """PLAYS.parquet whose first deal has the note ``note`` (and the id ``deal_id``)."""

    def change(rows: list[dict[str, Any]]) -> None:
        rows[0]["note"] = note
        if deal_id is not None:
            rows[0]["deal_id"] = deal_id

    return _plays(change)


def _export_noted(note: str) -> Make:
    return _export(_in_deal(note=note))


def _csv_of_ids(ids: list[str]) -> Callable[[Inputs], Args]:
    return lambda s: ["export", _with_ids(ids)(s), "-f", "csv", "-o", "d.csv", "-q"]


# fmt: off
FREE_TEXT_CASES = [
    *[Case(f"curate-out-{name}", "free text", lambda s, n=text: ["curate", s.fixture(PACK), "--out", n, "-q"], codes, check=_reads_back(f"packs/{text}"))
      for name, text, codes in [
          ("escape-code", ESCAPE, REFUSED_OR_USAGE), ("tab", "a\tb", REFUSED_OR_USAGE), ("newline", "a\nb", REFUSED_OR_USAGE),
          ("carriage-return", "a\rb", REFUSED_OR_USAGE), ("delete", "a\x7fb", REFUSED_OR_USAGE), ("bidi-override", "a\u202eb", REFUSED_OR_USAGE),
          ("equals", "=cmd", TAKEN_OR_REFUSED), ("at", "@sum", TAKEN_OR_REFUSED), ("plus", "+x", TAKEN_OR_REFUSED),
          ("dash-word", "-x", ANY_BUT_A_BUG), ("spaces-only", "   ", TAKEN_OR_REFUSED), ("a-long-name", "x" * 300, REFUSED_OR_USAGE),
      ]],
    Case("run-name-escape-code", "free text", lambda s: ["run", "--config", s.write("r.toml", '[run]\nname = "\\u001b[31mred"\nseed = 1\ncount = 1\n')]),
    Case("run-name-nul", "free text", lambda s: ["run", "--config", s.write("r.toml", '[run]\nname = "a\\u0000b"\nseed = 1\ncount = 1\n')]),
    Case("run-name-tab", "free text", lambda s: ["run", "--config", s.write("r.toml", '[run]\nname = "a\\tb"\nseed = 1\ncount = 1\n')]),
    Case("run-set-name-escape-code", "free text", lambda s: ["run", "--config", s.write("r.toml", '[run]\nname = "x"\nseed = 1\ncount = 1\n'), "--set", f"run.name={ESCAPE}"], USAGE),
    Case("run-output-escape-code-missing-folder", "free text", lambda s: ["run", "--config", s.write("r.toml", f'[run]\nname = "x"\nseed = 1\ncount = 1\noutput = "{ESCAPE}/\\u0007"\n')], TAKEN_OR_REFUSED),
    Case("gallery-title-markup-and-escapes", "free text", lambda s: ["gallery", s.fixture(PACK), "--out", "site", "--title", f"<script>alert(1)</script>{ESCAPE}\t", "--limit", "2", "-q"], TAKEN_OR_REFUSED, check=_markup_is_text("site/index.html")),
    Case("gallery-out-escape-code", "free text", lambda s: ["gallery", s.fixture(PACK), "--out", ESCAPE, "--limit", "2"], TAKEN_OR_REFUSED),
    Case("report-pack-name-escape-code", "free text", lambda s: ["report", s.manifest(lambda m: {**m, "name": ESCAPE}), "--json"]),
    Case("export-pack-name-tab", "free text", lambda s: ["export", s.manifest(lambda m: {**m, "name": "a\tb"}), "-f", "csv", "-o", "d.csv"]),
    Case("show-id-escape-code", "free text", lambda s: ["show", f"seed-1-{ESCAPE}"]),
    Case("show-id-in-a-pack-escape-code", "free text", lambda s: ["show", ESCAPE, "--pack", s.fixture(PACK)]),
    Case("solve-board-missing-file-escape-code", "free text", lambda s: ["solve-board", f"{ESCAPE}.txt"]),
    Case("import-file-named-with-escape-code", "free text", lambda s: ["import", s.write(f"{ESCAPE}.txt", "Foundations: ZZ\n"), "-o", "o.parquet"]),
    Case("report-pack-named-in-undecodable-bytes", "free text", lambda s: ["report", "\udcff\udcfe"]),
    Case("curate-out-undecodable-bytes", "free text", lambda s: ["curate", s.fixture(PACK), "--out", "\udcffx"]),
    Case("show-id-undecodable-bytes", "free text", lambda s: ["show", "seed-1-\udcff"]),
    Case("generate-out-undecodable-bytes", "free text", lambda s: ["generate", "--seed", "1", "-n", "1", "-o", "\udcff.parquet"], TAKEN_OR_REFUSED),
    Case("generate-out-escape-code", "free text", lambda s: ["generate", "--seed", "1", "-n", "1", "-o", f"{ESCAPE}.parquet"], TAKEN_OR_REFUSED),
    *[Case(f"export-csv-deal-id-{index}", "free text", _csv_of_ids([text]), TAKEN_OR_REFUSED, check=_csv_cells_are_safe("d.csv")) for index, text in enumerate(FORMULAS)],
    Case("export-json-deal-id-escape-code", "free text", lambda s: ["export", _with_ids([ESCAPE])(s), "-f", "jsonl", "-o", "-", "-q"], TAKEN_OR_REFUSED),
    Case("export-boards-deal-id-newline", "free text", lambda s: ["export", _with_ids(["a\nFoundations: AS"])(s), "-f", "boards", "-o", "-", "-q"], TAKEN_OR_REFUSED),
    Case("report-pack-file-deal-id-escape-code", "free text", lambda s: ["report", _with_ids([ESCAPE])(s), "--json", "-q"], TAKEN_OR_REFUSED),
    *[Case(f"report-plays-note-{name}", "free text", report_plays(_noted(note)), TAKEN_OR_REFUSED)
      for name, note in [("escape-code", ESCAPE), ("tab", "a\tb"), ("nul", "a\x00b"), ("newlines", "a\nb\r\nc"), ("formula", "=HYPERLINK(\"http://x\")"), ("bidi", "\u202egnp.exe")]],
    Case("curate-plays-note-escape-code", "free text", curate_plays(_noted(ESCAPE)), TAKEN_OR_REFUSED),
    *[Case(f"plays-import-note-{name}", "free text", plays_import(_export_noted(note)), TAKEN_OR_REFUSED)
      for name, note in [("escape-code", ESCAPE), ("nul", "a\x00b"), ("formula", "@SUM(1)")]],
    Case("plays-import-title-escape-code", "free text", plays_import(_export(lambda f: f.update(title=ESCAPE))), TAKEN_OR_REFUSED),
    Case("plays-import-pack-escape-code", "free text", plays_import(_export(lambda f: f.update(pack=ESCAPE)))),
    Case("plays-import-deal-id-escape-code", "free text", plays_import(_export(_in_deal(deal_id=ESCAPE)))),
    Case("plays-import-attempt-id-escape-code", "free text", plays_import(_export(_in_attempt(id=ESCAPE)))),
    Case("plays-import-file-named-with-escape-code", "free text", lambda s: ["plays", "import", s.write(f"{ESCAPE}.json", "{"), "--pack", s.fixture(PACK), "--out", "o.parquet"]),
]
# fmt: on


def _numbers_in_manifest(key: str, text: str) -> Make:
    """packs/p with its manifest's ``key`` (top level) the JSON number ``text``, as it stands."""
    return lambda s: s.manifest_text(
        lambda found: re.sub(rf'"{key}": [^,\n]+', f'"{key}": {text}', found, count=1)
    )


# fmt: off
DAMAGED_PACK_CASES = [
    *_swept("damaged packs", "part-garbage-signed", lambda s: s.part(PACK, lambda b: b"garbage " * 100), expect=DAMAGED),
    *_swept("damaged packs", "part-truncated-signed", lambda s: s.part(PACK, lambda b: b[: len(b) // 2]), expect=DAMAGED),
    *_swept("damaged packs", "part-empty-signed", lambda s: s.part(PACK, lambda b: b""), only=("report", "export-csv", "curate", "gallery", "show")),
    *_swept("damaged packs", "part-feather-signed", lambda s: s.part(PACK, _as_feather), only=("report", "export-json", "curate", "plays-import")),
    *_swept("damaged packs", "part-of-other-columns-signed", lambda s: s.part(PACK, _signed_table(lambda t: pa.table({"x": pa.array(range(t.num_rows))}))), only=("report", "export-jsonl", "gallery", "report-plays")),
    *_swept("damaged packs", "part-footer-flipped-signed", lambda s: s.part(PACK, lambda b: b[:-12] + bytes(x ^ 0xFF for x in b[-12:-4]) + b[-4:]), only=("report", "export-boards", "curate", "calibrate-plays")),
    *_swept("damaged packs", "part-page-flipped-signed", lambda s: s.part(PACK, lambda b: b[:40] + bytes(x ^ 0x55 for x in b[40:200]) + b[200:]), only=("report", "export-csv", "gallery", "curate-plays")),
    *[Case(f"{reader}-row-{name}-signed", "damaged packs", lambda s, c=change, r=reader: reader_commands(lambda s2: s2.tier_file("easy", c))[r](s),
           TAKEN_OR_REFUSED if name in ("seconds-1e308", "solution-count-int64-max") else REFUSED)
      for name, change in [
          ("difficulty-nan", cell("difficulty", 0, float("nan"))), ("difficulty-infinite", cell("difficulty", 0, float("inf"))),
          ("difficulty-negative", cell("difficulty", 0, -1.0)), ("seconds-1e308", cell("seconds", 0, 1e308)),
          ("solution-count-int64-max", cell("solution_count", 0, 2**63 - 1)), ("log10-solutions-nan", cell("log10_solutions", 0, float("nan"))),
          ("win-probability-above-one", cell("random_win_probability", 0, 2.0)), ("winnable-share-negative", cell("winnable_share", 0, -0.5)),
          ("index-negative", cell("index", 0, -1)), ("traps-negative", cell("traps", 0, -5)),
          ("max-cards-played-127", cell("max_cards_played", 0, 127)), ("solution-pile-200", lambda t: cell("solution", 0, [200, *t.column("solution")[0].as_py()[1:]])(t)),
      ]
      for reader in ("report-json", "export-csv", "gallery")],
    *[Case(f"{command}-pack-file-metadata-{name}", "damaged packs", lambda s, c=command, k=key, v=value, r=rest: [c, _file_with_metadata(s, k, v), *r], TAKEN_OR_REFUSED)
      for name, key, value in [
          ("tier-medium-nan", b"tier_medium", b"nan"), ("tier-hard-1e999", b"tier_hard", b"1e999"), ("tier-expert-negative", b"tier_expert", b"-5"),
          ("max-nodes-400-digits", b"max_nodes", DIGITS_400.encode()), ("config-not-json", b"blackhole_config", b"{oops"),
          ("version-not-utf-8", b"blackhole_version", b"\xff\xfe"), ("pack-escape-code", b"blackhole_pack", ESCAPE.encode()),
      ]
      for command, rest in [("export", ["-f", "csv", "-o", "d.csv", "-q"]), ("report", ["--json", "-q"]), ("grade", ["-o", "o.parquet", "--max-positions", "1000", "-q"])]],
    *[Case(f"{command}-graded-file-metadata-{name}", "damaged packs", lambda s, c=command, k=key, v=value, r=rest: [c, _part_with_metadata(s, k, v), *r])
      for name, key, value in [("tier-medium-nan", b"tier_medium", b"nan"), ("tier-hard-1e999", b"tier_hard", b"1e999"),
                               ("tier-expert-negative", b"tier_expert", b"-1"), ("player-escape-code", b"difficulty_player", ESCAPE.encode())]
      for command, rest in [("export", ["-f", "csv", "-o", "-", "-q"]), ("report", ["--json", "-q"])]],
    Case("export-curated-part-garbage-signed", "damaged packs", lambda s: ["export", s.part("packs/c", lambda b: b"\x00" * 999), "-f", "json", "-o", "d.json"]),
    *[Case(f"{command}-manifest-{key}-{name}", "damaged packs", build)
      for key, name, text in [
          ("deals", "1e999", "1e999"), ("deals", "400-digits", DIGITS_400), ("deals", "2-to-the-70", str(2**70)), ("deals", "nan", "NaN"),
          ("deals", "negative", "-1"), ("deals", "a-fraction", "2.5"), ("format_version", "1e999", "1e999"), ("format_version", "2-to-the-70", str(2**70)),
          ("rows", "2-to-the-64", str(2**64)), ("rows", "400-digits", DIGITS_400), ("rows", "infinity", "Infinity"),
      ]
      for command, build in [
          ("report", lambda s, k=key, t=text: ["report", _numbers_in_manifest(k, t)(s), "--json"]),
          ("export", lambda s, k=key, t=text: ["export", _numbers_in_manifest(k, t)(s), "-f", "csv", "-o", "d.csv"]),
      ]],
    Case("report-manifest-solved-count-2-to-the-70", "damaged packs", lambda s: ["report", s.manifest(lambda m: {**m, "verdicts": {**m["verdicts"], "solved": 2**70}}), "--json"]),
    Case("gallery-manifest-tier-count-400-digits", "damaged packs", lambda s: ["gallery", s.manifest_text(lambda t: re.sub(r'"easy": \d+', f'"easy": {DIGITS_400}', t, count=1)), "--out", "site"]),
    Case("curate-manifest-version-a-list", "damaged packs", lambda s: ["curate", s.manifest(lambda m: {**m, "blackhole_version": [1]}), "--out", "best"]),
    Case("show-manifest-name-empty", "damaged packs", lambda s: ["show", "seed-77-0", "--pack", s.manifest(lambda m: {**m, "name": ""})]),
    Case("plays-import-manifest-deals-1e999", "damaged packs", plays_import(_fixture(EXPORT), _numbers_in_manifest("deals", "1e999"))),
    Case("report-plays-manifest-rows-400-digits", "damaged packs", report_plays(_fixture(PLAYS), _numbers_in_manifest("rows", DIGITS_400))),
]
# fmt: on


def _config(text: str, *, tiers: bool = False) -> Make:
    """A run configuration of 1 deal of seed 1 named x, with ``text`` added (a section's keys)."""

    def make(s: Inputs) -> str:
        if tiers:
            s.fixture("tiers.toml")
        return s.write("run.toml", f'[run]\nname = "x"\nseed = 1\ncount = 1\n{text}\n')

    return make


def _tiers(medium: str, hard: str = "500") -> Make:
    """A tiers file with ``medium`` and ``hard`` thresholds as written (TOML)."""
    return lambda s: s.write(
        "t.toml",
        f'[difficulty]\nplayer = "lookahead-4"\nfigure = "attempts"\n\n[tiers]\nmedium = {medium}\nhard = {hard}\nexpert = 1500\n',
    )


def _jsonl(*lines: str) -> Make:
    return lambda s: s.write("b.jsonl", "".join(line + "\n" for line in lines))


def _board_json(s: Inputs) -> str:
    return json.dumps(_bh_board(s))


def _jsonl_with(template: str) -> Make:
    """A JSON Lines file of one line, ``template`` with ``BOARD`` the JSON text of a good board."""
    return lambda s: s.write("b.jsonl", template.replace("BOARD", _board_json(s)) + "\n")


def _solve_boards(make: Make, fmt: str = "jsonl") -> Callable[[Inputs], Args]:
    return lambda s: ["solve-board", make(s), "--format", fmt, "--max-nodes", "100000"]


# fmt: off
CONFIG_NUMBERS = [
    ("count-1e999", "run", "count", "1e999"), ("count-inf", "run", "count", "inf"), ("count-nan", "run", "count", "nan"),
    ("count-400-digits", "run", "count", DIGITS_400), ("count-5000-digits", "run", "count", DIGITS_5000),
    ("seed-2-to-the-64", "run", "seed", str(2**64)), ("seed-nan", "run", "seed", "nan"), ("shard-size-1e999", "run", "shard_size", "1e999"),
    ("jobs-2-to-the-70", "run", "jobs", str(2**70)), ("first-negative", "run", "first", "-1"),
    ("time-limit-1e999", "crosscheck", "time_limit", "1e999"), ("time-limit-nan", "crosscheck", "time_limit", "nan"),
    ("sample-1e999", "crosscheck", "sample", "1e999"), ("max-nodes-2-to-the-70", "solve", "max_nodes", str(2**70)),
    ("max-positions-400-digits", "grade", "max_positions", DIGITS_400), ("grade-sample-inf", "grade", "sample", "inf"),
    ("per-tier-1e999", "curate", "per_tier", "{ easy = 1e999 }"), ("per-tier-400-digits", "curate", "per_tier", f"{{ easy = {DIGITS_400} }}"),
    ("per-tier-2-to-the-63", "curate", "per_tier", f"{{ hard = {2**63} }}"),
]
# fmt: on


def _config_case(name: str, section: str, key: str, value: str) -> Case:
    """A run configuration of 1 deal with ``[section] key`` the TOML ``value``: refused naming the key."""
    run = {"name": '"x"', "seed": "1", "count": "1"} | ({key: value} if section == "run" else {})
    text = "[run]\n" + "".join(f"{k} = {v}\n" for k, v in run.items())
    text += "" if section == "run" else f"[{section}]\n{key} = {value}\n"
    return Case(
        f"run-config-{name}",
        "numbers",
        lambda s: ["run", "--config", s.write("run.toml", text), "-q"],
        expect=rf"^error: run\.toml:\d+: \[{section}\] {key}[: ]",
    )


# fmt: off
NUMBER_CASES = [
    *[_config_case(*numbers) for numbers in CONFIG_NUMBERS],
    *[Case(f"run-set-{name}", "numbers", lambda s, v=value: ["run", "--config", _config("")(s), "--set", v, "-q"], USAGE)
      for name, value in [("count-1e999", "run.count=1e999"), ("seed-nan", "run.seed=nan"), ("time-limit-inf", "crosscheck.time_limit=inf"),
                          ("max-positions-400-digits", f"grade.max_positions={DIGITS_400}"), ("count-5000-digits", f"run.count={DIGITS_5000}"),
                          ("per-tier-1e999", "curate.per_tier={easy=1e999}"), ("jobs-minus-2-to-the-70", f"run.jobs=-{2**70}")]],
    *[Case(f"grade-tiers-{name}", "numbers", lambda s, t=tiers: ["grade", s.fixture("solved.parquet"), "--tiers", t(s), "-o", "o.parquet", "--max-positions", "1000", "-q"], codes)
      for name, tiers, codes in [
          ("inf", _tiers("inf"), REFUSED), ("nan", _tiers("nan"), REFUSED), ("1e999", _tiers("1e999"), REFUSED),
          ("400-digits", _tiers(DIGITS_400), REFUSED), ("5000-digits", _tiers(DIGITS_5000), REFUSED), ("negative", _tiers("-5"), REFUSED),
          ("2-to-the-70-top", _tiers("200", str(2**70)), REFUSED), ("a-fraction", _tiers("200.5"), TAKEN_OR_REFUSED), ("minus-zero", _tiers("-0.0"), REFUSED),
      ]],
    Case("run-config-dev-zero", "numbers", lambda s: ["run", "--config", "/dev/zero"], expect=r"^error: /dev/zero: longer than 1,048,576 bytes"),
    Case("solve-board-dev-zero", "numbers", lambda s: ["solve-board", "/dev/zero"], expect=r"^error: /dev/zero:1: a line of more than 1000 characters"),
    Case("solve-board-stdin-of-3-mib-without-a-line-end", "numbers", lambda s: ["solve-board", "-", "-f", "jsonl"], stdin="{" + " " * (3 << 20)),
    Case("solve-board-a-json-line-of-2-mib", "numbers", _solve_boards(_jsonl_with('{"board": BOARD, "id": "' + "x" * (2 << 20) + '"}'))),
    Case("import-dev-zero", "numbers", lambda s: ["import", "/dev/zero", "-o", "o.parquet"]),
    Case("run-config-of-2-mib", "numbers", lambda s: ["run", "--config", s.write("run.toml", "# " + "x" * (2 << 20) + "\n")]),
    Case("grade-tiers-dev-zero", "numbers", lambda s: ["grade", s.fixture("solved.parquet"), "--tiers", "/dev/zero", "-o", "o.parquet"]),
    Case("calibrate-over-tiers-nan", "numbers", lambda s: ["calibrate", "--out", _tiers("nan")(s), "--seed", "1", "-n", "2", "-q"]),
    Case("calibrate-over-tiers-400-digits", "numbers", lambda s: ["calibrate", "--out", _tiers("200", DIGITS_400)(s), "--seed", "1", "-n", "2", "-q"]),
    *[Case(f"solve-board-jsonl-{name}", "numbers", _solve_boards(_jsonl_with(template)), codes)
      for name, template, codes in [
          ("board-1e999", '{"board": 1e999}', REFUSED), ("board-nan", '{"board": NaN}', REFUSED), ("board-400-digits", f'{{"board": {DIGITS_400}}}', REFUSED),
          ("board-5000-digits", f'{{"board": {DIGITS_5000}}}', REFUSED), ("board-a-list", '{"board": [BOARD]}', REFUSED),
          ("id-1e999", '{"board": BOARD, "id": 1e999}', TAKEN_OR_REFUSED), ("id-nan", '{"board": BOARD, "id": NaN}', TAKEN_OR_REFUSED),
          ("id-400-digits", f'{{"board": BOARD, "id": {DIGITS_400}}}', TAKEN_OR_REFUSED), ("id-5000-digits", f'{{"board": BOARD, "id": {DIGITS_5000}}}', TAKEN_OR_REFUSED),
          ("board-twice", '{"board": BOARD, "board": "x"}', REFUSED), ("nested-too-deeply", '{"board": ' + "[" * 100_000 + "]" * 100_000 + "}", REFUSED),
          ("bom", "\ufeff{\"board\": BOARD}", TAKEN_OR_REFUSED), ("a-number", "5", REFUSED),
      ]],
    *[Case(f"solve-board-{fmt}-nested-too-deeply", "numbers", _solve_boards(_jsonl("[" * 100_000 + "]" * 100_000), fmt)) for fmt in ("text", "json", "bhs")],
    Case("solve-board-a-line-of-a-million-characters", "numbers", _solve_boards(lambda s: s.write("b.txt", "Foundations: AS\n" + "KS " * 333_333 + "\n"), "text")),
    Case("import-a-line-of-a-million-characters", "numbers", lambda s: ["import", s.write("b.txt", "Foundations: AS\n" + "9" * 1_000_000 + "\n"), "-o", "o.parquet"]),
    *[Case(f"show-{name}", "numbers", lambda s, d=deal_id: ["show", d], REFUSED)
      for name, deal_id in [
          ("seed-2-to-the-64", f"seed-{2**64}-0"), ("index-2-to-the-64", f"seed-1-{2**64}"), ("seed-1e999", "seed-1e999-0"),
          ("seed-negative", "seed--1-0"), ("seed-5000-digits", f"seed-{DIGITS_5000}-0"), ("index-5000-digits", f"seed-1-{DIGITS_5000}"),
          ("pysol-400-digits", f"pysol-{DIGITS_400}"), ("pysol-5000-digits", f"pysol-{DIGITS_5000}"), ("seed-unicode-digits", "seed-\u0661-0"),
          ("seed-underscored", "seed-1_0-0"), ("seed-plus", "seed-+1-0"), ("seed-spaces", "seed- 1-0"),
      ]],
    Case("show-pysol-400-digits-golf", "numbers", lambda s: ["show", f"pysol-{DIGITS_400}", "--game", "golf"]),
    *[Case(f"option-{name}", "numbers", lambda s, a=args: [arg if arg != "{deals}" else s.fixture("deals.parquet") for arg in a], USAGE)
      for name, args in [
          ("max-nodes-400-digits", ["solve", "{deals}", "-o", "o.parquet", "--max-nodes", DIGITS_400]),
          ("max-nodes-5000-digits", ["solve-board", "--max-nodes", DIGITS_5000]),
          ("seed-2-to-the-64", ["generate", "-o", "o.parquet", "-n", "1", "--seed", str(2**64)]),
          ("count-1e999", ["generate", "-o", "o.parquet", "-n", "1e999", "--seed", "1"]),
          ("start-past-int64", ["generate", "-o", "o.parquet", "-n", "2", "--seed", "1", "--start", str(2**63 - 1)]),
          ("pysol-past-the-last", ["generate", "-o", "o.parquet", "-n", "2", "--source", "pysol", "--first", "8589934591"]),
          ("time-limit-inf", ["crosscheck", "{deals}", "-o", "o.parquet", "--time-limit", "inf"]),
          ("sample-minus-nan", ["grade", "{deals}", "-o", "o.parquet", "--sample", "-nan"]),
          ("calibrate-count-400-digits", ["calibrate", "-o", "t.toml", "--seed", "1", "-n", DIGITS_400]),
          ("export-limit-400-digits", ["export", "{deals}", "-f", "csv", "-o", "d.csv", "--limit", DIGITS_400]),
          ("jobs-400-digits", ["solve", "{deals}", "-o", "o.parquet", "--jobs", DIGITS_400]),
          ("run-jobs-minus-1e999", ["run", "--config", "x.toml", "--jobs", "-1e999"]),
      ]],
]
# fmt: on

CASES = PLAYS_CASES + FAMILY_CASES + FREE_TEXT_CASES + DAMAGED_PACK_CASES + NUMBER_CASES


def corpus_size() -> dict[str, int]:
    """How many cases of each kind the corpus holds."""
    counted = Counter(case.kind for case in CASES)
    return {kind: counted[kind] for kind in KINDS}


def test_corpus_size_by_kind_and_every_case_distinct():
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)), [name for name, n in Counter(ids).items() if n > 1]
    assert SLOW <= set(ids)
    size = corpus_size()
    print("\n" + "\n".join(f"{kind}: {count} ({KINDS[kind]})" for kind, count in size.items()))
    print(f"all: {len(CASES)}")
    assert set(Counter(case.kind for case in CASES)) == set(KINDS)
    assert all(size[kind] >= AT_LEAST[kind] for kind in KINDS), size


READERS_OF_FLAGS = (
    "report",
    "calibrate",
    "curate",
    "solve",
    "crosscheck",
    "grade",
    "import",
    "export",
    "gallery",
    "show",
)


def _command_of(args: Args) -> str:
    """The command a case runs, with ``--plays`` and ``--format`` named: ``report --plays``, ``solve-board --format bhs``."""
    words = [str(arg) for arg in args]
    name = " ".join(words[:2]) if words[0] == "plays" else words[0]
    for flag in ("--plays", "--game"):
        if flag in words and name in READERS_OF_FLAGS:
            name += f" {flag}"
    if name == "solve-board" and "--format" in words:
        name += f" --format {words[words.index('--format') + 1]}"
    return name


def test_every_command_meets_bad_input(harness_built, tmp_path):
    """Each command of ``blackhole --help`` (and plays's), each reader with --plays and --game, each
    format of solve-board: at least one case runs it."""
    group = get_command(app)
    commands = {name for name in group.commands if name != "plays"}  # type: ignore[attr-defined]
    commands |= {f"plays {name}" for name in group.commands["plays"].commands}  # type: ignore[attr-defined]
    commands |= {"report --plays", "calibrate --plays", "curate --plays"}
    commands |= {f"solve-board --format {fmt}" for fmt in FORMATS}
    commands |= {f"{name} --game" for name in READERS_OF_FLAGS if name != "calibrate"}
    met = set()
    for number, case in enumerate(CASES):
        (tmp_path / str(number)).mkdir()
        met.add(_command_of(case.build(Inputs(tmp_path / str(number), harness_built))))
    assert commands <= met, sorted(commands - met)


def _answers_in_json(args: Args) -> bool:
    """Whether ``args`` run solve-board with JSON answers, whose errors (of several boards) are JSON lines on
    standard output."""
    return args[0] == "solve-board" and any(fmt in args for fmt in ("json", "jsonl"))


def _printable(text: str) -> bool:
    return all(line.isprintable() for line in text.splitlines())


def _unprintable(text: str) -> str:
    """The first line of ``text`` that is not printable, as Python spells it."""
    return next((repr(line)[:120] for line in text.splitlines() if not line.isprintable()), "")


@pytest.mark.parametrize(
    "case", [pytest.param(case, marks=[pytest.mark.slow] * (case.id in SLOW), id=case.id) for case in CASES]
)
def test_a_bad_input_ends_in_a_documented_way(case, harness_built, tmp_path, monkeypatch):
    scratch = Inputs(tmp_path, harness_built)
    monkeypatch.chdir(tmp_path)
    args = [str(arg) for arg in case.build(scratch)]
    before = snapshot(tmp_path)
    result = CliRunner().invoke(app, args, input=case.stdin)
    escaped = result.exception if not isinstance(result.exception, SystemExit | None) else None
    lines = result.stderr.splitlines()
    said = f"{case.id}: exit {result.exit_code}: {lines[-1] if lines else ''}"
    if LOG in os.environ:  # each case's ending, for a report of the corpus's results
        with open(os.environ[LOG], "a", encoding="utf-8") as log:
            log.write(f"{case.kind}\t{said}\n")
    assert escaped is None, f"{case.id}: {type(escaped).__name__}: {escaped}"
    assert "Traceback" not in result.output, said
    assert result.exit_code in DOCUMENTED, said
    assert result.exit_code in case.codes, f"{said} (expected {' or '.join(map(str, sorted(case.codes)))})"
    if result.exit_code == ExitCode.BAD_INPUT and (lines or not _answers_in_json(args)):
        assert len(lines) == 1 and lines[0].startswith("error: "), f"{said} ({len(lines)} lines on stderr)"
        assert case.expect is None or re.search(case.expect, lines[0]), f"{said} (not /{case.expect}/)"
        # solve-board prints the answers of the good boards among the bad
        assert result.stdout == "" or args[0] == "solve-board", f"{said} (and stdout)"
    elif result.exit_code == ExitCode.BAD_INPUT:  # each board's answer or error a JSON line on stdout
        assert not lines and '"error": ' in result.stdout, f"{said} (no error on stdout)"
    assert _printable(result.stdout), f"{said} (stdout unprintable: {_unprintable(result.stdout)})"
    assert _printable(result.stderr), f"{said} (stderr unprintable: {_unprintable(result.stderr)})"
    if result.exit_code != ExitCode.OK:
        assert snapshot(tmp_path) == before, f"{said} (the command changed its folder)"
    if case.check is not None:
        case.check(tmp_path, result)


def test_json_lines_of_boards_say_what_no_board_line_may_hold(tmp_path):
    """NaN, a number past range, an integer too long to read, a key twice, nesting too deep: each line's
    error says which, where, and the other lines are still answered."""
    lines = ['{"board": 1e999}', f'{{"board": {DIGITS_5000}}}', '{"board": "x", "board": "y"}', '{"id": NaN}',
             "[" * 100_000 + "]" * 100_000, '{"a": [1, {"b": -2e400}]}']  # fmt: skip
    path = tmp_path / "b.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["solve-board", str(path), "--format", "jsonl"])
    assert result.exit_code == ExitCode.BAD_INPUT and result.stderr == ""
    assert [json.loads(line)["error"] for line in result.stdout.splitlines()] == [
        "board: 1e999 is out of range",
        "board: a number of 5000 digits, too long to read",
        "the key 'board' is given twice",
        "id: NaN is not a number",
        "not JSON that can be read (nested too deeply)",
        "a[1].b: -2e400 is out of range",
    ]


# --- what a command prints after its work, and --help: a closed pipe, a full disk -----------------------

BLACKHOLE = Path(sys.executable).parent / "blackhole"


def _to_closed_pipe(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``blackhole ARGS`` with standard output a pipe whose reader is gone before it starts."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [BLACKHOLE, *map(str, args)], stdout=writer, stderr=subprocess.PIPE, text=True, cwd=cwd
        )
    finally:
        os.close(writer)


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["show", "seed-1-0"], ["report", PACK, "--json"]]
)
def test_output_to_a_reader_gone_ends_quietly_with_141(args, harness_built):
    """Help, a board, a report's JSON: printed outside the command's work, where Click would exit 1."""
    done = _to_closed_pipe(*args, cwd=harness_built)
    assert (done.returncode, done.stderr) == (ExitCode.BROKEN_PIPE, "")


@pytest.mark.skipif(
    not Path("/dev/full").exists(), reason="no /dev/full, whose every write fails as a full disk"
)
@pytest.mark.parametrize("args", [["show", "seed-1-0"], ["report", PACK, "--json"], ["--help"]])
def test_output_to_a_full_disk_is_one_line_naming_standard_output(args, harness_built):
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [BLACKHOLE, *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=harness_built
        )
    assert (done.returncode, done.stderr.splitlines()) == (
        ExitCode.BAD_INPUT,
        ["error: standard output: could not write: the disk is full (ENOSPC: No space left on device)"],
    )
