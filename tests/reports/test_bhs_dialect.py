"""``--format bhs`` against black-hole-solver's own expected outputs (tests/data/black_hole_solver/README.md).

A verdict line, an unsolved board's whole text and the layout of every line
are compared exactly; the two counters carry our nodes, not its states, so
their figures are not. Where both solvers win, each may find another win,
equally valid: the moves are then replayed by the rules from our text, and
the number of moves and the layout compared with its text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.engine.solver import solve
from pipeline.errors import ExitCode
from pipeline.game.cards import parse_card
from pipeline.game.deal import Deal
from pipeline.game.games import Game, game_named
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict
from pipeline.reports.bhs_dialect import EXIT_CODES, bhs_file_block, bhs_text

DATA = Path(__file__).resolve().parent.parent / "data" / "black_hole_solver"
COUNTERS = re.compile(r"Total number of states checked is \d+\.\nThis scan generated \d+ states\.\n\Z")
MOVE = re.compile(
    r"(Move a card from stack (\d+) to the foundations|Deal talon)\n\nInfo: Card moved is ([A2-9TJQK][HCDS])"
    r"\n\n\n====================\n\n"
)
# black-hole-solver's options and our games (see the README beside the data)
CASES = [
    ("1.bh", "black_hole"),
    ("26464608654870335080.bh", "black_hole"),
    ("24.all_in_a_row", "all_in_a_row"),
    ("2.golf", "dead_king_golf"),
]
TALON_906 = "6D KC KS AH AC KD 4S 8D 8H JD TC AD QH 4C JS 2C".split()  # black-hole-output.t


def _ours(name: str, game: Game) -> tuple[Deal, str]:
    deal = Deal.from_board_text((DATA / f"{name}.board.txt").read_text(), game=game)
    return deal, bhs_text(deal, solve(deal, longest_play=False))


def _uncounted(text: str) -> str:
    """``text`` with the two counter lines cut, as black-hole-solver's own Golf test cuts them."""
    return COUNTERS.sub("", text)


def _moves(text: str) -> list[tuple[int | None, str]]:
    """The moves of a ``Solved!`` text, (pile or None for the talon, card), checking that nothing else is there."""
    body = text.removeprefix("Solved!\n").removesuffix("\n\n--------------------\n")
    found = [(int(pile) if pile else None, card) for _, pile, card in MOVE.findall(body)]
    assert MOVE.sub("", body) == "", "a line out of black-hole-solver's layout"
    return found


@pytest.mark.parametrize(("name", "game"), CASES)
def test_the_verdict_line_and_the_layout_are_black_hole_solvers(name, game):
    expected = _uncounted((DATA / f"{name}.sol.txt").read_text())
    deal, ours = _ours(name, game_named(game))
    assert COUNTERS.search(ours), ours[-200:]
    ours = _uncounted(ours)
    assert ours.splitlines()[0] == expected.splitlines()[0]
    if expected.startswith("Unsolved!"):
        assert ours == expected  # every byte but the counters' figures
        return
    theirs, mine = _moves(expected), _moves(ours)
    assert len(mine) == len(theirs) or deal.game.has_talon  # a Golf win may leave talon cards undealt
    position = Position.start(deal)
    for pile, card in mine:  # our win, replayed by the rules, card by card as the Info lines say
        move = deal.game.talon_move if pile is None else pile
        if pile is None:
            assert deal.talon[position.talon_dealt] == parse_card(card)
        else:
            assert position.top_card(pile) == parse_card(card)
        position = position.play(move)
    assert position.cards_played == deal.game.pile_cards or position.is_won


def test_an_unsolved_board_is_its_text_exactly_but_our_counts():
    deal, ours = _ours("1.bh", game_named("black_hole"))
    nodes = solve(deal, longest_play=False).nodes
    expected = (DATA / "1.bh.sol.txt").read_text().replace(" 8", f" {nodes}")
    assert ours == expected


def test_a_board_with_no_move_is_unsolved():
    _, ours = _ours("black_hole_27.bh", game_named("black_hole"))
    assert ours.startswith("Unsolved!\n\n\n--------------------\n")


def test_golf_906_deals_the_talon_in_black_hole_solvers_order():
    _, ours = _ours("906.golf", game_named("relaxed_golf"))
    dealt = [card for pile, card in _moves(_uncounted(ours)) if pile is None]
    assert dealt == TALON_906[: len(dealt)] and dealt


def test_golf_boards_1_to_20_have_black_hole_solvers_verdicts():
    game = game_named("relaxed_golf")  # its --game golf --wrap-ranks
    lines = []
    for number in range(1, 21):
        deal = Deal.from_board_text((DATA / f"golf{number}.board").read_text(), game=game)
        lines.append(bhs_text(deal, solve(deal, longest_play=False)).splitlines()[0])
    assert lines == ["Solved!"] * 10 + ["Unsolved!"] + ["Solved!"] * 9


def test_exit_codes_are_black_hole_solvers():
    assert {verdict: int(code) for verdict, code in EXIT_CODES.items()} == {
        Verdict.SOLVED: 0,
        Verdict.UNSOLVABLE: 255,
        Verdict.UNKNOWN: 254,
    }
    assert ExitCode.BHS_UNSOLVED == 255 and ExitCode.BHS_INTRACTABLE == 254


def test_an_intractable_board_says_so():
    deal = Deal.from_board_text((DATA / "26464608654870335080.bh.board.txt").read_text())
    result = solve(deal, max_nodes=5)
    assert bhs_text(deal, result) == (
        "Intractable!\n\n\n--------------------\nTotal number of states checked is 5.\nThis scan generated 5 states.\n"
    )


def test_the_multi_board_wrapping_is_multi_bhs_solvers():
    """The lines golf-1to20.sol.txt of black-hole-solver's tests has around each file's output."""
    assert bhs_file_block("golf1.board", "Solved!\n").splitlines() == [
        "[= Starting file golf1.board =]",
        "Solved!",
        "[= END of file golf1.board =]",
    ]
