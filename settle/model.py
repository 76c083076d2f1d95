"""Hand-file input models (pydantic v2), shared by every region.

The shapes follow ../shared/HAND-FORMAT.md.  Each region parametrises the generic
:class:`Hand` with its own options model, fan vocabulary and kong kinds
(``Hand[WuhanOptions, WuhanFan, WuhanKong]``), so pydantic checks every value
against that region's tables and reports the key path of each error.

Checks that need several fields at once (a winner who is also ``from``, ``opens``
below ``exposed + added`` ...) live in :mod:`settle.checks` and in the regions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Generic, Literal, TypeVar

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
    model_validator,
)
from pydantic_core import PydanticCustomError

from settle.vocab import WinBy

OptT = TypeVar("OptT", bound=BaseModel)
FanT = TypeVar("FanT")
KongT = TypeVar("KongT")

Name = Annotated[
    str,
    StringConstraints(strict=True, strip_whitespace=True, min_length=1, max_length=40,
                      pattern=r"^[^\x00-\x1f\x7f]+$"),
    Field(description="a player's name as listed in `players`"),
]
"""A player's name: text of 1–40 characters (spaces trimmed; numbers must be quoted)."""

Count = Annotated[StrictInt, Field(ge=0, le=64)]
"""A whole count (bool is not a count); the physical limit per key is checked later."""

FanTotal = Annotated[StrictInt, Field(ge=0, le=64, description="番 / 斤 total, 0–64")]
"""An explicit per-player 番/斤 total (G5): 0–64, so 2**total stays small."""

NOBODY = "none"
"""``win.liable: none`` states that nobody is liable (G7)."""

_NOBODY_SPELLINGS = {"none", "nobody", "无", "無", "无人", "無人"}


def _none_alias(value: object) -> object:
    if isinstance(value, str) and value.strip().lower() in _NOBODY_SPELLINGS:
        return NOBODY
    return value


Liable = Annotated[Name, BeforeValidator(_none_alias)]


class Strict(BaseModel):
    """Base for input models: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Player(Strict, Generic[KongT]):
    """One player's facts (a value of the ``players`` mapping); omitted facts are zero (G8).

    ``opens`` (开口): a count, or the list of players who fed each claim in order (G4);
    ``kongs``: kind -> count (kinds per region); ``ready``: 听牌 (Wuhan H7 a);
    ``fish``: Rushan 飘鱼 0–2 (R6).
    """

    opens: Count | Annotated[list[Name], Field(max_length=4)] = Field(
        0, description="开口: a count, or who fed each claim from a discard, in order (G4)")
    kongs: dict[KongT, Count] = Field(default_factory=dict, description="杠: kind -> count")
    ready: StrictBool = Field(False, description="听牌 when the hand ended (Wuhan H7 a)")
    fish: Annotated[StrictInt, Field(ge=0, le=2)] = Field(0, description="乳山 飘鱼 0, 1 or 2 (R6)")

    @property
    def open_count(self) -> int:
        """Number of opens (claims from a discard), whichever form was given."""
        return len(self.opens) if isinstance(self.opens, list) else self.opens

    @property
    def feeders(self) -> list[str] | None:
        """Who fed each open, in order, or None when ``opens`` is a bare count."""
        return self.opens if isinstance(self.opens, list) else None

    def kong_count(self, *kinds: str) -> int:
        """How many kongs of the given kinds (all kinds when none given)."""
        return sum(n for kind, n in self.kongs.items() if not kinds or kind in kinds)


class Win(Strict, Generic[FanT]):
    """The win: who won, how, from whom, and the named items claimed (HAND-FORMAT "The win")."""

    winner: Name
    by: WinBy  # type: ignore[valid-type]
    from_: Name | None = Field(None, alias="from",
                               description="the discarder, or the robbed player (G6)")
    fans: list[FanT] = Field(default_factory=list, max_length=20,
                             description="named scoring items the winner claims")
    liable: Liable | None = Field(
        None, description="包牌/承包 player, or `none`; overrides the derivation (G7)")
    tiles: dict[str, Any] | None = Field(None, description="tile-level hand (optional)")

    @property
    def discarder(self) -> str | None:
        """The player treated as discarder: ``from`` on a discard or robbed kong (G6)."""
        return self.from_ if self.by != "self_draw" else None


class Abandon(Strict):
    """Wuhan 逃跑 (H9): ``{by: NAME}``, the player who left the game."""

    by: Name


def _players_mapping(value: object) -> object:
    """Accept the list form; reject names repeated after trimming spaces."""
    if isinstance(value, list):
        _reject_repeats(value)
        return {name: {} for name in value}
    if isinstance(value, Mapping):
        _reject_repeats(list(value))
        return {name: ({} if details is None else details) for name, details in value.items()}
    return value


def _reject_repeats(names: list[object]) -> None:
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str):
            continue
        trimmed = name.strip()
        if trimmed in seen:
            raise PydanticCustomError(
                "duplicate_player",
                "player {name!r} is listed twice (names are compared after trimming spaces)",
                {"name": trimmed})
        seen.add(trimmed)


def _win_shape(value: object) -> str:
    return "many" if isinstance(value, list) else "one"


def _none_as_empty(value: object) -> object:
    return {} if value is None else value


class Hand(Strict, Generic[OptT, FanT, KongT]):
    """One finished hand (局), as in HAND-FORMAT.md "Top-level keys".

    Exactly one of ``win``, ``draw: true`` or ``abandon`` (checked in :mod:`settle.checks`).
    ``fans`` (alias ``jin``) are per-player totals that replace the counted ones (G5).
    """

    id: Annotated[str, StringConstraints(max_length=200)] | StrictInt | None = None
    region: str
    players: Annotated[dict[Name, Player[KongT]], BeforeValidator(_players_mapping)] = Field(
        description="seating = turn order (G1): a list of names, or name -> details")
    dealer: Name | None = Field(None, description="庄家")
    options: Annotated[OptT, BeforeValidator(_none_as_empty)] = Field(
        None, validate_default=True, description="house-rule options of the region")
    win: Annotated[
        Annotated[Win[FanT], Tag("one")] | Annotated[list[Win[FanT]], Tag("many")],
        Discriminator(_win_shape),
    ] | None = None
    draw: StrictBool = Field(False, description="荒庄 / 流局: nobody won")
    abandon: Abandon | None = Field(None, description="Wuhan 逃跑 (H9)")
    fans: dict[Name, FanTotal] | None = Field(
        None, validation_alias=AliasChoices("fans", "jin"),
        description="per-player 番/斤 totals that replace the counted ones (G5); alias jin")

    @model_validator(mode="before")
    @classmethod
    def _one_spelling_per_field(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "fans" in data and "jin" in data:
            raise PydanticCustomError(
                "alias_clash", "give either `fans` or its alias `jin`, not both")
        return data

    @property
    def names(self) -> list[str]:
        """Player names in seating order (G1)."""
        return list(self.players)

    @property
    def wins(self) -> list[Win[FanT]]:
        """The win(s) as a list: one entry, or several for Rushan 一炮多响 (R8)."""
        if self.win is None:
            return []
        return self.win if isinstance(self.win, list) else [self.win]

    def explicit_total(self, name: str) -> int | None:
        """The stated 番/斤 total of ``name`` (G5), or None when it is to be counted."""
        return None if self.fans is None else self.fans.get(name)


WinByKey = Literal["self_draw", "discard", "robbed_kong"]
