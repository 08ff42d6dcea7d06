"""Wall time and peak memory of `blackhole plays import` on 20 MB and 200 MB of play records (`make bench`).

A pack folder of the 20 deals of seed 77 (through every stage, as the tests'
pack) is written to a temporary folder, and export files of the sizes asked
for are made for it, as the gallery writes them (one line of JSON): attempts
of random play, with undos and hints, at its solvable deals, drawn from a
seeded pool of attempts replayed by the rules (so their counts are right)
and written again and again under new ids and start times until the file
has the size asked for. Each import runs as `blackhole plays import` in its
own process under :mod:`peak_memory`, which reads the kernel's high-water
mark. ``--pythonpath DIR`` runs the command with another copy of the
package first on the path (an older commit's work tree), for a before and after.

Prints a Markdown table for docs/benchmarks.md and writes output/bench/plays-import.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.game.shuffles import SEEDED_SCHEME, DealSource
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.labels import PackKind
from pipeline.packs.manifest import Origin
from pipeline.packs.sources import DealSpan, deals_table
from pipeline.plays.events import replay_events
from pipeline.stages.chain import StageSettings, outcome_table, process_span
from pipeline.stages.settings import CrosscheckSettings
from pipeline.stages.tiers import load_tiers

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peak_memory import run_watched  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BLACKHOLE = str(Path(sys.executable).with_name("blackhole"))
TIERS_FILE = ROOT / "pipeline" / "stages" / "tiers.toml"
PACK = "bench-plays"
SIZES_MB = (20, 200)
POOL = 200  # distinct attempts per deal, each written again under new ids
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def write_pack(folder: Path) -> list[tuple[str, Deal]]:
    """The pack folder of the 20 deals of seed 77 at ``folder``; the id and deal of each solvable one."""
    span = DealSpan(DealSource.SEED, 77, 0, 20)
    settings = StageSettings(crosscheck=CrosscheckSettings(sample=0.25), tiers=load_tiers(TIERS_FILE))
    _, done, _ = process_span(0, span, settings)
    rows = outcome_table(
        deals_table(span, [board for board, _ in done]), [o for _, o in done], settings, timings=False
    )
    write_pack_folder(
        folder, [rows], origin=Origin(PACK, PackKind.PACK, __version__, SEEDED_SCHEME), provenance={}
    )
    return [
        (row["deal_id"], Deal.from_board_text(row["board"]))
        for row in rows.select(["deal_id", "board", "verdict"]).to_pylist()
        if row["verdict"] == "solved"
    ]


def random_attempt(deal: Deal, rng: random.Random) -> dict[str, Any]:
    """One attempt of random play at ``deal``: a legal card at a time, an undo now and then, a hint or two,
    until the win, a dead end or 120 events; its fields as the gallery records them (times left out)."""
    events: list[int | str] = []
    path = [Position.start(deal)]
    while len(events) < 120:
        here = path[-1]
        moves = here.legal_moves()
        if here.is_won or (not moves and len(path) == 1):
            break
        if len(path) > 1 and (not moves or rng.random() < 0.08):
            events.append("undo")
            path.pop()
            continue
        if not moves:
            break
        if rng.random() < 0.02:
            events.append("hint")
        pile = rng.choice(moves)
        events.append(pile)
        path.append(here.play(pile))
    tally = replay_events(deal, events)
    outcome = "won" if tally.won else ("stuck" if tally.stuck else "abandoned")
    return {"events": events, "outcome": outcome, **tally.counts(), "clean": tally.clean}


def write_export(path: Path, deals: list[tuple[str, Deal]], megabytes: int, seed: int = 2026) -> int:
    """An export of about ``megabytes`` MB at ``path``, written a record at a time; its attempts."""
    rng = random.Random(seed)
    pools = {deal_id: [random_attempt(deal, rng) for _ in range(POOL)] for deal_id, deal in deals}
    per_deal = max(1, megabytes * 1_000_000 // (len(deals) * 750))  # about 750 bytes an attempt
    head = {
        "format": "blackhole-plays",
        "version": 1,
        "pack": PACK,
        "gallery": "0123456789abcdef",
        "title": "bench",
        "exported": START.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    }
    count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(head, separators=(",", ":"))[:-1] + ',"deals":[')
        for number, (deal_id, _) in enumerate(deals):
            out.write(
                ("," if number else "") + json.dumps({"deal_id": deal_id, "note": "", "mark": None})[:-1]
            )
            out.write(',"attempts":[')
            for place in range(per_deal):
                base = pools[deal_id][place % POOL]
                started = START + timedelta(seconds=count)
                seconds = 1.5 * len(base["events"])
                record = {
                    "id": f"b{count:x}-{number:02d}{place:06x}",
                    "started": started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                    "ended": (started + timedelta(seconds=seconds))
                    .isoformat(timespec="milliseconds")
                    .replace("+00:00", "Z"),
                    "seconds": seconds,
                    **base,
                }
                out.write(("," if place else "") + json.dumps(record, separators=(",", ":")))
                count += 1
            out.write("]}")
        out.write("]}\n")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES_MB), help="MB of records")
    parser.add_argument("--pythonpath", type=Path, help="a work tree whose package runs instead (before)")
    parser.add_argument("--out", type=Path, default=ROOT / "output" / "bench" / "plays-import.json")
    options = parser.parse_args()
    if options.pythonpath is not None:  # the command, a child, reads the package there first
        os.environ["PYTHONPATH"] = str(options.pythonpath.resolve())
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-plays-") as scratch:
        folder = Path(scratch)
        deals = write_pack(folder / "packs" / PACK)
        for megabytes in options.sizes:
            export = folder / f"plays-{megabytes}mb.json"
            attempts = write_export(export, deals, megabytes)
            out = folder / f"PLAYS-{megabytes}.parquet"
            command = [
                BLACKHOLE,
                "plays",
                "import",
                str(export),
                "--pack",
                str(folder / "packs" / PACK),
                "--out",
                str(out),
            ]
            seconds, peaks = run_watched(command)
            parent = next(peak for peak in peaks if peak.role == "parent")
            results.append(
                {
                    "megabytes": round(export.stat().st_size / 1e6, 1),
                    "attempts": attempts,
                    "seconds": round(seconds, 1),
                    "peak_mib": round(parent.peak_mib),
                    "plays_parquet_mb": round(out.stat().st_size / 1e6, 1),
                    "peaks": [asdict(peak) for peak in peaks],
                }
            )
            print(
                f"{results[-1]['megabytes']} MB: {seconds:.1f} s, {parent.peak_mib:.0f} MiB", file=sys.stderr
            )
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(results, indent=2) + "\n")
    print("| export | attempts | wall time | peak memory | PLAYS.parquet |")
    print("|---|---|---|---|---|")
    for found in results:
        print(
            f"| {found['megabytes']} MB | {found['attempts']:,} | {found['seconds']} s | "
            f"{found['peak_mib']} MiB | {found['plays_parquet_mb']} MB |"
        )


if __name__ == "__main__":
    main()
