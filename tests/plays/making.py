"""Export files made by hand and by bots, as the gallery writes them (docs/schema.md, "Play records")."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.game.deal import Deal
from pipeline.game.players import Player
from pipeline.plays.events import replay_events
from pipeline.plays.exports import MODE_KEYS
from tests.support.bots import attempt_record, play_attempt

PACK = "p"
GALLERY = "0123456789abcdef"
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
SECONDS_PER_EVENT = 1.5  # a bot's seconds of play: this much a click


def when(minutes: float) -> str:
    """The ISO time ``minutes`` after :data:`START`, as the gallery writes it."""
    return (START + timedelta(minutes=minutes)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def document(
    deals: Sequence[Mapping[str, Any]],
    *,
    pack: str = PACK,
    exported: float = 600.0,
    gallery: str = GALLERY,
    version: int = 2,
) -> dict[str, Any]:
    """An export document of ``version`` holding ``deals`` (each a deal entry of the export); of version 1,
    its attempts lose the keys version 2 added (``mode``, ``timed``, ``move_limit``)."""
    if version == 1:
        deals = [deal | {"attempts": [as_version_1(found) for found in deal["attempts"]]} for deal in deals]
    return {
        "format": "blackhole-plays",
        "version": version,
        "pack": pack,
        "gallery": gallery,
        "title": "Test pack",
        "exported": when(exported),
        "deals": list(deals),
    }


def as_version_1(found: Mapping[str, Any]) -> dict[str, Any]:
    """The attempt entry ``found`` as version 1 wrote it: no mode, clock or move limit."""
    return {key: value for key, value in found.items() if key not in MODE_KEYS}


def deal_entry(
    deal_id: str, attempts: Sequence[Mapping[str, Any]], *, note: str = "", mark: str | None = None
) -> dict[str, Any]:
    return {"deal_id": deal_id, "note": note, "mark": mark, "attempts": list(attempts)}


def attempt(
    attempt_id: str,
    events: Sequence[int | str],
    *,
    outcome: str,
    started: float = 0.0,
    seconds: float = 10.0,
    mode: str = "relaxed",
    timed: bool = False,
    move_limit: int | None = None,
    **counts: Any,
) -> dict[str, Any]:
    """An attempt entry of version 2: ``counts`` are the export's count fields (moves, undos, ...), given as
    the test wants them."""
    record = {
        "id": attempt_id,
        "started": when(started),
        "ended": None if outcome == "playing" else when(started + seconds / 60),
        "seconds": seconds,
        "outcome": outcome,
        "events": list(events),
    }
    defaults = {
        "moves": 0,
        "undos": 0,
        "redos": 0,
        "restarts": 0,
        "hints": 0,
        "dead_ends": 0,
        "cards_played": 0,
        "clean": False,
    }
    return record | defaults | counts | {"mode": mode, "timed": timed, "move_limit": move_limit}


def write(path: Path, found: Mapping[str, Any]) -> Path:
    path.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def solvable(rows: pa.Table) -> list[tuple[str, Deal]]:
    """The id and deal of each solvable row of ``rows``, in order."""
    return [
        (row["deal_id"], Deal.from_board_text(row["board"]))
        for row in rows.select(["deal_id", "board", "verdict"]).to_pylist()
        if row["verdict"] == "solved"
    ]


def bot_deals(
    deals: Sequence[tuple[str, Deal]],
    player: Player,
    attempts: int,
    *,
    seed: int,
    undo_every: int = 0,
    one_attempt: bool = False,
) -> list[dict[str, Any]]:
    """Deal entries of ``attempts`` bot attempts at each of ``deals`` by ``player``, one ``random.Random(seed)``
    drawing every move; every ``undo_every``-th attempt (0: none) is played without undo, in the mode
    ``one_attempt`` when ``one_attempt`` (else relaxed, as a player who chose not to undo)."""
    rng = random.Random(seed)
    entries, minute = [], 0.0
    for number, (deal_id, deal) in enumerate(deals):
        made = []
        for place in range(attempts):
            undo = not (undo_every and place % undo_every == undo_every - 1)
            played = play_attempt(deal, player, rng, undo=undo)
            seconds = SECONDS_PER_EVENT * len(played.events)
            made.append(
                attempt_record(
                    played,
                    attempt_id=f"bot{number}x{place}-{player.column_prefix[:8]:a<8}",
                    started=when(minute),
                    ended=when(minute + seconds / 60),
                    seconds=seconds,
                    mode="one_attempt" if one_attempt and not undo else "relaxed",
                )
            )
            minute += seconds / 60 + 1
        entries.append(deal_entry(deal_id, made))
    return entries


def replayed(
    attempt_id: str, deal: Deal, events: Sequence[int | str], *, outcome: str | None = None, **keys: Any
) -> dict[str, Any]:
    """The attempt entry of ``events`` at ``deal`` with the counts the replay gives; its outcome ``outcome``,
    or by default the one the page records (``won``, ``stuck`` at a dead end, else ``playing``); ``keys``:
    the entry's other keys (``mode``, ``timed``, ``move_limit``, ``started``, ...)."""
    tally = replay_events(deal, events)
    if outcome is None:
        outcome = "won" if tally.won else "stuck" if tally.stuck else "playing"
    return attempt(attempt_id, events, outcome=outcome, clean=tally.clean, **tally.counts(), **keys)
