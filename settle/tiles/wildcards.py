"""Wildcards as the engine sees them, and the building blocks of deriving them.

A region derives its wildcard from the flipped indicator (or plays none) in its own
:class:`~settle.tiles.rules.TileRules` (``settle/rules/<key>/tiles.py``: Wuhan's 癞子 H12,
Wuxue's 宝 and 癞子皮 W15, Rushan's 搂宝 tile R9).  The engine needs two facts of the result,
the :class:`Wildcards` protocol:

* ``wild``: the tile that may stand for any tile, or None;
* ``forbidden``: tiles whose presence in the concealed hand forbids any win (H8 红中, W15 癞子皮).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol


class Wildcards(Protocol):
    """What a region's wildcard derivation gives the engine (see the module docstring)."""

    @property
    def wild(self) -> int | None:
        """The wildcard tile, or None when the region plays none."""
        ...

    @property
    def forbidden(self) -> frozenset[int]:
        """Tiles that forbid any win while held."""
        ...


@dataclass(frozen=True)
class NoWildcards:
    """No wildcard and no forbidden tile (the default of :class:`~settle.tiles.rules.TileRules`).

    Both facts are class attributes, not properties: read once per evaluation, a property's call
    costs more than the rest of reading them."""

    wild: ClassVar[None] = None
    """No wildcard."""
    forbidden: ClassVar[frozenset[int]] = frozenset()
    """Nothing forbids a win."""


NO_WILDCARDS = NoWildcards()


def next_suited(tile: int) -> int:
    """The next tile of the same suit, 9 -> 1 (seed 000 2.1③, seed 004 癞子 A)."""
    return tile - 8 if tile % 9 == 8 else tile + 1
