"""Helpers shared by the tile-engine tests (this folder is on the import path when they run)."""

from __future__ import annotations

import random


def random_sets(rng: random.Random, size: int) -> list[int]:
    """Tile ids of random sets filling ``size - 2`` places (pungs 40%, suited chows 60%): a
    standard winning shape once a pair is added.  A tile may appear more than 4 times."""
    tiles: list[int] = []
    while len(tiles) < size - 2:
        if rng.random() < 0.4:
            tiles += [rng.randrange(34)] * 3
        else:
            start = rng.choice((0, 9, 18)) + rng.randrange(7)
            tiles += [start, start + 1, start + 2]
    return tiles
