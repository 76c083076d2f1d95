"""Property tests: RULINGS G12's invariants over random valid hands of all three regions.

Each invariant is one test, run for every region (so 4 invariants x 3 regions = 12 properties):

* G2/G12  the nets sum to zero, except a Wuhan 逃跑 forfeit (H9), where they sum to minus the penalty;
* G12     with a single winner, one more fan or kong for the winner never lowers the winner's net
          (包牌 included: the liable player pays everyone's amounts, so the winner's total is unchanged);
* G12     no loser pays more than ``max(cap, golden amounts)`` + 漂/fish, unless liable (H5-H7, W7-W11, R6-R7);
* G1/G12  renaming the players and rotating the seating (dealer and roles following) changes no amount.

The hands come from ``tests/strategies.py`` (valid by construction: a rejected hand fails the test).
Derandomised, so CI runs the same examples every time.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import HANDS, REGIONS, Hand, one_more, option, renamed_and_rotated, seat_names, single_win_hand

from settle import HandError, Settlement, settle_hand

EXAMPLES = 250
"""Examples per property (per region)."""

PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)


def settled(data: Hand) -> Settlement:
    """Settle a hand the strategies built as valid: a HandError here is a validation bug."""
    try:
        return settle_hand(data)
    except HandError as exc:  # pragma: no cover - the message is the point
        pytest.fail(f"a valid hand was rejected:\n{exc}\n{data}")


def paid_by(result: Settlement) -> dict[str, int]:
    """What each payer pays in total."""
    out: dict[str, int] = {}
    for t in result.transfers:
        out[t.payer] = out.get(t.payer, 0) + t.amount
    return out


# --- nets sum to zero (G2, G12; H9 forfeit) -----------------------------------------------------


@pytest.mark.parametrize("region", REGIONS)
@PROPERTY
@given(data=st.data())
def test_nets_sum_to_zero_except_a_forfeit(region: str, data: st.DataObject) -> None:
    hand = data.draw(HANDS[region](), label="hand")
    result = settled(hand)
    forfeit = result.forfeit.amount if result.forfeit is not None else 0
    assert sum(result.net.values()) == -forfeit
    if result.forfeit is not None:  # only a Wuhan abandon with escape_paid_to: none (H9)
        assert region == "wuhan" and "abandon" in hand and option(hand, "escape_paid_to", "none") == "none"
        assert result.forfeit.amount == option(hand, "escape_penalty", 500 if option(hand, "koukou", False) else 400)


# --- one more fan or kong never lowers the winner's net (G12) ----------------------------------------


@pytest.mark.parametrize("region", REGIONS)
@PROPERTY
@given(data=st.data())
def test_one_more_fan_or_kong_never_lowers_the_winners_net(region: str, data: st.DataObject) -> None:
    hand = data.draw(single_win_hand(region), label="hand")
    added, bigger = data.draw(one_more(hand), label="added")
    winner = (hand["win"] if isinstance(hand["win"], dict) else hand["win"][0])["winner"]
    before, after = settled(hand), settled(bigger)
    assert after.net[winner] >= before.net[winner], (
        f"{added} lowered {winner}'s net from {before.net[winner]} to {after.net[winner]}")


# --- no loser pays more than the top cap + 漂/fish unless liable (G12) -------------------------------


def _wuhan_top(hand: Hand, payer: str, result: Settlement) -> int:
    koukou = option(hand, "koukou", False)
    return max(option(hand, "cap", 400), option(hand, "golden", 600 if koukou else 500),
               option(hand, "bright", 700 if koukou else 600))


def _wuxue_top(hand: Hand, payer: str, result: Settlement) -> int:
    piao = option(hand, "piao", 0) * (2 if option(hand, "piao_both_sides", False) else 1)
    return max(option(hand, "cap", 15), option(hand, "small_golden", 20), option(hand, "golden", 30)) + piao


def _rushan_top(hand: Hand, payer: str, result: Settlement) -> int:
    cap = option(hand, "cap", 32)
    if option(hand, "cap_includes_fish", False):
        return cap
    fish = {name: facts.get("fish", 0) for name, facts in hand["players"].items()}
    return cap + sum(fish[payer] + fish[t.payee] for t in result.transfers if t.payer == payer)


TOP = {"wuhan": _wuhan_top, "wuxue": _wuxue_top, "rushan": _rushan_top}


@pytest.mark.parametrize("region", REGIONS)
@PROPERTY
@given(data=st.data())
def test_no_loser_pays_more_than_the_top_cap_unless_liable(region: str, data: st.DataObject) -> None:
    hand = data.draw(HANDS[region]("win"), label="hand")
    result = settled(hand)
    for payer, amount in paid_by(result).items():
        if payer == result.liable:
            continue
        top = TOP[region](hand, payer, result)
        assert amount <= top, f"{payer} pays {amount}, more than {top}"


# --- renaming and rotating change no amount (G1, G12) ----------------------------------------------


@pytest.mark.parametrize("region", REGIONS)
@PROPERTY
@given(data=st.data())
def test_renaming_and_rotating_change_no_amount(region: str, data: st.DataObject) -> None:
    hand = data.draw(HANDS[region](), label="hand")
    old = list(hand["players"])
    rename = dict(zip(old, data.draw(seat_names(len(old)), label="new names"), strict=True))
    turn = data.draw(st.integers(0, len(old) - 1), label="turn")
    moved = renamed_and_rotated(hand, rename, turn)
    before, after = settled(hand), settled(moved)

    def mapped(name: Any) -> Any:
        return None if name is None else rename[name]

    assert {rename[n]: v for n, v in before.net.items()} == after.net
    assert sorted((rename[t.payer], rename[t.payee], t.amount) for t in before.transfers) == sorted(
        (t.payer, t.payee, t.amount) for t in after.transfers)
    assert mapped(before.next_dealer) == after.next_dealer
    assert mapped(before.liable) == after.liable
    assert (before.forfeit and before.forfeit.amount) == (after.forfeit and after.forfeit.amount)
