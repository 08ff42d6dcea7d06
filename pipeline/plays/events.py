"""An attempt's events replayed under the rules, with the gallery's undo, redo and restart.

An event is what the player did, in order: a pile number 0..16 (the free
card of that pile went to the foundation; in another game of the family, a
pile of its layout, or the talon deal, one past the last pile: Golf's 7), or
one of :class:`Action`:
``undo`` and ``redo`` take back or play again one *step*, a step being a
move or a restart; ``restart`` goes back to the opening position
(only from another position), and is a
step itself, so ``undo`` right after it brings the position back; ``hint``
asks for a hint and changes nothing. A card played or a restart after an
undo throws the steps undone away (``redo`` has nothing left to play), as
in any editor.

:func:`replay_events` plays them from a deal's opening by the referee
(:mod:`pipeline.game.rules`) and counts what an export records of an
attempt (:class:`Tally`): the cards played (every one, those undone too),
each action, the dead ends (each arrival, by any event, at a position with
cards left and no legal move) and the cards on the foundation at the end.
An event the rules or the history do not allow is a :class:`ReplayError`
naming it, counted from 1. A one-attempt game (``one_attempt=True``) allows
only moves, and nothing after its first dead end, where it ends.

In Parquet an attempt's events are small integers (:func:`event_codes`):
the pile, or a negative code for an action.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> tally = replay_events(Deal.from_board_text(EXAMPLE_BOARD), [2, "undo", "redo", "hint"])
>>> tally.moves, tally.undos, tally.redos, tally.hints, tally.cards_played, tally.won
(1, 1, 1, 1, 1, False)
>>> replay_events(Deal.from_board_text(EXAMPLE_BOARD), [0])
Traceback (most recent call last):
...
pipeline.plays.events.ReplayError: event 1 plays pile 0, whose free card 10♥ does not fit on A♠
>>> replay_events(Deal.from_board_text(EXAMPLE_BOARD), [2, "undo"], one_attempt=True)
Traceback (most recent call last):
...
pipeline.plays.events.ReplayError: event 2 is an undo, which a one-attempt game does not allow
>>> event_codes([3, "undo", "restart"]), events_of_codes([3, -1, -3])
([3, -1, -3], [3, 'undo', 'restart'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from pipeline.errors import BlackholeError
from pipeline.game.cards import RANKS, SUIT_SYMBOLS, rank_of, suit_of
from pipeline.game.deal import Deal
from pipeline.game.rules import Position


class Action(str, Enum):
    """An event that is not a card played: its value is how an export writes it."""

    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"
    HINT = "hint"

    @property
    def code(self) -> int:
        """The action's code among an attempt's events in Parquet: -1 undo, -2 redo, -3 restart, -4 hint."""
        return -1 - list(Action).index(self)

    @property
    def named(self) -> str:
        """The action with its article, as a sentence says it: ``an undo``, ``a hint``."""
        return ("an " if self.value[0] in "aeiou" else "a ") + self.value


Event = int | str
"""An event as an export writes it: a pile number 0..16, or an action's name."""


class ReplayError(BlackholeError, ValueError):
    """An event the rules or the attempt's history do not allow; the message names it (from 1)."""


COUNT_FIELDS = ("moves", "undos", "redos", "restarts", "hints", "dead_ends", "cards_played")
"""The counts an attempt records of its events, in an export's order (the names of :class:`Tally`'s counts)."""


@dataclass(frozen=True)
class Tally:
    """What replaying an attempt's events counts, with the names of an export's fields."""

    moves: int  # cards played (and talon deals), those later undone too
    undos: int
    redos: int
    restarts: int
    hints: int
    dead_ends: int  # arrivals at a position with cards left and no legal move
    cards_played: int  # played from the piles by the end (the foundation's starting card not counted)
    won: bool  # every pile card played at the end
    stuck: bool  # cards left and no legal move at the end

    def counts(self) -> dict[str, int]:
        """The counts, by the names of :data:`COUNT_FIELDS`, in that order."""
        return {name: getattr(self, name) for name in COUNT_FIELDS}

    @property
    def clean(self) -> bool:
        """Won with no undo, restart or hint: what an export's ``clean`` must say."""
        return self.won and self.undos == self.restarts == self.hints == 0


def card_text(card: int) -> str:
    """A card as the gallery shows it: ``7♣``, ``10♦``, ``A♠``.

    >>> from pipeline.game.cards import ACE_OF_SPADES
    >>> card_text(ACE_OF_SPADES), card_text(37)
    ('A♠', '10♣')
    """
    rank = RANKS[rank_of(card)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(card)]


@dataclass(frozen=True)
class _Stop:
    """A position of the history, the card on top of the foundation there and its legal moves (worked out
    once: each event asks for them twice, to play and to count a dead end)."""

    position: Position
    top: int | None  # None while the foundation is empty (All in a Row's opening)
    moves: tuple[int, ...] = ()

    @classmethod
    def at(cls, position: Position, top: int | None) -> _Stop:
        return cls(position, top, tuple(position.legal_moves()))

    @property
    def stuck(self) -> bool:
        return not self.moves and not self.position.is_won


def replay_events(deal: Deal, events: Sequence[Event], *, one_attempt: bool = False) -> Tally:
    """Replay ``events`` from the opening of ``deal``; their :class:`Tally`, or ReplayError naming the first
    event not allowed: a card that does not fit, a pile that is empty or not a pile, an undo with nothing to
    take back, a redo with nothing to play again, a restart from the opening, any event after the win; with
    ``one_attempt``, any event but a move, and any event after the first dead end."""
    opening = _Stop.at(Position.start(deal), deal.foundation)
    history: list[_Stop] = [opening]  # history[i]: after the first i steps
    at = 0  # the steps in force; those after it can be redone
    counts = dict.fromkeys(("moves", "undo", "redo", "restart", "hint", "dead_ends"), 0)
    for number, event in enumerate(events, start=1):
        here = history[at]
        if here.position.is_won:
            raise ReplayError(f"event {number} ({_event_text(event)}) comes after the win")
        if one_attempt and here.stuck:
            raise ReplayError(
                f"event {number} ({_event_text(event)}) comes after the dead end of event {number - 1}, "
                "where a one-attempt game ends"
            )
        if isinstance(event, str):
            action = _action(event, number, deal)
            if one_attempt:
                raise ReplayError(
                    f"event {number} is {action.named}, which a one-attempt game does not allow"
                )
            counts[action.value] += 1
            if action is Action.HINT:
                continue
            if action is Action.UNDO:
                if at == 0:
                    raise ReplayError(f"event {number} undoes, but there is nothing to take back")
                at -= 1
            elif action is Action.REDO:
                if at == len(history) - 1:
                    raise ReplayError(f"event {number} redoes, but nothing was undone")
                at += 1
            else:
                if here.position == opening.position:
                    raise ReplayError(f"event {number} restarts at the opening position")
                del history[at + 1 :]
                history.append(opening)
                at += 1
        else:
            del history[at + 1 :]
            history.append(_played(here, event, number))
            at += 1
            counts["moves"] += 1
        if history[at].stuck:
            counts["dead_ends"] += 1
    end = history[at].position
    return Tally(
        counts["moves"],
        counts["undo"],
        counts["redo"],
        counts["restart"],
        counts["hint"],
        counts["dead_ends"],
        end.cards_played,
        end.is_won,
        history[at].stuck,
    )


def _action(event: str, number: int, deal: Deal) -> Action:
    try:
        return Action(event)
    except ValueError:
        known = ", ".join(action.value for action in Action)
        game = deal.game
        talon = f", {game.talon_move} (the talon)" if game.has_talon else ""
        raise ReplayError(
            f"event {number} is {event!r}, not a pile 0..{game.num_piles - 1}{talon} or one of {known}"
        ) from None


def _played(here: _Stop, pile: int, number: int) -> _Stop:
    """The stop after playing the free card of ``pile`` (or dealing the talon's next card) from ``here``;
    ReplayError when the rules forbid it."""
    game = here.position.deal.game
    if game.is_talon_move(pile) and not isinstance(pile, bool):
        position = here.position
        if not position.talon_left:
            raise ReplayError(f"event {number} deals from the talon, which is empty")
        return _Stop.at(position.play(pile), position.deal.talon[position.talon_dealt])
    if isinstance(pile, bool) or not 0 <= pile < game.num_piles:
        talon = f" and {game.talon_move} deals from the talon" if game.has_talon else ""
        raise ReplayError(
            f"event {number} plays pile {pile!r}, but the piles are 0..{game.num_piles - 1}{talon}"
        )
    card = here.position.top_card(pile)
    if card is None:
        raise ReplayError(f"event {number} plays pile {pile}, which is empty")
    if pile not in here.moves:
        assert here.top is not None  # an empty foundation takes any card
        raise ReplayError(
            f"event {number} plays pile {pile}, whose free card {card_text(card)} "
            f"does not fit on {card_text(here.top)}"
        )
    return _Stop.at(here.position.play(pile), card)


def _event_text(event: Event) -> str:
    return f"pile {event}" if isinstance(event, int) else str(event)


def event_codes(events: Sequence[Event]) -> list[int]:
    """``events`` as the small integers of PLAYS.parquet: a pile as itself, an action as its :attr:`Action.code`."""
    return [event if isinstance(event, int) else _CODES[event] for event in events]


_CODES = {action.value: action.code for action in Action}


def events_of_codes(codes: Sequence[int]) -> list[Event]:
    """The events of :func:`event_codes`' integers."""
    actions = list(Action)
    return [code if code >= 0 else actions[-1 - code].value for code in codes]
