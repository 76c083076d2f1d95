"""Writing a batch: the writer protocol :func:`~settle.engine.batch.run.run_batch` writes through,
and the streamed writer of the machine formats (JSON Lines, JSON, CSV).

The table and Markdown writer lays its rows out at the end and is presentation: it lives in
:mod:`settle.render.batch`; the CLI chooses the writer for ``--format``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import IO, Protocol

from settle.engine.batch.encode import CSV_HEADER, Chunk, Totals
from settle.engine.batch.standings import STANDING_KEYS, Standings, ranked

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

    JSON is ``{"hands": [...], "standings": {...}, "errors": [...]}``; CSV is the hands
    (:data:`~settle.engine.batch.encode.CSV_HEADER`), a blank line, then the standings
    (:func:`standings_csv`); JSON Lines is one object per hand and nothing else.
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
        """Write the standings (and, for JSON, the errors) after the last hand, and flush."""
        if self.fmt == "json":
            standings = json.dumps(dict(ranked(totals.standings)), ensure_ascii=False)
            errors = json.dumps([p.as_dict() for p in totals.problems], ensure_ascii=False)
            self.out.write(f'\n],\n"standings": {standings},\n"errors": {errors}}}\n')
        elif self.fmt == "csv":
            self.out.write("\n" + standings_csv(totals.standings))
        self.out.flush()


def standings_csv(standings: Standings) -> str:
    """The standings as CSV rows (with a header row, each row ending in a newline):
    ``player,net,hands,won,dealt_in,liable,capped,golden``, highest net first."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["player", *STANDING_KEYS])
    for name, v in ranked(standings):
        writer.writerow([name, *(v[k] for k in STANDING_KEYS)])
    return buf.getvalue()
