"""Tile-level settlement (issue 7): settle a hand from the winner's tiles, and check claimed fans.

Sources: HAND-FORMAT.md "The win" (``win.tiles``); RULINGS G3 G4 (what the melds give), G7
(never guess: the winning tile and the indicator are required), G10 (situational items),
H8 H12, W12 W15 W16, R3 R3b R9 (the tile-level rules, applied by :mod:`settle.tiles`).

A hand whose ``win`` (or one of whose wins, Rushan R8) has ``tiles`` goes through four steps:

1. **Read the tiles.**  Each text (``hand``, ``win_tile``, ``melds[i].tiles``, ``indicator``,
   ``bao_tile``) is parsed by the tile engine; every engine error becomes a
   :class:`~settle.errors.Problem` at the key that holds the bad text
   (``win.tiles.melds[1].tiles``): the key the text was read from, or the ``field`` of the
   engine's :class:`~settle.tiles.TileError` (never read off the message).
2. **The melds give the facts.**  The winner's ``opens`` are the claimed melds in meld order
   (chow, pung, exposed kong, and the 碰 under an added kong: G3, G4), fed by their ``from``;
   the winner's ``exposed``/``added``/``concealed`` kongs are the kong melds.  When
   ``players.<winner>.opens``/``kongs`` are given too they must agree (else a problem naming
   both keys).  The *effective hand* is the same plain document with those facts filled in,
   validated by the normal pipeline, so every shared and regional check applies.
3. **The fans.**  Situational items (the region's ``TileRules.situations``: 杠上花/杠开, 海底捞,
   天胡, 地胡, 摸宝, 宝中宝, 抢杠) cannot be seen in tiles: they come from ``win.fans`` and are
   passed to the engine.  Every other item named in ``win.fans`` is a *shape claim*.  With
   shape claims, the claims are settled as given (``settle check`` compares them with the
   tiles), provided some reading of the tiles is a legal win.  Without, every legal reading
   is settled through the region's own ``settle`` and the one a player would claim is kept:
   most for the winner, then without 包牌, then with fewer wildcard substitutions (then the
   engine's order, most fans first).
4. **Say why.**  The settlement's reasons gain steps (worded by :data:`settle.tiles.messages.TILES`)
   naming what the melds gave, the reading kept, the wildcards' values and the reason it was
   chosen, and how many readings were considered; ``Settlement.reading`` holds the same as data
   (see :func:`reading_record`).

The package, by concern:

* :mod:`.region`: the region's tile rules (:func:`tile_rules`) and the options its engine reads
  (:func:`tile_options`);
* :mod:`.results`: the public results (:class:`Candidate`, :class:`Choice`, :class:`Difference`
  and :data:`DIFFERENCE_KINDS`, :class:`ClaimCheck`) and :class:`IllegalWin`;
* :mod:`.reading`: steps 1–2, the tiles read (:class:`TileWin`) and the effective hand
  (:func:`prepare`, :class:`Prepared`), with the problems at the keys the user wrote;
* :mod:`.choosing`: step 3, the fans, the engine's readings and the one kept (:func:`choose`);
* :mod:`.reasons`: step 4, the reasons' steps and ``Settlement.reading`` (:func:`reading_record`);
* :mod:`.resolution`: :func:`resolve`, :func:`settle_with_tiles`, :func:`parse_with_tiles`;
* :mod:`.check`: ``settle check`` (:func:`check_claims`).

The region's tile rules are its :class:`~settle.tiles.TileRules` (``region.tile_rules()``); no
region is named here.

Everything here is a pure function of its arguments (no I/O).
"""

from __future__ import annotations

from settle.engine.tilelevel.check import check_claims, counted_fans, item_value
from settle.engine.tilelevel.choosing import (
    choice_key,
    choose,
    engine_problem,
    evaluation,
    implied,
    ordered,
    refuse_unwinnable,
    settle_candidate,
    shape_claims,
    situations,
    with_fans,
)
from settle.engine.tilelevel.reading import ORDINARY_KONGS, Origin, Prepared, TileWin, prepare, read_tiles, wildcard
from settle.engine.tilelevel.reasons import (
    choice_steps,
    fact_steps,
    fan_items,
    fan_labels,
    reading_record,
    reading_step,
    reading_text,
)
from settle.engine.tilelevel.region import tile_options, tile_rules
from settle.engine.tilelevel.resolution import Resolution, parse_with_tiles, resolve, settle_with_tiles
from settle.engine.tilelevel.results import (
    DIFFERENCE_KINDS,
    Candidate,
    Choice,
    ClaimCheck,
    Difference,
    IllegalWin,
    illegal_win,
    problems_step,
)

__all__ = [
    "DIFFERENCE_KINDS",
    "ORDINARY_KONGS",
    "Candidate",
    "Choice",
    "ClaimCheck",
    "Difference",
    "IllegalWin",
    "Origin",
    "Prepared",
    "Resolution",
    "TileWin",
    "check_claims",
    "choice_key",
    "choice_steps",
    "choose",
    "counted_fans",
    "engine_problem",
    "evaluation",
    "fact_steps",
    "fan_items",
    "fan_labels",
    "illegal_win",
    "implied",
    "item_value",
    "ordered",
    "parse_with_tiles",
    "prepare",
    "problems_step",
    "read_tiles",
    "reading_record",
    "reading_step",
    "reading_text",
    "refuse_unwinnable",
    "resolve",
    "settle_candidate",
    "settle_with_tiles",
    "shape_claims",
    "situations",
    "tile_options",
    "tile_rules",
    "wildcard",
    "with_fans",
]
