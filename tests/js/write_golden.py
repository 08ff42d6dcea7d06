"""The golden cases of the gallery's JavaScript unit tests, written by the Python side.

The page plays by solver.js's rules and answers hints with its search; the Node tests
(``tests/js/*.test.js``, run by ``node --test tests/js/``) check both against what the
referee (:mod:`pipeline.game.rules`) and the exact solver (:mod:`pipeline.engine.solver`)
say about the same positions, read from ``tests/js/golden/*.json``:

- ``rules.json``: positions along random play of a few seeded deals, each with its
  pile heights, the foundation's rank, the legal moves and whether it is won, stuck or
  still in play;
- ``solver.json``: positions along those lines and the deals' solutions, each with its
  verdict, the moves that keep a win in reach, and the hint's fewest moves to take back;
- ``plays.json``: attempts as the play records write their events (cards, undo, redo,
  restart, hint; seeded random play, and the solutions with detours), each with what
  :func:`pipeline.plays.events.replay_events` counts of them, or the number of the first
  event it refuses;
- ``family_rules.json`` and ``family_solver.json``: the same as ``rules.json`` and
  ``solver.json`` for the other games of the family (All in a Row and the three Golfs), each
  case naming its game, with the talon cards dealt and the foundation's rank (null while All
  in a Row's is empty); a move is a pile or, in Golf, the talon deal (7);
- ``family_verdicts.json``: the exact solver's verdict on PySol FC's deals 1 to 20 of each of
  those games, from the start.

``make golden`` (``python tests/js/write_golden.py``) writes them; the files are
committed, and ``tests/js/test_golden.py`` checks that they equal what this script
writes now, so they cannot go stale.

>>> cases = rules_cases()
>>> cases[0]["moves"], cases[0]["status"]
([], 'playing')
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from pipeline.engine.solver import solve
from pipeline.game.deal import EXAMPLE_BOARD, NUM_PILES, Deal
from pipeline.game.games import BLACK_HOLE, GAMES, Game
from pipeline.game.rules import Position
from pipeline.game.shuffles import pysol_deal, seeded_deal
from pipeline.game.verdicts import Verdict
from pipeline.plays.events import Action, Event, ReplayError, replay_events
from pipeline.reports.gallery import cards_text

GOLDEN = Path(__file__).with_name("golden")
SEED = 2026  # the deals: seeded_deal(SEED, index) for INDICES
INDICES = (0, 1, 2, 3, 4, 5)
PLAY_SEED = 24  # random play along each deal: random.Random(PLAY_SEED + index)
MAX_NODES = 2_000_000  # every position here is settled far below it
EVENTS_SEED = 2024  # the play records' random events: random.Random(EVENTS_SEED + order)
EVENTS_LENGTH = 90  # events of a random attempt, at most
EVENT_WEIGHTS = {"card": 0.65, "undo": 0.15, "redo": 0.08, "restart": 0.06, "hint": 0.06}
FAMILY = tuple(game for game in GAMES if game is not BLACK_HOLE)
FAMILY_INDICES = (0, 3, 5)  # seeded_deal(SEED, index, game): a lost deal and two won in each but Relaxed Golf
VERDICT_DEALS = range(1, 21)  # PySol FC's deals of each other game whose verdicts family_verdicts.json holds


def deals() -> list[tuple[str, Deal]]:
    """The golden deals by name: a few seeded deals and PySol FC's deal 1 (lost after 3 cards)."""
    named = [(f"seed-{SEED}-{index}", seeded_deal(SEED, index)) for index in INDICES]
    return [*named, ("pysol-1", Deal.from_board_text(EXAMPLE_BOARD))]


def random_line(deal: Deal, rng: random.Random) -> list[int]:
    """A random game of ``deal`` played until no move is left (won or stuck)."""
    position, moves = Position.start(deal), []
    while legal := position.legal_moves():
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def lines() -> list[tuple[str, Deal, list[int]]]:
    """Each golden deal with its lines of play: a random game, and the solution where there is one."""
    found = []
    for order, (name, deal) in enumerate(deals()):
        found.append((name, deal, random_line(deal, random.Random(PLAY_SEED + order))))
        result = solve(deal, max_nodes=MAX_NODES)
        if result.verdict is Verdict.SOLVED:
            found.append((name, deal, list(result.solution)))
    return found


def prefixes(line: list[int]) -> list[int]:
    """The lengths of the prefixes of ``line`` to ask about: the start, a few inside, the end."""
    return sorted(
        {0, 1, len(line) // 4, len(line) // 2, (3 * len(line)) // 4, len(line) - 1, len(line)} - {-1}
    )


def status(position: Position) -> str:
    """As the page says it: "won", "stuck" (cards left, no legal move) or "playing"."""
    if position.is_won:
        return "won"
    return "playing" if position.legal_moves() else "stuck"


def rules_cases() -> list[dict[str, Any]]:
    """Positions with what the referee says about them."""
    cases = []
    for name, deal, line in lines():
        for length in prefixes(line):
            position = Position.after(deal, line[:length])
            cases.append(
                {
                    "deal": name,
                    "cards": cards_text(deal),
                    "moves": line[:length],
                    "heights": list(position.heights),
                    "foundation_rank": position.foundation_rank,
                    "legal": list(position.legal_moves()),
                    "status": status(position),
                }
            )
    return cases


def winnable(deal: Deal, moves: list[int]) -> bool:
    result = solve(deal, start=Position.after(deal, moves), max_nodes=MAX_NODES)
    if result.verdict is Verdict.UNKNOWN:
        raise RuntimeError(f"the solver's budget ran out after {moves}: choose easier golden positions")
    return result.verdict is Verdict.SOLVED


def solver_cases() -> list[dict[str, Any]]:
    """Positions not yet won with the exact solver's verdict, the legal moves that keep a win in reach,
    and the fewest moves to take back to a position that can be won (None when not even the start can)."""
    return [case for name, deal, line in lines() for case in _solver_cases(name, deal, line)]


def _solver_cases(name: str, deal: Deal, line: list[int]) -> list[dict[str, Any]]:
    """:func:`solver_cases`' cases of the positions along the prefixes of ``line``, in ``deal`` named ``name``."""
    cases = []
    for length in prefixes(line):
        moves = line[:length]
        position = Position.after(deal, moves)
        if position.is_won:
            continue
        verdict = winnable(deal, moves)
        undo = next((k for k in range(len(moves) + 1) if winnable(deal, moves[: len(moves) - k])), None)
        cases.append(
            {
                "deal": name,
                "cards": cards_text(deal),
                "moves": moves,
                "verdict": Verdict.SOLVED.value if verdict else Verdict.UNSOLVABLE.value,
                "winning_moves": [move for move in position.legal_moves() if winnable(deal, [*moves, move])],
                "undo": undo,
            }
        )
    return cases


def random_events(deal: Deal, rng: random.Random) -> list[Event]:
    """Random play with every kind of event, each drawn by :data:`EVENT_WEIGHTS` (the first that applies of
    that kind, else of any), until the win, :data:`EVENTS_LENGTH` events, or only a hint is left. The steps
    are followed here only to draw events that apply; replay_events, the referee, counts them."""
    start = Position.start(deal)
    history, at = [start], 0  # history[at]: the position; later ones can be redone
    events: list[Event] = []
    actions = [action.value for action in Action]

    def applies(event: Event) -> bool:
        if event == Action.UNDO.value:
            return at > 0
        if event == Action.REDO.value:
            return at < len(history) - 1
        if event == Action.RESTART.value:
            return history[at].cards_played > 0
        return event == Action.HINT.value or event in history[at].legal_moves()

    while len(events) < EVENTS_LENGTH and not history[at].is_won:
        kind = rng.choices(list(EVENT_WEIGHTS), weights=list(EVENT_WEIGHTS.values()))[0]
        piles: list[Event] = list(rng.sample(range(NUM_PILES), NUM_PILES))
        choices = [*piles, *actions] if kind == "card" else [kind, *piles, *actions]
        event = next(event for event in choices if applies(event))
        events.append(event)
        if event == Action.HINT.value and kind != event:
            break  # stuck at the opening: nothing but a hint is left
        if event in (Action.UNDO.value, Action.REDO.value):
            at += -1 if event == Action.UNDO.value else 1
        elif event != Action.HINT.value:
            after = start if event == Action.RESTART.value else history[at].play(int(event))
            del history[at + 1 :]
            history.append(after)
            at += 1
    return events


def detours(solution: list[int], rng: random.Random) -> list[Event]:
    """``solution`` played to the win with detours that replay: a hint, an undo and redo, a restart taken back."""
    events: list[Event] = []
    for step, pile in enumerate(solution):
        events.append(pile)
        if step in (0, len(solution) // 2):
            events += ["undo", "redo"]
        elif step == len(solution) // 3:
            events += ["restart", "undo", "hint", "undo", "undo", "redo", "redo"]
        elif rng.random() < 0.05:
            events.append("hint")
    return events


def refused(deal: Deal, events: list[Event]) -> int:
    """The number (from 1) of the first event of ``events`` that replay_events refuses."""
    try:
        replay_events(deal, events)
    except ReplayError as error:
        return int(str(error).split()[1])
    raise AssertionError(f"{events} replay")


def plays_cases() -> list[dict[str, Any]]:
    """Attempts' events with what replaying them counts (the export's fields), and events refused."""
    cases = []
    for order, (name, deal) in enumerate(deals()):
        rng = random.Random(EVENTS_SEED + order)
        lines = [random_events(deal, rng), random_events(deal, rng)]
        result = solve(deal, max_nodes=MAX_NODES)
        if result.verdict is Verdict.SOLVED:
            lines.append(detours(list(result.solution), rng))
        for events in lines:
            tally = replay_events(deal, events)
            counts = {
                **tally.counts(),
                "won": tally.won,
                "stuck": tally.stuck,
            }
            cases.append({"deal": name, "cards": cards_text(deal), "events": events, "counts": counts})
        legal = Position.start(deal).legal_moves()
        illegal = next(pile for pile in range(NUM_PILES) if pile not in legal)
        bad: list[list[Event]] = [["undo"], ["redo"], ["restart"], [illegal], [NUM_PILES], ["hint", "jump"]]
        if legal:
            bad += [[legal[0], "undo", "redo", "redo"], [legal[0], "restart", "restart"]]
        if result.verdict is Verdict.SOLVED:
            bad.append([*result.solution, "undo"])  # nothing after the win
        for events in bad:
            cases.append(
                {"deal": name, "cards": cards_text(deal), "events": events, "refused": refused(deal, events)}
            )
    return cases


def family_deals() -> list[tuple[Game, str, Deal]]:
    """The other games' golden deals: each game's seeded deals and PySol FC's deal 1."""
    found = []
    for game in FAMILY:
        found += [(game, f"seed-{SEED}-{index}", seeded_deal(SEED, index, game)) for index in FAMILY_INDICES]
        found.append((game, "pysol-1", pysol_deal(1, game)))
    return found


def family_lines() -> list[tuple[Game, str, Deal, list[int]]]:
    """Each of :func:`family_deals` with its lines of play: a random game, and the solution where there is one."""
    found = []
    for order, (game, name, deal) in enumerate(family_deals()):
        found.append((game, name, deal, random_line(deal, random.Random(PLAY_SEED + order))))
        result = solve(deal, max_nodes=MAX_NODES)
        if result.verdict is Verdict.SOLVED:
            found.append((game, name, deal, list(result.solution)))
    return found


def family_rules_cases() -> list[dict[str, Any]]:
    """Positions of the other games with what the referee says about them."""
    cases = []
    for game, name, deal, line in family_lines():
        for length in prefixes(line):
            position = Position.after(deal, line[:length])
            cases.append(
                {
                    "game": game.name,
                    "deal": name,
                    "cards": cards_text(deal),
                    "moves": line[:length],
                    "heights": list(position.heights),
                    "foundation_rank": position.foundation_rank,
                    "talon_dealt": position.talon_dealt,
                    "legal": list(position.legal_moves()),
                    "status": status(position),
                }
            )
    return cases


def family_solver_cases() -> list[dict[str, Any]]:
    """As :func:`solver_cases`, for the positions of :func:`family_lines`, each naming its game first."""
    return [
        {"game": game.name, **case}
        for game, name, deal, line in family_lines()
        for case in _solver_cases(name, deal, line)
    ]


def family_verdict_cases() -> list[dict[str, Any]]:
    """PySol FC's deals :data:`VERDICT_DEALS` of each other game with the exact solver's verdict from the start."""
    cases = []
    for game in FAMILY:
        for number in VERDICT_DEALS:
            deal = pysol_deal(number, game)
            verdict = solve(deal, max_nodes=MAX_NODES).verdict
            if verdict is Verdict.UNKNOWN:
                raise RuntimeError(f"{game.name} pysol-{number}: the solver's budget ran out")
            cases.append(
                {
                    "game": game.name,
                    "deal": f"pysol-{number}",
                    "cards": cards_text(deal),
                    "verdict": verdict.value,
                }
            )
    return cases


def golden_files() -> dict[str, str]:
    """The golden files' names and texts: one case a line, so a change reads as a small diff."""

    def text(cases: list[dict[str, Any]]) -> str:
        return "[\n" + ",\n".join(json.dumps(case, separators=(", ", ": ")) for case in cases) + "\n]\n"

    return {
        "rules.json": text(rules_cases()),
        "solver.json": text(solver_cases()),
        "plays.json": text(plays_cases()),
        "family_rules.json": text(family_rules_cases()),
        "family_solver.json": text(family_solver_cases()),
        "family_verdicts.json": text(family_verdict_cases()),
    }


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for name, content in golden_files().items():
        (GOLDEN / name).write_text(content, encoding="utf-8")
        print(f"wrote {GOLDEN / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
