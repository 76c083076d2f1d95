"""The Chinese words of the problems the shared checks find (:mod:`settle.rules.checks`; issue 16 #9).

Each :class:`~settle.errors.Problem` those checks build has a ``kind`` and ``values``; :data:`PROBLEMS_ZH`
words it in Chinese from the values alone (names, counts, the region's own words such as its
discarder 放冲/点炮), never from the English ``message``, which stays as it is.  Shown by
:func:`settle.render.problem_message` under ``--lang zh``; a region's own problems are worded in its
package (``Region.problem_zh``), the most common ones in :data:`settle.engine.messages.PROBLEMS_ZH`.
"""

from __future__ import annotations

from typing import Any

from settle.core import Template

BY_ZH: dict[str, str] = {"self_draw": "自摸", "robbed_kong": "抢杠"}
"""Win types (``by``) in Chinese; a discard is the region's own word (``discarder``: 放冲, 点炮)."""


def by_zh(by: str, discarder: str) -> str:
    """``by`` in Chinese: 自摸, 抢杠, or the region's word for a discard (``discarder``); else the key."""
    return discarder if by == "discard" else BY_ZH.get(by, by)


def _fits_only(values: Any, lang: str) -> str:
    discarder = values.raw("discarder")
    fits = "或".join(by_zh(by, discarder) for by in values.raw("fits"))
    return f"{values['fan']} 只能在{fits}时算，这一局是{by_zh(values.raw('by'), discarder)}（G10）"


def _same_discard(values: Any, lang: str) -> str:
    found = "、".join(name if name else "（没有 from）" for name in values.raw("found"))
    return f"一炮多响的几位胡牌者必须胡同一张打出的牌（同一个 `from`），现在是 {found}"


def _too_large(values: Any, lang: str) -> str:
    value = values.raw("value")
    shown = str(value) if len(str(value)) <= 20 else "这么长的数"
    return f"{shown} 太大：options 里的分数最多为 {values.raw('max'):,} 分"


PROBLEMS_ZH: dict[str, Template] = {
    "own_feeder": "{name} 不能给自己的开口喂牌（开口是吃、碰、杠别家打出的牌）",
    "no_wins": "胡牌列表（win）是空的",
    "kong_limit": "{zh}（{kong}）{count} 个，超过了牌数允许的 {limit} 个",
    "four_tile_kongs": "四张的杠（明杠 + 补杠 + 暗杠）共 {count} 个，超过 4 个",
    "opens_over_four": "开口 {opens} 次，超过 4 次（一手牌最多 4 组）",
    "opens_below_kongs": "开口为 {opens}，但 {name} 有 {claimed} 个明杠/补杠；每个都是一次开口（或由碰升级而来），"
                         "所以开口至少为 {claimed}（G4）",
    "sets_over_four": "开口 {opens} 次 + 暗杠 {concealed} 个，超过 4 组（G4）",
    "table_kong_limit": "全桌共有 {total} 个{zh}（{counts}），超过了这种牌的 {limit} 张",
    "liable_none_ambiguous": "`liable: none` 有歧义：有一位玩家叫 '{name}'；请给这位玩家改个名字",
    "fan_twice": "{fan} 列了两次",
    "fan_only_by": _fits_only,
    "fan_group": "{fan} 不能与 {other} 同时列出：{group} 一类最多只能列一项（G10）",
    "same_discard": _same_discard,
    "winner_twice": "同一位玩家被列为胡牌者两次",
    "several_self_draw": "只有一张打出的牌才能有几位胡牌者（一炮多响），自摸不行",
    "several_by": "几位胡牌者胡的是同一张牌：每个胡牌的 `by` 必须相同（R8）",
    "winner_discarded": "{winner} 是另一个胡牌的{discarder}者",
    "option_too_large": _too_large,
    "no_explicit_totals": "{region}不能写每位玩家的{unit}数总计：删掉 `fans`（G5）",
    "one_winner": "{region}每局只有一位胡牌者（{term}）：`win` 请写成一个映射，不要写成列表",
}
"""Problem ``kind`` -> its Chinese words, over the values :mod:`settle.rules.checks` gives it
(``one_winner`` is built by the regions with one winner per hand, with the region's name and term)."""
