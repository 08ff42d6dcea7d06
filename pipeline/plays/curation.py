"""``blackhole curate --plays``: a curation that leaves out the deals play-testers rejected, and can order by play.

The records (:func:`pipeline.plays.played.played_pack`) give the curation
(:func:`pipeline.stages.curate.curate_beside`) two things:

- the deals a play-tester marked ``reject`` (the mark of the latest export,
  :mod:`pipeline.plays.merge`), left out whatever their grade;
- asked to order by play, each deal's mistakes before a win
  (:class:`pipeline.plays.model_check.Measure`) for the deals with at least
  :data:`~pipeline.plays.model_check.MIN_ATTEMPTS` finished attempts: those
  deals swap places among themselves, easiest for the players first (a deal
  never won last), while every other deal keeps its place in the order by
  difficulty.

The curated pack's manifest records both under ``curation.plays``.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.packs.manifest import Manifest
from pipeline.plays.exports import Mark
from pipeline.plays.model_check import MIN_ATTEMPTS, Measure
from pipeline.plays.observed import Observed
from pipeline.plays.played import PlayedPack, played_pack
from pipeline.stages.curate import curate_beside
from pipeline.stages.curation_rules import PlayChoices
from pipeline.stages.settings import CurateOrder


def play_choices(played: PlayedPack, *, by_play: bool, min_attempts: int = MIN_ATTEMPTS) -> PlayChoices:
    """What the records of ``played`` ask of a curation: the rejected deals, and with ``by_play`` the
    mistakes before a win of each deal with at least ``min_attempts`` finished attempts."""
    rejected = frozenset(deal.deal_id for deal in played.records.deals if deal.mark is Mark.REJECT)
    placed = None
    if by_play:
        placed = {}
        for deal in played.records.deals:
            observed = Observed.of([deal.attempts])
            if observed.attempts >= min_attempts:
                placed[deal.deal_id] = Measure.MISTAKES.of(observed)
    return PlayChoices(played.records.path.name, rejected, placed, min_attempts)


def curate_with_plays(
    pack: Path,
    name: str,
    plays: Path,
    *,
    per_tier: dict[str, int] | None = None,
    order: CurateOrder | str = CurateOrder.DIFFICULTY,
    by_play: bool = False,
    min_attempts: int = MIN_ATTEMPTS,
) -> tuple[Path, Manifest]:
    """Curate the pack folder ``pack`` into ``name`` beside it, with what the records in ``plays`` ask."""
    choices = play_choices(played_pack(plays, pack), by_play=by_play, min_attempts=min_attempts)
    return curate_beside(pack, name, per_tier=per_tier, order=order, plays=choices)
