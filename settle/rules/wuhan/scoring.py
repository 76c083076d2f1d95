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
from settle.core.machinery import (
    cap_step,
    kept,
    pays_for_everyone_step,
    power_step,
    roles_for,
    share_paid_step,
    stated_step,
    tally_step,
)
from settle.model import single_win
from settle.rules.wuhan.liability import liable_player
from settle.rules.wuhan.messages import CATALOG
from settle.rules.wuhan.model import WuhanHand, WuhanPlayer, WuhanWin
from settle.rules.wuhan.options import WuhanOptions
from settle.rules.wuhan.vocab import DISCARDER, KONGS, PATTERNS

BIG_BASE = 10
"""Base points per big hand (H3)."""


class _Factor(Fraction):
    """A Fraction that works out its hash once: the words and JSON forms of a step are kept per
    step, which hashes its values, and a Fraction's own hash takes a modular inverse each time.
    Equal to (and hashing like) the Fraction of the same value, and shown and written the same."""

    __slots__ = ("_hash",)
    _hash: int

    def __new__(cls, numerator: int, denominator: int) -> _Factor:
        factor = super().__new__(cls, numerator, denominator)
        factor._hash = Fraction.__hash__(factor)
        return factor

    def __hash__(self) -> int:  # type: ignore[override]  # typeshed's numbers.Complex has __hash__ None
        return self._hash


SELF_DRAW_OR_DISCARDER: Fraction = _Factor(3, 2)
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
_FORMULAS: dict[tuple[int, ...], Step] = {}
"""The formula steps of H2 by (fans of the loser, of the winner), and of H3 by (base, fans, fans,
×1.5): :func:`~settle.core.machinery.power_step`'s, looked up without a call."""


# --- fans ----------------------------------------------------------------------------------------


def big_hands(hand: WuhanHand) -> list[str]:
    """The big hands of the win, 抢杠 implied by ``robbed_kong`` and counted once (H3, G10)."""
    return list(_big_hands(single_win(hand.win)))


def _big_hands(win: WuhanWin) -> tuple[str, ...]:
    fans = win.fans
    if win.by == "robbed_kong":
        named = [k for k in fans if k in BIG]
        if "qiangganghu" not in named:
            named.append("qiangganghu")
        return tuple(named)
    return tuple([k for k in fans if k in BIG]) if fans else ()


_FANS: dict[tuple[bool, int], dict[Any, tuple[int, Step]]] = {}
"""(``koukou``, ``laizi_kong_fans``) -> a player's facts and roles -> his fans and their step."""
DEALER, SELF_DRAWN, DISCARDED, HARD = 1, 2, 4, 8
"""The role bits of a player's fans key (H2, H3)."""

_Read = tuple[dict[Any, tuple[int, Step]], bool, int, int, int, int]
"""What scoring reads of a hand's options: its table of :data:`_FANS`, ``koukou``,
``laizi_kong_fans``, ``cap``, ``golden_points``, ``bright_points``."""
_LAST_OPTIONS: list[Any] = [None, None]
"""The options model of the last hand and its :data:`_Read` (a batch repeats one options model,
the shared default, hand after hand)."""


def _read_options(opts: WuhanOptions) -> _Read:
    last = _LAST_OPTIONS
    if opts is last[0]:
        read: _Read = last[1]
        return read
    koukou, laizi = opts.koukou, opts.laizi_kong_fans
    table = _FANS.get((koukou, laizi))
    if table is None:
        table = _FANS[(koukou, laizi)] = {}
    read = (table, koukou, laizi, opts.cap, opts.golden_points, opts.bright_points)
    last[0], last[1] = opts, read
    return read


def count_fans(hand: WuhanHand, win: WuhanWin, big: bool) -> tuple[dict[str, int], dict[str, Step]]:
    """Every player's fans for ``win`` (the hand's win; ``big``: it has big hands), in seat order,
    and the ``tally`` step of each: H1 from the facts, the role fans 庄家, 自摸, 放冲 (small hands
    only, H2) and 硬胡 (H2/H3) — or the total stated in ``fans`` (G5).  The fans of the same facts
    and roles are worked out once and kept."""
    by = win.by
    return _count_fans(hand.players, hand.fans, _read_options(hand.options), win.winner, hand.dealer,
                       None if by == "self_draw" else win.from_, by == "self_draw", "hard" in win.fans, big)


def _count_fans(players: dict[str, WuhanPlayer], stated: dict[str, int] | None, read: _Read, winner: str,
                dealer: str | None, source: str | None, self_draw: bool, hard: bool,
                big: bool) -> tuple[dict[str, int], dict[str, Step]]:
    """:func:`count_fans` on the values read: ``source`` the discarder or robbed player (G6), None
    on a self-draw; ``hard``: 硬胡 named."""
    table, koukou, laizi = read[0], read[1], read[2]
    # The role bits (H2: small hands only; 硬胡 on every hand) of the winner, the source, the dealer.
    winner_roles = HARD if hard else 0
    if big:
        source_roles = dealer_roles = 0
    else:
        if self_draw:
            winner_roles |= SELF_DRAWN
        source_roles, dealer_roles = DISCARDED, DEALER
    totals: dict[str, int] = {}
    steps: dict[str, Step] = {}
    for name, player in players.items():
        if stated and name in stated:
            total = totals[name] = stated[name]
            steps[name] = stated_step(total)
            continue
        if name == winner:
            roles = winner_roles
        elif name == source:
            roles = source_roles
        else:
            roles = 0
        if name == dealer:
            roles |= dealer_roles
        opens = player.opens
        if koukou:
            key: Any = ((len(opens) if isinstance(opens, list) else opens) << 4) | roles
        else:
            key = (16 if opens else 0) | roles
        kongs = player.kongs
        if kongs:
            key = (key, *kongs.items())
        found = table.get(key)
        if found is None:
            step = tally_step(_fans_items(player, koukou, laizi, roles))
            found = kept(table, key, (step.values["total"], step))
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
    abandon = hand.abandon
    if abandon is not None:
        return _abandon(hand, abandon.by)
    win = hand.win
    if win is None:
        return _result(hand, [], {}, {}, hand.dealer, [])
    return _win(hand, single_win(win))


def _win(hand: WuhanHand, win: WuhanWin) -> Settlement:
    """H2–H7 for each loser in seat order: the formula, 封顶, 金顶/光明顶, 承包; then the transfers."""
    # Each attribute of the models read once (a model's attribute read costs more than a variable's).
    players, dealer, read = hand.players, hand.dealer, _read_options(hand.options)
    winner, by, source = win.winner, win.by, win.from_
    self_draw = by == "self_draw"
    big = _big_hands(win)
    fans, fan_steps = _count_fans(players, hand.fans, read, winner, dealer, None if self_draw else source,
                                  self_draw, "hard" in win.fans, bool(big))
    b = fans[winner]
    limit = read[3]
    losers: list[str] = []
    amounts: list[Amount] = []
    formulas: list[Step] = []
    over = 0  # losers whose amount exceeds the cap (H6, G13: >)
    if big:
        base = BIG_BASE * len(big)
        # ×1.5 for every loser on a self-draw, else for the discarder only (H3).
        for loser, a in fans.items():
            if loser == winner:
                continue
            amount = base * 2 ** (a + b)
            times = self_draw or loser == source
            if times:
                amount = _times_three_halves(amount)
            key: tuple[int, ...] = (base, a, b, times)
            formula = _FORMULAS.get(key)
            if formula is None:
                formula = kept(_FORMULAS, key, power_step(base, a, b, SELF_DRAW_OR_DISCARDER) if times
                               else power_step(base, a, b))
            losers.append(loser)
            amounts.append(amount)
            formulas.append(formula)
            if amount > limit:
                over += 1
    else:
        for loser, a in fans.items():
            if loser != winner:
                amount = 2 ** (a + b)
                key = (a, b)
                formula = _FORMULAS.get(key)
                if formula is None:
                    formula = kept(_FORMULAS, key, power_step(1, a, b))
                losers.append(loser)
                amounts.append(amount)
                formulas.append(formula)
                if amount > limit:
                    over += 1
    reasons = [_kind(big)]
    # H6 金顶/光明顶: all three losers exceed the cap (G13: >), so all three are capped.
    golden = over == 3 and len(amounts) == 3
    if golden:
        golden_points, bright_points = read[4], read[5]
        note, golden_step = _golden_steps(limit, golden_points)
        reasons.append(note)
    liable, reason = liable_player(hand, win)
    transfers = []
    for loser, amount, formula in zip(losers, amounts, formulas, strict=True):
        mark: str | None = None
        if amount >= limit:  # H5 封顶 (reached, G13)
            cap = cap_step(amount, limit, "H5", "封顶")
            if golden:
                if players[loser].open_count == 0:
                    steps: tuple[Step, ...] = (formula, cap, _bright_step(bright_points, loser))
                    amount, mark = bright_points, "bright"
                else:
                    steps = (formula, cap, golden_step)
                    amount, mark = golden_points, "golden"
            else:
                steps = (formula, cap)
                amount, mark = limit, "capped"
        else:
            steps = (formula,)
        payer = loser
        if reason is not None and liable is not None:  # H7 承包: the liable player pays every debt
            payer = liable
            if loser != liable:
                steps = (*steps, share_paid_step(loser, liable, reason))
        points = amount if type(amount) is int else core.whole(amount)
        if points:
            transfers.append(Transfer(payer, winner, points, steps, mark, CATALOG))
    if reason is None or liable is None:
        liable_rule = None
    else:
        reasons.append(pays_for_everyone_step(liable, reason))
        liable_rule = reason.rule
    next_dealer = dealer if winner == dealer else \
        core.next_after(list(fans), hand.the_dealer if dealer is None else dealer)  # the_dealer: TypeError
    seats = tuple(fans)
    return core.settlement(
        hand, "wuhan", transfers, next_dealer, unit="番", catalog=CATALOG, scores=fans, score_steps=fan_steps,
        reasons=reasons, liable=liable, liable_rule=liable_rule, players=seats,
        roles=roles_for(seats, dealer, (winner, source, by), liable, None),
    )


def _times_three_halves(amount: int) -> Amount:
    """``amount × 1.5``: an int when whole (a big hand's base is a multiple of 10), else a Fraction."""
    tripled = 3 * amount
    return tripled // 2 if tripled % 2 == 0 else Fraction(tripled, 2)


def _kind(big: tuple[str, ...]) -> Step:
    """The note of the hand's kind: 小胡 base 1 (H2), or the big hands and their base (H3)."""
    if not big:
        return SMALL_HAND
    step = _BIG_HANDS.get(big)
    if step is None:
        step = kept(_BIG_HANDS, big, Step("H3", "big_hands", {"fans": big, "base": BIG_BASE * len(big)}))
    return step


_GOLDEN: dict[tuple[int, int], tuple[Step, Step]] = {}
_BRIGHT: dict[tuple[int, str], Step] = {}


def _golden_steps(limit: int, points: int) -> tuple[Step, Step]:
    """H6: the note that all three exceed the cap ``limit``, and the step of 金顶 ``points``."""
    key = (limit, points)
    steps = _GOLDEN.get(key)
    if steps is None:
        steps = kept(_GOLDEN, key, (Step("H6", "golden_note", {"cap": limit}),
                                    Step("H6", "golden", {"amount": points, "cap": limit})))
    return steps


def _bright_step(points: int, loser: str) -> Step:
    """H6: 光明顶 ``points`` for ``loser``, who has no open."""
    key = (points, loser)
    step = _BRIGHT.get(key)
    if step is None:
        step = kept(_BRIGHT, key, Step("H6", "bright", {"amount": points, "loser": loser}))
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
