"""The rule sets settle knows: the :class:`Region` interface every one implements, and the registry.

A region is one package (``settle/rules/<key>/``) holding everything that rule set knows: its
vocabulary and aliases, options, checks, scoring, tile rules, dealer rotation, words and message
templates.  Its ``__init__`` is light: ``TERM`` (key, Chinese name, aliases), ``ORDER`` (where it is
listed) and ``load()``, which loads the heavy part on first use.  The registry finds the
built-in packages under :mod:`settle.rules`, and any other region a distribution registers under
the entry-point group ``settle.regions`` (the entry point names a :class:`Region`), so a separate
package can add one without changing settle.

The shared machinery (debts, caps, 承包 redirect, largest remainder) is in :mod:`settle.core`; the
checks every region shares are in :mod:`settle.rules.checks`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from settle.core import Catalog, Settlement, Template
from settle.errors import HandError, Problem, written
from settle.records import Frozen
from settle.vocab import Hint, KongKind, Pattern, Term, close_word, lookup_table, simplified

if TYPE_CHECKING:
    from settle.model import Hand  # not loaded with the registry: the models come with a region

CheckFn = Callable[[Any], list[Problem]]
SettleFn = Callable[[Any], Settlement]

ENTRY_POINT_GROUP = "settle.regions"
"""Distributions add regions under this entry-point group; each entry point names a :class:`Region`."""


class Region(Frozen):
    """Everything the shared layers need to know about one rule set (one instance per region).

    ``term``: key, Chinese name, aliases (G14); ``unit``: 番, 斤 or 分; ``seats``: allowed player
    counts (W14, H11, R11); ``patterns``/``kongs``: the vocabulary tables; ``options``: the options
    model; ``hand_model``: the region's ``Hand`` model; ``check`` returns the region's legality
    problems (G10, G13 ...); ``settle`` scores a checked hand into a :class:`~settle.core.Settlement`.
    ``explicit_totals``: whether a per-player ``fans``/``jin`` total is allowed (G5);
    ``has_fish``: 飘鱼 exists (R6); ``has_abandon``: 逃跑 exists (H9); ``dealer_needed_on_win``: the
    dealer matters even when someone wins.  ``catalog``: the words of the region's steps;
    ``rotation_rule``: the ruling of its dealer rotation (H10, W13, R10); ``discarder``: what the
    region calls the discarder (放冲, 点炮); ``tile_rules``: a loader of the tile engine's rules for
    the region (:class:`settle.tiles.TileRules`, loaded for a hand with tiles), None without
    tile-level play (it also says what ``settle check`` counts and how it words an item's worth);
    ``option_zh``: the Chinese names of options whose description does not start with one;
    ``problem_zh``: the Chinese words of the region's own problems (:class:`~settle.errors.Problem`
    ``kind`` -> :data:`~settle.core.Template` over its ``values``), for ``--lang zh`` (issue 16 #9);
    the English is each problem's ``message``.

    Immutable, and equal and shown as a frozen dataclass would be (``catalog``, ``problem_zh`` not shown); written
    out, as making a dataclass compiles its methods, which every start-up would pay (issue 14).
    """

    __slots__ = ("catalog", "check", "dealer_needed_on_win", "discarder", "explicit_totals", "hand_model",
                 "has_abandon", "has_fish", "kongs", "option_zh", "options", "patterns", "problem_zh",
                 "rotation_rule", "seats", "settle", "term", "tile_rules", "unit")
    _FIELDS = ("term", "unit", "seats", "patterns", "kongs", "options", "hand_model", "check", "settle",
               "explicit_totals", "has_fish", "has_abandon", "dealer_needed_on_win", "catalog",
               "rotation_rule", "discarder", "tile_rules", "option_zh", "problem_zh")
    _UNSHOWN = ("catalog", "problem_zh")

    term: Term
    unit: str
    seats: tuple[int, ...]
    patterns: Mapping[str, Pattern]
    kongs: Mapping[str, KongKind]
    options: type[BaseModel]
    hand_model: type[Hand]
    check: CheckFn
    settle: SettleFn
    explicit_totals: bool
    has_fish: bool
    has_abandon: bool
    dealer_needed_on_win: bool
    catalog: Catalog
    rotation_rule: str
    discarder: str
    tile_rules: Callable[[], Any] | None
    option_zh: Mapping[str, str]
    problem_zh: Mapping[str, Template]

    def __init__(self, term: Term, unit: str, seats: tuple[int, ...], patterns: Mapping[str, Pattern],
                 kongs: Mapping[str, KongKind], options: type[BaseModel], hand_model: type[Hand],
                 check: CheckFn, settle: SettleFn, explicit_totals: bool = True, has_fish: bool = False,
                 has_abandon: bool = False, dealer_needed_on_win: bool = True, catalog: Catalog | None = None,
                 rotation_rule: str = "", discarder: str = "点炮", tile_rules: Callable[[], Any] | None = None,
                 option_zh: Mapping[str, str] | None = None,
                 problem_zh: Mapping[str, Template] | None = None) -> None:
        values = (term, unit, seats, patterns, kongs, options, hand_model, check, settle, explicit_totals,
                  has_fish, has_abandon, dealer_needed_on_win, Catalog({}) if catalog is None else catalog,
                  rotation_rule, discarder, tile_rules, {} if option_zh is None else option_zh,
                  {} if problem_zh is None else problem_zh)
        for name, value in zip(self._FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    @property
    def key(self) -> str:
        """Canonical region key (the ``region`` value of a hand file)."""
        return self.term.key


class _Entry:
    """A region the registry found: its term, where it is listed, and the loader of its :class:`Region`.

    A plain class, not a dataclass: making a dataclass generates and compiles its methods, a cost
    every start-up would pay for this private record."""

    __slots__ = ("load", "order", "term")

    def __init__(self, term: Term, order: int, load: Callable[[], Region]) -> None:
        self.term = term
        self.order = order
        self.load = load


@functools.cache
def _builtin() -> dict[str, _Entry]:
    """The region packages under :mod:`settle.rules` (each ``__init__`` defines ``TERM``, ``ORDER``, ``region``)."""
    import settle.rules

    found = []
    for info in pkgutil.iter_modules(settle.rules.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"settle.rules.{info.name}")
        if hasattr(module, "TERM") and hasattr(module, "load"):
            found.append(_Entry(module.TERM, getattr(module, "ORDER", 100), module.load))
    return {e.term.key: e for e in sorted(found, key=lambda e: (e.order, e.term.key))}


@functools.cache
def _plugins() -> dict[str, _Entry]:
    """Regions other distributions register under :data:`ENTRY_POINT_GROUP` (loaded when first asked for).

    An entry point that fails to load, or names something that is not a :class:`Region`, is left out
    with a ``RuntimeWarning``: the built-in regions keep working."""
    from importlib.metadata import entry_points

    out: dict[str, _Entry] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            region = point.load()
        except Exception as exc:  # another distribution's bug must not stop the built-in regions
            warnings.warn(f"settle: the region {point.name!r} ({point.value}) could not be loaded and is left out: "
                          f"{type(exc).__name__}: {exc}", RuntimeWarning, stacklevel=2)
            continue
        if not isinstance(region, Region):
            warnings.warn(f"settle: the entry point {point.name!r} of {ENTRY_POINT_GROUP} is not a settle Region "
                          f"({type(region).__name__}) and is left out", RuntimeWarning, stacklevel=2)
            continue
        if region.key in _builtin() or region.key in out:
            continue  # a built-in region is never replaced
        out[region.key] = _Entry(region.term, 1000, _loaded(region))
    return out


def _loaded(region: Region) -> Callable[[], Region]:
    """The loader of a region that is loaded already (an installed one: its entry point named it)."""
    return lambda: region


def _entries(everything: bool = True) -> dict[str, _Entry]:
    return {**_builtin(), **_plugins()} if everything else _builtin()


def region_terms() -> dict[str, Term]:
    """Every region's term (key, Chinese name, aliases), in listing order, installed regions included."""
    return {key: entry.term for key, entry in _entries().items()}


@functools.cache
def _lookup(everything: bool) -> dict[str, str]:
    return lookup_table(entry.term for entry in _entries(everything).values())


def region_key(value: object) -> str:
    """Canonical key of a region name or alias; raises :class:`HandError` at ``region``."""
    if not isinstance(value, str):
        raise HandError.at(("region",), f"region must be a name, got {written(value)}; {_allowed()}")
    word = simplified(value.strip()).lower()
    key = _lookup(False).get(word) or _lookup(True).get(word)  # installed regions only looked for when needed
    if key is None:
        guess = close_word(value, _lookup(True))
        hint = f" (did you mean {guess}?)" if guess else ""
        raise HandError.at(("region",), f"unknown region {value!r}{hint}; {_allowed()}", kind="unknown_region",
                           values={"value": value, "suggest": guess or "",
                                   "allowed": ", ".join(t.label for t in region_terms().values())})
    return key


@functools.cache
def get_region(key: str) -> Region:
    """The :class:`Region` of a canonical key (loaded on first use); KeyError for an unknown key."""
    entry = _builtin().get(key) or _plugins()[key]
    return entry.load()


def all_regions() -> list[Region]:
    """Every region, in listing order (built-in first, then installed ones)."""
    return [get_region(key) for key in _entries()]


def allowed_text() -> str:
    """``wuhan 武汉, wuxue 武穴 or rushan 乳山``: the regions, for messages."""
    labels = [t.label for t in region_terms().values()]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


def foreign_term(own: str, kind: str) -> Callable[[str], Hint | None]:
    """A hint for a vocabulary word that belongs to another region ("qidui is Wuxue/Rushan", G14): its
    English text and the other regions' labels (:class:`~settle.vocab.Hint`)."""

    def hint(word: str) -> Hint | None:
        terms = region_terms()
        owners = [terms[key].zh + " " + key for key in terms
                  if key != own and word.lower() in _vocabulary_words(key, kind)]
        if not owners:
            return None
        return Hint(f"{word!r} is not a {own} {kind} (it belongs to {', '.join(owners)})", tuple(owners))

    return hint


def _vocabulary_words(key: str, kind: str) -> set[str]:
    region = get_region(key)
    table = region.patterns if kind == "fan" else region.kongs
    return set(lookup_table(table.values()))


def refresh() -> None:
    """Forget what the registry found, so that regions installed since are found (tests, notebooks)."""
    for cached in (_builtin, _plugins, _lookup, get_region):
        cached.cache_clear()


def regions_with(feature: str) -> list[str]:
    """Capitalised keys of the regions where ``feature`` (a :class:`Region` flag such as ``has_fish``)
    is true, for messages ("exists only in Rushan")."""
    return [r.key.capitalize() for r in all_regions() if getattr(r, feature)]


def _allowed() -> str:
    return "allowed: " + ", ".join(t.label for t in region_terms().values())
