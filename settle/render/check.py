"""``settle check`` as text: the claimed fans against the tiles, in English or Chinese, or as JSON.

The table shows each winner's claimed and derived fans (with the reading kept), every difference
(its kind, the item, what it is worth, why), each payment under the claim and under the tiles, and
the notes.  English is what settle has always printed; ``lang="zh"`` words every part in Chinese
from the same catalogs (the tile readings' words, :mod:`settle.tiles.messages`).
"""

from __future__ import annotations

import json

from settle.core import signed
from settle.engine.tilelevel import DIFFERENCE_KINDS, ClaimCheck, Difference, fan_labels
from settle.render.rules import value_text
from settle.rules.registry import get_region

DIFFERENCE_KINDS_ZH: dict[str, str] = {
    "claimed_not_present": "报了，牌面没有",
    "present_not_claimed": "牌面有，没报",
    "illegal_win": "不是合法的胡牌",
    "claim_refused": "报的番不成立",
}
"""Each difference kind in Chinese (English: :data:`settle.engine.tilelevel.DIFFERENCE_KINDS`)."""

HEADINGS: dict[str, tuple[str, str]] = {
    "winner": ("胡家", "winner"), "claimed": ("报的番", "claimed"), "tiles": ("牌面", "tiles"),
    "difference": ("差别", "difference"), "item": ("番种", "item"), "value": ("值", "value"),
    "detail": ("说明", "detail"), "payment": ("付款", "payment"),
}
"""Column headings: (中文, English)."""


def render_check(result: ClaimCheck, fmt: str = "table", lang: str = "en") -> str:
    """``result`` as a table (tabulate) or as JSON (:meth:`ClaimCheck.as_dict`; its notes in ``lang``)."""
    if fmt == "json":
        data = result.as_dict()
        if lang != "en":
            data["notes"] = result.note_texts(lang)
            data["readings"] = result.reading_texts(lang)
            for item, difference in zip(data["differences"], result.differences, strict=True):  # type: ignore[call-overload]
                item["detail"] = _detail(result, difference, lang)
        return json.dumps(data, ensure_ascii=False)
    from tabulate import tabulate

    def head(*keys: str) -> list[str]:
        return [HEADINGS[k][0 if lang == "zh" else 1] for k in keys]

    blocks = [_headline(result, lang), tabulate(_fan_rows(result, lang), head("winner", "claimed", "tiles"),
                                                tablefmt="simple", disable_numparse=True)]
    if result.differences:
        rows = _difference_rows(result, lang)
        columns = head("difference", "item", "value", "detail")
        if not any(row[3] for row in rows):
            columns, rows = columns[:3], [row[:3] for row in rows]
        blocks.append(tabulate(rows, columns, tablefmt="simple", disable_numparse=True))
    blocks.append(tabulate(_payment_rows(result, lang), head("payment", "claimed", "tiles"), tablefmt="simple",
                           disable_numparse=True, colalign=("left", "right", "right")))
    notes = result.note_texts(lang)
    if notes:
        blocks.append("\n".join(f"* {note}" for note in notes))
    return "\n\n".join(blocks)


def _headline(result: ClaimCheck, lang: str) -> str:
    term = get_region(result.region).term
    if lang == "zh":
        verdict = "报的番与牌面一致" if result.agree else f"报的番与牌面不同（{len(result.differences)} 处）"
        return f"{term.zh}：{verdict}"
    verdict = "the claims agree with the tiles" if result.agree else (
        f"the claims differ from the tiles ({len(result.differences)} difference(s))")
    return f"{term.zh} {term.key}: {verdict}"


def _labels(region: str, fans: tuple[str, ...] | None, lang: str) -> str:
    if fans is None:
        return "（不是合法的胡牌）" if lang == "zh" else "(no legal win)"
    if not fans and lang == "zh":
        return "没有牌型番"
    return fan_labels(get_region(region), fans)


def _fan_rows(result: ClaimCheck, lang: str) -> list[list[str]]:
    rows = []
    readings = result.reading_texts(lang)
    for winner, claimed in result.claimed.items():
        tiles = _labels(result.region, result.derived.get(winner), lang)
        reading = readings.get(winner)
        rows.append([winner, _labels(result.region, claimed, lang), f"{tiles}\n{reading}" if reading else tiles])
    return rows


def _difference_rows(result: ClaimCheck, lang: str) -> list[list[str]]:
    if lang != "zh":
        return [[DIFFERENCE_KINDS[d.kind], d.label, d.value, d.detail] for d in result.differences]
    region = get_region(result.region)
    return [[DIFFERENCE_KINDS_ZH[d.kind], d.label,
             value_text(region, region.patterns[d.fan], "zh") if d.fan is not None else d.value,
             _detail(result, d, lang)] for d in result.differences]


def _detail(result: ClaimCheck, difference: Difference, lang: str) -> str:
    """Why a difference is one, in ``lang`` (from its reasons; English: its ``detail``)."""
    if lang == "en" or not difference.detail:
        return difference.detail
    if difference.reasons:
        return "；".join(result.catalog.text(r, lang) for r in difference.reasons)
    return "没有合法的读法"


def _payment_rows(result: ClaimCheck, lang: str) -> list[list[str]]:
    rows = [[f"{payer} -> {payee}", _amount(claimed), _amount(tiles)]
            for payer, payee, claimed, tiles in result.payments()]
    net = "净" if lang == "zh" else "net"
    for name in result.players:
        claimed = None if result.claimed_result is None else result.claimed_result.net[name]
        tiles = None if result.tiles_result is None else result.tiles_result.net[name]
        rows.append([f"{net} {name}", _signed(claimed), _signed(tiles)])
    return rows


def _amount(value: int | None) -> str:
    return "—" if value is None else str(value)


def _signed(value: int | None) -> str:
    return "—" if value is None else signed(value)
