"""Rushan's tile rules (seed 003 胡牌规则/番型/搂宝; RULINGS R1-R3b R9 G10): ``TILE_RULES``.

* no wildcard: the 搂宝 tile (``bao_tile``, option ``loubao``) only matters for 摸宝/宝中宝,
  whose winning tile is the 宝 tile (R9); no flipped indicator;
* one base per reading, ``pihu pengpenghu qidui`` (R1); from the tiles ``qingyise fengyise``,
  ``jiangyise`` (option jiang258), ``yitiaolong``/``menqing`` (option menqing_yitiaolong, R3
  R3b); situational ``tianhu dihu haidilao gangshanghua mobao baozhongbao`` (R2, G10);
  风一色 直接胡牌 (no shape needed), 将一色 likewise with jiang258;
* legality: option jiang258 needs a 2/5/8 pair (R9 258将); no_honors 不带风 and no_chow 只碰不吃
  refuse honour tiles and claimed chows (R9).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from settle.core import Step
from settle.rules.rushan.term import TERM
from settle.tiles import Features, Meld, TileContext, TileError, TileHand, TileRules
from settle.tiles.hand import CHOW
from settle.tiles.notation import check_tile, format_tiles
from settle.tiles.readings import SEVEN_PAIRS
from settle.tiles.rules import is_fengyise, is_jiangyise, is_pengpenghu, is_qingyise, reason, seed, table_fans
from settle.tiles.wildcards import NoWildcards

if TYPE_CHECKING:
    from settle.rules.rushan.model import RushanHand, RushanWin

BASES = ("pihu", "pengpenghu", "qidui")
"""The bases of R1: every reading has exactly one."""


@dataclass(frozen=True)
class RushanBao(NoWildcards):
    """Rushan 搂宝 tile (seed 003 摸宝/宝中宝, RULINGS R9): not a wildcard in the hand, and nothing
    forbids a win (:class:`~settle.tiles.wildcards.NoWildcards`).

    It only matters for ``mobao``/``baozhongbao``: the winning tile is the 宝 tile.
    """

    bao_tile: int | None = None


_NO_BAO = RushanBao(None)


def rushan_bao(bao_tile: int | None) -> RushanBao:
    """The 搂宝 tile as given (R9); None when the option is not played."""
    return _NO_BAO if bao_tile is None else RushanBao(check_tile(bao_tile))


_SITUATIONS = frozenset({"tianhu", "dihu", "haidilao", "gangshanghua", "mobao", "baozhongbao"})
_VOCABULARY = _SITUATIONS | {*BASES, "qingyise", "fengyise", "jiangyise", "yitiaolong", "menqing"}
_BAO_WINS = frozenset({"mobao", "baozhongbao"})
# R9 jiang258 exempts nothing: 屁胡/七对/碰碰胡 need the pair, and every Rushan hand has one of those bases (R1),
# so a 风一色 is no win under jiang258 (the seed's 风一色不限 frees it from needing a pair at all, not from
# 258将).  将一色 is listed only because a loose one has no pair to test, and all its tiles are 2/5/8.
_PAIR_258_EXEMPT = frozenset({"jiangyise"})
_JIANG258: Step = reason("option_needs_pair", "R9", option="jiang258", source=seed("003", "258将"))


def _base(context: TileContext, features: Features) -> str:
    """R1: 七对 2, 碰碰胡 2, otherwise 屁胡 1 (a loose 风一色/将一色 hand is a 屁胡)."""
    if features.shape == SEVEN_PAIRS:
        return "qidui"
    return "pengpenghu" if is_pengpenghu(context, features) else "pihu"


class RushanTileRules(TileRules):
    """Rushan 乳山 (seed 003; R1-R3b R9): see the module docstring."""

    __slots__ = ()

    name = TERM.key
    situations = _SITUATIONS
    vocabulary = _VOCABULARY
    pair_258_exempt = _PAIR_258_EXEMPT
    option_defaults = MappingProxyType({
        "jiang258": False,
        "no_honors": False,
        "menqing_yitiaolong": False,
        "no_chow": False,
        "loubao": False,
    })
    situation_needs_by = MappingProxyType({"gangshanghua": "self_draw", "haidilao": "self_draw",
                                           "tianhu": "self_draw"})
    seven_pairs = True
    bases = BASES
    plays_bao_tile = True
    table = MappingProxyType({
        "qingyise": is_qingyise,
        "fengyise": is_fengyise,
        # R9: 将一色 only with jiang258.
        "jiangyise": lambda context, features: context.options["jiang258"] and is_jiangyise(context, features),
        # R3 R3b: only with menqing_yitiaolong; 一条龙 of concealed chows only.
        "yitiaolong": lambda context, features: context.options["menqing_yitiaolong"] and features.dragon,
        # R3: 门清 = a self-draw without 吃/碰/明杠 (a concealed kong is no claim).
        "menqing": lambda context, features: (
            context.options["menqing_yitiaolong"] and context.claimed_melds == 0 and context.by == "self_draw"
        ),
    })

    def check_situations(self, by: str, situations: Iterable[str], hand: TileHand) -> set[str]:
        """G10, and 摸宝/宝中宝 (seed 003 10-11): the winning tile is the given 宝 tile."""
        stated = super().check_situations(by, situations, hand)
        if stated & _BAO_WINS:
            names = ", ".join(sorted(stated & _BAO_WINS))
            if hand.bao_tile is None:
                raise TileError(f"situation {names} needs the bao_tile (搂宝, R9)", "bao_tile",
                                kind="bao_win_needs_bao", values={"names": names})
            if hand.win_tile != hand.bao_tile:
                raise TileError(
                    f"situation {names} needs the winning tile to be the bao_tile "
                    f"{format_tiles([hand.bao_tile])}, got {format_tiles([hand.win_tile])}",
                    "win_tile", kind="bao_win_tile",
                    values={"names": names, "bao_shown": format_tiles([hand.bao_tile]),
                            "win": format_tiles([hand.win_tile])},
                )
        return stated

    def wildcards(self, hand: TileHand, options: Mapping[str, bool]) -> RushanBao:
        """No wildcard: the 搂宝 tile as given, only with option loubao (R9)."""
        if hand.indicator is not None:
            raise TileError("Rushan has no flipped wildcard indicator (use bao_tile)", "indicator", keyed=True,
                            kind="bao_not_indicator", values={})
        if hand.bao_tile is not None and not options["loubao"]:
            raise TileError("bao_tile is only played with option loubao 搂宝 (R9)", "bao_tile", kind="bao_needs_loubao",
                            values={})
        bao_tile = hand.bao_tile
        return _NO_BAO if bao_tile is None else rushan_bao(bao_tile)  # rushan_bao, one call less without one

    def check_meld(self, index: int, meld: Meld, context: TileContext) -> None:
        """R9 只碰不吃: with option no_chow, no claimed chow."""
        if context.options["no_chow"] and meld.kind == CHOW:
            raise TileError(f"meld {meld.describe()}: option no_chow 只碰不吃 allows no chow (R9)",
                            ("melds", index, "tiles"), kind="no_chow", values={"tiles": format_tiles(meld.tiles)})
        super().check_meld(index, meld, context)

    def check_held(self, context: TileContext) -> None:
        """R9 不带风: with option no_honors, no honour tile in hand or melds (at ``hand``)."""
        if context.options["no_honors"] and any(t >= 27 for t in (*context.hand.concealed, *context.meld_tiles)):
            raise TileError("option no_honors 不带风: honour tiles are not in play (R9)", "hand", kind="no_honors",
                            values={})

    def fans(self, context: TileContext, features: Features) -> AbstractSet[str]:
        """Rushan base and multipliers (R1 R2 R3 R3b R9) plus the situations (:meth:`_fans`).

        With the default options (``option_defaults`` itself, most hands) they depend on nothing but
        ``features``, ``by``, the situations and the melds' facts, so they are kept per those
        (:data:`_FANS`, at most :data:`FANS_KEPT`): one look-up instead of the table's predicates."""
        if context.options is not self.option_defaults:
            return self._fans(context, features)
        key = (features, context.by, context.situations, context.meld_suits, context.melds_all_258,
               context.meld_has_chow, context.claimed_melds)
        found = _FANS.get(key)
        if found is None:
            if len(_FANS) >= FANS_KEPT:
                _FANS.clear()
            found = _FANS[key] = frozenset(self._fans(context, features))
        return found

    def _fans(self, context: TileContext, features: Features) -> set[str]:
        """:meth:`fans` worked out: the table's fans that apply, the situations and the base (R1)."""
        fans = table_fans(context, features, self.table)
        if context.situations:
            fans |= context.situations
        fans.add(_base(context, features))
        return fans

    def illegal(self, context: TileContext, features: Features, fans: frozenset[str]) -> Step | None:
        """R9 jiang258: 屁胡/七对/碰碰胡 need a 2/5/8 pair, 风一色 too (its base is one of them, R1)."""
        if not context.options["jiang258"] or fans & _PAIR_258_EXEMPT or features.pair_258:
            return None
        return _JIANG258

    def loose(self, context: TileContext) -> tuple[str, ...]:
        """seed 003: 风一色 直接胡牌 (必须有对子: 风一色不限); 将一色 就可以胡牌, with jiang258 only."""
        return ("fengyise", "jiangyise") if context.options["jiang258"] else ("fengyise",)

    def counted_fans(self, hand: RushanHand, win: RushanWin) -> tuple[str, ...]:
        """The base (屁胡 when none is named) and the counted multipliers: 门清 counted unnamed,
        门清/一条龙 not counted with the option off (R1 R3b)."""
        from settle.rules.rushan.scoring import count_points

        points = count_points(hand, win)
        return (points.base, *points.counted)

    def item_value(self, pattern: Any) -> str:
        """``base 2`` for a base (R1), ``×2`` for a multiplier (R2)."""
        return f"base {pattern.value}" if pattern.kind == "base" else f"×{pattern.value}"


FANS_KEPT = 1024
"""How many fan sets :meth:`RushanTileRules.fans` keeps (a few dozen feature values occur)."""
_FANS: dict[tuple[Any, ...], frozenset[str]] = {}
"""(features, by, situations, meld suits, melds all 2/5/8, a melded chow, claimed melds) -> the fans
under the default options (:meth:`RushanTileRules.fans`)."""

TILE_RULES = RushanTileRules()
"""Rushan's tile rules, for :func:`settle.tiles.evaluate_all`."""
