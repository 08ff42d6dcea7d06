"""The ``blackhole`` command: thin Typer commands over the library modules.

Each command parses its options, calls one library function and prints what
:mod:`pipeline.reports` renders of the result. Any :class:`~pipeline.errors.BlackholeError`
(a bad input file, configuration or value) prints one ``error: ...`` line on
stderr and exits with its code; a bad command line exits 2; Ctrl-C exits 130, SIGTERM 143.

Only light modules are imported here (Typer, the error table, the default
budgets and settings); each command imports what it needs when it runs, so
``blackhole --help`` does not load Numba, OR-Tools, Arrow or matplotlib, and
``blackhole solve-board`` loads the solver alone.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from pipeline.config import RunConfig, deals_past_the_end, load_config
from pipeline.errors import BlackholeError, ExitCode, InternalError
from pipeline.game.games import GameName
from pipeline.game.shuffles import DealSource
from pipeline.limits import MAX_INT64
from pipeline.packs.formats import ExportFormat
from pipeline.packs.labels import PackTier
from pipeline.reports.board_formats import BoardFormat
from pipeline.stages.settings import (
    CrosscheckSettings,
    CurateOrder,
    GradeSettings,
    PassOptions,
    SolveSettings,
    bounds_of,
)
from pipeline.workers import Backend

if TYPE_CHECKING:
    from rich.console import RenderableType

    from pipeline.game.games import Game


class WholeHelpLines(TyperGroup):
    """A command group whose ``--help`` lists each command with the first sentence of its help whole,
    wrapped to the terminal, where Click cuts it at the width ("seeded..."), and whose commands end any
    exception that is not the user's (whatever its class) as a bug: its traceback, a line saying so,
    exit code INTERNAL_ERROR (70), never Typer's default."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # Click itself ends its own exceptions (a usage error, Exit, Abort) inside main: what comes out is a bug.
        try:
            with _sigterm_as_interruption():
                return super().main(*args, **kwargs)
        except Exception as bug:  # noqa: BLE001 - every exception that gets here is a bug in blackhole
            _print_bug(bug)
            sys.exit(ExitCode.INTERNAL_ERROR)

    # What a command prints after its work (tables, JSON) and --help meet their output's errors here, where
    # Click would end a closed pipe with exit 1 and anything else as a bug.
    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _output_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _output_errors():
            return super().invoke(ctx)

    def format_commands(self, ctx: Any, formatter: Any) -> None:  # Click's Context, vendored by Typer
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


app = typer.Typer(
    cls=WholeHelpLines,
    name="blackhole",
    help="Make puzzle packs for the solitaire Black Hole: deal, solve, check, pack.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,  # help text is plain: "[run] jobs" stays as written, a flag shows no <bool>
)

MAX_CALIBRATION_COUNT = 100_000
"""The most sample deals ``calibrate`` takes: it holds every one with its grade in memory and walks each
game tree, so its cost grows with the sample (docs/benchmarks.md gives what ``make calibrate``'s 2,000 cost)."""


def _setting(settings: type, name: str, help: str, *short: str, flag: str | None = None) -> Any:
    """The option of the settings field ``name``: its flag (``max_nodes``: ``--max-nodes``, unless ``flag``
    names it otherwise), the bounds the field declares (Typer's ``min`` and ``max``) and ``help``."""
    bounds = bounds_of(settings, name)
    flag = flag or f"--{name.replace('_', '-')}"
    return typer.Option(flag, *short, min=bounds.lowest, max=bounds.highest, help=help)


# Options shared by several commands: spelled and explained once.
Out = Annotated[
    Path, typer.Option("--out", "-o", dir_okay=False, help="Parquet file to write (replaced whole).")
]
Jobs = Annotated[
    int,
    _setting(
        PassOptions,
        "jobs",
        "Worker processes; more than this machine's CPUs start as many as it has (the output is the same).",
        "-j",
    ),
]
MaxNodes = Annotated[
    int,
    _setting(SolveSettings, "max_nodes", "Search nodes allowed per deal; past them the verdict is unknown."),
]
MaxPositions = Annotated[
    int,
    _setting(
        GradeSettings,
        "max_positions",
        "Game-tree positions allowed per deal when grading; past them the deal is out_of_budget.",
    ),
]
MaxMemory = Annotated[
    int,
    _setting(
        GradeSettings,
        "max_memory_mib",
        "Memory one grading worker may use, in MiB; a deal whose walk needs more is out_of_budget.",
        flag="--max-memory",
    ),
]


def _quiet_everywhere(quiet: bool) -> bool:
    """With --quiet, not even the engine's notice that it compiles, in this process or its workers."""
    if quiet:
        from pipeline.engine.cache_folder import QUIET_ENVIRONMENT  # light: no Numba

        os.environ[QUIET_ENVIRONMENT] = "1"
    return quiet


Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", callback=_quiet_everywhere, help="No progress bar and no messages on stderr."
    ),
]
LongestPlay = Annotated[
    bool,
    typer.Option(
        "--longest-play/--no-longest-play",
        help="Seek each lost deal's longest play; without, max_cards_played is null on losses (verdicts sooner).",
    ),
]
GameChoice = Annotated[
    GameName,
    typer.Option(
        "--game", "-g", help="The game: Black Hole, All in a Row, or one of the three Golf rule sets."
    ),
]
PackGame = Annotated[
    GameName | None,
    typer.Option(
        "--game",
        "-g",
        show_default="the pack's game",
        help="The pack's game, checked: a pack of another game is refused.",
    ),
]
SampleSeed = Annotated[  # crosscheck's and grade's: both settings bound their seed alike
    int, _setting(GradeSettings, "seed", "Seed of the sample of solved deals.")
]
Timings = Annotated[
    bool,
    typer.Option(
        "--timings/--no-timings",
        help="Record solve seconds; without, the same input gives byte-identical output.",
    ),
]


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Python meets it in the main thread: stopped as by Ctrl-C, exit TERMINATED."""


@contextmanager
def _sigterm_as_interruption() -> Iterator[None]:
    """While the command runs, SIGTERM raises :class:`Terminated`, so it stops as Ctrl-C does: joblib
    kills the workers, a run lets go of its lock and keeps its finished shards. Where SIGTERM is not at its
    default (ignored, or handled by a host program) or this is not the main thread, nothing changes. The
    handler is used once: a second SIGTERM kills at once, as it would have."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL
    ):
        yield
        return

    def terminate(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise Terminated

    signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def interruptible(message: str = "interrupted") -> Iterator[None]:
    """Turn Ctrl-C into the one line ``message`` on stderr and exit code INTERRUPTED (130), SIGTERM
    (:class:`Terminated`) into the same line and TERMINATED (143), and a bug in this program
    (:class:`~pipeline.errors.InternalError`) into its traceback and exit code INTERNAL_ERROR (70).

    Ctrl-C while compiled (Numba) code runs in this process comes back as a
    SystemError ("returned a result with an exception set") caused, maybe
    through another SystemError, by the KeyboardInterrupt; that is Ctrl-C too.
    """
    try:
        yield
    except InternalError as bug:
        _report_bug(bug)
    except (KeyboardInterrupt, SystemError) as error:
        interruption = _interruption(error)
        if interruption is None:
            raise
        typer.echo(message, err=True)
        code = ExitCode.TERMINATED if isinstance(interruption, Terminated) else ExitCode.INTERRUPTED
        raise typer.Exit(code) from None


def _report_bug(bug: BaseException) -> None:
    """Print ``bug`` as :func:`_print_bug` does and exit INTERNAL_ERROR (70)."""
    _print_bug(bug)
    raise typer.Exit(ExitCode.INTERNAL_ERROR) from None


def _print_bug(bug: BaseException) -> None:
    """Print ``bug``'s traceback and the line saying it is a bug in blackhole, not in the input."""
    typer.echo("".join(traceback.format_exception(bug)), err=True, nl=False)
    problem = " ".join(str(bug).split())
    if not isinstance(bug, InternalError):
        problem = f"{type(bug).__name__}: {problem}" if problem else type(bug).__name__
    typer.echo(
        f"internal error: {problem}\n"
        "This is a bug in blackhole, not in your input: please report it with the lines above.",
        err=True,
    )


def _interruption(error: BaseException | None) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt (Ctrl-C, or :class:`Terminated`) that ``error`` is or that caused it through
    SystemErrors; None if none did."""
    while isinstance(error, SystemError):
        error = error.__cause__
    return error if isinstance(error, KeyboardInterrupt) else None


@contextmanager
def user_errors(*, interrupted: str = "interrupted") -> Iterator[None]:
    """Turn a user's error into one ``error:`` line on stderr and its exit code; Ctrl-C into ``interrupted``.

    A :class:`BlackholeError` exits with its own ``exit_code``, an unreadable
    or unwritable file (OSError) with BAD_INPUT, and Ctrl-C prints the line
    ``interrupted`` and exits with INTERRUPTED (130) (:func:`interruptible`).
    """
    with interruptible(interrupted), _one_line_errors():
        yield


def _os_error_line(error: OSError) -> str:
    """``FILE: problem`` for an OSError that reached a command; a full or read-only disk said in words."""
    from pipeline.files import PLAIN_WORDS, WRITE_ERRNOS, os_problem

    problem = os_problem(error) if error.errno in PLAIN_WORDS else (error.strerror or str(error))
    if error.errno in WRITE_ERRNOS - {errno.EIO}:
        problem = f"could not write: {problem}"
    return f"{error.filename}: {problem}" if error.filename else problem


@contextmanager
def _output_errors() -> Iterator[None]:
    """Printing outside :func:`user_errors`: standard output closed by its reader (``| head``) exits
    BROKEN_PIPE (141) without a word, as inside; any other OSError (standard output on a full disk) is
    one ``error:`` line and exit BAD_INPUT, as inside, a write error that names no file said to be
    standard output's (all that is written there). A user's error raised before a command's
    :func:`user_errors` (loading the engine, whose cache cannot be written) is its one line too."""
    from pipeline.files import STANDARD_OUTPUT

    with _one_line_errors(nameless_writes=STANDARD_OUTPUT):
        yield


@contextmanager
def _one_line_errors(*, nameless_writes: str = "") -> Iterator[None]:
    """A :class:`BlackholeError` as its one line and exit code, a closed pipe as BROKEN_PIPE (141) without a
    word, any other OSError as one line and BAD_INPUT; a write error naming no file is ``nameless_writes``'s
    when that is given."""
    try:
        yield
    except BlackholeError as error:
        _fail(str(error), error.exit_code)
    except BrokenPipeError:
        _reader_gone()
    except OSError as error:
        from pipeline.files import WRITE_ERRNOS

        line = _os_error_line(error)
        if nameless_writes and not error.filename and error.errno in WRITE_ERRNOS:
            line = f"{nameless_writes}: {line}"
        _fail(line, ExitCode.BAD_INPUT)


def _reader_gone() -> None:
    """Exit BROKEN_PIPE (141) without a word: standard output's reader stopped reading (``| head -1``).

    Standard output then points at the null device, so that Python's own last
    flush on the way out has somewhere to go.
    """
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor: a test runner's stdout
        pass
    raise typer.Exit(ExitCode.BROKEN_PIPE)


def _fail(message: str, code: ExitCode) -> None:
    """Print ``message`` as one ``error:`` line, control characters escaped (a deal id or name from a file
    may hold any), and exit with ``code``."""
    from pipeline.free_text import printable

    typer.echo(f"error: {printable(' '.join(message.split()))}", err=True)
    raise typer.Exit(code)


def _note(message: str, quiet: bool) -> None:
    if not quiet:
        from pipeline.free_text import printable

        typer.echo("\n".join(map(printable, message.split("\n"))), err=True)


def _counted(count: int, one: str) -> str:
    """``1 deal``, ``2 deals``: :func:`pipeline.reports.words.counted`."""
    from pipeline.reports.words import counted

    return counted(count, one)


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
    console.on_broken_pipe = _reader_gone  # type: ignore[method-assign]  # rich's own exits 1
    for renderable in renderables:
        console.print(renderable)


def _print_version(asked: bool) -> None:
    """Print ``blackhole VERSION`` and exit, when ``--version`` is given."""
    if asked:
        from pipeline.version import VERSION

        typer.echo(f"blackhole {VERSION}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print blackhole's version and exit."
        ),
    ] = False,
) -> None:
    """Make puzzle packs for the solitaire Black Hole: deal, solve, check, pack."""


@app.command()
def generate(
    out: Out,
    count: Annotated[int, _setting(RunConfig, "count", "How many deals.", "-n")],
    source: Annotated[
        DealSource, typer.Option(help="seed: seeded shuffles; pysol: PySol FC deal numbers.")
    ] = DealSource.SEED,
    seed: Annotated[int | None, _setting(RunConfig, "seed", "Root seed (--source seed).")] = None,
    start: Annotated[int, typer.Option(min=0, max=MAX_INT64, help="First deal index (--source seed).")] = 0,
    first: Annotated[
        int | None,
        _setting(RunConfig, "first", "First PySol FC deal number (--source pysol)."),
    ] = None,
    game: GameChoice = GameName.BLACK_HOLE,
    quiet: Quiet = False,
) -> None:
    """Deal COUNT deals of a game into a deals pack file: seeded shuffles or PySol FC's numbered deals."""
    if source is DealSource.SEED:
        if seed is None:
            raise typer.BadParameter("--source seed needs --seed", param_hint="--seed")
        if first is not None:
            raise typer.BadParameter("--first is for --source pysol", param_hint="--first")
    else:
        if seed is not None or start:
            raise typer.BadParameter("--seed and --start are for --source seed", param_hint="--seed")
        first = 1 if first is None else first
    if (problem := deals_past_the_end(source, first=first or 1, start=start, count=count)) is not None:
        raise typer.BadParameter(problem, param_hint="--count")
    from pipeline.game.games import game_named
    from pipeline.packs.sources import write_deals
    from pipeline.reports import tables

    with user_errors(interrupted=tables.interrupted_line(out)):
        written = write_deals(out, count=count, seed=seed, start=start, first=first, game=game_named(game))
    _note(f"wrote {_counted(written, 'deal')} to {out}", quiet)


@app.command("import")
def import_boards(
    boards: Annotated[
        Path,
        typer.Argument(
            metavar="BOARDS",
            readable=False,
            help="Board text file (boards separated by blank lines), or - for standard input.",
        ),
    ],
    out: Out,
    game: GameChoice = GameName.BLACK_HOLE,
    quiet: Quiet = False,
) -> None:
    """Read every board of a text file (boards of one game) into a deals pack file."""
    from pipeline.game.games import game_named
    from pipeline.packs.sources import write_deals
    from pipeline.reports import tables

    with user_errors(interrupted=tables.interrupted_line(out)):
        written = write_deals(out, boards=boards, game=game_named(game))
    _note(f"wrote {_counted(written, 'deal')} to {out}", quiet)


@contextmanager
def _pack_pass(out: Path, jobs: int, quiet: bool, timings: bool) -> Iterator[PassOptions]:
    """How a pass over a pack file writing ``out`` runs (solve, crosscheck, grade): its :class:`PassOptions`
    from the options, ``jobs`` past this machine's CPUs noted, its errors one line and Ctrl-C's line naming
    ``out`` (:func:`user_errors`)."""
    from pipeline.reports import tables

    _note_jobs(jobs, quiet)
    with user_errors(interrupted=tables.interrupted_line(out)):
        yield PassOptions(jobs=jobs, progress=not quiet, timings=timings)


def _pack_game(game: GameName | None) -> Game | None:
    """The game a pass checks its pack file against: None, the pack's own, when ``--game`` is not given."""
    from pipeline.game.games import game_named

    return None if game is None else game_named(game)


@app.command()
def solve(
    deals: Annotated[
        Path, typer.Argument(metavar="DEALS", readable=False, help="Deals pack file (Parquet) to solve.")
    ],
    out: Out,
    jobs: Jobs = 1,
    max_nodes: MaxNodes = SolveSettings().max_nodes,
    longest_play: LongestPlay = SolveSettings().longest_play,
    game: PackGame = None,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Solve every deal of a deals pack file; write its rows, in order, with verdict columns added."""
    from pipeline.game.stats import published_win_rate
    from pipeline.packs.parquet import pack_file_game
    from pipeline.reports import tables
    from pipeline.stages.solve import solve_pack

    settings = SolveSettings(max_nodes=max_nodes, longest_play=longest_play)
    with _pack_pass(out, jobs, quiet, timings) as options:
        tally = solve_pack(deals, out, settings, options, game=_pack_game(game))
        published = published_win_rate(pack_file_game(out))
    _note(f"wrote {_counted(tally.total, 'result')} to {out}", quiet)
    _show(tables.solve_table(f"Solved {deals}", tally.summary(), published=published))


@app.command()
def crosscheck(
    solved: Annotated[
        Path, typer.Argument(metavar="SOLVED", readable=False, help="Solved pack file (Parquet) to check.")
    ],
    out: Out,
    jobs: Jobs = 1,
    time_limit: Annotated[
        float,
        _setting(
            CrosscheckSettings,
            "time_limit",
            "CP-SAT deterministic seconds per deal (units of work, not of wall clock); past them the reference search decides.",
        ),
    ] = CrosscheckSettings().time_limit,
    sample: Annotated[
        float,
        _setting(CrosscheckSettings, "sample", "Share of solved deals to check (every unsolvable one is)."),
    ] = CrosscheckSettings().sample,
    seed: SampleSeed = 0,
    loss_sample: Annotated[
        float,
        _setting(
            CrosscheckSettings, "loss_sample", "Share of unsolvable deals to check (default: every one)."
        ),
    ] = CrosscheckSettings().loss_sample,
    reference_nodes: Annotated[
        int,
        _setting(CrosscheckSettings, "reference_nodes", "Node budget of the reference search."),
    ] = CrosscheckSettings().reference_nodes,
    game: PackGame = None,
    timings: Timings = True,
    quiet: Quiet = False,
) -> None:
    """Check a solved pack's verdicts with a CP-SAT model; exit 3 if any check disagrees."""
    from pipeline.reports import tables
    from pipeline.reports.results import disagreement_text
    from pipeline.stages.crosscheck import crosscheck_pack

    settings = CrosscheckSettings(
        sample=sample,
        seed=seed,
        loss_sample=loss_sample,
        time_limit=time_limit,
        reference_nodes=reference_nodes,
    )
    with _pack_pass(out, jobs, quiet, timings) as options:
        outcome = crosscheck_pack(solved, out, settings, options, game=_pack_game(game))
    _note(tables.crosscheck_note(out, outcome), quiet)
    for disagreement in outcome.disagreements:
        typer.echo(disagreement_text(disagreement))
    if outcome.disagreements:
        raise typer.Exit(ExitCode.DISAGREEMENT)


@app.command()
def grade(
    solved: Annotated[
        Path, typer.Argument(metavar="SOLVED", readable=False, help="Solved pack file (Parquet) to grade.")
    ],
    out: Out,
    jobs: Jobs = 1,
    tiers: Annotated[
        Path,
        typer.Option(
            "--tiers",
            readable=False,
            show_default="the tiers shipped with the package for the pack's game",
            help="Difficulty reference and tier thresholds (TOML).",
        ),
    ] = GradeSettings().tiers,
    max_positions: MaxPositions = GradeSettings().max_positions,
    max_memory: MaxMemory = GradeSettings().max_memory_mib,
    sample: Annotated[
        float,
        _setting(GradeSettings, "sample", "Share of solved deals to walk; the others say not_sampled."),
    ] = GradeSettings().sample,
    seed: SampleSeed = 0,
    timings: Timings = True,
    game: PackGame = None,
    quiet: Quiet = False,
) -> None:
    """Grade every deal of a solved pack: game-tree metrics, difficulty score and tier."""
    from pipeline.reports import tables
    from pipeline.stages.grade import grade_pack

    settings = GradeSettings(
        max_positions=max_positions, max_memory_mib=max_memory, tiers=tiers, sample=sample, seed=seed
    )
    with _pack_pass(out, jobs, quiet, timings) as options:
        summary = grade_pack(solved, out, settings, options, game=_pack_game(game))
    _note(f"wrote {_counted(summary.total, 'grade')} to {out}", quiet)
    _show(tables.grades_table(f"Graded {solved}", summary))


class CalibrateForms(WholeHelpLines):
    """The ``calibrate`` group, which still takes its form from before its subcommands: options first
    (``calibrate --seed 4 --count 2000 --out FILE``) are ``calibrate sample``'s, or, with ``--plays``,
    ``calibrate plays``'s."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # Click's Context, vendored by Typer
        if args and args[0].startswith("-") and args[0] not in ctx.help_option_names:
            plays = any(arg == "--plays" or arg.startswith("--plays=") for arg in args)
            args = ["plays" if plays else "sample", *args]
        found: list[str] = super().parse_args(ctx, args)
        return found


calibrate_app = typer.Typer(
    cls=CalibrateForms,
    rich_markup_mode=None,
    name="calibrate",
    help="Set the tier thresholds: from a seeded sample of deals (sample), or fitted to play records (plays).\n\n"
    "Options with no subcommand are still taken as before: calibrate --seed 4 --count 2000 --out FILE runs "
    "calibrate sample, and calibrate --plays FILE --pack PACK runs calibrate plays.",
    no_args_is_help=True,
)
app.add_typer(calibrate_app)


@calibrate_app.command("sample")
def calibrate_sample(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            dir_okay=False,
            help="Tiers file (TOML) to write; an existing one's reference player and figure are kept.",
        ),
    ],
    seed: Annotated[int, _setting(RunConfig, "seed", "Root seed of the sample deals.")],
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, max=MAX_CALIBRATION_COUNT, help="How many sample deals.")
    ],
    jobs: Jobs = 1,
    max_positions: MaxPositions = GradeSettings().max_positions,
    max_memory: MaxMemory = GradeSettings().max_memory_mib,
    max_nodes: MaxNodes = SolveSettings().max_nodes,
    game: GameChoice = GameName.BLACK_HOLE,
    quiet: Quiet = False,
) -> None:
    """Show how COUNT seeded deals fall into the tiers, and move the thresholds to round values near their quartiles."""
    from pipeline.calibration import from_sample
    from pipeline.game.games import DEFAULT_GAME, game_named
    from pipeline.game.shuffles import seeded_deal
    from pipeline.reports import tables

    _note_jobs(jobs, quiet)
    played = game_named(game)
    of_game = "" if played is DEFAULT_GAME else f" --game {played.name}"
    with user_errors(interrupted=tables.interrupted_line(out)):
        calibration = from_sample(
            out,
            (seeded_deal(seed, index, played) for index in range(count)),
            origin=f"--seed {seed} --count {count}{of_game}",
            solving=SolveSettings(max_nodes=max_nodes),
            grading=GradeSettings(max_positions=max_positions, max_memory_mib=max_memory),
            options=PassOptions(jobs=jobs, progress=not quiet),
        )
    _note(f"wrote {out}: thresholds from {calibration.scored} graded deals", quiet)
    if calibration.before is not None and calibration.grades_before is not None:
        typer.echo(f"before: {tables.thresholds_line(calibration.before)}")
        _show(
            tables.grades_table(
                f"Seed {seed}, {_counted(count, 'deal')}: the tiers before", calibration.grades_before
            )
        )
    typer.echo(tables.thresholds_line(calibration.tiers))
    _show(tables.grades_table(f"Calibration: seed {seed}, {_counted(count, 'deal')}", calibration.grades))


@calibrate_app.command("plays")
def calibrate_plays(
    plays: Annotated[
        Path,
        typer.Option(
            "--plays",
            readable=False,
            dir_okay=False,
            help="Play records (PLAYS.parquet) to check the player models against.",
        ),
    ],
    pack: Annotated[Path, typer.Option("--pack", readable=False, help="The pack folder the records are of.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", dir_okay=False, help="Tiers file (TOML) to write the tiers fitted to play to."
        ),
    ] = None,
    charts_folder: Annotated[
        Path | None,
        typer.Option(
            "--charts",
            file_okay=False,
            help="Folder for the chart of predicted against observed. Default: output/reports/NAME.",
        ),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Check the player models against play records, draw their chart, and fit the tier thresholds to play.

    Say what data the records hold (deals, finished attempts by mode, moves made right after a hint), rank-correlate each player model's figures with what play-testers met, name the model that predicts them best (the likelihood of their attempts, each counted up to its first hint) from 40 counted attempts at 8 deals or more, and, with enough attempts (30 deals with 5 finished attempts each), fit the tier thresholds to play. Below either minimum it says why in one line; with --out it then fails and writes nothing.
    """
    from pipeline.calibration import from_plays
    from pipeline.reports.play_charts import chart_place, predicted_vs_observed
    from pipeline.reports.play_tables import best_line, data_lines, fitted_lines, model_tables

    with user_errors():
        chart = chart_place(pack, charts_folder)  # before anything is read
        made = from_plays(plays, pack, out=out)
        predicted_vs_observed(made.check, made.player, chart)
    for line in data_lines(made.check):
        typer.echo(line)
    _show(*model_tables(made.check))
    typer.echo(best_line(made.check))
    if made.fitted is not None:
        for line in fitted_lines(made.fitted, written=made.written is not None):
            typer.echo(line)
    _note(f"wrote {chart}" + (f" and {made.written}" if made.written else ""), quiet)
    if made.refused is not None:
        if out is not None:
            _fail(f"{out}: not written: {made.refused}", ExitCode.BAD_INPUT)
        _note(f"no tier thresholds fitted: {made.refused}", quiet)


@app.command("solve-board")
def solve_board(
    boards: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="BOARDS",
            show_default="-",
            help="Files of boards (board text separated by blank lines, or JSON Lines with a board field); "
            "- for standard input.",
        ),
    ] = None,
    max_nodes: Annotated[
        int,
        typer.Option(
            "--max-nodes",
            "--max-iters",
            min=bounds_of(SolveSettings, "max_nodes").lowest,
            max=bounds_of(SolveSettings, "max_nodes").highest,
            help="Search nodes allowed per board, never passed; past them the verdict is unknown "
            "(--max-iters: black-hole-solver's name).",
        ),
    ] = SolveSettings().max_nodes,
    output_format: Annotated[
        BoardFormat | None,
        typer.Option(
            "--format",
            "-f",
            show_default="text",
            help="text for people; json: one board's result as one object; jsonl: a line a board with its "
            "position and source; bhs: black-hole-solver's output.",
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    jobs: Jobs = 1,
    stop_on_error: Annotated[
        bool, typer.Option("--stop-on-error", help="Stop at the first board that cannot be read.")
    ] = False,
    game: GameChoice = GameName.BLACK_HOLE,
) -> None:
    """Solve boards and print, for each in input order as it is solved, the verdict, a win's moves and the effort.

    One board prints as before; with several, each answer says which board
    (jsonl: its position and FILE:LINE). A board that cannot be read gets
    an error (jsonl: a line {"position", "source", "error"}; otherwise an
    error: line on stderr) and the rest are still solved, unless
    --stop-on-error.

    Exit codes, in every format: 1 if any board could not be read, 70 for a
    bug in blackhole, 130 on Ctrl-C, 143 on SIGTERM; otherwise 0, whatever the verdicts,
    except in --format bhs with one board, which exits as
    black-hole-solver does: 0 solved (Solved!), 255 unsolvable (Unsolved!),
    254 node limit hit (Intractable!). With several boards --format bhs
    exits 0 as black-hole-solver's multi-bhs-solver does. Its counters carry
    our nodes, and a lost deal's longest play is not sought in that format.
    black-hole-solver's --game golf is --game dead_king_golf here (with its
    --queens-on-kings: golf; with --wrap-ranks: relaxed_golf).
    """
    # The solver itself, not the solve stage: no Arrow, worker pool or rich with one job.
    from pipeline.game.games import game_named
    from pipeline.reports.board_answers import answer_output, stream_exit_code
    from pipeline.stages.board_stream import read_boards, solve_boards

    if json_output and output_format not in (None, BoardFormat.JSON):
        raise typer.BadParameter("--json is --format json", param_hint="--json")
    form = BoardFormat.JSON if json_output else output_format or BoardFormat.TEXT
    names = boards or ["-"]
    settings = SolveSettings(max_nodes=max_nodes, longest_play=form is not BoardFormat.BHS)
    several, failed, verdict = len(names) > 1, False, None
    with user_errors():  # a win the solver's own replay rejects is a bug: InternalError, exit 70
        answers = solve_boards(read_boards(names, game_named(game), stdin=sys.stdin), settings, jobs=jobs)
        for answer in answers:
            several = several or answer.item.position > 1 or not answer.item.alone
            out, err = answer_output(answer, form, several=several)
            typer.echo(out, nl=False)
            sys.stdout.flush()
            typer.echo(err, err=True, nl=False)
            failed = failed or answer.error is not None
            verdict = answer.result.verdict if answer.result else None
            if failed and stop_on_error:
                break
    raise typer.Exit(stream_exit_code(form, several=several, failed=failed, verdict=verdict))


@app.command()
def run(
    config: Annotated[Path, typer.Option("--config", "-c", readable=False, help="Run configuration (TOML).")],
    jobs: Annotated[
        int | None,
        _setting(
            RunConfig,
            "jobs",
            "Override [run] jobs: worker processes; more than this machine's CPUs start as many as it has (the packs are the same).",
            "-j",
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
    game: Annotated[
        GameName | None,
        typer.Option("--game", "-g", show_default="the config's", help="Override [run] game."),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Deal, solve, cross-check and grade a configured job in shards; write its pack and curated pack.

    An interrupted run resumes where it stopped when run again with the same settings.
    """
    from pipeline import runs
    from pipeline.reports import tables
    from pipeline.tally import pack_tiers

    if scheduler is not None and backend is None:
        backend = Backend.DASK
    with user_errors():
        overrides = [*(settings or []), *([] if game is None else [f"run.game={game.value}"])]
        chosen = (
            load_config(config)
            .with_settings(overrides)
            .with_overrides(jobs=jobs, backend=backend, scheduler=scheduler)
        )
    if chosen.backend is Backend.LOKY or not chosen.scheduler:
        _note_jobs(chosen.jobs, quiet)
    with user_errors(interrupted=tables.interrupted_run_line(chosen.work_directory)):
        outcome = runs.run(chosen, progress=not quiet, fresh=fresh)
    for note in tables.run_notes(outcome):
        _note(note, quiet)
    _show(tables.manifest_table(tables.run_title(chosen, outcome), outcome.manifest))
    for line in tables.tier_meaning_lines(pack_tiers(outcome.pack)):
        typer.echo(line)
    typer.echo(tables.curated_line(outcome.curated, outcome.curated_manifest))
    shortfalls = tables.curation_shortfalls(outcome.curated_manifest)
    for warning in tables.shortfall_warnings(shortfalls, what="curated tier"):
        typer.echo(warning, err=True)
    for line in tables.run_disagreement_lines(outcome.disagreements):
        typer.echo(line)
    if outcome.disagreements:
        raise typer.Exit(ExitCode.DISAGREEMENT)


PackFolder = Annotated[
    Path,
    typer.Argument(
        metavar="PACK", readable=False, help="Pack folder (output/packs/NAME) written by blackhole run."
    ),
]
PackFolderOrFile = Annotated[
    Path,
    typer.Argument(
        metavar="PACK",
        readable=False,
        help="Pack folder (output/packs/NAME) written by blackhole run, or a pack file (Parquet) written by generate, import, solve, crosscheck or grade.",
    ),
]
TierChoice = Annotated[PackTier | None, typer.Option("--tier", help="Only this tier's deals.")]


@app.command()
def curate(
    pack: PackFolder,
    name: Annotated[
        str,
        typer.Option(
            "--name",
            "--out",
            "-o",
            metavar="NAME",
            help="Name of the curated pack, a folder written beside PACK (replaced whole); a name, not a path (--out is its older spelling).",
        ),
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
        CurateOrder, typer.Option(help="difficulty: easiest first (the curve); pack: the pack's order.")
    ] = CurateOrder.DIFFICULTY,
    plays: Annotated[
        Path | None,
        typer.Option(
            "--plays",
            readable=False,
            dir_okay=False,
            help="Play records (PLAYS.parquet): leave out the deals a play-tester marked reject.",
        ),
    ] = None,
    by_play: Annotated[
        bool,
        typer.Option(
            "--by-play",
            help="With --plays: the deals with 5 finished attempts or more take their places in the order by what the players met (mistakes before a win); the others keep theirs.",
        ),
    ] = False,
    game: PackGame = None,
    quiet: Quiet = False,
) -> None:
    """Build a curated pack: graded wins only, no duplicates, quotas per tier, ordered by difficulty."""
    from pipeline.reports import tables
    from pipeline.stages.curate import curate_beside
    from pipeline.stages.quotas import parse_quotas

    if by_play and plays is None:
        raise typer.BadParameter("--by-play orders by the play records of --plays", param_hint="--by-play")
    with user_errors():
        _check_folder_game(pack, game)
        quotas = None if per_tier is None else parse_quotas(per_tier)
        if plays is None:
            target, manifest = curate_beside(pack, name, per_tier=quotas, order=order)
        else:
            from pipeline.plays.curation import curate_with_plays

            target, manifest = curate_with_plays(
                pack, name, plays, per_tier=quotas, order=order, by_play=by_play
            )
    _note(f"wrote {target}", quiet)
    typer.echo(tables.curated_line(target, manifest))
    if plays is not None:
        from pipeline.reports.play_tables import play_curation_line

        typer.echo(play_curation_line(manifest))
    for warning in tables.shortfall_warnings(tables.curation_shortfalls(manifest)):
        typer.echo(warning, err=True)


plays_app = typer.Typer(
    cls=WholeHelpLines,
    rich_markup_mode=None,
    name="plays",
    help="Play records from the gallery: read exports back (import) for report, calibrate and curate.",
    no_args_is_help=True,
)
app.add_typer(plays_app)
PlaysFile = Annotated[
    Path,
    typer.Option(
        "--plays",
        readable=False,
        dir_okay=False,
        help="Play records (PLAYS.parquet, from blackhole plays import).",
    ),
]


@plays_app.command("import")
def import_plays(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE",
            readable=False,
            help="Export files the gallery downloaded (JSON), one or more; - for standard input (once).",
        ),
    ],
    pack: Annotated[
        Path, typer.Option("--pack", readable=False, help="Pack folder the gallery was made from.")
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", dir_okay=False, help="PLAYS.parquet to write (replaced whole).")
    ],
    quiet: Quiet = False,
) -> None:
    """Check play exports against their pack (deals, moves replayed, counts) and merge them into PLAYS.parquet."""
    from pipeline.plays.importing import import_plays as import_files
    from pipeline.reports import tables
    from pipeline.reports.play_tables import imported_line

    if sum(str(path) == "-" for path in files) > 1:
        raise typer.BadParameter("- (standard input) can be given once", param_hint="FILE")
    with user_errors(interrupted=tables.interrupted_line(out)):
        imported = import_files(files, pack, out)
    _note(imported_line(imported), quiet)


@app.command()
def export(
    pack: PackFolderOrFile,
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="json: deals with board, solution, tier, each player's chances and metrics; jsonl: the same, one deal a line; boards: board text (blackhole import, black-hole-solver); csv: a spreadsheet.",
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", dir_okay=False, help="File to write (replaced whole), or - for standard output."
        ),
    ],
    tier: TierChoice = None,
    limit: Annotated[int | None, typer.Option(min=0, max=MAX_INT64, help="At most this many deals.")] = None,
    game: PackGame = None,
    quiet: Quiet = False,
) -> None:
    """Export a pack's deals for game developers (json, jsonl), solvers (boards) or spreadsheets (csv)."""
    from pipeline.files import names_standard_output
    from pipeline.packs.exports import export_saved_pack
    from pipeline.reports import tables

    streamed = names_standard_output(out)
    with user_errors(interrupted="interrupted" if streamed else tables.interrupted_line(out)):
        _check_folder_game(pack, game)
        written = export_saved_pack(pack, out, fmt, tier=None if tier is None else tier.value, limit=limit)
    where = "standard output" if streamed else out
    _note(f"wrote {_counted(written, 'deal')} to {where}", quiet)


@app.command()
def report(
    pack: PackFolderOrFile,
    charts_folder: Annotated[
        Path | None,
        typer.Option(
            "--charts",
            file_okay=False,
            help="Folder for the PNG charts (made if missing). Default: output/reports/NAME beside output/packs, or STEM-charts beside a pack file; with --json, no charts unless given.",
        ),
    ] = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the description as one JSON object on standard output instead of tables."
        ),
    ] = False,
    plays: Annotated[
        Path | None,
        typer.Option(
            "--plays",
            readable=False,
            dir_okay=False,
            help="Play records (PLAYS.parquet): add, by tier and by deal, what the play-testers met.",
        ),
    ] = None,
    game: PackGame = None,
    quiet: Quiet = False,
) -> None:
    """Print a pack's verdicts, win rate, tiers, what each player meets in each tier and metric spreads; draw its charts as PNG files.

    With --plays, also what the play-testers met, by tier and by deal: attempts, wins, wins without undo, one-attempt games won, mistakes and seconds to a win, each with its 95 % interval, and the attempts by mode; a table too wide for the terminal is split, deal ids never cut. With --json, the description as one JSON object (docs/running.md lists its keys).
    """
    from pipeline.reports.charts import report_pack
    from pipeline.reports.summary import description_json, report_tables

    if json_output and plays is not None:
        raise typer.BadParameter("--json describes the pack alone; --plays adds tables", param_hint="--json")
    with user_errors():
        _check_folder_game(pack, game)
        played = None if plays is None else _observed(plays, pack)  # before the charts: a bad file fails fast
        made = report_pack(pack, charts_folder, draw=not json_output or charts_folder is not None)
    for note in made.notes:
        _note(note, quiet)
    if json_output:
        import json

        typer.echo(json.dumps(description_json(made.description), ensure_ascii=False, allow_nan=False))
    else:
        _show(*report_tables(made.description), *([] if played is None else played))
    if made.charts:
        _note(f"wrote {' and '.join(map(str, made.charts))}", quiet)


def _check_folder_game(folder: Path, game: GameName | None) -> None:
    """GameMixError naming the pack folder (or pack file) ``folder`` when ``game`` is given and is not the pack's."""
    if game is not None:
        from pipeline.game.games import game_named
        from pipeline.packs.family import same_game
        from pipeline.packs.manifest import read_manifest
        from pipeline.packs.parquet import pack_file_game

        played = pack_file_game(folder) if folder.is_file() else read_manifest(folder).played
        same_game(played, game_named(game), source=str(folder))


def _observed(plays: Path, pack: Path) -> list[Any]:
    """The tables of what the play-testers of ``pack`` met, from the records ``plays``."""
    from pipeline.plays.observed import observe
    from pipeline.plays.played import played_pack
    from pipeline.reports.play_tables import play_tables

    return play_tables(observe(played_pack(plays, pack)))


@app.command()
def show(
    deal_id: Annotated[
        str,
        typer.Argument(
            metavar="DEAL_ID", help="A deal id: seed-SEED-INDEX, pysol-NUMBER, or any id of --pack."
        ),
    ],
    png: Annotated[
        Path | None,
        typer.Option(
            "--png", dir_okay=False, help="Picture to write (PNG); without it, the board text alone."
        ),
    ] = None,
    pack: Annotated[
        Path | None, typer.Option(readable=False, help="Pack folder to look the deal up in.")
    ] = None,
    game: Annotated[
        GameName | None,
        typer.Option(
            "--game",
            "-g",
            show_default="the pack's, or black_hole",
            help="The deal's game; with --pack, checked against the pack's.",
        ),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Print a deal's board text; with --png, also draw it as a player sees it (its fans, the foundation and any talon)."""
    from pipeline.game.games import game_named
    from pipeline.reports.picture import draw_deal_of_id

    with user_errors():
        deal = draw_deal_of_id(deal_id, png, pack=pack, game=None if game is None else game_named(game))
    typer.echo(deal.to_board_text(), nl=False)
    if png is not None:
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
    tier: TierChoice = None,
    limit: Annotated[int | None, typer.Option(min=1, max=MAX_INT64, help="At most this many deals.")] = None,
    title: Annotated[str | None, typer.Option(help="The page's title. Default: the pack's name.")] = None,
    game: PackGame = None,
    quiet: Quiet = False,
) -> None:
    """Write a static web gallery of a pack: browse, play with exact hints, watch solutions (no network)."""
    from pipeline.reports.gallery import write_gallery

    with user_errors():
        _check_folder_game(pack, game)
        made = write_gallery(pack, out, tier=None if tier is None else tier.value, limit=limit, title=title)
    _note(
        f"wrote a gallery of {_counted(made.deals, 'deal')} to {made.folder}/index.html ({made.size:,} bytes)",
        quiet,
    )
