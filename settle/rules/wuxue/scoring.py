"""Wuxue scoring (seed 000 算分 / 计分规则; RULINGS W1–W13).

Unit: 斤 (jin), counted for every player separately (W2–W4).  A loser owes

* self-draw 自摸 (W5), and the discarder 点炮 (W6):  ``2^(jin_loser + jin_winner)``         (W1)
* every other player on a discard, 陪炮 (W6):        ``2^(jin_loser + jin_winner - 1)``,
  nothing when his own jin is 0 (option ``genpi`` 跟皮 counts that 0 as 1)

then 封顶 ``cap`` (W7), 小金鼎/金鼎 when two or three paying losers reached it (W8),
漂 on top (W9), and 包胡 (W11).  抢杠胡: the robbed player alone pays one cap + 漂 (W10).
A player's jin come from the facts, or from an explicit ``fans``/``jin`` total (G5).
Every amount carries its steps; the words are in :mod:`settle.rules.wuxue.messages`.
"""

from __future__ import annotations

from settle import core
from settle.core import Debt, Settlement, Step, Tally, Transfer
from settle.rules.wuxue.liability import liable_player
from settle.rules.wuxue.messages import CATALOG
from settle.rules.wuxue.model import WuxueHand, WuxuePlayer
from settle.rules.wuxue.options import WuxueOptions
from settle.rules.wuxue.vocab import KONGS, PATTERNS

GOLDEN: dict[tuple[int, int], str] = {
    (4, 2): "small",
    (4, 3): "full",
}
"""W8 with 4 players: (players at the table, paying losers capped) -> the golden cap each capped loser
pays.  With 3 players both capped pay by option ``three_player_golden``; 2 players have none (W8)."""

GOLDEN_MARKS = {"small": "small_golden", "full": "golden"}
"""A transfer's ``cap`` under each golden level (小金鼎, 金鼎)."""


# --- jin -----------------------------------------------------------------------------------------


def count_jin(hand: WuxueHand, name: str) -> Tally:
    """斤 of ``name``: own kongs (W3), plus the named items for the winner (W2) or 开口 1 for a
    loser with any open (W4); or the stated total (G5)."""
    return count_all_jin(hand)[name]


def count_all_jin(hand: WuxueHand) -> dict[str, Tally]:
    """Every player's 斤, in seat order: :func:`count_jin` of each, the win looked at once per hand."""
    winner = hand.the_win.winner
    stated = hand.fans or {}
    return {
        name: Tally.given(stated[name]) if name in stated
        else Tally.of((_winner_items(hand) if name == winner else _open_items(player)) + _kong_items(player))
        for name, player in hand.players.items()
    }


def _winner_items(hand: WuxueHand) -> list[tuple[str, str, int]]:
    return [(k, PATTERNS[k].zh, PATTERNS[k].value) for k in hand.the_win.fans if PATTERNS[k].kind != "implied"]


def _open_items(player: WuxuePlayer) -> list[tuple[str, str, int]]:
    # W4: once for any number of opens; the winner never gets it.
    return [("opens", "开口", 1)] if player.open_count else []


def _kong_items(player: WuxuePlayer) -> list[tuple[str, str, int]]:
    out = []
    for kind, n in player.kongs.items():
        if n:
            kong = KONGS[kind]
            out.append((kind, kong.zh if n == 1 else f"{kong.zh}×{n}", n * kong.value))
    return out


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: WuxueHand) -> Settlement:
    """Settle a checked Wuxue hand: a win (W1–W11) or a 荒庄 draw (no payments, no 漂; W9, W13)."""
    if hand.win is None:
        return _result(hand, [], {}, hand.dealer, [Step("W9, W13", "draw", {})])
    win = hand.the_win
    jin = count_all_jin(hand)
    if win.by == "robbed_kong":
        debts, reasons = _robbed(hand)
        return _result(hand, core.to_transfers(debts, CATALOG), jin, win.winner, reasons)
    names = hand.names
    debts, reasons = _owed_all(hand, names, jin)
    debts, cap_reasons = _caps(hand, len(names), debts)
    debts = _piao(hand, debts)
    reasons += cap_reasons
    liable, reason = liable_player(hand)
    if liable is not None and reason is not None:
        debts = core.redirect(debts, liable, reason)
        reasons.append(Step("", "pays_for_everyone", {"liable": liable, "reason": reason}))
    return _result(hand, core.to_transfers(debts, CATALOG), jin, win.winner, reasons, liable,
                   None if reason is None else reason.rule)


def _owed_all(hand: WuxueHand, names: list[str], jin: dict[str, Tally]) -> tuple[list[Debt], list[Step]]:
    """W1, W5, W6: each loser's debt before caps, in seat order after the winner; the reasons
    say which 陪炮 players pay nothing."""
    debts, reasons = [], []
    for loser in core.seats_after(names, hand.the_win.winner):
        debt = _owed(hand, loser, jin)
        if debt is None:
            reasons.append(Step("W6", "peipao_nothing", {"loser": loser}))
        else:
            debts.append(debt)
    return debts, reasons


def _owed(hand: WuxueHand, loser: str, jin: dict[str, Tally]) -> Debt | None:
    """What ``loser`` owes before caps, or None for a 0-斤 陪炮 player without 跟皮 (W6)."""
    win = hand.the_win
    a, b = jin[loser].total, jin[win.winner].total
    if win.by == "self_draw":
        return _debt(hand, loser, "W5", "self_draw_owes", 2 ** (a + b), core.power_step(1, a, b))
    if loser == win.from_:
        return _debt(hand, loser, "W6", "discarder_owes", 2 ** (a + b), core.power_step(1, a, b))
    if a == 0 and not hand.options.genpi:
        return None
    kind = "peipao_owes"
    if a == 0:
        a, kind = 1, "peipao_genpi_owes"
    return _debt(hand, loser, "W6", kind, 2 ** (a + b - 1), core.power_step(1, a, b, minus=1))


def _debt(hand: WuxueHand, loser: str, rule: str, kind: str, amount: int, power: Step) -> Debt:
    # The plain value is shown only when no cap step will show it.
    formula = Step(rule, kind, {"power": power, "amount": amount, "shown": amount < hand.options.cap})
    return Debt(loser, hand.the_win.winner, amount, formula)


def _caps(hand: WuxueHand, players: int, debts: list[Debt]) -> tuple[list[Debt], list[Step]]:
    """W7 封顶 (reached, G13), then W8 小金鼎/金鼎 for each capped paying loser at a table of ``players``."""
    opts = hand.options
    capped = [core.cap(d, opts.cap, "W7", "封顶") for d in debts]
    count = sum([d.capped for d in capped])
    level = golden_level(opts, players, count)
    if level is None:
        return capped, []
    amount = opts.small_golden if level == "small" else opts.golden
    item = Step("W8", "golden", {"level": level, "amount": amount, "capped": count, "players": players})
    mark = GOLDEN_MARKS[level]
    return [core.replace_amount(d, amount, item, mark) if d.capped else d for d in capped], [item]


def golden_level(opts: WuxueOptions, players: int, capped: int) -> str | None:
    """W8: ``small`` (小金鼎), ``full`` (金鼎) or None for ``capped`` paying losers at a table of ``players``."""
    if (players, capped) == (3, 2):
        return opts.three_player_golden
    return GOLDEN.get((players, capped))


def _piao(hand: WuxueHand, debts: list[Debt]) -> list[Debt]:
    """W9: 漂 on top of every paying loser's amount, never capped."""
    opts = hand.options
    points = opts.piao_per_loser
    if not points:
        return debts
    return [core.add_extra(d, points, Step("W9", "piao", {"points": points, "piao": opts.piao,
                                                           "both_sides": opts.piao_both_sides,
                                                           "total": d.amount + points}))
            for d in debts]


def _robbed(hand: WuxueHand) -> tuple[list[Debt], list[Step]]:
    """W10 抢杠胡: the robbed player alone pays one cap, plus 漂; no golden cap, no 包胡."""
    win, opts = hand.the_win, hand.options
    debt = Debt(win.the_discarder, win.winner, opts.cap, Step("W10", "robbed_pays_cap", {"player": win.from_,
                                                                                          "cap": opts.cap}),
                capped=True, cap="capped")
    note = Step("W10, G11", "robbed_note", {"player": win.from_, "cap": opts.cap})
    return _piao(hand, [debt]), [note, *implied_reasons(win.fans)]


def implied_reasons(fans: list[str]) -> list[Step]:
    """G10: a named ``qiangganghu`` adds nothing to ``by: robbed_kong``, which already scores it."""
    return [Step("G10", "implied", {"fan": k}) for k in fans if PATTERNS[k].kind == "implied"]


def _result(hand: WuxueHand, transfers: list[Transfer], jin: dict[str, Tally], next_dealer: str | None,
            reasons: list[Step], liable: str | None = None, liable_rule: str | None = None) -> Settlement:
    if hand.win is not None:
        big = tuple(k for k in hand.the_win.fans if PATTERNS[k].kind == "big")
        kind = Step("W2", "big_hands", {"fans": big}) if big else Step("W2", "no_big_hand", {})
        reasons = [kind, *reasons]
    return core.settlement(
        hand, "wuxue", transfers, next_dealer, unit="斤", catalog=CATALOG,
        scores={n: j.total for n, j in jin.items()},
        score_steps={n: j.step for n, j in jin.items()},
        reasons=reasons, liable=liable, liable_rule=liable_rule,
    )
