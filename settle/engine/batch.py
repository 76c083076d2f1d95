"""Settling many hands at once: ``settle batch`` and the record-level library API.

A batch is one or more inputs, each a YAML stream (``---``), a YAML list, a JSON
array or JSON Lines (one hand per line; regions may be mixed).  Every hand is
settled on its own and identified by its ``id`` or by ``file:index``; a bad hand is
reported (id, key path, line, message) and never stops the good ones, unless
``strict`` asks to stop at the first bad hand.

Shapes:

* an :class:`Outcome` is one hand: its label and its :class:`~settle.core.Settlement`
  or its :class:`~settle.errors.HandError`;
* a :class:`Chunk` is the settled, already encoded output of consecutive hands, with the
  partial standings and the problems found; chunks are what worker processes return;
* :data:`Standings` is ``player -> [net, hands, won, dealt_in, liable, capped, golden]``.

JSON Lines is streamed: blocks of whole lines are settled one after another, so memory
does not grow with the file.  Other inputs are parsed whole by :mod:`settle.loader`
(libyaml when available) and settled in groups.  Either way, once an input is large, worker
processes settle the blocks or groups while the results are written in input order.

Library use in a notebook or on a partition of a data engine: :func:`settle_records`
(plain dicts in, JSON-ready dicts out) or :func:`settle.engine.hand.settle_many`.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import IO, Any, BinaryIO

from settle.engine.hand import settle_hand
from settle.core import Settlement
from settle.errors import HandError, Problem, counted, format_path

BATCH_FORMATS = ("table", "json", "jsonl", "csv", "markdown")
INPUT_FORMATS = ("auto", "yaml", "json", "jsonl")
JSONL_SUFFIXES = (".jsonl", ".ndjson")

BLOCK_BYTES = 1 << 19
"""JSON Lines are read and settled in blocks of about this many bytes (whole lines): big
enough that a worker round trip is cheap next to the work, small enough to keep memory flat."""

PARALLEL_BYTES = 4 << 20
"""``jobs=0`` (auto) starts worker processes only once an input is longer than this (about 15,000
JSON Lines hands): below it the processes cost more to start than they save."""

WINDOW_PER_JOB = 3
"""Blocks in flight per worker; bounds memory (Pool.imap would read the whole input ahead)."""


# --- one hand ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One hand of a batch: ``label`` (its id, or ``file:index``) and the result or the error."""

    label: str
    result: Settlement | None = None
    error: HandError | None = None


def hand_label(data: Any, source: str, index: int) -> str:
    """The hand's ``id`` (text or whole number, as text) when it has one, else ``source:index``
    (the same rule as :attr:`settle.loader.Document.label`)."""
    if isinstance(data, Mapping):
        given = data.get("id")
        if (isinstance(given, str) and given) or (isinstance(given, int) and not isinstance(given, bool)):
            return str(given)
    return f"{source}:{index}"


def settle_data(data: Any, label: str, lines: dict[Any, int], source: str) -> Outcome:
    """Settle one parsed hand; a :class:`HandError` comes back located (line, hand, source)."""
    try:
        return Outcome(label, settle_hand(data))
    except HandError as exc:
        return Outcome(label, error=exc.located(lines, hand=str(label), source=source))


def record(outcome: Outcome) -> dict[str, Any]:
    """JSON form of one hand: ``{"id", ...Settlement.as_dict()}`` or ``{"id", "error": [problems]}``."""
    if outcome.result is None:
        assert outcome.error is not None
        return {"id": outcome.label, "error": [p.as_dict() for p in outcome.error.problems]}
    out: dict[str, Any] = {"id": outcome.label}
    out.update(outcome.result.as_dict())
    out["id"] = outcome.label  # as_dict echoes only a stated id; the label covers file:index too
    return out


def settle_records(hands: Iterable[Mapping[str, Any]], source: str = "hand") -> Iterator[dict[str, Any]]:
    """Settle plain hand dicts lazily, yielding one JSON-ready dict per hand, in order.

    Each dict is :func:`record`'s: the settlement (``net``, ``transfers``, ...) with ``id``, or
    ``{"id", "error": [...]}`` for a bad hand; never raises for bad input.  Hands without an
    ``id`` are labelled ``source:index`` (1-based).  Memory does not grow with the input, so
    it can be mapped over a stream or over the partitions of a data engine.
    """
    for index, data in enumerate(hands, 1):
        yield record(settle_data(data, hand_label(data, source, index), {}, source))


# --- standings ----------------------------------------------------------------------------------

STANDING_KEYS = ("net", "hands", "won", "dealt_in", "liable", "capped", "golden")
"""Per player: total net (points), hands played, hands won, 点炮/放冲 given (discarder or robbed
player, G6), times liable (包牌/承包), hands won with a capped payment (封顶), and hands won with
a golden cap (金顶/金鼎/光明顶)."""

Standings = dict[str, list[int]]

CAP_MARKS = ("capped at", ", the cap (", "pays the cap")
"""How the explanations say a payment was capped or reached the cap exactly (core.cap, Rushan's
split cap, Wuxue W10): "capped" is reaching the cap (>=, G13)."""
GOLDEN_MARKS = ("金顶", "金鼎", "光明顶")
"""How the explanations name a golden cap (Wuhan H6, Wuxue W8)."""


def tally(standings: Standings, result: Settlement) -> None:
    """Add one settled hand to ``standings`` (see :data:`STANDING_KEYS`)."""
    for name, amount in result.net.items():
        row = standings.get(name)
        if row is None:
            row = standings[name] = [0] * len(STANDING_KEYS)
        row[0] += amount
        row[1] += 1
    for name, roles in result.roles.items():
        row = standings[name]
        for role in roles:
            if role == "winner":
                row[2] += 1
                capped, golden = cap_hits(result, name)
                row[5] += capped
                row[6] += golden
            elif role in ("discarder", "robbed"):
                row[3] += 1
            elif role == "liable":
                row[4] += 1


def cap_hits(result: Settlement, winner: str) -> tuple[bool, bool]:
    """Whether a payment to ``winner`` was capped, and whether one was a golden cap.

    Read from the transfers' explanations: a :class:`Settlement` keeps no separate flag.
    """
    text = "\n".join([t.why for t in result.transfers if t.payee == winner])  # no mark holds a newline
    golden = any(mark in text for mark in GOLDEN_MARKS)
    return golden or any(mark in text for mark in CAP_MARKS), golden


def merge_standings(into: Standings, other: Standings) -> None:
    """Add ``other`` into ``into``, keeping first-seen player order."""
    for name, row in other.items():
        mine = into.get(name)
        if mine is None:
            into[name] = list(row)
        else:
            for i, n in enumerate(row):
                mine[i] += n


def ranked(standings: Standings) -> list[tuple[str, dict[str, int]]]:
    """Players by total net, highest first (ties keep first-seen order), as key -> value dicts."""
    order = sorted(standings.items(), key=lambda item: -item[1][0])
    return [(name, dict(zip(STANDING_KEYS, row, strict=True))) for name, row in order]


# --- encoding settled hands -------------------------------------------------------------------------


@dataclass
class Chunk:
    """Consecutive hands, settled and encoded for one output format.

    ``text``: the hands' output (JSON Lines, the JSON array's items, or CSV rows), ready to
    write; ``rows``: table/markdown rows (kept for one tabulate call at the end);
    ``standings``: their partial standings; ``problems``: every problem of the bad hands;
    ``hands``/``bad``: counts; ``stopped``: ``strict`` met a bad hand (later hands skipped);
    ``size``: input bytes the chunk covered, where known (JSON Lines), for the progress bar.
    """

    text: str = ""
    rows: list[list[Any]] = field(default_factory=list)
    standings: Standings = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    hands: int = 0
    bad: int = 0
    stopped: bool = False
    size: int = 0


def encode(outcomes: Iterable[Outcome], fmt: str, strict: bool = False) -> Chunk:
    """Tally and encode ``outcomes`` for ``fmt`` (one of :data:`BATCH_FORMATS`).

    With ``strict`` the chunk ends with the first bad hand (included, so it is reported).
    """
    chunk = Chunk()
    pieces: list[str] = []
    line = _line_encoder(fmt)
    for outcome in outcomes:
        chunk.hands += 1
        if outcome.result is not None:
            tally(chunk.standings, outcome.result)
        else:
            assert outcome.error is not None
            chunk.bad += 1
            chunk.problems.extend(outcome.error.problems)
        if line is None:
            chunk.rows.append(table_row(outcome))
        else:
            pieces.append(line(outcome))
        if strict and outcome.error is not None:
            chunk.stopped = True
            break
    if fmt == "jsonl":
        chunk.text = "\n".join(pieces) + "\n" if pieces else ""
    else:  # JSON array items are joined by the writer's commas; CSV lines end with their newline
        chunk.text = (",\n" if fmt == "json" else "").join(pieces)
    return chunk


def _line_encoder(fmt: str) -> Callable[[Outcome], str] | None:
    if fmt in ("json", "jsonl"):
        return _json_line
    if fmt == "csv":
        return csv_line
    return None


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
"""One encoder for every line: ``json.dumps(..., ensure_ascii=False)`` would build a new one per call."""

_STR = json.encoder.encode_basestring  # what _ENCODE writes for a str (ensure_ascii=False)
_NUMBERS: dict[type, Callable[[int], str]] = {int: int.__repr__}
"""How ``_ENCODE`` writes an int (not a bool, which is an int too, nor an int subclass: those go to it)."""


class _Texts(dict):  # type: ignore[type-arg]
    """``_STR`` of names, role keys and player lists, remembered (hands repeat them); a bounded cache."""

    def __init__(self, encode: Callable[[Any], str]) -> None:
        super().__init__()
        self.encode = encode

    def __missing__(self, key: Any) -> str:
        if len(self) >= 4096:
            self.clear()
        text = self[key] = self.encode(key)
        return text


_NAMES = _Texts(_STR)
_LISTS = _Texts(lambda items: "[" + ", ".join(map(_STR, items)) + "]")  # a tuple of str -> a JSON list


def _json_line(outcome: Outcome) -> str:
    """``_ENCODE(record(outcome))``: a settled hand's line is written directly, to the same bytes."""
    result = outcome.result
    if result is not None and result.forfeit is None:
        line = _settled_line(outcome.label, result)
        if line is not None:
            return line
    return _ENCODE(record(outcome))


def _settled_line(label: str, r: Settlement) -> str | None:
    """The JSON of :func:`record` for a settled hand, written without building the dict, or None when
    a value is not of the usual type (not a str name or text, not an int amount): ``_ENCODE`` then
    writes the line.  Same keys, order, separators and string escapes as ``_ENCODE``."""
    text, name, names, number = _STR, _NAMES, _LISTS, _NUMBERS
    net, scores, transfers = r.net, r.scores, r.transfers
    try:  # _STR raises TypeError for anything but a str, _NUMBERS KeyError for anything but an int
        return "".join((
            '{"id": ', text(label),
            ', "region": ', name[r.region],
            ', "players": ', names[tuple(r.players)],
            ', "net": {', ", ".join([f"{name[k]}: {number[type(v)](v)}" for k, v in net.items()]),
            '}, "transfers": [', ", ".join([
                f'{{"from": {name[t.payer]}, "to": {name[t.payee]}, "amount": {number[type(t.amount)](t.amount)}, '
                f'"why": {text(t.why)}}}' for t in transfers]),
            '], "next_dealer": ', "null" if r.next_dealer is None else name[r.next_dealer],
            ', "roles": {', ", ".join([f"{name[k]}: {names[tuple(v)]}" for k, v in r.roles.items() if v]),
            '}, "scores": {', ", ".join([f"{name[k]}: {number[type(v)](v)}" for k, v in scores.items()]),
            '}, "unit": ', name[r.unit],
            ', "liable": ', "null" if r.liable is None else name[r.liable],
            ', "notes": [', ", ".join(map(text, r.notes)),
            "]}",
        ))
    except (TypeError, KeyError):  # a bool, float ... or a name that is not text: the general encoder
        return None


def how(result: Settlement) -> str:
    """How the hand ended, from the roles: ``self_draw``, ``discard from A``, ``draw``, ``abandon by B``."""
    by_role = {role: name for name, roles in result.roles.items() for role in roles}
    if "abandoned" in by_role:
        return f"abandon by {by_role['abandoned']}"
    if "winner" not in by_role:
        return "draw"
    if "robbed" in by_role:
        return f"robbed_kong from {by_role['robbed']}"
    if "discarder" in by_role:
        return f"discard from {by_role['discarder']}"
    return "self_draw"


def winners(result: Settlement) -> list[str]:
    """The winner(s) in seat order (several only for Rushan 一炮多响)."""
    return [name for name in result.players if "winner" in result.roles.get(name, ())]


def table_row(outcome: Outcome) -> list[Any]:
    """``[id, region, winner, how, net]`` with ``net`` a name -> points dict, or the error text."""
    result = outcome.result
    if result is None:
        assert outcome.error is not None
        first = outcome.error.problems[0]
        more = len(outcome.error.problems) - 1
        text = f"{first.message}" + (f" (+{more} more)" if more else "")
        return [outcome.label, "", "", f"bad hand: {_path_text(first)}", text]
    return [outcome.label, result.region, "+".join(winners(result)), how(result), dict(result.net)]


def _path_text(problem: Problem) -> str:
    return format_path(problem.path)


CSV_SEATS = 4
CSV_HEADER = ["id", "region", "winner", "how",
              *[f"{kind}_{i}" for i in range(1, CSV_SEATS + 1) for kind in ("player", "net")], "error"]
"""CSV columns: fixed seat columns (player_1, net_1, ... player_4, net_4) so rows stream."""


def csv_line(outcome: Outcome) -> str:
    """One CSV row (with its newline) for a hand, in :data:`CSV_HEADER` columns."""
    label, region, winner, ended, net = table_row(outcome)
    seats: list[Any] = []
    error = ""
    if isinstance(net, dict):
        for name, amount in net.items():
            seats += [name, amount]
    else:
        error = "; ".join(f"{_path_text(p)}: {p.message}" for p in outcome.error.problems)  # type: ignore[union-attr]
        ended = ""
    seats += [""] * (2 * CSV_SEATS - len(seats))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([label, region, winner, ended, *seats, error])
    return buf.getvalue()


# --- reading ------------------------------------------------------------------------------------------


def jsonl_outcomes(block: bytes, source: str, first_line: int, first_index: int) -> Iterator[Outcome]:
    """Settle each hand of ``block``: whole JSON Lines whose first line is line ``first_line`` of the
    file and whose first hand is hand ``first_index`` (1-based, blank lines not counted).

    Each line is read by :func:`settle.loader.iter_documents` (duplicate keys, encoding, size
    limits), then its line numbers and ``file:index`` label are moved from the block to the file.
    """
    from settle.loader import iter_documents

    shift = first_line - 1
    for index, item in enumerate(iter_documents(io.BytesIO(block), source, fmt="jsonl"), first_index):
        if isinstance(item, HandError):
            given = item.problems[0].hand if item.problems else None  # its id, or its place in the block
            label = given if given and given != f"{source}:{index - first_index + 1}" else f"{source}:{index}"
            line = _hand_line(block, index - first_index) + shift
            yield Outcome(label, error=HandError([_moved(p, line, label) for p in item.problems]))
            continue
        line = item.lines.get((), 1) + shift
        label = item.label if item.label != f"{source}:{item.index}" else f"{source}:{index}"
        yield settle_data(item.data, label, {(): line}, source)


def _hand_line(block: bytes, k: int) -> int:
    """1-based line in ``block`` of its ``k``-th (0-based) hand (non-blank line); only on the error path."""
    seen = -1
    for number, raw in enumerate(block.split(b"\n"), 1):
        if raw.strip():
            seen += 1
            if seen == k:
                return number
    return 1


def _moved(problem: Problem, line: int, label: str) -> Problem:
    """A loader problem of a JSON Lines hand, put on the hand's own line of the file (every key of
    the hand is on it), in the message text too."""
    message = problem.message
    if problem.line is not None:
        message = re.sub(rf"\bline {problem.line}\b", f"line {line}", message)
    return replace(problem, line=line, message=message, hand=label)


def jsonl_task(task: tuple[bytes, str, int, int, str, bool]) -> Chunk:
    """Worker entry point: ``(block, source, first_line, first_index, fmt, strict)`` -> the :class:`Chunk`."""
    block, source, first_line, first_index, fmt, strict = task
    chunk = encode(jsonl_outcomes(block, source, first_line, first_index), fmt, strict)
    chunk.size = len(block) + 1
    return chunk


_BLANK_LINE = re.compile(rb"^[ \t\r\x0b\x0c]*$", re.MULTILINE)


def hand_count(block: bytes) -> int:
    """Non-blank lines in ``block`` (lines joined by ``\\n``, no final newline): its JSON Lines hands."""
    return block.count(b"\n") + 1 - len(_BLANK_LINE.findall(block))


def line_blocks(stream: BinaryIO, head: bytes = b"", size: int = 1 << 19) -> Iterator[tuple[bytes, int, int]]:
    """``(block, first_line, first_index)`` of whole lines read from ``stream`` (after ``head``).

    A block is lines joined by newlines, without the last newline; ``first_line`` is the
    1-based line of its first line and ``first_index`` the 1-based number of its first hand.
    Blocks without a hand are skipped.  A line longer than the loader's limit is passed on
    alone (the loader reports it) rather than held in memory.
    """
    from settle.loader import MAX_DOCUMENT_BYTES

    line, index, pending, skipping = 1, 1, head, False
    while True:
        data = stream.read(size)
        if not data:
            break
        pending += data
        cut = pending.rfind(b"\n")
        if skipping:  # the rest of an over-long line already passed on
            if cut < 0:
                pending = b""
                continue
            pending, skipping = pending[pending.find(b"\n") + 1:], False
            line += 1
            cut = pending.rfind(b"\n")
        if cut < 0:
            if len(pending) > MAX_DOCUMENT_BYTES:
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


def document_outcomes(items: Iterable[Any], source: str) -> Iterator[Outcome]:
    """Settle what :func:`settle.loader.iter_documents` yielded: each ``Document`` or ``HandError``."""
    for item in items:
        if isinstance(item, HandError):
            problems = item.problems
            label = problems[0].hand if problems and problems[0].hand else source
            yield Outcome(label, error=item.located(source=source))
            continue
        yield settle_data(item.data, item.label, item.lines, source)


def documents_task(task: tuple[list[Any], str, str, bool]) -> Chunk:
    """Worker entry point: ``(loader items, source, fmt, strict)`` -> the encoded :class:`Chunk`."""
    items, source, fmt, strict = task
    return encode(document_outcomes(items, source), fmt, strict)


def sniff_jsonl(head: bytes) -> bool:
    """Whether the start of an unnamed input (stdin) looks like JSON Lines: a first line that is a
    whole JSON object, followed by a line that starts another one."""
    lines = [line for line in head.split(b"\n") if line.strip()]
    if len(lines) < 2 or not lines[0].lstrip().startswith(b"{") or not lines[1].lstrip().startswith(b"{"):
        return False
    try:
        return isinstance(json.loads(lines[0]), dict)
    except ValueError:
        return False


# --- running a batch --------------------------------------------------------------------------------


@dataclass
class Totals:
    """What a batch run found: hand counts, the standings and the problems.

    ``problems`` are kept only when ``keep_problems`` (the JSON output's ``errors`` needs them);
    otherwise they go out with their chunk, so a file of bad hands does not fill memory.
    """

    hands: int = 0
    bad: int = 0
    stopped: bool = False
    standings: Standings = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    keep_problems: bool = True
    size: int = 0

    def add(self, chunk: Chunk) -> None:
        """Merge a chunk's counts, standings and (when kept) problems."""
        self.size += chunk.size
        self.hands += chunk.hands
        self.bad += chunk.bad
        self.stopped = self.stopped or chunk.stopped
        merge_standings(self.standings, chunk.standings)
        if self.keep_problems:
            self.problems.extend(chunk.problems)


@dataclass
class BatchRun:
    """Settings of one ``settle batch`` run.

    ``fmt``: output format (:data:`BATCH_FORMATS`); ``input_format``: ``auto`` (``.jsonl`` and
    ``.ndjson`` by name, stdin sniffed, else :mod:`settle.loader` decides) or forced;
    ``strict``: stop at the first bad hand; ``jobs``: worker processes that settle
    (0 = auto: up to 2 once the input passes :data:`PARALLEL_BYTES`; 1 = none);
    ``on_chunk``: called after each chunk with the running :class:`Totals` and the chunk
    (the CLI prints problems and progress from it).
    """

    fmt: str = "jsonl"
    input_format: str = "auto"
    strict: bool = False
    jobs: int = 0
    lang: str = "en"
    on_chunk: Callable[[Totals, Chunk], None] | None = None


def run_batch(paths: Iterable[str], out: IO[str], run: BatchRun) -> Totals:
    """Settle every hand of ``paths`` (``-`` is stdin) and write them to ``out`` in ``run.fmt``.

    Returns the :class:`Totals`; bad hands are in it (and in the output), never raised.
    Raises :class:`HandError` for an input that cannot be opened (before anything of it is written).
    """
    paths = list(paths)
    for path in paths:  # every input must open before anything is written
        if path != "-":
            _open(path).close()
    writer = BatchWriter(out, run.fmt, run.lang)
    totals = Totals(keep_problems=run.fmt == "json")
    writer.start()
    for path in paths:
        for chunk in settle_input(path, run):
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


def settle_input(path: str, run: BatchRun) -> Iterator[Chunk]:
    """The chunks of one input: streamed JSON Lines, or documents parsed whole by the loader."""
    if run.input_format not in INPUT_FORMATS:
        raise ValueError(f"unknown input format {run.input_format!r}: expected one of {', '.join(INPUT_FORMATS)}")
    source = "<stdin>" if path == "-" else path
    stream = _open(path)
    try:
        kind, head = run.input_format, b""
        if kind == "auto" and path.lower().endswith(JSONL_SUFFIXES):
            kind = "jsonl"
        elif kind == "auto" and path == "-":
            head = stream.read(BLOCK_BYTES)
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


def _open(path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # closed by settle_input's finally
    except OSError as exc:
        raise HandError.at((), f"cannot read {path}: {exc.strerror}") from None


def document_chunks(raw: bytes, source: str, kind: str, run: BatchRun, size: int = 500) -> Iterator[Chunk]:
    """Settle a whole YAML/JSON input in groups of ``size`` hands, in order.  The loader parses here
    while worker processes settle the groups, once the input passes :data:`PARALLEL_BYTES`."""
    from settle.loader import iter_documents

    items = iter_documents(raw, source, fmt=kind)
    groups = iter(lambda: [item for _, item in zip(range(size), items, strict=False)], [])
    jobs = run.jobs if run.jobs > 0 else (worker_count() if len(raw) > PARALLEL_BYTES else 1)
    tasks = ((group, source, run.fmt, run.strict) for group in groups)
    for chunk in ordered_map(documents_task, tasks, jobs):
        yield chunk
        if chunk.stopped:
            return


def jsonl_chunks(stream: BinaryIO, head: bytes, source: str, run: BatchRun) -> Iterator[Chunk]:
    """Settle JSON Lines block by block, in order; in worker processes once the input is large."""
    blocks = line_blocks(stream, head, BLOCK_BYTES)
    first: list[tuple[bytes, int, int]] = []
    seen = 0
    for block in blocks:  # read ahead up to PARALLEL_BYTES to decide whether workers pay off
        first.append(block)
        seen += len(block[0])
        if seen > PARALLEL_BYTES:
            break
    else:
        blocks = iter(())
    if not first:  # no hand at all: the loader's own message for an empty input
        yield encode(jsonl_outcomes(b"", source, 1, 1), run.fmt, run.strict)
        return
    jobs = run.jobs if run.jobs > 0 else (worker_count() if seen > PARALLEL_BYTES else 1)
    tasks = ((block, source, line, index, run.fmt, run.strict) for block, line, index in _chain(first, blocks))
    for chunk in ordered_map(jsonl_task, tasks, jobs):
        yield chunk
        if chunk.stopped:
            return


def _chain(first: list[Any], rest: Iterator[Any]) -> Iterator[Any]:
    while first:
        yield first.pop(0)  # popped so the read-ahead blocks can be freed once sent
    yield from rest


def worker_count() -> int:
    """Worker processes for ``jobs=0``: the CPUs this process may use, at most 2 (see bench/)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus))


def ordered_map(func: Callable[[Any], Chunk], tasks: Iterator[Any], jobs: int) -> Iterator[Chunk]:
    """``map(func, tasks)`` in order, over ``jobs`` worker processes when ``jobs > 1``.

    At most ``jobs * WINDOW_PER_JOB`` tasks are in flight, so the input is read only as fast as
    it is settled (``Pool.imap`` would queue the whole input).  Closing the iterator early
    (``strict``) terminates the workers.
    """
    if jobs <= 1:
        yield from map(func, tasks)
        return
    import multiprocessing

    _warm_regions()  # imported before the fork, so workers start warm
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs, initializer=_warm_regions) as pool:
        pending: deque[Any] = deque()
        for task in tasks:
            pending.append(pool.apply_async(func, (task,)))
            if len(pending) >= jobs * WINDOW_PER_JOB:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _warm_regions() -> None:
    from settle.rules.registry import all_regions

    all_regions()


# --- writing ----------------------------------------------------------------------------------------

STANDING_LABELS: dict[str, tuple[str, str]] = {
    "player": ("玩家", "player"),
    "net": ("总输赢", "net"),
    "hands": ("局数", "hands"),
    "won": ("胡", "won"),
    "dealt_in": ("点炮/放冲", "dealt in"),
    "liable": ("包", "liable"),
    "capped": ("封顶", "capped"),
    "golden": ("金顶", "golden"),
}
HAND_LABELS: dict[str, tuple[str, str]] = {
    "id": ("局", "id"),
    "region": ("地区", "region"),
    "winner": ("胡", "winner"),
    "how": ("胡法", "how"),
    "net": ("输赢", "net"),
}


def heading(labels: Mapping[str, tuple[str, str]], key: str, lang: str) -> str:
    """``net 输赢`` in English output (the Chinese beside it), ``输赢`` in Chinese output."""
    zh, en = labels[key]
    return zh if lang == "zh" else f"{en} {zh}"


class BatchWriter:
    """Writes a batch's chunks as they come: JSON Lines, JSON and CSV stream (one ``write`` per
    chunk); table and markdown keep the rows for one tabulate call at the end.

    JSON is ``{"hands": [...], "standings": {...}, "errors": [...]}``; CSV is the hands
    (:data:`CSV_HEADER`), a blank line, then the standings.
    """

    def __init__(self, out: IO[str], fmt: str, lang: str = "en") -> None:
        if fmt not in BATCH_FORMATS:
            raise ValueError(f"unknown batch format {fmt!r}")
        self.out, self.fmt, self.lang = out, fmt, lang
        self.rows: list[list[Any]] = []
        self.items = 0

    def start(self) -> None:
        """Write what comes before the first hand."""
        if self.fmt == "json":
            self.out.write('{"hands": [\n')
        elif self.fmt == "csv":
            self.out.write(",".join(CSV_HEADER) + "\n")

    def add(self, chunk: Chunk) -> None:
        """Write (or keep) one chunk's hands."""
        if chunk.text:
            if self.fmt == "json" and self.items:
                self.out.write(",\n")
            self.out.write(chunk.text)
        self.rows.extend(chunk.rows)
        self.items += chunk.hands

    def finish(self, totals: Totals) -> None:
        """Write the standings (and, for JSON, the errors) after the last hand."""
        if self.fmt == "json":
            standings = json.dumps(dict(ranked(totals.standings)), ensure_ascii=False)
            errors = json.dumps([p.as_dict() for p in totals.problems], ensure_ascii=False)
            self.out.write(f'\n],\n"standings": {standings},\n"errors": {errors}}}\n')
        elif self.fmt == "csv":
            self.out.write("\n" + standings_csv(totals.standings))
        elif self.fmt in ("table", "markdown"):
            self.out.write(self.tables(totals) + "\n")
        self.out.flush()

    def tables(self, totals: Totals) -> str:
        """The hands table and the standings table, through tabulate."""
        from tabulate import tabulate

        style = "github" if self.fmt == "markdown" else "simple"
        head, rows = hand_table(self.rows, self.lang)
        per_player = head[-1] != heading(HAND_LABELS, "net", self.lang)
        align = ("left",) * 4 + ("right" if per_player else "left",) * (len(head) - 4)
        blocks = [tabulate(rows, head, tablefmt=style, disable_numparse=True, colalign=align)] if rows else []
        s_head = [heading(STANDING_LABELS, k, self.lang) for k in ("player", *STANDING_KEYS)]
        s_rows = [[name, _signed(v["net"]), *(v[k] for k in STANDING_KEYS[1:])]
                  for name, v in ranked(totals.standings)]
        blocks.append(tabulate(s_rows, s_head, tablefmt=style, disable_numparse=True,
                               colalign=("left", *["right"] * len(STANDING_KEYS))))
        summary = f"{counted(totals.hands, 'hand')}, {totals.hands - totals.bad} settled, {totals.bad} bad"
        if totals.stopped:
            summary += " (stopped at the first bad hand: --strict)"
        blocks.append(summary)
        return "\n\n".join(blocks)


def hand_table(rows: list[list[Any]], lang: str) -> tuple[list[str], list[list[Any]]]:
    """Headings and rows for the hands table: one column per player when every hand has the same
    players, else one ``net`` column reading ``A -128, B -64, ...``."""
    names = _same_players(rows)
    head = [heading(HAND_LABELS, k, lang) for k in ("id", "region", "winner", "how")]
    if names is not None:
        out = [[*row[:4], *(_signed(row[4][n]) if isinstance(row[4], dict) else "" for n in names)]
               for row in rows]
        return head + names, out
    out = [[*row[:4], ", ".join(f"{n} {_signed(v)}" for n, v in row[4].items())
            if isinstance(row[4], dict) else row[4]] for row in rows]
    return [*head, heading(HAND_LABELS, "net", lang)], out


def _same_players(rows: list[list[Any]]) -> list[str] | None:
    names: list[str] | None = None
    for row in rows:
        if isinstance(row[4], dict):
            if names is None:
                names = list(row[4])
            elif set(names) != set(row[4]):
                return None
    return names


def standings_csv(standings: Standings) -> str:
    """The standings as CSV rows: ``player,net,hands,won,dealt_in,liable,capped,golden``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["player", *STANDING_KEYS])
    for name, v in ranked(standings):
        writer.writerow([name, *(v[k] for k in STANDING_KEYS)])
    return buf.getvalue()


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# --- progress -----------------------------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a terminal's stderr, for inputs that take a while.

    Shown only when ``stream`` is a terminal and ``CI`` is not set, and only once the run has
    taken ``delay`` seconds (so small inputs never show it); redrawn at most 10 times a second.
    With ``total`` (input bytes, when every input is a file) it draws a bar and a percentage
    of the JSON Lines read; otherwise a count.
    """

    def __init__(self, stream: IO[str] | None = None, delay: float = 1.0, total: int | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) and not os.environ.get("CI")
        self.start = time.monotonic()
        self.delay = delay
        self.total = total
        self.drawn = 0.0

    def update(self, totals: Totals, _chunk: Chunk | None = None) -> None:
        """Redraw the bar (hands settled, bad, hands/s) if it is time."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self.drawn < 0.1:
            return
        self.drawn = now
        rate = totals.hands / max(now - self.start, 1e-9)
        text = f"{totals.hands:,} hands, {totals.bad:,} bad, {rate:,.0f} hands/s"
        if self.total and totals.size:
            done = min(totals.size / self.total, 1.0)
            text = f"[{'#' * int(done * 30):<30}] {done:4.0%} " + text
        self.stream.write(f"\rsettle: {text} ")
        self.stream.flush()

    def done(self) -> None:
        """Clear the progress line, if one was drawn."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = 0.0


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
