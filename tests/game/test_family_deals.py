"""Deals of All in a Row and Golf and their board text: the exact text form, round trips, Golf's
Talon line on either side of the Foundations line, and bad boards refused with one error naming the
source, the line and the problem (a board of one game read as another's among them)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS, card_name, parse_card
from pipeline.game.deal import EXAMPLE_BOARD, BoardError, Deal, iter_boards, read_boards
from pipeline.game.games import (
    ALL_IN_A_ROW,
    BLACK_HOLE,
    DEAD_KING_GOLF,
    GOLF,
    RELAXED_GOLF,
    game_named,
)
from tests.strategies import family_boards, family_deals
from tests.support.boards import SOURCE, assert_names, board_error, edited
from tests.support.family import ALL_IN_A_ROW_1, FAMILY, FAMILY_NAMES, GOLF_1, GOLF_NAMES, GOLFS

ALL_IN_A_ROW_LINES = ALL_IN_A_ROW_1.splitlines()  # line n of the board is LINES[n - 1]
GOLF_LINES = GOLF_1.splitlines()


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(word) for word in text.split())


# --- the text form ---------------------------------------------------------------------------------


def test_all_in_a_row_board_reads_thirteen_piles_of_four_under_an_empty_foundation():
    deal = Deal.from_board_text(ALL_IN_A_ROW_1, game=ALL_IN_A_ROW)
    assert deal.game is ALL_IN_A_ROW
    assert deal.foundation is None and deal.talon == ()
    assert len(deal.piles) == 13 and {len(pile) for pile in deal.piles} == {4}
    assert deal.piles[0] == cards("JD QC QH 6D")
    assert deal.top_card(12) == ACE_OF_SPADES
    assert sorted(deal.cards()) == list(range(NUM_CARDS))


def test_all_in_a_row_text_is_an_empty_foundation_then_thirteen_lines_of_four():
    lines = Deal.from_board_text(ALL_IN_A_ROW_1, game=ALL_IN_A_ROW).to_board_text().splitlines()
    assert lines[0] == "Foundations: -"
    assert len(lines) == 14 and all(len(line.split()) == 4 for line in lines[1:])


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_golf_board_reads_talon_foundation_and_seven_piles_of_five(game):
    deal = Deal.from_board_text(GOLF_1, game=game)
    assert deal.game is game
    assert deal.talon == cards("8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H")
    assert card_name(deal.foundation) == "TH"
    assert len(deal.piles) == 7 and {len(pile) for pile in deal.piles} == {5}
    assert deal.piles[6] == cards("7C QC JS QH 4S")
    assert card_name(deal.top_card(0)) == "4H"
    assert sorted(deal.cards()) == list(range(NUM_CARDS))


def test_golf_text_is_a_talon_of_sixteen_a_foundation_card_then_seven_lines_of_five():
    lines = Deal.from_board_text(GOLF_1, game=GOLF).to_board_text().splitlines()
    assert lines[0].startswith("Talon: ") and len(lines[0].split()) == 1 + 16
    assert lines[1] == "Foundations: TH"
    assert len(lines) == 9 and all(len(line.split()) == 5 for line in lines[2:])


@pytest.mark.parametrize(
    ("game", "text"),
    [(ALL_IN_A_ROW, ALL_IN_A_ROW_1), (DEAD_KING_GOLF, GOLF_1), (GOLF, GOLF_1), (RELAXED_GOLF, GOLF_1)],
    ids=FAMILY_NAMES,
)
def test_golden_boards_round_trip_exactly(game, text):
    assert Deal.from_board_text(text, game=game).to_board_text() == text


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_golf_talon_line_is_accepted_after_the_foundations_line(game):
    swapped = "\n".join([GOLF_LINES[1], GOLF_LINES[0], *GOLF_LINES[2:]]) + "\n"
    deal = Deal.from_board_text(swapped, game=game)
    assert deal == Deal.from_board_text(GOLF_1, game=game)
    assert deal.to_board_text() == GOLF_1  # written back talon first


def test_the_three_golf_rule_sets_read_the_same_board_as_different_deals():
    deals = [Deal.from_board_text(GOLF_1, game=game) for game in GOLFS]
    assert len({deal.cards() for deal in deals}) == 1
    assert len(set(deals)) == 3  # the game is part of the deal


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_repr_reads_like_the_call_that_builds_it(game):
    deal = Deal.from_cards(range(NUM_CARDS), game)
    assert repr(deal).startswith("Deal.from_board_text(")
    assert repr(deal).endswith(f", game=game_named({game.name!r}))")
    assert eval(repr(deal), {"Deal": Deal, "game_named": game_named}) == deal


def test_board_text_spellings_of_the_talon_and_foundation():
    text = GOLF_1.replace("Talon: 8H 2C", "talon:\t8♥  2c").replace("Foundations: TH", "Foundation: 10h")
    assert Deal.from_board_text(text, game=GOLF) == Deal.from_board_text(GOLF_1, game=GOLF)


# --- from_cards and cards() --------------------------------------------------------------------------


def test_from_cards_lays_out_all_in_a_row_four_a_pile():
    deal = Deal.from_cards(range(NUM_CARDS), ALL_IN_A_ROW)
    assert deal.piles[0] == (0, 1, 2, 3) and deal.piles[12] == (48, 49, 50, 51)
    assert deal.foundation is None and deal.talon == ()


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_from_cards_lays_out_golf_five_a_pile_then_the_foundation_then_the_talon(game):
    deal = Deal.from_cards(range(NUM_CARDS), game)
    assert deal.piles[0] == (0, 1, 2, 3, 4) and deal.piles[6] == (30, 31, 32, 33, 34)
    assert deal.foundation == 35
    assert deal.talon == tuple(range(36, 52))


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_from_cards_then_cards_gives_the_cards_back(game):
    shuffled = tuple(reversed(range(NUM_CARDS)))
    assert Deal.from_cards(shuffled, game).cards() == shuffled


@pytest.mark.parametrize(
    ("game", "dealt", "problem"),
    [
        (ALL_IN_A_ROW, tuple(range(51)), "pile 12 has 3 cards, expected 4"),
        (ALL_IN_A_ROW, (*range(51), 0), "duplicate card AH"),
        (ALL_IN_A_ROW, (*range(51), 52), "pile 12 holds 52, which is not a card"),
        (ALL_IN_A_ROW, tuple(range(48)), "expected 13 piles, found 12"),
        (GOLF, tuple(range(51)), "the talon has 15 cards, expected 16"),
        (GOLF, (*range(52), 0), "the talon has 17 cards, expected 16"),
        (GOLF, tuple(range(35)), "a Golf deal starts with a card on the foundation"),
        (DEAD_KING_GOLF, tuple(range(35)), "a Dead King Golf deal starts with a card on the foundation"),
        (GOLF, (*range(51), 3), "duplicate card AS"),
        (GOLF, (*range(35), 0, *range(36, 52)), "pile 0 holds AH, which is the foundation"),
        (GOLF, (*range(35), 35, *range(36, 51), 35), "the talon holds 9S, which is the foundation"),
        (GOLF, (*range(35), 3, *range(36, 52)), "pile 0 holds AS, which is the foundation"),
        (RELAXED_GOLF, (*range(51), -1), "the talon holds -1, which is not a card"),
    ],
)
def test_from_cards_refuses_what_is_not_a_deal(game, dealt, problem):
    with pytest.raises(BoardError) as caught:
        Deal.from_cards(dealt, game)
    assert caught.value.problem == problem


def test_an_all_in_a_row_deal_with_a_card_on_the_foundation_is_refused():
    piles = Deal.from_cards(range(NUM_CARDS), ALL_IN_A_ROW).piles
    with pytest.raises(BoardError, match="^<board>: an All in a Row deal starts with an empty foundation$"):
        Deal(piles, ALL_IN_A_ROW)  # the foundation defaults to Black Hole's AS


def test_a_black_hole_deal_with_a_talon_is_refused():
    with pytest.raises(BoardError, match="the talon has 1 cards, expected 0"):
        Deal(Deal.from_board_text(EXAMPLE_BOARD).piles, BLACK_HOLE, ACE_OF_SPADES, (ACE_OF_SPADES,))


# --- properties ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@given(data=st.data())
def test_deal_board_text_deal_round_trip(game, data):
    deal = data.draw(family_deals(game))
    text = deal.to_board_text()
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert len(text.splitlines()) == (9 if game.has_talon else 14)
    assert Deal.from_board_text(text, game=game) == deal
    assert Deal.from_board_text(text, game=game).to_board_text() == text


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@given(data=st.data())
def test_cards_and_from_cards_are_inverse(game, data):
    deal = data.draw(family_deals(game))
    assert sorted(deal.cards()) == list(range(NUM_CARDS))
    assert Deal.from_cards(deal.cards(), game) == deal


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@given(data=st.data())
def test_variant_spellings_and_talon_placement_parse_to_the_same_deal(game, data):
    deal, text = data.draw(family_boards(game))
    assert Deal.from_board_text(text, game=game) == deal


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@given(data=st.data())
def test_multi_board_files_parse_in_order(game, data):
    found = [data.draw(family_deals(game)) for _ in range(3)]
    text = "\n \n".join(deal.to_board_text() for deal in found)
    assert list(iter_boards(text, source=SOURCE, game=game)) == found


# --- files -------------------------------------------------------------------------------------------


def test_read_boards_of_a_game_from_a_file(tmp_path):
    path = tmp_path / "golf.txt"
    second = Deal.from_cards(range(NUM_CARDS), GOLF)
    path.write_text(GOLF_1 + "\n" + second.to_board_text(), encoding="utf-8")
    assert read_boards(path, GOLF) == [Deal.from_board_text(GOLF_1, game=GOLF), second]


def test_read_boards_names_the_file_and_line_of_a_family_board(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(edited(ALL_IN_A_ROW_LINES, 4, "9H 3H AC")) + "\n", encoding="utf-8")
    with pytest.raises(BoardError) as caught:
        read_boards(path, ALL_IN_A_ROW)
    assert str(caught.value) == f"{path}:4: pile 2 has 3 cards, expected 4"


def test_errors_in_a_second_golf_board_name_the_file_line():
    second = edited(GOLF_LINES, 5, "9H KC 2S 3C")  # line 5 of the second board is line 15 of the file
    error = board_error([*GOLF_LINES, "", *second], GOLF)
    assert_names(error, 15, "pile 2 has 4 cards, expected 5")


# --- bad boards: one error naming the source, the line and the problem -------------------------------

TALON = GOLF_LINES[0]
GOLF_FOUNDATION = GOLF_LINES[1]
BLACK_HOLE_LINES = EXAMPLE_BOARD.splitlines()


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (edited(GOLF_LINES, 1, TALON.rsplit(" ", 1)[0]), 1, "the talon has 15 cards, expected 16"),
        (edited(GOLF_LINES, 1, TALON + " AD"), 1, "the talon has 17 cards, expected 16"),
        (edited(GOLF_LINES, 1, "Talon:"), 1, "the talon has 0 cards, expected 16"),
        (
            edited(GOLF_LINES, 3, "JD 5H KH AS 8H"),  # 8H is the talon's first card
            3,
            "duplicate card 8H (also on line 1)",
        ),
        (edited(GOLF_LINES, 1, TALON.replace("2C", "8H")), 1, "duplicate card 8H (also on line 1)"),
        (edited(GOLF_LINES, 3, "JD 5H KH AS TH"), 3, "duplicate card TH (also on line 2)"),
        (edited(GOLF_LINES, 4, "2D KD 3H AH"), 4, "pile 1 has 4 cards, expected 5"),
        (edited(GOLF_LINES, 4, "2D KD 3H AH AC 6H"), 4, "pile 1 has 6 cards, expected 5"),
        (edited(GOLF_LINES, 9, None), 8, "expected 7 piles, found 6"),
        ([*GOLF_LINES, "2H 3H 4H 5H 6H"], 10, "expected 7 piles, found 8 or more"),
        (
            edited(GOLF_LINES, 2, None),
            2,
            "no 'Foundations:' line before the piles: a {title} board starts with a 'Talon:' and a "
            "'Foundations:' line, found 'JD 5H KH AS 4H'",
        ),
        (
            edited(GOLF_LINES, 1, None),
            2,
            "no 'Talon:' line before the piles: a {title} board starts with a 'Talon:' and a "
            "'Foundations:' line, found 'JD 5H KH AS 4H'",
        ),
        ([TALON, *GOLF_LINES], 2, "a second Talon line"),
        ([*GOLF_LINES[:2], TALON, *GOLF_LINES[2:]], 3, "a second Talon line"),
        ([*GOLF_LINES[:4], TALON, *GOLF_LINES[4:]], 5, "a second Talon line"),
        ([TALON, GOLF_FOUNDATION, GOLF_FOUNDATION, *GOLF_LINES[2:]], 3, "a second Foundations line"),
        (
            edited(GOLF_LINES, 2, "Foundations: -"),
            2,
            "an empty foundation, as in All in a Row: a {title} deal starts with a card on the foundation",
        ),
        (edited(GOLF_LINES, 2, "Foundations: TH 9D"), 2, "the foundation line must name exactly one card"),
        (edited(GOLF_LINES, 2, "Foundations: TX"), 2, "unknown card 'TX'"),
        (
            ALL_IN_A_ROW_LINES,  # an All in a Row board read as Golf
            2,
            "no 'Talon:' line before the piles: a {title} board starts with a 'Talon:' and a "
            "'Foundations:' line, found 'JD QC QH 6D'",
        ),
        (
            BLACK_HOLE_LINES,  # a Black Hole board read as Golf
            2,
            "no 'Talon:' line before the piles: a {title} board starts with a 'Talon:' and a "
            "'Foundations:' line, found 'JD KS TH'",
        ),
    ],
)
def test_bad_golf_boards(game, lines, line, message):
    error = board_error(lines, game)
    assert_names(error, line)
    assert error.problem == message.format(title=game.title)


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (edited(ALL_IN_A_ROW_LINES, 4, "9H 3H AC"), 4, "pile 2 has 3 cards, expected 4"),
        (edited(ALL_IN_A_ROW_LINES, 4, "9H 3H AC 8D 2H"), 4, "pile 2 has 5 cards, expected 4"),
        (edited(ALL_IN_A_ROW_LINES, 14, None), 13, "expected 13 piles, found 12"),
        (edited(ALL_IN_A_ROW_LINES, 5, "JC 2S 4D JD"), 5, "duplicate card JD (also on line 2)"),
        (
            edited(ALL_IN_A_ROW_LINES, 1, "Foundations: AS"),
            1,
            "All in a Row starts with an empty foundation: expected 'Foundations: -', found 'Foundations: AS'",
        ),
        (
            edited(ALL_IN_A_ROW_LINES, 1, "Foundations:"),
            1,
            "All in a Row starts with an empty foundation: expected 'Foundations: -', found 'Foundations:'",
        ),
        (ALL_IN_A_ROW_LINES[1:], 1, "expected 'Foundations: -', found 'JD QC QH 6D'"),
        (["Talon: 2H", *ALL_IN_A_ROW_LINES], 1, "a Talon line, but All in a Row has no talon"),
        (
            [ALL_IN_A_ROW_LINES[0], "Talon: 2H", *ALL_IN_A_ROW_LINES[1:]],
            2,
            "a Talon line, but All in a Row has no talon",
        ),
        ([ALL_IN_A_ROW_LINES[0], *ALL_IN_A_ROW_LINES], 2, "a second Foundations line"),
        (GOLF_LINES, 1, "a Talon line, but All in a Row has no talon"),  # a Golf board read as All in a Row
        (
            BLACK_HOLE_LINES,  # a Black Hole board read as All in a Row
            1,
            "All in a Row starts with an empty foundation: expected 'Foundations: -', found 'Foundations: AS'",
        ),
    ],
)
def test_bad_all_in_a_row_boards(lines, line, message):
    error = board_error(lines, ALL_IN_A_ROW)
    assert_names(error, line)
    assert error.problem == message


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (GOLF_LINES, "a Talon line, as in Golf: Black Hole has no talon (give the board's game)"),
        (
            ALL_IN_A_ROW_LINES,
            "an empty foundation, as in All in a Row: a Black Hole deal starts with AS (give the board's game)",
        ),
    ],
    ids=["golf", "all_in_a_row"],
)
def test_family_boards_read_as_black_hole(lines, message):
    error = board_error(lines, BLACK_HOLE)
    assert_names(error, 1)
    assert error.problem == message


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_empty_input_names_the_source(game):
    with pytest.raises(BoardError) as caught:
        list(iter_boards("\n \n", source=SOURCE, game=game))
    assert str(caught.value) == f"{SOURCE}: no board found (empty input)"


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_from_board_text_wants_exactly_one_board(game):
    text = Deal.from_cards(range(NUM_CARDS), game).to_board_text()
    with pytest.raises(BoardError, match="expected one board, found 2"):
        Deal.from_board_text(text + "\n" + text, game=game)
