"""Wildcard tiles from the indicator: Wuhan H12, Wuxue W15, Rushan R9."""

from __future__ import annotations

import pytest

from settle.rules.rushan.tiles import rushan_bao
from settle.rules.wuhan.tiles import wuhan_wildcards
from settle.rules.wuxue.tiles import wuxue_wildcards
from settle.tiles.notation import parse_tile


def t(text: str) -> int:
    return parse_tile(text)


# H12: 癞子 = tile after the flipped one; honours cycle 东南西北白 skipping 红中/发财.
@pytest.mark.parametrize(
    ("flipped", "laizi"),
    [
        ("东", "南"),
        ("南", "西"),
        ("西", "北"),
        ("北", "白"),  # H12: skips 红中 and 发财 (seed 004: 翻出北, 跳过红中发财, 白板是癞子)
        ("中", "白"),  # H12: a flipped gang tile points at 白 like 北
        ("发", "白"),  # H12
        ("白", "东"),  # seed 004: 翻出白板, 东风是癞子
        ("5m", "6m"),  # seed 004 A: 翻出五万, 六万就是癞子
        ("9m", "1m"),  # seed 004 A: 翻出九万, 一万就是癞子
        ("9p", "1p"),
        ("9s", "1s"),
        ("8s", "9s"),
    ],
)
def test_wuhan_laizi_cycle(flipped: str, laizi: str) -> None:
    cards = wuhan_wildcards(t(flipped))
    assert cards.laizi == t(laizi)
    assert cards.wild == t(laizi)
    assert cards.forbidden == {t("中"), t("发")}  # H8: holding 红中 or 发财 forbids a win


# H12 variant (option facai_gang off): cycle 东南西北发白, only 红中 skipped;
# seed 004 癞子 4: 摸到"北"和"中"都是"发"作癞子.
@pytest.mark.parametrize(
    ("flipped", "laizi"),
    [("东", "南"), ("南", "西"), ("西", "北"), ("北", "发"), ("中", "发"), ("发", "白"), ("白", "东")],
)
def test_wuhan_laizi_cycle_without_facai_gang(flipped: str, laizi: str) -> None:
    cards = wuhan_wildcards(t(flipped), facai_gang=False)
    assert cards.laizi == t(laizi)
    assert cards.forbidden == {t("中")}  # 发 is an ordinary tile in this variant


# W15: pizi = flipped tile and 红中; 宝 = next tile, honours 东南西北中发白东.
@pytest.mark.parametrize(
    ("flipped", "bao", "pizi"),
    [
        ("5m", "6m", {"5m", "中"}),
        ("9m", "1m", {"9m", "中"}),  # seed 000 2.1③: 翻到9万, 1万为宝牌
        ("9p", "1p", {"9p", "中"}),
        ("东", "南", {"东", "中"}),
        ("南", "西", {"南", "中"}),
        ("西", "北", {"西", "中"}),
        ("北", "中", {"北", "白"}),  # seed 000 2.2⑤: 北风和白板是癞子皮, 红中是宝牌
        ("中", "发", {"中", "白"}),  # seed 000 2.2④: 红中和白板是癞子皮, 发财是宝牌
        ("发", "白", {"发", "中"}),
        ("白", "东", {"白", "中"}),  # the cycle wraps 白 -> 东
    ],
)
def test_wuxue_bao_and_pizi(flipped: str, bao: str, pizi: set[str]) -> None:
    cards = wuxue_wildcards(t(flipped))
    assert cards.bao == t(bao)
    assert cards.pizi == {t(p) for p in pizi}
    assert cards.bao not in cards.pizi


def test_rushan_bao_is_not_a_wildcard() -> None:
    # R9: the 搂宝 tile only matters for mobao/baozhongbao.
    bao = rushan_bao(t("5p"))
    assert bao.bao_tile == t("5p")
    assert bao.wild is None
    assert bao.forbidden == frozenset()


def test_bad_indicator() -> None:
    with pytest.raises(ValueError, match=r"0\.\.33"):
        wuhan_wildcards(40)
