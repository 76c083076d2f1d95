"""Issue 15, output and processes: a closed stdout, a full disk and signals end a command cleanly.

Each test runs the real ``settle`` console script (a subprocess), as a user's shell would:

* #14 a closed pipe (``settle hand F | true``) is no bug: no "internal error", the exit status of
  what was settled (0 here, the hand is good);
* #15 a full disk (``/dev/full``) is an outside failure: one line saying so, exit 4;
* #13 SIGINT and SIGTERM end a run with one line and exit 130 / 143, no traceback.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "wuhan" / "worked_example.yaml"
SETTLE = shutil.which("settle", path=str(Path(sys.executable).parent)) or "settle"

COMMANDS = [
    ["hand", str(FIXTURE)],
    ["hand", str(FIXTURE), "--format", "json"],
    ["check", str(FIXTURE)],
    ["rules", "wuhan"],
    ["schema", "hand"],
    ["session", str(FIXTURE)],
]


def _closed_pipe(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run settle with a stdout pipe whose reading end is closed before settle writes."""
    read, write = os.pipe()
    os.close(read)  # nobody will read: the first write fails with EPIPE
    try:
        return subprocess.run([SETTLE, *args], stdout=write, stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_closed_stdout_is_not_a_bug(args: list[str]) -> None:
    """#14: a reader that went away ends the command quietly; the status is what was done (0: the
    worked example is a good hand, and ``check`` finds no difference on a file without tiles, or 2
    when the file has none to check: never 1)."""
    plain = subprocess.run([SETTLE, *args], capture_output=True, timeout=120, check=False)
    done = _closed_pipe(args)
    assert b"internal error" not in done.stderr
    assert b"Traceback" not in done.stderr
    assert b"Exception ignored" not in done.stderr
    assert done.returncode == plain.returncode
    assert done.returncode != 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full to fill a disk")
def test_full_disk_is_an_outside_failure() -> None:
    """#15: ENOSPC on stdout: one line that says the disk is full, exit 4."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run([SETTLE, "hand", str(FIXTURE)], stdout=full, stderr=subprocess.PIPE,
                              timeout=120, check=False)
    assert done.returncode == 4
    lines = done.stderr.decode().splitlines()
    assert lines == ["error: cannot write the output: the disk is full"]


def _long_batch(tmp_path: Path) -> Path:
    """A JSON Lines file that takes settle some seconds with one process (60,000 hands)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_batch import generate  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    import json

    path = tmp_path / "hands.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for hand in generate(60_000):
            out.write(json.dumps(hand, ensure_ascii=False) + "\n")
    return path


@pytest.mark.parametrize(("signum", "status", "words"),
                         [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_signal_ends_a_run_with_one_line(tmp_path: Path, signum: int, status: int, words: str) -> None:
    """#13 (one process): the run stops promptly, prints one line, exits 130 (Ctrl-C) or 143 (SIGTERM)."""
    hands = _long_batch(tmp_path)
    written = tmp_path / "out.jsonl"
    with written.open("wb") as sink:
        proc = subprocess.Popen([SETTLE, "batch", str(hands), "--jobs", "1", "--format", "jsonl"],
                                stdout=sink, stderr=subprocess.PIPE)
    # Settling (its first hands written: the handlers are in place), not still starting: on a loaded
    # machine start-up can take longer than any fixed wait.
    deadline = time.monotonic() + 60
    while not written.stat().st_size and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the batch ended before it was signalled"
    proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == status
    assert err.decode().splitlines() == [words]
