"""The contract that lets words and JSON forms be cached per step (issue 14, ``settle.core.text``).

Equal steps share their cached words and JSON dicts, and Python calls ``{"a": 1, "b": 2}`` equal to
``{"b": 2, "a": 1}`` and ``1`` equal to ``True``.  So output bytes could depend on which hand filled
a cache first, unless every step of a kind builds its values with the same keys in the same order,
and a value never changes type between bool and int.  This walks every step of the golden inputs
and of generated hands of the three regions and checks both.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from settle import settle_hand
from settle.core import Step
from settle.errors import HandError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_batch import generate  # noqa: E402


def hands() -> list[dict[str, Any]]:
    inputs = ROOT / "tests" / "golden" / "inputs"
    read = [json.loads(line) for name in ("generated.jsonl", "tiles.jsonl")
            for line in (inputs / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return read + list(generate(6000, seed=3))


def walk(value: Any, orders: dict[Any, set[tuple[str, ...]]], kinds: dict[Any, set[type]]) -> None:
    if isinstance(value, Step):
        orders[(value.rule, value.kind, frozenset(value.values))].add(tuple(value.values))
        for key, item in value.values.items():
            if isinstance(item, bool | int):
                kinds[(value.rule, value.kind, key)].add(type(item))
            walk(item, orders, kinds)
    elif isinstance(value, list | tuple):
        for item in value:
            walk(item, orders, kinds)
    elif isinstance(value, dict):
        for item in value.values():
            walk(item, orders, kinds)


def test_steps_of_a_kind_keep_one_key_order_and_bool_apart_from_int() -> None:
    orders: dict[Any, set[tuple[str, ...]]] = defaultdict(set)
    kinds: dict[Any, set[type]] = defaultdict(set)
    settled = 0
    for hand in hands():
        try:
            result = settle_hand(hand)
        except HandError:
            continue
        settled += 1
        for transfer in result.transfers:
            walk(list(transfer.steps), orders, kinds)
        walk(list(result.reasons), orders, kinds)
        walk(list(result.score_steps.values()), orders, kinds)
        if result.forfeit is not None:
            walk(list(result.forfeit.steps), orders, kinds)
    assert settled > 6000
    assert len(orders) > 30  # the walk found the steps
    assert {key: found for key, found in orders.items() if len(found) > 1} == {}
    assert {key: found for key, found in kinds.items() if len(found) > 1} == {}
