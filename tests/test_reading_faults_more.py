"""Issue 15, more reading faults found after the first round (each failed before its fix):

* item 1: a YAML syntax error in one item of a list document lost every later item;
* item 2: U+0085, U+2028 or U+2029 outside quotes (a comment) made libyaml see a ``---`` the
  reader cannot see, and a phantom hand; outside quotes such a character now refuses its document;
* a player's name holding U+2028, U+2029 or a C1 control character (U+0080-U+009F) was accepted,
  and shown as a line break in every table (the model refuses control characters, G12 names);
* #16: a key that is not text showed as Python writes it (``players.None``, ``players.True``) and a
  date as a name as ``not _WrittenDate``;
* an over-long (refused) ``id`` was echoed whole on every line of its bad hand.

Each good hand is checked by its label (``id``) and start line, each bad one by label, line and
message, all worked out by hand from the small inputs below (lines as an editor counts them).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from settle import HandError, settle_hand
from settle.cli import _register_commands, app
from settle.errors import Problem, shown_label
from settle.loader import Document, iter_documents

runner = CliRunner()
_register_commands()

GOOD = ("  region: wuhan\n  players: [A, B, C, D]\n  dealer: C\n  win: {winner: D, by: discard, from: A}\n"
        "  fans: {A: 3, B: 2, C: 3, D: 4}\n")
"""The seed's worked example (004 结算规则) as a list item's body: A -128, B -64, C -128, D +320 (H2:
2^(3+4), 2^(2+4), 2^(3+4))."""


def _read(raw: bytes, source: str = "s.yaml") -> list[Any]:
    out: list[Any] = []
    for item in iter_documents(raw, source):
        if isinstance(item, Document):
            out.append(("ok", item.label, item.lines[()]))
        else:
            assert len(item.problems) == 1, item.problems
            problem = item.problems[0]
            out.append(("bad", problem.hand, problem.line, problem.message))
    return out


UNCLOSED = "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line {})"


def test_a_syntax_error_in_a_list_item_keeps_the_later_items() -> None:
    """Item 1: item 2 (lines 7-8) opens ``[`` and never closes it; libyaml stops at line 8 column 10
    (``players:`` of the same item), and reading resumes at the next ``- `` in column 1 (line 9)."""
    raw = ("- id: one\n" + GOOD + "- region: [unclosed\n  players: [A, B, C, D]\n- id: three\n" + GOOD).encode()
    assert _read(raw) == [("ok", "one", 1), ("bad", "s.yaml:2", 8, UNCLOSED.format(7)), ("ok", "three", 9)]


def test_an_error_on_an_items_own_line_is_reported_once() -> None:
    """Item 1: ``- ]`` (line 7) fails before its item has begun; the next item (line 8) fails too,
    and the fourth (line 9) settles, then a second list document (line 15): four hands, two bad,
    each bad one reported once."""
    raw = ("- id: one\n" + GOOD + "- ]\n- region: [unclosed\n- id: four\n" + GOOD + "---\n- id: five\n" + GOOD).encode()
    assert _read(raw) == [
        ("ok", "one", 1),
        ("bad", "s.yaml:2", 7, "YAML syntax error: did not find expected node content"),
        ("bad", "s.yaml:3", 9, UNCLOSED.format(8)),
        ("ok", "four", 9),
        ("ok", "five", 16),
    ]


def test_an_indented_list_resumes_at_its_own_items() -> None:
    """Item 1: the list's ``-`` in column 3 (after ``---``, line 1): item 1 on lines 2-7, item 2 opens
    ``[`` on line 8 and libyaml stops on line 9, which is item 3's first line: it settles."""
    body = "".join("  " + line + "\n" for line in GOOD.splitlines())
    raw = ("---\n  - id: one\n" + body + "  - region: [x\n  - id: three\n" + body).encode()
    assert _read(raw) == [
        ("ok", "one", 2), ("bad", "s.yaml:2", 9, UNCLOSED.format(8)), ("ok", "three", 9),
    ]


@pytest.mark.parametrize(("char", "name"), [("\u2028", "line separator"), ("\u2029", "paragraph separator"),
                                            ("\x85", "next line")])
def test_a_line_break_only_yaml_sees_refuses_its_document(char: str, name: str) -> None:
    """Item 2: ``# note <U+2028>--- x`` on line 9 is one comment line to an editor, but libyaml saw a
    document start there and read a phantom hand ``x``; now hand 2 is refused at line 9 column 8
    (after ``# note ``) and hand 3 settles."""
    hand = GOOD.replace("  ", "")
    raw = (f"id: one\n{hand}---\nid: two\n# note {char}--- x\n{hand}---\nid: three\n{hand}").encode()
    code = f"U+{ord(char):04X}"
    message = (f"character {code} ({name}) outside quotes: YAML reads it as a line break, an editor shows "
               "none; remove it, or put the text in quotes")
    assert _read(raw) == [("ok", "one", 1), ("bad", "s.yaml:2", 9, message), ("ok", "three", 16)]
    bad = next(i for i in iter_documents(raw, "s.yaml") if isinstance(i, HandError)).problems[0]
    assert (bad.line, bad.column, bad.kind) == (9, 8, "yaml_unquoted_break")


def test_a_line_separator_inside_quotes_is_only_text() -> None:
    """Item 2: inside quotes U+2028 is a character of the string, as before (the id keeps it)."""
    raw = ('id: "a\u2028b"\n' + GOOD.replace("  ", "")).encode()
    assert _read(raw) == [("ok", "a\u2028b", 1)]


def test_the_refusal_is_worded_in_chinese() -> None:
    """Issue 16 #9: the same problem from the Chinese catalog, by its kind and values."""
    done = runner.invoke(app, ["batch", "-", "--format", "jsonl", "--lang", "zh"],
                         input=("# c\u2028x\n" + GOOD.replace("  ", "")).encode())
    assert done.exit_code == 2
    assert ("字符 U+2028（行分隔符）在引号外：YAML 把它当作换行，编辑器里却不换行；请删掉它，或把这段文字放进引号"
            in done.stderr)


@pytest.mark.parametrize("name", ["B\u2028x", "B\u2029x", "x\x85B", "B\x9f"])
def test_a_name_with_a_line_break_or_a_c1_control_is_refused(name: str) -> None:
    """A name holding U+2028, U+2029 or a C1 control character breaks every table's line: refused at
    ``players`` like the C0 control characters (``string_pattern_mismatch``).  (At either end of a
    name U+0085 and U+2029 are spaces to Python and trimmed, as other spaces are.)"""
    with pytest.raises(HandError) as caught:
        settle_hand({"region": "wuhan", "players": ["A", name, "C", "D"], "dealer": "C",
                     "win": {"winner": "D", "by": "discard", "from": "A"}, "fans": {"A": 3, "C": 3, "D": 4}})
    kinds = {(p.path[:1], p.kind) for p in caught.value.problems}
    assert (("players",), "string_pattern_mismatch") in kinds


def _hand_with_keys(keys: str) -> bytes:
    return f"region: wuhan\nplayers: {keys}\ndealer: C\nwin: {{winner: D, by: discard, from: A}}\n".encode()


def test_keys_that_are_not_text_are_shown_as_written() -> None:
    """#16: ``~`` is ``players.null``, ``true`` is ``players.true``, a date ``players.2001-01-01`` with
    the date as written in the message, never ``None``, ``True`` or ``_WrittenDate``."""
    done = runner.invoke(app, ["hand", "-"], input=_hand_with_keys("{A: {}, ~: {}, true: {}, 2001-01-01: {}}"))
    assert done.exit_code == 2
    lines = done.stderr.splitlines()
    assert "error: <stdin>:2:1: players.null: a player's name is empty (null)" in lines
    # columns: ``players: {`` is 10 characters, ``A: {}, `` 7 and ``~: {}, `` 7: true at 25, the date at
    # 25 + len("true: {}, ") = 35; the ``~`` key has no line of its own recorded (the mapping's, 2:1)
    assert ("error: <stdin>:2:25: players.true: a player's name must be text, not the yes/no value true; "
            "quote it") in lines
    assert ("error: <stdin>:2:35: players.2001-01-01: a player's name must be text, not 2001-01-01; "
            "quote it ('2001-01-01')") in lines
    assert "None" not in done.stderr and "True" not in done.stderr and "_Written" not in done.stderr


def test_a_date_in_a_list_of_players_is_shown_as_written() -> None:
    """#16: the list form, ``players[1]`` (0-based entry 1, the second name)."""
    done = runner.invoke(app, ["hand", "-"], input=_hand_with_keys("[A, 2001-01-01, C, D]"))
    assert done.exit_code == 2
    assert ("error: <stdin>:2:1: players[1]: a player's name must be text, not 2001-01-01; quote it "
            "('2001-01-01')") in done.stderr.splitlines()


def test_an_over_long_refused_id_is_shown_shortened() -> None:
    """A 5,000-character id (the limit is 200) is refused; each message shows its first 60 characters
    and ``…[5000]``, while the JSON error record keeps the id whole (data, not a message)."""
    ident = "x" * 5000
    line = json.dumps({"id": ident, "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
                       "win": {"winner": "D", "by": "discard", "from": "Q"}})
    done = runner.invoke(app, ["batch", "-", "--input-format", "jsonl", "--format", "jsonl"], input=line + "\n")
    assert done.exit_code == 2
    errors = [e for e in done.stderr.splitlines() if e.startswith("error: ")]
    assert len(errors) >= 2  # the id and win.from, every problem at once
    assert all(f"hand {'x' * 60}…[5000]: " in e and len(e) < 300 for e in errors)
    record = json.loads(done.stdout.splitlines()[0])
    assert record["id"] == ident


@pytest.mark.parametrize(("label", "shown"), [("a" * 200, "a" * 200), ("b" * 201, "b" * 60 + "…[201]"),
                                              ("s.yaml:3", "s.yaml:3")])
def test_shown_label_keeps_every_id_that_can_be_valid(label: str, shown: str) -> None:
    """Ids up to the 200-character limit are shown whole; only a longer (refused) one is shortened."""
    assert shown_label(label) == shown
    assert str(Problem(("id",), "m", hand=label)) == f"hand {shown}: id: m"


def test_a_document_that_is_a_date_is_described_as_one() -> None:
    """#16: items of a list that are a date and a timestamp: ``found a date (2001-12-14)`` and ``found a
    timestamp (2001-12-14 10:00:00)``, as written, never ``a _WrittenDate``."""
    found = [p.message for item in iter_documents(b"- 2001-12-14\n- 2001-12-14 10:00:00\n", "s.yaml")
             if isinstance(item, HandError) for p in item.problems]
    expected = "expected a hand (a mapping with region, players, ...), found a "
    assert found == [expected + "date (2001-12-14)", expected + "timestamp (2001-12-14 10:00:00)"]
