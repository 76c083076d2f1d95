"""Capture the English output of every command on every shipped input: the refactoring guard.

    python tests/golden/capture.py          # writes tests/golden/expected.json

Issue 13 (reasons as data) rebuilt how explanations are made; its one promise for users is that
the English output stays what it was.  This script ran once on the code before that change, and
``tests/test_golden.py`` compares today's output with what it wrote: text output byte for byte,
JSON output as parsed values that may only gain fields.  It is the one place in the tests where
captured output is the expectation (a refactoring guard, not a hand-worked value).

Cases: every fixture through ``settle hand`` in every format; the batch and session fixtures and
two generated batches (``inputs/generated.jsonl``: fact-level hands of the three regions;
``inputs/tiles.jsonl``: tile-level hands with wildcards) through ``settle batch``/``settle session``
in every format; the tile fixtures through ``settle check``; every file of ``tests/bad/`` through
``settle hand`` (stderr and exit status).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIXTURES = ROOT / "fixtures"
BAD = ROOT / "tests" / "bad"
EXPECTED = HERE / "expected.json"

HAND_FORMATS = ("table", "json", "csv", "markdown")
BATCH_FORMATS = ("table", "json", "jsonl", "csv", "markdown")
SESSION_FORMATS = ("table", "json", "csv", "markdown")
CHECK_FORMATS = ("table", "json")
JSON_FORMATS = frozenset({"json", "jsonl"})


def cases() -> list[dict[str, Any]]:
    """Every case: ``name``, ``cwd`` (``root`` or ``bad``), ``argv`` and ``format``."""
    out: list[dict[str, Any]] = []
    hands = sorted(p for p in FIXTURES.glob("*/*.yaml") if p.parent.name not in ("batch", "session"))
    for path in hands:
        rel = path.relative_to(ROOT).as_posix()
        for fmt in HAND_FORMATS:
            out.append({"name": f"hand {rel} {fmt}", "cwd": "root", "format": fmt,
                        "argv": ["hand", rel, "--format", fmt, "--lang", "en"]})
    batches = [*(p.relative_to(ROOT).as_posix() for p in sorted((FIXTURES / "batch").glob("*"))),
               "tests/golden/inputs/generated.jsonl", "tests/golden/inputs/tiles.jsonl"]
    for rel in batches:
        for fmt in BATCH_FORMATS:
            out.append({"name": f"batch {rel} {fmt}", "cwd": "root", "format": fmt,
                        "argv": ["batch", rel, "--format", fmt, "--lang", "en", "--jobs", "1"]})
    for path in sorted((FIXTURES / "session").glob("*")):
        rel = path.relative_to(ROOT).as_posix()
        for fmt in SESSION_FORMATS:
            out.append({"name": f"session {rel} {fmt}", "cwd": "root", "format": fmt,
                        "argv": ["session", rel, "--format", fmt, "--lang", "en"]})
    for path in sorted((FIXTURES / "tiles").glob("*.yaml")):
        rel = path.relative_to(ROOT).as_posix()
        for fmt in CHECK_FORMATS:
            out.append({"name": f"check {rel} {fmt}", "cwd": "root", "format": fmt,
                        "argv": ["check", rel, "--format", fmt]})
    for path in sorted(p for p in BAD.rglob("*") if p.is_file() and p.name != "expected.yaml"):
        rel = path.relative_to(BAD).as_posix()
        out.append({"name": f"bad {rel}", "cwd": "bad", "format": "table",
                    "argv": ["hand", rel, "--lang", "en"]})
    return out


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """Run one case in-process (typer's CliRunner): exit status, stdout, stderr."""
    from typer.testing import CliRunner

    from settle.cli import _register_commands, app

    _register_commands()
    here = os.getcwd()
    os.chdir(ROOT if case["cwd"] == "root" else BAD)
    try:
        result = CliRunner().invoke(app, case["argv"], env={"LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": "",
                                                            "CI": "1"})
    finally:
        os.chdir(here)
    return {"exit": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}


def main() -> None:
    sys.path.insert(0, str(ROOT))
    expected = {}
    for case in cases():
        expected[case["name"]] = {**case, **run_case(case)}
    EXPECTED.write_text(json.dumps(expected, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(expected)} cases written to {EXPECTED.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
