"""The ``blackhole`` command: thin Typer commands over the library modules.

Each command parses its options, calls one library function and formats the
result. A bad input file or configuration prints one ``error: ...`` line on
stderr and exits 1; a bad command line exits 2.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from pipeline import runs
from pipeline.config import ConfigError, load_config
from pipeline.engine.budgets import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_POSITIONS,
    DEFAULT_REFERENCE_NODES,
    DEFAULT_TIME_LIMIT,
)
from pipeline.game.deal import BoardError, Deal
from pipeline.game.shuffles import MAX_PYSOL_DEAL, MAX_SEED, deal_of_id, seeded_deal
from pipeline.game.stats import PUBLISHED_WIN_RATE, Summary, summarize
from pipeline.game.verdicts import Verdict
from pipeline.packs import exports, sources
from pipeline.packs import parquet as packs
from pipeline.packs.folders import find_deal, read_pack_folder
from pipeline.packs.manifest import Manifest
from pipeline.reports import charts
from pipeline.reports import picture as drawing
from pipeline.reports import results as reports
from pipeline.reports import summary as describe
from pipeline.stages import crosscheck as checks
from pipeline.stages import curate as curation
from pipeline.stages import grade as grading
from pipeline.stages import solve as runner
from pipeline.stages.calibrate import calibrate as calibrate_tiers
from pipeline.stages.curate import curate_folder
from pipeline.stages.settings import DEFAULT_SAMPLE
from pipeline.stages.tiers import CalibrationError, load_tiers

app = typer.Typer(
    name="blackhole",
    help="Make puzzle packs for the solitaire Black Hole: deal, solve, check, pack.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

MAX_INDEX = 2**63 - 1  # the ``index`` column is int64

# Options shared by several commands: spelled and explained once.
Out = Annotated[
    Path, typer.Option("--out", "-o", dir_okay=False, help="Parquet file to write (replaced whole).")
]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes for solving.")]
MaxNodes = Annotated[
    int,
    typer.Option(
        "--max-nodes", min=1, help="Search nodes allowed per deal; past them the verdict is unknown."
    ),
]
MaxPositions = Annotated[
    int,
    typer.Option(
        "--max-positions",
        min=1,
        help="Game-tree positions allowed per deal when grading; past them the deal is out_of_budget.",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no messages on stderr.")]
Timings = Annotated[
    bool,
    typer.Option(
        "--timings/--no-timings",
        help="Record solve seconds; without, the same input gives byte-identical output.",
    ),
]


class Source(str, Enum):
    """Where generated deals come from."""

    seed = "seed"
    pysol = "pysol"


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a bad file or configuration into one ``error:`` line on stderr and exit code 1."""
    try:
        yield
    except (
        BoardError,
        packs.PackError,
        ConfigError,
        CalibrationError,
        runs.RunError,
        curation.QuotaError,
        curation.CurationError,
        exports.ExportError,
    ) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{error.filename}: {error.strerror}" if error.filename else str(error))


def _fail(message: str) -> None:
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(1)


def _note(message: str, quiet: bool) -> None:
    if not quiet:
        typer.echo(message, err=True)


@app.command()
def generate(
    out: Out,
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many deals.")],
    source: Annotated[
        Source, typer.Option(help="seed: seeded shuffles; pysol: PySol FC deal numbers.")
    ] = Source.seed,
    seed: Annotated[int | None, typer.Option(min=0, max=MAX_SEED, help="Root seed (--source seed).")] = None,
    start: Annotated[int, typer.Option(min=0, max=MAX_INDEX, help="First deal index (--source seed).")] = 0,
    first: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_PYSOL_DEAL, help="First PySol FC deal number (--source pysol)."),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Deal COUNT deals into a deals pack: seeded shuffles or PySol FC's numbered deals."""
    if source is Source.seed:
        if seed is None:
            raise typer.BadParameter("--source seed needs --seed", param_hint="--seed")
        if first is not None:
            raise typer.BadParameter("--first is for --source pysol", param_hint="--first")
        if start + count - 1 > MAX_INDEX:
            raise typer.BadParameter(f"the last deal index would pass {MAX_INDEX}", param_hint="--count")
    else:
        if seed is not None or start:
            raise typer.BadParameter("--seed and --start are for --source seed", param_hint="--seed")
        first = 1 if first is None else first
        if first + count - 1 > MAX_PYSOL_DEAL:
            raise typer.BadParameter(f"PySol FC deals stop at {MAX_PYSOL_DEAL}", param_hint="--count")
    with user_errors():
        if source is Source.seed:
            table = sources.seeded_deals(seed=seed, count=count, start=start)
        else:
            table = sources.pysol_deals(first=first, count=count)
        packs.write_pack(table, out)
    _note(f"wrote {table.num_rows} deals to {out}", quiet)


@app.command("import")
def import_boards(
    boards: Annotated[
        Path, typer.Argument(dir_okay=False, help="Board text file (boards separated by blank lines).")
    ],
    out: Out,
    quiet: Quiet = False,
) -> None:
    """Read every board of a text file into a deals pack."""
    with user_errors():
        table = sources.imported_deals(boards)
        packs.write_pack(table, out)
    _note(f"wrote {table.num_rows} deals to {out}", quiet)


@app.command()
def solve(
    deals: Annotated[Path, typer.Argument(dir_okay=False, help="Deals pack (Parquet) to solve.")],
    out: Out,
    jobs: Jobs = 1,
    max_nodes: MaxNodes = DEFAULT_MAX_NODES,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Solve every deal of a pack; write its rows, in order, with verdict columns added."""
    with user_errors():
        results = runner.solve_pack(
            deals, out, jobs=jobs, max_nodes=max_nodes, progress=not quiet, timings=timings
        )
    _note(f"wrote {len(results)} results to {out}", quiet)
    _print_summary(f"Solved {deals}", summarize(results))


DISAGREEMENT_EXIT = 3


@app.command()
def crosscheck(
    solved: Annotated[Path, typer.Argument(dir_okay=False, help="Solved pack (Parquet) to check.")],
    out: Out,
    jobs: Jobs = 1,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            min=0.01,
            help="CP-SAT deterministic seconds per deal (each about 0.7 s of wall clock here); past them the reference search decides.",
        ),
    ] = DEFAULT_TIME_LIMIT,
    sample: Annotated[
        float,
        typer.Option(
            "--sample", min=0.0, max=1.0, help="Share of solved deals to check (every unsolvable one is)."
        ),
    ] = DEFAULT_SAMPLE,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the sample of solved deals.")] = 0,
    reference_nodes: Annotated[
        int, typer.Option("--reference-nodes", min=1, help="Node budget of the reference search.")
    ] = DEFAULT_REFERENCE_NODES,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Check a solved pack's verdicts with a CP-SAT model; exit 3 if any check disagrees."""
    with user_errors():
        outcome = checks.crosscheck_pack(
            solved,
            out,
            jobs=jobs,
            time_limit=time_limit,
            sample=sample,
            seed=seed,
            reference_nodes=reference_nodes,
            progress=not quiet,
            timings=timings,
        )
    _note(
        f"wrote {out}: {outcome.checked} deals checked, {outcome.decided} decided, "
        f"{len(outcome.disagreements)} disagreements",
        quiet,
    )
    for disagreement in outcome.disagreements:
        typer.echo(reports.disagreement_text(disagreement))
    if outcome.disagreements:
        raise typer.Exit(DISAGREEMENT_EXIT)


@app.command()
def grade(
    solved: Annotated[Path, typer.Argument(dir_okay=False, help="Solved pack (Parquet) to grade.")],
    out: Out,
    jobs: Jobs = 1,
    tiers: Annotated[
        Path, typer.Option("--tiers", dir_okay=False, help="Score weights and tier thresholds (TOML).")
    ] = Path("configs/tiers.toml"),
    max_positions: MaxPositions = DEFAULT_MAX_POSITIONS,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Grade every deal of a solved pack: game-tree metrics, difficulty score and tier."""
    with user_errors():
        grades = grading.grade_pack(
            solved,
            out,
            tiers=load_tiers(tiers),
            jobs=jobs,
            max_positions=max_positions,
            progress=not quiet,
            timings=timings,
        )
    _note(f"wrote {len(grades)} grades to {out}", quiet)
    _print_grades(f"Graded {solved}", grading.summarize_grades(grades))


@app.command()
def calibrate(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            dir_okay=False,
            help="Tiers file (TOML) to write; an existing one's weights are kept.",
        ),
    ],
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Root seed of the sample deals.")],
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many sample deals.")],
    jobs: Jobs = 1,
    max_positions: MaxPositions = DEFAULT_MAX_POSITIONS,
    max_nodes: MaxNodes = DEFAULT_MAX_NODES,
    quiet: Quiet = False,
) -> None:
    """Set the tier thresholds at the quartiles of the scores of COUNT seeded deals."""
    with user_errors():
        calibration = calibrate_tiers(
            out,
            [seeded_deal(seed, index) for index in range(count)],
            origin=f"--seed {seed} --count {count}",
            jobs=jobs,
            max_positions=max_positions,
            max_nodes=max_nodes,
            progress=not quiet,
        )
    tiers = calibration.tiers
    _note(f"wrote {out}: thresholds from {calibration.scored} scored deals", quiet)
    typer.echo(f"quartiles: medium {tiers.medium}, hard {tiers.hard}, expert {tiers.expert}")
    _print_grades(f"Calibration: seed {seed}, {count} deals", grading.summarize_grades(calibration.grades))


@app.command("solve-board")
def solve_board(
    board: Annotated[
        str, typer.Argument(help="Board text file with one board, or - for standard input.")
    ] = "-",
    max_nodes: MaxNodes = DEFAULT_MAX_NODES,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of text.")
    ] = False,
) -> None:
    """Solve one board and print the verdict, the moves of a win and the search effort."""
    with user_errors():
        deal = Deal.from_board_text(_read_text(board), source="<stdin>" if board == "-" else board)
        [result] = runner.solve_deals([deal], max_nodes=max_nodes)
    typer.echo(reports.result_json(result) if json_output else reports.result_text(deal, result))


def _read_text(name: str) -> str:
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BoardError(f"not UTF-8 text ({error.reason})", source=name) from None


class Backend(str, Enum):
    """Where the parallel stages run."""

    loky = "loky"
    dask = "dask"


@app.command()
def run(
    config: Annotated[Path, typer.Option("--config", "-c", dir_okay=False, help="Run configuration (TOML).")],
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Override [run] jobs: worker processes.")
    ] = None,
    backend: Annotated[
        Backend | None, typer.Option(help="Override [run] backend: loky (this machine) or dask.")
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Override [run] scheduler: a Dask scheduler's address (tcp://HOST:PORT); implies --backend dask."
        ),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="SECTION.KEY=VALUE",
            help="Override any key of the config, e.g. --set run.count=100 --set curate.order=pack.",
        ),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Delete the finished shards of an earlier run and start over.")
    ] = False,
    quiet: Quiet = False,
) -> None:
    """Deal, solve, cross-check and grade a configured job in shards; write its pack and curated pack.

    An interrupted run resumes where it stopped when run again with the same settings.
    """
    with user_errors():
        chosen = load_config(config).with_settings(settings or [])
        if scheduler is not None and backend is None:
            backend = Backend.dask
        chosen = chosen.with_overrides(
            jobs=jobs, backend=None if backend is None else backend.value, scheduler=scheduler
        )
        try:
            outcome = runs.run(chosen, progress=not quiet, fresh=fresh)
        except KeyboardInterrupt:
            typer.echo(
                f"interrupted: finished shards are kept in {chosen.work_directory}; "
                "run the same command again to finish",
                err=True,
            )
            raise typer.Exit(INTERRUPTED_EXIT) from None
    if outcome.resumed_shards:
        _note(f"resumed: {outcome.resumed_shards} of {outcome.shards} shards were already done", quiet)
    _note(f"wrote {outcome.pack} and {outcome.curated}", quiet)
    title = f"Run {chosen.name}: seed {chosen.seed}, {chosen.count} deals, {outcome.seconds:.1f} s"
    _print_manifest(title, outcome.manifest)
    curated = outcome.curated_manifest
    tiers = ", ".join(f"{tier} {count}" for tier, count in curated.tiers.items() if count)
    typer.echo(f"curated pack {outcome.curated}: {curated.deals} deals ({tiers or 'none'})")
    for tier, (wanted, found) in curated.origin.curation.shortfalls.items():
        typer.echo(f"warning: curated tier {tier} wants {wanted} deals, the pack has {found}", err=True)
    for row in outcome.disagreements:
        typer.echo(
            f"DISAGREEMENT {row['deal_id']}: the pack says {row['verdict']}, {row['checked_by']} disagrees"
        )
    if outcome.disagreements:
        raise typer.Exit(DISAGREEMENT_EXIT)


INTERRUPTED_EXIT = 130


def _print_manifest(title: str, manifest: Manifest) -> None:
    """Verdict and tier counts of a pack, and its win rate beside the published one."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("measure")
    table.add_column("value", justify="right")
    total = manifest.deals
    for verdict, count in manifest.verdicts.items():
        table.add_row(verdict, f"{count} ({count / total if total else 0:.2%})")
    rate = manifest.win_rate
    shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
    table.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
    inside = "inside" if rate.published_inside else "OUTSIDE"
    table.add_row("published (PySol FC)", f"{rate.published:.2%}, {inside} the interval")
    for tier, count in manifest.tiers.items():
        table.add_row(f"tier {tier}", str(count))
    Console().print(table)


PackFolder = Annotated[
    Path, typer.Argument(file_okay=False, help="Pack folder (output/packs/NAME) written by blackhole run.")
]


class Order(str, Enum):
    """How a curated pack is ordered."""

    difficulty = "difficulty"
    pack = "pack"


@app.command()
def curate(
    pack: PackFolder,
    out: Annotated[
        str,
        typer.Option("--out", "-o", help="Name of the curated pack, written beside PACK (replaced whole)."),
    ],
    per_tier: Annotated[
        str | None,
        typer.Option(
            "--per-tier",
            metavar="TIER=N,...",
            help="Deals wanted per tier, e.g. easy=50,medium=50,hard=50,expert=50; a tier left out gets none. Default: every deal that qualifies.",
        ),
    ] = None,
    order: Annotated[
        Order, typer.Option(help="difficulty: easiest first (the curve); pack: the pack's order.")
    ] = Order.difficulty,
    quiet: Quiet = False,
) -> None:
    """Build a curated pack: graded wins only, no duplicates, quotas per tier, ordered by difficulty."""
    with user_errors():
        quotas = None if per_tier is None else curation.parse_quotas(per_tier)
        target = _sibling(pack, out)
        manifest = curate_folder(pack, target, per_tier=quotas, order=order.value)
    _note(f"wrote {target}", quiet)
    tiers = ", ".join(f"{tier} {count}" for tier, count in manifest.tiers.items() if count)
    typer.echo(f"curated pack {target}: {manifest.deals} deals ({tiers or 'none'})")
    for tier, (wanted, found) in manifest.origin.curation.shortfalls.items():
        typer.echo(f"warning: tier {tier} wants {wanted} deals, the pack has {found}", err=True)


def _sibling(pack: Path, name: str) -> Path:
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise packs.PackError(f"--out {name!r}: expected a pack name, not a path")
    if name == pack.name:
        raise packs.PackError(f"--out {name!r}: would replace the pack it curates")
    return pack.parent / name


class ExportFormat(str, Enum):
    """What an export writes."""

    json = "json"
    boards = "boards"
    csv = "csv"


@app.command()
def export(
    pack: PackFolder,
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="json: deals with board, solution, tier and metrics; boards: board text (blackhole import, black-hole-solver); csv: a spreadsheet.",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", dir_okay=False, help="File to write (replaced whole).")],
    tier: Annotated[str | None, typer.Option(help="Only this tier's deals.")] = None,
    limit: Annotated[int | None, typer.Option(min=0, help="At most this many deals.")] = None,
    quiet: Quiet = False,
) -> None:
    """Export a pack's deals for game developers (json), solvers (boards) or spreadsheets (csv)."""
    with user_errors():
        table = read_pack_folder(pack)
        if "level" in table.column_names:
            table = table.sort_by("level")
        written = exports.export_pack(table, out, fmt.value, tier=tier, limit=limit)
    _note(f"wrote {written} deals to {out}", quiet)


@app.command()
def report(
    pack: PackFolder,
    charts_folder: Annotated[
        Path | None,
        typer.Option(
            "--charts",
            file_okay=False,
            help="Folder for the PNG charts (made if missing). Default: output/reports/NAME beside output/packs.",
        ),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Print a pack's verdicts, win rate, tiers and metric spreads; draw its charts as PNG files."""
    from rich.console import Console

    with user_errors():
        table = read_pack_folder(pack)
        folder = charts_folder or pack.resolve().parent.parent / "reports" / pack.resolve().name
        drawn = charts.draw_pack_charts(table, folder)
        description = describe.describe_pack(table)
    console = Console()
    for rendered in describe.report_tables(description):
        console.print(rendered)
    _note(f"wrote {' and '.join(map(str, drawn))}", quiet)


@app.command()
def show(
    deal_id: Annotated[
        str, typer.Argument(help="A deal id: seed-SEED-INDEX, pysol-NUMBER, or any id of --pack.")
    ],
    png: Annotated[Path, typer.Option("--png", dir_okay=False, help="Picture to write (PNG).")],
    pack: Annotated[
        Path | None, typer.Option(file_okay=False, help="Pack folder to look the deal up in.")
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Draw a deal as a player sees it (the 17 fans and the foundation) and print its board text."""
    with user_errors():
        deal = find_deal(pack, deal_id) if pack else deal_of_id(deal_id)
        drawing.draw_deal(deal, png, title=deal_id)
    typer.echo(deal.to_board_text(), nl=False)
    _note(f"wrote {png}", quiet)


def _print_summary(title: str, summary: Summary) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("measure")
    table.add_column("value", justify="right")
    for verdict in Verdict:
        count = summary.counts[verdict]
        share = count / summary.total if summary.total else 0.0
        table.add_row(verdict.value, f"{count} ({share:.2%})")
    rate = summary.win_rate
    shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
    if summary.counts[Verdict.UNKNOWN]:
        shown += " of decided"
    table.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
    inside = "inside" if rate.contains(PUBLISHED_WIN_RATE) else "OUTSIDE"
    table.add_row("published (PySol FC)", f"{PUBLISHED_WIN_RATE:.2%}, {inside} the interval")
    table.add_row("seconds mean / median / max", _seconds(summary))
    Console().print(table)


def _print_grades(title: str, summary: grading.GradeSummary) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("deals", str(summary.total))
    for tier, count in summary.tiers.items():
        table.add_row(f"tier {tier.value}", str(count))
    statuses = summary.statuses
    table.add_row("graded exactly", str(statuses[grading.GradeStatus.EXACT]))
    table.add_row("out of budget (no tier)", str(statuses[grading.GradeStatus.OUT_OF_BUDGET]))
    table.add_row("overflow (no tier)", str(statuses[grading.GradeStatus.OVERFLOW]))
    table.add_row("unknown verdict (not graded)", str(statuses[grading.GradeStatus.UNKNOWN]))
    Console().print(table)


def _seconds(summary: Summary) -> str:
    return f"{summary.mean_seconds:.3f} / {summary.median_seconds:.3f} / {summary.max_seconds:.3f}"
