"""Rushan vocabulary (seed 003; R1, R2, R4, R9): bases, multipliers and kong kinds, with aliases (G14)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from settle.rules.registry import foreign_term
from settle.vocab import Hint, KongKind, Pattern, Vocabulary, with_traditional

SELF = frozenset({"self_draw"})

PATTERNS: dict[str, Pattern] = {
    p.key: p
    for p in (
        Pattern("pihu", "屁胡", "plain win: 两边/对倒/单吊/夹胡/3-7胡 (the default base)", 1,
                kind="base", ruling="R1", group="base"),
        Pattern("pengpenghu", "碰碰胡", "all pungs (单吊飘胡/对倒飘胡)", 2, kind="base", ruling="R1",
                group="base", aliases=("飘胡",)),
        Pattern("qidui", "七对", "seven pairs", 2, kind="base", ruling="R1", group="base",
                aliases=("七小对",)),
        Pattern("tianhu", "天胡", "the dealer wins on the dealt hand", 4, kind="multiplier",
                ruling="R2, G10", only_by=SELF),
        Pattern("dihu", "地胡", "a non-dealer wins right after the dealer's first discard", 4,
                kind="multiplier", ruling="R2, G10"),
        Pattern("qingyise", "清一色", "one suit only", 2, kind="multiplier", ruling="R2"),
        Pattern("haidilao", "海底捞", "self-draw on the last tile before 分张", 2, kind="multiplier",
                ruling="R2, G10", only_by=SELF, aliases=("海底", "海底捞月")),
        Pattern("gangshanghua", "杠上花", "self-draw on the replacement tile after a kong", 2,
                kind="multiplier", ruling="R2, G10", only_by=SELF, aliases=("杠开", "杠上开花")),
        Pattern("fengyise", "风一色", "only wind and dragon tiles", 2, kind="multiplier", ruling="R2, R9"),
        Pattern("mobao", "摸宝", "self-draw of the 宝牌 (搂宝 only)", 2, kind="multiplier", ruling="R2, R9"),
        Pattern("baozhongbao", "宝中宝", "the 宝牌 is the winning tile (搂宝 only)", 2, kind="multiplier",
                ruling="R2, R9"),
        Pattern("jiangyise", "将一色", "only 2, 5 and 8 tiles (258将 only)", 3, kind="multiplier",
                ruling="R2, R9"),
        Pattern("yitiaolong", "一条龙", "123, 456 and 789 of one suit (门清一条龙 only)", 2,
                kind="multiplier", ruling="R2, R3, R3b"),
        Pattern("menqing", "门清", "self-draw with no 吃/碰/明杠 (门清一条龙 only)", 2,
                kind="multiplier", ruling="R2, R3, R3b, G10", aliases=("门前清",)),
        Pattern("qiangganghu", "抢杠", "robbing a kong: implied by by: robbed_kong; no multiplier (R2)", 0,
                kind="implied", ruling="G10, R5", only_by=frozenset({"robbed_kong"}), aliases=("抢杠胡",)),
    )
}
"""Rushan scoring items: one base (R1) times every multiplier named (R2)."""

DEFAULT_BASE = "pihu"
"""屁胡 is the base when none is named (R1)."""

OPTIONAL_COUNT = frozenset({"menqing", "yitiaolong"})
"""Multipliers that count only with option ``menqing_yitiaolong`` (R3, R3b)."""

KONGS: dict[str, KongKind] = {
    k.key: k
    for k in (
        KongKind("exposed", "明杠", "exposed kong claimed from a discard (直杠/点杠); also an open",
                 1, aliases=("直杠", "点杠", "冲杠"), ruling="R4, G3"),
        KongKind("added", "补杠", "added kong upgrading a 碰 (蓄杠); can be robbed", 1,
                 aliases=("蓄杠",), ruling="R4, G3"),
        KongKind("concealed", "暗杠", "concealed kong; never an open", 1, ruling="R4, G3"),
    )
}
"""Rushan kong kinds: 1 point each, for the winner only (杠牌规则 4–5, R4)."""

_NIUPAI = {s.lower() for s in ("niu", "niupai", *with_traditional(("牛", "牛牌", "杠开牛牌")))}
NIUPAI_MESSAGE = ("牛牌 (niupai, 搂宝's 牛 tiles) is not modelled by settle: a hand that uses it "
                  "cannot be settled here; settle it at the table (R9)")
_NIUPAI_HINT = Hint(NIUPAI_MESSAGE, unmodelled=True)


def _hint(kind: str) -> Callable[[str], Hint | None]:
    """The vocabulary hint: 牛牌 is not modelled (R9); other regions' words are named (G14)."""
    shared = foreign_term("rushan", kind)

    def hint(word: str) -> Hint | None:
        return _NIUPAI_HINT if word.lower() in _NIUPAI else shared(word)

    return hint


RushanFan = Annotated[str, Vocabulary(PATTERNS, "Rushan fan", _hint("fan"))]
"""A Rushan scoring item (``win.fans``): a key of :data:`PATTERNS` or an alias of one (G14)."""
RushanKong = Annotated[str, Vocabulary(KONGS, "Rushan kong kind", _hint("kong kind"))]
"""A Rushan kong kind (``kongs``, ``melds[i].kong``): a key of :data:`KONGS` or an alias of one."""

DISCARDER = "点炮"
"""What Rushan calls the discarder."""
