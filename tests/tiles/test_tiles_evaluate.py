"""evaluate(): the fast feature search agrees with listing every reading.

For random winning hands of every region (melds, wildcards, options, win types), the
fan sets evaluate() returns by default (one per fan set, via best_readings) must be
exactly the fan sets of listing every reading (distinct=False), with the same fewest
substitutions, and the same rejection reasons.
"""

from __future__ import annotations

import random

from tile_helpers import random_sets

from settle.rules.rushan.tiles import TILE_RULES as RUSHAN
from settle.rules.wuhan.tiles import TILE_RULES as WUHAN
from settle.rules.wuhan.tiles import wuhan_wildcards
from settle.rules.wuxue.tiles import TILE_RULES as WUXUE
from settle.rules.wuxue.tiles import wuxue_wildcards
from settle.tiles import Evaluation, Meld, TileHand, TileRules, evaluate_all

RULES: dict[str, TileRules] = {"wuhan": WUHAN, "wuxue": WUXUE, "rushan": RUSHAN}
REGIONS = tuple(RULES)


def random_meld(rng: random.Random) -> Meld:
    roll = rng.random()
    if roll < 0.4:
        start = rng.choice((0, 9, 18)) + rng.randrange(7)
        return Meld("chow", (start, start + 1, start + 2))
    tile = rng.randrange(34)
    if roll < 0.8:
        return Meld("pung", (tile,) * 3)
    return Meld("kong", (tile,) * 4, kong_kind=rng.choice(("exposed", "added", "concealed")))


def random_case(rng: random.Random) -> tuple[str, TileHand, dict, str] | None:
    region = rng.choice(REGIONS)
    melds = [random_meld(rng) for _ in range(rng.choice((0, 0, 0, 1, 2, 4)))]
    size = 14 - 3 * len(melds)
    indicator = rng.randrange(34)
    wild = {
        "wuhan": wuhan_wildcards(indicator).laizi,
        "wuxue": wuxue_wildcards(indicator).bao,
        "rushan": None,
    }[region]
    tiles = random_sets(rng, size)
    pair = rng.choice((1, 4, 7, 10, 13, 16, 19, 22, 25)) if rng.random() < 0.6 else rng.randrange(34)
    tiles += [pair, pair]
    rng.shuffle(tiles)
    if wild is not None:
        wilds = rng.randint(0, min(4, size))
        tiles = [wild] * wilds + tiles[wilds:]
    options = {
        "wuhan": {"facai_gang": rng.random() < 0.8},
        "wuxue": {},
        "rushan": {"jiang258": rng.random() < 0.5, "menqing_yitiaolong": rng.random() < 0.5},
    }[region]
    try:
        hand = TileHand(tuple(tiles), tiles[-1], tuple(melds), None if region == "rushan" else indicator)
    except ValueError:
        return None  # a fifth copy: skip
    return region, hand, options, rng.choice(("self_draw", "discard", "robbed_kong"))


def summary(evaluation: Evaluation) -> tuple[dict, set]:
    fewest: dict = {}
    for scored in evaluation.legal:
        fewest[scored.fans] = min(fewest.get(scored.fans, 9), scored.reading.substitutions)
    return fewest, {(scored.fans, reason) for scored, reason in evaluation.rejected}


def test_fast_path_matches_full_listing() -> None:
    rng = random.Random(99)
    compared = legal = 0
    while compared < 2500:
        case = random_case(rng)
        if case is None:
            continue
        region, hand, options, by = case
        try:
            fast = evaluate_all(RULES[region], hand, options, by)
        except ValueError:
            continue  # e.g. a melded 红中 or a discarded wildcard: impossible input
        full = evaluate_all(RULES[region], hand, options, by, distinct=False)
        assert summary(fast) == summary(full), (region, hand, options, by)
        assert fast.blocked == full.blocked
        compared += 1
        legal += bool(fast.legal)
    assert legal > 500


def test_why_not_explains_an_empty_result() -> None:
    hand = TileHand.parse("19m 19p 19s 1234567z 1m", "1m")
    result = evaluate_all(RUSHAN, hand)
    assert result.legal == ()
    assert "not a winning hand" in (result.why_not() or "")
