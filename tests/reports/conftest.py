"""Fixtures for the gallery: a curated pack, its gallery, and headless Chromium driven by Playwright; for the
family's other layouts, a small curated pack of Golf and one of All in a Row, and their galleries.

The browser is Debian's ``chromium`` (:mod:`tests.support.chromium`). Where it is missing the browser tests are skipped
with the reason, unless ``BLACKHOLE_REQUIRE_BROWSER=1`` (set by ``.ci/run``),
where they fail: CI always runs them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline import __version__
from pipeline.game.games import ALL_IN_A_ROW, GOLF, Game
from pipeline.game.shuffles import SEEDED_SCHEME, seeded_scheme
from pipeline.packs.family import game_entries
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.packs.sources import DealSpan, deals_table
from pipeline.reports.gallery import Gallery, write_gallery
from pipeline.stages.chain import StageSettings, outcome_table, process_span
from pipeline.stages.curate import curate_folder
from pipeline.stages.settings import CrosscheckSettings, shipped_tiers
from pipeline.stages.tiers import load_tiers
from tests.support.chromium import BrowserError, headless_chromium

FAMILY_SEED = 7  # the family's packs: deals 0 .. FAMILY_DEALS - 1 of this seed, of each game
FAMILY_DEALS = 12


@pytest.fixture(scope="session")
def pack(tmp_path_factory: pytest.TempPathFactory, pack_rows: Any) -> Path:
    """The pack of the 20 deals of seed 77 (tests/conftest.py): every tier, 3 unsolvable, no levels."""
    folder = tmp_path_factory.mktemp("gallery-output") / "packs" / "p"
    write_pack_folder(
        folder, [pack_rows], origin=Origin("p", "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return folder


@pytest.fixture(scope="session")
def curated_pack(pack: Path) -> Path:
    """The curated pack of :func:`pack`: two deals per solvable tier."""
    curated = pack.with_name("p-curated")
    curate_folder(
        pack, curated, per_tier={"easy": 2, "medium": 2, "hard": 2, "expert": 2}, order="difficulty"
    )
    return curated


@pytest.fixture(scope="session")
def gallery(tmp_path_factory: pytest.TempPathFactory, curated_pack: Path) -> Gallery:
    """The gallery of :func:`curated_pack`."""
    return write_gallery(curated_pack, tmp_path_factory.mktemp("site") / "gallery", title="Test pack")


def family_pack(folder: Path, game: Game) -> Path:
    """A curated pack of ``game`` in ``folder``: :data:`FAMILY_DEALS` seeded deals through every stage (graded by
    the game's own tiers, no cross-check), then curated (every deal that qualifies, by difficulty)."""
    span = DealSpan("seed", FAMILY_SEED, 0, FAMILY_DEALS, game)
    settings = StageSettings(
        crosscheck=CrosscheckSettings(sample=0, loss_sample=0), tiers=load_tiers(shipped_tiers(game))
    )
    _, done, _ = process_span(0, span, settings)
    deals = deals_table(span, [board for board, _ in done])
    table = outcome_table(deals, [outcome for _, outcome in done], settings, timings=False)
    pack = folder / "packs" / game.name
    origin = Origin(game.name, "pack", __version__, seeded_scheme(game), game=game.name)
    write_pack_folder(pack, [table], origin=origin, provenance=game_entries(game))
    curated = pack.with_name(f"{game.name}-curated")
    curate_folder(pack, curated, per_tier=None, order="difficulty")
    return curated


@pytest.fixture(scope="session")
def golf_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A curated pack of Golf (:func:`family_pack`)."""
    return family_pack(tmp_path_factory.mktemp("golf-output"), GOLF)


@pytest.fixture(scope="session")
def all_in_a_row_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A curated pack of All in a Row (:func:`family_pack`)."""
    return family_pack(tmp_path_factory.mktemp("all-in-a-row-output"), ALL_IN_A_ROW)


@pytest.fixture(scope="session")
def golf_gallery(tmp_path_factory: pytest.TempPathFactory, golf_pack: Path) -> Gallery:
    """The gallery of :func:`golf_pack`."""
    return write_gallery(golf_pack, tmp_path_factory.mktemp("golf-site") / "gallery", title="Golf pack")


@pytest.fixture(scope="session")
def all_in_a_row_gallery(tmp_path_factory: pytest.TempPathFactory, all_in_a_row_pack: Path) -> Gallery:
    """The gallery of :func:`all_in_a_row_pack`."""
    return write_gallery(
        all_in_a_row_pack, tmp_path_factory.mktemp("all-in-a-row-site") / "gallery", title="All in a Row pack"
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's), launched once for the session."""
    try:
        with headless_chromium() as launched:
            yield launched
    except BrowserError as error:
        if os.environ.get("BLACKHOLE_REQUIRE_BROWSER") == "1":
            pytest.fail(str(error))
        pytest.skip(str(error))


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (its own context) of :func:`browser`; it fails the test on any page error or request off disk
    (the page's own ``blob:`` URLs, the hint worker's script, are in memory)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on(
        "request",
        lambda request: (
            None if request.url.startswith(("file://", "blob:")) else errors.append(f"request {request.url}")
        ),
    )
    yield opened
    context.close()
    assert not errors, errors
