"""The precomputed per-suit tables of the feature search (:func:`settle.tiles.features.plain_classes`)
against the direct decomposition, on every suit pattern.

The table of a suit without wildcards must hold exactly the patterns that split into sets and at
most one pair, each with the classes :func:`~settle.tiles.features._compute_classes` gives (the same
readings kept, in the same order: the reading printed depends on it), and nothing else.
"""

from __future__ import annotations

from itertools import product

import pytest

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
