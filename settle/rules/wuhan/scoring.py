"""Wuhan scoring (seed 004; RULINGS H1–H10).

Unit: 番 (fan).  Every other player pays the winner on every win (H4):

* small hand 小胡:  ``2^(fans_loser + fans_winner)``                           (H2)
* big hands 大胡:   ``10·n × 2^(fans_loser + fans_winner) × 1.5^k``            (H3)
  (n big hands; k = 1 on a self-draw, or for the discarder)

then 封顶 ``cap`` (H5), 金顶/光明顶 when all three exceed it (H6), and 承包 (H7).
A player's fans (H1/H2) come from the facts, or from an explicit total (G5).
Every amount carries its steps; the words are in :mod:`settle.rules.wuhan.messages`.
"""

from __future__ import annotations

from fractions import Fraction

from settle import core
from settle.core import Debt, Forfeit, Settlement, Step, Tally, Transfer
from settle.rules.wuhan.liability import liable_player
from settle.rules.wuhan.messages import CATALOG
from settle.rules.wuhan.model import WuhanHand, WuhanPlayer
from settle.rules.wuhan.options import WuhanOptions
from settle.rules.wuhan.vocab import DISCARDER, KONGS, PATTERNS

BIG_BASE = 10
"""Base points per big hand (H3)."""
SELF_DRAW_OR_DISCARDER = Fraction(3, 2)
"""×1.5 for the winner's 自摸 and for the discarder's 放冲 on a big hand (H3)."""


# --- fans ----------------------------------------------------------------------------------------


def big_hands(hand: WuhanHand) -> list[str]:
    """The big hands of the win, 抢杠 implied by ``robbed_kong`` and counted once (H3, G10)."""
    named = [k for k in hand.the_win.fans if PATTERNS[k].kind == "big"]
    if hand.the_win.by == "robbed_kong" and "qiangganghu" not in named:
        named.append("qiangganghu")
    return named


def count_fans(hand: WuhanHand, name: str, big: bool) -> Tally:
    """Fans of ``name`` (H1; small-hand extras H2; 硬胡 for the winner H2/H3), or the stated total (G5)."""
    return count_all_fans(hand, big)[name]


def count_all_fans(hand: WuhanHand, big: bool) -> dict[str, Tally]:
    """Every player's fans, in seat order: :func:`count_fans` of each, with the win's roles worked
    out once for the hand rather than once per player."""
    roles = _role_fans(hand, big)
    stated = hand.fans or {}
    opts = hand.options
    return {
        name: Tally.given(stated[name]) if name in stated
        else Tally.of((*_fact_fans(player, opts), *roles.get(name, ())))
        for name, player in hand.players.items()
    }


def _fact_fans(player: WuhanPlayer, opts: WuhanOptions) -> list[tuple[str, str, int]]:
    """H1: 开口 (1 in all, or 口口翻 1 per open) and the fans of each kong kind."""
    items = []
    opens = player.open_count
    if opens:
        items.append(("koukou", "口口翻", opens) if opts.koukou else ("opens", "开口", 1))
    for kind, n in player.kongs.items():
        if n:
            per = opts.laizi_kong_fans if kind == "laizi" else KONGS[kind].value
            items.append((kind, KONGS[kind].zh, n * per))
    return items


def _role_fans(hand: WuhanHand, big: bool) -> dict[str, list[tuple[str, str, int]]]:
    """Who gets a fan for a role, in the order 庄家, 自摸, 放冲 (small hands only, H2), 硬胡 (H2/H3)."""
    win = hand.the_win
    roles: dict[str, list[tuple[str, str, int]]] = {}
    if not big:
        if hand.dealer:
            roles.setdefault(hand.dealer, []).append(("dealer", "庄家", 1))
        if win.by == "self_draw":
            roles.setdefault(win.winner, []).append(("self_draw", "自摸", 1))
        elif win.from_:  # the discarder, or the robbed player (G6)
            roles.setdefault(win.from_, []).append(("discarder", DISCARDER, 1))
    if "hard" in win.fans:
        roles.setdefault(win.winner, []).append(("hard", PATTERNS["hard"].zh, 1))
    return roles


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: WuhanHand) -> Settlement:
    """Settle a checked Wuhan hand: a win (H2–H7), a draw, or an abandon (H9)."""
    if hand.abandon is not None:
        return _abandon(hand, hand.abandon.by)
    if hand.win is None:
        return _result(hand, [], {}, next_dealer=hand.dealer)
    return _win(hand)


def _win(hand: WuhanHand) -> Settlement:
    win, names = hand.the_win, hand.names
    big = big_hands(hand)
    fans = count_all_fans(hand, bool(big))
    debts = _owed_all(hand, names, fans, big)
    debts, reasons = _caps(hand, debts)
    liable, reason = liable_player(hand)
    if liable is not None and reason is not None:
        debts = core.redirect(debts, liable, reason)
        reasons.append(Step("", "pays_for_everyone", {"liable": liable, "reason": reason}))
    transfers = core.to_transfers(debts, CATALOG)
    next_dealer = hand.dealer if win.winner == hand.dealer else core.next_after(names, hand.the_dealer)
    return _result(hand, transfers, fans, next_dealer, reasons=reasons, liable=liable,
                   liable_rule=None if reason is None else reason.rule, big=big)


def _owed_all(hand: WuhanHand, names: list[str], fans: dict[str, Tally], big: list[str]) -> list[Debt]:
    """H2/H3: what each loser owes before caps, in seat order."""
    win = hand.the_win
    winner = win.winner
    b = fans[winner].total
    if not big:
        return [_small(loser, winner, fans[loser].total, b) for loser in names if loser != winner]
    base = BIG_BASE * len(big)
    # ×1.5 for every loser on a self-draw, else for the discarder only (H3).
    everyone = win.by == "self_draw"
    return [_big(loser, winner, fans[loser].total, b, base, everyone or loser == win.from_)
            for loser in names if loser != winner]


def _small(loser: str, winner: str, a: int, b: int) -> Debt:
    """H2 小胡: ``2^(a+b)``."""
    return Debt(loser, winner, 2 ** (a + b), core.power_step(1, a, b))


def _big(loser: str, winner: str, a: int, b: int, base: int, times_one_and_half: bool) -> Debt:
    """H3 大胡: ``base × 2^(a+b)``, ×1.5 on a self-draw or for the discarder."""
    if not times_one_and_half:
        return Debt(loser, winner, base * 2 ** (a + b), core.power_step(base, a, b))
    return Debt(loser, winner, SELF_DRAW_OR_DISCARDER * (base * 2 ** (a + b)),
                core.power_step(base, a, b, SELF_DRAW_OR_DISCARDER))


def _caps(hand: WuhanHand, debts: list[Debt]) -> tuple[list[Debt], list[Step]]:
    """H5 封顶, then H6 金顶/光明顶 when all three losers exceed the cap (G13: >)."""
    opts = hand.options
    golden = len(debts) == 3 and all(d.amount > opts.cap for d in debts)
    capped = [core.cap(d, opts.cap, "H5", "封顶") for d in debts]
    if not golden:
        return capped, []
    return [_golden(hand, d) for d in capped], [Step("H6", "golden_note", {"cap": opts.cap})]


def _golden(hand: WuhanHand, debt: Debt) -> Debt:
    opts = hand.options
    if hand.players[debt.loser].open_count == 0:
        return core.replace_amount(debt, opts.bright_points, Step("H6", "bright", {"amount": opts.bright_points,
                                                                             "loser": debt.loser}), "bright")
    return core.replace_amount(debt, opts.golden_points, Step("H6", "golden", {"amount": opts.golden_points,
                                                                                "cap": opts.cap}),
                               "golden")


def _abandon(hand: WuhanHand, leaver: str) -> Settlement:
    """H9 逃跑: the leaver pays the penalty, forfeited or split among the others; the game ends."""
    opts = hand.options
    penalty = opts.escape_points
    if opts.escape_paid_to == "none":
        forfeit = Forfeit(leaver, penalty, (Step("H9", "escape_forfeit", {"penalty": penalty}),), CATALOG)
        note = Step("H9", "escape_forfeit_note", {"leaver": leaver, "penalty": penalty})
        return _result(hand, [], {}, None, reasons=[note], forfeit=forfeit)
    others = core.seats_after(hand.names, leaver)
    shares = core.split_largest_remainder(penalty, [(n, 1) for n in others])
    split = (Step("H9", "escape_split", {"penalty": penalty, "ways": len(others), "first": others[0]}),)
    transfers = [Transfer(leaver, n, shares[n], split, None, CATALOG) for n in others]
    return _result(hand, transfers, {}, None, reasons=[Step("H9", "escape_note", {"leaver": leaver})])


def _result(hand: WuhanHand, transfers: list[Transfer], fans: dict[str, Tally],
            next_dealer: str | None, reasons: list[Step] | None = None, liable: str | None = None,
            liable_rule: str | None = None, forfeit: Forfeit | None = None,
            big: list[str] | None = None) -> Settlement:
    if hand.win is not None:
        kind = Step("H3", "big_hands", {"fans": tuple(big), "base": BIG_BASE * len(big)}) if big \
            else Step("H2", "small_hand", {})
        reasons = [kind, *(reasons or [])]
    return core.settlement(
        hand, "wuhan", transfers, next_dealer, unit="番", catalog=CATALOG,
        scores={n: f.total for n, f in fans.items()},
        score_steps={n: f.step for n, f in fans.items()},
        reasons=reasons or [], liable=liable, liable_rule=liable_rule, forfeit=forfeit,
    )
