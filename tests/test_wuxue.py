"""Wuxue 武穴麻将 (seed 000 算分 / 计分规则, RULINGS W1–W14 and G): hand-computed cases and properties.

Every expected number is worked out by hand from the rule text and the rulings;
the formula stands beside it.  Unless a test says otherwise: cap 15, 小金鼎 20, 金鼎 30, no 漂.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import FOUR, error_paths, hand_of, nets, paid
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from settle import HandError, settle_hand
from settle.errors import format_path


def wuxue(players: Any = None, **keys: Any) -> dict[str, Any]:
    """A Wuxue hand: A,B,C,D with A dealing unless given."""
    return hand_of("wuxue", players, **keys)


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "wuxue"
NO_CAP = {"cap": 10_000, "small_golden": 10_000, "golden": 10_000}


def whys(data: dict[str, Any]) -> dict[str, str]:
    """Each loser's explanation, keyed by the loser named in it (one debt per loser here)."""
    return {t.payer: t.why for t in settle_hand(data).transfers}


def problems(data: dict[str, Any]) -> dict[str, str]:
    """key path -> message of every problem the hand raises."""
    with pytest.raises(HandError) as info:
        settle_hand(data)
    return {format_path(p.path): p.message for p in info.value.problems}


# The hand of the brief: D 清一色 + 硬胡 = 3 斤 by 自摸; A 开口 1, B 0, C 暗杠 2.
BRIEF_PLAYERS = {"A": {"opens": ["D"]}, "B": {}, "C": {"kongs": {"concealed": 1}}, "D": {"opens": ["A", "B"]}}
BRIEF_WIN = {"winner": "D", "by": "self_draw", "fans": ["qingyise", "hard"]}


# --- W1, W5, W7, W8, W9: the self-draw of the brief ---------------------------------------------------


def test_w1_w7_w8_self_draw_two_capped_is_small_golden() -> None:
    # A 2^(1+3) = 16 -> 15, B 2^(0+3) = 8, C 2^(2+3) = 32 -> 15; two capped -> 小金鼎 20, 8, 20.
    data = wuxue(BRIEF_PLAYERS, win=BRIEF_WIN)
    assert nets(data) == {"A": -20, "B": -8, "C": -20, "D": 48}  # D: 20 + 8 + 20
    why = whys(data)
    assert "2^(1+3) = 16, capped at 15 (W7 封顶)" in why["A"]
    assert "小金鼎 20" in why["A"] and "W8" in why["A"]
    assert "2^(0+3) = 8" in why["B"]
    assert "2^(2+3) = 32, capped at 15" in why["C"]


def test_w9_piao_added_after_the_golden_cap() -> None:
    # 20 + 1, 8 + 1, 20 + 1 = 21, 9, 21 -> D +51
    data = wuxue(BRIEF_PLAYERS, options={"piao": 1}, win=BRIEF_WIN)
    assert nets(data) == {"A": -21, "B": -9, "C": -21, "D": 51}
    assert "+ 漂 1 = 21 (W9)" in whys(data)["A"]


def test_w9_piao_both_sides_doubles_it() -> None:
    # 漂 2, both sides -> 4 per paying loser: 20 + 4, 8 + 4, 20 + 4 = 24, 12, 24 -> D +60
    data = wuxue(BRIEF_PLAYERS, options={"piao": 2, "piao_both_sides": True}, win=BRIEF_WIN)
    assert nets(data) == {"A": -24, "B": -12, "C": -24, "D": 60}


def test_w7_one_capped_loser_is_a_plain_cap() -> None:
    # C now has no kong: A 2^(1+3) = 16 -> 15, B 2^3 = 8, C 2^3 = 8; one capped -> no 金鼎.
    players = {**BRIEF_PLAYERS, "C": {}}
    assert nets(wuxue(players, win=BRIEF_WIN)) == {"A": -15, "B": -8, "C": -8, "D": 31}


def test_w7_g13_capped_means_reached() -> None:
    # cap 16: A 2^(1+3) = 16 reaches it (>=), C 2^(2+3) = 32 -> two capped -> 小金鼎 20, 8, 20.
    data = wuxue(BRIEF_PLAYERS, options={"cap": 16}, win=BRIEF_WIN)
    assert nets(data) == {"A": -20, "B": -8, "C": -20, "D": 48}


def test_w8_all_three_capped_is_golden() -> None:
    # D 清一色 + 碰碰胡 = 4; A 0: 2^4 = 16, B 开口: 2^5 = 32, C 宝杠 2: 2^6 = 64; all >= 15 -> 金鼎 30 each.
    players = {"A": {}, "B": {"opens": 1}, "C": {"kongs": {"bao": 1}}, "D": {"opens": 2}}
    data = wuxue(players, win={"winner": "D", "by": "self_draw", "fans": ["qingyise", "pengpenghu"]})
    assert nets(data) == {"A": -30, "B": -30, "C": -30, "D": 90}
    assert "金鼎 30: all three losers capped (W8)" in settle_hand(data).notes
    # Golden amounts are options: 金鼎 40 -> 3 × 40 = 120
    assert nets({**data, "options": {"golden": 40}})["D"] == 120


# --- W2, W3, W4: counting 斤 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "owed"), [
    ("qidui", 4),                 # 2^(0+2)
    ("haohua_qidui", 8),          # 2^(0+3)
    ("chaohaohua_qidui", 16),     # 2^(0+4)
    ("chaochaohaohua_qidui", 32), # 2^(0+5)
])
def test_w2_seven_pairs_levels_replace_qidui(level: str, owed: int) -> None:
    data = wuxue(["A", "B"], options=NO_CAP, win={"winner": "B", "by": "self_draw", "fans": [level]})
    assert nets(data) == {"A": -owed, "B": owed}


def test_w2_big_hands_and_extras_add() -> None:
    # B: 清一色 2 + 豪华七对 3 + 四宝牌 1 + 杠开 1 + 硬胡 1 = 8; A 0: 2^(0+8) = 256
    fans = ["qingyise", "haohua_qidui", "sibao", "gangkai", "hard"]
    data = wuxue(["A", "B"], options=NO_CAP, win={"winner": "B", "by": "self_draw", "fans": fans})
    assert nets(data) == {"A": -256, "B": 256}
    assert settle_hand(data).score_detail["B"] == "8 = 清一色 2 + 豪华七对 3 + 四宝牌 1 + 杠开 1 + 硬胡 1"


def test_w2_pihu_extras_count_without_a_big_hand() -> None:
    # 屁胡 with 硬胡: B 0 + 1 = 1; A 开口 1: 2^(1+1) = 4
    data = wuxue({"A": {"opens": 1}, "B": {"opens": 1}}, win={"winner": "B", "by": "self_draw", "fans": ["hard"]})
    assert nets(data) == {"A": -4, "B": 4}


def test_w3_w4_kong_jin_and_one_kaikou() -> None:
    # D 碰碰胡 2 + 明杠 1 + 暗杠 2 = 5 (two opens, but the winner gets no 开口, W4).
    # A: three opens -> 开口 1 once:               2^(1+5) = 64
    # B: 宝杠 2 + 癞子皮杠 2×1 = 4, no open (W4):  2^(4+5) = 512
    # C: 开口 1 + 补杠 1 = 2:                      2^(2+5) = 128     -> D +704
    players = {"A": {"opens": 3}, "B": {"kongs": {"bao": 1, "pizi": 2}},
               "C": {"opens": 1, "kongs": {"added": 1}},
               "D": {"opens": 2, "kongs": {"exposed": 1, "concealed": 1}}}
    data = wuxue(players, options=NO_CAP, win={"winner": "D", "by": "self_draw", "fans": ["pengpenghu"]})
    result = settle_hand(data)
    assert result.net == {"A": -64, "B": -512, "C": -128, "D": 704}
    assert result.scores == {"A": 1, "B": 4, "C": 2, "D": 5}
    assert result.unit == "斤"


# --- W6: 点炮 and 陪炮 --------------------------------------------------------------------------------------

DISCARD_PLAYERS = {"A": {"opens": 1}, "B": {}, "C": {"opens": 1}, "D": {"opens": 2}}
DISCARD_WIN = {"winner": "D", "by": "discard", "from": "A", "fans": ["pengpenghu", "hard"]}


def test_w6_zero_jin_peipao_pays_nothing_not_even_piao() -> None:
    # D 碰碰胡 2 + 硬胡 1 = 3.  A discarder 开口 1: 2^(1+3) = 16 -> 15, + 漂 1 = 16.
    # B 陪炮 0 斤: nothing.  C 陪炮 开口 1: 2^(1+3-1) = 8, + 漂 1 = 9.  -> D +25
    data = wuxue(DISCARD_PLAYERS, options={"piao": 1}, win=DISCARD_WIN)
    result = settle_hand(data)
    assert result.net == {"A": -16, "B": 0, "C": -9, "D": 25}
    assert "2^(1+3-1) = 8" in whys(data)["C"]
    assert any("B owes nothing of his own" in note and "W6" in note for note in result.notes)


def test_w6_genpi_counts_a_zero_jin_peipao_as_one() -> None:
    # 跟皮: B 0 -> 1 斤: 2^(1+3-1) = 8, + 漂 1 = 9.  A 16, C 9 as before -> D +34
    data = wuxue(DISCARD_PLAYERS, options={"piao": 1, "genpi": True}, win=DISCARD_WIN)
    assert nets(data) == {"A": -16, "B": -9, "C": -9, "D": 34}
    assert "跟皮" in whys(data)["B"]


def test_w6_w8_a_capped_peipao_counts_for_golden() -> None:
    # D 清一色 + 碰碰胡 = 4 on A's discard.  A 开口 1: 2^(1+4) = 32 -> 15; B 陪炮 开口 1: 2^(1+4-1) = 16 -> 15;
    # C 陪炮 0: nothing (does not count).  Two capped -> 小金鼎 20 each -> D +40.
    players = {"A": {"opens": 1}, "B": {"opens": 1}, "C": {}, "D": {"opens": 2}}
    data = wuxue(players, win={"winner": "D", "by": "discard", "from": "A", "fans": ["qingyise", "pengpenghu"]})
    assert nets(data) == {"A": -20, "B": -20, "C": 0, "D": 40}
    # With 跟皮, C: 2^(1+4-1) = 16 -> 15, three capped -> 金鼎 30 each -> D +90.
    assert nets({**data, "options": {"genpi": True}}) == {"A": -30, "B": -30, "C": -30, "D": 90}


# --- W8, W14: three and two players ------------------------------------------------------------------------


THREE_WIN = {"winner": "C", "by": "self_draw", "fans": ["qingyise", "pengpenghu"]}


@pytest.mark.parametrize(("option", "each"), [("small", 20), ("full", 30)])
def test_w8_three_players_both_capped(option: str, each: int) -> None:
    # C 4 斤; A 0: 2^4 = 16 -> 15, B 0: 16 -> 15; both capped -> 20 (small) or 30 (full) each.
    data = wuxue(["A", "B", "C"], options={"three_player_golden": option}, win=THREE_WIN)
    assert nets(data) == {"A": -each, "B": -each, "C": 2 * each}


def test_w8_three_players_default_is_small() -> None:
    assert nets(wuxue(["A", "B", "C"], win=THREE_WIN))["C"] == 40  # 20 + 20


def test_w8_three_players_one_capped_is_a_plain_cap() -> None:
    # C 碰碰胡 2.  A 暗杠 2: 2^(2+2) = 16 -> 15; B 0: 2^(0+2) = 4 -> C +19
    players = {"A": {"kongs": {"concealed": 1}}, "B": {}, "C": {}}
    data = wuxue(players, options={"three_player_golden": "full"},
                 win={"winner": "C", "by": "self_draw", "fans": ["pengpenghu"]})
    assert nets(data) == {"A": -15, "B": -4, "C": 19}


def test_w8_three_players_discard_with_a_silent_peipao() -> None:
    # C 4 斤 on A's discard: A 0: 2^(0+4) = 16 -> 15; B 陪炮 0: nothing -> only one capped, no 金鼎.
    data = wuxue(["A", "B", "C"], options={"three_player_golden": "full"},
                 win={"winner": "C", "by": "discard", "from": "A", "fans": ["qingyise", "pengpenghu"]})
    assert nets(data) == {"A": -15, "B": 0, "C": 15}


def test_w8_two_players_plain_cap_only() -> None:
    # B 4 斤; A 开口 1: 2^(1+4) = 32 -> 15, no 金鼎 with two players.
    data = wuxue({"A": {"opens": 1}, "B": {}}, win={"winner": "B", "by": "self_draw",
                                                    "fans": ["qingyise", "pengpenghu"]})
    assert nets(data) == {"A": -15, "B": 15}


def test_w8_two_players_discard_only_the_discarder() -> None:
    # A discards: 2^(0+2) = 4 (B 碰碰胡 2)
    data = wuxue(["A", "B"], win={"winner": "B", "by": "discard", "from": "A", "fans": ["pengpenghu"]})
    assert nets(data) == {"A": -4, "B": 4}


# --- W10: 抢杠胡 ---------------------------------------------------------------------------------------------


ROBBED_PLAYERS = {"A": {"opens": 1}, "B": {"opens": 1}, "C": {"kongs": {"concealed": 1}},
                  "D": {"opens": ["A", "B", "C"]}}
ROBBED_WIN = {"winner": "D", "by": "robbed_kong", "from": "B", "fans": ["qingyise"]}


def test_w10_robbed_player_alone_pays_one_cap_plus_piao() -> None:
    # B pays cap 15 + 漂 5 = 20; nobody else pays; D's 清一色 with 3 opens is NOT 包胡 (W10, G11).
    data = wuxue(ROBBED_PLAYERS, options={"piao": 5}, win=ROBBED_WIN)
    result = settle_hand(data)
    assert result.net == {"A": 0, "B": -20, "C": 0, "D": 20}
    assert result.liable is None
    assert "W10" in result.transfers[0].why


def test_g10_qiangganghu_named_on_a_robbed_kong_is_implied_and_counted_once() -> None:
    # G10 (region-free): naming 抢杠胡 adds nothing to by: robbed_kong; W10 still has B pay one cap
    # 15 + 漂 5 = 20, and D's 斤 stay 清一色 2 (no 斤 for the implied item).
    named = wuxue(ROBBED_PLAYERS, options={"piao": 5}, win={**ROBBED_WIN, "fans": ["qingyise", "抢杠胡"]})
    result = settle_hand(named)
    assert result.net == {"A": 0, "B": -20, "C": 0, "D": 20}
    assert result.scores["D"] == 2
    assert any("G10" in note for note in result.notes)


def test_g10_qiangganghu_without_a_robbed_kong_is_an_error() -> None:
    data = wuxue(ROBBED_PLAYERS, win={"winner": "D", "by": "self_draw", "fans": ["qiangganghu"]})
    assert error_paths(data) == ["win.fans[0]"]


def test_w10_robbed_pays_the_cap_option_never_golden() -> None:
    # cap 25: B pays 25 exactly, whatever the 斤 (2^(1+2) would be 8).
    data = wuxue(ROBBED_PLAYERS, options={"cap": 25, "small_golden": 25, "golden": 25}, win=ROBBED_WIN)
    assert nets(data) == {"A": 0, "B": -25, "C": 0, "D": 25}


def test_w10_robbed_kong_without_an_added_kong_listed_is_fine() -> None:
    # G6: the robbed kong is never listed; B has no kongs at all here.  B pays the cap 15.
    data = wuxue({"A": {}, "B": {}, "C": {}, "D": {"opens": 1}},
                 win={"winner": "D", "by": "robbed_kong", "from": "B"})
    assert nets(data) == {"A": 0, "B": -15, "C": 0, "D": 15}


def test_w10_liable_other_than_the_robbed_is_an_error() -> None:
    data = wuxue(ROBBED_PLAYERS, win={**ROBBED_WIN, "liable": "C"})
    assert "win.liable" in problems(data)
    # Naming the robbed player (or none) changes nothing: B pays 15.
    assert nets(wuxue(ROBBED_PLAYERS, win={**ROBBED_WIN, "liable": "B"}))["B"] == -15


# --- W11: 包胡 ------------------------------------------------------------------------------------------------


def test_w11b_yise_baopai_on_a_self_draw_liable_pays_the_sum() -> None:
    # The brief's hand with D's opens fed by A, B, C: C fed the third open of 清一色.
    # Shares after caps/金鼎/漂 1: A 21, B 9, C 21 -> C pays 51.
    players = {**BRIEF_PLAYERS, "D": {"opens": ["A", "B", "C"]}}
    result = settle_hand(wuxue(players, options={"piao": 1}, win=BRIEF_WIN))
    assert result.net == {"A": 0, "B": 0, "C": -51, "D": 51}
    assert result.liable == "C"
    assert any("W11 b" in note for note in result.notes)


@pytest.mark.parametrize("flush", ["jiangyise", "fengyise"])
def test_w11b_on_a_discard_and_for_every_flush(flush: str) -> None:
    # D flush 2 on A's discard; opens fed by B, A, C -> C liable.
    # A discarder 开口 1: 2^(1+2) = 8; B 陪炮 0: nothing; C 陪炮 暗杠 2: 2^(2+2-1) = 8 -> C pays 16.
    players = {"A": {"opens": 1}, "B": {}, "C": {"kongs": {"concealed": 1}}, "D": {"opens": ["B", "A", "C"]}}
    data = wuxue(players, win={"winner": "D", "by": "discard", "from": "A", "fans": [flush]})
    assert nets(data) == {"A": 0, "B": 0, "C": -16, "D": 16}


def test_w11b_bare_count_needs_feeders_or_liable() -> None:
    players = {**BRIEF_PLAYERS, "D": {"opens": 3}}
    assert "players.D.opens" in problems(wuxue(players, win=BRIEF_WIN))
    # win.liable states it instead: B pays 20 + 8 + 20 = 48 (no 漂).
    assert nets(wuxue(players, win={**BRIEF_WIN, "liable": "B"})) == {"A": 0, "B": -48, "C": 0, "D": 48}
    # none: nobody liable, each pays his own share: 20, 8, 20.
    assert nets(wuxue(players, win={**BRIEF_WIN, "liable": "none"})) == {"A": -20, "B": -8, "C": -20, "D": 48}


def test_w11a_quanqiuren_discarder_pays_for_everyone() -> None:
    # D 全求人 2 + 明杠 1 = 3, won on B's discard.
    # A 陪炮 开口 1: 2^(1+3-1) = 8; B discarder 0: 2^(0+3) = 8; C 陪炮 开口 1: 8 -> B pays 24.
    players = {"A": {"opens": 1}, "B": {}, "C": {"opens": 1},
               "D": {"opens": ["A", "B", "C", "A"], "kongs": {"exposed": 1}}}
    result = settle_hand(wuxue(players, win={"winner": "D", "by": "discard", "from": "B", "fans": ["quanqiuren"]}))
    assert result.net == {"A": 0, "B": -24, "C": 0, "D": 24}
    assert result.liable == "B"


def test_g11_quanqiuren_before_the_flush_rule() -> None:
    # D 全求人 + 清一色 = 4 on B's discard; C fed the third open, but W11 a makes B liable.
    # A 陪炮 开口 1: 2^(1+4-1) = 16 -> 15; B 0: 2^(0+4) = 16 -> 15; C 0: nothing.
    # Two capped -> 20 + 20; B pays 40.
    players = {"A": {"opens": 1}, "B": {}, "C": {}, "D": {"opens": ["A", "A", "C", "A"]}}
    data = wuxue(players, win={"winner": "D", "by": "discard", "from": "B", "fans": ["quanqiuren", "qingyise"]})
    assert nets(data) == {"A": 0, "B": -40, "C": 0, "D": 40}
    # A bare count is fine here: W11 a decides, so the third feeder is not needed.
    assert nets({**data, "players": {**players, "D": {"opens": 4}}})["B"] == -40


def test_w11_two_opens_is_no_baopai() -> None:
    # The brief's hand: D's 清一色 with two opens -> everyone pays his own share.
    assert settle_hand(wuxue(BRIEF_PLAYERS, win=BRIEF_WIN)).liable is None


# --- W12 and G9: legality -------------------------------------------------------------------------------------


def test_w12_closed_pihu_needs_menqing() -> None:
    data = wuxue(win={"winner": "D", "by": "self_draw"})
    found = problems(data)
    assert "players.D.opens" in found and "W12" in found["players.D.opens"]


def test_w12_menqing_closed_pihu_must_be_self_drawn() -> None:
    data = wuxue(options={"menqing": True}, win={"winner": "D", "by": "discard", "from": "A"})
    assert "win.by" in problems(data)
    robbed = wuxue(options={"menqing": True}, win={"winner": "D", "by": "robbed_kong", "from": "A"})
    assert "win.by" in problems(robbed)


def test_w12_menqing_closed_pihu_self_drawn_is_fine() -> None:
    # D 屁胡 0 斤; A, B, C 0: 2^(0+0) = 1 each -> D +3
    data = wuxue(options={"menqing": True}, win={"winner": "D", "by": "self_draw"})
    assert nets(data) == {"A": -1, "B": -1, "C": -1, "D": 3}


def test_w12_closed_big_hand_needs_no_open() -> None:
    # D 七对 2 closed, on A's discard: A 0: 2^(0+2) = 4; B, C 陪炮 0: nothing.
    data = wuxue(win={"winner": "D", "by": "discard", "from": "A", "fans": ["qidui"]})
    assert nets(data) == {"A": -4, "B": 0, "C": 0, "D": 4}


def test_g5_g9_stated_jin_replaces_the_count_and_skips_w12() -> None:
    # Closed 屁胡 on a discard, but D's 斤 are stated (jin alias): D 2.
    # A discarder 0: 2^(0+2) = 4; B, C 陪炮 0: nothing -> D +4.
    data = wuxue(win={"winner": "D", "by": "discard", "from": "A"}, jin={"D": 2})
    assert nets(data) == {"A": -4, "B": 0, "C": 0, "D": 4}


def test_g5_stated_jin_includes_the_big_hands() -> None:
    # Counted D would be 清一色 2 + 硬胡 1 = 3; stated D 1 and A 2 replace it.
    # A stated 2: 2^(2+1) = 8; B counted 开口 1: 2^(1+1) = 4; C counted 0: 2^(0+1) = 2 -> D +14
    players = {"A": {}, "B": {"opens": 1}, "C": {}, "D": {"opens": 1}}
    data = wuxue(players, fans={"D": 1, "A": 2},
                 win={"winner": "D", "by": "self_draw", "fans": ["qingyise", "hard"]})
    result = settle_hand(data)
    assert result.net == {"A": -8, "B": -4, "C": -2, "D": 14}
    assert result.score_detail["D"] == "1 (stated)"


# --- W13, W14: dealer and seats ------------------------------------------------------------------------------


def test_w13_the_winner_deals_next_and_the_dealer_is_optional_on_a_win() -> None:
    data = wuxue(BRIEF_PLAYERS, win=BRIEF_WIN)
    data.pop("dealer")
    assert settle_hand(data).next_dealer == "D"


def test_w13_w9_draw_keeps_the_dealer_and_pays_no_piao() -> None:
    result = settle_hand(wuxue(dealer="C", draw=True, options={"piao": 10}))
    assert result.next_dealer == "C"
    assert result.net == dict.fromkeys(FOUR, 0)
    assert result.transfers == ()


def test_w13_draw_needs_the_dealer() -> None:
    data = wuxue(draw=True)
    data.pop("dealer")
    assert "dealer" in problems(data)


# --- bad input ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "path"), [
    ({"options": {"piao": 101}}, "options.piao"),                                   # W9: 0–100
    ({"options": {"piao": -1}}, "options.piao"),
    ({"players": ["A", "B", "C", "D", "E"]}, "players"),                           # W14
    ({"players": ["A"]}, "players"),
    ({"win": {"winner": "D", "by": "robbed_kong"}}, "win.from"),                    # G7
    ({"options": {"cap": 25}}, "options"),                                          # G13: cap > small_golden
    ({"options": {"small_golden": 40}}, "options"),                                 # G13: small_golden > golden
    ({"options": {"bogus": 1}}, "options.bogus"),
    ({"options": {"three_player_golden": "half"}}, "options.three_player_golden"),
    ({"win": {"winner": "D", "by": "discard", "from": "A", "fans": ["gangkai"]}}, "win.fans[0]"),   # G10
    ({"win": {"winner": "D", "by": "self_draw", "fans": ["quanqiuren"]}}, "win.fans[0]"),            # G10
    ({"win": {"winner": "D", "by": "self_draw", "fans": ["qidui", "haohua_qidui"]}}, "win.fans[1]"),  # G10
    ({"win": [{"winner": "D", "by": "discard", "from": "A"},
              {"winner": "C", "by": "discard", "from": "A"}]}, "win"),             # 无一炮多响
    ({"abandon": {"by": "A"}, "win": None}, "abandon"),                             # no 逃跑 in Wuxue
    ({"players": {"A": {"fish": 1}, "B": {}, "C": {}, "D": {"opens": 1}}}, "players.A.fish"),
    ({"players": {"A": {"kongs": {"pizi": 8}}, "B": {}, "C": {}, "D": {"opens": 1}}}, "players.A.kongs.pizi"),
    ({"players": {"A": {"kongs": {"bao": 5}}, "B": {}, "C": {}, "D": {"opens": 1}}}, "players.A.kongs.bao"),
    ({"jin": {"A": 65}}, "jin.A"),
])
def test_bad_input_names_the_key(change: dict[str, Any], path: str) -> None:
    data = wuxue({"A": {}, "B": {}, "C": {}, "D": {"opens": 1}}, win={"winner": "D", "by": "self_draw"})
    data.update(change)
    if data.get("win") is None:
        data.pop("win")
    assert path in problems(data)


def test_a_wuhan_kong_kind_says_it_belongs_to_wuhan() -> None:
    data = wuxue({"A": {"kongs": {"hongzhong": 1}}, "B": {}, "C": {}, "D": {"opens": 1}},
                 win={"winner": "D", "by": "self_draw"})
    found = problems(data)
    assert "players.A.kongs.hongzhong" in found
    assert "wuhan" in found["players.A.kongs.hongzhong"]


def test_aliases_in_chinese_and_traditional() -> None:
    # 武穴 / 自摸 / 豪華七對 / 寶槓 / 癩子皮槓 resolve to their keys (G14): same result as the English ones.
    english = wuxue({"A": {"kongs": {"bao": 1}}, "B": {"kongs": {"pizi": 1}}, "C": {}, "D": {}},
                    win={"winner": "D", "by": "self_draw", "fans": ["haohua_qidui", "gangkai"]})
    chinese = {**english, "region": "武穴",
               "players": {"A": {"kongs": {"寶槓": 1}}, "B": {"kongs": {"癩子皮槓": 1}}, "C": {}, "D": {}},
               "win": {"winner": "D", "by": "自摸", "fans": ["豪華七對", "槓開"]}}
    assert nets(chinese) == nets(english)
    # D 3 + 1 = 4: A 2^(2+4) = 64 -> 15, B 2^(1+4) = 32 -> 15, C 2^(0+4) = 16 -> 15 -> 金鼎 30 each
    assert nets(english)["D"] == 90


# --- fixtures: every file in fixtures/wuxue, nets worked out by hand ----------------------------------------


FIXTURE_NETS = {
    # 北 3 斤: 东 2^(1+3) = 16 -> 15, 南 2^3 = 8, 西 2^(2+3) = 32 -> 15; 小金鼎 20, 8, 20; 漂 1 -> 21, 9, 21
    "self_draw_small_golden.yaml": {"东": -21, "南": -9, "西": -21, "北": 51},
    # D 3 斤: A 2^(1+3) = 16 -> 15 + 1; B 0 斤 陪炮 nothing; C 2^(1+3-1) = 8 + 1
    "discard_peipao_zero.yaml": {"A": -16, "B": 0, "C": -9, "D": 25},
    # 跟皮: B 2^(1+3-1) = 8 + 1 = 9
    "discard_peipao_genpi.yaml": {"A": -16, "B": -9, "C": -9, "D": 34},
    # 北 4 斤: 16, 32, 64 all -> 15 -> 金鼎 30 each
    "three_golden.yaml": {"东": -30, "南": -30, "西": -30, "北": 90},
    # 抢杠胡: B pays cap 15 + 漂 5
    "robbed_kong_piao.yaml": {"A": 0, "B": -20, "C": 20, "D": 0},
    # as self_draw_small_golden, 西 fed the third open: 21 + 9 + 21 = 51
    "yise_baopai_self_draw.yaml": {"东": 0, "南": 0, "西": -51, "北": 51},
    # C 5 斤: A 2^5 = 32 -> 15, B 2^6 = 64 -> 15; both capped, full -> 30 each
    "three_players_full_golden.yaml": {"A": -30, "B": -30, "C": 60},
    # 丁 3 斤: 甲 2^(1+3-1) = 8, 乙 2^(0+3) = 8, 丙 8; 乙 pays 24
    "quanqiuren_baohu_discard.yaml": {"甲": 0, "乙": -24, "丙": 0, "丁": 24},
    # B 4 斤: A 2^(1+4) = 32 -> 15, no 金鼎 with two players
    "two_players_plain_cap.yaml": {"A": -15, "B": 15},
}


def test_every_fixture_is_covered() -> None:
    assert sorted(p.name for p in FIXTURES.glob("*.yaml")) == sorted(FIXTURE_NETS)


@pytest.mark.parametrize("name", sorted(FIXTURE_NETS))
def test_fixture_nets(name: str) -> None:
    data = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
    assert settle_hand(data).net == FIXTURE_NETS[name]


# --- properties (G12) ----------------------------------------------------------------------------------------

NAMES = ["东", "南", "西", "北"]
BIG = ["qingyise", "jiangyise", "fengyise", "pengpenghu"]
SEVEN_PAIRS = ["qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui"]


@st.composite
def player_facts(draw: st.DrawFn, names: list[str], me: str) -> dict[str, Any]:
    """Facts that keep G4 (opens >= exposed + added, opens + concealed <= 4, four-tile kongs <= 4) and
    the table's tiles: at most one 宝杠 and one 癞子皮杠 each, so at most 4 of each at the table."""
    others = [n for n in names if n != me]
    opens = draw(st.integers(0, 4))
    concealed = draw(st.integers(0, 4 - opens))
    exposed = draw(st.integers(0, min(opens, 4 - concealed)))
    added = draw(st.integers(0, min(opens - exposed, 4 - concealed - exposed)))
    kongs = {"concealed": concealed, "exposed": exposed, "added": added,
             "bao": draw(st.integers(0, 1)), "pizi": draw(st.integers(0, 1))}
    return {"opens": draw(st.lists(st.sampled_from(others), min_size=opens, max_size=opens)),
            "kongs": {k: n for k, n in kongs.items() if n}}


@st.composite
def hands(draw: st.DrawFn) -> dict[str, Any]:
    """A valid Wuxue hand with a win (W12 kept by giving a closed 屁胡 a big hand)."""
    names = NAMES[:draw(st.integers(2, 4))]
    winner = draw(st.sampled_from(names))
    by = draw(st.sampled_from(["self_draw", "discard", "robbed_kong"]))
    players = {n: draw(player_facts(names, n)) for n in names}
    fans = draw(st.lists(st.sampled_from([*BIG, "hard", "sibao"]), unique=True, max_size=3))
    fans += draw(st.lists(st.sampled_from(SEVEN_PAIRS), max_size=1))
    fans += ["gangkai"] * (by == "self_draw" and draw(st.booleans()))
    fans += ["quanqiuren"] * (by == "discard" and draw(st.booleans()))
    if not any(f in BIG or f in SEVEN_PAIRS or f == "quanqiuren" for f in fans) and not players[winner]["opens"]:
        fans.append("pengpenghu")
    cap = draw(st.integers(1, 40))
    small = draw(st.integers(cap, cap + 20))
    options = {"cap": cap, "small_golden": small, "golden": draw(st.integers(small, small + 20)),
               "piao": draw(st.integers(0, 10)), "piao_both_sides": draw(st.booleans()),
               "genpi": draw(st.booleans()), "three_player_golden": draw(st.sampled_from(["small", "full"]))}
    win: dict[str, Any] = {"winner": winner, "by": by, "fans": fans}
    if by != "self_draw":
        win["from"] = draw(st.sampled_from([n for n in names if n != winner]))
    data = {"region": "wuxue", "players": players, "dealer": draw(st.sampled_from(names)),
            "options": options, "win": win}
    stated = draw(st.dictionaries(st.sampled_from(names), st.integers(0, 6), max_size=2))
    if stated:
        data["jin"] = stated
    return data


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(hands())
def test_property_nets_sum_to_zero(data: dict[str, Any]) -> None:
    assert sum(settle_hand(data).net.values()) == 0


@PROPERTY
@given(hands())
def test_property_golden_only_with_two_capped_paying_losers(data: dict[str, Any]) -> None:
    transfers = settle_hand(data).transfers
    if any("金鼎" in t.why for t in transfers):
        # "capped at 15", or "= 15, the cap" when the amount is exactly the cap (reached, W7/G13).
        assert sum("capped at" in t.why or ", the cap (" in t.why for t in transfers) >= 2


@PROPERTY
@given(hands())
def test_property_no_loser_pays_more_than_the_top_cap_unless_liable(data: dict[str, Any]) -> None:
    result = settle_hand(data)
    opts = data["options"]
    piao = opts["piao"] * (2 if opts["piao_both_sides"] else 1)
    top = max(opts["cap"], opts["small_golden"], opts["golden"]) + piao
    for payer, amount in paid(data).items():
        if payer != result.liable:
            assert amount <= top


@PROPERTY
@given(hands(), st.data())
def test_property_more_for_the_winner_never_lowers_his_net(data: dict[str, Any], extra: st.DataObject) -> None:
    winner = data["win"]["winner"]
    before = settle_hand(data)
    bigger = _with_one_more(data, extra.draw(st.sampled_from(["fan", "kong"])), extra)
    after = settle_hand(bigger)
    assume(before.liable is None and after.liable is None)
    assert after.net[winner] >= before.net[winner]


def _with_one_more(data: dict[str, Any], what: str, extra: st.DataObject) -> dict[str, Any]:
    """``data`` with one more fan or kong for the winner, kept valid (G4, G10, kong limits)."""
    win = data["win"]
    me = data["players"][win["winner"]]
    if what == "fan":
        fits = [f for f in [*BIG, "hard", "sibao"] if f not in win["fans"]]
        fits += ["gangkai"] * (win["by"] == "self_draw" and "gangkai" not in win["fans"])
        fits += [] if set(SEVEN_PAIRS) & set(win["fans"]) else SEVEN_PAIRS
        return {**data, "win": {**win, "fans": [*win["fans"], extra.draw(st.sampled_from(fits))]}}
    # 宝杠: 4 宝 tiles at the table; 癞子皮杠: 7, and the generator gives at most 4.
    kinds = ["pizi"] + ["bao"] * (sum(p["kongs"].get("bao", 0) for p in data["players"].values()) < 4)
    if len(me["opens"]) + me["kongs"].get("concealed", 0) < 4 and sum(
            me["kongs"].get(k, 0) for k in ("exposed", "added", "concealed")) < 4:
        kinds.append("concealed")
    kind = extra.draw(st.sampled_from(kinds))
    kongs = {**me["kongs"], kind: me["kongs"].get(kind, 0) + 1}
    return {**data, "players": {**data["players"], win["winner"]: {**me, "kongs": kongs}}}


@PROPERTY
@given(hands(), st.integers(0, 3))
def test_property_renaming_and_rotating_change_no_amount(data: dict[str, Any], turn: int) -> None:
    names = list(data["players"])
    rename = {n: f"P{i}" for i, n in enumerate(names)}
    seats = names[turn % len(names):] + names[:turn % len(names)]
    moved = _renamed(data, rename, seats)
    before, after = settle_hand(data), settle_hand(moved)
    assert {rename[n]: v for n, v in before.net.items()} == after.net
    assert sorted(t.amount for t in before.transfers) == sorted(t.amount for t in after.transfers)


def _renamed(data: dict[str, Any], rename: dict[str, str], seats: list[str]) -> dict[str, Any]:
    """The same hand with every name renamed and the seats rotated (dealer and roles kept)."""
    players = {rename[n]: {**data["players"][n], "opens": [rename[f] for f in data["players"][n]["opens"]]}
               for n in seats}
    win = {**data["win"], "winner": rename[data["win"]["winner"]]}
    if "from" in win:
        win["from"] = rename[win["from"]]
    out = {**data, "players": players, "dealer": rename[data["dealer"]], "win": win}
    if "jin" in data:
        out["jin"] = {rename[n]: v for n, v in data["jin"].items()}
    return out
