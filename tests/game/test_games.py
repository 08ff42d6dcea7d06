"""The games of the family as data: names, layouts, and which rank fits on which (fits)."""

from __future__ import annotations

import pytest

from pipeline.game.cards import RANKS
from pipeline.game.games import (
    ALL_IN_A_ROW,
    BLACK_HOLE,
    DEAD_KING_GOLF,
    GAME_NAMES,
    GAMES,
    GOLF,
    RELAXED_GOLF,
    FoundationStart,
    GameName,
    UnknownGame,
    fits,
    game_named,
)

GOLFS = (DEAD_KING_GOLF, GOLF, RELAXED_GOLF)


def rank(name: str) -> int:
    return RANKS.index(name)


def fit(game, card_rank: str, foundation_rank: str | None) -> bool:
    """fits() spelled with rank names: ``fit(GOLF, "Q", "K")``."""
    return fits(game, rank(card_rank), None if foundation_rank is None else rank(foundation_rank))


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
def test_every_game_is_found_by_its_name_and_its_enum_member(game):
    assert game_named(game.name) is game
    assert game_named(GameName(game.name)) is game


def test_the_games_in_order():
    assert GAME_NAMES == ("black_hole", "all_in_a_row", "dead_king_golf", "golf", "relaxed_golf")
    assert [member.value for member in GameName] == list(GAME_NAMES)
    assert [game.title for game in GAMES] == [
        "Black Hole",
        "All in a Row",
        "Dead King Golf",
        "Golf",
        "Relaxed Golf",
    ]


@pytest.mark.parametrize("name", ["klondike", "Golf", "", "black-hole"])
def test_an_unknown_name_is_refused_naming_the_games(name):
    with pytest.raises(UnknownGame) as caught:
        game_named(name)
    assert str(caught.value) == (
        f"unknown game {name!r}: the games are black_hole, all_in_a_row, dead_king_golf, golf, relaxed_golf"
    )


def test_unknown_game_is_a_value_error():
    assert issubclass(UnknownGame, ValueError)


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
def test_repr_reads_like_the_call_that_finds_the_game(game):
    assert repr(game) == f"game_named({game.name!r})"
    assert eval(repr(game)) is game


# --- layouts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "piles", "size", "talon", "pile_cards", "talon_move", "layout"),
    [
        (BLACK_HOLE, 17, 3, 0, 51, 17, "black_hole"),
        (ALL_IN_A_ROW, 13, 4, 0, 52, 13, "all_in_a_row"),
        (DEAD_KING_GOLF, 7, 5, 16, 35, 7, "golf"),
        (GOLF, 7, 5, 16, 35, 7, "golf"),
        (RELAXED_GOLF, 7, 5, 16, 35, 7, "golf"),
    ],
    ids=GAME_NAMES,
)
def test_layout_numbers(game, piles, size, talon, pile_cards, talon_move, layout):
    assert (game.num_piles, game.pile_size, game.talon_size) == (piles, size, talon)
    assert game.pile_cards == pile_cards
    assert game.talon_move == talon_move
    assert game.has_talon == (talon > 0)
    assert game.layout == layout


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
def test_every_game_deals_the_deck(game):
    on_the_foundation = 1 if game.foundation_start is not FoundationStart.EMPTY else 0
    assert game.pile_cards + game.talon_size + on_the_foundation == 52


@pytest.mark.parametrize(
    ("game", "start", "wrap", "dead_king"),
    [
        (BLACK_HOLE, FoundationStart.ACE_OF_SPADES, True, False),
        (ALL_IN_A_ROW, FoundationStart.EMPTY, True, False),
        (DEAD_KING_GOLF, FoundationStart.DEALT, False, True),
        (GOLF, FoundationStart.DEALT, False, False),
        (RELAXED_GOLF, FoundationStart.DEALT, True, False),
    ],
    ids=GAME_NAMES,
)
def test_rules(game, start, wrap, dead_king):
    assert (game.foundation_start, game.wrap, game.dead_king) == (start, wrap, dead_king)


@pytest.mark.parametrize(
    ("game", "arguments"),
    [
        (BLACK_HOLE, ("--game", "black_hole")),
        (ALL_IN_A_ROW, ("--game", "all_in_a_row")),
        (DEAD_KING_GOLF, ("--game", "golf")),
        (GOLF, ("--game", "golf", "--queens-on-kings")),
        (RELAXED_GOLF, ("--game", "golf", "--wrap-ranks")),
    ],
    ids=GAME_NAMES,
)
def test_black_hole_solver_arguments(game, arguments):
    """``--game`` comes first: black-hole-solver's ``--game golf`` switches wrapping off, undoing a
    ``--wrap-ranks`` given before it."""
    assert game.solver_arguments == arguments


def test_games_are_frozen():
    with pytest.raises(AttributeError):
        GOLF.wrap = True  # type: ignore[misc]


# --- fits: golden cases -------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
@pytest.mark.parametrize(("card", "foundation"), [("2", "A"), ("A", "2"), ("7", "6"), ("6", "7"), ("Q", "J")])
def test_one_up_or_down_fits_in_every_game(game, card, foundation):
    assert fit(game, card, foundation)


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
@pytest.mark.parametrize(("card", "foundation"), [("5", "5"), ("3", "A"), ("A", "3"), ("7", "9"), ("6", "K")])
def test_equal_and_distant_ranks_never_fit(game, card, foundation):
    assert not fit(game, card, foundation)


@pytest.mark.parametrize(
    ("game", "expected"),
    [(BLACK_HOLE, True), (ALL_IN_A_ROW, True), (DEAD_KING_GOLF, False), (GOLF, False), (RELAXED_GOLF, True)],
    ids=GAME_NAMES,
)
def test_king_and_ace_are_neighbours_only_when_the_game_wraps(game, expected):
    assert fit(game, "K", "A") is expected
    assert fit(game, "A", "K") is expected


@pytest.mark.parametrize(
    ("game", "expected"),
    [(BLACK_HOLE, True), (ALL_IN_A_ROW, True), (DEAD_KING_GOLF, False), (GOLF, True), (RELAXED_GOLF, True)],
    ids=GAME_NAMES,
)
def test_a_queen_on_a_king_but_in_dead_king_golf(game, expected):
    assert fit(game, "Q", "K") is expected


def test_nothing_goes_on_a_king_in_dead_king_golf():
    assert [name for name in RANKS if fit(DEAD_KING_GOLF, name, "K")] == []
    assert [name for name in RANKS if fit(GOLF, name, "K")] == ["Q"]
    assert [name for name in RANKS if fit(RELAXED_GOLF, name, "K")] == ["A", "Q"]


def test_a_king_goes_on_a_queen_in_dead_king_golf():
    assert fit(DEAD_KING_GOLF, "K", "Q")


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
def test_an_empty_foundation_takes_any_rank(game):
    assert all(fit(game, name, None) for name in RANKS)


@pytest.mark.parametrize("game", GAMES, ids=GAME_NAMES)
def test_fits_against_a_plain_reading_of_the_rules(game):
    for card in range(13):
        for foundation in range(13):
            gap = abs(card - foundation)
            expected = gap == 1 or (game.wrap and gap == 12)
            if game.dead_king and foundation == 12:
                expected = False
            assert fits(game, card, foundation) is expected, (RANKS[card], RANKS[foundation])
