"""Issue 15, items 3, 8, 9 (its JSON Lines part) and 10: reading JSON Lines batches.

* 3: a line of only U+3000 or U+001C ... U+001F (white space to Python's ``str.strip``, line breaks
  to ``str.splitlines``) is a blank line: it is no hand, ends no line and moves no line number or
  label, within a block and across blocks.
* 8: a JSON line over :data:`~settle.loader.MAX_NODES` nodes is refused before it is parsed.
* 9: bad lines cost the same each, however many share a block (tested by scaling).
* 10: an endless line (``/dev/zero``) is refused within the loader's size limit, not read forever.

Expected values are worked out by hand beside each test.
"""

from __future__ import annotations

import gc
import io
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from settle.cli import _register_commands, app
from settle.engine.batch import BatchRun, StreamWriter, Totals, run_batch
from settle.engine.batch.reading import BLOCK_BYTES, line_spans
from settle.errors import HandError
from settle.loader import MAX_DOCUMENT_BYTES, MAX_NODES, Document, _json_lines, iter_documents

SETTLE = [sys.executable, "-c", "from settle.cli import main; main()"]
GOOD = json.dumps({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True})
"""A drawn Wuhan hand: everyone nets 0; it has no id, so its label is ``file:index``."""
_register_commands()


def _good(ident: str) -> str:
    return json.dumps({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True,
                       "id": ident})


def _run(path: Path, **settings: Any) -> tuple[list[dict[str, Any]], Totals]:
    out = io.StringIO()
    totals = run_batch([str(path)], StreamWriter(out, "jsonl"), BatchRun(fmt="jsonl", **settings))
    return [json.loads(line) for line in out.getvalue().splitlines()], totals


# --- item 3: blank lines of other white space ----------------------------------------------------------

SPACES = ["\u3000", "\x1c", "\x1d", "\x1e", "\x1f", " \u3000\t\x1c"]


@pytest.mark.parametrize("space", SPACES, ids=[f"{ord(s[-1]):04x}-{len(s)}" for s in SPACES])
def test_a_line_of_other_white_space_moves_no_line(tmp_path: Path, space: str) -> None:
    # line 1: hand a; line 2: blank (only `space`); line 3: bad JSON (hand 2); line 4: hand b.
    path = tmp_path / "h.jsonl"
    path.write_text(f"{_good('a')}\n{space}\n{{bad\n{_good('b')}\n", encoding="utf-8")
    records, totals = _run(path, jobs=1)
    assert [r["id"] for r in records] == ["a", f"{path}:2", "b"]
    assert records[1]["error"][0]["line"] == 3  # its own line, not 2 (where splitlines or bytes.strip put it)
    assert (totals.hands, totals.bad) == (3, 1)


@pytest.mark.parametrize("space", ["\u3000", "\x1f"])
def test_a_blank_line_of_other_white_space_is_its_blocks_first_line(tmp_path: Path, space: str) -> None:
    # The blank line opens the file, so its block is read by the loader line by line; then a bad line.
    path = tmp_path / "h.jsonl"
    path.write_text(f"{space}\n{_good('a')}\n[1\n", encoding="utf-8")
    records, totals = _run(path, jobs=1)
    assert [r["id"] for r in records] == ["a", f"{path}:2"]
    assert records[1]["error"][0]["line"] == 3
    assert (totals.hands, totals.bad) == (2, 1)


@pytest.mark.parametrize("space", ["\u3000", "\x1c"])
def test_labels_across_a_block_keep_counting_hands(tmp_path: Path, space: str) -> None:
    # Every hand unlabelled; a blank `space` line after every 10th hand.  The file is bigger than one
    # block (BLOCK_BYTES), so the second block's first label follows the first block's last.
    # Hands: ceil(1.5 * BLOCK_BYTES / len(GOOD + "\n")); labels must be 1 ... hands with no gap, the last
    # one the file's last hand; a bad line after the first block is on its own line.
    count = (3 * BLOCK_BYTES // 2) // (len(GOOD) + 1) + 1
    lines: list[str] = []
    for k in range(1, count + 1):
        lines.append(GOOD)
        if k % 10 == 0:
            lines.append(space)
    lines.append("{bad")  # hand count + 1, on line len(lines) (1-based) once appended
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join(lines) + "\n" + space, encoding="utf-8")  # and a blank last line, no newline
    records, totals = _run(path, jobs=1)
    assert [r["id"] for r in records] == [f"{path}:{k}" for k in range(1, count + 2)]
    assert records[-1]["error"][0]["line"] == len(lines)
    assert (totals.hands, totals.bad) == (count + 1, 1)


def test_a_last_line_of_other_white_space_is_no_hand(tmp_path: Path) -> None:
    # No final newline after the blank line: one hand, settled; no "empty document" past the end.
    path = tmp_path / "h.jsonl"
    path.write_text(f"{GOOD}\n\u3000\x1c", encoding="utf-8")
    records, totals = _run(path, jobs=1)
    assert [r["id"] for r in records] == [f"{path}:1"]
    assert (totals.hands, totals.bad) == (1, 0)


def test_a_lone_cr_ends_a_line_of_json_lines(tmp_path: Path) -> None:
    # An editor shows `{... ,\r "dealer": "A"}` on two lines (lines 1 and 2), so the next hand, a bad
    # one, is on line 3, and the block after it (BLOCK_BYTES) counts on from there.
    hand = GOOD.replace(', "dealer"', ',\r "dealer"')
    path = tmp_path / "h.jsonl"
    path.write_text(f"{hand}\n{{bad\n{GOOD}\n[1\n", encoding="utf-8")
    records, totals = _run(path, jobs=1)
    assert [r["id"] for r in records] == [f"{path}:{k}" for k in (1, 2, 3, 4)]
    assert [r["error"][0]["line"] for r in records if "error" in r] == [3, 5]
    assert totals.bad == 2


# --- item 8: wide and deep JSON ------------------------------------------------------------------------

CHAIN = "[" * 94 + "0" + "]" * 94
"""95 nodes (94 lists and a 0), 189 characters; in ``note`` (itself a list in the hand object) 96 levels
deep, within MAX_DEPTH (100)."""


def _deep_line(chains: int) -> str:
    # nodes: 15 (see test_the_node_limit_counts_json_like_yaml) and 95 a chain.
    return GOOD[:-1] + ', "note": [' + ",".join([CHAIN] * chains) + "]}"


def test_a_json_line_over_the_node_limit_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    # 10,000 chains: 15 + 95 * 10,000 = 950,015 nodes > MAX_NODES; about 1.9 MB.
    deep = _deep_line(10_000)
    assert len(deep) > 1_890_000
    path = tmp_path / "h.jsonl"
    path.write_text(f"{_good('a')}\n{deep}\n{_good('b')}\n", encoding="utf-8")
    tracemalloc.start()
    try:
        records, totals = _run(path, jobs=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the line as read (its block, the line, its text) and two copies without strings: about 7x the line;
    # parsing it, as before, took about 290x (543 MB)
    assert peak < 12 * len(deep)
    assert [r["id"] for r in records] == ["a", f"{path}:2", "b"]
    [problem] = records[1]["error"]
    assert problem["line"] == 2 and problem["message"] == f"document has more than {MAX_NODES} nodes"
    assert (totals.hands, totals.bad) == (3, 1)
    done = CliRunner().invoke(app, ["batch", str(path), "--format", "jsonl"])
    assert done.exit_code == 2
    assert f"{path}:2:" in done.stderr and f"more than {MAX_NODES} nodes" in done.stderr


def test_the_node_limit_counts_json_like_yaml() -> None:
    # A line of exactly MAX_NODES nodes is read (the model, not the loader, refuses `note`); one node
    # more is refused.  Nodes of _deep_line: the hand object 1, its 4 keys and 4 values 8, the 4 players'
    # names 4, the key "note" and its list 2: 15; then 95 a chain.  1052 chains: 15 + 99,940 = 99,955;
    # the 45 more: 42 zeros, "[ ]", "{ }" and the string ",[:{\"]" (brackets, colons and commas in a
    # string, empty lists and dicts and white space must not be miscounted).
    chains = (MAX_NODES - 15) // 95
    assert (chains, MAX_NODES - 15 - 95 * chains) == (1052, 45)
    padding = ",0" * 42 + ', [ ], { }, ",[:{\\"]"'
    pad = " " * (2 * MAX_NODES)  # long enough that the line is counted, whatever the count
    exact = GOOD[:-1] + ', "note": [' + ",".join([CHAIN] * chains) + padding + "]" + pad + "}"
    over = exact.replace("[ ]", "[0]")
    [item] = list(iter_documents(exact.encode(), "x.jsonl"))
    assert isinstance(item, Document) and len(item.data["note"]) == chains + 42 + 3
    assert item.data["note"][-1] == ',[:{"]'
    [error] = list(iter_documents(over.encode(), "x.jsonl"))
    assert isinstance(error, HandError)
    assert error.problems[0].message == f"document has more than {MAX_NODES} nodes"
    assert error.problems[0].line == 1


def test_a_json_file_over_the_node_limit_is_refused(tmp_path: Path) -> None:
    # The same hand as one .json document: refused as bad input (exit 2) with its line.
    path = tmp_path / "h.json"
    path.write_text("\n" + _deep_line(2_000) + "\n", encoding="utf-8")
    done = CliRunner().invoke(app, ["hand", str(path)])
    assert done.exit_code == 2
    assert f"{path}:2" in done.stderr and f"more than {MAX_NODES} nodes" in done.stderr


def test_a_hand_of_a_json_array_over_the_node_limit_is_refused_alone(tmp_path: Path) -> None:
    # A JSON batch: hand a, the 950,015-node hand (line 3), hand b.  Only the middle one is refused, at
    # the line where it passes the limit (its own: it is on one line); the lines kept for it stop there:
    # at most MAX_NODES paths (each node has one path at most), plus hands a and b's: 13 paths each
    # (the hand, its 4 keys and 4 player names, ``id``... at most 14), and the root.
    deep = _deep_line(10_000)
    text = f"[\n{_good('a')},\n{deep},\n{_good('b')}\n]\n"
    path = tmp_path / "h.json"
    path.write_text(text, encoding="utf-8")
    records, totals = _run(path, jobs=1)
    assert [r["id"] for r in records] == ["a", f"{path}:2", "b"]
    [problem] = records[1]["error"]
    assert problem["line"] == 3 and problem["message"] == f"document has more than {MAX_NODES} nodes"
    assert (totals.hands, totals.bad) == (3, 1)
    lines, problems = _json_lines(text, items=True)
    assert len(lines) <= MAX_NODES + 2 * 14 + 1
    assert [(p.path, p.line) for p in problems] == [((1,), 3)]


# --- item 9: many bad lines ----------------------------------------------------------------------------


def _best_seconds(paths: list[Path], rounds: int = 5) -> list[float]:
    """The shortest of ``rounds`` runs of each batch in ``paths`` in CPU seconds of this process (a
    shared machine's load does not stretch them as it stretches wall time), the runs taken in turn,
    after one run of each to warm up."""
    best = [float("inf")] * len(paths)
    gc.disable()  # a collection's cost grows with what is alive, not with the work timed
    try:
        for round_ in range(rounds + 1):
            for k, path in enumerate(paths):
                start = time.process_time()
                _run(path, jobs=1)
                if round_:
                    best[k] = min(best[k], time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("first", ["bad", "good"])
def test_bad_json_lines_take_linear_time(tmp_path: Path, first: str) -> None:
    # n and 4n bad lines of 3 bytes ("{x\n"), all in one block: 4n may take at most 6x the time of n
    # (linear: 4x; each bad line rescanning its block: 16x).  The first line picks the block's reading.
    paths = []
    for n in (3000, 12_000):
        path = tmp_path / f"{n}.jsonl"
        path.write_text((GOOD + "\n" if first == "good" else "") + "{x\n" * n, encoding="utf-8")
        paths.append(path)
    small, large = _best_seconds(paths)
    assert large <= 6 * small, (small, large)


# --- item 10: an endless line --------------------------------------------------------------------------


class Endless(io.RawIOBase):
    """A stream of NUL bytes that never ends (/dev/zero), counting what was read."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), 1 << 20)
        buffer[:size] = bytes(size)
        self.read_bytes += size
        return size


def test_line_spans_refuse_an_endless_line_within_the_limit() -> None:
    # The line passes the limit: it is one hand, refused; its rest is skipped only as far as the same
    # limit again, then reading stops: at most 2 * MAX_DOCUMENT_BYTES and a read or two more.
    stream = Endless()
    spans = line_spans(stream, b"", BLOCK_BYTES, "zero.jsonl")  # type: ignore[arg-type]
    block, offset, line, index = next(spans)
    assert MAX_DOCUMENT_BYTES < len(block) <= MAX_DOCUMENT_BYTES + BLOCK_BYTES
    assert (offset, line, index) == (0, 1, 1)
    del block
    with pytest.raises(HandError) as info:
        next(spans)
    assert stream.read_bytes <= 2 * MAX_DOCUMENT_BYTES + 2 * BLOCK_BYTES + (1 << 20)
    [problem] = info.value.problems
    assert problem.line == 1 and "does not end within" in problem.message


def test_the_loader_refuses_an_endless_json_line_within_the_limit() -> None:
    stream = Endless()
    [error] = list(iter_documents(io.BufferedReader(stream), "zero.jsonl"))
    assert isinstance(error, HandError)
    assert stream.read_bytes <= 2 * MAX_DOCUMENT_BYTES + 2 + (1 << 20)
    [problem] = error.problems
    assert (problem.line, problem.hand) == (1, "zero.jsonl:1")
    assert problem.message.startswith("document is larger than the 64 MiB limit")
    assert "the rest of the input is not read" in problem.message


def _limit_memory() -> None:
    limit = 1 << 30  # ample for settle and two 64 MiB blocks, far below an endless line
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("how", ["forced", "link"])
def test_settle_batch_refuses_dev_zero_as_json_lines(tmp_path: Path, how: str) -> None:
    # Forced: workers (the first block passes PARALLEL_BYTES); the link: in this process, where the
    # refused hand's column is looked for in the file again (bounded too).
    if how == "link":
        link = tmp_path / "zero.jsonl"
        os.symlink("/dev/zero", link)
        args = ["batch", str(link), "--jobs", "1"]
    else:
        args = ["batch", "/dev/zero", "--input-format", "jsonl"]
    done = subprocess.run([*SETTLE, *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_memory, check=False)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert done.returncode == 2, done.stderr
    assert "larger than the 64 MiB limit" in done.stderr
    assert "does not end within" in done.stderr
