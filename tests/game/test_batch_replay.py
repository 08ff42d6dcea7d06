"""The batch referee agrees with the plain one: boards read alike, solutions judged alike, row by row."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pipeline.game.batch_replay import CANONICAL_BOARD_LENGTH, board_cards, canonical_cards, failed_replays
from pipeline.game.deal import EXAMPLE_BOARD, BoardError, Deal
from pipeline.game.rules import IllegalMove, Position, replay
from tests.strategies import board_texts, deals, won_deals


def texts(boards: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``boards`` as one byte array and their offsets, as Arrow keeps a string column."""
    encoded = [board.encode() for board in boards]
    return np.frombuffer(b"".join(encoded), np.uint8), np.cumsum([0, *map(len, encoded)])


def moves_of(solutions: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    flat = np.array([pile for solution in solutions for pile in solution], np.int64)
    return flat, np.cumsum([0, *map(len, solutions)])


def wins(deal: Deal, solution: tuple[int, ...]) -> bool:
    """The plain referee's judgement."""
    try:
        replay(deal, solution)
    except IllegalMove:
        return False
    return True


def batch_wins(found: list[tuple[Deal, tuple[int, ...]]]) -> list[bool]:
    """The batch referee's judgement of each (deal, solution), all in one batch."""
    cards = np.array([deal.cards() for deal, _ in found], np.int8).reshape(len(found), 51)
    return (~failed_replays(cards, *moves_of([solution for _, solution in found]))).tolist()


@st.composite
def random_play(draw: st.DrawFn, deal: Deal) -> tuple[int, ...]:
    """Legal moves chosen at random until none is left (a win or a loss), then perhaps some more."""
    position, played = Position.start(deal), []
    while moves := position.legal_moves():
        pile = draw(st.sampled_from(moves))
        position = position.play(pile)
        played.append(pile)
    return (*played, *draw(st.lists(st.integers(0, 18), max_size=3)))


@st.composite
def mutated(draw: st.DrawFn, solution: tuple[int, ...]) -> tuple[int, ...]:
    """``solution`` broken (or not) one way: two moves swapped, one changed, dropped, added, or the whole reversed."""
    moves = list(solution)
    at = draw(st.integers(0, len(moves) - 1))
    kind = draw(st.sampled_from(["swap", "change", "drop", "add", "reverse", "truncate", "rotate"]))
    if kind == "swap":
        other = draw(st.integers(0, len(moves) - 1))
        moves[at], moves[other] = moves[other], moves[at]
    elif kind == "change":
        moves[at] = draw(st.integers(0, 20))
    elif kind == "drop":
        del moves[at]
    elif kind == "add":
        moves.insert(at, draw(st.integers(0, 16)))
    elif kind == "reverse":
        moves.reverse()
    elif kind == "truncate":
        moves = moves[:at]
    else:
        moves = moves[at:] + moves[:at]
    return tuple(moves)


@st.composite
def judged(draw: st.DrawFn) -> tuple[Deal, tuple[int, ...]]:
    """A deal and a sequence of moves to judge: a win, a win mutated, random play, or random numbers."""
    kind = draw(st.sampled_from(["win", "mutated", "play", "noise"]))
    if kind in ("win", "mutated"):
        deal, solution = draw(won_deals())
        return deal, solution if kind == "win" else draw(mutated(solution))
    deal = draw(deals())
    if kind == "play":
        return deal, draw(random_play(deal))
    return deal, tuple(draw(st.lists(st.integers(0, 17), max_size=53)))


@given(won_deals())
def test_a_won_deal_s_win_is_a_win_to_both(found):
    deal, solution = found
    assert wins(deal, solution)
    assert batch_wins([found]) == [True]


@given(st.lists(judged(), min_size=1, max_size=8))
def test_the_referees_agree_row_by_row(found):
    assert batch_wins(found) == [wins(deal, solution) for deal, solution in found]


@given(won_deals(), st.integers(0, 50), st.integers(0, 50))
def test_a_swap_of_two_moves_is_judged_alike(found, one, other):
    deal, solution = found
    moves = list(solution)
    moves[one], moves[other] = moves[other], moves[one]
    assert batch_wins([(deal, tuple(moves))]) == [wins(deal, tuple(moves))]


def test_a_reversed_win_and_an_empty_solution_are_no_wins():
    deal = Deal.from_board_text(EXAMPLE_BOARD)
    cards = np.array([deal.cards()] * 3, np.int8)
    flat, offsets = moves_of([(), tuple(range(17)) * 3, (2,)])
    assert failed_replays(cards, flat, offsets).tolist() == [True, True, True]


def test_moves_outside_the_piles_are_no_wins_and_read_nothing_outside_the_row():
    deal = Deal.from_board_text(EXAMPLE_BOARD)
    cards = np.array([deal.cards()] * 2, np.int8)
    flat, offsets = moves_of([(-1,) * 51, (255,) * 51])
    assert failed_replays(cards, flat, offsets).tolist() == [True, True]


def test_no_rows_give_no_judgements():
    assert failed_replays(np.zeros((0, 51), np.int8), np.zeros(0, np.uint8), np.array([0])).size == 0
    cards, parsed = canonical_cards(np.zeros(0, np.uint8), np.array([0]))
    assert cards.shape == (0, 51) and parsed.size == 0


@given(st.lists(deals(), min_size=1, max_size=5))
def test_canonical_boards_are_read_at_once_as_the_plain_parser_reads_them(found):
    boards = [deal.to_board_text() for deal in found]
    assert all(len(board) == CANONICAL_BOARD_LENGTH for board in boards)
    cards, parsed = canonical_cards(*texts(boards))
    assert parsed.all()
    assert [tuple(row) for row in cards.tolist()] == [deal.cards() for deal in found]


@given(st.data())
def test_boards_in_any_spelling_are_read_by_the_plain_parser(data):
    found = data.draw(st.lists(deals(), min_size=1, max_size=4))
    boards = [data.draw(board_texts(deal)) for deal in found]
    cards = board_cards(*texts(boards))
    assert [tuple(row) for row in cards.tolist()] == [deal.cards() for deal in found]


@st.composite
def damaged_board(draw: st.DrawFn) -> str:
    """A canonical board with one byte changed (to a card letter, a space, a line end...) or two cards swapped."""
    text = draw(deals()).to_board_text()
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text) - 1))
        byte = draw(st.sampled_from(list("AS23TJQKHCD s\n\tX1")))
        return text[:at] + byte + text[at + 1 :]
    words = text.split()  # "Foundations:", "AS", then the cards; the foundation's AS may move too
    one, other = draw(st.integers(1, len(words) - 1)), draw(st.integers(1, len(words) - 1))
    words[one], words[other] = words[other], words[one]
    piles = [" ".join(words[at : at + 3]) for at in range(2, len(words), 3)]
    return "\n".join([" ".join(words[:2]), *piles]) + "\n"


@given(damaged_board())
def test_a_damaged_board_is_read_or_refused_exactly_as_the_plain_parser_does(board):
    try:
        expected = Deal.from_board_text(board, source="row 0").cards()
    except BoardError as error:
        with pytest.raises(BoardError) as caught:
            board_cards(*texts([EXAMPLE_BOARD, board]), source=lambda row: f"row {row - 1}")
        assert str(caught.value) == str(error)
    else:
        cards = board_cards(*texts([EXAMPLE_BOARD, board]))
        assert tuple(cards[1].tolist()) == expected


def test_a_bad_board_is_named_by_its_source():
    bad = EXAMPLE_BOARD.replace("JD KS TH", "JD KS XX")
    with pytest.raises(BoardError, match=r"^deals\.parquet\[1\]:2: unknown card 'XX'$"):
        board_cards(*texts([EXAMPLE_BOARD, bad]), source=lambda row: f"deals.parquet[{row}]")


def test_boards_that_are_not_back_to_back_are_read_one_by_one():
    boards = [EXAMPLE_BOARD, "Foundations: AS\n", EXAMPLE_BOARD]
    cards, parsed = canonical_cards(*texts(boards))
    assert parsed.tolist() == [True, False, True]
    assert tuple(cards[2].tolist()) == Deal.from_board_text(EXAMPLE_BOARD).cards()


@given(won_deals())
def test_a_pile_played_a_fourth_time_is_no_win_even_where_the_cards_would_fit(found):
    """A win's first play of pile q made a play of pile p, once p's three plays are done: the ranks
    played look the same when each pile's plays are not counted, but pile p is empty by then."""
    deal, solution = found
    last = {pile: step for step, pile in enumerate(solution)}
    first = {pile: step for step, pile in reversed(list(enumerate(solution)))}
    late = [(p, q) for p in range(16) for q in (p + 1,) if first[q] > last[p]]
    assume(late)
    p, q = late[0]
    moves = list(solution)
    moves[first[q]] = p
    assert not wins(deal, tuple(moves))
    assert batch_wins([(deal, tuple(moves))]) == [False]
