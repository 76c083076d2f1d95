"""The rule tables behind ``settle rules``: each region's vocabulary and options, from the code.

Every row is read from the tables the scorer itself reads (``PATTERNS``, ``KONGS`` and
the options model of each region, :func:`settle.rules.registry.all_regions`), so the listing
cannot drift from what is scored:

* scoring items (``win.fans``): key, 中文 (with other accepted names), English gloss,
  value (Wuhan 大胡 ``base 10``, 硬胡 ``1 番``; Wuxue ``2 斤``; Rushan base points or
  ``×N``) and the RULINGS.md id;
* kong kinds (``players.NAME.kongs``): key, 中文, gloss, value per kong, ruling;
* options (``options:``): key, 中文, default, meaning.

Formats: ``table`` (plain text; tabulate measures Chinese as two columns wide through
wcwidth), ``markdown`` (GitHub tables, used in docs/), ``csv`` and ``json`` (canonical keys).
Labels and headings follow ``lang`` (``en``, or ``zh`` with no English in them).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from settle.rules.registry import Region
from settle.vocab import KongKind, Pattern, Term, with_traditional

TITLES: dict[str, tuple[str, str]] = {
    "patterns": ("番种（win.fans）", "Scoring items (win.fans)"),
    "kongs": ("杠（players.名字.kongs）", "Kong kinds (players.NAME.kongs)"),
    "options": ("选项（options）", "Options (options:)"),
}
"""Table titles: (中文, English)."""

COLUMNS: dict[str, tuple[str, str]] = {
    "key": ("键", "key"),
    "zh": ("中文", "中文"),
    "en": ("释义", "English"),
    "value": ("值", "value"),
    "ruling": ("规则", "ruling"),
    "default": ("默认", "default"),
    "meaning": ("含义", "meaning"),
}
"""Column headings: (中文, English)."""

VALUE_WORDS: dict[str, tuple[str, str]] = {
    "base": ("底分", "base"),
    "implied": ("由抢杠计", "counted by robbed_kong"),
}

UNIT_WORDS: dict[str, str] = {"番": "fans", "斤": "jin", "分": "points"}

BASE_KINDS: frozenset[tuple[str, str]] = frozenset({("番", "big"), ("分", "base")})
"""(region unit, pattern kind) pairs whose value is base points, not the unit:
Wuhan 大胡 (base 10 each, H3) and the Rushan bases (R1)."""



_ZH_PREFIX = re.compile(r"^(?P<zh>[^:：a-zA-Z]*[^\x00-\x7f][^:：a-zA-Z]*?)\s*[:：]\s*(?P<rest>.+)$", re.S)

FORMATS = ("table", "markdown", "csv", "json", "jsonl")


@dataclass(frozen=True)
class Table:
    """One titled table: ``kind`` is ``patterns``, ``kongs`` or ``options``."""

    kind: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    keys: tuple[str, ...]


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "zh" else pair[1]


def value_text(region: Region, term: Pattern | KongKind, lang: str = "en") -> str:
    """A vocabulary value with its unit: ``base 10``, ``1 番``, ``2 斤``, ``×4``."""
    if isinstance(term, Pattern) and term.kind == "multiplier":
        return f"×{term.value}"
    if isinstance(term, Pattern) and term.kind == "implied":  # G10: the win type scores it
        return _pick(VALUE_WORDS["implied"], lang)
    if isinstance(term, Pattern) and (region.unit, term.kind) in BASE_KINDS:
        return f"{_pick(VALUE_WORDS['base'], lang)} {term.value}"
    return f"{term.value} {region.unit}"


def names_text(term: Term) -> str:
    """The 中文 name and the other accepted Chinese names: ``杠上花 / 杠开``."""
    traditional = set(with_traditional((term.zh,))) - {term.zh}
    others = [a for a in term.aliases if a != term.zh and a not in traditional]
    return " / ".join([term.zh, *others])


def option_names(region: Region) -> dict[str, tuple[str, str]]:
    """Option key -> (中文 name, meaning), from the field descriptions (``封顶: most ...``)."""
    out = {}
    for key, field in region.options.model_fields.items():
        text = (field.description or "").strip()
        match = _ZH_PREFIX.match(text)
        if match:
            out[key] = (match["zh"].strip(), match["rest"].strip())
        else:
            out[key] = (region.option_zh.get(key, ""), text)
    return out


def default_text(value: object) -> str:
    """A default as written in YAML: ``true``, ``400``, ``qingyise``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def pattern_table(region: Region, lang: str = "en") -> Table:
    """The scoring items (``win.fans``) of ``region``."""
    return _term_table("patterns", region, list(region.patterns.values()), lang)


def kong_table(region: Region, lang: str = "en") -> Table:
    """The kong kinds (``players.NAME.kongs``) of ``region``, value per kong."""
    return _term_table("kongs", region, list(region.kongs.values()), lang)


def gloss(region: Region, kind: str, key: str, english: str, lang: str) -> str:
    """What a word or an option means in ``lang``: in Chinese the region catalog's ``gloss:KIND:KEY``
    (``kind``: fan, kong, option) where it has one, else the English gloss."""
    if lang == "zh":
        name = f"gloss:{kind}:{key}"
        if name in region.catalog.kinds("zh"):
            return str(region.catalog.template(name, "zh"))
    return english


def _term_table(kind: str, region: Region, terms: list[Any], lang: str) -> Table:
    word = "fan" if kind == "patterns" else "kong"
    return Table(kind, _pick(TITLES[kind], lang),
                 tuple(_pick(COLUMNS[c], lang) for c in ("key", "zh", "en", "value", "ruling")),
                 tuple((t.key, names_text(t), gloss(region, word, t.key, t.en, lang), value_text(region, t, lang),
                        t.ruling) for t in terms),
                 tuple(t.key for t in terms))


def option_table(region: Region, lang: str = "en") -> Table:
    """The house-rule options of ``region`` with their defaults (an omitted option is its default)."""
    defaults = region.options()
    names = option_names(region)
    keys = tuple(region.options.model_fields)
    rows = tuple((key, names[key][0], default_text(getattr(defaults, key)),
                  gloss(region, "option", key, names[key][1], lang)) for key in keys)
    return Table("options", _pick(TITLES["options"], lang),
                 tuple(_pick(COLUMNS[c], lang) for c in ("key", "zh", "default", "meaning")), rows, keys)


def region_tables(region: Region, lang: str = "en") -> list[Table]:
    """The three tables of one region: scoring items, kong kinds, options."""
    return [pattern_table(region, lang), kong_table(region, lang), option_table(region, lang)]


def region_title(region: Region, lang: str = "en") -> str:
    """``武汉 wuhan — 番 fans`` (``武汉 — 番`` in Chinese)."""
    term = region.term
    if lang == "zh":
        return f"{term.zh} — 单位 {region.unit}"
    return f"{term.zh} {term.key} — unit {region.unit} {UNIT_WORDS.get(region.unit, '')}".rstrip()


def render_rules(regions: Sequence[Region], fmt: str = "table", lang: str = "en", level: int = 2) -> str:
    """The rule tables of ``regions`` in ``fmt`` (:data:`FORMATS`).

    ``level`` is the Markdown heading level of each region (its tables one deeper).
    """
    if fmt == "json":
        return json.dumps({r.key: _json_region(r) for r in regions}, ensure_ascii=False, indent=2)
    if fmt == "jsonl":  # one line per region: {"KEY": {...}}, the json format's members
        return "\n".join(json.dumps({r.key: _json_region(r)}, ensure_ascii=False) for r in regions)
    if fmt == "csv":
        return "\n\n".join(_csv_table(r, t) for r in regions for t in region_tables(r, lang))
    return "\n\n".join(region_text(r, fmt, lang, level) for r in regions)


def region_text(region: Region, fmt: str = "table", lang: str = "en", level: int = 2) -> str:
    """One region's title and tables, as plain text (``table``) or Markdown."""
    from tabulate import tabulate

    markdown = fmt == "markdown"
    blocks = [f"{'#' * level} {region_title(region, lang)}" if markdown else region_title(region, lang)]
    for table in region_tables(region, lang):
        rows = [[_cell(c, markdown) for c in row] for row in table.rows]
        body = tabulate(rows, list(table.headers), tablefmt="github" if markdown else "simple",
                        disable_numparse=True)
        title = f"{'#' * (level + 1)} {table.title}" if markdown else f"{table.title}:"
        blocks.append(f"{title}\n\n{body}" if markdown else f"{title}\n{body}")
    return "\n\n".join(blocks)


def _cell(text: str, markdown: bool) -> str:
    return text.replace("|", "\\|") if markdown else text


def _csv_table(region: Region, table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["region", *table.headers])
    for row in table.rows:
        writer.writerow([region.key, *row])
    return buf.getvalue().rstrip("\n")


def _json_region(region: Region) -> dict[str, Any]:
    """Canonical keys and raw values, for tools."""
    defaults = region.options()
    names = option_names(region)
    return {
        "name": region.term.zh,
        "unit": region.unit,
        "seats": list(region.seats),
        "patterns": [{"key": p.key, "zh": p.zh, "aliases": list(p.aliases), "en": p.en, "kind": p.kind,
                      "value": p.value, "ruling": p.ruling, "only_by": sorted(p.only_by)}
                     for p in region.patterns.values()],
        "kongs": [{"key": k.key, "zh": k.zh, "aliases": list(k.aliases), "en": k.en, "value": k.value,
                   "ruling": k.ruling} for k in region.kongs.values()],
        "options": [{"key": key, "zh": names[key][0], "default": getattr(defaults, key),
                     "meaning": names[key][1]} for key in region.options.model_fields],
    }


def documented_keys(region: Region) -> set[str]:
    """Every vocabulary key the rule tables list (scoring items and kong kinds)."""
    return {key for table in region_tables(region)[:2] for key in table.keys}
