"""Two and three tabs of one gallery in headless Chromium: no attempt is ever lost, and each tab shows the others'.

Pages of ONE browser context share the gallery's localStorage, as tabs of one browser do. Tab A plays the pack's first
deal and tab B its second, then both play the first; a third tab opens last. Every step is a real click (a card, New
attempt, a row of the index, the Export button). After each phase the test counts the attempts three ways: in the
storage (one key an attempt, records.js), in each tab's export downloaded through the page, and on each deal's page
(its personal records, which count the finished attempts). ``-s`` prints the counts before and after the tabs play the
same deal, and after a reset in one tab (the attempts in progress in open tabs are kept).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pipeline.packs.folders import read_pack_folder
from pipeline.reports.gallery import Gallery
from tests.reports.browsing import open_gallery

ATTEMPT_KEYS = "() => Object.keys(localStorage).filter(key => key.includes(':attempt:')).length"
RECORDS = (
    "#deal-records, #records-line"  # the deal page's records: personal.js's panel (or the line it replaced)
)


@pytest.fixture(scope="module")
def solutions(curated_pack: Path) -> list[tuple[str, list[int]]]:
    """The curated pack's deals in level order: (deal id, its stored solution)."""
    rows = sorted(read_pack_folder(curated_pack).to_pylist(), key=lambda row: row["level"])
    return [(row["deal_id"], [int(pile) for pile in row["solution"]]) for row in rows]


class Tab:
    """One page of the shared context: it opens deals from the index, clicks cards, exports its records."""

    def __init__(self, context: Any, gallery: Gallery, folder: Path, name: str) -> None:
        self.page, self.gallery, self.folder, self.name = context.new_page(), gallery, folder, name
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"{name}: {error}"))
        open_gallery(self.page, gallery.folder)

    def front(self) -> Any:
        """The page, brought to the front (a tab behind another is throttled: it waits for frames it is not drawn)."""
        self.page.bring_to_front()
        return self.page

    def open_deal(self, deal_id: str) -> None:
        """Back to the index if need be, then the deal's row clicked."""
        self.front()
        if self.page.locator("#index").is_hidden():
            self.page.click("#back")
        self.page.wait_for_selector("#index:not([hidden])")
        self.page.click(f".deal-row[data-deal-id='{deal_id}'] a")
        self.page.wait_for_selector("#play:not([hidden])")

    def play(self, moves: list[int]) -> None:
        self.front()
        for pile in moves:
            self.page.click(f".pile[data-pile='{pile}'] button.card")

    def new_attempt(self) -> None:
        self.front().click("#new-attempt")

    def moves_shown(self) -> int:
        return int(self.page.text_content("#move-count") or "0")

    def stored(self) -> int:
        """The attempts in the shared localStorage (read only)."""
        return int(self.page.evaluate(ATTEMPT_KEYS))

    def exported(self) -> dict[str, Any]:
        """The records as the page's Export button downloads them."""
        button = self.front().get_by_role("button", name="Export play records").locator("visible=true").first
        with self.page.expect_download() as download:
            button.click()
        path = self.folder / f"{self.name}-{download.value.suggested_filename}"
        download.value.save_as(path)
        exported: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return exported

    def shown_attempts(self) -> int:
        """The finished attempts the deal's page says it has."""
        panel = self.page.locator(RECORDS).first
        counted = panel.get_attribute("data-attempts")
        if counted is not None:
            return int(counted)
        found = re.search(r"(\d+) attempts?", panel.text_content() or "")
        return int(found.group(1)) if found else 0

    def wait_shown_attempts(self, expected: int) -> int:
        """The deal page's count once it reaches ``expected`` (another tab's storage event redraws it), or after 5 s."""
        try:
            self.page.wait_for_function(
                """([selector, expected]) => {
                  const panel = document.querySelector(selector);
                  if (!panel) return false;
                  const counted = panel.dataset.attempts;
                  if (counted !== undefined) return Number(counted) === expected;
                  const found = /(\\d+) attempts?/.exec(panel.textContent);
                  return (found ? Number(found[1]) : 0) === expected;
                }""",
                arg=[RECORDS, expected],
                polling=100,  # not each frame: a tab behind another draws none
                timeout=5_000,
            )
        except Exception:  # noqa: BLE001 - Playwright's timeout: the caller's assertion says what was shown
            pass
        return self.shown_attempts()

    def wait_stored(self, expected: int) -> int:
        """The attempts in storage once they are ``expected`` (other tabs answer a reset), or after 5 s."""
        try:
            self.page.wait_for_function(
                f"() => ({ATTEMPT_KEYS})() === {expected}", polling=100, timeout=5_000
            )
        except Exception:  # noqa: BLE001 - as above
            pass
        return self.stored()


def attempts_of(exported: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {deal["deal_id"]: deal["attempts"] for deal in exported["deals"]}


def count(exported: dict[str, Any]) -> int:
    return sum(len(attempts) for attempts in attempts_of(exported).values())


def test_tabs_playing_different_deals_then_the_same_deal_lose_no_attempt(
    browser, gallery, solutions, tmp_path
):
    (first, first_moves), (second, second_moves) = solutions[0], solutions[1]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    try:
        a = Tab(context, gallery, tmp_path, "a")
        b = Tab(context, gallery, tmp_path, "b")

        # Different deals: A leaves one attempt at the first deal and goes on with another; B wins the second.
        a.open_deal(first)
        a.play(first_moves[:2])
        a.new_attempt()  # abandoned: finished
        a.play(first_moves[:2])  # in progress
        b.open_deal(second)
        b.play(second_moves)
        b.page.wait_for_selector("#win-banner:not([hidden])")
        before = {tab.name: count(tab.exported()) for tab in (a, b)}
        stored_before = a.stored()
        print(f"\nbefore the same deal: stored {stored_before}, exports {before}")
        assert before == {"a": 3, "b": 3} and stored_before == 3, (
            "each tab's export holds both tabs' attempts"
        )

        # The same deal: B opens the first deal, where A's attempt is in progress; B plays its own.
        b.open_deal(first)
        assert b.moves_shown() == 0, "A's game is A's: B starts a fresh one"
        assert b.wait_shown_attempts(1) == 1, "B's page shows the attempt A finished there"
        b.play(first_moves[:3])
        b.new_attempt()  # abandoned: finished
        b.play(first_moves[:1])  # in progress
        assert a.wait_shown_attempts(2) == 2, "A's page, left open, shows the attempt B finished"
        a.play(first_moves[2:3])  # A's game goes on where it was
        assert a.moves_shown() == 3

        c = Tab(context, gallery, tmp_path, "c")  # a third tab, opened last
        c.open_deal(first)
        assert c.moves_shown() == 0 and c.wait_shown_attempts(2) == 2
        after = {tab.name: count(tab.exported()) for tab in (a, b, c)}
        stored_after = c.stored()
        print(f"after the same deal and a third tab: stored {stored_after}, exports {after}")
        assert after == {"a": 5, "b": 5, "c": 5} and stored_after == 5

        exported = c.exported()
        assert exported["version"] == 2
        found = attempts_of(exported)
        assert sorted((attempt["outcome"], len(attempt["events"])) for attempt in found[first]) == [
            ("abandoned", 2),
            ("abandoned", 3),
            ("playing", 1),
            ("playing", 3),
        ]
        assert [(attempt["outcome"], attempt["moves"]) for attempt in found[second]] == [
            ("won", len(second_moves))
        ]
        for attempts in found.values():
            for attempt in attempts:
                assert (attempt["mode"], attempt["timed"], attempt["move_limit"]) == ("relaxed", False, None)
        ids = [attempt["id"] for attempts in found.values() for attempt in attempts]
        assert len(set(ids)) == len(ids) == 5, "no attempt twice"

        # A reset in tab A (the statistics view, confirmed) deletes every record, in every tab; the attempts in
        # progress in open tabs (A's and B's at the first deal) go on and are kept.
        a.front().click("#stats-link")
        a.page.click("#reset-records")
        a.page.click("#reset-delete")
        stored_reset = a.wait_stored(2)
        assert b.wait_shown_attempts(0) == 0, "B's page drops the deleted attempts"
        b.play(first_moves[1:2])  # B's game goes on, from its own record
        assert b.moves_shown() == 2
        reset = {tab.name: count(tab.exported()) for tab in (a, b, c)}
        print(f"after a reset in tab A: stored {stored_reset}, exports {reset}")
        assert stored_reset == 2 and reset == {"a": 2, "b": 2, "c": 2}
        kept = attempts_of(c.exported())
        assert list(kept) == [first]
        assert sorted((attempt["outcome"], attempt["events"]) for attempt in kept[first]) == [
            ("playing", first_moves[:2]),
            ("playing", first_moves[:3]),
        ]

        errors = a.errors + b.errors + c.errors
        assert not errors, errors
    finally:
        context.close()
