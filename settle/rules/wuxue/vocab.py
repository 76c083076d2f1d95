"""Wuxue vocabulary (seed 000; W2, W3, W4, W15): scoring items and kong kinds, with aliases (G14)."""

from __future__ import annotations

from typing import Annotated

from settle.rules.registry import foreign_term
from settle.vocab import KongKind, Pattern, Vocabulary

SELF = frozenset({"self_draw"})
DISCARD = frozenset({"discard"})
ROBBED = frozenset({"robbed_kong"})

PATTERNS: dict[str, Pattern] = {
    p.key: p
    for p in (
        Pattern("qidui", "七对", "seven pairs (宝杠 allowed)", 2, ruling="W2", group="qidui",
                aliases=("七小对",)),
        Pattern("qingyise", "清一色", "one suit only", 2, ruling="W2, W11 b"),
        Pattern("jiangyise", "将一色", "only 2, 5 and 8 tiles (any shape)", 2, ruling="W2, W11 b"),
        Pattern("fengyise", "风一色", "only wind and dragon tiles", 2, ruling="W2, W11 b"),
        Pattern("pengpenghu", "碰碰胡", "all pungs: every set a pung or kong", 2, ruling="W2"),
        Pattern("quanqiuren", "全求人", "four claimed sets, single 2/5/8 pair tile won on a discard",
                2, ruling="W2, W11 a, G10", only_by=DISCARD),
        Pattern("haohua_qidui", "豪华七对", "seven pairs with one set of four alike (replaces 七对)",
                3, ruling="W2", group="qidui"),
        Pattern("chaohaohua_qidui", "超豪华七对", "seven pairs with two sets of four alike (replaces 七对)",
                4, ruling="W2", group="qidui"),
        Pattern("chaochaohaohua_qidui", "超超豪华七对",
                "seven pairs with three sets of four alike (replaces 七对)", 5, ruling="W2", group="qidui"),
        Pattern("hard", "硬胡", "no 宝 in hand, or every 宝 used as itself", 1, kind="extra",
                ruling="W2, W16"),
        Pattern("sibao", "四宝牌", "four 宝 tiles in hand", 1, kind="extra", ruling="W2",
                aliases=("四宝",)),
        Pattern("gangkai", "杠开", "self-draw on the replacement tile after any kong", 1, kind="extra",
                ruling="W2, G10", only_by=SELF, aliases=("杠上开花", "杠上花")),
        Pattern("qiangganghu", "抢杠胡", "robbing a kong: implied by by: robbed_kong, which W10 scores",
                0, kind="implied", ruling="G10, W10", only_by=ROBBED, aliases=("抢杠",)),
    )
}
"""Wuxue scoring items (W2): big hands 2 斤 each and adding, the seven-pairs levels 2–5 斤
(at most one, G10), extras 1 斤 each.  No big hand is a 屁胡."""

KONGS: dict[str, KongKind] = {
    k.key: k
    for k in (
        KongKind("exposed", "明杠", "exposed kong claimed from a discard; also an open", 1,
                 aliases=("直杠", "点杠"), ruling="W3, G3"),
        KongKind("added", "补杠", "added kong upgrading a 碰", 1, ruling="W3, G3"),
        KongKind("concealed", "暗杠", "concealed kong; never an open", 2, ruling="W3, G3"),
        KongKind("bao", "宝杠", "a 宝 tile played out, counted as a kong; not an open", 2,
                 ordinary=False, ruling="W3, W4", aliases=("宝牌杠",)),
        # 7 = the flipped tile's 3 remaining copies + the 4 红中 (seed 2.2; W15).
        KongKind("pizi", "癞子皮杠", "a 癞子皮 tile played out, counted as a kong; not an open", 1,
                 ordinary=False, limit=7, ruling="W3, W4, W15", aliases=("赖子皮杠", "痞子杠", "皮杠")),
    )
}
"""Wuxue kong kinds and their 斤 for every player (W3)."""

WuxueFan = Annotated[str, Vocabulary(PATTERNS, "Wuxue fan", foreign_term("wuxue", "fan"))]
"""A Wuxue scoring item (``win.fans``): a key of :data:`PATTERNS` or an alias of one (G14)."""
WuxueKong = Annotated[str, Vocabulary(KONGS, "Wuxue kong kind", foreign_term("wuxue", "kong kind"))]
"""A Wuxue kong kind (``kongs``, ``melds[i].kong``): a key of :data:`KONGS` or an alias of one."""

WILDCARD = "宝"
"""What Wuxue calls its wildcard (W15)."""
LIABILITY = "包胡"
"""What Wuxue calls liability (W11)."""
DISCARDER = "点炮"
"""What Wuxue calls the discarder."""
