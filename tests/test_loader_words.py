"""Issue 16 #9: under ``--lang zh`` the file reader's own problems are Chinese too, from the problem
catalog (:data:`settle.engine.messages.LOADER_ZH`, by each problem's ``kind`` and ``values``), and the
English lines are what they were, byte for byte.

Each test builds a small input, runs it through the CLI (``settle hand``, ``settle batch``) in English
and in Chinese, and asserts both ``error:`` lines whole: the ``error: FILE:LINE:COL:`` prefix is the
same in both, only the words differ.  The few problems no input of the CLI reaches in a test (a
JSON Lines line that does not end within twice the limit, libyaml's reader error, an unknown libyaml
problem) are built by the loader itself and shown by :func:`settle.render.problem_text`, as the CLI
shows them.  A walk over settle/loader.py checks that every problem it builds has a kind and values.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from settle import loader
from settle.cli import _register_commands, app
from settle.errors import HandError
from settle.loader import MAX_DOCUMENT_BYTES, MAX_NODES, jsonl_lines
from settle.render import problem_catalog, problem_text

runner = CliRunner()
_register_commands()

LOADER = Path(loader.__file__)


def _both(args: list[str], data: bytes | None = None) -> tuple[list[str], list[str]]:
    """The ``error:`` lines of ``settle ARGS`` in English and with ``--lang zh`` (``data`` on stdin);
    exit 2 (bad input) asserted for both."""
    out = []
    for extra in ([], ["--lang", "zh"]):
        done = runner.invoke(app, [*args, *extra], input=data)
        assert done.exit_code == 2, done.output
        out.append([line for line in done.stderr.splitlines() if line.startswith("error:")])
    return out[0], out[1]


def _hand(text: bytes, *args: str) -> tuple[list[str], list[str]]:
    """``settle hand -`` on ``text`` (YAML on stdin: the file is ``<stdin>``)."""
    return _both(["hand", "-", *args], text)


def _file(tmp_path: Path, name: str, data: bytes, command: str = "hand") -> tuple[Path, list[str], list[str]]:
    path = tmp_path / name
    path.write_bytes(data)
    en, zh = _both([command, str(path)])
    return path, en, zh


# --- YAML syntax: libyaml's problems, translated by their words -----------------------------------

@pytest.mark.parametrize(("text", "place", "english", "chinese"), [
    # the second ':' of 'a: b: c' is the 5th character of line 1
    (b"a: b: c\n", "1:5", "YAML syntax error: mapping values are not allowed in this context",
     "YAML 语法错误：此处不允许映射的值"),
    # '@' (reserved) starts the value, column 4; the English names it, so does the Chinese
    (b"a: @x\n", "1:4", "YAML syntax error: found character '@' that cannot start any token",
     "YAML 语法错误：字符 '@' 不能作为任何记号的开头"),
    # the block sequence opened on line 2 ('  - b'); 'c: d' (line 3, column 3) is no '-' item
    (b"a:\n  - b\n  c: d\n", "3:3",
     "YAML syntax error: did not find expected '-' indicator (while parsing a block collection at line 2)",
     "YAML 语法错误：没有找到应有的 '-'（读第 2 行开始的块序列时）"),
    # '[' opened on line 1 never closes: the stream ends at line 3, column 1 (after two line breaks)
    (b"[1, 2\n\n", "3:1",
     "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 1)",
     "YAML 语法错误：没有找到应有的逗号 ',' 或 ']'（读第 1 行开始的 [ ] 序列时）"),
    # the plain scalar '1' goes on over the blank line as '1 b'; the ':' after it (line 3, column 2)
    (b"{a: 1\n\nb: 2\n", "3:2",
     "YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 1)",
     "YAML 语法错误：没有找到应有的逗号 ',' 或 '}'（读第 1 行开始的 { } 映射时）"),
    # the quote opened on line 1 is still open where the stream ends (line 3, column 1)
    (b"a: 'x\n\n", "3:1",
     "YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at line 1)",
     "YAML 语法错误：文件意外结束（读第 1 行开始的带引号的字符串时）"),
    # a tab before the key of line 2: the tab's own column, 1
    (b"a:\n\tb: 1\n", "2:1", "tab character: YAML indentation must use spaces", "制表符：YAML 的缩进必须用空格"),
])
def test_yaml_syntax(text: bytes, place: str, english: str, chinese: str) -> None:
    assert _hand(text) == ([f"error: <stdin>:{place}: {english}"], [f"error: <stdin>:{place}: {chinese}"])


def test_an_unknown_libyaml_problem_keeps_its_english_words() -> None:
    """A problem (or context) not in the tables: its libyaml words stay, in the Chinese frame."""
    mark = yaml.Mark("<stdin>", 5, 1, 0, None, None)  # character 5 of 'a: 1\nb': line 2, column 1
    context = yaml.Mark("<stdin>", 0, 0, 0, None, None)
    error = yaml.scanner.ScannerError("while reading a novelty", context, "found a novelty", mark)
    fatal = loader._yaml_fatal(error, "a: 1\nb")
    problem = loader._fatal_error(fatal, "<stdin>", None).problems[0]
    assert problem_text(problem) == ("<stdin>:2:1: YAML syntax error: found a novelty"
                                     " (while reading a novelty at line 1)")
    assert problem_text(problem, "zh") == ("<stdin>:2:1: YAML 语法错误：found a novelty"
                                           "（while reading a novelty，第 1 行）")


def test_libyaml_reader_error() -> None:
    """libyaml's reader refusing what no pattern of settle's finds: its reason, in Chinese from the table."""
    error = yaml.reader.ReaderError("<stdin>", 0, 1, "utf-8", "control characters are not allowed")
    problem = loader._fatal_error(loader._yaml_fatal(error, "a: 1\n"), "<stdin>", None).problems[0]
    assert problem_text(problem) == "<stdin>: YAML error: control characters are not allowed"
    assert problem_text(problem, "zh") == "<stdin>: YAML 错误：不允许控制字符"


# --- characters and encodings -----------------------------------------------------------------------

def test_control_character() -> None:
    # U+0001 is the 4th character of 'a: \x01'
    assert _hand(b"a: \x01\n") == (
        ["error: <stdin>:1:4: character U+0001 is not allowed in YAML (control characters are not allowed)"],
        ["error: <stdin>:1:4: YAML 里不允许字符 U+0001（不允许控制字符）"])


def test_not_utf8_in_a_hand() -> None:
    # 0xff after the 3 characters 'a: ': column 4
    assert _hand(b"a: \xff\n") == (["error: <stdin>:1:4: file is not valid UTF-8: byte 0xff"],
                                    ["error: <stdin>:1:4: 文件不是 UTF-8 编码：字节 0xff"])


def test_not_utf8_in_a_batch(tmp_path: Path) -> None:
    """In a batch the byte is kept and only its document refused (the loader's second wording site)."""
    path, en, zh = _file(tmp_path, "bad.yaml", b"a: \xfe\n", "batch")
    assert en == [f"error: {path}:1:4: hand {path}:1: file is not valid UTF-8: byte 0xfe"]
    assert zh == [f"error: {path}:1:4: 局 {path}:1: 文件不是 UTF-8 编码：字节 0xfe"]


@pytest.mark.parametrize(("data", "encoding"), [
    (b"\xff\xfea\x00:\x00", "UTF-16"),  # the UTF-16 (little-endian) byte-order mark
    (b"\xff\xfe\x00\x00a\x00\x00\x00", "UTF-32"),  # the UTF-32 (little-endian) byte-order mark
])
def test_utf16_or_utf32(data: bytes, encoding: str) -> None:
    assert _hand(data) == ([f"error: <stdin>:1:1: file is {encoding} encoded; save it as UTF-8"],
                           [f"error: <stdin>:1:1: 文件是 {encoding} 编码；请另存为 UTF-8"])


# --- size, nesting, nodes ------------------------------------------------------------------------

@pytest.mark.parametrize(("limit", "english", "chinese"), [
    ("16", "16-byte", "16 字节的上限"),
    ("1024", "1 KiB", "1 KiB 的上限"),  # 1024 = 1 KiB exactly
])
def test_too_large(limit: str, english: str, chinese: str) -> None:
    text = b"#" * 2000  # 2000 bytes: over either limit; no line is known (nothing was read)
    assert _hand(text, "--max-bytes", limit) == ([f"error: <stdin>: document is larger than the {english} limit"],
                                                 [f"error: <stdin>: 文档超过 {chinese}"])


def test_too_large_batch(tmp_path: Path) -> None:
    """A YAML batch over the 64 MiB limit (a sparse file of one byte more) gets the JSON Lines advice."""
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:
        handle.truncate(MAX_DOCUMENT_BYTES + 1)
    en, zh = _both(["batch", str(path)])
    assert en == [f"error: {path}: hand {path}:1: document is larger than the 64 MiB limit"
                  " (for bigger batches use JSON Lines, one hand per line)"]
    assert zh == [f"error: {path}: 局 {path}:1: 文档超过 64 MiB 的上限（更大的批量请用 JSON Lines，一行一局）"]


@pytest.mark.parametrize(("tail", "english", "chinese"), [
    # 20 bytes, then a newline: the line ends within another 16 bytes
    (b"\n", "", ""),
    # 40 bytes without a newline: 16 + 16 < 40, the rest is not read
    (b"x" * 20, "; its line does not end within another 16-byte: the rest of the input is not read",
     "；这一行再读 16 字节也没有结束：其余的输入不再读取"),
])
def test_too_large_json_line(tail: bytes, english: str, chinese: str) -> None:
    """A JSON Lines line over ``max_bytes`` (16 here; the CLI's limit is 64 MiB): the loader's problem."""
    [error] = list(jsonl_lines(io.BytesIO(b"x" * 20 + tail), "big.jsonl", 16))
    assert isinstance(error, HandError)
    [problem] = error.problems
    assert problem_text(problem) == f"big.jsonl:1: hand big.jsonl:1: document is larger than the 16-byte limit{english}"
    assert problem_text(problem, "zh") == f"big.jsonl:1: 局 big.jsonl:1: 文档超过 16 字节的上限{chinese}"


def test_endless_json_line_of_a_batch() -> None:
    """/dev/zero read as JSON Lines by ``settle batch``: its one line (no newline ever) is over 64 MiB and
    does not end within another 64 MiB, so the batch's reader stops there (issue 15 #10)."""
    en, zh = _both(["batch", "/dev/zero", "--input-format", "jsonl"])
    assert en == ["error: /dev/zero:1: cannot read /dev/zero: line 1 is larger than the 64 MiB limit and does not"
                  " end within another 64 MiB; the rest of the input is not read"]
    assert zh == ["error: /dev/zero:1: 无法读取 /dev/zero：第 1 行超过 64 MiB 的上限，再读 64 MiB 也没有结束；"
                  "其余的输入不再读取"]


def test_yaml_nesting() -> None:
    # the 101st '[' is one level past MAX_DEPTH (100); the line's first character is column 1
    assert _hand(b"[" * 101 + b"]" * 101 + b"\n") == (["error: <stdin>:1:1: nesting deeper than 100 levels"],
                                                      ["error: <stdin>:1:1: 嵌套超过 100 层"])


def test_json_nesting(tmp_path: Path) -> None:
    """{"a": [[...]]}: the object is level 1, so the 100th '[' opens level 101; its path is a and 99 [0],
    its column the key "a"'s (column 2)."""
    path, en, zh = _file(tmp_path, "deep.json", b'{"a": ' + b"[" * 100 + b"]" * 100 + b"}")
    where = "a" + "[0]" * 99
    assert en == [f"error: {path}:1:2: {where}: nesting deeper than 100 levels"]
    assert zh == [f"error: {path}:1:2: {where}: 嵌套超过 100 层"]


def test_json_too_deep_for_json_itself(tmp_path: Path) -> None:
    """100,000 '[' (fewer characters than 2 * MAX_NODES, so not counted first): json's own recursion stops."""
    path, en, zh = _file(tmp_path, "deeper.json", b"[" * 100_000)
    assert en == [f"error: {path}:1:1: nesting deeper than 100 levels"]
    assert zh == [f"error: {path}:1:1: 嵌套超过 100 层"]


def test_json_too_many_nodes(tmp_path: Path) -> None:
    """{"a": [1, ... 1]} with 100,001 numbers: the object, its key, the list and the numbers are
    100,004 nodes > MAX_NODES (100,000)."""
    text = b'{"a": [' + b",".join([b"1"] * (MAX_NODES + 1)) + b"]}"
    path, en, zh = _file(tmp_path, "many.json", text)
    assert en == [f"error: {path}:1:1: document has more than 100000 nodes"]
    assert zh == [f"error: {path}:1:1: 文档超过 100000 个节点"]
    path, en, zh = _file(tmp_path, "many.jsonl", text + b"\n", "batch")
    assert en == [f"error: {path}:1:1: hand {path}:1: document has more than 100000 nodes"]
    assert zh == [f"error: {path}:1:1: 局 {path}:1: 文档超过 100000 个节点"]


def test_yaml_aliases_expand_past_the_node_limit() -> None:
    """Each level repeats the one before 10 times: a = 11 nodes, b = 1 + 10*11 = 111, c = 1111,
    d = 11111.  Before e's list: the root, four keys and a-d = 1 + 4 + 12344 = 12349; e's key and
    list make 12351, and each *d adds 11111: 12351 + 11111*8 = 101239 > 100000 at the 8th, e[7]."""
    text = (b"a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
            b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
            b"e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n")
    assert _hand(text) == (["error: <stdin>:5:1: e[7]: document expands to more than 100000 nodes (YAML aliases?)"],
                           ["error: <stdin>:5:1: e[7]: 文档展开后超过 100000 个节点（YAML 别名？）"])


def test_json_value_that_cannot_be_read(tmp_path: Path) -> None:
    """A number of 5,000 digits: past Python's 4,300-digit limit for int()."""
    path, en, zh = _file(tmp_path, "long.json", b'{"a": ' + b"9" * 5000 + b"}")
    assert en == [f"error: {path}:1:1: JSON value cannot be read: the number is far too long (more than 4300 digits)"]
    assert zh == [f"error: {path}:1:1: JSON 值读不出来：数字太长（超过 4300 位）"]


# --- documents, aliases, keys ------------------------------------------------------------------------

def test_second_document() -> None:
    # the '---' of the second document is line 2; `settle hand` reads one hand
    assert _hand(b"a: 1\n---\nb: 2\n") == (
        ["error: <stdin>:2:1: expected one hand, but a second YAML document starts on this line"
         " (use a batch for many hands)"],
        ["error: <stdin>:2:1: 应为一局牌，但这一行开始了第二个 YAML 文档（多局牌请用 batch）"])


def test_alias_not_defined() -> None:
    assert _hand(b"a: *x\n") == (["error: <stdin>:1:1: a: alias *x is not defined"],
                                 ["error: <stdin>:1:1: a: 别名 *x 未定义"])


def test_alias_to_itself() -> None:
    # *a inside the list anchored &a, which is still open: item [0]
    assert _hand(b"&a [*a]\n") == (["error: <stdin>:1:1: [0]: alias *a refers to itself"],
                                   ["error: <stdin>:1:1: [0]: 别名 *a 指向它自己"])


@pytest.mark.parametrize(("text", "english", "chinese"), [
    (b"[1]: 2\n", "a list", "列表"),
    (b"{a: 1}: 2\n", "a mapping", "映射"),
])
def test_collection_as_a_key(text: bytes, english: str, chinese: str) -> None:
    assert _hand(text) == ([f"error: <stdin>:1:1: {english} cannot be a mapping key"],
                           [f"error: <stdin>:1:1: {chinese}不能作为映射的键"])


def test_merge_value() -> None:
    assert _hand(b"<<: 5\n") == (
        ["error: <stdin>:1:1: <<: '<<' (merge key) needs a mapping or a list of mappings, not a number (5)"],
        ["error: <stdin>:1:1: <<: '<<'（合并键）需要一个映射或映射的列表，不是 数字 5"])


def test_unsupported_tag_on_a_collection() -> None:
    assert _hand(b"a: !foo [1]\n") == (["error: <stdin>:1:1: a: unsupported YAML tag '!foo'"],
                                       ["error: <stdin>:1:1: a: 不支持的 YAML 标签 '!foo'"])


HAND = "expected a hand (a mapping with region, players, ...), found"
HAND_ZH = "应为一局牌（含 region、players 等键的映射），不是"


@pytest.mark.parametrize(("text", "english", "chinese"), [
    (b"x\n", "a string ('x')", "文字 'x'"),
    (b"true\n", "a boolean (true)", "是非值 true"),
    (b"5\n", "a number (5)", "数字 5"),
    (b"1.5\n", "a number (1.5)", "数字 1.5"),
    (b"!!binary aGVsbG8=\n", "a binary value (!!binary aGVsbG8=)", "二进制值（!!binary aGVsbG8=）"),
])
def test_not_a_hand(text: bytes, english: str, chinese: str) -> None:
    assert _hand(text) == ([f"error: <stdin>:1:1: {HAND} {english}"], [f"error: <stdin>:1:1: {HAND_ZH} {chinese}"])


def test_not_a_hand_in_a_list_document(tmp_path: Path) -> None:
    """Each item of a list document is a hand: null and a list of 2 items are none (lines 1 and 2; column 3,
    the item's first character after its dash)."""
    path, en, zh = _file(tmp_path, "items.yaml", b"- null\n- [1, 2]\n", "batch")
    assert en == [f"error: {path}:1:3: hand {path}:1: {HAND} null",
                  f"error: {path}:2:3: hand {path}:2: {HAND} a list of 2 items"]
    assert zh == [f"error: {path}:1:3: 局 {path}:1: {HAND_ZH} 空值（null）",
                  f"error: {path}:2:3: 局 {path}:2: {HAND_ZH} 2 项的列表"]


# --- every problem the loader builds has a kind and values, worded in Chinese -------------------------

_KIND_AT = {"Problem": 5, "_Fatal": 3}
"""The position of ``kind`` among a call's arguments (``Problem(path, message, line, hand, source, kind, ...)``)."""


def _loader_calls() -> list[tuple[int, str, ast.expr | None, bool]]:
    """(line, callee, kind, has values) of every ``Problem(...)``, ``_Fatal(...)`` and ``self._problem(...)``."""
    found = []
    for node in ast.walk(ast.parse(LOADER.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in ("Problem", "_Fatal", "_problem"):
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        kind = keywords.get("kind")
        at = _KIND_AT.get(name)
        if kind is None and at is not None and len(node.args) > at:
            kind = node.args[at]
        found.append((node.lineno, name, kind, "values" in keywords or len(node.args) > 7))
    return found


def test_every_loader_problem_has_a_kind_and_values() -> None:
    calls = _loader_calls()
    assert len(calls) > 20  # the walk finds the calls
    assert [(line, name) for line, name, kind, values in calls if kind is None or not values] == []


def test_every_loader_kind_has_chinese_words() -> None:
    """Each kind written in loader.py (a string, or a module constant such as EMPTY) is in the catalog;
    a kind passed on in a variable (``_fatal_error``, ``_problem``, a refused character's) is one of them."""
    known = problem_catalog().kinds("zh")
    kinds = set()
    for _, _, kind, _ in _loader_calls():
        for node in ast.walk(kind) if kind is not None else ():
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                kinds.add(node.value)
            elif isinstance(node, ast.Name) and isinstance(getattr(loader, node.id, None), str):
                kinds.add(getattr(loader, node.id))
    assert {"too_large", "not_utf8", "yaml_syntax", "alias_undefined", "empty_document"} <= kinds
    assert sorted(kinds - known) == []
