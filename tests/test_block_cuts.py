"""A JSON Lines batch reads the same wherever its blocks are cut (issue 14: the block size is the
batch's own business, never the file's).

A UTF-8 byte-order mark may stand only before the file's first line (docs/decisions.md,
"Encodings"); at the start of any later line it is a bad hand, "a byte-order mark where a value
should be".  Before, a later line that happened to open a block (512 KiB in) was read as if it
opened the file: its BOM skipped and the hand settled, while the same line one line further into
the block was refused.  Expected values are worked out by hand beside each test.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import settle.engine.batch.run as batch_run
from settle.engine.batch import BatchRun, StreamWriter, Totals, hand_count, run_batch

BOM = "\ufeff"


def _good(ident: str) -> str:
    """A drawn Wuhan hand (every net 0) with ``ident``."""
    return json.dumps({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True,
                       "id": ident})


def _run(path: Path, **settings: Any) -> tuple[str, Totals]:
    out = io.StringIO()
    totals = run_batch([str(path)], StreamWriter(out, "jsonl"), BatchRun(fmt="jsonl", **settings))
    return out.getvalue(), totals


def _records_at_every_cut(path: Path, sizes: tuple[int, ...], counts: tuple[int, int],
                          monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The batch's JSON records of ``path`` read in blocks of each of ``sizes`` bytes, one process: asserts
    that each run counts ``counts`` (hands, bad) and that every run writes the same output."""
    outputs = []
    for size in sizes:
        monkeypatch.setattr(batch_run, "BLOCK_BYTES", size)
        text, totals = _run(path, jobs=1)
        assert (totals.hands, totals.bad) == counts, size
        outputs.append(text)
    assert all(text == outputs[0] for text in outputs[1:])
    return [json.loads(line) for line in outputs[0].splitlines()]


def _file(tmp_path: Path) -> Path:
    """Line 1: a BOM, then hand h1 (skipped BOM: settled).  Then 40 groups of four lines: hand gK, a
    line of a BOM and hand bK (bad), a line holding only a BOM (bad: a BOM is no white space after
    the first line), and a blank line.  So 1 + 40 * 3 = 121 hands, 80 of them bad."""
    lines = [BOM + _good("h1")]
    for k in range(40):
        lines += [_good(f"g{k}"), BOM + _good(f"b{k}"), BOM, ""]
    path = tmp_path / "boms.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_bom_after_the_first_line_is_a_bad_hand_wherever_the_blocks_are_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The line lengths are 87-90 bytes, so these sizes put a block's start on every kind of line.
    records = _records_at_every_cut(_file(tmp_path), (1 << 19, 100, 173, 251, 397, 1000), (121, 80), monkeypatch)
    assert records[0]["id"] == "h1" and records[0]["net"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    # Group k starts on line 2 + 4k: gK settled, its BOM lines bad on lines 3 + 4k and 4 + 4k.
    for k in range(40):
        good, bommed, bare = records[1 + 3 * k: 4 + 3 * k]
        assert good["id"] == f"g{k}" and "net" in good
        assert [bommed["error"][0]["line"], bare["error"][0]["line"]] == [3 + 4 * k, 4 + 4 * k]
        assert "byte-order mark" in bommed["error"][0]["message"]
        assert "byte-order mark" in bare["error"][0]["message"]


def test_workers_read_the_same_as_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _file(tmp_path)
    monkeypatch.setattr(batch_run, "BLOCK_BYTES", 173)
    single, _ = _run(path, jobs=1)
    double, totals = _run(path, jobs=2)
    assert double == single and (totals.hands, totals.bad) == (121, 80)


def test_a_bom_alone_counts_as_blank_only_on_the_inputs_first_line() -> None:
    # "\ufeff \n{}" : the first line is a BOM and a space; as the input's first, blank (one hand:
    # the second line); as a later block's first, a hand (two).
    block = (BOM + " \n{}").encode("utf-8")
    assert hand_count(block) == 1
    assert hand_count(block, starts_input=False) == 2


def test_hand_count_when_every_later_line_starts_a_json_object_and_when_not() -> None:
    # Every later line starting with "{" is no blank line (no search for blank lines); any other
    # later line is looked at: empty, white space only, or a last newline with nothing after it.
    assert hand_count(b'{"a": 1}\n{"b": 2}\n{"c": 3}') == 3
    assert hand_count(b' \n{"b": 2}\n{"c": 3}') == 2  # a blank first line
    assert hand_count(b'{"a": 1}\n\n{"c": 3}') == 2
    assert hand_count(b'{"a": 1}\n \t\r\n{"c": 3}') == 2
    assert hand_count(b'{"a": 1}\n{"b": 2}\n') == 2
    assert hand_count('{"a": 1}\n\u3000\n[1]'.encode()) == 2  # U+3000 is white space; [1] a (bad) hand
    assert hand_count(b'{"a": 1}\nx\n{"c": 3}') == 3


def test_a_later_line_that_looks_like_utf16_is_one_bad_hand_wherever_the_blocks_are_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A later line starting with a UTF-16 mark's bytes (FF FE, FE FF) or with "{" and a NUL byte was,
    # where it opened a block, read as the start of a UTF-16 file, and the rest of that block's hands
    # were dropped.  Now it is that one line's problem (issue 14, a tester's reproducer).  The file:
    # 3 groups of (good hand gK, odd line oK) and a last good hand "z": 7 hands, 3 bad, on lines 2, 4, 6.
    starts = (b"\xff\xfe", b"\xfe\xff", b"{\x00")
    lines = []
    for k, start in enumerate(starts):
        lines += [_good(f"g{k}").encode(), start + _good(f"o{k}").encode()[2:]]
    lines.append(_good("z").encode())
    path = tmp_path / "utf16ish.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    # Line lengths 87-89 bytes: a block may open on any line.
    records = _records_at_every_cut(path, (1 << 17, 60, 89, 90, 91, 180, 270), (7, 3), monkeypatch)
    assert [r.get("id") for r in records[::2]] == ["g0", "g1", "g2", "z"]
    assert all("net" in r for r in records[::2])
    assert [r["error"][0]["line"] for r in records[1::2]] == [2, 4, 6]
    messages = [r["error"][0]["message"] for r in records[1::2]]
    assert "not valid UTF-8" in messages[0] and "0xff" in messages[0]
    assert "not valid UTF-8" in messages[1] and "0xfe" in messages[1]
    assert "JSON syntax error" in messages[2]
    assert not any("UTF-16" in m for m in messages)
