"""Rendering settlements as table, JSON, CSV or Markdown.  No settlement logic here.

``table`` and ``markdown`` go through tabulate (imported lazily: it is slow to import);
``json`` is HAND-FORMAT.md's output object; ``csv`` is one table, a row per player
(:mod:`settle.engine.csvrows`, the columns of ``settle batch``'s CSV).  Labels are English with the Chinese
beside them (``lang="en"``) or Chinese only (``lang="zh"``); JSON keys stay canonical.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import locale
import os
from collections.abc import Sequence
from typing import Any

from settle.core import Catalog, Settlement, Step, Template
from settle.errors import HandError, Problem
from settle.rules.registry import get_region

FORMATS = ("table", "json", "csv", "markdown")
LANGS = ("en", "zh")

ROLE_LABELS: dict[str, tuple[str, str]] = {
    "dealer": ("庄", "dealer"),
    "winner": ("胡", "winner"),
    "discarder": ("放冲", "discarder"),
    "robbed": ("被抢杠", "robbed"),
    "liable": ("包", "liable"),
    "abandoned": ("逃跑", "left"),
}
"""Role key -> (中文, English).  The discarder's 中文 is the region's word (放冲, 点炮: ``Region.discarder``)."""

HEADINGS: dict[str, tuple[str, str]] = {
    "player": ("玩家", "player"),
    "role": ("角色", "role"),
    "net": ("输赢", "net"),
    "from": ("付", "from"),
    "to": ("收", "to"),
    "amount": ("分", "amount"),
    "why": ("算法", "why"),
    "next_dealer": ("下一局庄家", "next dealer"),
    "forfeit": ("罚没", "forfeit"),
    "game_over": ("牌局结束", "game over"),
}

UNIT_NAMES = {"番": "fans", "斤": "jin", "分": "points"}

UTF8_BOM = "\ufeff"
"""The byte-order mark ``--bom`` writes before CSV (EF BB BF in UTF-8): Excel then reads the file as
UTF-8 instead of the locale's code page, so 东南西北 are not garbled (issue 16 #4)."""


def bom_mark(bom: bool, fmt: str) -> str:
    """What to write before the output: :data:`UTF8_BOM` when ``bom`` is asked for, else ``""``.
    Raises :class:`~settle.errors.HandError` (bad input) for ``bom`` with another ``fmt`` than ``csv``."""
    if not bom:
        return ""
    if fmt != "csv":
        raise HandError.at((), f"--bom is for --format csv (a byte-order mark does not belong in {fmt} output)")
    return UTF8_BOM


def ending_words(end: tuple[str, str | None], region: str, lang: str) -> str:
    """:func:`settle.engine.batch.how_text`, with the region's own word for a discard in Chinese
    (Wuhan 放冲, Wuxue/Rushan 点炮: ``Region.discarder``, as ``settle hand`` says it; issue 16 #3)."""
    kind, who = end
    if lang == "zh" and kind == "discard":
        return f"{who} {get_region(region).discarder}"
    from settle.engine.batch import how_text

    return how_text(end, lang)


def default_lang() -> str:
    """``zh`` when the locale (LC_ALL / LC_MESSAGES / LANG) is Chinese, else ``en``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    code = locale.getlocale()[0] or ""
    return "zh" if code.lower().startswith("zh") else "en"


def label(pair: tuple[str, str], lang: str) -> str:
    """``庄 dealer`` in English output, ``庄`` in Chinese output."""
    zh, en = pair
    return zh if lang == "zh" else f"{zh} {en}"


def heading(key: str, lang: str) -> str:
    """A column heading in the chosen language."""
    zh, en = HEADINGS[key]
    return zh if lang == "zh" else en


def role_text(result: Settlement, name: str, lang: str) -> str:
    """The roles of ``name`` joined: ``庄 dealer, 放冲 discarder``."""
    out = []
    for role in result.roles.get(name, ()):
        zh, en = ROLE_LABELS[role]
        if role == "discarder":
            zh = get_region(result.region).discarder
        out.append(label((zh, en), lang))
    return ", ".join(out)


def player_rows(result: Settlement, lang: str) -> list[list[Any]]:
    """One row per player: name, roles, 番/斤 detail, net."""
    details = result.score_texts(lang)
    return [
        [name, role_text(result, name, lang), details.get(name, ""), _signed(result.net[name])]
        for name in result.players
    ]


def transfer_rows(result: Settlement, lang: str = "en") -> list[list[Any]]:
    """One row per transfer: ``A -> D``, amount, why (a forfeit's payee is ``(forfeit)``/``(罚没)``)."""
    rows: list[list[Any]] = [[f"{t.payer} -> {t.payee}", t.amount, f"= {t.text(lang)}"]
                             for t in result.transfers]
    if result.forfeit is not None:
        f = result.forfeit
        rows.append([f"{f.payer} -> ({heading('forfeit', lang)})", f.amount,
                     f"= {f.catalog.why(f.steps, lang)}"])
    return rows


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _score_heading(result: Settlement, lang: str) -> str:
    if lang == "zh":
        return result.unit
    return f"{result.unit} {UNIT_NAMES.get(result.unit, '')}".strip()


def render(result: Settlement, fmt: str = "table", lang: str = "en") -> str:
    """The settlement as text in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        return json.dumps(result.as_dict(lang), ensure_ascii=False)
    if fmt == "csv":
        return render_csv(result, lang)
    return render_tabular(result, "github" if fmt == "markdown" else "simple", lang)


def render_tabular(result: Settlement, style: str, lang: str) -> str:
    """Players table, transfers table, notes and next dealer, through tabulate."""
    from tabulate import tabulate

    head = [heading("player", lang), heading("role", lang), _score_heading(result, lang), heading("net", lang)]
    blocks = [_title(result, lang),
              tabulate(player_rows(result, lang), head, tablefmt=style, disable_numparse=True,
                       colalign=("left", "left", "left", "right"))]
    rows = transfer_rows(result, lang)
    if rows:
        blocks.append(tabulate(rows, [heading(k, lang) for k in ("from", "amount", "why")], tablefmt=style,
                               disable_numparse=True, colalign=("left", "right", "left")))
    if result.reasons:
        bullet = "- " if style == "github" else "* "
        blocks.append("\n".join(bullet + note for note in result.note_texts(lang)))
    blocks.append(_dealer_line(result, lang))
    return "\n\n".join(blocks)


def _title(result: Settlement, lang: str) -> str:
    term = get_region(result.region).term
    name = term.zh if lang == "zh" else f"{term.zh} {term.key}"
    return f"{name}  {result.id}" if result.id is not None else name


def _dealer_line(result: Settlement, lang: str) -> str:
    if result.next_dealer is None:
        return f"{heading('next_dealer', lang)}: — ({heading('game_over', lang)})"
    return f"{heading('next_dealer', lang)}: {result.next_dealer}"


def render_csv(result: Settlement, lang: str = "en") -> str:
    """One table, a row per player (issue 16 #4): the columns of ``settle batch --format csv``
    (:data:`settle.engine.csvrows.HAND_COLUMNS`: id, region, unit, seat, player, roles, score, net,
    winner, by, from, dealer, liable, error), the cells in the hand file's words whatever ``lang``.
    The payments and their explanations are in the other formats."""
    from settle.engine.csvrows import HAND_COLUMNS, hand_rows

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(HAND_COLUMNS)
    writer.writerows(hand_rows(result.id, result))
    return buf.getvalue().rstrip("\n")


def problem_text(problem: Problem, lang: str = "en") -> str:
    """One problem as ``FILE:LINE:COL: hand H: path: message`` (:meth:`settle.errors.Problem.shown`).

    In Chinese (``lang="zh"``) the message is worded from the problem catalog (:func:`problem_catalog`)
    by the problem's ``kind`` and ``values`` (data: no English text is read), and the hand is ``局 H``;
    a problem of a kind the catalog has no words for keeps its English message (issue 16 #9).
    """
    if lang != "zh":
        return str(problem)
    return problem.shown(problem_message(problem, lang), hand_word="局")


def problem_message(problem: Problem, lang: str = "en") -> str:
    """A problem's message alone in ``lang``: its English ``message``, or in Chinese its words from
    :func:`problem_catalog` by ``kind`` and ``values`` where the catalog has them.  Values that say
    where a value came from add so in Chinese: ``via`` (a flag, ``settle hand --option``),
    ``melds_give`` (a fact the melds gave, tile-level), ``from_header`` (a session header's value)."""
    if lang != "zh" or problem.values is None:
        return problem.message
    catalog = problem_catalog()
    if problem.kind not in catalog.kinds("zh"):
        return problem.message
    values = problem.values
    words = str(catalog.text(Step("", problem.kind, {**values, "path": problem.path}), "zh"))
    if values.get("melds_give"):
        words += f"（{values['melds_give']} 由副露得出）"
    if values.get("via"):
        words += f"（由 {values['via']} 给出）"
    if values.get("from_header"):
        words += "（来自牌局表头）"
    return words


@functools.cache
def problem_catalog() -> Catalog:
    """The Chinese words of every problem settle builds, in one catalog made on the first problem shown
    in Chinese (never for a hand without problems): the engine's common ones
    (:data:`settle.engine.messages.PROBLEMS_ZH`), the shared checks' (:data:`settle.rules.problems.PROBLEMS_ZH`),
    the tile level's, the tile engine's (:data:`settle.tiles.problems.PROBLEMS_ZH`) and the session's, and
    every registered region's own (``Region.problem_zh``).
    A kind is worded in one place; where two tables hold one, the earlier in that order wins."""
    from settle.engine.messages import PROBLEMS_ZH
    from settle.engine.session.messages import PROBLEMS_ZH as SESSION
    from settle.engine.tilelevel.messages import PROBLEMS_ZH as TILES
    from settle.rules.problems import PROBLEMS_ZH as SHARED
    from settle.rules.registry import all_regions
    from settle.tiles.problems import PROBLEMS_ZH as ENGINE_TILES

    tables = [PROBLEMS_ZH, SHARED, TILES, ENGINE_TILES, SESSION, *(region.problem_zh for region in all_regions())]
    merged: dict[str, Template] = {}
    for table in reversed(tables):
        merged.update(table)
    return Catalog({"en": {}, "zh": merged}, name="problems")


def render_problems(problems: Sequence[Problem], lang: str = "en") -> str:
    """One ``error: ...`` line per problem, in ``lang`` (:func:`problem_text`); ``error:`` in every
    language, so that tools find the lines."""
    return "\n".join("error: " + problem_text(p, lang) for p in problems)
