"""JSON reading faults a tester found (issue 15's promise: a bad hand never loses a good one, exit 1
only for a bug), each failing before its fix:

* a ``\\ud800`` escape (half of a UTF-16 surrogate pair) in a JSON string: ``json.loads`` keeps the
  lone half, and writing any output of the hand failed with ``UnicodeEncodeError``: an internal
  error (exit 1) that lost every hand of the batch;
* JSON Lines on standard input whose first line is bad, or which starts with a byte-order mark,
  was read as YAML (one bad hand, the good lines lost).

Hands are the seed's worked example (004 结算规则): A -128, B -64, C -128, D +320 (H2).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from settle.cli import _register_commands, app
from settle.loader import Document, iter_documents

runner = CliRunner()
_register_commands()

HAND = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
        "win": {"winner": "D", "by": "discard", "from": "A"}, "fans": {"A": 3, "B": 2, "C": 3, "D": 4}}
NETS = {"A": -128, "B": -64, "C": -128, "D": 320}


def _line(ident: str, **changes: Any) -> str:
    return json.dumps({"id": ident, **HAND, **changes}, ensure_ascii=False)


def _surrogate(line: str, field: str) -> str:
    """``line`` with the JSON string ``"field"`` replaced by the escape ``"\\ud800"``."""
    return line.replace(f'"{field}"', '"\\ud800"', 1)


def _bad(raw: bytes, source: str) -> list[tuple[str, int | None, str]]:
    return [(p.hand or "", p.line, ".".join(map(str, p.path)))
            for item in iter_documents(raw, source) if not isinstance(item, Document) for p in item.problems]


@pytest.mark.parametrize(("field", "path", "label"), [("discard", "win.by", "g2"), ("g2", "id", "<stdin>:2")])
def test_a_lone_surrogate_refuses_its_line_only(field: str, path: str, label: str) -> None:
    """Line 2 holds ``"\\ud800"`` as ``win.by`` or as the ``id``: that hand is bad (named by its id, or
    by its place, ``<stdin>:2``, when the id is the broken one), lines 1 and 3 settle; before, exit 1
    and no output."""
    raw = "\n".join([_line("g1"), _surrogate(_line("g2"), field), _line("g3")]) + "\n"
    done = runner.invoke(app, ["batch", "-", "--input-format", "jsonl", "--format", "jsonl"], input=raw.encode())
    assert done.exit_code == 2
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in records if "net" in r] == ["g1", "g3"]
    assert all(r["net"] == NETS for r in records if "net" in r)
    message = ("\\ud800 is half of a UTF-16 surrogate pair, not a character: write the character itself, "
               "or both halves of its pair")
    assert any(line.startswith("error: <stdin>:2:") and line.endswith(f"hand {label}: {path}: {message}")
               for line in done.stderr.splitlines()), done.stderr
    assert _bad(raw.encode(), "s.jsonl") == [(label.replace("<stdin>", "s.jsonl"), 2, path)]


def test_a_lone_surrogate_in_a_player_key_of_a_json_array() -> None:
    """The second hand of a JSON array names a player ``"B\\udc00"``: it is bad at ``players.1`` (the
    second name of the list, line 3),
    the first settles; the message names the half (``\\udc00``); under ``--lang zh`` in Chinese."""
    bad = _line("b2").replace('"B"', '"B\\udc00"', 1)
    raw = f"[\n{_line('g1')},\n{bad}\n]\n"
    assert _bad(raw.encode(), "s.json") == [("b2", 3, "players.1")]
    done = runner.invoke(app, ["batch", "-", "--input-format", "json", "--format", "jsonl", "--lang", "zh"],
                         input=raw.encode())
    assert done.exit_code == 2
    assert "\\udc00 是 UTF-16 代理对的一半，不是字符：请直接写这个字符，或写出代理对的两半" in done.stderr


def test_both_halves_of_a_pair_are_one_character() -> None:
    """``"\\ud83d\\ude00"`` is the pair of U+1F600: the id is that character and the hand settles."""
    raw = _line("pair").replace('"pair"', '"\\ud83d\\ude00"') + "\n"
    items = list(iter_documents(raw.encode(), "s.jsonl"))
    assert len(items) == 1 and isinstance(items[0], Document) and items[0].label == "\U0001f600"


@pytest.mark.parametrize(("start", "first"), [("\ufeff", _line("g1")), ("", _line("g1")[:-1])])
def test_json_lines_on_standard_input_are_known_by_their_lines(start: str, first: str) -> None:
    """Three lines on stdin, no ``--input-format``: with a byte-order mark before a good first line, all
    three settle; with the first line's closing ``}`` missing, that line is bad (line 1) and the other
    two settle.  Before, both were read as YAML: one bad hand, no hand settled."""
    raw = start + "\n".join([first, _line("g2"), _line("g3")]) + "\n"
    done = runner.invoke(app, ["batch", "-", "--format", "jsonl"], input=raw.encode())
    settled = [json.loads(line)["id"] for line in done.stdout.splitlines() if '"net"' in line]
    if start:
        assert (done.exit_code, settled) == (0, ["g1", "g2", "g3"])
    else:
        assert (done.exit_code, settled) == (2, ["g2", "g3"])
        assert done.stderr.splitlines()[-1] == "1 of 3 hands bad; 2 settled"


def test_a_json_file_with_lone_cr_line_ends_counts_lines_as_an_editor() -> None:
    """``[`` + hand 1 + ``,`` CR hand 2 (dealer Q) + ``]`` CR: the bad dealer is on line 2 (an editor
    ends a line at a lone CR), not line 1 as JSON's own counter (``\\n`` only) had it."""
    raw = f"[{_line('g1')},\r{_line('b2', dealer='Q')}]\r"
    done = runner.invoke(app, ["batch", "-", "--input-format", "json", "--format", "jsonl"], input=raw.encode())
    assert done.exit_code == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert errors and all(line.startswith("error: <stdin>:2:") and "hand b2: dealer:" in line for line in errors)


def test_extra_data_on_a_json_lines_line_gives_no_advice_to_use_json_lines() -> None:
    """Two hands on one line of a .jsonl file: ``JSON syntax error: Extra data`` without "(more than
    one JSON value: for one hand per line use a .jsonl file)", which a .jsonl file already is."""
    raw = (_line("g1") + " " + _line("g2") + "\n").encode()
    problems = [p for item in iter_documents(raw, "s.jsonl") if not isinstance(item, Document)
                for p in item.problems]
    assert [p.message for p in problems] == ["JSON syntax error: Extra data"]


def _array(items: list[str]) -> bytes:
    """A JSON array with one item per line: ``[`` on line 1, item k on line k + 1, ``]`` last."""
    return ("[\n" + ",\n".join(items) + "\n]\n").encode()


_NUMBER_LIMIT = "JSON value cannot be read: the number is far too long (more than 4300 digits)"


@pytest.mark.parametrize(("bad", "column", "message"), [
    # ``{"id": "b2", "region": "wuhan",}``: the trailing comma; JSON wants a key at column 32 (the ``}``)
    ('{"id": "b2", "region": "wuhan",}', 32, "JSON syntax error: Expecting property name enclosed in double quotes"),
    ('{"id": "b2", "fans": {"A": ' + "9" * 5000 + "}}", None, _NUMBER_LIMIT),
    ('{"id": "b2", "note": ' + "[" * 5000 + "]" * 5000 + "}", None, "nesting deeper than 100 levels"),
    # a raw tab inside the string ``"b<TAB>2"``: JSON refuses it at column 10 (after ``{"id": "b``)
    ('{"id": "b\t2"}', 10, "JSON syntax error: Invalid control character in a string (write a line break or tab "
                           "as \\n or \\t)"),
    ("\ufeff" + _line("b2"), 1, "JSON syntax error: a byte-order mark (U+FEFF) where a value should be"),
])
def test_a_bad_item_of_a_json_array_loses_no_other_item(bad: str, column: int | None, message: str) -> None:
    """Item 2 of three (line 3) cannot be read as JSON: before, the whole array was one bad hand
    (``FILE:1``) and items 1 and 3 were lost; now only item 2 is bad, labelled ``s.json:2`` at line 3,
    and the others settle."""
    raw = _array([_line("g1"), bad, _line("g3")])
    items = list(iter_documents(raw, "s.json"))
    assert [i.label for i in items if isinstance(i, Document)] == ["g1", "g3"]
    problems = [p for i in items if not isinstance(i, Document) for p in i.problems]
    assert [(p.hand, p.line, p.message) for p in problems] == [("s.json:2", 3, message)]
    if column is not None:
        assert problems[0].column == column


def test_a_byte_that_is_not_utf8_in_a_json_array_refuses_its_item() -> None:
    """0xFF inside item 2's id (line 3, after ``{"id": "b`` = column 10): that item only."""
    raw = _array([_line("g1"), '{"id": "b?2"}', _line("g3")]).replace(b"b?2", b"b\xff2")
    items = list(iter_documents(raw, "s.json"))
    assert [i.label for i in items if isinstance(i, Document)] == ["g1", "g3"]
    problems = [p for i in items if not isinstance(i, Document) for p in i.problems]
    assert [(p.hand, p.line, p.column, p.message) for p in problems] == [
        ("s.json:2", 3, 10, "file is not valid UTF-8: byte 0xff")]


def test_an_unclosed_json_array_settles_its_items_and_says_so() -> None:
    """``[`` item 1, item 2 and no ``]``: both items settle, and the missing ``]`` is one more bad hand
    (``s.json:3``) at the end of the text (line 3, after item 2), so the run still exits 2."""
    raw = ("[\n" + _line("g1") + ",\n" + _line("g2") + "\n").encode()
    items = list(iter_documents(raw, "s.json"))
    assert [i.label for i in items if isinstance(i, Document)] == ["g1", "g2"]
    problems = [p for i in items if not isinstance(i, Document) for p in i.problems]
    assert [(p.hand, p.line) for p in problems] == [("s.json:3", 3)]
    assert problems[0].message.startswith("JSON syntax error: Expecting ")


def test_an_unbalanced_item_loses_none_of_the_items_after_it() -> None:
    """Item 2 of five has one ``{`` too many (``"fans": {{``): to brackets alone it runs on to the end
    of the file.  It is cut again at each later line that starts with ``{`` where item 1's does: items
    3-5 settle, only item 2 is bad (line 3): ``1 of 5 hands bad; 4 settled``."""
    items = [_line(f"h{k}") for k in range(1, 6)]
    items[1] = items[1].replace('"fans": {', '"fans": {{')
    found = list(iter_documents(_array(items), "s.json"))
    assert [i.label for i in found if isinstance(i, Document)] == ["h1", "h3", "h4", "h5"]
    assert [(p.hand, p.line) for i in found if not isinstance(i, Document) for p in i.problems] == [("s.json:2", 3)]


def _cpu_seconds(raw: bytes, rounds: int = 3) -> float:
    import time
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        list(iter_documents(raw, "s.json"))
        best = min(best, time.process_time() - start)
    return best


def test_reading_an_array_item_by_item_is_linear() -> None:
    """n and 4n items with one bad item in the middle (read item by item): 4n may take at most 6x the
    CPU of n (linear: 4x; counting lines from the file's start for each item, as at first: 16x)."""
    def array(n: int) -> bytes:
        items = [_line(f"h{k}") for k in range(n)]
        items[n // 2] = '{"id": 1,}'
        return _array(items)
    small, large = _cpu_seconds(array(2000)), _cpu_seconds(array(8000))
    assert large <= 6 * small, (small, large)


@pytest.mark.parametrize("second", ["\ufeff" + _line("g2"), "[1]"])
def test_standard_input_is_json_lines_when_most_lines_start_an_object(second: str) -> None:
    """Five lines on stdin, the second a BOM + a hand, or ``[1]``: still JSON Lines (four of five lines
    start with ``{``), so the other four settle; before, the input was read as YAML (no hand settled)."""
    lines = [_line("g1"), second, _line("g3"), _line("g4"), _line("g5")]
    done = runner.invoke(app, ["batch", "-", "--format", "jsonl"], input=("\n".join(lines) + "\n").encode())
    settled = [json.loads(line)["id"] for line in done.stdout.splitlines() if '"net"' in line]
    assert settled == ["g1", "g3", "g4", "g5"]
    assert done.stderr.splitlines()[-1] == "1 of 5 hands bad; 4 settled"
