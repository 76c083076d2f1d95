"""Wildcard tiles of each region, derived from the flipped indicator tile.

* Wuhan (seed 004 癞子, RULINGS H12): the 癞子 is the tile after the flipped one.
* Wuxue (seed 000 2.1-2.2, RULINGS W15): the flipped tile and 红中 are 癞子皮 (pizi),
  the next tile is the 宝 (the wildcard).
* Rushan (seed 003 搂宝, RULINGS R9): the 宝 tile is given, it is no wildcard.

Every result has ``wild`` (the tile that may stand for any tile, or None) and
``forbidden`` (tiles whose presence in the concealed hand forbids any win).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from settle.tiles.notation import BAI, EAST, FA, HONOURS, NORTH, SOUTH, WEST, ZHONG, check_tile

# H12: honours cycle 东南西北白, skipping the gang tiles 红中 and 发财; a flipped gang
# tile points at 白 like 北 does.
_WUHAN_NEXT_HONOUR = {EAST: SOUTH, SOUTH: WEST, WEST: NORTH, NORTH: BAI, ZHONG: BAI, FA: BAI, BAI: EAST}
# H12 variant (option facai_gang off; the text's "摸到北和中都是发作癞子"): only 红中 is skipped.
_WUHAN_NEXT_HONOUR_FACAI_PLAIN = {
    EAST: SOUTH,
    SOUTH: WEST,
    WEST: NORTH,
    NORTH: FA,
    ZHONG: FA,
    FA: BAI,
    BAI: EAST,
}
# W15: honours cycle 东南西北中发白东.
_WUXUE_NEXT_HONOUR = {EAST: SOUTH, SOUTH: WEST, WEST: NORTH, NORTH: ZHONG, ZHONG: FA, FA: BAI, BAI: EAST}
# W15 (seed 000 2.2④⑤): the two flips that would make 红中 both pizi and 宝, or pizi twice.
_WUXUE_SPECIAL_PIZI = {ZHONG: frozenset({ZHONG, BAI}), NORTH: frozenset({NORTH, BAI})}


def next_suited(tile: int) -> int:
    """The next tile of the same suit, 9 -> 1 (seed 000 2.1③, seed 004 癞子 A)."""
    return tile - 8 if tile % 9 == 8 else tile + 1


@dataclass(frozen=True)
class WuhanWildcards:
    """Wuhan 红中赖子杠 wildcards (seed 004 癞子/红中/发财, RULINGS H8 H12).

    ``laizi`` is the wildcard; ``gang_tiles`` are 红中 (and 发财 when ``facai_gang``):
    they can only be konged away, and holding one forbids any win.
    """

    indicator: int
    laizi: int
    gang_tiles: frozenset[int]
    facai_gang: bool = True

    @property
    def wild(self) -> int:
        return self.laizi

    @property
    def forbidden(self) -> frozenset[int]:
        return self.gang_tiles


@dataclass(frozen=True)
class WuxueWildcards:
    """Wuxue 武穴 wildcards (seed 000 2.1-2.3, RULINGS W15).

    ``bao`` 宝牌 is the wildcard; holding any of ``pizi`` 癞子皮 forbids winning.
    """

    indicator: int
    bao: int
    pizi: frozenset[int]

    @property
    def wild(self) -> int:
        return self.bao

    @property
    def forbidden(self) -> frozenset[int]:
        return self.pizi


@dataclass(frozen=True)
class RushanBao:
    """Rushan 搂宝 tile (seed 003 摸宝/宝中宝, RULINGS R9): not a wildcard in the hand.

    It only matters for ``mobao``/``baozhongbao``: the winning tile is the 宝 tile.
    """

    bao_tile: int | None = None

    @property
    def wild(self) -> None:
        return None

    @property
    def forbidden(self) -> frozenset[int]:
        return frozenset()


Wildcards = WuhanWildcards | WuxueWildcards | RushanBao


def wuhan_wildcards(indicator: int, *, facai_gang: bool = True) -> WuhanWildcards:
    """癞子 from the flipped tile (H12): 5m -> 6m, 9m -> 1m, 北/中/发 -> 白, 白 -> 东.

    With ``facai_gang=False`` (the text's own variant) 发财 is an ordinary tile:
    北/中 -> 发, 发 -> 白.
    """
    return _wuhan_wildcards(check_tile(indicator), bool(facai_gang))


@cache
def _wuhan_wildcards(indicator: int, facai_gang: bool) -> WuhanWildcards:
    cycle = _WUHAN_NEXT_HONOUR if facai_gang else _WUHAN_NEXT_HONOUR_FACAI_PLAIN
    laizi = cycle[indicator] if indicator >= HONOURS else next_suited(indicator)
    gang_tiles = frozenset({ZHONG, FA}) if facai_gang else frozenset({ZHONG})
    return WuhanWildcards(indicator, laizi, gang_tiles, facai_gang)


def wuxue_wildcards(indicator: int) -> WuxueWildcards:
    """宝 and 癞子皮 from the flipped tile (W15).

    Pizi = the flipped tile and 红中; 宝 = the next tile (9 -> 1; 东南西北中发白东).
    Flipped 中: 中 and 白 are pizi, 发 is 宝. Flipped 北: 北 and 白 are pizi, 中 is 宝.
    """
    return _wuxue_wildcards(check_tile(indicator))


@cache
def _wuxue_wildcards(indicator: int) -> WuxueWildcards:
    bao = _WUXUE_NEXT_HONOUR[indicator] if indicator >= HONOURS else next_suited(indicator)
    pizi = _WUXUE_SPECIAL_PIZI.get(indicator, frozenset({indicator, ZHONG}))
    return WuxueWildcards(indicator, bao, pizi)


def rushan_bao(bao_tile: int | None) -> RushanBao:
    """The 搂宝 tile as given (R9); None when the option is not played."""
    return RushanBao(None if bao_tile is None else check_tile(bao_tile))
