"""Deals and board text: round trips, accepted spellings, multi-board files and
errors that name the source, the exact line and the problem."""

from __future__ import annotations

import pytest
from hypothesis import given

from pipeline.game.cards import ACE_OF_SPADES, parse_card
from pipeline.game.deal import EXAMPLE_BOARD, BoardError, Deal, iter_boards, read_boards
from tests.strategies import DEALT_CARDS, boards, deals, multi_boards
from tests.support.boards import SOURCE, assert_names, board_error
from tests.support.boards import edited as edited_lines

EXAMPLE_LINES = EXAMPLE_BOARD.splitlines()  # line n of the board is EXAMPLE_LINES[n - 1]


def example_deal() -> Deal:
    return Deal.from_board_text(EXAMPLE_BOARD)


def edited(line_number: int, new_text: str | None, lines: list[str] = EXAMPLE_LINES) -> list[str]:
    """The example board's lines (or ``lines``) with line ``line_number`` (1-based) replaced, or removed when
    ``new_text`` is None."""
    return edited_lines(lines, line_number, new_text)


# --- the example and its text form -------------------------------------------------


def test_example_board_piles_read_bottom_to_top():
    deal = example_deal()
    assert deal.piles[0] == (parse_card("JD"), parse_card("KS"), parse_card("TH"))
    assert deal.top_card(0) == parse_card("TH")
    assert deal.top_card(16) == parse_card("6H")
    assert deal.cards()[:4] == tuple(map(parse_card, ["JD", "KS", "TH", "2D"]))
    assert sorted(deal.cards()) == sorted(DEALT_CARDS)


def test_example_board_round_trips_exactly():
    assert example_deal().to_board_text() == EXAMPLE_BOARD


def test_repr_reads_like_the_call_that_builds_it():
    deal = example_deal()
    assert repr(deal).startswith("Deal.from_board_text(")
    assert eval(repr(deal)) == deal


def test_from_cards_deals_three_a_pile():
    deal = Deal.from_cards(DEALT_CARDS)
    assert deal.piles[0] == DEALT_CARDS[0:3]
    assert deal.piles[16] == DEALT_CARDS[48:51]


@pytest.mark.parametrize(
    ("cards", "problem"),
    [
        (DEALT_CARDS[:-1], "pile 16 has 2 cards, expected 3"),  # 50 cards
        (DEALT_CARDS[:-3], "expected 17 piles, found 16"),
        (DEALT_CARDS + (ACE_OF_SPADES,), "expected 17 piles, found 18"),  # A♠ in a pile (and 52 cards)
        (DEALT_CARDS[:-1] + (ACE_OF_SPADES,), "pile 16 holds AS, which is the foundation"),
        (DEALT_CARDS[:-1] + (DEALT_CARDS[0],), "duplicate card AH"),
        (DEALT_CARDS[:-1] + (52,), "pile 16 holds 52, which is not a card"),
        (DEALT_CARDS[:-1] + (True,), "pile 16 holds True, which is not a card"),
        # every pile's size is asked before any card, as in every game
        ((ACE_OF_SPADES, *DEALT_CARDS[1:-1]), "pile 16 has 2 cards, expected 3"),
    ],
)
def test_deal_rejects_bad_piles(cards, problem):
    with pytest.raises(BoardError) as caught:
        Deal.from_cards(cards)
    assert caught.value.problem == problem


def test_deals_are_frozen_values():
    deal = example_deal()
    assert deal == Deal.from_board_text(EXAMPLE_BOARD)
    assert hash(deal) == hash(Deal.from_board_text(EXAMPLE_BOARD))
    with pytest.raises(AttributeError):
        deal.piles = ()  # type: ignore[misc]


# --- properties -----------------------------------------------------------------------


@given(deals())
def test_deal_board_text_deal_round_trip(deal):
    text = deal.to_board_text()
    assert text.startswith("Foundations: AS\n")
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert Deal.from_board_text(text) == deal
    assert Deal.from_board_text(text).to_board_text() == text


@given(boards())
def test_variant_spellings_parse_to_the_same_deal(deal_and_text):
    deal, text = deal_and_text
    assert Deal.from_board_text(text) == deal


@given(multi_boards())
def test_multi_board_files_parse_in_order(deals_and_text):
    found, text = deals_and_text
    assert list(iter_boards(text, source=SOURCE)) == found


def test_multi_board_file_with_extra_blank_lines_and_trailing_whitespace():
    second = Deal.from_cards(DEALT_CARDS)
    text = "\n \n" + EXAMPLE_BOARD.replace("\n", "  \n") + "\n\t\n\n" + second.to_board_text() + "\n\n"
    assert list(iter_boards(text)) == [example_deal(), second]


def test_from_board_text_wants_exactly_one_board():
    with pytest.raises(BoardError, match="expected one board, found 2"):
        Deal.from_board_text(EXAMPLE_BOARD + "\n" + EXAMPLE_BOARD)


# --- errors name the source, the line and the problem ----------------------------------


def test_unknown_card():
    error = board_error(edited(5, "JC XS JH"))
    assert_names(error, 5, "unknown card", "XS")


def test_unknown_card_in_the_foundation_line():
    error = board_error(edited(1, "Foundations: A$"))
    assert_names(error, 1, "unknown card", "A$")


def test_duplicate_card_names_both_lines():
    # line 10 is "KD TS QS"; JC is already on line 5
    error = board_error(edited(10, "KD JC QS"))
    assert_names(error, 10, "duplicate card JC", "line 5")


def test_duplicate_card_on_one_line():
    error = board_error(edited(5, "JC JC JH"))
    assert_names(error, 5, "duplicate card JC")


def test_missing_card_pile_with_two_cards():
    error = board_error(edited(7, "7H 3C"))
    assert_names(error, 7, "pile 5", "2 cards", "expected 3")


def test_pile_with_four_cards():
    error = board_error(edited(8, "7C 4C 8S 6D"))
    assert_names(error, 8, "pile 6", "4 cards", "expected 3")


def test_sixteen_piles_points_at_the_last_pile_line():
    error = board_error(edited(18, None))
    assert_names(error, 17, "expected 17 piles, found 16")


def test_eighteen_piles_points_at_the_extra_line():
    error = board_error([*EXAMPLE_LINES, "KH QH JH"])
    assert_names(error, 19, "expected 17 piles, found 18")


def test_foundation_other_than_as():
    error = board_error(edited(1, "Foundations: KS"))
    assert_names(error, 1, "foundation is KS", "AS")


def test_foundation_line_naming_two_cards():
    error = board_error(edited(1, "Foundations: AS KH"))
    assert_names(error, 1, "exactly one card")


def test_foundation_line_naming_no_card():
    error = board_error(edited(1, "Foundations:"))
    assert_names(error, 1, "exactly one card")


def test_ace_of_spades_inside_a_pile():
    # line 12 is "9S 4H 3D": AS replaces 4H, so 4H goes missing too
    error = board_error(edited(12, "9S AS 3D"))
    assert_names(error, 12, "AS", "line 1")


def test_missing_foundations_line():
    error = board_error(EXAMPLE_LINES[1:])
    assert_names(error, 1, "Foundations: AS", "JD KS TH")


@pytest.mark.parametrize("text", ["", "\n", "   \n\t\n  ", "\n\n\n"])
def test_empty_or_whitespace_only_input(text):
    with pytest.raises(BoardError) as caught:
        list(iter_boards(text, source=SOURCE))
    assert str(caught.value) == f"{SOURCE}: no board found (empty input)"
    assert caught.value.source == SOURCE


def test_default_source_is_named():
    with pytest.raises(BoardError) as caught:
        Deal.from_board_text("\n".join(edited(5, "JC XS JH")))
    assert str(caught.value).startswith("<board>:5: ")


# --- errors in the second board of a file: line numbers count from the top of the file ---

SECOND = Deal.from_cards(DEALT_CARDS).to_board_text().splitlines()
FIRST_WITH_GAP = [*EXAMPLE_LINES, "", "  "]  # board 2 starts on line 21
OFFSET = len(FIRST_WITH_GAP)


def with_words(board_line: int, change) -> list[str]:
    """The second board with the words of ``board_line`` changed by ``change``."""
    return edited(board_line, " ".join(change(SECOND[board_line - 1].split())), SECOND)


@pytest.mark.parametrize(
    ("board_line", "change", "fragments"),
    [
        (6, lambda words: [words[0], "XX", words[2]], ("unknown card", "XX")),
        (9, lambda words: words[:2], ("pile 7", "2 cards")),
        (9, lambda words: [*words, "QS", "KS"], ("pile 7", "5 cards")),
        (1, lambda words: ["Foundations:", "2H"], ("foundation is 2H",)),
        (4, lambda words: [words[0], "AS", words[2]], ("AS",)),
        (5, lambda words: ["AH", *words[1:]], ("duplicate card AH", f"line {OFFSET + 2}")),
    ],
)
def test_errors_in_the_second_board_name_the_file_line(board_line, change, fragments):
    assert SECOND[1].split()[0] == "AH"
    error = board_error(FIRST_WITH_GAP + with_words(board_line, change))
    assert_names(error, OFFSET + board_line, *fragments)


def test_missing_pile_in_second_board():
    error = board_error(FIRST_WITH_GAP + SECOND[:-1])
    assert_names(error, OFFSET + 17, "expected 17 piles, found 16")


def test_missing_foundations_line_in_second_board():
    error = board_error(FIRST_WITH_GAP + SECOND[1:])
    assert_names(error, OFFSET + 1, "Foundations: AS")


def test_boards_before_a_bad_one_are_yielded_in_order():
    text = "\n".join(FIRST_WITH_GAP + with_words(6, lambda words: ["XX", *words[1:]])) + "\n"
    boards_found = iter_boards(text, source=SOURCE)
    assert next(boards_found) == example_deal()
    with pytest.raises(BoardError, match=rf"^{SOURCE}:{OFFSET + 6}: "):
        next(boards_found)


# --- files ---------------------------------------------------------------------------


def test_read_boards_from_a_file(tmp_path):
    second = Deal.from_cards(DEALT_CARDS)
    path = tmp_path / "two.txt"
    path.write_text(EXAMPLE_BOARD.replace("S", "♠") + "\n\n" + second.to_board_text(), encoding="utf-8")
    assert read_boards(path) == [example_deal(), second]


def test_read_boards_names_the_file_in_errors(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(edited(3, "2D 9D")) + "\n", encoding="utf-8")
    with pytest.raises(BoardError) as caught:
        read_boards(path)
    assert str(caught.value).startswith(f"{path}:3: ")
    assert "pile 1 has 2 cards" in str(caught.value)


def test_read_boards_empty_file(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(BoardError, match="no board found") as caught:
        read_boards(path)
    assert caught.value.source == str(path)


def test_read_boards_rejects_non_utf8(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(EXAMPLE_BOARD.replace("JD", "J\xa7").encode("latin-1"))
    with pytest.raises(BoardError) as caught:
        read_boards(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert "UTF-8" in str(caught.value)


def test_read_boards_accepts_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(EXAMPLE_BOARD.encode("utf-8-sig"))
    assert read_boards(path) == [example_deal()]


def test_read_boards_accepts_windows_line_ends(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(EXAMPLE_BOARD.replace("\n", "\r\n").encode())
    assert read_boards(path) == [example_deal()]
