"""A static web gallery of a pack: browse its deals, play them, ask for hints, watch the solution.

:func:`write_gallery` writes a folder that works from ``file://`` or any
static host, with no network request of any kind::

    DIR/index.html      the page (the index, and a deal in play at #deal=ID)
    DIR/gallery.css     its styles
    DIR/solver.js       the rules and the exact in-browser solver behind the hints
    DIR/deals.js        the selected deals: window.BLACKHOLE_GALLERY = {...}
    DIR/words.js        cards and figures in words, words.json's table in it (no DOM)
    DIR/game.js         a game: moves, undo, redo, restart, status (no DOM)
    DIR/records.js      play records: every attempt, kept in local storage (no DOM)
    DIR/pack.js         deals.js's object read: the deals, sorted   (no DOM)
    DIR/dom.js          small DOM helpers
    DIR/thumbnail.js    a deal's opening layout on a canvas
    DIR/deal-list.js    the index: filter, sort, search, rows
    DIR/board.js        the board: cards, marks, clicks and keys
    DIR/worker.js       the solver in a Web Worker, off the page's thread
    DIR/hint.js         hints
    DIR/solution.js     the solution player
    DIR/traps.js        the traps along the solution
    DIR/grade.js        the grade, explained
    DIR/playtest.js     the win banner, a deal's note and mark, the records' export
    DIR/play.js         a deal in play: wires the parts above
    DIR/main.js         routing between the index and a deal; starts the page

The page, styles and scripts are copied from ``gallery_site/`` beside this
module (plain scripts loaded in :data:`ASSETS` order, each registering on
``window.Blackhole``, so the page needs no build step and works from
``file://``); only ``deals.js`` and the page's title depend on the pack.
``words.js`` gets the player's words written in (:func:`words_script`): the
table the reports' :mod:`pipeline.reports.words` reads too. Deals
come in level order for a curated pack, pack order otherwise, optionally
one tier only and at most ``limit`` of them. Every solution is replayed by
the referee (:mod:`pipeline.game.rules`) before it is written, so the page
never shows a move the rules refuse.

``deals.js`` holds one object (:func:`gallery_data`): the title, the pack's
name and kind, its game (``game``, the game's name, only where the game is named in what is written of
it, :attr:`~pipeline.game.games.Game.game_entry`: not for Black Hole, so that a Black Hole gallery is the
bytes it was before the family came), the gallery's
build id (:func:`build_id`), what its difficulty counts (the reference player and figure)
and the tier thresholds in that figure (from the pack's metadata; null for a
pack that was never graded), the budgets the solver and the grader ran with
(``budgets``: ``max_nodes``, ``grade_max_positions`` and ``grade_max_memory_mib``
of the metadata as ``solve``, ``grade`` and ``grade_memory_mib``, each null
when not recorded, as a pack graded before memory budgets has no memory
budget; an ungraded deal's grade says which ran out), the ladder of player models
(:data:`~pipeline.game.players.PLAYERS`: each one's name, words and columns),
the pack's tier names in order, and the deals as ``columns`` (:data:`COLUMNS`)
and ``deals`` (one list of values per deal). ``cards`` is :func:`cards_text`: the page reads
the layout (17 fans of 3, All in a Row's 13 fans of 4, Golf's 7 fans of 5 with the
foundation's card and the talon) off the game.
The page says the figures in a player's words; the columns keep their names
under "All the numbers". The same pack and options give the same bytes.

The folder replaces ``DIR`` whole (:func:`pipeline.files.replacing_folder`);
a ``DIR`` that holds anything but an earlier gallery is refused, so a
mistyped ``--out`` cannot delete a pack.
"""

from __future__ import annotations

import hashlib
import html
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.errors import BlackholeError
from pipeline.files import (
    check_folder_writable,
    check_outside_inputs,
    check_replaceable_folder,
    replacing_folder,
)
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal
from pipeline.game.games import DEFAULT_GAME, Game
from pipeline.game.players import PLAYER_COLUMNS, PLAYERS
from pipeline.game.rules import IllegalMove, replay
from pipeline.packs.exports import EXPORTED_METRICS, count_text, selected_rows
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.labels import PACK_TIERS, UNGRADED
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import metadata
from pipeline.reports.words import WORDS_FILE
from pipeline.stages.tiers import DIFFICULTY_KEYS, THRESHOLDS

SITE = Path(__file__).with_name("gallery_site")
PAGE = "index.html"
ASSETS = (
    "gallery.css",
    "solver.js",
    "words.js",
    "game.js",
    "records.js",
    "statistics.js",
    "pack.js",
    "dom.js",
    "thumbnail.js",
    "deal-list.js",
    "board.js",
    "worker.js",
    "hint.js",
    "solution.js",
    "traps.js",
    "grade.js",
    "personal.js",
    "clock.js",
    "modes.js",
    "ending.js",
    "playtest.js",
    "play.js",
    "main.js",
)
"""The files copied from ``gallery_site/``; the scripts in the order index.html loads them (deals.js after solver.js)."""
DATA = "deals.js"
WORDS_SCRIPT = "words.js"
WORDS_MARK = "/* words.json */ null"
"""What ``words.js`` holds in place of its table of words until a gallery is written (under Node it reads the file)."""
DATA_GLOBAL = "BLACKHOLE_GALLERY"
TITLE_MARK = "{{title}}"

_DEAL_COLUMNS = ("deal_id", "level", "tier", "verdict", "grade_status", "cards", "solution", "difficulty")
COLUMNS = tuple(dict.fromkeys((*_DEAL_COLUMNS, *PLAYER_COLUMNS, "tree_score", *EXPORTED_METRICS)))
"""The values of each deal in ``deals.js``, in order, each once; a column the pack lacks is null."""


class GalleryError(BlackholeError, ValueError):
    """A gallery that cannot be made: an unknown tier, a bad limit, no deal selected, a solution the rules refuse."""


@dataclass(frozen=True)
class Gallery:
    """What :func:`write_gallery` wrote: the folder, its deals, and its size in bytes."""

    folder: Path
    deals: int
    size: int


def write_gallery(
    pack: Path,
    out: Path,
    *,
    tier: str | None = None,
    limit: int | None = None,
    title: str | None = None,
) -> Gallery:
    """Write the gallery of the pack folder ``pack`` to the folder ``out`` (replaced whole, its parents made)."""
    if tier is not None and tier not in PACK_TIERS:
        raise GalleryError(f"unknown tier {tier!r} (tiers: {', '.join(PACK_TIERS)})")
    if limit is not None and limit < 1:
        raise GalleryError(f"limit must be at least 1, got {limit}")
    out = Path(out)
    _check_replaceable(out)
    check_outside_inputs(out, [pack])
    manifest = read_manifest(pack)
    table = read_pack_folder(pack)
    if "level" in table.column_names:
        table = table.sort_by("level")
    rows = selected_rows(table, tier=tier, limit=limit)
    if not rows:
        raise GalleryError(f"{pack}: no deals of tier {tier!r} to show" if tier else f"{pack}: no deals")
    name = title if title is not None else manifest.origin.name
    data = gallery_data(
        rows, table, title=name, pack=manifest.origin.name, kind=manifest.origin.kind, game=manifest.played
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    with replacing_folder(out) as staging:
        page = (SITE / PAGE).read_text(encoding="utf-8").replace(TITLE_MARK, html.escape(name))
        (staging / PAGE).write_text(page, encoding="utf-8")
        for asset in ASSETS:
            shutil.copyfile(SITE / asset, staging / asset)
        (staging / WORDS_SCRIPT).write_text(words_script(), encoding="utf-8")
        (staging / DATA).write_text(data_script(data), encoding="utf-8")
    size = sum(path.stat().st_size for path in out.iterdir())
    return Gallery(out, len(rows), size)


def _check_replaceable(out: Path) -> None:
    """Refuse, before the pack is read, to replace a file, a symbolic link, or a folder with files that is
    not a gallery (a mistyped --out must not cost a pack), and a place where the folder cannot be made."""
    if out.exists() and not out.is_dir():
        raise GalleryError(f"{out}: exists and is not a folder")
    check_replaceable_folder(out)  # a link: replaced whole, the folder is never written through one
    if out.is_dir() and any(out.iterdir()) and not (out / DATA).is_file():
        raise GalleryError(f"{out}: a folder that is not a gallery (no {DATA}); choose a new or empty folder")
    check_folder_writable(out, replaced=True)  # its parents are made if missing


def gallery_data(
    rows: list[dict[str, Any]],
    table: pa.Table,
    *,
    title: str,
    pack: str,
    kind: str,
    game: Game = DEFAULT_GAME,
) -> dict[str, Any]:
    """The object ``deals.js`` holds for ``rows`` of the pack ``table`` of ``game`` (see the module's docstring)."""
    provenance = metadata(table)
    reference = {key: provenance.get(f"difficulty_{key}") for key in DIFFICULTY_KEYS}
    graded = None not in reference.values() and all(f"tier_{name}" in provenance for name in THRESHOLDS)
    played = game.game_entry  # none where records leave the game unnamed: Black Hole's, its old bytes
    data = {
        "title": title,
        "pack": pack,
        "kind": kind,
        **played,
        "difficulty": reference if graded else None,
        "tiers": {name: float(provenance[f"tier_{name}"]) for name in THRESHOLDS} if graded else None,
        "budgets": {
            "solve": _budget(provenance, "max_nodes"),
            "grade": _budget(provenance, "grade_max_positions"),
            "grade_memory_mib": _budget(provenance, "grade_max_memory_mib"),
        },
        "players": [
            {
                "name": player.value,
                "words": player.words,
                "win_column": player.win_column,
                "dead_ends_column": player.dead_ends_column,
            }
            for player in PLAYERS
        ],
        "tier_order": list(PACK_TIERS),
        "columns": list(COLUMNS),
        "deals": [deal_values(row, game) for row in rows],
    }
    return {"title": title, "pack": pack, "kind": kind, **played, "build": build_id(data), **data}


def _budget(provenance: dict[str, str], key: str) -> int | None:
    """A budget (of positions, or of MiB) the pack's metadata records under ``key``, or None."""
    text = provenance.get(key)
    return int(text) if text is not None and text.isdigit() else None


def build_id(data: dict[str, Any]) -> str:
    """The build id of a gallery whose ``deals.js`` object is ``data`` (without ``"build"``): the first 16 hex
    digits of the sha256 of that ``deals.js`` text.

    It changes when anything the page shows changes (a deal, a figure, the title) and is the same for the
    same pack and options, so the play records a gallery keeps are never mixed with another gallery's.

    >>> build_id({"title": "t", "deals": []})
    'ca68815bf62740b3'
    """
    return hashlib.sha256(data_script(data).encode("utf-8")).hexdigest()[:16]


def deal_values(row: dict[str, Any], game: Game = DEFAULT_GAME) -> list[Any]:
    """One pack row of ``game`` as the values of :data:`COLUMNS`, its solution replayed by the referee first."""
    deal = Deal.from_board_text(row["board"], source=str(row["deal_id"]), game=game)
    solution = [int(pile) for pile in row.get("solution") or ()]
    if solution:
        try:
            replay(deal, solution)
        except IllegalMove as error:
            raise GalleryError(f"{row['deal_id']}: the stored solution breaks the rules: {error}") from None
    values = dict(row)
    values["tier"] = row.get("tier") or UNGRADED
    values["cards"] = cards_text(deal)
    values["solution"] = solution
    values["solution_count"] = count_text(row)  # decimal text, as exports write it
    return [values.get(name) for name in COLUMNS]


def cards_text(deal: Deal) -> str:
    """The cards of ``deal`` as names without spaces, pile 0 first, each pile bottom to top: ``"JDKSTH2D..."``
    (Black Hole's 51, All in a Row's 52); in Golf the 35 pile cards, then the foundation's card and the 16
    of the talon, first dealt first (:meth:`Deal.cards`).

    >>> from pipeline.game.deal import EXAMPLE_BOARD
    >>> cards_text(Deal.from_board_text(EXAMPLE_BOARD))[:12]
    'JDKSTH2D9D8H'
    >>> from pipeline.game.games import game_named
    >>> from pipeline.game.shuffles import pysol_deal
    >>> golf = cards_text(pysol_deal(1, game_named("golf")))
    >>> len(golf) // 2, golf[70:72], golf[72:74]
    (52, 'TH', '8H')
    """
    return "".join(card_name(card) for card in deal.cards())


def words_script() -> str:
    """``words.js`` with the player's words (``words.json``, :data:`pipeline.reports.words.WORDS`) written in.

    >>> "quintillion" in words_script() and WORDS_MARK not in words_script()
    True
    """
    text = (SITE / WORDS_SCRIPT).read_text(encoding="utf-8")
    if text.count(WORDS_MARK) != 1:
        raise GalleryError(f"{WORDS_SCRIPT} must hold {WORDS_MARK!r} once, where its table of words goes")
    return text.replace(WORDS_MARK, WORDS_FILE.read_text(encoding="utf-8").strip())


def data_script(data: dict[str, Any]) -> str:
    """``deals.js``: a script that sets ``window.BLACKHOLE_GALLERY``, one deal per line.

    A script, not a JSON file, because a page opened from ``file://`` may not fetch files.
    """
    deals = data["deals"]
    head = json.dumps({**data, "deals": []}, ensure_ascii=False, allow_nan=False)[: -len("[]}")]
    lines = ",\n".join(json.dumps(values, ensure_ascii=False, allow_nan=False) for values in deals)
    return f"window.{DATA_GLOBAL} = {head}[\n{lines}\n]}};\n"
