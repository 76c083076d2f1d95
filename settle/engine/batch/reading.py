"""Reading a batch's inputs: opening them, sniffing JSON Lines, JSON Lines blocks with their line
numbers, and settling what the loader read (JSON Lines blocks or whole YAML/JSON documents).

JSON Lines is read in blocks of whole lines (:func:`line_blocks`), so memory does not grow with the
file; each block's hands keep the file's line numbers and ``file:index`` labels
(:func:`jsonl_outcomes`).  Other inputs are parsed whole by :mod:`settle.loader`
(:func:`document_outcomes`).
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, BinaryIO

from settle.engine.batch.outcome import Outcome, settle_data, settle_validated, settle_validated_all
from settle.engine.validation import lean_line, lean_lines
from settle.errors import HandError, Problem

if TYPE_CHECKING:
    from settle.model import Hand
    from settle.rules.registry import Region

INPUT_FORMATS = ("auto", "yaml", "json", "jsonl")
JSONL_SUFFIXES = (".jsonl", ".ndjson")

BLOCK_BYTES = 1 << 17
"""JSON Lines are read and settled in blocks of about this many bytes (whole lines): big
enough that a worker round trip is cheap next to the work (about 550 hands), small enough that a
block's hands, their settlements and its output (about 700 KiB) stay in a core's cache through the
passes of :func:`jsonl_outcomes`: 128 KiB blocks took 12-14% less CPU per hand than 512 KiB ones
(bench/README.md, issue 14).  What the batch writes does not depend on it (tests/test_block_cuts.py)."""

SNIFF_BYTES = 1 << 19
"""How much of standard input is read to tell JSON Lines from YAML (:func:`sniff_jsonl`): its first
:data:`SNIFF_LINES` non-blank lines within this many bytes."""


def open_input(path: str) -> BinaryIO:
    """``path`` opened for reading bytes, or stdin's bytes for ``-`` (the caller closes a file).

    Raises :class:`HandError` (``cannot read PATH: ...``) when the file cannot be opened.
    """
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # the caller closes it (settle_input's finally)
    except OSError as exc:
        raise HandError.at((), f"cannot read {path}: {exc.strerror}") from None


def sniff_jsonl(head: bytes) -> bool:
    """Whether the start of an unnamed input (stdin) looks like JSON Lines: of its first
    :data:`SNIFF_LINES` non-blank lines (each without a UTF-8 byte-order mark), at least two and more
    than half start a JSON object, none is a YAML ``---``, and one is a whole JSON object.  A bad
    line, a BOM or a line that is no object among them no longer makes JSON Lines read as YAML (one
    bad hand, every good line lost); lines that each start with ``{`` are never one YAML document."""
    lines = [line.strip().removeprefix(b"\xef\xbb\xbf").strip()
             for line in head.split(b"\n", SNIFF_LINES * 4)[:SNIFF_LINES * 4]]
    lines = [line for line in lines if line][:SNIFF_LINES]
    objects = [line for line in lines if line.startswith(b"{")]
    if len(objects) < 2 or 2 * len(objects) <= len(lines) or any(line.startswith(b"---") for line in lines):
        return False
    for line in objects:
        try:
            if isinstance(json.loads(line), dict):
                return True
        except ValueError:
            continue
    return False


SNIFF_LINES = 20
"""How many non-blank lines of standard input :func:`sniff_jsonl` looks at."""


# --- JSON Lines ---------------------------------------------------------------------------------------


_SPACE = (rb"(?:[ \t\r\x0b\x0c\x1c-\x1f]|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]"
          rb"|\xe2\x81\x9f|\xe3\x80\x80)")
"""One white-space character but ``\\n``, UTF-8 encoded: each character that ``str.strip`` strips (what
:func:`settle.loader.jsonl_lines` tests a decoded line with), U+001C ... U+001F and U+3000 among them
(issue 15 #3).  None of them but ``\\n`` ends a JSON Lines line."""
_BLANK_LINE = re.compile(_SPACE + rb"*")
_BLANK_FIRST = re.compile(rb"(?:\xef\xbb\xbf)?" + _SPACE + rb"*(?:\n|\Z)")
"""The first line of a block that starts its input may start with a UTF-8 BOM: the loader reads such a
block as a file and skips it there (:func:`_loader_outcomes`)."""
_BLANK_START = re.compile(_SPACE + rb"*(?:\n|\Z)")
"""The first line of a later block: a BOM there starts no input, so it is no white space (a line holding
one is a hand, a bad one, wherever the block happens to start)."""
_BLANK_LATER = re.compile(rb"\n" + _SPACE + rb"*(?=\n|\Z)")


def hand_count(block: bytes, starts_input: bool = True) -> int:
    """Non-blank lines in ``block`` (lines joined by ``\\n``, no final newline): its JSON Lines hands.

    A blank line holds only white space (:data:`_SPACE`: spaces, tabs, carriage returns, vertical tabs,
    form feeds, U+001C ... U+001F, U+3000 and the rest that :func:`settle.loader.jsonl_lines` skips once
    it has decoded the line; on the first line after a BOM).  The first line is tested on its own so
    that the later ones are found by a pattern that starts with a newline (a fast search; ``^`` in
    MULTILINE mode tries every byte).  ``starts_input``: the block's first line is its input's first
    (only there may a BOM stand before the white space); False for a later block."""
    return _counts(block, starts_input)[0]


def is_blank(line: bytes) -> bool:
    """Whether one JSON Lines ``line`` (without its newline) holds no hand (:func:`hand_count`)."""
    return _BLANK_LINE.fullmatch(line) is not None


def lone_crs(line: bytes) -> int:
    """Carriage returns in ``line`` (without its ``\\n``) that end a line as an editor counts lines (issue
    15 #2): those not followed by ``\\n``, a last one excepted (its ``\\n`` is the one cut off)."""
    if b"\r" not in line:
        return 0
    return line.count(b"\r") - line.count(b"\r\n") - line.endswith(b"\r")


def _counts(block: bytes, starts_input: bool) -> tuple[int, int]:
    """``(hands, lines)`` of ``block``: :func:`hand_count`, and the lines it holds as an editor counts them
    less one (its newlines and lone carriage returns: :func:`lone_crs`)."""
    newlines = block.count(b"\n")
    first = (_BLANK_FIRST if starts_input else _BLANK_START).match(block) is not None
    # Every later line starting with ``{`` (JSON Lines as written) is no blank one: no search for them.
    later = 0 if block.count(b"\n{") == newlines else len(_BLANK_LATER.findall(block))
    return newlines + 1 - later - first, newlines + lone_crs(block)


def line_blocks(stream: BinaryIO, head: bytes = b"", size: int = BLOCK_BYTES) -> Iterator[tuple[bytes, int, int]]:
    """``(block, first_line, first_index)`` of whole lines read from ``stream`` (after ``head``).

    A block is lines joined by newlines, without the last newline; ``first_line`` is the
    1-based line of its first line and ``first_index`` the 1-based number of its first hand.
    Blocks without a hand are skipped.  A line longer than the loader's limit is passed on
    alone (the loader reports it) rather than held in memory.  (:func:`line_spans` with the
    blocks' places.)
    """
    for block, _, line, index in line_spans(stream, head, size):
        yield block, line, index


def line_spans(stream: BinaryIO, head: bytes = b"", size: int = BLOCK_BYTES,
               source: str = "<stdin>") -> Iterator[tuple[bytes, int, int, int]]:
    """:func:`line_blocks` with each block's place: ``(block, offset, first_line, first_index)``, where
    ``offset`` is the byte of ``head`` + the stream where the block starts (0: the first byte of
    ``head``), so that a worker can read the block itself from a regular file (``os.pread``).

    A line longer than the loader's limit (:data:`~settle.loader.MAX_DOCUMENT_BYTES`) is passed on
    alone, cut after the limit (the loader refuses it), and the rest of it is skipped as far as the
    limit again.  Raises :class:`HandError` (``source``, the line) when the line goes on past that: an
    endless input (``/dev/zero``) is refused within the same bound as every other input (issue 15
    #10), the hands before it settled."""
    from settle.loader import MAX_DOCUMENT_BYTES, _limit_text

    line, index = 1, 1
    skipping: int | None = None  # bytes of an over-long line skipped so far, while skipping it
    parts: list[bytes | memoryview] = []  # the unfinished last line read (joined once: no quadratic growth)
    held, offset = 0, 0  # its length, and the byte where it starts
    data = head or stream.read(size)
    while data:
        if skipping is not None:  # the rest of an over-long line already passed on
            rest = data.find(b"\n") + 1
            if not rest:
                offset += len(data)
                skipping += len(data)
                if skipping > MAX_DOCUMENT_BYTES:
                    limit = _limit_text(MAX_DOCUMENT_BYTES)
                    message = (f"cannot read {source}: line {line} is larger than the {limit} limit and does not"
                               f" end within another {limit}; the rest of the input is not read")
                    raise HandError([Problem((), message, line, source=source, kind="endless_line",
                                             values={"file": source, "line": line, "max_bytes": MAX_DOCUMENT_BYTES})])
                data = stream.read(size)
                continue
            offset += rest
            line += 1
            data, skipping = data[rest:], None
        cut = data.rfind(b"\n")
        if cut < 0:
            parts.append(data)
            held += len(data)
            if held > MAX_DOCUMENT_BYTES:
                tail = b"".join(parts)
                yield tail, offset, line, index
                offset += len(tail)
                index, parts, held, skipping = index + 1, [], 0, 0
                del tail
            data = stream.read(size)
            continue
        if parts:
            parts.append(memoryview(data)[:cut])
            block = b"".join(parts)  # one copy of the bytes read
        else:
            block = data[:cut]
        rest_of_data = data[cut + 1:]
        parts, held = ([rest_of_data] if rest_of_data else []), len(rest_of_data)
        hands, newlines = _counts(block, line == 1)
        if hands:
            yield block, offset, line, index
        offset += len(block) + 1
        line += newlines + 1
        index += hands
        data = stream.read(size)
    tail = b"".join(parts)
    if skipping is None and hand_count(tail, line == 1):
        yield tail, offset, line, index


def jsonl_outcomes(block: bytes, source: str, first_line: int, first_index: int) -> list[Outcome]:
    """Settle each hand of ``block``: whole JSON Lines whose first line is line ``first_line`` of the
    file and whose first hand is hand ``first_index`` (1-based, blank lines not counted); the outcomes
    in the block's order.

    Each line is validated straight from its bytes (:func:`settle.engine.validation.lean_lines`, which
    takes no line that does not start with ``{`` and none that is not UTF-8: pydantic-core's JSON reader
    refuses one) and settled (:func:`settle_validated_all`); any other
    line is read as before: by :func:`settle.loader.jsonl_lines`
    (encoding, size limits, blank lines) and :func:`settle.loader.jsonl_hand` (duplicate keys ...),
    then settled from its data (:func:`_loader_outcomes`; the whole block so when its first line is
    such a line, since there a BOM is skipped and a UTF-16/32 encoding ends the block).  Line numbers
    (as an editor counts lines: a lone carriage return ends one too) and ``file:index`` labels are the
    file's.  Each line is read once, whatever the others are (issue 15 #9).  Never raises for bad
    input: a bad line is an :class:`Outcome` with its error.

    The block is settled in two passes, every line validated, then every validated hand settled
    (:func:`settle_validated_all`; hands with tiles step by step within it), and the caller encodes them
    in a third: each pass keeps its own code and tables in the processor's
    caches over the whole block, which makes a hand about a fifth cheaper than all of one hand after
    another (issue 14).  The outcomes are the same as one hand after another: settling is pure.
    """
    lines = block.split(b"\n")
    # The first line the loader's is the block the loader's (a BOM, an encoding): it is looked at alone first.
    validated = lean_lines(lines[:1], lines[0]) if lines[0][:1] == b"{" else [None]
    if validated[0] is None:
        return list(_loader_outcomes(block, source, first_line, first_index))
    validated += lean_lines(lines[1:], block, len(lines[0]) + 1)
    index = first_index  # the file's number of the next hand
    out: list[Outcome] = []  # a validated hand's place holds _HELD until the second pass
    # id(region) -> (region, its hands, their places in out, labels and lines); a Region is not hashable
    held: dict[int, tuple[Region, list[Hand], list[int], list[str], list[int]]] = {}
    numbers = range(first_line, first_line + len(lines)) if not lone_crs(block) else _numbers(lines, first_line)
    for number, raw, got in zip(numbers, lines, validated, strict=True):
        if got is None:
            outcome = _loader_line(raw, number, index, source, first_line, first_index)
            if outcome is not None:
                out.append(outcome)
                index += 1
            continue
        region, hand = got
        ident = hand.__dict__["id"]
        # The hand's own id, as written (whatever it looks like), else its place in the file.
        if type(ident) is str and ident:
            label = ident
        elif type(ident) is int:
            label = str(ident)
        else:
            label = f"{source}:{index}"
        group = held.get(id(region))
        if group is None:
            group = held[id(region)] = (region, [], [], [], [])
        group[1].append(hand)
        group[2].append(len(out))
        group[3].append(label)
        group[4].append(number)
        out.append(_HELD)
        index += 1
    # One region's hands after another (so that its checks and scoring stay in the processor's caches),
    # each in the block's order, settled together (settle_validated_all: hands with tiles step by step).
    for region, hands, places, labels, numbered in held.values():
        for place, outcome in zip(places, settle_validated_all(region, hands, labels, numbered, source),
                                  strict=True):
            out[place] = outcome
    return out


_HELD = Outcome("")
"""The place of a validated hand in :func:`jsonl_outcomes`'s first pass (filled in by the second)."""


def _numbers(lines: list[bytes], first_line: int) -> list[int]:
    """The line of each of ``lines`` (a block split at ``\\n``) as an editor counts lines, the first
    being line ``first_line``: after a lone carriage return (:func:`lone_crs`) the next line's number
    is one more."""
    numbers = []
    number = first_line
    for raw in lines:
        numbers.append(number)
        number += 1 + lone_crs(raw)
    return numbers


def _loader_line(raw: bytes, number: int, index: int, source: str, first_line: int,
                 first_index: int) -> Outcome | None:
    """:func:`_loader_outcomes` of the one line ``raw`` of a block, not its first (line ``number`` of the
    file, hand ``index`` if it is one): None for a blank line.  The line is read by
    :func:`settle.loader.jsonl_lines` as a line after the first is read there (no BOM skipped)."""
    from settle.loader import jsonl_hand, jsonl_lines

    if is_blank(raw):
        return None
    # Read as hand ``index`` of the file: a label the loader makes is the file's, and an id is the hand's own.
    item = next(iter(jsonl_lines(io.BytesIO(raw), source, bom=False, first_hand=index)))
    if isinstance(item, HandError):  # not UTF-8, or too long
        problems = item.problems
        label = f"{source}:{index}"
    else:
        parsed = jsonl_hand(item.text, number, source, index)
        if not isinstance(parsed, HandError):
            return settle_data(parsed.data, parsed.label, {(): number}, source)
        problems = parsed.problems
        label = problems[0].hand if problems and problems[0].hand else f"{source}:{index}"  # its id, or its place
    return Outcome(label, error=HandError([_moved(p, number, label) for p in problems]))


def _loader_outcomes(block: bytes, source: str, first_line: int, first_index: int) -> Iterator[Outcome]:
    """Settle each hand of ``block`` (as :func:`jsonl_outcomes`), every line through the loader's reading
    (:func:`settle.loader.jsonl_lines`: the block as a file, a BOM skipped on its first line when that is the
    input's first, ``first_line`` 1), then
    :func:`lean_line` or :func:`settle.loader.jsonl_hand`."""
    from settle.loader import Document, jsonl_hand, jsonl_lines

    shift = first_line - 1
    # A BOM is skipped only on the input's first line: one at the start of a later block's first line is
    # read as on any other line (a bad hand), wherever the blocks happen to be cut.
    # The hands numbered as the file's (first_hand): a label the loader makes is the file's, an id the hand's own.
    for index, item in enumerate(jsonl_lines(io.BytesIO(block), source, bom=first_line == 1, first_hand=first_index),
                                 first_index):
        if not isinstance(item, HandError):
            line = item.number + shift
            validated = lean_line(item.raw)
            if validated is not None:
                region, hand = validated
                ident = hand.id
                given = str(ident) if (type(ident) is str and ident) or type(ident) is int else None
                yield settle_validated(region, hand, given or f"{source}:{index}", line, source)
                continue
            parsed: Document | HandError = jsonl_hand(item.text, item.number, source, index)
        else:
            parsed = item
            first = item.problems[0].line if item.problems else None
            line = (first or 1) + shift  # jsonl_lines puts the problem of a line on that line
        if isinstance(parsed, HandError):
            given = parsed.problems[0].hand if parsed.problems else None  # its id, or its place in the file
            label = given or f"{source}:{index}"
            yield Outcome(label, error=HandError([_moved(p, line, label) for p in parsed.problems]))
            continue
        yield settle_data(parsed.data, parsed.label, {(): line}, source)


STDIN = "<stdin>"
"""The source name of standard input (``settle batch -``)."""


def block_columns(problems: list[Problem], block: bytes, first_line: int) -> list[Problem]:
    """``problems`` of a JSON Lines block that cannot be read again (stdin, issue 16 #9) with the column
    of each key on its line, as ``settle batch`` finds it for a file by reading the file again
    (:func:`settle.errors.column_in` on the line, lines counted as an editor counts them: ``\n``,
    ``\r\n`` or a lone ``\r``; a BOM on the file's first line not counted).  ``block`` is the block's
    bytes, whose first line is line ``first_line`` of the input.  Only on the error path."""
    from settle.errors import column_in

    wanted = {p.line for p in problems if p.column is None and p.line is not None}
    if not wanted:
        return problems
    rows: dict[int, str] = {}
    text = io.TextIOWrapper(io.BytesIO(block), encoding="utf-8", errors="replace", newline=None)
    for number, row in enumerate(text, first_line):
        if number in wanted:
            row = row.rstrip("\r\n")
            rows[number] = row.removeprefix("\ufeff") if number == 1 else row
            if len(rows) == len(wanted):
                break
    return [replace(p, column=column_in(rows[p.line], p.path))
            if p.column is None and p.line in rows else p for p in problems]


def _moved(problem: Problem, line: int, label: str) -> Problem:
    """A loader problem of a JSON Lines hand, put on the hand's own line of the file (every key of
    the hand is on it).  The line is data (``Problem.line``), never in the message: nothing is
    rewritten in text (issue 16 #9); a column stays, being within the line."""
    return replace(problem, line=line, hand=label)


# --- whole documents -----------------------------------------------------------------------------------


def document_outcomes(items: Iterable[Any], source: str) -> Iterator[Outcome]:
    """Settle what :func:`settle.loader.iter_documents` yielded: each ``Document`` or ``HandError``
    becomes an :class:`Outcome` (never raises for bad input)."""
    for item in items:
        if isinstance(item, HandError):
            problems = item.problems
            label = problems[0].hand if problems and problems[0].hand else source
            yield Outcome(label, error=item.located(source=source))
            continue
        yield settle_data(item.data, item.label, item.lines, source)
