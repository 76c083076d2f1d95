"""TileError: every engine error names the key it is about (issue 13: no caller reads the text).

Fields are keys of the hand file's ``win.tiles`` (``hand``, ``win_tile``, ``indicator``,
``bao_tile``, ``melds``, ``("melds", j, "tiles")``), ``fans`` for the stated situations, or None
for the tiles as a whole.  The texts are those settle has always shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import pytest

from settle import HandError, settle_hand
from settle.engine.tilelevel import TileWin, engine_problem
from settle.errors import format_path
from settle.rules.rushan.tiles import TILE_RULES as RUSHAN
from settle.rules.wuhan.tiles import TILE_RULES as WUHAN
from settle.rules.wuxue.tiles import TILE_RULES as WUXUE
from settle.tiles import Meld, TileError, TileHand, TileRules, evaluate_all
from settle.tiles.errors import Field


def raised(make: Callable[[], object]) -> TileError:
    with pytest.raises(TileError) as info:
        make()
    return info.value


def run(
    rules: TileRules,
    text: str,
    win: str,
    melds: Iterable[str] = (),
    indicator: str | None = None,
    bao: str | None = None,
    by: str = "self_draw",
    situations: Iterable[str] = (),
    options: Mapping[str, object] | None = None,
) -> Callable[[], object]:
    return lambda: evaluate_all(rules, TileHand.parse(text, win, melds, indicator, bao), options, by, situations)


HAND = "22m 345m 678p 234s 666s"


@pytest.mark.parametrize(
    ("make", "field", "words"),
    [
        # TileHand (physical limits)
        (lambda: TileHand.parse("22m", "2m", ["123m", "456m", "789m", "123p", "456p"]), "melds", "at most 4 melds"),
        (lambda: TileHand.parse("22m 345m", "2m"), "hand", "5 concealed tiles with 0 melds"),
        (lambda: TileHand.parse(HAND, "9m"), "win_tile", "win_tile 9m is not among the concealed tiles"),
        (lambda: TileHand.parse("2222m 345m 678p 4s", "4s", ["222m"]), None, "7 copies of 2m across hand and melds"),
        (lambda: TileHand((0,) * 14, 40), None, "bad tile id 40"),
        # Meld (at the meld's own keys)
        (lambda: Meld("chow", (0, 1, 3)), "tiles", "not three consecutive"),
        (lambda: Meld("pair", (0, 0, 0)), "kind", "bad meld kind"),
        (lambda: Meld("kong", (0, 0, 0, 0)), "kong", "kong_kind is required"),
        # evaluate_all: the win, options and situations
        (run(WUHAN, HAND, "6s", indicator="4s", by="tsumo"), None, "bad win type"),
        (run(RUSHAN, HAND, "6s", options={"jiang258": "yes"}), None, "option jiang258 must be true or false"),
        (run(WUHAN, HAND, "6s", indicator="4s", situations=["qingyise"]), "fans", "derived from the tiles"),
        (run(WUHAN, HAND, "6s", indicator="4s", by="discard", situations=["haidilao"]), "fans", "needs by=self_draw"),
        (run(RUSHAN, HAND, "6s", situations=["mobao"], options={"loubao": True}), "bao_tile", "needs the bao_tile"),
        (run(RUSHAN, HAND, "6s", bao="2m", situations=["mobao"], options={"loubao": True}), "win_tile",
         "needs the winning tile to be the bao_tile 2m, got 6s"),
        # evaluate_all: the wildcards
        (run(WUHAN, HAND, "6s"), "indicator", "the flipped tile is required in wuhan"),
        (run(WUXUE, HAND, "6s"), "indicator", "the flipped tile is required in wuxue"),
        (run(RUSHAN, HAND, "6s", indicator="1m"), "indicator", "Rushan has no flipped wildcard indicator"),
        (run(RUSHAN, HAND, "6s", bao="6s"), "bao_tile", "only played with option loubao"),
        (run(WUHAN, HAND, "6s", indicator="4s", bao="6s"), "bao_tile",
         "bao_tile is Rushan's 搂宝 tile; wuhan derives its wildcard from the indicator"),
        # evaluate_all: the region's tile checks
        (run(WUHAN, "22m 345m 666s", "6s", ["678p", "555z"], indicator="4s"), ("melds", 1, "tiles"),
         "meld pung 555z: wuhan cannot meld 5z"),
        (run(WUXUE, "22m 345m 666s", "6s", ["678p", "555z"], indicator="4s"), ("melds", 1, "tiles"),
         "meld pung 555z: wuxue cannot meld 5z"),
        (run(RUSHAN, "22m 345m 666s", "6s", ["555p", "678p"], options={"no_chow": True}), ("melds", 1, "tiles"),
         "meld chow 678p: option no_chow 只碰不吃 allows no chow (R9)"),
        (run(WUHAN, "2m 5s 345m 678p 234s 666s", "5s", indicator="4s", by="discard"), "win_tile",
         "win_tile 5s is the wildcard: it can only be self-drawn"),
        (run(WUXUE, "22m 99m 345m 678p 444s 4s", "2m", indicator="4s"), "hand",
         "4 copies of the flipped indicator 4s: it is out of play, 3 are left"),
        (run(RUSHAN, "22m 345m 678p 234s 111z", "2m", options={"no_honors": True}), "hand",
         "option no_honors 不带风: honour tiles are not in play (R9)"),
    ],
)
def test_each_error_names_its_key(make: Callable[[], object], field: Field, words: str) -> None:
    error = raised(make)
    assert error.field == field
    assert words in str(error)


def test_a_keyed_message_names_the_key_first_and_its_detail_does_not() -> None:
    # The engine's text has always started with the key for these two; a caller that shows the
    # message at the key (win.tiles.indicator) takes ``detail``.
    error = raised(run(WUHAN, HAND, "6s"))
    assert str(error) == "indicator: the flipped tile is required in wuhan (it fixes the wildcard)"
    assert error.detail == "the flipped tile is required in wuhan (it fixes the wildcard)"
    assert error.path == ("indicator",)
    error = raised(run(RUSHAN, HAND, "6s", indicator="1m"))
    assert str(error) == "indicator: Rushan has no flipped wildcard indicator (use bao_tile)"
    assert error.detail == "Rushan has no flipped wildcard indicator (use bao_tile)"


def test_unkeyed_errors_say_the_same_either_way() -> None:
    error = raised(run(WUHAN, "22m 345m 666s", "6s", ["678p", "555z"], indicator="4s"))
    assert error.detail == str(error)
    assert error.path == ("melds", 1, "tiles")
    assert raised(lambda: TileHand((0,) * 14, 40)).path == ()


def test_tile_errors_are_value_errors() -> None:
    # Callers that catch ValueError keep working.
    with pytest.raises(ValueError, match="indicator"):
        run(WUHAN, HAND, "6s")()


# --- where the tile-level settlement puts them (settle.engine.tilelevel reads the field) ---------

FOUR = ["A", "B", "C", "D"]


def located(region: str, tiles: dict[str, object], by: str = "self_draw", fans: list[str] | None = None,
            options: dict[str, object] | None = None) -> list[tuple[str, str]]:
    """(key path, message) of every problem of a hand where D wins with ``tiles``."""
    win: dict[str, object] = {"winner": "D", "by": by, "tiles": tiles}
    if by != "self_draw":
        win["from"] = "A"
    if fans is not None:
        win["fans"] = fans
    data = {"region": region, "players": FOUR, "dealer": "A", "win": win, **({"options": options} if options else {})}
    with pytest.raises(HandError) as info:
        settle_hand(data)
    return [(format_path(p.path), p.message) for p in info.value.problems]


def test_a_barred_second_meld_is_reported_at_that_meld() -> None:
    melds = [{"kind": "chow", "tiles": "678p", "from": "C"}, {"kind": "pung", "tiles": "555z", "from": "B"}]
    found = located("wuhan", {"hand": "22m 345m 666s", "win_tile": "6s", "melds": melds, "indicator": "4s"})
    assert found == [("win.tiles.melds[1].tiles", "meld pung 555z: wuhan cannot meld 5z")]


def test_a_bao_situation_is_reported_at_the_bao_tile_or_the_winning_tile() -> None:
    tiles = {"hand": "22m 345m 678p 234s 666s", "win_tile": "6s"}
    [(path, message)] = located("rushan", tiles, fans=["mobao"], options={"loubao": True})
    assert (path, message) == ("win.tiles.bao_tile", "situation mobao needs the bao_tile (搂宝, R9)")
    [(path, message)] = located("rushan", {**tiles, "bao_tile": "2m"}, fans=["mobao"], options={"loubao": True})
    assert path == "win.tiles.win_tile" and "needs the winning tile to be the bao_tile 2m" in message


def test_the_key_is_not_repeated_in_the_message() -> None:
    [(path, message)] = located("wuxue", {"hand": "22m 345m 678p 234s 666s", "win_tile": "6s"})
    assert (path, message) == ("win.tiles.indicator", "the flipped tile is required in wuxue (it fixes the wildcard)")
    [(path, message)] = located("rushan", {"hand": "22m 345m 678p 234s 666s", "win_tile": "6s", "indicator": "1m"})
    assert (path, message) == ("win.tiles.indicator", "Rushan has no flipped wildcard indicator (use bao_tile)")


def test_hand_level_tile_checks_are_reported_at_the_hand() -> None:
    [(path, message)] = located("wuxue", {"hand": "22m 99m 345m 678p 444s 4s", "win_tile": "2m", "indicator": "4s"})
    assert path == "win.tiles.hand" and "out of play" in message
    [(path, message)] = located("rushan", {"hand": "22m 345m 678p 234s 111z", "win_tile": "2m"},
                                options={"no_honors": True})
    assert path == "win.tiles.hand" and "no_honors" in message


def test_tile_hand_errors_are_reported_at_their_key() -> None:
    [(path, message)] = located("wuhan", {"hand": "22m 345m", "win_tile": "2m", "indicator": "4s"})
    assert path == "win.tiles.hand" and "14 - 3 per meld" in message
    [(path, message)] = located("wuhan", {"hand": "22m 345m 678p 234s 666s", "win_tile": "9m", "indicator": "4s"})
    assert path == "win.tiles.win_tile" and "not among the concealed tiles" in message


def test_each_field_goes_under_win_tiles_but_fans_under_the_win() -> None:
    # A situation that does not fit (G10) is mostly caught by the shared checks before the engine
    # runs; where the engine finds it, the problem goes to the win's own fans.
    tile_win = TileWin(1, ("win", 1), "D", TileHand.parse(HAND, "6s"), (), None, {})
    where = {
        "fans": "win[1].fans",
        "indicator": "win[1].tiles.indicator",
        ("melds", 2, "tiles"): "win[1].tiles.melds[2].tiles",
        None: "win[1].tiles",
    }
    for field, path in where.items():
        problem = engine_problem(TileError("words", field), tile_win)
        assert (format_path(problem.path), problem.message) == (path, "words")
    assert format_path(engine_problem(ValueError("other"), tile_win).path) == "win[1].tiles"
