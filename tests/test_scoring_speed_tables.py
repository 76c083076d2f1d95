"""The tables the region scorings keep what recurs in (issue 14, speed): results never depend on them.

The scorings of the three regions keep, per shape of the facts, the steps and amounts that recur
(a loser's payment under a cap, a player's tally, a win's shape) and hand the same records to every
hand that needs them.  What each settlement owns must still be its own (its net, roles, scores and
their steps, its transfers), and no result may depend on which hand filled a table first or on a
table being emptied on the way.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from settle import settle_hand
from settle.core.machinery import (
    STATED_TALLIES,
    kept,
    seats_after,
    stated_step,
    stated_tally,
    turn_after,
    zeros,
)
from settle.errors import HandError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_batch import generate  # noqa: E402

OPTIONS = {
    "wuhan": [{"koukou": True}, {"cap": 40, "golden": 50, "bright": 60}, {"chengbao_yise": "all"},
              {"laizi_kong_fans": 2}],
    "wuxue": [{"genpi": True}, {"piao": 3, "piao_both_sides": True}, {"three_player_golden": "full"}, {"cap": 8}],
    "rushan": [{"cap_includes_fish": True}, {"cap": 5}, {"menqing_yitiaolong": True}, {"cap": 7}],
}


def hands(n: int = 3000) -> list[dict[str, Any]]:
    """Generated hands of the three regions, half of them with options other than the defaults."""
    rng = random.Random(5)
    out = []
    for hand in generate(n, seed=5):
        if rng.random() < 0.5:
            hand["options"] = {**hand.get("options", {}), **rng.choice(OPTIONS[hand["region"]])}
        out.append(hand)
    return out


def text(hand: dict[str, Any]) -> str:
    """The hand's result as JSON text (the settlement in both languages, or the problems)."""
    try:
        result = settle_hand(hand)
    except HandError as error:
        return json.dumps([str(p) for p in error.problems], ensure_ascii=False)
    return json.dumps([result.as_dict("en"), result.as_dict("zh")], ensure_ascii=False)


def test_results_do_not_depend_on_the_order_the_tables_were_filled_in() -> None:
    corpus = hands()
    forward = [text(hand) for hand in corpus]
    backward = [text(hand) for hand in reversed(corpus)]
    assert forward == backward[::-1]
    assert sum('"transfers": [{' in t for t in forward) > 2000  # most hands settle, with payments


def test_a_settlement_owns_its_containers() -> None:
    wins = [
        {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "fans": {"A": 1, "B": 2, "C": 0, "D": 3},
         "win": {"winner": "B", "by": "self_draw", "liable": "none"}},
        {"region": "wuxue", "players": {"A": {"opens": 1}, "B": {}, "C": {}}, "dealer": "A",
         "win": {"winner": "A", "by": "discard", "from": "B"}},
        {"region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "C",
         "win": {"winner": "D", "by": "self_draw", "fans": ["pengpenghu"]}},
        {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "abandon": {"by": "C"},
         "options": {"escape_paid_to": "others"}},
        {"region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "C", "draw": True},
    ]
    for hand in wins:
        first, second = settle_hand(hand), settle_hand(hand)
        assert first == second
        for name in ("net", "roles", "scores", "score_steps"):
            assert getattr(first, name) is not getattr(second, name), (hand["region"], name)
        assert all(a is not b for a, b in zip(first.transfers, second.transfers, strict=True))
        before = json.dumps(second.as_dict(), ensure_ascii=False)
        first.net[first.players[0]] += 1000
        first.roles[first.players[0]] = ("changed",)
        assert json.dumps(settle_hand(hand).as_dict(), ensure_ascii=False) == before


def test_the_shared_helpers_give_fresh_containers_and_the_plain_values() -> None:
    seats = ("东", "南", "西", "北")
    net = zeros(seats)
    assert net == {"东": 0, "南": 0, "西": 0, "北": 0} and list(net) == list(seats)
    net["东"] = 5
    assert zeros(seats) == {"东": 0, "南": 0, "西": 0, "北": 0}
    assert turn_after(seats, "西") == ("北", "东", "南") == tuple(seats_after(list(seats), "西"))
    assert turn_after(seats, "西") is turn_after(seats, "西")
    assert stated_tally(7) == (7, stated_step(7)) and STATED_TALLIES[7] is stated_tally(7)
    assert stated_step(7).values == {"total": 7, "stated": True, "items": ()}


def test_a_kept_table_is_emptied_at_its_bound() -> None:
    table: dict[int, str] = {}
    for key in range(5):
        assert kept(table, key, str(key), 3) == str(key)
    assert table == {3: "3", 4: "4"}
