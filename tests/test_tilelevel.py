"""Tile-level settlement end to end (issue 7): hand files with `win.tiles`, through `settle_hand`.

The engine's own tests (tests/tiles/) cover the shapes; these cover the hand-file path: the melds
giving opens and kongs (G3, G4), every reading settled and the best kept (the winner's net, then no
包牌, then fewer wildcard substitutions), the region checks applied to each reading (H8, W12), and
every engine error at its exact key.  Every expected number is worked out by hand from RULINGS.md,
with the formula beside it.  Players A B C D sit in that order (G1); A deals unless said.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from settle import HandError, cli, parse_hand, settle_hand
from settle.engine.tilelevel import check_claims, prepare, resolve, settle_with_tiles
from settle.engine.validation import rule_problems, validate_model
from settle.errors import format_path

ROOT = Path(__file__).resolve().parent.parent
TILE_FIXTURES = ROOT / "fixtures" / "tiles"
FOUR = ["A", "B", "C", "D"]

cli._register_commands()
runner = CliRunner()


def hand(region: str, win: dict[str, Any], players: Any = None, **keys: Any) -> dict[str, Any]:
    """A hand of ``region`` at a table of A B C D, A dealing unless ``dealer`` is given."""
    return {"region": region, "players": players or FOUR, "dealer": keys.pop("dealer", "A"), "win": win, **keys}


def tiles(text: str, win_tile: str, *melds: dict[str, Any], **keys: Any) -> dict[str, Any]:
    """A ``win.tiles`` block."""
    return {"hand": text, "win_tile": win_tile, **({"melds": list(melds)} if melds else {}), **keys}


def pung(text: str, feeder: str) -> dict[str, Any]:
    return {"kind": "pung", "tiles": text, "from": feeder}


def chow(text: str, feeder: str) -> dict[str, Any]:
    return {"kind": "chow", "tiles": text, "from": feeder}


def kong(text: str, kind: str, feeder: str | None = None) -> dict[str, Any]:
    out = {"kind": "kong", "tiles": text, "kong": kind}
    return {**out, "from": feeder} if feeder else out


def nets(data: dict[str, Any]) -> dict[str, int]:
    return settle_hand(data).net


def notes(data: dict[str, Any]) -> str:
    return "\n".join(settle_hand(data).notes)


def errors(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(HandError) as info:
        settle_hand(data)
    return [(format_path(p.path), p.message) for p in info.value.problems]


def error_paths(data: dict[str, Any]) -> list[str]:
    return [path for path, _ in errors(data)]


def winner_fans(data: dict[str, Any]) -> list[str]:
    _, parsed = parse_hand(data)
    return list(parsed.wins[0].fans)


# --- Wuhan 红中赖子杠 (H1-H12) ----------------------------------------------------------------------------

# Flipped 4s: the 癞子 is 5s (H12).
WUHAN_HARD = tiles("22m 345m 678p 456s", "6s", chow("123p", "C"), indicator="4s")
"""D: 22m 345m 678p 456s + chow 123p from C (C sits before D); the 癞子 5s sits in 456s as itself."""


def test_wuhan_laizi_used_as_itself_is_hard() -> None:
    # H8 硬胡: the only reading keeps 5s in 456s as itself (0 substitutions).  Small hand, self-draw:
    # A 庄家 1; D 开口 1 + 自摸 1 + 硬胡 1 = 3.  A 2^(1+3) = 16, B 2^(0+3) = 8, C 2^(0+3) = 8; D +32.
    data = hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": WUHAN_HARD})
    assert nets(data) == {"A": -16, "B": -8, "C": -8, "D": 32}
    assert winner_fans(data) == ["hard"]
    assert "(癞子 5s as itself)" in notes(data)


def test_wuhan_258_pair_made_by_the_laizi() -> None:
    # H8: 2m + 癞子 read as 2m is the 2/5/8 pair of a small hand; soft (no 硬胡).  A discards 2m.
    # A 庄家 1 + 放冲 1 = 2; B 0; C 0; D 开口 1 (pung 777p from B).
    # A 2^(2+1) = 8, B 2^(0+1) = 2, C 2^(0+1) = 2; D +12.
    data = hand("wuhan", {"winner": "D", "by": "discard", "from": "A",
                          "tiles": tiles("2m 5s 345m 678p 234s", "2m", pung("777p", "B"), indicator="4s")})
    assert nets(data) == {"A": -8, "B": -2, "C": -2, "D": 12}
    assert winner_fans(data) == []
    assert "22m" in notes(data) and "(癞子 5s as 2m)" in notes(data)


def test_wuhan_qingyise_only_with_the_laizi_read_as_the_suit() -> None:
    # fixtures/tiles/wuhan_qingyise_laizi.yaml: flipped 5s, 癞子 6s read as 2m; 清一色 big hand.
    # D 开口 1, B 暗杠 2: A 10×2^(0+1)×1.5 = 30, B 10×2^(2+1)×1.5 = 120, C 30; D +180.
    data = yaml.safe_load((TILE_FIXTURES / "wuhan_qingyise_laizi.yaml").read_text(encoding="utf-8"))
    assert nets(data) == {"A": -30, "B": -120, "C": -30, "D": 180}
    assert winner_fans(data) == ["qingyise"]


def test_wuhan_tie_prefers_the_reading_without_baopai() -> None:
    # D: pungs 111m (A), 222m (B), 333m (C) + 444m and two 癞子 5s (flipped 4s).  Readings:
    #   55s as itself:   碰碰胡 + 硬胡: base 10, D 开口 1 + 硬胡 1 = 2: each 10×2^(0+2)×1.5 = 60, D +180
    #   55s as a 万 pair: 碰碰胡 + 清一色: base 20, D 1: each 20×2^(0+1)×1.5 = 60, D +180, but with
    #                    3 opens C (the third feeder) pays all 180 (H7 b)
    #   碰碰胡 alone (55s as 11p) +90, 清一色 alone (234m 44m) +90.
    # The two best tie at +180: the one without 包牌 is kept.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("444m 5s 5s", "4m", pung("111m", "A"), pung("222m", "B"),
                                         pung("333m", "C"), indicator="4s")})
    result = settle_hand(data)
    assert result.net == {"A": -60, "B": -60, "C": -60, "D": 180}
    assert result.liable is None
    assert winner_fans(data) == ["pengpenghu", "hard"]
    assert "preferred without 包牌" in "\n".join(result.notes)
    assert "4 legal reading(s) considered" in "\n".join(result.notes)


def test_wuhan_situational_item_comes_from_fans() -> None:
    # 杠上花 cannot be seen in tiles: named in win.fans, passed on (G10).  WUHAN_HARD + 杠上花: big hand,
    # base 10, no dealer fan (H3); D 开口 1 + 硬胡 1 = 2; each 10×2^(0+2)×1.5 = 60; D +180.
    data = hand("wuhan", {"winner": "D", "by": "self_draw", "fans": ["杠上花"], "tiles": WUHAN_HARD})
    assert nets(data) == {"A": -60, "B": -60, "C": -60, "D": 180}
    assert winner_fans(data) == ["gangshanghua", "hard"]


def test_wuhan_robbed_kong_implies_qiangganghu_and_the_robbed_player_pays() -> None:
    # B's added kong of 6s robbed: 抢杠 big hand (H3, G10), D 开口 1 + 硬胡 1 = 2.
    # A 10×2^(0+2) = 40, B (robbed = discarder, G6) 10×2^(0+2)×1.5 = 60, C 40 = 140, all paid by B (H7 c).
    data = hand("wuhan", {"winner": "D", "by": "robbed_kong", "from": "B", "tiles": WUHAN_HARD})
    result = settle_hand(data)
    assert result.net == {"A": 0, "B": -140, "C": 0, "D": 140}
    assert result.liable == "B"
    assert winner_fans(data) == ["qiangganghu", "hard"]


WUXUE_QIDUI = {"hand": "2222m 44m 33p 55p 77s 88s", "win_tile": "4m", "indicator": "9p"}


def test_wuxue_qiangganghu_named_is_implied_by_robbed_kong_and_not_a_shape_claim() -> None:
    # G10: 抢杠胡 is implied by robbed_kong; with no shape item named the tiles decide the fans
    # (豪华七对 3 + 硬胡 1), and W10 has the robbed A alone pay one cap 15 (no 漂): A -15, D +15.
    win = {"winner": "D", "by": "robbed_kong", "from": "A", "fans": ["抢杠胡"], "tiles": WUXUE_QIDUI}
    data = hand("wuxue", win)
    assert nets(data) == {"A": -15, "B": 0, "C": 0, "D": 15}
    assert winner_fans(data) == ["haohua_qidui", "hard"]
    claims = {**win, "fans": ["qiangganghu", "haohua_qidui", "hard"]}
    assert check_claims(hand("wuxue", claims)).agree


@pytest.mark.parametrize(("ready", "expected"), [
    # B not ready: 承包 H7 a, B pays all 40 + 60 + 40 = 140.
    (False, {"A": 0, "B": -140, "C": 0, "D": 140}),
    # B ready: everyone pays his own share.
    (True, {"A": -40, "B": -60, "C": -40, "D": 140}),
])
def test_wuhan_quanqiuren_from_four_claimed_melds(ready: bool, expected: dict[str, int]) -> None:
    # 全求人 (H3): four claimed melds, the single 55m pair (2/5/8, H8) won on B's discard.  No 癞子 (5s)
    # in hand: 硬胡.  D 开口 1 + 硬胡 1 = 2; base 10: A 10×2^(0+2) = 40, B (放冲) 10×2^(0+2)×1.5 = 60, C 40.
    data = hand("wuhan", {"winner": "D", "by": "discard", "from": "B",
                          "tiles": tiles("5m 5m", "5m", chow("123m", "C"), pung("777p", "A"), pung("999s", "B"),
                                         pung("西西西", "A"), indicator="4s")},
                players={"A": {}, "B": {"ready": ready}, "C": {}, "D": {}})
    assert nets(data) == expected
    assert winner_fans(data) == ["quanqiuren", "hard"]


def test_wuhan_fengyise_and_pengpenghu_add() -> None:
    # 风一色 + 碰碰胡: two big hands, base 20 (H3); no 癞子 (5s) in hand: 硬胡.  D 开口 1 + 硬胡 1 = 2.
    # Self-draw: each 20×2^(0+2)×1.5 = 120 (under the cap 400); D +360.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("西西西 北北北 白白", "白", pung("东东东", "A"), pung("南南南", "B"),
                                         indicator="4s")})
    assert nets(data) == {"A": -120, "B": -120, "C": -120, "D": 360}
    assert winner_fans(data) == ["pengpenghu", "fengyise", "hard"]


def test_wuhan_exposed_kong_meld_gives_an_open_and_a_kong() -> None:
    # Kong 9999m claimed from B: one open and one exposed kong (G3).  Small hand, self-draw:
    # A 庄家 1; D 开口 1 + 明杠 1 + 自摸 1 + 硬胡 1 = 4.  A 2^(1+4) = 32, B 2^(0+4) = 16, C 16; D +64.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 345m 678p 456s", "6s", kong("9999m", "exposed", "B"), indicator="4s")})
    assert nets(data) == {"A": -32, "B": -16, "C": -16, "D": 64}
    _, parsed = parse_hand(data)
    assert parsed.players["D"].opens == ["B"] and parsed.players["D"].kongs == {"exposed": 1}


def test_wuhan_added_kong_opens_the_pung_under_it() -> None:
    # 补杠 9999m over a 碰 from B: the 碰 is the open (G4), the kong is added (H1: 1 fan), as above: D +64.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 345m 678p 456s", "6s", kong("9999m", "蓄杠", "B"), indicator="4s")})
    assert nets(data) == {"A": -32, "B": -16, "C": -16, "D": 64}
    _, parsed = parse_hand(data)
    assert parsed.players["D"].opens == ["B"] and parsed.players["D"].kongs == {"added": 1}


def test_wuhan_single_tile_kongs_stay_in_players() -> None:
    # 红中杠 is no meld: players.D.kongs gives it, the melds give the exposed kong.
    # D 开口 1 + 明杠 1 + 红中杠 1 + 自摸 1 + 硬胡 1 = 5; A 2^(1+5) = 64, B 2^(0+5) = 32, C 32; D +128.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 345m 678p 456s", "6s", kong("9999m", "exposed", "B"), indicator="4s")},
                players={"A": {}, "B": {}, "C": {}, "D": {"kongs": {"红中杠": 1}}})
    assert nets(data) == {"A": -64, "B": -32, "C": -32, "D": 128}


def test_wuhan_opens_given_twice_must_agree() -> None:
    agreeing = hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": WUHAN_HARD},
                    players={"A": {}, "B": {}, "C": {}, "D": {"opens": ["C"]}})
    assert nets(agreeing) == {"A": -16, "B": -8, "C": -8, "D": 32}
    count = hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": WUHAN_HARD},
                 players={"A": {}, "B": {}, "C": {}, "D": {"opens": 1}})
    assert nets(count) == {"A": -16, "B": -8, "C": -8, "D": 32}
    disagreeing = hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": WUHAN_HARD},
                       players={"A": {}, "B": {}, "C": {}, "D": {"opens": 2}})
    [(path, message)] = errors(disagreeing)
    assert path == "players.D.opens"
    assert "win.tiles.melds" in message and "must agree" in message


def test_wuhan_kongs_given_twice_must_agree() -> None:
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 345m 678p 456s", "6s", kong("9999m", "exposed", "B"), indicator="4s")},
                players={"A": {}, "B": {}, "C": {}, "D": {"opens": 1, "kongs": {"concealed": 1}}})
    [(path, message)] = errors(data)
    assert path == "players.D.kongs"
    assert "1 concealed kong" in message and "1 exposed kong" in message and "win.tiles.melds" in message


def test_wuhan_h8_no_open_is_reported_at_the_melds() -> None:
    # A closed hand: legal tiles, but H8 require_open refuses every reading; the fact came from the melds.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 345m 678p 456s 123p", "6s", indicator="4s")})
    [(path, message)] = errors(data)
    assert path == "win.tiles.melds"
    assert "no open" in message and "H8" in message


def test_wuhan_h8_pair_must_be_258_in_a_small_hand() -> None:
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("33m 345m 678p 234s", "4s", chow("123p", "C"), indicator="4s")})
    [(path, message)] = errors(data)
    assert path == "win.tiles"
    assert "not a legal win" in message and "2/5/8" in message


def test_wuhan_h8_holding_hongzhong_forbids_the_win() -> None:
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("红中 红中 345m 678p 456s", "6s", chow("123p", "C"), indicator="4s")})
    [(path, message)] = errors(data)
    assert path == "win.tiles" and "红中" in message


def test_wuhan_indicator_is_required_to_derive() -> None:
    data = hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": tiles("22m 345m 678p 456s", "6s",
                                                                           chow("123p", "C"))})
    assert error_paths(data) == ["win.tiles.indicator"]


def test_wuhan_a_discarded_laizi_cannot_be_won_on() -> None:
    data = hand("wuhan", {"winner": "D", "by": "discard", "from": "A",
                          "tiles": tiles("22m 345m 678p 456s", "5s", chow("123p", "C"), indicator="4s")})
    [(path, message)] = errors(data)
    assert path == "win.tiles.win_tile" and "wildcard" in message


def test_wuhan_laizi_count_includes_laizi_kongs() -> None:
    # Two 5s in hand + 3 癞子杠 = 5 copies of 5s: there are 4.
    data = hand("wuhan", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("444m 5s 5s", "4m", pung("111m", "A"), pung("222m", "B"),
                                         pung("333m", "C"), indicator="4s")},
                players={"A": {}, "B": {}, "C": {}, "D": {"kongs": {"laizi": 3}}})
    [(path, message)] = errors(data)
    assert path == "win.tiles.hand" and "only 4" in message


# --- Wuxue 武穴 (W2, W12, W15, W16) -------------------------------------------------------------------------


def test_wuxue_haohua_qidui_fixture() -> None:
    # fixtures/tiles/wuxue_haohua_qidui.yaml: 豪华七对 3 + 硬胡 1 = 4 斤; A 点炮 16 -> 15, B 陪炮
    # 2^(2+4-1) = 32 -> 15; two capped: 小金鼎 20 each (W8); C 陪炮 with 0 斤 pays nothing.
    data = yaml.safe_load((TILE_FIXTURES / "wuxue_haohua_qidui.yaml").read_text(encoding="utf-8"))
    assert nets(data) == {"A": -20, "B": -20, "C": 0, "D": 40}
    assert winner_fans(data) == ["haohua_qidui", "hard"]


def test_wuxue_qingyise_only_if_the_bao_pair_is_read_as_the_suit() -> None:
    # Flipped 4s: 宝 5s.  D: chow 123m from C + 456m 789m 111m and two 宝; 杠开 named (W15 lets
    # two 宝 make a 屁胡 on 杠开).  Readings, self-draw, every loser 0 斤, each pays 2^(0+jin):
    #   55s as itself: 屁胡 + 硬胡 + 杠开 = 2 斤: 4 each, D +12
    #   55s as a 万 pair: 清一色 2 + 杠开 1 = 3 斤: 8 each, D +24   <- kept
    data = hand("wuxue", {"winner": "D", "by": "self_draw", "fans": ["gangkai"],
                          "tiles": tiles("456m 789m 111m 5s 5s", "1m", chow("123m", "C"), indicator="4s")})
    assert nets(data) == {"A": -8, "B": -8, "C": -8, "D": 24}
    assert winner_fans(data) == ["qingyise", "gangkai"]
    assert "next best: 硬胡 hard, 杠开 gangkai +12" in notes(data)


def test_wuxue_two_bao_without_gangkai_leave_only_qingyise() -> None:
    # As above without 杠开: the 屁胡 with two 宝 is illegal (W15); 清一色 2 斤: 4 each, D +12.
    data = hand("wuxue", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("456m 789m 111m 5s 5s", "1m", chow("123m", "C"), indicator="4s")})
    assert nets(data) == {"A": -4, "B": -4, "C": -4, "D": 12}
    assert "two 宝" in notes(data)


def test_wuxue_tie_at_the_golden_cap_prefers_fewer_substitutions() -> None:
    # Flipped 4s: 宝 5s.  D: pungs 111m (A), 999m (B) + 222m 333m and two 宝; 杠开 named.
    #   55s as itself: 碰碰胡 2 + 硬胡 1 + 杠开 1 = 4 斤: 2^(0+4) = 16 -> 15 each, all three capped
    #   55s as a 万 pair: 碰碰胡 2 + 清一色 2 + 杠开 1 = 5 斤: 32 -> 15 each, all three capped
    # Either way 金鼎 30 each (W8): D +90; two opens only, no 包胡.  0 substitutions beat 2.
    data = hand("wuxue", {"winner": "D", "by": "self_draw", "fans": ["gangkai"],
                          "tiles": tiles("222m 333m 5s 5s", "2m", pung("111m", "A"), pung("999m", "B"),
                                         indicator="4s")})
    assert nets(data) == {"A": -30, "B": -30, "C": -30, "D": 90}
    assert winner_fans(data) == ["pengpenghu", "hard", "gangkai"]
    assert "fewer wildcard substitutions (0 against 2)" in notes(data)


def test_wuxue_sibao_and_seven_pairs_made_with_bao() -> None:
    # Flipped 4s: 宝 5s, four in hand (四宝牌 1 斤).  111m 999p 22p 77s 5555s, closed, self-draw.
    # Best: seven pairs 11m 11m 99p 99p 22p 77s 55s (a 宝 completes 1m and 9p, two 宝 as themselves):
    # two sets of four alike = 超豪华七对 4 + 四宝 1 = 5 斤: 2^5 = 32 -> 15 each, three capped: 金鼎 30.
    # 超超豪华 (the last two 宝 as 22p or 77s too) is 6 斤, also 30 each, with 4 substitutions, not 2.
    data = hand("wuxue", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("111m 999p 22p 77s 5555s", "7s", indicator="4s")})
    assert nets(data) == {"A": -30, "B": -30, "C": -30, "D": 90}
    assert winner_fans(data) == ["chaohaohua_qidui", "sibao"]


def test_wuxue_w12_closed_pihu_is_refused_but_seven_pairs_wins() -> None:
    # Flipped 东: 宝 南, 癞子皮 东 and 红中 (W15); none held, so 硬胡.  22m 33m 44m 55p 66p 77p 88s is
    # 234m 234m 567p 567p 88s (屁胡, refused: no open, W12) or seven pairs: 七对 2 + 硬胡 1 = 3 斤.
    # Self-draw: each 2^(0+3) = 8; D +24.
    data = hand("wuxue", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 33m 44m 55p 66p 77p 88s", "8s", indicator="东")})
    assert nets(data) == {"A": -8, "B": -8, "C": -8, "D": 24}
    assert winner_fans(data) == ["qidui", "hard"]
    assert "refused by the hand's facts: 1 reading(s)" in notes(data) and "W12" in notes(data)


def test_wuxue_w12_closed_pihu_alone_is_an_error_at_the_melds() -> None:
    data = hand("wuxue", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("123m 456m 567p 567p 88s", "8s", indicator="东")})
    [(path, message)] = errors(data)
    assert path == "win.tiles.melds" and "W12" in message


def test_wuxue_holding_a_pizi_forbids_the_win() -> None:
    # Flipped 4s: 4s is 癞子皮 (W15).
    data = hand("wuxue", {"winner": "D", "by": "self_draw",
                          "tiles": tiles("22m 345m 678p 234s", "4s", chow("123p", "C"), indicator="4s")})
    [(path, message)] = errors(data)
    assert path == "win.tiles" and "癞子皮" in message


# --- Rushan 乳山 (R1-R3b, R9) ------------------------------------------------------------------------------


def test_rushan_menqing_yitiaolong_fixture() -> None:
    # fixtures/tiles/rushan_menqing_yitiaolong.yaml: 1 × 一条龙 2 × 门清 2 = 4, + 1 暗杠 = 5 from each; B +15.
    data = yaml.safe_load((TILE_FIXTURES / "rushan_menqing_yitiaolong.yaml").read_text(encoding="utf-8"))
    assert nets(data) == {"A": -5, "B": 15, "C": -5, "D": -5}
    assert winner_fans(data) == ["pihu", "yitiaolong", "menqing"]


def test_rushan_yitiaolong_made_with_a_chow_does_not_count() -> None:
    # R3: 123m claimed from A; 456m 789m concealed.  Not 门清 (a 吃 is an open) and no 一条龙: 屁胡 1 each; B +3.
    data = hand("rushan", {"winner": "B", "by": "self_draw",
                           "tiles": tiles("456m 789m 234p 55s", "5s", chow("123m", "A"))},
                options={"menqing_yitiaolong": True})
    assert nets(data) == {"A": -1, "B": 3, "C": -1, "D": -1}
    assert winner_fans(data) == ["pihu"]


@pytest.mark.parametrize(("option", "each"), [(False, 2), (True, 4)])
def test_rushan_seven_pairs_with_four_alike(option: bool, each: int) -> None:
    # R1: 2222m counts as two pairs: 七对 base 2 (Rushan has no 豪华 bonus).  C self-draws, closed:
    # option off 2 each (C +6); with 门清一条龙 on, 门清 ×2: 4 each (C +12).
    data = hand("rushan", {"winner": "C", "by": "self_draw", "tiles": tiles("2222m 44m 33p 55p 77s 88s", "8s")},
                options={"menqing_yitiaolong": option})
    assert nets(data) == {"A": -each, "B": -each, "C": 3 * each, "D": -each}


def test_rushan_pengpenghu_beats_the_chow_reading() -> None:
    # 111s 222s 333s 99s + pung 555s from A, won on C's discard.  Read as pungs: 碰碰胡 2 × 清一色 2 = 4;
    # as 123s ×3: 屁胡 1 × 清一色 2 = 2.  Only C pays (R5): C -4, B +4.
    data = hand("rushan", {"winner": "B", "by": "discard", "from": "C",
                           "tiles": tiles("111s 222s 333s 99s", "9s", pung("555s", "A"))})
    assert nets(data) == {"A": 0, "B": 4, "C": -4, "D": 0}
    assert winner_fans(data) == ["pengpenghu", "qingyise"]
    assert "pays B the most, +4 (next best: 屁胡 pihu, 清一色 qingyise +2)" in notes(data)


def test_rushan_several_winners_each_read_from_their_tiles() -> None:
    # R8 multi_win: A discards 9s; B 碰碰胡 清一色 (4, as above), C a closed 屁胡 (1).  A pays 4 + 1 = 5.
    data = hand("rushan", [
        {"winner": "B", "by": "discard", "from": "A", "tiles": tiles("111s 222s 333s 99s", "9s", pung("555s", "D"))},
        {"winner": "C", "by": "discard", "from": "A", "tiles": tiles("99s 345m 678p 234p 666m", "9s")},
    ], options={"multi_win": True})
    assert nets(data) == {"A": -5, "B": 4, "C": 1, "D": 0}


def test_rushan_mobao_needs_the_bao_tile() -> None:
    # 搂宝: 摸宝 ×2 (R2, R9), won on the 宝 tile 5s by self-draw.  屁胡 1 × 2 = 2 each; B +6.
    win = {"winner": "B", "by": "self_draw", "fans": ["mobao"],
           "tiles": tiles("123m 456m 789p 234s 55s", "5s", bao_tile="5s")}
    assert nets(hand("rushan", win, options={"loubao": True})) == {"A": -2, "B": 6, "C": -2, "D": -2}
    without = {**win, "tiles": tiles("123m 456m 789p 234s 55s", "5s")}
    assert error_paths(hand("rushan", without, options={"loubao": True})) == ["win.tiles.bao_tile"]


def test_rushan_jiang258_needs_a_258_pair() -> None:
    data = hand("rushan", {"winner": "B", "by": "self_draw", "tiles": tiles("123m 456m 789p 234s 33m", "3m")},
                options={"jiang258": True})
    [(path, message)] = errors(data)
    assert path == "win.tiles" and "jiang258" in message


def test_rushan_no_chow_refuses_a_chow_meld() -> None:
    data = hand("rushan", {"winner": "B", "by": "self_draw",
                           "tiles": tiles("456m 789m 234p 55s", "5s", chow("123m", "A"))},
                options={"no_chow": True})
    [(path, message)] = errors(data)
    assert path == "win.tiles.melds[0].tiles" and "no_chow" in message


# --- claims, library, errors at their keys -----------------------------------------------------------------


def test_named_shape_items_are_settled_as_claimed() -> None:
    # fixtures/tiles/wuhan_claims_disagree.yaml claims 碰碰胡 + 硬胡 on a 清一色 hand; `settle hand` trusts
    # the claim: D 2 fans, A 10×2^(0+2)×1.5 = 60, B 10×2^(2+2)×1.5 = 240, C 60; D +360.
    data = yaml.safe_load((TILE_FIXTURES / "wuhan_claims_disagree.yaml").read_text(encoding="utf-8"))
    assert nets(data) == {"A": -60, "B": -240, "C": -60, "D": 360}
    assert "settled as given" in notes(data)


@pytest.mark.parametrize(("region", "tile_block", "fans", "rule"), [
    # H8: holding 红中 forbids any win, whatever is claimed.
    ("wuhan", tiles("234m 567m 55p 555z", "5p", pung("777s", "C"), indicator="1m"), ["hard"], "红中"),
    # H8: a small hand's pair must be 2/5/8 (33m), the claim of 硬胡 does not make it a big hand.
    ("wuhan", tiles("234m 567m 234p 33p", "3p", pung("777s", "C"), indicator="1z"), ["hard"], "2/5/8"),
    # W15: holding a 癞子皮 (红中 is always one) forbids the win.
    ("wuxue", tiles("234m 567m 55p 23s 5z", "5p", pung("777s", "C"), indicator="1m"), ["hard"], "癞子皮"),
])
def test_claimed_fans_on_tiles_that_cannot_win_are_refused(region: str, tile_block: dict[str, Any],
                                                           fans: list[str], rule: str) -> None:
    # Claims are settled as given only on tiles some reading of which is a legal win.
    # Regression (tile audit D1): these claims were paid (e.g. Wuhan D +32 for 开口 1 + 自摸 1 + 硬胡 1).
    data = hand(region, {"winner": "D", "by": "self_draw", "fans": fans, "tiles": tile_block})
    [(path, message)] = errors(data)
    assert path == "win.tiles" and "not a legal win" in message and rule in message


def test_library_entry_point_matches_settle_hand() -> None:
    data = hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": WUHAN_HARD})
    assert settle_with_tiles(data) == settle_hand(data)


def test_tile_problems_come_with_the_other_problems() -> None:
    data = hand("wuhan", {"winner": "D", "by": "discard", "tiles": tiles("22m 345m 678p 456s", "6x")})
    assert error_paths(data) == ["win.tiles.win_tile", "win.from"]


def test_a_claimed_hand_still_needs_readable_tiles() -> None:
    data = hand("wuhan", {"winner": "D", "by": "self_draw", "fans": ["qingyise"],
                          "tiles": tiles("22m 345m 678p 456s", "6s", chow("12x", "C"), indicator="4s")})
    assert error_paths(data) == ["win.tiles.melds[0].tiles"]


BAD = [
    (tiles("22m 345m 678p 456s", "6s", chow("123p", "C"), pung("77q", "B")), "win.tiles.melds[1].tiles", "bad tile"),
    (tiles("22m 345m 678p 456s", "6s", pung("123p", "C")), "win.tiles.melds[0].tiles", "same"),
    (tiles("22m 345m 678p 456s", "6s", {"kind": "kong", "tiles": "7777p"}), "win.tiles.melds[0].kong", "missing"),
    (tiles("22m 345m 678p 456s", "6s", {"kind": "pung", "tiles": "777p", "from": "B", "kong": "exposed"}),
     "win.tiles.melds[0].kong", "only a kong"),
    (tiles("22m 345m 678p 456s", "6s", kong("5555z", "hongzhong")), "win.tiles.melds[0].kong", "players.D.kongs"),
    (tiles("22m 345m 678p 456s", "6s", kong("7777p", "concealed", "B")), "win.tiles.melds[0].from", "nobody"),
    (tiles("22m 345m 678p", "6s", chow("123p", "C"), {"kind": "pung", "tiles": "999s"}),
     "win.tiles.melds[1].from", "every claimed meld"),
    (tiles("22m 345m 678p 456s", "6s", chow("123p", "B")), "win.tiles.melds[0].from", "before D"),
    (tiles("22m 345m 678p 456s", "6s", pung("777p", "Z")), "win.tiles.melds[0].from", "not one of the players"),
    (tiles("22m 345m 678p 456s", "6s", pung("777p", "D")), "win.tiles.melds[0].from", "own open"),
    ({"hand": "22m 345m 678p 456s", "melds": [chow("123p", "C")], "indicator": "4s"}, "win.tiles.win_tile",
     "missing"),
    (tiles("22m 345m 678p 456s", "9s", chow("123p", "C"), indicator="4s"), "win.tiles.win_tile", "not among"),
    (tiles("22m 345m 678p 456s 1s", "6s", chow("123p", "C"), indicator="4s"), "win.tiles.hand", "14 - 3"),
    (tiles("2222m 345m 678p 4s", "4s", pung("222m", "C"), indicator="4s"), "win.tiles", "only 4"),
    (tiles("22m 345m 678p 456s", "6s", chow("123p", "C"), indicator="4s", bao_tile="5s"), "win.tiles.bao_tile",
     "Rushan"),
    (tiles("22m 345m 678p 456s", "6s", chow("123p", "C"), indicator="4ss"), "win.tiles.indicator", "bad tile"),
    (tiles("22m 345m 678p 456s", "6s", pung("555z", "C"), indicator="4s"), "win.tiles.melds[0].tiles",
     "cannot meld"),
    ({**tiles("22m 345m 678p 456s", "6s", chow("123p", "C"), indicator="4s"), "colour": "red"}, "win.tiles.colour",
     "unknown key"),
    ({"hand": 123, "win_tile": "6s"}, "win.tiles.hand", "text"),
    (tiles("22m 345m 678p 456s", "6s", {"kind": "chow", "tiles": "123p", "from_": "C"}), "win.tiles.melds[0].from_",
     "from"),
]


@pytest.mark.parametrize(("spec", "path", "words"), BAD, ids=[f"{p} {w}" for _, p, w in BAD])
def test_bad_tiles_are_reported_at_their_key(spec: dict[str, Any], path: str, words: str) -> None:
    found = errors(hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": spec}))
    assert path in [p for p, _ in found], found
    assert any(words in message for p, message in found if p == path), found


def test_cli_error_names_the_key_and_the_line(tmp_path: Path) -> None:
    text = (TILE_FIXTURES / "wuhan_qingyise_laizi.yaml").read_text(encoding="utf-8").replace("555m", "555x")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    line, column = next((i, row.index("tiles: 555x") + 1) for i, row in enumerate(text.splitlines(), 1)
                        if "tiles: 555x" in row)
    result = runner.invoke(cli.app, ["hand", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:{line}:{column}: win.tiles.melds[0].tiles" in result.stderr  # FILE:LINE:COL (issue 16 #9)


# --- fixtures ----------------------------------------------------------------------------------------------

EXPECTED = {
    # A 10×2^(0+1)×1.5 = 30, B (暗杠 2) 10×2^(2+1)×1.5 = 120, C 30
    "wuhan_qingyise_laizi.yaml": {"A": -30, "B": -120, "C": -30, "D": 180},
    # 碰碰胡 + 硬胡 as claimed: A 10×2^(0+2)×1.5 = 60, B 10×2^(2+2)×1.5 = 240, C 60
    "wuhan_claims_disagree.yaml": {"A": -60, "B": -240, "C": -60, "D": 360},
    # 豪华七对 3 + 硬胡 1: A 16 -> 15, B 2^(2+4-1) -> 15, 小金鼎 20 each
    "wuxue_haohua_qidui.yaml": {"A": -20, "B": -20, "C": 0, "D": 40},
    # 1 × 一条龙 2 × 门清 2 + 1 暗杠 = 5 each
    "rushan_menqing_yitiaolong.yaml": {"A": -5, "B": 15, "C": -5, "D": -5},
}


def test_every_tile_fixture_has_an_expectation() -> None:
    assert sorted(p.name for p in TILE_FIXTURES.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_tile_fixture_through_settle_hand(name: str) -> None:
    result = runner.invoke(cli.app, ["hand", str(TILE_FIXTURES / name), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["net"] == EXPECTED[name]


def schema(kind: str) -> jsonschema.Draft7Validator:
    path = ROOT / "schemas" / f"{kind}.schema.json"
    return jsonschema.Draft7Validator(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_tile_fixture_and_its_result_validate_against_the_schemas(name: str) -> None:
    doc = yaml.safe_load((TILE_FIXTURES / name).read_text(encoding="utf-8"))
    assert [e.message for e in schema("hand").iter_errors(doc)] == []
    assert [e.message for e in schema("result").iter_errors(settle_hand(doc).as_dict())] == []


# --- resolve's shortcuts give what the long way gives ------------------------------------------
# prepare() fills the winners' opens/kongs by copying the validated hand instead of validating the
# document again, and resolve() reuses the kept reading's settlement instead of checking and
# settling the final hand again: both must be exactly what the long way gives.

SHORTCUT_CASES = {
    **{name: yaml.safe_load((TILE_FIXTURES / name).read_text(encoding="utf-8")) for name in sorted(EXPECTED)},
    "several winners (R8)": hand("rushan", [
        {"winner": "B", "by": "discard", "from": "A", "tiles": tiles("111s 222s 333s 99s", "9s", pung("555s", "D"))},
        {"winner": "C", "by": "discard", "from": "A", "tiles": tiles("99s 345m 678p 234p 666m", "9s")},
    ], options={"multi_win": True}),
    "kongs and opens given too": hand("wuhan", {"winner": "D", "by": "self_draw", "tiles": tiles(
        "22m 345m 678p", "2m", pung("777s", "B"), kong("9999p", "exposed", "C"), indicator="1z")},
        players={"A": {}, "B": {"kongs": {"hongzhong": 1}}, "C": {}, "D": {"opens": ["B", "C"]}}),
}


@pytest.mark.parametrize("name", sorted(SHORTCUT_CASES))
def test_effective_hand_is_what_validating_its_document_gives(name: str) -> None:
    data = SHORTCUT_CASES[name]
    region, typed = validate_model(data)
    effective = prepare(data, region, typed).hand
    _, revalidated = validate_model(effective.model_dump(by_alias=True, exclude_none=True))
    assert revalidated == effective


@pytest.mark.parametrize("name", sorted(SHORTCUT_CASES))
def test_resolved_settlement_is_the_final_hand_settled(name: str) -> None:
    data = SHORTCUT_CASES[name]
    region, typed = validate_model(data)
    resolution = resolve(data, region, typed)
    assert rule_problems(region, resolution.hand) == []
    fresh = region.settle(resolution.hand)
    assert (resolution.settlement.net, resolution.settlement.transfers) == (fresh.net, fresh.transfers)
    assert resolution.settlement.notes[:len(fresh.notes)] == fresh.notes


# --- each reading is checked by the checks that read the fans, settled on a cheap copy ------------
# prepare() runs the shared checks on the effective hand once; every reading of a winner's tiles
# differs from it only in the wins' fans, so settle_candidate runs only the checks that read the
# fans (fan_rule_problems) and builds the trial hand without model_copy (with_fans): both must be
# exactly what the long way gives, problems in the same order, on good fans and on bad ones.


def _fan_lists(region: Any) -> list[list[str]]:
    """Every table key alone, a few pairs (groups, only_by misfits), a key named twice, none."""
    keys = list(region.patterns)
    pairs = [[a, b] for i, a in enumerate(keys) for b in keys[i + 1:i + 4]]
    return [[], *([k] for k in keys), *pairs, [keys[0], keys[0]], keys[:5], keys[-5:]]


@pytest.mark.parametrize("name", sorted(SHORTCUT_CASES))
def test_reading_checks_are_the_full_checks(name: str) -> None:
    from settle.engine.tilelevel.choosing import with_fans
    from settle.engine.validation import fan_rule_problems

    data = SHORTCUT_CASES[name]
    region, typed = validate_model(data)
    prepared = prepare(data, region, typed)
    for tile_win in prepared.tile_wins:
        for fans in _fan_lists(region):
            trial = with_fans(prepared.hand, tile_win.index, fans)
            assert fan_rule_problems(region, trial) == rule_problems(region, trial), fans


@pytest.mark.parametrize("name", sorted(SHORTCUT_CASES))
def test_with_fans_is_model_copy(name: str) -> None:
    from settle.engine.tilelevel.choosing import with_fans

    data = SHORTCUT_CASES[name]
    region, typed = validate_model(data)
    current = prepare(data, region, typed).hand
    for i, win in enumerate(current.wins):
        fans = list(region.patterns)[:2]
        copied = win.model_copy(update={"fans": fans})
        wins: Any = [*current.wins[:i], copied, *current.wins[i + 1:]] if isinstance(current.win, list) else copied
        expected = current.model_copy(update={"win": wins})
        got = with_fans(current, i, fans)
        assert got == expected
        assert type(got) is type(expected) and type(got.wins[i]) is type(expected.wins[i])
        assert got.model_fields_set == expected.model_fields_set
        assert got.wins[i].model_fields_set == expected.wins[i].model_fields_set
        assert got.model_dump() == expected.model_dump()
        assert current.wins[i].fans == win.fans  # the hand copied is left as it was


@pytest.mark.parametrize("name", sorted(SHORTCUT_CASES))
def test_settlement_with_reasons_is_dataclasses_replace(name: str) -> None:
    import dataclasses

    from settle.engine.tilelevel.reasons import _replaced

    data = SHORTCUT_CASES[name]
    region, typed = validate_model(data)
    settled = resolve(data, region, typed).settlement
    changes: dict[str, Any] = {"reasons": settled.reasons[:1], "reading": {"x": 1}, "catalog": settled.catalog}
    got, expected = _replaced(settled, changes), dataclasses.replace(settled, **changes)
    assert got == expected and got is not settled
    assert [getattr(got, f.name) for f in dataclasses.fields(got)] == [
        getattr(expected, f.name) for f in dataclasses.fields(expected)]
    assert got.catalog is expected.catalog


def test_replaced_leaves_other_classes_to_dataclasses_replace() -> None:
    import dataclasses

    from settle.engine.tilelevel.reasons import _replaced

    @dataclasses.dataclass
    class KeywordOnly:
        a: int
        b: int = dataclasses.field(default=0, kw_only=True)

    @dataclasses.dataclass
    class NotInit:
        a: int
        b: int = dataclasses.field(default=5, init=False)

    assert _replaced(KeywordOnly(1, b=2), {"a": 3}) == KeywordOnly(3, b=2)  # type: ignore[arg-type, comparison-overlap]
    assert _replaced(NotInit(1), {"a": 2}) == NotInit(2)  # type: ignore[arg-type, comparison-overlap]
    with pytest.raises(ValueError):
        _replaced(NotInit(1), {"b": 2})  # type: ignore[arg-type]
