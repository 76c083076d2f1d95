"""Writing a batch: the writer protocol :func:`~settle.engine.batch.run.run_batch` writes through,
and the streamed writer of the machine formats (JSON Lines, JSON, CSV).

The table and Markdown writer lays its rows out at the end and is presentation: it lives in
:mod:`settle.render.batch`; the CLI chooses the writer for ``--format``.
"""

from __future__ import annotations

import json
import re
from typing import IO, Protocol

from settle.engine.batch.encode import CSV_HEADER, Chunk, Totals
from settle.engine.batch.standings import Standings, ranked, standings_by_region

STREAMED_FORMATS = ("json", "jsonl", "csv")
"""The formats :class:`StreamWriter` writes: each chunk goes out as it comes."""

_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")
"""A lone surrogate (U+D800-U+DFFF, from a JSON escape) in ``surrogatepass`` UTF-8: never in valid UTF-8."""


class BatchWriter(Protocol):
    """What :func:`~settle.engine.batch.run.run_batch` writes a batch through.

    ``fmt`` is the format the writer takes (one of
    :data:`~settle.engine.batch.encode.BATCH_FORMATS`): the chunks it gets are encoded for it.
    ``start`` is called once before the first chunk, ``add`` once per chunk in input order, and
    ``finish`` once after the last, with the run's :class:`~settle.engine.batch.encode.Totals`.
    """

    fmt: str

    def start(self) -> None:
        """Write what comes before the first hand."""

    def add(self, chunk: Chunk) -> None:
        """Write (or keep) one chunk's hands."""

    def finish(self, totals: Totals) -> None:
        """Write what comes after the last hand (the standings), and flush."""


class StreamWriter:
    """Writes a batch's chunks as they come, one ``write`` per chunk: JSON Lines, JSON or CSV.

    ``raw``, when given, is the binary stream under ``out`` (UTF-8 text, ``\\n`` written as it is):
    the chunks' bytes are written to it directly, ``out`` flushed before each, so that no text is
    decoded and encoded again (issue 14).

    JSON is ``{"hands": [...], "standings": {...}, "standings_by_region": {...}, "errors": [...]}``
    (``standings``, player -> totals, only when the hands are of one region: amounts of two regions
    are never added, issue 16 #5; ``standings_by_region`` always, :func:`standings_by_region`); CSV is
    one table, the hands' rows (:data:`~settle.engine.batch.encode.CSV_HEADER`; the standings are
    ``--standings``, :class:`settle.render.standings.StandingsWriter`); JSON Lines is one object per
    hand and nothing else.
    Raises ValueError for a format not in :data:`STREAMED_FORMATS`.
    """

    def __init__(self, out: IO[str], fmt: str, raw: IO[bytes] | None = None) -> None:
        if fmt not in STREAMED_FORMATS:
            raise ValueError(f"unknown streamed batch format {fmt!r}: expected one of {', '.join(STREAMED_FORMATS)}")
        self.out, self.fmt, self.raw = out, fmt, raw
        self.items = 0

    def start(self) -> None:
        """Write what comes before the first hand: JSON's opening, CSV's header row."""
        if self.fmt == "json":
            self.out.write('{"hands": [\n')
        elif self.fmt == "csv":
            self.out.write(",".join(CSV_HEADER) + "\n")

    def add(self, chunk: Chunk) -> None:
        """Write one chunk's hands (JSON items after the first chunk's are joined by a comma)."""
        if chunk.data:
            if self.fmt == "json" and self.items:
                self.out.write(",\n")
            data = chunk.data
            # b"\xed" first: a fast byte search (a regular expression search costs 7 times as much),
            # and the lead byte of every lone surrogate
            if self.raw is None or (b"\xed" in data and _SURROGATE.search(data)):
                self.out.write(chunk.text)  # a lone surrogate: the text stream decides (its error)
            else:  # the chunk's bytes as they are: the text stream flushed first, to keep the order
                self.out.flush()
                self.raw.write(data)
        self.items += chunk.hands

    def finish(self, totals: Totals) -> None:
        """For JSON, write the standings and the errors after the last hand; flush."""
        if self.fmt == "json":  # the errors as json.dumps writes the list, one problem at a time
            self.out.write(f'\n],\n{standings_json(totals.standings)}"errors": [')
            for i, problem in enumerate(totals.problem_json()):
                self.out.write(f", {problem}" if i else problem)
            self.out.write("]}\n")
        self.out.flush()


def standings_json(standings: Standings) -> str:
    """The standings members of a batch's JSON, each followed by ``,\n``: ``"standings": {player ->
    totals}`` when the hands are of at most one region (as before issue 16), then ``"standings_by_region":
    {region -> {"unit", "players"}}`` (:func:`~settle.engine.batch.standings.standings_by_region`)."""
    out = ""
    if len(standings) <= 1:
        flat = dict(ranked(next(iter(standings.values())))) if standings else {}
        out = f'"standings": {json.dumps(flat, ensure_ascii=False)},\n'
    grouped = json.dumps(standings_by_region(standings), ensure_ascii=False)
    return out + f'"standings_by_region": {grouped},\n'
