"""Win detection: hand-built cases, and the fast checker against the oracles.

The bulk comparison (100,000 hands, seeded) checks ``is_win`` against the plain
backtracking oracle ``is_win_bruteforce``; a smaller sample checks both against the
literal definition ``is_win_by_substitution`` (every wildcard on every tile).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tile_helpers import random_sets

from settle.tiles.notation import parse_tiles, to_counts
from settle.tiles.shapes import (
    is_seven_pairs,
    is_win,
    is_win_bruteforce,
    is_win_by_substitution,
)

WALL = [tile for tile in range(34) for _ in range(4)]
SIZES = (14, 14, 14, 14, 11, 8, 5, 2)  # 14 - 3 per declared meld


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


@pytest.mark.parametrize(
    ("text", "wilds", "expected"),
    [
        ("123m 456m 789m 123p 55p", 0, True),  # four chows and a pair
        ("111m 222m 333m 444m 55m", 0, True),
        ("123m 456m 789m 123p 56p", 0, False),  # no pair
        ("123m 456m 789m 123p 5p", 1, True),  # the wildcard pairs the 5p
        ("123m 456m 789m 13p 55p", 1, True),  # the wildcard is the 2p of 123p
        ("123m 456m 789m 55p", 3, True),  # three wildcards are a set of any tile
        ("123m 456m 789m 123p", 2, True),  # two wildcards are the pair
        ("1m 9m 1p 9p 1s 9s 1z 2z 3z 4z", 4, False),  # too scattered for four wildcards
        ("11z 222z 333z 444z 555z", 0, True),  # honours: pungs and a pair
        ("123z 456z 789m 123p 11s", 0, False),  # honours never chow
        ("55p", 0, True),  # four melds declared: a pair alone
        ("5p", 1, True),
        ("89m", 0, False),
        ("789m 11p", 0, True),  # three melds declared
        ("12m", 0, False),
    ],
)
def test_standard_shapes(text: str, wilds: int, expected: bool) -> None:
    assert is_win(counts(text), wilds) is expected
    assert is_win_bruteforce(counts(text), wilds) is expected


def test_wrong_sizes_never_win() -> None:
    assert not is_win(counts("123m 456m 789m 123p 5p"))  # 13 tiles
    assert not is_win(counts("123m 456m 789m 123p 123s 55p"))  # 17 tiles


def test_seven_pairs_only_where_allowed() -> None:
    hand = counts("11m 33m 55p 66p 22s 88s 11z")
    assert not is_win(hand)  # Wuhan has no seven pairs (seed 004)
    assert is_win(hand, seven_pairs=True)  # Wuxue, Rushan 七对
    # A four-of-a-kind counts as two pairs (seed 000 3.2⑦ 豪华七对).
    assert is_win(counts("1111m 33m 55p 66p 22s 88s"), seven_pairs=True)
    # One wildcard completes an odd tile, spare ones pair up.
    assert is_seven_pairs(counts("1m 33m 55p 66p 22s 88s 11z"), 1)
    assert is_win(counts("33m 55p 66p 22s 88s 11z"), 2, seven_pairs=True)
    assert not is_seven_pairs(counts("1m 3m 55p 66p 22s 88s 11z"), 1)


def test_more_than_four_wildcards_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"0\.\.4"):
        is_win([0] * 34, 5)


def random_hand(rng: random.Random) -> tuple[list[int], int, bool]:
    """A random hand: wall sample, or a built winning hand with tiles turned wild/moved."""
    size = rng.choice(SIZES)
    wilds = min(rng.randint(0, 4), size)
    seven_pairs = rng.random() < 0.5
    if rng.random() < 0.6:
        return to_counts(rng.sample(WALL, size - wilds)), wilds, seven_pairs
    tiles = built_winning_tiles(rng, size)
    rng.shuffle(tiles)
    tiles = tiles[wilds:]
    if tiles and rng.random() < 0.3:
        tiles[0] = rng.randrange(34)  # near miss
    hand = to_counts(tiles)
    if max(hand) > 4:
        return to_counts(rng.sample(WALL, size - wilds)), wilds, seven_pairs
    return hand, wilds, seven_pairs


def built_winning_tiles(rng: random.Random, size: int) -> list[int]:
    if size == 14 and rng.random() < 0.2:
        pairs: list[int] = []
        for _ in range(7):
            tile = rng.randrange(34)
            pairs += [tile, tile]
        return pairs
    tiles = random_sets(rng, size)
    pair = rng.randrange(34)
    return [*tiles, pair, pair]


def test_fast_checker_agrees_with_bruteforce_on_100k_seeded_hands() -> None:
    rng = random.Random(20240611)
    wins = 0
    for _ in range(100_000):
        hand, wilds, seven_pairs = random_hand(rng)
        expected = is_win_bruteforce(hand, wilds, seven_pairs)
        assert is_win(hand, wilds, seven_pairs) is expected, (hand, wilds, seven_pairs)
        wins += expected
    assert 20_000 < wins < 80_000  # both outcomes are well represented


def test_oracles_agree_with_the_literal_substitution_definition() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 600:
        hand, wilds, seven_pairs = random_hand(rng)
        if wilds > 2 and sum(hand) + wilds > 8:
            continue  # C(37, 4) substitutions of a 14-tile hand: too slow here
        literal = is_win_by_substitution(hand, wilds, seven_pairs)
        assert is_win_bruteforce(hand, wilds, seven_pairs) is literal, (hand, wilds)
        assert is_win(hand, wilds, seven_pairs) is literal, (hand, wilds)
        checked += 1


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int, bool]:
    size = draw(st.sampled_from(SIZES))
    wilds = draw(st.integers(0, min(4, size)))
    tiles = draw(st.lists(st.integers(0, 33), min_size=size - wilds, max_size=size - wilds))
    hand = to_counts(tiles)
    for tile, count in enumerate(hand):
        hand[tile] = min(count, 4)  # a fifth copy does not exist
    return hand, wilds, draw(st.booleans())


@settings(derandomize=True, max_examples=3000, deadline=None, database=None)
@given(hands())
def test_fast_checker_agrees_with_bruteforce_hypothesis(case: tuple[list[int], int, bool]) -> None:
    hand, wilds, seven_pairs = case
    assert is_win(hand, wilds, seven_pairs) is is_win_bruteforce(hand, wilds, seven_pairs)
