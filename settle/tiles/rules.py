"""The tile rules of a rule set: what the engine asks a region, with defaults (issue 13).

The engine (:func:`settle.tiles.evaluate_all`) knows no region.  Everything region-specific is a
:class:`TileRules`, one instance per region, kept in that region's package
(``settle/rules/<key>/tiles.py`` exports ``TILE_RULES``).  As with python-chess's board variants,
a region subclasses :class:`TileRules`, sets the class attributes that differ and overrides the
methods whose default does not fit:

==========================  ==================================================================
attribute / method          what it says (default)
==========================  ==================================================================
``name``                    the rule set's name in messages (``"tiles"``)
``situations``              fans no tile shows, stated by the table (none; G10)
``vocabulary``              every fan key :meth:`fans` can return
``big_hands``               大胡 keys: a reading with none is a 小胡/屁胡 (none)
``pair_258_exempt``         fans that lift a 2/5/8 pair requirement (none)
``option_defaults``         tile-level options and their defaults (none)
``situation_needs_by``      situational fan -> the only ``by`` it fits (none; G10)
``implied``                 ``by`` -> situational fans it implies (none)
``seven_pairs``             seven pairs is a winning shape (no)
``loose_fans``              fans a shapeless (乱) hand may have (none)
``bases``                   base keys, one per reading (none; Rushan R1)
``flips_indicator``         the wildcard comes from a flipped tile (no; H12 W15)
``plays_bao_tile``          a 宝 tile is given, ``bao_tile`` (no; R9)
``wildcard_name``           what the wildcard is called (None; 癞子, 宝)
``wildcard_kong``           the single-tile kong kind that plays a wildcard copy out (None)
:meth:`bao_tile_owners`     who plays a given 宝 tile, for a message ("another rule set")
``table``                   fan key -> predicate, read by the default :meth:`fans`
``block_what/rule/source``  the words of :meth:`blocked_reason` (the tiles held, ruling, text)
:meth:`from_indicator`      the wildcards of a flipped tile (flips_indicator only)
:meth:`wildcards`           the wildcards of a hand, checking indicator and bao_tile
:meth:`wildcard_tile`       the wildcard tile, never raising (for callers' messages)
:meth:`check_situations`    the stated situations checked against ``by`` (G10)
:meth:`barred_in_meld`      tiles a meld may not hold (none)
:meth:`check_meld`          one meld's region rules (barred tiles)
:meth:`check_held`          region tile checks of the whole hand (none)
:meth:`blocking_tiles`      held tiles that forbid any win (the wildcards' ``forbidden``)
:meth:`blocked`             the hand-level ban as a reason step, or None
:meth:`fans`                the fans of one reading (``table`` + situations)
:meth:`illegal`             why a reading may not win, as a reason step, or None
:meth:`loose`               which shapeless readings to try (``loose_fans``)
:meth:`counted_fans`        what ``settle check`` counts for a win (its fans + implied)
:meth:`item_value`          an item's worth in words for ``settle check`` (its value)
==========================  ==================================================================

Reasons (a rejected reading, a blocked hand) are :class:`~settle.core.steps.Step` records built
by :func:`reason`, worded by :data:`settle.tiles.messages.TILES`; their values are hashable
(:class:`Values`) so the engine can group readings by them.  Bad input raises
:class:`~settle.tiles.errors.TileError` naming the key at fault.

The generic fan predicates (:func:`is_qingyise`, :func:`is_fengyise`, :func:`is_jiangyise`,
:func:`is_pengpenghu`, :func:`is_quanqiuren`, :func:`is_hard`) are building blocks for ``table``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from settle.core.steps import Step
from settle.tiles.errors import TileError
from settle.tiles.features import HONOUR_BIT, Features
from settle.tiles.hand import Meld, TileHand
from settle.tiles.notation import format_tiles
from settle.tiles.readings import LOOSE, STANDARD
from settle.tiles.wildcards import NO_WILDCARDS, Wildcards

WIN_BY = ("self_draw", "discard", "robbed_kong")
"""How a hand is won (HAND-FORMAT.md ``win.by``)."""

_EMPTY: Mapping[str, Any] = MappingProxyType({})


# --- reasons -----------------------------------------------------------------------------------


class Values(Mapping[str, Any]):
    """The values of a reason step: an immutable, hashable mapping (its values must be hashable:
    str, int, tuples, nested reason steps)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._data.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Values({self._data!r})"


def reason(kind: str, rule: str = "", **values: Any) -> Step:
    """A hashable reason step (why a reading or a hand cannot win) of ``kind`` under ``rule``."""
    return Step(rule, kind, Values(values))


def seed(number: str, section: str) -> Step:
    """Where a rule is written: ``seed 004 癞子 5`` (the rule text's number and its section)."""
    return reason("seed", number=number, section=section)


def reason_key(item: Step) -> tuple[str, str]:
    """The order reasons are listed in: by ruling id, then kind."""
    return (item.rule, item.kind)


# --- the facts of one hand -----------------------------------------------------------------------


@dataclass(slots=True)
class TileContext:
    """Facts about the hand shared by all its readings (built per :func:`~settle.tiles.evaluate_all`).

    ``situations``: the stated situational fans plus the implied ones; ``options``: the region's
    tile options resolved (``option_defaults`` filled in); ``cards``: the wildcards; ``wild`` their
    tile; ``meld_*``: facts of the declared melds (suits bits, all 2/5/8, a chow among them);
    ``claimed_melds``: melds claimed from a discard (G3 G4).
    """

    rules: TileRules
    hand: TileHand
    by: str
    situations: frozenset[str]
    options: Mapping[str, bool]
    cards: Wildcards
    wild: int | None
    wilds_in_hand: int
    meld_tiles: tuple[int, ...]
    meld_suits: int
    melds_all_258: bool
    meld_has_chow: bool
    claimed_melds: int


Predicate = Callable[[TileContext, Features], bool]
"""Whether a fan applies to one reading (its features) of the hand (its context)."""


# --- the rules --------------------------------------------------------------------------------


class TileRules:
    """A rule set's tile rules: see the module docstring for every attribute and method.

    One instance per region; subclasses set class attributes and override methods.  Instances
    hold no state (``__slots__ = ()``).
    """

    __slots__ = ()

    name: ClassVar[str] = "tiles"
    situations: ClassVar[frozenset[str]] = frozenset()
    vocabulary: ClassVar[frozenset[str]] = frozenset()
    big_hands: ClassVar[frozenset[str]] = frozenset()
    pair_258_exempt: ClassVar[frozenset[str]] = frozenset()
    option_defaults: ClassVar[Mapping[str, bool]] = _EMPTY
    situation_needs_by: ClassVar[Mapping[str, str]] = _EMPTY
    implied: ClassVar[Mapping[str, frozenset[str]]] = _EMPTY
    seven_pairs: ClassVar[bool] = False
    loose_fans: ClassVar[tuple[str, ...]] = ()
    bases: ClassVar[tuple[str, ...]] = ()
    flips_indicator: ClassVar[bool] = False
    plays_bao_tile: ClassVar[bool] = False
    wildcard_name: ClassVar[str | None] = None
    wildcard_kong: ClassVar[str | None] = None
    table: ClassVar[Mapping[str, Predicate]] = _EMPTY
    block_what: ClassVar[str] = "a tile that forbids the win"
    block_rule: ClassVar[str] = ""
    block_source: ClassVar[Step | None] = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    # --- options and situations ---

    def resolve_options(self, options: Mapping[str, object] | None) -> Mapping[str, bool]:
        """``option_defaults`` with the given values (true or false) put in; other keys ignored
        (``option_defaults`` itself for none, or for ``option_defaults``)."""
        if not options or options is self.option_defaults:
            return self.option_defaults
        resolved = dict(self.option_defaults)
        for name in resolved:
            if name in options:
                value = options[name]
                if value is not True and value is not False:  # not a bool (no subclass of bool exists)
                    raise TileError(f"option {name} must be true or false, got {value!r}", kind="option_not_bool",
                                    values={"name": name, "value": repr(value)})
                resolved[name] = value
        return resolved

    def check_situations(self, by: str, situations: Iterable[str], hand: TileHand) -> set[str]:
        """The stated situational fans, each one of ``situations`` and fitting ``by`` (G10).

        Raises :class:`TileError` at ``fans``.
        """
        stated = set(situations)
        allowed = self.situations
        for name in sorted(stated):
            if name not in allowed:
                derived = " (it is derived from the tiles)" if name in self.vocabulary else ""
                raise TileError(
                    f"situation {name!r} is not one of {self.name}'s situational fans "
                    f"({', '.join(sorted(allowed))}){derived}",
                    "fans", kind="not_a_situation",
                    values={"name": name, "allowed": ", ".join(sorted(allowed)), "derived": bool(derived)},
                )
            needed = self.situation_needs_by.get(name)
            if needed is not None and by != needed:
                raise TileError(f"situation {name!r} needs by={needed} (RULINGS G10), got by={by}", "fans",
                                kind="situation_needs_by", values={"name": name, "needed": needed, "by": by})
        return stated

    # --- wildcards ---

    def from_indicator(self, indicator: int, options: Mapping[str, bool]) -> Wildcards:
        """The wildcards a flipped ``indicator`` gives (regions with ``flips_indicator``)."""
        raise NotImplementedError(f"{self.name} flips no indicator")

    def wildcards(self, hand: TileHand, options: Mapping[str, bool]) -> Wildcards:
        """The hand's wildcards; raises :class:`TileError` for an indicator or a bao_tile the
        region does not play, or a missing indicator (G7: the wildcard is never guessed)."""
        if self.flips_indicator:
            if hand.bao_tile is not None:
                raise TileError(f"bao_tile is {self.bao_tile_owners()}'s 搂宝 tile; {self.name} derives its "
                                "wildcard from the indicator", "bao_tile", kind="bao_tile_not_here", values={})
            if hand.indicator is None:
                raise TileError(f"the flipped tile is required in {self.name} (it fixes the wildcard)",
                                "indicator", keyed=True, kind="indicator_required", values={})
            return self.from_indicator(hand.indicator, options)
        if hand.indicator is not None:
            raise TileError(f"{self.name.capitalize()} has no flipped wildcard indicator", "indicator", keyed=True,
                            kind="no_indicator", values={})
        if hand.bao_tile is not None and not self.plays_bao_tile:
            raise TileError(f"bao_tile: {self.name} plays no 宝 tile", "bao_tile", kind="no_bao_tile", values={})
        return NO_WILDCARDS

    def wildcard_tile(self, hand: TileHand, options: Mapping[str, object] | None = None) -> int | None:
        """The wildcard tile of ``hand`` (None without an indicator, or in a region without one);
        never raises for a bad combination (the evaluation says what is wrong)."""
        if not self.flips_indicator or hand.indicator is None:
            return None
        return self.from_indicator(hand.indicator, self.resolve_options(options)).wild

    def bao_tile_owners(self) -> str:
        """Who plays a given 宝 tile, for the message when this rule set gets one (a region reads
        the registry, which the engine below it does not know: "another rule set")."""
        return "another rule set"

    # --- region tile checks ---

    def barred_in_meld(self, meld: Meld, cards: Wildcards, options: Mapping[str, bool]) -> frozenset[int]:
        """Tiles ``meld`` may not hold (none)."""
        return frozenset()

    def check_meld(self, index: int, meld: Meld, context: TileContext) -> None:
        """The region's rules for the ``index``-th meld; :class:`TileError` at ``("melds", index, "tiles")``."""
        barred = self.barred_in_meld(meld, context.cards, context.options) & set(meld.tiles)
        if barred:
            raise TileError(f"meld {meld.describe()}: {self.name} cannot meld {format_tiles(sorted(barred))}",
                            ("melds", index, "tiles"), kind="meld_barred",
                            values={"meld": meld.kind, "kong": meld.kong_kind or "", "tiles": format_tiles(meld.tiles),
                                    "barred": format_tiles(sorted(barred))})

    def check_tiles(self, context: TileContext) -> None:
        """Every region tile check: each meld, a wildcard won on a discard (seed 004 癞子 3, seed 000
        2.3④: only self-drawn), then :meth:`check_held`."""
        hand = context.hand
        for index, meld in enumerate(hand.melds):
            self.check_meld(index, meld, context)
        wild = context.wild
        if wild is not None and hand.win_tile == wild and context.by != "self_draw":
            raise TileError(f"win_tile {format_tiles([wild])} is the wildcard: it can only be self-drawn", "win_tile",
                            kind="wildcard_discard", values={"tile": format_tiles([wild]), "wild": self.wildcard_name})
        self.check_held(context)

    def check_held(self, context: TileContext) -> None:
        """Region checks of the tiles held and melded (none); raise :class:`TileError`."""

    # --- legality and fans ---

    def blocking_tiles(self, context: TileContext) -> frozenset[int]:
        """Tiles that forbid any win while held in the concealed hand (the wildcards' ``forbidden``)."""
        return context.cards.forbidden

    def blocked_reason(self, held: tuple[int, ...]) -> Step:
        """Why holding ``held`` forbids the win: a ``holds_blocked`` step naming ``block_what`` under
        ``block_rule`` (``block_source`` where it is written)."""
        return reason("holds_blocked", self.block_rule, tiles=format_tiles(held), what=self.block_what,
                      source=self.block_source)

    def blocked(self, context: TileContext) -> Step | None:
        """The hand-level ban (a held tile of :meth:`blocking_tiles`), or None."""
        forbidden = self.blocking_tiles(context)
        if not forbidden:
            return None
        held = tuple(sorted(set(context.hand.concealed) & forbidden))
        return self.blocked_reason(held) if held else None

    def fans(self, context: TileContext, features: Features) -> AbstractSet[str]:
        """The fans of one reading: ``table``'s that apply, and the situations (a set, or a frozen set
        that the region keeps: read only)."""
        return table_fans(context, features, self.table) | context.situations

    def illegal(self, context: TileContext, features: Features, fans: frozenset[str]) -> Step | None:
        """Why this reading may not win (a reason step), or None (every reading is legal)."""
        return None

    def loose(self, context: TileContext) -> tuple[str, ...]:
        """The fans whose shapeless (乱) reading to try: ``loose_fans``."""
        return self.loose_fans

    def base(self, fans: Iterable[str]) -> str | None:
        """The base among ``fans`` (one of ``bases``), or None."""
        found = set(fans)
        return next((b for b in self.bases if b in found), None)

    # --- settle check ---

    def counted_fans(self, hand: Any, win: Any) -> tuple[str, ...]:
        """What ``settle check`` counts for ``win`` of ``hand`` (a region's Hand and Win models):
        its fans and the situational fans its ``by`` implies (G10), unordered."""
        return (*win.fans, *self.implied.get(win.by, ()))

    def item_value(self, pattern: Any) -> str:
        """An item's worth in words for ``settle check`` (``pattern`` a :class:`settle.vocab.Pattern`)."""
        return str(pattern.value)


# --- fan predicates shared by the regions -------------------------------------------------------

_ONE_SUIT = frozenset({1, 2, 4})


def is_qingyise(context: TileContext, features: Features) -> bool:
    """清一色: one suit of 万/筒/条, melds included, in a winning shape."""
    return features.shape != LOOSE and (features.suits | context.meld_suits) in _ONE_SUIT


def is_fengyise(context: TileContext, features: Features) -> bool:
    """风一色: honours only, melds included (a loose reading only exists where allowed)."""
    return (features.suits | context.meld_suits) == HONOUR_BIT


def is_jiangyise(context: TileContext, features: Features) -> bool:
    """将一色: every tile a suited 2/5/8, melds included; no shape needed."""
    return features.all_258 and context.melds_all_258


def is_pengpenghu(context: TileContext, features: Features) -> bool:
    """碰碰胡: pungs/kongs only plus the pair."""
    return features.pungs_only and not context.meld_has_chow


def is_quanqiuren(context: TileContext, features: Features) -> bool:
    """全求人: four claimed melds, a single-wait pair won on a discard (G10)."""
    return features.shape == STANDARD and context.claimed_melds == 4 and context.by == "discard"


def is_hard(context: TileContext, features: Features) -> bool:
    """硬胡: no wildcard in hand, or every one read as itself (H8, W16)."""
    return features.hard


def table_fans(context: TileContext, features: Features, table: Mapping[str, Predicate]) -> set[str]:
    """The keys of ``table`` whose predicate applies to this reading (a set, new each time)."""
    fans = set()  # a loop, not a comprehension: one call less per reading
    for name, applies in table.items():
        if applies(context, features):
            fans.add(name)
    return fans
