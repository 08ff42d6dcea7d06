"""Packs: what a pack is on disk, and reading and writing it.

- ``schema``: every Parquet column once (name, type, nullability, meaning).
- ``labels``: the closed sets the string columns and folders hold: ``Tier``,
  ``GradeStatus``, ``PackTier`` (light: the command line lists them without Arrow).
- ``formats``: ``ExportFormat``, what an export writes (light, as ``labels``).
- ``parquet``: checked reads and atomic writes of one Parquet file, provenance metadata.
- ``family``: which game a pack holds (its ``game`` metadata, absent for Black Hole), mixing refused.
- ``rows``: what a pack's rows may say (allowed values, finite numbers, no
  contradictions, wins that replay), checked by every reader.
- ``seen``: which of many texts came before, in about 9 bytes each (repeated boards and deal ids).
- ``sources``: a deals table from seeded shuffles, PySol FC numbers or a board text file.
- ``folders``: the tier-partitioned pack folder, written in one pass and read back checked.
- ``manifest``: :class:`~pipeline.packs.manifest.Manifest`, ``manifest.json`` read and written.
- ``exports``: a pack as JSON for games, board text for solvers, or CSV.

Packs use the game (:mod:`pipeline.game`), never the stages: the stages add
columns that this package declares.
"""

__all__ = [
    "exports",
    "family",
    "folders",
    "formats",
    "labels",
    "manifest",
    "parquet",
    "rows",
    "schema",
    "seen",
    "sources",
]
