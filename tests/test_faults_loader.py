"""Issue 15, items 1, 2, 4, 5 and 6: in a YAML stream a bad hand never loses its neighbours.

Each test reads a small stream through :func:`settle.loader.iter_documents` and checks every
hand: the good ones by label and start line, the bad one by label, line and message (worked out
by hand: lines as an editor counts them, columns 1-based code points).
"""

from __future__ import annotations

from typing import Any

import pytest

from settle.loader import Document, iter_documents


def _read(raw: bytes) -> list[Any]:
    """``("ok", label, line)`` per good hand; ``("bad", label, line, message)`` per bad one, the message
    followed by `` [column C]`` where the problem has a column (data since issue 16 #9, not in the text)."""
    out: list[Any] = []
    for item in iter_documents(raw, "s.yaml"):
        if isinstance(item, Document):
            out.append(("ok", item.label, item.lines[()]))
        else:
            assert len(item.problems) == 1, item.problems
            problem = item.problems[0]
            column = "" if problem.column is None else f" [column {problem.column}]"
            out.append(("bad", problem.hand, problem.line, problem.message + column))
    return out


UNCLOSED = (
    "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 3) [column 1]"
)


@pytest.mark.parametrize("end", ["\r\n", "\r"], ids=["crlf", "lone-cr"])
def test_a_syntax_error_with_cr_line_ends_keeps_the_next_hand(end: str) -> None:
    """Items 1 and 2: ``---\\r`` starts a document; the third hand settles."""
    raw = end.join(["id: a", "---", "region: [unclosed", "---", "id: c", ""]).encode()
    assert _read(raw) == [("ok", "a", 1), ("bad", "s.yaml:2", 4, UNCLOSED), ("ok", "c", 5)]


@pytest.mark.parametrize("breaks", ["\u2028", "\u0085\u2029"], ids=["u2028", "u0085-u2029"])
def test_unicode_line_breaks_end_no_line_in_messages(breaks: str) -> None:
    """Item 2: U+0085, U+2028 and U+2029 inside a string do not move later line numbers."""
    raw = f'id: a\n---\na: "x{breaks}y"\nb: ]\n---\nid: c\n'.encode()
    assert _read(raw) == [
        ("ok", "a", 1),
        ("bad", "s.yaml:2", 4, "YAML syntax error: did not find expected node content [column 4]"),
        ("ok", "c", 6),
    ]


def test_a_problem_after_a_u2028_is_on_the_editors_line() -> None:
    """Item 2: the issue's example (a problem on line 3 was reported at line 4)."""
    raw = 'id: "x\u2028y"\nk: 1\nk: 2\n'.encode()
    assert _read(raw) == [("bad", "x\u2028y", 3, "duplicate key 'k' (lines 2 and 3)")]


def test_a_lone_cr_stream_keeps_line_numbers() -> None:
    """Item 2: a lone CR ends a line, for good hands' lines too."""
    raw = b"id: a\r---\rid: b\rk: 1\rk: 2\r---\rid: c\r"
    assert _read(raw) == [
        ("ok", "a", 1),
        ("bad", "b", 5, "duplicate key 'k' (lines 4 and 5)"),
        ("ok", "c", 7),
    ]


@pytest.mark.parametrize("byte", [b"\xff", b"\xc3", b"\xed\xa0\x80"], ids=["ff", "cut", "surrogate"])
def test_an_invalid_utf8_byte_refuses_only_its_document(byte: bytes) -> None:
    """Item 4: 0xFF in a comment of hand 2 of 3; hands 1 and 3 are read."""
    raw = b"id: a\n---\n# " + byte + b"\nid: b\n---\nid: c\n"
    message = f"file is not valid UTF-8: byte 0x{byte[0]:02x} [column 3]"
    assert _read(raw) == [("ok", "a", 1), ("bad", "s.yaml:2", 3, message), ("ok", "c", 6)]


def test_invalid_utf8_in_the_first_document() -> None:
    """Item 4: with no ``---`` before the bad byte, the first document is the bad one."""
    raw = b"id: \xff\n---\nid: b\n"
    assert _read(raw) == [
        ("bad", "s.yaml:1", 1, "file is not valid UTF-8: byte 0xff [column 5]"),
        ("ok", "b", 3),
    ]


def _control(code: int, line: int, column: int) -> str:
    """The message of a control character (its line is the problem's, checked beside it)."""
    return f"character U+{code:04X} is not allowed in YAML (control characters are not allowed) [column {column}]"


def test_a_control_character_refuses_only_its_document() -> None:
    """Item 6: U+007F in hand 2 (was labelled ``:1``, losing hand 1)."""
    raw = b"id: a\n---\nid: b\x7f\n---\nid: c\n"
    assert _read(raw) == [("ok", "a", 1), ("bad", "s.yaml:2", 3, _control(0x7F, 3, 6)), ("ok", "c", 5)]


def test_two_control_characters_in_two_documents() -> None:
    """Item 6: U+000B in hand 2 and U+000C in hand 3; hands 1 and 4 are read."""
    raw = b"id: a\n---\nid: b\x0b\n---\nid: c\x0c\n---\nid: d\n"
    assert _read(raw) == [
        ("ok", "a", 1),
        ("bad", "s.yaml:2", 3, _control(0x0B, 3, 6)),
        ("bad", "s.yaml:3", 5, _control(0x0C, 5, 6)),
        ("ok", "d", 7),
    ]


def test_a_control_character_in_the_last_of_many_hands() -> None:
    """Item 6: U+007F in hand 1,000: hands 1-999 all read (947-999 used to vanish)."""
    raw = "".join(f"---\nid: h{n}\n" for n in range(1, 1000)).encode() + b"---\nid: \x7f\n"
    read = _read(raw)
    assert read[:-1] == [("ok", f"h{n}", 2 * n) for n in range(1, 1000)]
    assert read[-1] == ("bad", "s.yaml:1000", 2000, _control(0x7F, 2000, 5))


def test_nesting_past_the_limit_refuses_only_its_hand() -> None:
    """Item 5: ``note: [[[…101…]]]`` in hand 2; hand 3 is read."""
    raw = b"id: a\n---\nnote: " + b"[" * 101 + b"]" * 101 + b"\n---\nid: c\n"
    assert _read(raw) == [("ok", "a", 1), ("bad", "s.yaml:2", 3, "nesting deeper than 100 levels"), ("ok", "c", 5)]


def test_a_mismatched_tag_is_a_bad_hand_not_a_bug() -> None:
    """The stream fuzzer's ``!!bool ""`` (issue 15 item 7, as far as the loader goes): a problem."""
    raw = b'id: a\n---\nid: b\nx: !!bool ""\n---\nid: c\n'
    assert _read(raw) == [
        ("ok", "a", 1),
        ("bad", "b", 4, "cannot read '' as !!bool: it is not a value of that type"),
        ("ok", "c", 6),
    ]
