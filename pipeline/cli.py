"""The ``blackhole`` command: thin Typer commands over the library modules.

Each command parses its options, calls one library function and prints what
:mod:`pipeline.reports` renders of the result. Any :class:`~pipeline.errors.BlackholeError`
(a bad input file, configuration or value) prints one ``error: ...`` line on
stderr and exits with its code; a bad command line exits 2; Ctrl-C exits 130.

Only light modules are imported here (Typer, the error table, the default
budgets and settings); each command imports what it needs when it runs, so
``blackhole --help`` does not load Numba, OR-Tools, Arrow or matplotlib, and
``blackhole solve-board`` loads the solver alone.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.engine.budgets import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_POSITIONS,
    DEFAULT_REFERENCE_NODES,
    DEFAULT_TIME_LIMIT,
    MAX_BUDGET,
    MAX_TIME_LIMIT,
)
from pipeline.errors import BlackholeError, ExitCode
from pipeline.game.shuffles import MAX_PYSOL_DEAL, MAX_SEED
from pipeline.stages.settings import DEFAULT_SAMPLE, DEFAULT_TIERS
from pipeline.workers import MAX_JOBS

if TYPE_CHECKING:
    from rich.console import RenderableType

app = typer.Typer(
    name="blackhole",
    help="Make puzzle packs for the solitaire Black Hole: deal, solve, check, pack.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

MAX_INDEX = 2**63 - 1  # the ``index`` column is int64, and a pack counts its deals in int64
MAX_CALIBRATION_COUNT = 100_000
"""The most sample deals ``calibrate`` takes: it holds every one with its grade in memory and walks each
game tree (``make calibrate``'s 2,000 took 21 minutes on 2 cores, so 100,000 would take most of a day)."""


# Options shared by several commands: spelled and explained once.
Out = Annotated[
    Path, typer.Option("--out", "-o", dir_okay=False, help="Parquet file to write (replaced whole).")
]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        max=MAX_JOBS,
        help="Worker processes; more than this machine's CPUs start as many as it has (the output is the same).",
    ),
]
MaxNodes = Annotated[
    int,
    typer.Option(
        "--max-nodes",
        min=1,
        max=MAX_BUDGET,
        help="Search nodes allowed per deal; past them the verdict is unknown.",
    ),
]
MaxPositions = Annotated[
    int,
    typer.Option(
        "--max-positions",
        min=1,
        max=MAX_BUDGET,
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
def interruptible(message: str = "interrupted") -> Iterator[None]:
    """Turn Ctrl-C into the one line ``message`` on stderr and exit code INTERRUPTED (130).

    Ctrl-C while compiled (Numba) code runs in this process comes back as a
    SystemError ("returned a result with an exception set") caused, maybe
    through another SystemError, by the KeyboardInterrupt; that is Ctrl-C too.
    """
    try:
        yield
    except (KeyboardInterrupt, SystemError) as error:
        if not _from_ctrl_c(error):
            raise
        typer.echo(message, err=True)
        raise typer.Exit(ExitCode.INTERRUPTED) from None


def _from_ctrl_c(error: BaseException | None) -> bool:
    """Whether ``error`` is a KeyboardInterrupt, or a SystemError that one caused."""
    while isinstance(error, SystemError):
        error = error.__cause__
    return isinstance(error, KeyboardInterrupt)


@contextmanager
def user_errors(*, interrupted: str = "interrupted") -> Iterator[None]:
    """Turn a user's error into one ``error:`` line on stderr and its exit code; Ctrl-C into ``interrupted``.

    A :class:`BlackholeError` exits with its own ``exit_code``, an unreadable
    or unwritable file (OSError) with BAD_INPUT, and Ctrl-C prints the line
    ``interrupted`` and exits with INTERRUPTED (130) (:func:`interruptible`).
    """
    with interruptible(interrupted):
        try:
            yield
        except BlackholeError as error:
            _fail(str(error), error.exit_code)
        except OSError as error:
            _fail(f"{error.filename}: {error.strerror}" if error.filename else str(error), ExitCode.BAD_INPUT)


def _fail(message: str, code: ExitCode) -> None:
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(code)


def _note(message: str, quiet: bool) -> None:
    if not quiet:
        typer.echo(message, err=True)


def _note_jobs(jobs: int, quiet: bool) -> None:
    """Say on stderr when ``jobs`` is more than this machine's CPUs, and so capped (:func:`pipeline.workers.usable_jobs`)."""
    from pipeline.workers import jobs_note

    note = jobs_note(jobs)
    if note is not None:
        _note(note, quiet)


def _show(*renderables: RenderableType) -> None:
    """Print what :mod:`pipeline.reports` rendered (rich tables) to standard output."""
    from rich.console import Console

    console = Console()
    for renderable in renderables:
        console.print(renderable)


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
    from pipeline.packs.sources import write_deals
    from pipeline.reports import tables

    with user_errors(interrupted=tables.interrupted_line(out)):
        written = write_deals(out, count=count, seed=seed, start=start, first=first)
    _note(f"wrote {written} deals to {out}", quiet)


@app.command("import")
def import_boards(
    boards: Annotated[
        Path, typer.Argument(readable=False, help="Board text file (boards separated by blank lines).")
    ],
    out: Out,
    quiet: Quiet = False,
) -> None:
    """Read every board of a text file into a deals pack."""
    from pipeline.packs.sources import write_deals
    from pipeline.reports import tables

    with user_errors(interrupted=tables.interrupted_line(out)):
        written = write_deals(out, boards=boards)
    _note(f"wrote {written} deals to {out}", quiet)


@app.command()
def solve(
    deals: Annotated[Path, typer.Argument(readable=False, help="Deals pack (Parquet) to solve.")],
    out: Out,
    jobs: Jobs = 1,
    max_nodes: MaxNodes = DEFAULT_MAX_NODES,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Solve every deal of a pack; write its rows, in order, with verdict columns added."""
    from pipeline.reports import tables
    from pipeline.stages.solve import solve_pack

    _note_jobs(jobs, quiet)
    with user_errors(interrupted=tables.interrupted_line(out)):
        tally = solve_pack(deals, out, jobs=jobs, max_nodes=max_nodes, progress=not quiet, timings=timings)
    _note(f"wrote {tally.total} results to {out}", quiet)
    _show(tables.solve_table(f"Solved {deals}", tally.summary()))


@app.command()
def crosscheck(
    solved: Annotated[Path, typer.Argument(readable=False, help="Solved pack (Parquet) to check.")],
    out: Out,
    jobs: Jobs = 1,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            min=0.01,
            max=MAX_TIME_LIMIT,
            help="CP-SAT deterministic seconds per deal (each about 0.7 s of wall clock here); past them the reference search decides.",
        ),
    ] = DEFAULT_TIME_LIMIT,
    sample: Annotated[
        float,
        typer.Option(
            "--sample",
            min=0.0,
            max=1.0,
            help="Share of solved deals to check (every unsolvable one is).",
        ),
    ] = DEFAULT_SAMPLE,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the sample of solved deals.")
    ] = 0,
    loss_sample: Annotated[
        float,
        typer.Option(
            "--loss-sample",
            min=0.0,
            max=1.0,
            help="Share of unsolvable deals to check (default: every one).",
        ),
    ] = 1.0,
    reference_nodes: Annotated[
        int,
        typer.Option("--reference-nodes", min=1, max=MAX_BUDGET, help="Node budget of the reference search."),
    ] = DEFAULT_REFERENCE_NODES,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Check a solved pack's verdicts with a CP-SAT model; exit 3 if any check disagrees."""
    from pipeline.reports import tables
    from pipeline.reports.results import disagreement_text
    from pipeline.stages.crosscheck import crosscheck_pack

    _note_jobs(jobs, quiet)
    with user_errors(interrupted=tables.interrupted_line(out)):
        outcome = crosscheck_pack(
            solved,
            out,
            jobs=jobs,
            time_limit=time_limit,
            sample=sample,
            seed=seed,
            loss_sample=loss_sample,
            reference_nodes=reference_nodes,
            progress=not quiet,
            timings=timings,
        )
    _note(tables.crosscheck_note(out, outcome), quiet)
    for disagreement in outcome.disagreements:
        typer.echo(disagreement_text(disagreement))
    if outcome.disagreements:
        raise typer.Exit(ExitCode.DISAGREEMENT)


@app.command()
def grade(
    solved: Annotated[Path, typer.Argument(readable=False, help="Solved pack (Parquet) to grade.")],
    out: Out,
    jobs: Jobs = 1,
    tiers: Annotated[
        Path,
        typer.Option(
            "--tiers",
            readable=False,
            show_default="pipeline/stages/tiers.toml, shipped with the package",
            help="Score weights and tier thresholds (TOML).",
        ),
    ] = DEFAULT_TIERS,
    max_positions: MaxPositions = DEFAULT_MAX_POSITIONS,
    sample: Annotated[
        float,
        typer.Option(
            "--sample",
            min=0.0,
            max=1.0,
            help="Share of solved deals to walk; the others say not_sampled.",
        ),
    ] = 1.0,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the sample of solved deals.")
    ] = 0,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Grade every deal of a solved pack: game-tree metrics, difficulty score and tier."""
    from pipeline.files import check_writable
    from pipeline.reports import tables
    from pipeline.stages.grade import grade_pack
    from pipeline.stages.tiers import load_tiers

    _note_jobs(jobs, quiet)
    with user_errors(interrupted=tables.interrupted_line(out)):
        check_writable(out, inputs=[] if tiers is None else [tiers])  # the tiers file is an input too
        summary = grade_pack(
            solved,
            out,
            tiers=load_tiers(tiers),
            jobs=jobs,
            max_positions=max_positions,
            sample=sample,
            seed=seed,
            progress=not quiet,
            timings=timings,
        )
    _note(f"wrote {summary.total} grades to {out}", quiet)
    _show(tables.grades_table(f"Graded {solved}", summary))


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
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, max=MAX_CALIBRATION_COUNT, help="How many sample deals.")
    ],
    jobs: Jobs = 1,
    max_positions: MaxPositions = DEFAULT_MAX_POSITIONS,
    max_nodes: MaxNodes = DEFAULT_MAX_NODES,
    quiet: Quiet = False,
) -> None:
    """Set the tier thresholds at the quartiles of the scores of COUNT seeded deals."""
    from pipeline.files import check_writable
    from pipeline.game.shuffles import seeded_deal
    from pipeline.reports import tables
    from pipeline.stages.calibrate import calibrate as calibrate_tiers

    _note_jobs(jobs, quiet)
    with user_errors(interrupted=tables.interrupted_line(out)):
        check_writable(out)  # before the sample is dealt
        calibration = calibrate_tiers(
            out,
            [seeded_deal(seed, index) for index in range(count)],
            origin=f"--seed {seed} --count {count}",
            jobs=jobs,
            max_positions=max_positions,
            max_nodes=max_nodes,
            progress=not quiet,
        )
    _note(f"wrote {out}: thresholds from {calibration.scored} scored deals", quiet)
    typer.echo(tables.quartiles_line(calibration.tiers))
    _show(tables.grades_table(f"Calibration: seed {seed}, {count} deals", calibration.grades))


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
    # The solver itself, not the solve stage: no Arrow, worker pool or rich on this path.
    from pipeline.engine.solver import solve as solve_deal
    from pipeline.game.deal import Deal
    from pipeline.game.rules import replay
    from pipeline.game.verdicts import Verdict
    from pipeline.reports.results import result_json, result_text

    with user_errors():
        deal = Deal.from_board_text(_read_text(board), source="<stdin>" if board == "-" else board)
    with interruptible():  # not user_errors: an IllegalMove from the solver's own replay is a bug
        result = solve_deal(deal, max_nodes=max_nodes)
    if result.verdict is Verdict.SOLVED:
        replay(deal, result.solution)  # the referee: a rejected solution is a solver bug, with its traceback
    typer.echo(result_json(result) if json_output else result_text(deal, result))


def _read_text(name: str) -> str:
    from pipeline.game.deal import BoardError

    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise BoardError(f"not UTF-8 text ({error.reason})", source=name) from None
    return text.removeprefix("\ufeff")  # a byte order mark, as import accepts it (stdin is decoded already)


class Backend(str, Enum):
    """Where the parallel stages run."""

    loky = "loky"
    dask = "dask"


@app.command()
def run(
    config: Annotated[Path, typer.Option("--config", "-c", readable=False, help="Run configuration (TOML).")],
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            max=MAX_JOBS,
            help="Override [run] jobs: worker processes; more than this machine's CPUs start as many as it has (the packs are the same).",
        ),
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
    from pipeline import runs
    from pipeline.config import load_config
    from pipeline.reports import tables

    if scheduler is not None and backend is None:
        backend = Backend.dask
    with user_errors():
        chosen = (
            load_config(config)
            .with_settings(settings or [])
            .with_overrides(
                jobs=jobs, backend=None if backend is None else backend.value, scheduler=scheduler
            )
        )
    if chosen.backend == "loky" or not chosen.scheduler:
        _note_jobs(chosen.jobs, quiet)
    with user_errors(interrupted=tables.interrupted_run_line(chosen.work_directory)):
        outcome = runs.run(chosen, progress=not quiet, fresh=fresh)
    for note in tables.run_notes(outcome):
        _note(note, quiet)
    _show(tables.manifest_table(tables.run_title(chosen, outcome), outcome.manifest))
    typer.echo(tables.curated_line(outcome.curated, outcome.curated_manifest))
    shortfalls = tables.curation_shortfalls(outcome.curated_manifest)
    for warning in tables.shortfall_warnings(shortfalls, what="curated tier"):
        typer.echo(warning, err=True)
    for line in tables.run_disagreement_lines(outcome.disagreements):
        typer.echo(line)
    if outcome.disagreements:
        raise typer.Exit(ExitCode.DISAGREEMENT)


PackFolder = Annotated[
    Path, typer.Argument(readable=False, help="Pack folder (output/packs/NAME) written by blackhole run.")
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
    from pipeline.reports import tables
    from pipeline.stages.curate import curate_beside, parse_quotas

    with user_errors():
        quotas = None if per_tier is None else parse_quotas(per_tier)
        target, manifest = curate_beside(pack, out, per_tier=quotas, order=order.value)
    _note(f"wrote {target}", quiet)
    typer.echo(tables.curated_line(target, manifest))
    for warning in tables.shortfall_warnings(tables.curation_shortfalls(manifest)):
        typer.echo(warning, err=True)


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
    limit: Annotated[int | None, typer.Option(min=0, max=MAX_INDEX, help="At most this many deals.")] = None,
    quiet: Quiet = False,
) -> None:
    """Export a pack's deals for game developers (json), solvers (boards) or spreadsheets (csv)."""
    from pipeline.packs.exports import export_pack_folder
    from pipeline.reports import tables

    with user_errors(interrupted=tables.interrupted_line(out)):
        written = export_pack_folder(pack, out, fmt.value, tier=tier, limit=limit)
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
    from pipeline.reports.charts import report_pack
    from pipeline.reports.summary import report_tables

    with user_errors():
        made = report_pack(pack, charts_folder)
    _show(*report_tables(made.description))
    _note(f"wrote {' and '.join(map(str, made.charts))}", quiet)


@app.command()
def show(
    deal_id: Annotated[
        str, typer.Argument(help="A deal id: seed-SEED-INDEX, pysol-NUMBER, or any id of --pack.")
    ],
    png: Annotated[Path, typer.Option("--png", dir_okay=False, help="Picture to write (PNG).")],
    pack: Annotated[
        Path | None, typer.Option(readable=False, help="Pack folder to look the deal up in.")
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Draw a deal as a player sees it (the 17 fans and the foundation) and print its board text."""
    from pipeline.reports.picture import draw_deal_of_id

    with user_errors():
        deal = draw_deal_of_id(deal_id, png, pack=pack)
    typer.echo(deal.to_board_text(), nl=False)
    _note(f"wrote {png}", quiet)


@app.command()
def gallery(
    pack: PackFolder,
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", file_okay=False, help="Folder for the site (replaced whole); open its index.html."
        ),
    ],
    tier: Annotated[str | None, typer.Option(help="Only this tier's deals.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, max=MAX_INDEX, help="At most this many deals.")] = None,
    title: Annotated[str | None, typer.Option(help="The page's title. Default: the pack's name.")] = None,
    quiet: Quiet = False,
) -> None:
    """Write a static web gallery of a pack: browse, play with exact hints, watch solutions (no network)."""
    from pipeline.reports.gallery import write_gallery

    with user_errors():
        made = write_gallery(pack, out, tier=tier, limit=limit, title=title)
    _note(f"wrote a gallery of {made.deals} deals to {made.folder}/index.html ({made.size:,} bytes)", quiet)
