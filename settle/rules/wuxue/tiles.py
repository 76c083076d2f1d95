"""Wuxue's tile rules (seed 000 2.1-2.3, 2.7-2.8, 3.1-3.3; RULINGS W2 W12 W15 W16 G10): ``TILE_RULES``.

* the flipped tile and 红中 are 癞子皮 (pizi), the next tile is the 宝 (the wildcard); honours
  cycle 东南西北中发白东 (W15); the flipped tile is out of play, 3 copies are left (2.2①);
* fans from the tiles: ``qidui haohua_qidui chaohaohua_qidui chaochaohaohua_qidui qingyise
  jiangyise fengyise pengpenghu quanqiuren`` (大胡, W2), ``hard`` (W16), ``sibao`` (four 宝,
  3.3②); situational: ``gangkai`` (G10); 将一色 needs no shape (3.2③), 风一色 does (3.2④);
* legality: a 屁胡 needs a 2/5/8 pair (W12), two 宝 forbid a 屁胡 except 杠开/抢杠胡 (W15);
  holding a 癞子皮 forbids any win; a 宝 or 癞子皮 cannot be punged or konged (2.3④).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from settle.core import Step
from settle.rules.tilerules import RegionTileRules
from settle.rules.wuxue.term import TERM
from settle.rules.wuxue.vocab import WILDCARD
from settle.tiles import Features, Meld, TileContext, TileError, Wildcards
from settle.tiles.hand import KONG, PUNG
from settle.tiles.notation import BAI, EAST, FA, HONOURS, NORTH, SOUTH, WEST, ZHONG, check_tile, format_tiles
from settle.tiles.readings import LOOSE, SEVEN_PAIRS
from settle.tiles.rules import (
    is_fengyise,
    is_hard,
    is_jiangyise,
    is_pengpenghu,
    is_qingyise,
    is_quanqiuren,
    reason,
    seed,
    table_fans,
)
from settle.tiles.wildcards import next_suited

# W15: honours cycle 东南西北中发白东.
_NEXT_HONOUR = {EAST: SOUTH, SOUTH: WEST, WEST: NORTH, NORTH: ZHONG, ZHONG: FA, FA: BAI, BAI: EAST}
# W15 (seed 000 2.2④⑤): the two flips that would make 红中 both pizi and 宝, or pizi twice.
_SPECIAL_PIZI = {ZHONG: frozenset({ZHONG, BAI}), NORTH: frozenset({NORTH, BAI})}

SEVEN_PAIRS_LEVELS = ("qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui")
"""七对 and its 豪华 levels by the number of four-of-a-kinds among the pairs (W2)."""


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
        """The 宝."""
        return self.bao

    @property
    def forbidden(self) -> frozenset[int]:
        """The 癞子皮: held, they forbid any win (W15)."""
        return self.pizi


def wuxue_wildcards(indicator: int) -> WuxueWildcards:
    """宝 and 癞子皮 from the flipped tile (W15).

    Pizi = the flipped tile and 红中; 宝 = the next tile (9 -> 1; 东南西北中发白东).
    Flipped 中: 中 and 白 are pizi, 发 is 宝. Flipped 北: 北 and 白 are pizi, 中 is 宝.
    """
    return _wuxue_wildcards(check_tile(indicator))


@cache
def _wuxue_wildcards(indicator: int) -> WuxueWildcards:
    bao = _NEXT_HONOUR[indicator] if indicator >= HONOURS else next_suited(indicator)
    pizi = _SPECIAL_PIZI.get(indicator, frozenset({indicator, ZHONG}))
    return WuxueWildcards(indicator, bao, pizi)


_SITUATIONS = frozenset({"gangkai"})
_VOCABULARY = (_SITUATIONS | {*SEVEN_PAIRS_LEVELS, "qingyise", "jiangyise", "fengyise", "pengpenghu", "quanqiuren"}
               | {"hard", "sibao"})
_BIG_HANDS = _VOCABULARY - {"hard", "sibao", "gangkai"}

_PIHU_PAIR: Step = reason("small_needs_pair", "W12", small="屁胡", source=seed("000", "3.1①"))
_TWO_BAO: Step = reason("two_wilds", "W15", wildcard=WILDCARD, small="屁胡", excused=("杠开", "抢杠胡"),
                        source=seed("000", "2.3③"))


class WuxueTileRules(RegionTileRules):
    """Wuxue 武穴 (seed 000; W2 W12 W15 W16): see the module docstring."""

    __slots__ = ()

    name = TERM.key
    situations = _SITUATIONS
    vocabulary = _VOCABULARY
    big_hands = _BIG_HANDS
    situation_needs_by = MappingProxyType({"gangkai": "self_draw"})
    seven_pairs = True
    # seed 000 3.2③: 将一色 可以不符合胡牌牌型; 风一色 is a 胡牌牌型.
    loose_fans = ("jiangyise",)
    flips_indicator = True
    wildcard_name = WILDCARD
    wildcard_kong = "bao"
    table = MappingProxyType({
        "qingyise": is_qingyise,
        "jiangyise": is_jiangyise,
        # seed 000 3.2④: 风一色 is a winning shape, never loose.
        "fengyise": lambda context, features: features.shape != LOOSE and is_fengyise(context, features),
        "pengpenghu": is_pengpenghu,
        # W12 / seed 000 2.8①, 3.2⑥: 全求人 is a 2/5/8 single wait.
        "quanqiuren": lambda context, features: is_quanqiuren(context, features) and features.pair_258,
        "hard": is_hard,
        # seed 000 3.3②: four 宝 in hand.
        "sibao": lambda context, features: context.wilds_in_hand == 4,
    })
    block_what = "癞子皮"
    block_rule = "W15"
    block_source = seed("000", "2.3②")

    def from_indicator(self, indicator: int, options: Mapping[str, bool]) -> WuxueWildcards:
        """The 宝 and 癞子皮 of the flipped tile (W15)."""
        return wuxue_wildcards(indicator)

    def barred_in_meld(self, meld: Meld, cards: Wildcards, options: Mapping[str, bool]) -> frozenset[int]:
        """seed 000 2.3④: discarded 宝/癞子皮 cannot be claimed, nor konged concealed (a chow may hold them)."""
        if meld.kind in (PUNG, KONG):
            return cards.forbidden | {cards.wild}  # type: ignore[arg-type]
        return frozenset()

    def check_held(self, context: TileContext) -> None:
        """seed 000 2.2①: the flipped tile is out of play, 3 copies are left (at ``hand``)."""
        hand = context.hand
        if hand.indicator is None:
            return
        count = hand.concealed.count(hand.indicator) + context.meld_tiles.count(hand.indicator)
        if count > 3:
            raise TileError(
                f"{count} copies of the flipped indicator {format_tiles([hand.indicator])}: "
                f"it is out of play, 3 are left (seed 000 2.2①)",
                "hand", kind="indicator_copies", values={"count": count, "tile": format_tiles([hand.indicator])},
            )

    def fans(self, context: TileContext, features: Features) -> set[str]:
        """Wuxue fans (W2 W16): big hands, 七对 level, ``hard``, ``sibao`` and situations."""
        fans = table_fans(context, features, self.table) | context.situations
        if features.shape == SEVEN_PAIRS:
            # W2: 豪华 levels replace 七对, by the number of four-of-a-kinds.
            fans.add(SEVEN_PAIRS_LEVELS[min(features.quads, 3)])
        return fans

    def illegal(self, context: TileContext, features: Features, fans: frozenset[str]) -> Step | None:
        """W12 W15: a 屁胡 needs a 2/5/8 pair, and two 宝 forbid it except 杠开/抢杠胡."""
        if fans & _BIG_HANDS:
            return None
        if not features.pair_258:
            return _PIHU_PAIR
        excused = "gangkai" in context.situations or context.by == "robbed_kong"
        if context.wilds_in_hand >= 2 and not excused:
            return _TWO_BAO
        return None

    def item_value(self, pattern: Any) -> str:
        """``2 斤`` (W2)."""
        return f"{pattern.value} 斤"


TILE_RULES = WuxueTileRules()
"""Wuxue's tile rules, for :func:`settle.tiles.evaluate_all`."""
