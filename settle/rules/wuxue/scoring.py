"""Wuxue scoring (seed 000 算分 / 计分规则; RULINGS W1–W13).

Unit: 斤 (jin), counted for every player separately (W2–W4).  A loser owes

* self-draw 自摸 (W5), and the discarder 点炮 (W6):  ``2^(jin_loser + jin_winner)``         (W1)
* every other player on a discard, 陪炮 (W6):        ``2^(jin_loser + jin_winner - 1)``,
  nothing when his own jin is 0 (option ``genpi`` 跟皮 counts that 0 as 1)

then 封顶 ``cap`` (W7), 小金鼎/金鼎 when two or three paying losers reached it (W8),
漂 on top (W9), and 包胡 (W11).  抢杠胡: the robbed player alone pays one cap + 漂 (W10).
A player's jin come from the facts, or from an explicit ``fans``/``jin`` total (G5).
Amounts are plain ints, worked out loser by loser; every payment carries its steps (the step
makers of :mod:`settle.core.machinery`, which keep the steps that recur), and the words are in
:mod:`settle.rules.wuxue.messages`.
"""

from __future__ import annotations

from typing import Any

from settle import core
from settle.core import ScoreItem, Settlement, Step, Transfer
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
from settle.rules.wuxue.liability import liable_player
from settle.rules.wuxue.messages import CATALOG
from settle.rules.wuxue.model import WuxueHand, WuxuePlayer, WuxueWin
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

WINNER_ITEMS: dict[str, ScoreItem] = {k: (k, p.zh, p.value) for k, p in PATTERNS.items() if p.kind != "implied"}
"""Fan key -> the winner's item (key, label, 斤) (W2); an implied fan (抢杠胡, G10) has none."""
OPEN_ITEM: ScoreItem = ("opens", "开口", 1)
"""W4: 开口 1 斤 for a loser with any open."""
KONG_ITEMS: dict[tuple[str, int], ScoreItem] = {
    (kind, n): (kind, k.zh if n == 1 else f"{k.zh}×{n}", n * k.value)
    for kind, k in KONGS.items() for n in range(1, k.limit + 1)
}
"""(kong kind, count) -> the item (key, label, 斤) (W3), for every count within the kind's limit."""
BIG = frozenset(k for k, p in PATTERNS.items() if p.kind == "big")
"""The big hands (W2)."""
IMPLIED = frozenset(k for k, p in PATTERNS.items() if p.kind == "implied")
"""Fans implied by ``by: robbed_kong`` (G10)."""
OWES = {"self_draw_owes": ("W5", 0), "discarder_owes": ("W6", 0), "peipao_owes": ("W6", 1),
        "peipao_genpi_owes": ("W6", 1)}
"""The formula steps of W5/W6: kind -> (ruling, the ``-1`` of 陪炮)."""
DRAW = Step("W9, W13", "draw", {})
NO_BIG_HAND = Step("W2", "no_big_hand", {})
_FORMULAS: dict[tuple[str, int, int, bool], Step] = {}
_BIG_HANDS: dict[tuple[str, ...], Step] = {}
_PIAO: dict[tuple[int, int, bool, int], Step] = {}


# --- jin -----------------------------------------------------------------------------------------


_JIN: dict[Any, tuple[int, Step]] = {}
"""A player's facts (the winner's: with the items named) -> his 斤 and their step."""


def count_jin(hand: WuxueHand, win: WuxueWin) -> tuple[dict[str, int], dict[str, Step]]:
    """Every player's 斤 for ``win`` (the hand's win), in seat order, and the ``tally`` step of each:
    own kongs (W3), plus the named items for the winner (W2) or 开口 1 for a loser with any open
    (W4); or the total stated in ``fans``/``jin`` (G5).  The 斤 of the same facts are kept."""
    return _count_jin(hand.players, hand.fans, win.winner, win.fans)


def _count_jin(players: dict[str, WuxuePlayer], stated: dict[str, int] | None, winner: str,
               fans: list[str]) -> tuple[dict[str, int], dict[str, Step]]:
    """:func:`count_jin` on the values read (``fans``: the items the win names)."""
    totals: dict[str, int] = {}
    steps: dict[str, Step] = {}
    for name, player in players.items():
        if stated and name in stated:
            total = totals[name] = stated[name]
            steps[name] = stated_step(total)
            continue
        kongs = player.kongs
        if name == winner:
            key: Any = tuple(fans)
        else:  # W4: once for any number of opens; the winner never gets it
            key = bool(player.opens)
        if kongs:
            key = (key, *kongs.items())
        found = _JIN.get(key)
        if found is None:
            if name == winner:
                items = [WINNER_ITEMS[k] for k in fans if k not in IMPLIED]
            else:
                items = [OPEN_ITEM] if player.open_count else []
            _kong_items(player, items)
            step = tally_step(tuple(items))
            found = kept(_JIN, key, (step.values["total"], step))
        totals[name], steps[name] = found
    return totals, steps


def _kong_items(player: WuxuePlayer, items: list[ScoreItem]) -> None:
    for kind, n in player.kongs.items():
        if n:
            item = KONG_ITEMS.get((kind, n))
            if item is None:  # past the kind's limit: refused by the checks, worded all the same
                kong = KONGS[kind]
                item = (kind, f"{kong.zh}×{n}", n * kong.value)
            items.append(item)


# --- scoring -------------------------------------------------------------------------------------


_Read = tuple[int, bool, int, int, bool, int, int]
"""What scoring reads of a hand's options: ``cap``, ``genpi``, ``piao_per_loser``, ``piao``,
``piao_both_sides``, ``small_golden``, ``golden``."""
_LAST_OPTIONS: list[Any] = [None, None]
"""The options model of the last hand and its :data:`_Read` (a batch repeats one options model,
the shared default, hand after hand)."""


def _read_options(opts: WuxueOptions) -> _Read:
    last = _LAST_OPTIONS
    if opts is last[0]:
        read: _Read = last[1]
        return read
    read = (opts.cap, opts.genpi, opts.piao_per_loser, opts.piao, opts.piao_both_sides, opts.small_golden,
            opts.golden)
    last[0], last[1] = opts, read
    return read


def settle(hand: WuxueHand) -> Settlement:
    """Settle a checked Wuxue hand: a 荒庄 draw (no payments, no 漂; W9, W13) or a win (W1–W11)."""
    win = hand.win
    if win is None:
        return _result(hand, None, [], {}, {}, hand.dealer, [DRAW])
    win = single_win(win)
    # Each attribute of the models read once (a model's attribute read costs more than a variable's).
    players = hand.players
    winner, by, fans = win.winner, win.by, win.fans
    jin, jin_steps = _count_jin(players, hand.fans, winner, fans)
    opts = hand.options
    if by == "robbed_kong":
        return _robbed(hand, win, jin, jin_steps, opts)
    read = _read_options(opts)
    limit = read[0]
    names = list(jin)
    losers, amounts, formulas, reasons = _owed_all(names, winner, by == "self_draw", win.from_, read[1], jin,
                                                   limit)
    # W8 小金鼎/金鼎 for each capped paying loser (W7: reached the cap, G13) at a table of len(names).
    capped = 0
    for amount in amounts:
        if amount >= limit:
            capped += 1
    level = golden_level(opts, len(names), capped) if capped > 1 else None
    if level is not None:
        golden = read[5] if level == "small" else read[6]
        golden_step = _golden_step(level, golden, capped, len(names))
        golden_mark = GOLDEN_MARKS[level]
        reasons.append(golden_step)
    piao = read[2]
    liable, reason = liable_player(hand, win)
    transfers = []
    for loser, amount, formula in zip(losers, amounts, formulas, strict=True):
        mark: str | None = None
        if amount >= limit:  # W7 封顶
            cap = cap_step(amount, limit, "W7", "封顶")
            if level is not None:
                steps: tuple[Step, ...] = (formula, cap, golden_step)
                amount, mark = golden, golden_mark
            else:
                steps = (formula, cap)
                amount, mark = limit, "capped"
        else:
            steps = (formula,)
        if piao:
            amount += piao
            steps = (*steps, _piao_step(read, piao, amount))
        payer = loser
        if reason is not None and liable is not None:  # W11 包胡: the liable player pays every debt
            payer = liable
            if loser != liable:
                steps = (*steps, share_paid_step(loser, liable, reason))
        if amount:
            transfers.append(Transfer(payer, winner, amount, steps, mark, CATALOG))
    if reason is None or liable is None:
        liable_rule = None
    else:
        reasons.append(pays_for_everyone_step(liable, reason))
        liable_rule = reason.rule
    seats = tuple(names)
    return _result(hand, win, transfers, jin, jin_steps, winner, reasons, liable, liable_rule, seats,
                   roles_for(seats, hand.dealer, (winner, win.from_, by), liable, None))


def _owed_all(names: list[str], winner: str, self_draw: bool, source: str | None, genpi: bool,
              jin: dict[str, int], limit: int) -> tuple[list[str], list[int], list[Step], list[Step]]:
    """W1, W5, W6: the paying losers in seat order after the winner, what each owes before caps and
    its formula step; the reasons say which 陪炮 players pay nothing (a 0-斤 陪炮 player without 跟皮).
    ``source``: the discarder; ``genpi``: option 跟皮."""
    b = jin[winner]
    losers: list[str] = []
    amounts: list[int] = []
    formulas: list[Step] = []
    reasons: list[Step] = []
    for loser in core.seats_after(names, winner):
        a = jin[loser]
        if self_draw:
            kind = "self_draw_owes"
        elif loser == source:
            kind = "discarder_owes"
        elif a:
            kind = "peipao_owes"
        elif genpi:
            a, kind = 1, "peipao_genpi_owes"
        else:
            reasons.append(_nothing_step(loser))
            continue
        rule, minus = OWES[kind]
        amount = 2 ** (a + b - minus)
        # The plain value is shown only when no cap step will show it.
        shown = amount < limit
        key = (kind, a, b, shown)
        formula = _FORMULAS.get(key)
        if formula is None:
            formula = kept(_FORMULAS, key, Step(rule, kind, {"power": power_step(1, a, b, minus=minus),
                                                             "amount": amount, "shown": shown}))
        losers.append(loser)
        amounts.append(amount)
        formulas.append(formula)
    return losers, amounts, formulas, reasons


_NOTHING: dict[str, Step] = {}
_GOLDEN_STEPS: dict[tuple[str, int, int, int], Step] = {}


def _nothing_step(loser: str) -> Step:
    """W6: ``loser``, a 陪炮 player with 0 斤 and no 跟皮, pays nothing."""
    step = _NOTHING.get(loser)
    if step is None:
        step = kept(_NOTHING, loser, Step("W6", "peipao_nothing", {"loser": loser}))
    return step


def _golden_step(level: str, amount: int, capped: int, players: int) -> Step:
    """W8: ``capped`` paying losers reached the cap at a table of ``players``: ``level`` pays ``amount``."""
    key = (level, amount, capped, players)
    step = _GOLDEN_STEPS.get(key)
    if step is None:
        step = kept(_GOLDEN_STEPS, key, Step("W8", "golden", {"level": level, "amount": amount, "capped": capped,
                                                              "players": players}))
    return step


def golden_level(opts: WuxueOptions, players: int, capped: int) -> str | None:
    """W8: ``small`` (小金鼎), ``full`` (金鼎) or None for ``capped`` paying losers at a table of ``players``."""
    if (players, capped) == (3, 2):
        return opts.three_player_golden
    return GOLDEN.get((players, capped))


def _piao_step(read: _Read, points: int, total: int) -> Step:
    """W9: 漂 ``points`` on top of a paying loser's amount, never capped, making ``total``
    (``read``: the options read, :data:`_Read`)."""
    piao, both = read[3], read[4]
    key = (points, piao, both, total)
    step = _PIAO.get(key)
    if step is None:
        step = kept(_PIAO, key, Step("W9", "piao", {"points": points, "piao": piao, "both_sides": both,
                                                    "total": total}))
    return step


def _robbed(hand: WuxueHand, win: WuxueWin, jin: dict[str, int], jin_steps: dict[str, Step],
            opts: WuxueOptions) -> Settlement:
    """W10 抢杠胡: the robbed player alone pays one cap, plus 漂; no golden cap, no 包胡."""
    read = _read_options(opts)
    limit = read[0]
    steps: tuple[Step, ...] = (Step("W10", "robbed_pays_cap", {"player": win.from_, "cap": limit}),)
    amount, piao = limit, read[2]
    if piao:
        amount += piao
        steps = (*steps, _piao_step(read, piao, amount))
    note = Step("W10, G11", "robbed_note", {"player": win.from_, "cap": limit})
    transfers = [Transfer(win.the_discarder, win.winner, amount, steps, "capped", CATALOG)]
    return _result(hand, win, transfers, jin, jin_steps, win.winner, [note, *implied_reasons(win.fans)])


def implied_reasons(fans: list[str]) -> list[Step]:
    """G10: a named ``qiangganghu`` adds nothing to ``by: robbed_kong``, which already scores it."""
    return [Step("G10", "implied", {"fan": k}) for k in fans if k in IMPLIED]


def _kind(win: WuxueWin) -> Step:
    """The note of the win's big hands (W2), or that it has none."""
    big = tuple([k for k in win.fans if k in BIG])
    if not big:
        return NO_BIG_HAND
    step = _BIG_HANDS.get(big)
    if step is None:
        step = kept(_BIG_HANDS, big, Step("W2", "big_hands", {"fans": big}))
    return step


def _result(hand: WuxueHand, win: WuxueWin | None, transfers: list[Transfer], jin: dict[str, int],
            jin_steps: dict[str, Step], next_dealer: str | None, reasons: list[Step], liable: str | None = None,
            liable_rule: str | None = None, players: tuple[str, ...] | None = None,
            roles: dict[str, tuple[str, ...]] | None = None) -> Settlement:
    if win is not None:  # the hand's win: its big hands first
        reasons = [_kind(win), *reasons]
    return core.settlement(
        hand, "wuxue", transfers, next_dealer, unit="斤", catalog=CATALOG, scores=jin, score_steps=jin_steps,
        reasons=reasons, liable=liable, liable_rule=liable_rule, players=players, roles=roles,
    )
