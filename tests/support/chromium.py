"""Headless Chromium for checking and measuring the gallery: Debian's browser, started with no network.

The gallery is tested and timed in a real browser: Debian's ``chromium``
package (``/usr/bin/chromium``, or the path in ``BLACKHOLE_CHROMIUM``),
driven by Playwright for Python (a development dependency; its own browser
downloads are never used). The flags keep the browser off the network and
out of the way of a machine without a screen or a sandbox.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pipeline.errors import BlackholeError

CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
INSTALL_HINT = "install Debian's chromium package (apt-get install chromium), or set BLACKHOLE_CHROMIUM"


class BrowserError(BlackholeError, RuntimeError):
    """No browser to run: Chromium or Playwright is missing."""


def chromium_path() -> str | None:
    """The browser ``BLACKHOLE_CHROMIUM`` names, or Debian's Chromium; None when it is not there."""
    named = os.environ.get("BLACKHOLE_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """A Playwright ``Browser``: headless Chromium with :data:`CHROMIUM_FLAGS`, closed when the block ends."""
    executable = chromium_path()
    if executable is None:
        raise BrowserError(f"no Chromium: {INSTALL_HINT}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserError("no Playwright: pip install playwright (make setup installs it)") from None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=list(CHROMIUM_FLAGS)
        )
        try:
            yield browser
        finally:
            browser.close()


def page_url(folder: Path, fragment: str = "") -> str:
    """The ``file://`` address of ``folder``'s index.html, at ``#fragment`` when given."""
    return (Path(folder) / "index.html").resolve().as_uri() + (f"#{fragment}" if fragment else "")
