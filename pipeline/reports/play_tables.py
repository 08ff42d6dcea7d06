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
from typing import TYPE_CHECKING, Literal

from pipeline.game.players import PLAYERS
from pipeline.plays.intervals import RESAMPLES, Correlation, MeanInterval, Rate
from pipeline.plays.model_check import MIN_PREDICTOR_ATTEMPTS, MIN_PREDICTOR_DEALS, Measure, ModelCheck
from pipeline.plays.observed import Observed, PlayObservation
from pipeline.reports import words

if TYPE_CHECKING:
    from rich.console import RenderableType

    from pipeline.calibration import FittedTiers
    from pipeline.packs.manifest import Manifest
    from pipeline.plays.importing import Imported

MEASURES_CAPTION = (
    "attempts: finished ones (won, stuck, abandoned or out of time); won without undo: no undo, restart or "
    "hint, in either mode; one-attempt games won: of the games played in the one-attempt mode (no undo, redo, "
    "restart or hint allowed); mistakes before a win: dead ends met per win, those of the unwon attempts before it counted; "
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
        + (f" of {imported.galleries} gallery builds" if imported.galleries > 1 else "")
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


FIGURE_COLUMNS: tuple[tuple[str, Literal["left", "right"]], ...] = (
    ("attempts", "right"),
    ("won", "right"),
    ("won without undo", "right"),
    ("one-attempt games won", "right"),
    ("mistakes before a win", "right"),
    ("seconds to a win", "right"),
)
"""The figures' columns of a table of what the play-testers met, after its key."""


def _figure_cells(observed: Observed) -> list[str]:
    attempts = f"{observed.attempts}" + (f" (+{observed.playing} playing)" if observed.playing else "")
    return [
        attempts,
        share_text(observed.wins),
        share_text(observed.clean),
        share_text(observed.one_attempt),
        mean_text(observed.mistakes),
        mean_text(observed.seconds, seconds=True),
    ]


def play_tables(observation: PlayObservation) -> list[RenderableType]:
    """What the play-testers met: a table by tier (the tiers played, then all), the attempts by mode, and a
    table by deal; a table too wide for the terminal is split, its key (the tier, the deal id) never cut."""
    from rich.text import Text

    from pipeline.reports.split_tables import Column, SplitTable

    figures = [Column(header, justify) for header, justify in FIGURE_COLUMNS]
    tier_rows = [
        [tier, str(observed.deals), *_figure_cells(observed)]
        for tier, observed in observation.tiers.items()
        if observed.attempts or observed.playing
    ]
    tier_rows.append(["all", str(observation.total.deals), *_figure_cells(observation.total)])
    tiers = SplitTable(
        "What the play-testers met, by tier",
        [Column("tier"), Column("deals played", "right"), *figures],
        tier_rows,
        caption=MEASURES_CAPTION,
    )
    deal_rows = []
    for deal in observation.deals:
        note = " ".join(deal.note.split())
        note = note if len(note) <= NOTE_WIDTH else note[: NOTE_WIDTH - 1] + "…"
        mark = "" if deal.mark is None else deal.mark.value
        deal_rows.append([deal.deal_id, deal.tier, mark, *_figure_cells(deal.observed), note])
    deals = SplitTable(
        f"What the play-testers met, deal by deal ({words.counted(len(observation.deals), 'deal')})",
        [Column("deal"), Column("tier"), Column("mark"), *figures, Column("note")],
        deal_rows,
    )
    return [tiers, *(Text(line) for line in modes_lines(observation.total)), deals]


def modes_lines(observed: Observed) -> list[str]:
    """How many finished attempts of each mode ``observed`` holds, and, when none was a one-attempt game,
    where wins without undo are counted from.

    >>> found = Observed.of([])
    >>> modes_lines(found)[0]
    'finished attempts by mode: 0 relaxed, 0 one-attempt; 0 timed, 0 out of time'
    >>> modes_lines(found)[1]
    'no one-attempt game recorded: wins without undo are counted from relaxed games that used no undo, restart or hint'
    """
    modes = observed.modes
    lines = [
        f"finished attempts by mode: {modes.relaxed:,} relaxed, {modes.one_attempt:,} one-attempt; "
        f"{modes.timed:,} timed, {modes.out_of_time:,} out of time"
    ]
    if not modes.one_attempt:
        lines.append(NO_ONE_ATTEMPT)
    return lines


NO_ONE_ATTEMPT = (
    "no one-attempt game recorded: wins without undo are counted from relaxed games that used no undo, "
    "restart or hint"
)
"""What the reports say when no attempt was played in the one-attempt mode."""


def _rho_text(found: Correlation) -> str:
    if found.rho is None:
        return "n/a"
    if found.low is None or found.high is None:
        return f"{found.rho:+.2f}"
    return f"{found.rho:+.2f} [{found.low:+.2f}, {found.high:+.2f}]"


def model_tables(check: ModelCheck, *, seed: int = 0) -> list[RenderableType]:
    """The models against play: the rank correlations of each with each measure, and their likelihoods."""
    from pipeline.reports.split_tables import Column, SplitTable

    one_attempt = check.correlations[PLAYERS[0]][Measure.ONE_ATTEMPT_RATE].deals
    over = (
        f"the one-attempt win rate over the {words.counted(one_attempt, 'deal')} with a one-attempt game"
        if one_attempt
        else "no one-attempt game played"
    )
    correlations = SplitTable(
        "Each model against play: rank correlation over the "
        f"{words.counted(len(check.deals), 'deal')} played and graded",
        [Column("model"), *(Column(measure.value, "right") for measure in Measure)],
        [[player.value, *(_rho_text(check.correlations[player][m]) for m in Measure)] for player in PLAYERS],
        caption=(
            "Spearman's rho of the model's win chance (against the three shares) or dead ends with undo "
            f"(against the others) and what the players met, {over}; [95 % bootstrap interval over deals, "
            f"{RESAMPLES:,} resamples, seed {seed}]; n/a below 3 deals; the models rank deals alike, so rho does "
            "not tell them apart"
        ),
    )
    fits = SplitTable(
        "Which model plays like these players: the likelihood of their attempts",
        [
            Column("model"),
            Column("attempts (with undo)", "right"),
            Column("mean log-likelihood", "right"),
            Column("a typical attempt", "right"),
            Column(""),
        ],
        [
            [
                player.value,
                f"{fit.attempts} ({fit.with_undo})",
                "n/a" if fit.mean is None else f"{fit.mean:.4f}",
                _chance_text(fit.typical_chance),
                "best" if player is check.best else "",
            ]
            for player, fit in check.fits.items()
        ],
        caption=(
            "mean log-likelihood per attempt, and the chance it gives a typical attempt; each attempt counted up "
            "to its first hint; without undo each game wins with the model's win chance, with undo the dead ends "
            "follow a geometric law of the model's mean; the highest is the best predictor, named from "
            f"{MIN_PREDICTOR_ATTEMPTS} attempts at {MIN_PREDICTOR_DEALS} deals"
        ),
    )
    return [correlations, fits]


def _chance_text(chance: float | None) -> str:
    return "n/a" if chance is None else words.odds_text(chance) if chance > 0 else "never"


def data_lines(check: ModelCheck) -> list[str]:
    """The data ``calibrate plays`` had: deals, finished attempts, modes, hinted moves, and what the
    likelihood counted and left out."""
    data, counted = check.data, check.counted
    playing = f" (+{data.playing:,} still playing, counted in no figure)" if data.playing else ""
    hinted = data.hinted / data.moves if data.moves else 0.0
    lines = [
        f"data: {words.counted(len(check.deals), 'deal')} played and graded, "
        f"{_many(data.attempts, 'finished attempt')}{playing}",
        *modes_lines(data),
        f"{_many(data.moves, 'move')}, {data.hinted:,} of them right after a hint ({_percent(hinted)})",
        f"the likelihood counts {_many(counted.attempts, 'attempt')} at {words.counted(counted.deals, 'deal')} "
        "(won, or with a dead end before any hint); left out: "
        f"{_many(counted.left_out, 'move')} from an attempt's first hint on ({counted.hinted_left_out:,} of "
        f"them a hint's own), in {_many(counted.cut_at_hint, 'attempt')} cut at their first hint",
    ]
    if data.moves and hinted >= HINTED_MOSTLY:
        lines.append(
            "most moves came right after a hint: they are the hint engine's, not the player's, so the "
            "likelihood leaves them out and counts each attempt only up to its first hint"
        )
    return lines


HINTED_MOSTLY = 0.5
"""The share of moves right after a hint from which ``calibrate plays`` warns that most were the hints'."""


def _many(count: int, one: str) -> str:
    """``1 move``, ``1,234 moves``."""
    return f"{count:,} {one}{'' if count == 1 else 's'}"


def best_line(check: ModelCheck) -> str:
    """Which model predicts these players best, in words; or why none is named."""
    if check.refused is not None:
        return check.refused
    if check.best is None:
        return "no attempt says anything yet (none won, none met a dead end): no model can be named"
    return f"best predictor of these players: {check.best.value}, {check.best.words}"


def fitted_lines(fitted: FittedTiers, *, written: bool) -> list[str]:
    """The thresholds fitted to play, how many deals they were fitted on and how well they agree."""
    from pipeline.reports.tables import thresholds_line

    share = fitted.agreeing / fitted.deals if fitted.deals else math.nan
    where = "" if written else " (not written: give --out to write a tiers file)"
    deals = words.counted(fitted.deals, "deal")
    return [
        f"fitted to play on {deals}{where}: {thresholds_line(fitted.tiers)}",
        f"{fitted.agreeing} of those {deals} ({share:.0%}) fall in the tier of their players' quarter",
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
