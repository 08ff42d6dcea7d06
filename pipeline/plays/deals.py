"""The deals of a pack that play records name: each one's board, tier and player models' figures.

:func:`pack_deals` reads a pack folder batch by batch (every row checked as
the commands check it) and keeps only the deals asked for, so memory grows with
the deals played, not with the pack. A deal's figures are there when it is
solvable and graded exactly; the tiers the pack was graded with come from its
schema metadata.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.players import PLAYER_COLUMNS, PLAYERS, Player, PlayerFigures
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import pack_folder_batches, pack_metadata
from pipeline.packs.labels import GradeStatus
from pipeline.packs.manifest import read_manifest
from pipeline.stages.tiers import Tiers

READ_COLUMNS = ("deal_id", "board", "verdict", "grade_status", "difficulty", *PLAYER_COLUMNS)
"""The columns :func:`pack_deals` reads (with ``tier``, which a pack folder's batches carry)."""


@dataclass(frozen=True)
class PackedDeal:
    """One deal of a pack as play records need it; ``figures`` (one per player of the ladder) and
    ``difficulty`` are None unless it is solvable and graded exactly."""

    deal_id: str
    deal: Deal
    tier: str
    figures: tuple[PlayerFigures, ...] | None
    difficulty: float | None

    def figures_of(self, player: Player) -> PlayerFigures | None:
        return None if self.figures is None else self.figures[PLAYERS.index(player)]


@dataclass(frozen=True)
class PackDeals:
    """The deals of the pack folder ``folder`` that were asked for, by id, in pack order; its name, the
    pack it was curated from (None for a run's pack), the tiers it was graded with (None if never) and
    its game."""

    folder: Path
    name: str
    curated_from: str | None
    tiers: Tiers | None
    deals: dict[str, PackedDeal]
    game: Game


def pack_deals(folder: Path, wanted: Collection[str] | None = None) -> PackDeals:
    """The deals of the pack folder ``folder`` whose ids are in ``wanted`` (every deal when None)."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    chosen = None if wanted is None else set(wanted)
    found: dict[str, PackedDeal] = {}
    for batch in pack_folder_batches(folder, columns=list(READ_COLUMNS)):
        for row in batch.to_pylist():
            if chosen is None or row["deal_id"] in chosen:
                found[row["deal_id"]] = _packed(row, source=str(folder), game=manifest.played)
    return PackDeals(
        folder,
        manifest.name,
        manifest.origin.curated_from,
        Tiers.from_metadata(pack_metadata(folder)),
        found,
        manifest.played,
    )


def _packed(row: dict[str, object], *, source: str, game: Game) -> PackedDeal:
    graded = row["verdict"] == Verdict.SOLVED and row["grade_status"] == GradeStatus.EXACT
    figures = None
    if graded and all(row[column] is not None for column in PLAYER_COLUMNS):
        figures = tuple(
            PlayerFigures(float(row[player.win_column]), float(row[player.dead_ends_column]))  # type: ignore[arg-type]
            for player in PLAYERS
        )
    difficulty = row["difficulty"]
    deal_id = str(row["deal_id"])
    return PackedDeal(
        deal_id,
        Deal.from_board_text(str(row["board"]), source=f"{source} {deal_id}", game=game),
        str(row["tier"]),
        figures,
        float(difficulty) if graded and isinstance(difficulty, int | float) else None,
    )
