"""The golden cases of the gallery's JavaScript unit tests, written by the Python side.

The page plays by solver.js's rules and answers hints with its search; the Node tests
(``tests/js/*.test.js``, run by ``node --test tests/js/``) check both against what the
referee (:mod:`pipeline.game.rules`) and the exact solver (:mod:`pipeline.engine.solver`)
say about the same positions, read from ``tests/js/golden/*.json``:

- ``rules.json``: positions along random play of a few seeded deals, each with its
  pile heights, the foundation's rank, the legal moves and whether it is won, stuck or
  still in play;
- ``solver.json``: positions along those lines and the deals' solutions, each with its
  verdict, the moves that keep a win in reach, and the hint's fewest moves to take back.

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
from pipeline.game.deal import EXAMPLE_BOARD, Deal
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict
from pipeline.reports.gallery import cards_text

GOLDEN = Path(__file__).with_name("golden")
SEED = 2026  # the deals: seeded_deal(SEED, index) for INDICES
INDICES = (0, 1, 2, 3, 4, 5)
PLAY_SEED = 24  # random play along each deal: random.Random(PLAY_SEED + index)
MAX_NODES = 2_000_000  # every position here is settled far below it


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
    cases = []
    for name, deal, line in lines():
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
                    "winning_moves": [
                        move for move in position.legal_moves() if winnable(deal, [*moves, move])
                    ],
                    "undo": undo,
                }
            )
    return cases


def golden_files() -> dict[str, str]:
    """The golden files' names and texts: one case a line, so a change reads as a small diff."""

    def text(cases: list[dict[str, Any]]) -> str:
        return "[\n" + ",\n".join(json.dumps(case, separators=(", ", ": ")) for case in cases) + "\n]\n"

    return {"rules.json": text(rules_cases()), "solver.json": text(solver_cases())}


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for name, content in golden_files().items():
        (GOLDEN / name).write_text(content, encoding="utf-8")
        print(f"wrote {GOLDEN / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
