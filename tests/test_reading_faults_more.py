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


# -- a refused character in one item of a list document refuses that item only (tester's finding)

FLOW = ("region: wuhan, players: [A, B, C, D], dealer: C, win: {winner: D, by: discard, from: A}, "
        "fans: {A: 3, B: 2, C: 3, D: 4}")
"""The worked example (004 结算规则) as a flow mapping's body: A -128, B -64, C -128, D +320."""

_REFUSED = {
    "control": (b"\x01", "character U+0001 is not allowed in YAML (control characters are not allowed)"),
    "nul": (b"\x00", "character U+0000 is not allowed in YAML (control characters are not allowed)"),
    "not_utf8": (b"\xff", "file is not valid UTF-8: byte 0xff"),
    "utf16": ("x".encode("utf-16-le"), "character U+0000 is not allowed in YAML (control characters are not allowed)"),
    "line_separator": ("\u2028".encode(), "character U+2028 (line separator) outside quotes: YAML reads it as a line "
                                          "break, an editor shows none; remove it, or put the text in quotes"),
}


@pytest.mark.parametrize("bad", list(_REFUSED))
@pytest.mark.parametrize("where", [0, 1, 2])
def test_a_refused_character_in_a_list_item_loses_no_other_item(bad: str, where: int) -> None:
    """Three one-line items ``- {id: iK, ...}``; item ``where`` ends in ``# c`` and the refused bytes.
    Before, the whole list was one bad hand (``s.yaml:1``) and both good items were lost; now only
    that item is bad, labelled by its position (``s.yaml:{where+1}``), at its own line (the item's
    number) and the column after ``- {id: iK, `` + body + ``} # c`` (1-based)."""
    raw_bad, message = _REFUSED[bad]
    items = [f"- {{id: i{k}, {FLOW}}}\n".encode() for k in range(3)]
    items[where] = items[where][:-1] + b" # c" + raw_bad + b"\n"
    column = len(f"- {{id: i{where}, {FLOW}}} # c") + 1 + (bad == "utf16")  # UTF-16 'x' is x, then NUL
    expected: list[Any] = [("ok", f"i{k}", k + 1) for k in range(3)]
    expected[where] = ("bad", f"s.yaml:{where + 1}", where + 1, message)
    assert _read(b"".join(items)) == expected
    bad_item = next(i for i in iter_documents(b"".join(items), "s.yaml") if isinstance(i, HandError))
    assert bad_item.problems[0].column == column


def test_a_refused_first_item_keeps_the_rest_of_its_list_and_the_next_document() -> None:
    """A block list after ``---``: U+0001 on item 1's first line (line 2, column 10 after ``- id: one``);
    item 2 (line 8) and the next document's item (line 15) settle."""
    raw = (b"---\n- id: one\x01\n" + GOOD.encode() + b"- id: two\n" + GOOD.encode() + b"---\n- id: three\n"
           + GOOD.encode())
    assert _read(raw) == [
        ("bad", "s.yaml:1", 2, _REFUSED["control"][1]), ("ok", "two", 8), ("ok", "three", 15),
    ]


def test_two_refused_items_and_an_indented_list() -> None:
    """Items 2 and 4 of five refused (U+0001, U+0002 in their ids); an indented list (``-`` in column
    3) with U+007F in item 2 (line 8, column 12 after ``  - id: two``): the other items settle."""
    items = [f"- {{id: i{k}, {FLOW}}}\n" for k in range(5)]
    items[1], items[3] = items[1].replace("i1", "i\x01"), items[3].replace("i3", "i\x02")
    found = _read("".join(items).encode())
    assert [f[:3] for f in found] == [("ok", "i0", 1), ("bad", "s.yaml:2", 2), ("ok", "i2", 3),
                                      ("bad", "s.yaml:4", 4), ("ok", "i4", 5)]
    body = "".join("  " + line + "\n" for line in GOOD.splitlines())
    raw = ("---\n  - id: one\n" + body + "  - id: two\x7f\n" + body + "  - id: three\n" + body).encode()
    assert _read(raw) == [
        ("ok", "one", 2),
        ("bad", "s.yaml:2", 8, "character U+007F is not allowed in YAML (control characters are not allowed)"),
        ("ok", "three", 14),
    ]


def test_an_unclosed_quote_in_a_list_item_keeps_the_later_items() -> None:
    """Item 2 (lines 7-8) opens ``'A`` and never closes it: libyaml reads on to the end of the stream
    (line 15, column 1, after the last line break) and used to lose item 3; reading resumes at the
    first item after the quote's line (line 9) and item 3 settles."""
    raw = ("- id: one\n" + GOOD + "- id: two\n  dealer: 'A\n- id: three\n" + GOOD).encode()
    assert _read(raw) == [
        ("ok", "one", 1),
        ("bad", "s.yaml:2", 15,
         "YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at line 8)"),
        ("ok", "three", 9),
    ]


def test_the_batch_reproducer_settles_the_good_items(tmp_path: Any) -> None:
    """The tester's reproducer: three flow-mapping items, ``"A\\x01"`` in item 2: ``1 of 3 hands bad;
    2 settled`` and two JSON lines with nets, exit 2."""
    source = tmp_path / "list.yaml"
    items = [f"- {{id: i{k}, {FLOW}}}\n" for k in range(3)]
    items[1] = items[1].replace("dealer: C", 'dealer: C, note: "A\x01"')
    source.write_bytes("".join(items).encode())
    done = runner.invoke(app, ["batch", str(source), "-f", "jsonl"])
    assert done.exit_code == 2
    assert done.stdout.count('"net"') == 2
    assert done.stderr.splitlines()[-1] == "1 of 3 hands bad; 2 settled"


# -- values in messages as YAML writes them, never Python's escapes or inf/nan (tester's finding)

def test_invisible_characters_and_infinities_are_shown_as_yaml_writes_them() -> None:
    """A name with U+0001 is refused and shown ``"A\\x01B"`` (YAML's double-quoted escape, which reads
    back as the same name), never Python's ``'A\\x01B'``; ``.inf`` and ``.nan`` as written, never
    ``inf``/``nan``; a player named U+FEFF + ``A`` is listed as ``"\\ufeffA"``, so ``'A' is not one of
    the players`` no longer shows a list that looks like it holds A."""
    hand = ('region: wuhan\nplayers: ["A\\x01B", B, C, D]\ndealer: C\nwin: {winner: D, by: discard, from: B}\n'
            "fans: {B: .inf, C: .nan, D: 4}\n")
    lines = runner.invoke(app, ["hand", "-"], input=hand).stderr.splitlines()
    assert ('error: <stdin>:2:1: players: must not contain control characters (tabs, line breaks), '
            'not "A\\x01B"') in lines
    assert "error: <stdin>:5:8: fans.B: must be a whole number, not .inf" in lines
    assert "error: <stdin>:5:17: fans.C: must be a whole number, not .nan" in lines
    hand = ('region: wuhan\nplayers: ["\\ufeffA", B, C, D]\ndealer: C\nwin: {winner: D, by: discard, from: A}\n'
            "fans: {B: 2, C: 3, D: 4}\n")
    lines = runner.invoke(app, ["hand", "-"], input=hand).stderr.splitlines()
    assert "error: <stdin>:4:31: win.from: 'A' is not one of the players (\"\\ufeffA\", B, C, D)" in lines
    lines = runner.invoke(app, ["hand", "-", "--lang", "zh"],
                          input=hand.replace("from: A", 'from: "A\\u200d"')).stderr.splitlines()
    assert 'error: <stdin>:4:31: win.from: "A\\u200d" 不是本局的玩家（"\\ufeffA", B, C, D）' in lines


def test_an_id_with_a_control_character_is_refused_and_shown_escaped() -> None:
    """Issue 15 #17 for the ``id``: ``"x\\nerror: other.yaml:1:1: forged \\e[2J"`` wrote a second line
    that looks like settle's own error, and an escape sequence that clears the screen.  The id is
    refused like a name (no control character), and the hand's label on every line is in YAML's
    double quotes with the escapes, so stderr has exactly one line per problem plus the summary."""
    hand = ('id: "x\\nerror: other.yaml:1:1: forged \\e[2J"\nregion: wuhan\nplayers: [A, B, C, D]\n'
            "dealer: C\ndraw: true\n")
    done = runner.invoke(app, ["batch", "-", "--format", "jsonl"], input=hand.encode())
    assert done.exit_code == 2
    lines = done.stderr.splitlines()
    label = '"x\\nerror: other.yaml:1:1: forged \\x1b[2J"'
    assert len(lines) == 2 and lines[-1] == "1 of 1 hand bad; 0 settled"
    assert lines[0].startswith(f"error: <stdin>:1:1: hand {label}: id: must not contain control characters")
    assert "\x1b" not in done.stderr and "\x1b" not in done.stdout


def test_bare_documents_after_a_document_end_are_read() -> None:
    """Three hands separated by ``...`` lines (document end) and no ``---``, as YAML 1.2 allows:
    libyaml refused the second ("did not find expected <document start>") and the third was neither
    settled nor counted; now all three are read, each at its own first line (a hand is 6 lines, then
    its ``...``: 1, 8, 15).  A ``...`` before ``---`` is left alone (hand 4 after ``---`` on line 22: 23)."""
    hand = GOOD.replace("  ", "")
    raw = (f"id: one\n{hand}...\nid: two\n{hand}...\nid: three\n{hand}...\n---\nid: four\n{hand}").encode()
    assert _read(raw) == [("ok", "one", 1), ("ok", "two", 8), ("ok", "three", 15), ("ok", "four", 23)]


def test_a_list_as_a_name_is_not_told_to_be_quoted() -> None:
    """``players: [A, B, C, [D]]``: the fourth name is a list; the message no longer advises
    "quote it ('a list of 1 item')", which would make a player of that phrase."""
    hand = "region: wuhan\nplayers: [A, B, C, [D]]\ndealer: C\ndraw: true\n"
    assert runner.invoke(app, ["hand", "-"], input=hand).stderr.splitlines() == [
        "error: <stdin>:2:1: players[3]: a player's name must be text, not a list of 1 item"]
    assert runner.invoke(app, ["hand", "-", "--lang", "zh"], input=hand).stderr.splitlines() == [
        "error: <stdin>:2:1: players[3]: 玩家的名字必须是文字，不是有 1 项的列表"]


def test_a_byte_order_mark_at_a_document_start_is_skipped_and_elsewhere_at_a_line_start_refused() -> None:
    """Files joined by ``cat``, each with its own BOM: one right after a ``---`` line starts its
    document (YAML 1.2) and the hand settles (before: "region missing" and a phantom hand).  A BOM
    at the start of another line (libyaml begins a new stream there) refuses its document, at that
    line, column 1; one within a line is only a character (``note`` is then the unknown key)."""
    hand = GOOD.replace("  ", "")
    raw = f"id: one\n{hand}---\n\ufeffid: two\n{hand}---\nid: three\n\ufeff{hand}---\nid: four\nnote: x\ufeff\n{hand}"
    found = _read(raw.encode())
    assert found[:2] == [("ok", "one", 1), ("ok", "two", 8)]
    assert found[2] == ("bad", "s.yaml:3", 16, "a byte-order mark (U+FEFF) inside the file, outside quotes: YAML "
                        "reads it as the start of a new file, an editor shows nothing; remove it")
    assert found[3] == ("ok", "four", 22)  # hand 3: line 15 (its id), the BOM on 16, its last line 20, --- 21


@pytest.mark.parametrize("start", ["---\ufeff\n", "\ufeff---\n"])
def test_a_byte_order_mark_on_a_document_start_line_is_skipped(start: str) -> None:
    """A BOM just after or just before the ``---`` of hand 2 (files joined by cat): both hands settle
    (before, hand 1 and hand 2 were one bad hand, "could not find expected ':'")."""
    hand = GOOD.replace("  ", "")
    raw = f"id: one\n{hand}{start}id: two\n{hand}".encode()
    assert _read(raw) == [("ok", "one", 1), ("ok", "two", 8)]


def test_an_unknown_word_with_a_line_break_is_shown_escaped() -> None:
    """Found by the longer fuzz run (30,000 cases): a kong kind ``"conc\\x85ealed"`` (U+0085, which
    ends a line for ``str.splitlines``) was echoed raw in ``unknown Wuhan kong kind '...'``, so the
    stderr line split in two and the second did not start with ``error:``.  Now shown in YAML's
    double quotes, in English and in Chinese; a printable word keeps its plain quotes."""
    hand = 'region: wuhan\nplayers: {A: {}, B: {}, C: {kongs: {"conc\\x85ealed": 1}}, D: {}}\ndealer: C\ndraw: true\n'
    for lang, words in (("en", 'unknown Wuhan kong kind "conc\\x85ealed" (did you mean concealed?)'),
                        ("zh", '未知的词 "conc\\x85ealed"（是不是 concealed？）')):
        lines = runner.invoke(app, ["hand", "-", "--lang", lang], input=hand).stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: <stdin>:2:1: ") and words in lines[0]
    plain = hand.replace('"conc\\x85ealed"', "concealedd")
    assert "未知的词 'concealedd'" in runner.invoke(app, ["hand", "-", "--lang", "zh"], input=plain).stderr
