"""``-o /dev/stdout`` and ``--errors /dev/stderr``: a descriptor's name is written directly (issue 15 #11).

A temporary file beside ``/dev/stdout`` cannot be made (on a pipe its real path names no file), and a
descriptor cannot be replaced by a rename, so :func:`settle.engine.output.atomic_output` writes such a
name directly; on a regular file it appends, so that ``>>`` keeps what the file held.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

SETTLE = shutil.which("settle", path=str(Path(sys.executable).parent)) or "settle"
FIXTURE = Path(__file__).parent.parent / "fixtures" / "wuhan" / "worked_example.yaml"

GOOD = {"region": "wuhan", "id": "g", "players": {"A": {"opens": 1}, "B": {}, "C": {}, "D": {}}, "dealer": "A",
        "win": {"winner": "A", "by": "self_draw"}}  # H8: the winner has an open
BAD = {"region": "wuhan", "id": "b", "players": ["A", "B", "C", "D"], "dealer": "A", "win": {"winer": "A"}}


def test_output_dev_stdout_on_a_pipe(tmp_path: Path) -> None:
    hands = tmp_path / "hands.jsonl"
    hands.write_text(json.dumps(GOOD) + "\n" + json.dumps(BAD) + "\n", encoding="utf-8")
    done = subprocess.run([SETTLE, "batch", str(hands), "-f", "jsonl", "-o", "/dev/stdout",
                           "--errors", "/dev/stderr", "--quiet"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr  # one bad hand: exit 2, the good one settled
    lines = done.stdout.splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["g", "b"]
    assert "error" in json.loads(lines[1]) and "error" not in json.loads(lines[0])
    assert '"id": "b"' in done.stderr  # --errors /dev/stderr: the bad hand as a JSON line


def test_errors_dev_stderr_shares_the_offset_with_the_summary(tmp_path: Path) -> None:
    """``--errors /dev/stderr`` with stderr on a file: the bad hand's line and the summary both kept
    (written through one descriptor, neither overwrites the other)."""
    hands = tmp_path / "hands.jsonl"
    hands.write_text(json.dumps(GOOD) + "\n" + json.dumps(BAD) + "\n", encoding="utf-8")
    err = tmp_path / "err.txt"
    with err.open("w", encoding="utf-8") as sink:
        done = subprocess.run([SETTLE, "batch", str(hands), "-f", "jsonl", "--errors", "/dev/stderr", "--quiet"],
                              stdout=subprocess.PIPE, stderr=sink, text=True, timeout=120, check=False)
    assert done.returncode == 2
    lines = err.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["id"] == "b"
    assert lines[1:] == ["1 of 2 hands bad; 1 settled"]


def test_output_dev_stdout_appends_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("kept\n", encoding="utf-8")
    with out.open("a", encoding="utf-8") as append:  # as a shell's >> opens it
        done = subprocess.run([SETTLE, "hand", str(FIXTURE), "--format", "json", "-o", "/dev/stdout"],
                              stdout=append, stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    first, rest = out.read_text(encoding="utf-8").split("\n", 1)
    assert first == "kept"
    # The worked example (seed 武汉 §worked example): A pays 128 (see tests of the fixture).
    assert json.loads(rest)["region"] == "wuhan"
