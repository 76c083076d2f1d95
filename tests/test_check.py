"""`settle check FILE` and :func:`settle.engine.tilelevel.check_claims` (issue 7): claimed fans against the tiles.

Exit 0 when the claims agree with the tiles, 3 when they differ (a fan claimed but not in the
tiles, one in the tiles but not claimed, an illegal win, a claim the hand's facts refuse), 2 on
bad input.  Every amount is worked out by hand from RULINGS.md, the formula beside it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from settle import HandError, cli
from settle.engine.tilelevel import check_claims
from settle.errors import format_path

ROOT = Path(__file__).resolve().parent.parent
TILE_FIXTURES = ROOT / "fixtures" / "tiles"
DISAGREE = TILE_FIXTURES / "wuhan_claims_disagree.yaml"

cli._register_commands()
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli.app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def load(name: str) -> dict[str, Any]:
    return yaml.safe_load((TILE_FIXTURES / name).read_text(encoding="utf-8"))


def claiming(name: str, fans: list[str]) -> dict[str, Any]:
    """A tile fixture with ``win.fans`` set to ``fans``."""
    data = load(name)
    return {**data, "win": {**data["win"], "fans": fans}}


def kinds(data: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(d.kind, d.fan) for d in check_claims(data).differences]


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(HandError) as info:
        check_claims(data)
    return [(format_path(p.path), p.message) for p in info.value.problems]


# --- the disagreeing fixture -------------------------------------------------------------------------------


def test_disagreeing_fixture_exits_3_with_every_difference() -> None:
    # Claimed 碰碰胡 + 硬胡: D 开口 1 + 硬胡 1 = 2 fans; A 10×2^(0+2)×1.5 = 60, B (暗杠 2) 10×2^(2+2)×1.5
    # = 240, C 60; D +360.  Tiles: 清一色 (癞子 6s read as 2m), D 1 fan; A 10×2^(0+1)×1.5 = 30, B
    # 10×2^(2+1)×1.5 = 120, C 30; D +180.
    code, out, err = run("check", str(DISAGREE), "--format", "json")
    assert code == 3, err
    report = json.loads(out)
    assert report["agree"] is False
    assert [(d["kind"], d["fan"]) for d in report["differences"]] == [
        ("claimed_not_present", "pengpenghu"), ("claimed_not_present", "hard"), ("present_not_claimed", "qingyise")]
    assert report["net"]["claimed"] == {"A": -60, "B": -240, "C": -60, "D": 360}
    assert report["net"]["tiles"] == {"A": -30, "B": -120, "C": -30, "D": 180}
    assert report["payments"] == [{"from": "A", "to": "D", "claimed": 60, "tiles": 30},
                                  {"from": "B", "to": "D", "claimed": 240, "tiles": 120},
                                  {"from": "C", "to": "D", "claimed": 60, "tiles": 30}]
    assert report["claimed"] == {"D": ["pengpenghu", "hard"]} and report["tiles"] == {"D": ["qingyise"]}
    assert "(癞子 6s as 2m)" in report["readings"]["D"]


def test_disagreeing_fixture_table() -> None:
    code, out, _ = run("check", str(DISAGREE))
    assert code == 3
    assert "the claims differ from the tiles (3 difference(s))" in out
    assert "claimed, not in the tiles" in out and "in the tiles, not claimed" in out
    assert "碰碰胡 pengpenghu" in out and "base +10 (大胡)" in out and "1 番" in out
    assert "net D" in out and "+360" in out and "+180" in out


def test_check_reads_stdin() -> None:
    code, out, _ = run("check", "-", "--format", "json", stdin=DISAGREE.read_text(encoding="utf-8"))
    assert code == 3
    assert json.loads(out)["net"]["tiles"]["D"] == 180


# --- agreement ---------------------------------------------------------------------------------------------


def test_matching_claims_exit_0(tmp_path: Path) -> None:
    # The same tiles claimed as 清一色: both ways D +180 (A 30, B 120, C 30).
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(claiming("wuhan_qingyise_laizi.yaml", ["清一色"]), allow_unicode=True),
                    encoding="utf-8")
    code, out, err = run("check", str(good))
    assert code == 0, err
    assert "the claims agree with the tiles" in out
    report = check_claims(claiming("wuhan_qingyise_laizi.yaml", ["qingyise"]))
    assert report.agree and report.differences == ()
    assert report.claimed_result is not None and report.claimed_result.net == report.tiles_result.net


def test_wuxue_seven_pairs_claim_agrees() -> None:
    # 豪华七对 + 硬胡 as claimed and as read: A -20, B -20, C 0, D +40 both ways.
    report = check_claims(claiming("wuxue_haohua_qidui.yaml", ["haohua_qidui", "hard"]))
    assert report.agree
    assert report.tiles_result is not None and report.tiles_result.net == {"A": -20, "B": -20, "C": 0, "D": 40}


def test_rushan_counts_claims_as_the_region_does() -> None:
    # R1 R3b with 门清一条龙 on: claiming 一条龙 alone is 屁胡 (the default base) × 一条龙 × 门清 (counted
    # unnamed on a closed self-draw): the same as the tiles.
    assert check_claims(claiming("rushan_menqing_yitiaolong.yaml", ["yitiaolong"])).agree


def test_rushan_unclaimed_yitiaolong() -> None:
    # Claimed nothing: 屁胡 1 × 门清 2 = 2, + 1 暗杠 = 3 each, B +9; the tiles: 1 × 2 × 2 + 1 = 5 each, B +15.
    report = check_claims(claiming("rushan_menqing_yitiaolong.yaml", []))
    assert [(d.kind, d.fan) for d in report.differences] == [("present_not_claimed", "yitiaolong")]
    assert report.claimed_result is not None and report.claimed_result.net["B"] == 9
    assert report.tiles_result is not None and report.tiles_result.net["B"] == 15


# --- illegal wins and refused claims -----------------------------------------------------------------------

ILLEGAL = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
           "win": {"winner": "D", "by": "self_draw", "fans": ["hard"],
                   "tiles": {"hand": "33m 345m 678p 234s", "win_tile": "4s", "indicator": "4s",
                             "melds": [{"kind": "chow", "tiles": "123p", "from": "C"}]}}}
"""A small hand whose pair 33m is not 2/5/8 (H8): no legal reading."""


def test_illegal_win_exits_3() -> None:
    # As claimed (硬胡, small hand): A 庄家 1; D 开口 1 + 自摸 1 + 硬胡 1 = 3; A 2^(1+3) = 16, B 8, C 8.
    report = check_claims(ILLEGAL)
    [difference] = report.differences
    assert difference.kind == "illegal_win" and "2/5/8" in difference.detail
    assert report.claimed_result is not None and report.claimed_result.net == {"A": -16, "B": -8, "C": -8, "D": 32}
    assert report.tiles_result is None and report.derived == {"D": None}
    code, out, _ = run("check", "-", stdin=json.dumps(ILLEGAL))
    assert code == 3
    assert "illegal win" in out and "(no legal win)" in out and "—" in out


def test_claim_refused_by_the_facts_but_tiles_legal() -> None:
    # Wuxue closed 屁胡 claimed (no big hand, no open: W12 refuses it); the tiles are seven pairs:
    # 七对 2 + 硬胡 1 = 3 斤, each 2^(0+3) = 8, D +24.
    data = {"region": "wuxue", "players": ["A", "B", "C", "D"], "dealer": "A",
            "win": {"winner": "D", "by": "self_draw", "fans": [],
                    "tiles": {"hand": "22m 33m 44m 55p 66p 77p 88s", "win_tile": "8s", "indicator": "东"}}}
    report = check_claims(data)
    assert ("claim_refused", None) in [(d.kind, d.fan) for d in report.differences]
    assert ("present_not_claimed", "qidui") in [(d.kind, d.fan) for d in report.differences]
    assert report.claimed_result is None
    assert report.tiles_result is not None and report.tiles_result.net["D"] == 24


def test_neither_way_settles_is_bad_input() -> None:
    # A closed Wuhan hand: H8 require_open refuses the claim and every reading.
    data = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
            "win": {"winner": "D", "by": "self_draw", "fans": ["hard"],
                    "tiles": {"hand": "22m 345m 678p 456s 123p", "win_tile": "6s", "indicator": "4s"}}}
    found = problems(data)
    assert found and all(path == "win.tiles.melds" for path, _ in found)
    code, _, err = run("check", "-", stdin=json.dumps(data))
    assert code == 2 and "no open" in err


def test_claim_that_is_another_legal_reading_is_named() -> None:
    # The Wuhan tie: 碰碰胡 + 清一色 claimed (with 包牌: C fed the third open and pays all 180) against the
    # reading kept, 碰碰胡 + 硬胡 (no 包牌).  D nets +180 either way (each 60: 20×2^(0+1)×1.5 and
    # 10×2^(0+2)×1.5).
    data = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
            "win": {"winner": "D", "by": "self_draw", "fans": ["pengpenghu", "qingyise"],
                    "tiles": {"hand": "444m 5s 5s", "win_tile": "4m", "indicator": "4s",
                              "melds": [{"kind": "pung", "tiles": "111m", "from": "A"},
                                        {"kind": "pung", "tiles": "222m", "from": "B"},
                                        {"kind": "pung", "tiles": "333m", "from": "C"}]}}}
    report = check_claims(data)
    assert kinds(data) == [("claimed_not_present", "qingyise"), ("present_not_claimed", "hard")]
    assert report.claimed_result is not None and report.claimed_result.net == {"A": 0, "B": 0, "C": -180, "D": 180}
    assert report.tiles_result is not None and report.tiles_result.net == {"A": -60, "B": -60, "C": -60, "D": 180}
    assert any("another legal reading" in note and "+180 with the claim" in note for note in report.notes)


def test_situational_claims_are_passed_on_not_compared() -> None:
    # Wuxue 杠开 named, shape items left out: 杠开 is in both; 清一色 is in the tiles, not claimed.
    # Claimed: 屁胡 + 杠开 = 1 斤, each 2^(0+1) = 2; tiles: 清一色 2 + 杠开 1 = 3 斤, each 8.
    data = {"region": "wuxue", "players": ["A", "B", "C", "D"], "dealer": "A",
            "win": {"winner": "D", "by": "self_draw", "fans": ["gangkai"],
                    "tiles": {"hand": "456m 789m 111m 5s 5s", "win_tile": "1m", "indicator": "4s",
                              "melds": [{"kind": "chow", "tiles": "123m", "from": "C"}]}}}
    report = check_claims(data)
    assert kinds(data) == [("present_not_claimed", "qingyise")]
    assert report.claimed_result is not None and report.claimed_result.net["D"] == 6
    assert report.tiles_result is not None and report.tiles_result.net["D"] == 24


# --- bad input ---------------------------------------------------------------------------------------------


def test_without_fans_is_bad_input() -> None:
    data = load("wuhan_qingyise_laizi.yaml")
    assert problems(data) == [("win.fans", problems(data)[0][1])]
    assert "missing" in problems(data)[0][1]
    code, _, err = run("check", str(TILE_FIXTURES / "wuhan_qingyise_laizi.yaml"))
    assert code == 2 and "win.fans" in err


def test_without_tiles_is_bad_input() -> None:
    code, _, err = run("check", str(ROOT / "fixtures" / "wuhan" / "worked_example.yaml"))
    assert code == 2 and "win.tiles" in err and "missing" in err


def test_bad_tile_is_bad_input_with_its_line(tmp_path: Path) -> None:
    text = DISAGREE.read_text(encoding="utf-8").replace("indicator: 5s", "indicator: 5x")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    line, column = next((i, row.index("indicator") + 1) for i, row in enumerate(text.splitlines(), 1)
                        if "indicator: 5x" in row)
    code, _, err = run("check", str(bad))
    assert code == 2
    assert f"{bad}:{line}:{column}: win.tiles.indicator" in err  # FILE:LINE:COL (issue 16 #9)


def test_missing_file_is_bad_input(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read" in err
