"""A pack folder read as typed objects: each deal with its solve result and grade, for a caller in Python.

:func:`open_pack` gives a :class:`Pack`: its manifest, its deals one
:class:`PackEntry` at a time (read in batches, so memory holds one batch
whatever the pack's size; every row is checked as the commands check it),
and :meth:`Pack.find` to look one deal up by its id. A row's columns become
the fields of the same names: a :class:`~pipeline.game.verdicts.SolveResult`
from the solver's columns, a :class:`~pipeline.stages.grade.Grade` from the
grader's (:data:`pipeline.packs.schema.GRADE_FIELDS`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import of_type, shown_value
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.verdicts import SolveResult
from pipeline.packs.folders import pack_folder_batches
from pipeline.packs.labels import GradeStatus, PackTier, Tier
from pipeline.packs.manifest import Manifest, read_manifest
from pipeline.packs.parquet import PackError
from pipeline.stages.grade import Grade
from pipeline.stages.pack_pass import result_of_row

_GRADE_COLUMNS = tuple(declared.name for declared in fields(Grade))


@dataclass(frozen=True)
class PackEntry:
    """One deal of a pack: its id and tier partition, the deal, what the solver found, and its grade.

    ``result.seconds`` is 0.0 when the pack was written without timings;
    ``level`` is its place in a curated pack (None in any other); ``agree``
    whether the cross-check confirmed the verdict (None when not checked).
    """

    deal_id: str
    tier: PackTier
    deal: Deal
    result: SolveResult
    grade: Grade
    level: int | None = None
    agree: bool | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any], *, source: str = "<pack>", game: Game = BLACK_HOLE) -> PackEntry:
        """The entry of a pack folder's row (a dict of its columns, ``tier`` among them), a deal of ``game``."""
        result = result_of_row(row)
        values: dict[str, Any] = {name: row.get(name) for name in _GRADE_COLUMNS}
        values["grade_status"] = GradeStatus(row["grade_status"])
        values["tier"] = None if row["tier"] in (None, PackTier.UNGRADED) else Tier(row["tier"])
        if values["solution_count"] is not None:
            values["solution_count"] = int(values["solution_count"])
        return cls(
            deal_id=row["deal_id"],
            tier=PackTier(row["tier"]),
            deal=Deal.from_board_text(row["board"], source=f"{source} {row['deal_id']}", game=game),
            result=result,
            grade=Grade(**values),
            level=row.get("level"),
            agree=row.get("agree"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The entry as plain JSON-ready values: ``deal_id``, ``tier``, the deal's ``game`` and ``board``
        text, ``result`` and ``grade`` (their own :meth:`~pipeline.game.verdicts.SolveResult.to_dict`),
        ``level`` and ``agree``."""
        return {
            "deal_id": self.deal_id,
            "tier": self.tier.value,
            "game": self.deal.game.name,
            "board": self.deal.to_board_text(),
            "result": self.result.to_dict(),
            "grade": self.grade.to_dict(),
            "level": self.level,
            "agree": self.agree,
        }


@dataclass(frozen=True)
class Pack:
    """A pack folder, opened: its manifest, and its deals read when asked for."""

    folder: Path
    manifest: Manifest

    def __iter__(self) -> Iterator[PackEntry]:
        """Every deal, tier by tier in pack order, each row checked as it is read (PackError naming the file)."""
        for batch in pack_folder_batches(self.folder):
            yield from self._entries(batch)

    def __len__(self) -> int:
        return self.manifest.deals

    def find(self, deal_id: str) -> PackEntry:
        """The deal with id ``deal_id`` (a str, else TypeError); PackError naming the folder and the id
        when the pack has none."""
        of_type(deal_id, str, "deal_id")
        for batch in pack_folder_batches(self.folder):
            found = batch.filter(pc.equal(batch.column("deal_id"), deal_id))
            if found.num_rows:
                return next(self._entries(found))
        raise PackError(f"{self.folder}: no deal {shown_value(deal_id)}")

    def _entries(self, table: pa.Table) -> Iterator[PackEntry]:
        for row in table.to_pylist():
            yield PackEntry.from_row(row, source=str(self.folder), game=self.manifest.played)


def open_pack(folder: Path | str) -> Pack:
    """The pack folder ``folder`` (``output/packs/NAME``), its manifest read and checked (PackError when it is not a pack).

    ``folder`` is a path or its text (else TypeError).
    """
    of_type(folder, (str, os.PathLike), "folder", "a path")
    named = str(folder)
    if "\x00" in named:  # which the OS refuses with a ValueError
        raise PackError(f"{shown_value(named)}: not a pack folder (a path cannot hold a NUL character)")
    try:
        return Pack(Path(folder), read_manifest(Path(folder)))
    except PackError as error:
        if named.isprintable():
            raise
        raise PackError(str(error).replace(named, shown_value(named))) from None  # one line, escapes escaped
