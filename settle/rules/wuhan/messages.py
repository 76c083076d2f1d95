"""The words of Wuhan's steps (seed 004; H2–H9), English and Chinese.

English is what settle has always printed; Chinese says the same with the same numbers, names,
pinyin keys and ruling ids.  Shared steps (caps, 承包 redirect) are worded in
:mod:`settle.core.messages`; tile readings in :mod:`settle.tiles.messages`.
"""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template
from settle.rules.wuhan.vocab import PATTERNS


def _big_hands(values: Any, lang: str) -> str:
    labels = " + ".join(PATTERNS[k].label for k in values.raw("fans"))
    if lang == "zh":
        return f"大胡 {labels}：底分 {values['base']} (H3)"
    return f"大胡 {labels}: base {values['base']} (H3)"


EN: dict[str, Template] = {
    "big_hands": _big_hands,
    "small_hand": "小胡 small hand: base 1 (H2)",
    "golden_note": "金顶: all three losers exceed the cap {cap} (H6)",
    "golden": "金顶 {amount}: all three exceed {cap} (H6)",
    "bright": "光明顶 {amount}: {loser} has no open (H6)",
    "liable_unready": "{term} {rule}: {player} fed 全求人 without being ready (没听牌)",
    "escape_forfeit": "逃跑 penalty {penalty}, forfeited (H9, escape_paid_to: none)",
    "escape_forfeit_note": "{leaver} left the game: {penalty} forfeited, so this hand's net does not sum to zero (H9)",
    "escape_split": "逃跑 penalty {penalty} split {ways} ways, extra points first to {first} (H9)",
    "escape_note": "{leaver} left the game (H9)",
    "mark_liable": "承包 liable {liable}",
}

GLOSSES_ZH: dict[str, str] = {
    "fan:pengpenghu": "全是刻子：每一组都是刻子或杠，将任意",
    "fan:quanqiuren": "四组都是吃碰来的，单钓将牌胡别人打出的牌",
    "fan:qingyise": "全是一种花色",
    "fan:jiangyise": "只有 2、5、8 的牌（乱将：不论牌型）",
    "fan:fengyise": "只有风牌和箭牌（乱风：不论牌型）",
    "fan:gangshanghua": "杠后补牌自摸",
    "fan:haidilao": "最后四张牌中自摸",
    "fan:qiangganghu": "抢别人的杠（by: robbed_kong 已含）",
    "fan:hard": "没有把癞子当别的牌用：胡牌者 1 番",
    "kong:exposed": "明杠：杠别人打出的牌（直杠/冲杠）；也算开口",
    "kong:added": "补杠：碰后再杠（蓄杠）",
    "kong:concealed": "暗杠；不算开口",
    "kong:hongzhong": "打出红中，算一个杠",
    "kong:facai": "打出发财，算一个杠",
    "kong:laizi": "打出癞子，算一个杠（选项 laizi_kong_fans）",
    "option:cap": "每个输家最多付的分 (H5)",
    "option:golden": "500，口口翻时 600 (H6)",
    "option:bright": "600，口口翻时 700 (H6)",
    "option:koukou": "每次开口 1 番，而不是总共 1 番 (H1)",
    "option:laizi_kong_fans": "每个癞子杠的番数 (H1)",
    "option:chengbao_yise": "承包 (b) 只限清一色，或也包括将一色/风一色 (H7)",
    "option:escape_penalty": "逃跑罚分：400，口口翻时 500 (H9)",
    "option:escape_paid_to": "逃跑罚分罚没，或分给其他玩家 (H9)",
    "option:require_open": "胡牌者必须开口 (H8)",
    "option:facai_gang": "发财算杠牌 (H12)",
    "option:facai_blocks_win": "手持发财不能胡，如 H8 所说，即使 facai_gang 关闭（牌面层级）",
}
"""The Chinese glosses of the region's words (``fan:KEY``, ``kong:KEY``) and option meanings
(``option:KEY``) for ``settle rules --lang zh`` (issue 16: the English glosses stay in the terms)."""


ZH: dict[str, Template] = {
    "big_hands": _big_hands,
    "small_hand": "小胡：底分 1 (H2)",
    "golden_note": "金顶：三家输分都超过封顶 {cap} (H6)",
    "golden": "金顶 {amount}：三家都超过 {cap} (H6)",
    "bright": "光明顶 {amount}：{loser} 没有开口 (H6)",
    "liable_unready": "{term} {rule}：{player} 没听牌放冲全求人",
    "escape_forfeit": "逃跑罚分 {penalty}，罚没 (H9, escape_paid_to: none)",
    "escape_forfeit_note": "{leaver} 逃跑：罚没 {penalty}，本局输赢之和不为零 (H9)",
    "escape_split": "逃跑罚分 {penalty} 分给 {ways} 家，余分先给 {first} (H9)",
    "escape_note": "{leaver} 逃跑 (H9)",
    "mark_liable": "承包 {liable}",
    **{f"gloss:{key}": gloss for key, gloss in GLOSSES_ZH.items()},
}

CATALOG = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="wuhan")
"""Wuhan's words, falling back to the shared machinery's (a hand settled from tiles
chains the tile readings' words in front: :mod:`settle.engine.tilelevel`)."""


PROBLEMS_ZH: dict[str, Template] = {
    "facai_gang": "发财杠要开启选项 facai_gang（H12）",
    "require_open": "胡牌者 {winner} 没有开口；武汉要开口才能胡（H8；或设选项 require_open: false，"
                    "或写明胡牌者的番数总计，G9）",
    "chengbao_feeders": "{flushes}，开口 {opens} 次：承包要知道第三口吃碰的是谁的牌；opens 请写成喂牌者的列表，"
                        "或写明 win.liable（H7 b，G7）",
}
"""The Chinese words of Wuhan's own problems (:mod:`settle.rules.wuhan.checks`: H8 开口, 承包 H7 b, 发财杠
H12), by the problem's ``kind`` over its ``values`` (``Region.problem_zh``; issue 16 #9)."""
