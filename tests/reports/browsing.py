"""Opening a gallery in the browser tests' page, and a phone to open it on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.chromium import page_url

PHONE = {"width": 390, "height": 844}  # a phone's viewport, in CSS pixels


def open_gallery(page: Any, folder: Path, fragment: str = "") -> None:
    """Open ``folder``'s index.html from disk (at ``#fragment`` when given) and wait until it is ready."""
    page.goto(page_url(folder, fragment))
    page.wait_for_selector("body[data-ready='true']")


@contextmanager
def phone_page(browser: Any, scale: int) -> Iterator[Any]:
    """A page of its own context on a :data:`PHONE` touch screen at device ``scale``; any page error it met
    fails the test when the block ends."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=scale, is_mobile=True, has_touch=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, errors
