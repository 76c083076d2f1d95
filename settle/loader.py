"""Read hand files (YAML, JSON, JSON Lines) into plain Python data plus a line map.

The loader is the only place that sees raw bytes, so it is where hostile or broken
input is refused: every problem becomes a :class:`~settle.errors.HandError` naming
the line, never a traceback and never a hang.

YAML is read from the libyaml *event* stream and built into values here rather than
with ``yaml.load``/``yaml.compose``, because that is the one pass that can

* record the line of every key path (for error messages of the model layer),
* refuse duplicate keys (PyYAML silently keeps the last one),
* bound alias expansion ("billion laughs") and nesting depth *while* reading:
  libyaml's composer recurses in C and crashes the interpreter on ~100,000 nested
  ``[`` (and its scanner is quadratic in flow depth), so we stop at :data:`MAX_DEPTH`.

Scalars are resolved and constructed with PyYAML's own SafeLoader resolver and
constructors, so types match ``yaml.safe_load`` exactly.
"""

from __future__ import annotations

import datetime
import functools
import io
import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from settle.errors import HandError, Path, Problem, number, quoted, written

MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
MAX_NODES = 100_000
MAX_DEPTH = 100

_EXPECTED = "a hand (a mapping with region, players, ...)"
EMPTY_MESSAGE = f"empty document: expected {_EXPECTED}"
EMPTY = "empty_document"
"""The problem kind of an empty document (no values; its Chinese words in
:data:`settle.engine.messages.PROBLEMS_ZH`)."""

# libyaml parses several times faster than the pure-Python parser; both emit the same events.
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SAFE = yaml.constructor.SafeConstructor
_YAML_TAG = "tag:yaml.org,2002:"
_STR_TAG = _YAML_TAG + "str"
_MAP_TAGS = frozenset({None, "!", _YAML_TAG + "map"})
_SEQ_TAGS = frozenset({None, "!", _YAML_TAG + "seq"})
# Scalar tags whose SafeConstructor result is a plain immutable value; collection-ish
# tags (!!set, !!omap, !!pairs) and anything Python-specific are refused.
_SCALAR_CONSTRUCTORS = {
    tag: _SAFE.yaml_constructors[tag]
    for tag in (_YAML_TAG + name for name in ("null", "bool", "int", "float", "timestamp", "binary"))
}
_MERGE_TAG = _YAML_TAG + "merge"
_VALUE_TAG = _YAML_TAG + "value"
_CACHE_LIMIT = 4096


@dataclass
class Document:
    """One hand read from a file: plain data, where its keys are, and where it came from.

    ``lines`` maps a key path (``("players", "B", "kongs", "concealed")``, ``("win", "fans", 1)``)
    to its 1-based line; ``()`` is the line where the hand starts. Paths not in the map
    (JSON Lines, values reached through a YAML alias) fall back to the nearest ancestor
    with :func:`settle.errors.nearest_line`.
    """

    data: Any
    lines: dict[Path, int]
    source: str
    index: int

    @property
    def label(self) -> str:
        """The hand's ``id`` (a string or integer) if it has one, else ``source:index``."""
        if isinstance(self.data, dict):
            ident = self.data.get("id")
            if (isinstance(ident, str) and ident) or (isinstance(ident, int) and not isinstance(ident, bool)):
                return str(ident)
        return f"{self.source}:{self.index}"


class _Fatal(Exception):
    """A problem after which nothing more of the file can be read."""

    def __init__(
        self, message: str, line: int | None, path: Path = (), kind: str = "", index: int | None = None,
        column: int | None = None, values: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.values = values  # the facts of the message, for its words in another language (with ``kind``)
        self.line = line
        self.column = column  # 1-based, in code points, as an editor counts; data, not in the message
        self.index = index  # character index of the failure in a YAML stream: reading resumes after it
        self.path = path
        self.kind = kind  # what went wrong, for code (``encoding``: not UTF-8 at all); the message is for people


# --------------------------------------------------------------------------- public API


def read_hand(raw: bytes, source: str = "<stdin>", *, max_bytes: int = MAX_DOCUMENT_BYTES) -> Document:
    """Read exactly one hand from ``raw`` (JSON if ``source`` ends in ``.json``, else YAML).

    Returns a :class:`Document` whose ``data`` is a ``dict``. Raises :class:`HandError`
    (problems carry ``source`` and ``line``) for: input over ``max_bytes``; a UTF-16/32
    or otherwise non-UTF-8 file; YAML/JSON syntax errors and tab indentation; an empty
    document or one that is not a mapping; duplicate or unhashable keys; unsupported
    YAML tags; aliases expanding past :data:`MAX_NODES` nodes; nesting deeper than
    :data:`MAX_DEPTH`; more than one YAML document.
    """
    # Read to the end: a second YAML document is only noticed after the first is built.
    results = list(_read_all(raw, source, "json" if _is_json(source) else "yaml", max_bytes, False))
    for result in results:
        if isinstance(result, HandError):
            raise result
    return results[0]  # type: ignore[return-value]  # all results are Documents here


def iter_documents(
    stream: BinaryIO | bytes,
    source: str = "<stdin>",
    *,
    fmt: str = "auto",
    max_bytes: int = MAX_DOCUMENT_BYTES,
) -> Iterator[Document | HandError]:
    """Read many hands, yielding each as a :class:`Document` or, if it is bad, a :class:`HandError`.

    ``fmt`` is ``auto`` (by extension: ``.jsonl``/``.ndjson`` JSON Lines, ``.json`` JSON,
    anything else YAML), ``yaml``, ``json`` or ``jsonl``.

    * YAML: a stream of ``---``-separated documents; a document that is a list yields
      each item as a hand (its ``lines`` relative to the item).
    * JSON: one array of hands, or one object (one hand).
    * JSON Lines: one hand per non-blank line, read line by line (memory does not
      grow with the file; ``max_bytes`` applies per line: a longer line is one bad hand,
      and one that does not end within another ``max_bytes`` ends the stream, issue 15 #10).

    A problem confined to one hand (a bad JSON line, a duplicate key, an item that is
    not a mapping) is yielded as a ``HandError`` and reading goes on. In a YAML stream a
    YAML syntax error, nesting past :data:`MAX_DEPTH`, a character YAML refuses or a byte
    that is not UTF-8 refuses its document and reading resumes at the next ``---`` line
    (issue 15); a problem that makes the rest unreadable (a UTF-16/32 file, a file over
    ``max_bytes``, an error with no ``---`` after it) is yielded once, last.
    Every yielded problem has ``hand`` set to ``f"{source}:{index}"`` (1-based hand
    position) and ``source`` set. Raises ``ValueError`` only for an unknown ``fmt``.
    """
    kind = _format_of(source, fmt)
    if kind == "jsonl":
        lines = io.BytesIO(stream) if isinstance(stream, bytes) else stream
        return _jsonl_hands(lines, source, max_bytes)
    return _read_stream(stream, source, kind, max_bytes)


# --------------------------------------------------------------------------- dispatch


def _is_json(source: str) -> bool:
    return source.lower().endswith(".json")


def _format_of(source: str, fmt: str) -> str:
    if fmt in ("yaml", "json", "jsonl"):
        return fmt
    if fmt != "auto":
        raise ValueError(f"unknown format {fmt!r}: expected auto, yaml, json or jsonl")
    lowered = source.lower()
    if lowered.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    return "json" if lowered.endswith(".json") else "yaml"


def _read_stream(stream: BinaryIO | bytes, source: str, kind: str, max_bytes: int) -> Iterator[Document | HandError]:
    raw = stream if isinstance(stream, bytes) else _read_bounded(stream, max_bytes)
    yield from _read_all(raw, source, kind, max_bytes, True)


def _read_bounded(stream: BinaryIO, max_bytes: int) -> bytes:
    """Read at most ``max_bytes + 1`` bytes: enough to know the input is too big."""
    chunks: list[bytes] = []
    size = 0
    while size <= max_bytes:
        chunk = stream.read(max_bytes + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_all(raw: bytes, source: str, kind: str, max_bytes: int, batch: bool) -> Iterator[Document | HandError]:
    """Hands of a whole (non-streamed) input; ``batch`` allows several and labels problems."""
    label = f"{source}:1" if batch else None
    try:
        if len(raw) > max_bytes:
            hint = " (for bigger batches use JSON Lines, one hand per line)" if batch else ""
            raise _Fatal(f"document is larger than the {_limit_text(max_bytes)} limit{hint}", None, kind="too_large",
                         values={"max_bytes": max_bytes, "jsonl_hint": bool(hint), "rest_unread": False})
        try:
            text = _decode(raw)
        except _Fatal as fatal:
            if not batch or fatal.kind == "encoding":
                raise
            text = _decode_lenient(raw)  # issue 15 item 4: only the documents with bad bytes are bad
            if kind == "json":  # only the items of an array with bad bytes are bad
                yield from _json_hands(text, source, batch, fatal)
                return
    except _Fatal as fatal:
        yield _fatal_error(fatal, source, label)
        return
    if kind == "json":
        yield from _json_hands(text, source, batch)
    else:
        yield from _YamlReader(source, batch).run(_joined_documents(text) if batch else text)


# --------------------------------------------------------------------------- errors


def _fatal_error(fatal: _Fatal, source: str, hand: str | None) -> HandError:
    """The problem of ``fatal``, with its kind and values where it has values (words in Chinese)."""
    kind = fatal.kind if fatal.values is not None else ""
    return HandError([Problem(fatal.path, fatal.message, fatal.line, hand, source, kind, fatal.column, fatal.values)])


def _limit_text(max_bytes: int) -> str:
    if max_bytes % (1024 * 1024) == 0:
        return f"{max_bytes // (1024 * 1024)} MiB"
    if max_bytes % 1024 == 0:
        return f"{max_bytes // 1024} KiB"
    return f"{max_bytes}-byte"


def _describe(value: object) -> str:
    """How a wrong value reads in a message: ``a string ('abc')``, ``a list of 3 items``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({'true' if value else 'false'})"
    if isinstance(value, int | float):
        return f"a number ({number(value)})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({quoted(shown)})"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, bytes):
        return f"a binary value ({written(value)})"
    if isinstance(value, datetime.date):  # a date as written, never Python's class name (issue 15 #16)
        kind = "timestamp" if isinstance(value, datetime.datetime) else "date"
        return f"a {kind} ({written(value)[:40]})"
    return f"a {type(value).__name__} ({written(value)[:40]})"


def _described(value: object) -> dict[str, object]:
    """What :func:`_describe` says of ``value``, as data (for its words in Chinese): ``form`` (null, boolean,
    number, string, list, mapping, binary, date, datetime or other), ``shown`` (the value as the English
    shows it, where it shows one) and ``count`` (a list's items)."""
    if value is None or isinstance(value, dict):
        return {"form": "null" if value is None else "mapping"}
    if isinstance(value, bool):
        return {"form": "boolean", "shown": "true" if value else "false"}
    if isinstance(value, int | float):
        return {"form": "number", "shown": number(value)}
    if isinstance(value, str):
        return {"form": "string", "shown": quoted(value if len(value) <= 40 else value[:37] + "...")}
    if isinstance(value, list):
        return {"form": "list", "count": len(value)}
    if isinstance(value, bytes):
        return {"form": "binary", "shown": written(value)}
    form = "other"
    if isinstance(value, datetime.date):
        form = "datetime" if isinstance(value, datetime.datetime) else "date"
    return {"form": form, "shown": written(value)[:40]}


def _line_col(text: str, index: int, first_line: int = 1) -> tuple[int, int]:
    """1-based line and column (in code points) of character ``index``, as an editor counts them:
    a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (issue 15 item 2)."""
    crs = text.count("\r", 0, index)
    line = first_line + text.count("\n", 0, index)
    if crs:
        line += crs - text.count("\r\n", 0, index)
    return line, index - max(text.rfind("\n", 0, index), text.rfind("\r", 0, index))


def _line_start(text: str, index: int) -> int:
    """Index where the editor line holding character ``index`` starts."""
    return max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1


_LIBYAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _line_map(text: str) -> list[int] | None:
    """Editor line of each libyaml line (1-based, ``[0]`` unused), or None when they agree.

    libyaml also ends lines at U+0085, U+2028 and U+2029; an editor does not (issue 15 item 2).
    Only built when the text holds one of them: O(1) for ordinary text."""
    if "\x85" not in text and "\u2028" not in text and "\u2029" not in text:
        return None
    mapping, line = [1, 1], 1
    for match in _LIBYAML_BREAK.finditer(text):
        if match.group() not in ("\x85", "\u2028", "\u2029"):
            line += 1
        mapping.append(line)
    return mapping


def _mapped(mapping: list[int], line: int | None) -> int | None:
    """``line`` (libyaml's count) as an editor counts it."""
    if line is None or line <= 0:
        return line
    return mapping[min(line, len(mapping) - 1)]


# --------------------------------------------------------------------------- encoding

_UTF8_BOM = b"\xef\xbb\xbf"
_FOREIGN_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


def _foreign_encoding(head: bytes) -> str | None:
    """UTF-16/32 from a BOM or, without one, from NUL bytes around the first ASCII character."""
    for bom, name in _FOREIGN_BOMS:
        if head.startswith(bom):
            return name
    if len(head) >= 4 and (head[:3] == b"\0\0\0" or head[1:4] == b"\0\0\0"):
        return "UTF-32"
    if len(head) >= 2 and (head[0] == 0) != (head[1] == 0):
        return "UTF-16"
    return None


def _decode(raw: bytes, first_line: int = 1, *, check_bom: bool = True) -> str:
    """UTF-8 text of ``raw`` without a BOM; raises _Fatal naming the first bad byte."""
    if check_bom:
        if raw.startswith(_UTF8_BOM):
            raw = raw[len(_UTF8_BOM) :]
        else:
            foreign = _foreign_encoding(raw[:4])
            if foreign:
                raise _Fatal(f"file is {foreign} encoded; save it as UTF-8", first_line, kind="encoding",
                             values={"encoding": foreign})
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + raw.count(b"\n", 0, exc.start)
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[line_start : exc.start].decode("utf-8", "replace")) + 1
        message = f"file is not valid UTF-8: byte 0x{raw[exc.start]:02x}"
        raise _Fatal(message, line, column=column, kind="not_utf8", values={"byte": raw[exc.start]}) from None


def _decode_lenient(raw: bytes) -> str:
    """Text of ``raw`` with each byte that is not UTF-8 kept as a lone surrogate (U+DC80-U+DCFF):
    :data:`_NON_PRINTABLE` finds it and only its document is refused (issue 15 item 4)."""
    if raw.startswith(_UTF8_BOM):
        raw = raw[len(_UTF8_BOM) :]
    return raw.decode("utf-8", "surrogateescape")


# --------------------------------------------------------------------------- YAML

_NOKEY: Any = object()  # mapping frame waits for a key
_SKIP: Any = object()  # the pending key was refused: drop its value
_MERGE: Any = object()  # the pending key is YAML's merge key '<<'
_MERGE_KEY: Any = object()  # a plain '<<' scalar, a merge key only in key position


class _Frame:
    """An open mapping or sequence while reading YAML events."""

    __slots__ = (
        "anchor",
        "height",
        "is_map",
        "key",
        "line",
        "merge_line",
        "merged",
        "path",
        "record",
        "start_count",
        "value",
    )

    def __init__(self, is_map: bool, path: Path, record: bool, line: int, start_count: int, anchor: Any) -> None:
        self.is_map = is_map
        self.value: Any = {} if is_map else []
        self.path = path
        self.record = record  # False inside keys and dropped values: their lines mean nothing
        self.line = line
        self.start_count = start_count
        self.anchor = anchor
        self.height = 1
        self.key: Any = _NOKEY
        self.merged: dict[Any, Any] | None = None
        self.merge_line = 0


class _YamlReader:
    """Turns the YAML event stream into hands (one per document, or per item of a list)."""

    def __init__(self, source: str, batch: bool) -> None:
        self.source = source
        self.batch = batch  # several documents allowed, list documents split, problems labelled
        self.stack: list[_Frame] = []
        self.base = 0  # frames outside the hand: 1 while inside a document that is a list
        self.out: list[Document | HandError] = []
        self.hands = 0
        self.documents = 0
        self.anchors: dict[str, tuple[Any, int, int]] = {}
        self.open_anchors: set[str] = set()
        self.cache: dict[str, Any] = {}
        self.failed_at: int | None = None  # character index of a YAML syntax error (or a refused document)
        self.document_index = -1  # character index where the document being read starts
        self.line_map: list[int] | None = None  # libyaml line -> editor line, when they differ
        self.loader_text = ""  # the text being read (for messages on the error path)
        self.refuse_at: int | None = None  # index of a character libyaml refused: read again up to its document
        self.started = (0, 0)  # hands and documents before this pass
        self.yielded = 0  # items this pass yielded (a second pass skips them)
        self.skip = 0
        self.list_indent: int | None = None  # column of the items of the block list being read (a list document)
        self.hand_index = -1  # character index where the hand being read starts
        self.resumed_at = -1  # where this reader's text was resumed after a syntax error (issue 15 item 1)
        self.repeat_of: int | None = None  # the error this reader resumed after, if it may meet it again
        self.refused_item: tuple[int, int, bool] | None = None  # a refused list item: (column, start, counted)
        self.quote_at: int | None = None  # where an unclosed quoted scalar of a syntax error starts
        self._start_hand(0)

    # -- driving

    def run(self, text: str) -> Iterator[Document | HandError]:
        """Yield hands as their events complete.

        A YAML syntax error ends a single hand.  In a batch it is that document's bad hand, and
        reading goes on at the next ``---`` line after it (bad hands never lose good ones): the
        text before that line is blanked out, so every later line keeps its number.
        """
        reader: _YamlReader | None = self
        while reader is not None:
            yield from reader._read(text)
            if reader.refuse_at is not None and reader.failed_at is None:
                # libyaml refused a character before the hands ahead of it were read (it reads
                # ahead): read again up to that document, then refuse it (issue 15 items 4, 6).
                again = _YamlReader(self.source, self.batch)
                again.hands, again.documents = reader.started
                again.refuse_at, again.skip = reader.refuse_at, reader.yielded
                reader = again
                continue
            reader, text = reader._resumed(text)

    def _resumed(self, text: str) -> tuple[_YamlReader | None, str]:
        """A fresh reader for the documents after a syntax error, and the text it reads."""
        if not self.batch or self.failed_at is None:
            return None, text
        start = _next_document_start(text, self.failed_at, self.document_index)
        documents = self.documents + 1
        if self.list_indent is not None and self.stack:  # inside a block list: resume at its next item
            # An unclosed quote reads on past the items after it: resume after the quote's line.
            at = self.failed_at if self.quote_at is None else max(self.quote_at, self.hand_index)
            item = _next_item_start(text, at, max(self.hand_index, self.resumed_at), self.list_indent)
            if item is not None and (start is None or item < start):
                start, documents = item, self.documents  # the resumed items are the same document's
        elif self.refused_item is not None:  # a refused character in a list item: resume at the next item
            column, item_start, counted = self.refused_item
            item = _next_item_start(text, self.failed_at, item_start, column)
            if item is not None and (start is None or item < start):
                start, documents = item, self.documents + (not counted)
        if start is None:
            return None, text
        reader = _YamlReader(self.source, self.batch)
        reader.hands, reader.documents = self.hands + 1, documents  # the bad one counted
        reader.resumed_at, reader.repeat_of = start, self.failed_at
        # Blank out what was read: every character keeps its index and line (issue 15 items 1, 2).
        return reader, _BLANK.sub(" ", text[:start]) + text[start:]

    def _read(self, text: str) -> Iterator[Document | HandError]:
        """One pass of the event loop over ``text``; a syntax error is yielded last and its line
        kept in ``failed_at``."""
        out = self.out
        loader = None
        refused: _Fatal | None = None
        self.line_map = line_map = _line_map(text)
        self.started = (self.hands, self.documents)
        if self.refuse_at is None:
            self.refuse_at = _unquoted_break(text)  # None for ordinary text
        if self.refuse_at is not None:  # the second pass, up to the document libyaml refuses
            refused, cut = _refused_character(text, self.refuse_at)
            if self.batch:  # in a list document only the item holding the character is refused
                item = _list_item_start(text, cut, self.refuse_at)
                if item is not None:
                    column, item_start = item
                    counted = item_start > _content_start(text, cut)
                    self.refused_item = column, item_start, counted
                    if counted:
                        cut = item_start
            text = text[:cut]
            self.refuse_at = None
        self.loader_text = text
        try:
            loader = self.loader = _Loader(text)  # the pure-Python reader checks characters here
            get_event, fast_scalar = loader.get_event, self._fast_scalar
            while True:
                event = get_event()
                kind = type(event)
                if kind is ScalarEvent:
                    if not fast_scalar(event):
                        self._on_scalar(event)
                elif kind is MappingStartEvent:
                    self._on_start(event, True)
                elif kind is MappingEndEvent or kind is SequenceEndEvent:
                    self._on_end()
                elif kind is SequenceStartEvent:
                    self._on_start(event, False)
                elif kind is AliasEvent:
                    self._on_alias(event)
                elif kind is DocumentStartEvent:
                    self._on_document(event)
                elif kind is StreamEndEvent:
                    break
                if out:
                    self.yielded += len(out)
                    if self.skip or line_map is not None:
                        yield from self._kept(out, line_map)
                    else:
                        yield from out
                    out.clear()
        except (yaml.YAMLError, UnicodeEncodeError) as exc:
            # A refused character, or a byte that is not UTF-8 (kept by _decode_lenient)
            if self.batch and refused is None and isinstance(exc, yaml.reader.ReaderError | UnicodeEncodeError):
                bad = _NON_PRINTABLE.search(text)
                if bad is not None:
                    self.refuse_at = bad.start()  # run() reads again up to its document
                    return
            if isinstance(exc, UnicodeEncodeError):  # not reached: only lenient text holds surrogates
                raise
            fatal = _yaml_fatal(exc, text)
            self.failed_at = fatal.index
            context_mark = getattr(exc, "context_mark", None)
            if getattr(exc, "context", None) == "while scanning a quoted scalar" and context_mark is not None:
                self.quote_at = context_mark.index
            if self._repeated(fatal):
                return
            yield self._fatal(fatal)
            return
        except _Fatal as fatal:
            self.failed_at = fatal.index
            if line_map is not None:
                fatal.line = _mapped(line_map, fatal.line)
            yield self._fatal(fatal)
            return
        finally:
            dispose = getattr(loader, "dispose", None)
            if dispose is not None:
                dispose()
        if refused is not None:
            self.failed_at, self.document_index = refused.index, len(text)
            yield self._fatal(refused)
            return
        if not self.documents or (self.batch and not self.hands):
            yield self._fatal(_Fatal(EMPTY_MESSAGE, 1, kind=EMPTY, values={}))

    def _repeated(self, fatal: _Fatal) -> bool:
        """Whether ``fatal`` is the error this reader resumed after, met again before any hand (the
        item it resumed at was the bad one): it was reported once, so the bad hand is not counted twice."""
        if self.repeat_of is None or fatal.index != self.repeat_of or self.yielded:
            return False
        self.hands -= 1
        return True

    def _kept(self, out: list[Document | HandError], line_map: list[int] | None) -> list[Document | HandError]:
        """``out`` without what a first pass already yielded, its lines as an editor counts them."""
        kept = out[self.skip :]
        self.skip = max(0, self.skip - len(out))
        return kept if line_map is None else [_remap(item, line_map) for item in kept]

    def _fatal(self, fatal: _Fatal) -> HandError:
        label = f"{self.source}:{self.hands + 1}" if self.batch else None
        return _fatal_error(fatal, self.source, label)

    # -- events

    def _on_document(self, event: Any) -> None:
        if self.documents and not self.batch:
            raise _Fatal(  # the line is the problem's (data), not written into the message (issue 16 #9)
                "expected one hand, but a second YAML document starts on this line (use a batch for many hands)",
                event.start_mark.line + 1, column=1, kind="second_document", values={},
            )
        self.documents += 1
        self.document_index = event.start_mark.index
        self.anchors = {}  # anchors are scoped to their document
        self.open_anchors = set()

    def _fast_scalar(self, event: Any) -> bool:
        """The common case of :meth:`_on_scalar` + :meth:`_attach`, inlined for speed.

        A plain, untagged, unanchored scalar whose value is cached, read as a new key
        or as a value inside an open collection of a hand. Returns False (having
        changed nothing) for anything else, which then takes the general path.
        """
        stack = self.stack
        if (
            len(stack) <= self.base
            or event.anchor is not None
            or event.tag is not None
            or self.poisoned
            or self.count >= MAX_NODES
        ):
            return False
        value = event.value
        if event.implicit[0]:
            value = self.cache.get(value, _NOKEY)
            if value is _NOKEY or value is _MERGE_KEY:
                return False
        top = stack[-1]
        if not top.is_map:
            if top.record:
                self.lines[(*top.path, len(top.value))] = event.start_mark.line + 1
            top.value.append(value)
        elif top.key is _NOKEY:
            if value in top.value:
                return False  # duplicate: let the general path report it
            top.key = value
            if top.record:
                self.lines[(*top.path, value)] = event.start_mark.line + 1
        elif top.key is _SKIP or top.key is _MERGE:
            return False
        else:
            top.value[top.key] = value
            top.key = _NOKEY
        self.count += 1
        return True

    def _on_scalar(self, event: Any) -> None:
        line = event.start_mark.line + 1
        if len(self.stack) == self.base:
            if self.batch and not self.stack and _nothing_written(event):
                return  # an empty document (`cat a.yaml; echo ---` ...) is no hand of a batch
            self._start_hand(line)
            self.hand_index = event.start_mark.index
        self.count += 1
        if self.count > MAX_NODES and not self.poisoned:
            self._overflow(line)
        value = None if self.poisoned else self._scalar(event, line)
        if event.anchor is not None:
            self._anchor(event.anchor, value, 1, 0)
        self._attach(value, line, 0)

    def _on_start(self, event: Any, is_map: bool) -> None:
        line = event.start_mark.line + 1
        stack = self.stack
        if not stack and not is_map and self.batch:
            # A document that is a list: each item is a hand of its own.
            stack.append(_Frame(False, (), False, line, 0, None))
            self.base = 1
            self.list_indent = None if event.flow_style else event.start_mark.column
            return
        if len(stack) == self.base:
            self._start_hand(line)
            self.hand_index = event.start_mark.index
        if len(stack) - self.base >= MAX_DEPTH:
            # Fatal, not per hand: skipping the rest would still feed libyaml's
            # quadratic flow scanner with whatever depth follows.
            raise _Fatal(f"nesting deeper than {MAX_DEPTH} levels", line, index=event.start_mark.index,
                         kind="too_deep", values={"max": MAX_DEPTH})
        self.count += 1
        if self.count > MAX_NODES and not self.poisoned:
            self._overflow(line)
        if event.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS) and not self.poisoned:
            self._problem(self._here(), f"unsupported YAML tag {_short_tag(event.tag)}", line,
                          kind="yaml_tag_unsupported", values={"tag": _short_tag(event.tag)})
        path, record = self._child_path()
        stack.append(_Frame(is_map, path, record, line, self.count - 1, event.anchor))
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)

    def _on_end(self) -> None:
        frame = self.stack.pop()
        if not self.stack and self.base:
            self.base = 0  # end of a list document
            self.list_indent = None
            return
        value = frame.value
        if frame.merged:
            value = {**frame.merged, **value}  # explicit keys win, merged keys first (as PyYAML)
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self._anchor(frame.anchor, value, self.count - frame.start_count, frame.height)
        self._attach(value, frame.line, frame.height)

    def _on_alias(self, event: Any) -> None:
        line = event.start_mark.line + 1
        if len(self.stack) == self.base:
            self._start_hand(line)
            self.hand_index = event.start_mark.index
        if self.poisoned:
            self._attach(None, line, 0)
            return
        entry = self.anchors.get(event.anchor)
        if entry is None:
            itself = event.anchor in self.open_anchors
            why = "refers to itself" if itself else "is not defined"
            self._problem(self._here(), f"alias *{event.anchor} {why}", line,
                          kind="alias_itself" if itself else "alias_undefined", values={"name": event.anchor})
            self._attach(None, line, 0)
            return
        value, size, height = entry
        if len(self.stack) - self.base + height > MAX_DEPTH:
            raise _Fatal(f"nesting deeper than {MAX_DEPTH} levels", line, index=event.start_mark.index,
                         kind="too_deep", values={"max": MAX_DEPTH})
        self.count += size  # an alias costs its whole expansion, every time it is used
        if self.count > MAX_NODES:
            self._overflow(line)
            value = None
        self._attach(value, line, height)

    # -- building

    def _start_hand(self, line: int) -> None:
        self.lines: dict[Path, int] = {(): line} if line else {}
        self.problems: list[Problem] = []
        self.count = 0
        self.poisoned = False  # over MAX_NODES: keep parsing, stop building

    def _here(self) -> Path:
        """Key path of the value being read now."""
        if len(self.stack) <= self.base:
            return ()
        top = self.stack[-1]
        if not top.is_map:
            return (*top.path, len(top.value))
        key = top.key
        return top.path if key is _NOKEY or key is _SKIP or key is _MERGE else (*top.path, key)

    def _child_path(self) -> tuple[Path, bool]:
        if len(self.stack) <= self.base:
            return (), True
        top = self.stack[-1]
        if not top.is_map:
            return (*top.path, len(top.value)), top.record
        key = top.key
        if key is _NOKEY or key is _SKIP or key is _MERGE:
            return top.path, False
        return (*top.path, key), top.record

    def _attach(self, value: Any, line: int, height: int) -> None:
        stack = self.stack
        if len(stack) == self.base:
            self._finish_hand(value)
            return
        top = stack[-1]
        if self.poisoned:
            if top.is_map:  # keep key/value alternation, store nothing
                top.key = _SKIP if top.key is _NOKEY else _NOKEY
            return
        if top.is_map:
            key = top.key
            if key is _NOKEY:
                self._take_key(top, value, line)
                return
            top.key = _NOKEY
            if value is _MERGE_KEY:
                value = "<<"
            if key is _MERGE:
                self._merge(top, value, line)
            elif key is not _SKIP:
                top.value[key] = value
        else:
            if value is _MERGE_KEY:
                value = "<<"
            if top.record:
                self.lines[(*top.path, len(top.value))] = line
            top.value.append(value)
        if height >= top.height:
            top.height = height + 1

    def _take_key(self, top: _Frame, key: Any, line: int) -> None:
        if isinstance(key, list | dict):
            kind = "list" if isinstance(key, list) else "mapping"
            self._problem(top.path, f"a {kind} cannot be a mapping key", line, kind="key_not_scalar",
                          values={"what": kind})
            top.key = _SKIP
        elif key is _MERGE_KEY:
            if top.merge_line:
                self._duplicate(top, "<<", top.merge_line, line)
                top.key = _SKIP
            else:
                top.merge_line = line
                top.key = _MERGE
        elif key in top.value:
            first = self.lines.get((*top.path, key)) if top.record else None
            self._duplicate(top, key, first, line)
            top.key = _SKIP
        else:
            top.key = key
            if top.record:
                self.lines[(*top.path, key)] = line

    def _duplicate(self, top: _Frame, key: Any, first: int | None, line: int) -> None:
        shown_first, shown = first, line  # type: int | None, int | None
        if self.line_map is not None:  # the message says lines as an editor counts them (issue 15 item 2)
            shown_first, shown = _mapped(self.line_map, first), _mapped(self.line_map, line)
        if first == line:
            where, at = "same", ()  # type: str, tuple[int | None, ...]
        elif first:
            where, at = "lines", (shown_first, shown)
        else:
            where, at = "line", (shown,)
        self.problems.append(_duplicate_problem((*top.path, key), key, where, at, line))

    def _merge(self, top: _Frame, value: Any, line: int) -> None:
        """YAML merge key ``<<: *base``: earlier sources win, explicit keys win over all."""
        sources = value if isinstance(value, list) else [value]
        if not all(isinstance(source, dict) for source in sources):
            message = f"'<<' (merge key) needs a mapping or a list of mappings, not {_describe(value)}"
            self._problem((*top.path, "<<"), message, line, kind="merge_value", values=_described(value))
            return
        merged = top.merged if top.merged is not None else {}
        for source in sources:
            for key, item in source.items():
                if key not in merged:
                    merged[key] = item
                    if top.record:
                        self.lines.setdefault((*top.path, key), line)
        top.merged = merged

    def _anchor(self, name: str, value: Any, size: int, height: int) -> None:
        if self.poisoned:
            size = MAX_NODES + 1  # half-built: any later use must be refused too
        self.anchors[name] = ("<<" if value is _MERGE_KEY else value, size, height)

    def _overflow(self, line: int) -> None:
        self._problem(self._here(), f"document expands to more than {MAX_NODES} nodes (YAML aliases?)", line,
                      kind="nodes_expanded", values={"max": MAX_NODES})
        self.poisoned = True

    def _problem(self, path: Path, message: str, line: int | None, *, kind: str,
                 values: dict[str, object]) -> None:
        self.problems.append(Problem(path, message, line, kind=kind, values=values))

    def _finish_hand(self, value: Any) -> None:
        self.hands += 1
        self.out.append(
            _make_hand(value, self.lines, self.problems, self.source, self.hands, self.batch, self.base > 0)
        )

    # -- scalars

    def _scalar(self, event: Any, line: int) -> Any:
        """The value ``yaml.safe_load`` gives this scalar (cached: hands repeat their words)."""
        tag = event.tag
        value = event.value
        if tag is None or tag == "!":
            if not event.implicit[0]:
                return value  # quoted or block scalar: always a string
            cached = self.cache.get(value, _NOKEY)
            if cached is not _NOKEY:
                return cached
            tag = self.loader.resolve(ScalarNode, value, event.implicit)
            known = len(self.problems)
            result = _as_written(self._construct(tag, value, line), value)
            if len(self.problems) == known:  # a refused scalar must be refused every time
                if len(self.cache) >= _CACHE_LIMIT:
                    self.cache.clear()
                self.cache[value] = result
            return result
        if tag == _MERGE_TAG and value != "<<":  # '!!merge D': PyYAML would read '<<' (issue 15 #16)
            self._tag_problem(value, tag, "only '<<' is a merge key", line)
            return None
        result = self._construct(tag, value, line)
        if isinstance(result, float) and not math.isfinite(result) and not value.lstrip("+-").startswith("."):
            # '!!float 1e400' is read as inf, which the file does not say (issue 15 #16); '.inf' is meant
            self._tag_problem(value, tag, "the number is out of range", line)
            return None
        return _as_written(result, f"{_short_tag(tag)} {value}")

    def _construct(self, tag: str, value: str, line: int) -> Any:
        if tag in (_STR_TAG, _VALUE_TAG):
            return value
        if tag == _MERGE_TAG:
            return _MERGE_KEY
        constructor = _SCALAR_CONSTRUCTORS.get(tag)
        if constructor is None:
            self.problems.append(Problem(self._here(), f"unsupported YAML tag {_short_tag(tag)}", line,
                                         kind="yaml_tag_unsupported", values={"tag": _short_tag(tag)}))
            return None
        try:
            return constructor(self.loader, ScalarNode(tag, value))
        except (ValueError, yaml.YAMLError) as exc:
            reason = _readable(getattr(exc, "problem", None) or str(exc).split("\n")[0])
        except (KeyError, IndexError, AttributeError, TypeError):  # PyYAML's own: '!!bool D', "!!int ''"
            reason = NOT_OF_TYPE
        self._tag_problem(value, tag, reason, line)
        return None

    def _tag_problem(self, value: str, tag: str, reason: str, line: int) -> None:
        """``cannot read 'VALUE' as !!TAG: REASON`` here (kind ``yaml_tag``: values ``value`` as written,
        at most 40 characters, ``tag`` and ``reason``)."""
        shown = value if len(value) <= 40 else value[:37] + "..."
        message = f"cannot read {shown!r} as {_short_tag(tag)}: {reason}"
        self.problems.append(Problem(self._here(), message, line, kind="yaml_tag",
                                     values={"value": shown, "tag": _short_tag(tag), "reason": reason}))


NOT_OF_TYPE = "it is not a value of that type"
"""The reason of a ``yaml_tag`` problem whose value does not fit its tag (``!!bool D``, ``!!int x``)."""

DUPLICATE = "duplicate_key"
"""The problem kind of a repeated key; values ``key`` (as shown), ``where`` and ``at`` (:func:`_duplicate_problem`)."""
_WHERE = {"lines": "lines {} and {}", "line": "line {}", "same": "both on this line", "columns": "columns {} and {}"}


def _duplicate_problem(path: Path, key: Any, where: str, at: tuple[int | None, ...], line: int | None,
                       column: int | None = None) -> Problem:
    """``duplicate key 'A' (lines 3 and 5)``: ``where`` is ``lines`` (``at``: the first and this line),
    ``line`` (``at``: this line; the first unknown), ``same`` (both on one line, ``at`` empty) or
    ``columns`` (``at``: the two columns on one line, JSON); kind :data:`DUPLICATE`, for its words in Chinese."""
    shown = repr(key) if isinstance(key, str) else written(key)  # a date key as written (issue 15 #16)
    message = f"duplicate key {shown} ({_WHERE[where].format(*at)})"
    return Problem(path, message, line, kind=DUPLICATE, column=column,
                   values={"key": shown, "where": where, "at": at})


class _WrittenDate(datetime.date):
    """A YAML date that keeps the text the user wrote (``written``, also its repr), so that a message
    about it says ``2001-12-14``, not ``datetime.date(2001, 12, 14)`` (issue 15 #16)."""

    written: str

    def __repr__(self) -> str:
        return self.written

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:  # pickled (a batch worker) with its text
        return _restore, (datetime.date(self.year, self.month, self.day), self.written)


class _WrittenDatetime(datetime.datetime):
    """A YAML timestamp that keeps the text the user wrote (see :class:`_WrittenDate`)."""

    written: str

    def __repr__(self) -> str:
        return self.written

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:  # pickled (a batch worker) with its text
        return _restore, (datetime.datetime(self.year, self.month, self.day, self.hour, self.minute, self.second,
                                    self.microsecond, self.tzinfo, fold=self.fold), self.written)


class _WrittenBytes(bytes):
    """A ``!!binary`` value that keeps the text the user wrote (see :class:`_WrittenDate`)."""

    written: str

    def __repr__(self) -> str:
        return self.written

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:  # pickled (a batch worker) with its text
        return _restore, (bytes(self), self.written)


def _restore(value: Any, text: str) -> Any:
    """A ``_Written*`` value again from its plain value and its text (unpickling)."""
    out = _as_written(value, "")
    out.written = text
    return out


def _as_written(value: Any, text: str) -> Any:
    """``value`` (what PyYAML constructed) as one of the ``_Written*`` types when it is a date, a
    timestamp or bytes, carrying ``text`` (white space runs made one space, base64 joined up);
    any other value as it is.  Equal to the plain value, and hashed alike."""
    out: Any
    if isinstance(value, datetime.datetime):
        out = _WrittenDatetime(value.year, value.month, value.day, value.hour, value.minute, value.second,
                               value.microsecond, value.tzinfo, fold=value.fold)
    elif isinstance(value, datetime.date):
        out = _WrittenDate(value.year, value.month, value.day)
    elif isinstance(value, bytes):
        out = _WrittenBytes(value)
    else:
        return value
    tag, _, body = text.partition(" ") if text.startswith("!") else ("", "", text)
    body = "".join(body.split()) if isinstance(value, bytes) else " ".join(body.split())
    shown = f"{tag} {body}" if tag else body
    out.written = shown if len(shown) <= 40 else shown[:37] + "..."
    return out


def _readable(reason: str) -> str:
    """Python's advice for over-long integers is for programmers; say what is wrong with the file."""
    if "integer string conversion" in reason:
        return "the number is far too long (more than 4300 digits)"
    if reason.startswith("invalid literal"):  # int()'s words for '!!int x' (issue 15 #16)
        return NOT_OF_TYPE
    return reason


def _short_tag(tag: str | None) -> str:
    if tag and tag.startswith(_YAML_TAG):
        return "!!" + tag[len(_YAML_TAG) :]
    return repr(tag)


def _nothing_written(event: Any) -> bool:
    """The document's root is the empty plain scalar YAML reads when nothing was written."""
    return event.value == "" and event.implicit[0] and event.tag is None and event.anchor is None


def _make_hand(
    value: Any,
    lines: dict[Path, int],
    problems: list[Problem],
    source: str,
    index: int,
    batch: bool,
    in_list: bool = False,
) -> Document | HandError:
    """A finished hand, or the HandError listing what is wrong with it."""
    if not problems and not isinstance(value, dict):
        empty = value is None and not in_list
        if empty:
            problems = [Problem((), EMPTY_MESSAGE, lines.get(()), kind=EMPTY, values={})]
        else:
            problems = [Problem((), f"expected {_EXPECTED}, found {_describe(value)}", lines.get(()),
                                kind="not_a_hand", values=_described(value))]
    if problems:
        label = Document(value, lines, source, index).label if batch else None  # its id when it has one
        return HandError([replace(p, hand=label, source=source) for p in problems])
    return Document(value, lines, source, index)


_NON_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON ``\\uD800``-``\\uDFFF`` escape: half of a UTF-16 pair, which ``json.loads`` keeps alone."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate_escape(text: str) -> bool:
    """Whether JSON ``text`` may hold half of a UTF-16 pair (one ``in`` test for text without ``\\u``)."""
    return "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None


def _surrogates_checked(value: Any, lines: dict[Path, int], problems: list[Problem], text: str
                        ) -> tuple[Any, list[Problem]]:
    """``value`` and ``problems`` of a JSON hand, with a problem for each string or key that holds a
    lone surrogate (``"\\ud800"``: half of a UTF-16 pair is no character, and no output can write it),
    each such half shown as U+FFFD in the value kept for the messages.  Costs one ``in`` test for a
    text without ``\\u``."""
    if not _has_surrogate_escape(text):
        return value, problems
    found: list[Problem] = []
    value = _without_surrogates(value, (), lines, found)
    if isinstance(value, dict) and any(p.path == ("id",) for p in found):
        del value["id"]  # the bad hand is named by its place in the file, not by a broken id
    return value, problems + found if found else problems


def _without_surrogates(value: Any, path: Path, lines: dict[Path, int], found: list[Problem]) -> Any:
    if isinstance(value, str):
        bad = _SURROGATE.search(value)
        if bad is None:
            return value
        code = f"U+{ord(bad.group()):04X}"
        line = next((lines[path[:k]] for k in range(len(path), -1, -1) if path[:k] in lines), None)
        found.append(Problem(path, f"\\u{ord(bad.group()):04x} is half of a UTF-16 surrogate pair, not a character: "
                             "write the character itself, or both halves of its pair", line,
                             kind="lone_surrogate", values={"code": code}))
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(item, (*path, k), lines, found) for k, item in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(key, str) and _SURROGATE.search(key) is not None:
                _without_surrogates(key, path, lines, found)  # the key's own problem, at its mapping
                key = _SURROGATE.sub("\ufffd", key)
            out[key] = _without_surrogates(item, (*path, key), lines, found)
        return out
    return value


def _yaml_fatal(exc: yaml.YAMLError, text: str) -> _Fatal:
    """Turn a libyaml/PyYAML error into a message with 1-based line and column, as an editor
    counts them (issue 15 item 2: libyaml's marks converted from their character index)."""
    if isinstance(exc, yaml.reader.ReaderError):
        bad = _NON_PRINTABLE.search(text)
        if bad:
            return _refused_character(text, bad.start())[0]
        return _Fatal(f"YAML error: {exc.reason}", None, kind="yaml_reader", values={"reason": exc.reason})
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
    said = {"problem": problem, "character": None, "context": None, "context_line": None}  # libyaml's words, as data
    if mark is None:
        return _Fatal(f"YAML syntax error: {problem}", None, kind="yaml_syntax", values=said)
    index = min(mark.index, len(text))
    line, column = _line_col(text, index)
    if "maximum nesting depth" in problem:  # newer libyaml builds stop deep nesting themselves
        return _Fatal(f"nesting deeper than {MAX_DEPTH} levels", line, index=index, kind="too_deep",
                      values={"max": MAX_DEPTH})
    line_start = _line_start(text, index)
    line_text = _LINE_TEXT.match(text, line_start).group()  # type: ignore[union-attr]
    tab = _tab_column(line_text, column - 1, problem)
    if tab is not None:
        return _Fatal("tab character: YAML indentation must use spaces", line, index=index, column=tab + 1,
                      kind="yaml_tab", values={})
    if problem == "found character that cannot start any token" and column - 1 < len(line_text):
        said["character"] = line_text[column - 1]
        problem = f"found character {line_text[column - 1]!r} that cannot start any token"
    message = f"YAML syntax error: {problem}"
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        context_line = _line_col(text, min(context_mark.index, len(text)))[0]
        if context_line != line:
            message += f" ({context} at line {context_line})"
            said["context"], said["context_line"] = context, context_line
    return _Fatal(message, line, index=index, column=column, kind="yaml_syntax", values=said)


_LINE_TEXT = re.compile("[^\r\n]*")
_DOCUMENT_START = re.compile("(?:^|(?<=[\r\n]))---(?=[ \t\r\n]|\\Z)")
"""A ``---`` line as an editor shows one: after ``\\n`` or ``\\r`` (issue 15 item 1).  A ``---``
after U+0085, U+2028 or U+2029 starts no document here: :func:`_unquoted_break` refuses those first."""
_BLANK = re.compile("[^\r\n]")
_UNICODE_BREAK = re.compile("[\x85\u2028\u2029\ufeff]")
_QUOTED = ("'", '"')


def _unquoted_break(text: str) -> int | None:
    """Index of the first U+0085, U+2028 or U+2029 outside a quoted string, or None.

    libyaml ends a line at each of them and an editor ends none, so outside quotes (in a comment,
    a plain or block scalar, between tokens) one would make the file mean what its reader cannot
    see: a ``---`` after one in a comment starts a phantom hand (issue 15 item 2).  Such a
    character refuses its document.  Inside quotes it is only text (the lines of messages are
    converted by :func:`_line_map`).  Costs one ``in`` test per character kind for ordinary text;
    otherwise one pass of libyaml's scanner, up to its first syntax error (after which the error
    is what is reported)."""
    if "\x85" not in text and "\u2028" not in text and "\u2029" not in text and "\ufeff" not in text:
        return None
    quoted: list[tuple[int, int]] = []
    known = len(text)
    bad = _NON_PRINTABLE.search(text)  # libyaml refuses the text from there: scan what is before it
    if bad is not None:
        known = bad.start()
    scanner = _Loader(text[:known])
    try:
        while True:
            token = scanner.get_token()
            if token is None:
                break
            if getattr(token, "style", None) in _QUOTED:
                quoted.append((token.start_mark.index, token.end_mark.index))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            known = min(known, mark.index)
    finally:
        scanner.dispose()
    spans = iter(quoted)
    span = next(spans, None)
    for match in _UNICODE_BREAK.finditer(text, 0, known):
        at = match.start()
        if text[at] == "\ufeff" and at and text[at - 1] not in "\r\n":
            continue  # a BOM within a line is a character; libyaml skips one that starts a line
        while span is not None and span[1] <= at:
            span = next(spans, None)
        if span is None or at < span[0]:
            return at
    return None


_DOCUMENT_END = re.compile("(?:^|(?<=[\r\n]))\\.\\.\\.(?=[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n|\\Z))")
_NEXT_CONTENT = re.compile("(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*(?=(.))", re.DOTALL)


_BOM_BY_START = re.compile("(?:^|(?<=[\r\n]))(?:\ufeff---|---\ufeff)")
"""A byte-order mark just before or just after a ``---`` (files joined by cat; the ``---`` kept)."""
_BOM_AFTER_START = re.compile("((?:^|(?<=[\r\n]))---[ \t]*(?:\r\n|\r|\n))\ufeff")


def _joined_documents(text: str) -> str:
    """A batch's YAML ``text`` as libyaml should read the documents a person joined: a ``...`` line
    that a bare document follows written as ``---`` (:func:`_bare_after_end`), and a byte-order mark
    just before or after a ``---`` dropped (files joined by cat, each with its own BOM; YAML 1.2 allows
    one at a document's start).  Any other BOM at the start of a line is refused later
    (:func:`_unquoted_break`)."""
    if "..." in text:
        text = _bare_after_end(text)
    if "\ufeff" in text:
        text = _BOM_AFTER_START.sub(r"\1", _BOM_BY_START.sub("---", text))
    return text


def _bare_after_end(text: str) -> str:
    """``text`` with each ``...`` line (document end) that a bare document follows written as ``---``:
    YAML 1.2 starts a document after ``...`` without ``---``, libyaml (YAML 1.1) refuses it ("did not
    find expected <document start>") and the hands after it were lost.  A ``...`` before ``---``, a
    directive (``%``) or the end of the text is left as it is.  The same length: lines and columns
    keep their places."""
    out: list[str] = []
    last = 0
    for match in _DOCUMENT_END.finditer(text):
        after = _NEXT_CONTENT.match(text, match.end())
        if after is None or after.group(1) == "%" or _DOCUMENT_START.match(text, after.start(1)) is not None:
            continue
        out.append(text[last:match.start()])
        out.append("---")
        last = match.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _next_document_start(text: str, failed_at: int, document_index: int) -> int | None:
    """Index of the first ``---`` line at or after the error's line that starts a later document
    than the bad one (an unclosed ``{`` is only found at the next ``---``), or None."""
    match = _DOCUMENT_START.search(text, max(_line_start(text, failed_at), document_index + 1))
    return None if match is None else match.start()


@functools.lru_cache(maxsize=16)
def _item_line(column: int) -> re.Pattern[str]:
    """A line starting with an item ``-`` of a block list in ``column`` (0-based)."""
    return re.compile(f"(?:^|(?<=[\r\n])) {{{column}}}-(?=[ \t\r\n]|\\Z)")


def _next_item_start(text: str, failed_at: int, after: int, indent: int) -> int | None:
    """Index of the first line at or after the error's line, and after index ``after`` (the bad
    item's start), that starts an item of the block list whose ``-`` is in column ``indent``
    (0-based): a syntax error in one item of a list document loses none of the later items
    (issue 15 item 1)."""
    match = _item_line(indent).search(text, max(_line_start(text, failed_at), after + 1))
    return None if match is None else match.start()


_LIST_HEAD = re.compile("(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*( *)-(?=[ \t\r\n]|\\Z)")
"""Blank and comment lines, then the ``-`` of a block list's first item (its column in group 1)."""


def _content_start(text: str, document_start: int) -> int:
    """Index after the ``---`` line that starts the document at ``document_start`` (itself if none)."""
    if _DOCUMENT_START.match(text, document_start) is None:
        return document_start
    end = _LINE_TEXT.match(text, document_start).end()  # type: ignore[union-attr]
    return end + (2 if text.startswith("\r\n", end) else 1)


def _list_item_start(text: str, document_start: int, index: int) -> tuple[int, int] | None:
    """``(column, start)`` of the item holding character ``index`` when the document starting at
    ``document_start`` is a block list, else None: a refused character in one item of a list
    document refuses that item only (issue 15 items 4, 6)."""
    head = _LIST_HEAD.match(text, _content_start(text, document_start))
    if head is None or head.end() > index + 1:
        return None
    column = len(head.group(1))
    start = head.end() - 1 - column
    for match in _item_line(column).finditer(text, start, index + 1):
        start = match.start()
    return column, start


def _refused_character(text: str, index: int) -> tuple[_Fatal, int]:
    """The problem of a character libyaml refuses at ``index`` (a byte that is not UTF-8 is kept as
    a lone surrogate by :func:`_decode_lenient`), and where its document starts."""
    line, column = _line_col(text, index)
    code = ord(text[index])
    if 0xDC80 <= code <= 0xDCFF:
        message = f"file is not valid UTF-8: byte 0x{code - 0xDC00:02x}"
        kind, values = "not_utf8", {"byte": code - 0xDC00}  # type: str, dict[str, object]
    elif code == 0xFEFF:  # a BOM past the start: libyaml begins a new stream there, no editor shows it
        return _Fatal(
            "a byte-order mark (U+FEFF) inside the file, outside quotes: YAML reads it as the start of "
            "a new file, an editor shows nothing; remove it",
            line, index=index, column=column, kind="yaml_bom_inside", values={},
        ), _document_start(text, index)
    elif code in _BREAK_NAMES:
        return _Fatal(
            f"character U+{code:04X} ({_BREAK_NAMES[code]}) outside quotes: YAML reads it as a line break, "
            "an editor shows none; remove it, or put the text in quotes",
            line, index=index, column=column, kind="yaml_unquoted_break",
            values={"code": f"U+{code:04X}", "name": _BREAK_NAMES[code]},
        ), _document_start(text, index)
    else:
        message = f"character U+{code:04X} is not allowed in YAML (control characters are not allowed)"
        kind, values = "yaml_character", {"code": code}
    return _Fatal(message, line, index=index, column=column, kind=kind, values=values), _document_start(text, index)


_BREAK_NAMES = {0x85: "next line", 0x2028: "line separator", 0x2029: "paragraph separator"}


def _document_start(text: str, index: int) -> int:
    """Index of the ``---`` line that starts the document holding character ``index`` (0 for the first)."""
    cut = 0
    for match in _DOCUMENT_START.finditer(text, 0, index):
        cut = match.start()
    return cut


def _remap(item: Document | HandError, mapping: list[int]) -> Document | HandError:
    """``item`` with libyaml's line numbers turned into an editor's (issue 15 item 2)."""
    if isinstance(item, Document):
        item.lines = {path: _mapped(mapping, line) or line for path, line in item.lines.items()}
        return item
    return HandError([replace(p, line=_mapped(mapping, p.line)) for p in item.problems])


def _nth_line(text: str, number: int) -> str:
    """Line ``number`` (0-based) of ``text``; only used on the error path."""
    lines = text.splitlines()
    return lines[number] if number < len(lines) else ""


def _tab_column(line_text: str, column: int, problem: str) -> int | None:
    """0-based column of the tab a YAML error is really about, if it is about one."""
    if column < len(line_text) and line_text[column] == "\t":
        return column
    if "tab" in problem and "\t" in line_text:
        return line_text.index("\t")
    return None


# --------------------------------------------------------------------------- JSON

_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s{}\[\]:,"]+|[{}\[\]:,]')


class _DuplicateKeyError(Exception):
    """Raised by the object hook; the token walk then finds where."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKeyError
    return result


JSON_SYNTAX = "json_syntax"
"""The problem kind of a JSON syntax error; values ``reason`` (:mod:`json`'s own words, ``Expecting value``)
and ``jsonl_hint`` (true for ``Extra data``: the advice to use a .jsonl file)."""


def _parse_json(text: str, first_line: int = 1, *, check_duplicates: bool = False,
                line_of_jsonl: bool = False, first_column: int = 0) -> Any:
    """``json.loads`` with errors as _Fatal (line relative to ``first_line``).  ``line_of_jsonl``: the
    text is a line of JSON Lines already, so "Extra data" gives no advice to use a .jsonl file."""
    hook = _unique_pairs if check_duplicates else None
    try:
        # Trailing white space (a JSON Lines line's own newline) left out: an error at the very end
        # (a missing closing brace) is then placed at the end of the last line, not past it.
        return json.loads(text.rstrip(), object_pairs_hook=hook)
    except json.JSONDecodeError as exc:
        hint = ""
        if exc.msg == "Extra data" and not line_of_jsonl:
            hint = " (more than one JSON value: for one hand per line use a .jsonl file)"
        line = first_line + exc.lineno - 1
        column = exc.colno + (first_column if exc.lineno == 1 else 0)
        words = _JSON_WORDS.get(exc.msg, exc.msg)
        raise _Fatal(f"JSON syntax error: {words}{hint}", line, column=column, kind=JSON_SYNTAX, index=exc.pos,
                     values={"reason": exc.msg, "jsonl_hint": bool(hint)}) from None
    except RecursionError:
        raise _Fatal(f"nesting deeper than {MAX_DEPTH} levels", first_line, kind="too_deep",
                     values={"max": MAX_DEPTH}) from None
    except ValueError as exc:  # e.g. an integer with more than 4300 digits
        reason = _readable(str(exc))
        raise _Fatal(f"JSON value cannot be read: {reason}", first_line, kind="json_value",
                     values={"reason": reason}) from None


_JSON_WORDS = {
    "Invalid control character at": "Invalid control character in a string (write a line break or tab as \\n or \\t)",
    "Unexpected UTF-8 BOM (decode using utf-8-sig)": "a byte-order mark (U+FEFF) where a value should be",
}
""":mod:`json`'s reasons that read as cut off or as advice to a Python programmer, in plain words."""


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_JSON_BLANKS = str.maketrans("", "", " \t\n\r")


def _json_nodes(text: str) -> int:
    """How many nodes (values and keys, as :class:`_YamlReader` counts them against :data:`MAX_NODES`)
    JSON ``text`` holds, counted without parsing it (issue 15 #8): 0 for a text shorter than
    ``2 * MAX_NODES`` characters, which cannot hold more than :data:`MAX_NODES` (each node has a
    character of its own, a scalar's first or a collection's closing bracket, and each but the first
    the separator before it: an opening bracket, a comma or a colon); else, with the strings taken
    out, 1 + commas + colons + opening brackets - empty collections, exact for valid JSON.

    Linear work in C (regular expression, ``str.translate``, ``str.count``) and two copies of the text."""
    if len(text) < 2 * MAX_NODES:
        return 0
    bare = _JSON_STRING.sub("0", text).translate(_JSON_BLANKS)
    separators = bare.count(",") + bare.count(":") + bare.count("[") + bare.count("{")
    return 1 + separators - bare.count("[]") - bare.count("{}")


def _too_many_nodes(text: str, line: int) -> _Fatal | None:
    """The problem of JSON ``text`` (a hand starting on ``line``) over :data:`MAX_NODES` nodes, if it is."""
    if _json_nodes(text) <= MAX_NODES:
        return None
    return _Fatal(f"document has more than {MAX_NODES} nodes", line, kind="too_many_nodes", values={"max": MAX_NODES})


class _JsonFrame:
    __slots__ = ("count", "is_obj", "path", "seen")

    def __init__(self, path: Path, is_obj: bool) -> None:
        self.path = path
        self.is_obj = is_obj
        self.count = 0
        self.seen: dict[str, tuple[int, int]] = {}


def _json_lines(text: str, first_line: int = 1, *, items: bool = False) -> tuple[dict[Path, int], list[Problem]]:
    """Line of every key path in *valid* JSON ``text``, plus duplicate keys, deep nesting and a hand over
    :data:`MAX_NODES` nodes (values and keys: the document, or with ``items`` each item of the root
    array; past the limit its lines are not kept, so memory stays bounded, issue 15 #8).

    ``json`` reports no positions, so this walks the tokens once more; it relies on
    ``json.loads`` having accepted the text.
    """
    lines: dict[Path, int] = {}
    problems: list[Problem] = []
    stack: list[_JsonFrame] = []
    line, pos = first_line, 0
    expect_key, too_deep = False, False
    value_path: Path = ()
    nodes, over = 0, False  # nodes of the hand being walked, and whether they passed the limit
    dropped: dict[Path, int] = {}  # where the lines of a hand over the limit go (emptied each time)
    item_start = 0  # where the item of the root array being walked starts (with ``items``)
    tokens = _JSON_TOKEN.finditer(text)
    while (match := next(tokens, None)) is not None:
        start = match.start()
        line += text.count("\n", pos, start)
        pos = start
        token = match.group()
        first = token[0]
        if first == ",":
            expect_key = bool(stack) and stack[-1].is_obj
        elif first in "}]":
            if stack:  # always true for valid JSON; never crash on anything else
                stack.pop()
            expect_key = False
        elif first == ":":
            continue
        else:
            if items and len(stack) == 1 and not expect_key:
                nodes, over, item_start = 0, False, start  # an item of the root array: a new hand
            target = dropped if over else lines
            if expect_key:
                expect_key = False
                path = value_path = _json_key(stack[-1], json.loads(token), line, text, start, problems, target)
            else:
                path = _json_item_path(stack, value_path, target, line)
                if first in "{[":
                    if len(stack) >= MAX_DEPTH and not too_deep:
                        problems.append(Problem(path, f"nesting deeper than {MAX_DEPTH} levels", line,
                                                kind="too_deep", values={"max": MAX_DEPTH}))
                        too_deep = True
                    stack.append(_JsonFrame(path, first == "{"))
                    expect_key = first == "{"
            dropped.clear()
            nodes += 1
            if nodes > MAX_NODES and not over:
                over = True
                problems.append(Problem(path[:1] if items else (), f"document has more than {MAX_NODES} nodes", line,
                                        kind="too_many_nodes", values={"max": MAX_NODES}))
                if items and len(stack) > 1:  # the rest of this hand is skipped by json's own scanner
                    end = _SCAN_ONCE(text, item_start)[1]
                    line += text.count("\n", pos, end)
                    pos = end
                    del stack[1:]
                    expect_key = False
                    tokens = _JSON_TOKEN.finditer(text, end)
    return lines, problems


def _json_item_path(stack: list[_JsonFrame], value_path: Path, lines: dict[Path, int], line: int) -> Path:
    if not stack:
        lines[()] = line
        return ()
    top = stack[-1]
    if top.is_obj:
        return value_path  # its line is the key's, already recorded
    path = (*top.path, top.count)
    top.count += 1
    lines[path] = line
    return path


def _json_key(
    top: _JsonFrame,
    key: str,
    line: int,
    text: str,
    start: int,
    problems: list[Problem],
    lines: dict[Path, int],
) -> Path:
    path = (*top.path, key)
    column = start - text.rfind("\n", 0, start)
    seen = top.seen.get(key)
    if seen is None:
        top.seen[key] = (line, column)
        lines[path] = line
    else:
        where, at = ("lines", (seen[0], line)) if seen[0] != line else ("columns", (seen[1], column))
        problems.append(_duplicate_problem(path, key, where, at, line, column))
    return path


_LONE_CR = re.compile("\r(?!\n)")
_JSON_ITEM_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[\[\]{},]')
"""A JSON string (an unclosed one ends at its line: JSON strings hold no line break), a bracket or a comma."""
_JSON_SPACES = " \t\n\r"
_NOT_UTF8 = re.compile("[\udc80-\udcff]")


def _json_item_spans(text: str, start: int) -> list[tuple[int, int]]:
    """``(begin, end)`` of each item of the root array whose ``[`` is at ``start``, found by brackets
    and commas outside strings, for text JSON could not read whole; the last item runs to the
    array's ``]`` (or the end of the text)."""
    spans: list[tuple[int, int]] = []
    depth, begin = 0, start + 1
    for match in _JSON_ITEM_TOKEN.finditer(text, start + 1):
        first = match.group()[0]
        if first == '"':
            continue
        if first in "[{":
            depth += 1
        elif first in "]}":
            if depth:
                depth -= 1
            elif first == "]":
                spans.append((begin, match.start()))
                return spans
        elif not depth:  # a comma between items
            spans.append((begin, match.start()))
            begin = match.end()
    spans.append((begin, len(text)))
    return spans


def _json_items_alone(text: str, start: int, source: str, whole: _Fatal | None) -> Iterator[Document | HandError]:
    """The hands of a JSON array read one item at a time (``whole``: why the array could not be read
    whole, if it could not): an item that is bad JSON, holds a byte that is not UTF-8, nests too
    deep or holds a number too big is that one bad hand, each at its own line and column; the other
    items settle.  Items are numbered as the array's are (``FILE:N``, N from 1); an empty one (a
    trailing comma) is no hand.  When no item holds the array's own error (a missing ``]``, text
    after it), that error is one more bad hand after the items.

    An item with an unclosed bracket or string runs on, to the splitter, over the items after it;
    so a bad item is cut again at each later line that starts with ``{`` where the first item's
    line does (its indent): they are read as the next items (:func:`_json_resync`).  Lines are
    counted as the items go, so the work is linear in the text."""
    index, covered, any_bad = 0, whole is None, False
    indent = _item_indent(text, start)
    counted, line_at = 0, 1  # lines counted up to index ``counted``
    queue = list(reversed(_json_item_spans(text, start)))
    while queue:
        begin, end = queue.pop()
        first = begin + len(text[begin:end]) - len(text[begin:end].lstrip(_JSON_SPACES))
        piece = text[first:end].rstrip(_JSON_SPACES).removesuffix(",").rstrip(_JSON_SPACES)  # a resync's comma
        if end == len(text) and piece.endswith("]") and not queue:  # the array's own ']' after a bad item
            piece = piece[:-1].rstrip(_JSON_SPACES)
        if not piece:
            continue
        line_at += text.count("\n", counted, first)
        counted = first
        line, column = line_at, first - text.rfind("\n", 0, first)
        value, problem = _json_item(text, first, piece, line, column)
        if problem is not None:
            later = _json_resync(text, first, first + len(piece), indent)
            if later:
                queue.extend(reversed(later))
                cut = later[0][0]
                piece = text[first:cut].rstrip(_JSON_SPACES).removesuffix(",").rstrip(_JSON_SPACES)
                problem = _json_item(text, first, piece, line, column)[1] or problem
            index += 1
            holds_error = whole is not None and whole.index is not None and first <= whole.index < end
            any_bad, covered = True, covered or holds_error
            yield _fatal_error(problem, source, f"{source}:{index}")
            continue
        index += 1
        lines, problems = _json_lines(piece, line)
        value, problems = _surrogates_checked(value, lines, problems, piece)
        yield _make_hand(value, lines, problems, source, index, True, True)
    if whole is not None and not covered and not (whole.index is None and any_bad):
        yield _fatal_error(whole, source, f"{source}:{index + 1}")  # a missing ']', text after it


def _json_item(text: str, first: int, piece: str, line: int, column: int) -> tuple[Any, _Fatal | None]:
    """The JSON value of the item ``piece`` (at index ``first`` of ``text``, on ``line``, ``column``)
    read alone, and None; or None and why it cannot be read."""
    bad = _NOT_UTF8.search(piece)
    if bad is not None:
        return None, _refused_character(text, first + bad.start())[0]
    try:
        fatal = _too_many_nodes(piece, line)
        if fatal is not None:
            return None, fatal
        return _parse_json(piece, line, first_column=column - 1), None
    except _Fatal as fatal:
        return None, fatal


def _item_indent(text: str, start: int) -> str:
    """The white space before the first item of the array at ``start`` on its own line ("" when the
    item follows the ``[`` on its line): where every later item's line is taken to start."""
    first = start + 1 + len(text[start + 1:]) - len(text[start + 1:].lstrip(_JSON_SPACES))
    line_start = text.rfind("\n", 0, first) + 1
    prefix = text[line_start:first]
    return prefix if line_start > start and not prefix.strip(" \t") else ""


def _json_resync(text: str, first: int, end: int, indent: str) -> list[tuple[int, int]]:
    """Spans of the items found again after a bad item at ``first`` that ran to ``end``: each later
    line that starts with ``indent`` and ``{`` begins one, up to the next such line."""
    starts = [match.start() + 1 + len(indent) for match in
              re.finditer("\n" + re.escape(indent) + "(?=\\{)", text[first:end])]
    starts = [first + at for at in starts]
    return [(begin, starts[k + 1] if k + 1 < len(starts) else end) for k, begin in enumerate(starts)]


def _json_hands(text: str, source: str, batch: bool, bad_bytes: _Fatal | None = None) -> Iterator[Document | HandError]:
    """Hands of a whole JSON file: an object, or (in a batch) an array of them.  In a batch, an array
    that JSON cannot read whole, or whose text has bytes that are not UTF-8 (``bad_bytes``: the first
    one's problem; ``text`` then keeps each such byte as a lone surrogate), is read item by item
    (:func:`_json_items_alone`): a bad item never loses the others."""
    label = f"{source}:1" if batch else None
    if "\r" in text:  # a lone CR ends a line, as in an editor; to JSON both are white space (issue 15 #2)
        text = _LONE_CR.sub("\n", text)
    start = len(text) - len(text.lstrip())
    is_array = batch and text[start:start + 1] == "["
    if bad_bytes is not None and not is_array:
        yield _fatal_error(bad_bytes, source, label)
        return
    try:
        if not text.strip():
            raise _Fatal(EMPTY_MESSAGE, 1, kind=EMPTY, values={})
        if not batch or text[start] == "{":  # one hand: bounded before it is parsed (issue 15 #8)
            fatal = _too_many_nodes(text, _line_col(text, start)[0])
            if fatal is not None:
                raise fatal
        value = _parse_json(text)
    except _Fatal as fatal:
        if is_array:
            yield from _json_items_alone(text, start, source, fatal)
            return
        yield _fatal_error(fatal, source, label)
        return
    if bad_bytes is not None:
        yield from _json_items_alone(text, start, source, None)
        return
    lines, problems = _json_lines(text, items=batch and isinstance(value, list))
    value, problems = _surrogates_checked(value, lines, problems, text)
    if not (batch and isinstance(value, list)):
        yield _make_hand(value, lines, problems, source, 1, batch)
        return
    item_lines: list[dict[Path, int]] = [{} for _ in value]
    for path, line in lines.items():
        if path:
            item_lines[path[0]][path[1:]] = line  # type: ignore[index]
    item_problems: list[list[Problem]] = [[] for _ in value]
    for problem in problems:
        item_problems[problem.path[0]].append(replace(problem, path=problem.path[1:]))  # type: ignore[index]
    for index, item in enumerate(value):
        yield _make_hand(item, item_lines[index], item_problems[index], source, index + 1, True, True)


# --------------------------------------------------------------------------- JSON Lines


def _jsonl_hands(stream: BinaryIO, source: str, max_bytes: int) -> Iterator[Document | HandError]:
    """One hand per non-blank line, read lazily: memory stays at one line."""
    for line in jsonl_lines(stream, source, max_bytes):
        yield line if isinstance(line, HandError) else jsonl_hand(line.text, line.number, source, line.index)


class JsonLine:
    """One non-blank line of JSON Lines that reads as UTF-8 (:func:`jsonl_lines`): ``text`` (decoded,
    without a first line's BOM), ``raw`` (its bytes as read, with its newline), ``number`` (1-based
    line) and ``index`` (1-based hand).  A plain class: making a dataclass compiles its methods at
    start-up (issue 14)."""

    __slots__ = ("index", "number", "raw", "text")

    def __init__(self, text: str, raw: bytes, number: int, index: int) -> None:
        self.text = text
        self.raw = raw
        self.number = number
        self.index = index


def jsonl_lines(stream: BinaryIO, source: str = "<stdin>", max_bytes: int = MAX_DOCUMENT_BYTES, *,
                bom: bool = True, first_hand: int = 1) -> Iterator[JsonLine | HandError]:
    """The hands of a JSON Lines stream before they are parsed, read lazily: each non-blank line as a
    :class:`JsonLine` (:func:`jsonl_hand` parses it), or the :class:`HandError` of a line that cannot
    be read (longer than ``max_bytes``, not UTF-8; a UTF-16/32 first line ends the stream), each one
    hand; an input with no hand yields the empty-document error.  What :func:`iter_documents` reads
    for ``jsonl``, line by line.

    A line ends at ``\\n``; its number is as an editor counts lines (a lone ``\\r`` ends one too, issue
    15 #2; U+001C ... U+001F, U+0085, U+2028, U+2029 and U+3000 end none: a line of white space only is
    blank, issue 15 #3).  ``bom``: the stream starts the file, so its first line may start with a BOM
    or show a UTF-16/32 encoding.  A line longer than ``max_bytes`` is one bad hand, and the rest of it
    is skipped as far as ``max_bytes`` again; a line that goes on past that (``/dev/zero``) ends the
    stream: its error says that the rest is not read (issue 15 #10).  ``first_hand``: the number of the
    stream's first hand in its file (a part of a file read alone: the batch's blocks), so that the lines'
    ``index`` and the labels made here (``source:index``) are the file's."""
    hands, number = first_hand - 1, 1
    for raw in iter(lambda: stream.readline(max_bytes + 1), b""):
        line, number = number, number + 1
        if b"\r" in raw:
            number += raw.count(b"\r") - raw.count(b"\r\n")
        if len(raw) > max_bytes and not raw.endswith(b"\n"):
            hands += 1
            ended = _skip_rest_of_line(stream, max_bytes)
            message = f"document is larger than the {_limit_text(max_bytes)} limit"
            if not ended:
                message += (f"; its line does not end within another {_limit_text(max_bytes)}:"
                            " the rest of the input is not read")
            yield HandError([Problem((), message, line, f"{source}:{hands}", source, "too_large",
                                     values={"max_bytes": max_bytes, "jsonl_hint": False, "rest_unread": not ended})])
            if not ended:
                return
            continue
        try:
            text = _decode(raw, line, check_bom=bom and line == 1)
        except _Fatal as fatal:
            hands += 1
            yield _fatal_error(fatal, source, f"{source}:{hands}")
            if line == 1 and fatal.kind == "encoding":
                return  # a UTF-16/32 file: no later line will read either
            continue
        if text.strip():
            hands += 1
            yield JsonLine(text, raw, line, hands)
    if hands == first_hand - 1:
        yield HandError([Problem((), EMPTY_MESSAGE, 1, f"{source}:{first_hand}", source, EMPTY, values={})])


def _skip_rest_of_line(stream: BinaryIO, limit: int) -> bool:
    """Read ``stream`` past the end of the line being read, at most ``limit`` bytes (and a read):
    whether the line (or the stream) ended within them."""
    skipped = 0
    while skipped <= limit:
        chunk = stream.readline(1 << 16)
        if not chunk or chunk.endswith(b"\n"):
            return True
        skipped += len(chunk)
    return False


def _key_count(value: Any) -> int:
    """Keys of every object in a parsed JSON value (``json.loads`` keeps one key of a duplicate)."""
    if type(value) is dict:
        count = len(value)
        items = value.values()
    else:
        count = 0
        items = value
    for item in items:
        if type(item) is dict or type(item) is list:
            count += _key_count(item)
    return count


_SCAN_ONCE: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")  # noqa: B009 -- untyped in typeshed
"""The json module's own (C) scanner, as ``json.loads`` uses it, without its Python wrapper."""


def _scan_object(text: str) -> Any:
    """The JSON value of ``text`` when it is one object with nothing but JSON white space around it
    (what ``json.loads(text.rstrip())`` returns), else None: on any doubt the caller parses again
    with :func:`_parse_json`, which words the error."""
    start = 0
    while text[start:start + 1] in _JSON_SPACE:
        start += 1
    if text[start:start + 1] != "{":
        return None
    try:
        value, end = _SCAN_ONCE(text, start)
    except (StopIteration, ValueError, RecursionError):
        return None
    return None if text[end:].strip(" \t\n\r") else value


_JSON_SPACE = (" ", "\t", "\n", "\r")


def jsonl_hand(text: str, number: int, source: str, index: int) -> Document | HandError:
    """The hand of one JSON Lines line (``text``: a :class:`JsonLine`'s, on line ``number``, hand
    ``index``): its :class:`Document`, or the :class:`HandError` saying why it is none (JSON syntax,
    a repeated key, nesting deeper than :data:`MAX_DEPTH`, more than :data:`MAX_NODES` nodes: counted
    before the line is parsed, issue 15 #8; not a mapping)."""
    too_many = _too_many_nodes(text, number)
    if too_many is not None:
        return _fatal_error(too_many, source, f"{source}:{index}")
    brackets = text.count("[") + text.count("{")
    if brackets <= MAX_DEPTH:
        # Fast path: json.loads without a Python hook, then a sound duplicate-key test.  Each key
        # in the text is followed by its own colon (other colons are inside strings), so
        # colons >= keys written >= keys parsed (a repeated key is parsed once); equal counts
        # prove no key was written twice.  Otherwise the exact path below finds the repeat.
        value = _scan_object(text)
        if value is None:  # not a plain object on one line: json.loads again, for its own error
            try:
                value = _parse_json(text, number, line_of_jsonl=True)
            except _Fatal as fatal:
                return _fatal_error(fatal, source, f"{source}:{index}")
        if type(value) is dict and _key_count(value) == text.count(":") and not _has_surrogate_escape(text):
            return Document(value, {(): number}, source, index)
    return _jsonl_hand_exact(text, number, source, index, brackets)


def _jsonl_hand_exact(text: str, number: int, source: str, index: int, brackets: int) -> Document | HandError:
    label = f"{source}:{index}"
    problems: list[Problem] = []
    try:
        try:
            value = _parse_json(text, number, check_duplicates=True, line_of_jsonl=True)
        except _DuplicateKeyError:
            # The hook fired mid-parse: the rest of the line may still be bad JSON,
            # and the token walk below needs valid JSON.
            value = _parse_json(text, number, line_of_jsonl=True)
            problems = _json_lines(text, number)[1]
    except _Fatal as fatal:
        return _fatal_error(fatal, source, label)
    # Nesting can only be too deep if there are that many brackets; only then walk tokens.
    if not problems and brackets > MAX_DEPTH:
        problems = _json_lines(text, number)[1]
    value, problems = _surrogates_checked(value, {(): number}, problems, text)
    return _make_hand(value, {(): number}, problems, source, index, True, True)
