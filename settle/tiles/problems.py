"""The Chinese words of the tile engine's input errors (:class:`~settle.tiles.errors.TileError` ``kind``
and ``values``; issue 16 #9): tile notation, melds, the hand's size, situations, wildcards.

A caller that shows the error as a :class:`~settle.errors.Problem` gives it the error's kind and values
(:mod:`settle.engine.tilelevel`); :func:`settle.render.problem_message` words it from :data:`PROBLEMS_ZH`
under ``--lang zh``.  The English is the error's own message, as it has always been.  A region's own tile
errors (R9 搂宝, the Wuxue indicator) are worded in its package.
"""

from __future__ import annotations

from typing import Any

from settle.core import Template

ALLOWED_ZH = ("写法：数字 1-9 加 m（万）、p（筒/饼）或 s（条/索），数字 1-7 加 z（东南西北中发白），如 '123m 55z'；"
              "或写中文牌名，如 一万、五筒/五饼、九条/九索、东 南 西 北 红中 发财 白板（繁体 萬 條 東 發 也可以）")
"""How tiles are written, in Chinese (the English is :data:`settle.tiles.notation.ALLOWED`)."""

TOKEN_REASONS_ZH = {"no_suit": "数字后面要有花色", "unknown_suit": "没有这种花色", "no_such_tile": "没有这张牌"}
"""Why a token of a tile text cannot be read, by its code (no code: an unknown name)."""

MELDS_ZH = {"chow": "吃", "pung": "碰", "kong": "杠"}
KONGS_ZH = {"exposed": "明杠", "added": "补杠", "concealed": "暗杠"}


def meld_zh(values: Any) -> str:
    """``吃 123m``, ``暗杠 5555z``: a meld's kind (a kong's own kind) and its tiles."""
    meld, kong = values.raw("meld"), values.raw("kong") if "kong" in values else ""
    name = KONGS_ZH.get(kong, "杠") if meld == "kong" and kong else MELDS_ZH.get(meld, meld)
    return f"{name} {values['tiles']}"


def _meld_claimed(values: Any, lang: str) -> str:
    marked = "标为吃碰来的" if values.raw("claimed") else "标为不是吃碰来的"
    return f"{meld_zh(values)}：{marked}，与它的种类不符（吃、碰、明杠和补杠是吃碰来的；暗杠不是）"


def _bad_tokens(values: Any, lang: str) -> str:
    tokens = values.raw("tokens")
    if len(tokens) == 1:
        token, code = tokens[0]
        reason = TOKEN_REASONS_ZH.get(code, "不认识的牌名")
        return f"'{values['text']}' 里的 '{token}' 认不出：{reason}；{ALLOWED_ZH}"
    listed = "、".join(f"'{token}'（{TOKEN_REASONS_ZH[code]}）" if code in TOKEN_REASONS_ZH else f"'{token}'"
                      for token, code in tokens)
    return f"'{values['text']}' 里这些认不出：{listed}；{ALLOWED_ZH}"


def _not_a_situation(values: Any, lang: str) -> str:
    derived = "（它由牌算出）" if values.raw("derived") else ""
    return f"'{values['name']}' 不是本地规则的情景番（{values['allowed']}）{derived}"


def _wildcard_discard(values: Any, lang: str) -> str:
    return f"胡的牌 {values['tile']} 是{values.raw('wild') or '癞子'}：只能自摸"


PROBLEMS_ZH: dict[str, Template] = {
    "bad_tile_id": "牌号 {tile} 不对：牌号是 0..33 的整数",
    "bad_tokens": _bad_tokens,
    "one_tile": "要正好一张牌，'{text}' 里有 {count} 张；" + ALLOWED_ZH.replace("{", "{{").replace("}", "}}"),
    "tiles_not_text": "牌必须写成文字，如 '123m 55z'，不是 {value}",
    "meld_claimed": _meld_claimed,
    "bad_meld_kind": "副露种类 '{meld}' 不对：可用 {allowed}",
    "kong_kind_for_kongs": lambda values, lang: (f"{meld_zh(values)}：杠要写杠的种类（{values['allowed']}），"
                                                 "别的组不能写"),
    "bad_kong_kind": "杠的种类 '{kong}' 不对：可用 {allowed}",
    "meld_size": lambda values, lang: f"{meld_zh(values)}：要 {values['size']} 张牌",
    "chow_run": "吃 {tiles}：不是同一花色的三张连牌",
    "meld_same": lambda values, lang: f"{meld_zh(values)}：几张牌必须相同",
    "win_tile_not_held": "胡的牌 {win_tile} 不在手牌 {concealed} 里（手牌要包括胡的那张）",
    "too_many_melds": "最多 4 组副露，这里有 {count} 组",
    "concealed_count": "手牌 {count} 张、副露 {melds} 组：胡牌时手牌应为 14 - 3 × 副露数 = {expected} 张（含胡的那张）",
    "five_copies": "手牌和副露里共有 {count} 张 {tile}：每种牌只有 4 张",
    "bad_by": "胡法 by={by} 不对：可用 {allowed}",
    "option_not_bool": "选项 {name} 必须是 true 或 false，不是 {value}",
    "not_a_situation": _not_a_situation,
    "situation_needs_by": "情景番 '{name}' 要 by={needed}（G10），这里是 by={by}",
    "bao_tile_not_here": "bao_tile 是别的规则的搂宝牌；这里的癞子/宝由翻开的指示牌定",
    "indicator_required": "要给出翻开的那张牌（indicator）：它决定癞子/宝",
    "no_indicator": "本地规则没有翻开的指示牌（indicator）",
    "no_bao_tile": "本地规则没有宝牌（bao_tile）",
    "meld_barred": lambda values, lang: f"{meld_zh(values)}：本地规则不能用 {values['barred']} 组成副露",
    "wildcard_discard": _wildcard_discard,
}
"""TileError ``kind`` -> its Chinese words, over the error's ``values``."""
