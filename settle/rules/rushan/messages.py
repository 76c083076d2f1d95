"""The words of Rushan's steps (seed 003; R2–R10), English and Chinese.

English is what settle has always printed; Chinese says the same with the same numbers, names,
pinyin keys and ruling ids.  Shared steps (caps) are worded in :mod:`settle.core.messages`; tile
readings in :mod:`settle.tiles.messages`.
"""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template, plural
from settle.rules.rushan.vocab import PATTERNS


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


def _label(values: Any) -> str:
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
ZH: dict[str, Template] = {
    "points": _points,
    "points_detail": _points_detail,
    "fish": _fish,
    "split": _split,
    "self_draw_pays": "自摸：{winner} 自摸，其他每家都付 (R5)",
    "robbed_pays": "{player} 被抢杠（G6），只有 {player} 付 (R5)",
    "discarder_pays": "{player} 点炮，只有 {player} 付 (R5)",
    "implied": lambda v, lang: f"{v['winner']} 报的 {_label(v)}：已由 robbed_kong 计入，只算一次，不另加倍 (G10, R2)",
    "counted_unnamed": lambda v, lang: f"{_label(v)} ×{_value(v)} 计给 {v['winner']}：自摸且没有开口 (R3b)",
    "named_uncounted": lambda v, lang: f"{v['winner']} 报了 {_label(v)} 但不计：未选 menqing_yitiaolong (R3b)",
    "others_kongs": lambda v, lang: f"{_kongs_zh(v)}不算分：只算胡牌者的杠 (R4)",
    "draw_kongs": lambda v, lang: f"荒庄有杠（{_pairs(v, 'kongs')}）：{v['next_dealer']} 接庄 (R10)",
    "draw_no_kongs": "荒庄无杠：{dealer} 连庄 (R10)",
    "options": _options,
}

CATALOG = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="rushan")
"""Rushan's words, falling back to the shared machinery's (a hand settled from tiles
chains the tile readings' words in front: :mod:`settle.engine.tilelevel`)."""
