"""An attempt's events replayed: cards by the rules, undo and redo a step at a time, restart a step too."""

from __future__ import annotations

import pytest

from pipeline.engine.solver import solve
from pipeline.game.deal import EXAMPLE_BOARD, Deal
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.plays.events import Action, ReplayError, card_text, event_codes, events_of_codes, replay_events

EXAMPLE = Deal.from_board_text(EXAMPLE_BOARD)  # PySol FC deal 1: 2 or 15 first, stuck within 3 cards
WINNABLE = seeded_deal(1, 0)


def first_moves(deal: Deal, count: int) -> list[int]:
    """The first legal move ``count`` times from the opening (the lowest pile each time)."""
    position, moves = Position.start(deal), []
    for _ in range(count):
        move = position.legal_moves()[0]
        moves.append(move)
        position = position.play(move)
    return moves


def test_cards_undo_redo_and_hints_are_counted_and_the_position_follows():
    two = first_moves(WINNABLE, 2)
    tally = replay_events(WINNABLE, [*two, "undo", "undo", "redo", "hint", "hint"])
    assert (tally.moves, tally.undos, tally.redos, tally.hints, tally.restarts) == (2, 2, 1, 2, 0)
    assert tally.cards_played == 1 and not tally.won and not tally.stuck


def test_a_restart_is_a_step_that_undo_takes_back_and_redo_plays_again():
    three = first_moves(WINNABLE, 3)
    assert replay_events(WINNABLE, [*three, "restart"]).cards_played == 0
    assert replay_events(WINNABLE, [*three, "restart", "undo"]).cards_played == 3
    assert replay_events(WINNABLE, [*three, "restart", "undo", "redo"]).cards_played == 0
    tally = replay_events(WINNABLE, [*three, "restart", "undo", "undo"])
    assert (tally.cards_played, tally.restarts, tally.undos) == (2, 1, 2)


def test_a_card_played_after_undo_throws_the_undone_steps_away():
    one, two = first_moves(WINNABLE, 2)
    with pytest.raises(ReplayError, match="event 4 redoes, but nothing was undone"):
        replay_events(WINNABLE, [one, "undo", one, "redo"])
    assert replay_events(WINNABLE, [one, two, "undo", two]).cards_played == 2


def test_dead_ends_count_every_arrival_at_a_position_with_no_move():
    stuck = _stuck_line(EXAMPLE)  # PySol FC deal 1 is lost: every line gets stuck within 3 cards
    tally = replay_events(EXAMPLE, [*stuck, "hint", "undo", "redo", "restart", "undo"])
    assert tally.dead_ends == 3  # played into, redone into, and brought back by undoing the restart
    assert tally.stuck and tally.cards_played == len(stuck)


def _stuck_line(deal: Deal) -> list[int]:
    position, moves = Position.start(deal), []
    while position.legal_moves():
        moves.append(position.legal_moves()[0])
        position = position.play(moves[-1])
    return moves


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        ([0], "event 1 plays pile 0, whose free card 10♥ does not fit on A♠"),
        (["undo"], "event 1 undoes, but there is nothing to take back"),
        (["redo"], "event 1 redoes, but nothing was undone"),
        (["restart"], "event 1 restarts at the opening position"),
        ([2, "undo", "restart"], "event 3 restarts at the opening position"),
        ([17], "event 1 plays pile 17, but the piles are 0..16"),
        ([True], "event 1 plays pile True, but the piles are 0..16"),
        (["jump"], "event 1 is 'jump', not a pile 0..16 or one of undo, redo, restart, hint"),
    ],
)
def test_an_event_the_rules_or_the_history_forbid_is_named(events, problem):
    with pytest.raises(ReplayError) as raised:
        replay_events(EXAMPLE, events)
    assert str(raised.value) == problem


def test_a_pile_played_empty_and_an_event_after_the_win_are_refused():
    win = list(solve(WINNABLE).solution)
    position = Position.start(WINNABLE)
    played = 0
    while position.heights[win[played]] > 1 or played == 0:  # the first pile a card of the win empties
        position = position.play(win[played])
        played += 1
    pile = win[played]
    position = position.play(pile)
    played += 1
    with pytest.raises(ReplayError, match=f"event {played + 1} plays pile {pile}, which is empty"):
        replay_events(WINNABLE, [*win[:played], pile])
    assert replay_events(WINNABLE, win).won
    with pytest.raises(ReplayError, match="event 52 \\(hint\\) comes after the win"):
        replay_events(WINNABLE, [*win, "hint"])


def test_events_and_their_codes_go_both_ways():
    events = [0, 16, *(action.value for action in Action)]
    assert event_codes(events) == [0, 16, -1, -2, -3, -4]
    assert events_of_codes(event_codes(events)) == events


def test_cards_read_as_the_gallery_shows_them():
    assert [card_text(card) for card in (0, 5, 38, 51)] == ["A♥", "2♣", "10♦", "K♠"]


def test_a_golf_attempt_deals_from_the_talon_and_counts_pile_cards_alone():
    """A talon deal (Golf's 7) is a move and a step; the cards played are the piles' alone; a restart after
    deals alone is allowed, and a deal from an empty talon, or a pile past the last, is refused."""
    from pipeline.game.games import GOLF
    from pipeline.game.shuffles import pysol_deal

    deal = pysol_deal(2, GOLF)
    solution = list(solve(deal).solution)
    assert GOLF.talon_move in solution
    tally = replay_events(deal, [GOLF.talon_move, "restart", "undo", "undo", *solution])
    assert (tally.moves, tally.restarts, tally.undos, tally.cards_played, tally.won) == (
        1 + len(solution),
        1,
        2,
        GOLF.pile_cards,
        True,
    )
    with pytest.raises(ReplayError, match=r"^event 17 deals from the talon, which is empty$"):
        replay_events(deal, [GOLF.talon_move] * 17)
    with pytest.raises(ReplayError, match=r"but the piles are 0\.\.6 and 7 deals from the talon$"):
        replay_events(deal, [8])


def test_an_all_in_a_row_attempt_starts_on_an_empty_foundation():
    from pipeline.game.games import ALL_IN_A_ROW

    deal = seeded_deal(3, 0, ALL_IN_A_ROW)
    first = Position.start(deal).legal_moves()
    assert len(first) == ALL_IN_A_ROW.num_piles  # any free card starts the foundation
    tally = replay_events(deal, [first[-1], "undo", first[0]])
    assert (tally.moves, tally.cards_played) == (2, 1)
