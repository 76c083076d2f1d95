"""Issue 16 #1-#3: a session's hands add details to the header's seating, ``--details`` and ``--hand N``
answer a dispute, the per-hand table marks 承包, caps and forfeits, and Chinese says the region's word.

Every amount is worked out by hand from RULINGS (H1-H10 Wuhan), with the formula beside it; each of
these tests failed before issue 16 (a hand listing one player was refused: "played by 4 players,
this hand lists 1"; there was no --details, --hand or marks column; the session said 点炮 for Wuhan).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from settle import cli
from settle.engine.session import SessionReport, find_hand, run_session
from settle.loader import iter_documents

ROOT = Path(__file__).resolve().parent.parent

cli._register_commands()
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli.app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def session_text(text: str, name: str = "s.yaml") -> SessionReport:
    return run_session(iter_documents(text.encode(), name), name)


HEADER = "region: wuhan\nplayers: [A, B, C, D]\n"

# Hand 1: A deals; D (开口 1) self-draws a small hand.  H1/H2 fans: A 庄家 1, B 0, C 0, D 开口 1 + 自摸 1 = 2.
# A 2^(1+2) = 8, B 2^(0+2) = 4, C 2^(0+2) = 4 -> D +16.  D won, A lost: B deals next (H10).
# Hand 2: B deals (rotation); B (开口 1, 暗杠 2) wins on C's discard.  Fans: B 庄家 1 + 开口 1 + 暗杠 2 = 4;
# A 0; C 放冲 1; D 0.  A 2^(0+4) = 16, C 2^(1+4) = 32, D 2^(0+4) = 16 -> B +64.
SHORT = (HEADER + "---\nid: s1\ndealer: A\nplayers: {D: {opens: 1}}\nwin: {winner: D, by: self_draw}\n"
         "---\nid: s2\nplayers: {B: {opens: 1, kongs: {concealed: 1}}}\nwin: {winner: B, by: discard, from: C}\n")


def test_a_hand_lists_only_the_players_with_facts() -> None:
    # RULINGS H1, H2, H4, H10; issue 16 #1: the seating stays the header's.
    report = session_text(SHORT)
    assert not report.problems
    assert [dict(h.result.net) for h in report.hands] == [{"A": -8, "B": -4, "C": -4, "D": 16},
                                                          {"A": -16, "B": 64, "C": -32, "D": -16}]
    assert [h.result.players for h in report.hands] == [("A", "B", "C", "D")] * 2
    assert report.totals == {"A": -24, "B": 60, "C": -36, "D": 0}  # -8-16, -4+64, -4-32, 16-16


def test_a_short_players_list_settles_as_the_full_one() -> None:
    # The same evening with every player written out gives the same hands (issue 16 #1).
    full = (HEADER + "---\nid: s1\ndealer: A\nplayers: {A: {}, B: {}, C: {}, D: {opens: 1}}\n"
            "win: {winner: D, by: self_draw}\n---\nid: s2\n"
            "players: {A: {}, B: {opens: 1, kongs: {concealed: 1}}, C: {}, D: {}}\n"
            "win: {winner: B, by: discard, from: C}\n")
    assert [h.result.net for h in session_text(full).hands] == [h.result.net for h in session_text(SHORT).hands]


def test_a_name_not_at_the_table_is_an_error() -> None:
    text = HEADER + "---\nid: s1\ndealer: A\nplayers: {E: {opens: 1}}\ndraw: true\n"
    [problem] = session_text(text).problems
    # lines: header 1-2, `---` 3, id 4, dealer 5, players 6
    assert (problem.path, problem.line, problem.kind) == (("players", "E"), 6, "not_at_table")
    assert "E is not at this table (the session header seats A, B, C, D)" in problem.message


def test_every_player_in_another_order_is_an_error() -> None:
    text = HEADER + "---\nid: s1\ndealer: A\nplayers: [B, A, C, D]\ndraw: true\n"
    [problem] = session_text(text).problems
    assert (problem.path, problem.kind) == (("players",), "seat_order")
    assert "another order (B, A, C, D)" in problem.message and "(A, B, C, D)" in problem.message


def test_without_a_header_each_hand_keeps_its_own_seating() -> None:
    # No header: the first hand's seating, and a later hand may seat E (as before issue 16).
    # Hand 2: A deals again (荒庄 keeps the dealer, H10); all fans stated 0, E self-draws:
    # E 自摸... stated totals replace the counted ones (G5): A 2^(0+1) = 2, C 2, D 2 -> E +6.
    text = ("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\ndraw: true\n---\nregion: wuhan\nplayers: [A, E, C, D]\n"
            "fans: {A: 0, E: 1, C: 0, D: 0}\nwin: {winner: E, by: self_draw}\n")
    report = session_text(text)
    assert not report.problems
    assert report.hands[1].result.net == {"A": -2, "E": 6, "C": -2, "D": -2}


# --- #2: --details, --hand, marks -------------------------------------------------------------------

# Hand c1 (承包, H7 b): the fixture fixtures/wuhan/chengbao_qingyise.yaml.  北 3 fans (开口 1 + 红中杠 1 +
# 硬胡 1), base 10 (清一色), 自摸 ×1.5: 东 10×2^(1+3)×1.5 = 240, 南 10×2^(2+3)×1.5 = 480 -> 400 (H5),
# 西 240; 西 fed 北's third open of a 清一色, so 西 pays all: 240 + 400 + 240 = 880.  东 lost the deal: 南 next.
# Hand c2 (金顶/光明顶, H6): 南 deals; 北 (开口 1 + 2 暗杠 4 = 5 fans) self-draws a 清一色 (base 10, ×1.5):
# 东 (0) 10×2^(0+5)×1.5 = 480, 南 (开口 1) 10×2^(1+5)×1.5 = 960, 西 (0) 480: all three exceed 400, so 金顶:
# 南 (an open) pays 500, 东 and 西 (no open) 光明顶 600 -> 北 +1700.
DISPUTE = ("region: wuhan\nplayers: [东, 南, 西, 北]\n---\nid: c1\ndealer: 东\n"
           "players: {东: {opens: 1}, 南: {kongs: {concealed: 1}}, 西: {opens: [北, 东]},"
           " 北: {opens: [东, 南, 西], kongs: {hongzhong: 1}}}\n"
           "win: {winner: 北, by: self_draw, fans: [qingyise, hard]}\n"
           "---\nid: c2\nplayers: {南: {opens: 1}, 北: {opens: 1, kongs: {concealed: 2}}}\n"
           "win: {winner: 北, by: self_draw, fans: [qingyise]}\n")


def test_dispute_session_amounts() -> None:
    report = session_text(DISPUTE)
    assert not report.problems
    assert [dict(h.result.net) for h in report.hands] == [{"东": 0, "南": 0, "西": -880, "北": 880},
                                                          {"东": -600, "南": -500, "西": -600, "北": 1700}]


def test_the_hand_table_marks_chengbao_caps_and_golden() -> None:
    code, out, _ = run("session", "-", "--lang", "en", stdin=DISPUTE)
    assert code == 0
    hands = out[:out.index("Running totals")]  # the per-hand table
    rows = {line.split()[1]: line for line in hands.splitlines() if re.match(r"\s*[12]\s+c[12]\s", line)}
    assert "marks" in out.splitlines()[2]
    assert "承包 liable 西, 封顶 capped" in rows["c1"]
    assert "金顶 golden, 光明顶 bright" in rows["c2"]
    code, out, _ = run("session", "-", "--lang", "zh", stdin=DISPUTE)
    assert "标记" in out and "承包 西, 封顶" in out and "金顶, 光明顶" in out


def test_details_shows_every_payment_with_its_why() -> None:
    code, out, _ = run("session", "-", "--details", "--lang", "en", stdin=DISPUTE)
    assert code == 0
    details = out[out.index("Details"):out.index("Settle-up")]
    assert "Hand 1 c1 (dealer 东): 北 self_draw; 承包 liable 西, 封顶 capped" in details
    payments = re.findall(r"^(\S+ -> \S+)\s+(\d+)\s+= (.*)$", details, re.M)
    # c1: three shares, all paid by 西 (240, 400, 240); c2: 600, 500, 600
    assert [(who, int(amount)) for who, amount, _ in payments] == [
        ("西 -> 北", 240), ("西 -> 北", 400), ("西 -> 北", 240), ("东 -> 北", 600), ("南 -> 北", 500),
        ("西 -> 北", 600)]
    whys = [why for _, _, why in payments]
    assert "capped at 400 (H5 封顶)" in whys[1] and "光明顶 600" in whys[3] and "金顶 500" in whys[4]
    assert "西 pays for everyone" in details  # the 承包 reason, as a note (H7 b)


def test_hand_n_shows_the_hand_as_settle_hand_does(tmp_path: Path) -> None:
    # Hand c2 on its own, with the dealer the rotation gave (南) and every player written out.
    alone = tmp_path / "c2.yaml"
    alone.write_text("id: c2\nregion: wuhan\ndealer: 南\nplayers: {东: {}, 南: {opens: 1}, 西: {},"
                     " 北: {opens: 1, kongs: {concealed: 2}}}\nwin: {winner: 北, by: self_draw, fans: [qingyise]}\n",
                     encoding="utf-8")
    _, expected, _ = run("hand", str(alone), "--lang", "en")
    for wanted in ("2", "c2"):  # the 1-based position or the id
        code, out, _ = run("session", "-", "--hand", wanted, "--lang", "en", stdin=DISPUTE)
        assert (code, out) == (0, expected)
    code, out, _ = run("session", "-", "--hand", "c2", "--format", "json", stdin=DISPUTE)
    assert json.loads(out)["net"] == {"东": -600, "南": -500, "西": -600, "北": 1700}


def test_hand_n_that_is_not_there_is_bad_input() -> None:
    code, _, err = run("session", "-", "--hand", "7", stdin=DISPUTE)
    assert code == 2 and "--hand 7: no such hand in this session: it has 2 settled hands (1-2: c1, c2)" in err


def test_find_hand_prefers_an_id_to_a_position() -> None:
    # Hands with ids 2 and 1, in that order: "1" names the hand whose id is 1 (the second).
    text = HEADER + "---\nid: 2\ndealer: A\ndraw: true\n---\nid: 1\ndraw: true\n"
    report = session_text(text)
    found = find_hand(report, "1")
    assert found is not None and found.number == 2
    assert find_hand(report, "3") is None


def test_a_forfeit_is_marked() -> None:
    # H9: B leaves, forfeits 400 (escape_paid_to: none).
    code, out, _ = run("session", "-", "--lang", "en", stdin=HEADER + "---\ndealer: A\nabandon: {by: B}\n")
    assert code == 0 and "罚没 forfeit 400" in out


# --- #3: one word per region ----------------------------------------------------------------------


def test_wuhan_session_in_chinese_says_fangchong_as_settle_hand_does() -> None:
    # The Wuhan fixture's w2: B wins on C's discard.  settle hand says 放冲 for Wuhan (Region.discarder).
    code, out, _ = run("session", str(ROOT / "fixtures" / "session" / "wuhan.yaml"), "--lang", "zh")
    assert code == 0 and "B 胡，C 放冲" in out and "点炮" not in out
    code, out, _ = run("session", str(ROOT / "fixtures" / "session" / "rushan.yaml"), "--lang", "zh")
    assert "放冲" not in out
    _, hand, _ = run("hand", str(ROOT / "fixtures" / "wuhan" / "worked_example.yaml"), "--lang", "zh")
    assert "放冲" in hand


def test_batch_table_in_chinese_uses_the_regions_word() -> None:
    # fixtures/batch/mixed.yaml b04 is a Wuhan discard by A, b06 a Rushan discard by A.
    _, out, _ = run("batch", str(ROOT / "fixtures" / "batch" / "mixed.yaml"), "--lang", "zh")
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("b0")}
    assert "A 放冲" in rows["b04"] and "A 点炮" in rows["b06"]
