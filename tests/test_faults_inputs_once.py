"""Inputs that can be read only once, and an output that is the input through stdin.

* A FIFO (named pipe) given as an input is opened once: ``settle batch FIFO`` with a bad hand used to
  wait for ever, opening the FIFO a second time to find the column of the problem's key; and the batch
  opened every input once ahead (to refuse a missing one before writing), which loses a FIFO's writer.
  An input that is not a regular file is never opened again: its problems are shown without a column.
* ``settle batch - -o in.jsonl < in.jsonl`` (and ``settle session -``, ``settle hand -``) would replace
  the file stdin reads; it is refused as an output named among the inputs is (exit 2).

These run the real ``settle`` console script (a subprocess, with a timeout: a hang is a failure).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETTLE = shutil.which("settle", path=str(Path(sys.executable).parent)) or "settle"
FIXTURE = ROOT / "fixtures" / "wuhan" / "worked_example.yaml"
SESSION = ROOT / "fixtures" / "session" / "wuhan.yaml"

HAND = """region: wuhan
players: [A, B, C, D]
dealer: C
win: {winner: D, by: discard, from: A}
fans: {A: 3, B: 2, C: 3, D: 4}
"""
DUPKEY = f"id: g1\n{HAND}---\nid: b2\n{HAND}dealer: B\n---\nid: g3\n{HAND}"
"""Three hands; the second (``b2``, lines 8-14) states ``dealer`` twice: on line 11 (its fourth line,
8 + 3) and on line 14, its last."""


def _batch_of_file(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """``settle batch ff`` of a regular file ``ff`` holding ``text`` (in a directory of its own, so that
    its hands are labelled as the FIFO's are)."""
    where = tmp_path / "regular"
    where.mkdir()
    (where / "ff").write_text(text, encoding="utf-8")
    return subprocess.run([SETTLE, "batch", "ff"], cwd=where, capture_output=True, text=True, timeout=60,
                          check=False)


def _feed(fifo: Path, text: str, delay: float = 0.0) -> None:
    """Write ``text`` into ``fifo`` ``delay`` seconds after its reader opens it, and close it (EOF), as
    ``cat hands.yaml > fifo`` does: the open waits for the reader (the first open of the FIFO wakes it)."""
    fd = os.open(fifo, os.O_WRONLY)
    try:
        time.sleep(delay)
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _batch_of_fifo(tmp_path: Path, text: str, delay: float = 0.0) -> tuple[int, str, str, list[str]]:
    """``settle batch ff`` in ``tmp_path``, the FIFO ``ff`` fed ``text``: (exit status, stdout, stderr, the
    writer's error if any)."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    proc = subprocess.Popen([SETTLE, "batch", "ff"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    failed: list[str] = []

    def writer() -> None:
        try:
            _feed(fifo, text, delay)
        except OSError as exc:
            failed.append(f"{type(exc).__name__}: {exc}")

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
        release = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a writer still waiting for a reader goes on
        thread.join(10)
        os.close(release)
    return proc.returncode, out, err, failed


def test_a_bad_hand_read_from_a_fifo_is_reported_without_opening_it_again(tmp_path: Path) -> None:
    """The FIFO holds :data:`DUPKEY`: hand b2 is bad (``dealer`` on lines 11 and 14), g1 and g3 settle.

    A regular file gives ``FILE:14:1`` (the column of ``dealer`` on line 14 is 1, found by reading the
    file again); a FIFO cannot be read again, so the line is ``ff:14`` without a column, and the run ends
    (it used to wait for ever).  Exit 2 (one bad hand); the summary is ``1 of 3 hands bad; 2 settled``
    (3 - 1 = 2); stdout is the table of g1 and g3, as for the same bytes in a regular file."""
    status, out, err, failed = _batch_of_fifo(tmp_path, DUPKEY)
    assert failed == []
    assert status == 2
    assert err.splitlines() == ["error: ff:14: hand b2: dealer: duplicate key 'dealer' (lines 11 and 14)",
                                "1 of 3 hands bad; 2 settled"]
    plain = _batch_of_file(tmp_path, DUPKEY)
    assert plain.stderr.splitlines() == ["error: ff:14:1: hand b2: dealer: duplicate key 'dealer' (lines 11 and 14)",
                                         "1 of 3 hands bad; 2 settled"]
    assert out == plain.stdout


def test_a_fifo_is_opened_once_so_its_writer_is_not_lost(tmp_path: Path) -> None:
    """The writer waits half a second after the batch opens the FIFO, then writes one good hand (the
    worked example) and closes it.  The batch used to open every input once ahead and close it: the
    writer then wrote to a FIFO nobody read (EPIPE) and the batch's second open waited for ever.  Opened
    once, the hand is read and settled: exit 0, nothing on stderr, and stdout is what the same bytes give
    from a regular file."""
    text = FIXTURE.read_text(encoding="utf-8")
    status, out, err, failed = _batch_of_fifo(tmp_path, text, delay=0.5)
    assert failed == []
    assert (status, err) == (0, "")
    plain = _batch_of_file(tmp_path, text)
    assert (plain.returncode, plain.stderr) == (0, "")
    assert out == plain.stdout


# --- an output that is the input through stdin -----------------------------------------------------------


@pytest.mark.parametrize(("command", "source"), [("batch", FIXTURE), ("session", SESSION), ("hand", FIXTURE)])
@pytest.mark.parametrize(("lang", "words"), [
    ("en", "error: the output in.yaml is the input <stdin>: give another --output"),
    ("zh", "error: 输出文件 in.yaml 就是输入文件 <stdin>：请换一个 --output"),
])
def test_an_output_that_stdin_reads_is_refused(tmp_path: Path, command: str, source: Path, lang: str,
                                               words: str) -> None:
    """``settle COMMAND - -o in.yaml < in.yaml``: stdin is the file the output would replace (same device
    and inode).  Refused as an output named among the inputs is: the ``output_is_input`` words with stdin
    named ``<stdin>``, exit 2, the file's bytes as they were and no temporary file beside it."""
    target = tmp_path / "in.yaml"
    shutil.copy(source, target)
    before = target.read_bytes()
    with target.open("rb") as stdin:
        done = subprocess.run([SETTLE, command, "-", "-o", "in.yaml", "--lang", lang], stdin=stdin, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [words]
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.yaml"]


def test_an_errors_file_that_stdin_reads_is_refused(tmp_path: Path) -> None:
    """``settle batch - --errors in.yaml < in.yaml``: the errors file would replace stdin's file too; the
    same refusal (exit 2, the file as it was)."""
    target = tmp_path / "in.yaml"
    shutil.copy(FIXTURE, target)
    before = target.read_bytes()
    with target.open("rb") as stdin:
        done = subprocess.run([SETTLE, "batch", "-", "--errors", "in.yaml"], stdin=stdin, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["error: the output in.yaml is the input <stdin>: give another --output"]
    assert target.read_bytes() == before


def test_stdin_from_another_file_or_a_device_is_no_output(tmp_path: Path) -> None:
    """Stdin from another file writes ``-o out.yaml`` as ever (exit 0, the bytes stdout gets); stdin
    and ``-o`` both ``/dev/null`` is no file overwritten (the same inode, but not a regular file): the
    hand of nothing is refused for itself (``empty document``), not as an output that is the input."""
    target = tmp_path / "out.yaml"
    with FIXTURE.open("rb") as stdin:
        done = subprocess.run([SETTLE, "hand", "-", "-o", str(target)], stdin=stdin, capture_output=True,
                              text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    plain = subprocess.run([SETTLE, "hand", str(FIXTURE)], capture_output=True, text=True, timeout=60, check=False)
    assert target.read_text(encoding="utf-8") == plain.stdout
    with open(os.devnull, "rb") as stdin:
        null = subprocess.run([SETTLE, "hand", "-", "-o", os.devnull], stdin=stdin, capture_output=True,
                              text=True, timeout=60, check=False)
    assert null.returncode == 2
    assert "is the input" not in null.stderr
