"""Step 4: say why.  The tile-level steps of a settlement's reasons (worded by
:data:`settle.tiles.messages.TILES`): what the melds gave, the reading kept and why, the readings
refused; and the reading kept as data (:func:`reading_record`, ``Settlement.reading``)."""

from __future__ import annotations

import dataclasses
import inspect
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from settle.core import Settlement, Step
from settle.engine.tilelevel.reading import Prepared, wildcard
from settle.engine.tilelevel.region import tile_rules
from settle.engine.tilelevel.results import Candidate, Choice
from settle.errors import format_path
from settle.model import Hand
from settle.rules.registry import Region
from settle.tiles import ScoredReading, TileHand, format_tiles, tile_to_str
from settle.tiles.messages import FramedReading, ReadingStep, tile_catalog
from settle.tiles.messages import fan_labels as _labels_text
from settle.tiles.notation import GROUP_TEXT
from settle.tiles.rules import reason_key

if TYPE_CHECKING:
    from settle.vocab import Pattern


def fan_items(region: Region, fans: Iterable[str]) -> tuple[dict[str, str], ...]:
    """The fans as ``{"key", "zh"}`` items (what the ``tiles_*`` steps name), in the order given.

    One tuple for every hand with the same fans (read only, as a step's values are): the catalogs
    find the texts of the reading kept by its fans' identity (:class:`~settle.tiles.messages.TileCatalog`),
    kept per region table and fans (at most :data:`STEPS_KEPT`)."""
    patterns = region.patterns
    names = tuple(fans)
    key = (id(patterns), *names)
    held = _FAN_ITEMS.get(key)
    if held is not None and held[0] is patterns:
        return held[1]
    items = _items(patterns, names)
    if len(_FAN_ITEMS) >= STEPS_KEPT:
        _FAN_ITEMS.clear()
    _FAN_ITEMS[key] = (patterns, items)
    return items


def _items(patterns: Mapping[str, Pattern], names: Sequence[str]) -> tuple[dict[str, str], ...]:
    """:func:`fan_items` made.  (Helpers such as this one hold the comprehensions of the functions a hand
    calls: a comprehension reading a local makes its function allocate a cell at every call, Python 3.11.)"""
    return tuple([{"key": k, "zh": patterns[k].zh} for k in names])


_FAN_ITEMS: dict[tuple[Any, ...], tuple[object, tuple[dict[str, str], ...]]] = {}
"""(the region's table by identity, *fan keys) -> (the table, :func:`fan_items` of those fans)."""


def fan_labels(region: Region, fans: Iterable[str]) -> str:
    """``清一色 qingyise, 硬胡 hard`` (or ``no shape item``), in English."""
    return _labels_text(fan_items(region, fans))


def reading_step(region: Region, tiles: TileHand, scored: ScoredReading, wild: int | None) -> Step:
    """The reading as a ``tiles_read`` step: its shape, the groups as read (tile notation), the
    melds, and what each wildcard stands for (``read_as``: (tile, or None for itself; count), in
    the order first met), with the wildcard's name (``TileRules.wildcard_name``: 癞子 H12, 宝 W15).
    ``wild``: the hand's wildcard tile (:func:`wildcard`), None without one.  A :class:`ReadingStep`
    (never kept by the catalogs: it is the hand's own).
    """
    reading = scored.reading
    groups = tuple(map(GROUP_TEXT.__getitem__, reading.groups)) if reading.groups else (format_tiles(reading.tiles),)
    melds = tuple({"kind": m.kind, "kong": m.kong_kind, "tiles": format_tiles(m.tiles)}
                  for m in tiles.melds) if tiles.melds else ()
    read_as = _read_as(reading.wild_values, wild) if wild is not None and reading.wild_values else ()
    return _step(ReadingStep, ("", "tiles_read", {"shape": reading.shape, "groups": groups, "melds": melds,
                                                  "wildcard": tile_rules(region).wildcard_name,
                                                  "wild": None if wild is None else tile_to_str(wild),
                                                  "read_as": read_as}))


def _read_as(values: Sequence[int], wild: int) -> tuple[tuple[str | None, int], ...]:
    """:func:`reading_step`'s ``read_as``: what the wildcards stand for, (tile, or None for itself; count),
    in the order first met."""
    return tuple(Counter(None if v == wild else tile_to_str(v) for v in values).items())


_step = tuple.__new__
"""``_step(ReadingStep, (rule, kind, values))``: ``ReadingStep(rule, kind, values)`` (a named tuple), without
the call of its ``__new__``."""


def reading_text(region: Region, hand: Hand, tiles: TileHand, scored: ScoredReading) -> str:
    """``123m 22m 456m 555m 789m [pung 777p] (癞子 6s as 5m)``: the groups as read, the melds,
    and what each wildcard stands for (:func:`reading_step` in English)."""
    return tile_catalog(region.catalog).text(reading_step(region, tiles, scored, wildcard(region, hand, tiles)), "en")


def reading_record(choice: Choice) -> dict[str, Any]:
    """The reading kept for a winner as data (``Settlement.reading``):
    ``{"winner", "fans": [keys], "substitutions": [{"wildcard": "6s", "as": "2m"}, ...], "considered": n}``,
    one substitution per wildcard read as another tile (H8 W16; none when every one is itself),
    ``considered`` the legal readings settled."""
    reading = choice.chosen.scored.reading
    wild = choice.wild
    substitutions = [] if wild is None else _substitutions(reading.wild_values, wild)
    return {"winner": choice.winner, "fans": list(choice.chosen.fans), "substitutions": substitutions,
            "considered": len(choice.considered)}


def _substitutions(values: Sequence[int], wild: int) -> list[dict[str, str]]:
    """:func:`reading_record`'s substitutions: each wildcard read as another tile."""
    return [{"wildcard": tile_to_str(wild), "as": tile_to_str(v)} for v in values if v != wild]


WHY_ONLY_LEGAL = Step("", "why_only_legal", {})
"""Why the reading kept was kept when it was the only legal one (one step for every hand)."""
WHY_ONLY_ALLOWED = Step("", "why_only_allowed", {})
"""Why, when the hand's facts refused every other legal reading."""


def _why(chosen: Candidate, others: Sequence[Candidate], winner: str, region: Region) -> Step:
    """Why ``chosen`` beat the next best of ``others`` (same order as :func:`choice_key`), as a step."""
    if not others:
        return WHY_ONLY_ALLOWED
    runner = others[0]
    mine, theirs = chosen.net(winner), runner.net(winner)
    versus = {"next_fans": fan_items(region, runner.fans), "next_net": theirs}
    if mine != theirs:
        return Step("", "why_most", {"winner": winner, "net": mine, **versus})
    if chosen.liable is None and runner.liable is not None:
        return Step("", "why_no_liable", {"liable": runner.liable, **versus})
    if chosen.substitutions < runner.substitutions:
        return Step("", "why_fewer_substitutions", {"substitutions": chosen.substitutions,
                                                    "next_substitutions": runner.substitutions, **versus})
    return Step("", "why_first", versus)


def _with_reasons(settlement: Settlement, prepared: Prepared, choices: Sequence[Choice]) -> Settlement:
    """The settlement with the tile-level steps after its own reasons, worded by the tile words in
    front of its catalog (:func:`~settle.tiles.messages.tile_catalog`), and ``reading`` filled in
    (the first tile winner's reading kept; the others under ``"others"`` when several winners'
    readings were chosen, R8; None when every tile winner's claims were settled as given)."""
    steps = fact_steps(prepared)
    tile_wins = prepared.tile_wins
    if len(choices) == 1 and len(tile_wins) == 1 and choices[0].winner == tile_wins[0].winner:
        # one tile winner, his reading chosen (the usual hand): no tables of choices to fill
        only = choices[0]
        steps += choice_steps(prepared.region, only)
        return _replaced_fields(settlement, _REASONS_READING_CATALOG, (*settlement.reasons, *steps),
                                reading_record(only), tile_catalog(settlement.catalog))
    chosen = {}
    records = []
    for c in choices:
        chosen[c.winner] = c
        records.append(reading_record(c))
    for tile_win in tile_wins:
        choice = chosen.get(tile_win.winner)
        if choice is None:
            claims = fan_items(prepared.region, prepared.hand.wins[tile_win.index].fans)
            steps.append(Step("", "tiles_claimed", {"winner": tile_win.winner, "fans": claims}))
        else:
            steps += choice_steps(prepared.region, choice)
    reading = None
    if records:
        reading = {**records[0], "others": records[1:]} if len(records) > 1 else records[0]
    return _replaced_fields(settlement, _REASONS_READING_CATALOG, (*settlement.reasons, *steps), reading,
                            tile_catalog(settlement.catalog))


def _replaced(settlement: Settlement, changes: dict[str, Any]) -> Settlement:
    """``dataclasses.replace(settlement, **changes)``: the same new settlement, made by one positional
    call of its ``__init__`` (``replace`` looks its fields up and passes them by keyword, each time).

    The call is written once per class and set of changed fields (:func:`_replacer`); a class whose
    ``__init__`` parameters are not exactly its init fields, each by position or keyword, is left to
    ``replace``, and so is a change of anything else."""
    return _replaced_fields(settlement, tuple(changes), *changes.values())


def _replaced_fields(settlement: Settlement, fields: tuple[str, ...], *values: Any) -> Settlement:
    """:func:`_replaced` of ``fields`` given ``values`` (in that order), the fields as a tuple a caller
    keeps (no dict of changes made per call)."""
    key = (type(settlement), fields)
    replacer = _REPLACERS.get(key)
    if replacer is None:
        replacer = _REPLACERS[key] = _replacer(*key)
    if replacer is _USE_REPLACE:
        return replace(settlement, **dict(zip(fields, values, strict=True)))
    new: Settlement = replacer(settlement, *values)
    return new


def _replacer(cls: type, changed: tuple[str, ...]) -> Callable[..., Any]:
    """``(instance, *new values of changed) -> new instance``: one positional call of ``cls`` with every
    init field, the ``changed`` ones given, the others read off the instance; :data:`_USE_REPLACE`
    when ``cls`` is no dataclass whose ``__init__`` parameters are exactly its init fields in order,
    each positional-or-keyword, or ``changed`` names something else."""
    if not dataclasses.is_dataclass(cls):
        return _USE_REPLACE
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f.name for f in dataclasses.fields(cls) if f.init]
    if (len(fields) < 2 or [p.name for p in parameters] != fields or not set(changed) <= set(fields)
            or any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in parameters)):
        return _USE_REPLACE
    given = {name: f"new_{i}" for i, name in enumerate(changed)}
    arguments = ", ".join(given.get(name, f"old.{name}") for name in fields)
    namespace: dict[str, Any] = {"cls": cls}
    exec(f"def replaced(old, {', '.join(given.values())}):\n    return cls({arguments})\n", namespace)
    replaced: Callable[..., Any] = namespace["replaced"]
    return replaced


def _use_replace(*_: Any) -> Any:
    """The mark of a class (or change) left to ``dataclasses.replace`` (:func:`_replacer`); never called."""
    raise AssertionError("not a replacer")


_USE_REPLACE: Callable[..., Any] = _use_replace
_REPLACERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}
"""(settlement class, fields changed) -> :func:`_replacer` of them."""
_REASONS_READING_CATALOG = ("reasons", "reading", "catalog")
"""The fields :func:`_with_reasons` changes."""


def choice_steps(region: Region, choice: Choice) -> list[Step]:
    """The steps that say which reading was kept for a winner, why, and what else was considered:
    ``tiles_reading``, ``tiles_chosen``, then ``tiles_refused`` (readings the hand's facts refuse)
    and ``tiles_not_legal`` (readings a tile rule forbids, their reasons by ruling) where any.
    ``tiles_refused`` holds the problems' messages (English only) and their key paths."""
    chosen = choice.chosen
    reading = chosen.scored.reading
    wild, winner = choice.wild, choice.winner
    read = reading_step(region, choice.tiles, chosen.scored, wild)
    # A closed hand read as groups, no wildcard substituted (what reading_step gives then: no melds, no
    # read_as, the groups' notation): the catalog may read its step without testing it (FramedReading).
    framed = (not choice.tiles.melds and reading.groups and not (wild is not None and reading.wild_values)
              and type(winner) is str and type(reading.shape) is str)
    steps = [_step(FramedReading if framed else ReadingStep,
                   ("", "tiles_reading", {"winner": winner, "read": read, "fans": fan_items(region, chosen.fans)})),
             _chosen_step(choice.winner, choice.why, len(choice.considered))]
    considered = choice.considered
    refused = [c for c in considered if c.settlement is None] if len(considered) > 1 or \
        considered[0].settlement is None else ()  # one reading, kept (the usual case): none refused
    if refused:
        problems = tuple(dict.fromkeys(p.message for c in refused for p in c.problems))
        paths = tuple(dict.fromkeys(format_path(p.path) for c in refused for p in c.problems))
        steps.append(Step("", "tiles_refused", {"count": len(refused), "problems": problems, "paths": paths}))
    if choice.rejected:
        reasons = tuple(sorted(dict.fromkeys(why for _, why in choice.rejected), key=reason_key))
        steps.append(Step("", "tiles_not_legal", {"count": len(choice.rejected), "reasons": reasons}))
    return steps


def fact_steps(prepared: Prepared) -> list[Step]:
    """What the melds gave each winner, as ``tiles_melds`` steps (G4; G8: the facts behind the
    amounts are shown): the opens, who fed them, the four-tile kongs by kind."""
    out = []
    for name, origin in prepared.origins.items():
        tile_win = origin.tile_win
        key = (name, len(tile_win.claims), tile_win.feeders or (), tuple(tile_win.kongs.items()))
        step = _MELD_STEPS.get(key)
        if step is None:
            step = _kept(_MELD_STEPS, key, Step("G4", "tiles_melds", {"winner": name, "opens": key[1],
                                                                      "feeders": key[2], "kongs": key[3]}))
        out.append(step)
    return out


def _chosen_step(winner: str, why: Step, considered: int) -> Step:
    """The ``tiles_chosen`` step: which reading was kept for ``winner``, why, out of how many."""
    if why is WHY_ONLY_LEGAL or why is WHY_ONLY_ALLOWED:  # the usual reasons: one step per value
        key = (winner, why.kind, considered)
        step = _CHOSEN_STEPS.get(key)
        if step is None:
            step = _kept(_CHOSEN_STEPS, key, Step("", "tiles_chosen", {"winner": winner, "why": why,
                                                                        "considered": considered}))
        return step
    return Step("", "tiles_chosen", {"winner": winner, "why": why, "considered": considered})


def _kept(table: dict[tuple[Any, ...], Step], key: tuple[Any, ...], step: Step) -> Step:
    """``step`` kept in ``table`` under ``key`` (emptied past :data:`STEPS_KEPT`), and returned."""
    if len(table) >= STEPS_KEPT:
        table.clear()
    table[key] = step
    return step


STEPS_KEPT = 1024
"""How many ``tiles_melds`` and ``tiles_chosen`` steps are kept, each."""
_MELD_STEPS: dict[tuple[Any, ...], Step] = {}
"""(winner, opens, feeders, kongs) -> the ``tiles_melds`` step of those values, one object for every hand
that has them: the catalogs find a step's words and JSON form by its identity first
(:meth:`~settle.core.text.Catalog.note`), so a step that recurs is best the same object."""
_CHOSEN_STEPS: dict[tuple[Any, ...], Step] = {}
"""(winner, why kind, readings considered) -> the ``tiles_chosen`` step of the usual reasons, likewise."""
