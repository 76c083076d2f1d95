"""Running a batch: settle every hand of the inputs, in order, and write them through a writer.

JSON Lines is streamed: blocks of whole lines are settled one after another, so memory does not
grow with the file.  Other inputs are parsed whole by :mod:`settle.loader` (libyaml when
available) and settled in groups.  Either way, once an input is large, worker processes settle
the blocks or groups (:func:`jsonl_task`, :func:`documents_task`) while the results are written in
input order (:func:`~settle.engine.batch.pool.ordered_map`).
"""

from __future__ import annotations

import gc
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

from settle.core.collector import collector_paused
from settle.engine.batch.encode import Chunk, Totals, encode, record
from settle.engine.batch.outcome import hand_label, settle_data
from settle.engine.batch.pool import chunk_map, forks, worker_count
from settle.engine.batch.reading import (
    BLOCK_BYTES,
    INPUT_FORMATS,
    JSONL_SUFFIXES,
    SNIFF_BYTES,
    STDIN,
    block_columns,
    document_outcomes,
    jsonl_outcomes,
    line_spans,
    open_input,
    sniff_jsonl,
)
from settle.engine.batch.write import BatchWriter
from settle.errors import HandError

PARALLEL_BYTES = 4 << 20
"""``jobs=0`` (auto) starts worker processes only once an input is longer than this (about 15,000
JSON Lines hands): below it the processes cost more to start than they save."""


def settle_records(hands: Iterable[Mapping[str, Any]], source: str = "hand") -> Iterator[dict[str, Any]]:
    """Settle plain hand dicts lazily, yielding one JSON-ready dict per hand, in order.

    Each dict is :func:`~settle.engine.batch.encode.record`'s: the settlement (``net``,
    ``transfers``, ...) with ``id``, or ``{"id", "error": [...]}`` for a bad hand; never raises for
    bad input.  Hands without an ``id`` are labelled ``source:index`` (1-based).  Memory does not
    grow with the input, so it can be mapped over a stream or over the partitions of a data engine.
    """
    for index, data in enumerate(hands, 1):
        yield record(settle_data(data, hand_label(data, source, index), {}, source))


@dataclass
class BatchRun:
    """Settings of one ``settle batch`` run.

    ``fmt``: output format (:data:`~settle.engine.batch.encode.BATCH_FORMATS`), what the chunks
    are encoded for; ``input_format``: ``auto`` (``.jsonl`` and ``.ndjson`` by name, stdin
    sniffed, else :mod:`settle.loader` decides) or forced; ``strict``: stop at the first bad
    hand; ``jobs``: worker processes that settle (0 = auto: every CPU this process may run on,
    :func:`~settle.engine.batch.pool.worker_count`, once the input passes
    :data:`PARALLEL_BYTES`; 1 = none); ``json_lang``: the explanations' language in JSON output
    (English unless ``--lang zh`` is given, so the bytes never depend on the locale);
    ``standings``: whether the chunks tally the standings (:attr:`Totals.standings`; ``settle batch``
    turns it off for the formats that write none, :data:`~settle.engine.batch.encode.STANDINGS_WRITTEN`);
    ``on_chunk``: called after each chunk with the running :class:`Totals` and the chunk
    (the CLI prints problems and progress from it).  The table headings' language is the table
    writer's (:class:`settle.render.batch.TableWriter`).
    """

    fmt: str = "jsonl"
    input_format: str = "auto"
    strict: bool = False
    jobs: int = 0
    json_lang: str = "en"
    standings: bool = True
    on_chunk: Callable[[Totals, Chunk], None] | None = None


def run_batch(paths: Iterable[str], writer: BatchWriter, run: BatchRun, totals: Totals | None = None) -> Totals:
    """Settle every hand of ``paths`` (``-`` is stdin) and write them through ``writer``.

    ``writer`` (a :class:`~settle.engine.batch.write.BatchWriter`: the engine's
    :class:`~settle.engine.batch.write.StreamWriter` or the render layer's table writer) gets
    ``start()``, then each chunk in input order, then ``finish(totals)``; its ``fmt`` must be
    ``run.fmt``, the format the chunks are encoded for.  ``totals``, when given, is added to (its
    ``keep_problems`` as the caller set it) and returned, so that a caller can see what had been
    settled when a write raises (a closed stdout, issue 15 #14).  Returns the :class:`Totals`; bad hands
    are in it (and in the output), never raised.  Raises :class:`~settle.errors.HandError` for an
    input that cannot be opened (before anything is written), ValueError when ``writer.fmt`` is not
    ``run.fmt`` or ``run.input_format`` is unknown.
    """
    if writer.fmt != run.fmt:
        raise ValueError(f"the writer writes {writer.fmt!r}, the run encodes {run.fmt!r}")
    paths = list(paths)
    for path in paths:  # every input must open before anything is written
        if path != "-" and not _is_fifo(path):
            open_input(path).close()
    if totals is None:
        totals = Totals(keep_problems=run.fmt == "json")
    writer.start()
    with collector_eased():
        for path in paths:
            for chunk in settle_input(path, run):
                gc.freeze()  # what a chunk left alive (the regions' schemas, kept texts) is not walked again
                totals.add(chunk)
                writer.add(chunk)
                if run.on_chunk:
                    run.on_chunk(totals, chunk)
                if chunk.stopped:
                    break
            if totals.stopped:
                break
    writer.finish(totals)
    return totals


def _is_fifo(path: str) -> bool:
    """Whether ``path`` names a FIFO (a named pipe): :func:`run_batch` does not open it ahead to see
    that it opens, since a FIFO opened and closed loses its writer (it waits for a reader, writes,
    and is gone, or dies of SIGPIPE) and the second open then waits for ever; it is opened once,
    when its turn comes."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):  # no such file ...: opened ahead, to say so before anything is written
        return False


@contextmanager
def collector_eased() -> Iterator[None]:
    """Run a batch with every object alive when it starts frozen (:func:`gc.freeze`: the modules, the
    models and their validators, hundreds of thousands of objects), so that the cyclic garbage collector's
    full collections during the batch walk only what the batch made (:func:`run_batch` freezes again after
    each chunk: the regions' schemas and the kept texts made by then).  A hand makes no cycles (its objects
    are freed by their counts).  Afterwards the frozen objects are collected as before (:func:`gc.unfreeze`);
    worker processes forked during the batch start with the parent's frozen objects."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def settle_input(path: str, run: BatchRun) -> Iterator[Chunk]:
    """The chunks of one input (``-`` is stdin): streamed JSON Lines, or documents parsed whole by
    the loader.  Raises ValueError for an unknown ``run.input_format``, :class:`~settle.errors.HandError`
    when the input cannot be opened."""
    if run.input_format not in INPUT_FORMATS:
        raise ValueError(f"unknown input format {run.input_format!r}: expected one of {', '.join(INPUT_FORMATS)}")
    source = STDIN if path == "-" else path
    stream = open_input(path)
    try:
        kind, head = run.input_format, b""
        if kind == "auto" and path.lower().endswith(JSONL_SUFFIXES):
            kind = "jsonl"
        elif kind == "auto" and path == "-":
            head = stream.read(SNIFF_BYTES)
            kind = "jsonl" if sniff_jsonl(head) else "auto"
        if kind == "jsonl":
            yield from jsonl_chunks(stream, head, source, run)
        else:
            # One byte past the limit is enough for the loader to refuse an endless input (/dev/zero).
            from settle.loader import MAX_DOCUMENT_BYTES

            rest = stream.read(MAX_DOCUMENT_BYTES + 1 - len(head))
            yield from document_chunks(head + rest, source, kind, run)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def document_chunks(raw: bytes, source: str, kind: str, run: BatchRun, size: int = 500) -> Iterator[Chunk]:
    """Settle a whole YAML/JSON input in groups of ``size`` hands, in order.  The loader parses here
    while worker processes settle the groups, once the input passes :data:`PARALLEL_BYTES`."""
    from settle.loader import iter_documents

    items = iter_documents(raw, source, fmt=kind)
    groups = iter(lambda: [item for _, item in zip(range(size), items, strict=False)], [])
    jobs = run.jobs if run.jobs > 0 else (worker_count() if len(raw) > PARALLEL_BYTES else 1)
    tasks = ((group, source, run.fmt, run.strict, run.json_lang, run.standings) for group in groups)
    text: str | None = None
    for chunk in chunk_map(documents_task, tasks, jobs):
        if chunk.problems and source == STDIN:  # stdin cannot be read again for the columns (issue 16 #9)
            from settle.errors import with_columns

            if text is None:
                text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
            chunk.problems = with_columns(chunk.problems, text)
        yield chunk
        if chunk.stopped:
            return


def jsonl_chunks(stream: BinaryIO, head: bytes, source: str, run: BatchRun) -> Iterator[Chunk]:
    """Settle JSON Lines block by block (after ``head``, bytes already read), in order; in worker
    processes once the input is large.

    Here the blocks are only found and numbered (their first line and hand, for the labels and the
    errors' lines: :func:`~settle.engine.batch.reading.line_spans`); a forked worker reads a block of
    a regular file itself (:func:`jsonl_span_task`, stdin too when it is one), and is sent the block
    of any other input (a pipe).  The output comes back by :func:`~settle.engine.batch.pool.chunk_map`.
    Raises :class:`~settle.errors.HandError` when a worker finds the file shorter than it was read, or
    when a line goes on far past the loader's limit (:func:`~settle.engine.batch.reading.line_spans`).
    """
    origin = _file_start(stream, head)  # taken before anything more is read
    spans = line_spans(stream, head, BLOCK_BYTES, source)
    first: list[tuple[bytes, int, int, int]] = []
    seen = 0
    for span in spans:  # read ahead up to PARALLEL_BYTES to decide whether workers pay off
        first.append(span)
        seen += len(span[0])
        if seen > PARALLEL_BYTES:
            break
    else:
        spans = iter(())
    if not first:  # no hand at all: the loader's own message for an empty input
        yield encode(jsonl_outcomes(b"", source, 1, 1), run.fmt, run.strict, run.json_lang, run.standings)
        return
    jobs = run.jobs if run.jobs > 0 else (worker_count() if seen > PARALLEL_BYTES else 1)
    fmt, strict, lang, tallied = run.fmt, run.strict, run.json_lang, run.standings
    if origin is None or jobs <= 1 or not forks():
        tasks: Iterator[Any] = ((block, source, line, index, fmt, strict, lang, tallied)
                                for block, _, line, index in _chain(first, spans))
        yield from _until_stopped(chunk_map(jsonl_task, tasks, jobs))
        return
    # The workers' own descriptor of the file, read with pread (its offset is shared with the workers).
    fd = os.dup(stream.fileno())
    try:
        tasks = ((fd, origin + offset, len(block), source, line, index, fmt, strict, lang, tallied)
                 for block, offset, line, index in _chain(first, spans))
        yield from _until_stopped(chunk_map(jsonl_span_task, tasks, jobs))
    except InputChanged:
        raise HandError.at((), f"cannot read {source}: it changed while it was read") from None
    finally:
        os.close(fd)


def _until_stopped(chunks: Iterator[Chunk]) -> Iterator[Chunk]:
    """``chunks`` up to the first that ``strict`` stopped at (included)."""
    for chunk in chunks:
        yield chunk
        if chunk.stopped:
            return


def _file_start(stream: BinaryIO, head: bytes) -> int | None:
    """Where in its file ``head`` + the rest of ``stream`` start, when ``stream`` is a regular file that
    workers can read themselves (``os.pread``; ``head``, if any, the bytes just read from it), else None."""
    try:
        fd = stream.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        start = stream.tell() - len(head)
        if start < 0 or (head and os.pread(fd, len(head), start) != head):
            return None
    except (AttributeError, OSError, ValueError):  # no descriptor (a BytesIO), or no position
        return None
    return start


def _chain(first: list[Any], rest: Iterator[Any]) -> Iterator[Any]:
    while first:
        yield first.pop(0)  # popped so the read-ahead blocks can be freed once sent
    yield from rest


# --- worker entry points ------------------------------------------------------------------------------


def jsonl_task(task: tuple[bytes, str, int, int, str, bool, str, bool]) -> Chunk:
    """Worker entry point: ``(block, source, first_line, first_index, fmt, strict, lang, standings)`` -> the
    encoded :class:`Chunk` (its ``size``: the block's bytes with its newline; its standings tallied when
    ``standings``: :attr:`BatchRun.standings`)."""
    block, source, first_line, first_index, fmt, strict, lang, tallied = task
    # A block's hands stay alive together through its passes (jsonl_outcomes), and make no cycles.
    with collector_paused():
        chunk = encode(jsonl_outcomes(block, source, first_line, first_index), fmt, strict, lang, tallied)
    if chunk.problems and source == STDIN:  # stdin cannot be read again for the columns (issue 16 #9)
        chunk.problems = block_columns(chunk.problems, block, first_line)
    chunk.size = len(block) + 1
    return chunk


def jsonl_span_task(task: tuple[int, int, int, str, int, int, str, bool, str, bool]) -> Chunk:
    """Worker entry point for a block the worker reads itself: ``(fd, offset, length, source, first_line,
    first_index, fmt, strict, lang, standings)`` -> :func:`jsonl_task` of the ``length`` bytes at ``offset`` of the
    regular file open as ``fd`` (the parent's duplicate, inherited; ``os.pread`` moves no position).
    Raises :class:`InputChanged` when the file no longer has those bytes (it shrank)."""
    fd, offset, length, source, first_line, first_index, fmt, strict, lang, tallied = task
    block = os.pread(fd, length, offset)
    if len(block) != length:
        raise InputChanged(source)
    return jsonl_task((block, source, first_line, first_index, fmt, strict, lang, tallied))


class InputChanged(Exception):
    """A worker found fewer bytes in a JSON Lines file than the parent had read there: the file
    changed while it was settled (raised in the worker, reported by :func:`jsonl_chunks`)."""


def documents_task(task: tuple[list[Any], str, str, bool, str, bool]) -> Chunk:
    """Worker entry point: ``(loader items, source, fmt, strict, lang, standings)`` -> the encoded
    :class:`Chunk`."""
    items, source, fmt, strict, lang, tallied = task
    return encode(document_outcomes(items, source), fmt, strict, lang, tallied)
