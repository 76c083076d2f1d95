"""`--lang zh`: every sentence is Chinese (issue 13: text comes from the message catalogs).

Chinese output may hold ASCII only where it is not English: player names, vocabulary keys (pinyin
fan names, kong kinds, option names and values, win types, region keys, hand-file keys such as
``win.liable``), ruling ids (H5, W8, R3b, G10 ...), tile notation (123m, 6s) and numbers.
:func:`english_left` strips those and reports any English word that is left.

The property test draws valid hands of every region (names with spaces, CJK, digits and emoji:
``tests/strategies.NAME_POOL``) and looks at the table and markdown output of ``settle hand``,
``batch`` and ``session``, and at the texts of the JSON output with ``--lang zh`` given.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from settle import settle_hand
from settle.cli import _register_commands, app
from settle.core import Step
from settle.render import render
from settle.rules.registry import all_regions, get_region
from tests.strategies import any_hand

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (ROOT / "fixtures").glob("*/*.yaml") if p.parent.name not in ("batch", "session"))
runner = CliRunner()
_register_commands()


def canonical_words() -> set[str]:
    """Every ASCII word a Chinese text may hold because it is a key, not English."""
    words = {"self_draw", "discard", "robbed_kong", "win", "liable", "options", "fans", "jin", "opens", "kongs",
             "players", "tiles", "melds", "from", "by", "none", "settle", "check", "genpi", "piao_both_sides",
             "three_player_golden", "escape_paid_to", "menqing_yitiaolong"}
    for region in all_regions():
        words |= {region.key, *region.patterns, *region.kongs, *region.options.model_fields}
        for field in region.options.model_fields.values():
            default = field.default
            if isinstance(default, str):
                words.add(default)
        annotations = [f.annotation for f in region.options.model_fields.values()]
        words |= {a for ann in annotations for a in getattr(ann, "__args__", ()) if isinstance(a, str)}
    return {part for word in words for part in re.split(r"[^A-Za-z_]+", word) if part} | words


ALLOWED = canonical_words()
RULING = re.compile(r"\b[HWRG]\d+[a-z]?\b(?: [abc]\b)?")
TILES = re.compile(r"\b\d+[mpsz]\b")


def english_left(text: str, names: tuple[str, ...]) -> set[str]:
    """The English words in ``text`` once names, keys, ruling ids and tiles are taken out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = TILES.sub(" ", RULING.sub(" ", text))
    return {w for w in re.findall(r"[A-Za-z_]+", text) if w not in ALLOWED}


def texts_of(data: Any) -> list[str]:
    """Every ``why`` and ``notes`` text in a JSON result (the keys and canonical values stay English)."""
    out: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("steps", "reasons"):  # data, not words
                continue
            if key in ("why", "notes", "warnings", "stopped", "ended") and value is not None:
                out += value if isinstance(value, list) else [value]
            else:
                out += texts_of(value)
    elif isinstance(data, list):
        for item in data:
            out += texts_of(item)
    return out


def run(*args: str, stdin: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=stdin, env={"LANG": "C.UTF-8", "LC_ALL": "", "CI": "1"})
    assert result.exit_code in (0, 2, 3), result.output
    return result.stdout


TILE_HANDS = [json.loads(line) for line in
              (ROOT / "tests" / "golden" / "inputs" / "tiles.jsonl").read_text(encoding="utf-8").splitlines()]
"""Tile-level hands of the three regions, 0–4 wildcards (some of them no legal win)."""


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{p.name}" for p in FIXTURES])
def test_fixture_in_chinese_has_no_english(path: Path) -> None:
    result = settle_hand(yaml.safe_load(path.read_text(encoding="utf-8")))
    for fmt in ("table", "markdown"):
        assert english_left(render(result, fmt, "zh"), result.players) == set()
    for text in texts_of(json.loads(render(result, "json", "zh"))):
        assert english_left(text, result.players) == set(), text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=any_hand(), fmt=st.sampled_from(["table", "markdown"]))
def test_every_generated_hand_in_chinese_has_no_english(hand: dict[str, Any], fmt: str) -> None:
    names = tuple(hand["players"])
    doc = json.dumps(hand, ensure_ascii=False)
    assert english_left(run("hand", "-", "--format", fmt, "--lang", "zh", stdin=doc), names) == set()
    for text in texts_of(json.loads(run("hand", "-", "--format", "json", "--lang", "zh", stdin=doc))):
        assert english_left(text, names) == set(), text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands=st.lists(any_hand(), min_size=1, max_size=4), fmt=st.sampled_from(["table", "markdown"]))
def test_batches_in_chinese_have_no_english(hands: list[dict[str, Any]], fmt: str) -> None:
    names = tuple({n for h in hands for n in h["players"]})
    lines = "".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands)
    out = run("batch", "-", "--input-format", "jsonl", "--format", fmt, "--lang", "zh", stdin=lines)
    assert english_left(out.replace("<stdin>", ""), names) == set()  # hands without id are named <stdin>:N
    for line in run("batch", "-", "--input-format", "jsonl", "--format", "jsonl", "--lang", "zh",
                    stdin=lines).splitlines():
        for text in texts_of(json.loads(line)):
            assert english_left(text, names) == set(), text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=any_hand("win"), count=st.integers(1, 4), fmt=st.sampled_from(["table", "markdown", "json"]))
def test_sessions_in_chinese_have_no_english(hand: dict[str, Any], count: int, fmt: str) -> None:
    """The same table playing ``count`` hands (dealer left to the rotation after the first)."""
    names = tuple(hand["players"])
    later = {k: v for k, v in hand.items() if k != "dealer"}
    docs = [hand, *[later] * (count - 1)]
    text = "".join("---\n" + json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
    out = run("session", "-", "--format", fmt, "--lang", "zh", stdin=text)
    found = texts_of(json.loads(out)) if fmt == "json" else [out]
    for piece in found:  # a hand without id is labelled by the file, <stdin>:N
        assert english_left(piece.replace("<stdin>", ""), names) == set(), piece


CLAIMS = ("qingyise", "pengpenghu", "hard", "qidui", "pihu", "fengyise")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.sampled_from(TILE_HANDS), claims=st.lists(st.sampled_from(CLAIMS), max_size=2, unique=True),
       fmt=st.sampled_from(["table", "json"]))
def test_checks_in_chinese_have_no_english(hand: dict[str, Any], claims: list[str], fmt: str) -> None:
    """``settle check --lang zh`` of a tile hand with some claimed fans (claims the region lacks are
    left out: they are bad input, whose messages are English)."""
    region = get_region(hand["region"])
    win = {**hand["win"], "fans": [c for c in claims if c in region.patterns]}
    names = tuple(hand["players"])
    out = run("check", "-", "--format", fmt, "--lang", "zh", stdin=json.dumps({**hand, "win": win}))
    if fmt == "json" and out.strip():
        data = json.loads(out)
        pieces = [*data["notes"], *data["readings"].values(), *(d["detail"] for d in data["differences"])]
    else:
        pieces = [out]
    for piece in pieces:
        assert english_left(piece, names) == set(), piece


# --- the words of single steps -----------------------------------------------------------------------


@pytest.mark.parametrize(("region", "step", "english", "chinese"), [
    ("wuhan", Step("H5", "cap", {"amount": 480, "limit": 400, "label": "封顶"}),
     "= 480, capped at 400 (H5 封顶)", "= 480，封顶 400 (H5 封顶)"),
    ("wuhan", Step("H6", "bright", {"amount": 600, "loser": "B"}),
     "光明顶 600: B has no open (H6)", "光明顶 600：B 没有开口 (H6)"),
    ("wuxue", Step("W8", "golden", {"level": "small", "amount": 20, "capped": 2, "players": 4}),
     "小金鼎 20: two losers capped (W8)", "小金鼎 20：两家封顶 (W8)"),
    ("wuxue", Step("", "tally", {"total": 2, "stated": True, "items": ()}), "2 (stated)", "2（报数）"),
    ("rushan", Step("R6", "fish", {"winner_fish": 1, "loser_fish": 2, "inside": True}),
     "+ fish 1+2 (R6, inside the cap)", "+ 飘鱼 1+2 (R6，计入封顶)"),
])
def test_step_words(region: str, step: Step, english: str, chinese: str) -> None:
    catalog = get_region(region).catalog
    assert catalog.text(step, "en") == english
    assert catalog.text(step, "zh") == chinese


def test_every_kind_has_words_in_both_languages() -> None:
    # The glosses (``gloss:...``, issue 16) are Chinese only: their English is the term's own ``en``.
    for region in all_regions():
        steps = {kind for kind in region.catalog.kinds("zh") if not kind.startswith("gloss:")}
        assert region.catalog.kinds("en") == steps, region.key


# --- the two wrong outputs of issue 13 ----------------------------------------------------------------


def test_a_name_with_a_space_gets_chinese_words() -> None:
    """Issue 13: ``Mary Jane discarded (点炮): only Mary Jane pays (R5)`` stayed English under --lang zh,
    because the old rewriting matched names as one word."""
    out = run("hand", "--region", "rushan", "--players", "A,Mary Jane,C,D", "--dealer", "A", "--winner", "D",
              "--by", "discard", "--from", "Mary Jane", "--lang", "zh")
    assert "Mary Jane 点炮，只有 Mary Jane 付 (R5)" in out
    assert english_left(out, ("A", "Mary Jane", "C", "D")) == set()


def test_a_liable_player_named_like_a_golden_cap_is_not_counted_as_capped() -> None:
    """Issue 13: standings read the transfers' ``cap`` field, not their words.  A Wuhan small hand (all
    fans 1: 2^(1+1) = 4 from each loser, H2) whose liable player is called 金顶 has no capped payment."""
    hand = {"id": "h1", "region": "wuhan", "players": ["A", "金顶", "C", "D"], "dealer": "A",
            "win": {"winner": "D", "by": "discard", "from": "A", "liable": "金顶"},
            "fans": {"A": 1, "金顶": 1, "C": 1, "D": 1}}
    out = run("batch", "-", "--input-format", "jsonl", "--format", "json", stdin=json.dumps(hand, ensure_ascii=False)
              + "\n" + json.dumps({**hand, "id": "h2"}, ensure_ascii=False) + "\n")
    data = json.loads(out)
    # 4 + 4 + 4 = 12 points, all paid by the liable 金顶 (stated, G7)
    assert data["hands"][0]["net"] == {"A": 0, "金顶": -12, "C": 0, "D": 12}
    assert [t["cap"] for t in data["hands"][0]["transfers"]] == [None, None, None]
    assert data["standings"]["D"]["capped"] == 0 and data["standings"]["D"]["golden"] == 0
    assert data["standings"]["金顶"]["liable"] == 2
