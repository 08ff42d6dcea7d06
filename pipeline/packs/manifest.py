"""A pack folder's ``manifest.json``: what the pack is, where its deals came from, its files and counts.

:class:`Manifest` is read (:func:`read_manifest`) and written
(:meth:`Manifest.to_json`) here and nowhere else. Its JSON object has, in
this order:

- ``name``, ``kind`` (``pack`` or ``curated``), ``blackhole_version``, ``dealing_scheme``;
- a run's pack: ``config``, the run's settings that decide the rows;
- a curated pack: ``curated_from`` (the source pack's name), ``source_config``
  and ``curation`` (quotas, order, rows dropped by each rule, shortfalls);
- ``deals``, ``verdicts`` (deals by verdict), ``tiers`` (deals by tier), and
  ``win_rate`` (rate, 95 % interval, the published rate and whether it is inside);
- ``files``: every data file with its tier, row count and SHA-256.

>>> manifest = Manifest.from_json(Manifest(Origin("demo", "pack", "0.1.0", "pysol-fc"), 0, {}, {}, None, ()).to_json())
>>> manifest.name, manifest.kind, manifest.files
('demo', 'pack', ())
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.packs.parquet import PackError

MANIFEST = "manifest.json"
KINDS = ("pack", "curated")


@dataclass(frozen=True)
class Origin:
    """Where a pack's deals came from: its name and kind, the package and dealing scheme, the settings."""

    name: str
    kind: str
    blackhole_version: str
    dealing_scheme: str | None
    config: dict[str, Any] | None = None  # a run's pack: the settings that decide the rows
    curated_from: str | None = None  # a curated pack: the source pack's name
    source_config: dict[str, Any] | None = None  # a curated pack: the source pack's config
    curation: CurationRecord | None = None  # a curated pack: how it was curated


@dataclass(frozen=True)
class CurationRecord:
    """How a curated pack was made: its quotas and order, the rows each rule dropped, the shortfalls."""

    per_tier: dict[str, int] | None
    order: str
    dropped: dict[str, int]
    shortfalls: dict[str, tuple[int, int]]  # tier: (wanted, found)


@dataclass(frozen=True)
class WinRateRecord:
    """A pack's win rate with its 95 % interval, beside the published rate."""

    rate: float | None
    low: float
    high: float
    published: float
    published_inside: bool


@dataclass(frozen=True)
class FileEntry:
    """One data file of a pack folder: its path in the folder, tier, row count and SHA-256."""

    path: str
    tier: str
    rows: int
    sha256: str


@dataclass(frozen=True)
class Manifest:
    """Everything ``manifest.json`` says of a pack folder."""

    origin: Origin
    deals: int
    verdicts: dict[str, int]
    tiers: dict[str, int]
    win_rate: WinRateRecord | None
    files: tuple[FileEntry, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.origin.name

    @property
    def kind(self) -> str:
        return self.origin.kind

    def to_dict(self) -> dict[str, Any]:
        """The manifest as the JSON object it is written as, keys in their order."""
        origin = self.origin
        found: dict[str, Any] = {
            "name": origin.name,
            "kind": origin.kind,
            "blackhole_version": origin.blackhole_version,
            "dealing_scheme": origin.dealing_scheme,
        }
        if origin.kind == "pack":
            found["config"] = origin.config
        else:
            found["curated_from"] = origin.curated_from
            found["source_config"] = origin.source_config
            found["curation"] = None if origin.curation is None else _curation_dict(origin.curation)
        found |= {
            "deals": self.deals,
            "verdicts": self.verdicts,
            "tiers": self.tiers,
            "win_rate": None if self.win_rate is None else vars(self.win_rate).copy(),
            "files": [vars(entry).copy() for entry in self.files],
        }
        return found

    def to_json(self) -> str:
        """The text of ``manifest.json``."""
        return json.dumps(self.to_dict(), indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = MANIFEST) -> Manifest:
        """The manifest in ``text``; PackError naming ``source`` when it is not one."""
        try:
            found = json.loads(text)
        except json.JSONDecodeError as error:
            raise PackError(f"{source}: not a readable manifest ({error})") from None
        if not isinstance(found, dict) or not isinstance(found.get("files"), list):
            raise PackError(f"{source}: not a pack manifest (no list of files)")
        try:
            return _manifest_of(found)
        except (KeyError, TypeError, ValueError) as error:
            raise PackError(f"{source}: not a pack manifest ({type(error).__name__}: {error})") from None


def _curation_dict(curation: CurationRecord) -> dict[str, Any]:
    return {
        "per_tier": curation.per_tier,
        "order": curation.order,
        "dropped": curation.dropped,
        "shortfalls": {tier: list(pair) for tier, pair in curation.shortfalls.items()},
    }


def _manifest_of(found: dict[str, Any]) -> Manifest:
    curation = found.get("curation")
    origin = Origin(
        name=str(found["name"]),
        kind=str(found["kind"]),
        blackhole_version=str(found["blackhole_version"]),
        dealing_scheme=found.get("dealing_scheme"),
        config=found.get("config"),
        curated_from=found.get("curated_from"),
        source_config=found.get("source_config"),
        curation=None
        if curation is None
        else CurationRecord(
            per_tier=curation["per_tier"],
            order=curation["order"],
            dropped=dict(curation["dropped"]),
            shortfalls={tier: (int(pair[0]), int(pair[1])) for tier, pair in curation["shortfalls"].items()},
        ),
    )
    rate = found.get("win_rate")
    return Manifest(
        origin=origin,
        deals=int(found["deals"]),
        verdicts=dict(found["verdicts"]),
        tiers=dict(found["tiers"]),
        win_rate=None if rate is None else WinRateRecord(**rate),
        files=tuple(FileEntry(**entry) for entry in found["files"]),
    )


def read_manifest(folder: Path) -> Manifest:
    """The manifest of the pack folder ``folder``; PackError naming it when there is no pack there."""
    folder = Path(folder)
    path = folder / MANIFEST
    if folder.exists() and not folder.is_dir():
        raise PackError(f"{folder}: not a pack folder (a file, not a folder)")
    if not folder.is_dir():
        raise PackError(f"{folder}: no such pack folder")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackError(f"{folder}: not a pack folder (no {MANIFEST})") from None
    except UnicodeDecodeError as error:
        raise PackError(f"{path}: not a readable manifest ({error})") from None
    return Manifest.from_json(text, source=str(path))
