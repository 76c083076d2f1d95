"""``settle session`` reports every bad hand at once, not only the first.

The running totals still stop at the first bad document (the header or a hand: every later dealer
follows from it), the session still exits 2 and its standings still say "so far"; but every later
document is checked as the session would settle it (read, seated against the header, validated with
the header's keys) and its problems are reported too.  After a bad hand the dealer rotation is not
known: a later hand that states no dealer is tried with each player dealing, and is bad only when no
dealer makes it good.  Line numbers below are counted in the texts as written (1-based).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from settle.engine.session import SessionReport, run_session
from settle.loader import iter_documents

ROOT = Path(__file__).resolve().parent.parent

HEADER = "id: ev\nregion: wuhan\nplayers: [A, B, C, D]\n"
W1 = "id: w1\ndealer: A\nfans: {A: 1, B: 0, C: 1, D: 2}\nwin: {winner: D, by: self_draw}\n"
"""A good Wuhan hand: D self-draws with 2 fans; H2 2^(a+b) from each: A 2^(1+2) = 8, B 2^(0+2) = 4,
C 2^(1+2) = 8, so D +20; A deals, D wins, so the deal passes to B (H10)."""

LATER = HEADER + "---\n" + W1 + "---\nid: w2\nfans: {A: 0, B: 2, C: 1, D: 1\n---\nid: w3\ndealer: Q\ndraw: true\n"
"""The tester's F10_session_later.yaml: lines 1-3 header, 4 ``---``, 5-8 w1, 9 ``---``, 10-11 w2 (its
flow mapping never closed: YAML finds out on line 12, the ``---``, column 1), 13-15 w3 (``dealer: Q`` on
line 14, column 1: Q is not at the table)."""

BAD_HEADER = ("id: ev\nregion: wuhan\nplayers: [A, B, C, D]\nbogus: 1\n---\n" + W1
              + "---\nid: w2\ndealer: Z\ndraw: true\n")
"""The tester's se04.yaml: ``bogus`` on line 4 of the header; w1 on lines 6-9; w2 on 11-13, ``dealer: Z``
on line 12."""


def session_text(text: str, name: str = "s.yaml") -> SessionReport:
    return run_session(iter_documents(text.encode(), name), name)


def settle_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", *args],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, check=False, timeout=120)


def where(report: SessionReport) -> list[tuple[str | None, int | None, tuple[str | int, ...], str]]:
    """Each problem's hand, line, path and kind."""
    return [(p.hand, p.line, p.path, p.kind) for p in report.problems]


def test_a_bad_hand_after_a_syntax_error_is_reported_too() -> None:
    """LATER: w1 is settled (-8, -4, -8, +20); w2 cannot be read (it stops the totals after w1); w3 states
    dealer Q, who is not one of A, B, C, D: both bad hands are reported, in file order.  w2 has no id that
    could be read, so it is named by its place in the file: document 3 (the header is document 1)."""
    report = session_text(LATER)
    assert [h.label for h in report.hands] == ["w1"]
    assert report.totals == {"A": -8, "B": -4, "C": -8, "D": 20}
    assert where(report) == [("s.yaml:3", 12, (), "yaml_syntax"), ("w3", 14, ("dealer",), "not_a_player")]
    assert report.stop is not None
    assert report.stop.values == {"hand": "s.yaml:3", "after": "w1", "ended": False, "later": 1}


def test_the_cli_prints_every_bad_hand_and_exits_2() -> None:
    """The same session through ``settle session -``: one line per problem (``FILE:LINE:COL``, the column
    of the key on its line: 1 for both), then the stop; exit 2; the table holds w1 only and says the
    totals are "so far".  Under ``--quiet`` the count is of the two bad hands."""
    done = settle_cli("session", "-", stdin=LATER)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: <stdin>:12:1: hand <stdin>:3: YAML syntax error: did not find expected ',' or '}' "
        "(while parsing a flow mapping at line 11)",
        "error: <stdin>:14:1: hand w3: dealer: 'Q' is not one of the players (A, B, C, D)",
        "stopped: hand <stdin>:3 could not be settled: the running totals stop after hand w1, because every "
        "later dealer follows from it; 1 later document not settled",
    ]
    assert done.stdout.splitlines()[0] == "Session ev: 1 hand"
    assert "Settle-up so far (up to hand w1 only: the session stopped at a bad hand)" in done.stdout
    quiet = settle_cli("session", "-", "--quiet", stdin=LATER)
    assert (quiet.returncode, quiet.stderr) == (2, "2 bad hands; the session stopped there\n")


def test_a_bad_header_does_not_hide_a_bad_hand() -> None:
    """BAD_HEADER: ``bogus`` is refused (line 4), so nothing is counted (0 hands); the header's own keys
    still seat the table, so w1 checks good and w2's ``dealer: Z`` (line 12) is reported: Z is not one of
    A, B, C, D.  The session keeps the header's name, ev."""
    report = session_text(BAD_HEADER)
    assert report.hands == []
    assert report.name == "ev"
    assert where(report) == [("header", 4, ("bogus",), "header_key"), ("w2", 12, ("dealer",), "not_a_player")]
    done = settle_cli("session", "-", stdin=BAD_HEADER)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: <stdin>:4:1: hand header: bogus: `bogus` is not allowed in a session header (it holds only "
        "region, options, players and id); put it in the hands",
        "error: <stdin>:12:1: hand w2: dealer: 'Z' is not one of the players (A, B, C, D)",
        "stopped: the header could not be settled: the running totals stop before the first hand, because "
        "every later dealer follows from it; 2 later documents not settled",
    ]
    assert done.stdout.splitlines()[0] == "Session ev: 0 hands"


def test_after_a_bad_header_the_first_hand_must_still_state_its_dealer() -> None:
    """A bad header, then w1 without a dealer (lines 6-8): the first hand of a session must state it.
    w2 (lines 10-13) states A and settles, so the rotation is known again: w3 (``draw: true``, no dealer)
    is dealt by w2's next dealer, B (A dealt, D won: the deal passes, H10), and is good."""
    text = ("id: ev\nregion: wuhan\nplayers: [A, B, C, D]\nbogus: 1\n---\n"
            "id: w1\nfans: {A: 1, B: 0, C: 1, D: 2}\nwin: {winner: D, by: self_draw}\n---\n"
            + W1.replace("w1", "w2") + "---\nid: w3\ndraw: true\n")
    report = session_text(text)
    assert where(report) == [("header", 4, ("bogus",), "header_key"), ("w1", 6, ("dealer",), "first_dealer")]


def test_a_later_hand_without_a_dealer_is_tried_with_every_dealer() -> None:
    """The tester's se01.yaml: after w2's syntax error (lines 10-12) the rotation is not known.  w3 (a
    draw, no dealer) is good whoever deals: no problem.  w4 (no dealer) names winner Q, not at the table:
    bad under every dealer, so reported once, at ``win.winner`` (line 19, where ``winner`` is).  w5 is
    good.  Nothing after w1 is counted: totals -8, -4, -8, +20; 3 later documents not settled."""
    text = (HEADER + "---\n" + W1 + "---\nid: w2\nfans: {A: 0, B: 2, C: 1, D: 1\nwin: {winner: B, by: discard, "
            "from: C}\n---\nid: w3\ndraw: true\n---\nid: w4\nfans: {A: 3, B: 1, C: 0, D: 2}\n"
            "win: {winner: Q, by: discard, from: D}\n---\nid: w5\nfans: {A: 1, B: 1, C: 3, D: 0}\n"
            "win: {winner: C, by: self_draw}\n")
    report = session_text(text)
    assert where(report) == [("s.yaml:3", 12, (), "yaml_syntax"), ("w4", 19, ("win", "winner"), "not_a_player")]
    assert report.totals == {"A": -8, "B": -4, "C": -8, "D": 20}
    assert report.stop is not None and report.stop.values["later"] == 3


def test_an_unreadable_first_document_leaves_the_later_hands_unchecked_but_read() -> None:
    """The first document (lines 1-3) cannot be read (``region: [wuhan`` never closes): it may have been
    the header, so the later hands' checks would blame its missing keys on each of them; they are not
    checked, but a later document that cannot be read either (w2, lines 10-11) is reported."""
    text = ("id: ev\nregion: [wuhan\nplayers: [A, B, C, D]\n---\n" + W1 + "---\nid: w2\nfans: {A: 0\n---\n"
            "id: w3\ndealer: Q\ndraw: true\n")
    report = session_text(text)
    assert [(hand, line, kind) for hand, line, _, kind in where(report)] == [
        ("s.yaml:1", 3, "yaml_syntax"), ("s.yaml:3", 12, "yaml_syntax")]
    assert report.hands == []
