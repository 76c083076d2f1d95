"""The English output stays what it was before issue 13 (reasons as data): a refactoring guard.

``tests/golden/expected.json`` was written by ``tests/golden/capture.py`` on the code before the
redesign: every fixture, the batch and session fixtures, two generated batches and the bad-input
corpus, through ``settle hand``/``batch``/``session``/``check`` in every format.  Text output
(table, markdown, CSV, stderr) must be the same byte for byte; JSON output the same parsed values,
which may only gain fields (issue 13's ``steps``, ``cap``, ``score_items`` ...).  This is the one
test whose expectation is captured output rather than hand-worked values.  Issue 16 changed some of
it on purpose, and only those entries were captured again (after checking that nothing else in them
moved): every stderr (``error: FILE:LINE:COL:``, "did you mean"), the session tables (the marks
column) and the batch outputs that hold a bad hand's message (#9); every CSV (#4: one table, a row
per hand and player) and the standings of the batches of several regions (#5: a table per region,
JSON ``standings_by_region``), with the per-player table's bad-hand rows, which now keep their
message.  The new values are worked out in tests/test_error_locations.py,
tests/test_session_details.py and tests/test_spreadsheet.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden.capture import JSON_FORMATS, run_case

EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parent / "golden" / "expected.json").read_text(encoding="utf-8"))


def gained_only(old: Any, new: Any, where: str = "") -> list[str]:
    """Where ``new`` differs from ``old`` other than by added mapping keys (empty when it only gained)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: {new!r} is no longer a mapping"]
        out = [f"{where}.{k}: missing" for k in old if k not in new]
        for k in old:
            if k in new:
                out += gained_only(old[k], new[k], f"{where}.{k}")
        return out
    if isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            return [f"{where}: {new!r} is not a list of {len(old)}"]
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in gained_only(a, b, f"{where}[{i}]")]
    return [] if old == new and type(old) is type(new) else [f"{where}: {old!r} became {new!r}"]


def parsed(fmt: str, text: str) -> Any:
    if fmt == "jsonl":
        return [json.loads(line) for line in text.splitlines()]
    return json.loads(text) if text.strip() else None


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_english_output_is_unchanged(name: str) -> None:
    want = EXPECTED[name]
    got = run_case(want)
    assert got["exit"] == want["exit"], got["stderr"]
    assert got["stderr"] == want["stderr"]
    if want["format"] in JSON_FORMATS and want["stdout"].strip():
        differences = gained_only(parsed(want["format"], want["stdout"]), parsed(want["format"], got["stdout"]))
        assert differences == [], differences[:10]
    else:
        assert got["stdout"] == want["stdout"]
