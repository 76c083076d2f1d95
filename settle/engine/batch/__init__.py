"""Settling many hands at once: ``settle batch`` and the record-level library API.

A batch is one or more inputs, each a YAML stream (``---``), a YAML list, a JSON array or JSON
Lines (one hand per line; regions may be mixed).  Every hand is settled on its own and
identified by its ``id`` or by ``file:index``; a bad hand is reported (id, key path, line,
message) and never stops the good ones, unless ``strict`` asks to stop at the first bad hand.

The package, by concern:

* :mod:`.outcome`: one hand (:class:`Outcome`: its label and its
  :class:`~settle.core.Settlement` or its :class:`~settle.errors.HandError`);
* :mod:`.reading`: opening inputs, sniffing JSON Lines, JSON Lines blocks with their line
  numbers and places (:func:`line_spans`), settling the lines (from their bytes where sound) and
  what the loader read;
* :mod:`.pool`: the ordered worker pool (:func:`ordered_map`, :func:`worker_count`), and
  :func:`chunk_map`, which brings the workers' output back through shared memory;
  :class:`WorkerDied` is what :func:`run_batch` raises when a worker process was killed;
* :mod:`.standings`: :data:`Standings`, ``region -> player -> [net, hands, won, dealt_in, liable,
  capped, golden]`` (:data:`STANDING_KEYS`; one group per region, issue 16 #5), and how hands add to them;
* :mod:`.encode`: :class:`Chunk` (consecutive hands settled and encoded: what worker processes
  return), :class:`Totals` (the chunks added up), JSON lines, CSV rows (:mod:`settle.engine.csvrows`)
  and table rows;
* :mod:`.write`: the :class:`BatchWriter` protocol and :class:`StreamWriter` (JSON Lines, JSON,
  CSV); the table/Markdown writer is :class:`settle.render.batch.TableWriter`;
* :mod:`.run`: :func:`run_batch` and the worker entry points.

Library use in a notebook or on a partition of a data engine: :func:`settle_records`
(plain dicts in, JSON-ready dicts out) or :func:`settle.engine.hand.settle_many`.
"""

from __future__ import annotations

from settle.engine.batch.encode import (
    BATCH_FORMATS,
    CSV_HEADER,
    HOW_ZH,
    Chunk,
    Totals,
    csv_line,
    csv_rows,
    encode,
    ending,
    how,
    how_text,
    json_line,
    record,
    table_row,
    winners,
)
from settle.engine.batch.outcome import Outcome, hand_label, settle_data
from settle.engine.batch.pool import SLOT_BYTES, WINDOW_PER_JOB, WorkerDied, chunk_map, ordered_map, worker_count
from settle.engine.batch.reading import (
    BLOCK_BYTES,
    INPUT_FORMATS,
    JSONL_SUFFIXES,
    document_outcomes,
    hand_count,
    jsonl_outcomes,
    line_blocks,
    line_spans,
    open_input,
    sniff_jsonl,
)
from settle.engine.batch.run import (
    PARALLEL_BYTES,
    BatchRun,
    InputChanged,
    document_chunks,
    documents_task,
    jsonl_chunks,
    jsonl_span_task,
    jsonl_task,
    run_batch,
    settle_input,
    settle_records,
)
from settle.engine.batch.standings import (
    STANDING_KEYS,
    Group,
    Standings,
    cap_hits,
    merge_standings,
    ranked,
    region_unit,
    standings_by_region,
    tally,
)
from settle.engine.batch.write import STREAMED_FORMATS, BatchWriter, StreamWriter, standings_json

__all__ = [
    "BATCH_FORMATS",
    "BLOCK_BYTES",
    "CSV_HEADER",
    "HOW_ZH",
    "INPUT_FORMATS",
    "JSONL_SUFFIXES",
    "PARALLEL_BYTES",
    "SLOT_BYTES",
    "STANDING_KEYS",
    "STREAMED_FORMATS",
    "WINDOW_PER_JOB",
    "BatchRun",
    "BatchWriter",
    "Chunk",
    "Group",
    "InputChanged",
    "Outcome",
    "Standings",
    "StreamWriter",
    "Totals",
    "WorkerDied",
    "cap_hits",
    "chunk_map",
    "csv_line",
    "csv_rows",
    "document_chunks",
    "document_outcomes",
    "documents_task",
    "encode",
    "ending",
    "hand_count",
    "hand_label",
    "how",
    "how_text",
    "json_line",
    "jsonl_chunks",
    "jsonl_outcomes",
    "jsonl_span_task",
    "jsonl_task",
    "line_blocks",
    "line_spans",
    "merge_standings",
    "open_input",
    "ordered_map",
    "ranked",
    "record",
    "region_unit",
    "run_batch",
    "settle_data",
    "settle_input",
    "settle_records",
    "sniff_jsonl",
    "standings_by_region",
    "standings_json",
    "table_row",
    "tally",
    "winners",
    "worker_count",
]
