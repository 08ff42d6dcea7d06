"""An export checked against its pack: of this pack, its deals in it, every attempt replayed and counted again.

:func:`check_export` refuses, with one :class:`~pipeline.plays.exports.PlaysError`
line naming the file and the record, an export of another pack or of another
game (:func:`check_pack`), a deal the
pack does not hold, an attempt whose events do not replay under the rules
and its mode (:func:`pipeline.plays.events.replay_events`: a one-attempt
game holds only moves and nothing after its first dead end), and one whose
recorded counts or outcome are not what its events give:

- ``moves``, ``undos``, ``redos``, ``restarts``, ``hints``, ``dead_ends`` and
  ``cards_played`` equal the replay's counts;
- ``won`` exactly when every card is played at the end; ``stuck`` only when
  no move is left at the end, ``abandoned`` and ``out_of_time`` only when one
  is; ``playing`` never after the win;
- in version 2, ``stuck`` whenever no move is left at the end (the page
  records a dead end as soon as it shows it); version 1 let such an attempt
  be ``playing``;
- ``clean`` exactly when it is won with no undo, restart or hint.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.plays.deals import PackDeals
from pipeline.plays.events import COUNT_FIELDS, ReplayError, Tally, replay_events
from pipeline.plays.exports import (
    EXPORT_VERSION,
    Attempt,
    Mode,
    Outcome,
    PlayExport,
    PlaysError,
    record_label,
)


def check_export(export: PlayExport, pack: PackDeals) -> None:
    """Refuse ``export`` (PlaysError naming its file and record) unless every record fits the ``pack``."""
    check_pack(export, name=pack.name, game=pack.game, folder=pack.folder)
    for number, deal in enumerate(export.deals):
        check_deal(export.source, number, deal.deal_id, pack)
        board = pack.deals[deal.deal_id].deal
        for place, attempt in enumerate(deal.attempts):
            check_attempt(
                f"{export.source}: {record_label(number, deal.deal_id, place, attempt.id)}",
                attempt,
                board,
                version=export.version,
            )


def check_pack(export: PlayExport, *, name: str, game: Game, folder: Path) -> None:
    """Refuse ``export`` unless it is of the pack called ``name``, of the game ``game`` (the folder ``folder``)."""
    if export.pack != name:
        raise PlaysError(
            f"{export.source}: the records are of the pack {export.pack!r}, not of {name!r} "
            f"({folder}); give the pack the gallery was made from"
        )
    if export.game is not game:
        raise PlaysError(
            f"{export.source}: the records are of {export.game.title}, but the pack {name!r} ({folder}) "
            f"is of {game.title}: games are never mixed; give the pack the gallery was made from"
        )


def check_deal(source: str, number: int, deal_id: str, pack: PackDeals) -> None:
    """Refuse the deal entry ``number`` of the file ``source`` unless ``pack`` holds its deal."""
    if deal_id not in pack.deals:
        raise PlaysError(
            f"{source}: {record_label(number, deal_id)}: the pack {pack.name!r} has no such deal"
        )


def check_attempt(where: str, attempt: Attempt, board: Deal, *, version: int = EXPORT_VERSION) -> None:
    """Refuse ``attempt`` (the record ``where`` of an export of ``version``) unless its events replay on
    ``board`` as its mode allows and give its counts and outcome."""
    try:
        tally = replay_events(board, attempt.events, one_attempt=attempt.mode is Mode.ONE_ATTEMPT)
    except ReplayError as error:
        raise PlaysError(f"{where}: {error}") from None
    problem = disagreement(attempt, tally, version=version)
    if problem is not None:
        raise PlaysError(f"{where}: {problem}")


def disagreement(attempt: Attempt, tally: Tally, *, version: int = EXPORT_VERSION) -> str | None:
    """What ``attempt`` (of an export of ``version``) records that its events' ``tally`` does not give, in
    words; None when all agree."""
    recorded, replayed = attempt.counts(), tally.counts()
    for name in COUNT_FIELDS:
        if recorded[name] != replayed[name]:
            return f"{name} is {recorded[name]}, but its events give {replayed[name]}"
    outcome = attempt.outcome
    if (outcome is Outcome.WON) != tally.won:
        end = "win" if tally.won else f"end with {tally.cards_played} of 51 cards played"
        return f'outcome is "{outcome.value}", but its events {end}'
    if outcome is Outcome.STUCK and not tally.stuck:
        return 'outcome is "stuck", but a move is left at the end of its events'
    if outcome is not Outcome.STUCK and tally.stuck and (version != 1 or outcome is Outcome.ABANDONED):
        return f'outcome is "{outcome.value}", but no move is left at the end of its events (that is "stuck")'
    clean = tally.clean
    if attempt.clean != clean:
        why = "won with no undo, restart or hint" if clean else "not won without undo, restart and hint"
        return f"clean is {str(attempt.clean).lower()}, but it is {why}"
    return None
