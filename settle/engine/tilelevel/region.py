"""What the tile-level settlement takes from the region: its :class:`~settle.tiles.TileRules`
(:func:`tile_rules`, loaded once per region) and the hand's options its engine reads
(:func:`tile_options`).  Every step below uses them; no region is named here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from settle.errors import HandError
from settle.model import Hand
from settle.rules.registry import Region
from settle.tiles import TileRules


def tile_rules(region: Region) -> TileRules:
    """The region's :class:`~settle.tiles.TileRules` (Wuhan H8 H12, Wuxue W12 W15 W16, Rushan R9 ...),
    loaded once per region (its ``tile_rules`` loader).

    Raises :class:`HandError` at ``region`` for a rule set without tile-level play.
    """
    loader = region.tile_rules
    if loader is None:
        raise HandError.at(("region",), f"{region.key} has no tile-level play: give the fans, not win.tiles",
                           kind="no_tile_play", values={"region": region.term.zh})
    rules = _LOADED.get(loader)
    if rules is None:
        rules = _LOADED[loader] = loader()
    return rules


_LOADED: dict[Callable[[], Any], TileRules] = {}
"""Each region's tile rules by its loader (a hand with tiles asks for them a dozen times)."""


def tile_options(region: Region, hand: Hand, rules: TileRules | None = None) -> Mapping[str, Any]:
    """The hand's options the engine reads (the region's ``TileRules.option_defaults``: H12, R3, R9).

    The engine ignores every other option, so only these are read off the model (a full
    ``model_dump`` per evaluation costs more than the rest of a small hand's setup).  An options
    model is frozen and most hands share their region's defaults, so the values read off the last
    few models are kept (the mapping returned is shared: read it, do not change it); values that are
    every default (``True``/``False`` as the defaults) are ``TileRules.option_defaults`` itself.
    ``rules``: the region's tile rules when the caller has them (:func:`tile_rules`: looked up otherwise).
    """
    options = hand.options
    if rules is None:
        rules = tile_rules(region)
    held = _READ.get(id(options))
    if held is not None and held[0] is options and held[1] is rules:
        return held[2]
    return _read_options(options, rules)


def _read_options(options: Any, rules: TileRules) -> Mapping[str, Any]:
    """:func:`tile_options` of an options model not kept yet: its values read, and kept.  (Apart from
    it so that the usual call makes no cell for the comprehensions here, Python 3.11.)"""
    defaults = rules.option_defaults
    read: Mapping[str, Any] = {name: getattr(options, name) for name in defaults if hasattr(options, name)}
    if len(read) == len(defaults) and all(read[name] is value for name, value in defaults.items()):
        read = defaults  # the defaults themselves: the engine takes them as they are (TileRules.resolve_options)
    if len(_READ) >= 16:
        _READ.clear()
    _READ[id(options)] = (options, rules, read)  # the model held, so that its id stays its own
    return read


_READ: dict[int, tuple[object, TileRules, Mapping[str, Any]]] = {}
"""Options models by id -> (the model, the tile rules read for, the values :func:`tile_options` read)."""
