"""A pack's description rendered: tables for the terminal, in words (:mod:`pipeline.reports.words`), and one JSON object.

:func:`report_tables` renders a :class:`~pipeline.tally.PackDescription`
(:mod:`pipeline.tally` reads and counts the pack) for the terminal, and
:func:`description_json` as one JSON object (``report --json``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pipeline.game.verdicts import Verdict
from pipeline.reports import words
from pipeline.reports.tables import STATUS_LABELS
from pipeline.stages.tiers import THRESHOLDS
from pipeline.tally import Distribution, PackDescription

if TYPE_CHECKING:
    from rich.table import Table


def description_json(description: PackDescription) -> dict[str, Any]:
    """``description`` as one JSON object, for ``report --json`` (docs/running.md lists its keys).

    ``deals``; ``verdicts``, ``tiers`` and ``statuses``: counts of each, zeros
    included, in their declared order; ``win_rate``: ``rate`` (null when no deal
    was decided), ``low`` and ``high`` (the 95 % interval), ``published`` (the
    game's published rate, null when none) and ``published_inside`` (whether the
    interval holds it; null without one); ``thresholds``: the tiers the pack was
    graded with (``player``, ``figure``, then the least difficulty of ``medium``,
    ``hard`` and ``expert``), null when not graded; ``metrics``: each of
    :data:`SPREAD_METRICS` over the solvable deals graded exactly, as
    ``count``, ``min``, ``q1``, ``median``, ``q3``, ``max`` (null without values);
    ``players``: by solvable tier, then by player model (``random``, ``tips``,
    ``lookahead-2``...), its ``win_probability`` (the columns ``<player>_win_probability``) and
    ``dead_ends`` spread the same way.

    >>> import pyarrow as pa
    >>> from pipeline.tally import TALLIED_METRICS, describe_pack
    >>> document = description_json(describe_pack(pa.table({
    ...     "verdict": ["solved", "unsolvable"], "grade_status": ["exact", "exact"], "tier": ["easy", "unsolvable"],
    ...     **{metric: [2.0, None] for metric in TALLIED_METRICS},
    ... })))
    >>> document["deals"], document["verdicts"], document["win_rate"]["rate"], document["metrics"]["traps"]["median"]
    (2, {'solved': 1, 'unsolvable': 1, 'unknown': 0}, 0.5, 2.0)
    >>> list(document["players"]["easy"]["tips"])
    ['win_probability', 'dead_ends']
    """
    rate, published, thresholds = description.win_rate, description.published, description.thresholds
    return {
        "deals": description.total,
        "verdicts": dict(description.verdicts),
        "win_rate": {
            "rate": rate.rate,
            "low": rate.low,
            "high": rate.high,
            "published": published,
            "published_inside": None if published is None else rate.contains(published),
        },
        "tiers": dict(description.tiers),
        "thresholds": None
        if thresholds is None
        else {
            "player": thresholds.difficulty.player.value,
            "figure": thresholds.difficulty.figure.value,
            **{name: float(getattr(thresholds, name)) for name in THRESHOLDS},
        },
        "statuses": dict(description.statuses),
        "metrics": {name: _distribution_json(spread) for name, spread in description.metrics.items()},
        "players": {
            tier: {
                player.value: {
                    "win_probability": _distribution_json(spread.win_chance),
                    "dead_ends": _distribution_json(spread.dead_ends),
                }
                for player, spread in players.items()
            }
            for tier, players in description.players.items()
        },
    }


def _distribution_json(spread: Distribution) -> dict[str, float | int | None]:
    return {
        "count": spread.count,
        "min": spread.minimum,
        "q1": spread.q1,
        "median": spread.median,
        "q3": spread.q3,
        "max": spread.maximum,
    }


def report_tables(description: PackDescription) -> list[Table]:
    """Rich tables of ``description``, in words: verdicts, win rate, tiers and what they mean, what each
    player meets in each tier, grade statuses, metric quartiles."""
    from rich.table import Table

    total = description.total
    verdicts = Table(title=f"Verdicts of {words.counted(total, 'deal')}")
    verdicts.add_column("verdict")
    verdicts.add_column("deals", justify="right")
    verdicts.add_column("share", justify="right")
    for verdict, count in description.verdicts.items():
        verdicts.add_row(verdict, str(count), _share(count, total))

    rate = description.win_rate
    shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
    if description.verdicts[Verdict.UNKNOWN.value]:
        shown += " of decided"
    rates = Table(title="Win rate", show_header=False)
    rates.add_column("measure")
    rates.add_column("value", justify="right")
    rates.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
    published = description.published
    if published is not None:
        inside = "inside" if rate.contains(published) else "OUTSIDE"
        rates.add_row("published (PySol FC)", f"{published:.2%}, {inside} the interval")

    statuses = Table(title="Grade status")
    statuses.add_column("status")
    statuses.add_column("deals", justify="right")
    for status, count in description.statuses.items():
        statuses.add_row(STATUS_LABELS[status], str(count))
    return [
        verdicts,
        rates,
        tiers_table(description),
        *player_tables(description),
        statuses,
        metrics_table(description),
    ]


def tiers_table(description: PackDescription) -> Table:
    """How many deals each tier has, and what each tier means when the pack says how it was graded."""
    from rich.table import Table

    meanings = {} if description.thresholds is None else words.tier_meanings(description.thresholds)
    tiers = Table(title="Tiers")
    tiers.add_column("tier")
    tiers.add_column("deals", justify="right")
    tiers.add_column("share", justify="right")
    if meanings:
        tiers.add_column("what it means, on average")
    for tier, count in description.tiers.items():
        tiers.add_row(
            tier,
            str(count),
            _share(count, description.total),
            *([meanings.get(tier, "")] if meanings else []),
        )
    return tiers


def player_tables(description: PackDescription) -> list[Table]:
    """One table per solvable tier with deals: each player model, in words, with the medians over the
    tier's deals of its chance that one attempt wins and of its dead ends with undo."""
    from rich.table import Table

    tables = []
    for tier, players in description.players.items():
        deals = description.tiers[tier]
        if not deals:
            continue
        table = Table(
            title=f"Tier {tier}: what each player meets, medians over its {words.counted(deals, 'deal')}",
            caption="a dead end: stuck before the win, then undo back to the last position a win was open from",
        )
        table.add_column("player")
        table.add_column("one attempt without undo wins", justify="right")
        table.add_column("dead ends with undo", justify="right")
        for player, spread in players.items():
            table.add_row(
                player.words,
                words.chance_words(spread.win_chance.median),
                words.dead_ends_words(spread.dead_ends.median),
            )
        tables.append(table)
    return tables


METRIC_WORDS = {
    "difficulty": ("difficulty", "what the tiers are cut on"),
    "log10_solutions": ("winning lines", "distinct winning move sequences"),
    "random_win_probability": ("random play wins", "the chance that one attempt of random legal moves wins"),
    "winnable_share": ("winnable share", "of the positions reached, those a win is still open from"),
    "branching_winnable": ("moves to choose", "legal moves in a position a win is open from"),
    "traps": ("traps", "choices along the solution with a move that loses the deal"),
    "forced_moves": ("forced moves", "positions along the solution with one legal move"),
}
"""How the metrics table names each of :data:`SPREAD_METRICS`, short, and what the caption says it is."""


def metrics_table(description: PackDescription) -> Table:
    """The quartiles of each of :data:`SPREAD_METRICS` over the solvable deals graded exactly, in words:
    short names in the rows, what each is in the caption (the difficulty's units from the pack's metadata)."""
    from rich.table import Table

    meanings = {name: meaning for name, meaning in METRIC_WORDS.values()}
    if description.thresholds is not None:
        meanings["difficulty"] = words.figure_label(description.thresholds.difficulty)
    caption = "; ".join(f"{name}: {meaning}" for name, meaning in meanings.items())
    counts = {spread.count for spread in description.metrics.values()}
    if len(counts) == 1:  # as for a pack's own rows: every graded win has every metric
        [count] = counts
        title = f"Metrics of the {count} solvable deals graded exactly"
    else:
        title = "Metrics of the solvable deals graded exactly"
    metrics = Table(title=title, caption=caption)
    metrics.add_column("metric")
    headings = ("min", "25 %", "median", "75 %", "max")
    for heading in headings if len(counts) == 1 else ("deals", *headings):
        metrics.add_column(heading, justify="right")
    for metric, spread in description.metrics.items():
        values = (spread.minimum, spread.q1, spread.median, spread.q3, spread.maximum)
        cells = [_metric_text(metric, value) for value in values]
        metrics.add_row(
            METRIC_WORDS[metric][0], *(cells if len(counts) == 1 else [str(spread.count), *cells])
        )
    return metrics


def _share(count: int, total: int) -> str:
    return f"{count / total:.2%}" if total else "n/a"


def _metric_text(metric: str, value: float | None) -> str:
    """A metric's value as the metrics table shows it: counts and odds in words, no exponent.

    >>> _metric_text("log10_solutions", 10.43), _metric_text("random_win_probability", 3.441e-05)
    ('27 billion', '1 in 29,000')
    >>> _metric_text("winnable_share", 0.6366), _metric_text("difficulty", 518.54), _metric_text("traps", None)
    ('63.7 %', '519', 'n/a')
    """
    if value is None:
        return "n/a"
    if metric == "log10_solutions":
        return words.count_text(10**value)
    if metric == "random_win_probability":
        return words.odds_text(value) if value > 0 else "never"
    if metric == "winnable_share":
        return f"{value:.1%}".replace("%", " %")
    return _number(value)


def _number(value: float) -> str:
    """A number with no exponent: whole from 100 up, else three significant digits (two below 1).

    >>> _number(2887.1), _number(16.75), _number(2.4587), _number(0.0521), _number(19.0)
    ('2,887', '16.8', '2.46', '0.052', '19')
    """
    if value >= 100 or float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:.3g}" if value >= 1 else f"{value:.2g}" if value >= 0.001 else f"{value:.4f}"
