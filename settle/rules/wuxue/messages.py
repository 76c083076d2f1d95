"""The words of Wuxue's steps (seed 000; W2–W13), English and Chinese.

English is what settle has always printed; Chinese says the same with the same numbers, names,
pinyin keys and ruling ids.  Shared steps (caps, 包胡 redirect) are worded in
:mod:`settle.core.messages`; tile readings in :mod:`settle.tiles.messages`.
"""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template
from settle.rules.problems import by_zh
from settle.rules.wuxue.vocab import DISCARDER, PATTERNS

GOLDEN_NAMES = {"small": "小金鼎", "full": "金鼎"}

_ROLES = {
    "self_draw_owes": ("自摸 (W5)", "自摸 (W5)"),
    "discarder_owes": ("点炮 (W6)", "点炮 (W6)"),
    "peipao_owes": ("陪炮 half (W6)", "陪炮减半 (W6)"),
    "peipao_genpi_owes": ("陪炮 half (W6; 跟皮: 0 斤 counted as 1)", "陪炮减半 (W6；跟皮：0 斤按 1 斤)"),
}


def _owes(kind: str) -> Template:
    en, zh = _ROLES[kind]

    def words(values: Any, lang: str) -> str:
        role, colon = (zh, "：") if lang == "zh" else (en, ": ")
        shown = f"{values['power']} = {values['amount']}" if values.raw("shown") else values["power"]
        return f"{role}{colon}{shown}"

    return words


def _golden(values: Any, lang: str) -> str:
    level, count = values.raw("level"), values.raw("capped")
    name = GOLDEN_NAMES[level]
    if values.raw("players") == 3:
        what = (f"两家都封顶（three_player_golden: {level}）" if lang == "zh"
                else f"both losers capped, three_player_golden: {level}")
    elif lang == "zh":
        what = {2: "两家封顶", 3: "三家封顶"}[count]
    else:
        what = {2: "two losers capped", 3: "all three losers capped"}[count]
    return f"{name} {values['amount']}{'：' if lang == 'zh' else ': '}{what} (W8)"


def _piao(values: Any, lang: str) -> str:
    both = values.raw("both_sides")
    if lang == "zh":
        source = f"（双边漂 2×{values['piao']}）" if both else ""
    else:
        source = f" (2×{values['piao']}, piao_both_sides)" if both else ""
    return f"+ 漂 {values['points']}{source} = {values['total']} (W9)"


def _big_hands(values: Any, lang: str) -> str:
    return f"大胡 {' + '.join(PATTERNS[k].label for k in values.raw('fans'))} (W2)"


def _implied(values: Any, lang: str) -> str:
    label = PATTERNS[values.raw("fan")].label
    if lang == "zh":
        return f"{label}：已由 robbed_kong 计入，只算一次 (G10)"
    return f"{label} named: implied by robbed_kong and counted once (G10)"


EN: dict[str, Template] = {
    **{kind: _owes(kind) for kind in _ROLES},
    "peipao_nothing": "{loser} owes nothing of his own: 陪炮 with 0 斤 (W6; option genpi 跟皮 would count it as 1)",
    "golden": _golden,
    "piao": _piao,
    "draw": "荒庄: nobody pays, no 漂 (W9); the dealer stays (W13)",
    "robbed_pays_cap": "抢杠胡: {player}'s kong was robbed, pays the cap {cap} (W10)",
    "robbed_note": "抢杠胡: only {player} pays, one cap {cap} + 漂; no 金鼎, no 包胡 (W10, G11)",
    "implied": _implied,
    "liable_quanqiuren": "{term} {rule}: {player} fed 全求人",
    "big_hands": _big_hands,
    "no_big_hand": "屁胡: no big hand (W2)",
    "mark_liable": "包胡 liable {liable}",
    "mark_golden": "金鼎 golden",
}

GLOSSES_ZH: dict[str, str] = {
    "fan:qidui": "七对（可有宝杠）",
    "fan:qingyise": "全是一种花色",
    "fan:jiangyise": "只有 2、5、8 的牌（不论牌型）",
    "fan:fengyise": "只有风牌和箭牌",
    "fan:pengpenghu": "全是刻子：每一组都是刻子或杠",
    "fan:quanqiuren": "四组都是吃碰来的，单钓 2/5/8 将牌胡别人打出的牌",
    "fan:haohua_qidui": "七对中有一组四张相同（代替七对）",
    "fan:chaohaohua_qidui": "七对中有两组四张相同（代替七对）",
    "fan:chaochaohaohua_qidui": "七对中有三组四张相同（代替七对）",
    "fan:hard": "手里没有宝，或每张宝都当本身用",
    "fan:sibao": "手里有四张宝牌",
    "fan:gangkai": "任何杠后补牌自摸",
    "fan:qiangganghu": "抢别人的杠：by: robbed_kong 已含，按 W10 计分",
    "kong:exposed": "明杠：杠别人打出的牌；也算开口",
    "kong:added": "补杠：碰后再杠",
    "kong:concealed": "暗杠；不算开口",
    "kong:bao": "打出一张宝牌，算一个杠；不算开口",
    "kong:pizi": "打出一张癞子皮，算一个杠；不算开口",
    "option:cap": "每个输家在漂之前最多付的斤数 (W7)",
    "option:small_golden": "两个输家封顶时每家付的 (W8)",
    "option:golden": "三个输家封顶时每家付的 (W8)",
    "option:three_player_golden": "三人局两家都封顶：每家付 small_golden 或 golden (W8)",
    "option:piao": "每个付分输家的漂分 (W9)",
    "option:piao_both_sides": "胡牌者和输家都算漂：2 × piao (W9)",
    "option:genpi": "0 斤的陪炮玩家按 1 斤算 (W6)",
    "option:menqing": "门清的屁胡可以胡，只限自摸 (W12)",
}
"""The Chinese glosses of the region's words (``fan:KEY``, ``kong:KEY``) and option meanings
(``option:KEY``) for ``settle rules --lang zh`` (issue 16: the English glosses stay in the terms)."""


ZH: dict[str, Template] = {
    **{kind: _owes(kind) for kind in _ROLES},
    "peipao_nothing": "{loser} 本身不欠：陪炮 0 斤（W6；选跟皮 genpi 则按 1 斤算）",
    "golden": _golden,
    "piao": _piao,
    "draw": "荒庄：不付分，不算漂 (W9)；庄家连庄 (W13)",
    "robbed_pays_cap": "抢杠胡：{player} 被抢杠，付一个封顶 {cap} (W10)",
    "robbed_note": "抢杠胡：只有 {player} 付一个封顶 {cap} + 漂；无金鼎、无包胡 (W10, G11)",
    "implied": _implied,
    "liable_quanqiuren": "{term} {rule}：{player} 点炮全求人",
    "big_hands": _big_hands,
    "no_big_hand": "屁胡：没有大胡 (W2)",
    "mark_liable": "包胡 {liable}",
    "mark_golden": "金鼎",
    **{f"gloss:{key}": gloss for key, gloss in GLOSSES_ZH.items()},
}

CATALOG = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="wuxue")
"""Wuxue's words, falling back to the shared machinery's (a hand settled from tiles
chains the tile readings' words in front: :mod:`settle.engine.tilelevel`)."""


def _menqing_self_draw(values: Any, lang: str) -> str:
    return (f"开了门清（menqing）选项，门清屁胡必须自摸，不能{by_zh(values.raw('by'), DISCARDER)}"
            f"（{values['winner']} 没有开口；W12）")


PROBLEMS_ZH: dict[str, Template] = {
    "pihu_open": "胡牌者 {winner} 是屁胡（没有大胡）又没有开口；武穴屁胡要开口（W12；选项 menqing 门清可以门清"
                 "自摸屁胡，或写明胡牌者的斤数总计，G9）",
    "menqing_self_draw": _menqing_self_draw,
    "qianggang_no_baohu": "抢杠胡没有包胡：只由被抢杠的 {robbed} 付（W10，G11）；删掉 win.liable 或设为 none",
    "baohu_feeders": "{flushes}，开口 {opens} 次：包胡要知道第三口吃碰的是谁的牌；opens 请写成喂牌者的列表，"
                     "或写明 win.liable（W11 b，G7）",
    # a tile error (settle.rules.wuxue.tiles: the flipped tile is out of play)
    "indicator_copies": "翻开的指示牌 {tile} 有 {count} 张：它已不在牌中，只剩 3 张（原文 000 2.2①）",
}
"""The Chinese words of Wuxue's own problems (:mod:`settle.rules.wuxue.checks`: W12 屁胡, 包胡 W11 b, W10),
by the problem's ``kind`` over its ``values`` (``Region.problem_zh``; issue 16 #9)."""
