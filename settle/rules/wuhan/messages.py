"""The words of Wuhan's steps (seed 004; H2–H9), English and Chinese.

English is what settle has always printed; Chinese says the same with the same numbers, names,
pinyin keys and ruling ids.  Shared steps (caps, 承包 redirect) are worded in
:mod:`settle.core.messages`; tile readings in :mod:`settle.tiles.messages`.
"""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template
from settle.rules.wuhan.vocab import PATTERNS


def _big_hands(values: Any, lang: str) -> str:
    labels = " + ".join(PATTERNS[k].label for k in values.raw("fans"))
    if lang == "zh":
        return f"大胡 {labels}：底分 {values['base']} (H3)"
    return f"大胡 {labels}: base {values['base']} (H3)"


EN: dict[str, Template] = {
    "big_hands": _big_hands,
    "small_hand": "小胡 small hand: base 1 (H2)",
    "golden_note": "金顶: all three losers exceed the cap {cap} (H6)",
    "golden": "金顶 {amount}: all three exceed {cap} (H6)",
    "bright": "光明顶 {amount}: {loser} has no open (H6)",
    "liable_unready": "{term} {rule}: {player} fed 全求人 without being ready (没听牌)",
    "escape_forfeit": "逃跑 penalty {penalty}, forfeited (H9, escape_paid_to: none)",
    "escape_forfeit_note": "{leaver} left the game: {penalty} forfeited, so this hand's net does not sum to zero (H9)",
    "escape_split": "逃跑 penalty {penalty} split {ways} ways, extra points first to {first} (H9)",
    "escape_note": "{leaver} left the game (H9)",
}
ZH: dict[str, Template] = {
    "big_hands": _big_hands,
    "small_hand": "小胡：底分 1 (H2)",
    "golden_note": "金顶：三家输分都超过封顶 {cap} (H6)",
    "golden": "金顶 {amount}：三家都超过 {cap} (H6)",
    "bright": "光明顶 {amount}：{loser} 没有开口 (H6)",
    "liable_unready": "{term} {rule}：{player} 没听牌放冲全求人",
    "escape_forfeit": "逃跑罚分 {penalty}，罚没 (H9, escape_paid_to: none)",
    "escape_forfeit_note": "{leaver} 逃跑：罚没 {penalty}，本局输赢之和不为零 (H9)",
    "escape_split": "逃跑罚分 {penalty} 分给 {ways} 家，余分先给 {first} (H9)",
    "escape_note": "{leaver} 逃跑 (H9)",
}

CATALOG = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="wuhan")
"""Wuhan's words, falling back to the shared machinery's (a hand settled from tiles
chains the tile readings' words in front: :mod:`settle.engine.tilelevel`)."""
