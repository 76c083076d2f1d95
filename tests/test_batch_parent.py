"""The batch parent out of the data path (issue 14): workers read their blocks of a regular file and
hand their output back through shared memory, and every way in gives the same output.

The parent finds the JSON Lines blocks and numbers them (:func:`settle.engine.batch.reading.line_spans`:
each block with its place in the input, its first line and first hand); a forked worker reads a
block of a regular file itself (:func:`settle.engine.batch.run.jsonl_span_task`) and puts its output
in a slot of shared memory (:func:`settle.engine.batch.pool.chunk_map`).  Stdin and pipes keep
sending the blocks.  Workers start with SIGTERM's default action and Ctrl-C ignored, whatever the
parent's handlers (``Pool.terminate`` must end them).
"""

from __future__ import annotations

import io
import json
import mmap
import os
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import settle.engine.batch.pool as pool
import settle.engine.batch.run as batch_run
import settle.loader as loader
from settle.engine.batch import BatchRun, Chunk, StreamWriter, line_blocks, ordered_map, run_batch
from settle.engine.batch.reading import hand_count, line_spans
from settle.engine.batch.run import InputChanged, jsonl_span_task
from settle.errors import HandError

BLANKS = [b"", b" ", b"\t", b"\r", b"\x0b", b"\x0c", b"  \r"]


def old_line_blocks(stream: Any, head: bytes = b"", size: int = 1 << 19) -> Iterator[tuple[bytes, int, int]]:
    """:func:`line_blocks` as it was before the blocks had places (issue 13), the reference."""
    line, index, pending, skipping = 1, 1, head, False
    while True:
        data = stream.read(size)
        if not data:
            break
        pending += data
        cut = pending.rfind(b"\n")
        if skipping:
            if cut < 0:
                pending = b""
                continue
            pending, skipping = pending[pending.find(b"\n") + 1:], False
            line += 1
            cut = pending.rfind(b"\n")
        if cut < 0:
            if len(pending) > loader.MAX_DOCUMENT_BYTES:
                yield pending, line, index
                index, pending, skipping = index + 1, b"", True
            continue
        block, pending = pending[:cut], pending[cut + 1:]
        hands = hand_count(block)
        if hands:
            yield block, line, index
        line += block.count(b"\n") + 1
        index += hands
    if pending.strip() and not skipping:
        yield pending, line, index


def random_input(rng: random.Random, long: int = 0) -> bytes:
    """Lines of hands (short JSON text), blank lines of every kind, CRLF, maybe no final newline, and
    with ``long`` a few lines of about that many bytes."""
    lines = []
    for i in range(rng.randint(0, 40)):
        kind = rng.random()
        if kind < 0.3:
            lines.append(rng.choice(BLANKS))
        elif long and kind < 0.4:
            lines.append(b'{"x": "' + b"y" * rng.randint(long - 5, long + 5) + b'"}')
        else:
            lines.append(b'{"n": %d}' % i + rng.choice([b"", b"\r", b" "]))
    text = b"\n".join(lines)
    return text + rng.choice([b"", b"\n", b"\n\n"])


def test_spans_are_the_old_blocks_with_their_places(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random("settle-spans")
    for case in range(600):
        long = 0
        if case % 3 == 0:  # lines over the loader's limit, passed on alone
            monkeypatch.setattr(loader, "MAX_DOCUMENT_BYTES", 24)
            long = 24
        else:
            monkeypatch.setattr(loader, "MAX_DOCUMENT_BYTES", 64 << 20)
        data, size = random_input(rng, long), rng.randint(1, 64)
        spans = list(line_spans(io.BytesIO(data), b"", size))
        assert [(b, line, i) for b, _, line, i in spans] == list(old_line_blocks(io.BytesIO(data), b"", size))
        assert [(b, line, i) for b, _, line, i in spans] == list(line_blocks(io.BytesIO(data), b"", size))
        for block, offset, _, _ in spans:
            assert data[offset:offset + len(block)] == block


def numbered_lines(blocks: list[tuple[bytes, int, int]]) -> list[tuple[int, int, bytes]]:
    """The hands of ``blocks`` as (line, hand, text): what the blocks stand for, wherever they are cut."""
    out = []
    for block, line, index in blocks:
        for k, text in enumerate(block.split(b"\n")):
            if text.strip():
                out.append((line + k, index, text))
                index += 1
    return out


def test_spans_after_a_head_number_the_same_lines() -> None:
    """After bytes already read (stdin sniffed), the same hands on the same lines, at the same places."""
    rng = random.Random("settle-spans-head")
    for _ in range(300):
        data = random_input(rng)
        cut, size = rng.randint(0, len(data)), rng.randint(1, 64)
        spans = list(line_spans(io.BytesIO(data[cut:]), data[:cut], size))
        assert numbered_lines([(b, line, i) for b, _, line, i in spans]) == \
            numbered_lines(list(old_line_blocks(io.BytesIO(data), b"", size)))
        for block, offset, _, _ in spans:
            assert data[offset:offset + len(block)] == block


# --- workers ---------------------------------------------------------------------------------------------


def sized_chunk(size: int) -> Chunk:
    """A worker entry point for the tests: a chunk of ``size`` bytes of output (picklable: module level)."""
    return Chunk(data=bytes(range(256)) * (size // 256) + b"x" * (size % 256), hands=size)


def test_chunk_map_gives_back_every_chunk_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "SLOT_BYTES", 4096)  # the workers are forked after this: theirs too
    sizes = [0, 1, 4095, 4096, 4097, 10_000, 17, 4096 * 3] * 3
    got = list(pool.chunk_map(sized_chunk, iter(sizes), 2))
    assert [c.data for c in got] == [sized_chunk(n).data for n in sizes]
    assert [c.hands for c in got] == sizes


def test_a_chunk_in_a_slot_leaves_the_result_pipe_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    area = mmap.mmap(-1, 2 * pool.SLOT_BYTES)
    monkeypatch.setattr(pool, "_AREA", area)
    chunk, slot, length = pool._in_slot((sized_chunk, 1000, 1))
    assert (chunk.data, slot, length) == (b"", 1, 1000)
    assert area[pool.SLOT_BYTES:pool.SLOT_BYTES + 1000] == sized_chunk(1000).data
    big = pool.SLOT_BYTES + 1
    chunk, _, length = pool._in_slot((sized_chunk, big, 0))
    assert length == -1 and chunk.data == sized_chunk(big).data
    monkeypatch.setattr(pool, "_AREA", None)  # no slots (one process): the output stays in the chunk
    assert pool._in_slot((sized_chunk, 10, 0))[2] == -1


def worker_signals(_: int) -> tuple[Any, Any]:
    """A worker entry point for the tests: the worker's SIGTERM and SIGINT handlers."""
    return signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)


def parent_handler(signum: int, frame: object) -> None:  # pragma: no cover - never delivered
    raise RuntimeError("the parent's handler ran")


@pytest.mark.skipif(not pool.forks(), reason="workers are forked only where fork exists")
def test_workers_do_not_run_the_parents_signal_handlers(monkeypatch: pytest.MonkeyPatch) -> None:
    old = signal.signal(signal.SIGTERM, parent_handler), signal.signal(signal.SIGINT, parent_handler)
    try:
        got = list(ordered_map(worker_signals, iter(range(4)), 2))
        assert signal.getsignal(signal.SIGTERM) is parent_handler  # the parent keeps its own
    finally:
        signal.signal(signal.SIGTERM, old[0])
        signal.signal(signal.SIGINT, old[1])
    assert got == [(signal.SIG_DFL, signal.SIG_IGN)] * 4


# --- every way in: the same output ------------------------------------------------------------------------


def hands_file(tmp_path: Path) -> Path:
    """A JSON Lines file of good, bad and unlabelled hands with blank lines, over many small blocks."""
    from bench.bench_batch import generate

    lines = []
    for i, hand in enumerate(generate(300, seed=7)):
        if i % 11 == 0:
            hand.pop("id")
        if i % 13 == 0:
            hand["dealer"] = "nobody"
        lines.append(json.dumps(hand, ensure_ascii=False))
        if i % 17 == 0:
            lines.append("")
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(paths: list[str], **settings: Any) -> str:
    out = io.StringIO()
    run_batch(paths, StreamWriter(out, settings.get("fmt", "jsonl")), BatchRun(**settings))
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "json"])
def test_a_file_read_by_the_workers_writes_what_one_process_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    path = hands_file(tmp_path)
    monkeypatch.setattr(batch_run, "BLOCK_BYTES", 3000)
    single = run([str(path)], fmt=fmt, jobs=1)
    assert run([str(path)], fmt=fmt, jobs=2) == single
    assert single.count("nobody") > 10


@pytest.mark.parametrize("strict", [False, True])
def test_stdin_from_a_pipe_and_from_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strict: bool) -> None:
    path = hands_file(tmp_path)
    monkeypatch.setattr(batch_run, "BLOCK_BYTES", 3000)
    expected = run([str(path)], jobs=1, strict=strict).replace(str(path), "<stdin>")
    data = path.read_bytes()
    for input_format in ("auto", "jsonl"):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child writes the pipe and leaves
            os.close(read)
            with os.fdopen(write, "wb") as sink:
                sink.write(data)
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as piped:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(piped))
            assert run(["-"], jobs=2, strict=strict, input_format=input_format) == expected
        os.waitpid(pid, 0)
        with path.open("rb") as regular:  # `settle batch - < hands.jsonl`: a regular file on stdin
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(regular))
            assert run(["-"], jobs=2, strict=strict, input_format=input_format) == expected


def test_stdin_part_read_already_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A regular file on stdin whose first lines were read by someone else: the rest, numbered from there."""
    path = hands_file(tmp_path)
    monkeypatch.setattr(batch_run, "BLOCK_BYTES", 3000)
    data = path.read_bytes()
    start = data.index(b"\n", len(data) // 3) + 1
    rest = tmp_path / "rest.jsonl"
    rest.write_bytes(data[start:])
    expected = run([str(rest)], jobs=1, input_format="jsonl").replace(str(rest), "<stdin>")
    with path.open("rb") as regular:
        regular.seek(start)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(regular))
        assert run(["-"], jobs=2, input_format="jsonl") == expected


def test_a_block_past_the_end_of_the_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "short.jsonl"
    path.write_bytes(b'{"region": "wuhan"}\n')
    with path.open("rb") as stream:
        with pytest.raises(InputChanged):
            jsonl_span_task((stream.fileno(), 0, 40, str(path), 1, 1, "jsonl", False, "en", True))
        chunk = jsonl_span_task((stream.fileno(), 0, 19, str(path), 1, 1, "jsonl", False, "en", True))
    assert chunk.hands == 1 and chunk.bad == 1 and chunk.size == 20

    def shrunk(*_: Any) -> Iterator[Chunk]:
        raise InputChanged(str(path))
        yield Chunk()  # pragma: no cover

    monkeypatch.setattr(batch_run, "chunk_map", shrunk)
    with pytest.raises(HandError, match=r"cannot read .*short\.jsonl: it changed while it was read"):
        run([str(path)], jobs=2)
