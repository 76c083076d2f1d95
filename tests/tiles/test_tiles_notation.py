"""Tile notation: compact and Chinese names, formatting, and error messages."""

from __future__ import annotations

import pytest

from settle.tiles.notation import (
    BAI,
    EAST,
    FA,
    ZHONG,
    format_chinese,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_to_chinese,
    tile_to_str,
    to_counts,
)


def test_compact_groups_with_spaces_and_without() -> None:
    # 0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-33 = 1-7z in the order 东南西北中发白.
    expected = [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]
    assert parse_tiles("123m 456p 789s 11z") == expected
    assert parse_tiles("123m456p789s11z") == expected


def test_compact_one_letter_per_tile() -> None:
    assert parse_tiles("1m2m3m") == [0, 1, 2]


def test_honour_numbers_follow_the_rule_texts_cycle() -> None:
    # 5z is 红中 here (东南西北中发白, seed 000 2.2③), not 白 as in riichi notation.
    assert parse_tiles("5z6z7z") == [ZHONG, FA, BAI]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("一万 九万", [0, 8]),
        ("一筒 一饼 一餅", [9, 9, 9]),
        ("一条 一索 一條", [18, 18, 18]),
        ("五萬", [4]),
        ("东 南 西 北", [27, 28, 29, 30]),
        ("東 東风 东風", [EAST, EAST, EAST]),
        ("中 红中 紅中", [ZHONG] * 3),
        ("发 發 发财 發財", [FA] * 4),
        ("白 白板", [BAI, BAI]),
        ("一万二万三万红中白板", [0, 1, 2, ZHONG, BAI]),
        ("5万 9条", [4, 26]),
    ],
)
def test_chinese_names_simplified_and_traditional(text: str, expected: list[int]) -> None:
    assert parse_tiles(text) == expected


def test_mixed_notation_and_separators() -> None:
    assert parse_tiles("12m, 东、红中") == [0, 1, EAST, ZHONG]


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("0m", "0m"),
        ("8z", "8z"),
        ("12x", "12x"),
        ("123", "123"),
        ("一万 鸡", "鸡"),
    ],
)
def test_errors_name_the_bad_token_and_what_is_allowed(text: str, token: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_tiles(text)
    message = str(error.value)
    assert repr(token) in message
    assert "digits 1-9 followed by m" in message  # what is allowed


def test_parse_tile_wants_exactly_one() -> None:
    assert parse_tile("红中") == ZHONG
    assert parse_tile(4) == 4
    with pytest.raises(ValueError, match="exactly one tile"):
        parse_tile("12m")
    with pytest.raises(ValueError, match=r"0\.\.33"):
        parse_tile(34)


def test_format_round_trips() -> None:
    tiles = parse_tiles("東 9s 1m 1m 5z 2p")
    assert format_tiles(tiles) == "11m2p9s15z"
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)
    assert format_chinese(tiles) == "一万 一万 二筒 九条 东 红中"
    assert sorted(parse_tiles(format_chinese(tiles))) == sorted(tiles)


def test_single_tile_names() -> None:
    assert tile_to_str(31) == "5z"
    assert tile_to_chinese(31) == "红中"
    assert tile_to_chinese(26) == "九条"


def test_counts() -> None:
    counts = to_counts(parse_tiles("112m"))
    assert counts[0] == 2
    assert counts[1] == 1
    assert sum(counts) == 3


def test_every_bad_token_is_named_at_once() -> None:
    # Regression (new-user trial): only the first bad token was reported, so a mistyped hand took
    # one run per mistake.
    with pytest.raises(ValueError) as error:
        parse_tiles("123m 456x 0p 一万 鸡 7")
    message = str(error.value)
    for part in ("'456x' (unknown suit)", "'0p' (no such tile)", "'鸡'", "'7' (digits need a suit)"):
        assert part in message
