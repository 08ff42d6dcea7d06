"""Several exports merged into one set of play records: every attempt once, each deal's latest note and mark.

The same attempt can be in several exports: a play-tester exports twice, or
while an attempt is still being played and again later. Attempts are matched
by id (the gallery makes each id unique: when it started, in milliseconds,
and 8 random characters). Two records of one id:

- identical: the attempt is kept once;
- one is the other played on further (its events begin with all the
  other's, and the other was still ``playing``, or ``stuck`` in relaxed
  mode, where an undo takes the attempt up again; or the same events, the
  other still ``playing`` or, both playing, with fewer seconds): the further
  one is kept;
- anything else (other events, another deal, another start, another mode
  or clock, or an ended attempt that plays on): refused, one line naming
  both records.

A deal's note and mark are those of the latest export that lists the deal
(by its ``exported`` time; of two exported at the same moment, the one given
later), even when they are empty: clearing a note or a mark is a change too.

The merged deals come in the order ``order`` gives (the pack's), their
attempts by start time (ties by id).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.plays.exports import (
    Attempt,
    DealPlays,
    Mode,
    Outcome,
    PlayExport,
    PlaysError,
    mode_text,
    record_label,
)


@dataclass(frozen=True)
class Merged:
    """Merged records: the deals, and how many attempts were found again (``repeated``: identical, kept
    once; ``extended``: played on in a later record, the further one kept)."""

    deals: tuple[DealPlays, ...]
    repeated: int
    extended: int

    @property
    def attempts(self) -> int:
        return sum(len(deal.attempts) for deal in self.deals)


@dataclass(frozen=True)
class Found:
    """One record of an attempt: the attempt, its deal and where it is (``file: deals[i].attempts[j] (...)``)."""

    attempt: Attempt
    deal_id: str
    where: str  # "file: deals[i].attempts[j] (...)"


def merge_exports(exports: Sequence[PlayExport], order: Iterable[str] = ()) -> Merged:
    """The attempts, notes and marks of ``exports`` merged (see the module); deals in ``order``, then any other
    in the order first met. PlaysError naming both records when two records of one id disagree."""
    found: dict[str, Found] = {}
    latest: dict[str, tuple[tuple[object, int], DealPlays]] = {}  # deal id: ((exported, place), its entry)
    repeated = extended = 0
    for place, export in enumerate(exports):
        for number, deal in enumerate(export.deals):
            key = (export.exported, place)
            if deal.deal_id not in latest or latest[deal.deal_id][0] <= key:
                latest[deal.deal_id] = (key, deal)
            for slot, attempt in enumerate(deal.attempts):
                where = f"{export.source}: {record_label(number, deal.deal_id, slot, attempt.id)}"
                here = Found(attempt, deal.deal_id, where)
                before = found.get(attempt.id)
                if before is None:
                    found[attempt.id] = here
                elif before.attempt == attempt and before.deal_id == deal.deal_id:
                    repeated += 1
                else:
                    found[attempt.id] = further(before, here)
                    extended += 1
    by_deal: dict[str, list[Attempt]] = {}
    for record in found.values():
        by_deal.setdefault(record.deal_id, []).append(record.attempt)
    ids = list(dict.fromkeys([*order, *latest]))
    deals = tuple(
        DealPlays(
            deal_id,
            latest[deal_id][1].note,
            latest[deal_id][1].mark,
            tuple(sorted(by_deal.get(deal_id, []), key=lambda attempt: (attempt.started, attempt.id))),
        )
        for deal_id in ids
        if deal_id in latest
    )
    return Merged(deals, repeated, extended)


def further(first: Found, second: Found) -> Found:
    """Of two records of one attempt id, the one played further; PlaysError when neither continues the other."""
    refused = PlaysError(
        f"{second.where}: another attempt than {first.where}, which has the same id "
        f"({_why_not_the_same(first, second)})"
    )
    if first.deal_id != second.deal_id or first.attempt.started != second.attempt.started:
        raise refused
    one, two = first.attempt, second.attempt
    if one.gallery != two.gallery or _mode_of(one) != _mode_of(two):
        raise refused
    if one.events == two.events:
        if one.outcome is Outcome.PLAYING and two.outcome is Outcome.PLAYING:
            return second if two.seconds >= one.seconds else first
        if one.outcome is Outcome.PLAYING:
            return second
        if two.outcome is Outcome.PLAYING:
            return first
        raise refused
    shorter, longer = (first, second) if len(one.events) < len(two.events) else (second, first)
    prefix = longer.attempt.events[: len(shorter.attempt.events)] == shorter.attempt.events
    if not prefix or not _open(shorter.attempt):
        raise refused
    return longer


def _mode_of(attempt: Attempt) -> tuple[Mode, bool, int | None]:
    return attempt.mode, attempt.timed, attempt.move_limit


def _open(attempt: Attempt) -> bool:
    """Whether more events may follow ``attempt``'s: still playing, or stuck in relaxed mode (an undo takes
    up the attempt again)."""
    return attempt.outcome is Outcome.PLAYING or (
        attempt.outcome is Outcome.STUCK and attempt.mode is Mode.RELAXED
    )


def _why_not_the_same(first: Found, second: Found) -> str:
    one, two = first.attempt, second.attempt
    if first.deal_id != second.deal_id:
        return f"at the deal {first.deal_id}"
    if one.started != two.started:
        return f"started at {one.started.isoformat()}"
    if one.gallery != two.gallery:
        return f"played in the gallery {one.gallery}"
    if _mode_of(one) != _mode_of(two):
        return f"played as {mode_text(one)}, the other as {mode_text(two)}"
    shorter, longer = (one, two) if len(one.events) <= len(two.events) else (two, one)
    if longer.events[: len(shorter.events)] != shorter.events:
        return "neither's events begin the other's"
    if not _open(shorter):
        return f'the one with fewer events ended "{shorter.outcome.value}", yet the other plays on'
    return "both ended, differently"
