"""Fixtures of the play-record tests: the pack of the 20 deals of seed 77 as a folder, and bots' play of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline import __version__
from pipeline.game.players import Player
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin
from tests.plays.making import PACK, bot_deals, document, solvable

BOT = Player.RANDOM
"""The model the bots play: the one the likelihood must name (its dead ends are furthest from the others')."""
BOT_ATTEMPTS = 6  # per solvable deal: enough for the likelihood to name the bots' model on 17 deals


@pytest.fixture(scope="session")
def play_pack(tmp_path_factory: pytest.TempPathFactory, pack_rows: Any) -> Path:
    """The pack folder ``p`` of the 20 deals of seed 77 (tests/conftest.py): every tier, 3 unsolvable."""
    folder = tmp_path_factory.mktemp("plays") / "packs" / PACK
    write_pack_folder(
        folder, [pack_rows], origin=Origin(PACK, "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return folder


@pytest.fixture(scope="session")
def deals(pack_rows: Any) -> list[Any]:
    """The id and deal of each of the 17 solvable deals, in pack order."""
    return solvable(pack_rows)


@pytest.fixture(scope="session")
def bot_export(deals: list[Any]) -> dict[str, Any]:
    """An export of :data:`BOT_ATTEMPTS` attempts of the :data:`BOT` model at each solvable deal; every third
    one without undo, the others with undo to the last winnable position (seeded: always the same)."""
    return document(bot_deals(deals, BOT, BOT_ATTEMPTS, seed=2026, undo_every=3))
