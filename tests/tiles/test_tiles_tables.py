"""The precomputed per-suit tables of the feature search (:func:`settle.tiles.features.plain_classes`)
against the direct decomposition, on every suit pattern.

The table of a suit without wildcards must hold exactly the patterns that split into sets and at
most one pair, each with the classes :func:`~settle.tiles.features._compute_classes` gives (the same
readings kept, in the same order: the reading printed depends on it), and nothing else.
"""

from __future__ import annotations

import gc
import random
from itertools import product

import pytest

from settle.core.collector import collector_paused
from settle.tiles import features
from settle.tiles.shapes import _suit_mask

# Outcome bits of a suit mask (settle.tiles.shapes): the suit splits into sets (bit 0) or sets and a
# pair (bit 1) with no wildcard.
_PLAIN_BITS = 0b11


@pytest.mark.parametrize("size", [9, 7])
def test_table_agrees_with_the_direct_decomposition(size: int) -> None:
    table = features.plain_classes(size)
    for counts, classes in table.items():
        direct = features._compute_classes(counts, None, 0) if any(counts) else features._EMPTY_SUIT
        assert classes == direct, counts


@pytest.mark.parametrize("size", [9, 7])
def test_table_holds_every_pattern_that_splits(size: int) -> None:
    table = features.plain_classes(size)
    found = 0
    for counts in product(range(5), repeat=size):
        if sum(counts) > 14 or sum(counts) % 3 == 1:
            assert counts not in table
            continue
        splits = bool(_suit_mask(counts) & _PLAIN_BITS)
        assert (counts in table) == splits, counts
        found += splits
    assert found == len(table) == {9: 21_743, 7: 498}[size]


def test_search_uses_the_table_without_wildcards() -> None:
    """A wildcard-free hand's suits are read from the table (no memo fills), with wildcards from the memo."""
    features._CLASSES.clear()
    counts = [0] * 34
    for tile in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 27, 27):
        counts[tile] += 1
    assert features.feature_search(counts, 0, None)
    assert not features._CLASSES
    counts[27] -= 1
    assert features.feature_search(counts, 1, 33)
    assert features._CLASSES


def merged_search(counts: tuple[int, ...]) -> dict[features.Features, tuple[int, tuple[features.Part, ...]]]:
    """The standard readings of a wildcard-free hand as the merging search finds them: the table's
    classes of each suit extended state by state (:func:`settle.tiles.features._extend`), merged by
    what fans tell apart, the first state met of each value kept."""
    found: dict[features.Features, tuple[int, tuple[features.Part, ...]]] = {}
    states: features._States = {(0, 0, True, True, False, True, False, ()): (0, ())}
    suits = 0
    for start, end in features._SUIT_STARTS:
        segment = counts[start:end]
        if any(segment):
            suits |= features.SUIT_BIT[start]
            classes = features.plain_classes(end - start).get(segment)
            if classes is None:
                return found
            states = features._extend(states, start, classes, 0)
    for (_, pairs, all_258, pungs, pair_258, hard, dragon, _), (subs, parts) in states.items():
        if pairs == 1:
            features._keep(found, features.Features("standard", suits, all_258, pungs, pair_258, hard, dragon, 0),
                           subs, parts)
    return found


def test_plain_search_keeps_what_the_merging_search_keeps() -> None:
    """Without wildcards the combinations of the suits' classes are followed one by one
    (:func:`settle.tiles.features._plain_search`): the same readings, in the same order, as merging them
    state by state, on hands whose suits read more than one way (111222333m: pungs or chows)."""
    rng = random.Random(15)
    several = compared = 0
    for _ in range(6000):
        tiles: list[int] = []
        while len(tiles) < 12:
            start = rng.choice((0, 9, 18)) + rng.randrange(7)
            kind = rng.random()
            tiles += ([start] * 3 if kind < 0.3 else [start, start + 1, start + 2] if kind < 0.8
                      else [start, start, start, start + 1, start + 1, start + 1, start + 2, start + 2, start + 2])
        tiles = tiles[:12] + [rng.randrange(34)] * 2
        counts = tuple(tiles.count(t) for t in range(34))
        if max(counts) > 4:
            continue
        plain: dict[features.Features, tuple[int, tuple[features.Part, ...]]] = {}
        features._plain_search(counts, plain)
        assert list(plain.items()) == list(merged_search(counts).items()), counts
        compared += bool(plain)
        several += len(plain) > 1
    assert compared > 3000 and several > 300


def test_a_suit_has_at_most_three_classes() -> None:
    """What keeps the combinations :func:`settle.tiles.features._plain_search` follows few (at most 3 ** 3 * 1)."""
    assert max(len(c) for size in (9, 7) for c in features.plain_classes(size).values()) == 3


def test_codes_are_the_table_by_digits() -> None:
    """plain_codes holds the same class lists as plain_classes, keyed by the counts as 4-bit digits."""
    # 11234m: counts (2, 1, 1, 1, 0, ...) -> digits 0x1112 (local tile t at bits 4t..4t+3).
    assert features.plain_codes(9)[0x1112] is features.plain_classes(9)[(2, 1, 1, 1, 0, 0, 0, 0, 0)]
    for size in (9, 7):
        codes, table = features.plain_codes(size), features.plain_classes(size)
        assert len(codes) == len(table)
        for counts, classes in table.items():
            assert codes[sum(n << (4 * t) for t, n in enumerate(counts))] is classes


def test_tile_search_finds_what_the_count_search_finds() -> None:
    """plain_tile_search of sorted tiles equals feature_search of their counts (seeded hands: shapes built
    of sets and a pair, seven pairs, and wall samples; at most 4 copies of a tile)."""
    rng = random.Random(20240611)
    wall = [t for t in range(34) for _ in range(4)]
    checked = 0
    for i in range(3000):
        if i % 3 == 0:
            tiles = [rng.randrange(34)] * 2
            for _ in range(4):
                start = rng.choice((0, 9, 18)) + rng.randrange(7)
                tiles += [start] * 3 if rng.random() < 0.5 else [start, start + 1, start + 2]
        elif i % 3 == 1:
            tiles = [t for t in (rng.randrange(34) for _ in range(7)) for _ in range(2)]
        else:
            tiles = rng.sample(wall, 14)
        if any(tiles.count(t) > 4 for t in tiles):
            continue
        counts = [tiles.count(t) for t in range(34)]
        for seven_pairs in (False, True):
            held = tuple(sorted(tiles))
            found = features.plain_tile_search(held, seven_pairs=seven_pairs)
            expected = features.feature_search(counts, 0, None, seven_pairs=seven_pairs)
            # The same features and substitutions in the same order, and the same reading of each
            # (the parts may be put otherwise: one part in place where each suit reads one way).
            assert [(f, subs) for f, (subs, _) in found.items()] == \
                [(f, subs) for f, (subs, _) in expected.items()], tiles
            for (f, (_, parts)), (_, (_, expected_parts)) in zip(found.items(), expected.items(), strict=True):
                assert features.materialise(f.shape, parts, None, held) == \
                    features.materialise(f.shape, expected_parts, None), tiles
        checked += 1
    assert checked > 2000


def test_suit_flags_hold_each_class_as_bits_and_groups_in_its_suit() -> None:
    """suit_flags: per suit, a pattern's classes as (flags, groups in that suit), in plain_codes' order, keyed
    by the pattern's tiles' places in the suit (0-8, honours 0-6), sorted, as bytes."""
    tables = features.suit_flags()
    assert len(tables) == 4
    # 11234 of a suit (places 0 0 1 2 3): one class, the pair 11 and the chow 234 (not all 2/5/8, a chow),
    # in 万 tiles 0-3, in 筒 9-12, in 条 18-21.
    assert tables[0][bytes([0, 0, 1, 2, 3])] == ((1 | 2 | 4, ((0, 0), (1, 2, 3))),)
    assert tables[1][bytes([0, 0, 1, 2, 3])] == ((1 | 2 | 4, ((9, 9), (10, 11, 12))),)
    assert tables[2][bytes([0, 0, 1, 2, 3])] == ((1 | 2 | 4, ((18, 18), (19, 20, 21))),)
    # 222 555 88 of 条 (places 1, 4, 7; tiles 19, 22, 25): every tile a 2/5/8, pungs only, the pair a 2/5/8.
    assert tables[2][bytes([1, 1, 1, 4, 4, 4, 7, 7])] == ((1 | 8, ((19, 19, 19), (22, 22, 22), (25, 25))),)
    # 东东东 白白 (honour places 0 and 6: tiles 27 and 33): pungs only, the pair no 2/5/8.
    assert tables[3][bytes([0, 0, 0, 6, 6])] == ((1 | 2, ((27, 27, 27), (33, 33))),)
    # 123 456 789 of a suit: the dragon (16), no pair.
    assert tables[0][bytes(range(9))] == ((2 | 4 | 16, ((0, 1, 2), (3, 4, 5), (6, 7, 8))),)
    # Every pattern of plain_codes, under its places: local tile t is digit t of the code.
    for table, size in zip(tables, (9, 9, 9, 7), strict=True):
        assert sorted(table) == sorted(bytes(t for t in range(size) for _ in range((code >> (4 * t)) & 15))
                                       for code in features.plain_codes(size))


def test_tables_are_built_with_the_collector_off_and_leave_it_as_it_was() -> None:
    """collector_paused (what the tables are built in): the collector is off inside and as it was afterwards,
    also when the body raises."""
    seen = []

    def build() -> int:
        with collector_paused():
            seen.append(gc.isenabled())
            return 7

    def broken() -> int:
        with collector_paused():
            raise ValueError("broken")

    was = gc.isenabled()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            assert build() == 7
            assert gc.isenabled() is state
            with pytest.raises(ValueError, match="broken"):
                broken()
            assert gc.isenabled() is state
        assert seen == [False, False]
    finally:
        (gc.enable if was else gc.disable)()


def _ordered(table: object) -> object:
    """A table with every mapping's entries as a list, in order (the order of the classes, and of the keys
    as built, is part of what is shipped), and each container and value with its type (``1`` is not
    ``True``, a list is not a tuple)."""
    if isinstance(table, dict):
        return ("dict", [(_ordered(key), _ordered(value)) for key, value in table.items()])
    if isinstance(table, (list, tuple)):
        return (type(table).__name__, [_ordered(item) for item in table])
    return (type(table).__name__, table)


def test_the_shipped_tables_are_what_the_builders_make() -> None:
    """issue 14: the per-suit tables are read at a process's first tile hand from the files settle ships
    (``settle/tiles/tables/``, written by ``scripts/build_tile_tables.py``).  They must be what the builders
    make, entry for entry and in the same order; if this fails, run that script (and raise TABLES_FORMAT)."""
    plain = {size: features.build_plain_classes(size) for size in (9, 7)}
    shipped_plain = features.shipped_table(features.PLAIN_CLASSES_FILE)
    assert shipped_plain is not None and list(shipped_plain) == [9, 7]
    assert _ordered(shipped_plain) == _ordered(plain)
    assert features.plain_classes(9) == plain[9][0] and features.plain_codes(7) == plain[7][1]
    shipped_flags = features.shipped_table(features.SUIT_FLAGS_FILE)
    assert shipped_flags is not None
    assert _ordered(shipped_flags) == _ordered(features.build_suit_flags())


def _damaged(name: str, content: str) -> bytes:
    """A shipped file's bytes made wrong in the way ``content`` says (found by a tester, issue 14)."""
    import pickle
    import zlib

    table = features.shipped_table(name)
    if content == "other format":
        return zlib.compress(pickle.dumps((features.TABLES_FORMAT + 1, table)))
    if content == "format as text":
        return zlib.compress(pickle.dumps((str(features.TABLES_FORMAT), table)))
    if content == "not a pair":
        return zlib.compress(pickle.dumps([features.TABLES_FORMAT, table]))
    if content == "unpickling overflows":
        return zlib.compress(b"\x80\x04\x95" + b"\xff" * 8 + b".")
    if content == "unpickling divides by zero":
        return zlib.compress(b"cbuiltins\ndivmod\n(I1\nI0\ntR.")
    if content == "empty table":
        return zlib.compress(pickle.dumps((features.TABLES_FORMAT, type(table)())))
    if content == "a part missing":  # the suit flags without the honours; the classes without size 7
        shorter = table[:3] if isinstance(table, list) else {9: table[9]}
        return zlib.compress(pickle.dumps((features.TABLES_FORMAT, shorter)))
    if content == "a pattern missing":
        fewer = [dict(list(suit.items())[1:]) for suit in table] if isinstance(table, list) else \
            {size: (dict(list(classes.items())[1:]), codes) for size, (classes, codes) in table.items()}
        return zlib.compress(pickle.dumps((features.TABLES_FORMAT, fewer)))
    raise AssertionError(content)


@pytest.mark.parametrize("content", [None, b"", b"not zlib", "other format", "format as text", "not a pair",
                                     "unpickling overflows", "unpickling divides by zero", "empty table",
                                     "a part missing", "a pattern missing"])
def test_tables_that_cannot_be_read_are_built(monkeypatch: pytest.MonkeyPatch, tmp_path: object,
                                              content: object) -> None:
    """A shipped table missing, damaged, of another format or not of the table's outline is not read (None),
    and a process builds the tables instead: the same tables, the same readings."""
    from pathlib import Path

    folder = Path(str(tmp_path))
    for name in (features.SUIT_FLAGS_FILE, features.PLAIN_CLASSES_FILE):
        if isinstance(content, bytes):
            (folder / name).write_bytes(content)
        elif isinstance(content, str):
            (folder / name).write_bytes(_damaged(name, content))
    monkeypatch.setattr(features, "TABLES_DIR", folder)
    assert features.shipped_table(features.SUIT_FLAGS_FILE) is None
    assert features.shipped_table(features.PLAIN_CLASSES_FILE) is None
    expected_flags = features.suit_flags()
    for name, empty in (("_SUIT_FLAGS", []), ("_SUIT_SEARCH", []), ("_PLAIN", {}), ("_CODES", {})):
        monkeypatch.setattr(features, name, empty)
    hand = (0, 0, 1, 2, 3, 9, 10, 11, 18, 18, 18, 27, 27, 27)
    found = features.plain_tile_search(hand)  # builds the tables: nothing to read
    assert expected_flags == features._SUIT_FLAGS and 9 in features._PLAIN and 9 in features._CODES
    assert [f.suits for f in found] == [1 | 2 | 4 | 8]


def test_threads_at_the_first_tile_hand_make_the_tables_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web page settles hands in worker threads: several first tile hands at once must leave one set of
    tables (four suits), not one per thread, and every thread the same readings."""
    import sys
    import threading

    for name, empty in (("_SUIT_FLAGS", []), ("_SUIT_SEARCH", []), ("_PLAIN", {}), ("_CODES", {})):
        monkeypatch.setattr(features, name, empty)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    hand = (0, 0, 1, 2, 3, 9, 10, 11, 18, 18, 18, 27, 27, 27)
    start = threading.Barrier(8)
    results: list[object] = []

    def first_hand() -> None:
        start.wait()
        results.append(list(features.plain_tile_search(hand)))

    try:
        threads = [threading.Thread(target=first_hand) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(features._SUIT_FLAGS) == 4 and len(features._SUIT_SEARCH) == 4
    assert len(results) == 8 and all(found == results[0] for found in results)
