"""What the commands print: rich tables for the terminal, and the lines of notes, warnings and disputes.

Every function here turns a result (solve results, grades, a manifest, a
run's outcome) into a :class:`rich.table.Table` or into plain lines; the
command line only prints them. Nothing heavy is imported until a table is
made: rich when a table is built, the grade stage's types only for typing.

>>> from pipeline.game.verdicts import SolveResult, Verdict
>>> table = solve_table("Solved", [SolveResult(Verdict.SOLVED, (), 10, 0.5, 51)])
>>> [cell for cell in table.columns[0].cells][:3]
['solved', 'unsolvable', 'unknown']
>>> shortfall_warnings({"expert": (9, 3)})
['warning: tier expert wants 9 deals, the pack has 3']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.free_text import printable
from pipeline.game.games import DEFAULT_GAME
from pipeline.game.stats import PUBLISHED_WIN_RATE, Summary, summarize
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.reports.words import counted

if TYPE_CHECKING:
    from rich.table import Table

    from pipeline.config import RunConfig
    from pipeline.packs.manifest import Manifest
    from pipeline.runs import RunOutcome
    from pipeline.stages.crosscheck import CrosscheckOutcome
    from pipeline.stages.grade import Grade, GradeSummary
    from pipeline.stages.tiers import Tiers

STATUS_LABELS = {
    "exact": "graded exactly",
    "out_of_budget": "out of budget (no tier)",
    "overflow": "overflow (no tier)",
    "unknown": "unknown verdict (not graded)",
    "not_sampled": "outside the grade sample (no tier)",
}
"""How the grades table names each grade status (by its value)."""


def _measures(title: str) -> Table:
    """An empty two-column table (a measure and its value) without a header."""
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("measure")
    table.add_column("value", justify="right")
    return table


def solve_table(
    title: str, results: Summary | Iterable[SolveResult], *, published: float | None = PUBLISHED_WIN_RATE
) -> Table:
    """Verdict counts of ``results`` (or of their summary), their win rate beside the ``published`` one (the
    game's: :func:`~pipeline.game.stats.published_win_rate`; left out when None), and the solve seconds."""
    summary = results if isinstance(results, Summary) else summarize(results)
    table = _measures(title)
    for verdict in Verdict:
        count = summary.counts[verdict]
        share = count / summary.total if summary.total else 0.0
        table.add_row(verdict.value, f"{count} ({share:.2%})")
    rate = summary.win_rate
    shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
    if summary.counts[Verdict.UNKNOWN]:
        shown += " of decided"
    table.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
    if published is not None:
        inside = "inside" if rate.contains(published) else "OUTSIDE"
        table.add_row("published (PySol FC)", f"{published:.2%}, {inside} the interval")
    table.add_row("seconds mean / median / max", seconds_text(summary))
    return table


def seconds_text(summary: Summary) -> str:
    """Mean, median and longest solve, in seconds: ``0.125 / 0.100 / 0.300``."""
    return f"{summary.mean_seconds:.3f} / {summary.median_seconds:.3f} / {summary.max_seconds:.3f}"


def grades_table(title: str, grades: GradeSummary | Sequence[Grade]) -> Table:
    """How many of ``grades`` (or of those their summary counts) there are, in each tier, and with each grade status."""
    from pipeline.stages.grade import GradeSummary, summarize_grades

    summary = grades if isinstance(grades, GradeSummary) else summarize_grades(grades)
    table = _measures(title)
    table.add_row("deals", str(summary.total))
    for tier, count in summary.tiers.items():
        table.add_row(f"tier {tier.value}", str(count))
    for status, count in summary.statuses.items():  # every status, in declared order
        table.add_row(STATUS_LABELS[status.value], str(count))
    return table


def manifest_table(title: str, manifest: Manifest) -> Table:
    """Verdict and tier counts of a pack, and its win rate beside the published one; a curated pack's
    deals are chosen wins, so its rate is said to be that and compared with nothing."""
    from pipeline.packs.labels import PackKind

    table = _measures(title)
    total = manifest.deals
    for verdict, count in manifest.verdicts.items():
        table.add_row(verdict, f"{count} ({count / total if total else 0:.2%})")
    rate = manifest.win_rate
    if rate is not None and manifest.kind == PackKind.CURATED:
        shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
        table.add_row("win rate", f"{shown}: chosen wins, not a sample of the game's deals")
    elif rate is not None:
        shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
        table.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
        if rate.published is not None:
            inside = "inside" if rate.published_inside else "OUTSIDE"
            table.add_row("published (PySol FC)", f"{rate.published:.2%}, {inside} the interval")
    for tier, count in manifest.tiers.items():
        table.add_row(f"tier {tier}", str(count))
    return table


def thresholds_line(tiers: Tiers) -> str:
    """The thresholds a calibration set, in the reference's words:
    ``thresholds (dead ends of lookahead-2, with undo): medium 3, hard 8, expert 20``."""
    from pipeline.reports.words import figure_label

    return (
        f"thresholds ({figure_label(tiers.difficulty)}): "
        f"medium {tiers.medium:g}, hard {tiers.hard:g}, expert {tiers.expert:g}"
    )


def tier_meaning_lines(tiers: Tiers | None) -> list[str]:
    """What each tier of a pack graded with ``tiers`` means, in a player's words, one line a tier after a
    heading; none when the pack was not graded (None).

    >>> from pipeline.game.players import Player
    >>> from pipeline.stages.tiers import Difficulty, Figure, Tiers
    >>> for line in tier_meaning_lines(Tiers(3, 8, 20, Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS)))[:3]:
    ...     print(line)
    what the tiers mean, on average:
      easy: fewer than 3 dead ends for a player who follows the tips and looks 2 moves ahead, with undo
      medium: at least 3 and fewer than 8 dead ends for a player who follows the tips and looks 2 moves ahead, with undo
    """
    from pipeline.reports.words import tier_meanings

    if tiers is None:
        return []
    return ["what the tiers mean, on average:"] + [
        f"  {tier}: {text}" for tier, text in tier_meanings(tiers).items()
    ]


def crosscheck_note(out: Path, outcome: CrosscheckOutcome) -> str:
    """What a cross-check wrote and found: deals checked, decided, and disagreeing."""
    return (
        f"wrote {out}: {counted(outcome.checked, 'deal')} checked, {outcome.decided} decided, "
        f"{counted(len(outcome.disagreements), 'disagreement')}"
    )


def curated_line(folder: Path, manifest: Manifest) -> str:
    """A curated pack in one line: where it is, its deals, and its tiers that have any.

    >>> from pipeline.packs.manifest import Manifest, Origin
    >>> origin = Origin("best", "curated", "0.1.0", "pysol-fc")
    >>> curated_line(Path("packs/best"), Manifest(origin, 3, {}, {"easy": 2, "hard": 0, "expert": 1}, None))
    'curated pack packs/best: 3 deals (easy 2, expert 1)'
    """
    tiers = ", ".join(f"{tier} {count}" for tier, count in manifest.tiers.items() if count)
    return f"curated pack {printable(str(folder))}: {counted(manifest.deals, 'deal')} ({tiers or 'none'})"


def shortfall_warnings(shortfalls: Mapping[str, tuple[int, int]], *, what: str = "tier") -> list[str]:
    """One warning per tier with fewer qualifying deals than its quota; ``what`` names the tier.

    >>> shortfall_warnings({"hard": (5, 2)}, what="curated tier")
    ['warning: curated tier hard wants 5 deals, the pack has 2']
    >>> shortfall_warnings({"easy": (1, 0)})
    ['warning: tier easy wants 1 deal, the pack has 0']
    """
    return [
        f"warning: {what} {tier} wants {counted(wanted, 'deal')}, the pack has {found}"
        for tier, (wanted, found) in shortfalls.items()
    ]


def curation_shortfalls(manifest: Manifest) -> dict[str, tuple[int, int]]:
    """The shortfalls a curated pack's manifest records (none for a pack that is not curated)."""
    curation = manifest.origin.curation
    return {} if curation is None else dict(curation.shortfalls)


def run_notes(outcome: RunOutcome) -> list[str]:
    """What a run resumed and what it wrote, for standard error."""
    notes = []
    if outcome.lock_taken_over is not None:
        notes.append(f"took over the lock left by a run that was stopped ({outcome.lock_taken_over})")
    if outcome.resumed_shards:
        done = "was" if outcome.resumed_shards == 1 else "were"
        notes.append(
            f"resumed: {outcome.resumed_shards} of {counted(outcome.shards, 'shard')} {done} already done"
        )
    if outcome.scaled_quotas is not None:
        scaled = ", ".join(f"{tier} {count}" for tier, count in outcome.scaled_quotas)
        notes.append(
            f"[curate] per_tier asks for more deals than the run makes ({outcome.manifest.deals}): "
            f"scaled down to {scaled}"
        )
    notes.append(f"wrote {outcome.pack} and {outcome.curated}")
    return notes


def run_title(config: RunConfig, outcome: RunOutcome) -> str:
    """The title of a run's table: its name, its game (unless the default, Black Hole), its deals (seed, or PySol FC
    numbers), and wall-clock seconds."""
    if config.source == "pysol":
        last = config.first + config.count - 1
        deals = f"PySol FC deals {config.first:,} to {last:,}"
    else:
        deals = f"seed {config.seed}, {counted(config.count, 'deal')}"
    game = "" if config.played is DEFAULT_GAME else f" ({config.played.title})"
    return f"Run {config.name}{game}: {deals}, {outcome.seconds:.1f} s"


def run_disagreement_lines(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """One line per pack row whose cross-check contradicts its verdict, its deal id shown escaped.

    >>> run_disagreement_lines([{"deal_id": "seed-1-3", "verdict": "unsolvable", "checked_by": "cpsat"}])
    ['DISAGREEMENT seed-1-3: the pack says unsolvable, cpsat disagrees']
    """
    return [
        f"DISAGREEMENT {printable(row['deal_id'])}: the pack says {row['verdict']}, {row['checked_by']} disagrees"
        for row in rows
    ]


def interrupted_line(out: Path) -> str:
    """What Ctrl-C leaves of a command that writes ``out`` whole or not at all."""
    return f"interrupted: {out} is left as it was"


def interrupted_run_line(work: Path) -> str:
    """What Ctrl-C leaves of a run: its finished shards in ``work``, and how to finish."""
    return f"interrupted: finished shards are kept in {work}; run the same command again to finish"
