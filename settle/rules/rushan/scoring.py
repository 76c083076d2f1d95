"""Rushan scoring (seed 003 输分计算, 杠牌规则 4–5; RULINGS R1–R10).

Unit: 分 (points) times multipliers.  For each winner:

* hand points  ``base × product of multipliers``                      (R1, R2, R4)
* kong points  ``1`` per kong of the winner (明杠 or 暗杠); nobody else's (R4)

Self-draw: every other player pays hand + kong points; a discard or a robbed kong:
only the discarder (robbed player) pays (R5, G6).  Each paying loser adds 飘鱼
``fish_winner + fish_loser`` (R6).  A loser loses at most ``cap`` in hand + kong
points, fish on top unless ``cap_includes_fish`` (R7); a capped discarder of 一炮多响
splits the cap among the winners (R7, R8).  Next dealer: R10.
Amounts are plain ints, debt by debt; every payment carries its steps (the points of a winner's
shape are worked out once per shape and kept), and the words are in
:mod:`settle.rules.rushan.messages`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from math import prod
from typing import Any, NamedTuple

from settle import core
from settle.core import Settlement, Step, Transfer
from settle.core.machinery import cap_step, kept, roles_for
from settle.model import win_list
from settle.rules.rushan.checks import is_menqing
from settle.rules.rushan.messages import CATALOG
from settle.rules.rushan.model import RushanHand, RushanPlayer, RushanWin
from settle.rules.rushan.options import RushanOptions
from settle.rules.rushan.vocab import DEFAULT_BASE, OPTIONAL_COUNT, PATTERNS

BASES = frozenset(k for k, p in PATTERNS.items() if p.kind == "base")
MULTIPLIERS = frozenset(k for k, p in PATTERNS.items() if p.kind == "multiplier")
IMPLIED = frozenset(k for k, p in PATTERNS.items() if p.kind == "implied")
"""The bases (R1), the multipliers (R2) and the items implied by ``by: robbed_kong`` (G10)."""
FISH = {(fw, fl, inside): Step("R6", "fish", {"winner_fish": fw, "loser_fish": fl, "inside": inside})
        for fw in range(3) for fl in range(3) for inside in (False, True)}
"""R6 飘鱼: (winner's fish, loser's fish, inside the cap) -> its step (fish are 0–2)."""


class Points(NamedTuple):
    """One winner's points (R1–R4, R3b), the same for every win of the same shape.

    ``base``: the base key; ``counted``: multiplier keys that count, in order;
    ``uncounted``: named multipliers that count nothing (R3b, option off);
    ``auto``: counted without being named (门清, R3b); ``kongs``: the winner's kongs;
    ``hand``: hand points, base × product of multipliers (R4), in 分; ``owed``: hand points + 1 per
    kong of the winner (R4), what each paying loser owes before R6/R7; ``formula``: the numbers
    (``2×2 + 1 kong``) as a step; ``detail``: the items (``pengpenghu 2 × qingyise ×2 = 4, + 1 kong``)
    as a step, its ``items`` ``(key, label, value, kind)`` tuples (``score_items`` in the JSON);
    ``implied``: named items that ``by: robbed_kong`` implies (抢杠, G10).
    """

    base: str
    counted: tuple[str, ...]
    uncounted: tuple[str, ...]
    auto: tuple[str, ...]
    kongs: int
    hand: int
    owed: int
    formula: Step
    detail: Step
    implied: tuple[str, ...]


_SHAPES: dict[tuple[tuple[str, ...], bool, bool, int], Points] = {}


def count_points(hand: RushanHand, win: RushanWin) -> Points:
    """The winner's base, counted multipliers and kongs (R1–R4; R3b for 门清/一条龙), kept per shape:
    the items named, option ``menqing_yitiaolong``, whether the win is 门清, the winner's kongs."""
    return _count_points(hand, win, hand.options.menqing_yitiaolong, hand.players[win.winner])


def _count_points(hand: RushanHand, win: RushanWin, option: bool, winner: RushanPlayer) -> Points:
    """:func:`count_points` with the option and the winner's facts read."""
    key = (tuple(win.fans), option, option and is_menqing(hand, win), _kongs(winner))
    points = _SHAPES.get(key)
    if points is None:
        points = kept(_SHAPES, key, _points(*key))
    return points


def _points(fans: tuple[str, ...], option: bool, menqing: bool, kongs: int) -> Points:
    named_base = [k for k in fans if k in BASES]
    multipliers = [k for k in fans if k in MULTIPLIERS]
    auto: tuple[str, ...]
    uncounted: tuple[str, ...]
    if option:
        auto = ("menqing",) if menqing and "menqing" not in multipliers else ()
        counted, uncounted = (*multipliers, *auto), ()
    else:  # R3b: 门清 and 一条龙 count nothing with the option off
        auto = ()
        counted = tuple([k for k in multipliers if k not in OPTIONAL_COUNT])
        uncounted = tuple([k for k in multipliers if k in OPTIONAL_COUNT])
    base = named_base[0] if named_base else DEFAULT_BASE
    pattern = PATTERNS[base]
    hand = pattern.value * prod(PATTERNS[k].value for k in counted)
    formula = Step("", "points", {"factors": (pattern.value, *(PATTERNS[k].value for k in counted)),
                                  "kongs": kongs})
    items: list[tuple[str, str, int, str]] = [(base, pattern.zh, pattern.value, "base"),
                                              *((k, PATTERNS[k].zh, PATTERNS[k].value, "multiplier")
                                                for k in counted)]
    if kongs:
        items.append(("kongs", "杠", kongs, "kongs"))
    detail = Step("R4", "points_detail", {"total": hand, "items": tuple(items)})
    return Points(base, counted, uncounted, auto, kongs, hand, hand + kongs, formula, detail,
                  tuple([k for k in fans if k in IMPLIED]))


def _kongs(player: RushanPlayer) -> int:
    """The player's kongs, all kinds (R4)."""
    kongs = player.kongs
    return sum(kongs.values()) if kongs else 0


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: RushanHand) -> Settlement:
    """Settle a checked Rushan hand: one or several wins (R4–R8), or a 荒庄 (R10)."""
    given = hand.win
    wins = win_list(given)
    players = hand.players
    names = list(players)
    opts = hand.options
    option = opts.menqing_yitiaolong
    points: dict[str, Points] = {}
    scores: dict[str, int] = {}
    score_steps: dict[str, Step] = {}
    # Each win's facts read once (a model's attribute read costs more than a variable's).
    facts = [(win.winner, win.from_, win.by) for win in wins]
    for win, (winner, _, _) in zip(wins, facts, strict=True):
        p = points[winner] = _count_points(hand, win, option, players[winner])
        scores[winner], score_steps[winner] = p.hand, p.detail
    # The debts, as parallel lists: loser, winner, amount, steps.
    losers: list[str] = []
    winners: list[str] = []
    amounts: list[int] = []
    steps: list[list[Step]] = []
    for win, (winner, source, by) in zip(wins, facts, strict=True):
        # R5: on a self-draw every other player owes, else only the discarder (G6)
        p = points[winner]
        owed, formula = p.owed, p.formula
        for loser in core.seats_after(names, winner) if by == "self_draw" else \
                [win.the_discarder if source is None else source]:
            losers.append(loser)
            winners.append(winner)
            amounts.append(owed)
            steps.append([formula])
    inside = opts.cap_includes_fish
    if inside:
        for i, loser in enumerate(losers):
            _fish(players, loser, winners[i], amounts, steps[i], i, True)
    order, marks = _caps(opts.cap, names, losers, winners, amounts, steps)
    transfers = []
    for i in order:
        if not inside:
            _fish(players, losers[i], winners[i], amounts, steps[i], i, False)
        if amounts[i]:
            transfers.append(Transfer(losers[i], winners[i], amounts[i], tuple(steps[i]), marks[i], CATALOG))
    seats = tuple(names)
    dealer = hand.dealer
    # The roles' wins as roles_of reads them: none, one win's facts, or a tuple of them (R8).
    roles = roles_for(seats, dealer, None if given is None else tuple(facts) if type(given) is list else facts[0],
                      None, None)
    return core.settlement(
        hand, "rushan", transfers, _next_dealer(hand, facts, names, dealer), unit="分", catalog=CATALOG,
        scores=scores, score_steps=score_steps, reasons=_reasons(hand, wins, points), players=seats, roles=roles,
    )


def _fish(players: dict[str, RushanPlayer], loser: str, winner: str, amounts: list[int], steps: list[Step],
          i: int, inside: bool) -> None:
    """R6 飘鱼: paying loser ``loser`` adds ``fish_winner + fish_loser`` to debt ``i`` (before or
    after the R7 cap); ``amounts`` and its ``steps`` updated in place."""
    fw, fl = players[winner].fish, players[loser].fish
    if fw + fl:
        steps.append(FISH.get((fw, fl, inside)) or Step("R6", "fish", {"winner_fish": fw, "loser_fish": fl,
                                                                       "inside": inside}))
        amounts[i] += fw + fl


def _caps(limit: int, names: list[str], losers: list[str], winners: list[str], amounts: list[int],
          steps: list[list[Step]]) -> tuple[list[int], list[str | None]]:
    """R7: each loser's debts together at most ``limit`` (``amounts``, ``steps`` updated in place);
    the debts' order (grouped by loser, in order of appearance) and their cap marks."""
    groups: dict[str, list[int]] = {}
    for i, loser in enumerate(losers):
        groups.setdefault(loser, []).append(i)
    marks: list[str | None] = [None] * len(losers)
    order: list[int] = []
    for loser, group in groups.items():
        order += group
        if len(group) == 1:
            i = group[0]
            if amounts[i] >= limit:
                steps[i].append(cap_step(amounts[i], limit, "R7"))
                amounts[i], marks[i] = limit, "capped"
        else:
            _split(limit, names, loser, group, winners, amounts, steps, marks)
    return order, marks


def _split(limit: int, names: list[str], loser: str, group: list[int], winners: list[str], amounts: list[int],
           steps: list[list[Step]], marks: list[str | None]) -> None:
    """R7, R8: one loser owing several winners more than ``limit`` in all splits it by what each was owed."""
    total = sum([amounts[i] for i in group])
    if total <= limit:
        return
    owed = {winners[i]: amounts[i] for i in group}
    order = [n for n in core.seats_after(names, loser) if n in owed]  # ties: nearer after the loser
    shares = core.split_largest_remainder(limit, [(n, owed[n]) for n in order])
    # Each winner named beside his amount: a bare ratio (6:5) on every row does not say whose share is whose.
    rounded = not all(limit * amount % total == 0 for amount in owed.values())
    split = {"loser": loser, "owed": tuple((n, owed[n]) for n in order), "total": total, "limit": limit,
             "shares": tuple((n, shares[n]) for n in order), "rounded": rounded}
    for i in group:
        steps[i].append(Step("R7", "split", {"amount": amounts[i], **split}))
        amounts[i], marks[i] = shares[winners[i]], "capped"


def next_dealer(hand: RushanHand) -> str:
    """R10: the dealer stays if he wins or on a 荒庄 with no kongs; otherwise the next player deals."""
    return _next_dealer(hand, [(w.winner, w.from_, w.by) for w in win_list(hand.win)], list(hand.players),
                        hand.dealer)


def _next_dealer(hand: RushanHand, facts: Sequence[tuple[str, str | None, str]], names: list[str],
                 dealer: str | None) -> str:
    """:func:`next_dealer` with each win's (winner, from, by) and the dealer read."""
    if dealer is None:
        dealer = hand.the_dealer  # TypeError: a checked hand has a dealer here
    if facts:
        for winner, _, _ in facts:
            if winner == dealer:
                return dealer
    elif not any([_kongs(p) for p in hand.players.values()]):
        return dealer
    return core.next_after(names, dealer)


def _reasons(hand: RushanHand, wins: list[RushanWin], points: dict[str, Points]) -> list[Step]:
    """The rule applications and facts behind the amounts (G8): who pays, kongs, R3b, options."""
    reasons = _win_reasons(hand, wins, points) if wins else [_draw_reason(hand)]
    changed = changed_options(hand.options)
    if changed:
        reasons.append(Step("", "options", {"changed": changed}))
    return reasons


def _win_reasons(hand: RushanHand, wins: list[RushanWin], points: dict[str, Points]) -> list[Step]:
    """Who pays (R5), 抢杠 named (G10), 门清/一条龙 (R3b), and the kongs that score nothing (R4)."""
    first = wins[0]
    reasons = [_who_pays(first.by, first.winner, first.from_)]
    for win in wins:
        winner = win.winner
        implied = points[winner].implied
        if implied:
            reasons += [Step("G10, R2", "implied", {"fan": k, "winner": winner}) for k in implied]
    for winner, p in points.items():
        if not (p.auto or p.uncounted):  # R3b concerns 门清/一条龙 only
            continue
        reasons += [Step("R3b", "counted_unnamed", {"fan": k, "winner": winner}) for k in p.auto]
        reasons += [Step("R3b", "named_uncounted", {"fan": k, "winner": winner}) for k in p.uncounted]
    others = []
    for name, player in hand.players.items():
        kongs = player.kongs
        if kongs and name not in points:
            count = sum(kongs.values())
            if count:
                others.append((name, count))
    if others:
        reasons.append(Step("R4", "others_kongs", {"kongs": tuple(others)}))
    return reasons


WHO_PAYS = {"self_draw": ("self_draw_pays", "winner"), "robbed_kong": ("robbed_pays", "player"),
            "discard": ("discarder_pays", "player")}
"""R5 by ``win.by``: the step kind, and the value naming who (the winner, or the discarder)."""
_WHO_PAYS: dict[tuple[str, str | None], Step] = {}


def _who_pays(by: str, winner: str, source: str | None) -> Step:
    """R5 for a win ``by`` of ``winner`` (``source``: the discarder or robbed player)."""
    who = winner if by == "self_draw" else source
    key = (by, who)
    step = _WHO_PAYS.get(key)
    if step is None:
        kind, name = WHO_PAYS[by]
        step = kept(_WHO_PAYS, key, Step("R5", kind, {name: who}))
    return step


def _draw_reason(hand: RushanHand) -> Step:
    kongs = tuple((n, _kongs(p)) for n, p in hand.players.items() if _kongs(p))
    if kongs:
        return Step("R10", "draw_kongs", {"kongs": kongs, "next_dealer": next_dealer(hand)})
    return Step("R10", "draw_no_kongs", {"dealer": hand.dealer})


_LAST_OPTIONS: list[Any] = [None, ()]


def changed_options(options: RushanOptions) -> tuple[tuple[str, Any], ...]:
    """``(key, value)`` of every option that differs from its default, as the hand file stated it.
    A batch repeats one options model (the shared default) hand after hand: the last one's answer is
    kept by identity, others by value (options models are frozen and hashable)."""
    last = _LAST_OPTIONS
    if options is not last[0]:
        last[0], last[1] = options, _changed_options(options)
    changed: tuple[tuple[str, Any], ...] = last[1]
    return changed


@functools.lru_cache(maxsize=256)
def _changed_options(options: RushanOptions) -> tuple[tuple[str, Any], ...]:
    out = []
    for key, field in RushanOptions.model_fields.items():
        value = getattr(options, key)
        if value != field.default:
            out.append((key, value))
    return tuple(out)
