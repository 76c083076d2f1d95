"""``settle batch`` on generated tile hands writes, line for line, what ``settle_hand`` gives each hand.

The batch settles a hand through the same library call, but encodes it its own way (kept forms and
texts shared between hands, issue 14), and the tile level keeps recurring steps as one object for
every hand that has them.  So the JSON line of each hand must be ``json.dumps`` of the fresh
``Settlement.as_dict`` (or of the located error), whichever hands came before: the hands are the
bench's (``bench/bench_tiles.py``: the three regions, 0-4 wildcards, melds, Chinese tile names, a
share the rules refuse) and wildcard-free Rushan hands with options, in English and in Chinese, and
the file is settled twice in one process (the second time every kept step is met again).
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from settle import settle_hand
from settle.engine.batch import BatchRun, StreamWriter, run_batch
from settle.errors import HandError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_tiles import PLAYERS, hand_document, winning_tiles  # noqa: E402

from settle.tiles.notation import format_tiles  # noqa: E402


def documents() -> list[dict[str, Any]]:
    """900 bench hands of the three regions, then 300 Rushan hands with options and either win type."""
    rng = random.Random(14)
    docs = [{"id": f"h{i}", **hand_document(rng, i)} for i in range(900)]
    for i in range(300):
        tiles = winning_tiles(rng)
        winner = rng.choice(PLAYERS)
        win: dict[str, Any] = {"winner": winner, "by": rng.choice(("self_draw", "discard")),
                               "tiles": {"hand": format_tiles(tiles), "win_tile": format_tiles(tiles[-1:])}}
        if win["by"] == "discard":
            win["from"] = rng.choice([p for p in PLAYERS if p != winner])
        options = {key: rng.random() < 0.5 for key in ("jiang258", "menqing_yitiaolong", "no_honors")}
        docs.append({"id": f"r{i}", "region": "rushan", "players": list(PLAYERS), "dealer": "A", "options": options,
                     "win": win})
    return docs


def expected_line(document: dict[str, Any], line: int, source: str, lang: str) -> str:
    """The JSON line of one hand as the library gives it: ``json.dumps`` of its fresh record."""
    label = document["id"]
    try:
        result = settle_hand(document)
    except HandError as exc:
        located = exc.located({(): line}, hand=label, source=source)
        return json.dumps({"id": label, "error": [p.as_dict() for p in located.problems]}, ensure_ascii=False)
    return json.dumps(result.as_dict(lang, label=label), ensure_ascii=False)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batch_lines_are_settle_hand_of_each_tile_hand(tmp_path: Path, lang: str) -> None:
    docs = documents()
    path = tmp_path / "tiles.jsonl"
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    expected = [expected_line(d, i, str(path), lang) for i, d in enumerate(docs, 1)]
    for _ in range(2):  # the second run meets every kept step and text again
        out = io.StringIO()
        totals = run_batch([str(path)], StreamWriter(out, "jsonl"), BatchRun(fmt="jsonl", jobs=1, json_lang=lang))
        lines = out.getvalue().splitlines()
        assert len(lines) == len(docs) == totals.hands
        for document, line, want in zip(docs, lines, expected, strict=True):
            assert line == want, document["id"]
    settled = sum('"error": ' not in line for line in expected)
    assert 600 < settled < len(docs)  # most settle; some the rules refuse (two 癞子/宝 in a small hand ...)
    assert totals.bad == len(docs) - settled
