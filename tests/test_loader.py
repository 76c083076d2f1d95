"""The loader: hand files (YAML, JSON, JSON Lines) to plain data plus key-path lines.

Every refusal is a HandError whose problem names the line; hostile input (alias bombs,
deep nesting, huge files) is refused fast and never raises anything else.
"""

from __future__ import annotations

import io
import math
import time
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settle.errors import HandError, Problem
from settle.loader import MAX_DEPTH, MAX_NODES, Document, iter_documents, read_hand

MIB = 1024 * 1024

FACTS_HAND = """\
region: wuhan
players:
  东: {opens: 1}
  南:
    kongs:
      exposed: 1
      concealed: 1
  西: {opens: [北, 东]}
  北: {opens: [东, 南, 西], kongs: {hongzhong: 1}}
dealer: 东
win:
  winner: 北
  by: self_draw
  fans:
    - qingyise
    - hard
""".encode()


def read_problem(raw: bytes, source: str = "hand.yaml", **kwargs: Any) -> Problem:
    """The single problem read_hand reports for ``raw``."""
    with pytest.raises(HandError) as info:
        read_hand(raw, source, **kwargs)
    assert len(info.value.problems) == 1, info.value.problems
    return info.value.problems[0]


def hands(raw: bytes, source: str = "batch.yaml", **kwargs: Any) -> list[Document | HandError]:
    return list(iter_documents(raw, source, **kwargs))


def problem_of(result: Document | HandError) -> Problem:
    assert isinstance(result, HandError), result
    assert len(result.problems) == 1, result.problems
    return result.problems[0]


# --------------------------------------------------------------------------- reading hands


def test_yaml_hand_records_lines_of_nested_keys() -> None:
    doc = read_hand(FACTS_HAND, "hand.yaml")
    assert doc.data["players"]["南"] == {"kongs": {"exposed": 1, "concealed": 1}}
    assert doc.data["win"]["fans"] == ["qingyise", "hard"]
    assert doc.lines[()] == 1
    assert doc.lines[("players", "南", "kongs", "concealed")] == 7
    assert doc.lines[("players", "西", "opens", 1)] == 8
    assert doc.lines[("win", "by")] == 13
    assert doc.lines[("win", "fans", 1)] == 16
    assert (doc.source, doc.index, doc.label) == ("hand.yaml", 1, "hand.yaml:1")


def test_players_list_form_lines() -> None:
    doc = read_hand(b"region: wuhan\nplayers:\n  - A\n  - B\n  - C\n  - D\ndealer: C\n")
    assert doc.data["players"] == ["A", "B", "C", "D"]
    assert doc.lines[("players", 2)] == 5
    assert doc.lines[("dealer",)] == 7


def test_read_hand_reads_json_by_extension_with_lines() -> None:
    raw = b'{\n  "region": "wuhan",\n  "win": {\n    "winner": "D",\n    "fans": ["a",\n      "b"]\n  }\n}\n'
    doc = read_hand(raw, "hand.json")
    assert doc.data == {"region": "wuhan", "win": {"winner": "D", "fans": ["a", "b"]}}
    assert doc.lines[("win", "winner")] == 4
    assert doc.lines[("win", "fans", 1)] == 6


def test_yaml_reads_json_text_too() -> None:
    assert read_hand(b'{"region": "wuhan", "players": ["A", "B"]}').data["players"] == ["A", "B"]


def test_scalar_keys_are_kept_as_they_are() -> None:
    assert read_hand(b"1: x\nnull: y\nfalse: z\n").data == {1: "x", None: "y", False: "z"}


def test_floats_nan_and_inf_are_kept() -> None:
    data = read_hand(b"a: 1.5\nb: .nan\nc: -.inf\n").data
    assert data["a"] == 1.5 and isinstance(data["a"], float)
    assert math.isnan(data["b"]) and data["c"] == -math.inf


@pytest.mark.parametrize(
    "scalar",
    [
        "1", "-0", "+12", "0x1F", "0o17", "017", "0b101", "1_000", "1:30", "1.0", "1e3", "1.0e3",
        ".inf", "-.Inf", "yes", "No", "on", "OFF", "y", "true", "False", "null", "Null", "~", "",
        "2002-12-14", "2001-12-14t21:59:43.10-05:00", "'1'", '"true"', "东", "a b", "=", "<<",
    ],
)  # fmt: skip
def test_scalars_resolve_as_safe_loader_does(scalar: str) -> None:
    raw = f"a: {scalar}\nb: [{scalar}]\n".encode()
    if scalar in ("=", "<<"):  # SafeLoader refuses these bare as values; they read as strings
        assert read_hand(raw).data == {"a": scalar, "b": [scalar]}
    else:
        assert read_hand(raw).data == yaml.load(raw, Loader=yaml.SafeLoader)


_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.text(max_size=6), _plain, max_size=4))
def test_any_dumped_mapping_reads_back_as_safe_load(data: dict[str, Any]) -> None:
    for style in (False, True, None):
        raw = yaml.safe_dump(data, default_flow_style=style, allow_unicode=True).encode()
        assert read_hand(raw).data == yaml.safe_load(raw)


def test_aliases_and_merge_keys_are_expanded() -> None:
    raw = b"base: &b {a: 1, b: 2}\nuse: *b\nm:\n  <<: [*b, {a: 9, c: 3}]\n  b: 7\n"
    doc = read_hand(raw)
    assert doc.data["use"] == {"a": 1, "b": 2}
    assert doc.data["m"] == {"a": 1, "b": 7, "c": 3}  # explicit wins, then the first merged
    assert doc.lines[("m", "a")] == 4 and doc.lines[("m", "b")] == 5


def test_label_uses_string_or_integer_id_only() -> None:
    assert read_hand(b"id: game-7\n").label == "game-7"
    assert read_hand(b"id: 42\n").label == "42"
    assert read_hand(b"id: true\n").label == "<stdin>:1"
    assert read_hand(b"id: [1]\n", "x.yaml").label == "x.yaml:1"


# --------------------------------------------------------------------------- batches


def test_yaml_stream_of_three_documents_with_labels() -> None:
    raw = b"id: first\nregion: wuhan\n---\nregion: wuxue\ndealer: A\n---\nid: 7\nregion: rushan\n"
    docs = hands(raw, "day.yaml")
    assert all(isinstance(d, Document) for d in docs)
    assert [d.label for d in docs] == ["first", "day.yaml:2", "7"]  # type: ignore[union-attr]
    assert [d.index for d in docs] == [1, 2, 3]  # type: ignore[union-attr]
    assert docs[1].lines == {(): 4, ("region",): 4, ("dealer",): 5}  # type: ignore[union-attr]


def test_yaml_list_of_hands_rerooted_lines() -> None:
    raw = b"- region: wuhan\n  win:\n    winner: D\n- region: wuxue\n  dealer: B\n---\nregion: rushan\n"
    docs = hands(raw)
    assert [d.data["region"] for d in docs] == ["wuhan", "wuxue", "rushan"]  # type: ignore[union-attr]
    second = docs[1]
    assert isinstance(second, Document)
    assert second.lines == {(): 4, ("region",): 4, ("dealer",): 5}
    assert docs[0].lines[("win", "winner")] == 3  # type: ignore[union-attr]
    assert [d.label for d in docs] == ["batch.yaml:1", "batch.yaml:2", "batch.yaml:3"]  # type: ignore[union-attr]


def test_yaml_list_item_that_is_not_a_mapping_is_one_bad_hand() -> None:
    docs = hands(b"- region: wuhan\n- hello\n- {region: wuxue}\n")
    assert isinstance(docs[0], Document) and isinstance(docs[2], Document)
    p = problem_of(docs[1])
    assert "expected a hand (a mapping with region, players, ...), found a string ('hello')" in p.message
    assert (p.line, p.hand, p.source) == (2, "batch.yaml:2", "batch.yaml")


def test_json_array_of_hands() -> None:
    raw = b'[\n {"id": "a", "region": "wuhan"},\n {"region": "wuxue",\n  "dealer": "B"},\n 5\n]\n'
    docs = hands(raw, "day.json")
    assert [type(d).__name__ for d in docs] == ["Document", "Document", "HandError"]
    assert docs[0].label == "a"  # type: ignore[union-attr]
    assert docs[1].lines == {(): 3, ("region",): 3, ("dealer",): 4}  # type: ignore[union-attr]
    p = problem_of(docs[2])
    assert "found a number (5)" in p.message and (p.line, p.hand) == (5, "day.json:3")


def test_json_object_is_one_hand() -> None:
    [doc] = hands(b'{"region": "wuhan"}', "one.json")
    assert isinstance(doc, Document) and doc.data == {"region": "wuhan"}


def test_jsonl_bad_middle_line_is_reported_and_the_rest_read() -> None:
    raw = b'{"id": "a", "region": "wuhan"}\n{"region": "wuxue",}\n\n{"region": "rushan"}\n'
    docs = hands(raw, "day.jsonl")
    assert [type(d).__name__ for d in docs] == ["Document", "HandError", "Document"]
    p = problem_of(docs[1])
    assert p.message.startswith("JSON syntax error: Expecting property name") and (p.line, p.column) == (2, 20)
    assert (p.line, p.hand, p.source) == (2, "day.jsonl:2", "day.jsonl")
    assert docs[2].lines == {(): 4} and docs[2].index == 3  # type: ignore[union-attr]


class _LinesOnly(io.BytesIO):
    """A stream that fails if anyone reads it whole."""

    def read(self, *args: Any) -> bytes:
        raise AssertionError("JSON Lines must be read line by line")


def test_jsonl_streams_line_by_line() -> None:
    stream = _LinesOnly(b'{"region": "wuhan"}\n' * 50_000)
    docs = iter_documents(stream, "big.ndjson")
    first, second = next(docs), next(docs)
    assert isinstance(first, Document) and isinstance(second, Document)
    assert stream.tell() < 1000  # two lines read, not the million bytes


def test_jsonl_utf8_bom_on_first_line_is_accepted() -> None:
    [doc] = hands(b'\xef\xbb\xbf{"region": "wuhan"}\n', "x.jsonl")
    assert isinstance(doc, Document) and doc.data == {"region": "wuhan"}


def test_unknown_format_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        iter_documents(b"", fmt="xml")


def test_format_can_be_forced() -> None:
    [doc] = hands(b'{"region": "wuhan"}\n', "stdin", fmt="jsonl")
    assert isinstance(doc, Document) and doc.lines == {(): 1}


# --------------------------------------------------------------------------- duplicate keys


def test_duplicate_yaml_key_names_path_and_both_lines() -> None:
    p = read_problem(b"region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nwin: {winner: D}\n\n\ndealer: C\n")
    assert p.path == ("dealer",)
    assert p.message == "duplicate key 'dealer' (lines 3 and 7)"
    assert (p.line, p.source) == (7, "hand.yaml")


def test_duplicate_nested_yaml_keys_are_all_reported() -> None:
    with pytest.raises(HandError) as info:
        read_hand(b"win:\n  winner: D\n  by: discard\n  winner: A\nfans: {A: 1, A: 2}\n")
    assert [(p.path, p.message, p.line) for p in info.value.problems] == [
        (("win", "winner"), "duplicate key 'winner' (lines 2 and 4)", 4),
        (("fans", "A"), "duplicate key 'A' (both on this line)", 5),
    ]


def test_duplicate_key_in_one_yaml_document_spares_the_others() -> None:
    docs = hands(b"region: wuhan\n---\nregion: a\nregion: b\n---\nregion: rushan\n")
    assert isinstance(docs[0], Document) and isinstance(docs[2], Document)
    p = problem_of(docs[1])
    assert "duplicate key 'region' (lines 3 and 4)" in p.message
    assert (p.line, p.hand) == (4, "batch.yaml:2")


def test_duplicate_json_key() -> None:
    p = read_problem(b'{"region": "wuhan",\n "win": {"by": "discard",\n   "by": "self_draw"}}\n', "hand.json")
    assert p.path == ("win", "by")
    assert (p.message, p.line) == ("duplicate key 'by' (lines 2 and 3)", 3)


def test_duplicate_jsonl_key_gives_columns() -> None:
    [bad, good] = hands(b'{"region": "a", "region": "b"}\n{"region": "c"}\n', "x.jsonl")
    p = problem_of(bad)
    assert (p.message, p.line, p.column, p.hand) == ("duplicate key 'region' (columns 2 and 17)", 1, 17, "x.jsonl:1")
    assert isinstance(good, Document)


@pytest.mark.parametrize(("line", "message"), [
    # colons inside strings (values and keys) must not hide a repeated key from the quick count
    (b'{"a": "1:2", "a": 3}', "duplicate key 'a' (columns 2 and 14)"),
    (b'{"k:1": {"b": 1, "b": "x:y:z"}}', "duplicate key 'b' (columns 10 and 18)"),
    (b'{"a": [{"c": 1}, {"c": 2, "c": 3}]}', "duplicate key 'c' (columns 19 and 27)"),
    (b'{"a" :1, "a"\t: 2}', "duplicate key 'a' (columns 2 and 10)"),
])
def test_duplicate_jsonl_key_among_colons_in_strings(line: bytes, message: str) -> None:
    [bad] = hands(line + b"\n", "x.jsonl")
    assert problem_of(bad).message == message


def test_jsonl_colons_in_strings_are_not_duplicates() -> None:
    [doc] = hands(b'{"t": "12:30", "k:v": {"a": "::"}, "l": [{"a": 1}, {"a": 2}]}\n', "x.jsonl")
    assert isinstance(doc, Document)
    assert doc.data == {"t": "12:30", "k:v": {"a": "::"}, "l": [{"a": 1}, {"a": 2}]}


def test_unhashable_key_is_an_error_with_its_line() -> None:
    p = read_problem(b"region: wuhan\n? [a, b]\n: 1\n")
    assert (p.message, p.line) == ("a list cannot be a mapping key", 2)
    p = read_problem(b"region: wuhan\n? {a: 1}\n: 1\n")
    assert (p.message, p.line) == ("a mapping cannot be a mapping key", 2)


# --------------------------------------------------------------------------- syntax errors


def test_yaml_syntax_error_has_line_and_column() -> None:
    p = read_problem(b"region: wuhan\nplayers: [A, B, C, D]\nwin:\n  by: self: draw\n")
    assert p.message.startswith("YAML syntax error: mapping values are not allowed") and (p.line, p.column) == (4, 11)
    assert p.line == 4


def test_yaml_syntax_error_mid_stream_loses_no_later_document() -> None:
    # Bad hands never lose good ones (issue 5): the stream goes on at the next `---` after the
    # error, every line keeping its number.  (Until the many-hand audit, hand d was silently lost.)
    docs = hands(b"region: a\n---\nregion: b\n---\nregion: [c\n---\nregion: d\n")
    assert [type(d).__name__ for d in docs] == ["Document", "Document", "HandError", "Document"]
    p = problem_of(docs[2])
    assert p.message.startswith("YAML syntax error: ") and (p.line, p.column) == (6, 1)
    assert "expected ',' or ']'" in p.message
    assert "(while parsing a flow sequence at line 5)" in p.message
    assert (p.line, p.hand) == (6, "batch.yaml:3")
    last = docs[3]
    assert isinstance(last, Document)
    assert (last.data, last.label, last.lines[("region",)]) == ({"region": "d"}, "batch.yaml:4", 7)


def test_yaml_stream_with_two_syntax_errors_keeps_the_hands_between() -> None:
    # Document 2 has a bad indent (error inside it), document 4 an unclosed `{` (found at the next `---`).
    text = b"id: 1\n---\nid: 2\nwin:\n  by: x\n by: y\n---\nid: 3\n---\nwin: {by: x\n---\nid: 5\n"
    docs = hands(text)
    assert [d.data["id"] if isinstance(d, Document) else None for d in docs] == [1, None, 3, None, 5]
    assert [problem_of(d).hand for d in docs if isinstance(d, HandError)] == ["batch.yaml:2", "batch.yaml:4"]


def test_yaml_syntax_error_in_a_single_hand_file_is_the_only_problem() -> None:
    p = read_problem(b"region: [c\n---\nregion: d\n")
    assert "YAML syntax error" in p.message


def test_yaml_bad_character_names_it() -> None:
    p = read_problem(b"region: wuhan\ndealer: @A\n")
    assert "found character '@' that cannot start any token" in p.message and (p.line, p.column) == (2, 9)
    assert p.line == 2


def test_json_trailing_comma() -> None:
    p = read_problem(b'{"region": "wuhan",\n "dealer": "A",\n}\n', "hand.json")
    assert p.message == "JSON syntax error: Expecting property name enclosed in double quotes"
    assert (p.line, p.column) == (3, 1)
    assert p.line == 3


def test_json_lines_missing_closing_brace_is_placed_at_the_end_of_its_line() -> None:
    # Line 2 lacks its final `}` (35 characters): the error is just past them, column 36 of line 2, not at
    # column 1 of a line 3 that is only the line's own newline (new-user trial).
    [_, bad] = hands(b'{"region": "wuhan", "draw": true}\n{"region": "wuhan", "win": {"a": 1}\n', "day.jsonl")
    p = problem_of(bad)
    assert (p.message, p.line, p.column) == ("JSON syntax error: Expecting ',' delimiter", 2, 36)
    assert p.line == 2


def test_json_lines_in_a_json_file_get_a_hint() -> None:
    [error] = hands(b'{"region": "a"}\n{"region": "b"}\n', "day.json")
    p = problem_of(error)
    assert "JSON syntax error: Extra data" in p.message and ".jsonl" in p.message and (p.line, p.column) == (2, 1)
    assert p.line == 2


@pytest.mark.parametrize(
    ("raw", "line", "column"),
    [
        (b"win:\n\twinner: D\n", 2, 1),
        (b"win:\n  \twinner: D\n", 2, 3),
        (b"win:\n  winner: D\n\tby: discard\n", 3, 1),
        (b"players:\n  - A\n\t- B\n", 3, 1),
        (b"note: |\n\tsome text\n", 2, 1),
    ],
)
def test_tab_indentation(raw: bytes, line: int, column: int) -> None:
    p = read_problem(raw)
    assert (p.message, p.line, p.column) == ("tab character: YAML indentation must use spaces", line, column)
    assert p.line == line


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML's own scanner refuses these tabs")
def test_tabs_inside_flow_json_are_fine() -> None:
    assert read_hand(b'{\n\t"region": "wuhan",\n\t"players": ["A",\n\t\t"B"]\n}\n').data["players"] == ["A", "B"]


def test_yaml_control_character() -> None:
    p = read_problem(b"region: wuhan\ndealer: A\x07\n")
    assert p.message.startswith("character U+0007 is not allowed in YAML") and (p.line, p.column) == (2, 10)
    assert p.line == 2


# --------------------------------------------------------------------------- empty and wrong shapes

EMPTY = "empty document: expected a hand (a mapping with region, players, ...)"


@pytest.mark.parametrize(
    ("raw", "line"), [(b"", 1), (b"\n\n", 1), (b"# just a comment\n", 1), (b"---\n", 2), (b"null\n", 1), (b"~", 1)]
)
def test_empty_document(raw: bytes, line: int) -> None:
    p = read_problem(raw)
    assert (p.message, p.line) == (EMPTY, line)


@pytest.mark.parametrize("source", ["batch.yaml", "batch.json", "batch.jsonl"])
def test_empty_batch_file(source: str) -> None:
    [error] = hands(b"", source)
    p = problem_of(error)
    assert (p.message, p.line, p.hand) == (EMPTY, 1, f"{source}:1")


def test_empty_document_in_a_stream_is_no_hand() -> None:
    # Nothing written between two `---` is no hand (it used to be a bad one, so a stream made by
    # `cat a.yaml; echo ---` exited 2); the hands keep their numbers.  An explicit null still is one.
    docs = hands(b"region: a\n---\n---\nregion: b\n---\n")
    assert [(type(d).__name__, d.index) for d in docs] == [("Document", 1), ("Document", 2)]
    docs = hands(b"region: a\n---\n~\n")
    assert [type(d).__name__ for d in docs] == ["Document", "HandError"]
    assert problem_of(docs[1]).message == EMPTY


@pytest.mark.parametrize(
    ("raw", "source", "found"),
    [
        (b"hello world\n", "h.yaml", "found a string ('hello world')"),
        (b"42\n", "h.yaml", "found a number (42)"),
        (b"- region: wuhan\n", "h.yaml", "found a list of 1 item"),
        (b'"hello"', "h.json", "found a string ('hello')"),
        (b"[1, 2]", "h.json", "found a list of 2 items"),
    ],
)
def test_document_that_is_not_a_mapping(raw: bytes, source: str, found: str) -> None:
    p = read_problem(raw, source)
    assert p.message == f"expected a hand (a mapping with region, players, ...), {found}"
    assert p.line == 1


def test_read_hand_refuses_a_second_document() -> None:
    p = read_problem(b"region: a\n---\nregion: b\n")
    assert "a second YAML document starts on this line" in p.message and p.line == 2


# --------------------------------------------------------------------------- encodings


def test_utf8_bom_is_stripped() -> None:
    doc = read_hand(b"\xef\xbb\xbfregion: wuhan\ndealer: A\n")
    assert doc.data == {"region": "wuhan", "dealer": "A"} and doc.lines[("dealer",)] == 2


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("region: wuhan\n".encode("utf-16"), "UTF-16"),
        ("region: wuhan\n".encode("utf-16-be"), "UTF-16"),
        ("region: wuhan\n".encode("utf-32"), "UTF-32"),
    ],
)
def test_utf16_and_utf32_are_refused(raw: bytes, name: str) -> None:
    p = read_problem(raw)
    assert (p.message, p.line) == (f"file is {name} encoded; save it as UTF-8", 1)


def test_invalid_utf8_names_the_byte_line_and_column() -> None:
    p = read_problem(b"region: wuhan\ndea\xb3er: A\n")
    assert (p.message, p.line, p.column) == ("file is not valid UTF-8: byte 0xb3", 2, 4)
    p = read_problem("region: 武汉\n东: ".encode() + b"\xb3\n")  # columns count characters
    assert (p.message, p.line, p.column) == ("file is not valid UTF-8: byte 0xb3", 2, 4)


def test_invalid_utf8_in_one_jsonl_line_spares_the_others() -> None:
    docs = hands(b'{"a": 1}\n{"a": "\xe9"}\n{"a": 3}\n', "x.jsonl")
    assert [type(d).__name__ for d in docs] == ["Document", "HandError", "Document"]
    p = problem_of(docs[1])
    assert (p.message, p.line, p.column) == ("file is not valid UTF-8: byte 0xe9", 2, 8)


def test_utf16_jsonl_is_refused_once() -> None:
    docs = hands('{"a": 1}\n{"a": 2}\n'.encode("utf-16"), "x.jsonl")
    assert [problem_of(d).message for d in docs] == ["file is UTF-16 encoded; save it as UTF-8"]


# --------------------------------------------------------------------------- hostile input


def _laughs(levels: int) -> bytes:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def test_billion_laughs_is_refused_fast() -> None:
    start = time.perf_counter()
    p = read_problem(_laughs(10))
    assert time.perf_counter() - start < 2
    assert p.message == f"document expands to more than {MAX_NODES} nodes (YAML aliases?)"
    assert p.line == 6  # a5 is the first level over 100,000 nodes
    assert p.path == ("a5", 0)


def test_billion_laughs_in_a_stream_spares_the_next_hand() -> None:
    start = time.perf_counter()
    docs = hands(_laughs(10) + b"---\nregion: wuhan\n")
    assert time.perf_counter() - start < 2
    assert "document expands to more than" in problem_of(docs[0]).message
    assert isinstance(docs[1], Document) and docs[1].data == {"region": "wuhan"}


def test_aliases_below_the_limit_are_fine() -> None:
    assert len(read_hand(_laughs(4)).data["a3"]) == 9  # 9**4 = 6,561 nodes


def test_recursive_and_undefined_aliases() -> None:
    p = read_problem(b"region: wuhan\nx: &a [1, *a]\n")
    assert (p.path, p.message, p.line) == (("x", 1), "alias *a refers to itself", 2)
    p = read_problem(b"region: wuhan\nx: *nowhere\n")
    assert (p.path, p.message, p.line) == (("x",), "alias *nowhere is not defined", 2)


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        (b"[" * 100_000 + b"]" * 100_000, 1),
        (b"a:\n" + b"- " * 100_000 + b"x\n", 2),
        (b"a: " + b"{b: " * 200 + b"1" + b"}" * 200 + b"\n", 1),
    ],
    ids=["flow", "block", "mapping"],
)
def test_deep_nesting_is_refused_without_recursion_error(raw: bytes, line: int) -> None:
    start = time.perf_counter()
    p = read_problem(raw)  # libyaml's own composer would crash the interpreter on the first
    assert time.perf_counter() - start < 2
    assert (p.message, p.line) == (f"nesting deeper than {MAX_DEPTH} levels", line)


def test_deep_aliases_count_towards_depth() -> None:
    # Each piece is shallow enough; the alias puts 60 levels inside 45.
    p = read_problem(f"a: &a {'[' * 60}{']' * 60}\nb: {'[' * 45}*a{']' * 45}\n".encode())
    assert (p.message, p.line) == (f"nesting deeper than {MAX_DEPTH} levels", 2)


def test_deep_json() -> None:
    p = read_problem(b"[" * 150 + b"]" * 150, "deep.json")
    assert p.message == f"nesting deeper than {MAX_DEPTH} levels" and p.line == 1
    p = read_problem(b"[" * 100_000 + b"]" * 100_000, "deep.json")
    assert p.message == f"nesting deeper than {MAX_DEPTH} levels"
    [error] = hands(b'{"a": ' + b"[" * 150 + b"]" * 150 + b"}\n", "deep.jsonl")
    assert (problem_of(error).message, problem_of(error).line) == (f"nesting deeper than {MAX_DEPTH} levels", 1)


def test_python_tags_are_refused_not_run() -> None:
    p = read_problem(b"region: wuhan\nx: !!python/object/apply:os.system [echo hi]\n")
    assert (p.path, p.message, p.line) == (("x",), "unsupported YAML tag !!python/object/apply:os.system", 2)
    p = read_problem(b"region: wuhan\nx: !!set {a, b}\n")
    assert (p.message, p.line) == ("unsupported YAML tag !!set", 2)


def test_unreadable_scalars_are_problems_not_tracebacks() -> None:
    p = read_problem(b"region: wuhan\nwhen: 2024-13-40\n")
    assert p.message.startswith("cannot read '2024-13-40' as !!timestamp: month must be in 1..12")
    assert p.line == 2
    p = read_problem(b"region: wuhan\nn: " + b"9" * 5000 + b"\n")
    assert "as !!int: the number is far too long" in p.message and p.line == 2


def test_file_over_the_size_limit() -> None:
    p = read_problem(b"# " + b"x" * MIB + b"\n", max_bytes=MIB)
    assert p.message == "document is larger than the 1 MiB limit"
    assert read_problem(b"x" * 2000, max_bytes=1024).message == "document is larger than the 1 KiB limit"
    [error] = hands(io.BytesIO(b"# " + b"x" * 5000), max_bytes=4096)  # type: ignore[arg-type]
    assert problem_of(error).message.startswith("document is larger than the 4 KiB limit")


def test_default_size_limit_is_64_mib() -> None:
    from settle.loader import MAX_DOCUMENT_BYTES, _limit_text

    assert _limit_text(MAX_DOCUMENT_BYTES) == "64 MiB"


def test_jsonl_size_limit_is_per_line() -> None:
    raw = b'{"a": 1}\n{"a": "' + b"x" * 5000 + b'"}\n{"a": 3}\n'
    docs = hands(raw, "x.jsonl", max_bytes=1024)
    assert [type(d).__name__ for d in docs] == ["Document", "HandError", "Document"]
    p = problem_of(docs[1])
    assert (p.message, p.line, p.hand) == ("document is larger than the 1 KiB limit", 2, "x.jsonl:2")
    assert docs[2].data == {"a": 3} and docs[2].lines == {(): 3}  # type: ignore[union-attr]
