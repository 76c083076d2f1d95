"""The tile-level input: the winner's concealed tiles, winning tile and declared melds.

Physical limits are checked here (no fifth copy of a tile, hand size 14 - 3 per meld);
region rules (which tiles may be melded, indicator tiles) are checked by each region's
:class:`~settle.tiles.rules.TileRules`. Every problem is a :class:`~settle.tiles.errors.TileError`
(a :class:`ValueError`) with a clear message and the key it is about.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from operator import eq

from settle.tiles.errors import TileError
from settle.tiles.notation import TILE_COUNT, all_tile_ids, check_tile, format_tiles, parse_tile, parse_tiles, suit_of
from settle.tiles.quick import quick_init

CHOW, PUNG, KONG = "chow", "pung", "kong"
MELD_KINDS = (CHOW, PUNG, KONG)
# RULINGS G3: exposed (直杠/点杠/冲杠) and added (补杠/蓄杠) kongs are claims, concealed not.
KONG_KINDS = ("exposed", "added", "concealed")
_MELD_SIZE = {CHOW: 3, PUNG: 3, KONG: 4}


@dataclass(frozen=True)
class Meld:
    """A declared meld: ``kind`` chow/pung/kong, its ``tiles`` (sorted on creation).

    ``claimed`` (吃/碰/明杠 from a discard, RULINGS G3 G4) follows from the kind when
    left out: every chow and pung is claimed, a kong is claimed unless ``concealed``.
    ``kong_kind`` (exposed/added/concealed) is required for kongs only.  Errors are
    :class:`~settle.tiles.errors.TileError` at the meld's own key (``tiles``, ``kind``, ``kong``).
    """

    kind: str
    tiles: tuple[int, ...]
    claimed: bool | None = None
    kong_kind: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(check_tile(t) for t in self.tiles)))
        self._check_kind()
        self._check_tiles()
        implied = self.kind != KONG or self.kong_kind != "concealed"
        if self.claimed is None:
            object.__setattr__(self, "claimed", implied)
        elif self.claimed != implied:
            raise TileError(
                f"meld {self.describe()}: claimed={self.claimed} contradicts its kind "
                f"(chow, pung, exposed and added kongs are claims; a concealed kong is not)",
                "kind", kind="meld_claimed", values={"meld": self.kind, "kong": self.kong_kind or "",
                                                     "tiles": format_tiles(self.tiles), "claimed": self.claimed},
            )

    @classmethod
    def parse(cls, text: str, kong_kind: str | None = None) -> Meld:
        """``"123m"`` -> chow, ``"555z"`` -> pung, ``"5555m"`` with a kong kind -> kong."""
        tiles = tuple(sorted(parse_tiles(text)))
        if len(tiles) == 4:
            kind = KONG
        elif len(tiles) == 3 and tiles[0] == tiles[2]:
            kind = PUNG
        else:
            kind = CHOW
        return cls(kind, tiles, None, kong_kind)

    def describe(self) -> str:
        label = f"{self.kong_kind} kong" if self.kind == KONG else self.kind
        return f"{label} {format_tiles(self.tiles)}"

    def _check_kind(self) -> None:
        if self.kind not in MELD_KINDS:
            raise TileError(f"bad meld kind {self.kind!r}: use one of {', '.join(MELD_KINDS)}", "kind",
                            kind="bad_meld_kind", values={"meld": self.kind, "allowed": ", ".join(MELD_KINDS)})
        if (self.kind == KONG) != (self.kong_kind is not None):
            raise TileError(
                f"meld {self.kind} {format_tiles(self.tiles)}: kong_kind is required for a kong "
                f"({', '.join(KONG_KINDS)}) and not allowed otherwise",
                "kong", kind="kong_kind_for_kongs",
                values={"meld": self.kind, "tiles": format_tiles(self.tiles), "allowed": ", ".join(KONG_KINDS)},
            )
        if self.kong_kind is not None and self.kong_kind not in KONG_KINDS:
            raise TileError(f"bad kong kind {self.kong_kind!r}: use one of {', '.join(KONG_KINDS)}", "kong",
                            kind="bad_kong_kind", values={"kong": self.kong_kind, "allowed": ", ".join(KONG_KINDS)})

    def _check_tiles(self) -> None:
        tiles = self.tiles
        if len(tiles) != _MELD_SIZE[self.kind]:
            raise TileError(f"meld {self.kind} {format_tiles(tiles)}: needs {_MELD_SIZE[self.kind]} tiles", "tiles",
                            kind="meld_size",
                            values={"meld": self.kind, "tiles": format_tiles(tiles), "size": _MELD_SIZE[self.kind]})
        if self.kind == CHOW:
            low = tiles[0]
            if low >= 27 or suit_of(tiles[2]) != suit_of(low) or tiles != (low, low + 1, low + 2):
                raise TileError(f"meld chow {format_tiles(tiles)}: not three consecutive tiles of a suit", "tiles",
                                kind="chow_run", values={"tiles": format_tiles(tiles)})
        elif len(set(tiles)) != 1:
            raise TileError(f"meld {self.kind} {format_tiles(tiles)}: tiles must all be the same", "tiles",
                            kind="meld_same", values={"meld": self.kind, "tiles": format_tiles(tiles)})


MeldSpec = Meld | str | tuple[str, str | None]


@quick_init
@dataclass(frozen=True)
class TileHand:
    """The winner's tiles (seed 000 1.3, seed 003 胡牌规则, seed 004 胡牌要求; RULINGS G3).

    ``concealed``: tiles in hand including ``win_tile``, sorted on creation; there are
    ``14 - 3 * len(melds)`` of them (a kong counts as 3). Single-tile gang discards
    (Wuhan 红中/发财/癞子杠, Wuxue 宝杠/癞子皮杠) are not melds: they are replaced.
    ``indicator``: the flipped tile (Wuhan, Wuxue). ``bao_tile``: Rushan 搂宝 tile.
    Errors are :class:`~settle.tiles.errors.TileError` at ``hand``, ``win_tile`` or ``melds``
    (a bad tile id or a fifth copy: the tiles as a whole).
    """

    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    indicator: int | None = None
    bao_tile: int | None = None

    def __post_init__(self) -> None:
        fields = self.__dict__  # frozen: the fields are set in place, as object.__setattr__ would
        concealed = self.concealed
        if type(concealed) is not tuple:
            concealed = tuple(concealed)
        if not all_tile_ids(concealed):
            concealed = tuple(check_tile(t) for t in concealed)  # raises for the first bad one
        fields["concealed"] = concealed = tuple(sorted(concealed))
        melds = self.melds
        if type(melds) is not tuple:
            fields["melds"] = melds = tuple(melds)
        win_tile = self.win_tile
        if type(win_tile) is not int or not 0 <= win_tile < TILE_COUNT:
            check_tile(win_tile)
        if self.indicator is not None:
            check_tile(self.indicator)
        if self.bao_tile is not None:
            check_tile(self.bao_tile)
        if melds or len(concealed) != 14:
            self._check_size()
        if win_tile not in concealed:
            raise TileError(
                f"win_tile {format_tiles([win_tile])} is not among the concealed tiles "
                f"{format_tiles(concealed)} (the hand includes the winning tile)",
                "win_tile", kind="win_tile_not_held",
                values={"win_tile": format_tiles([win_tile]), "concealed": format_tiles(concealed)},
            )
        if melds or any(map(eq, concealed, concealed[4:])):  # sorted: a fifth copy is 4 places after the first
            self._check_copies()

    @classmethod
    def parse(
        cls,
        hand: str,
        win_tile: str | int,
        melds: Iterable[MeldSpec] = (),
        indicator: str | int | None = None,
        bao_tile: str | int | None = None,
    ) -> TileHand:
        """Build from notation: ``TileHand.parse("123m456p789s11z555z", "5z")``.

        A meld is a :class:`Meld`, a string (``"123m"``, ``"555p"``) or, for a kong,
        ``("5555m", "concealed")``.
        """
        return cls(
            tuple(parse_tiles(hand)),
            parse_tile(win_tile),
            tuple(_meld_from_spec(spec) for spec in melds),
            None if indicator is None else parse_tile(indicator),
            None if bao_tile is None else parse_tile(bao_tile),
        )

    def all_tiles(self) -> list[int]:
        """Concealed tiles and every meld tile (a kong gives 4)."""
        return [*self.concealed, *(t for meld in self.melds for t in meld.tiles)]

    def _check_size(self) -> None:
        if len(self.melds) > 4:
            raise TileError(f"at most 4 melds, got {len(self.melds)}", "melds", kind="too_many_melds",
                            values={"count": len(self.melds)})
        expected = 14 - 3 * len(self.melds)
        if len(self.concealed) != expected:
            raise TileError(
                f"{len(self.concealed)} concealed tiles with {len(self.melds)} melds: "
                f"a winning hand holds 14 - 3 per meld = {expected} (winning tile included)",
                "hand", kind="concealed_count",
                values={"count": len(self.concealed), "melds": len(self.melds), "expected": expected},
            )

    def _check_copies(self) -> None:
        tiles = self.all_tiles() if self.melds else self.concealed
        ordered = sorted(tiles) if self.melds else tiles  # the concealed tiles are sorted already
        if not any(map(eq, ordered, ordered[4:])):  # sorted: a fifth copy is 4 places after the first
            return  # the usual case, told quickly
        for tile, count in Counter(tiles).items():
            if count > 4:
                raise TileError(
                    f"{count} copies of {format_tiles([tile])} across hand and melds: there are only 4 of each tile",
                    kind="five_copies", values={"count": count, "tile": format_tiles([tile])},
                )


def closed_hand(concealed: tuple[int, ...], win_tile: int) -> TileHand:
    """``TileHand(concealed, win_tile)`` of tile ids already read (:func:`~settle.tiles.notation.parse_tile_ids`
    and :func:`~settle.tiles.notation.parse_tile` give ints 0..33 only): the same hand, 14 concealed tiles
    and no meld, made without checking the ids again (the usual tile hand: about a third of the cost).
    Any other hand (another size, a winning tile not held, a fifth copy) is made by ``TileHand`` itself,
    which raises its error."""
    ordered = tuple(sorted(concealed))
    if len(ordered) != 14 or win_tile not in ordered or any(map(eq, ordered, ordered[4:])):
        return TileHand(concealed, win_tile)
    hand = _new(TileHand)
    _set(hand, "__dict__", {"concealed": ordered, "win_tile": win_tile, "melds": (), "indicator": None,
                            "bao_tile": None})
    return hand


_new = object.__new__
_set = object.__setattr__


def _meld_from_spec(spec: MeldSpec) -> Meld:
    if isinstance(spec, Meld):
        return spec
    if isinstance(spec, str):
        return Meld.parse(spec)
    text, kong_kind = spec
    return Meld.parse(text, kong_kind)
