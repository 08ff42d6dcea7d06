"""What the play-testers met, per deal and per tier: attempts, wins, wins without undo, mistakes and seconds to a win.

Only finished attempts count (won, stuck, abandoned or out of time); one
still ``playing`` is counted apart and in no figure. For a set of attempts (a
deal's, or a tier's deals'):

- **attempts**: the finished attempts, and how many of them were played in
  each mode (:class:`Modes`: relaxed or one-attempt; timed; out of time);
- **win rate**: the share of them won, with its 95 % Wilson interval;
- **wins without undo**: the share won *clean* (no undo, restart or hint),
  with its Wilson interval;
- **one-attempt win rate**: the share of the one-attempt games (no undo,
  redo, restart or hint allowed: the direct measure of winning without undo)
  won, with its Wilson interval; none when no such game was played;
- **mistakes before a win**: the dead ends met per win, counting those of the
  unwon attempts before it. A deal's finished attempts are taken in the order
  they started; each win closes a *run*, the win and the unwon attempts since
  the deal's previous win, and the run's mistakes are the dead ends of all
  its attempts. (Without undo, each lost game is one dead end, so this counts
  the games lost before the win.) Unwon attempts after a deal's last win are
  in no run yet. The figure is the mean over the runs, with its 95 % Student t
  interval;
- **seconds to a win**: the same for the seconds of play of a run's attempts.

A tier's figures pool the attempts and the runs of its deals. The moves
of the finished attempts are counted too, and those right after a ``hint``
event (:func:`hinted_moves`: the solution player of the gallery records each
of its steps as a hint and the move), which were the hint engine's choice
rather than the player's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.packs.labels import PACK_TIERS
from pipeline.plays.events import Action, Event
from pipeline.plays.exports import Attempt, Mark, Mode, Outcome
from pipeline.plays.intervals import MeanInterval, Rate
from pipeline.plays.played import PlayedPack


@dataclass(frozen=True)
class Run:
    """The attempts up to one win since the previous one: their dead ends and seconds of play added up."""

    dead_ends: int
    seconds: float


@dataclass(frozen=True)
class Modes:
    """How many finished attempts were played in each mode: relaxed and one-attempt (every attempt is one
    of the two), timed (a clock shown, either mode), and out of time (ended by a move limit)."""

    relaxed: int = 0
    one_attempt: int = 0
    timed: int = 0
    out_of_time: int = 0

    @classmethod
    def of(cls, attempts: Iterable[Attempt]) -> Modes:
        """The modes of ``attempts`` (finished ones: the caller's choice)."""
        found = list(attempts)
        one_attempt = sum(attempt.mode is Mode.ONE_ATTEMPT for attempt in found)
        return cls(
            len(found) - one_attempt,
            one_attempt,
            sum(attempt.timed for attempt in found),
            sum(attempt.outcome is Outcome.OUT_OF_TIME for attempt in found),
        )

    def __add__(self, other: Modes) -> Modes:
        return Modes(
            self.relaxed + other.relaxed,
            self.one_attempt + other.one_attempt,
            self.timed + other.timed,
            self.out_of_time + other.out_of_time,
        )


def hinted_moves(events: Iterable[Event]) -> int:
    """The moves of ``events`` made right after a ``hint`` event: the hint's move, not the player's own.

    >>> hinted_moves(["hint", 3, 5, "hint", "undo", "hint", 2])
    2
    """
    count, after_hint = 0, False
    for event in events:
        count += after_hint and isinstance(event, int)
        after_hint = event == Action.HINT.value
    return count


@dataclass(frozen=True)
class Observed:
    """What players met on a set of attempts (see the module)."""

    deals: int  # deals with a finished attempt
    attempts: int  # finished
    playing: int  # not finished: counted in no figure
    wins: Rate
    clean: Rate  # won without undo, restart or hint
    mistakes: MeanInterval  # dead ends per win, those of the unwon attempts before it counted
    seconds: MeanInterval  # seconds of play per win, likewise
    one_attempt: Rate = Rate.of(0, 0)  # one-attempt games won, of those played
    modes: Modes = Modes()  # of the finished attempts
    moves: int = 0  # of the finished attempts (talon deals too)
    hinted: int = 0  # of those moves, the ones made right after a hint

    @classmethod
    def of(cls, attempts_by_deal: Iterable[Sequence[Attempt]]) -> Observed:
        """The figures of the attempts of each deal in ``attempts_by_deal``, pooled."""
        deals = attempts = playing = wins = clean = moves = hinted = 0
        runs: list[Run] = []
        one_attempt: list[Attempt] = []
        modes = Modes()
        for group in attempts_by_deal:
            finished = [attempt for attempt in group if attempt.finished]
            playing += len(group) - len(finished)
            deals += bool(finished)
            attempts += len(finished)
            wins += sum(attempt.won for attempt in finished)
            clean += sum(attempt.clean for attempt in finished)
            runs += runs_of(finished)
            one_attempt += [attempt for attempt in finished if attempt.mode is Mode.ONE_ATTEMPT]
            modes += Modes.of(finished)
            moves += sum(attempt.moves for attempt in finished)
            hinted += sum(hinted_moves(attempt.events) for attempt in finished)
        return cls(
            deals,
            attempts,
            playing,
            Rate.of(wins, attempts),
            Rate.of(clean, attempts),
            MeanInterval.of([run.dead_ends for run in runs]),
            MeanInterval.of([run.seconds for run in runs]),
            Rate.of(sum(attempt.won for attempt in one_attempt), len(one_attempt)),
            modes,
            moves,
            hinted,
        )


def runs_of(attempts: Sequence[Attempt]) -> list[Run]:
    """The runs of one deal's finished ``attempts``: taken in the order they started, each win closing one."""
    runs, dead_ends, seconds = [], 0, 0.0
    for attempt in sorted(attempts, key=lambda attempt: (attempt.started, attempt.id)):
        dead_ends += attempt.dead_ends
        seconds += attempt.seconds
        if attempt.won:
            runs.append(Run(dead_ends, seconds))
            dead_ends, seconds = 0, 0.0
    return runs


@dataclass(frozen=True)
class DealObserved:
    """One deal's figures, with its tier, the play-tester's mark and note."""

    deal_id: str
    tier: str
    mark: Mark | None
    note: str
    observed: Observed


@dataclass(frozen=True)
class PlayObservation:
    """What the records say, by deal (those played or marked, in pack order), by tier, and in all."""

    deals: tuple[DealObserved, ...]
    tiers: dict[str, Observed]
    total: Observed


def observe(played: PlayedPack) -> PlayObservation:
    """The figures of every deal of ``played``, of each tier of the pack and of them all."""
    deals = tuple(
        DealObserved(
            deal.deal_id,
            played.pack.deals[deal.deal_id].tier,
            deal.mark,
            deal.note,
            Observed.of([deal.attempts]),
        )
        for deal in played.records.deals
    )
    attempts = {deal.deal_id: deal.attempts for deal in played.records.deals}
    tiers = {
        tier: Observed.of([attempts[deal.deal_id] for deal in deals if deal.tier == tier])
        for tier in PACK_TIERS
    }
    return PlayObservation(deals, tiers, Observed.of(attempts.values()))
