"""A toy fourth region, defined only inside tests/ (issue 13: a region is one package behind one interface).

It is registered through the entry-point group ``settle.regions`` by a small distribution that
``tests/test_toy_region.py`` writes on a temporary path; no file of settle changes for it.

The rules (made up, simple enough to work by hand):

* 4 players; unit 分; every other player pays the winner ``base × 2^(doubles)`` where ``base`` is
  the option ``base`` (default 2) and ``doubles`` the number of ``double`` items named (0 or 1);
* a discard: only the discarder pays, twice that;
* a cap (option ``cap``, default 16) on each payment, worded by the shared machinery (封顶);
* a draw: nobody pays; the dealer deals again.  A win: the winner deals next.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, PositiveInt

from settle import core
from settle.core import SHARED, Catalog, Debt, Settlement, Step
from settle.errors import Problem
from settle.model import Strict, hand_model
from settle.rules.registry import Region
from settle.vocab import KongKind, Pattern, Term, vocabulary

TERM = Term("toy", "玩具", "a toy rule set for tests", aliases=("玩具麻将",))

PATTERNS = {p.key: p for p in (Pattern("double", "翻倍", "doubles every payment", 2, kind="multiplier",
                                       ruling="T1"),)}
KONGS = {k.key: k for k in (KongKind("concealed", "暗杠", "a concealed kong (scores nothing here)", 0,
                                     ruling="T2"),)}


class ToyOptions(Strict):
    """Toy house rules: ``base`` points of a plain win and the ``cap`` of one payment (分)."""

    base: PositiveInt = Field(2, description="底分: points of a plain win (T1)")
    cap: PositiveInt = Field(16, description="封顶: most one loser pays (T3)")


ToyHand = hand_model("Toy", ToyOptions, vocabulary(PATTERNS, "toy fan"), vocabulary(KONGS, "toy kong kind"))


def check(hand: Any) -> list[Problem]:
    """One winner per hand."""
    if isinstance(hand.win, list):
        return [Problem(("win",), "the toy region has one winner per hand")]
    return []


def settle(hand: Any) -> Settlement:
    """Settle a toy hand (see the module docstring)."""
    if hand.win is None:
        return core.settlement(hand, "toy", [], hand.dealer, unit="分", catalog=CATALOG,
                               reasons=[Step("T4", "toy_draw", {"dealer": hand.dealer})])
    win, opts = hand.win, hand.options
    doubles = len(win.fans)
    losers = [n for n in hand.names if n != win.winner] if win.by == "self_draw" else [win.from_]
    times = 1 if win.by == "self_draw" else 2
    debts = [Debt(loser, win.winner, times * opts.base * 2 ** doubles,
                  Step("T1", "toy_owes", {"base": opts.base, "doubles": doubles, "times": times}))
             for loser in losers]
    debts = [core.cap(d, opts.cap, "T3", "封顶") for d in debts]
    return core.settlement(hand, "toy", core.to_transfers(debts, CATALOG), win.winner, unit="分", catalog=CATALOG,
                           reasons=[Step("T1", "toy_win", {"winner": win.winner, "doubles": doubles})])


CATALOG = Catalog({
    "en": {"toy_owes": "{times}×{base}×2^{doubles}",
           "toy_win": "{winner} wins with {doubles} double(s) (T1)",
           "toy_draw": "a draw: {dealer} deals again (T4)"},
    "zh": {"toy_owes": "{times}×{base}×2^{doubles}",
           "toy_win": "{winner} 胡，翻倍 {doubles} 次 (T1)",
           "toy_draw": "荒庄：{dealer} 连庄 (T4)"},
}, parent=SHARED, name="toy")

REGION = Region(term=TERM, unit="分", seats=(4,), patterns=PATTERNS, kongs=KONGS, options=ToyOptions,
                hand_model=ToyHand, check=check, settle=settle, catalog=CATALOG, rotation_rule="T4")
