"""Hand-file input models (pydantic v2), shared by every region.

The shapes follow ../shared/HAND-FORMAT.md.  Each region subclasses :class:`Player`,
:class:`TileMeld`, :class:`WinTiles`, :class:`Win` and :class:`Hand` in its package
(``settle/rules/<key>/model.py``: ``WuhanPlayer`` ... ``WuhanHand``), narrowing the fields that
hold its options model, fan vocabulary and kong kinds, so pydantic checks every value against
that region's tables and reports the key path of each error; a region outside settle may build
the same classes with :func:`hand_model`.  The base classes are the shared shape the shared
layers read; only a region's classes validate hand files.

The region models are plain subclasses that narrow a few fields, not pydantic generics:
a parametrised generic costs tens of milliseconds to build, which every ``settle hand``
would pay at start-up (issue 5, cold start).  A type checker sees each narrowed field as an
override of a mutable attribute, where ``list`` and ``dict`` are invariant: a region's
``players: Players[WuhanPlayer]`` overrides ``players: Players[Player]`` with a
``type: ignore[assignment]``, safe because the models are frozen (no one can store a
``Player`` into a ``WuhanHand``).  The generic aliases :data:`Players` and :data:`OneOrMany`
are only spelling: ``Players[WuhanPlayer]`` is the plain ``Annotated`` type.

Checks that need several fields at once (a winner who is also ``from``, ``opens``
below ``exposed + added`` ...) live in :mod:`settle.rules.checks` and in the regions.

Every hand of a batch is validated first by its model's lean schema (:func:`lean_schema`, issue 14):
the same core schema without the Python validators, which pydantic-core runs alone; the models'
own validation, with its Python validators and errors, runs only for a hand the lean one refuses
(:func:`settle.engine.validation.lean_hand`).

The annotations of this module and of the regions' models and options are evaluated when they are
defined (no ``from __future__ import annotations``): pydantic would compile each field's annotation
from its text when the classes are made, at every start-up (issue 14).
"""

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    Tag,
    ValidatorFunctionWrapHandler,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError, SchemaValidator

from settle.errors import ID_MAX_LENGTH, written
from settle.vocab import Term, Vocabulary, WinBy

NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]+$"
"""A name holds no control character (C0, DEL, C1) and no line or paragraph separator."""
ID_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""A hand's ``id`` text holds no control character (C0, DEL, C1)."""

Name = Annotated[
    str,
    StringConstraints(strict=True, strip_whitespace=True, min_length=1, max_length=40,
                      pattern=NAME_PATTERN),
    Field(description="a player's name as listed in `players`"),
]
"""A player's name: text of 1–40 characters (spaces trimmed; numbers must be quoted)."""

Count = Annotated[StrictInt, Field(ge=0, le=64)]
"""A whole count (bool is not a count); the physical limit per key is checked later."""

FanTotal = Annotated[StrictInt, Field(ge=0, le=64, description="番 / 斤 total, 0–64")]
"""An explicit per-player 番/斤 total (G5): 0–64, so 2**total stays small."""

KONGS_HELP = "杠: kind -> count"
MELD_KONG_HELP = "kongs only: exposed 明杠, added 补杠 or concealed 暗杠"
MELDS_HELP = "declared melds (吃 碰 杠), in the order made"
WIN_FANS_HELP = "named scoring items the winner claims"
WIN_TILES_HELP = "the winner's tiles (optional): hand, win_tile, melds, indicator, bao_tile"
PLAYERS_HELP = "seating = turn order (G1): a list of names, or name -> details"
OPTIONS_HELP = "house-rule options of the region"

MAX_POINTS = 10**9
"""Largest amount an option may set (cap, golden caps, penalties): far above any table's, and
small enough that every amount stays a short number (a 4300-digit golden cap cannot be printed).
:mod:`settle.rules.checks` reports a larger one; the G13 order checks leave such options to it."""

NOBODY = "none"
"""``win.liable: none`` states that nobody is liable (G7)."""

NOBODY_SPELLINGS = frozenset({"none", "nobody", "无", "無", "无人", "無人"})
"""Spellings of ``win.liable`` that mean nobody is liable (G7)."""


def _none_alias(value: object) -> object:
    if isinstance(value, str) and value.strip().lower() in NOBODY_SPELLINGS:
        return NOBODY
    return value


Liable = Annotated[Name, BeforeValidator(_none_alias)]


def empty_list() -> list[Any]:
    """A new ``[]``: the default factory of a list field.  A Python function, not ``list``: pydantic reads
    a default factory's signature, and reading a builtin's parses its text signature, which compiles
    the tokenizer's patterns at start-up (issue 14).  The lean schema calls ``list`` itself instead
    (:func:`lean_schema`: pydantic-core reads no signature, and a builtin costs no Python frame)."""
    return []


def empty_dict() -> dict[Any, Any]:
    """A new ``{}``: the default factory of a mapping field (a Python function, as :func:`empty_list`)."""
    return {}


class Strict(BaseModel):
    """Base for input models: unknown keys are errors, values are immutable, and values are
    never coerced (``true`` is not 1, ``"400"`` and ``400.0`` are not 400), options included."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True,
                              defer_build=True)


def _one_spelling_per_key(value: object, handler: ValidatorFunctionWrapHandler, what: str) -> Any:
    """Validate a mapping whose keys are normalised (aliases, trimmed names); two input keys that
    become the same key are an error instead of one silently replacing the other."""
    result = handler(value)
    # Strict validation takes only a dict here (abc Mapping checks cost more than the rest).
    if isinstance(value, dict) and len(result) < len(value):
        spellings: dict[object, list[str]] = {}
        for key in value:
            (canonical,) = handler({key: value[key]})
            spellings.setdefault(canonical, []).append(repr(key))
        clash = next(keys for keys in spellings.values() if len(keys) > 1)
        raise PydanticCustomError(
            "alias_clash",
            "{keys} are the same {what}: give it once",
            {"keys": " and ".join(clash), "what": what})
    return result


class Player(Strict):
    """One player's facts (a value of the ``players`` mapping); omitted facts are zero (G8).

    ``opens`` (开口): a count, or the list of players who fed each claim in order (G4);
    ``kongs``: kind -> count (kinds per region); ``ready``: 听牌 (Wuhan H7 a);
    ``fish``: Rushan 飘鱼 0–2 (R6).
    """

    opens: Count | Annotated[list[Name], Field(max_length=4)] = Field(
        0, description="开口: a count, or who fed each claim from a discard, in order (G4)")
    kongs: dict[str, Count] = Field(default_factory=empty_dict, description=KONGS_HELP)
    ready: StrictBool = Field(False, description="听牌 when the hand ended (H7 a)")
    fish: Annotated[StrictInt, Field(ge=0, le=2)] = Field(0, description="飘鱼 0, 1 or 2 (R6)")

    @field_validator("kongs", mode="wrap")
    @classmethod
    def _one_spelling_per_kind(cls, value: object, handler: ValidatorFunctionWrapHandler) -> Any:
        # ``{exposed: 1, 直杠: 1}`` names one kind twice: never merge or drop one silently.
        return _one_spelling_per_key(value, handler, "kong kind")

    @property
    def open_count(self) -> int:
        """Number of opens (claims from a discard), whichever form was given."""
        opens = self.opens
        return len(opens) if isinstance(opens, list) else opens

    @property
    def feeders(self) -> list[str] | None:
        """Who fed each open, in order, or None when ``opens`` is a bare count."""
        return self.opens if isinstance(self.opens, list) else None

    def kong_count(self, *kinds: str) -> int:
        """How many kongs of the given kinds (all kinds when none given)."""
        if not kinds:
            return sum(self.kongs.values())
        return sum([n for kind, n in self.kongs.items() if kind in kinds])


def _from_is_the_key(data: Any) -> Any:
    """``from_`` is the Python attribute, not a hand-file key (HAND-FORMAT "The win")."""
    if isinstance(data, dict) and "from_" in data:
        both = " (and `from` is given too)" if "from" in data else ""
        raise PydanticCustomError(
            "alias_clash", "`from_` is not a key of the hand format{both}: write `from` once",
            {"both": both, "key": "from_"})
    return data


TileText = Annotated[
    str,
    StringConstraints(strict=True, min_length=1, max_length=200),
    Field(description="tiles in notation (`123m 456p 789s 11z`: m 万, p 筒, s 条, z 1-7 = "
                      "东 南 西 北 中 发 白) or Chinese names (一万 五筒 九条 红中 ...)"),
]
"""Tile text for the tile engine (:func:`settle.tiles.parse_tiles` reads it; its errors are
reported at the key that holds the text)."""

MELD_KINDS: dict[str, Term] = {
    t.key: t
    for t in (
        Term("chow", "吃", "a run of three of one suit, claimed from the player before (上家)"),
        Term("pung", "碰", "three alike", aliases=("刻子",)),
        Term("kong", "杠", "four alike; give its kind in `kong`", aliases=("杠子",)),
    )
}
"""Kinds of a declared meld in ``win.tiles.melds``."""

MeldKindKey = Literal["chow", "pung", "kong"]
"""The keys of :data:`MELD_KINDS`, for a type checker."""

MeldKind = Annotated[MeldKindKey, Vocabulary(MELD_KINDS, "meld kind")]


class TileMeld(Strict):
    """One declared meld of the winner (``win.tiles.melds[i]``), in the order it was made.

    ``kind``: chow 吃, pung 碰 or kong 杠; ``tiles``: its 3 (4 for a kong) tiles; ``from``:
    who fed it, for a claimed meld (a chow, a pung, an exposed kong, and the 碰 under an
    added kong: G3, G4); ``kong``: the kong kind (exposed, added or concealed; the region's
    Chinese names too), for kongs only.  Consistency is checked in :mod:`settle.engine.tilelevel`.
    """

    kind: MeldKind
    tiles: TileText
    from_: Name | None = Field(None, alias="from",
                               description="who fed this claimed meld (chow, pung, exposed kong, "
                                           "the 碰 under an added kong)")
    kong: str | None = Field(None, description=MELD_KONG_HELP)

    @model_validator(mode="before")
    @classmethod
    def _no_from_attribute(cls, data: Any) -> Any:
        return _from_is_the_key(data)


class WinTiles(Strict):
    """The winner's tiles (``win.tiles``; HAND-FORMAT "The win", issue 7).

    ``hand``: the concealed tiles, winning tile included (14 - 3 per meld of them);
    ``win_tile``: the winning tile (required to settle from the tiles; G7 never guesses it);
    ``melds``: declared melds in the order made (they give the winner's ``opens`` and
    ``kongs``); ``indicator``: the flipped tile that fixes the wildcard (Wuhan H12, Wuxue W15);
    ``bao_tile``: Rushan 搂宝 tile (R9).  Single-tile kongs (红中杠, 癞子杠, 宝杠, 癞子皮杠) are
    not melds: count them in ``players.<winner>.kongs``.
    """

    hand: TileText
    win_tile: TileText | None = Field(None, description="the winning tile, one of `hand`")
    melds: list[TileMeld] = Field(default_factory=empty_list, max_length=4, description=MELDS_HELP)
    indicator: TileText | None = Field(None, description="the flipped tile (翻牌) that fixes the wildcard "
                                                         "(癞子 H12, 宝/癞子皮 W15)")
    bao_tile: TileText | None = Field(None, description="搂宝: the 宝 tile (R9)")


class Win(Strict):
    """The win: who won, how, from whom, and the named items claimed (HAND-FORMAT "The win")."""

    winner: Name
    by: WinBy
    from_: Name | None = Field(None, alias="from",
                               description="the discarder, or the robbed player (G6)")
    fans: list[str] = Field(default_factory=empty_list, max_length=20, description=WIN_FANS_HELP)
    liable: Liable | None = Field(
        None, description="包牌/承包 player, or `none`; overrides the derivation (G7)")
    tiles: WinTiles | None = Field(None, description=WIN_TILES_HELP)

    @model_validator(mode="before")
    @classmethod
    def _no_from_attribute(cls, data: Any) -> Any:
        return _from_is_the_key(data)

    @property
    def discarder(self) -> str | None:
        """The player treated as discarder: ``from`` on a discard or robbed kong (G6)."""
        return self.from_ if self.by != "self_draw" else None

    @property
    def the_discarder(self) -> str:
        """``from`` of a checked win that is no self-draw: the discarder, or the robbed player (G6).
        TypeError without one (:mod:`settle.rules.checks` requires it): a caller's mistake."""
        if self.from_ is None:
            raise TypeError(f"a win by {self.by} without `from`")
        return self.from_


class Abandon(Strict):
    """Wuhan 逃跑 (H9): ``{by: NAME}``, the player who left the game."""

    by: Name


def _players_mapping(value: object) -> object:
    """Accept the list form; reject names that are not text, and names repeated after
    trimming spaces (the API layer reports the same with the exact key path first)."""
    if isinstance(value, list):
        if not _plain_names(value) or len(set(value)) < len(value):
            _reject_repeats(value)
        return {name: {} for name in value}
    if isinstance(value, Mapping):
        if not _plain_names(value):
            _reject_repeats(list(value))
        return {name: ({} if details is None else details) for name, details in value.items()}
    return value


def _plain_names(names: Iterable[object]) -> bool:
    """Every name is text without spaces at its ends, so names repeat only if equal."""
    return all(type(name) is str and name == name.strip() for name in names)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or None when it is text."""
    if isinstance(name, str):
        return None if name.strip() else "a player's name is empty"
    if isinstance(name, Mapping):
        return ("a list of players holds names only; to give a player's details, make `players` a "
                "mapping (name: details), e.g. players: {A: {opens: 1}, B: {}, C: {}, D: {}}")
    if isinstance(name, bool):
        return f"a player's name must be text, not the yes/no value {str(name).lower()}; quote it"
    if name is None:
        return "a player's name is empty (null)"
    if isinstance(name, int | float):
        return f"a player's name must be text, not the number {name!r}; quote it ('{name}')"
    if isinstance(name, list | tuple):  # nothing to quote
        return f"a player's name must be text, not {written(name)}"
    shown = written(name)  # a date as the user wrote it, never a Python class name (issue 15 #16)
    return f"a player's name must be text, not {shown}; quote it ('{shown}')"


def name_problem_values(name: object) -> dict[str, object]:
    """The data of :func:`name_problem`'s reason (kind ``player_name``, its Chinese words; issue 16 #9):
    ``why`` one of empty, null, mapping, yes_no, number, list, other; ``shown`` the value as written
    (``true``, ``1.5``) or its Python type's name for ``other``; ``count`` a list's items."""
    if isinstance(name, str):
        return {"why": "empty"}
    if isinstance(name, Mapping):
        return {"why": "mapping"}
    if isinstance(name, bool):
        return {"why": "yes_no", "shown": str(name).lower()}
    if name is None:
        return {"why": "null"}
    if isinstance(name, int | float):
        return {"why": "number", "shown": repr(name), "quoted": str(name)}
    if isinstance(name, list | tuple):
        return {"why": "list", "count": len(name)}
    return {"why": "other", "shown": written(name)}


def trimmed_repeats(names: list[object]) -> list[tuple[int, str]]:
    """``(index, name)`` of every name that repeats an earlier one after trimming spaces."""
    seen: set[str] = set()
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            continue
        trimmed = name.strip()
        if trimmed in seen:
            out.append((i, trimmed))
        seen.add(trimmed)
    return out


def _reject_repeats(names: list[object]) -> None:
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise PydanticCustomError("player_name", problem, name_problem_values(name))
    for _, name in trimmed_repeats(names):
        raise PydanticCustomError(
            "duplicate_player",
            "player '{name}' is listed twice (names are compared after trimming spaces)",
            {"name": name})


PlayerT = TypeVar("PlayerT", bound=Player)
WinT = TypeVar("WinT", bound=Win)

Players = Annotated[dict[Name, PlayerT], BeforeValidator(_players_mapping)]
"""``players``: name -> the region's player model (``Players[WuhanPlayer]``), the list form accepted."""


def _win_shape(value: object) -> str:
    return "many" if isinstance(value, list) else "one"


OneOrMany = Annotated[
    Annotated[WinT, Tag("one")] | Annotated[list[WinT], Tag("many")],
    Discriminator(_win_shape),
]
"""``win``: the region's win model (``OneOrMany[WuhanWin]``) as a mapping, or a list of them
(Rushan 一炮多响, R8), told apart by shape."""


def one_or_many(win: type[Win]) -> Any:
    """``OneOrMany[win]``, for a win model made at run time (:func:`hand_model`)."""
    alias: Any = OneOrMany  # subscripted with a value: a class made at run time is no type to a checker
    return alias[win]


def win_list(win: WinT | list[WinT] | None) -> list[WinT]:
    """The value of ``win`` as a list: none, one entry, or several for Rushan 一炮多响 (R8)."""
    if win is None:
        return []
    return win if isinstance(win, list) else [win]


def single_win(win: WinT | list[WinT] | None) -> WinT:
    """The value of ``win`` of a hand that has exactly one win (regions with one winner per hand
    reject a list in their checks; a draw has none).  TypeError otherwise: a caller's mistake."""
    if win is None or isinstance(win, list):
        raise TypeError(f"a hand with one win expected, got {type(win).__name__}")
    return win


def default_when_empty(options: type[Strict]) -> Callable[[object], object]:
    """A before-validator giving ``options`` absent, null or ``{}`` the region's default options,
    validated once and shared (options models are frozen): most hands state no options.  Pair it
    with :func:`options_field` (``Annotated[WuhanOptions, BeforeValidator(default_when_empty(
    WuhanOptions))] = options_field()``)."""

    @functools.cache
    def default() -> Strict:
        return options()

    def fill(value: object) -> object:
        if value is None or (type(value) is dict and not value):
            return default()
        return value

    return fill


_F = TypeVar("_F", bound=Callable[..., Any])


def explains_refusal(validator: _F) -> _F:
    """Mark a model validator that only refuses, and only what its model's own schema refuses too,
    to say why in the region's words (Rushan's 牛牌 keys in ``options``: unknown keys, which the
    options model forbids, R9).  It returns its input unchanged.  The lean schema
    (:func:`lean_schema`) leaves such a validator out: a hand it refuses goes to the validation
    that explains every problem, which runs it (issue 14: a Python call per hand saved).  Put it
    under ``@classmethod``."""
    validator.__settle_explains_refusal__ = True  # type: ignore[attr-defined]
    return validator


def options_field() -> Any:
    """The ``Field`` of a region's ``options``: omitted, it is None, which :func:`default_when_empty`
    validates into the region's defaults (typed ``Any``: the field's type is the options model,
    its default is None)."""
    return Field(None, validate_default=True, description=OPTIONS_HELP)


class Hand(Strict):
    """One finished hand (局), as in HAND-FORMAT.md "Top-level keys".

    Exactly one of ``win``, ``draw: true`` or ``abandon`` (checked in :mod:`settle.rules.checks`).
    ``fans`` (alias ``jin``) are per-player totals that replace the counted ones (G5).
    """

    id: Annotated[str, StringConstraints(max_length=ID_MAX_LENGTH, pattern=ID_PATTERN)] \
        | StrictInt | None = None  # no control character: a label on every message line (issue 15 #17)
    region: str
    players: Players[Player] = Field(description=PLAYERS_HELP)
    dealer: Name | None = Field(None, description="庄家")
    options: Strict = Field(description=OPTIONS_HELP)  # a region's model narrows it (options_field)
    win: OneOrMany[Win] | None = None
    draw: StrictBool = Field(False, description="荒庄 / 流局: nobody won")
    abandon: Abandon | None = Field(None, description="逃跑 (H9)")
    fans: dict[Name, FanTotal] | None = Field(
        None, validation_alias=AliasChoices("fans", "jin"),
        description="per-player 番/斤 totals that replace the counted ones (G5); alias jin")

    @model_validator(mode="before")
    @classmethod
    def _one_spelling_per_field(cls, data: Any) -> Any:
        if isinstance(data, dict) and "fans" in data and "jin" in data:
            raise PydanticCustomError(
                "alias_clash", "give either `fans` or its alias `jin`, not both", {"key": "jin"})
        return data

    @field_validator("fans", mode="wrap")
    @classmethod
    def _one_total_per_player(cls, value: object, handler: ValidatorFunctionWrapHandler) -> Any:
        # ``{A: 3, "A ": 4}``: names are trimmed, so both would be A; never keep one silently.
        return _one_spelling_per_key(value, handler, "player")

    @property
    def names(self) -> list[str]:
        """Player names in seating order (G1)."""
        return list(self.players)

    @property
    def the_dealer(self) -> str:
        """The dealer of a checked hand where the region needs one (``Region.dealer_needed_on_win``;
        always for a draw).  TypeError without one: a caller's mistake."""
        if self.dealer is None:
            raise TypeError("a hand without a dealer")
        return self.dealer

    @property
    def wins(self) -> Sequence[Win]:
        """The win(s) as a list: one entry, or several for Rushan 一炮多响 (R8).  A ``Sequence`` to a
        type checker, so that a region's hand may give its own win model (``list[RushanWin]``)."""
        return win_list(self.win)

    def explicit_total(self, name: str) -> int | None:
        """The stated 番/斤 total of ``name`` (G5), or None when it is to be counted."""
        return None if self.fans is None else self.fans.get(name)



def hand_model(region: str, options: type[Strict], fan: Any, kong: Any) -> type[Hand]:
    """The ``Hand`` model of one region made at run time (a region outside settle may use it; the
    built-in ones write the classes out, ``settle/rules/<key>/model.py``): the shared shape with the
    region's options model, fan vocabulary type (``win.fans`` items) and kong-kind type (``kongs``
    keys, ``melds[i].kong``).  Each class is named after the region (``WuhanPlayer``, ``WuhanWin``),
    which is also its name in the JSON Schema.  Built lazily, on first validation.
    """

    def narrowed(base: type[Strict], **fields: Any) -> Any:
        return create_model(f"{region}{base.__name__}", __base__=base,
                            __module__=base.__module__, **fields)

    # A class made here is a value to a type checker, not a type: so are the generics it goes into.
    generic_list: Any = list
    players: Any = Players
    player = narrowed(Player, kongs=(dict[kong, Count], Field(default_factory=empty_dict, description=KONGS_HELP)))
    meld = narrowed(TileMeld, kong=(kong | None, Field(None, description=MELD_KONG_HELP)))
    tiles = narrowed(WinTiles, melds=(generic_list[meld], Field(default_factory=empty_list, max_length=4,
                                                               description=MELDS_HELP)))
    win = narrowed(Win, fans=(list[fan], Field(default_factory=empty_list, max_length=20, description=WIN_FANS_HELP)),
                   tiles=(tiles | None, Field(None, description=WIN_TILES_HELP)))
    hand: type[Hand] = narrowed(
        Hand,
        players=(players[player], Field(description=PLAYERS_HELP)),
        options=(Annotated[options, BeforeValidator(default_when_empty(options))], options_field()),
        win=(one_or_many(win) | None, None),
    )
    return hand



# --- the lean schema (issue 14) ----------------------------------------------------------------------

LEAN_DROPPED = frozenset({
    "_players_mapping", "Player._one_spelling_per_kind", "Hand._one_spelling_per_field",
    "Hand._one_total_per_player", "Win._no_from_attribute", "TileMeld._no_from_attribute",
    "vocabulary.<locals>.normalise", "_none_alias",
})
"""The Python validators of the hand models that the lean schema leaves out, by ``__qualname__``; what
each checks or normalises is done in the lean schema's own terms (:func:`lean_schema`) or around it
(:func:`settle.engine.validation.lean_hand`)."""

_SPELLING = frozenset({"vocabulary.<locals>.normalise", "_none_alias", "Player._one_spelling_per_kind"})
"""The validators the spelled lean schema keeps: the vocabulary's own reading of an alias (G14),
``liable: none`` spelled otherwise, two spellings of one kong kind."""

_FILL = "default_when_empty.<locals>.fill"
"""The options filler (:func:`default_when_empty`): its defaults are put in the lean schema."""


class LeanSchema:
    """A hand model's lean validator (:func:`lean_schema`) and its player with no facts (a plain class:
    making a dataclass compiles its methods at start-up, issue 14)."""

    __slots__ = ("empty_player", "listed_player", "plain", "validator")

    validator: SchemaValidator
    empty_player: Player
    """The region's player with no facts, as validating ``{}`` makes it: given to the validator for a
    player given by name only, or as ``{}`` or null (pydantic-core takes an instance of the model as it
    is)."""
    listed_player: Player | None
    """:func:`lean_json_schema` only: the player with no facts of a name in the list form of ``players``,
    equal to :attr:`empty_player` but another object, so that a reader can tell the two forms apart."""
    plain: SchemaValidator | None
    """:func:`lean_json_schema` only: :attr:`validator` without the patterns that refuse control characters
    in names and ids (:data:`PLAIN_PATTERNS`), for a document none of whose texts can hold one (the
    caller looks at its bytes: no escape, no DEL, no C1 control, no line or paragraph separator).  It
    takes and gives what :attr:`validator` does for such a document."""

    def __init__(self, validator: SchemaValidator, empty_player: Player, listed_player: Player | None = None,
                 plain: SchemaValidator | None = None) -> None:
        self.validator = validator
        self.empty_player = empty_player
        self.listed_player = listed_player
        self.plain = plain


@functools.cache
def lean_schema(model: type[Hand], spelled: bool = False) -> LeanSchema:
    """``model``'s core schema without its Python validators, as a validator pydantic-core runs alone.

    The validators of :data:`LEAN_DROPPED` are left out, so a vocabulary is the ``Literal`` of its
    keys (a key spelled exactly); with ``spelled`` the vocabulary's, ``liable``'s and ``kongs``'s
    validators are kept, so that every spelling the model reads (aliases, traditional characters,
    other case and spaces: G14) is read the same way.  What the others do is done here without
    Python where it can be: ``options`` absent, null or ``{}`` are the region's shared defaults (the
    model's own filler made them), ``liable: none`` in another spelling (case, spaces, 无 ...) is
    ``none``; ``win`` is its two shapes tried in order (a mapping, then a list), and a field is known
    by its alias only (``from``, never ``from_``).  The rest is done around it by
    :func:`settle.engine.validation.lean_hand`.
    The options models keep their validators (G13's order, Wuhan's defaults from ``koukou``): they
    run only for a hand that states options; those marked by :func:`explains_refusal` are left out.
    The output is the model's own instances.  Raises TypeError for a Python validator it does not
    know, so that a new one cannot be skipped silently.
    """
    players: list[type[Player]] = []
    validator = _lean_validator(model, _Lean(spelled, players))
    if len(players) != 1:
        raise TypeError(f"{model.__name__}: the lean schema expects one player model, found {len(players)}")
    # The player with no facts is made from the field defaults, as validating ``{}`` makes it (equal,
    # no field set), without building the player model's own validator, which nothing else needs.
    return LeanSchema(validator, players[0].model_construct())


@functools.cache
def lean_json_schema(model: type[Hand], region: str) -> LeanSchema:
    """:func:`lean_schema` (keys spelled exactly) for a JSON document's bytes (``validate_json``), with
    what :func:`settle.engine.validation.lean_hand` does around that schema done in it instead:
    ``region`` is the region's key ``region`` itself (written so: no other spelling), and ``players`` is
    a mapping whose null or ``{}`` values are the region's :attr:`~LeanSchema.empty_player`, or a list
    of names each given the :attr:`~LeanSchema.listed_player` (a name repeated, or two names the same
    after trimming spaces, is refused).  Both give the same ``Hand`` as the loader's data through
    ``lean_hand``; the caller still has to know that the document repeats no key (the JSON reader keeps
    the last).  Its :attr:`~LeanSchema.plain` validator is the same without the patterns of
    :data:`PLAIN_PATTERNS`, for a document whose texts hold no character they refuse.  Raises
    TypeError as :func:`lean_schema` does.
    """
    lean = lean_schema(model)
    listed = type(lean.empty_player).model_construct()
    players = (lean.empty_player, listed)
    return LeanSchema(_lean_validator(model, _Lean(False, [], json_players=players, region=region)),
                      lean.empty_player, listed,
                      _lean_validator(model, _Lean(False, [], json_players=players, plain=True, region=region)))


def _lean_validator(model: type[Hand], walk: "_Lean") -> SchemaValidator:
    """The validator of ``model``'s core schema made lean by ``walk`` (:func:`_lean`)."""
    model.model_rebuild()
    schema = _lean(model.__pydantic_core_schema__, walk)
    # pydantic-core reuses the validator a complete model class already has for a schema of that
    # class (it would bring back every Python validator): the classes are marked incomplete while
    # the lean validator is built, and marked complete again right after.
    complete = [cls for cls in walk.classes if cls.__dict__.get("__pydantic_complete__")]
    for cls in complete:
        type.__setattr__(cls, "__pydantic_complete__", False)
    try:
        return SchemaValidator(schema)
    finally:
        for cls in complete:
            type.__setattr__(cls, "__pydantic_complete__", True)


class _Lean:
    """How :func:`_lean` walks a core schema: ``spelled`` (keep the spelling validators), the model
    classes met (``classes``) and the player models among them (``players``), and for
    :func:`lean_json_schema` the players with no facts (``json_players``: empty, listed), ``plain``
    (leave out the patterns of :data:`PLAIN_PATTERNS`) and ``region`` (the one key the hand's ``region``
    takes, as a ``Literal``)."""

    __slots__ = ("classes", "json_players", "plain", "players", "region", "spelled")

    def __init__(self, spelled: bool, players: list[type[Player]],
                 json_players: tuple[Player, Player] | None = None, plain: bool = False,
                 region: str | None = None) -> None:
        self.spelled = spelled
        self.classes: set[type] = set()
        self.players = players
        self.json_players = json_players
        self.plain = plain
        self.region = region


PLAIN_PATTERNS = frozenset({NAME_PATTERN, ID_PATTERN})
"""The patterns a plain lean schema leaves out (:attr:`LeanSchema.plain`): each refuses only the control
characters (C0, DEL, C1; a name also U+2028 and U+2029) in a text; a name's ``+`` (not empty) is its
``min_length`` too."""


_NEVER: dict[str, Any] = {"type": "literal", "expected": [object()]}
"""A core schema that refuses every value."""
_NOTHING: dict[str, Any] = {"type": "nullable", "schema": {"type": "dict", "max_length": 0, "strict": True}}
"""A core schema that takes null or ``{}`` only (``nullable``: null with no error made for a mapping, which a
union of ``none`` and the empty mapping made before trying the mapping; a non-empty mapping refused with one
error, not three: the options of a hand that states some 0.4 us sooner to its model, issue 14)."""


def _constant(given: dict[str, Any], value: object) -> dict[str, Any]:
    """A core schema that takes what ``given`` takes and gives ``value`` (the same object each time)."""
    try:
        hash(value)
        default: dict[str, Any] = {"default": value}  # pydantic-core copies an unhashable default
    except TypeError:
        default = {"default_factory": itertools.repeat(value).__next__}
    return {"type": "chain", "steps": [given, {"type": "default", "schema": _NEVER, "on_error": "default", **default}]}


def _lean(node: Any, walk: _Lean) -> Any:
    if isinstance(node, list):
        return [_lean(item, walk) for item in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if kind in ("function-before", "function-wrap", "function-after", "function-plain"):
        function = node["function"]["function"]
        name = getattr(function, "__qualname__", "")
        if name == _FILL:  # options: absent, null or {} are the defaults
            return {"type": "union", "mode": "left_to_right",
                    "choices": [_constant(_NOTHING, function(None)), _lean_options(node["schema"], walk)]}
        if name not in LEAN_DROPPED or kind == "function-plain":
            raise TypeError(f"the lean schema does not know the validator {name} ({kind})")
        if walk.spelled and name in _SPELLING:
            return {**node, "schema": _lean(node["schema"], walk)}
        if name == "_none_alias":
            spelling = {"type": "chain", "steps": [
                {"type": "str", "strict": True, "strip_whitespace": True, "to_lower": True},
                {"type": "literal", "expected": sorted(NOBODY_SPELLINGS)}]}
            return {"type": "union", "mode": "left_to_right",  # ``none`` itself first: no error to make
                    "choices": [{"type": "literal", "expected": [NOBODY]}, _constant(spelling, NOBODY),
                                _lean(node["schema"], walk)]}
        if name == "_players_mapping" and walk.json_players is not None:
            return _json_players(_lean(node["schema"], walk), *walk.json_players)
        return _lean(node["schema"], walk)
    if kind == "tagged-union" and callable(node.get("discriminator")):
        return {"type": "union", "mode": "left_to_right",
                "choices": [_lean(choice, walk) for choice in node["choices"].values()]}
    kept = ("serialization", "metadata", "cls", "function")
    out = {key: value if key in kept else _lean(value, walk) for key, value in node.items()}
    if kind == "default":
        fill = node["schema"].get("function", {}).get("function")
        if getattr(fill, "__qualname__", "") == _FILL and node.get("default", 0) is None:
            out["default"] = fill(None)  # options absent: the shared defaults
        out.pop("validate_default", None)
        factory = out.get("default_factory")
        if factory is empty_dict or factory is empty_list:  # the builtin itself: no Python frame per default
            out["default_factory"] = dict if factory is empty_dict else list
    if kind == "str" and walk.plain and node.get("pattern") in PLAIN_PATTERNS:
        if node["pattern"].endswith("+$") and not node.get("min_length"):
            raise TypeError("a plain lean schema would take an empty name")
        del out["pattern"]
    if kind == "model":
        cls = node["cls"]
        walk.classes.add(cls)
        out["config"] = {**out.get("config", {}), "validate_by_name": False}
        if issubclass(cls, Player):
            walk.players.append(cls)
        if issubclass(cls, Hand) and walk.region is not None:
            fields = out["schema"].get("fields", {})
            if "region" not in fields:
                raise TypeError(f"{cls.__name__}: the lean schema expects the hand's fields with its region")
            fields["region"] = {**fields["region"], "schema": {"type": "literal", "expected": [walk.region]}}
    return out


def _lean_options(node: Any, walk: _Lean) -> Any:
    """A region's options schema as the lean schema takes it: the model's own, without the validators
    marked by :func:`explains_refusal` (the others, G13's order and Wuhan's defaults, are kept); the
    options model classes are met (``walk.classes``) so that their own validators are not reused."""
    if isinstance(node, list):
        return [_lean_options(item, walk) for item in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if kind in ("function-before", "function-after") and \
            getattr(node["function"]["function"], "__settle_explains_refusal__", False):
        return _lean_options(node["schema"], walk)
    if kind == "model":
        walk.classes.add(node["cls"])
    kept = ("serialization", "metadata", "cls", "function")
    return {key: value if key in kept else _lean_options(value, walk) for key, value in node.items()}


def _json_players(mapping: dict[str, Any], empty: Player, listed: Player) -> dict[str, Any]:
    """``players`` of :func:`lean_json_schema`: ``mapping`` (the lean name -> player schema) with null
    and ``{}`` as ``empty``, or a list of names, each ``listed``.

    A player's facts are tried first and null or ``{}`` after: a union that fails a choice first makes
    its errors, and most players state facts (with the null-first order, each player with facts cost
    pydantic-core a refused choice: about 7% of a batch's instructions).  The player model takes
    ``{}`` too, as a player with no field set, equal to ``empty`` (tests/test_validate_bytes.py); null
    and an instance (``listed``) are what it refuses or takes as it is.

    The list's names are validated by pydantic-core as the mapping's keys are (``keys_schema``: text,
    trimmed, bounded), and only then made the mapping's keys, each given ``listed`` (a plain Python
    call, no handler: the players need no validating); two names the same after trimming are refused."""
    values = {"type": "union", "mode": "left_to_right",
              "choices": [mapping["values_schema"], _constant(_NOTHING, empty)]}
    named = {**mapping, "values_schema": values}

    def from_list(names: list[str]) -> dict[str, Player]:
        given = dict.fromkeys(names, listed)
        if len(given) != len(names):
            raise PydanticCustomError("players_list", "a name given twice")
        return given

    listing = {"type": "function-after", "function": {"type": "no-info", "function": from_list},
               "schema": {"type": "list", "items_schema": mapping["keys_schema"], "strict": True}}
    return {"type": "union", "mode": "left_to_right", "choices": [named, listing]}
