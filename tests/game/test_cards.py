"""Cards: numbering, names both ways, accepted spellings, the rank circle."""

from __future__ import annotations

import itertools

import pytest

from pipeline.game.cards import (
    ACE_OF_SPADES,
    NUM_CARDS,
    CardError,
    card_name,
    make_card,
    parse_card,
    rank_of,
    ranks_adjacent,
    suit_of,
)

ALL_NAMES = [rank + suit for rank in "A23456789TJQK" for suit in "HCDS"]


def test_numbering_is_rank_times_four_plus_suit_in_hcds_order():
    assert parse_card("AH") == 0
    assert parse_card("AC") == 1
    assert parse_card("AD") == 2
    assert parse_card("AS") == 3 == ACE_OF_SPADES
    assert parse_card("2H") == 4
    assert parse_card("KS") == 51
    assert [card_name(card) for card in range(NUM_CARDS)] == ALL_NAMES


@pytest.mark.parametrize("card", range(NUM_CARDS))
def test_name_parse_round_trip(card):
    name = card_name(card)
    assert len(name) == 2
    assert parse_card(name) == card
    assert make_card(rank_of(card), suit_of(card)) == card


def test_parse_name_round_trip_for_every_name():
    assert len(set(map(parse_card, ALL_NAMES))) == NUM_CARDS
    for name in ALL_NAMES:
        assert card_name(parse_card(name)) == name


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("10H", "TH"),
        ("10s", "TS"),
        ("th", "TH"),
        ("qh", "QH"),
        ("Qh", "QH"),
        ("qH", "QH"),
        ("as", "AS"),
        ("A♠", "AS"),
        ("a♠", "AS"),
        ("K♥", "KH"),
        ("7♦", "7D"),
        ("J♣", "JC"),
        ("10♣", "TC"),
        ("t♦", "TD"),
        (" 9c ", "9C"),
    ],
)
def test_accepted_spellings(spelling, name):
    assert card_name(parse_card(spelling)) == name


@pytest.mark.parametrize(
    "text",
    ["", " ", *"A S 1H 11H 0H ZH AX AHS 10 T10 1OH XS A♤♠ AA HA ♠A".split()],
)
def test_bad_names_rejected(text):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_name_rejects_numbers_outside_the_deck(number):
    with pytest.raises(CardError):
        card_name(number)


def test_adjacency_around_the_circle():
    ace, two, queen, king = 0, 1, 11, 12
    assert ranks_adjacent(ace, king) and ranks_adjacent(king, ace)
    assert ranks_adjacent(ace, two) and ranks_adjacent(two, ace)
    assert ranks_adjacent(queen, king)
    assert not ranks_adjacent(ace, queen)
    assert not ranks_adjacent(two, king)


def test_adjacency_matches_the_circle_for_every_pair():
    circle = "A23456789TJQK"
    neighbours = {(circle[i], circle[(i + 1) % 13]) for i in range(13)}
    neighbours |= {(b, a) for a, b in neighbours}
    for a, b in itertools.product(range(13), repeat=2):
        assert ranks_adjacent(a, b) == ((circle[a], circle[b]) in neighbours), (a, b)
    assert sum(ranks_adjacent(a, b) for a, b in itertools.product(range(13), repeat=2)) == 26


@pytest.mark.parametrize("rank", range(13))
def test_equal_ranks_never_adjacent(rank):
    assert not ranks_adjacent(rank, rank)
