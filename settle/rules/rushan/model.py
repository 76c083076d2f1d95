"""The Rushan hand model: the shared shape (:mod:`settle.model`) with Rushan's options, fans and kong kinds.

Each class narrows the fields of its base that hold a Rushan value; its name is its name in the JSON
Schema (``RushanPlayer`` ...).  The classes have no docstring, as their schemas have no description:
pydantic would put one there.  The ``type: ignore[assignment]`` on a ``list``/``dict`` field: see
:mod:`settle.model` (a frozen model's field narrowed, which a type checker reads as invariant).
"""

from typing import Annotated

from pydantic import BeforeValidator, Field

from settle.model import (
    KONGS_HELP,
    MELD_KONG_HELP,
    MELDS_HELP,
    PLAYERS_HELP,
    WIN_FANS_HELP,
    WIN_TILES_HELP,
    Count,
    Hand,
    OneOrMany,
    Player,
    Players,
    TileMeld,
    Win,
    WinTiles,
    default_when_empty,
    empty_dict,
    empty_list,
    options_field,
    win_list,
)
from settle.rules.rushan.options import RushanOptions
from settle.rules.rushan.vocab import RushanFan, RushanKong


class RushanPlayer(Player):
    # One player's facts, with Rushan's kong kinds (R4).
    kongs: dict[RushanKong, Count] = Field(default_factory=empty_dict, description=KONGS_HELP)


class RushanTileMeld(TileMeld):
    # A declared meld of the winner; ``kong`` is a Rushan kong kind.
    kong: RushanKong | None = Field(None, description=MELD_KONG_HELP)


class RushanWinTiles(WinTiles):
    # The winner's tiles, with Rushan melds.
    melds: list[RushanTileMeld] = Field(  # type: ignore[assignment]
        default_factory=empty_list, max_length=4, description=MELDS_HELP)


class RushanWin(Win):
    # The win: Rushan bases and multipliers (R1, R2) and tiles.
    fans: list[RushanFan] = Field(default_factory=empty_list, max_length=20, description=WIN_FANS_HELP)
    tiles: RushanWinTiles | None = Field(None, description=WIN_TILES_HELP)


class RushanHand(Hand):
    # One finished Rushan hand: Rushan players, options and win(s) (several on one discard: 一炮多响, R8).
    players: Players[RushanPlayer] = Field(description=PLAYERS_HELP)  # type: ignore[assignment]
    options: Annotated[RushanOptions, BeforeValidator(default_when_empty(RushanOptions))] = options_field()
    win: OneOrMany[RushanWin] | None = None  # type: ignore[assignment]

    @property
    def wins(self) -> list[RushanWin]:
        """The win(s) as a list: one entry, or several for 一炮多响 (R8)."""
        return win_list(self.win)
