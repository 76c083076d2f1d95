"""Tile-level engine: notation, wildcards, win detection, readings and fans, for any rule set.

Pure functions over tile ids 0..33 (see :mod:`settle.tiles.notation`); no I/O, and no region:
each rule set gives its :class:`TileRules` (``settle/rules/<key>/tiles.py`` exports
``TILE_RULES``; the region's ``tile_rules`` loader returns it).  Errors in the input are
:class:`TileError` (a :class:`ValueError`) with a message naming the bad value and a ``field``
naming the key it is about.

Typical use::

    from settle.rules.registry import get_region
    from settle.tiles import TileHand, evaluate
    rules = get_region(key).tile_rules()
    hand = TileHand.parse("22m 345m 678p 234s 666s", win_tile="6s", indicator="4s")
    for scored in evaluate(rules, hand, by="self_draw"):
        print(sorted(scored.fans), scored.reading.substitutions)
"""

from settle.tiles.errors import TileError
from settle.tiles.fans import Evaluation, ScoredReading, describe, evaluate, evaluate_all, reason_text
from settle.tiles.features import Features
from settle.tiles.hand import KONG_KINDS, MELD_KINDS, Meld, TileHand
from settle.tiles.notation import (
    format_chinese,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_to_chinese,
    tile_to_str,
    to_counts,
)
from settle.tiles.readings import LOOSE, SEVEN_PAIRS, STANDARD, Reading, enumerate_readings
from settle.tiles.rules import WIN_BY, Predicate, TileContext, TileRules, reason, seed
from settle.tiles.shapes import is_seven_pairs, is_win, is_win_bruteforce
from settle.tiles.wildcards import NO_WILDCARDS, NoWildcards, Wildcards, next_suited

__all__ = [
    "KONG_KINDS",
    "LOOSE",
    "MELD_KINDS",
    "NO_WILDCARDS",
    "SEVEN_PAIRS",
    "STANDARD",
    "WIN_BY",
    "Evaluation",
    "Features",
    "Meld",
    "NoWildcards",
    "Predicate",
    "Reading",
    "ScoredReading",
    "TileContext",
    "TileError",
    "TileHand",
    "TileRules",
    "Wildcards",
    "describe",
    "enumerate_readings",
    "evaluate",
    "evaluate_all",
    "format_chinese",
    "format_tiles",
    "is_seven_pairs",
    "is_win",
    "is_win_bruteforce",
    "next_suited",
    "parse_tile",
    "parse_tiles",
    "reason",
    "reason_text",
    "seed",
    "tile_to_chinese",
    "tile_to_str",
    "to_counts",
]
