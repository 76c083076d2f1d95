"""Hands settled together (issue 14): :func:`settle.engine.hand.settle_models` settles the hands with tiles
step by step over all of them (every hand read, then every hand's readings found, chosen, said), and must
give exactly what settling one hand after another gives: each settlement, each error, and any other
exception (a bug) raised by the hand that raises it one hand after another."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from settle.engine.hand import settle_model, settle_models
from settle.engine.tilelevel import resolution
from settle.engine.validation import validate_model
from settle.errors import HandError
from settle.model import Hand
from settle.rules.registry import Region

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_batch import generate  # noqa: E402
from bench_tiles import hand_document  # noqa: E402


def _validated(documents: list[Any]) -> list[tuple[Region, Hand]]:
    """The documents pydantic takes, validated (the others are no input of settle_models)."""
    out = []
    for data in documents:
        try:
            out.append(validate_model(data))
        except HandError:
            continue
    return out


def _one_after_another(items: list[tuple[Region, Hand]]) -> list[Any]:
    out: list[Any] = []
    for region, hand in items:
        try:
            out.append(settle_model(region, hand))
        except HandError as exc:
            out.append(exc)
    return out


def _mixed() -> list[tuple[Region, Hand]]:
    """The golden tile hands (every region, errors among them), hands of every region with tiles and wildcards,
    and hands without tiles, shuffled together."""
    golden = ROOT / "tests" / "golden" / "inputs" / "tiles.jsonl"
    documents: list[Any] = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines() if line]
    rng = random.Random(14)
    documents += [hand_document(rng, i) for i in range(300)]
    documents += generate(150, seed=14)
    rng.shuffle(documents)
    return _validated(documents)


def test_hands_settled_together_are_settled_as_one_after_another() -> None:
    items = _mixed()
    together = settle_models(items)
    alone = _one_after_another(items)
    assert len(together) == len(alone) == len(items)
    assert sum(isinstance(r, HandError) for r in alone) > 10  # refused hands are among them
    assert sum(r.reading is not None for r in alone if not isinstance(r, HandError)) > 100  # and tile hands
    for mine, theirs in zip(together, alone, strict=True):
        assert type(mine) is type(theirs)
        assert mine == theirs
        if not isinstance(mine, HandError):
            assert mine.json_bytes() == theirs.json_bytes()


def test_a_bug_is_raised_by_the_hand_that_raises_it_one_hand_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    tiled = [item for item in _mixed() if item[1].win is not None and not isinstance(item[1].win, list)
             and item[1].win.tiles is not None]
    items = [item for item, result in zip(tiled, _one_after_another(tiled), strict=True)
             if not isinstance(result, HandError)][:40]
    first, second = items[3][1], items[7][1]
    real_choose, real_prepare = resolution.choose, resolution.prepare

    def choose(prepared: Any, hand: Any, *rest: Any) -> Any:
        if prepared.hand.win is first.win:
            raise RuntimeError("the first hand's bug, in its choice")
        return real_choose(prepared, hand, *rest)

    def prepare(data: Any, region: Region, hand: Hand) -> Any:
        if hand is second:
            raise RuntimeError("the later hand's bug, in its reading")
        return real_prepare(data, region, hand)

    monkeypatch.setattr(resolution, "choose", choose)
    monkeypatch.setattr(resolution, "prepare", prepare)
    with pytest.raises(RuntimeError, match="the first hand's bug"):
        settle_models(items)  # step by step, the later hand's bug comes first; one after another, not
    with pytest.raises(RuntimeError, match="the later hand's bug"):
        settle_models(items[4:])
    assert settle_models(items[:3]) == _one_after_another(items[:3])
