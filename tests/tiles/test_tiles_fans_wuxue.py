"""Wuxue 武穴 shape fans and legality (seed 000; RULINGS W2 W12 W15 W16 G10).

Unless said otherwise the indicator is 3s: 癞子皮 (pizi) 3s and 红中, 宝 4s (W15).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from settle.rules.wuxue.tiles import TILE_RULES as WUXUE
from settle.tiles import Evaluation, Meld, TileHand, evaluate_all, reason_text


def wuxue(
    text: str,
    win: str,
    melds: Iterable[str | Meld | tuple[str, str]] = (),
    indicator: str = "3s",
    by: str = "self_draw",
    situations: Iterable[str] = (),
) -> Evaluation:
    hand = TileHand.parse(text, win, melds, indicator)
    return evaluate_all(WUXUE, hand, {}, by, situations)


def fan_sets(evaluation: Evaluation) -> set[frozenset[str]]:
    return {scored.fans for scored in evaluation.legal}


def test_pihu_with_258_pair() -> None:
    # W2: no big hand = 屁胡 (0 jin); W12: it needs a 2/5/8 pair (22m). No 宝: hard (W16).
    assert fan_sets(wuxue("22m 345m 678p 789s 666p", "6p")) == {frozenset({"hard"})}


def test_pihu_without_258_pair_is_illegal() -> None:
    # W12 / seed 000 3.1①: 小胡必须258做将.
    result = wuxue("33m 345m 678p 789s 666p", "6p")
    assert result.legal == ()
    assert "2/5/8" in (result.why_not() or "")


def test_qidui() -> None:
    # W2 七对 (2 jin): seven pairs, no 2/5/8 pair needed (seed 000 3.2①).
    assert fan_sets(wuxue("11m 33m 55p 66p 22s 88s 11z", "1z")) == {frozenset({"qidui", "hard"})}


def test_haohua_qidui_two_identical_pairs() -> None:
    # W2 豪华七对: a four-of-a-kind (1111m, two identical pairs) inside the seven pairs.
    assert fan_sets(wuxue("1111m 33m 55p 66p 22s 88s", "8s")) == {frozenset({"haohua_qidui", "hard"})}


def test_chaohaohua_and_chaochaohaohua() -> None:
    # W2: two four-of-a-kinds -> 超豪华 (4 jin); three -> 超超豪华 (5 jin). They replace 七对.
    assert fan_sets(wuxue("1111m 3333m 55p 66p 88s", "8s")) == {frozenset({"chaohaohua_qidui", "hard"})}
    assert fan_sets(wuxue("1111m 3333m 5555p 88s", "8s")) == {frozenset({"chaochaohaohua_qidui", "hard"})}


def test_wildcard_completes_a_quad() -> None:
    # W2 + seed 000 2.3①: the 宝 4s read as 1m makes 1111m -> 豪华七对, soft (W16).
    assert fan_sets(wuxue("111m 4s 33m 55p 66p 22s 88s", "8s")) == {frozenset({"haohua_qidui"})}


def test_qingyise_pengpenghu_fengyise_add_up() -> None:
    # W2: big hands add: 碰碰胡 + 风一色 (all honours, a winning shape) + hard.
    # Indicator 3s: 中 (5z) is pizi, so the honours here avoid it.
    result = wuxue("111z 222z 333z 444z 77z", "7z")
    assert fan_sets(result) == {frozenset({"pengpenghu", "fengyise", "hard"})}
    result = wuxue("11m 123m 456m 789m 999m", "9m")
    assert fan_sets(result) == {frozenset({"qingyise", "hard"})}


def test_fengyise_needs_a_winning_shape() -> None:
    # seed 000 3.2④: 由东西南北中发白组成的胡牌牌型 (unlike Wuhan's 乱风).
    assert wuxue("1111z 2222z 3333z 4z 7z", "7z").legal == ()


def test_jiangyise_needs_no_shape() -> None:
    # seed 000 3.2③: 将一色 可以不符合胡牌牌型.
    result = wuxue("258m 258p 258s 2255m 8p", "8p")
    assert fan_sets(result) == {frozenset({"jiangyise", "hard"})}


def test_quanqiuren_needs_a_258_pair() -> None:
    # W2 全求人, W12: needs a 2/5/8 pair; G10: on a discard.
    melds = ["123p", "456p", "789m", "567s"]
    assert fan_sets(wuxue("55m", "5m", melds=melds, by="discard")) == {frozenset({"quanqiuren", "hard"})}
    # 33m: no 全求人, and a 屁胡 without a 2/5/8 pair is illegal (W12).
    assert wuxue("33m", "3m", melds=melds, by="discard").legal == ()


def test_pizi_in_hand_forbids_winning() -> None:
    # W15 / seed 000 2.3②: 手里有癞子皮时不可胡牌 (3s is the flipped tile).
    result = wuxue("11m 33m 55p 66p 22s 33s 88s", "8s")
    assert result.legal == ()
    assert result.blocked is not None and "3s" in reason_text(result.blocked)


def test_hongzhong_is_always_pizi() -> None:
    # W15 / seed 000 2.2②: 红中为固定的癞子皮.
    assert wuxue("22m 345m 678p 789s 555z", "2m").blocked is not None


def test_flipped_north_makes_hongzhong_the_bao() -> None:
    # W15 / seed 000 2.2⑤: flipped 北 -> 北 and 白 are pizi, 中 is 宝 (a wildcard).
    result = wuxue("22m 345m 678p 789s 66p 5z", "5z", indicator="4z")
    assert fan_sets(result) == {frozenset()}  # 中 read as 6p: soft 屁胡
    assert wuxue("22m 345m 678p 789s 777z", "2m", indicator="4z").blocked is not None


def test_flipped_zhong_makes_bai_pizi_and_fa_bao() -> None:
    # W15 / seed 000 2.2④: 红中和白板是癞子皮, 发财是宝牌.
    assert wuxue("22m 345m 678p 789s 777z", "2m", indicator="5z").blocked is not None
    result = wuxue("22m 345m 678p 789s 66p 6z", "6z", indicator="5z")
    assert fan_sets(result) == {frozenset()}


def test_two_bao_forbid_pihu() -> None:
    # W15 / seed 000 2.3③: 手里有两个宝牌不可以小胡 (宝 = 4s).
    result = wuxue("22m 345m 678p 789s 446s", "6s")
    assert result.legal == ()
    assert any("two 宝" in reason_text(reason) for _, reason in result.rejected)


def test_two_bao_allow_pihu_with_gangkai_or_robbed_kong() -> None:
    # W15: except 杠开 (situation gangkai) or 抢杠胡 (by robbed_kong).
    assert frozenset({"gangkai"}) in fan_sets(wuxue("22m 345m 678p 789s 446s", "6s", situations=["gangkai"]))
    assert frozenset() in fan_sets(wuxue("22m 345m 678p 789s 446s", "6s", by="robbed_kong"))


def test_two_bao_allow_a_big_hand() -> None:
    # W15 forbids only the 屁胡: 清一色 with two 宝 is fine.
    result = wuxue("11m 123m 456m 789m 9m 44s", "9m")
    assert frozenset({"qingyise"}) in fan_sets(result)


def test_hard_without_bao_in_hand() -> None:
    # W16: no 宝 in hand -> hard. Indicator 3p: pizi 3p and 中, 宝 4p (none held).
    result = wuxue("22m 345m 678p 345s 789s", "9s", indicator="3p")
    assert fan_sets(result) == {frozenset({"hard"})}


def test_bao_used_as_itself_is_hard() -> None:
    # W16 / seed 000 3.3①: 宝牌做本身使用 -> 硬胡. Read as itself the 宝 4s makes 456s
    # (hard); read as 7s it makes 567s 789s (soft). Both readings are offered.
    result = wuxue("22m 345m 678p 456s 789s", "9s")
    assert fan_sets(result) == {frozenset({"hard"}), frozenset()}
    hard = next(s for s in result.legal if "hard" in s.fans)
    assert hard.reading.wild_values == (21,)  # 4s
    assert hard.reading.substitutions == 0


def test_sibao() -> None:
    # W2 / seed 000 3.3②: four 宝 in hand, 1 jin; with 碰碰胡 (4s read as 999p, 444s, ...).
    result = wuxue("22m 555m 777p 99p 4444s", "9p")
    assert frozenset({"pengpenghu", "sibao"}) in fan_sets(result)
    assert all("sibao" in fans for fans in fan_sets(result))


def test_wuxue_rejects_impossible_input() -> None:
    # seed 000 2.2①: the flipped tile is out of play, only 3 are left.
    with pytest.raises(ValueError, match="out of play"):
        wuxue("22m 345m 678p 4444s 99s", "2m", indicator="4s")
    # seed 000 2.3④: a discarded 宝 cannot be claimed (no pung of 宝).
    with pytest.raises(ValueError, match="cannot meld"):
        wuxue("22m 345m 678p 666p", "2m", melds=["444s"])
    # G10: gangkai only on a self-draw; Wuxue has no qiangganghu key.
    with pytest.raises(ValueError, match="self_draw"):
        wuxue("22m 345m 678p 789s 666p", "6p", by="discard", situations=["gangkai"])
    with pytest.raises(ValueError, match="situational"):
        wuxue("22m 345m 678p 789s 666p", "6p", situations=["haidilao"])


def test_why_not_names_the_reason_of_the_tiles_as_held_first() -> None:
    # Flipped 4s: 宝 is 5s.  The pair 55s is two 宝 used as themselves, a 2/5/8 pair: that reading
    # fails only on W15 (two 宝 forbid a 屁胡), other readings on W12's pair.  Audit wx08: the W15
    # reason, the one of the tiles as held, comes first.
    result = wuxue("123m 666p 789p 55s", "5s", melds=["777m"], indicator="4s")
    assert result.legal == ()
    assert result.why_not().startswith("two 宝 in hand forbid a 屁胡")
