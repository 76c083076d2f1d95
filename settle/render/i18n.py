"""Chinese wording of the explanations, for ``--lang zh``.

The settlement core and the regions write each explanation once, in English with the Chinese
terms beside it (``= 480, capped at 400 (H5 封顶)``).  For Chinese output, :func:`to_zh` rewrites
those phrases in order from :data:`ZH_PHRASES`; numbers, names, pinyin keys and ruling ids stay
as they are, so a Chinese reader checks the same formula line by line.  JSON output is never
translated (its keys and texts stay canonical).
"""

from __future__ import annotations

import re

_NAME = r"(\S+?)"

ZH_PHRASES: tuple[tuple[str, str], ...] = (
    # caps, golden caps, extras
    (r", capped at (\d+)", r"，封顶 \1"),
    (r", the cap \(", r"，正好封顶 ("),
    (r"capped at (\d+)", r"封顶 \1"),
    (r"光明顶 (\d+): " + _NAME + r" has no open", r"光明顶 \1：\2 没有开口"),
    (r"金顶 (\d+): all three exceed (\d+)", r"金顶 \1：三家都超过 \2"),
    (r"金顶: all three losers exceed the cap (\d+)", r"金顶：三家输分都超过封顶 \1"),
    (r"two losers capped", "两家封顶"),
    (r"all three losers capped", "三家封顶"),
    (r"both losers capped, three_player_golden: (\w+)", r"两家都封顶（three_player_golden: \1）"),
    (r"\+ 漂 (\d+) \(2×(\d+), piao_both_sides\)", r"+ 漂 \1（双边漂 2×\2）"),
    (r"\+ fish (\d+)\+(\d+)", r"+ 飘鱼 \1+\2"),
    (r", inside the cap", "，计入封顶"),
    # 包牌 / 承包
    (_NAME + r"'s share paid by " + _NAME + r" \((.*?)\)(?=;|$)", r"\1 的份由 \2 付（\3）"),
    (_NAME + r" pays for everyone: ", r"\1 一家全付："),
    (_NAME + r" fed " + _NAME + r"'s third open of ", r"\1 给 \2 第三次开口，"),
    (_NAME + r" fed 全求人 without being ready \(没听牌\)", r"\1 没听牌放冲全求人"),
    (_NAME + r" fed 全求人", r"\1 放冲全求人"),
    (_NAME + r"'s kong was robbed, pays the cap (\d+)", r"\1 被抢杠，付一个封顶 \2"),
    (_NAME + r"'s kong was robbed", r"\1 被抢杠"),
    (r"stated by win\.liable", "由 win.liable 指定"),
    # who pays
    (r"only " + _NAME + r" pays, one cap (\d+) \+ 漂; no 金鼎, no 包胡", r"只有 \1 付一个封顶 \2 + 漂；无金鼎、无包胡"),
    (_NAME + r" self-drew, every other player pays", r"\1 自摸，其他每家都付"),
    (_NAME + r" discarded \(点炮\): only " + _NAME + " pays", r"\1 点炮，只有 \2 付"),
    (_NAME + r" was robbed \(抢杠, G6\): only " + _NAME + " pays", r"\1 被抢杠（G6），只有 \2 付"),
    (_NAME + r" owes nothing of his own: 陪炮 with 0 斤 \(W6; option genpi 跟皮 would count it as 1\)",
     r"\1 本身不欠：陪炮 0 斤（W6；选跟皮则按 1 斤算）"),
    (r"陪炮 half", "陪炮减半"),
    (r"跟皮: 0 斤 counted as 1", "跟皮：0 斤按 1 斤"),
    (r"kongs of (.+?) score nothing: only a winner's kongs count", r"\1 的杠不算分：只算胡牌者的杠"),
    (r"(\S+) ×(\d+) counted for " + _NAME + r": a self-draw with no open", r"\1 ×\2 计给 \3：自摸且没有开口"),
    (r"named by " + _NAME + r" but not counted: options\.menqing_yitiaolong is off",
     r"\1 报了但不计：未选门清一条龙"),
    (_NAME + r" owes ", r"\1 欠 "),
    (r"(\d+) split by what each winner was owed, ", r"\1 按各家应得分成 "),
    (r" \(whole points by largest remainder, ties to the winner nearer after " + _NAME + r"\)",
     r"（取整按最大余数，余数相同给 \1 之后较近的胡家）"),
    # hand kinds and counts
    (r"小胡 small hand: base 1", "小胡：底分 1"),
    (r": base (\d+)", r"：底分 \1"),
    (r"屁胡: no big hand", "屁胡：没有大胡"),
    (r"(\d+) \(stated\)", r"\1（报数）"),
    (r" \+ (\d+) kongs?", r" + \1 杠"),
    (r"options: ", "选项："),
    (r"(\w+) on(,|$)", r"\1 开\2"),
    # session notes (settle.engine.session): rotation warnings, the end of the game, where the totals stop
    (r"hand (\S+?): dealer " + _NAME + r" is stated, the rotation gives " + _NAME + r" \((\w+)\); settled with "
     + _NAME + r"$", r"第 \1 局：写明庄家 \2，轮庄应为 \3（\4）；按 \5 结算"),
    (_NAME + r" left the game at hand (\S+) \(逃跑, H9\)", r"\1 在第 \2 局逃跑（H9）"),
    (r"hand (\S+?) comes after the end of the game", r"第 \1 局在牌局结束之后"),
    (r"hand (\S+?) could not be settled", r"第 \1 局无法结算"),
    (r"the header could not be settled", "表头有误"),
    (r"[:;] the running totals stop after hand (\S+?)(, because every later dealer follows from it)?(?=;|$)",
     r"：累计停在第 \1 局之后"),
    (r"[:;] the running totals stop before the first hand(, because every later dealer follows from it)?(?=;|$)",
     "：累计停在第一局之前"),
    (r"; (\d+) later documents? not settled", r"；后面 \1 份未结算"),
    # draws, abandon, dealers
    (r"荒庄 with kongs \((.+?)\): the deal passes to " + _NAME + r" ", r"荒庄有杠（\1）：\2 接庄 "),
    (r"荒庄 with no kongs: " + _NAME + r" stays dealer", r"荒庄无杠：\1 连庄"),
    (r"荒庄: nobody pays, no 漂", "荒庄：不付分，不算漂"),
    (r"the dealer stays", "庄家连庄"),
    (r"逃跑 penalty (\d+) split (\d+) ways, extra points first to " + _NAME + r" ",
     r"逃跑罚分 \1 分给 \2 家，余分先给 \3 "),
    (r"逃跑 penalty (\d+), forfeited", r"逃跑罚分 \1，罚没"),
    (_NAME + r" left the game: (\d+) forfeited, so this hand's net does not sum to zero",
     r"\1 逃跑：罚没 \2，本局输赢之和不为零"),
    (_NAME + r" left the game", r"\1 逃跑"),
    # tile-level readings (settle.engine.tilelevel)
    (r"tiles: " + _NAME + r"'s claimed fans are settled as given \((.+?)\); `settle check` compares them with "
     r"the tiles", r"牌：\1 报的番照报算（\2）；`settle check` 会和牌面对照"),
    (r"tiles: " + _NAME + r"'s melds give (\d+) open\(s\)( fed by (.+?))? and ",
     r"牌：\1 的副露有 \2 次开口（\4）和 "),
    (r"（）", ""),
    (r"no four-tile kong", "没有四张的杠"),
    (r"(\d+) (\w+) kongs?", r"\1 个 \2 杠"),
    (r"reading: " + _NAME + r"'s tiles read as ", r"读法：\1 的牌读作 "),
    (r"\[concealed kong ", "[暗杠 "),
    (r"\[(exposed|added) kong ", r"[明杠 "),
    (r"\[kong ", "[杠 "),
    (r"\[pung ", "[碰 "),
    (r"\[chow ", "[吃 "),
    (r" as itself", " 作本身"),
    (r"(\S+) as (\w+)\)", r"\1 作 \2)"),
    (r"chosen for " + _NAME + r": ", r"选给 \1："),
    (r"the only legal reading", "唯一合法的读法"),
    (r"the only reading the hand's facts allow", "牌局事实只允许这一种读法"),
    (r"pays " + _NAME + r" the most, ([+-]?\d+) \(next best: ", r"\1 赢得最多，\2（次优："),
    (r"ties with (.+?); preferred without 包牌 \(there " + _NAME + r" would pay for everyone\)",
     r"与 \1 同分；取不包牌的读法（那种读法 \2 要包）"),
    (r"ties with (.+?); preferred with fewer wildcard substitutions \((\d+) against (\d+)\)",
     r"与 \1 同分；取癞子替代较少的读法（\2 对 \3）"),
    (r"ties with (.+?) in every respect; the first in the engine's order \(most fans\)",
     r"与 \1 完全相同；取番多者在前的第一种"),
    (r"(\d+) legal reading\(s\) considered \(one per distinct set of fans, each with its fewest wildcard "
     r"substitutions\)", r"共考虑 \1 种合法读法（每种番型一种，取替代最少者）"),
    (r"refused by the hand's facts: (\d+) reading\(s\)", r"与牌局事实不符：\1 种读法"),
    (r"not legal: (\d+) other reading\(s\)", r"不合法：另 \1 种读法"),
)
"""(English pattern, Chinese replacement) in the order applied; names match ``\\S+?``."""

_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement in ZH_PHRASES)


_HOW_ZH = tuple((re.compile(pattern), words) for pattern, words in (
    (r"^discard from (.+)$", r"\1 点炮"), (r"^robbed_kong from (.+)$", r"\1 被抢杠"),
    (r"^self_draw$", "自摸"), (r"^draw$", "荒庄"), (r"^abandon by (.+)$", r"\1 逃跑")))


def how_zh(text: str) -> str:
    """How a hand ended (:func:`settle.engine.batch.how`: ``discard from A``, ``self_draw`` ...) in Chinese."""
    for pattern, words in _HOW_ZH:
        text = pattern.sub(words, text)
    return text


def to_zh(text: str) -> str:
    """``text`` with every known English phrase of the explanations put in Chinese."""
    for pattern, replacement in _COMPILED:
        text = pattern.sub(replacement, text)
    return text
