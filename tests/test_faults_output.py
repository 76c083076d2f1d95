"""Issue 15, output and processes: ``--output`` written atomically, a closed stdout, a full disk, a killed worker.

* #11 the output file is replaced only when a run completes (bad hands included: exit 2); a missing
  input, an interrupted or failed run leave it as it was, with no temporary file beside it; an
  output that is one of the inputs is refused (exit 2);
* #14 ``settle batch`` at a closed stdout exits with the status of what was settled (2 after a bad hand);
* #15 a full disk on ``-o``: one line saying so, exit 4, the target as it was, no partial file;
* #12 ``kill -9`` of one worker process: the batch stops with one message, exit 4, the output untouched.

The signal and killed-worker tests run the real ``settle`` console script (a subprocess).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest
from typer.testing import CliRunner

from settle import cli

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "wuhan" / "worked_example.yaml"
SETTLE = shutil.which("settle", path=str(Path(sys.executable).parent)) or "settle"
OLD = "what the user had\n"
BAD_LINE = '{"id": "bad", "region": "nowhere"}\n'

cli._register_commands()
runner = CliRunner()


def _settle(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SETTLE, *args], capture_output=True, text=True, timeout=timeout, check=False)


def _hands(path: Path, n: int, bad_first: bool = False) -> Path:
    """``n`` valid generated hands as JSON Lines (bench/bench_batch.py), after one bad hand if asked."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_batch import generate  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    with path.open("w", encoding="utf-8") as out:
        if bad_first:
            out.write(BAD_LINE)
        for hand in generate(n):
            out.write(json.dumps(hand, ensure_ascii=False) + "\n")
    return path


def _leftovers(directory: Path, *keep: Path) -> list[str]:
    """Files in ``directory`` other than ``keep`` (a temporary file left behind would be one)."""
    return sorted(p.name for p in directory.iterdir() if p not in keep)


# --- #11 atomic output ------------------------------------------------------------------------------


def test_missing_input_leaves_the_output(tmp_path: Path) -> None:
    """#11: ``settle batch missing.jsonl -o out.jsonl`` is bad input and out.jsonl keeps its content."""
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    done = _settle("batch", str(tmp_path / "missing.jsonl"), "-o", str(out))
    assert done.returncode == 2
    assert "missing.jsonl" in done.stderr
    assert out.read_text() == OLD
    assert _leftovers(tmp_path, out) == []


@pytest.mark.parametrize("command", ["batch", "session"])
def test_output_that_is_an_input_is_refused(tmp_path: Path, command: str) -> None:
    """#11: ``-o`` naming an input (even by another path) is refused, exit 2, and the input is intact."""
    hands = tmp_path / "hands.yaml"
    shutil.copy(FIXTURE, hands)
    before = hands.read_bytes()
    done = subprocess.run([SETTLE, command, "hands.yaml", "-o", "./hands.yaml"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["error: the output ./hands.yaml is the input hands.yaml: give another --output"]
    assert hands.read_bytes() == before
    assert _leftovers(tmp_path, hands) == []


def test_a_run_with_bad_hands_replaces_the_output(tmp_path: Path) -> None:
    """#11: bad hands complete a run (exit 2): the output is replaced by every hand's line, mode kept."""
    hands = _hands(tmp_path / "hands.jsonl", 5, bad_first=True)
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    out.chmod(0o640)
    done = _settle("batch", str(hands), "-f", "jsonl", "-o", str(out))
    assert done.returncode == 2
    lines = out.read_text().splitlines()
    assert len(lines) == 6 and '"error"' in lines[0]
    assert out.stat().st_mode & 0o777 == 0o640
    assert _leftovers(tmp_path, hands, out) == []
    plain = _settle("batch", str(hands), "-f", "jsonl")
    assert out.read_text() == plain.stdout  # the same bytes as on stdout


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_run_leaves_the_output(tmp_path: Path, signum: int, status: int) -> None:
    """#11: Ctrl-C or SIGTERM during ``-o`` leaves the old content and no temporary file."""
    hands = _hands(tmp_path / "hands.jsonl", 60_000)
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    proc = subprocess.Popen([SETTLE, "batch", str(hands), "--jobs", "1", "-f", "jsonl", "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60  # started and writing: its temporary file is there
    while not _leftovers(tmp_path, hands, out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _leftovers(tmp_path, hands, out), "the run wrote no temporary file"
    time.sleep(0.3)
    proc.send_signal(signum)
    try:
        proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == status
    assert out.read_text() == OLD
    assert _leftovers(tmp_path, hands, out) == []


# --- #14 a closed stdout ----------------------------------------------------------------------------


@pytest.mark.parametrize(("bad_first", "status"), [(True, 2), (False, 0)])
def test_batch_at_a_closed_stdout_keeps_its_status(tmp_path: Path, bad_first: bool, status: int) -> None:
    """#14: the reader went away at once: quiet, and 2 when a bad hand had been settled (else 0)."""
    hands = _hands(tmp_path / "hands.jsonl", 3000, bad_first=bad_first)
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([SETTLE, "batch", str(hands), "-f", "jsonl"], stdout=write,
                              stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write)
    assert done.returncode == status
    assert b"internal error" not in done.stderr and b"Traceback" not in done.stderr


# --- #15 a full disk on -o --------------------------------------------------------------------------


class _FullDisk:
    """A text file whose writes fail with ENOSPC once ``room`` characters went to it (after writing them)."""

    def __init__(self, handle: IO[str], room: int) -> None:
        self.handle, self.room = handle, room

    def write(self, text: str) -> int:
        if len(text) > self.room:
            self.handle.write(text[:self.room])
            self.handle.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(text)
        return self.handle.write(text)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":
            raise AttributeError(name)  # text only, so every write goes through write()
        return getattr(self.handle, name)

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def test_full_disk_on_output_is_an_outside_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#15: ENOSPC while ``-o`` is written: one line, exit 4, the old content kept, no partial file."""
    from settle.engine import output

    real = getattr(output, "_open_temp", None)

    def full(directory: str, name: str) -> tuple[Any, str]:
        assert real is not None
        handle, temp = real(directory, name)
        return _FullDisk(handle, 1000), temp

    monkeypatch.setattr(output, "_open_temp", full, raising=False)
    hands = _hands(tmp_path / "hands.jsonl", 50)
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    result = runner.invoke(cli.app, ["batch", str(hands), "-f", "jsonl", "-o", str(out)])
    assert result.exit_code == 4
    assert result.stderr.splitlines() == [f"error: cannot write the output {out}: the disk is full"]
    assert out.read_text() == OLD
    assert _leftovers(tmp_path, hands, out) == []


# --- #12 a killed worker ----------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers through Linux's /proc")
def test_killed_worker_stops_the_batch(tmp_path: Path) -> None:
    """#12: ``kill -9`` of one pool worker: one message, exit 4, the output file untouched (no hang)."""
    hands = _hands(tmp_path / "hands.jsonl", 120_000)
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    proc = subprocess.Popen([SETTLE, "batch", str(hands), "--jobs", "2", "-f", "jsonl", "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert workers, "no worker process started"
        time.sleep(0.5)  # settling
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=90)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 4
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "worker process" in lines[0] and "Traceback" not in err.decode()
    assert out.read_text() == OLD
    assert _leftovers(tmp_path, hands, out) == []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers through Linux's /proc")
@pytest.mark.parametrize(("signum", "status", "words"),
                         [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_signal_to_a_parallel_batch(tmp_path: Path, signum: int, status: int, words: str) -> None:
    """#13 with the batch's own workers (``--jobs 2``): Ctrl-C or SIGTERM to the parent while the
    workers settle ends the run promptly with one line and 130/143, no traceback from any process, no
    worker left running, the output as it was and no temporary file beside it."""
    hands = _hands(tmp_path / "hands.jsonl", 120_000)
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    proc = subprocess.Popen([SETTLE, "batch", str(hands), "--jobs", "2", "-f", "jsonl", "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert len(workers) == 2, "the workers did not start"
        time.sleep(0.5)  # settling
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == status
    assert err.decode().splitlines() == [words]
    assert out.read_text() == OLD
    assert _leftovers(tmp_path, hands, out) == []
    deadline = time.monotonic() + 10  # the workers are gone too (not left settling for nobody)
    while any(Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid) for pid in workers):
        assert time.monotonic() < deadline, f"workers {workers} still running"
        time.sleep(0.05)


def _state(pid: int) -> str:
    """The process's state word from /proc (``sleeping``, ``zombie`` ...), or empty once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("State:"):
                return line
    except OSError:
        return ""
    return ""


def test_the_errors_file_may_not_be_the_output(tmp_path: Path) -> None:
    """#11: ``--errors`` naming the ``--output`` file (here through ``./``) would replace the settled
    hands with the error lines: it is refused (exit 2) before anything is written, the file kept."""
    hands = _hands(tmp_path / "hands.jsonl", 3, bad_first=True)
    out = tmp_path / "out.jsonl"
    out.write_text(OLD, encoding="utf-8")
    def settle_here(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([SETTLE, *args], capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)

    result = settle_here("batch", str(hands), "--format", "jsonl", "-o", "out.jsonl", "--errors", "./out.jsonl")
    assert result.returncode == 2
    assert result.stderr == "error: the errors file ./out.jsonl is the output out.jsonl: give another --errors\n"
    assert out.read_text(encoding="utf-8") == OLD
    apart = settle_here("batch", str(hands), "--format", "jsonl", "-o", "out.jsonl", "--errors", "bad.jsonl")
    assert apart.returncode == 2  # one bad hand of 4
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4
    errors = (tmp_path / "bad.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in errors] == ["bad"]
