"""Readings: every (wildcard values, decomposition) of a winning hand.

The enumerator is checked against the literal definition: put every wildcard on every
tile, split each plain hand every possible way, and collect the distinct group lists.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations_with_replacement

from tile_helpers import random_sets

from settle.tiles.features import best_readings, features_of
from settle.tiles.notation import parse_tile, parse_tiles, to_counts
from settle.tiles.readings import SEVEN_PAIRS, STANDARD, enumerate_readings, readings_from_counts
from settle.tiles.shapes import is_win

Groups = tuple[tuple[int, ...], ...]


def decompositions(tiles: list[int], pair_left: int) -> Iterator[Groups]:
    """Every split of a plain hand (no wildcards) into sets and ``pair_left`` pairs."""
    first = next((t for t, c in enumerate(tiles) if c), None)
    if first is None:
        if pair_left == 0:
            yield ()
        return
    candidates: list[tuple[int, ...]] = []
    if pair_left and tiles[first] >= 2:
        candidates.append((first, first))
    if tiles[first] >= 3:
        candidates.append((first, first, first))
    if first < 27 and first % 9 <= 6 and tiles[first + 1] and tiles[first + 2]:
        candidates.append((first, first + 1, first + 2))
    for group in candidates:
        for tile in group:
            tiles[tile] -= 1
        for rest in decompositions(tiles, pair_left - (len(group) == 2)):
            yield (group, *rest)
        for tile in group:
            tiles[tile] += 1


def literal_readings(counts: list[int], wilds: int, seven_pairs: bool) -> set[Groups]:
    found: set[Groups] = set()
    for substitute in combinations_with_replacement(range(34), wilds):
        tiles = list(counts)
        for tile in substitute:
            tiles[tile] += 1
        for groups in decompositions(tiles, 1):
            found.add(tuple(sorted(groups)))
        if seven_pairs and sum(tiles) == 14 and all(c % 2 == 0 for c in tiles):
            found.add(tuple((t, t) for t, c in enumerate(tiles) for _ in range(c // 2)))
    return found


def winning_counts(rng: random.Random, size: int, wilds: int) -> list[int]:
    while True:
        tiles = random_sets(rng, size)
        pair = rng.randrange(34)
        tiles += [pair, pair]
        rng.shuffle(tiles)
        counts = to_counts(tiles[wilds:])
        if max(counts) <= 4:
            return counts


def test_enumerator_matches_literal_substitution() -> None:
    rng = random.Random(11)
    compared = 0
    for _ in range(400):
        size = rng.choice((14, 14, 11, 8, 5, 2))
        wilds = rng.randint(0, 2) if size > 8 else rng.randint(0, min(4, size))
        counts = winning_counts(rng, size, wilds)
        seven_pairs = size == 14 and rng.random() < 0.5
        got = {r.groups for r in readings_from_counts(counts, wilds, None, seven_pairs=seven_pairs)}
        assert got == literal_readings(counts, wilds, seven_pairs), (counts, wilds)
        assert bool(got) is is_win(counts, wilds, seven_pairs)
        compared += len(got)
    assert compared > 400


def test_fast_feature_search_finds_every_feature_value() -> None:
    # best_readings must give exactly the features of the full list, each with the
    # fewest substitutions any reading with those features has.
    rng = random.Random(12)
    for _ in range(1500):
        size = rng.choice((14, 14, 14, 11, 8, 5, 2))
        wilds = rng.randint(0, min(4, size))
        wild = rng.randrange(34)
        counts = winning_counts(rng, size, wilds)
        counts[wild] = 0  # the wild tile's copies are the wildcards
        seven_pairs = rng.random() < 0.5
        full: dict = {}
        for reading in readings_from_counts(counts, wilds, wild, seven_pairs=seven_pairs):
            key = features_of(reading)
            full[key] = min(full.get(key, 9), reading.substitutions)
        fast = best_readings(counts, wilds, wild, seven_pairs=seven_pairs)
        assert {k: r.substitutions for k, r in fast.items()} == full, (counts, wilds, wild)
        for key, reading in fast.items():
            assert features_of(reading) == key


def test_wildcard_read_as_itself_is_no_substitution() -> None:
    # seed 004 硬胡 "用本身花数胡", H8/W16: a wildcard read as itself is not substituted.
    five_sou = parse_tile("5s")
    readings = enumerate_readings(parse_tiles("22m 345m 678p 456s 666s"), five_sou)
    assert [r.substitutions for r in readings] == [0]
    assert readings[0].wild_values == (five_sou,)


def test_readings_record_what_wildcards_stand_for() -> None:
    # 11m 123m 456m 789m 99m + the wildcard 5s: a pure 万 hand (九莲-like) where the
    # wildcard may be any of 1m..9m, each with its own split; never a 筒/条/honour.
    wild = parse_tile("5s")
    readings = enumerate_readings(parse_tiles("11m 123m 456m 789m 99m 5s"), wild)
    assert {r.wild_values for r in readings} == {(t,) for t in range(9)}
    assert all(r.substitutions == 1 for r in readings)


def test_readings_of_a_plain_hand() -> None:
    # 111222333m: three pungs or three 123m chows, both readings are listed.
    readings = enumerate_readings(parse_tiles("111222333m 456p 55s"))
    assert len(readings) == 2
    assert all(r.shape == STANDARD and r.pair == (22, 22) for r in readings)


def test_seven_pairs_reading_with_a_quad() -> None:
    readings = enumerate_readings(parse_tiles("1111m 33m 55p 66p 22s 88s"), seven_pairs=True)
    assert [r.shape for r in readings] == [SEVEN_PAIRS]
    assert readings[0].pairs.count((0, 0)) == 2


def test_pure_wild_groups_take_every_value() -> None:
    # 123m 456m 789m 55p + three wildcards: the wild set may be any pung or chow.
    readings = enumerate_readings(parse_tiles("123m 456m 789m 55p 1z1z1z"), parse_tile("1z"))
    fixed = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (13, 13)]
    wild_sets = set()
    for reading in readings:
        rest = list(reading.groups)
        if all(group in rest for group in fixed):
            for group in fixed:
                rest.remove(group)
            wild_sets.add(rest[0])
    assert len(wild_sets) == 34 + 21  # every pung and every chow
    assert sum(r.substitutions == 0 for r in readings) == 1  # 东东东 read as itself
