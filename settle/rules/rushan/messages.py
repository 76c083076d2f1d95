"""The words of Rushan's steps (seed 003; R2–R10), English and Chinese.

English is what settle has always printed; Chinese says the same with the same numbers, names,
pinyin keys and ruling ids.  Shared steps (caps) are worded in :mod:`settle.core.messages`; tile
readings in :mod:`settle.tiles.messages`.
"""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template, plural
from settle.rules.problems import by_zh
from settle.rules.rushan.vocab import DISCARDER, PATTERNS


def _kongs(n: int, lang: str) -> str:
    """`` + 1 kong`` (`` + 1 杠``), or nothing."""
    if not n:
        return ""
    return f" + {n} 杠" if lang == "zh" else f" + {plural(n, 'kong')}"


def _points(values: Any, lang: str) -> str:
    return "×".join(str(f) for f in values.raw("factors")) + _kongs(values.raw("kongs"), lang)


def _points_detail(values: Any, lang: str) -> str:
    items = values.raw("items")  # (key, label, value, kind)
    factors = [i for i in items if i[3] != "kongs"]
    kongs = sum(i[2] for i in items if i[3] == "kongs")
    shown = [f"{factors[0][0]} {factors[0][2]}", *(f"{i[0]} ×{i[2]}" for i in factors[1:])]
    text = " × ".join(shown) + (f" = {values['total']}" if len(factors) > 1 else "")
    return text + ("," + _kongs(kongs, lang) if kongs else "")


def _fish(values: Any, lang: str) -> str:
    name = "飘鱼" if lang == "zh" else "fish"
    inside = ("，计入封顶" if lang == "zh" else ", inside the cap") if values.raw("inside") else ""
    return f"+ {name} {values['winner_fish']}+{values['loser_fish']} (R6{inside})"


def _split(values: Any, lang: str) -> str:
    loser, limit, total = values["loser"], values["limit"], values["total"]
    owed = " + ".join(f"{n} {a}" for n, a in values.raw("owed"))
    shares = ", ".join(f"{n} {s}" for n, s in values.raw("shares"))
    if lang == "zh":
        rounded = f"（取整按最大余数，余数相同给 {loser} 之后较近的胡家）" if values.raw("rounded") else ""
        return (f"= {values['amount']}；{loser} 欠 {owed} = {total}，封顶 {limit}：{limit} 按各家应得分成 "
                f"{shares}{rounded} (R7)")
    rounded = f" (whole points by largest remainder, ties to the winner nearer after {loser})" \
        if values.raw("rounded") else ""
    return (f"= {values['amount']}; {loser} owes {owed} = {total}, capped at {limit}: "
            f"{limit} split by what each winner was owed, {shares}{rounded} (R7)")


def _label(values: Any, lang: str = "en") -> str:
    """``key 中文`` (the pattern's label, in both languages as settle hand has always written it)."""
    return PATTERNS[values.raw("fan")].label


def _value(values: Any) -> int:
    return PATTERNS[values.raw("fan")].value


def _pairs(values: Any, key: str) -> str:
    return ", ".join(f"{n} {k}" for n, k in values.raw(key))


def _kongs_zh(values: Any) -> str:
    """``A 的 1 个杠、C 的 2 个杠``: the kongs of players who did not win."""
    return "、".join(f"{n} 的 {k} 个杠" for n, k in values.raw("kongs"))


def _options(values: Any, lang: str) -> str:
    on = "开" if lang == "zh" else "on"
    shown = ", ".join(f"{k} {on if v is True else v}" for k, v in values.raw("changed"))
    return f"选项：{shown}" if lang == "zh" else f"options: {shown}"


EN: dict[str, Template] = {
    "points": _points,
    "points_detail": _points_detail,
    "fish": _fish,
    "split": _split,
    "self_draw_pays": "自摸: {winner} self-drew, every other player pays (R5)",
    "robbed_pays": "{player} was robbed (抢杠, G6): only {player} pays (R5)",
    "discarder_pays": "{player} discarded (点炮): only {player} pays (R5)",
    "implied": lambda v, lang: f"{_label(v)} named by {v['winner']}: implied by robbed_kong and counted once, "
                               "no multiplier of its own (G10, R2)",
    "counted_unnamed": lambda v, lang: f"{_label(v)} ×{_value(v)} counted for {v['winner']}: a self-draw with "
                                       "no open (R3b)",
    "named_uncounted": lambda v, lang: f"{_label(v)} named by {v['winner']} but not counted: "
                                       "options.menqing_yitiaolong is off (R3b)",
    "others_kongs": lambda v, lang: f"kongs of {_pairs(v, 'kongs')} score nothing: only a winner's kongs count (R4)",
    "draw_kongs": lambda v, lang: f"荒庄 with kongs ({_pairs(v, 'kongs')}): the deal passes to {v['next_dealer']} "
                                  "(R10)",
    "draw_no_kongs": "荒庄 with no kongs: {dealer} stays dealer (R10)",
    "options": _options,
}

GLOSSES_ZH: dict[str, str] = {
    "fan:pihu": "平胡：两边/对倒/单吊/夹胡/3-7胡（默认底分）",
    "fan:pengpenghu": "全是刻子（单吊飘胡/对倒飘胡）",
    "fan:qidui": "七对",
    "fan:tianhu": "庄家起手就胡",
    "fan:dihu": "闲家在庄家第一张出牌后就胡",
    "fan:qingyise": "全是一种花色",
    "fan:haidilao": "分张前最后一张牌自摸",
    "fan:gangshanghua": "杠后补牌自摸",
    "fan:fengyise": "只有风牌和箭牌",
    "fan:mobao": "自摸到宝牌（只限搂宝）",
    "fan:baozhongbao": "宝牌就是胡的那张牌（只限搂宝）",
    "fan:jiangyise": "只有 2、5、8 的牌（只限 258将）",
    "fan:yitiaolong": "同一花色的 123、456、789（只限门清一条龙）",
    "fan:menqing": "没有吃/碰/明杠的自摸（只限门清一条龙）",
    "fan:qiangganghu": "抢别人的杠：by: robbed_kong 已含；不加倍 (R2)",
    "kong:exposed": "明杠：杠别人打出的牌（直杠/点杠）；也算开口",
    "kong:added": "补杠：碰后再杠（蓄杠）；可以被抢",
    "kong:concealed": "暗杠；不算开口",
    "option:cap": "每个玩家在牌分加杠分上最多输的分 (R7)",
    "option:cap_includes_fish": "飘鱼计入封顶 (R7)",
    "option:multi_win": "一张打出的牌可以几家同时胡 (R8)",
    "option:menqing_yitiaolong": "门清和一条龙计分 (R3, R3b)",
    "option:jiang258": "将必须是 2/5/8；可以有将一色 (R9)",
    "option:no_honors": "没有风牌和箭牌，所以没有风一色 (R9)",
    "option:no_chow": "不能吃 (R9)",
    "option:loubao": "宝牌，只能自摸，可以有摸宝/宝中宝 (R9)",
    "option:minglou": "只能自摸 (R9)",
    "option:no_draw": "牌墙打完 (R9)",
    "option:liang_gang_ding": "杠牌亮出 (R9)",
    "option:guohu": "过胡后到自己下一次出牌之前只能自摸（R9；规则文本称之为默认玩法，裁定没有给默认值）",
}
"""The Chinese glosses of the region's words (``fan:KEY``, ``kong:KEY``) and option meanings
(``option:KEY``) for ``settle rules --lang zh`` (issue 16: the English glosses stay in the terms)."""


ZH: dict[str, Template] = {
    "points": _points,
    "points_detail": _points_detail,
    "fish": _fish,
    "split": _split,
    "self_draw_pays": "自摸：{winner} 自摸，其他每家都付 (R5)",
    "robbed_pays": "{player} 被抢杠（G6），只有 {player} 付 (R5)",
    "discarder_pays": "{player} 点炮，只有 {player} 付 (R5)",
    "implied": lambda v, lang: (f"{v['winner']} 报的 {_label(v, lang)}：已由 robbed_kong 计入，只算一次，"
                                "不另加倍 (G10, R2)"),
    "counted_unnamed": lambda v, lang: f"{_label(v, lang)} ×{_value(v)} 计给 {v['winner']}：自摸且没有开口 (R3b)",
    "named_uncounted": lambda v, lang: f"{v['winner']} 报了 {_label(v, lang)} 但不计：未选 menqing_yitiaolong (R3b)",
    "others_kongs": lambda v, lang: f"{_kongs_zh(v)}不算分：只算胡牌者的杠 (R4)",
    "draw_kongs": lambda v, lang: f"荒庄有杠（{_pairs(v, 'kongs')}）：{v['next_dealer']} 接庄 (R10)",
    "draw_no_kongs": "荒庄无杠：{dealer} 连庄 (R10)",
    "options": _options,
    **{f"gloss:{key}": gloss for key, gloss in GLOSSES_ZH.items()},
}

CATALOG = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="rushan")
"""Rushan's words, falling back to the shared machinery's (a hand settled from tiles
chains the tile readings' words in front: :mod:`settle.engine.tilelevel`)."""


def _won_by(values: Any) -> str:
    return by_zh(values.raw("by"), DISCARDER)


FAN_RULES_ZH: dict[str, Template] = {
    "tianhu": "天胡 只能是庄家自摸；{winner} 不是庄家 {dealer}（G10）",
    "dihu": "地胡 只能是闲家胡；{winner} 是庄家（G10）",
    "jiangyise": "将一色 要开启选项 jiang258（258将）（R9）",
    "fengyise": "开了选项 no_honors（不带风）就不可能有风一色（R9）",
    "mobao": "摸宝 要开启选项 loubao（搂宝）（R9）",
    "baozhongbao": "宝中宝 要开启选项 loubao（搂宝）（R9）",
    "menqing": lambda values, lang: (f"门清 要自摸且没有开口（吃/碰/明杠）；{values['winner']} 是{_won_by(values)}，"
                                     f"开口 {values['opens']} 次（R3，G10）"),
}
"""The Chinese words of :data:`settle.rules.rushan.checks.FAN_RULES`, by fan (the problem kind ``fan_rule:<fan>``)."""


def _self_draw_only(values: Any, lang: str) -> str:
    return f"选项 {values['option']}（{values['zh']}）下报听后只能自摸，不能{_won_by(values)}（R9）"


PROBLEMS_ZH: dict[str, Template] = {
    "multi_win": "{count} 位胡牌者要开启选项 multi_win（一炮多响）；不开只能一位胡牌（R8）",
    "self_draw_only": _self_draw_only,
    "no_baopai": "乳山没有包牌：删掉 win.liable（R5）",
    **{f"fan_rule:{key}": words for key, words in FAN_RULES_ZH.items()},
    # tile errors (settle.rules.rushan.tiles: 搂宝, 只碰不吃, 不带风, R9)
    "bao_win_needs_bao": "情景番 {names} 要给出宝牌 bao_tile（搂宝，R9）",
    "bao_win_tile": "情景番 {names} 要胡的牌就是宝牌 {bao_shown}，这里胡的是 {win}",
    "bao_not_indicator": "乳山没有翻开的癞子指示牌（请用 bao_tile）",
    "bao_needs_loubao": "只有开了选项 loubao 搂宝 才有宝牌 bao_tile（R9）",
    "no_chow": "吃 {tiles}：选项 no_chow 只碰不吃 不能吃（R9）",
    "no_honors": "选项 no_honors 不带风：不用风牌和箭牌（R9）",
}
"""The Chinese words of Rushan's own problems (:mod:`settle.rules.rushan.checks`: R8, R9, G10, R5), by the
problem's ``kind`` over its ``values`` (``Region.problem_zh``; issue 16 #9)."""
