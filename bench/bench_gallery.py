"""Benchmark of the gallery: `make bench` (after `make run`, whose curated pack it shows).

Writes the gallery of the curated pack (output/packs/default-curated, 400
deals) and reports:

- its size in bytes (target: at most 3 MB) and the seconds to write it;
- how long its index takes, in headless Chromium, from navigation to ready
  (the first rows drawn and the controls live), median of ``--loads`` page
  loads; then the same for a 10,000-deal gallery made by repeating the
  pack's deals under new ids (target: interactive within 1 s);
- the hints: positions from random play on the pack's deals (``--per-deal``
  a deal), each answered by the in-browser solver on a fresh game (no
  positions remembered from an earlier hint), timed in the page with
  ``performance.now()``: median, 99th percentile and worst (targets: median
  under 20 ms, p99 under 1 s); and how many answers agree with the Python
  solver (:func:`tests.support.hints.hint_of`). The same positions are
  answered, in the same page and interleaved with them (each position by
  both, the first of the two alternating), by the solver of ``--before``
  (a git revision; by default the one before the rank order condition), so
  the two sets of figures compare; their ratios are given too.

Prints a Markdown table for docs/benchmarks.md and writes output/bench/gallery.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.game.deal import Deal
from pipeline.packs.folders import read_pack_folder
from pipeline.reports.gallery import DATA, cards_text, write_gallery

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tools the tests share (tests/support/) are not in the package
from tests.support.chromium import headless_chromium, page_url  # noqa: E402
from tests.support.hints import agrees, hint_of, random_play_positions  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PACK = ROOT / "output" / "packs" / "default-curated"
BIG = 10_000
SOLVER = "pipeline/reports/gallery_site/solver.js"
BEFORE = "93f0431"  # the in-browser solver as first written, before the rank order condition

# Each position asked of the page's solver and of the one before it, each on a fresh game,
# the first of the two alternating from one position to the next.
HINTS = """(items) => items.map(({cards, moves}, index) => {
  const solvers = index % 2 ? [BeforeSolver, BlackholeSolver] : [BlackholeSolver, BeforeSolver];
  const timed = solvers.map((solver) => {
    const game = new solver.Game(cards);
    const began = performance.now();
    const answer = game.hint(moves);
    const ms = performance.now() - began;
    return {kind: answer.kind, move: answer.move ?? null, undo: answer.undo ?? null, ms: ms, nodes: answer.nodes};
  });
  return index % 2 ? {now: timed[1], before: timed[0]} : {now: timed[0], before: timed[1]};
})"""


def before_solver(revision: str) -> str:
    """solver.js at ``revision``, as a script that defines ``BeforeSolver`` rather than ``BlackholeSolver``."""
    text = subprocess.run(
        ["git", "show", f"{revision}:{SOLVER}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return f"window.BeforeSolver = (function () {{ const module = {{exports: {{}}}};\n{text}\nreturn module.exports; }})();"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def load_seconds(browser: Browser, folder: Path, loads: int) -> float:
    """Median seconds from navigation to a ready index that answers a filter change."""
    seconds = []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        began = time.perf_counter()
        page.goto(page_url(folder))
        page.wait_for_selector("body[data-ready='true'] .deal-row")
        page.select_option("#tier-filter", "all")
        seconds.append(time.perf_counter() - began)
        context.close()
    return statistics.median(seconds)


def repeated_gallery(folder: Path, target: Path, count: int) -> None:
    """A copy of the gallery ``folder`` at ``target`` whose deals.js repeats its deals ``count`` times in all."""
    target.mkdir()
    for path in folder.iterdir():
        if path.name != DATA:
            (target / path.name).write_bytes(path.read_bytes())
    text = (folder / DATA).read_text(encoding="utf-8")
    head, rest = text.split("[\n", 1)
    rows = rest.rsplit("\n]", 1)[0].split(",\n")
    made = []
    for number in range(count):
        row = rows[number % len(rows)]
        made.append(re.sub(r'^\["[^"]*"', f'["big-{number:05d}"', row))
    (target / DATA).write_text(head + "[\n" + ",\n".join(made) + "\n]};\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", type=Path, default=PACK)
    parser.add_argument("--per-deal", type=int, default=2, help="random-play positions per deal")
    parser.add_argument("--loads", type=int, default=5, help="page loads per timing")
    parser.add_argument(
        "--before", default=BEFORE, help="git revision of the solver to compare the hints with"
    )
    args = parser.parse_args()

    table = read_pack_folder(args.pack, columns=["deal_id", "board"])
    rng = random.Random(20261130)
    positions = []
    for board in table.column("board").to_pylist():
        deal = Deal.from_board_text(board)
        positions += [(deal, moves) for moves in random_play_positions(deal, rng, args.per_deal)]

    with tempfile.TemporaryDirectory() as scratch:
        began = time.perf_counter()
        gallery = write_gallery(args.pack, Path(scratch) / "gallery")
        write_seconds = time.perf_counter() - began
        repeated_gallery(gallery.folder, Path(scratch) / "big", BIG)
        with headless_chromium() as browser:
            index_seconds = load_seconds(browser, gallery.folder, args.loads)
            big_seconds = load_seconds(browser, Path(scratch) / "big", args.loads)
            page = browser.new_page()
            page.goto(page_url(gallery.folder))
            page.wait_for_selector("body[data-ready='true']")
            page.add_script_tag(content=before_solver(args.before))
            items = [{"cards": cards_text(deal), "moves": moves} for deal, moves in positions]
            pairs = page.evaluate(HINTS, items)

    expected = [hint_of(deal, moves) for deal, moves in positions]
    answers = [pair["now"] for pair in pairs]
    before = [pair["before"] for pair in pairs]
    checked = list(zip(positions, expected, answers, before, strict=True))
    agree = sum(agrees(deal, moves, hint, now) for (deal, moves), hint, now, _ in checked)
    agree_before = sum(agrees(deal, moves, hint, old) for (deal, moves), hint, _, old in checked)
    times = [answer["ms"] for answer in answers]
    times_before = [answer["ms"] for answer in before]
    lost = sum(answer["kind"] == "lost" for answer in answers)
    figures = {
        "machine": f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "deals": gallery.deals,
        "gallery_bytes": gallery.size,
        "write_seconds": round(write_seconds, 3),
        "index_ready_seconds": round(index_seconds, 3),
        "index_ready_seconds_10000": round(big_seconds, 3),
        "hint_positions": len(positions),
        "hint_lost_positions": lost,
        "hint_agree": agree,
        "hint_median_ms": round(statistics.median(times), 3),
        "hint_p99_ms": round(percentile(times, 0.99), 3),
        "hint_max_ms": round(max(times), 3),
        "hint_max_nodes": max(answer["nodes"] for answer in answers),
        "hint_nodes": sum(answer["nodes"] for answer in answers),
        "hint_before": args.before,
        "hint_before_agree": agree_before,
        "hint_before_median_ms": round(statistics.median(times_before), 3),
        "hint_before_p99_ms": round(percentile(times_before, 0.99), 3),
        "hint_before_max_ms": round(max(times_before), 3),
        "hint_before_max_nodes": max(answer["nodes"] for answer in before),
        "hint_before_nodes": sum(answer["nodes"] for answer in before),
        "hint_median_ratio": round(statistics.median(times) / statistics.median(times_before), 3),
        "hint_p99_ratio": round(percentile(times, 0.99) / percentile(times_before, 0.99), 3),
    }
    print("| measure | value |\n|---|---|")
    for name, value in figures.items():
        print(f"| {name} | {value:,} |" if isinstance(value, int) else f"| {name} | {value} |")
    out = ROOT / "output" / "bench" / "gallery.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
