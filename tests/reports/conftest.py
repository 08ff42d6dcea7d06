"""Fixtures for the gallery: a curated pack, its gallery, and headless Chromium driven by Playwright.

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
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.reports.gallery import Gallery, write_gallery
from pipeline.stages.curate import curate_folder
from tests.support.chromium import BrowserError, headless_chromium


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
