"""Wuhan scoring (seed 004; RULINGS H1–H10).

Unit: 番 (fan).  Every other player pays the winner on every win (H4):

* small hand 小胡:  ``2^(fans_loser + fans_winner)``                           (H2)
* big hands 大胡:   ``10·n × 2^(fans_loser + fans_winner) × 1.5^k``            (H3)
  (n big hands; k = 1 on a self-draw, or for the discarder)

then 封顶 ``cap`` (H5), 金顶/光明顶 when all three exceed it (H6), and 承包 (H7).
A player's fans (H1/H2) come from the facts, or from an explicit total (G5).
Amounts are plain ints, worked out loser by loser; every payment carries its steps (the step
makers of :mod:`settle.core.machinery`, which keep the steps that recur), and the words are in
:mod:`settle.rules.wuhan.messages`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from settle import core
from settle.core import Amount, Forfeit, ScoreItem, Settlement, Step, Transfer
from settle.core.machinery import STEPS_KEPT, cap_step, kept, power_step, share_paid_step, stated_step, tally_step
from settle.model import single_win
from settle.rules.wuhan.liability import liable_player
from settle.rules.wuhan.messages import CATALOG
from settle.rules.wuhan.model import WuhanHand, WuhanPlayer, WuhanWin
from settle.rules.wuhan.vocab import DISCARDER, KONGS, PATTERNS

BIG_BASE = 10
"""Base points per big hand (H3)."""
SELF_DRAW_OR_DISCARDER = Fraction(3, 2)
"""×1.5 for the winner's 自摸 and for the discarder's 放冲 on a big hand (H3)."""

BIG = frozenset(k for k, p in PATTERNS.items() if p.kind == "big")
"""The 大胡 keys (H3)."""
KONG_ITEMS = {kind: (kind, k.zh, k.value) for kind, k in KONGS.items()}
"""Kong kind -> (key, label, fans per kong) (H1; 癞子杠 by option ``laizi_kong_fans``)."""
DEALER_ITEM: ScoreItem = ("dealer", "庄家", 1)
SELF_DRAW_ITEM: ScoreItem = ("self_draw", "自摸", 1)
DISCARDER_ITEM: ScoreItem = ("discarder", DISCARDER, 1)
HARD_ITEM: ScoreItem = ("hard", PATTERNS["hard"].zh, 1)
"""The role fans of H2 (small hands only) and 硬胡 (H2/H3)."""
ROLE_ITEMS = ((1, DEALER_ITEM), (2, SELF_DRAW_ITEM), (4, DISCARDER_ITEM), (8, HARD_ITEM))
"""The role fans by bit, in the order they are listed (H2, H3)."""
SMALL_HAND = Step("H2", "small_hand", {})
_BIG_HANDS: dict[tuple[str, ...], Step] = {}


# --- fans ----------------------------------------------------------------------------------------


def big_hands(hand: WuhanHand) -> list[str]:
    """The big hands of the win, 抢杠 implied by ``robbed_kong`` and counted once (H3, G10)."""
    return _big_hands(single_win(hand.win))


def _big_hands(win: WuhanWin) -> list[str]:
    named = [k for k in win.fans if k in BIG]
    if win.by == "robbed_kong" and "qiangganghu" not in named:
        named.append("qiangganghu")
    return named


_FANS: dict[tuple[bool, int], dict[Any, tuple[int, Step]]] = {}
"""(``koukou``, ``laizi_kong_fans``) -> a player's facts and roles -> his fans and their step."""
DEALER, SELF_DRAWN, DISCARDED, HARD = 1, 2, 4, 8
"""The role bits of a player's fans key (H2, H3)."""


def count_fans(hand: WuhanHand, win: WuhanWin, big: bool) -> tuple[dict[str, int], dict[str, Step]]:
    """Every player's fans for ``win`` (the hand's win; ``big``: it has big hands), in seat order,
    and the ``tally`` step of each: H1 from the facts, the role fans 庄家, 自摸, 放冲 (small hands
    only, H2) and 硬胡 (H2/H3) — or the total stated in ``fans`` (G5).  The fans of the same facts
    and roles are worked out once and kept."""
    opts = hand.options
    koukou, laizi = opts.koukou, opts.laizi_kong_fans
    table = _FANS.get((koukou, laizi))
    if table is None:
        table = _FANS[(koukou, laizi)] = {}
    stated = hand.fans
    winner, dealer = win.winner, hand.dealer
    self_draw = win.by == "self_draw"
    source = None if self_draw else win.from_  # the discarder, or the robbed player (G6)
    hard = "hard" in win.fans
    totals: dict[str, int] = {}
    steps: dict[str, Step] = {}
    for name, player in hand.players.items():
        if stated is not None and name in stated:
            total = totals[name] = stated[name]
            steps[name] = stated_step(total)
            continue
        roles = 0
        if not big:
            if name == dealer:
                roles = DEALER
            if name == winner:
                if self_draw:
                    roles |= SELF_DRAWN
            elif name == source:
                roles |= DISCARDED
        if hard and name == winner:
            roles |= HARD
        opens = player.opens
        count = len(opens) if isinstance(opens, list) else opens
        kongs = player.kongs
        key: Any = ((count if koukou else count > 0) << 4) | roles
        if kongs:
            key = (key, *kongs.items())
        found = table.get(key)
        if found is None:
            if len(table) >= STEPS_KEPT:
                table.clear()
            step = tally_step(_fans_items(player, koukou, laizi, roles))
            found = table[key] = (step.values["total"], step)
        totals[name], steps[name] = found
    return totals, steps


def _fans_items(player: WuhanPlayer, koukou: bool, laizi: int, roles: int) -> tuple[ScoreItem, ...]:
    """H1: 开口 (1 in all, or 口口翻 1 per open) and the fans of each kong kind; then the role fans
    (``roles``: :data:`DEALER` ... bits) in the order 庄家, 自摸, 放冲, 硬胡."""
    items: list[ScoreItem] = []
    count = player.open_count
    if count:
        items.append(("koukou", "口口翻", count) if koukou else ("opens", "开口", 1))
    for kind, n in player.kongs.items():
        if n:
            key, label, per = KONG_ITEMS[kind]
            items.append((key, label, n * (laizi if kind == "laizi" else per)))
    for bit, item in ROLE_ITEMS:
        if roles & bit:
            items.append(item)
    return tuple(items)


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: WuhanHand) -> Settlement:
    """Settle a checked Wuhan hand: a win (H2–H7), a draw, or an abandon (H9)."""
    if hand.abandon is not None:
        return _abandon(hand, hand.abandon.by)
    if hand.win is None:
        return _result(hand, [], {}, {}, hand.dealer, [])
    return _win(hand, single_win(hand.win))


def _win(hand: WuhanHand, win: WuhanWin) -> Settlement:
    """H2–H7 for each loser in seat order: the formula, 封顶, 金顶/光明顶, 承包; then the transfers."""
    big = _big_hands(win)
    fans, fan_steps = count_fans(hand, win, bool(big))
    winner = win.winner
    b = fans[winner]
    losers: list[str] = []
    amounts: list[Amount] = []
    formulas: list[Step] = []
    if big:
        base = BIG_BASE * len(big)
        # ×1.5 for every loser on a self-draw, else for the discarder only (H3).
        everyone, source = win.by == "self_draw", win.from_
        for loser, a in fans.items():
            if loser == winner:
                continue
            losers.append(loser)
            owed = base * 2 ** (a + b)
            if everyone or loser == source:
                amounts.append(_times_three_halves(owed))
                formulas.append(power_step(base, a, b, SELF_DRAW_OR_DISCARDER))
            else:
                amounts.append(owed)
                formulas.append(power_step(base, a, b))
    else:
        for loser, a in fans.items():
            if loser != winner:
                losers.append(loser)
                amounts.append(2 ** (a + b))
                formulas.append(power_step(1, a, b))
    reasons = [_kind(big)]
    opts = hand.options
    limit = opts.cap
    # H6 金顶/光明顶: all three losers exceed the cap (G13: >), so all three are capped.
    golden = len(amounts) == 3 and min(amounts) > limit
    if golden:
        reasons.append(Step("H6", "golden_note", {"cap": limit}))
        golden_points, bright_points = opts.golden_points, opts.bright_points
        golden_step = Step("H6", "golden", {"amount": golden_points, "cap": limit})
        players = hand.players
    liable, reason = liable_player(hand, win)
    transfers = []
    for loser, amount, formula in zip(losers, amounts, formulas, strict=True):
        mark: str | None = None
        if amount >= limit:  # H5 封顶 (reached, G13)
            steps = [formula, cap_step(amount, limit, "H5", "封顶")]
            amount, mark = limit, "capped"
            if golden:
                if players[loser].open_count == 0:
                    steps.append(Step("H6", "bright", {"amount": bright_points, "loser": loser}))
                    amount, mark = bright_points, "bright"
                else:
                    steps.append(golden_step)
                    amount, mark = golden_points, "golden"
        else:
            steps = [formula]
        payer = loser
        if liable is not None and reason is not None:  # H7 承包: the liable player pays every debt
            payer = liable
            if loser != liable:
                steps.append(share_paid_step(loser, liable, reason))
        points = amount if type(amount) is int else core.whole(amount)
        if points:
            transfers.append(Transfer(payer, winner, points, tuple(steps), mark, CATALOG))
    if liable is not None and reason is not None:
        reasons.append(Step("", "pays_for_everyone", {"liable": liable, "reason": reason}))
    dealer = hand.dealer
    next_dealer = dealer if winner == dealer else core.next_after(list(fans), hand.the_dealer)
    return _result(hand, transfers, fans, fan_steps, next_dealer, reasons, liable,
                   None if reason is None else reason.rule)


def _times_three_halves(amount: int) -> Amount:
    """``amount × 1.5``: an int when whole (a big hand's base is a multiple of 10), else a Fraction."""
    tripled = 3 * amount
    return tripled // 2 if tripled % 2 == 0 else Fraction(tripled, 2)


def _kind(big: list[str]) -> Step:
    """The note of the hand's kind: 小胡 base 1 (H2), or the big hands and their base (H3)."""
    if not big:
        return SMALL_HAND
    key = tuple(big)
    step = _BIG_HANDS.get(key)
    if step is None:
        step = kept(_BIG_HANDS, key, Step("H3", "big_hands", {"fans": key, "base": BIG_BASE * len(big)}))
    return step


def _abandon(hand: WuhanHand, leaver: str) -> Settlement:
    """H9 逃跑: the leaver pays the penalty, forfeited or split among the others; the game ends."""
    opts = hand.options
    penalty = opts.escape_points
    if opts.escape_paid_to == "none":
        forfeit = Forfeit(leaver, penalty, (Step("H9", "escape_forfeit", {"penalty": penalty}),), CATALOG)
        note = Step("H9", "escape_forfeit_note", {"leaver": leaver, "penalty": penalty})
        return _result(hand, [], {}, {}, None, [note], forfeit=forfeit)
    others = core.seats_after(hand.names, leaver)
    shares = core.split_largest_remainder(penalty, [(n, 1) for n in others])
    split = (Step("H9", "escape_split", {"penalty": penalty, "ways": len(others), "first": others[0]}),)
    transfers = [Transfer(leaver, n, shares[n], split, None, CATALOG) for n in others]
    return _result(hand, transfers, {}, {}, None, [Step("H9", "escape_note", {"leaver": leaver})])


def _result(hand: WuhanHand, transfers: list[Transfer], fans: dict[str, int], fan_steps: dict[str, Step],
            next_dealer: str | None, reasons: list[Step], liable: str | None = None,
            liable_rule: str | None = None, forfeit: Forfeit | None = None) -> Settlement:
    return core.settlement(
        hand, "wuhan", transfers, next_dealer, unit="番", catalog=CATALOG, scores=fans, score_steps=fan_steps,
        reasons=reasons, liable=liable, liable_rule=liable_rule, forfeit=forfeit,
    )
