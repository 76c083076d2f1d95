"""``settle session``: one table's hands in order, running totals, dealer rotation, settle-up.

Every expected number is worked out by hand from the rule text and RULINGS (W13, H9, H10,
R10 for the dealer; the region rulings for the amounts), with the formula beside it.  The
sessions are fixtures/session/*.yaml; each hand there repeats its own arithmetic.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from settle.engine.session import SessionReport, run_session, settle_up
from settle.loader import iter_documents

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = ROOT / "fixtures" / "session"


def session_of(path: Path) -> SessionReport:
    return run_session(iter_documents(path.read_bytes(), str(path)), str(path))


def session_text(text: str, name: str = "s.yaml") -> SessionReport:
    return run_session(iter_documents(text.encode(), name), name)


def nets(report: SessionReport) -> list[dict[str, int]]:
    return [dict(h.result.net) for h in report.hands]


def totals(report: SessionReport) -> list[dict[str, int]]:
    return [h.totals for h in report.hands]


def dealers(report: SessionReport) -> list[str]:
    return [h.dealer for h in report.hands]


def transfers(report: SessionReport) -> list[tuple[str, str, int]]:
    return [(p.payer, p.payee, p.amount) for p in report.settle_up]


def settle_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", *args],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, check=False)


# --- Wuhan: small hands with stated fans (G5), H2 2^(a+b), H4 everyone pays, H5 cap 400, H9, H10 --------


def test_wuhan_session_nets_running_totals_and_forfeit() -> None:
    report = session_of(SESSIONS / "wuhan.yaml")
    assert report.name == "wuhan-evening"
    assert [h.label for h in report.hands] == [f"w{i}" for i in range(1, 10)]
    assert nets(report) == [
        # 1 D 自摸: A 2^(1+2)=8, B 2^(0+2)=4, C 2^(1+2)=8; D 8+4+8=20
        {"A": -8, "B": -4, "C": -8, "D": 20},
        # 2 B on C's discard: A 2^(0+2)=4, C 2^(1+2)=8, D 2^(1+2)=8; B 20
        {"A": -4, "B": 20, "C": -8, "D": -8},
        # 3 荒庄
        {"A": 0, "B": 0, "C": 0, "D": 0},
        # 4 A on D's discard: B 2^(1+3)=16, C 2^(0+3)=8, D 2^(2+3)=32; A 56
        {"A": 56, "B": -16, "C": -8, "D": -32},
        # 5 C 自摸: A 2^(1+3)=16, B 2^(1+3)=16, D 2^(0+3)=8; C 40
        {"A": -16, "B": -16, "C": 40, "D": -8},
        # 6 D on A's discard: A 2^(2+3)=32, B 2^(0+3)=8, C 2^(1+3)=16; D 56
        {"A": -32, "B": -8, "C": -16, "D": 56},
        # 7 B on A's discard: A 2^(4+5)=512 -> 400, C 2^(2+5)=128, D 2^(4+5)=512 -> 400 (H5);
        #   C is under the cap, so no 金顶 (H6); B 400+128+400=928
        {"A": -400, "B": 928, "C": -128, "D": -400},
        # 8 A 自摸 碰碰胡: 10×2^(0+1)×1.5=30, 10×2^(1+1)×1.5=60, 10×2^(0+1)×1.5=30 (H3); A 120
        {"A": 120, "B": -30, "C": -60, "D": -30},
        # 9 B 逃跑: 400 forfeited (H9), nobody else pays
        {"A": 0, "B": -400, "C": 0, "D": 0},
    ]
    assert totals(report) == [
        {"A": -8, "B": -4, "C": -8, "D": 20},
        {"A": -12, "B": 16, "C": -16, "D": 12},     # -8-4, -4+20, -8-8, 20-8
        {"A": -12, "B": 16, "C": -16, "D": 12},     # 荒庄 changes nothing
        {"A": 44, "B": 0, "C": -24, "D": -20},      # -12+56, 16-16, -16-8, 12-32
        {"A": 28, "B": -16, "C": 16, "D": -28},     # 44-16, 0-16, -24+40, -20-8
        {"A": -4, "B": -24, "C": 0, "D": 28},       # 28-32, -16-8, 16-16, -28+56
        {"A": -404, "B": 904, "C": -128, "D": -372},  # -4-400, -24+928, 0-128, 28-400
        {"A": -284, "B": 874, "C": -188, "D": -402},  # -404+120, 904-30, -128-60, -372-30
        {"A": -284, "B": 474, "C": -188, "D": -402},  # B 874-400
    ]
    # The forfeit is its own line; the rest clears B's 474 + 400 = 874 from A 284, C 188, D 402
    # (largest debtor first: D 402, A 284, C 188).
    assert report.forfeits == {"B": 400}
    assert transfers(report) == [("D", "B", 402), ("A", "B", 284), ("C", "B", 188)]
    assert report.ended is not None and "B" in report.ended and "H9" in report.ended
    assert not report.problems and not report.warnings


def test_wuhan_dealer_rotation_h10_with_a_draw() -> None:
    # H10: stays when the dealer wins or on 荒庄, else the next seat.
    # 1 A deals, D wins -> B; 2 B wins -> B; 3 荒庄 -> B; 4 A wins -> C; 5 C wins -> C;
    # 6 D wins -> D; 7 B wins -> A (after D, wrapping round, G1); 8 A wins -> A; 9 A deals.
    report = session_of(SESSIONS / "wuhan.yaml")
    assert dealers(report) == ["A", "B", "B", "B", "C", "C", "D", "A", "A"]
    assert [h.rotation for h in report.hands] == [None, "B", "B", "B", "C", "C", "D", "A", "A"]
    assert report.hands[-1].result.next_dealer is None  # 逃跑 ends the game (H9)


# --- Wuxue: stated 斤 (G5); W1 2^(a+b), W6 陪炮 half or nothing at 0 斤, W7 cap 15, W8 金鼎, W13 -------


def test_wuxue_session_nets_running_totals_and_settle_up() -> None:
    report = session_of(SESSIONS / "wuxue.yaml")
    assert nets(report) == [
        # 1 B 自摸: A 2^(1+2)=8, C 2^(0+2)=4, D 2^(1+2)=8; B 20
        {"A": -8, "B": 20, "C": -4, "D": -8},
        # 2 C on D's 点炮: D 2^(1+2)=8, A 陪炮 2^(1+2-1)=4, B 陪炮 0 斤 pays nothing; C 12
        {"A": -4, "B": 0, "C": 12, "D": -8},
        # 3 荒庄
        {"A": 0, "B": 0, "C": 0, "D": 0},
        # 4 A 自摸: B 2^(1+3)=16 -> 15, C 16 -> 15 (two capped: 小金鼎 20 each), D 2^(0+3)=8; A 48
        {"A": 48, "B": -20, "C": -20, "D": -8},
        # 5 D on A's 点炮: A 2^(1+2)=8, B 陪炮 2^(1+2-1)=4, C 陪炮 2^(2+2-1)=8; D 20
        {"A": -8, "B": -4, "C": -8, "D": 20},
        # 6 B on C's 点炮: C 2^(2+3)=32, A and D 陪炮 2^(2+3-1)=16: all reach 15 -> 金鼎 30 each; B 90
        {"A": -30, "B": 90, "C": -30, "D": -30},
        # 7 C 自摸 with 1 斤: A, B, D 2^(0+1)=2 each; C 6
        {"A": -2, "B": -2, "C": 6, "D": -2},
        # 8 A on B's 点炮: B 2^(1+2)=8, C 陪炮 0 斤 nothing, D 陪炮 2^(1+2-1)=4; A 12
        {"A": 12, "B": -8, "C": 0, "D": -4},
    ]
    assert totals(report)[-1] == {"A": 8, "B": 76, "C": -44, "D": -40}
    # A -8-4+0+48-8-30-2+12 = 8;  B 20+0+0-20-4+90-2-8 = 76;
    # C -4+12+0-20-8-30+6+0 = -44; D -8-8+0-8+20-30-2-4 = -40
    assert totals(report)[3] == {"A": 36, "B": 0, "C": -12, "D": -24}  # after hand 4: -12+48, 20-20, 8-20, -16-8
    # W13: the winner deals next; 荒庄 keeps the dealer.  1 A; 2 B (won 1); 3 C (won 2);
    # 4 C (荒庄); 5 A (won 4); 6 D (won 5); 7 B (won 6); 8 C (won 7).
    assert dealers(report) == ["A", "B", "C", "C", "A", "D", "B", "C"]
    # Settle-up: C (44) pays the largest creditor B (76): 44, B has 32 left; D (40) pays B 32,
    # then D's last 8 goes to A (8).  3 transfers = players - 1.
    assert transfers(report) == [("C", "B", 44), ("D", "B", 32), ("D", "A", 8)]
    assert not report.forfeits and report.ended is None


# --- Rushan: R1/R2 base × multipliers, R4 kong points, R5 who pays, R6 fish, R7 cap, R8, R10 -------------


def test_rushan_session_nets_running_totals_and_settle_up() -> None:
    report = session_of(SESSIONS / "rushan.yaml")
    assert nets(report) == [
        # 1 B 自摸 屁胡 1: A, C, D pay 1; B 3
        {"A": -1, "B": 3, "C": -1, "D": -1},
        # 2 B 碰碰胡 2 on C's discard: only C pays (R5); B 2
        {"A": 0, "B": 2, "C": -2, "D": 0},
        # 3 荒庄
        {"A": 0, "B": 0, "C": 0, "D": 0},
        # 4 D 自摸 七对 2 × 清一色 2 = 4: A, B, C pay 4; D 12
        {"A": -4, "B": -4, "C": -4, "D": 12},
        # 5 荒庄 (A's 暗杠 scores nothing: no winner, R4)
        {"A": 0, "B": 0, "C": 0, "D": 0},
        # 6 A 碰碰胡 2 × 清一色 2 = 4 + 1 kong = 5, fish 1 + 2 = 3: D pays 8
        {"A": 8, "B": 0, "C": 0, "D": -8},
        # 7 C 自摸 2 × 2 × 杠上花 2 = 8 + 2 kongs = 10 each; C 30
        {"A": -10, "B": -10, "C": 30, "D": -10},
        # 8 D 自摸 2 × 2 × 2 × 海底捞 2 = 16 + 2 kongs = 18 -> cap 16 (header), + fish 1 + 0 = 17 each; D 51
        {"A": -17, "B": -17, "C": -17, "D": 51},
        # 9 一炮多响: D pays A 屁胡 1 and B 碰碰胡 2
        {"A": 1, "B": 2, "C": 0, "D": -3},
    ]
    assert totals(report) == [
        {"A": -1, "B": 3, "C": -1, "D": -1},
        {"A": -1, "B": 5, "C": -3, "D": -1},
        {"A": -1, "B": 5, "C": -3, "D": -1},
        {"A": -5, "B": 1, "C": -7, "D": 11},      # -1-4, 5-4, -3-4, -1+12
        {"A": -5, "B": 1, "C": -7, "D": 11},
        {"A": 3, "B": 1, "C": -7, "D": 3},        # -5+8, D 11-8
        {"A": -7, "B": -9, "C": 23, "D": -7},     # 3-10, 1-10, -7+30, 3-10
        {"A": -24, "B": -26, "C": 6, "D": 44},    # -7-17, -9-17, 23-17, -7+51
        {"A": -23, "B": -24, "C": 6, "D": 41},    # -24+1, -26+2, 6, 44-3
    ]
    # R10: 1 A deals, B wins -> B; 2 B wins -> B; 3 荒庄 without kongs -> B; 4 D wins -> C;
    # 5 荒庄 with A's kong -> D; 6 A wins -> A (after D); 7 C wins -> B; 8 D wins -> C; 9 C deals.
    assert dealers(report) == ["A", "B", "B", "B", "C", "D", "A", "B", "C"]
    assert report.hands[-1].result.next_dealer == "D"  # C dealt and is not among the winners (R10)
    # B (24) pays the largest creditor D (41): 24; A (23) pays D the 17 left; A's last 6 to C.
    assert transfers(report) == [("B", "D", 24), ("A", "D", 17), ("A", "C", 6)]


# --- header, dealer, stops ---------------------------------------------------------------------------


WUHAN_HEADER = "region: wuhan\nplayers: [A, B, C, D]\n"


def test_header_options_merge_and_the_hand_overrides() -> None:
    # Header cap 100; hand 1 keeps it: 2^(3+4)=128 -> 100 (H5).  Hand 2 sets cap 200 (its own key wins):
    # 2^(3+4)=128 stays.  Winner D self-draws both; others have fans 3, 1, 1.
    text = (WUHAN_HEADER + "options: {cap: 100}\n---\ndealer: A\nfans: {A: 3, B: 1, C: 1, D: 4}\n"
            "win: {winner: D, by: self_draw}\n---\noptions: {cap: 200}\nfans: {A: 3, B: 1, C: 1, D: 4}\n"
            "win: {winner: D, by: self_draw}\n")
    report = session_text(text)
    # A 2^(3+4)=128 -> 100; B, C 2^(1+4)=32
    assert nets(report)[0] == {"A": -100, "B": -32, "C": -32, "D": 164}
    assert nets(report)[1] == {"A": -128, "B": -32, "C": -32, "D": 192}
    assert dealers(report) == ["A", "B"]  # A lost -> B (H10)


@pytest.mark.parametrize("header", [True, False])
def test_a_hand_of_another_region_stops_the_session(header: bool) -> None:
    # One table plays one rule set: a Rushan hand in a Wuhan session (header or first hand) is bad,
    # not added to 番 totals (new-user trial: it was settled and added).  Hand 1: A 2^(1+2)=8, B 4, C 8.
    first = "fans: {A: 1, B: 0, C: 1, D: 2}\nwin: {winner: D, by: self_draw}\n"
    rushan = "---\nregion: 乳山\nplayers: [A, B, C, D]\nwin: {winner: B, by: self_draw}\n"
    text = (WUHAN_HEADER + "---\ndealer: A\n" if header else
            "region: 武汉\nplayers: [A, B, C, D]\ndealer: A\n") + first + rushan
    report = session_text(text)
    assert report.totals == {"A": -8, "B": -4, "C": -8, "D": 20}
    assert [p.path for p in report.problems] == [("region",)]
    assert "played under wuhan; this hand is rushan" in report.problems[0].message


def test_a_bad_header_value_points_at_the_header_line() -> None:
    # The header's `cap: 'x'` (line 3) is refused in the first hand that uses it; the problem points
    # at line 3 and says it came from the header (many-hand audit: it pointed at the hand's line).
    text = WUHAN_HEADER + "options: {cap: 'x'}\n---\nid: d1\ndealer: A\nwin: {winner: B, by: self_draw}\n"
    report = session_text(text)
    [problem] = report.problems
    assert (problem.path, problem.line, problem.hand) == (("options", "cap"), 3, "d1")
    assert problem.message.endswith("(from the session header)")


def test_caps_out_of_order_in_the_header_point_at_the_header() -> None:
    # Header cap 600 > golden 500 (G13), on line 3; the hand sets no options of its own.
    text = WUHAN_HEADER + "options: {cap: 600}\n---\nid: d1\ndealer: A\nwin: {winner: B, by: self_draw}\n"
    [problem] = session_text(text).problems
    assert (problem.path, problem.line) == (("options",), 3) and "(from the session header)" in problem.message


def test_first_hand_must_state_the_dealer() -> None:
    report = session_text(WUHAN_HEADER + "---\ndraw: true\n---\ndraw: true\n")
    assert report.bad and not report.hands
    assert [p.path for p in report.problems] == [("dealer",)]
    assert "first hand" in report.problems[0].message
    assert report.stopped is not None and "1 later document" in report.stopped


def test_rotation_to_a_player_who_left_the_seats_is_an_error_naming_dealer() -> None:
    # A deals and loses -> B would deal (H10), but hand 2 seats E instead of B.  No header: with one,
    # E would not be at the table at all (issue 16 #1, tests/test_session_details.py).
    text = ("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nfans: {A: 0, B: 0, C: 0, D: 0}\n"
            "win: {winner: D, by: self_draw}\n---\nregion: wuhan\nplayers: [A, E, C, D]\ndraw: true\n")
    report = session_text(text)
    assert len(report.hands) == 1
    assert [p.path for p in report.problems] == [("dealer",)]
    assert "rotation gives B" in report.problems[0].message


def test_stated_dealer_differing_from_rotation_is_used_and_flagged() -> None:
    # Hand 1: A deals, D wins -> rotation gives B (H10).  Hand 2 states C: settled with C dealing,
    # which matters for a small hand: C's 庄家 fan (H2).  Facts: D 开口 1 + 自摸 1 = 2; C 庄家 1;
    # A, B 0 -> A 2^(0+2)=4, B 4, C 2^(1+2)=8; D +16.
    hand2 = "dealer: C\nplayers: {A: {}, B: {}, C: {}, D: {opens: 1}}\nwin: {winner: D, by: self_draw}\n"
    text = WUHAN_HEADER + "---\ndealer: A\nwin: {winner: D, by: self_draw}\nfans: {A: 0, B: 0, C: 0, D: 0}\n"
    report = session_text(text + "---\n" + hand2)
    assert dealers(report) == ["A", "C"]
    assert report.hands[1].rotation == "B" and report.hands[1].rotation_differs
    assert nets(report)[1] == {"A": -4, "B": -4, "C": -8, "D": 16}
    assert len(report.warnings) == 1 and "rotation gives B" in report.warnings[0]
    out = json.loads(settle_cli("session", "-", "--format", "json", stdin=text + "---\n" + hand2).stdout)
    assert out["warnings"] == [w.replace("s.yaml", "<stdin>") for w in report.warnings]
    assert out["hands"][1]["dealer"] == "C" and out["hands"][1]["rotation_dealer"] == "B"


def test_a_bad_hand_stops_the_running_totals() -> None:
    # Hand 1 fine (D +20, as in the Wuhan fixture), hand 2 names a player who is not at the table,
    # hand 3 would be fine but its dealer depends on hand 2.
    good = "fans: {A: 1, B: 0, C: 1, D: 2}\nwin: {winner: D, by: self_draw}\n"
    text = WUHAN_HEADER + "---\ndealer: A\n" + good + "---\nid: two\nwin: {winner: E, by: self_draw}\n---\n" + good
    report = session_text(text)
    assert [h.label for h in report.hands] == ["s.yaml:2"]  # file:index counts the header document too
    assert report.totals == {"A": -8, "B": -4, "C": -8, "D": 20}
    assert [(p.hand, p.path) for p in report.problems] == [("two", ("win", "winner"))]
    assert report.stopped is not None and "after hand s.yaml:2" in report.stopped and "1 later" in report.stopped
    result = settle_cli("session", "-", stdin=text)
    assert result.returncode == 2
    assert "hand two" in result.stderr and "stopped" in result.stderr
    # The settle-up covers the hands counted: A 8 and C 8 (ties: seat order), then B 4, all to D.
    assert "A pays D 8" in result.stdout and "C pays D 8" in result.stdout and "B pays D 4" in result.stdout


def test_hands_after_an_abandon_are_reported_not_counted() -> None:
    text = WUHAN_HEADER + "---\ndealer: A\nabandon: {by: C}\n---\ndraw: true\n"
    report = session_text(text)
    assert report.forfeits == {"C": 400}  # H9 default penalty, escape_paid_to: none
    assert report.totals == {"A": 0, "B": 0, "C": -400, "D": 0}
    assert report.settle_up == []  # after the forfeit, nobody owes anybody
    assert report.bad and "ended" in report.problems[0].message


def test_escape_paid_to_others_is_ordinary_transfers() -> None:
    # H9 with escape_paid_to: others: B's 400 split 134 (C, after B), 133 (D), 133 (A).
    text = WUHAN_HEADER + "options: {escape_paid_to: others}\n---\ndealer: A\nabandon: {by: B}\n"
    report = session_text(text)
    assert report.totals == {"A": 133, "B": -400, "C": 134, "D": 133}
    assert not report.forfeits
    assert transfers(report) == [("B", "C", 134), ("B", "A", 133), ("B", "D", 133)]


# --- the settle-up -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_settle_up_clears_every_total_in_at_most_n_minus_1(seed: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(rng.randint(2, 6))]
    balances = {n: rng.randint(-500, 500) for n in names[:-1]}
    balances[names[-1]] = -sum(balances.values())
    payments = settle_up(balances)
    left = dict(balances)
    for p in payments:
        assert p.amount > 0 and p.payer != p.payee
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    assert all(v == 0 for v in left.values())
    assert len(payments) <= len(names) - 1


def most_zero_sum_blocks(balances: dict[str, int]) -> int:
    """Brute force over every way to split the players into blocks summing to zero (first player's
    block tried with every subset of the rest): the most blocks."""
    names = [n for n, v in balances.items() if v]
    if not names:
        return 0
    first, rest = names[0], names[1:]
    most = 0
    for size in range(len(rest) + 1):
        for others in itertools.combinations(rest, size):
            if balances[first] + sum(balances[n] for n in others) == 0:
                left = {n: balances[n] for n in rest if n not in others}
                most = max(most, 1 + most_zero_sum_blocks(left))
    return most


@pytest.mark.parametrize("seed", range(300))
def test_settle_up_is_the_fewest_transfers(seed: int) -> None:
    # n players with a balance need n − (most zero-sum blocks) transfers, and no fewer.  Small
    # balances so that zero-sum blocks are common; up to 7 players (changing line-ups).
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(rng.randint(2, 7))]
    balances = {n: rng.randint(-6, 6) for n in names[:-1]}
    balances[names[-1]] = -sum(balances.values())
    fewest = sum(1 for v in balances.values() if v) - most_zero_sum_blocks(balances)
    assert len(settle_up(balances)) == fewest


def test_settle_up_finds_zero_sum_groups_with_five_players() -> None:
    # Regression (many-hand audit): A+4 B+3 C-3 D-2 E-2 split into {B, C} and {A, D, E}: 3 transfers
    # (C pays B 3, D pays A 2, E pays A 2), where paying the largest first took 4.
    payments = settle_up({"A": 4, "B": 3, "C": -3, "D": -2, "E": -2})
    assert [str(p) for p in payments] == ["D pays A 2", "E pays A 2", "C pays B 3"]


def test_settle_up_refuses_unbalanced_totals() -> None:
    with pytest.raises(ValueError):
        settle_up({"A": 10, "B": -5})


# --- the command ---------------------------------------------------------------------------------------


def test_session_command_table_and_exit_status() -> None:
    result = settle_cli("session", str(SESSIONS / "wuhan.yaml"))
    assert result.returncode == 0, result.stderr
    assert "B forfeits 400" in result.stdout
    assert "D pays B 402" in result.stdout and "A pays B 284" in result.stdout and "C pays B 188" in result.stdout
    assert "Running totals" in result.stdout


def test_session_settle_up_is_a_markdown_list_and_chinese_with_lang_zh() -> None:
    # Markdown: one list item per payment (indented lines ran together into one paragraph).
    markdown = settle_cli("session", str(SESSIONS / "wuhan.yaml"), "--format", "markdown").stdout
    assert "- B forfeits 400" in markdown and "- D pays B 402" in markdown
    chinese = settle_cli("session", str(SESSIONS / "wuhan.yaml"), "--lang", "zh").stdout
    assert "B 罚 400" in chinese and "D 付给 B 402" in chinese and "pays" not in chinese
    assert "牌局结束：B 在第 w9 局逃跑（H9）" in chinese and "game over" not in chinese
    # The hands table: w1 D self-draws, w2 B wins on C's discard, w3 荒庄, w9 B leaves (fixture).
    # Wuhan's word for the discarder is 放冲, as settle hand says it (issue 16 #3)
    assert "9 局" in chinese and "D 自摸" in chinese and "B 胡，C 放冲" in chinese and "荒庄" in chinese
    assert "B 逃跑" in chinese


def test_session_notes_in_chinese() -> None:
    # Hand 2 states dealer C where the rotation gives B (A dealt and lost, H10); hand 3 names a winner
    # who is not playing, so the totals stop after hand 2 and one later document is not settled.
    good = "fans: {A: 1, B: 0, C: 1, D: 2}\nwin: {winner: D, by: self_draw}\n"
    text = (WUHAN_HEADER + "---\nid: h1\ndealer: A\n" + good + "---\nid: h2\ndealer: C\n" + good
            + "---\nid: h3\nwin: {winner: E, by: self_draw}\n---\ndraw: true\n")
    out = settle_cli("session", "-", "--lang", "zh", stdin=text).stdout
    assert "注意：第 h2 局：写明庄家 C，轮庄应为 B（H10）；按 C 结算" in out
    assert "停止：第 h3 局无法结算：累计停在第 h2 局之后（之后每局的庄家都由它而定）；后面 1 份未结算" in out


def test_session_command_json_and_csv() -> None:
    out: dict[str, Any] = json.loads(settle_cli("session", str(SESSIONS / "wuxue.yaml"), "-f", "json").stdout)
    assert out["totals"] == {"A": 8, "B": 76, "C": -44, "D": -40}
    assert out["settle_up"] == [{"from": "C", "to": "B", "amount": 44}, {"from": "D", "to": "B", "amount": 32},
                                {"from": "D", "to": "A", "amount": 8}]
    assert [h["totals"]["B"] for h in out["hands"]] == [20, 20, 20, 0, -4, 86, 84, 76]
    assert out["errors"] == [] and out["stopped"] is None
    csv_text = settle_cli("session", str(SESSIONS / "rushan.yaml"), "-f", "csv").stdout
    rows = csv_text.splitlines()  # one table (issue 16 #4): a row per hand and player, 9 hands of 4
    assert rows[0].startswith("hand,id,region,unit,seat,player,roles,score,net,total,") and len(rows) == 1 + 9 * 4
    # hand 9, 一炮多响: A 屁胡 1 and B 碰碰胡 2 on D's discard; totals -24+1 and 44-3 (see the Rushan test)
    assert rows[-4] == "9,r9,rushan,分,1,A,winner,1,1,-23,A;B,discard,D,C,,,"
    assert rows[-1] == "9,r9,rushan,分,4,D,discarder,,-3,41,A;B,discard,D,C,,,"


def test_session_from_json_lines_on_stdin() -> None:
    docs = list(yaml.safe_load_all((SESSIONS / "wuxue.yaml").read_text(encoding="utf-8")))
    text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
    out = json.loads(settle_cli("session", "-", "-f", "json", stdin=text).stdout)
    assert out["totals"] == {"A": 8, "B": 76, "C": -44, "D": -40}  # as from the YAML file


def test_a_session_stopped_at_its_first_hand_says_no_hand_was_settled() -> None:
    # Regression (new-user trial): an empty session file said "Settle-up so far (up to hand none only ...)".
    result = settle_cli("session", "-", stdin="")
    assert result.returncode == 2
    assert "no hand settled" in result.stdout and "hand none" not in result.stdout
