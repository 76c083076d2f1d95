"""Rushan scoring (seed 003 输分计算, 杠牌规则 4–5; RULINGS R1–R10).

Unit: 分 (points) times multipliers.  For each winner:

* hand points  ``base × product of multipliers``                      (R1, R2, R4)
* kong points  ``1`` per kong of the winner (明杠 or 暗杠); nobody else's (R4)

Self-draw: every other player pays hand + kong points; a discard or a robbed kong:
only the discarder (robbed player) pays (R5, G6).  Each paying loser adds 飘鱼
``fish_winner + fish_loser`` (R6).  A loser loses at most ``cap`` in hand + kong
points, fish on top unless ``cap_includes_fish`` (R7); a capped discarder of 一炮多响
splits the cap among the winners (R7, R8).  Next dealer: R10.
Every amount carries its steps; the words are in :mod:`settle.rules.rushan.messages`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from math import prod
from typing import Any

from settle import core
from settle.core import Debt, Settlement, Step
from settle.rules.rushan.checks import is_menqing
from settle.rules.rushan.messages import CATALOG
from settle.rules.rushan.model import RushanHand, RushanWin
from settle.rules.rushan.options import RushanOptions
from settle.rules.rushan.vocab import DEFAULT_BASE, OPTIONAL_COUNT, PATTERNS


@dataclass(frozen=True)
class Points:
    """One winner's points (R1–R4, R3b).

    ``base``: the base key; ``counted``: multiplier keys that count, in order;
    ``uncounted``: named multipliers that count nothing (R3b, option off);
    ``auto``: counted without being named (门清, R3b); ``kongs``: the winner's kongs.
    """

    winner: str
    base: str
    counted: tuple[str, ...]
    uncounted: tuple[str, ...]
    auto: tuple[str, ...]
    kongs: int

    @functools.cached_property  # read for every debt, score and note of the win
    def hand(self) -> int:
        """Hand points: base × product of multipliers (R4), in 分."""
        return PATTERNS[self.base].value * prod(PATTERNS[k].value for k in self.counted)

    @property
    def owed(self) -> int:
        """Hand points + 1 per kong of the winner (R4): what each paying loser owes before R6/R7."""
        return self.hand + self.kongs

    @property
    def formula(self) -> Step:
        """The numbers, ``2×2 + 1 kong``, as a step (R4)."""
        return Step("", "points", {"factors": tuple(PATTERNS[k].value for k in (self.base, *self.counted)),
                                   "kongs": self.kongs})

    @property
    def detail(self) -> Step:
        """The items, ``pengpenghu 2 × qingyise ×2 = 4, + 1 kong``, as a step; its ``items`` are
        ``(key, label, value, kind)`` tuples (``score_items`` in the JSON)."""
        items = [(self.base, PATTERNS[self.base].zh, PATTERNS[self.base].value, "base"),
                 *((k, PATTERNS[k].zh, PATTERNS[k].value, "multiplier") for k in self.counted)]
        if self.kongs:
            items.append(("kongs", "杠", self.kongs, "kongs"))
        return Step("R4", "points_detail", {"total": self.hand, "items": tuple(items)})


def count_points(hand: RushanHand, win: RushanWin) -> Points:
    """The winner's base, counted multipliers and kongs (R1–R4; R3b for 门清/一条龙)."""
    named_base = [k for k in win.fans if PATTERNS[k].kind == "base"]
    multipliers = [k for k in win.fans if PATTERNS[k].kind == "multiplier"]
    auto: tuple[str, ...]
    uncounted: tuple[str, ...]
    if hand.options.menqing_yitiaolong:
        auto = ("menqing",) if is_menqing(hand, win) and "menqing" not in multipliers else ()
        counted, uncounted = (*multipliers, *auto), ()
    else:  # R3b: 门清 and 一条龙 count nothing with the option off
        auto = ()
        counted = tuple([k for k in multipliers if k not in OPTIONAL_COUNT])
        uncounted = tuple([k for k in multipliers if k in OPTIONAL_COUNT])
    return Points(
        winner=win.winner,
        base=named_base[0] if named_base else DEFAULT_BASE,
        counted=counted,
        uncounted=uncounted,
        auto=auto,
        kongs=hand.players[win.winner].kong_count(),
    )


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: RushanHand) -> Settlement:
    """Settle a checked Rushan hand: one or several wins (R4–R8), or a 荒庄 (R10)."""
    wins, names = hand.wins, hand.names
    points = {w.winner: count_points(hand, w) for w in wins}
    debts = [d for w in wins for d in _owed(names, w, points[w.winner])]
    inside = hand.options.cap_includes_fish
    if inside:
        debts = _fish(hand, debts, inside=True)
    debts = [d for group in _by_loser(debts) for d in _cap(hand, names, group)]
    if not inside:
        debts = _fish(hand, debts, inside=False)
    return core.settlement(
        hand, "rushan", core.to_transfers(debts, CATALOG), next_dealer(hand), unit="分", catalog=CATALOG,
        scores={w: p.hand for w, p in points.items()},
        score_steps={w: p.detail for w, p in points.items()},
        reasons=_reasons(hand, wins, points),
    )


def _owed(names: list[str], win: RushanWin, points: Points) -> list[Debt]:
    """R5: on a self-draw every other player owes, else only the discarder (robbed player, G6)."""
    losers = core.seats_after(names, win.winner) if win.by == "self_draw" else [win.the_discarder]
    owed, formula = points.owed, points.formula
    return [Debt(loser, win.winner, owed, formula) for loser in losers]


def _fish(hand: RushanHand, debts: list[Debt], inside: bool) -> list[Debt]:
    """R6 飘鱼: each paying loser adds ``fish_winner + fish_loser`` (before or after the R7 cap)."""
    players = hand.players
    out = []
    for d in debts:
        fw, fl = players[d.winner].fish, players[d.loser].fish
        item = Step("R6", "fish", {"winner_fish": fw, "loser_fish": fl, "inside": inside})
        out.append(core.add_extra(d, fw + fl, item) if fw + fl else d)
    return out


def _by_loser(debts: list[Debt]) -> list[list[Debt]]:
    groups: dict[str, list[Debt]] = {}
    for d in debts:
        groups.setdefault(d.loser, []).append(d)
    return list(groups.values())


def _cap(hand: RushanHand, names: list[str], debts: list[Debt]) -> list[Debt]:
    """R7: one loser's debts together at most ``cap``; several winners split it by what each was owed."""
    limit = hand.options.cap
    if len(debts) == 1:
        return [core.cap(debts[0], limit, "R7")]
    total = sum(d.amount for d in debts)
    if total <= limit:
        return debts
    loser = debts[0].loser
    owed = {d.winner: d.amount for d in debts}
    order = [n for n in core.seats_after(names, loser) if n in owed]  # ties: nearer after the loser
    shares = core.split_largest_remainder(limit, [(n, owed[n]) for n in order])
    # Each winner named beside his amount: a bare ratio (6:5) on every row does not say whose share is whose.
    rounded = not all(limit * amount % total == 0 for amount in owed.values())
    split = {"loser": loser, "owed": tuple((n, owed[n]) for n in order), "total": total, "limit": limit,
             "shares": tuple((n, shares[n]) for n in order), "rounded": rounded}
    return [d.then(shares[d.winner], Step("R7", "split", {"amount": d.amount, **split}), capped=True, cap="capped")
            for d in debts]


def next_dealer(hand: RushanHand) -> str:
    """R10: the dealer stays if he wins or on a 荒庄 with no kongs; otherwise the next player deals."""
    wins = hand.wins
    if wins:
        stays = any(w.winner == hand.dealer for w in wins)
    else:
        stays = not any(p.kong_count() for p in hand.players.values())
    return hand.the_dealer if stays else core.next_after(hand.names, hand.the_dealer)


def _reasons(hand: RushanHand, wins: list[RushanWin], points: Mapping[str, Points]) -> list[Step]:
    """The rule applications and facts behind the amounts (G8): who pays, kongs, R3b, options."""
    reasons = _win_reasons(hand, wins, points) if wins else [_draw_reason(hand)]
    changed = _changed_options(hand.options)
    if changed:
        reasons.append(Step("", "options", {"changed": changed}))
    return reasons


def _win_reasons(hand: RushanHand, wins: list[RushanWin], points: Mapping[str, Points]) -> list[Step]:
    """Who pays (R5), 抢杠 named (G10), 门清/一条龙 (R3b), and the kongs that score nothing (R4)."""
    reasons = [_who_pays(wins[0])]
    for win in wins:
        reasons += [Step("G10, R2", "implied", {"fan": k, "winner": win.winner})
                    for k in win.fans if PATTERNS[k].kind == "implied"]
    for p in points.values():
        if not (p.auto or p.uncounted):  # R3b concerns 门清/一条龙 only
            continue
        reasons += [Step("R3b", "counted_unnamed", {"fan": k, "winner": p.winner}) for k in p.auto]
        reasons += [Step("R3b", "named_uncounted", {"fan": k, "winner": p.winner}) for k in p.uncounted]
    others = tuple((n, kongs) for n, pl in hand.players.items() if n not in points and (kongs := pl.kong_count()))
    if others:
        reasons.append(Step("R4", "others_kongs", {"kongs": others}))
    return reasons


def _who_pays(win: RushanWin) -> Step:
    if win.by == "self_draw":
        return Step("R5", "self_draw_pays", {"winner": win.winner})
    if win.by == "robbed_kong":
        return Step("R5", "robbed_pays", {"player": win.from_})
    return Step("R5", "discarder_pays", {"player": win.from_})


def _draw_reason(hand: RushanHand) -> Step:
    kongs = tuple((n, p.kong_count()) for n, p in hand.players.items() if p.kong_count())
    if kongs:
        return Step("R10", "draw_kongs", {"kongs": kongs, "next_dealer": next_dealer(hand)})
    return Step("R10", "draw_no_kongs", {"dealer": hand.dealer})


@functools.lru_cache(maxsize=256)
def _changed_options(options: RushanOptions) -> tuple[tuple[str, Any], ...]:
    """``(key, value)`` of every option that differs from its default, as the hand file stated it
    (options models are frozen and hashable; a batch repeats a few option sets many times)."""
    out = []
    for key, field in RushanOptions.model_fields.items():
        value = getattr(options, key)
        if value != field.default:
            out.append((key, value))
    return tuple(out)
