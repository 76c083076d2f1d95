"""Tile rules of a registered region: what the tile engine, below the registry, cannot know itself.

A region's :class:`~settle.tiles.TileRules` subclass :class:`RegionTileRules` where its messages must
speak of the other regions (without naming them in its code): the registry names them.
"""

from __future__ import annotations

from settle.rules.registry import all_regions
from settle.tiles import TileRules


def tile_regions_with(feature: str) -> str:
    """``Rushan``, ``A or B``: the regions whose tile rules have ``feature`` true (``plays_bao_tile``),
    for a message in another region's rules; ``another rule set`` when none has it."""
    owners = [r.key.capitalize() for r in all_regions()
              if r.tile_rules is not None and getattr(r.tile_rules(), feature, False)]
    return " or ".join(owners) or "another rule set"


class RegionTileRules(TileRules):
    """:class:`~settle.tiles.TileRules` whose messages name the other regions through the registry."""

    __slots__ = ()

    def bao_tile_owners(self) -> str:
        """The regions that play a given 宝 tile (R9), from the registry."""
        return tile_regions_with("plays_bao_tile")
