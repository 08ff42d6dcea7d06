"""The bots: each plays as its model's dead ends assume, its events replay to the record it gives, seeded."""

from __future__ import annotations

import random

import pytest

from pipeline.engine.solver import solve
from pipeline.game.players import PLAYERS, Player
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict
from pipeline.plays.events import replay_events
from tests.support.bots import Bot, play_attempt


@pytest.mark.parametrize("player", PLAYERS, ids=lambda player: player.value)
def test_an_attempt_with_undo_is_won_and_its_events_give_its_record(deals, player):
    _, deal = deals[0]
    played = play_attempt(deal, player, random.Random(7))
    tally = replay_events(deal, played.events)
    assert played.record == {
        "moves": tally.moves,
        "undos": tally.undos,
        "redos": 0,
        "restarts": 0,
        "hints": 0,
        "dead_ends": tally.dead_ends,
        "cards_played": 51,
        "clean": tally.undos == 0,
        "outcome": "won",
    }
    assert tally.won and tally.moves == 51 + tally.undos


def test_at_each_dead_end_it_undoes_to_the_last_position_a_win_exists_from(deals):
    _, deal = deals[1]
    played = play_attempt(deal, Player.RANDOM, random.Random(11))
    assert played.record["dead_ends"] > 0
    path = [Position.start(deal)]
    for number, event in enumerate(played.events):
        if event == "undo":
            undone = path.pop()
            if played.events[number + 1] != "undo":  # the last undo of a run: a win is open here again...
                assert solve(deal, start=path[-1]).verdict is Verdict.SOLVED
                assert solve(deal, start=undone).verdict is Verdict.UNSOLVABLE  # ...and not one step on
        else:
            assert isinstance(event, int)
            path.append(path[-1].play(event))
    assert path[-1].is_won


def test_without_undo_it_plays_one_game_to_the_win_or_until_stuck(deals):
    _, deal = deals[2]
    played = play_attempt(deal, Player.TIPS, random.Random(1), undo=False)
    assert "undo" not in played.events
    tally = replay_events(deal, played.events)
    assert played.record["outcome"] == ("won" if tally.won else "stuck")
    assert played.record["dead_ends"] == (0 if tally.won else 1) == tally.dead_ends
    assert played.record["clean"] is tally.won and played.record["cards_played"] == tally.cards_played


def test_the_same_seed_gives_the_same_events_whatever_the_bot_worked_out_before(deals):
    _, deal = deals[3]
    fresh = Bot(deal, Player.LOOKAHEAD_2).attempt(random.Random(5))
    warmed = Bot(deal, Player.LOOKAHEAD_2)
    warmed.attempt(random.Random(99))
    assert (
        warmed.attempt(random.Random(5)) == fresh == play_attempt(deal, Player.LOOKAHEAD_2, random.Random(5))
    )
