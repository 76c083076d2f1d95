"""Shape fans and tile-level legality of each reading, for any rule set.

:func:`evaluate` takes a region's :class:`~settle.tiles.rules.TileRules` (``TILE_RULES`` of
``settle/rules/<key>/tiles.py``), the winner's :class:`~settle.tiles.hand.TileHand`, the
region's tile options, how the hand was won (``by``) and the situational fans the table states
(杠上花, 海底捞 ...: they cannot be seen in the tiles), and returns every legal reading with
its fan set, in the region's vocabulary of RULINGS.md (Wuhan H3 H8 H12, Wuxue W2 W12 W15 W16,
Rushan R1-R3b R9; each region's tiles module says which).

The caller settles each reading and keeps the best. Region rules that need facts beyond the
tiles (开口 requirements H8/W12, G10's dealer checks) stay with the caller.  Bad input raises
:class:`~settle.tiles.errors.TileError` at the key it is about.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from settle.core.steps import Step
from settle.tiles.errors import TileError
from settle.tiles.features import (
    IS_258,
    SUIT_BIT,
    Features,
    Part,
    feature_search,
    features_of,
    materialise,
    plain_tile_search,
)
from settle.tiles.hand import CHOW, TileHand
from settle.tiles.notation import format_tiles, is_258
from settle.tiles.quick import quick_init
from settle.tiles.readings import LOOSE, SEVEN_PAIRS, STANDARD, Group, Reading, enumerate_readings, loose_reading
from settle.tiles.rules import WIN_BY, TileContext, TileRules, reason, reason_key

_SHAPE_ORDER = {STANDARD: 0, SEVEN_PAIRS: 1, LOOSE: 2}
# Tile a wildcard is read as in a loose hand when it cannot be itself: any qualifying
# tile gives the same fans, the lowest is taken (二万 for 将一色, 东 for 风一色).
_LOOSE_STAND_IN = {"jiangyise": 1, "fengyise": 27}

NO_WINNING_SHAPE = reason("no_winning_shape")
"""Why a hand with no reading of a winning shape cannot win."""


@quick_init
@dataclass(frozen=True)
class ScoredReading:
    """A reading and the fan keys it earns (situations included; Rushan: its base too)."""

    reading: Reading
    fans: frozenset[str]


@quick_init
@dataclass(frozen=True)
class Evaluation:
    """All of :func:`evaluate_all`'s findings.

    ``legal``: readings that may be won, best-looking first (most fans).
    ``rejected``: readings of a winning shape that a legality rule forbids, with the rule's
    reason (a :class:`~settle.core.steps.Step`, worded by :data:`settle.tiles.messages.TILES`).
    ``blocked``: why no reading can win at all (e.g. holding 红中, H8), else None.
    """

    legal: tuple[ScoredReading, ...]
    rejected: tuple[tuple[ScoredReading, Step], ...] = ()
    blocked: Step | None = None

    def why_not_steps(self) -> tuple[Step, ...]:
        """Why the hand cannot win, as reason steps (empty when it can)."""
        if self.legal:
            return ()
        if self.blocked:
            return (self.blocked,)
        if self.rejected:
            # The reason of the reading closest to the tiles as held (fewest wildcard substitutions)
            # first: with two 宝 used as themselves, "two 宝 forbid a 屁胡" before the other readings'.
            nearest: dict[Step, tuple[int, tuple[str, str]]] = {}
            for scored, why in self.rejected:
                key = (scored.reading.substitutions, reason_key(why))
                nearest[why] = min(nearest.get(why, key), key)
            return tuple(sorted(nearest, key=nearest.__getitem__))
        return (NO_WINNING_SHAPE,)

    def why_not(self, lang: str = "en") -> str | None:
        """Why the hand cannot win in words (None when it can), for the caller's error message."""
        steps = self.why_not_steps()
        return "; ".join(reason_text(s, lang) for s in steps) if steps else None


@lru_cache(maxsize=4096)
def reason_text(item: Step, lang: str = "en") -> str:
    """The words of a reason step (a rejected reading, a blocked hand) in ``lang`` (reasons are
    hashable and few: their words are kept)."""
    from settle.tiles.messages import TILES

    return TILES.text(item, lang)


def evaluate(
    rules: TileRules,
    hand: TileHand,
    options: Mapping[str, object] | None = None,
    by: str = "self_draw",
    situations: Iterable[str] = (),
    *,
    distinct: bool = True,
) -> list[ScoredReading]:
    """Every legal reading of ``hand`` with its fans; empty when the hand cannot win.

    ``rules``: the region's :class:`~settle.tiles.rules.TileRules`. ``options``: the tile-level
    options (``rules.option_defaults``: facai_gang H12; jiang258, no_honors, menqing_yitiaolong,
    no_chow, loubao R3 R9); other keys are ignored. ``by``: ``self_draw``, ``discard`` or
    ``robbed_kong``. ``situations``: the situational fans the table states (``rules.situations``),
    checked against ``by`` (G10); fans ``by`` implies (``rules.implied``: Wuhan's ``qiangganghu``
    on ``robbed_kong``) are added. Each result's ``fans`` are region keys (RULINGS H3, W2, R1 R2),
    situations included. With ``distinct`` (default) one reading per distinct fan set is kept,
    the one with the fewest wildcard substitutions; without, every legal reading. Raises
    :class:`~settle.tiles.errors.TileError` for impossible input (bad option or situation, a
    melded 红中, a discarded wildcard won on, a missing indicator ...).
    """
    return list(evaluate_all(rules, hand, options, by, situations, distinct=distinct).legal)


def evaluate_all(
    rules: TileRules,
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
    context = _context(rules, hand, options, by, situations)
    blocked = rules.blocked(context)
    if blocked:
        return Evaluation((), (), blocked)
    found = _scored(context, rules, distinct)
    if len(found) == 1:  # one reading (the usual case): no lists to fill and sort
        fans, why, reading = found[0]
        scored = ScoredReading(reading, fans)
        return Evaluation((scored,), (), None) if why is None else Evaluation((), ((scored, why),), None)
    legal: list[ScoredReading] = []
    rejected: list[tuple[ScoredReading, Step]] = []
    for fans, why, reading in found:
        scored = ScoredReading(reading, fans)
        if why is None:
            legal.append(scored)
        else:
            rejected.append((scored, why))
    if len(legal) > 1:
        legal.sort(key=_order)
    if len(rejected) > 1:
        rejected.sort(key=lambda item: _order(item[0]))
    return Evaluation(tuple(legal), tuple(rejected), None)


# --- context and validation ---------------------------------------------------------


def _context(
    rules: TileRules,
    hand: TileHand,
    options: Mapping[str, object] | None,
    by: str,
    situations: Iterable[str],
) -> TileContext:
    if by not in WIN_BY:
        raise TileError(f"bad win type by={by!r}: use one of {', '.join(WIN_BY)}", kind="bad_by",
                        values={"by": repr(by), "allowed": ", ".join(WIN_BY)})
    # no options, or the region's defaults (the usual hand): the defaults, as resolve_options gives them
    resolved = rules.option_defaults if not options or options is rules.option_defaults \
        else rules.resolve_options(options)
    implied = rules.implied.get(by)
    stated: frozenset[str]
    if situations:
        given = rules.check_situations(by, situations, hand)
        if implied:
            given |= implied  # RULINGS G10: implied by the win type, counted once
        stated = frozenset(given)
    else:  # none stated (the usual case): the implied ones alone
        stated = frozenset(implied) if implied else _NO_SITUATIONS
    cards = rules.wildcards(hand, resolved)
    wild = cards.wild
    melds = hand.melds
    if melds:
        meld_tiles = tuple(t for meld in melds for t in meld.tiles)
        meld_facts = (_suit_bits(meld_tiles), all(IS_258[t] for t in meld_tiles),
                      any(meld.kind == CHOW for meld in melds), sum(bool(meld.claimed) for meld in melds))
    else:  # a closed hand: no meld tiles, suits or claims
        meld_tiles, meld_facts = (), _NO_MELD_FACTS
    context = TileContext(
        rules,
        hand,
        by,
        stated,
        resolved,
        cards,
        wild,
        hand.concealed.count(wild) if wild is not None else 0,
        meld_tiles,
        *meld_facts,
    )
    rules.check_tiles(context)
    return context


_NO_SITUATIONS: frozenset[str] = frozenset()
"""The situations of a hand that states none and whose win type implies none."""
_NO_MELD_FACTS = (0, True, False, 0)
"""The meld facts of a hand without melds: (suit bits, all 2/5/8, a chow among them, claimed melds)."""


def _suit_bits(tiles: Iterable[int]) -> int:
    bits = 0
    for tile in tiles:
        bits |= SUIT_BIT[tile]
    return bits


# --- readings -------------------------------------------------------------------------


def _scored(
    context: TileContext, rules: TileRules, distinct: bool
) -> list[tuple[frozenset[str], Step | None, Reading]]:
    """(fans, rejection reason or None, reading) of every reading, or with ``distinct``
    of one reading per (fans, reason): the one with fewest substitutions, built last."""
    if not distinct:
        return _every_reading(context, rules)
    fans_of, illegal = rules.fans, rules.illegal
    wild = context.wild
    # No wildcard in hand: a reading's tiles are the concealed tiles as held (sorted by TileHand).
    tiles = context.hand.concealed if not context.wilds_in_hand else None
    candidates = _feature_candidates(context, rules)
    if len(candidates) == 1:  # one reading of the tiles (the usual case): nothing to keep it from
        features, _, payload = candidates[0]
        fans = frozenset(fans_of(context, features))
        return [(fans, illegal(context, features, fans),
                 payload if isinstance(payload, Reading) else materialise(features.shape, payload, wild, tiles))]
    kept: dict[tuple[frozenset[str], Step | None], tuple[tuple[int, int], Features, _Payload]] = {}
    for features, subs, payload in candidates:
        fans = frozenset(fans_of(context, features))  # as _judge
        key = (fans, illegal(context, features, fans))
        rank = (subs, _SHAPE_ORDER[features.shape])
        held = kept.get(key)
        if held is None or rank < held[0]:
            kept[key] = (rank, features, payload)
    out = []  # (a loop: a comprehension reading ``wild`` and ``tiles`` would make cells at every call)
    for (fans, why), (_, features, payload) in kept.items():
        out.append((fans, why,
                    payload if isinstance(payload, Reading) else materialise(features.shape, payload, wild, tiles)))
    return out


def _every_reading(context: TileContext, rules: TileRules) -> list[tuple[frozenset[str], Step | None, Reading]]:
    """:func:`_scored` without ``distinct``: every reading, judged."""
    return [(*_judge(context, rules, features_of(r)), r) for r in _all_readings(context, rules)]


def _judge(context: TileContext, rules: TileRules, features: Features) -> tuple[frozenset[str], Step | None]:
    fans = frozenset(rules.fans(context, features))
    return fans, rules.illegal(context, features, fans)


_Payload = tuple[Part, ...] | Reading
"""What a candidate reading is kept as: the search's parts (built by :func:`materialise` only if
kept), or a loose reading, built already."""


def _feature_candidates(context: TileContext, rules: TileRules) -> list[tuple[Features, int, _Payload]]:
    """(features, substitutions, parts or a loose reading) from the feature search."""
    hand, wild = context.hand, context.wild
    seven_pairs = rules.seven_pairs and not hand.melds
    if not context.wilds_in_hand:  # no wildcard held (the usual case): the tiles are the real tiles
        found = plain_tile_search(hand.concealed, seven_pairs=seven_pairs)
    else:
        counts = [0] * 34
        for tile in hand.concealed:
            counts[tile] += 1
        if wild is not None:
            counts[wild] = 0
        found = feature_search(counts, context.wilds_in_hand, wild, seven_pairs=seven_pairs)
    candidates: list[tuple[Features, int, _Payload]] = []
    for features, (subs, parts) in found.items():  # loops, not comprehensions: fewer calls per hand
        candidates.append((features, subs, parts))
    concealed = hand.concealed
    first = concealed[0] if concealed else wild
    for fan in rules.loose(context):  # _loose_readings
        if first != wild and first not in _QUALIFYING[fan]:
            continue  # the first tile does not qualify: no loose reading (as _loose_reading finds)
        reading = _loose_reading(context, fan)
        if reading is not None:
            candidates.append((features_of(reading), reading.substitutions, reading))
    return candidates


def _all_readings(context: TileContext, rules: TileRules) -> list[Reading]:
    seven_pairs = rules.seven_pairs and not context.hand.melds
    readings = enumerate_readings(context.hand.concealed, context.wild, seven_pairs=seven_pairs)
    return readings + _loose_readings(context, rules)


def _loose_readings(context: TileContext, rules: TileRules) -> list[Reading]:
    found = []
    for fan in rules.loose(context):
        reading = _loose_reading(context, fan)
        if reading is not None:
            found.append(reading)
    return found


def _loose_reading(context: TileContext, fan: str) -> Reading | None:
    """乱将/乱风: every tile qualifies; wildcards are themselves when they qualify."""
    qualifying = _QUALIFYING[fan]
    wild = context.wild
    for tile in context.hand.concealed:  # sorted: most hands fail on the first tile
        if tile not in qualifying and tile != wild:
            return None
    if not qualifying.issuperset(context.meld_tiles):
        return None
    real = [t for t in context.hand.concealed if t != wild]
    value = wild if wild in qualifying else _LOOSE_STAND_IN[fan]
    return loose_reading(real, [value] * context.wilds_in_hand, wild)


_QUALIFYING: Mapping[str, frozenset[int]] = {
    "jiangyise": frozenset(t for t in range(34) if is_258(t)),
    "fengyise": frozenset(range(27, 34)),
}


# --- output order -------------------------------------------------------------------


def _order(scored: ScoredReading) -> tuple[int, tuple[str, ...], int, int, tuple[Group, ...], tuple[int, ...]]:
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
