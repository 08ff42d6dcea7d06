"""Bots that play a deal as a player model of the ladder does, and say what the gallery should record.

A bot is one player model (:class:`~pipeline.game.players.Player`) on one
deal. Each move is drawn from the model's policy
(:func:`pipeline.game.players.policy`) with a seeded ``random.Random``. With
undo, it plays as the model's dead ends assume (``docs/players.md``): when
no card fits and cards are left, that is a dead end; it takes moves back, one
``undo`` at a time, to the last position of its game from which a win
exists (the exact solver says which), and chooses again, until it wins.
Without undo it plays one game, to the win or until it is stuck.

:func:`play_attempt` gives the attempt's events in the export's format
(piles 0..16 and ``"undo"``) and the counts the gallery must record for them
(:class:`BotAttempt`). It needs no browser: the gallery's tests click the same
events in Chromium, and the play-record tests build exports from them
(:func:`attempt_record`). The same deal, model and seed give the same events.
What a bot works out (each position's winnability and the model's chances)
is kept for the next attempt on the same deal.

>>> import random
>>> from pipeline.game.players import Player
>>> from pipeline.game.shuffles import seeded_deal
>>> attempt = play_attempt(seeded_deal(1, 0), Player.TIPS, random.Random(3))
>>> attempt.record["outcome"], attempt.record["cards_played"], attempt.record["moves"] >= 51
('won', 51, True)
>>> from pipeline.plays.events import replay_events
>>> replay_events(seeded_deal(1, 0), attempt.events).dead_ends == attempt.record["dead_ends"]
True
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from pipeline.engine.solver import solve
from pipeline.game.deal import Deal
from pipeline.game.players import Player, policy
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict

BOT_MAX_NODES = 5_000_000
"""The solver's node budget for one position's winnability; past it the bot stops (a bug in a test's choice)."""


@dataclass(frozen=True)
class BotAttempt:
    """One attempt of a bot: its events as an export writes them, and the counts the gallery records for them.

    ``record`` holds the export's fields ``moves``, ``undos``, ``redos``,
    ``restarts``, ``hints``, ``dead_ends``, ``cards_played``, ``clean`` and
    ``outcome`` (``won``, or ``stuck`` for a game without undo that got stuck).
    """

    events: list[int | str]
    record: dict[str, Any]


class Bot:
    """A player model on one deal: its winnability and chances of each position seen, kept between attempts."""

    def __init__(self, deal: Deal, player: Player) -> None:
        self.deal, self.player = deal, player
        self._winnable: dict[tuple[tuple[int, ...], int | None], bool] = {}
        self._chances: dict[tuple[tuple[int, ...], int | None], list[tuple[int, float]]] = {}

    def winnable(self, position: Position) -> bool:
        """Whether a win exists from ``position``, by the exact solver (each position asked once)."""
        key = (position.heights, position.foundation_rank)
        if key not in self._winnable:
            result = solve(self.deal, start=position, max_nodes=BOT_MAX_NODES)
            if result.verdict is Verdict.UNKNOWN:
                raise RuntimeError(f"the solver could not tell whether {key} can be won")
            self._winnable[key] = result.verdict is Verdict.SOLVED
        return self._winnable[key]

    def choose(self, position: Position, rng: random.Random) -> int:
        """A legal move of ``position`` drawn from the model's policy: the first whose chances so far pass one draw."""
        key = (position.heights, position.foundation_rank)
        if key not in self._chances:
            self._chances[key] = [
                (move, chance) for move, chance in policy(self.player, position).items() if chance > 0
            ]
        chances = self._chances[key]
        draw, cumulative = rng.random(), 0.0
        for move, chance in chances:
            cumulative += chance
            if draw < cumulative:
                return move
        return chances[-1][0]  # a draw past the sum's rounding

    def attempt(self, rng: random.Random, *, undo: bool = True) -> BotAttempt:
        """One attempt from the opening: with ``undo`` until won; without, one game until won or stuck.

        With undo, each move from a position a win exists from is checked by the solver (once per
        position and move): after a move that loses, every later position of the game is lost too, so the
        last winnable position of the path is known without asking again at each dead end.
        """
        start = Position.start(self.deal)
        if undo and not self.winnable(start):
            raise ValueError("a bot plays with undo only a deal that can be won")
        path, events = [start], list[int | str]()
        last_winnable = 0  # the index in ``path`` of the last position a win exists from
        moves = dead_ends = 0
        while not path[-1].is_won:
            if not path[-1].legal_moves():
                dead_ends += 1
                if not undo:
                    break
                events += ["undo"] * (len(path) - 1 - last_winnable)
                del path[last_winnable + 1 :]
                continue
            move = self.choose(path[-1], rng)
            path.append(path[-1].play(move))
            events.append(move)
            moves += 1
            if undo and last_winnable == len(path) - 2 and self.winnable(path[-1]):
                last_winnable += 1
        won = path[-1].is_won
        undos = events.count("undo")
        record = {
            "moves": moves,
            "undos": undos,
            "redos": 0,
            "restarts": 0,
            "hints": 0,
            "dead_ends": dead_ends,
            "cards_played": path[-1].cards_played,
            "clean": won and undos == 0,
            "outcome": "won" if won else "stuck",
        }
        return BotAttempt(events, record)


@functools.lru_cache(maxsize=64)
def bot(deal: Deal, player: Player) -> Bot:
    """The bot of ``player`` on ``deal``, the same one each time asked (so what it worked out is kept)."""
    return Bot(deal, player)


def play_attempt(deal: Deal, player: Player, rng: random.Random, *, undo: bool = True) -> BotAttempt:
    """One attempt of ``player`` on ``deal``, each move drawn with ``rng``: with ``undo`` (the default) back
    to the last winnable position at each dead end, until won; without, one game until won or stuck."""
    return bot(deal, player).attempt(rng, undo=undo)


def attempt_record(
    attempt: BotAttempt,
    *,
    attempt_id: str,
    started: str,
    ended: str,
    seconds: float,
    mode: str = "relaxed",
    timed: bool = False,
    move_limit: int | None = None,
) -> dict[str, Any]:
    """``attempt`` as an attempt of an export file of version 2 (docs/schema.md, "Play records"), with these
    times, played in ``mode`` (``relaxed`` or ``one_attempt``: then without undo), ``timed`` and with the
    ``move_limit``."""
    if mode == "one_attempt" and "undo" in attempt.events:
        raise ValueError("a one-attempt game holds no undo: play the bot without undo")
    return {
        "id": attempt_id,
        "started": started,
        "ended": ended,
        "seconds": seconds,
        "outcome": attempt.record["outcome"],
        "events": list(attempt.events),
        **{key: value for key, value in attempt.record.items() if key != "outcome"},
        "mode": mode,
        "timed": timed,
        "move_limit": move_limit,
    }
