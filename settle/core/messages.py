"""Words of the shared machinery's steps (caps, 承包 redirect, formulas, tallies), English and Chinese.

Each region's catalog has :data:`SHARED` as its parent; its own kinds live in its package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from settle.core.text import Catalog, Template


def _ref(values: Mapping[str, Any]) -> str:
    """``H5 封顶`` or ``R7``: the ruling with the cap's Chinese name where the region gives one."""
    label = values.get("label") or ""
    rule = values.get("rule") or ""
    return f"{rule} {label}".strip()


def _cap_reached(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"= {values['limit']}，正好封顶 ({_ref(values)})"
    return f"= {values['limit']}, the cap ({_ref(values)})"


def _cap(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"= {values['amount']}，封顶 {values['limit']} ({_ref(values)})"
    return f"= {values['amount']}, capped at {values['limit']} ({_ref(values)})"


def _power(values: Any, lang: str) -> str:
    """``2^(a+b)``, ``10×2^(a+b)``, ``10×2^(a+b)×1.5``, ``2^(a+b-1)``: the formula, the same in every language."""
    minus = values.raw("minus") if "minus" in values else 0
    text = f"2^({values['loser']}+{values['winner']}{'-' + str(minus) if minus else ''})"
    base = values.raw("base") if "base" in values else 1
    if base != 1:
        text = f"{base}×{text}"
    factor = values.raw("factor") if "factor" in values else 1
    if factor != 1:
        text += f"×{values['factor']}"
    return text


def _tally(values: Any, lang: str) -> str:
    """``3 = 开口 1 + 红中杠 1``, ``0``, or ``4 (stated)`` (``4（报数）``)."""
    total = values["total"]
    if values.raw("stated"):
        return f"{total}（报数）" if lang == "zh" else f"{total} (stated)"
    items = values.raw("items")
    if not items:
        return "0"
    return f"{total} = " + " + ".join(f"{label} {n}" for _, label, n in items)


EN: dict[str, Template] = {
    "cap": _cap,
    "cap_reached": _cap_reached,
    "power": _power,
    "tally": _tally,
    "share_paid": "{loser}'s share paid by {liable} ({reason})",
    "pays_for_everyone": "{liable} pays for everyone: {reason}",
    "liable_stated": "{term} stated by win.liable ({rule})",
    "liable_robbed": "{term} {rule}: {player}'s kong was robbed (抢杠)",
    "liable_flush": "{term} {rule}: {player} fed {winner}'s third open of {flushes}",
}
ZH: dict[str, Template] = {
    "cap": _cap,
    "cap_reached": _cap_reached,
    "power": _power,
    "tally": _tally,
    "share_paid": "{loser} 的份由 {liable} 付（{reason}）",
    "pays_for_everyone": "{liable} 一家全付：{reason}",
    "liable_stated": "{term} 由 win.liable 指定 ({rule})",
    "liable_robbed": "{term} {rule}：{player} 被抢杠",
    "liable_flush": "{term} {rule}：{player} 给 {winner} 第三次开口，{flushes}",
}

SHARED = Catalog({"en": EN, "zh": ZH}, name="shared")
"""The machinery's words; every region catalog falls back to it."""
