"""Library entry points: validate a hand, settle it.  Pure functions, no I/O.

>>> from settle import settle_hand
>>> result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
...                       "win": {"winner": "D", "by": "discard", "from": "A"},
...                       "fans": {"A": 3, "B": 2, "C": 3, "D": 4}})
>>> result.net
{'A': -128, 'B': -64, 'C': -128, 'D': 320}

Validation and its messages (pydantic's errors at the user's key paths, the rule checks beside
them) are in :mod:`settle.engine.validation`; hands with tiles go through
:mod:`settle.engine.tilelevel`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from settle.core import Settlement
from settle.engine.validation import has_tiles, rule_problems, validate_model
from settle.errors import HandError
from settle.rules.checks import all_clear
from settle.rules.registry import Region

if TYPE_CHECKING:
    from settle.model import Hand

__all__ = ["parse_hand", "settle_hand", "settle_many", "settle_model", "settle_models", "settle_validated_hand"]


def parse_hand(data: Mapping[str, Any]) -> tuple[Region, Hand]:
    """Validate a hand document (plain dict) into its region and region-typed ``Hand`` model.

    Raises :class:`HandError` listing every problem found: pydantic's (types, unknown keys,
    vocabulary) first, then the shared and the region's rule checks (when pydantic refused
    some values, those of their problems that stand whatever the values were meant to be).

    A hand with ``win.tiles`` goes through :func:`settle.engine.tilelevel.resolve`: the
    winner's ``opens``/``kongs`` come from the melds, and when ``win.fans`` names no shape
    item the fans are those of the reading that pays the winner most (issue 7).
    """
    region, hand = validate_model(data)
    if has_tiles(hand):
        from settle.engine.tilelevel import resolve  # the tile engine loads only for a hand with tiles

        return region, resolve(data, region, hand).hand
    problems = rule_problems(region, hand)
    if problems:
        raise HandError(problems)
    return region, hand


def settle_hand(data: Mapping[str, Any]) -> Settlement:
    """Settle one hand given as plain data (the parsed YAML/JSON of a hand file).

    Returns a :class:`~settle.core.Settlement` (net per player in points, transfers
    with their explanations, next dealer).  Raises :class:`~settle.errors.HandError`
    for input that cannot be settled; never returns a partial result.  With ``win.tiles``
    the notes say which reading of the tiles was settled and why
    (:func:`settle.engine.tilelevel.settle_with_tiles`).
    """
    region, hand = validate_model(data)
    return settle_model(region, hand, data)


def settle_model(region: Region, hand: Hand, data: Mapping[str, Any] | None = None) -> Settlement:
    """What :func:`settle_hand` does once ``hand`` is validated (``region``'s model of ``data``): the
    rule checks and the region's scoring, or for a hand with ``win.tiles`` the tile level
    (:func:`settle.engine.tilelevel.resolve`, which reads the validated hand alone: ``data`` may be
    left out).  Raises :class:`HandError` as :func:`settle_hand` does.  The batch settles a JSON line
    validated from its bytes through this (issue 14).

    The usual hand (no tiles, nothing for the shared checks to say) is told by one walk of it
    (:func:`~settle.rules.checks.all_clear` with ``plain``), then checked by the region and settled
    here, as :func:`settle_validated_hand` does; any other is looked at again."""
    if all_clear(hand, region, True):  # plain: False for a hand with tiles too
        problems = region.check(hand)
    else:
        if _with_tiles(hand):
            return (_TILE_SETTLEMENT[0] if _TILE_SETTLEMENT else _tile_settlement())(data, region, hand)
        problems = rule_problems(region, hand)
    if problems:
        raise HandError(problems)
    return region.settle(hand)


def settle_models(items: Sequence[tuple[Region, Hand]]) -> list[Settlement | HandError]:
    """:func:`settle_model` of each validated ``(region, hand)`` (no document), in order: its
    :class:`~settle.core.Settlement`, or the :class:`HandError` it raises (returned, not raised).

    Hands with tiles are settled together by the tile level, step by step over all of them
    (:func:`settle.engine.tilelevel.resolution.settled_many_with_tiles`: each step's code and tables
    stay in the processor's caches), the others by :func:`settle_model`; the results are those of one
    hand after another (settling is pure).  Any other exception (a bug) is raised as one hand after
    another raises it: on one, the hands are settled again in order, each by :func:`settle_model`.
    The batch settles its validated hands through this (issue 14).
    """
    try:
        return _settled_models(items)
    except Exception:  # a bug: raised by the hand that raises it one hand after another
        out: list[Settlement | HandError] = []
        for region, hand in items:
            try:
                out.append(settle_model(region, hand))
            except HandError as exc:
                out.append(exc)
        return out


def _settled_models(items: Sequence[tuple[Region, Hand]]) -> list[Settlement | HandError]:
    """:func:`settle_models`, its other exceptions raised."""
    out: list[Any] = []
    tiled: list[tuple[Region, Hand]] = []
    places: list[int] = []
    for region, hand in items:
        if _with_tiles(hand):
            places.append(len(out))
            tiled.append((region, hand))
            out.append(None)  # settled by the tile level below
            continue
        try:
            out.append(settle_model(region, hand))
        except HandError as exc:
            out.append(exc)
    if tiled:
        from settle.engine.tilelevel.resolution import settled_many_with_tiles  # only with a hand with tiles

        for place, result in zip(places, settled_many_with_tiles(tiled), strict=True):
            out[place] = result
    return out


def _with_tiles(hand: Hand) -> bool:
    """Whether a win of ``hand`` gives the winner's tiles (``win.tiles``: settled by the tile level).
    ``type(win) is list``, not isinstance: isinstance of a model reads its ``__class__`` through
    pydantic's ``__getattr__`` hook."""
    win = hand.win
    return win is not None and (has_tiles(hand) if type(win) is list else win.tiles is not None)  # type: ignore[union-attr]


_TILE_SETTLEMENT: list[Callable[[Mapping[str, Any] | None, Region, Hand], Settlement]] = []
""":func:`settle.engine.tilelevel.settled_with_tiles`, once a hand with tiles has loaded the tile engine."""


def _tile_settlement() -> Callable[[Mapping[str, Any] | None, Region, Hand], Settlement]:
    """:func:`settle.engine.tilelevel.settled_with_tiles`: the tile engine loads with the first hand with
    tiles (a hand without loads none of it), and is looked up once."""
    if not _TILE_SETTLEMENT:
        from settle.engine.tilelevel.resolution import settled_with_tiles

        _TILE_SETTLEMENT.append(settled_with_tiles)
    return _TILE_SETTLEMENT[0]


def settle_validated_hand(region: Region, hand: Hand) -> Settlement:
    """Settle a hand already validated into ``region``'s ``Hand`` model, without tiles (what
    :func:`settle_hand` does after validating, and the batch after validating a line from its bytes,
    :func:`settle.engine.validation.lean_line`): the shared and the region's rule checks, then the
    region's scoring.  Raises :class:`HandError` with every problem the checks find."""
    # rule_problems' usual case, a frame fewer: the shared checks clear the hand (one walk that builds
    # no message), then the region's (a list of problems, empty when it has none).
    problems = region.check(hand) if all_clear(hand, region) else rule_problems(region, hand)
    if problems:
        raise HandError(problems)
    return region.settle(hand)


def settle_many(hands: Iterable[Mapping[str, Any]]) -> Iterator[Settlement | HandError]:
    """Settle each hand in turn, yielding its Settlement or its HandError (never raising for input).

    Lazily consumes ``hands``, so it can be mapped over a stream or a partition.
    """
    for data in hands:
        try:
            yield settle_hand(data)
        except HandError as exc:
            label = data.get("id") if isinstance(data, Mapping) else None
            yield exc.located(hand=None if label is None else str(label))


