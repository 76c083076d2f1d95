"""Wuhan's tile rules (seed 004 癞子/红中/发财/胡牌要求; RULINGS H3 H8 H12 G10): ``TILE_RULES``.

* the 癞子 is the tile after the flipped one; honours cycle 东南西北白, skipping the gang tiles
  红中 and 发财 (H12); with option ``facai_gang`` off 发财 is an ordinary tile (the text's own
  variant);
* fans from the tiles: ``pengpenghu quanqiuren qingyise jiangyise fengyise`` (大胡, H3) and
  ``hard`` (硬胡, H8); situational: ``gangshanghua haidilao qiangganghu`` (the last implied by
  ``robbed_kong``, G10); no seven pairs; 将一色/风一色 are 乱将/乱风 (no shape needed);
* legality (H8): a 2/5/8 pair except in 碰碰胡/清一色/将一色/风一色; two 癞子 forbid a 小胡;
  holding 红中 or 发财 forbids any win; 红中, 发财 and the 癞子 cannot be melded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from settle.core import Step
from settle.rules.tilerules import RegionTileRules
from settle.rules.wuhan.term import TERM
from settle.rules.wuhan.vocab import WILDCARD
from settle.tiles import Features, Meld, TileContext, Wildcards
from settle.tiles.notation import BAI, EAST, FA, HONOURS, NORTH, SOUTH, WEST, ZHONG, check_tile
from settle.tiles.readings import STANDARD
from settle.tiles.rules import (
    is_fengyise,
    is_hard,
    is_jiangyise,
    is_pengpenghu,
    is_qingyise,
    is_quanqiuren,
    reason,
    seed,
)
from settle.tiles.wildcards import next_suited

# H12: honours cycle 东南西北白, skipping the gang tiles 红中 and 发财; a flipped gang
# tile points at 白 like 北 does.
_NEXT_HONOUR = {EAST: SOUTH, SOUTH: WEST, WEST: NORTH, NORTH: BAI, ZHONG: BAI, FA: BAI, BAI: EAST}
# H12 variant (option facai_gang off; the text's "摸到北和中都是发作癞子"): only 红中 is skipped.
_NEXT_HONOUR_FACAI_PLAIN = {EAST: SOUTH, SOUTH: WEST, WEST: NORTH, NORTH: FA, ZHONG: FA, FA: BAI, BAI: EAST}


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
        """The 癞子."""
        return self.laizi

    @property
    def forbidden(self) -> frozenset[int]:
        """红中 (and 发财): held, they forbid any win (H8)."""
        return self.gang_tiles


def wuhan_wildcards(indicator: int, *, facai_gang: bool = True) -> WuhanWildcards:
    """癞子 from the flipped tile (H12): 5m -> 6m, 9m -> 1m, 北/中/发 -> 白, 白 -> 东.

    With ``facai_gang=False`` (the text's own variant) 发财 is an ordinary tile:
    北/中 -> 发, 发 -> 白.
    """
    return _wuhan_wildcards(check_tile(indicator), bool(facai_gang))


@cache
def _wuhan_wildcards(indicator: int, facai_gang: bool) -> WuhanWildcards:
    cycle = _NEXT_HONOUR if facai_gang else _NEXT_HONOUR_FACAI_PLAIN
    laizi = cycle[indicator] if indicator >= HONOURS else next_suited(indicator)
    gang_tiles = frozenset({ZHONG, FA}) if facai_gang else frozenset({ZHONG})
    return WuhanWildcards(indicator, laizi, gang_tiles, facai_gang)


_SITUATIONS = frozenset({"gangshanghua", "haidilao", "qiangganghu"})
_VOCABULARY = _SITUATIONS | {"pengpenghu", "quanqiuren", "qingyise", "jiangyise", "fengyise", "hard"}
_BIG_HANDS = _VOCABULARY - {"hard"}
# H8: fans that lift the 2/5/8 pair requirement.
_PAIR_258_EXEMPT = frozenset({"pengpenghu", "qingyise", "jiangyise", "fengyise"})

_TWO_LAIZI: Step = reason("two_wilds", "H8", wildcard=WILDCARD, small="小胡", excused=(), source=seed("004", "癞子 5"))
_PAIR_258: Step = reason("pair_258_except", "H8", fans=("碰碰胡", "清一色", "将一色", "风一色"))


class WuhanTileRules(RegionTileRules):
    """Wuhan 红中赖子杠 (seed 004; H3 H8 H12): see the module docstring."""

    __slots__ = ()

    name = TERM.key
    situations = _SITUATIONS
    vocabulary = _VOCABULARY
    big_hands = _BIG_HANDS
    pair_258_exempt = _PAIR_258_EXEMPT
    option_defaults = MappingProxyType({"facai_gang": True, "facai_blocks_win": True})
    situation_needs_by = MappingProxyType(
        {"gangshanghua": "self_draw", "haidilao": "self_draw", "qiangganghu": "robbed_kong"})
    implied = MappingProxyType({"robbed_kong": frozenset({"qiangganghu"})})
    # seed 004: 武汉麻将没有7对子; 风一色/将一色 are 乱风乱将 (no shape).
    seven_pairs = False
    loose_fans = ("jiangyise", "fengyise")
    flips_indicator = True
    wildcard_name = WILDCARD
    wildcard_kong = "laizi"
    table = MappingProxyType({
        "pengpenghu": is_pengpenghu,
        "quanqiuren": is_quanqiuren,
        "qingyise": is_qingyise,
        "jiangyise": is_jiangyise,
        "fengyise": is_fengyise,
        "hard": is_hard,
    })
    block_what = "红中/发财"
    block_rule = "H8"
    block_source = seed("004", "红中/发财")

    def from_indicator(self, indicator: int, options: Mapping[str, bool]) -> WuhanWildcards:
        """The 癞子 of the flipped tile (H12), by option ``facai_gang``."""
        return wuhan_wildcards(indicator, facai_gang=options["facai_gang"])

    def barred_in_meld(self, meld: Meld, cards: Wildcards, options: Mapping[str, bool]) -> frozenset[int]:
        """seed 004: 不能吃碰杠红中 (发财 likewise), 不能吃碰杠癞子."""
        return cards.forbidden | {cards.wild}  # type: ignore[arg-type]

    def blocking_tiles(self, context: TileContext) -> frozenset[int]:
        """H8: holding a 红中/发财 forbids any win.

        H8 bans a held 发财 whatever ``facai_gang`` says (its words have no condition), so with the
        H12 variant a 发 癞子 in hand forbids the win too; option ``facai_blocks_win: false`` lets a
        table that plays 发 as an ordinary tile win with it.
        """
        forbidden = context.cards.forbidden
        return forbidden | {FA} if context.options["facai_blocks_win"] else forbidden

    def illegal(self, context: TileContext, features: Features, fans: frozenset[str]) -> Step | None:
        """H8: a 2/5/8 pair unless 碰碰胡/清一色/将一色/风一色; two 癞子 forbid a 小胡."""
        if not fans & _BIG_HANDS and context.wilds_in_hand >= 2:
            return _TWO_LAIZI
        if features.shape == STANDARD and not features.pair_258 and not fans & _PAIR_258_EXEMPT:
            return _PAIR_258
        return None

    def item_value(self, pattern: Any) -> str:
        """``base +10 (大胡)`` for a big hand (H3), ``1 番`` otherwise (H2)."""
        return f"base +{pattern.value} (大胡)" if pattern.kind == "big" else f"{pattern.value} 番"


TILE_RULES = WuhanTileRules()
"""Wuhan's tile rules, for :func:`settle.tiles.evaluate_all`."""
