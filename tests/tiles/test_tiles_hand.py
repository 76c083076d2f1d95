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
