"""Resolution: settle a hand with tiles (steps 1–4): :func:`resolve`, and the entry points
:func:`settle_with_tiles` and :func:`parse_with_tiles`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from settle.core import Settlement
from settle.engine.tilelevel.choosing import choose, evaluation, refuse_unwinnable, shape_claims
from settle.engine.tilelevel.reading import Prepared, TileWin, prepare
from settle.engine.tilelevel.reasons import _with_reasons
from settle.engine.tilelevel.results import Choice
from settle.engine.validation import rule_problems, validate_model
from settle.errors import HandError
from settle.model import Hand, Win
from settle.rules.registry import Region
from settle.tiles import Evaluation


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
    """:func:`resolve`'s hand, settlement and choices: steps 1-4 one after another (:func:`_found`,
    :func:`_chosen`, :func:`_said`)."""
    staged = _found(prepare(data, region, hand))
    if not isinstance(staged, _Staged):
        return staged
    return _said(staged, _chosen(staged))


class _Staged(NamedTuple):
    """A hand between steps 3 and 4: prepared, the tile wins whose fans are read from the tiles
    (``derive``, in order) and the engine's readings of each (``found``, by the win's index)."""

    prepared: Prepared
    derive: Sequence[TileWin]
    found: dict[int, Evaluation]


_Resolved = tuple[Hand, Settlement, tuple[Choice, ...]]


def _found(prepared: Prepared) -> _Staged | _Resolved:
    """Step 3's readings: every tile win's by the engine (a win with shape claims only checked to be
    winnable), or, when every tile winner claimed his fans, the hand settled as claimed (then nothing
    is left to choose).  Raises :class:`HandError` as :func:`resolve` does."""
    current = prepared.hand
    stated = current.win
    wins: Sequence[Win] = stated if isinstance(stated, list) else () if stated is None else (stated,)  # .wins
    tile_wins = prepared.tile_wins
    region = prepared.region
    claimed = []
    derive: Sequence[TileWin] = tile_wins
    for tw in tile_wins:
        if wins[tw.index].fans and shape_claims(region, wins[tw.index]):
            claimed.append(tw)
    if claimed:  # (a loop, not a comprehension reading ``claimed``: no cell made at every call)
        derive = []
        for tw in tile_wins:
            if tw not in claimed:
                derive.append(tw)
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
    return _Staged(prepared, derive, found)


def _chosen(staged: _Staged) -> list[Choice]:
    """Step 3's choices: the reading kept for each winner whose fans are read from the tiles, in order
    (several winners, R8: each keeps the best given the others' so far)."""
    prepared, derive, found = staged
    current = prepared.hand
    choices = []
    for tile_win in derive:
        picked = choose(prepared, current, tile_win, found[tile_win.index])
        assert picked.chosen.hand is not None  # a reading is kept settled, with the hand it settled
        current = picked.chosen.hand
        choices.append(picked)
    return choices


def _said(staged: _Staged, choices: list[Choice]) -> _Resolved:
    """Step 4 once the readings are chosen: the hand as settled, with the tile-level reasons."""
    # The last reading kept was settled on exactly this hand (every winner's fans as kept), and
    # only readings that pass every rule are kept: its settlement is the hand's, as it stands.
    chosen = choices[-1].chosen
    settled = chosen.settlement
    assert settled is not None and chosen.hand is not None
    return chosen.hand, _with_reasons(settled, staged.prepared, choices), tuple(choices)


def settled_many_with_tiles(items: Sequence[tuple[Region, Hand]]) -> list[Settlement | HandError]:
    """:func:`settled_with_tiles` of each pydantic-validated ``(region, hand)`` with tiles, in order: its
    settlement, or the :class:`HandError` it raises (returned, not raised).

    The same steps on the same hands, taken step by step over all of them (every hand read, then
    every hand's readings found, then every hand's reading chosen and said; a hand out at the step
    that refuses it) rather than hand after hand: each step's code and tables stay in the
    processor's caches over the run (issue 14: a tile hand about a fifth cheaper).  Settling is pure,
    so the results are those of one hand after another.  Any other exception (a bug) is raised at
    once, by whichever hand meets it first step by step: :func:`settle.engine.hand.settle_models`
    then settles the hands again one after another, so that the first hand's is the one raised.
    The last step lets go of what the steps made for each hand as soon as the hand is settled, so
    that the next hand's objects take the memory it held while that is still in the processor's
    caches (about 3% less CPU per tile hand than keeping them all to the end).
    """
    out: list[Any] = [None] * len(items)
    prepared: list[tuple[int, Prepared]] = []
    for i, (region, hand) in enumerate(items):
        try:
            prepared.append((i, prepare(None, region, hand)))
        except HandError as exc:
            out[i] = exc
    staged: list[tuple[int, _Staged] | None] = []
    for i, ready in prepared:
        try:
            found = _found(ready)
        except HandError as exc:
            out[i] = exc
            continue
        if isinstance(found, _Staged):
            staged.append((i, found))
        else:
            out[i] = found[1]
    del prepared
    for at, entry in enumerate(staged):
        staged[at] = None  # what the steps made for the hand goes once it is settled
        assert entry is not None
        i, one = entry  # (both let go when the next hand's take their names)
        try:
            out[i] = _said(one, _chosen(one))[1]
        except HandError as exc:
            out[i] = exc
    return out


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
