"""Wuhan 红中赖子杠 (seed 004, RULINGS H1–H12 and G): hand-computed cases.

Every expected number is worked out by hand from the rule text and the rulings;
the formula stands beside it.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import FOUR, error_paths, hand_of, nets, paid

from settle import settle_hand


def wuhan(players: Any = None, **keys: Any) -> dict[str, Any]:
    """A Wuhan hand: A,B,C,D with A dealing unless given."""
    return hand_of("wuhan", players, **keys)


# --- the worked example (004 结算规则) -------------------------------------------------------------


def test_worked_example_from_the_rule_text() -> None:
    # C deals, A 放冲 to D; fans A 3, B 2, C 3, D 4 (stated, G5).
    # A 2^(3+4) = 128, B 2^(2+4) = 64, C 2^(3+4) = 128, D 128+64+128 = 320
    data = wuhan(dealer="C", win={"winner": "D", "by": "discard", "from": "A"},
                 fans={"A": 3, "B": 2, "C": 3, "D": 4})
    assert nets(data) == {"A": -128, "B": -64, "C": -128, "D": 320}
    assert [t.why for t in settle_hand(data).transfers] == ["2^(3+4)", "2^(2+4)", "2^(3+4)"]


# --- H1 / H2: counting fans for a small hand --------------------------------------------------------


def test_h1_h2_small_hand_counted_from_facts() -> None:
    # A dealer: 开口 1 + 庄家 1 = 2; B 放冲: 暗杠 2 + 放冲 1 = 3; C: 明杠 (exposed, also an open)
    # 开口 1 + 明杠 1 = 2; D winner by discard: 开口 1 + 红中杠 2×1 = 3.
    # A 2^(2+3) = 32, B 2^(3+3) = 64, C 2^(2+3) = 32 -> D +128
    players = {"A": {"opens": 1}, "B": {"kongs": {"concealed": 1}},
               "C": {"opens": 1, "kongs": {"exposed": 1}}, "D": {"opens": 2, "kongs": {"hongzhong": 2}}}
    data = wuhan(players, win={"winner": "D", "by": "discard", "from": "B"})
    assert nets(data) == {"A": -32, "B": -64, "C": -32, "D": 128}


def test_h1_opens_count_once_without_koukou_and_each_with_it() -> None:
    # Winner D self-draws with 3 opens.  Plain: D 开口 1 + 自摸 1 = 2; with 口口翻 3 + 1 = 4.
    # Losers: A dealer 庄 1; B 0; C 0.
    # plain:  A 2^(1+2) = 8, B 2^2 = 4, C 4       -> D +16
    # koukou: A 2^(1+4) = 32, B 2^4 = 16, C 16     -> D +64
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 3}}
    plain = wuhan(players, win={"winner": "D", "by": "self_draw"})
    assert nets(plain)["D"] == 16
    assert nets({**plain, "options": {"koukou": True}})["D"] == 64


def test_h1_added_kong_adds_a_fan_but_no_open() -> None:
    # D: opens 1 (the 碰 under the added kong, G4) -> 开口 1 + 补杠 1 + 自摸 1 = 3.
    # A (dealer) 1: 2^(1+3) = 16; B 0: 8; C 0: 8 -> D +32
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 1, "kongs": {"added": 1}}}
    assert nets(wuhan(players, win={"winner": "D", "by": "self_draw"}))["D"] == 32


def test_h1_laizi_kong_fans_option() -> None:
    # D: 开口 1 + 癞子杠 1 + 自摸 1 = 3 by default; 1 + 2 + 1 = 4 with laizi_kong_fans: 2.
    # Losers A 庄 1, B 0, C 0:  default 16 + 8 + 8 = 32;  option 32 + 16 + 16 = 64
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 1, "kongs": {"laizi": 1}}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw"})
    assert nets(data)["D"] == 32
    assert nets({**data, "options": {"laizi_kong_fans": 2}})["D"] == 64


def test_h2_hard_and_dealer_winner() -> None:
    # A is dealer and winner (self-draw, 硬胡): 开口 1 + 庄 1 + 自摸 1 + 硬胡 1 = 4; losers 0 each.
    # Each pays 2^(0+4) = 16 -> A +48.  The dealer won, so A deals again (H10).
    players = {"A": {"opens": 1}, "B": {}, "C": {}, "D": {}}
    result = settle_hand(wuhan(players, win={"winner": "A", "by": "self_draw", "fans": ["hard"]}))
    assert result.net == {"A": 48, "B": -16, "C": -16, "D": -16}
    assert result.next_dealer == "A"


# --- H3: big hands ---------------------------------------------------------------------------------


def test_h3_big_hand_self_draw_is_times_one_and_a_half_for_everyone() -> None:
    # 碰碰胡 self-draw by D (开口 1): base 10; no dealer fan for A (大胡 不考虑庄闲).
    # Each loser 0 fans: 10×2^(0+1)×1.5 = 30 -> D +90
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 1}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["pengpenghu"]})
    assert nets(data) == {"A": -30, "B": -30, "C": -30, "D": 90}
    assert settle_hand(data).transfers[0].why == "10×2^(0+1)×1.5"


def test_h3_big_hand_on_a_discard_only_the_discarder_has_the_factor() -> None:
    # 将一色 by D (开口 1) on B's discard: A 10×2^(0+1) = 20, B 10×2^(0+1)×1.5 = 30, C 20 -> D +70
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 1}}
    data = wuhan(players, win={"winner": "D", "by": "discard", "from": "B", "fans": ["jiangyise"]})
    assert nets(data) == {"A": -20, "B": -30, "C": -20, "D": 70}


def test_h3_big_hands_add_their_base_and_hard_is_a_fan() -> None:
    # 清一色 + 碰碰胡 + 海底捞 self-draw: base 30; D 开口 1 + 硬胡 1 = 2; losers 0.
    # Each: 30×2^(0+2)×1.5 = 180 -> D +540
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 2}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw",
                               "fans": ["qingyise", "pengpenghu", "haidilao", "hard"]})
    assert nets(data)["D"] == 540


def test_h3_stated_fans_keep_the_big_hand_base_and_factor() -> None:
    # G5: stated totals replace the power of 2 only.  碰碰胡 on A's discard, D states 2, A 1, B 0, C 3.
    # A 10×2^(1+2)×1.5 = 120, B 10×2^(0+2) = 40, C 10×2^(3+2) = 320 -> D +480
    data = wuhan(win={"winner": "D", "by": "discard", "from": "A", "fans": ["pengpenghu"]},
                 fans={"A": 1, "B": 0, "C": 3, "D": 2})
    assert nets(data) == {"A": -120, "B": -40, "C": -320, "D": 480}


def test_h3_robbed_kong_is_a_big_hand_counted_once() -> None:
    # 抢杠 implied by robbed_kong; naming it too does not double the base (G10 "counted once").
    # D (开口 1) robs B's kong; base 10; B is liable (H7 c) and treated as the discarder (G6).
    players = {"A": {}, "B": {"opens": 1}, "C": {}, "D": {"opens": 1}}
    implied = wuhan(players, win={"winner": "D", "by": "robbed_kong", "from": "B"})
    named = wuhan(players, win={"winner": "D", "by": "robbed_kong", "from": "B", "fans": ["qiangganghu"]})
    # B has 开口 1 of its own: B owes 10×2^(1+1)×1.5 = 60, so B pays 20 + 60 + 20 = 100
    assert nets(implied) == {"A": 0, "B": -100, "C": 0, "D": 100}
    assert nets(named) == nets(implied)


# --- H4: everyone pays -------------------------------------------------------------------------------


def test_h4_non_discarders_pay_on_a_discard() -> None:
    # Small hand on C's discard; D 开口 1, A dealer 庄 1, B 0, C 放冲 1.
    # A 2^(1+1) = 4, B 2^(0+1) = 2, C 2^(1+1) = 4 -> D +10
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 1}}
    assert nets(wuhan(players, win={"winner": "D", "by": "discard", "from": "C"})) == {
        "A": -4, "B": -2, "C": -4, "D": 10}


# --- H5 / H6: caps -----------------------------------------------------------------------------------


def test_h5_cap_limits_each_loser() -> None:
    # Stated fans: A 5, B 0, C 0, D 4 on a small self-draw: A 2^9 = 512 -> 400; B, C 2^4 = 16 -> D +432
    data = wuhan(win={"winner": "D", "by": "self_draw"}, fans={"A": 5, "B": 0, "C": 0, "D": 4})
    assert nets(data) == {"A": -400, "B": -16, "C": -16, "D": 432}


def test_h6_golden_needs_all_three_to_exceed_the_cap() -> None:
    # Each loser owes exactly 2^(4+4) = 256 with cap 256: reached but not exceeded -> no 金顶 (G13: >).
    data = wuhan(win={"winner": "D", "by": "self_draw"}, fans={"A": 4, "B": 4, "C": 4, "D": 4},
                 options={"cap": 256})
    assert nets(data)["D"] == 3 * 256
    # cap 255: all exceed -> 金顶 500 each; B, C and A have no open -> 光明顶 600 each = 1800
    assert nets({**data, "options": {"cap": 255}})["D"] == 3 * 600


def test_h6_golden_and_bright() -> None:
    # Stated fans 5 each for A, B, C, D=4: 2^9 = 512 > 400 for all -> 金顶.
    # A and C have opens -> 500 each; B has no open -> 光明顶 600.  D +1600
    players = {"A": {"opens": 1}, "B": {}, "C": {"opens": 2}, "D": {"opens": 1}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw"}, fans={"A": 5, "B": 5, "C": 5, "D": 4})
    assert nets(data) == {"A": -500, "B": -600, "C": -500, "D": 1600}
    assert "光明顶 600: B has no open" in settle_hand(data).transfers[1].why


def test_h6_koukou_defaults_are_600_and_700() -> None:
    # Same hand with 口口翻: 金顶 600, 光明顶 700 -> D 600 + 700 + 600 = 1900
    players = {"A": {"opens": 1}, "B": {}, "C": {"opens": 2}, "D": {"opens": 1}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw"}, fans={"A": 5, "B": 5, "C": 5, "D": 4},
                 options={"koukou": True})
    assert nets(data) == {"A": -600, "B": -700, "C": -600, "D": 1900}


def test_h6_options_override_golden_and_bright() -> None:
    players = {"A": {"opens": 1}, "B": {}, "C": {"opens": 2}, "D": {"opens": 1}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw"}, fans={"A": 5, "B": 5, "C": 5, "D": 4},
                 options={"cap": 300, "golden": 350, "bright": 450})
    # A 350, B 450, C 350 -> D +1150
    assert nets(data)["D"] == 1150


# --- H7: 承包 ----------------------------------------------------------------------------------------


def test_h7a_quanqiuren_discarder_not_ready_pays_all() -> None:
    # D (开口 1) 全求人 on B's discard; B not ready. Base 10:
    # A 10×2^(0+1) = 20, B 10×2^(0+1)×1.5 = 30, C 20 -> B pays 70
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 4}}
    data = wuhan(players, win={"winner": "D", "by": "discard", "from": "B", "fans": ["quanqiuren"]})
    assert paid(data) == {"B": 70}


def test_h7a_ready_discarder_is_not_liable() -> None:
    players = {"A": {}, "B": {"ready": True}, "C": {}, "D": {"opens": 4}}
    data = wuhan(players, win={"winner": "D", "by": "discard", "from": "B", "fans": ["quanqiuren"]})
    assert paid(data) == {"A": 20, "B": 30, "C": 20}


def test_h7b_third_open_feeder_pays_all_after_caps() -> None:
    # D 清一色 self-draw with opens fed by A, B, C: C fed the third open.  D 开口 1; losers 0.
    # Each 10×2^(0+1)×1.5 = 30; C pays 90.
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": ["A", "B", "C"]}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["qingyise"]})
    assert paid(data) == {"C": 90}
    assert settle_hand(data).liable == "C"


def test_h7b_needs_feeders_or_liable() -> None:
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 3}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["qingyise"]})
    assert error_paths(data) == ["players.D.opens"]
    stated = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["qingyise"], "liable": "B"})
    assert paid(stated) == {"B": 90}


def test_h7b_only_qingyise_unless_chengbao_yise_all() -> None:
    # 将一色 with three opens: no 承包 by default; with chengbao_yise: all, A (third feeder) pays 90.
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": ["B", "C", "A"]}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["jiangyise"]})
    assert paid(data) == {"A": 30, "B": 30, "C": 30}
    assert paid({**data, "options": {"chengbao_yise": "all"}}) == {"A": 90}


def test_h7c_robbed_kong_beats_the_flush_rule() -> None:
    # G11: robbed kong first.  D robs A's kong with 清一色 fed A, B, C (C would be liable under H7 b).
    # Base 20 (清一色 + 抢杠); D 开口 1; A 20×2^(0+1)×1.5 = 60, B 20×2 = 40, C 40 -> A pays 140
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": ["A", "B", "C"]}}
    data = wuhan(players, win={"winner": "D", "by": "robbed_kong", "from": "A", "fans": ["qingyise"]})
    assert paid(data) == {"A": 140}


def test_h7_liable_none_overrides_the_derivation() -> None:
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": ["A", "B", "C"]}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["qingyise"], "liable": "none"})
    assert paid(data) == {"A": 30, "B": 30, "C": 30}


def test_h7_liable_pays_capped_and_golden_amounts() -> None:
    # Stated A 5, B 5, C 5, D 4, 清一色 self-draw fed A, B, C: 10×2^9×1.5 = 7680 each > 400 -> 金顶;
    # A, B, C have no opens -> 光明顶 600 each; C (third feeder) pays 1800.
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": ["A", "B", "C"]}}
    data = wuhan(players, win={"winner": "D", "by": "self_draw", "fans": ["qingyise"]},
                 fans={"A": 5, "B": 5, "C": 5, "D": 4})
    assert paid(data) == {"C": 1800}


# --- H8: legality ------------------------------------------------------------------------------------


def test_h8_winner_needs_an_open() -> None:
    data = wuhan(win={"winner": "D", "by": "self_draw"})
    assert error_paths(data) == ["players.D.opens"]
    # option off: D 自摸 1; A 庄 1: 2^2 = 4, B 2, C 2 -> D +8
    assert nets({**data, "options": {"require_open": False}})["D"] == 8


def test_g9_stated_winner_total_skips_require_open() -> None:
    data = wuhan(win={"winner": "D", "by": "self_draw"}, fans={"D": 2})
    # A 庄 1: 2^(1+2) = 8, B 2^2 = 4, C 4 -> D +16
    assert nets(data)["D"] == 16


# --- H9: 逃跑 ------------------------------------------------------------------------------------------


def test_h9_escape_forfeit_does_not_sum_to_zero() -> None:
    result = settle_hand(wuhan(abandon={"by": "B"}))
    assert result.net == {"A": 0, "B": -400, "C": 0, "D": 0}
    assert result.forfeit is not None and result.forfeit.amount == 400
    assert result.next_dealer is None


def test_h9_escape_split_to_others() -> None:
    # 400 / 3 = 133 r 1: the extra point to the player after B (C): C 134, D 133, A 133.
    data = wuhan(abandon={"by": "B"}, options={"escape_paid_to": "others"})
    assert nets(data) == {"A": 133, "B": -400, "C": 134, "D": 133}


def test_h9_koukou_penalty_500() -> None:
    # 500 / 3 = 166 r 2: D (after C) and A get 167, B 166.
    data = wuhan(abandon={"by": "C"}, options={"koukou": True, "escape_paid_to": "others"})
    assert nets(data) == {"A": 167, "B": 166, "C": -500, "D": 167}


# --- H10: next dealer -------------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "winner", "expected"), [
    ("A", "A", "A"),  # the dealer won: stays
    ("A", "B", "B"),  # otherwise the player after the dealer
    ("D", "B", "A"),  # wraps around (G1)
])
def test_h10_next_dealer(dealer: str, winner: str, expected: str) -> None:
    players = {n: ({"opens": 1} if n == winner else {}) for n in FOUR}
    assert settle_hand(wuhan(players, dealer=dealer,
                             win={"winner": winner, "by": "self_draw"})).next_dealer == expected


def test_h10_draw_keeps_the_dealer() -> None:
    result = settle_hand(wuhan(dealer="C", draw=True))
    assert result.next_dealer == "C"
    assert result.net == dict.fromkeys(FOUR, 0)


# --- H11 and bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "path"), [
    ({"players": ["A", "B", "C"]}, "players"),                                   # H11
    ({"region": "hubei"}, "region"),
    ({"win": {"winner": "D", "by": "self_draw", "fans": ["qidui"]}}, "win.fans[0]"),  # 七对 not in Wuhan
    ({"win": {"winner": "E", "by": "self_draw"}}, "win.winner"),
    ({"win": {"winner": "D", "by": "discard"}}, "win.from"),
    ({"win": {"winner": "D", "by": "self_draw", "from": "A"}}, "win.from"),
    ({"win": {"winner": "D", "by": "discard", "from": "D"}}, "win.from"),
    ({"win": {"winner": "D", "by": "discard", "from": "A", "fans": ["gangshanghua"]}}, "win.fans[0]"),  # G10
    ({"win": {"winner": "D", "by": "self_draw", "fans": ["quanqiuren"]}}, "win.fans[0]"),  # G10
    ({"win": {"winner": "D", "by": "self_draw", "fans": ["qiangganghu"]}}, "win.fans[0]"),  # G10
    ({"options": {"cap": 600}}, "options"),                                       # G13: cap > golden
    ({"options": {"bogus": 1}}, "options.bogus"),
    ({"dealer": "Z"}, "dealer"),
    ({"fans": {"Z": 1}}, "fans.Z"),
    ({"fans": {"A": 65}}, "fans.A"),
    ({"fans": {"A": -1}}, "fans.A"),
    ({"players": {"A": {"opens": -1}, "B": {}, "C": {}, "D": {}}}, "players.A.opens"),
    ({"players": {"A": {"opens": 1.5}, "B": {}, "C": {}, "D": {}}}, "players.A.opens"),
    ({"players": {"A": {"kongs": {"exposed": 1}}, "B": {}, "C": {}, "D": {}}}, "players.A.opens"),  # G4
    ({"players": {"A": {"kongs": {"bao": 1}}, "B": {}, "C": {}, "D": {}}}, "players.A.kongs.bao"),
    ({"players": {"A": {"kongs": {"hongzhong": 5}}, "B": {}, "C": {}, "D": {}}}, "players.A.kongs.hongzhong"),
    ({"players": ["A", "B", "C", " A"]}, "players"),
    ({"draw": True}, "draw"),                                                     # win and draw
    ({"abandon": {"by": "Q"}, "win": None}, "abandon.by"),
])
def test_bad_input_names_the_key(change: dict[str, Any], path: str) -> None:
    data = wuhan({"A": {}, "B": {}, "C": {}, "D": {"opens": 1}},
                 win={"winner": "D", "by": "self_draw"})
    data.update(change)
    if data.get("win") is None:
        data.pop("win")
    assert path in error_paths(data)


def test_aliases_in_chinese_and_traditional() -> None:
    # 武漢 / 點炮 / 碰碰胡 resolve to wuhan / discard / pengpenghu (G14): same result as the English keys.
    players = {"A": {}, "B": {}, "C": {}, "D": {"opens": 1}}
    english = wuhan(players, win={"winner": "D", "by": "discard", "from": "B", "fans": ["pengpenghu"]})
    chinese = {**english, "region": "武漢", "win": {"winner": "D", "by": "點炮", "from": "B", "fans": ["碰碰胡"]}}
    assert nets(chinese) == nets(english)


def test_an_empty_player_name_is_reported_at_its_entry() -> None:
    # Regression (new-user trial): `players: ["", B, C, D]` said "players: must not be empty" (the list
    # is not empty), and beside a repeated name the empty one was not reported at all.
    draw = {"dealer": "B", "draw": True}
    assert error_paths(hand_of("wuhan", ["", "B", "C", "D"], **draw)) == ["players[0]"]
    assert error_paths(hand_of("wuhan", ["", " B", "B ", "D"], **draw)) == ["players[0]", "players"]
