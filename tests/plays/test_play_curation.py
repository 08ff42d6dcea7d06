"""blackhole curate --plays: rejected deals left out, the order by play where enough attempts, the manifest says so."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pyarrow.compute as pc
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.manifest import Manifest, read_manifest
from pipeline.plays.importing import import_plays
from pipeline.plays.model_check import Measure
from pipeline.plays.observed import Observed
from pipeline.plays.records import read_plays
from tests.plays.making import write


@pytest.fixture(scope="module")
def curate_plays(
    tmp_path_factory: pytest.TempPathFactory, play_pack: Path, bot_export: dict[str, Any]
) -> Path:
    """The bots' records with the first deal marked reject and every other deal cut to 3 attempts (too few to place)."""
    found = copy.deepcopy(bot_export)
    found["deals"][0]["mark"] = "reject"
    for deal in found["deals"][1::2]:
        deal["attempts"] = deal["attempts"][:3]
    folder = tmp_path_factory.mktemp("curate-plays")
    out = folder / "PLAYS.parquet"
    import_plays([write(folder / "plays.json", found)], play_pack, out)
    return out


def curate(pack: Path, name: str, *args: object) -> Any:
    return CliRunner().invoke(app, ["curate", str(pack), "--out", name, *map(str, args)])


def levels(folder: Path) -> list[str]:
    table = read_pack_folder(folder, columns=["deal_id", "level"])
    return (
        table.take(pc.sort_indices(table, sort_keys=[("level", "ascending")])).column("deal_id").to_pylist()
    )


def test_a_deal_marked_reject_is_left_out_and_the_manifest_says_so(play_pack, curate_plays):
    rejected = next(deal.deal_id for deal in read_plays(curate_plays).deals if deal.mark is not None)
    result = curate(play_pack, "with-plays", "--plays", curate_plays)
    assert result.exit_code == 0, result.output
    assert f"from PLAYS.parquet: 1 deal left out as rejected ({rejected})" in result.stdout
    target = play_pack.with_name("with-plays")
    assert rejected not in levels(target) and len(levels(target)) == 16
    manifest = read_manifest(target)
    curation = manifest.origin.curation
    assert curation is not None and curation.plays is not None
    assert (curation.plays.plays, curation.plays.rejected, curation.plays.by_play) == (
        "PLAYS.parquet",
        (rejected,),
        False,
    )
    assert curation.dropped["not_a_graded_win"] == 3  # the rules' own counts are unchanged
    written = json.loads((target / "_manifest.json").read_text())["curation"]["plays"]
    assert written == {
        "plays": "PLAYS.parquet",
        "rejected": [rejected],
        "by_play": False,
        "placed": 0,
        "min_attempts": 5,
    }


def test_by_play_the_deals_played_enough_swap_places_by_what_the_players_met(play_pack, curate_plays):
    assert curate(play_pack, "by-difficulty", "--plays", curate_plays).exit_code == 0
    result = curate(play_pack, "by-play", "--plays", curate_plays, "--by-play")
    assert result.exit_code == 0, result.output
    before, after = levels(play_pack.with_name("by-difficulty")), levels(play_pack.with_name("by-play"))
    records = {deal.deal_id: deal for deal in read_plays(curate_plays).deals}
    placed = {
        deal_id: Measure.MISTAKES.of(Observed.of([records[deal_id].attempts]))
        for deal_id in before
        if Observed.of([records[deal_id].attempts]).attempts >= 5
    }
    assert 0 < len(placed) < len(before)
    assert f"; {len(placed)} deals placed by play (5 finished attempts or more)" in result.stdout
    for level, deal_id in enumerate(before):  # every other deal keeps its level
        if deal_id not in placed:
            assert after[level] == deal_id
    slots = [level for level, deal_id in enumerate(before) if deal_id in placed]
    in_slots = [after[level] for level in slots]
    assert sorted(in_slots) == sorted(placed)
    assert [placed[deal_id] for deal_id in in_slots] == sorted(
        placed.values()
    )  # easiest for the players first
    record = read_manifest(play_pack.with_name("by-play")).origin.curation
    assert record is not None and record.plays is not None
    assert (record.plays.by_play, record.plays.placed, record.plays.min_attempts) == (True, len(placed), 5)


def test_by_play_needs_plays_and_the_order_by_difficulty(play_pack, curate_plays):
    result = curate(play_pack, "x", "--by-play")
    assert (
        result.exit_code == ExitCode.USAGE
        and "--by-play orders by the play records of --plays" in result.output
    )
    result = curate(play_pack, "x", "--plays", curate_plays, "--by-play", "--order", "pack")
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stderr == (
        "error: ordering by play places deals within the order by difficulty: not with --order pack\n"
    )
    assert not play_pack.with_name("x").exists()


def test_a_curation_without_play_records_writes_its_manifest_as_before(play_pack):
    assert curate(play_pack, "old-style").exit_code == 0
    path = play_pack.with_name("old-style") / "_manifest.json"
    found = json.loads(path.read_text())
    assert "plays" not in found["curation"]  # as before play records existed, byte for byte
    manifest = Manifest.from_json(path.read_text(), source=str(path))
    assert manifest.origin.curation is not None and manifest.origin.curation.plays is None
    assert manifest.to_json() == path.read_text()
