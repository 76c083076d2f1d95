"""The words of the engine's own steps (a session's rotation warnings, its end, where its totals stop),
English and Chinese; the rules' steps are worded by each region's catalog."""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template


def _where(values: Any, lang: str) -> str:
    """``hand w3``/``第 w3 局`` or ``the header``/``表头``: the document the totals stop at."""
    hand = values.raw("hand")
    if hand is None:
        return "表头" if lang == "zh" else "the header"
    return f"第 {hand} 局" if lang == "zh" else f"hand {hand}"


def _after(values: Any, lang: str) -> str:
    last = values.raw("after")
    if lang == "zh":
        return "累计停在第一局之前" if last is None else f"累计停在第 {last} 局之后"
    return "before the first hand" if last is None else f"after hand {last}"


def _stopped(values: Any, lang: str) -> str:
    later = values.raw("later")
    if lang == "zh":
        if values.raw("ended"):
            text = f"{_where(values, lang)}在牌局结束之后：{_after(values, lang)}"
        else:
            failed = "表头有误" if values.raw("hand") is None else f"{_where(values, lang)}无法结算"
            text = f"{failed}：{_after(values, lang)}（之后每局的庄家都由它而定）"
        return text + (f"；后面 {later} 份未结算" if later else "")
    if values.raw("ended"):
        text = f"{_where(values, lang)} comes after the end of the game; the running totals stop {_after(values, lang)}"
    else:
        text = (f"{_where(values, lang)} could not be settled: the running totals stop {_after(values, lang)}, "
                "because every later dealer follows from it")
    if later:
        text += f"; {later} later document{'s' if later != 1 else ''} not settled"
    return text


EN: dict[str, Template] = {
    "rotation_differs": "hand {hand}: dealer {dealer} is stated, the rotation gives {rotation} ({rule}); "
                        "settled with {dealer}",
    "game_ended": "{leaver} left the game at hand {hand} (逃跑, H9)",
    "totals_stop": _stopped,
}
ZH: dict[str, Template] = {
    "rotation_differs": "第 {hand} 局：写明庄家 {dealer}，轮庄应为 {rotation}（{rule}）；按 {dealer} 结算",
    "game_ended": "{leaver} 在第 {hand} 局逃跑（H9）",
    "totals_stop": _stopped,
}

ENGINE = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="engine")
"""The engine's words (sessions)."""
