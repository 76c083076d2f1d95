"""`--lang zh`: the explanations (why, notes, 番/斤 detail) come out in Chinese (issue 8).

Allowed ASCII in Chinese output: player names, the canonical keys (fan names, kong kinds,
option names and values), ruling ids (H5, W7 ...), tile notation (123m) and formulas.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from settle import settle_hand
from settle.render.i18n import to_zh
from settle.rules.registry import all_regions
from settle.render import render

FIXTURES = sorted(p for p in (Path(__file__).resolve().parent.parent / "fixtures").glob("*/*.yaml")
                  if p.parent.name not in ("batch", "session"))


def canonical_words() -> set[str]:
    words = {"full", "small", "qingyise", "all", "none", "others", "win", "liable", "settle", "check"}
    for region in all_regions():
        words |= set(region.patterns) | set(region.kongs) | set(region.options.model_fields)
    return {part for word in words for part in re.split(r"[^A-Za-z_]+", word) if part}


ALLOWED = canonical_words()


def english_left(text: str, names: tuple[str, ...]) -> set[str]:
    words = set(re.findall(r"[A-Za-z_]+", text))
    return {w for w in words
            if w not in ALLOWED and w not in names and not re.fullmatch(r"[A-Za-z]|[mpsz]", w)}


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{p.name}" for p in FIXTURES])
def test_chinese_output_has_no_english_explanations(path: Path) -> None:
    result = settle_hand(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert english_left(render(result, "table", "zh"), result.players) == set()


def test_english_output_is_unchanged() -> None:
    result = settle_hand(yaml.safe_load((FIXTURES[0].parent.parent / "wuhan" / "golden_bright.yaml")
                                        .read_text(encoding="utf-8")))
    assert "capped at 400" in render(result, "table", "en")


@pytest.mark.parametrize(("english", "chinese"), [
    ("10×2^(2+3)×1.5 = 480, capped at 400 (H5 封顶)", "10×2^(2+3)×1.5 = 480，封顶 400 (H5 封顶)"),
    ("光明顶 600: B has no open (H6)", "光明顶 600：B 没有开口 (H6)"),
    ("小金鼎 20: two losers capped (W8)", "小金鼎 20: 两家封顶 (W8)"),
    ("2 (stated)", "2（报数）"),
])
def test_phrases(english: str, chinese: str) -> None:
    assert to_zh(english) == chinese
