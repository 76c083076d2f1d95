"""Settled hands encoded for an output format, and the running totals of a batch.

Shapes:

* a :class:`Chunk` is the settled, already encoded output of consecutive hands, with the
  partial standings and the problems found; chunks are what worker processes return;
* :class:`Totals` is every chunk of a run added up: hand counts, standings, problems;
* a JSON line is the text of :func:`record`'s dict (:func:`json_line`: :meth:`Settlement.json_text`
  for a settled hand, the :mod:`json` encoder for a bad one);
  a hand's CSV rows are :data:`CSV_HEADER`'s columns through :mod:`csv` (:func:`csv_line`); a table row
  (:func:`table_row`) is data that :mod:`settle.render.batch` lays out.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from settle.core import Settlement
from settle.core.text import dumps
from settle.engine.batch.outcome import Outcome
from settle.engine.batch.standings import Standings, merge_standings, tally
from settle.engine.csvrows import HAND_COLUMNS, error_row, hand_rows
from settle.errors import Problem, format_path, shown_label

BATCH_FORMATS = ("table", "json", "jsonl", "csv", "markdown", "standings")
"""What a batch's chunks can be encoded for; ``standings`` encodes nothing per hand (``--standings``:
only the standings are written, by :class:`settle.render.standings.StandingsWriter`)."""

STANDINGS_WRITTEN = frozenset({"table", "markdown", "json", "standings"})
"""The formats whose output holds the standings (the tables' standings, JSON's ``standings`` and
``standings_by_region``, ``--standings``): for JSON Lines and CSV ``settle batch`` tallies none
(:attr:`~settle.engine.batch.run.BatchRun.standings`)."""


@dataclass
class Chunk:
    """Consecutive hands, settled and encoded for one output format.

    ``data``: the hands' output (JSON Lines, the JSON array's items, or CSV rows) as UTF-8 bytes
    (``surrogatepass``) ready to write: bytes, so that a worker process hands the parent what it
    writes, with no text to decode and encode again (issue 14); :attr:`text` is the same as text.
    ``rows``: table/markdown rows (:func:`table_row`, kept for one tabulate call at the end);
    ``standings``: their partial standings; ``problems``: every problem of the bad hands, hand after hand;
    ``bad_sizes``: how many of ``problems`` each bad hand has, in order (where one hand's end, so that two bad
    hands with one id stay two: ``settle batch --errors``);
    ``hands``/``bad``: counts; ``stopped``: ``strict`` met a bad hand (later hands skipped);
    ``size``: input bytes the chunk covered, where known (JSON Lines), for the progress bar.
    """

    data: bytes = b""
    rows: list[list[Any]] = field(default_factory=list)
    standings: Standings = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    bad_sizes: list[int] = field(default_factory=list)
    hands: int = 0
    bad: int = 0
    stopped: bool = False
    size: int = 0

    @property
    def text(self) -> str:
        """The hands' output as text (:attr:`data` decoded; a lone surrogate of the input comes back)."""
        return self.data.decode("utf-8", "surrogatepass")


KEPT_PROBLEMS = 10_000
"""How many problems :class:`Totals` keeps in memory; later ones wait in a temporary file (issue 15 #10)."""


@dataclass
class Totals:
    """What a batch run found: hand counts, the standings and the problems.

    ``problems`` are kept only when ``keep_problems`` (the JSON output's ``errors`` needs them);
    otherwise they go out with their chunk, so a file of bad hands does not fill memory.  Of the
    kept ones the first :data:`KEPT_PROBLEMS` are in ``problems`` and the rest, as JSON text, in a
    temporary file: memory stays bounded on an endless stream of bad hands (``/dev/urandom``, issue
    15 #10); :meth:`problem_json` gives them all, in order.
    ``size``: input bytes settled so far, where known (for a progress bar).
    """

    hands: int = 0
    bad: int = 0
    stopped: bool = False
    standings: Standings = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    keep_problems: bool = True
    size: int = 0
    spilled: IO[str] | None = None

    def add(self, chunk: Chunk) -> None:
        """Merge a chunk's counts, standings and (when kept) problems."""
        self.size += chunk.size
        self.hands += chunk.hands
        self.bad += chunk.bad
        self.stopped = self.stopped or chunk.stopped
        merge_standings(self.standings, chunk.standings)
        if self.keep_problems and chunk.problems:
            room = KEPT_PROBLEMS - len(self.problems)
            self.problems.extend(chunk.problems[:room])
            if len(chunk.problems) > room:
                self._spill(chunk.problems[max(room, 0):])

    def _spill(self, problems: list[Problem]) -> None:
        if self.spilled is None:
            import tempfile

            # kept open across chunks and closed when read (problem_json): no context manager fits
            self.spilled = tempfile.TemporaryFile(  # noqa: SIM115
                "w+", encoding="utf-8", errors="surrogatepass", newline="\n")
        self.spilled.writelines(json.dumps(p.as_dict(), ensure_ascii=False) + "\n" for p in problems)

    def problem_json(self) -> Iterator[str]:
        """The JSON text of every kept problem (:meth:`Problem.as_dict`), in order, the spilled ones last."""
        for problem in self.problems:
            yield json.dumps(problem.as_dict(), ensure_ascii=False)
        if self.spilled is not None:
            self.spilled.seek(0)
            for line in self.spilled:
                yield line[:-1]
            self.spilled.close()
            self.spilled = None


def encode(outcomes: Iterable[Outcome], fmt: str, strict: bool = False, lang: str = "en",
           tallied: bool = True) -> Chunk:
    """Tally (with ``tallied``: the standings, :attr:`Chunk.standings`) and encode ``outcomes`` for ``fmt``
    (one of :data:`BATCH_FORMATS`) into a :class:`Chunk`.

    With ``strict`` the chunk ends with the first bad hand (included, so it is reported); JSON
    explanations are in ``lang``.  ``table`` and ``markdown`` keep :func:`table_row` rows instead
    of text.
    """
    chunk = Chunk()
    pieces: list[Any] = []  # JSON: the outcomes, encoded after the loop (_by_catalog); else text
    add = pieces.append
    standings = chunk.standings
    json_form = fmt in ("json", "jsonl")
    line = None if json_form else _line_encoder(fmt, lang)
    hands = 0
    for outcome in outcomes:
        hands += 1
        result = outcome.result
        if result is not None:
            if tallied:
                tally(standings, result)
        else:
            assert outcome.error is not None
            chunk.bad += 1
            chunk.problems.extend(outcome.error.problems)
            chunk.bad_sizes.append(len(outcome.error.problems))
        if json_form:
            add(outcome)
        elif line is None:
            chunk.rows.append(table_row(outcome))
        else:
            add(line(outcome))
        if strict and outcome.error is not None:
            chunk.stopped = True
            break
    chunk.hands = hands
    if json_form:
        pieces = _by_catalog(pieces, lang)  # each settled line built as UTF-8 bytes
    # A lone surrogate is kept as its three bytes (surrogatepass): it fails where it is written.
    if fmt == "jsonl":  # the last line's newline joined in too: no second copy of the chunk's bytes
        if pieces:
            pieces.append(b"")
            chunk.data = b"\n".join(pieces)
    elif fmt == "json":  # JSON array items are joined by the writer's commas
        chunk.data = b",\n".join(pieces)
    else:  # CSV lines end with their newline
        chunk.data = "".join(pieces).encode("utf-8", "surrogatepass")
    return chunk


def _by_catalog(outcomes: list[Outcome], lang: str) -> list[bytes]:
    """The JSON line of each of ``outcomes`` (a chunk's hands in order) as UTF-8 bytes (:func:`json_line`'s
    text, ``surrogatepass``; a settled hand's built as bytes, :meth:`Settlement.json_bytes`), in that
    order, made one catalog after another (a region's words and kept texts: :attr:`Settlement.catalog`;
    bad hands together): the same bytes as one hand after another, with each region's tables kept in the
    processor's caches while its hands are encoded (issue 14)."""
    catalogs = [0 if outcome.result is None else id(outcome.result.catalog) for outcome in outcomes]
    pieces = [b""] * len(outcomes)
    for place in sorted(range(len(outcomes)), key=catalogs.__getitem__):
        outcome = outcomes[place]
        result = outcome.result
        pieces[place] = (json_line(outcome, lang).encode("utf-8", "surrogatepass") if result is None
                         else result.json_bytes(lang, label=outcome.label))
    return pieces


def _line_encoder(fmt: str, lang: str = "en") -> Callable[[Outcome], str] | None:
    if fmt == "csv":
        sink = _LastWrite()
        writer = csv.writer(sink, lineterminator="\n")  # one writer for the chunk's rows

        def line(outcome: Outcome) -> str:
            writer.writerows(csv_rows(outcome))
            return sink.take()

        return line
    if fmt == "standings":  # only the standings are written (--standings): nothing per hand

        def nothing(outcome: Outcome) -> str:
            return ""

        return nothing
    return None


def record(outcome: Outcome, lang: str = "en", *, shared: bool = False) -> dict[str, Any]:
    """JSON form of one hand: ``{"id", ...Settlement.as_dict()}`` or ``{"id", "error": [problems]}``;
    the explanations in ``lang``.  Every container new, unless ``shared`` (see
    :meth:`Settlement.as_dict`: then parts are shared with other records and read only)."""
    result = outcome.result
    if result is None:
        assert outcome.error is not None
        return {"id": outcome.label, "error": [p.as_dict() for p in outcome.error.problems]}
    return result.as_dict(lang, shared=shared, label=outcome.label)  # the label covers file:index too


_ENCODE = dumps
"""The encoder of a line: :func:`settle.core.text.dumps` (``json.dumps(..., ensure_ascii=False)``,
its C encoder made once)."""


def json_line(outcome: Outcome, lang: str = "en") -> str:
    """One hand as a JSON line, without its newline: the same text as ``json.dumps(record(outcome, lang),
    ensure_ascii=False)``.  A settled hand's line is :meth:`Settlement.json_text` (the recurring parts'
    text kept, the hand's own values encoded); a bad hand's is :func:`record`'s dict through the
    :mod:`json` encoder."""
    result = outcome.result
    if result is None:
        return _ENCODE(record(outcome, lang))
    return result.json_text(lang, label=outcome.label)


# --- how a hand ended -----------------------------------------------------------------------------------


def ending(result: Settlement) -> tuple[str, str | None]:
    """How the hand ended, from the roles: ``(kind, player)`` with kind ``self_draw``, ``discard``,
    ``robbed_kong`` (player: the discarder or robbed player), ``draw`` or ``abandon`` (the leaver)."""
    by_role = {role: name for name, roles in result.roles.items() for role in roles}
    if "abandoned" in by_role:
        return "abandon", by_role["abandoned"]
    if "winner" not in by_role:
        return "draw", None
    if "robbed" in by_role:
        return "robbed_kong", by_role["robbed"]
    if "discarder" in by_role:
        return "discard", by_role["discarder"]
    return "self_draw", None


HOW_ZH = {"discard": "{who} 点炮", "robbed_kong": "{who} 被抢杠", "self_draw": "自摸", "draw": "荒庄",
          "abandon": "{who} 逃跑"}
"""How a hand ended, in Chinese (:func:`how_text`)."""


def how_text(end: tuple[str, str | None], lang: str = "en") -> str:
    """An :func:`ending` in words: ``discard from A``, ``self_draw``, ``abandon by B`` (``A 点炮``,
    ``自摸``, ``B 逃跑`` in Chinese)."""
    kind, who = end
    if lang == "zh":
        return HOW_ZH[kind].format(who=who)
    if kind == "abandon":
        return f"abandon by {who}"
    return f"{kind} from {who}" if who is not None else kind


def how(result: Settlement) -> str:
    """How the hand ended in the hand-file words: ``self_draw``, ``discard from A``, ``draw``, ``abandon by B``."""
    return how_text(ending(result))


def winners(result: Settlement) -> list[str]:
    """The winner(s) in seat order (several only for Rushan 一炮多响)."""
    return [name for name in result.players if "winner" in result.roles.get(name, ())]


# --- rows -----------------------------------------------------------------------------------------------


def table_row(outcome: Outcome) -> list[Any]:
    """``[id, region, winner, how, net]``: ``how`` an :func:`ending` (kind, player) and ``net`` a name ->
    points dict; for a bad hand ``how`` is the text ``bad hand: PATH`` and ``net`` the error's message."""
    result = outcome.result
    if result is None:
        assert outcome.error is not None
        first = outcome.error.problems[0]
        more = len(outcome.error.problems) - 1
        text = f"{first.message}" + (f" (+{more} more)" if more else "")
        return [shown_label(outcome.label), "", "", f"bad hand: {_path_text(first)}", text]
    return [outcome.label, result.region, "+".join(winners(result)), ending(result), dict(result.net)]


def _path_text(problem: Problem) -> str:
    return format_path(problem.path)


CSV_HEADER = list(HAND_COLUMNS)
"""CSV columns (:data:`settle.engine.csvrows.HAND_COLUMNS`): one row per hand and player, a bad hand one
row with its ``error`` (issue 16 #4)."""


def csv_rows(outcome: Outcome) -> list[list[Any]]:
    """One hand's CSV rows in :data:`CSV_HEADER` columns: a row per player (:func:`settle.engine.csvrows.hand_rows`),
    or the bad hand's one row with its ``error`` (:func:`settle.engine.csvrows.error_row`)."""
    result = outcome.result
    if result is None:
        assert outcome.error is not None
        return [error_row(outcome.label, outcome.error.problems)]
    return hand_rows(outcome.label, result)


def csv_line(outcome: Outcome, lang: str = "en") -> str:
    """The CSV text of one hand (each row with its newline), in :data:`CSV_HEADER` columns (:func:`csv_rows`
    through :mod:`csv`).  The cells are the hand file's words in any ``lang``."""
    sink = _LastWrite()
    csv.writer(sink, lineterminator="\n").writerows(csv_rows(outcome))
    return sink.take()


class _LastWrite:
    """A file for :func:`csv.writer` that keeps what was written since the last :meth:`take` (the writer
    writes each row once)."""

    __slots__ = ("pieces",)

    def __init__(self) -> None:
        self.pieces: list[str] = []

    def write(self, text: str) -> int:
        self.pieces.append(text)
        return len(text)

    def take(self) -> str:
        """The text written since the last call, and forget it."""
        text = "".join(self.pieces)
        self.pieces.clear()
        return text
