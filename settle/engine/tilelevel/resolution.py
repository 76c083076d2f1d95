"""Resolution: settle a hand with tiles (steps 1–4): :func:`resolve`, and the entry points
:func:`settle_with_tiles` and :func:`parse_with_tiles`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from settle.core import Settlement
from settle.engine.tilelevel.choosing import choose, evaluation, refuse_unwinnable, shape_claims
from settle.engine.tilelevel.reading import prepare
from settle.engine.tilelevel.reasons import _with_reasons
from settle.engine.tilelevel.results import Choice
from settle.engine.validation import rule_problems, validate_model
from settle.errors import HandError
from settle.model import Hand, Win
from settle.rules.registry import Region


@dataclass(frozen=True)
class Resolution:
    """A hand with tiles resolved: the hand settled (fans as kept) and the choices made."""

    region: Region
    hand: Hand
    settlement: Settlement
    choices: tuple[Choice, ...]


def resolve(data: Mapping[str, Any] | None, region: Region, hand: Hand) -> Resolution:
    """Steps 1–4 for a pydantic-validated ``hand`` (``data`` is its plain document, or None: only
    ``hand`` is read)."""
    return Resolution(region, *_resolved(data, region, hand))


def settled_with_tiles(data: Mapping[str, Any] | None, region: Region, hand: Hand) -> Settlement:
    """``resolve(data, region, hand).settlement``: what :func:`settle.engine.hand.settle_model` settles
    a hand with tiles by (no :class:`Resolution` made).  Raises :class:`HandError` as :func:`resolve`."""
    return _resolved(data, region, hand)[1]


def _resolved(data: Mapping[str, Any] | None, region: Region,
              hand: Hand) -> tuple[Hand, Settlement, tuple[Choice, ...]]:
    """:func:`resolve`'s hand, settlement and choices."""
    prepared = prepare(data, region, hand)
    current = prepared.hand
    stated = current.win
    wins: Sequence[Win] = stated if isinstance(stated, list) else () if stated is None else (stated,)  # .wins
    tile_wins = prepared.tile_wins
    claimed = []
    for tw in tile_wins:
        if wins[tw.index].fans and shape_claims(region, wins[tw.index]):
            claimed.append(tw)
    derive = [tw for tw in tile_wins if tw not in claimed] if claimed else tile_wins
    for tile_win in claimed:
        refuse_unwinnable(tile_win, evaluation(prepared, tile_win))
    if not derive:
        problems = rule_problems(region, current)
        if problems:
            raise HandError(prepared.remap(problems))
        return current, _with_reasons(region.settle(current), prepared, ()), ()
    found = {}
    for tw in derive:
        found[tw.index] = evaluation(prepared, tw)
    choices = []
    for tile_win in derive:  # several winners (R8): each keeps the best given the others' so far
        picked = choose(prepared, current, tile_win, found[tile_win.index])
        assert picked.chosen.hand is not None  # a reading is kept settled, with the hand it settled
        current = picked.chosen.hand
        choices.append(picked)
    # The last reading kept was settled on exactly this hand (every winner's fans as kept), and
    # only readings that pass every rule are kept: its settlement is the hand's, as it stands.
    settled = choices[-1].chosen.settlement
    assert settled is not None
    return current, _with_reasons(settled, prepared, choices), tuple(choices)


def settle_with_tiles(data: Mapping[str, Any]) -> Settlement:
    """Settle a hand document whose win gives the winner's tiles (``win.tiles``).

    ``data`` is the plain hand (parsed YAML/JSON).  Returns the
    :class:`~settle.core.Settlement` of the effective hand (opens and kongs from the melds):
    with the claimed fans when ``win.fans`` names a shape item, else with the fans of the
    reading that pays the winner most, its notes saying which reading and why.  A hand
    without tiles is settled as usual.  Raises :class:`~settle.errors.HandError` for bad
    input: notation and engine errors at their key (``win.tiles.melds[1].tiles``), melds
    that disagree with ``players.<winner>.opens``/``kongs``, a hand with no legal reading
    (at ``win.tiles``, with the engine's reason), and every usual problem.
    """
    region, hand = validate_model(data)
    return resolve(data, region, hand).settlement


def parse_with_tiles(data: Mapping[str, Any]) -> tuple[Region, Hand]:
    """:func:`settle.engine.hand.parse_hand` for a hand with tiles: the region and the effective
    ``Hand`` with the fans that :func:`settle_with_tiles` settles.  Raises as it does."""
    region, hand = validate_model(data)
    resolution = resolve(data, region, hand)
    return region, resolution.hand
