"""The corpus of broken hand files (issue 6): every one exits 2 with a clear message, quickly.

``tests/bad/expected.yaml`` lists each file under ``tests/bad/`` with the message fragment,
key path and line its error must show.  Every file is run

* through the library (``settle.loader.read_hand`` then ``settle.settle_hand``), located the
  way the CLI locates it, within :data:`LIBRARY_SECONDS`;
* through the ``settle hand`` command in-process (typer's CliRunner): exit 2, the fragment on
  stderr in an ``error: FILE, line N: PATH: ...`` line, never a traceback;
* and a sample through a real ``settle hand FILE`` process.

The ``good`` files (a UTF-8 BOM, CRLF line ends ...) must settle with the stated nets.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

import settle.engine.hand
from settle import HandError, Problem, settle_hand
from settle.cli import _register_commands, app
from settle.errors import format_path
from settle.loader import MAX_DOCUMENT_BYTES, read_hand

BAD = Path(__file__).resolve().parent / "bad"
MANIFEST: dict[str, Any] = yaml.safe_load((BAD / "expected.yaml").read_text(encoding="utf-8"))
EXPECTED: dict[str, dict[str, Any]] = MANIFEST["bad"]
GOOD: dict[str, dict[str, Any]] = MANIFEST["good"]

LIBRARY_SECONDS = 2.0
"""Most a broken file may take through the library (the loader's bounds make it milliseconds)."""
CLI_SECONDS = 20.0
"""Most a ``settle hand`` process may take on a broken file, start-up included."""

SUBPROCESS_SAMPLE = (
    "loader/yaml_unclosed_bracket.yaml", "loader/duplicate_top_key.yaml", "loader/utf16_with_bom.yaml",
    "loader/gbk_encoded.yaml", "loader/billion_laughs.yaml", "loader/python_object_tag.yaml",
    "wuhan/fans_total_exponent.yaml", "wuxue/jin_exponent.yaml", "rushan/two_wins_two_discarders.yaml",
)
"""Broken files also run through a real ``settle hand`` process (one per kind of failure)."""

SETTLE = [sys.executable, "-c", "from settle.cli import main; main()"]
"""The ``settle`` command as a process (the console script's entry point, whatever the PATH)."""

runner = CliRunner()
_register_commands()


def corpus_files() -> set[str]:
    return {p.relative_to(BAD).as_posix() for p in BAD.rglob("*")
            if p.is_file() and p.name != "expected.yaml"}


def library_problems(name: str) -> list[Problem]:
    """The problems of ``tests/bad/NAME`` as the library reports them, located like the CLI does."""
    raw = (BAD / name).read_bytes()
    try:
        doc = read_hand(raw, name)
    except HandError as exc:
        return exc.problems
    try:
        settle_hand(doc.data)
    except HandError as exc:
        return exc.located(doc.lines, source=name).problems
    pytest.fail(f"{name} settled, but it is broken on purpose")


def names_file_line_and_path(error: str, name: str) -> bool:
    """Whether the CLI's error line reads ``error: FILE:LINE:COL: PATH: message`` (issue 16 #9: the
    location first, as an editor opens it; the column where known).

    A top-level problem has no PATH part; the line is data, never repeated in the message.
    """
    want = EXPECTED[name]
    path = ": " if want["path"] == "(top level)" else f": {want['path']}: "
    column = f":{want['column']}" if "column" in want else r"(:\d+)?"
    return re.match(rf"error: {re.escape(name)}:{want['line']}{column}{re.escape(path)}", error) is not None


@pytest.fixture
def in_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run CLI commands from tests/bad, so files are named as in the manifest."""
    monkeypatch.chdir(BAD)


# --- the manifest ------------------------------------------------------------------------------------


def test_the_manifest_lists_every_file_and_the_corpus_covers_each_region() -> None:
    listed = set(EXPECTED) | set(GOOD)
    assert corpus_files() == listed
    assert len(EXPECTED) >= 50
    folders = {name.split("/")[0] for name in EXPECTED}
    assert folders == {"loader", "wuhan", "wuxue", "rushan"}
    for want in EXPECTED.values():
        assert set(want) - {"column"} == {"fragment", "path", "line"} and want["fragment"]
        assert isinstance(want["line"], int)


# --- every broken file through the library --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_library_refuses_with_the_expected_message(name: str) -> None:
    want = EXPECTED[name]
    start = time.perf_counter()
    problems = library_problems(name)
    elapsed = time.perf_counter() - start
    assert elapsed < LIBRARY_SECONDS, f"{name} took {elapsed:.2f} s"
    matching = [p for p in problems if want["fragment"] in p.message]
    assert matching, f"no problem says {want['fragment']!r}: {[str(p) for p in problems]}"
    assert (format_path(matching[0].path), matching[0].line) == (want["path"], want["line"])


# --- every broken file through `settle hand` (in-process) -----------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_settle_hand_exits_2_with_the_message(name: str, in_corpus: None) -> None:
    want = EXPECTED[name]
    start = time.perf_counter()
    result = runner.invoke(app, ["hand", name])
    elapsed = time.perf_counter() - start
    assert elapsed < LIBRARY_SECONDS, f"{name} took {elapsed:.2f} s"
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if want["fragment"] in line]
    assert lines, result.stderr
    assert names_file_line_and_path(lines[0], name), lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize("name", SUBPROCESS_SAMPLE)
def test_settle_hand_process_exits_2_without_a_traceback(name: str) -> None:
    start = time.perf_counter()
    done = subprocess.run([*SETTLE, "hand", name], cwd=BAD, capture_output=True,
                          text=True, timeout=CLI_SECONDS, env={**os.environ, "SETTLE_DEBUG": ""})
    elapsed = time.perf_counter() - start
    assert elapsed < CLI_SECONDS
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    fragment = EXPECTED[name]["fragment"]
    errors = [line for line in done.stderr.splitlines() if fragment in line]
    assert errors and names_file_line_and_path(errors[0], name), done.stderr


# --- files that look odd but are fine ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_files_settle(name: str, in_corpus: None) -> None:
    doc = read_hand((BAD / name).read_bytes(), name)
    assert settle_hand(doc.data).net == GOOD[name]["net"]
    result = runner.invoke(app, ["hand", name, "--format", "json"])
    assert result.exit_code == 0, result.output


# --- size limits, unreadable input, batches, internal errors -----------------------------------------------


def test_a_document_over_the_size_limit_is_refused_before_parsing() -> None:
    start = time.perf_counter()
    with pytest.raises(HandError) as info:
        read_hand(b"#" * (MAX_DOCUMENT_BYTES + 1), "big.yaml")
    assert time.perf_counter() - start < LIBRARY_SECONDS
    assert "larger than the 64 MiB limit" in str(info.value)
    with pytest.raises(HandError, match="larger than the 1 KiB limit"):
        read_hand(b"region: wuhan\n" * 100, "small.yaml", max_bytes=1024)


def test_settle_hand_refuses_a_file_over_the_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:  # sparse: no disk space used
        handle.truncate(MAX_DOCUMENT_BYTES + 1)
    result = runner.invoke(app, ["hand", str(big)])
    assert result.exit_code == 2
    assert "larger than the 64 MiB limit" in result.stderr


def test_settle_hand_takes_the_size_limit_as_an_option(in_corpus: None) -> None:
    # Issue 6: "inputs over a size limit (option, default 64 MB per document) are refused".
    result = runner.invoke(app, ["hand", "--max-bytes", "1024", "loader/huge_integer.yaml"])
    assert result.exit_code == 2
    assert "larger than the 1 KiB limit" in result.stderr, result.output
    assert runner.invoke(app, ["hand", "--max-bytes", "1024", "good/utf8_bom.yaml"]).exit_code == 0


def _limit_memory() -> None:
    limit = 768 << 20  # ample for settle and a 64 MiB document, far below an endless one
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("command", ["hand", "batch"])
def test_settle_reads_no_more_than_the_size_limit_of_an_endless_input(command: str) -> None:
    # /dev/zero never ends: `settle hand` (and `settle batch`, for a YAML stream) must stop reading
    # past the limit (64 MiB) and exit 2, not read until memory runs out (MemoryError, exit 1).
    done = subprocess.run([*SETTLE, command, "/dev/zero"], capture_output=True,
                          text=True, timeout=60, preexec_fn=_limit_memory)
    assert "Traceback" not in done.stderr
    assert done.returncode == 2, done.stderr
    assert "larger than the 64 MiB limit" in done.stderr


@pytest.mark.parametrize("path", ["no/such/file.yaml", "."])
def test_an_unreadable_path_exits_2(path: str, in_corpus: None) -> None:
    result = runner.invoke(app, ["hand", path])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and "cannot read" in result.stderr


def test_a_batch_names_each_bad_hand_and_settles_the_rest(tmp_path: Path) -> None:
    names = ["wuhan/winner_is_from.yaml", "rushan/two_wins_multi_win_off.yaml", "wuxue/jin_exponent.yaml"]
    good = "region: wuhan\nplayers: [A, B, C, D]\ndealer: A\ndraw: true\n"
    docs = [good] + [(BAD / n).read_text(encoding="utf-8") for n in names]
    batch = tmp_path / "batch.yaml"
    batch.write_text("---\n".join(docs), encoding="utf-8")
    result = runner.invoke(app, ["batch", str(batch)])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    for index, name in enumerate(names, start=2):
        fragment = EXPECTED[name]["fragment"]
        assert any(re.match(rf"error: {re.escape(str(batch))}:\d+:\d+: hand {re.escape(str(batch))}:{index}: ", line)
                   and fragment in line for line in errors), (name, errors)
    assert "Traceback" not in result.output


def test_an_internal_error_prints_one_line_and_exits_1(monkeypatch: pytest.MonkeyPatch, in_corpus: None) -> None:
    def broken(data: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(settle.engine.hand, "settle_hand", broken)
    monkeypatch.delenv("SETTLE_DEBUG", raising=False)
    result = runner.invoke(app, ["hand", "good/utf8_bom.yaml"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" in lines[0] and "please report it" in lines[0]
