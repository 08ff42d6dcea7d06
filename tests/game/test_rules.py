"""The referee: legal moves, playing, replaying solutions, the worked example of docs/rules.md."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.game.cards import RANKS, card_name, parse_card, rank_of
from pipeline.game.deal import EXAMPLE_BOARD, Deal
from pipeline.game.rules import WINNING_LENGTH, IllegalMove, Position, replay
from tests.strategies import DEALT_CARDS, deals

# PySol FC Black Hole deal 5, and a winning line found by the reference search.
PYSOL_5 = """\
Foundations: AS
AH KC 9D
8S 3H KS
2D KD QD
QS 5H 4H
4C 6S AC
9H 8D 2H
2S TD TC
3D 7S TH
5C JD 6D
9C 7H 6H
KH 8H 6C
4D JH QC
2C JC JS
3C 7D 9S
4S 5S AD
3S QH 7C
5D 8C TS
"""
PYSOL_5_SOLUTION = (
    1, 2, 2, 4, 2, 1, 3, 3, 4, 15, 1, 0, 6, 12, 3, 0, 11, 11, 7, 12, 16, 13, 16, 7, 8, 13,
    9, 16, 4, 7, 5, 14, 12, 13, 11, 14, 10, 9, 5, 5, 10, 9, 6, 8, 15, 10, 0, 6, 15, 14, 8,
)  # fmt: skip


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(word) for word in text.split())


def worked_example_deal() -> Deal:
    """The worked example of docs/rules.md as a real deal: pile 0 reads 4C QD KH (KH free), a JC
    free on pile 1, and other piles that lead the foundation to a 3 with the
    4C still buried, or round K-A-2-3 once QD has gone."""
    piles = [cards("4C QD KH"), cards("3D 2D JC"), cards("AH KC QC"), cards("5S 3H 2H"), cards("9S 8S AC")]
    used = {card for pile in piles for card in pile}
    rest = [card for card in DEALT_CARDS if card not in used]
    piles += [tuple(rest[i : i + 3]) for i in range(0, len(rest), 3)]
    return Deal(tuple(piles))


def fits(card: int, foundation_rank: int) -> bool:
    """Neighbours on the rank circle, written out independently of pipeline.game.cards."""
    return abs(rank_of(card) - foundation_rank) in (1, 12)


# --- the opening --------------------------------------------------------------------------


def test_legal_moves_at_the_start_of_the_example():
    start = Position.start(Deal.from_board_text(EXAMPLE_BOARD))
    # free cards: TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H; only the twos fit on A
    assert start.legal_moves() == (2, 15)
    assert start.heights == (3,) * 17
    assert start.foundation_rank == 0
    assert start.cards_played == 0
    assert not start.is_won


def test_playing_from_the_example_opening():
    start = Position.start(Deal.from_board_text(EXAMPLE_BOARD))
    after = start.play(15)  # 2H on the ace
    assert after.foundation_rank == 1
    assert after.heights[15] == 2 and sum(after.heights) == 50
    assert card_name(after.top_card(15)) == "TD"
    assert after.cards_played == 1
    # on a 2: the aces and threes that are free (3D on pile 10) and 2C no longer
    assert after.legal_moves() == (10,)
    assert start.heights == (3,) * 17, "play returns a new position"


@given(deals())
def test_legal_moves_are_exactly_the_free_cards_that_fit(deal):
    position = Position.start(deal)
    expected = tuple(pile for pile in range(17) if fits(deal.top_card(pile), 0))
    assert position.legal_moves() == expected
    for pile in range(17):
        if pile in expected:
            assert position.play(pile).foundation_rank == rank_of(deal.top_card(pile))
        else:
            with pytest.raises(IllegalMove):
                position.play(pile)


@given(deals(), st.randoms(use_true_random=False))
def test_random_playouts_follow_the_rules(deal, rnd):
    position = Position.start(deal)
    while position.legal_moves():
        pile = rnd.choice(position.legal_moves())
        card = position.top_card(pile)
        assert fits(card, position.foundation_rank)
        played = position.cards_played
        position = position.play(pile)
        assert position.foundation_rank == rank_of(card)
        assert position.cards_played == played + 1
    for pile in range(17):
        card = position.top_card(pile)
        assert card is None or not fits(card, position.foundation_rank)
    assert position.is_won == (position.cards_played == WINNING_LENGTH)


# --- the worked example from docs/rules.md ----------------------------------------------------------


def test_worked_example_king_then_queen_then_jack_then_round_to_the_four():
    position = Position.start(worked_example_deal())
    assert position.top_card(0) == parse_card("KH")
    assert 0 in position.legal_moves()  # K on A
    position = position.play(0)
    assert position.top_card(0) == parse_card("QD")
    assert 0 in position.legal_moves()  # Q on K
    position = position.play(0)
    assert position.top_card(0) == parse_card("4C")
    assert 1 in position.legal_moves()  # the free JC follows the QD
    position = position.play(1)
    assert 0 not in position.legal_moves()  # 4C is free but does not fit on J
    for pile, card in [(2, "QC"), (2, "KC"), (2, "AH"), (1, "2D"), (1, "3D")]:
        assert position.top_card(pile) == parse_card(card)
        position = position.play(pile)
    assert RANKS[position.foundation_rank] == "3"
    assert 0 in position.legal_moves()  # QD has gone: 4C goes on the 3
    position = position.play(0)
    assert position.heights[0] == 0 and position.top_card(0) is None
    assert 0 not in position.legal_moves()


def test_worked_example_four_blocked_while_the_king_covers_it():
    position = Position.after(worked_example_deal(), [3, 3])  # 2H, 3H: a three on the foundation
    assert RANKS[position.foundation_rank] == "3"
    assert position.top_card(0) == parse_card("KH")
    assert 0 not in position.legal_moves()
    with pytest.raises(IllegalMove, match="KH from pile 0"):
        position.play(0)


def test_worked_example_four_blocked_while_the_queen_covers_it():
    # KH on the ace, then AC, 2H, 3H: a three on the foundation, QD still on the 4C
    position = Position.after(worked_example_deal(), [0, 4, 3, 3])
    assert RANKS[position.foundation_rank] == "3"
    assert position.top_card(0) == parse_card("QD")
    assert 0 not in position.legal_moves()
    with pytest.raises(IllegalMove, match="QD from pile 0 does not fit on rank 3"):
        position.play(0)


def test_equal_ranks_never_fit():
    # AC on pile 4 is free at the start, on an ace foundation
    position = Position.start(worked_example_deal())
    assert position.top_card(4) == parse_card("AC")
    assert 4 not in position.legal_moves()
    with pytest.raises(IllegalMove):
        position.play(4)


# --- replay ---------------------------------------------------------------------------------


def test_replay_of_a_winning_solution():
    deal = Deal.from_board_text(PYSOL_5)
    final = replay(deal, PYSOL_5_SOLUTION)
    assert final.is_won
    assert final.heights == (0,) * 17
    assert final.cards_played == WINNING_LENGTH == len(PYSOL_5_SOLUTION) == 51
    assert Position.after(deal, PYSOL_5_SOLUTION) == final


def test_replay_rejects_an_illegal_move_naming_the_step():
    deal = Deal.from_board_text(PYSOL_5)
    start = Position.start(deal)
    illegal_first = next(pile for pile in range(17) if pile not in start.legal_moves())
    bad = [illegal_first, *PYSOL_5_SOLUTION[1:]]
    with pytest.raises(IllegalMove, match=rf"^move 1: .* from pile {illegal_first} does not fit on rank A$"):
        replay(deal, bad)


def test_replay_names_a_later_step():
    deal = Deal.from_board_text(PYSOL_5)
    position = Position.after(deal, PYSOL_5_SOLUTION[:20])
    illegal = next(
        pile for pile in range(17) if position.heights[pile] and pile not in position.legal_moves()
    )
    bad = [*PYSOL_5_SOLUTION[:20], illegal, *PYSOL_5_SOLUTION[21:]]
    with pytest.raises(IllegalMove, match=r"^move 21: "):
        replay(deal, bad)


def test_replay_rejects_a_move_from_an_empty_pile():
    # the worked example empties pile 0 in nine moves; a tenth from pile 0 is illegal
    moves = [0, 0, 1, 2, 2, 2, 1, 1, 0]
    position = Position.after(worked_example_deal(), moves)
    assert position.heights[0] == 0
    with pytest.raises(IllegalMove, match=r"^move 10: pile 0 is empty$"):
        replay(worked_example_deal(), [*moves, 0])


@pytest.mark.parametrize("pile", [-1, 17, 99])
def test_replay_rejects_a_pile_that_does_not_exist(pile):
    with pytest.raises(IllegalMove, match=rf"^move 1: there is no pile {pile}$"):
        replay(Deal.from_board_text(PYSOL_5), [pile])


@pytest.mark.parametrize("length", [0, 1, 30, 50])
def test_replay_rejects_a_too_short_solution(length):
    with pytest.raises(IllegalMove, match=rf"^after {length} moves {51 - length} cards are left$"):
        replay(Deal.from_board_text(PYSOL_5), PYSOL_5_SOLUTION[:length])


def test_replay_rejects_moves_after_the_win():
    deal = Deal.from_board_text(PYSOL_5)
    with pytest.raises(IllegalMove, match=r"^move 52: pile \d+ is empty$"):
        replay(deal, [*PYSOL_5_SOLUTION, PYSOL_5_SOLUTION[-1]])


def test_replay_from_a_given_start():
    deal = Deal.from_board_text(PYSOL_5)
    middle = Position.after(deal, PYSOL_5_SOLUTION[:25])
    assert replay(deal, PYSOL_5_SOLUTION[25:], start=middle).is_won
    with pytest.raises(IllegalMove, match=r"^after 25 moves 26 cards are left$"):
        replay(deal, PYSOL_5_SOLUTION[:25])


def test_replay_accepts_numpy_style_integers():
    import numpy as np

    deal = Deal.from_board_text(PYSOL_5)
    assert replay(deal, np.array(PYSOL_5_SOLUTION, dtype=np.int8)).is_won


# --- Position.after and validation ---------------------------------------------------------------


def test_position_after_no_moves_is_the_start():
    deal = worked_example_deal()
    assert Position.after(deal, []) == Position.start(deal)


def test_position_after_matches_playing_one_move_at_a_time():
    deal = worked_example_deal()
    moves = [0, 0, 1, 2, 2, 2, 1, 1, 0]
    position = Position.start(deal)
    for move in moves:
        position = position.play(move)
    after = Position.after(deal, moves)
    assert after == position
    assert after.heights[:5] == (0, 0, 0, 3, 3)
    assert RANKS[after.foundation_rank] == "4"
    assert after.cards_played == len(moves)


def test_position_after_raises_on_an_illegal_move():
    with pytest.raises(IllegalMove):
        Position.after(worked_example_deal(), [0, 0, 0])  # 4C does not fit on Q


@pytest.mark.parametrize(
    ("heights", "rank"),
    [
        ((3,) * 16, 0),
        ((3,) * 18, 0),
        ((4,) + (3,) * 16, 0),
        ((-1,) + (3,) * 16, 0),
        ((3,) * 17, 13),
        ((3,) * 17, -1),
    ],
)
def test_position_rejects_impossible_states(heights, rank):
    with pytest.raises(ValueError):
        Position(worked_example_deal(), heights, rank)


def test_illegal_move_is_a_value_error():
    assert issubclass(IllegalMove, ValueError)
