"""Shape fans and tile-level legality of each reading, per region.

:func:`evaluate` takes the winner's :class:`~settle.tiles.hand.TileHand`, the region,
its options, how the hand was won (``by``) and the situational fans the table states
(杠上花, 海底捞 ...: they cannot be seen in the tiles), and returns every legal reading
with its fan set, in the region vocabulary of RULINGS.md:

* Wuhan (seed 004, RULINGS H3 H8 H12): ``pengpenghu quanqiuren qingyise jiangyise fengyise``
  from the tiles, ``gangshanghua haidilao qiangganghu`` situational, extra ``hard``.
* Wuxue (seed 000, RULINGS W2 W12 W15 W16): ``qidui haohua_qidui chaohaohua_qidui
  chaochaohaohua_qidui qingyise jiangyise fengyise pengpenghu quanqiuren hard sibao`` from
  the tiles, ``gangkai`` situational.
* Rushan (seed 003, RULINGS R1-R3b R9): one base ``pihu pengpenghu qidui``; ``qingyise
  fengyise jiangyise yitiaolong menqing`` from the tiles; ``tianhu dihu haidilao
  gangshanghua mobao baozhongbao`` situational.

The caller settles each reading and keeps the best. Region rules that need facts
beyond the tiles (开口 requirements H8/W12, G10's dealer checks) stay with the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from settle.tiles.features import (
    HONOUR_BIT,
    IS_258,
    SUIT_BIT,
    Features,
    feature_search,
    features_of,
    materialise,
)
from settle.tiles.hand import CHOW, KONG, PUNG, TileHand
from settle.tiles.notation import FA, format_tiles, is_258
from settle.tiles.readings import LOOSE, SEVEN_PAIRS, STANDARD, Reading, enumerate_readings, loose_reading
from settle.tiles.wildcards import Wildcards, rushan_bao, wuhan_wildcards, wuxue_wildcards

REGIONS = ("wuhan", "wuxue", "rushan")
WIN_BY = ("self_draw", "discard", "robbed_kong")

SEVEN_PAIRS_LEVELS = ("qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui")
RUSHAN_BASES = ("pihu", "pengpenghu", "qidui")

# Fans no tile can show: the table states them (RULINGS G10 for when each fits).
SITUATIONS: Mapping[str, frozenset[str]] = {
    "wuhan": frozenset({"gangshanghua", "haidilao", "qiangganghu"}),
    "wuxue": frozenset({"gangkai"}),
    "rushan": frozenset({"tianhu", "dihu", "haidilao", "gangshanghua", "mobao", "baozhongbao"}),
}
# Every fan key each region can return (RULINGS H3, W2, R1 R2).
VOCABULARY: Mapping[str, frozenset[str]] = {
    "wuhan": SITUATIONS["wuhan"] | {"pengpenghu", "quanqiuren", "qingyise", "jiangyise", "fengyise", "hard"},
    "wuxue": SITUATIONS["wuxue"]
    | {*SEVEN_PAIRS_LEVELS, "qingyise", "jiangyise", "fengyise", "pengpenghu", "quanqiuren"}
    | {"hard", "sibao"},
    "rushan": SITUATIONS["rushan"] | {*RUSHAN_BASES, "qingyise", "fengyise", "jiangyise", "yitiaolong", "menqing"},
}
# 大胡 (H3; W2): a hand with none of them is a 小胡/屁胡.
BIG_HANDS: Mapping[str, frozenset[str]] = {
    "wuhan": VOCABULARY["wuhan"] - {"hard"},
    "wuxue": VOCABULARY["wuxue"] - {"hard", "sibao", "gangkai"},
    "rushan": frozenset(),
}
# Fans that lift the 2/5/8 pair requirement (H8; W12 needs it for 屁胡 only).  R9 jiang258 exempts
# nothing: 屁胡/七对/碰碰胡 need the pair, and every Rushan hand has one of those bases (R1), so a
# 风一色 is no win under jiang258 (the seed's 风一色不限 frees it from needing a pair at all, not from
# 258将).  将一色 is listed only because a loose one has no pair to test, and all its tiles are 2/5/8.
PAIR_258_EXEMPT: Mapping[str, frozenset[str]] = {
    "wuhan": frozenset({"pengpenghu", "qingyise", "jiangyise", "fengyise"}),
    "rushan": frozenset({"jiangyise"}),
}
# RULINGS G10: the only ``by`` each of these fits.
SITUATION_NEEDS_BY: Mapping[str, str] = {
    "gangshanghua": "self_draw",
    "gangkai": "self_draw",
    "haidilao": "self_draw",
    "tianhu": "self_draw",
    "qiangganghu": "robbed_kong",
}
# Tile-level options per region and their defaults (RULINGS H12, R3, R9).
OPTION_DEFAULTS: Mapping[str, Mapping[str, bool]] = {
    "wuhan": {"facai_gang": True, "facai_blocks_win": True},
    "wuxue": {},
    "rushan": {
        "jiang258": False,
        "no_honors": False,
        "menqing_yitiaolong": False,
        "no_chow": False,
        "loubao": False,
    },
}

_SHAPE_ORDER = {STANDARD: 0, SEVEN_PAIRS: 1, LOOSE: 2}
# Tile a wildcard is read as in a loose hand when it cannot be itself: any qualifying
# tile gives the same fans, the lowest is taken (二万 for 将一色, 东 for 风一色).
_LOOSE_STAND_IN = {"jiangyise": 1, "fengyise": 27}


@dataclass(frozen=True)
class ScoredReading:
    """A reading and the fan keys it earns (situations included; Rushan: its base too)."""

    reading: Reading
    fans: frozenset[str]

    @property
    def base(self) -> str | None:
        """Rushan base (R1); None elsewhere."""
        return next((b for b in RUSHAN_BASES if b in self.fans), None)


@dataclass(frozen=True)
class Evaluation:
    """All of :func:`evaluate_all`'s findings.

    ``legal``: readings that may be won, best-looking first (most fans).
    ``rejected``: readings of a winning shape that a legality rule forbids, with the rule.
    ``blocked``: why no reading can win at all (e.g. holding 红中, H8), else None.
    """

    legal: tuple[ScoredReading, ...]
    rejected: tuple[tuple[ScoredReading, str], ...] = ()
    blocked: str | None = None

    def why_not(self) -> str | None:
        """Why the hand cannot win (None when it can), for the caller's error message."""
        if self.legal:
            return None
        if self.blocked:
            return self.blocked
        if self.rejected:
            # The reason of the reading closest to the tiles as held (fewest wildcard substitutions)
            # first: with two 宝 used as themselves, "two 宝 forbid a 屁胡" before the other readings'.
            nearest: dict[str, tuple[int, str]] = {}
            for scored, reason in self.rejected:
                key = (scored.reading.substitutions, reason)
                nearest[reason] = min(nearest.get(reason, key), key)
            return "; ".join(sorted(nearest, key=nearest.__getitem__))
        return "the tiles are not a winning hand (sets and a 2-tile pair, or a shape the region allows)"


@dataclass(slots=True)
class _Context:
    """Facts about the hand shared by all its readings (internal, built per call)."""

    region: str
    hand: TileHand
    by: str
    situations: frozenset[str]
    options: Mapping[str, bool]
    cards: Wildcards
    wild: int | None
    wilds_in_hand: int
    meld_tiles: tuple[int, ...]
    meld_suits: int
    melds_all_258: bool
    meld_has_chow: bool
    claimed_melds: int


def evaluate(
    region: str,
    hand: TileHand,
    options: Mapping[str, object] | None = None,
    by: str = "self_draw",
    situations: Iterable[str] = (),
    *,
    distinct: bool = True,
) -> list[ScoredReading]:
    """Every legal reading of ``hand`` with its fans; empty when the hand cannot win.

    ``region``: ``wuhan``, ``wuxue`` or ``rushan``. ``options``: the tile-level options
    (``OPTION_DEFAULTS``: facai_gang H12; jiang258, no_honors, menqing_yitiaolong,
    no_chow, loubao R3 R9); other keys are ignored. ``by``: ``self_draw``, ``discard``
    or ``robbed_kong``. ``situations``: the situational fans the table states
    (``SITUATIONS[region]``), checked against ``by`` (G10); Wuhan's ``qiangganghu`` is
    implied by ``robbed_kong``. Each result's ``fans`` are region keys (RULINGS H3, W2,
    R1 R2), situations included. With ``distinct`` (default) one reading per distinct
    fan set is kept, the one with the fewest wildcard substitutions; without, every
    legal reading. Raises ValueError for impossible input (bad region, option or
    situation, a melded 红中, a discarded wildcard won on, a missing indicator ...).
    """
    return list(evaluate_all(region, hand, options, by, situations, distinct=distinct).legal)


def evaluate_all(
    region: str,
    hand: TileHand,
    options: Mapping[str, object] | None = None,
    by: str = "self_draw",
    situations: Iterable[str] = (),
    *,
    distinct: bool = True,
) -> Evaluation:
    """As :func:`evaluate`, also giving the rejected readings and why.

    With ``distinct`` the readings come from :func:`~settle.tiles.features.feature_search`
    (one per feature value, fewest substitutions, then one per fan set and rejection
    reason); without, from listing every reading.
    """
    context = _context(region, hand, options, by, situations)
    rules = _RULES[region]
    blocked = _blocked(context)
    if blocked:
        return Evaluation((), (), blocked)
    legal: list[ScoredReading] = []
    rejected: list[tuple[ScoredReading, str]] = []
    for fans, reason, reading in _scored(context, rules, distinct):
        scored = ScoredReading(reading, fans)
        if reason is None:
            legal.append(scored)
        else:
            rejected.append((scored, reason))
    if len(legal) > 1:
        legal.sort(key=_order)
    if len(rejected) > 1:
        rejected.sort(key=lambda item: _order(item[0]))
    return Evaluation(tuple(legal), tuple(rejected), None)


# --- context and validation ---------------------------------------------------------


def _context(
    region: str,
    hand: TileHand,
    options: Mapping[str, object] | None,
    by: str,
    situations: Iterable[str],
) -> _Context:
    if region not in _RULES:
        raise ValueError(f"bad region {region!r}: use one of {', '.join(REGIONS)}")
    if by not in WIN_BY:
        raise ValueError(f"bad win type by={by!r}: use one of {', '.join(WIN_BY)}")
    resolved = _resolve_options(region, options)
    stated = _check_situations(region, by, situations, hand) if situations else set()
    if region == "wuhan" and by == "robbed_kong":
        stated.add("qiangganghu")  # RULINGS G10: implied by robbed_kong, counted once
    cards = _wildcards(region, hand, resolved)
    wild = cards.wild
    melds = hand.melds
    meld_tiles = tuple(t for meld in melds for t in meld.tiles)
    _check_region_tiles(region, hand, meld_tiles, cards, resolved, by)
    return _Context(
        region=region,
        hand=hand,
        by=by,
        situations=frozenset(stated),
        options=resolved,
        cards=cards,
        wild=wild,
        wilds_in_hand=hand.concealed.count(wild) if wild is not None else 0,
        meld_tiles=meld_tiles,
        meld_suits=_suit_bits(meld_tiles),
        melds_all_258=all(IS_258[t] for t in meld_tiles),
        meld_has_chow=any(meld.kind == CHOW for meld in melds),
        claimed_melds=sum(bool(meld.claimed) for meld in melds),
    )


def _suit_bits(tiles: Iterable[int]) -> int:
    bits = 0
    for tile in tiles:
        bits |= SUIT_BIT[tile]
    return bits


def _resolve_options(region: str, options: Mapping[str, object] | None) -> Mapping[str, bool]:
    if not options:
        return OPTION_DEFAULTS[region]
    resolved = dict(OPTION_DEFAULTS[region])
    for name in resolved:
        if name in options:
            value = options[name]
            if not isinstance(value, bool):
                raise ValueError(f"option {name} must be true or false, got {value!r}")
            resolved[name] = value
    return resolved


def _check_situations(region: str, by: str, situations: Iterable[str], hand: TileHand) -> set[str]:
    stated = set(situations)
    allowed = SITUATIONS[region]
    for name in sorted(stated):
        if name not in allowed:
            derived = " (it is derived from the tiles)" if name in VOCABULARY[region] else ""
            raise ValueError(
                f"situation {name!r} is not one of {region}'s situational fans ({', '.join(sorted(allowed))}){derived}"
            )
        needed = SITUATION_NEEDS_BY.get(name)
        if needed is not None and by != needed:
            raise ValueError(f"situation {name!r} needs by={needed} (RULINGS G10), got by={by}")
    if stated & {"mobao", "baozhongbao"}:
        _check_bao_win(stated, hand)
    return stated


def _check_bao_win(stated: set[str], hand: TileHand) -> None:
    """摸宝/宝中宝 (seed 003 10-11): the winning tile is the 宝 tile."""
    names = ", ".join(sorted(stated & {"mobao", "baozhongbao"}))
    if hand.bao_tile is None:
        raise ValueError(f"situation {names} needs the bao_tile (搂宝, R9)")
    if hand.win_tile != hand.bao_tile:
        raise ValueError(
            f"situation {names} needs the winning tile to be the bao_tile "
            f"{format_tiles([hand.bao_tile])}, got {format_tiles([hand.win_tile])}"
        )


def _wildcards(region: str, hand: TileHand, options: Mapping[str, bool]) -> Wildcards:
    if region == "rushan":
        if hand.indicator is not None:
            raise ValueError("indicator: Rushan has no flipped wildcard indicator (use bao_tile)")
        if hand.bao_tile is not None and not options["loubao"]:
            raise ValueError("bao_tile is only played with option loubao 搂宝 (R9)")
        return rushan_bao(hand.bao_tile)
    if hand.bao_tile is not None:
        raise ValueError(f"bao_tile is Rushan's 搂宝 tile; {region} derives its wildcard from the indicator")
    if hand.indicator is None:
        # RULINGS G7: the wildcard changes hard and legality, so it is never guessed.
        raise ValueError(f"indicator: the flipped tile is required in {region} (it fixes the wildcard)")
    if region == "wuhan":
        return wuhan_wildcards(hand.indicator, facai_gang=options["facai_gang"])
    return wuxue_wildcards(hand.indicator)


def _check_region_tiles(
    region: str,
    hand: TileHand,
    meld_tiles: tuple[int, ...],
    cards: Wildcards,
    options: Mapping[str, bool],
    by: str,
) -> None:
    if hand.melds:
        _check_meld_tiles(region, hand, cards, options)
    wild = cards.wild
    if wild is not None and hand.win_tile == wild and by != "self_draw":
        # seed 004 癞子 3; seed 000 2.3④: a discarded wildcard cannot be won on.
        raise ValueError(f"win_tile {format_tiles([wild])} is the wildcard: it can only be self-drawn")
    if region == "wuxue" and hand.indicator is not None:
        # seed 000 2.2①: the flipped tile is out of play, 3 copies are left.
        count = hand.concealed.count(hand.indicator) + meld_tiles.count(hand.indicator)
        if count > 3:
            raise ValueError(
                f"{count} copies of the flipped indicator {format_tiles([hand.indicator])}: "
                f"it is out of play, 3 are left (seed 000 2.2①)"
            )
    if region == "rushan" and options["no_honors"] and any(t >= 27 for t in (*hand.concealed, *meld_tiles)):
        raise ValueError("option no_honors 不带风: honour tiles are not in play (R9)")


def _check_meld_tiles(region: str, hand: TileHand, cards: Wildcards, options: Mapping[str, bool]) -> None:
    for meld in hand.melds:
        if region == "rushan" and options["no_chow"] and meld.kind == CHOW:
            raise ValueError(f"meld {meld.describe()}: option no_chow 只碰不吃 allows no chow (R9)")
        if region == "wuhan":
            # seed 004: 不能吃碰杠红中 (发财 likewise), 不能吃碰杠癞子.
            barred = cards.forbidden | {cards.wild}
        elif region == "wuxue" and meld.kind in (PUNG, KONG):
            # seed 000 2.3④: discarded 宝/癞子皮 cannot be claimed, nor konged concealed.
            barred = cards.forbidden | {cards.wild}
        else:
            continue
        if barred & set(meld.tiles):
            raise ValueError(
                f"meld {meld.describe()}: {region} cannot meld {format_tiles(sorted(barred & set(meld.tiles)))}"
            )


def _blocked(context: _Context) -> str | None:
    """Hand-level bans: holding a 红中/发财 (H8) or a 癞子皮 (W15) forbids any win.

    H8 bans a held 发财 whatever ``facai_gang`` says (its words have no condition), so with the
    H12 variant a 发 癞子 in hand forbids the win too; option ``facai_blocks_win: false`` lets a
    table that plays 发 as an ordinary tile win with it.
    """
    forbidden = context.cards.forbidden
    if context.region == "wuhan" and context.options["facai_blocks_win"]:
        forbidden = forbidden | {FA}
    held = sorted(set(context.hand.concealed) & forbidden)
    if not held:
        return None
    rule = {"wuhan": "红中/发财 (H8, seed 004 红中/发财)", "wuxue": "癞子皮 (W15, seed 000 2.3②)"}
    return f"holds {format_tiles(held)}: a hand holding {rule[context.region]} cannot win"


# --- readings -------------------------------------------------------------------------


def _scored(context: _Context, rules: _Rules, distinct: bool) -> list[tuple[frozenset[str], str | None, Reading]]:
    """(fans, rejection reason or None, reading) of every reading, or with ``distinct``
    of one reading per (fans, reason): the one with fewest substitutions, built last."""
    if not distinct:
        return [_judge(context, rules, features_of(r), r) for r in _all_readings(context, rules)]
    kept: dict[tuple[frozenset[str], str | None], tuple[tuple[int, int], Features, object]] = {}
    for features, subs, payload in _feature_candidates(context, rules):
        fans, reason, _ = _judge(context, rules, features, None)
        rank = (subs, _SHAPE_ORDER[features.shape])
        held = kept.get((fans, reason))
        if held is None or rank < held[0]:
            kept[(fans, reason)] = (rank, features, payload)
    return [
        (fans, reason, payload if isinstance(payload, Reading) else materialise(features.shape, payload, context.wild))
        for (fans, reason), (_, features, payload) in kept.items()
    ]


def _judge(
    context: _Context, rules: _Rules, features: Features, reading: Reading | None
) -> tuple[frozenset[str], str | None, Reading | None]:
    fans = frozenset(rules.fans(context, features))
    return fans, rules.illegal(context, features, fans), reading


def _feature_candidates(context: _Context, rules: _Rules) -> list[tuple[Features, int, object]]:
    """(features, substitutions, parts or a loose reading) from the feature search."""
    hand, wild = context.hand, context.wild
    counts = [0] * 34
    for tile in hand.concealed:
        counts[tile] += 1
    if wild is not None:
        counts[wild] = 0
    seven_pairs = rules.seven_pairs and not hand.melds
    found = feature_search(counts, context.wilds_in_hand, wild, seven_pairs=seven_pairs)
    candidates: list[tuple[Features, int, object]] = [(f, subs, parts) for f, (subs, parts) in found.items()]
    for reading in _loose_readings(context, rules):
        candidates.append((features_of(reading), reading.substitutions, reading))
    return candidates


def _all_readings(context: _Context, rules: _Rules) -> list[Reading]:
    seven_pairs = rules.seven_pairs and not context.hand.melds
    readings = enumerate_readings(context.hand.concealed, context.wild, seven_pairs=seven_pairs)
    return readings + _loose_readings(context, rules)


def _loose_readings(context: _Context, rules: _Rules) -> list[Reading]:
    found = (_loose_reading(context, fan) for fan in rules.loose(context))
    return [reading for reading in found if reading is not None]


def _loose_reading(context: _Context, fan: str) -> Reading | None:
    """乱将/乱风: every tile qualifies; wildcards are themselves when they qualify."""
    qualifying = _QUALIFYING[fan]
    wild = context.wild
    held = set(context.hand.concealed)
    held.discard(wild)  # type: ignore[arg-type]
    if not (held <= qualifying and qualifying.issuperset(context.meld_tiles)):
        return None
    real = [t for t in context.hand.concealed if t != wild]
    value = wild if wild in qualifying else _LOOSE_STAND_IN[fan]
    return loose_reading(real, [value] * context.wilds_in_hand, wild)


_QUALIFYING: Mapping[str, frozenset[int]] = {
    "jiangyise": frozenset(t for t in range(34) if is_258(t)),
    "fengyise": frozenset(range(27, 34)),
}


# --- fan predicates shared by the regions -------------------------------------------

Predicate = Callable[[_Context, Features], bool]


def _is_qingyise(context: _Context, features: Features) -> bool:
    """清一色: one suit of 万/筒/条, melds included, in a winning shape."""
    return features.shape != LOOSE and (features.suits | context.meld_suits) in _ONE_SUIT


def _is_fengyise(context: _Context, features: Features) -> bool:
    """风一色: honours only, melds included (a loose reading only exists where allowed)."""
    return (features.suits | context.meld_suits) == HONOUR_BIT


def _is_jiangyise(context: _Context, features: Features) -> bool:
    """将一色: every tile a suited 2/5/8, melds included; no shape needed."""
    return features.all_258 and context.melds_all_258


def _is_pengpenghu(context: _Context, features: Features) -> bool:
    """碰碰胡: pungs/kongs only plus the pair."""
    return features.pungs_only and not context.meld_has_chow


def _is_quanqiuren(context: _Context, features: Features) -> bool:
    """全求人: four claimed melds, a single-wait pair won on a discard (G10)."""
    return features.shape == STANDARD and context.claimed_melds == 4 and context.by == "discard"


def _is_hard(context: _Context, features: Features) -> bool:
    """硬胡: no wildcard in hand, or every one read as itself (H8, W16)."""
    return features.hard


def _table_fans(context: _Context, features: Features, table: Mapping[str, Predicate]) -> set[str]:
    return {name for name, applies in table.items() if applies(context, features)}


_ONE_SUIT = frozenset({1, 2, 4})


# --- Wuhan ----------------------------------------------------------------------------

_WUHAN_TABLE: Mapping[str, Predicate] = {
    "pengpenghu": _is_pengpenghu,
    "quanqiuren": _is_quanqiuren,
    "qingyise": _is_qingyise,
    "jiangyise": _is_jiangyise,
    "fengyise": _is_fengyise,
    "hard": _is_hard,
}


def _wuhan_fans(context: _Context, features: Features) -> set[str]:
    """Wuhan fans (H3 H8): big hands from the tiles, ``hard``, and the situations."""
    return _table_fans(context, features, _WUHAN_TABLE) | context.situations


def _wuhan_illegal(context: _Context, features: Features, fans: frozenset[str]) -> str | None:
    """H8: a 2/5/8 pair unless 碰碰胡/清一色/将一色/风一色; two 癞子 forbid a 小胡."""
    if not fans & BIG_HANDS["wuhan"] and context.wilds_in_hand >= 2:
        return "two 癞子 in hand forbid a 小胡 (H8, seed 004 癞子 5)"
    if features.shape == STANDARD and not features.pair_258 and not fans & PAIR_258_EXEMPT["wuhan"]:
        return "the pair must be 2/5/8 except in 碰碰胡, 清一色, 将一色, 风一色 (H8)"
    return None


# --- Wuxue ----------------------------------------------------------------------------

_WUXUE_TABLE: Mapping[str, Predicate] = {
    "qingyise": _is_qingyise,
    "jiangyise": _is_jiangyise,
    # seed 000 3.2④: 风一色 is a winning shape, never loose.
    "fengyise": lambda context, features: features.shape != LOOSE and _is_fengyise(context, features),
    "pengpenghu": _is_pengpenghu,
    # W12 / seed 000 2.8①, 3.2⑥: 全求人 is a 2/5/8 single wait.
    "quanqiuren": lambda context, features: _is_quanqiuren(context, features) and features.pair_258,
    "hard": _is_hard,
    # seed 000 3.3②: four 宝 in hand.
    "sibao": lambda context, features: context.wilds_in_hand == 4,
}


def _wuxue_fans(context: _Context, features: Features) -> set[str]:
    """Wuxue fans (W2 W16): big hands, 七对 level, ``hard``, ``sibao`` and situations."""
    fans = _table_fans(context, features, _WUXUE_TABLE) | context.situations
    if features.shape == SEVEN_PAIRS:
        # W2: 豪华 levels replace 七对, by the number of four-of-a-kinds.
        fans.add(SEVEN_PAIRS_LEVELS[min(features.quads, 3)])
    return fans


def _wuxue_illegal(context: _Context, features: Features, fans: frozenset[str]) -> str | None:
    """W12 W15: a 屁胡 needs a 2/5/8 pair, and two 宝 forbid it except 杠开/抢杠胡."""
    if fans & BIG_HANDS["wuxue"]:
        return None
    if not features.pair_258:
        return "a 屁胡 needs a 2/5/8 pair (W12, seed 000 3.1①)"
    excused = "gangkai" in context.situations or context.by == "robbed_kong"
    if context.wilds_in_hand >= 2 and not excused:
        return "two 宝 in hand forbid a 屁胡 except 杠开 or 抢杠胡 (W15, seed 000 2.3③)"
    return None


# --- Rushan ---------------------------------------------------------------------------


def _rushan_base(context: _Context, features: Features) -> str:
    """R1: 七对 2, 碰碰胡 2, otherwise 屁胡 1 (a loose 风一色/将一色 hand is a 屁胡)."""
    if features.shape == SEVEN_PAIRS:
        return "qidui"
    return "pengpenghu" if _is_pengpenghu(context, features) else "pihu"


_RUSHAN_TABLE: Mapping[str, Predicate] = {
    "qingyise": _is_qingyise,
    "fengyise": _is_fengyise,
    # R9: 将一色 only with jiang258.
    "jiangyise": lambda context, features: context.options["jiang258"] and _is_jiangyise(context, features),
    # R3 R3b: only with menqing_yitiaolong; 一条龙 of concealed chows only.
    "yitiaolong": lambda context, features: context.options["menqing_yitiaolong"] and features.dragon,
    # R3: 门清 = a self-draw without 吃/碰/明杠 (a concealed kong is no claim).
    "menqing": lambda context, features: (
        context.options["menqing_yitiaolong"] and context.claimed_melds == 0 and context.by == "self_draw"
    ),
}


def _rushan_fans(context: _Context, features: Features) -> set[str]:
    """Rushan base and multipliers (R1 R2 R3 R3b R9) plus the situations."""
    fans = _table_fans(context, features, _RUSHAN_TABLE) | context.situations
    fans.add(_rushan_base(context, features))
    return fans


def _rushan_illegal(context: _Context, features: Features, fans: frozenset[str]) -> str | None:
    """R9 jiang258: 屁胡/七对/碰碰胡 need a 2/5/8 pair, 风一色 too (its base is one of them, R1)."""
    if not context.options["jiang258"] or fans & PAIR_258_EXEMPT["rushan"] or features.pair_258:
        return None
    return "option jiang258: the hand needs a 2/5/8 pair (R9, seed 003 258将)"


# --- region table ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Rules:
    fans: Callable[[_Context, Features], set[str]]
    illegal: Callable[[_Context, Features, frozenset[str]], str | None]
    seven_pairs: bool
    loose: Callable[[_Context], tuple[str, ...]]


_RULES: Mapping[str, _Rules] = {
    # seed 004: 武汉麻将没有7对子; 风一色/将一色 are 乱风乱将 (no shape).
    "wuhan": _Rules(_wuhan_fans, _wuhan_illegal, False, lambda context: ("jiangyise", "fengyise")),
    # seed 000 3.2③: 将一色 可以不符合胡牌牌型; 风一色 is a 胡牌牌型.
    "wuxue": _Rules(_wuxue_fans, _wuxue_illegal, True, lambda context: ("jiangyise",)),
    # seed 003: 风一色 直接胡牌 (必须有对子: 风一色不限); 将一色 就可以胡牌, with jiang258 only.
    "rushan": _Rules(
        _rushan_fans,
        _rushan_illegal,
        True,
        lambda context: ("fengyise", "jiangyise") if context.options["jiang258"] else ("fengyise",),
    ),
}


# --- output order -------------------------------------------------------------------


def _order(scored: ScoredReading) -> tuple:
    reading = scored.reading
    return (
        -len(scored.fans),
        tuple(sorted(scored.fans)),
        reading.substitutions,
        _SHAPE_ORDER[reading.shape],
        reading.groups,
        reading.tiles,
    )


def describe(scored: ScoredReading) -> str:
    """One line for explanations: ``standard 22m 345m ... | wildcards read as 3m | fans: hard``."""
    reading = scored.reading
    body = " ".join(format_tiles(g) for g in reading.groups) or format_tiles(reading.tiles)
    wild = f" | wildcards read as {format_tiles(reading.wild_values)}" if reading.wild_values else ""
    return f"{reading.shape} {body}{wild} | fans: {', '.join(sorted(scored.fans)) or '-'}"
