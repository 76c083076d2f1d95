"""Wuhan 红中赖子杠 shape fans and legality (seed 004; RULINGS H3 H8 H12 G10).

Unless said otherwise the indicator is 4s, so the 癞子 is 5s (H12).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from settle.rules.wuhan.tiles import TILE_RULES as WUHAN
from settle.tiles import Evaluation, Meld, TileHand, evaluate, evaluate_all, reason_text
from settle.tiles.notation import parse_tile


def wuhan(
    text: str,
    win: str,
    melds: Iterable[str | Meld | tuple[str, str]] = (),
    indicator: str = "4s",
    by: str = "self_draw",
    situations: Iterable[str] = (),
    options: Mapping[str, object] | None = None,
) -> Evaluation:
    hand = TileHand.parse(text, win, melds, indicator)
    return evaluate_all(WUHAN, hand, options, by, situations)


def fan_sets(evaluation: Evaluation) -> set[frozenset[str]]:
    return {scored.fans for scored in evaluation.legal}


def test_small_hand_without_laizi_is_hard() -> None:
    # H2/H8: 小胡 with a 2/5/8 pair (22m); no 癞子 in hand, so 硬胡.
    assert fan_sets(wuhan("22m 345m 678p 234s 666s", "6s")) == {frozenset({"hard"})}


def test_pair_must_be_258_in_a_small_hand() -> None:
    # H8: the pair 33m is not 2/5/8 and no exempting big hand: no legal reading.
    result = wuhan("33m 345m 678p 234s 666s", "6s")
    assert result.legal == ()
    assert "2/5/8" in (result.why_not() or "")


def test_258_pair_made_by_the_laizi() -> None:
    # H8: 2m + 癞子 (5s read as 2m) is the 2/5/8 pair; soft (软胡), so no `hard`.
    result = wuhan("2m 5s 345m 678p 234s 666s", "6s")
    assert fan_sets(result) == {frozenset()}
    assert result.legal[0].reading.pair == (1, 1)
    assert result.legal[0].reading.substitutions == 1


def test_laizi_used_as_itself_is_hard() -> None:
    # H8 / seed 004 硬胡 "用本身花数胡": the 5s sits in 456s as itself: 0 substitutions.
    result = wuhan("22m 345m 678p 456s 666s", "6s")
    assert fan_sets(result) == {frozenset({"hard"})}
    assert result.legal[0].reading.substitutions == 0


def test_pengpenghu_needs_no_258_pair() -> None:
    # H3 碰碰胡; H8 lists it among the exceptions to the 2/5/8 pair (33m).
    assert fan_sets(wuhan("33m 555m 777p 111s 999s", "9s")) == {frozenset({"pengpenghu", "hard"})}


def test_qingyise_needs_no_258_pair() -> None:
    # H3 清一色, melds included; H8 exception: pair 11m is fine.
    result = wuhan("11m 456m 789m 999m", "9m", melds=["123m"])
    assert fan_sets(result) == {frozenset({"qingyise", "hard"})}


def test_qingyise_only_if_the_laizi_is_read_as_the_suit() -> None:
    # 11m 123m 456m 789m 99m + 癞子 5s: read as any 万 it is 清一色 (soft); a 条 reading
    # does not win at all. H3 清一色 with H8's exception for its pair.
    result = wuhan("11m 123m 456m 789m 99m 5s", "9m")
    assert fan_sets(result) == {frozenset({"qingyise"})}
    assert all(v < 9 for v in result.legal[0].reading.wild_values)


def test_meld_in_another_suit_breaks_qingyise() -> None:
    # H3: 清一色 counts the melds too; 123p breaks it, and the pair 11m is then illegal.
    result = wuhan("11m 456m 789m 999m", "9m", melds=["123p"])
    assert result.legal == ()


def test_jiangyise_needs_no_shape() -> None:
    # seed 004: 风一色、将一色为乱风乱将, 只要手上全是风牌或将牌就能胡 (H3, H8 exception).
    result = wuhan("258m 258p 258s 2255m 8s", "8s")
    assert fan_sets(result) == {frozenset({"jiangyise", "hard"})}
    assert result.legal[0].reading.shape == "loose"


def test_jiangyise_with_laizi_not_a_258_is_soft() -> None:
    # The 癞子 4s (indicator 3s) must be read as a 2/5/8: a substitution, so no `hard`.
    result = wuhan("258m 258p 258s 2255m 4s", "4s", indicator="3s")
    assert fan_sets(result) == {frozenset({"jiangyise"})}


def test_fengyise_needs_no_shape() -> None:
    # seed 004 乱风: all honours (东南西北白; 红中/发财 cannot be held) is enough.
    result = wuhan("1111z 2222z 3333z 4z 7z", "7z")
    assert fan_sets(result) == {frozenset({"fengyise", "hard"})}


def test_quanqiuren_on_a_discard_with_258_pair() -> None:
    # H3 全求人: four claimed melds, the single wait 55m completed by a discard (G10).
    melds = ["123p", "456p", "789m", "234s"]
    result = wuhan("55m", "5m", melds=melds, indicator="6z", by="discard")
    assert fan_sets(result) == {frozenset({"quanqiuren", "hard"})}


def test_quanqiuren_needs_a_discard() -> None:
    # G10: quanqiuren only on discard; self-drawn it is a small hand (still legal: 55m).
    melds = ["123p", "456p", "789m", "234s"]
    result = wuhan("55m", "5m", melds=melds, indicator="6z", by="self_draw")
    assert fan_sets(result) == {frozenset({"hard"})}


def test_quanqiuren_needs_258_pair() -> None:
    # H8: 全求人 is not among the four exceptions, so 33m makes it illegal.
    melds = ["123p", "456p", "789m", "234s"]
    result = wuhan("33m", "3m", melds=melds, indicator="6z", by="discard")
    assert result.legal == ()
    assert result.rejected[0][0].fans == {"quanqiuren", "hard"}


def test_concealed_kong_is_no_claim_for_quanqiuren() -> None:
    # G3: a concealed kong is not an open, so only three claims: no 全求人.
    melds = ["123p", "456p", "789m", ("9999s", "concealed")]
    result = wuhan("55m", "5m", melds=melds, indicator="6z", by="discard")
    assert fan_sets(result) == {frozenset({"hard"})}


def test_hongzhong_in_hand_forbids_winning() -> None:
    # H8 / seed 004 红中: 手上持有红中时不能胡牌, even as a complete pung.
    result = wuhan("22m 345m 678p 234s 555z", "2m")
    assert result.legal == ()
    assert result.blocked is not None
    assert "红中" in reason_text(result.blocked)


def test_facai_in_hand_forbids_winning_as_h8_says() -> None:
    # H8: "holding 红中 or 发财 forbids any win", with no condition: also with facai_gang off (H12
    # variant) -- independent audit read the ruling to the letter.
    assert wuhan("22m 345m 678p 234s 666z", "2m").blocked is not None
    off = {"facai_gang": False}
    assert wuhan("22m 345m 678p 234s 666z", "2m", options=off).blocked is not None
    # With facai_gang off, flipped 北 makes 发 the 癞子 (H12): a 发 in hand still forbids the win.
    assert wuhan("22m 345m 678p 234s 66s 6z", "2m", indicator="4z", options=off).blocked is not None
    # A table playing 发 as an ordinary tile says so with facai_blocks_win: false.
    free = wuhan("22m 345m 678p 234s 666z", "2m", options={**off, "facai_blocks_win": False})
    assert fan_sets(free) == {frozenset({"hard"})}


def test_two_laizi_forbid_a_small_hand() -> None:
    # H8 / seed 004 癞子 5: 当有两个癞子时不能胡小胡.
    result = wuhan("22m 345m 678p 234s 556s", "6s")
    assert result.legal == ()
    assert all("two 癞子" in reason_text(reason) for _, reason in result.rejected)


def test_two_laizi_allowed_in_a_big_hand() -> None:
    # H8 forbids only a 小胡: 清一色 with both 癞子 read as 9m is legal.
    result = wuhan("11m 123m 456m 789m 9m 55s", "9m")
    assert frozenset({"qingyise"}) in fan_sets(result)


def test_situational_big_hands_still_need_258_pair() -> None:
    # H8: 杠上花, 海底捞, 抢杠 are not exceptions; 33m pair fails.
    result = wuhan("33m 345m 678p 234s 666s", "6s", situations=["gangshanghua"])
    assert result.legal == ()
    ok = wuhan("22m 345m 678p 234s 666s", "6s", situations=["gangshanghua", "haidilao"])
    assert fan_sets(ok) == {frozenset({"gangshanghua", "haidilao", "hard"})}


def test_robbed_kong_implies_qiangganghu() -> None:
    # G10: qiangganghu is implied by robbed_kong and counted once.
    result = wuhan("22m 345m 678p 234s 666s", "6s", by="robbed_kong")
    assert fan_sets(result) == {frozenset({"qiangganghu", "hard"})}
    with pytest.raises(ValueError, match="robbed_kong"):
        wuhan("22m 345m 678p 234s 666s", "6s", situations=["qiangganghu"])


def test_situations_must_fit_the_win() -> None:
    # G10: gangshanghua / haidilao only on a self-draw.
    with pytest.raises(ValueError, match="self_draw"):
        wuhan("22m 345m 678p 234s 666s", "6s", by="discard", situations=["haidilao"])
    with pytest.raises(ValueError, match="derived from the tiles"):
        wuhan("22m 345m 678p 234s 666s", "6s", situations=["qingyise"])


def test_no_seven_pairs_in_wuhan() -> None:
    # seed 004: 武汉麻将没有7对子.
    assert wuhan("11m 33m 55p 66p 22s 88s 11z", "1z").legal == ()


def test_wuhan_rejects_impossible_input() -> None:
    # seed 004: 不能吃碰杠红中, 不能吃碰杠癞子.
    with pytest.raises(ValueError, match="cannot meld"):
        wuhan("22m 345m 678p 666s", "6s", melds=["555z"])
    with pytest.raises(ValueError, match="cannot meld"):
        wuhan("22m 345m 678p 666s", "6s", melds=["456s"])
    # G7: the indicator decides the 癞子, it is never guessed.
    with pytest.raises(ValueError, match="indicator"):
        evaluate(WUHAN, TileHand.parse("22m 345m 678p 234s 666s", "6s"))
    # seed 004 癞子 3: a discarded 癞子 cannot be won on.
    with pytest.raises(ValueError, match="self-drawn"):
        wuhan("2m 5s 345m 678p 234s 666s", "5s", by="discard")


def test_distinct_false_lists_every_reading() -> None:
    hand = TileHand.parse("11m 123m 456m 789m 99m 5s", "9m", indicator="4s")
    everything = evaluate(WUHAN, hand, distinct=False)
    assert len(everything) > 1
    assert {s.fans for s in everything} == {frozenset({"qingyise"})}
    assert parse_tile("9m") in {v for s in everything for v in s.reading.wild_values}
