"""Opening a gallery in the browser tests' page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.chromium import page_url


def open_gallery(page: Any, folder: Path, fragment: str = "") -> None:
    """Open ``folder``'s index.html from disk (at ``#fragment`` when given) and wait until it is ready."""
    page.goto(page_url(folder, fragment))
    page.wait_for_selector("body[data-ready='true']")
