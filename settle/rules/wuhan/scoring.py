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
    STATED_TALLIES,
    TABLES_KEPT,
    ZEROS,
    cap_step,
    kept,
    pays_for_everyone_step,
    power_step,
    roles_for,
    share_paid_step,
    stated_tally,
    tally_step,
    zeros,
)
from settle.model import single_win
from settle.rules.wuhan.liability import liable_of
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
_LAST_OPTIONS: tuple[Any, Any] = (None, None)
"""The options model of the last hand and its :data:`_Read` (a batch repeats one options model,
the shared default, hand after hand; replaced whole, so that a reader never sees an options model
with another one's values)."""


def _read_options(opts: WuhanOptions) -> _Read:
    global _LAST_OPTIONS
    last = _LAST_OPTIONS
    if opts is last[0]:
        read: _Read = last[1]
        return read
    koukou, laizi = opts.koukou, opts.laizi_kong_fans
    table = _FANS.get((koukou, laizi))
    if table is None:
        table = _FANS[(koukou, laizi)] = {}
    read = (table, koukou, laizi, opts.cap, opts.golden_points, opts.bright_points)
    _LAST_OPTIONS = (opts, read)
    return read


_WinFans = tuple[int, Step, int, int, int, bool]
"""What a win's ``by`` and named fans decide (:func:`_win_fans`): the base of the amounts (1 for a
small hand, H2; 10 per big hand, H3), the note of the hand's kind, the role bits of the winner, of
the discarder and of the dealer (H2, H3), and whether 全求人 is named (H7 a)."""
_WINS: dict[tuple[str, ...] | str, _WinFans] = {}
"""``(by, *fans)`` of a win (``by`` alone when it names none) -> its :data:`_WinFans`, kept."""


def _win_fans(win: WuhanWin) -> _WinFans:
    """The :data:`_WinFans` of ``win``, worked out once per ``by`` and named fans and kept."""
    fans = win.fans
    by = win.by
    key = (by, *fans) if fans else by
    found = _WINS.get(key)
    if found is None:
        big = _big_hands(win)
        found = kept(_WINS, key, (BIG_BASE * len(big) if big else 1, _kind(big),
                                  *_role_bits(by, "hard" in fans, bool(big)), "quanqiuren" in fans))
    return found


def _role_bits(by: str, hard: bool, big: bool) -> tuple[int, int, int]:
    """The role bits (:data:`DEALER` ...) of the winner, of the discarder and of the dealer: H2 (small
    hands only) 自摸 for the winner, 放冲 and 庄家; 硬胡 (``hard``) on every hand."""
    winner_roles = HARD if hard else 0
    if big:
        return winner_roles, 0, 0
    if by == "self_draw":
        winner_roles |= SELF_DRAWN
    return winner_roles, DISCARDED, DEALER


def count_fans(hand: WuhanHand, win: WuhanWin, big: bool) -> tuple[dict[str, int], dict[str, Step]]:
    """Every player's fans for ``win`` (the hand's win; ``big``: it has big hands), in seat order,
    and the ``tally`` step of each: H1 from the facts, the role fans 庄家, 自摸, 放冲 (small hands
    only, H2) and 硬胡 (H2/H3) — or the total stated in ``fans`` (G5).  The fans of the same facts
    and roles are worked out once and kept."""
    by = win.by
    read = _read_options(hand.options)
    return _count_fans(hand.players, hand.fans, read[0], read[1], read[2], win.winner, hand.dealer,
                       None if by == "self_draw" else win.from_, *_role_bits(by, "hard" in win.fans, big))


def _count_fans(players: dict[str, WuhanPlayer], stated: dict[str, int] | None, table: dict[Any, tuple[int, Step]],
                koukou: bool, laizi: int, winner: str, dealer: str | None, source: str | None, winner_roles: int,
                source_roles: int, dealer_roles: int) -> tuple[dict[str, int], dict[str, Step]]:
    """:func:`count_fans` on the values read: ``table`` the options' table of :data:`_FANS`,
    ``source`` the discarder or robbed player (G6), None on a self-draw; the role bits of the winner,
    the source and the dealer (:data:`DEALER` ...)."""
    totals: dict[str, int] = {}
    steps: dict[str, Step] = {}
    for name, player in players.items():
        if stated and name in stated:
            total = stated[name]
            found = STATED_TALLIES.get(total)
            if found is None:
                found = stated_tally(total)
        else:
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
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes, read faster so)
    abandon = fields["abandon"]
    if abandon is not None:
        return _abandon(hand, abandon.by)
    win = fields["win"]
    if win is None:
        players = tuple(fields["players"])
        dealer = fields["dealer"]
        return Settlement("wuhan", players, zeros(players), (), dealer,
                          roles_for(players, dealer, None, None, None), {}, {}, "番", (), None, None, fields["id"],
                          None, None, CATALOG)
    return _win(hand, fields, win if type(win) is WuhanWin else single_win(win))


_Loss = tuple[int, tuple[Step, ...], str | None, bool]
"""What one loser pays before 金顶/光明顶 and 承包 (:func:`_loss`): the points, the steps (the
formula, and the cap step when capped), the cap mark, and whether the amount exceeds the cap (H6)."""
_LOSSES: dict[tuple[int, int, int], dict[int, _Loss]] = {}
"""``(base, fans of the winner, cap)`` -> ``2 × fans of the loser + ×1.5`` -> the :data:`_Loss`, kept."""


def _loss(base: int, a: int, b: int, times: bool, limit: int) -> _Loss:
    """H2/H3 for a loser with ``a`` fans paying a winner with ``b``: ``base × 2^(a+b)`` (×1.5 with
    ``times``), then 封顶 at ``limit`` when reached (H5, G13)."""
    whole: int = base * 2 ** (a + b)
    amount: Amount = whole
    if times:
        amount = _times_three_halves(whole)
        formula = power_step(base, a, b, SELF_DRAW_OR_DISCARDER)
    else:
        formula = power_step(base, a, b)
    if amount >= limit:  # H5 封顶 (reached, G13)
        return limit, (formula, cap_step(amount, limit, "H5", "封顶")), "capped", amount > limit
    return amount if type(amount) is int else core.whole(amount), (formula,), None, False


def _win(hand: WuhanHand, fields: dict[str, Any], win: WuhanWin) -> Settlement:
    """H2–H7 for each loser in seat order: the formula, 封顶, 金顶/光明顶, 承包; then the transfers
    (``fields``: the hand's validated values)."""
    # Each value of the models read once (a model's attribute read costs more than a variable's).
    players, dealer, opts = fields["players"], fields["dealer"], fields["options"]
    last = _LAST_OPTIONS
    read: _Read = last[1] if opts is last[0] else _read_options(opts)
    facts = win.__dict__
    winner, by, source, named = facts["winner"], facts["by"], facts["from_"], facts["fans"]
    self_draw = by == "self_draw"
    found_win = _WINS.get((by, *named) if named else by)
    if found_win is None:
        found_win = _win_fans(win)
    base, kind, winner_roles, source_roles, dealer_roles, quanqiuren = found_win
    fans, fan_steps = _count_fans(players, fields["fans"], read[0], read[1], read[2], winner, dealer,
                                  None if self_draw else source, winner_roles, source_roles, dealer_roles)
    liable, reason = liable_of(hand, win, facts["liable"], players, winner, by, source, quanqiuren)
    payer = None if reason is None else liable  # H7 承包: the liable player pays every debt
    b = fans[winner]
    limit = read[3]
    big = base != 1
    table_key = (base, b, limit)
    table = _LOSSES.get(table_key)
    if table is None:
        table = kept(_LOSSES, table_key, {}, TABLES_KEPT)
    seats = tuple(fans)
    # The net in seat order: each loser pays his own debt, or with 承包 the liable player pays them all.
    if payer is None:
        net = {}
    else:
        zero = ZEROS.get(seats)
        net = zeros(seats) if zero is None else zero.copy()
    won = 0
    transfers = []
    over = 0  # losers whose amount exceeds the cap (H6, G13: >)
    for loser, a in fans.items():
        if loser == winner:
            if payer is None:
                net[winner] = 0  # his place in seat order; his total below
            continue
        # ×1.5 on a big hand for every loser on a self-draw, else for the discarder only (H3).
        times = big and (self_draw or loser == source)
        key = a + a + 1 if times else a + a
        found = table.get(key)
        if found is None:
            found = kept(table, key, _loss(base, a, b, times, limit), TABLES_KEPT)
        points, steps, mark, exceeds = found
        if exceeds:
            over += 1
        if payer is None:
            net[loser] = -points
            pays = loser
        else:
            net[payer] -= points
            pays = payer
            if loser != payer:
                steps = (*steps, share_paid_step(loser, payer, reason))  # type: ignore[arg-type]
        if points:
            transfers.append(Transfer(pays, winner, points, steps, mark, CATALOG))
            won += points
    net[winner] += won
    reasons: tuple[Step, ...] = (kind,)
    if over == 3 and len(fans) == 4:
        # H6 金顶/光明顶: all three losers exceed the cap (G13: >), so all three are capped.
        note, transfers, net = _golden(players, read, seats, fans, table, base, winner, source, self_draw, payer,
                                       reason)
        reasons = (kind, note)
    if payer is None:
        liable_rule = None
    else:
        reasons = (*reasons, pays_for_everyone_step(payer, reason))  # type: ignore[arg-type]
        liable_rule = reason.rule  # type: ignore[union-attr]
    # the_dealer: TypeError without a dealer
    next_dealer = dealer if winner == dealer else core.next_after(seats, hand.the_dealer if dealer is None else dealer)
    return Settlement("wuhan", seats, net, tuple(transfers), next_dealer,
                      roles_for(seats, dealer, (winner, source, by), liable, None), fans, fan_steps, "番", reasons,
                      None, liable, fields["id"], liable_rule, None, CATALOG)


def _golden(players: dict[str, WuhanPlayer], read: _Read, seats: tuple[str, ...], fans: dict[str, int],
            table: dict[int, _Loss], base: int, winner: str, source: str | None, self_draw: bool, payer: str | None,
            reason: Step | None) -> tuple[Step, list[Transfer], dict[str, int]]:
    """H6: every loser exceeds the cap, so each pays 金顶, or 光明顶 when he has no open; then 承包
    (``payer``, for ``reason``: H7).  ``table``: the losses of this base, winner's fans and cap
    (:data:`_LOSSES`).  The note, the transfers and the net."""
    limit, golden_points, bright_points = read[3], read[4], read[5]
    note, golden_step = _golden_steps(limit, golden_points)
    b = fans[winner]
    net = zeros(seats)
    transfers = []
    for loser, a in fans.items():
        if loser == winner:
            continue
        times = base != 1 and (self_draw or loser == source)
        found = table.get(a + a + 1 if times else a + a)
        formula, cap = (_loss(base, a, b, times, limit) if found is None else found)[1]
        if players[loser].open_count == 0:
            steps: tuple[Step, ...] = (formula, cap, _bright_step(bright_points, loser))
            amount, mark = bright_points, "bright"
        else:
            steps = (formula, cap, golden_step)
            amount, mark = golden_points, "golden"
        pays = loser
        if payer is not None:
            pays = payer
            if loser != payer:
                steps = (*steps, share_paid_step(loser, payer, reason))  # type: ignore[arg-type]
        if amount:
            transfers.append(Transfer(pays, winner, amount, steps, mark, CATALOG))
            net[pays] -= amount
            net[winner] += amount
    return note, transfers, net


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


_Escape = tuple[tuple[tuple[str, int], ...], tuple[Step, ...], tuple[Step, ...]]
"""What an abandon with its penalty split (H9) decides: ``(payee, points)`` in seat order after the
leaver, the steps of each payment and the reasons."""
_ESCAPES: dict[tuple[tuple[str, ...], str, int], _Escape] = {}
"""``(seating, leaver, penalty)`` -> the split of the penalty (:data:`_Escape`), kept."""
_FORFEITS: dict[tuple[str, int], tuple[tuple[Step, ...], tuple[Step, ...]]] = {}
"""``(leaver, penalty)`` -> the steps of the forfeit and the reasons (H9), kept."""


def _abandon(hand: WuhanHand, leaver: str) -> Settlement:
    """H9 逃跑: the leaver pays the penalty, forfeited or split among the others; the game ends.

    Split (``escape_paid_to: others``): one transfer per player whose share is not 0; a penalty
    smaller than the number of players it is split among leaves some shares at 0, and those are
    left out (``escape_penalty: 1``: only ``A -> B 1``), as every other payment of 0 is (G2, issue 15 #18).
    """
    opts = hand.options
    penalty = opts.escape_points
    players = tuple(hand.players)
    roles = roles_for(players, hand.dealer, None, None, leaver)
    net = zeros(players)
    if opts.escape_paid_to == "none":
        key = (leaver, penalty)
        forfeited = _FORFEITS.get(key)
        if forfeited is None:
            note = Step("H9", "escape_forfeit_note", {"leaver": leaver, "penalty": penalty})
            forfeited = kept(_FORFEITS, key, ((Step("H9", "escape_forfeit", {"penalty": penalty}),), (note,)))
        net[leaver] -= penalty
        return Settlement("wuhan", players, net, (), None, roles, {}, {}, "番", forfeited[1],
                          Forfeit(leaver, penalty, forfeited[0], CATALOG), None, hand.id, None, None, CATALOG)
    split_key = (players, leaver, penalty)
    split = _ESCAPES.get(split_key)
    if split is None:
        others = core.seats_after(players, leaver)
        shares = core.split_largest_remainder(penalty, [(n, 1) for n in others])
        split = kept(_ESCAPES, split_key, (
            tuple([(n, shares[n]) for n in others]),
            (Step("H9", "escape_split", {"penalty": penalty, "ways": len(others), "first": others[0]}),),
            (Step("H9", "escape_note", {"leaver": leaver}),)))
    shares_in_order, steps, reasons = split
    transfers = []
    for payee, points in shares_in_order:
        if not points:
            continue  # a share of 0 (a penalty smaller than the ways it is split) is no payment (G2)
        transfers.append(Transfer(leaver, payee, points, steps, None, CATALOG))
        net[leaver] -= points
        net[payee] += points
    return Settlement("wuhan", players, net, tuple(transfers), None, roles, {}, {}, "番", reasons, None, None,
                      hand.id, None, None, CATALOG)
