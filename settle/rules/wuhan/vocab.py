"""Wuhan vocabulary (seed 004; H1, H3): scoring items and kong kinds, with their aliases (G14)."""

from __future__ import annotations

from typing import Annotated

from settle.rules.registry import foreign_term
from settle.vocab import KongKind, Pattern, Vocabulary

SELF = frozenset({"self_draw"})

PATTERNS: dict[str, Pattern] = {
    p.key: p
    for p in (
        Pattern("pengpenghu", "碰碰胡", "all pungs: every set a pung or kong, any pair", 10, ruling="H3"),
        Pattern("quanqiuren", "全求人", "four claimed sets, won on a discard with a single pair tile",
                10, ruling="H3, H7 a", only_by=frozenset({"discard"})),
        Pattern("qingyise", "清一色", "one suit only", 10, ruling="H3, H7 b"),
        Pattern("jiangyise", "将一色", "only 2, 5 and 8 tiles (乱将: any shape)", 10, ruling="H3"),
        Pattern("fengyise", "风一色", "only wind and dragon tiles (乱风: any shape)", 10, ruling="H3"),
        Pattern("gangshanghua", "杠上花", "self-draw on the replacement tile after a kong",
                10, ruling="H3", only_by=SELF, aliases=("杠开",)),
        Pattern("haidilao", "海底捞", "self-draw among the last four tiles", 10, ruling="H3",
                only_by=SELF, aliases=("海底",)),
        Pattern("qiangganghu", "抢杠", "robbing a kong (implied by by: robbed_kong)", 10,
                ruling="H3, H7 c, G6", only_by=frozenset({"robbed_kong"}), aliases=("抢杠胡",)),
        Pattern("hard", "硬胡", "no 癞子 used as another tile: 1 fan for the winner", 1,
                kind="extra", ruling="H2, H3, H8"),
    )
}
"""Wuhan scoring items: 大胡 (base 10 each, adding) and 硬胡 (1 fan)."""

KONGS: dict[str, KongKind] = {
    k.key: k
    for k in (
        KongKind("exposed", "明杠", "exposed kong claimed from a discard (直杠/冲杠); also an open",
                 1, aliases=("直杠", "冲杠", "点杠"), ruling="H1, G3"),
        KongKind("added", "补杠", "added kong upgrading a 碰 (蓄杠)", 1, aliases=("蓄杠",), ruling="H1, G3"),
        KongKind("concealed", "暗杠", "concealed kong; never an open", 2, ruling="H1, G3"),
        KongKind("hongzhong", "红中杠", "红中 played out as a kong", 1, ordinary=False, ruling="H1"),
        KongKind("facai", "发财杠", "发财 played out as a kong", 1, ordinary=False, ruling="H1"),
        KongKind("laizi", "癞子杠", "癞子 played out as a kong (option laizi_kong_fans)", 1,
                 ordinary=False, ruling="H1", aliases=("赖子杠",)),
    )
}
"""Wuhan kong kinds and their fans (H1)."""

WuhanFan = Annotated[str, Vocabulary(PATTERNS, "Wuhan fan", foreign_term("wuhan", "fan"))]
"""A Wuhan scoring item (``win.fans``): a key of :data:`PATTERNS` or an alias of one (G14)."""
WuhanKong = Annotated[str, Vocabulary(KONGS, "Wuhan kong kind", foreign_term("wuhan", "kong kind"))]
"""A Wuhan kong kind (``kongs``, ``melds[i].kong``): a key of :data:`KONGS` or an alias of one."""

WILDCARD = "癞子"
"""What Wuhan calls its wildcard (H12)."""
LIABILITY = "承包"
"""What Wuhan calls liability (H7)."""
DISCARDER = "放冲"
"""What Wuhan calls the discarder."""
