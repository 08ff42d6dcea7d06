"""The referee for All in a Row and the three Golfs: opening moves on fixed deals, the talon, kings and
aces, replaying lines, and random play-outs that must follow the rules written out plainly here."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.game.canonical import canonical_key
from pipeline.game.cards import RANKS, card_name, make_card, rank_of, suit_of
from pipeline.game.deal import Deal
from pipeline.game.games import ALL_IN_A_ROW, BLACK_HOLE, DEAD_KING_GOLF, GOLF, RELAXED_GOLF
from pipeline.game.players import Player, check_distribution, policy
from pipeline.game.rules import IllegalMove, Position, replay
from pipeline.game.shuffles import seeded_deal
from tests.strategies import family_deals
from tests.support.family import ALL_IN_A_ROW_1, FAMILY, FAMILY_NAMES, GOLF_NAMES, GOLFS

TALON = 7  # Golf's talon move: one past the last pile


# A Golf board made for these tests: a King on the foundation, free cards QS AD 5C QC KS 2H AC,
# and QD then 6D first on the talon.
KINGS_AND_ACES = """\
Talon: QD 6D 9C 9D 9S TH TC TD TS JH JC JD JS QH KC KD
Foundations: KH
AH AS 2C 2D QS
2S 3H 3C 3D AD
3S 4H 4C 4D 5C
4S 5H 5D 5S QC
6H 6C 6S 7H KS
7C 7D 7S 8H 2H
8C 8D 8S 9H AC
"""

# A Golf deal won by emptying the piles in order, pile 0 first, talon untouched: the foundation climbs
# from the ace to the King, comes down to the ace, and climbs again to a Queen (QC goes on KH: move 13).
GOLF_WIN = """\
Talon: AD AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KC KD KS
Foundations: AH
6H 5H 4H 3H 2H
JH TH 9H 8H 7H
TC JC QC KH QH
5C 6C 7C 8C 9C
2D AC 2C 3C 4C
7D 6D 5D 4D 3D
QD JD TD 9D 8D
"""
GOLF_WIN_LINE = tuple(pile for pile in range(7) for _ in range(5))

# An All in a Row deal won pile by pile: A to K in hearts, then clubs, diamonds, spades.
ALL_IN_A_ROW_WIN = """\
Foundations: -
4H 3H 2H AH
8H 7H 6H 5H
QH JH TH 9H
3C 2C AC KH
7C 6C 5C 4C
JC TC 9C 8C
2D AD KC QC
6D 5D 4D 3D
TD 9D 8D 7D
AS KD QD JD
5S 4S 3S 2S
9S 8S 7S 6S
KS QS JS TS
"""
ALL_IN_A_ROW_WIN_LINE = tuple(pile for pile in range(13) for _ in range(4))


def start(text: str, game) -> Position:
    return Position.start(Deal.from_board_text(text, game=game))


def top_name(position: Position, pile: int) -> str:
    card = position.top_card(pile)
    return "-" if card is None else card_name(card)


def plainly_fits(game, card: int, foundation_rank: int | None) -> bool:
    """The rules of docs/rules.md written out independently of pipeline.game.games.fits."""
    if foundation_rank is None:
        return True
    if game.name == "dead_king_golf" and RANKS[foundation_rank] == "K":
        return False
    gap = abs(rank_of(card) - foundation_rank)
    return gap == 1 or (game.name in ("all_in_a_row", "relaxed_golf") and gap == 12)


# --- All in a Row --------------------------------------------------------------------------------


def test_all_in_a_row_opening_takes_any_pile():
    position = start(ALL_IN_A_ROW_1, ALL_IN_A_ROW)
    assert position.foundation_rank is None
    assert position.heights == (4,) * 13
    assert position.legal_moves() == tuple(range(13))
    assert position.talon_left == 0 and not position.is_won


@pytest.mark.parametrize("pile", range(13))
def test_all_in_a_row_first_move_starts_the_foundation_with_its_card(pile):
    position = start(ALL_IN_A_ROW_1, ALL_IN_A_ROW)
    after = position.play(pile)
    assert after.foundation_rank == rank_of(position.top_card(pile))
    assert after.cards_played == 1 and after.heights[pile] == 3


def test_all_in_a_row_after_the_ace_of_spades_only_the_two_fits():
    after = start(ALL_IN_A_ROW_1, ALL_IN_A_ROW).play(12)  # AS; 7D is free on pile 12 now
    assert top_name(after, 12) == "7D"
    assert after.legal_moves() == (10,)  # 2H; no King is free


def test_all_in_a_row_a_six_first_leaves_nothing_to_play():
    after = start(ALL_IN_A_ROW_1, ALL_IN_A_ROW).play(0)  # 6D: no 5 or 7 is free
    assert RANKS[after.foundation_rank] == "6"
    assert after.legal_moves() == ()


def test_all_in_a_row_wraps_king_and_ace():
    deal = Deal.from_board_text(ALL_IN_A_ROW_WIN, game=ALL_IN_A_ROW)
    on_the_queen = Position.after(deal, [0] * 4 + [1] * 4 + [2] * 4)  # AH up to QH
    assert on_the_queen.legal_moves() == (3, 9)  # KH, JD
    on_the_king = on_the_queen.play(3)
    assert [top_name(on_the_king, pile) for pile in (3, 6, 9)] == ["AC", "QC", "JD"]
    assert on_the_king.legal_moves() == (3, 6)  # AC on the King, and QC


def test_all_in_a_row_has_no_talon_move():
    position = start(ALL_IN_A_ROW_1, ALL_IN_A_ROW)
    with pytest.raises(IllegalMove, match="^there is no pile 13$"):
        position.play(13)


def test_all_in_a_row_win_is_52_moves():
    deal = Deal.from_board_text(ALL_IN_A_ROW_WIN, game=ALL_IN_A_ROW)
    final = replay(deal, ALL_IN_A_ROW_WIN_LINE)
    assert final.is_won and final.cards_played == 52 == len(ALL_IN_A_ROW_WIN_LINE)
    assert final.heights == (0,) * 13


# --- Golf: openings, Kings and Aces ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (DEAD_KING_GOLF, (TALON,)),  # nothing goes on the KH
        (GOLF, (0, 3, TALON)),  # QS, QC
        (RELAXED_GOLF, (0, 1, 3, 6, TALON)),  # QS, AD, QC, AC
    ],
    ids=GOLF_NAMES,
)
def test_golf_opening_legal_moves(game, expected):
    position = start(KINGS_AND_ACES, game)
    assert card_name(position.deal.foundation) == "KH" and RANKS[position.foundation_rank] == "K"
    assert [top_name(position, pile) for pile in range(7)] == ["QS", "AD", "5C", "QC", "KS", "2H", "AC"]
    assert position.legal_moves() == expected


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_every_golf_deal_opens_with_the_talon_move(game):
    position = start(KINGS_AND_ACES, game)
    assert position.legal_moves()[-1] == TALON == game.talon_move
    assert position.talon_dealt == 0 and position.talon_left == 16


def test_golf_a_queen_goes_on_a_king():
    after = start(KINGS_AND_ACES, GOLF).play(0)
    assert RANKS[after.foundation_rank] == "Q"
    assert after.legal_moves() == (4, TALON)  # KS on the QS
    assert after.play(4).legal_moves() == (3, TALON)  # and QC on the KS


def test_golf_an_ace_does_not_go_on_a_king():
    with pytest.raises(IllegalMove, match="^AD from pile 1 does not fit on rank K$"):
        start(KINGS_AND_ACES, GOLF).play(1)


def test_relaxed_golf_an_ace_goes_on_a_king():
    after = start(KINGS_AND_ACES, RELAXED_GOLF).play(1)
    assert RANKS[after.foundation_rank] == "A"
    assert after.legal_moves() == (4, 5, TALON)  # KS (wrapping), 2H


def test_dead_king_golf_a_queen_does_not_go_on_a_king():
    with pytest.raises(IllegalMove, match="^QS from pile 0 does not fit on rank K$"):
        start(KINGS_AND_ACES, DEAD_KING_GOLF).play(0)


def test_dead_king_golf_after_a_king_only_the_talon():
    position = start(KINGS_AND_ACES, DEAD_KING_GOLF).play(TALON)  # QD
    assert RANKS[position.foundation_rank] == "Q"
    assert position.legal_moves() == (4, TALON)  # a King goes on a Queen
    position = position.play(4)
    assert RANKS[position.foundation_rank] == "K"
    assert top_name(position, 3) == "QC"
    assert position.legal_moves() == (TALON,)


# --- the talon ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_a_talon_card_goes_on_the_foundation_whatever_its_rank(game):
    on_a_king = start(KINGS_AND_ACES, game)
    dealt = on_a_king.play(TALON).play(TALON)  # QD, then 6D on the Q
    assert RANKS[dealt.foundation_rank] == "6"
    assert dealt.talon_dealt == 2 and dealt.talon_left == 14
    assert dealt.heights == on_a_king.heights and dealt.cards_played == 0
    assert dealt.legal_moves() == (2, TALON)  # 5C


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_the_talon_move_lasts_while_the_talon_has_cards(game):
    deal = Deal.from_board_text(KINGS_AND_ACES, game=game)
    last_card = Position.after(deal, [TALON] * 15)
    assert last_card.talon_left == 1 and TALON in last_card.legal_moves()
    empty = last_card.play(TALON)
    assert empty.talon_left == 0 and empty.talon_dealt == 16
    assert card_name(deal.talon[-1]) == "KD" and RANKS[empty.foundation_rank] == "K"
    assert TALON not in empty.legal_moves()
    with pytest.raises(IllegalMove, match="^the talon is empty$"):
        empty.play(TALON)


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
@pytest.mark.parametrize("pile", [-1, 8, 99])
def test_golf_has_no_pile_past_the_talon_move(game, pile):
    with pytest.raises(IllegalMove, match=f"^there is no pile {pile}$"):
        start(KINGS_AND_ACES, game).play(pile)


# --- replay ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [GOLF, RELAXED_GOLF], ids=["golf", "relaxed_golf"])
def test_replay_of_a_golf_win_with_the_talon_untouched(game):
    final = replay(Deal.from_board_text(GOLF_WIN, game=game), GOLF_WIN_LINE)
    assert final.is_won and final.cards_played == 35
    assert final.talon_left == 16 and final.talon_dealt == 0


@pytest.mark.parametrize("game", [GOLF, RELAXED_GOLF], ids=["golf", "relaxed_golf"])
def test_replay_of_a_golf_win_with_a_talon_deal(game):
    # the talon's first card is the AD: the foundation is an ace again and the same line wins
    final = replay(Deal.from_board_text(GOLF_WIN, game=game), (TALON, *GOLF_WIN_LINE))
    assert final.is_won and final.talon_dealt == 1 and final.talon_left == 15
    assert RANKS[final.foundation_rank] == "Q"


def test_replay_names_the_step_where_dead_king_golf_puts_a_queen_on_a_king():
    with pytest.raises(IllegalMove, match="^move 13: QC from pile 2 does not fit on rank K$"):
        replay(Deal.from_board_text(GOLF_WIN, game=DEAD_KING_GOLF), GOLF_WIN_LINE)


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_replay_names_a_talon_deal_past_the_end(game):
    with pytest.raises(IllegalMove, match="^move 17: the talon is empty$"):
        replay(Deal.from_board_text(GOLF_WIN, game=game), [TALON] * 17)


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
def test_replay_names_an_illegal_first_move(game):
    with pytest.raises(IllegalMove, match="^move 1: 7H from pile 1 does not fit on rank A$"):
        replay(Deal.from_board_text(GOLF_WIN, game=game), [1])


@pytest.mark.parametrize("game", [GOLF, RELAXED_GOLF], ids=["golf", "relaxed_golf"])
def test_replay_counts_the_cards_left_when_the_moves_run_out(game):
    deal = Deal.from_board_text(GOLF_WIN, game=game)
    with pytest.raises(IllegalMove, match="^after 34 moves 1 cards are left$"):
        replay(deal, GOLF_WIN_LINE[:-1])
    with pytest.raises(IllegalMove, match="^after 16 moves 35 cards are left$"):
        replay(deal, [TALON] * 16)  # the talon played out, no pile touched


def test_replay_names_the_step_of_an_all_in_a_row_line():
    deal = Deal.from_board_text(ALL_IN_A_ROW_WIN, game=ALL_IN_A_ROW)
    with pytest.raises(IllegalMove, match="^move 5: 9H from pile 2 does not fit on rank 4$"):
        replay(deal, [0, 0, 0, 0, 2])  # up to the 4H, then the 9H
    with pytest.raises(IllegalMove, match="^move 5: pile 0 is empty$"):
        replay(deal, [0] * 5)
    with pytest.raises(IllegalMove, match="^after 51 moves 1 cards are left$"):
        replay(deal, ALL_IN_A_ROW_WIN_LINE[:-1])


def test_replay_from_a_given_start_of_golf():
    deal = Deal.from_board_text(GOLF_WIN, game=GOLF)
    middle = Position.after(deal, (TALON, *GOLF_WIN_LINE[:20]))
    assert replay(deal, GOLF_WIN_LINE[20:], start=middle).talon_dealt == 1


# --- is_won --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
@pytest.mark.parametrize("dealt", [0, 5, 16])
def test_golf_is_won_when_the_piles_are_empty_whatever_the_talon_holds(game, dealt):
    deal = Deal.from_board_text(GOLF_WIN, game=game)
    assert Position(deal, (0,) * 7, 4, dealt).is_won
    assert not Position(deal, (0,) * 6 + (1,), 4, dealt).is_won


# --- validation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GOLFS, ids=GOLF_NAMES)
@pytest.mark.parametrize(
    ("heights", "rank", "dealt", "message"),
    [
        ((5,) * 6, 0, 0, "heights must be 7 numbers from 0 to 5"),
        ((5,) * 8, 0, 0, "heights must be 7 numbers from 0 to 5"),
        ((6,) + (5,) * 6, 0, 0, "heights must be 7 numbers from 0 to 5"),
        ((-1,) + (5,) * 6, 0, 0, "heights must be 7 numbers from 0 to 5"),
        ((5,) * 7, 13, 0, "foundation rank must be 0..12"),
        ((5,) * 7, -1, 0, "foundation rank must be 0..12"),
        ((5,) * 7, None, 0, "only All in a Row's opening position has an empty foundation"),
        ((5,) * 7, 0, 17, "talon cards dealt must be 0..16"),
        ((5,) * 7, 0, -1, "talon cards dealt must be 0..16"),
    ],
)
def test_golf_position_refuses_impossible_states(game, heights, rank, dealt, message):
    deal = Deal.from_board_text(KINGS_AND_ACES, game=game)
    with pytest.raises(ValueError, match=f"^{message}$"):
        Position(deal, heights, rank, dealt)


@pytest.mark.parametrize(
    ("heights", "rank", "dealt", "message"),
    [
        ((4,) * 12, None, 0, "heights must be 13 numbers from 0 to 4"),
        ((5,) + (4,) * 12, 0, 0, "heights must be 13 numbers from 0 to 4"),
        ((3,) + (4,) * 12, None, 0, "only All in a Row's opening position has an empty foundation"),
        ((4,) * 13, None, 1, "only All in a Row's opening position has an empty foundation"),
        ((4,) * 13, 0, 1, "talon cards dealt must be 0..0"),
        ((4,) * 13, 13, 0, "foundation rank must be 0..12"),
    ],
)
def test_all_in_a_row_position_refuses_impossible_states(heights, rank, dealt, message):
    deal = Deal.from_board_text(ALL_IN_A_ROW_1, game=ALL_IN_A_ROW)
    with pytest.raises(ValueError, match=f"^{message}$"):
        Position(deal, heights, rank, dealt)


def test_black_hole_position_refuses_an_empty_foundation():
    deal = Deal.from_cards(tuple(card for card in range(52) if card != 3))
    assert deal.game is BLACK_HOLE
    with pytest.raises(ValueError, match="^only All in a Row's opening position has an empty foundation$"):
        Position(deal, (3,) * 17, None)


# --- properties -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@given(data=st.data())
def test_random_playouts_follow_the_rules(game, data):
    deal = data.draw(family_deals(game))
    chance = data.draw(st.randoms(use_true_random=False))
    position = Position.start(deal)
    moves: list[int] = []
    while position.legal_moves():
        move = chance.choice(position.legal_moves())
        before = position
        position = position.play(move)
        moves.append(move)
        if game.has_talon and move == game.talon_move:
            assert position.foundation_rank == rank_of(deal.talon[before.talon_dealt])
            assert position.talon_dealt == before.talon_dealt + 1
            assert position.heights == before.heights
        else:
            card = before.top_card(move)
            assert card is not None and plainly_fits(game, card, before.foundation_rank)
            assert position.foundation_rank == rank_of(card)
            assert position.cards_played == before.cards_played + 1
        assert position.cards_played + sum(position.heights) == game.pile_cards
        assert position.cards_played + position.talon_dealt == len(moves)
    assert position.talon_left == 0
    for pile in range(game.num_piles):
        card = position.top_card(pile)
        assert card is None or not plainly_fits(game, card, position.foundation_rank)
    assert position.is_won == (position.cards_played == game.pile_cards)
    assert Position.after(deal, moves) == position
    if position.is_won:
        assert replay(deal, moves) == position
    else:
        with pytest.raises(IllegalMove, match=f"^after {len(moves)} moves "):
            replay(deal, moves)


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@given(data=st.data())
def test_opening_legal_moves_are_the_free_cards_that_fit(game, data):
    deal = data.draw(family_deals(game))
    position = Position.start(deal)
    foundation = None if deal.foundation is None else rank_of(deal.foundation)
    expected = tuple(
        pile for pile in range(game.num_piles) if plainly_fits(game, deal.top_card(pile), foundation)
    )
    assert position.legal_moves() == expected + ((game.talon_move,) if game.has_talon else ())


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_every_player_model_gives_a_distribution_over_each_games_legal_moves(game):
    for index in range(20):
        position = Position.start(seeded_deal(1, index, game))
        for player in Player:
            check_distribution(position, policy(player, position))


def _relabelled(deal: Deal, order: tuple[int, ...]) -> Deal:
    """``deal`` with suit ``s`` renamed ``order[s]`` and its piles in reverse order."""

    def card(value: int) -> int:
        return make_card(rank_of(value), order[suit_of(value)])

    piles = tuple(tuple(card(c) for c in pile) for pile in reversed(deal.piles))
    foundation = None if deal.foundation is None else card(deal.foundation)
    return Deal(piles, deal.game, foundation, tuple(card(c) for c in deal.talon))


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
@given(data=st.data())
def test_a_canonical_key_is_the_same_for_relabelled_suits_and_moved_piles_alone(game, data):
    """No card is fixed in the other games: every order of the four suits is the same game, and so are the
    piles in another order; another deal, or the talon in another order, has another key."""
    deal = data.draw(family_deals(game))
    order = tuple(data.draw(st.permutations(range(4))))
    key = canonical_key(deal)
    assert len(key) == 52
    assert canonical_key(_relabelled(deal, order)) == key
    if game.has_talon and len(set(map(rank_of, deal.talon))) > 1:
        talon = deal.talon[1:] + deal.talon[:1]
        assert canonical_key(Deal(deal.piles, game, deal.foundation, talon)) != key
