"""The Wuxue hand model: the shared shape (:mod:`settle.model`) with Wuxue's options, fans and kong kinds.

Each class narrows the fields of its base that hold a Wuxue value; its name is its name in the JSON
Schema (``WuxuePlayer`` ...).  The classes have no docstring, as their schemas have no description:
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
from settle.rules.wuxue.options import WuxueOptions
from settle.rules.wuxue.vocab import WuxueFan, WuxueKong


class WuxuePlayer(Player):
    # One player's facts, with Wuxue's kong kinds (宝杠, 癞子皮杠 ...: W3).
    kongs: dict[WuxueKong, Count] = Field(default_factory=empty_dict, description=KONGS_HELP)


class WuxueTileMeld(TileMeld):
    # A declared meld of the winner; ``kong`` is a Wuxue kong kind.
    kong: WuxueKong | None = Field(None, description=MELD_KONG_HELP)


class WuxueWinTiles(WinTiles):
    # The winner's tiles, with Wuxue melds.
    melds: list[WuxueTileMeld] = Field(  # type: ignore[assignment]
        default_factory=empty_list, max_length=4, description=MELDS_HELP)


class WuxueWin(Win):
    # The win: Wuxue fans (W2) and tiles.
    fans: list[WuxueFan] = Field(default_factory=empty_list, max_length=20, description=WIN_FANS_HELP)
    tiles: WuxueWinTiles | None = Field(None, description=WIN_TILES_HELP)


class WuxueHand(Hand):
    # One finished Wuxue hand: Wuxue players, options and win (a list of wins is rejected by the checks).
    players: Players[WuxuePlayer] = Field(description=PLAYERS_HELP)  # type: ignore[assignment]
    options: Annotated[WuxueOptions, BeforeValidator(default_when_empty(WuxueOptions))] = options_field()
    win: OneOrMany[WuxueWin] | None = None  # type: ignore[assignment]

    @property
    def the_win(self) -> WuxueWin:
        """The win of a checked hand won by someone (Wuxue has one winner per hand, 无一炮多响)."""
        return single_win(self.win)
