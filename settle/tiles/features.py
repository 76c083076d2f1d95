"""What the fans of every region read off a reading, and a fast search in that space.

Every shape fan and legality rule of the three regions (RULINGS H3 H8, W2 W12 W16,
R1-R3 R9) depends on a reading only through :class:`Features`: the suits present,
whether every tile is a 2/5/8, whether every set is a pung, whether the pair is a
2/5/8, whether no wildcard was substituted, whether 123-456-789 of a suit is there,
and the number of four-of-a-kinds in seven pairs.

:func:`features_of` computes them for one reading. :func:`best_readings` (and
:func:`feature_search`, which defers building the readings) finds every reachable
:class:`Features` value directly, keeping for each the reading with the fewest
substitutions, without listing every reading. Each suit is summarised by its
*classes*: its readings merged by what fans can tell apart.  Without wildcards they come
from a precomputed table of every suit pattern that splits into sets and at most one
pair (:func:`plain_classes`, read at first use from the tables settle ships, or built when those
cannot be read: a new hand costs what a hand already seen costs, and a pattern not in the table
cannot win); with wildcards they are
memoised per suit pattern (split into blocks that share no chow, so new patterns reuse
old blocks).  The suits are then combined by a small dynamic programme over the
wildcards used. It returns exactly the feature values that listing every reading with
:func:`~settle.tiles.readings.enumerate_readings` gives (a property test checks it).
"""

from __future__ import annotations

import pickle
import threading
import zlib
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, NamedTuple

from settle.core.collector import collector_paused
from settle.tiles.readings import (
    SEVEN_PAIRS,
    STANDARD,
    Group,
    Reading,
    anchored_groups,
    make_reading,
)
from settle.tiles.shapes import MAX_WILDS, WIN_SIZES, split_blocks

SUIT_BIT = tuple(1 << (t // 9) for t in range(34))
HONOUR_BIT = 1 << 3
IS_258 = tuple(t < 27 and t % 9 in (1, 4, 7) for t in range(34))
DRAGON_STARTS = (0, 3, 6)  # 一条龙: 123 456 789 (seed 003 13)
_SUIT_STARTS = ((0, 9), (9, 18), (18, 27), (27, 34))
_NO_DRAGON = -1
_FULL_DRAGON = -2


class Features(NamedTuple):
    """The facts of a reading that fans and legality use (concealed tiles only).

    ``suits``: bit s for suit s present (1 万, 2 筒, 4 条, 8 honours).
    ``pair_258``: standard: the pair is a 2/5/8; seven pairs: some pair is.
    ``hard``: no wildcard read as another tile (H8, W16).
    ``dragon``: concealed 123, 456 and 789 of one suit (R3).
    ``quads``: seven pairs: four-of-a-kinds among the pairs (W2 豪华).
    """

    shape: str
    suits: int
    all_258: bool
    pungs_only: bool
    pair_258: bool
    hard: bool
    dragon: bool
    quads: int


def features_of(reading: Reading) -> Features:
    """The :class:`Features` of one reading."""
    tiles = reading.tiles
    suits = 0
    for tile in set(tiles):
        suits |= SUIT_BIT[tile]
    return Features(
        reading.shape,
        suits,
        all(IS_258[t] for t in tiles),
        reading.shape == STANDARD and all(g[0] == g[1] for g in reading.sets),
        any(IS_258[p[0]] for p in reading.pairs),
        reading.substitutions == 0,
        has_dragon(reading.sets),
        count_quads(reading.pairs) if reading.shape == SEVEN_PAIRS else 0,
    )


def has_dragon(sets: Iterable[Group]) -> bool:
    """一条龙: 123, 456 and 789 of one suit among ``sets`` (seed 003 13, R3)."""
    chows = {g[0] for g in sets if g[0] != g[1]}
    return any(all(suit + d in chows for d in DRAGON_STARTS) for suit in (0, 9, 18))


def count_quads(pairs: Iterable[Group]) -> int:
    """Four-of-a-kinds in seven pairs: two pairs of one tile (seed 000 3.2⑦-⑨)."""
    return sum(n // 2 for n in Counter(p[0] for p in pairs).values())


def best_readings(
    counts: Sequence[int], wilds: int, wild: int | None, *, seven_pairs: bool = False
) -> dict[Features, Reading]:
    """Every reachable :class:`Features` with a reading of fewest substitutions.

    ``counts``: real concealed tiles (the wild tile removed), ``wilds`` copies of
    ``wild`` in hand. Standard and (if allowed) seven-pairs shapes; empty if no win.
    """
    found = feature_search(counts, wilds, wild, seven_pairs=seven_pairs)
    return {features: materialise(features.shape, parts, wild) for features, (_, parts) in found.items()}


def feature_search(
    counts: Sequence[int], wilds: int, wild: int | None, *, seven_pairs: bool = False
) -> dict[Features, tuple[int, tuple[Part, ...]]]:
    """As :func:`best_readings`, giving (substitutions, parts) for :func:`materialise`,
    so a caller builds only the readings it keeps."""
    size = sum(counts) + wilds
    if size not in WIN_SIZES or not 0 <= wilds <= MAX_WILDS:
        return {}
    found: dict[Features, tuple[int, tuple[Part, ...]]] = {}
    counts = tuple(counts)
    if wilds:
        _standard_search(counts, wilds, wild, found)
    else:
        _plain_search(counts, found)
    if seven_pairs and size == 14:
        _seven_pairs_search(counts, wilds, wild, found)
    return found


def plain_tile_search(tiles: Sequence[int], *, seven_pairs: bool = False) -> _Found:
    """:func:`feature_search` of a hand without wildcards given as its tiles, sorted (each tile at most 4
    times, as a :class:`~settle.tiles.hand.TileHand` holds them): the same findings (features, and parts
    that :func:`materialise` makes the same readings of), without counting the tiles into 34 places first.
    Each suit's tiles are a run of the sorted tiles (found by bisection) and, as bytes of their places in
    the suit, its pattern's key in :func:`suit_flags` (the classes of :func:`plain_codes`, their groups in
    the suit); every count even is the tiles pairing up two by two (seven pairs).  When each suit reads one
    way (most hands) the features are the suits' flags ORed, looked up in :data:`_PLAIN_FEATURES` (one
    object per value), and the reading's groups are the suits' groups one after another (one part, at
    offset 0); otherwise the suits' classes are combined (:func:`_combine_plain`)."""
    size = len(tiles)
    found: dict[Features, tuple[int, tuple[Part, ...]]] = {}
    if size not in WIN_SIZES:
        return found
    held = bytes(tiles)
    local = held.translate(_LOCAL_TILES)  # each suit's run of it, its pattern's key
    suits = flags = pairs = low = 0
    groups: tuple[Group, ...] | None = ()
    several = False
    for end, bit, table in _SUIT_SEARCH or _suit_flags():
        high = bisect_left(tiles, end, low)
        if high != low:  # an empty suit adds nothing
            entries = table.get(local[low:high])
            if entries is None:  # no reading into sets and a pair
                groups = None
                break
            suits |= bit
            if len(entries) == 1:
                suit_flags, suit_groups = entries[0]
                flags |= suit_flags
                pairs += suit_flags & _PAIR_FLAG
                groups += suit_groups  # type: ignore[operator]
            else:
                several = True
            low = high
    if groups is not None:
        if several:  # a suit that reads several ways: its classes combined with the others'
            _combine_plain(_chosen_classes(sum(map(_DIGIT.__getitem__, tiles))), suits, True, found)
        elif pairs == _PAIR_FLAG:
            found[_PLAIN_FEATURES[suits << _FLAG_BITS | flags]] = (0, ((0, groups, ()),))
    if seven_pairs and size == 14 and held[::2] == held[1::2]:  # every count even (else no seven pairs)
        counts = [0] * 34
        for tile in tiles:
            counts[tile] += 1
        _seven_pairs_search(tuple(counts), 0, None, found)
    return found


def _chosen_classes(code: int) -> list[tuple[int, list[_SuitClass]]]:
    """Each suit present in ``code`` (a hand's 4-bit digits, every suit's pattern in the tables): its first
    tile and its classes (:func:`plain_codes`), in suit order."""
    chosen = []
    for start, (shift, mask, bit) in zip(_SUIT_STARTS, _SUIT_DIGITS, strict=True):
        pattern = (code >> shift) & mask
        if pattern:
            chosen.append((start[0], plain_codes(7 if bit == HONOUR_BIT else 9)[pattern]))
    return chosen


_DIGIT = tuple(1 << (4 * t) for t in range(34))
"""Tile ``t`` as digit ``t`` of the 4-bit digits :func:`plain_tile_search` sums the tiles into when a suit
reads several ways (:func:`_chosen_classes` reads each suit's pattern off them)."""
_SUIT_DIGITS = ((0, (1 << 36) - 1, 1), (36, (1 << 36) - 1, 2), (72, (1 << 36) - 1, 4), (108, (1 << 28) - 1, HONOUR_BIT))
"""Where each suit's digits are (shift, mask: 9 digits a suit, 7 the honours), and its suit bit."""

# A suit class as :func:`plain_flags` keeps it: its facts as bits (ORed over the suits, but for the pair,
# which is counted) and its groups (local tiles).
_PAIR_FLAG, _NOT_258_FLAG, _CHOW_FLAG, _PAIR_258_FLAG, _DRAGON_FLAG = 1, 2, 4, 8, 16
_FLAG_BITS = 5
_Flags = dict[bytes, tuple[tuple[int, tuple[Group, ...]], ...]]
_SUIT_FLAGS: list[_Flags] = []
""":func:`suit_flags`, once built."""
_SUIT_SEARCH: list[tuple[int, int, _Flags]] = []
"""Each suit's end (the first tile past it), its suit bit and its table (:func:`suit_flags`), once built."""


def suit_flags() -> list[_Flags]:
    """Each suit's table (万, 筒, 条, honours): :func:`plain_codes` of its size keyed by each pattern's tiles
    in the suit (0-8, honours 0-6), sorted, as bytes (``11234`` of any suit is ``bytes([0, 0, 1, 2, 3])``; the
    three suits' tables share their keys), with each class as ``(flags, groups)``: a pair (1), not all 2/5/8
    (2), a chow (4), the pair a 2/5/8 (8), 123-456-789 (16), and its groups in that suit (tile ids), in the
    same order.  Built with the tables at first use (a
    pattern not in them has no reading into sets and a pair)."""
    if not _SUIT_FLAGS:
        _suit_flags()
    return _SUIT_FLAGS


def _suit_flags() -> list[tuple[int, int, _Flags]]:
    """Make :func:`suit_flags` and :data:`_SUIT_SEARCH`: the tables shipped with settle (:func:`shipped_table`),
    or built (:func:`build_suit_flags`) when those cannot be read, and :func:`plain_classes` of both sizes;
    with the collector off, as :func:`plain_classes`."""
    with _TABLES_MADE:  # threads (the web page's) at their first tile hand at once: made once
        if _SUIT_SEARCH:
            return _SUIT_SEARCH
        with collector_paused():
            tables = shipped_table(SUIT_FLAGS_FILE)
            if tables is None:
                tables = build_suit_flags()
            # The classes too (read with them when shipped; built for them else): a suit that reads several
            # ways needs them (:func:`_chosen_classes`), and this is the first tile hand, whose cost is start-up.
            plain_classes(9)
        search = [(end, digits[2], table)
                  for (_, end), digits, table in zip(_SUIT_STARTS, _SUIT_DIGITS, tables, strict=True)]
        _SUIT_FLAGS.extend(tables)  # (each one step: a thread that reads them sees all of them or none)
        _SUIT_SEARCH.extend(search)
    return _SUIT_SEARCH


_TABLES_MADE = threading.RLock()
"""Held while :func:`_suit_flags` or :func:`plain_classes` makes the tables (once a process)."""


def build_suit_flags(plain: Mapping[int, dict[tuple[int, ...], list[_SuitClass]]] | None = None) -> list[_Flags]:
    """The four tables of :func:`suit_flags` (万, 筒, 条, honours), built from each size's classes: ``plain``
    (size -> :func:`build_plain_classes`' classes, as ``scripts/build_tile_tables.py`` ships them) or else
    :func:`plain_classes`."""
    keys: dict[int, list[bytes]] = {}  # each size's patterns as bytes, one object for the three suits
    tables: list[_Flags] = []
    for (start, end), in_suit in zip(_SUIT_STARTS, (None, *_SHIFTED.values()), strict=True):
        classes_of = plain_classes(end - start) if plain is None else plain[end - start]
        if end - start not in keys:
            singles = [bytes([tile]) for tile in range(end - start)]
            keys[end - start] = [b"".join(map(bytes.__mul__, singles, counts)) for counts in classes_of]
        tables.append({
            key: tuple((pairs * _PAIR_FLAG | (0 if all_258 else _NOT_258_FLAG) | (0 if pungs else _CHOW_FLAG)
                        | (_PAIR_258_FLAG if pair_258 else 0) | (_DRAGON_FLAG if dragons == 0b111 else 0),
                        groups if in_suit is None else tuple(map(in_suit.__getitem__, groups)))
                       for _, pairs, all_258, pungs, pair_258, _, dragons, _, groups, _ in classes)
            for key, classes in zip(keys[end - start], classes_of.values(), strict=True)})
    return tables


TABLES_FORMAT = 1
"""The format of the tables shipped with settle (``settle/tiles/tables/``): raise it when what
:func:`build_suit_flags` or :func:`build_plain_classes` make changes, and ship them again
(``python scripts/build_tile_tables.py``); tables of another format are not read (they are built).
tests/tiles/test_tiles_tables.py holds the shipped tables to what the builders make, entry for entry."""
TABLES_DIR = Path(__file__).resolve().parent / "tables"
"""Where the shipped tables are (package data)."""
SUIT_FLAGS_FILE = "suit_flags.pickle.z"
""":func:`suit_flags`'s four tables, shipped."""
PLAIN_CLASSES_FILE = "plain_classes.pickle.z"
""":func:`plain_classes` and :func:`plain_codes` of both sizes, shipped."""


def shipped_table(name: str) -> Any:
    """The table ``name`` shipped with settle (``settle/tiles/tables/<name>``: ``zlib`` of the ``pickle`` of
    ``(TABLES_FORMAT, table)``, written by ``scripts/build_tile_tables.py``), or None when the file is missing,
    cannot be read, is of another format or does not hold the table's shape (:func:`_well_formed`): the
    caller builds the table then (issue 14: reading them costs about 0.04 s of CPU at a process's first tile
    hand, building them about 0.3 s).  The file is settle's own, as trusted as its code (unpickling runs
    what it says); what the tables hold entry by entry is held to the builders' by
    tests/tiles/test_tiles_tables.py, not here."""
    try:
        shipped = pickle.loads(zlib.decompress((TABLES_DIR / name).read_bytes()))
    except Exception:  # any file that is not the tables (unpickling raises what it likes): build them
        return None
    if type(shipped) is not tuple or len(shipped) != 2 or type(shipped[0]) is not int \
            or shipped[0] != TABLES_FORMAT or not _well_formed(name, shipped[1]):
        return None
    return shipped[1]


_PATTERNS = {9: 21_743, 7: 498}
"""How many patterns each size's table holds (a suited suit's, the honours'): every pattern of sets and at
most one pair (tests/tiles/test_tiles_tables.py counts them)."""


def _well_formed(name: str, table: object) -> bool:
    """Whether ``table`` has the outline of the shipped table ``name``: the four suits' mappings of
    :func:`suit_flags`, or both sizes' pair of mappings of :func:`plain_classes` and :func:`plain_codes`,
    each with its size's number of patterns (a look at the outline only, not at every entry)."""
    if name == SUIT_FLAGS_FILE:
        return type(table) is list and len(table) == 4 and all(
            type(suit) is dict and len(suit) == _PATTERNS[size] for suit, size in zip(table, (9, 9, 9, 7), strict=True))
    if name == PLAIN_CLASSES_FILE:
        return type(table) is dict and table.keys() == {7, 9} and all(
            type(pair) is tuple and len(pair) == 2 and all(type(part) is dict and len(part) == _PATTERNS[size]
                                                           for part in pair)
            for size, pair in table.items())
    return False


_LOCAL_TILES = bytes(tile - start for start, end in _SUIT_STARTS for tile in range(start, end)).ljust(256, b"\0")
"""``bytes.translate`` table of each tile id to its place in its suit (``5p`` 13 -> 4, 白 33 -> 6)."""


# A part of a reading: (offset, groups, wild values) with tiles counted from the offset,
# so that one memo entry serves all three suits; shifted only for the readings returned.
Part = tuple[int, tuple[Group, ...], tuple[int, ...]]
# What the search found: features -> (substitutions, parts) of the reading kept for them.
_Found = dict[Features, tuple[int, tuple[Part, ...]]]


def materialise(
    shape: str, parts: tuple[Part, ...], wild: int | None, tiles: tuple[int, ...] | None = None
) -> Reading:
    """The reading of a search result's parts (tiles shifted to their suits).

    ``tiles``: the reading's tiles when the caller knows them already (no wildcard in hand: the
    concealed tiles, sorted), so that they are not gathered and sorted again.  Then the parts are the
    search's without wildcards (:func:`_plain_search`, :func:`_seven_pairs_search`): in tile order, each
    part's groups sorted (a pair before the pung and the chow starting at its tile), so the reading's
    groups are theirs as they come, with no wildcard value.
    """
    if tiles is not None and len(parts) == 1 and not parts[0][0]:  # one part in place (the usual reading)
        return Reading(shape, tuple(parts[0][1]), tiles, (), 0)
    groups: list[Group] = []
    if tiles is not None:  # no wildcard: the parts' groups are sorted already, and nothing was substituted
        for offset, part_groups, _ in parts:
            groups += map(_SHIFTED[offset].__getitem__, part_groups) if offset else part_groups
        return Reading(shape, tuple(groups), tiles, (), 0)
    values: list[int] = []
    for offset, part_groups, part_values in parts:
        if offset:  # a suit's part: local pairs, pungs and chows, moved to the suit
            groups += map(_SHIFTED[offset].__getitem__, part_groups)
            if part_values:
                values += map(offset.__add__, part_values)
        else:
            groups += part_groups
            values += part_values
    return make_reading(shape, groups, values, wild, tiles)


def _local_groups() -> list[Group]:
    """Every pair, pung and chow of a suit in local tiles (0-8)."""
    return [*((t, t) for t in range(9)), *((t, t, t) for t in range(9)), *((t, t + 1, t + 2) for t in range(7))]


_SHIFTED: dict[int, dict[Group, Group]] = {
    offset: {g: tuple(offset + t for t in g) for g in _local_groups()} for offset in (9, 18, 27)
}
"""A local group (pair, pung, chow) moved to the suit starting at each offset (what materialise looks up)."""


def _keep(found: _Found, features: Features, subs: int, parts: tuple[Part, ...]) -> None:
    held = found.get(features)
    if held is None or subs < held[0]:
        found[features] = (subs, parts)


# --- standard shape -------------------------------------------------------------------

# A suit class, merging the readings of one suit that fans cannot tell apart:
# (wilds used, pairs, all 2/5/8, pungs only, pair 2/5/8, hard, dragon chows)
# -> (substitutions, groups, wild values) of the one with fewest substitutions.
# Tiles are local (0-8 in a suit, 0-6 honours); the dragon entry is a bitmask of the
# chows 123/456/789 present (see :func:`_dragon_state`).
_SuitClass = tuple[int, int, bool, bool, bool, bool, int, int, tuple[Group, ...], tuple[int, ...]]
# The part of a suit class the classes are merged by (its first seven entries), and the rest.
_SuitKey = tuple[int, int, bool, bool, bool, bool, int]
_SuitBest = dict[_SuitKey, tuple[int, tuple[Group, ...], tuple[int, ...]]]
_EMPTY_SUIT: list[_SuitClass] = [(0, 0, True, True, False, True, 0, 0, (), ())]
_LOCAL_258 = {9: tuple(i in (1, 4, 7) for i in range(9)), 7: (False,) * 7}
# Memo key: (local counts, local wild tile or None, wildcards in the hand).
_ClassKey = tuple[tuple[int, ...], int | None, int]
_CLASSES: dict[_ClassKey, list[_SuitClass]] = {}
# Memo entries kept before the table starts afresh: bounds memory in a long run.
# An entry holds a few readings, about 2 kB, so the table peaks near 80 MB; a
# smaller limit saves memory and costs speed on streams of new tile patterns.
CLASS_MEMO_LIMIT = 40_000


def _suit_classes(start: int, counts: tuple[int, ...], wild: int | None, budget: int) -> list[_SuitClass]:
    """Classes of one suit, for a hand with ``budget`` wildcards (none: the precomputed
    :func:`plain_classes` table; else the memo)."""
    if not budget:
        return plain_classes(len(counts)).get(counts, _NO_CLASSES)
    local_wild = wild - start if wild is not None and start <= wild < start + len(counts) else None
    return _classes(counts, local_wild, budget)


def _classes(counts: tuple[int, ...], wild: int | None, budget: int) -> list[_SuitClass]:
    key = (counts, wild, budget)
    classes = _CLASSES.get(key)
    if classes is None:
        classes = _compute_classes(counts, wild, budget)
        if len(_CLASSES) >= CLASS_MEMO_LIMIT:
            _CLASSES.clear()
        _CLASSES[key] = classes
    return classes


_NO_CLASSES: list[_SuitClass] = []
_PLAIN: dict[int, dict[tuple[int, ...], list[_SuitClass]]] = {}
_CODES: dict[int, dict[int, list[_SuitClass]]] = {}
""":func:`plain_codes` of each size, made with :data:`_PLAIN`'s table."""
# Rank of a group among those starting at the same tile, in the order the readings try them
# (:func:`~settle.tiles.readings.anchored_groups`: the pair, the pung, then the chow).
_PAIR_RANK, _PUNG_RANK, _CHOW_RANK = 0, 1, 2


def plain_codes(size: int) -> dict[int, list[_SuitClass]]:
    """:func:`plain_classes` keyed by each pattern's counts as 4-bit digits (count of local tile ``t`` at
    digit ``t``: ``(2, 1, 1, 1)`` is ``0x1112``), the same class lists; built with it."""
    codes = _CODES.get(size)
    if codes is None:
        plain_classes(size)
        codes = _CODES[size]
    return codes


def plain_classes(size: int) -> dict[tuple[int, ...], list[_SuitClass]]:
    """The precomputed table of a suit without wildcards (``size`` 9 suited, 7 honours): every
    count pattern that splits into sets and at most one pair -> its classes, exactly as
    :func:`_compute_classes` gives them with no wildcard (a pattern not in the table has none).

    Read at first use from the tables shipped with settle (:func:`shipped_table`, both sizes at once), or
    when they cannot be read built (:func:`build_plain_classes`: about 0.1 s of CPU for the 21,743 suited
    patterns), by listing every multiset
    of at most four sets and one pair (no fifth copy) instead of decomposing each pattern: the
    class kept is the reading the decomposition meets first (at the lowest tile left, the pair,
    then the pung, then the chow starting there: the least of the readings' groups ordered by
    (start, rank)), and the classes come in the order they are first met.
    """
    table = _PLAIN.get(size)
    if table is None:
        # A table makes no cycles: collections while it is made would walk the tables made so far (about
        # a quarter of the build's time, at a process's first tile hand).
        with _TABLES_MADE, collector_paused():
            if size not in _PLAIN:
                shipped = shipped_table(PLAIN_CLASSES_FILE)
                made = shipped.items() if shipped is not None else ((size, build_plain_classes(size)),)
                for each, (classes, codes) in made:  # (both sizes when shipped)
                    _CODES[each] = codes  # before the classes: plain_codes reads the codes once the classes are there
                    _PLAIN[each] = classes
        table = _PLAIN[size]
    return table


# A set while the table is built: (order key, counts as 4-bit digits, all 2/5/8, pung, dragon bit).
_TableSet = tuple[tuple[int, int], int, bool, bool, int]
# The order the readings meet a reading in: its groups' (start tile, rank), sorted.
_Order = tuple[tuple[int, int], ...]
_THREES = sum(3 << (4 * i) for i in range(9))
_EIGHTS = sum(8 << (4 * i) for i in range(9))
_GROUP_OF: dict[tuple[int, int], Group] = {
    **{(t, _PAIR_RANK): (t, t) for t in range(9)},
    **{(t, _PUNG_RANK): (t, t, t) for t in range(9)},
    **{(t, _CHOW_RANK): (t, t + 1, t + 2) for t in range(7)},
}
_NIBBLES = tuple((byte & 15, byte >> 4) for byte in range(256))


def build_plain_classes(size: int) -> tuple[dict[tuple[int, ...], list[_SuitClass]], dict[int, list[_SuitClass]]]:
    """:func:`plain_classes` and :func:`plain_codes` of ``size``, built (the same class lists in both; what
    ``scripts/build_tile_tables.py`` ships)."""
    local_258 = _LOCAL_258[size]
    sets: list[_TableSet] = []
    for tile in range(size):
        sets.append(((tile, _PUNG_RANK), 3 << (4 * tile), local_258[tile], True, 0))
        if size == 9 and tile <= 6:
            dragon = 1 << (tile // 3) if tile in DRAGON_STARTS else 0
            sets.append(((tile, _CHOW_RANK), 0x111 << (4 * tile), False, False, dragon))
    sets.sort()
    # (pattern as 4-bit digits, pairs, all 2/5/8, pungs only, pair 2/5/8, dragon bits) -> the order
    # of the reading kept for that class (its groups follow from it).
    kept: dict[tuple[int, int, bool, bool, bool, int], _Order] = {}
    for number in range(5):
        # A pattern's readings all have the same number of sets and are met in the readings' order
        # here (combinations of the sorted sets): the first met of a class without a pair is kept.
        for chosen in combinations_with_replacement(sets, number):
            code = 0
            all_258 = pungs = True
            dragons = 0
            for _, add, s_258, is_pung, bit in chosen:
                code += add
                all_258 = all_258 and s_258
                pungs = pungs and is_pung
                dragons |= bit
            if (code + _THREES) & _EIGHTS:  # a count past 4 (a digit is at most 12 here)
                continue
            order = tuple(s[0] for s in chosen)
            kept.setdefault((code, 0, all_258, pungs, False, dragons), order)
            for tile in range(size):
                if (code >> (4 * tile)) & 15 <= 2:
                    key = (code + (2 << (4 * tile)), 1, all_258 and local_258[tile], pungs, local_258[tile], dragons)
                    with_pair = tuple(sorted((*order, (tile, _PAIR_RANK))))
                    held = kept.get(key)
                    if held is None or with_pair < held:
                        kept[key] = with_pair
    by_pattern: dict[int, list[tuple[_Order, _SuitClass]]] = {}
    for (code, pairs, all_258, pungs, pair_258, dragons), order in kept.items():
        groups = tuple(map(_GROUP_OF.__getitem__, order))
        found = (order, (0, pairs, all_258, pungs, pair_258, True, dragons, 0, groups, ()))
        classes = by_pattern.get(code)
        if classes is None:
            by_pattern[code] = [found]
        else:
            classes.append(found)
    table: dict[tuple[int, ...], list[_SuitClass]] = {}
    codes: dict[int, list[_SuitClass]] = {}
    for code, classes in by_pattern.items():
        if len(classes) > 1:
            classes.sort(key=lambda item: item[0])
        digits: tuple[int, ...] = ()
        for byte in code.to_bytes(5, "little"):
            digits += _NIBBLES[byte]
        table[digits[:size]] = codes[code] = [c for _, c in classes]
    return table, codes


def _compute_classes(counts: tuple[int, ...], wild: int | None, budget: int) -> list[_SuitClass]:
    blocks = split_blocks(counts)
    if len(blocks) > 1:
        # Tiles two or more ranks apart never share a chow: the blocks are read apart
        # and merged, so a new suit pattern mostly reuses memoised blocks.
        merged = _classes(blocks[0], wild, budget)
        for block in blocks[1:]:
            merged = _merge_classes(merged, _classes(block, wild, budget), budget)
        return merged
    return _compute_block_classes(counts, wild, budget)


def _merge_classes(a: list[_SuitClass], b: list[_SuitClass], budget: int) -> list[_SuitClass]:
    best: _SuitBest = {}
    for used, pairs, all_258, pungs, pair_258, hard, dragons, subs, groups, values in a:
        for b_used, b_pairs, b_258, b_pungs, b_pair_258, b_hard, b_dragons, b_subs, b_groups, b_values in b:
            if used + b_used > budget or pairs + b_pairs > 1:
                continue
            key = (
                used + b_used,
                pairs + b_pairs,
                all_258 and b_258,
                pungs and b_pungs,
                pair_258 or b_pair_258,
                hard and b_hard,
                dragons | b_dragons,
            )
            total = subs + b_subs
            held = best.get(key)
            if held is None or total < held[0]:
                best[key] = (total, groups + b_groups, values + b_values)
    return [(*key, *held) for key, held in best.items()]


def _compute_block_classes(counts: tuple[int, ...], wild: int | None, budget: int) -> list[_SuitClass]:
    anchored = anchored_groups(0, counts)
    if not anchored:
        return _EMPTY_SUIT
    local_258 = _LOCAL_258[len(counts)]
    suited = len(counts) == 9
    best: _SuitBest = {}
    for group, rest, values in anchored:
        used_here = len(values)
        if used_here > budget:
            continue
        pair = len(group) == 2
        subs_here = sum(v != wild for v in values)
        tiles_258 = all(local_258[t] for t in group)
        is_pung = group[0] == group[-1]
        dragon_bit = 1 << (group[0] // 3) if suited and not is_pung and group[0] in DRAGON_STARTS else 0
        for used, pairs, all_258, pungs, pair_258, hard, dragons, subs, groups, rest_values in _classes(
            rest, wild, budget
        ):
            if used + used_here > budget or pairs + pair > 1:
                continue
            key = (
                used + used_here,
                pairs + pair,
                all_258 and tiles_258,
                pungs and is_pung,
                pair_258 or (pair and tiles_258),
                hard and not subs_here,
                dragons | dragon_bit,
            )
            total = subs + subs_here
            held = best.get(key)
            if held is None or total < held[0]:
                best[key] = (total, (group, *groups), values + rest_values)
    return [(*key, *held) for key, held in best.items()]


def _dragon_state(dragons: int) -> int:
    """Full 123-456-789, or the local start of the one dragon chow missing, or none."""
    if dragons == 0b111:
        return _FULL_DRAGON
    missing = [d for d, bit in zip(DRAGON_STARTS, (1, 2, 4), strict=True) if not dragons & bit]
    return missing[0] if len(missing) == 1 else _NO_DRAGON


_DRAGON_STATE = tuple(_dragon_state(dragons) for dragons in range(8))

# A partial reading over the suits so far, merged by what fans can tell apart:
# (wilds used, pairs, all 2/5/8, pungs only, pair 2/5/8, hard, dragon, local starts of the
# dragon chows one suit misses) -> (substitutions, parts) of the one with fewest substitutions.
_State = tuple[int, int, bool, bool, bool, bool, bool, tuple[int, ...]]
_States = dict[_State, tuple[int, tuple[Part, ...]]]
# What a group of wildcards alone does to the features: (suit bit, all 2/5/8, pung, pair 2/5/8,
# hard, the dragon chow it makes or _NO_DRAGON); a class of them is (group, substitutions, effect).
_WildEffect = tuple[int, bool, bool, bool, bool, int]
_WildClass = tuple[Group, int, _WildEffect]
# The features of a partial reading, but for the shape: (suits, all 2/5/8, pungs only, pair 2/5/8,
# hard, dragon, missing dragon starts).
_Partial = tuple[int, bool, bool, bool, bool, bool, tuple[int, ...]]


def _standard_search(counts: tuple[int, ...], wilds: int, wild: int | None, found: _Found) -> None:
    if not wilds:
        _plain_search(counts, found)
        return
    # Partial readings over the suits so far, merged by what fans can tell apart.
    states: _States = {(0, 0, True, True, False, True, False, ()): (0, ())}
    suits = 0
    for start, end in _SUIT_STARTS:
        segment = counts[start:end]
        if any(segment):  # an empty suit adds nothing to any state
            suits |= SUIT_BIT[start]
            classes = _suit_classes(start, segment, wild, MAX_WILDS)
            states = _extend(states, start, classes, wilds)
            if not states:
                return
    for (used, pairs, all_258, pungs, pair_258, hard, dragon, missing), (subs, parts) in states.items():
        left = wilds - used
        if left == 0 and pairs == 1:
            features = Features(STANDARD, suits, all_258, pungs, pair_258, hard, dragon, 0)
            _keep(found, features, subs, parts)
        elif (left, pairs) in ((2, 0), (3, 1)):
            partial: _Partial = (suits, all_258, pungs, pair_258, hard, dragon, missing)
            for group, group_subs, effect in _wild_only_classes(left, wild):
                features = _with_wild_group(partial, effect)
                _keep(found, features, subs + group_subs, (*parts, (0, (group,), group)))


_new_features = tuple.__new__
"""``_new_features(Features, values)``: what ``Features(*values)`` makes (its ``__new__`` calls this), one call less."""
_PLAIN_FEATURES = tuple(
    _new_features(Features, (STANDARD, suits, not flags & _NOT_258_FLAG, not flags & _CHOW_FLAG,
                             bool(flags & _PAIR_258_FLAG), True, bool(flags & _DRAGON_FLAG), 0))
    for suits in range(16) for flags in range(1 << _FLAG_BITS))
"""The features of a standard reading without wildcards of the suits ``suits`` (bits) and the suits' flags
ORed (:func:`plain_flags`), at ``suits << 5 | flags``: one object for each value."""


def _plain_search(counts: tuple[int, ...], found: _Found) -> None:
    """The standard readings of a hand without wildcards, from the precomputed tables
    (:func:`plain_classes`; a suit pattern not in them cannot win).

    Every combination of one class per suit is met in order (the first suit's classes outermost), and
    the first one met of each feature value is kept: what the merging of :func:`_extend` keeps (the
    first state met of each merged value, extended in the order met), without its bookkeeping: no
    wildcard is used or substituted, a pair is at most one, and a dragon needs no wildcard chow (so
    the missing dragon chows need not be followed).  A suit has at most 3 classes (tests/tiles), and
    most have one: then there is one combination.
    """
    suited = _PLAIN.get(9) or plain_classes(9)
    suits = 0
    chosen: list[tuple[int, list[_SuitClass]]] = []
    several = False
    for start, end in _SUIT_STARTS:
        segment = counts[start:end]
        if any(segment):  # an empty suit adds nothing
            classes = (suited if end != 34 else _PLAIN.get(7) or plain_classes(7)).get(segment)
            if classes is None:
                return
            suits |= SUIT_BIT[start]
            chosen.append((start, classes))
            several = several or len(classes) > 1
    _combine_plain(chosen, suits, several, found)


def _combine_plain(chosen: list[tuple[int, list[_SuitClass]]], suits: int, several: bool, found: _Found) -> None:
    """:func:`_plain_search` once each suit's classes are found (``chosen``: its first tile and classes, in
    suit order; ``suits``: their bits; ``several``: a suit has more than one class)."""
    if not several:  # one way to read each suit
        pairs, all_258, pungs, pair_258, dragon = 0, True, True, False, False
        parts: list[Part] = []
        for start, classes in chosen:
            _, c_pairs, c_258, c_pungs, c_pair_258, _, c_dragons, _, c_groups, _ = classes[0]
            pairs += c_pairs
            all_258 = all_258 and c_258
            pungs = pungs and c_pungs
            pair_258 = pair_258 or c_pair_258
            dragon = dragon or c_dragons == 0b111
            parts.append((start, c_groups, ()))
        if pairs == 1:
            features = _new_features(Features, (STANDARD, suits, all_258, pungs, pair_258, True, dragon, 0))
            if features not in found:
                found[features] = (0, tuple(parts))
        return
    # Partial readings: (pairs, all 2/5/8, pungs only, pair 2/5/8, dragon, parts), in the order met.
    partial: list[tuple[int, bool, bool, bool, bool, tuple[Part, ...]]] = [(0, True, True, False, False, ())]
    for start, classes in chosen:
        partial = [(pairs + c_pairs, all_258 and c_258, pungs and c_pungs, pair_258 or c_pair_258,
                    dragon or c_dragons == 0b111, (*parts_so_far, (start, c_groups, ())))
                   for pairs, all_258, pungs, pair_258, dragon, parts_so_far in partial
                   for _, c_pairs, c_258, c_pungs, c_pair_258, _, c_dragons, _, c_groups, _ in classes
                   if pairs + c_pairs <= 1]
    for pairs, all_258, pungs, pair_258, dragon, parts_so_far in partial:
        if pairs == 1:
            features = Features(STANDARD, suits, all_258, pungs, pair_258, True, dragon, 0)
            if features not in found:
                found[features] = (0, parts_so_far)


def _extend(states: _States, start: int, classes: list[_SuitClass], wilds: int) -> _States:
    merged: _States = {}
    kept_for = merged.get
    for (used, pairs, all_258, pungs, pair_258, hard, dragon, missing), (subs, parts) in states.items():
        for s_used, s_pairs, s_258, s_pungs, s_pair_258, s_hard, s_dragons, s_subs, s_groups, s_values in classes:
            total_used = used + s_used
            if total_used > wilds or pairs + s_pairs > 1:
                continue
            s_dragon = _DRAGON_STATE[s_dragons]
            key = (
                total_used,
                pairs + s_pairs,
                all_258 and s_258,
                pungs and s_pungs,
                pair_258 or s_pair_258,
                hard and s_hard,
                dragon or s_dragon == _FULL_DRAGON,
                missing if s_dragon < 0 else (*missing, start + s_dragon),
            )
            total = subs + s_subs
            kept = kept_for(key)
            if kept is None or total < kept[0]:
                merged[key] = (total, (*parts, (start, s_groups, s_values)))
    return merged


_WILD_ONLY: dict[tuple[int, int | None], list[_WildClass]] = {}


def _wild_only_classes(size: int, wild: int | None) -> list[_WildClass]:
    """Groups of wildcards alone (any tile), one per kind of effect on the features."""
    key = (size, wild)
    classes = _WILD_ONLY.get(key)
    if classes is None:
        classes = _WILD_ONLY[key] = _compute_wild_only_classes(size, wild)
    return classes


def _compute_wild_only_classes(size: int, wild: int | None) -> list[_WildClass]:
    candidates: list[Group] = [(t,) * size for t in range(34)]
    if size == 3:
        candidates += [(s, s + 1, s + 2) for suit in (0, 9, 18) for s in range(suit, suit + 7)]
    best: dict[_WildEffect, tuple[int, Group]] = {}
    for group in candidates:
        subs = sum(t != wild for t in group)
        is_chow = group[0] != group[-1]
        start = group[0]
        effect: _WildEffect = (
            SUIT_BIT[start],
            IS_258[start] and not is_chow,
            not is_chow,
            size == 2 and IS_258[start],
            subs == 0,
            start if is_chow and start % 9 in DRAGON_STARTS else _NO_DRAGON,
        )
        held = best.get(effect)
        if held is None or subs < held[0]:
            best[effect] = (subs, group)
    return [(group, subs, effect) for effect, (subs, group) in best.items()]


def _with_wild_group(partial: _Partial, effect: _WildEffect) -> Features:
    suits, all_258, pungs, pair_258, hard, dragon, missing = partial
    suit_bit, g_258, g_pung, g_pair_258, g_hard, g_dragon = effect
    return Features(
        STANDARD,
        suits | suit_bit,
        all_258 and g_258,
        pungs and g_pung,
        pair_258 or g_pair_258,
        hard and g_hard,
        dragon or g_dragon in missing,
        0,
    )


# --- seven pairs ----------------------------------------------------------------------


def _seven_pairs_search(counts: Sequence[int], wilds: int, wild: int | None, found: _Found) -> None:
    if (1 in counts or 3 in counts) if not wilds else counts.count(1) + counts.count(3) > wilds:
        return  # each odd count needs a wildcard
    pairs: list[Group] = []
    odd: list[int] = []
    for tile, count in enumerate(counts):
        pairs.extend([(tile, tile)] * ((count + 1) // 2))
        if count % 2:
            odd.append(tile)
    left = wilds - len(odd)
    if left < 0 or left % 2:
        return
    base_subs = sum(t != wild for t in odd)
    for extra in combinations_with_replacement(_pair_values(pairs, wild), left // 2):
        all_pairs = (*pairs, *((t, t) for t in extra))
        values = (*odd, *(t for t in extra for _ in range(2)))
        subs = base_subs + 2 * sum(t != wild for t in extra)
        tiles = {p[0] for p in all_pairs}
        suits = 0
        for tile in tiles:
            suits |= SUIT_BIT[tile]
        features = Features(
            SEVEN_PAIRS,
            suits,
            all(IS_258[t] for t in tiles),
            False,
            any(IS_258[t] for t in tiles),
            subs == 0,
            False,
            count_quads(all_pairs),
        )
        _keep(found, features, subs, ((0, all_pairs, values),))


def _pair_values(pairs: list[Group], wild: int | None) -> list[int]:
    """Values a pair of wildcards may take that differ in effect: the tiles already
    paired (a quad), the wild tile itself (hard), and two fresh tiles of each kind
    (suit, 2/5/8 or not), two so that two fresh pairs can differ or match."""
    taken = {p[0] for p in pairs}
    if wild is not None:
        taken.add(wild)
    values = sorted(taken)
    fresh: Counter[tuple[int, bool]] = Counter()
    for tile in range(34):
        kind = (SUIT_BIT[tile], IS_258[tile])
        if tile not in taken and fresh[kind] < 2:
            fresh[kind] += 1
            values.append(tile)
    return values
