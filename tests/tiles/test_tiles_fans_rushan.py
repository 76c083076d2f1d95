"""Rushan 乳山 bases, multipliers and legality (seed 003; RULINGS R1-R3b R9 G10)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from settle.rules.rushan.tiles import TILE_RULES as RUSHAN
from settle.tiles import Evaluation, Meld, TileHand, evaluate_all

DRAGON_OPTION = {"menqing_yitiaolong": True}


def rushan(
    text: str,
    win: str,
    melds: Iterable[str | Meld | tuple[str, str]] = (),
    by: str = "self_draw",
    situations: Iterable[str] = (),
    options: Mapping[str, object] | None = None,
    bao: str | None = None,
) -> Evaluation:
    hand = TileHand.parse(text, win, melds, None, bao)
    return evaluate_all(RUSHAN, hand, options, by, situations)


def fan_sets(evaluation: Evaluation) -> set[frozenset[str]]:
    return {scored.fans for scored in evaluation.legal}


def test_pihu_is_the_default_base_and_any_pair_will_do() -> None:
    # R1: 屁胡 1 when no other base; without jiang258 the pair need not be 2/5/8.
    assert fan_sets(rushan("33m 345m 678p 234s 666s", "6s")) == {frozenset({"pihu"})}


def test_pengpenghu_base() -> None:
    # R1 碰碰胡 2 (seed 003: 也叫飘胡).
    assert fan_sets(rushan("33m 555m 777p 111s 999s", "9s")) == {frozenset({"pengpenghu"})}


def test_qidui_base_and_quads_are_plain_qidui() -> None:
    # R1 七对 2; Rushan has no 豪华 levels, a four-of-a-kind is two pairs of a 七对.
    assert fan_sets(rushan("11m 33m 55p 66p 22s 88s 11z", "1z")) == {frozenset({"qidui"})}
    assert fan_sets(rushan("1111m 33m 55p 66p 22s 88s", "8s")) == {frozenset({"qidui"})}


def test_both_bases_offered_when_the_tiles_allow() -> None:
    # 112233m 445566p 77s: seven pairs (七对 2) or chows (屁胡 1): the caller picks.
    result = rushan("112233m 445566p 77s", "7s")
    assert fan_sets(result) == {frozenset({"qidui"}), frozenset({"pihu"})}


def test_qingyise() -> None:
    # R2 清一色 ×2 with 屁胡 base; 一条龙/门清 need the option (R3).
    assert fan_sets(rushan("11m 123m 456m 789m 999m", "9m")) == {frozenset({"qingyise", "pihu"})}


def test_yitiaolong_and_menqing_with_the_option() -> None:
    # R3: with menqing_yitiaolong, 一条龙 (123 456 789 of 万) and 门清 (self-draw, no claims).
    result = rushan("123m 456m 789m 123s 55p", "5p", options=DRAGON_OPTION)
    assert fan_sets(result) == {frozenset({"pihu", "yitiaolong", "menqing"})}
    # On a discard, no 门清 (R3: 门清 needs a self-draw).
    result = rushan("123m 456m 789m 123s 55p", "5p", by="discard", options=DRAGON_OPTION)
    assert fan_sets(result) == {frozenset({"pihu", "yitiaolong"})}


def test_yitiaolong_not_with_a_claimed_chow() -> None:
    # R3 / seed 003 13: 吃开门的不算 -> the 789m chow is a claim: no 一条龙, no 门清.
    result = rushan("123m 456m 123s 55p", "5p", melds=["789m"], options=DRAGON_OPTION)
    assert fan_sets(result) == {frozenset({"pihu"})}


def test_concealed_kong_keeps_menqing() -> None:
    # seed 003 杠牌规则 2: 暗杠不算开门 -> still 门清; an exposed kong is a claim (R3).
    closed = rushan("123m 456m 123s 55p", "5p", melds=[("9999s", "concealed")], options=DRAGON_OPTION)
    assert fan_sets(closed) == {frozenset({"pihu", "menqing"})}
    opened = rushan("123m 456m 123s 55p", "5p", melds=[("9999s", "exposed")], options=DRAGON_OPTION)
    assert fan_sets(opened) == {frozenset({"pihu"})}


def test_without_the_option_no_menqing_or_yitiaolong() -> None:
    # R3b: with the option off they count nothing.
    assert fan_sets(rushan("123m 456m 789m 123s 55p", "5p")) == {frozenset({"pihu"})}


def test_fengyise_needs_no_pair() -> None:
    # seed 003: 必须有对子（风一色不限）; 风一色 手牌全部是风牌或箭牌直接胡牌.
    result = rushan("1111z 2222z 3333z 4z 7z", "7z")
    assert fan_sets(result) == {frozenset({"fengyise", "pihu"})}


def test_fengyise_with_a_shape_keeps_its_base() -> None:
    # 碰碰胡 of honours: base 碰碰胡 ×2 for 风一色; the loose reading (屁胡) is offered too.
    result = rushan("111z 222z 333z 444z 77z", "7z")
    assert frozenset({"fengyise", "pengpenghu"}) in fan_sets(result)


def test_jiang258_exempts_no_fengyise() -> None:
    # R9 to the letter: with jiang258, 屁胡/七对/碰碰胡 need a 2/5/8 pair; a 风一色's base is one of
    # them (R1) and an honours pair is no 2/5/8, so no reading is legal: neither the 碰碰胡 of
    # honours (pair 西西) nor the loose one (屁胡, no pair at all), nor an honours 七对.
    # Regression: these were settled as 碰碰胡 × 风一色 = 4 and 七对 × 风一色 = 4 (tile audit D2).
    jiang258 = {"jiang258": True}
    assert rushan("111z 222z 444z 555z 33z", "3z", options=jiang258).legal == ()
    assert rushan("1111z 2222z 3333z 4z 7z", "7z", options=jiang258).legal == ()
    assert rushan("11z 22z 33z 44z 55z 66z 77z", "7z", options=jiang258).legal == ()


def test_jiangyise_only_with_jiang258() -> None:
    # R9: 将一色 only with jiang258 (seed 003 258将: 可以胡将一色); no shape needed.
    hand = ("258m 258p 258s 2255m 8s", "8s")
    assert fan_sets(rushan(*hand, options={"jiang258": True})) == {frozenset({"jiangyise", "pihu"})}
    assert rushan(*hand).legal == ()  # not a winning shape, and no 将一色 without the option


def test_jiang258_needs_a_258_pair() -> None:
    # R9: with jiang258, 屁胡/七对/碰碰胡 need a 2/5/8 pair: 33m fails, 22m passes.
    assert rushan("33m 345m 678p 234s 666s", "6s", options={"jiang258": True}).legal == ()
    assert fan_sets(rushan("22m 345m 678p 234s 666s", "6s", options={"jiang258": True})) == {frozenset({"pihu"})}
    # For 七对 one of the seven pairs must be a 2/5/8 (here 22s and 88s).
    assert fan_sets(rushan("11m 33m 55p 66p 22s 88s 11z", "1z", options={"jiang258": True})) == {frozenset({"qidui"})}
    assert rushan("11m 33m 66p 99p 11s 77s 11z", "1z", options={"jiang258": True}).legal == ()


def test_no_honors_option_rejects_honour_tiles() -> None:
    # R9 不带风: honour tiles are not in play.
    with pytest.raises(ValueError, match="no_honors"):
        rushan("22m 345m 678p 234s 111z", "2m", options={"no_honors": True})


def test_no_chow_option_rejects_a_claimed_chow() -> None:
    # R9 只碰不吃.
    with pytest.raises(ValueError, match="no_chow"):
        rushan("123m 456m 123s 55p", "5p", melds=["789m"], options={"no_chow": True})


def test_situations_pass_through() -> None:
    # R2: 天胡 ×4, 海底捞 ×2 and 杠上花 ×2 come from the table, not from the tiles.
    result = rushan("22m 345m 678p 234s 666s", "6s", situations=["tianhu", "haidilao", "gangshanghua"])
    assert fan_sets(result) == {frozenset({"pihu", "tianhu", "haidilao", "gangshanghua"})}
    with pytest.raises(ValueError, match="self_draw"):
        rushan("22m 345m 678p 234s 666s", "6s", by="discard", situations=["haidilao"])


def test_mobao_and_baozhongbao_need_the_win_tile_to_be_the_bao() -> None:
    # R2/R9 摸宝, 宝中宝: with 搂宝 the winning tile is the 宝 tile.
    loubao = {"loubao": True}
    result = rushan("22m 345m 678p 234s 666s", "6s", situations=["mobao"], options=loubao, bao="6s")
    assert fan_sets(result) == {frozenset({"pihu", "mobao"})}
    with pytest.raises(ValueError, match="bao_tile"):
        rushan("22m 345m 678p 234s 666s", "6s", situations=["baozhongbao"], options=loubao, bao="2m")
    with pytest.raises(ValueError, match="loubao"):
        rushan("22m 345m 678p 234s 666s", "6s", bao="6s")


def test_rushan_has_no_indicator_and_no_hard() -> None:
    # R9: hard does not exist in Rushan; an indicator is an error.
    with pytest.raises(ValueError, match="indicator"):
        evaluate_all(RUSHAN, TileHand.parse("22m 345m 678p 234s 666s", "6s", indicator="1m"))
    result = rushan("22m 345m 678p 234s 666s", "6s")
    assert all("hard" not in s.fans for s in result.legal)
