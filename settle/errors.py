"""Errors raised for input that cannot be settled.

Every problem names the key path inside the hand (``players.B.kongs.concealed``),
the YAML/JSON line where it is known, and the hand (its ``id`` or ``file:index``)
in batches.  Validation collects every problem it can find before raising, so a
user fixes a file in one pass (the way ssttkkl/mahjong-utils reports errors).

Exit status of the CLI: 0 settled, 2 bad input (:class:`HandError`), 1 internal bug.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from settle.records import Frozen

Path = tuple[str | int, ...]


_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Characters a key cannot show as they are: control characters and line breaks (U+0085, U+2028, U+2029)."""


ID_MAX_LENGTH = 200
"""The longest ``id`` a hand may have (characters); a longer one is refused (:class:`settle.model.Hand`)."""

SHOWN_ID_LENGTH = 60
"""How much of a refused, over-long ``id`` a message shows before ``…[N]`` (issue 15)."""


def shown_label(label: str) -> str:
    """A hand's label as a message shows it: itself, or for an ``id`` longer than
    :data:`ID_MAX_LENGTH` (refused, so it names no hand) its first :data:`SHOWN_ID_LENGTH`
    characters and ``…[N]``, N its length in characters: a 100,000-character id is not echoed
    in full on every line of a bad hand (issue 15).  The JSON error record keeps the id whole."""
    if not label.isprintable():  # a refused id with a control character: escaped, never a raw line break
        label = quoted(label)
    if len(label) <= ID_MAX_LENGTH:
        return label
    return f"{label[:SHOWN_ID_LENGTH]}…[{len(label)}]"


def quoted(text: str) -> str:
    """``text`` in quotes for a message: ``'abc'`` as Python writes a printable string, and one
    holding a control or invisible character (U+0001, U+FEFF, U+200D) in YAML's double-quoted form
    with YAML's escapes (``"A\\x01B"``, ``"\\ufeffA"``), which reads back as the same text in a hand
    file; never raw control characters on a terminal."""
    if text.isprintable():
        return repr(text)
    out = ['"']
    for char in text:
        code = ord(char)
        if char in _YAML_ESCAPES:
            out.append(_YAML_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_YAML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x00": "\\0"}


def shown_name(text: str) -> str:
    """A name as written, or in YAML's double quotes with its escapes (:func:`quoted`) when it holds a
    control or invisible character (``"\\ufeffA"``, which otherwise looks like ``A``)."""
    return text if text.isprintable() else quoted(text)


def shown_word(text: str) -> str:
    """A word the user wrote, for a message: ``'abc'`` as written, or in YAML's double quotes with
    its escapes when it holds a control or invisible character (:func:`quoted`), so a message is
    always one line."""
    return f"'{text}'" if text.isprintable() else quoted(text)


def number(value: int | float) -> str:
    """A number as YAML writes it: ``5``, ``1.5``, and ``.inf``, ``-.inf``, ``.nan`` (never
    Python's ``inf``/``nan``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return repr(value)


def written(value: object) -> str:
    """A scalar value as the user wrote it, for a message (issue 15 #16): never a Python repr.

    ``'abc'`` (text, quoted), ``5``, ``1.5``, ``true``/``false``, ``null``; a YAML date or timestamp
    and a ``!!binary`` value as they stand in the file (``2001-12-14``, ``!!binary aGVsbG8=``: the
    loader keeps that text on the value as ``written``), else in YAML's own form (``2001-12-14
    10:00:00``, ``!!binary`` and the base64 of the bytes); ``a mapping`` and ``a list of 2 items`` for containers.
    """
    text = getattr(value, "written", None)
    if isinstance(text, str):
        return text
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    import datetime

    if isinstance(value, datetime.datetime):
        return value.isoformat(" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, bytes):
        import base64

        return "!!binary " + base64.b64encode(value).decode("ascii")
    return f"a {type(value).__name__}"


def format_path(path: Path) -> str:
    """Render a key path as ``players.B.kongs.concealed`` (list indices as ``win.fans[1]``).

    A key holding a control character or a line break is shown quoted and escaped as in JSON
    (``fans."A\\nB"``), so that an error stays on one line that starts with ``error:`` (issue 15 #17).
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = part if isinstance(part, str) else written(part)  # a YAML date as a key: 2001-12-14
            if _UNSHOWN.search(text):
                import json  # only for such a key

                text = json.dumps(text, ensure_ascii=False).replace("\u2028", "\\u2028").replace(
                    "\u2029", "\\u2029").replace("\x85", "\\u0085")
            out += ("." if out else "") + text
    return out or "(top level)"


@dataclass(init=False, repr=False, eq=False)
class Problem(Frozen):
    """One thing wrong with an input.

    ``path`` is the key path inside the hand document; ``line`` and ``column`` the 1-based line and
    column in the source file where known (data, never written into ``message``: settle does not read
    its own text back, issue 16 #9); ``hand`` labels the hand in a batch; ``source`` the file;
    ``values`` the facts a catalog words the message from in another language (``kind`` names the
    template; the English ``message`` is kept as it is).  Shown as ``FILE:LINE:COL: hand H: path:
    message`` (:meth:`__str__`), the location first so that a terminal or an editor opens it.

    Immutable, equal to another of equal fields, hashable, and shown as a frozen dataclass
    (:class:`settle.records.Frozen`).  A dataclass for :func:`dataclasses.replace` and
    :func:`dataclasses.fields`, with its methods written out: generating them compiles code at every
    start-up (issue 14).
    """

    path: Path
    message: str
    line: int | None = None
    hand: str | None = None
    source: str | None = None
    kind: str = ""
    """What went wrong, for code (pydantic's error type such as ``extra_forbidden``), where known."""
    column: int | None = None
    values: Mapping[str, object] | None = None

    _FIELDS = ("path", "message", "line", "hand", "source", "kind", "column", "values")
    _UNSHOWN = ("values",)

    def __init__(self, path: Path, message: str, line: int | None = None, hand: str | None = None,
                 source: str | None = None, kind: str = "", column: int | None = None,
                 values: Mapping[str, object] | None = None) -> None:
        _set = object.__setattr__
        _set(self, "path", path)
        _set(self, "message", message)
        _set(self, "line", line)
        _set(self, "hand", hand)
        _set(self, "source", source)
        _set(self, "kind", kind)
        _set(self, "column", column)
        _set(self, "values", values)

    def __hash__(self) -> int:  # ``values`` (a mapping) left out; equal problems still hash alike
        return hash(self._values()[:-1])

    def __str__(self) -> str:
        return self.shown(self.message)

    def shown(self, message: str, hand_word: str = "hand") -> str:
        """``FILE:LINE:COL: hand H: path: message`` with ``message`` (this problem's, or the same in
        another language, ``hand_word`` the word before the hand); each part left out when unknown
        (no file: ``line N``)."""
        parts = [part for part in (self.place(), f"{hand_word} {shown_label(self.hand)}" if self.hand else "",
                                   format_path(self.path) if self.path else "") if part]
        return ": ".join([*parts, message])

    def place(self) -> str:
        """``FILE:LINE:COL``, ``FILE:LINE`` or ``FILE`` as an editor opens it; ``line N`` without a file."""
        if self.source is None:
            return "" if self.line is None else f"line {self.line}"
        if self.line is None:
            return self.source
        return f"{self.source}:{self.line}" + ("" if self.column is None else f":{self.column}")

    def as_dict(self) -> dict[str, object]:
        """JSON form: ``{"path", "message", "line", "column", "hand"}`` (absent values left out)."""
        out: dict[str, object] = {"path": format_path(self.path), "message": self.message}
        if self.line is not None:
            out["line"] = self.line
        if self.column is not None:
            out["column"] = self.column
        if self.hand is not None:
            out["hand"] = self.hand
        return out


class HandError(Exception):
    """A hand (or file) that cannot be settled: one or more :class:`Problem`.

    Raised by :func:`settle.settle_hand` and the loaders; the CLI turns it into
    exit status 2 with one line per problem.  Equal to another with equal problems, and shown as
    ``HandError(problems=[...])``, as a dataclass would be (written out: making a dataclass compiles
    its methods, which every start-up would pay, issue 14).
    """

    problems: list[Problem]

    def __init__(self, problems: list[Problem] | None = None) -> None:
        self.problems = [] if problems is None else problems
        super().__init__(self.__str__())

    def __eq__(self, other: object) -> bool:  # defining it makes the class unhashable, as a dataclass
        if other.__class__ is self.__class__:
            return self.problems == other.problems
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(problems={self.problems!r})"

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)

    @classmethod
    def at(cls, path: Path, message: str, line: int | None = None, kind: str = "",
           values: Mapping[str, object] | None = None) -> HandError:
        """A single problem at ``path`` (``kind`` and ``values``: its words in a catalog, where it has some)."""
        return cls([Problem(tuple(path), message, line, kind=kind, values=values)])

    def located(
        self,
        lines: dict[Path, int] | None = None,
        hand: str | None = None,
        source: str | None = None,
    ) -> HandError:
        """The same problems with YAML lines (nearest known ancestor), hand label and source."""
        return HandError([_locate(p, lines or {}, hand, source) for p in self.problems])


def _locate(p: Problem, lines: dict[Path, int], hand: str | None, source: str | None) -> Problem:
    line = p.line
    if line is None:
        line = nearest_line(p.path, lines)
    return replace(p, line=line, hand=p.hand or hand, source=p.source or source)


def nearest_line(path: Sequence[str | int], lines: dict[Path, int]) -> int | None:
    """Line of ``path`` or of its nearest ancestor that has one."""
    for end in range(len(path), -1, -1):
        line = lines.get(tuple(path[:end]))
        if line is not None:
            return line
    return None


def collect(problems: Iterable[Problem]) -> None:
    """Raise :class:`HandError` if ``problems`` is not empty."""
    found = list(problems)
    if found:
        raise HandError(found)


def counted(n: int, noun: str) -> str:
    """``1 hand``, ``3 hands``: a count and its noun, for messages and summaries."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def with_columns(problems: Iterable[Problem], text: str) -> list[Problem]:
    """``problems`` with a column where they have a line but none (issue 16 #9): the 1-based column,
    in code points as an editor counts, of the problem's key on its line (``winnr`` in ``  winnr: D``,
    the last text key of its path, bare or quoted), else of the line's first character that is not
    blank.  Reads the user's file (``text``, the whole source), never settle's own text; only on
    the error path."""
    lines: list[str] | None = None
    out = []
    for p in problems:
        if p.line is None or p.column is not None:
            out.append(p)
            continue
        if lines is None:
            lines = _LINE_BREAK.split(text)
        if not 1 <= p.line <= len(lines):
            out.append(p)
            continue
        out.append(replace(p, column=column_in(lines[p.line - 1], p.path)))
    return out


def column_in(row: str, path: Path) -> int:
    """The 1-based column on ``row`` of ``path``'s last text key written as a key (bare or quoted, then
    ``:``), found after the keys before it that are on the row too (``fans.东`` in a JSON line: the
    ``"东"`` after ``"fans"``, not a name in ``players``); else the row's first character that is not
    blank or a list dash (:func:`with_columns`)."""
    keys = [part for part in path if isinstance(part, str)]
    for start in range(len(keys)):  # the longest run of the path's last keys found in order
        at, found = 0, -1
        for key in keys[start:]:
            shown = re.escape(key)
            match = re.compile(rf"(?:\"{shown}\"|'{shown}'|(?<![\w\"']){shown})\s*:").search(row, at)
            if match is None:
                break
            at, found = match.end(), match.start()
        else:
            return found + 1
    return len(row) - len(row.lstrip(" \t-")) + 1
