"""TileHand / Meld: physical limits and clear errors."""

from __future__ import annotations

import pytest

from settle.tiles import Meld, TileHand


def test_hand_is_sorted_and_keeps_melds() -> None:
    hand = TileHand.parse("9s 22m 345m 678p 666s 78s", "9s", melds=[], indicator="1z")
    assert hand.concealed == tuple(sorted(hand.concealed))
    assert hand.indicator == 27


def test_meld_kinds_are_inferred() -> None:
    assert Meld.parse("321m").kind == "chow"
    assert Meld.parse("555z").kind == "pung"
    kong = Meld.parse("5555m", "added")
    assert (kong.kind, kong.claimed) == ("kong", True)
    assert Meld.parse("5555m", "concealed").claimed is False  # G3: 暗杠 is no claim


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Meld.parse("135m"), "consecutive"),
        (lambda: Meld.parse("89m1p"), "consecutive"),  # no wrap across suits
        (lambda: Meld.parse("123z"), "consecutive"),  # honours never chow
        (lambda: Meld.parse("5555m"), "kong_kind is required"),
        (lambda: Meld.parse("5555m", "secret"), "bad kong kind"),
        (lambda: Meld("pung", (1, 1, 2)), "the same"),
        (lambda: Meld("chow", (0, 1, 2), claimed=False), "contradicts"),
        (lambda: Meld("kong", (0, 0, 0, 0), claimed=True, kong_kind="concealed"), "contradicts"),
        (lambda: Meld("triple", (0, 0, 0)), "bad meld kind"),
    ],
)
def test_bad_melds(build, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        build()


def test_hand_size_must_match_melds() -> None:
    # 14 tiles minus 3 per meld, kongs counting as 3.
    with pytest.raises(ValueError, match="14 - 3 per meld = 11"):
        TileHand.parse("22m 345m 678p 234s 666s", "6s", melds=["123p"])
    TileHand.parse("22m 345m 678p 666s", "6s", melds=[("1111p", "exposed")])


def test_fifth_copy_is_rejected() -> None:
    with pytest.raises(ValueError, match="5 copies of 6s"):
        TileHand.parse("22m 345m 678p 678s", "6s", melds=[("6666s", "concealed")])


def test_win_tile_must_be_in_hand() -> None:
    with pytest.raises(ValueError, match="win_tile 9s"):
        TileHand.parse("22m 345m 678p 234s 666s", "9s")


def test_at_most_four_melds() -> None:
    with pytest.raises(ValueError, match="at most 4 melds"):
        TileHand.parse("", "1m", melds=["123m"] * 5)


def test_closed_hand_is_the_tile_hand_of_read_ids() -> None:
    """``closed_hand`` of ids as parse_tile_ids reads them: the very TileHand (fields, equality, hash)."""
    from settle.tiles.hand import closed_hand
    from settle.tiles.notation import parse_tile_ids

    # 88m 334455678p 222s: 7,7 (8m), 11,11,12,12,13,13,14,15,16 (3p..9p), 19,19,19 (2s); sorted by id.
    ids = parse_tile_ids("88m334455678p222s")
    hand = closed_hand(ids, 7)
    assert hand.concealed == (7, 7, 11, 11, 12, 12, 13, 13, 14, 15, 16, 19, 19, 19)
    assert (hand.win_tile, hand.melds, hand.indicator, hand.bao_tile) == (7, (), None, None)
    assert hand == TileHand(ids, 7) and hash(hand) == hash(TileHand(ids, 7))
    assert vars(hand) == vars(TileHand(ids, 7))  # the same fields, in the same order


@pytest.mark.parametrize(
    ("text", "win_tile", "message"),
    [
        ("88m334455678p22s", 7, "13 concealed tiles"),  # 13 tiles, no meld: 14 - 3 * 0 = 14 wanted
        ("88m334455678p222s", 0, "win_tile 1m is not among"),  # 1m (id 0) not held
        ("88888m4455678p22s", 7, "5 copies of 8m"),  # 8m five times
    ],
)
def test_closed_hand_raises_what_tile_hand_raises(text: str, win_tile: int, message: str) -> None:
    from settle.tiles.hand import closed_hand
    from settle.tiles.notation import parse_tile_ids

    ids = parse_tile_ids(text)
    with pytest.raises(ValueError, match=message) as fast:
        closed_hand(ids, win_tile)
    with pytest.raises(ValueError) as plain:
        TileHand(ids, win_tile)
    assert (type(fast.value), str(fast.value)) == (type(plain.value), str(plain.value))
