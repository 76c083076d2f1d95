"""The standings as text: one group per region (issue 16 #5), as tables, Markdown, CSV, JSON or JSON Lines.

The standings (:data:`settle.engine.batch.Standings`: region -> player -> totals) never add the
amounts of two regions: a Wuhan hand's points are counted in 番, a Wuxue hand's in 斤.  Tables show
one table per region (a title line above each when there are several; one region's table is as
before), CSV one row per region and player (:data:`settle.engine.csvrows.STANDING_COLUMNS`), JSON
:func:`settle.engine.batch.standings_by_region`.

:class:`StandingsWriter` is the :class:`~settle.engine.batch.BatchWriter` of ``settle batch
--standings``: the hands are settled and counted, and only the standings are written.
"""

from __future__ import annotations

import csv
import io
import json
from typing import IO, Any

from settle.engine.batch import STANDING_KEYS, Standings, Totals, ranked, region_unit, standings_by_region
from settle.engine.csvrows import STANDING_COLUMNS
from settle.rules.registry import get_region

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
"""Standings headings: key -> (中文, English)."""

STANDINGS_FORMATS = ("table", "markdown", "csv", "json", "jsonl")
"""What :class:`StandingsWriter` writes."""

UNIT_NAMES = {"番": "fans", "斤": "jin", "分": "points"}


def _heading(key: str, lang: str) -> str:
    zh, en = STANDING_LABELS[key]
    return zh if lang == "zh" else f"{en} {zh}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def standings_rows(standings: Standings) -> list[list[Any]]:
    """:data:`STANDING_COLUMNS` rows: per region (first-seen order) its players by net, highest first."""
    return [[region, region_unit(region), name, *(v[k] for k in STANDING_KEYS)]
            for region, group in standings.items() for name, v in ranked(group)]


def standings_csv(standings: Standings) -> str:
    """The standings as one CSV table (a header row, each row ending in a newline; :func:`standings_rows`)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(STANDING_COLUMNS)
    writer.writerows(standings_rows(standings))
    return buf.getvalue()


def region_title(region: str, lang: str) -> str:
    """``武汉 wuhan (番 fans)`` (``武汉（番）`` in Chinese): the title of one region's standings table."""
    unit = region_unit(region)
    try:
        term = get_region(region).term
    except KeyError:
        return region
    if lang == "zh":
        return f"{term.zh}（{unit}）"
    name = UNIT_NAMES.get(unit)
    return f"{term.zh} {term.key} ({unit} {name})" if name else f"{term.zh} {term.key} ({unit})"


def standings_tables(standings: Standings, style: str, lang: str) -> str:
    """One tabulate table per region (``style``: ``simple`` or ``github``), each under its
    :func:`region_title` when there are several regions; an empty table when there are no hands."""
    from tabulate import tabulate

    head = [_heading(k, lang) for k in ("player", *STANDING_KEYS)]
    blocks = []
    for region, group in standings.items() or [("", {})]:
        rows = [[name, _signed(v["net"]), *(v[k] for k in STANDING_KEYS[1:])] for name, v in ranked(group)]
        table = tabulate(rows, head, tablefmt=style, disable_numparse=True,
                         colalign=("left", *["right"] * len(STANDING_KEYS)))
        blocks.append(f"{region_title(region, lang)}\n{table}" if len(standings) > 1 else table)
    return "\n\n".join(blocks)


def render_standings(standings: Standings, fmt: str, lang: str = "en") -> str:
    """The standings as ``fmt`` (:data:`STANDINGS_FORMATS`) text, without a final newline: tables,
    CSV (:func:`standings_csv`), JSON ``{"standings_by_region": ...}`` or JSON Lines (one object per
    region and player: ``{"region", "unit", "player", "net", ...}``).  Raises ValueError for another
    format."""
    if fmt in ("table", "markdown"):
        return standings_tables(standings, "github" if fmt == "markdown" else "simple", lang)
    if fmt == "csv":
        return standings_csv(standings).rstrip("\n")
    if fmt == "json":
        return json.dumps({"standings_by_region": standings_by_region(standings)}, ensure_ascii=False)
    if fmt == "jsonl":
        return "\n".join(json.dumps(dict(zip(STANDING_COLUMNS, row, strict=True)), ensure_ascii=False)
                         for row in standings_rows(standings))
    raise ValueError(f"unknown standings format {fmt!r}: expected one of {', '.join(STANDINGS_FORMATS)}")


class StandingsWriter:
    """The writer of ``settle batch --standings``: takes the chunks of a run encoded for ``standings``
    (nothing per hand) and writes only the standings, in ``output`` (:data:`STANDINGS_FORMATS`), at the
    end.  Raises ValueError for another format."""

    fmt = "standings"

    def __init__(self, out: IO[str], output: str, lang: str = "en") -> None:
        if output not in STANDINGS_FORMATS:
            raise ValueError(f"unknown standings format {output!r}: expected one of {', '.join(STANDINGS_FORMATS)}")
        self.out, self.output, self.lang = out, output, lang

    def start(self) -> None:
        """Nothing comes before the standings."""

    def add(self, chunk: Any) -> None:
        """Nothing is written per hand."""

    def finish(self, totals: Totals) -> None:
        """Write the standings and a newline (none after empty JSON Lines), and flush."""
        text = render_standings(totals.standings, self.output, self.lang)
        self.out.write(text + "\n" if text else "")
        self.out.flush()
