"""Play records for the terminal: what an import wrote, what play-testers met, and the models against play.

Every figure is in plain words with its 95 % interval in brackets: a share
as ``3 of 8 won, 38 % [14 %, 69 %]`` (Wilson), a mean as ``4.5 [2.1, 6.9]``
(Student t; none below two values), seconds as ``2 min 5 s``. Rich is
imported only when a table is made.

>>> share_text(Rate.of(3, 8))
'3 of 8, 38 % [14 %, 69 %]'
>>> mean_text(MeanInterval.of([125.0, 95.0]), seconds=True), mean_text(MeanInterval.of([]))
('1 min 50 s [0 s, 5 min 1 s]', 'no win')
>>> duration_text(3725.0), duration_text(42.4)
('1 h 2 min', '42 s')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pipeline.free_text import printable
from pipeline.game.players import PLAYERS
from pipeline.plays.calibration import Measure, ModelCheck
from pipeline.plays.intervals import RESAMPLES, Correlation, MeanInterval, Rate
from pipeline.plays.observed import Observed, PlayObservation
from pipeline.reports import words

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from pipeline.packs.manifest import Manifest
    from pipeline.plays.calibration import FittedTiers
    from pipeline.plays.importing import Imported

MEASURES_CAPTION = (
    "attempts: finished ones (won, stuck or abandoned); won without undo: no undo, restart or hint; "
    "mistakes before a win: dead ends met per win, those of the unwon attempts before it counted; "
    "seconds to a win: seconds of play per win, likewise; [95 % interval: Wilson for shares, Student t for means]"
)
NOTE_WIDTH = 40  # characters of a play-tester's note a deal's row shows


def imported_line(imported: Imported) -> str:
    """What an import wrote, in one line.

    >>> from pathlib import Path
    >>> from pipeline.plays.importing import Imported
    >>> imported_line(Imported(Path("PLAYS.parquet"), 2, 5, 30, 28, 12, 1, {"reject": 1}))
    'wrote PLAYS.parquet: 30 attempts (28 finished) at 5 deals from 2 files; 12 found again and kept once, 1 played on in a later export; 1 deal marked reject'
    """
    line = (
        f"wrote {imported.out}: {imported.attempts} attempt{'s' if imported.attempts != 1 else ''} "
        f"({imported.finished} finished) at {imported.deals} deal{'s' if imported.deals != 1 else ''} "
        f"from {imported.files} file{'s' if imported.files != 1 else ''}"
    )
    again = []
    if imported.repeated:
        again.append(f"{imported.repeated} found again and kept once")
    if imported.extended:
        again.append(f"{imported.extended} played on in a later export")
    parts = [line, *([", ".join(again)] if again else [])]
    parts += [
        f"{count} deal{'s' if count != 1 else ''} marked {mark}" for mark, count in imported.marked.items()
    ]
    return "; ".join(parts)


def share_text(rate: Rate) -> str:
    """A share with its Wilson interval: ``3 of 8, 38 % [14 %, 69 %]``; ``none`` of no trial."""
    if not rate.trials:
        return "none"
    return f"{rate.successes} of {rate.trials}, {_percent(rate.rate or 0.0)} [{_percent(rate.low)}, {_percent(rate.high)}]"


def _percent(share: float) -> str:
    return f"{share * 100:.0f} %"


def mean_text(mean: MeanInterval, *, seconds: bool = False) -> str:
    """A mean with its t interval: ``4.5 [2.1, 6.9]``; ``no win`` when there is none."""
    if mean.mean is None:
        return "no win"
    text = duration_text if seconds else _amount
    if mean.low is None or mean.high is None:
        return f"{text(mean.mean)} (1 win)"
    return f"{text(mean.mean)} [{text(max(mean.low, 0.0))}, {text(mean.high)}]"


def _amount(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.2g}" if value < 10 else f"{value:.0f}"


def duration_text(seconds: float) -> str:
    """Seconds of play in words: ``42 s``, ``2 min 5 s``, ``1 h 2 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s" if whole % 60 else f"{whole // 60} min"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def _figure_cells(observed: Observed) -> list[str]:
    attempts = f"{observed.attempts}" + (f" (+{observed.playing} playing)" if observed.playing else "")
    return [
        attempts,
        share_text(observed.wins),
        share_text(observed.clean),
        mean_text(observed.mistakes),
        mean_text(observed.seconds, seconds=True),
    ]


def _figure_columns(table: Table) -> None:
    table.add_column("attempts", justify="right")
    table.add_column("won", justify="right")
    table.add_column("won without undo", justify="right")
    table.add_column("mistakes before a win", justify="right")
    table.add_column("seconds to a win", justify="right")


def play_tables(observation: PlayObservation) -> list[Table]:
    """What the play-testers met: a table by tier (the tiers played, then all), and one by deal."""
    from rich.table import Table

    tiers = Table(title="What the play-testers met, by tier", caption=MEASURES_CAPTION)
    tiers.add_column("tier")
    tiers.add_column("deals played", justify="right")
    _figure_columns(tiers)
    for tier, observed in observation.tiers.items():
        if observed.attempts or observed.playing:
            tiers.add_row(tier, str(observed.deals), *_figure_cells(observed))
    tiers.add_row("all", str(observation.total.deals), *_figure_cells(observation.total), end_section=True)
    deals = Table(
        title=f"What the play-testers met, deal by deal ({words.counted(len(observation.deals), 'deal')})"
    )
    deals.add_column("deal")
    deals.add_column("tier")
    deals.add_column("mark")
    _figure_columns(deals)
    deals.add_column("note")
    for deal in observation.deals:
        note = printable(" ".join(deal.note.split()))
        note = note if len(note) <= NOTE_WIDTH else note[: NOTE_WIDTH - 1] + "…"
        mark = "" if deal.mark is None else deal.mark.value
        deals.add_row(shown(deal.deal_id), shown(deal.tier), mark, *_figure_cells(deal.observed), shown(note))
    return [tiers, deals]


def shown(text: str) -> Text:
    """``text`` from a file as a table cell: control characters escaped, no rich markup read in it
    (a note's ``[red]`` shows as written).

    >>> print(shown("a [red]note\\x1b[2J").plain)
    a [red]note\\x1b[2J
    """
    from rich.text import Text

    return Text(printable(text))


def _rho_text(found: Correlation) -> str:
    if found.rho is None:
        return "n/a"
    if found.low is None or found.high is None:
        return f"{found.rho:+.2f}"
    return f"{found.rho:+.2f} [{found.low:+.2f}, {found.high:+.2f}]"


def model_tables(check: ModelCheck, *, seed: int = 0) -> list[Table]:
    """The models against play: the rank correlations of each with each measure, and their likelihoods."""
    from rich.table import Table

    correlations = Table(
        title=f"Each model against play: rank correlation over the {len(check.deals)} deals played and graded",
        caption=(
            "Spearman's rho of the model's win chance (against the two shares) or dead ends with undo "
            f"(against the others) and what the players met, [95 % bootstrap interval over deals, {RESAMPLES:,} "
            f"resamples, seed {seed}]; the models rank deals alike, so rho does not tell them apart"
        ),
    )
    correlations.add_column("model")
    for measure in Measure:
        correlations.add_column(measure.value, justify="right")
    for player in PLAYERS:
        correlations.add_row(player.value, *(_rho_text(check.correlations[player][m]) for m in Measure))
    fits = Table(
        title="Which model plays like these players: the likelihood of their attempts",
        caption=(
            "mean log-likelihood per attempt, and the chance it gives a typical attempt; without undo each game "
            "wins with the model's win chance, with undo the dead ends follow a geometric law of the model's "
            "mean; the highest is the best predictor"
        ),
    )
    fits.add_column("model")
    fits.add_column("attempts (with undo)", justify="right")
    fits.add_column("mean log-likelihood", justify="right")
    fits.add_column("a typical attempt", justify="right")
    fits.add_column("")
    for player, fit in check.fits.items():
        chance = fit.typical_chance
        fits.add_row(
            player.value,
            f"{fit.attempts} ({fit.with_undo})",
            "n/a" if fit.mean is None else f"{fit.mean:.4f}",
            "n/a" if chance is None else words.odds_text(chance) if chance > 0 else "never",
            "best" if player is check.best else "",
        )
    return [correlations, fits]


def best_line(check: ModelCheck) -> str:
    """Which model predicts these players best, in words."""
    if check.best is None:
        return "no attempt says anything yet (none won, none met a dead end): no model can be named"
    return f"best predictor of these players: {check.best.value}, {check.best.words}"


def fitted_lines(fitted: FittedTiers, *, written: bool) -> list[str]:
    """The thresholds fitted to play, how many deals they were fitted on and how well they agree."""
    from pipeline.reports.tables import thresholds_line

    share = fitted.agreeing / fitted.deals if fitted.deals else math.nan
    where = "" if written else " (not written: give --out to write a tiers file)"
    return [
        f"fitted to play on {fitted.deals} deals{where}: {thresholds_line(fitted.tiers)}",
        f"{fitted.agreeing} of those {fitted.deals} deals ({share:.0%}) fall in the tier of their players' quarter",
    ]


def play_curation_line(manifest: Manifest) -> str:
    """What play records changed in a curation, as its manifest records it, in one line.

    >>> from pipeline.packs.manifest import CurationRecord, Manifest, Origin, PlayCurationRecord
    >>> record = PlayCurationRecord("PLAYS.parquet", ("seed-1-3",), True, 4, 5)
    >>> origin = Origin("best", "curated", "0.1.0", None, curation=CurationRecord(None, "difficulty", {}, {}, record))
    >>> play_curation_line(Manifest(origin, 3, {}, {}, None))
    'from PLAYS.parquet: 1 deal left out as rejected (seed-1-3); 4 deals placed by play (5 finished attempts or more)'
    """
    curation = manifest.origin.curation
    record = None if curation is None else curation.plays
    if record is None:
        return "no play records used"
    count = len(record.rejected)
    shown = ", ".join(record.rejected[:5]) + (", ..." if count > 5 else "")
    line = f"from {record.plays}: {count} deal{'s' if count != 1 else ''} left out as rejected" + (
        f" ({shown})" if count else ""
    )
    if record.by_play:
        line += (
            f"; {record.placed} deal{'s' if record.placed != 1 else ''} placed by play "
            f"({record.min_attempts} finished attempts or more)"
        )
    return line
