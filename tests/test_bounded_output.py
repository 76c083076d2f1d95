"""Issue 15 #10 and the fuzzer's "bounded memory": an endless stream of bad hands (``settle batch
/dev/urandom --input-format jsonl``) grew by about 13 MB a second in table and JSON output, which
kept every row (until the widths were known) and every problem (for JSON's ``errors``).

* a table batch is written in tables of :data:`TABLE_SECTION_HANDS` hands, so at most that many rows
  wait; a batch of at most that many hands is one table, as before;
* JSON's ``errors`` keep :data:`KEPT_PROBLEMS` problems in memory and the rest in a temporary file,
  and the output is the same bytes as with every problem in memory.

The limits are lowered in these tests so that small inputs cross them.
"""

from __future__ import annotations

import importlib
import io
import json
from pathlib import Path

import pytest

import settle.render.batch as render_batch
from settle.engine.batch import BatchRun, StreamWriter, run_batch
from settle.render.batch import TableWriter

encode_module = importlib.import_module("settle.engine.batch.encode")  # the package's ``encode`` is a function

GOOD = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
        "win": {"winner": "D", "by": "discard", "from": "A"}, "fans": {"A": 3, "B": 2, "C": 3, "D": 4}}
"""The seed's worked example (004 结算规则, H2): A -128, B -64, C -128, D +320."""


def _file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "h.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _lines(good: int, bad: int) -> list[str]:
    """``good`` worked examples (ids g1 ...) then ``bad`` lines that are not JSON (b1 ...: line numbers
    ``good + 1`` on)."""
    return [json.dumps({**GOOD, "id": f"g{i}"}) for i in range(1, good + 1)] + ["{x"] * bad


def test_a_table_of_more_hands_than_a_section_is_written_in_sections(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """5 hands, sections of 2: tables of 2, 2 and 1 hands (three heading lines), then the standings
    (D: 5 x 320 = +1600) and the summary; no more than 2 rows ever wait."""
    monkeypatch.setattr(render_batch, "TABLE_SECTION_HANDS", 2)
    out = io.StringIO()
    writer = TableWriter(out, "table")
    waited: list[int] = []
    add = writer.add

    def watched(chunk: object) -> None:
        add(chunk)  # type: ignore[arg-type]
        waited.append(len(writer.rows))

    writer.add = watched  # type: ignore[method-assign]
    path = _file(tmp_path, _lines(5, 0))
    run_batch([str(path)], writer, BatchRun(fmt="table", jobs=1))
    text = out.getvalue()
    assert [line.split()[0] for line in text.splitlines() if line.startswith("id ")] == ["id"] * 3
    assert all(f"g{i} " in text for i in range(1, 6))
    assert "+1600" in text
    assert text.rstrip().endswith("5 hands, 5 settled, 0 bad")
    assert max(waited) < 2


def test_a_table_within_one_section_is_one_table(tmp_path: Path) -> None:
    """At most :data:`TABLE_SECTION_HANDS` hands: one hands table, as before the sections."""
    out = io.StringIO()
    run_batch([str(_file(tmp_path, _lines(3, 1)))], TableWriter(out, "markdown"), BatchRun(fmt="markdown", jobs=1))
    assert sum(1 for line in out.getvalue().splitlines() if line.startswith("| id ")) == 1


def _json_output(tmp_path: Path, kept: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    monkeypatch.setattr(encode_module, "KEPT_PROBLEMS", kept)
    out = io.StringIO()
    totals = run_batch([str(_file(tmp_path, _lines(2, 5)))], StreamWriter(out, "json"), BatchRun(fmt="json", jobs=1))
    return out.getvalue(), len(totals.problems)


def test_json_errors_past_the_kept_ones_wait_on_disk_and_come_out_the_same(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """5 bad lines (lines 3-7), 2 problems kept in memory: the same bytes as with all 5 kept, the errors
    in input order (hands h.jsonl:3 ... h.jsonl:7), and only 2 problems ever held."""
    spilled, held = _json_output(tmp_path, 2, monkeypatch)
    whole, held_all = _json_output(tmp_path, 10_000, monkeypatch)
    assert (held, held_all) == (2, 5)
    assert spilled == whole
    errors = json.loads(spilled)["errors"]
    assert [e["hand"] for e in errors] == [f"{tmp_path / 'h.jsonl'}:{n}" for n in range(3, 8)]
    assert [e["line"] for e in errors] == [3, 4, 5, 6, 7]
