"""The family's solver against black-hole-solver: verdicts deal by deal and CPU per deal, per game.

Solves PySol FC deals 1..N (default 1,000) of All in a Row and the three
Golfs with :func:`pipeline.engine.solver.solve` (in this process, after
compiling) and with black-hole-solver (``--bhs PATH``, its
``black-hole-solve``; the ``multi-bhs-solver`` beside it, which solves many
boards in one process, is used when it is there, so no process start is
counted; otherwise one process per deal, start included). The game's
``solver_arguments`` choose its rules. Checks that the verdicts agree deal
by deal and prints, per game: deals, solved and unsolved counts, CPU
seconds per deal for each (getrusage: this process for ours, the children
for black-hole-solver) and their ratio. Ours is timed twice: as a pack
solves (a loss's longest play sought too) and for the verdicts alone
(``longest_play=False``, as black-hole-solver answers and as the Golf
censuses run).

    .venv/bin/python bench/bench_family.py --bhs /work/bhs/build/black-hole-solve --deals 1000
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipeline.engine.solver import solve
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE, GAMES, Game, game_named
from pipeline.game.shuffles import pysol_deal
from pipeline.game.verdicts import Verdict

FAMILY = [game.name for game in GAMES if game is not BLACK_HOLE]
BHS_VERDICTS = {"Solved!": Verdict.SOLVED, "Unsolved!": Verdict.UNSOLVABLE, "Intractable!": Verdict.UNKNOWN}


@dataclass(frozen=True)
class Run:
    """One solver's verdicts on a game's deals and the CPU seconds they took."""

    verdicts: list[Verdict]
    cpu: float
    note: str = ""


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def run_ours(deals: list[Deal], *, longest_play: bool = True) -> Run:
    solve(deals[0])  # compile (or load the compiled cache) outside the clock
    began = cpu_seconds(resource.RUSAGE_SELF)
    verdicts = [solve(deal, longest_play=longest_play).verdict for deal in deals]
    return Run(verdicts, cpu_seconds(resource.RUSAGE_SELF) - began)


def _bhs_verdict(text: str) -> Verdict:
    for line in text.splitlines():
        if line.strip() in BHS_VERDICTS:
            return BHS_VERDICTS[line.strip()]
    raise ValueError(f"no verdict in black-hole-solver's output: {text[:200]!r}")


def run_bhs(binary: Path, game: Game, deals: list[Deal], folder: Path) -> Run:
    paths = []
    for number, deal in enumerate(deals, start=1):
        path = folder / f"{game.name}-{number}.board"
        path.write_text(deal.to_board_text())
        paths.append(path)
    multi = binary.parent / "multi-bhs-solver"
    began = cpu_seconds(resource.RUSAGE_CHILDREN)
    if multi.exists():
        out = subprocess.run(
            [str(multi), *game.solver_arguments, "--quiet", *map(str, paths)],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - began
        by_file: dict[str, str] = {}
        current = None
        for line in out.splitlines():
            if line.startswith("[= Starting file "):
                current = line.removeprefix("[= Starting file ").removesuffix(" =]")
                by_file[current] = ""
            elif current is not None:
                by_file[current] += line + "\n"
        return Run([_bhs_verdict(by_file[str(path)]) for path in paths], cpu, "one multi-bhs-solver process")
    verdicts = []
    for path in paths:
        result = subprocess.run(
            [str(binary), *game.solver_arguments, str(path)], capture_output=True, text=True
        )
        verdicts.append(_bhs_verdict(result.stdout))
    cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - began
    return Run(verdicts, cpu, "a process per deal, its start included")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bhs", type=Path, required=True, help="black-hole-solver's black-hole-solve binary")
    parser.add_argument("--deals", type=int, default=1000, help="PySol FC deals 1..N of each game")
    parser.add_argument("--games", nargs="*", default=FAMILY, choices=FAMILY, help="the games to compare")
    args = parser.parse_args()
    rows, disagreements = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.games:
            game = game_named(name)
            deals = [pysol_deal(number, game) for number in range(1, args.deals + 1)]
            ours, verdicts_only = run_ours(deals), run_ours(deals, longest_play=False)
            assert verdicts_only.verdicts == ours.verdicts, name
            theirs = run_bhs(args.bhs, game, deals, Path(scratch))
            for number, (mine, other) in enumerate(zip(ours.verdicts, theirs.verdicts, strict=True), start=1):
                if mine is not other:
                    disagreements += 1
                    print(
                        f"{name} deal {number}: ours {mine.value}, black-hole-solver {other.value}",
                        file=sys.stderr,
                    )
            solved = sum(verdict is Verdict.SOLVED for verdict in ours.verdicts)
            unsolved = sum(verdict is Verdict.UNSOLVABLE for verdict in ours.verdicts)
            unknown = len(deals) - solved - unsolved
            per_ours, per_theirs = ours.cpu / len(deals), theirs.cpu / len(deals)
            per_verdict = verdicts_only.cpu / len(deals)
            rows.append(
                (name, len(deals), solved, unsolved, unknown, per_ours, per_verdict, per_theirs, theirs.note)
            )
            print(f"{name}: done", file=sys.stderr, flush=True)
    print(
        "| game | deals | solved | unsolved | unknown | ours CPU ms/deal | verdicts alone ms/deal "
        "| black-hole-solver CPU ms/deal | ratio | ratio, verdicts alone |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, count, solved, unsolved, unknown, per_ours, per_verdict, per_theirs, _ in rows:
        print(
            f"| {name} | {count} | {solved} | {unsolved} | {unknown} | {per_ours * 1e3:.3f} | "
            f"{per_verdict * 1e3:.3f} | {per_theirs * 1e3:.3f} | {_ratio(per_theirs, per_ours)} | "
            f"{_ratio(per_theirs, per_verdict)} |"
        )
    print(f"black-hole-solver: {rows[0][-1] if rows else ''}; verdicts that disagree: {disagreements}")
    return 1 if disagreements else 0


def _ratio(theirs: float, ours: float) -> str:
    return f"{theirs / ours:.1f}x" if ours else "inf"


if __name__ == "__main__":
    sys.exit(main())
