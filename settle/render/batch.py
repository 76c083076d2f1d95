"""A batch as tables: the hands table and the standings table (``settle batch -f table|markdown``).

:class:`TableWriter` is the :class:`~settle.engine.batch.BatchWriter` of ``table`` and
``markdown``: it keeps the chunks' rows (:func:`settle.engine.batch.table_row`) and lays them out
with tabulate at the end.  Headings are English with the Chinese beside them (``lang="en"``) or
Chinese only (``lang="zh"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from settle.engine.batch import Chunk, Totals
from settle.errors import counted
from settle.render import ending_words
from settle.render.standings import STANDING_LABELS, standings_tables

__all__ = ["HAND_LABELS", "STANDING_LABELS", "TABLE_FORMATS", "TableWriter", "hand_table", "heading"]

TABLE_FORMATS = ("table", "markdown")
"""The formats :class:`TableWriter` writes (``markdown`` is tabulate's ``github`` style)."""

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


TABLE_SECTION_HANDS = 10_000
"""A batch's hands table is written in tables of this many hands each (the last holds the rest, then
the standings): its rows are kept until their widths are known, so memory stays bounded on any
input, an endless one included (issue 15 #10); a batch of at most this many hands is one table."""


class TableWriter:
    """Keeps a batch's table rows as the chunks come and writes the hands table, the standings
    table and a summary line through tabulate at the end (``table``: ``simple`` style;
    ``markdown``: ``github`` style).  Raises ValueError for a format not in :data:`TABLE_FORMATS`.
    """

    def __init__(self, out: IO[str], fmt: str, lang: str = "en") -> None:
        if fmt not in TABLE_FORMATS:
            raise ValueError(f"unknown table batch format {fmt!r}: expected one of {', '.join(TABLE_FORMATS)}")
        self.out, self.fmt, self.lang = out, fmt, lang
        self.rows: list[list[Any]] = []

    def start(self) -> None:
        """Nothing comes before the tables."""

    def add(self, chunk: Chunk) -> None:
        """Keep one chunk's rows (a bad hand's in Chinese under ``lang="zh"``: :func:`bad_row`); every
        :data:`TABLE_SECTION_HANDS` hands, write them as a table of their own."""
        if self.lang == "zh" and chunk.bad:
            self.rows.extend(row if isinstance(row[3], tuple) else bad_row(row, chunk.problems, self.lang)
                             for row in chunk.rows)
        else:
            self.rows.extend(chunk.rows)
        while len(self.rows) >= TABLE_SECTION_HANDS:
            section, self.rows = self.rows[:TABLE_SECTION_HANDS], self.rows[TABLE_SECTION_HANDS:]
            self.out.write(self.hands_table(section) + "\n\n")

    def finish(self, totals: Totals) -> None:
        """Write the tables (:meth:`tables`) and a newline, and flush."""
        self.out.write(self.tables(totals) + "\n")
        self.out.flush()

    def hands_table(self, rows: list[list[Any]]) -> str:
        """The hands table of ``rows`` (:func:`hand_table`) laid out by tabulate."""
        from tabulate import tabulate

        style = "github" if self.fmt == "markdown" else "simple"
        head, shown = hand_table(rows, self.lang)
        per_player = head[-1] != heading(HAND_LABELS, "net", self.lang)
        align = ("left",) * 4 + ("right" if per_player else "left",) * (len(head) - 4)
        return tabulate(shown, head, tablefmt=style, disable_numparse=True, colalign=align)

    def tables(self, totals: Totals) -> str:
        """The hands table, the standings (a table per region, :func:`settle.render.standings.standings_tables`)
        and the summary line, joined by blank lines."""
        style = "github" if self.fmt == "markdown" else "simple"
        blocks = [self.hands_table(self.rows)] if self.rows else []
        if totals.standings:  # no hand settled (--strict at a first bad hand): no empty standings table
            blocks.append(standings_tables(totals.standings, style, self.lang))
        if self.lang == "zh":
            summary = f"共 {totals.hands} 局，结算 {totals.hands - totals.bad} 局，{totals.bad} 局有误"
            if totals.stopped:
                summary += "（--strict：遇到第一局有误即停）"
        else:
            summary = f"{counted(totals.hands, 'hand')}, {totals.hands - totals.bad} settled, {totals.bad} bad"
            if totals.stopped:
                summary += " (stopped at the first bad hand: --strict)"
        blocks.append(summary)
        return "\n\n".join(blocks)


def bad_row(row: list[Any], problems: list[Any], lang: str) -> list[Any]:
    """A bad hand's table row in ``lang``: ``有误：PATH`` and its first problem's message worded from its
    data (:func:`settle.render.problem_text`'s catalog), with how many more it has; ``row`` as is when
    none of ``problems`` is its hand's."""
    from settle.errors import format_path
    from settle.render import problem_message

    found = [p for p in problems if p.hand == row[0]]
    if not found or lang != "zh":
        return row
    first = found[0]
    message = problem_message(first, lang)
    more = f"（另有 {len(found) - 1} 处）" if len(found) > 1 else ""
    return [row[0], row[1], row[2], f"有误：{format_path(first.path)}", message + more]


def hand_table(rows: list[list[Any]], lang: str) -> tuple[list[str], list[list[Any]]]:
    """Headings and rows for the hands table, from :func:`settle.engine.batch.table_row` rows: one
    column per player when every hand has the same players, else one ``net`` column reading
    ``A -128, B -64, ...``.  A bad hand's ``how`` reads ``bad hand: PATH``, and its message is in the
    ``net`` column, or, one column per player, after the path (``bad hand: PATH: message``)."""
    names = _same_players(rows)
    head = [heading(HAND_LABELS, k, lang) for k in ("id", "region", "winner", "how")]
    rows = [[*row[:3], ending_words(row[3], row[1], lang) if isinstance(row[3], tuple) else row[3], *row[4:]]
            for row in rows]
    if names is not None:
        out = [[*row[:4], *(_signed(row[4][n]) for n in names)] if isinstance(row[4], dict)
               else [*row[:3], f"{row[3]}: {row[4]}", *([""] * len(names))] for row in rows]
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


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)
