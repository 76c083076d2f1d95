"""The Wuhan hand model: the shared shape (:mod:`settle.model`) with Wuhan's options, fans and kong kinds.

Each class narrows the fields of its base that hold a Wuhan value; its name is its name in the JSON
Schema (``WuhanPlayer`` ...).  The classes have no docstring, as their schemas have no description:
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
    single_win,
)
from settle.rules.wuhan.options import WuhanOptions
from settle.rules.wuhan.vocab import WuhanFan, WuhanKong


class WuhanPlayer(Player):
    # One player's facts, with Wuhan's kong kinds (H1).
    kongs: dict[WuhanKong, Count] = Field(default_factory=empty_dict, description=KONGS_HELP)


class WuhanTileMeld(TileMeld):
    # A declared meld of the winner; ``kong`` is a Wuhan kong kind.
    kong: WuhanKong | None = Field(None, description=MELD_KONG_HELP)


class WuhanWinTiles(WinTiles):
    # The winner's tiles, with Wuhan melds.
    melds: list[WuhanTileMeld] = Field(  # type: ignore[assignment]
        default_factory=empty_list, max_length=4, description=MELDS_HELP)


class WuhanWin(Win):
    # The win: Wuhan fans (H3) and tiles.
    fans: list[WuhanFan] = Field(default_factory=empty_list, max_length=20, description=WIN_FANS_HELP)
    tiles: WuhanWinTiles | None = Field(None, description=WIN_TILES_HELP)


class WuhanHand(Hand):
    # One finished Wuhan hand: Wuhan players, options and win (a list of wins is rejected by the checks).
    players: Players[WuhanPlayer] = Field(description=PLAYERS_HELP)  # type: ignore[assignment]
    options: Annotated[WuhanOptions, BeforeValidator(default_when_empty(WuhanOptions))] = options_field()
    win: OneOrMany[WuhanWin] | None = None  # type: ignore[assignment]

    @property
    def the_win(self) -> WuhanWin:
        """The win of a checked hand won by someone (Wuhan has one winner per hand, 一炮单响)."""
        return single_win(self.win)
