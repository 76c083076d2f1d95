"""Tile-level engine: notation, wildcards, win detection, readings and fans.

Pure functions over tile ids 0..33 (see :mod:`settle.tiles.notation`); no I/O.
Errors in the input are :class:`ValueError` with a message naming the bad value.

Typical use::

    from settle.tiles import TileHand, evaluate
    hand = TileHand.parse("22m 345m 678p 234s 666s", win_tile="6s", indicator="4s")
    for scored in evaluate("wuhan", hand, by="self_draw"):
        print(sorted(scored.fans), scored.reading.substitutions)
"""

from settle.tiles.fans import (
    BIG_HANDS,
    OPTION_DEFAULTS,
    REGIONS,
    SITUATIONS,
    VOCABULARY,
    WIN_BY,
    Evaluation,
    ScoredReading,
    describe,
    evaluate,
    evaluate_all,
)
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
from settle.tiles.shapes import is_seven_pairs, is_win, is_win_bruteforce
from settle.tiles.wildcards import (
    RushanBao,
    WuhanWildcards,
    WuxueWildcards,
    rushan_bao,
    wuhan_wildcards,
    wuxue_wildcards,
)

__all__ = [
    "BIG_HANDS",
    "KONG_KINDS",
    "LOOSE",
    "MELD_KINDS",
    "OPTION_DEFAULTS",
    "REGIONS",
    "SEVEN_PAIRS",
    "SITUATIONS",
    "STANDARD",
    "VOCABULARY",
    "WIN_BY",
    "Evaluation",
    "Meld",
    "Reading",
    "RushanBao",
    "ScoredReading",
    "TileHand",
    "WuhanWildcards",
    "WuxueWildcards",
    "describe",
    "enumerate_readings",
    "evaluate",
    "evaluate_all",
    "format_chinese",
    "format_tiles",
    "is_seven_pairs",
    "is_win",
    "is_win_bruteforce",
    "parse_tile",
    "parse_tiles",
    "rushan_bao",
    "tile_to_chinese",
    "tile_to_str",
    "to_counts",
    "wuhan_wildcards",
    "wuxue_wildcards",
]
