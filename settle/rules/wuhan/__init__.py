"""Wuhan 红中赖子杠 (seed 004; RULINGS H1–H12): options, vocabulary and scoring.

Unit: 番 (fan).  Every other player pays the winner on every win (H4):

* small hand 小胡:  ``2^(fans_loser + fans_winner)``                           (H2)
* big hands 大胡:   ``10·n × 2^(fans_loser + fans_winner) × 1.5^k``            (H3)
  (n big hands; k = 1 on a self-draw, or for the discarder)

then 封顶 ``cap`` (H5), 金顶/光明顶 when all three exceed it (H6), and 承包 (H7).
A player's fans (H1/H2) come from the facts, or from an explicit total (G5).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, PositiveInt, StrictBool, model_validator

from settle import core
from settle.core import Debt, Forfeit, Settlement, Tally, Transfer
from settle.errors import Problem
from settle.model import MAX_POINTS, NOBODY, Player, Strict, hand_model
from settle.rules.registry import REGION_TERMS, Region, foreign_term
from settle.vocab import KongKind, Pattern, vocabulary

SELF = frozenset({"self_draw"})

PATTERNS: dict[str, Pattern] = {
    p.key: p
    for p in (
        Pattern("pengpenghu", "碰碰胡", "all pungs: every set a pung or kong, any pair", 10, ruling="H3"),
        Pattern("quanqiuren", "全求人", "four claimed sets, won on a discard with a single pair tile",
                10, ruling="H3, H7 a", only_by=frozenset({"discard"})),
        Pattern("qingyise", "清一色", "one suit only", 10, ruling="H3, H7 b"),
        Pattern("jiangyise", "将一色", "only 2, 5 and 8 tiles (乱将: any shape)", 10, ruling="H3"),
        Pattern("fengyise", "风一色", "only wind and dragon tiles (乱风: any shape)", 10, ruling="H3"),
        Pattern("gangshanghua", "杠上花", "self-draw on the replacement tile after a kong",
                10, ruling="H3", only_by=SELF, aliases=("杠开",)),
        Pattern("haidilao", "海底捞", "self-draw among the last four tiles", 10, ruling="H3",
                only_by=SELF, aliases=("海底",)),
        Pattern("qiangganghu", "抢杠", "robbing a kong (implied by by: robbed_kong)", 10,
                ruling="H3, H7 c, G6", only_by=frozenset({"robbed_kong"}), aliases=("抢杠胡",)),
        Pattern("hard", "硬胡", "no 癞子 used as another tile: 1 fan for the winner", 1,
                kind="extra", ruling="H2, H3, H8"),
    )
}
"""Wuhan scoring items: 大胡 (base 10 each, adding) and 硬胡 (1 fan)."""

KONGS: dict[str, KongKind] = {
    k.key: k
    for k in (
        KongKind("exposed", "明杠", "exposed kong claimed from a discard (直杠/冲杠); also an open",
                 1, aliases=("直杠", "冲杠", "点杠"), ruling="H1, G3"),
        KongKind("added", "补杠", "added kong upgrading a 碰 (蓄杠)", 1, aliases=("蓄杠",), ruling="H1, G3"),
        KongKind("concealed", "暗杠", "concealed kong; never an open", 2, ruling="H1, G3"),
        KongKind("hongzhong", "红中杠", "红中 played out as a kong", 1, ordinary=False, ruling="H1"),
        KongKind("facai", "发财杠", "发财 played out as a kong", 1, ordinary=False, ruling="H1"),
        KongKind("laizi", "癞子杠", "癞子 played out as a kong (option laizi_kong_fans)", 1,
                 ordinary=False, ruling="H1", aliases=("赖子杠",)),
    )
}
"""Wuhan kong kinds and their fans (H1)."""

WuhanFan = vocabulary(PATTERNS, "Wuhan fan", foreign_term("wuhan", "fan"))
WuhanKong = vocabulary(KONGS, "Wuhan kong kind", foreign_term("wuhan", "kong kind"))


class WuhanOptions(Strict):
    """Wuhan house rules (``options:``); every default is the ruling's.

    Points are 分.  ``golden``/``bright``/``escape_penalty`` default from ``koukou``
    (H6, H9).  Raises a validation error when ``cap <= golden <= bright`` fails (G13).
    """

    cap: PositiveInt = Field(400, description="封顶: most a loser pays (H5)")
    golden: PositiveInt | None = Field(None, description="金顶: 500, or 600 with koukou (H6)")
    bright: PositiveInt | None = Field(None, description="光明顶: 600, or 700 with koukou (H6)")
    koukou: StrictBool = Field(False, description="口口翻: 1 fan per open instead of 1 in all (H1)")
    laizi_kong_fans: int = Field(1, ge=1, le=2, description="fans per 癞子杠 (H1)")
    chengbao_yise: Literal["qingyise", "all"] = Field(
        "qingyise", description="承包 (b) for 清一色 only, or also 将一色/风一色 (H7)")
    escape_penalty: PositiveInt | None = Field(None, description="逃跑 penalty: 400, 500 with koukou (H9)")
    escape_paid_to: Literal["none", "others"] = Field(
        "none", description="逃跑 penalty forfeited, or split among the others (H9)")
    require_open: StrictBool = Field(True, description="the winner must have an open (H8)")
    facai_gang: StrictBool = Field(True, description="发财 is a gang tile (H12)")
    facai_blocks_win: StrictBool = Field(
        True, description="持发财不能胡: holding 发财 forbids any win, as H8 says, even with facai_gang off "
                          "(tile level)")

    @model_validator(mode="after")
    def _defaults_and_order(self) -> WuhanOptions:
        fill = {
            "golden": 600 if self.koukou else 500,
            "bright": 700 if self.koukou else 600,
            "escape_penalty": 500 if self.koukou else 400,
        }
        for key, value in fill.items():
            if getattr(self, key) is None:
                object.__setattr__(self, key, value)
        caps = (self.cap, self.golden, self.bright)
        # An amount past MAX_POINTS is reported as too large (settle.rules.checks), not as out of order.
        if max(caps) <= MAX_POINTS and not caps[0] <= caps[1] <= caps[2]:  # type: ignore[operator]
            raise ValueError(f"caps out of order: need cap <= golden <= bright, got cap {self.cap}, "
                             f"golden {self.golden}, bright {self.bright} (G13)")
        return self


WuhanHand = hand_model("Wuhan", WuhanOptions, WuhanFan, WuhanKong)

BIG_BASE = 10
"""Base points per big hand (H3)."""
SELF_DRAW_OR_DISCARDER = Fraction(3, 2)
"""×1.5 for the winner's 自摸 and for the discarder's 放冲 on a big hand (H3)."""


# --- checks --------------------------------------------------------------------------------------


def check(hand: WuhanHand) -> list[Problem]:
    """Wuhan legality: H8 ``require_open`` (not when the winner's total is given, G9);
    承包 (b) decidable (G7); 发财 kongs only with ``facai_gang``; lists of wins (R8 is Rushan)."""
    problems = []
    if isinstance(hand.win, list):
        problems.append(Problem(("win",), "Wuhan has one winner per hand (一炮单响): give `win` as a mapping"))
        return problems
    if not hand.options.facai_gang:
        problems += [Problem(("players", n, "kongs", "facai"), "发财杠 needs option facai_gang (H12)")
                     for n, p in hand.players.items() if p.kong_count("facai")]
    if hand.win is not None:
        problems += _win_problems(hand)
    return problems


def _win_problems(hand: WuhanHand) -> list[Problem]:
    win = hand.win
    winner = hand.players[win.winner]
    out = []
    if hand.options.require_open and hand.explicit_total(win.winner) is None and not winner.open_count:
        out.append(Problem(("players", win.winner, "opens"),
                           f"the winner {win.winner} has no open (开口); Wuhan requires one to win "
                           "(H8; option require_open: false, or give the winner's fans total, G9)"))
    if win.liable is None and _flush_trigger(hand) and winner.feeders is None:
        out.append(Problem(("players", win.winner, "opens"),
                           f"{'/'.join(_flush_names(hand))} with {winner.open_count} opens: 承包 needs "
                           "who fed the third open; give opens as a list of feeders, or win.liable (H7 b, G7)"))
    return out


# --- fans ----------------------------------------------------------------------------------------


def big_hands(hand: WuhanHand) -> list[str]:
    """The big hands of the win, 抢杠 implied by ``robbed_kong`` and counted once (H3, G10)."""
    named = [k for k in hand.win.fans if PATTERNS[k].kind == "big"]
    if hand.win.by == "robbed_kong" and "qiangganghu" not in named:
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


def _fact_fans(player: Player, opts: WuhanOptions) -> list[tuple[str, int]]:
    """H1: 开口 (1 in all, or 口口翻 1 per open) and the fans of each kong kind."""
    items = []
    opens = player.open_count
    if opens:
        items.append(("口口翻", opens) if opts.koukou else ("开口", 1))
    for kind, n in player.kongs.items():
        if n:
            per = opts.laizi_kong_fans if kind == "laizi" else KONGS[kind].value
            items.append((KONGS[kind].zh, n * per))
    return items


def _role_fans(hand: WuhanHand, big: bool) -> dict[str, list[tuple[str, int]]]:
    """Who gets a fan for a role, in the order 庄家, 自摸, 放冲 (small hands only, H2), 硬胡 (H2/H3)."""
    win = hand.win
    roles: dict[str, list[tuple[str, int]]] = {}
    if not big:
        if hand.dealer:
            roles.setdefault(hand.dealer, []).append(("庄家", 1))
        if win.by == "self_draw":
            roles.setdefault(win.winner, []).append(("自摸", 1))
        elif win.from_:
            roles.setdefault(win.from_, []).append(("放冲", 1))  # the discarder, or the robbed player (G6)
    if "hard" in win.fans:
        roles.setdefault(win.winner, []).append(("硬胡", 1))
    return roles


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: WuhanHand) -> Settlement:
    """Settle a checked Wuhan hand: a win (H2–H7), a draw, or an abandon (H9)."""
    if hand.abandon is not None:
        return _abandon(hand)
    if hand.win is None:
        return _result(hand, [], {}, next_dealer=hand.dealer)
    return _win(hand)


def _win(hand: WuhanHand) -> Settlement:
    win, names = hand.win, hand.names
    big = big_hands(hand)
    fans = count_all_fans(hand, bool(big))
    debts = _owed_all(hand, names, fans, big)
    debts, notes = _caps(hand, debts)
    liable, reason = liable_player(hand)
    if liable is not None:
        debts = core.redirect(debts, liable, reason)
        notes.append(f"{liable} pays for everyone: {reason}")
    transfers = core.to_transfers(debts)
    next_dealer = hand.dealer if win.winner == hand.dealer else core.next_after(names, hand.dealer)
    return _result(hand, transfers, fans, next_dealer, notes=notes, liable=liable, big=big)


def _owed_all(hand: WuhanHand, names: list[str], fans: dict[str, Tally], big: list[str]) -> list[Debt]:
    """H2/H3: what each loser owes before caps, in seat order."""
    win = hand.win
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
    return Debt(loser, winner, 2 ** (a + b), f"2^({a}+{b})")


def _big(loser: str, winner: str, a: int, b: int, base: int, times_one_and_half: bool) -> Debt:
    """H3 大胡: ``base × 2^(a+b)``, ×1.5 on a self-draw or for the discarder."""
    if not times_one_and_half:
        return Debt(loser, winner, base * 2 ** (a + b), core.power_formula(base, a, b, 1))
    return Debt(loser, winner, SELF_DRAW_OR_DISCARDER * (base * 2 ** (a + b)),
                core.power_formula(base, a, b, SELF_DRAW_OR_DISCARDER))


def _caps(hand: WuhanHand, debts: list[Debt]) -> tuple[list[Debt], list[str]]:
    """H5 封顶, then H6 金顶/光明顶 when all three losers exceed the cap (G13: >)."""
    opts = hand.options
    golden = len(debts) == 3 and all(d.amount > opts.cap for d in debts)
    capped = [core.cap(d, opts.cap, "H5 封顶") for d in debts]
    if not golden:
        return capped, []
    return [_golden(hand, d) for d in capped], [
        f"金顶: all three losers exceed the cap {opts.cap} (H6)"]


def _golden(hand: WuhanHand, debt: Debt) -> Debt:
    opts = hand.options
    if hand.players[debt.loser].open_count == 0:
        return core.replace_amount(debt, opts.bright, f"光明顶 {opts.bright}: {debt.loser} has no open (H6)")
    return core.replace_amount(debt, opts.golden, f"金顶 {opts.golden}: all three exceed {opts.cap} (H6)")


def liable_player(hand: WuhanHand) -> tuple[str | None, str]:
    """承包 (H7) by G11 priority (c) robbed kong > (a) 全求人 > (b) flush; ``win.liable`` overrides (G7).

    Returns (player or None, reason).
    """
    win = hand.win
    if win.liable is not None:
        return (None, "") if win.liable == NOBODY else (win.liable, "承包 stated by win.liable (G7)")
    if win.by == "robbed_kong":
        return win.from_, f"承包 H7 c: {win.from_}'s kong was robbed (抢杠)"
    if "quanqiuren" in win.fans and win.by == "discard" and not hand.players[win.from_].ready:
        return win.from_, f"承包 H7 a: {win.from_} fed 全求人 without being ready (没听牌)"
    if _flush_trigger(hand):
        feeder = hand.players[win.winner].feeders[2]
        return feeder, f"承包 H7 b: {feeder} fed {win.winner}'s third open of {'/'.join(_flush_names(hand))}"
    return None, ""


def _flush_names(hand: WuhanHand) -> list[str]:
    keys = ("qingyise",) if hand.options.chengbao_yise == "qingyise" else ("qingyise", "jiangyise", "fengyise")
    return [PATTERNS[k].zh for k in keys if k in hand.win.fans]


def _flush_trigger(hand: WuhanHand) -> bool:
    """H7 b: a flush (per chengbao_yise) with three or more opens."""
    return hand.players[hand.win.winner].open_count >= 3 and bool(_flush_names(hand))


def _abandon(hand: WuhanHand) -> Settlement:
    """H9 逃跑: the leaver pays the penalty, forfeited or split among the others; the game ends."""
    opts, leaver = hand.options, hand.abandon.by
    penalty = opts.escape_penalty
    if opts.escape_paid_to == "none":
        forfeit = Forfeit(leaver, penalty, f"逃跑 penalty {penalty}, forfeited (H9, escape_paid_to: none)")
        note = f"{leaver} left the game: {penalty} forfeited, so this hand's net does not sum to zero (H9)"
        return _result(hand, [], {}, None, notes=[note], forfeit=forfeit)
    others = core.seats_after(hand.names, leaver)
    shares = core.split_largest_remainder(penalty, [(n, 1) for n in others])
    transfers = [Transfer(leaver, n, shares[n], f"逃跑 penalty {penalty} split {len(others)} ways, "
                                               f"extra points first to {others[0]} (H9)")
                 for n in others]
    return _result(hand, transfers, {}, None, notes=[f"{leaver} left the game (H9)"])


def _result(hand: WuhanHand, transfers: list[Transfer], fans: dict[str, Tally],
            next_dealer: str | None, notes: list[str] | None = None, liable: str | None = None,
            forfeit: Forfeit | None = None, big: list[str] | None = None) -> Settlement:
    if hand.win is not None:
        kind = f"大胡 {' + '.join(PATTERNS[k].label for k in big)}: base {BIG_BASE * len(big)} (H3)" \
            if big else "小胡 small hand: base 1 (H2)"
        notes = [kind, *(notes or [])]
    return core.settlement(
        hand, "wuhan", transfers, next_dealer, unit="番",
        scores={n: f.total for n, f in fans.items()},
        score_detail={n: f.detail for n, f in fans.items()},
        notes=notes or [], liable=liable, forfeit=forfeit,
    )


REGION = Region(
    term=REGION_TERMS["wuhan"], unit="番", seats=(4,), patterns=PATTERNS, kongs=KONGS,
    options=WuhanOptions, hand_model=WuhanHand, check=check, settle=settle, has_abandon=True,
)
