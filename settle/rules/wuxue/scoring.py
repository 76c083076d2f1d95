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

from settle.core import ScoreItem, Settlement, Step, Transfer
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
    turn_after,
    zeros,
)
from settle.model import single_win
from settle.rules.wuxue.liability import liable_of
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
    return _count_jin(hand.players, hand.fans, win.winner, tuple(win.fans))


def _count_jin(players: dict[str, WuxuePlayer], stated: dict[str, int] | None, winner: str,
               fans: tuple[str, ...]) -> tuple[dict[str, int], dict[str, Step]]:
    """:func:`count_jin` on the values read (``fans``: the items the win names)."""
    totals: dict[str, int] = {}
    steps: dict[str, Step] = {}
    for name, player in players.items():
        if stated and name in stated:
            total = stated[name]
            found = STATED_TALLIES.get(total)
            if found is None:
                found = stated_tally(total)
        else:
            kongs = player.kongs
            if name == winner:
                key: Any = fans
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


_Read = tuple[int, bool, int, int, bool, int, int, str]
"""What scoring reads of a hand's options: ``cap``, ``genpi``, ``piao_per_loser``, ``piao``,
``piao_both_sides``, ``small_golden``, ``golden``, ``three_player_golden``."""
_LAST_OPTIONS: tuple[Any, Any] = (None, None)
"""The options model of the last hand and its :data:`_Read` (a batch repeats one options model,
the shared default, hand after hand; replaced whole, so that a reader never sees an options model
with another one's values)."""


def _read_options(opts: WuxueOptions) -> _Read:
    global _LAST_OPTIONS
    last = _LAST_OPTIONS
    if opts is last[0]:
        read: _Read = last[1]
        return read
    read = (opts.cap, opts.genpi, opts.piao_per_loser, opts.piao, opts.piao_both_sides, opts.small_golden,
            opts.golden, opts.three_player_golden)
    _LAST_OPTIONS = (opts, read)
    return read


_Named = tuple[Step, tuple[Step, ...]]
"""What a win's named fans decide: the note of its big hands (W2), and the G10 notes of the named
fans that ``by: robbed_kong`` implies (for a 抢杠胡, W10)."""
_NAMED: dict[tuple[str, ...], _Named] = {}
"""A win's fans -> its :data:`_Named`, kept."""


def _named(fans: tuple[str, ...]) -> _Named:
    found = _NAMED.get(fans)
    if found is None:
        found = kept(_NAMED, fans, (_kind(fans), tuple(implied_reasons(list(fans)))))
    return found


def settle(hand: WuxueHand) -> Settlement:
    """Settle a checked Wuxue hand: a 荒庄 draw (no payments, no 漂; W9, W13) or a win (W1–W11)."""
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes, read faster so)
    win = fields["win"]
    if win is None:
        seated = tuple(fields["players"])
        dealer = fields["dealer"]
        return Settlement("wuxue", seated, zeros(seated), (), dealer,
                          roles_for(seated, dealer, None, None, None), {}, {}, "斤", (DRAW,), None, None,
                          fields["id"], None, None, CATALOG)
    if type(win) is not WuxueWin:
        win = single_win(win)
    # Each value of the models read once (a model's attribute read costs more than a variable's).
    players = fields["players"]
    facts = win.__dict__
    winner, by, source = facts["winner"], facts["by"], facts["from_"]
    fans = tuple(facts["fans"])
    named = _NAMED.get(fans)
    if named is None:
        named = _named(fans)
    kind, implied = named
    jin, jin_steps = _count_jin(players, fields["fans"], winner, fans)
    opts = fields["options"]
    last = _LAST_OPTIONS
    read: _Read = last[1] if opts is last[0] else _read_options(opts)
    seats = tuple(jin)
    if by == "robbed_kong":
        return _robbed(fields, win, winner, source, jin, jin_steps, read, seats, kind, implied)
    limit, genpi, piao = read[0], read[1], read[2]
    self_draw = by == "self_draw"
    b = jin[winner]
    # W1, W5, W6: the paying losers in seat order after the winner, and what each owes before caps.
    table_key = (b, limit)
    table = _OWED.get(table_key)
    if table is None:
        table = kept(_OWED, table_key, {}, TABLES_KEPT)
    owing: list[tuple[str, _Owed]] = []
    reasons: tuple[Step, ...] = (kind,)
    capped = 0
    for loser in turn_after(seats, winner):
        a = jin[loser]
        if self_draw:
            owes = "self_draw_owes"
        elif loser == source:
            owes = "discarder_owes"
        elif a:
            owes = "peipao_owes"
        elif genpi:
            a, owes = 1, "peipao_genpi_owes"
        else:  # a 0-斤 陪炮 player without 跟皮 pays nothing (W6)
            reasons = (*reasons, _nothing_step(loser))
            continue
        key = (owes, a)
        found = table.get(key)
        if found is None:
            found = kept(table, key, _owed(owes, a, b, limit), TABLES_KEPT)
        if found[3]:
            capped += 1
        owing.append((loser, found))
    # W8 小金鼎/金鼎 for each capped paying loser (W7: reached the cap, G13) at a table of len(seats).
    level = _golden_level(read, len(seats), capped) if capped > 1 else None
    if level is not None:
        golden = read[5] if level == "small" else read[6]
        golden_step = _golden_step(level, golden, capped, len(seats))
        golden_mark = GOLDEN_MARKS[level]
        reasons = (*reasons, golden_step)
    liable, reason = liable_of(hand, win, facts["liable"], players, winner, by, fans)
    payer = None if reason is None else liable  # W11 包胡: the liable player pays every debt
    zero = ZEROS.get(seats)
    net = zeros(seats) if zero is None else zero.copy()
    won = 0
    transfers = []
    for loser, (amount, steps, mark, is_capped) in owing:
        if is_capped and level is not None:
            steps = (*steps, golden_step)
            amount, mark = golden, golden_mark
        if piao:
            amount += piao
            steps = (*steps, _piao_step(read, piao, amount))
        if payer is None:
            pays = loser
            net[loser] = -amount  # each loser pays once
        else:
            pays = payer
            net[payer] -= amount
            if loser != payer:
                steps = (*steps, share_paid_step(loser, payer, reason))  # type: ignore[arg-type]
        if amount:
            transfers.append(Transfer(pays, winner, amount, steps, mark, CATALOG))
            won += amount
    net[winner] += won
    if payer is None:
        liable_rule = None
    else:
        reasons = (*reasons, pays_for_everyone_step(payer, reason))  # type: ignore[arg-type]
        liable_rule = reason.rule  # type: ignore[union-attr]
    return Settlement("wuxue", seats, net, tuple(transfers), winner,
                      roles_for(seats, fields["dealer"], (winner, source, by), liable, None), jin, jin_steps, "斤",
                      reasons, None, liable, fields["id"], liable_rule, None, CATALOG)


_Owed = tuple[int, tuple[Step, ...], str | None, bool]
"""What a paying loser owes before 金鼎 and 漂 (:func:`_owed`): the points, the steps (the formula,
and the cap step when capped), the cap mark, and whether the cap was reached (W7, G13)."""
_OWED: dict[tuple[int, int], dict[tuple[str, int], _Owed]] = {}
"""``(斤 of the winner, cap)`` -> ``(formula kind, 斤 of the loser)`` -> the :data:`_Owed`, kept."""


def _owed(kind: str, a: int, b: int, limit: int) -> _Owed:
    """W1, W5, W6: a loser with ``a`` 斤 owes a winner with ``b`` ``2^(a+b)``, or ``2^(a+b-1)`` as a
    陪炮 player (``kind``: a key of :data:`OWES`); then 封顶 at ``limit`` when reached (W7, G13)."""
    rule, minus = OWES[kind]
    amount = 2 ** (a + b - minus)
    # The plain value is shown only when no cap step will show it.
    shown = amount < limit
    formula_key = (kind, a, b, shown)
    formula = _FORMULAS.get(formula_key)
    if formula is None:
        formula = kept(_FORMULAS, formula_key, Step(rule, kind, {"power": power_step(1, a, b, minus=minus),
                                                                 "amount": amount, "shown": shown}))
    if shown:
        return amount, (formula,), None, False
    return limit, (formula, cap_step(amount, limit, "W7", "封顶")), "capped", True


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
    return _golden_level(_read_options(opts), players, capped)


def _golden_level(read: _Read, players: int, capped: int) -> str | None:
    """:func:`golden_level` with the options read (:data:`_Read`)."""
    if players == 3 and capped == 2:
        return read[7]
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


_ROBBED: dict[tuple[str | None, int, int, int, bool], tuple[tuple[Step, ...], Step]] = {}
"""``(robbed player, cap, 漂 per loser, piao, piao_both_sides)`` -> the steps of his payment and the
note (W10), kept."""


def _robbed(fields: dict[str, Any], win: WuxueWin, winner: str, source: str | None, jin: dict[str, int],
            jin_steps: dict[str, Step], read: _Read, seats: tuple[str, ...], kind: Step,
            implied: tuple[Step, ...]) -> Settlement:
    """W10 抢杠胡: the robbed player (``source``) alone pays one cap, plus 漂; no golden cap, no 包胡
    (``fields``: the hand's validated values; ``kind``: the note of the big hands, ``implied``: the
    G10 notes of the fans named)."""
    limit, piao = read[0], read[2]
    key = (source, limit, piao, read[3], read[4])
    found = _ROBBED.get(key)
    if found is None:
        steps: tuple[Step, ...] = (Step("W10", "robbed_pays_cap", {"player": source, "cap": limit}),)
        if piao:
            steps = (*steps, _piao_step(read, piao, limit + piao))
        found = kept(_ROBBED, key, (steps, Step("W10, G11", "robbed_note", {"player": source, "cap": limit})))
    steps, note = found
    amount = limit + piao
    payer = win.the_discarder  # TypeError without `from`
    net = zeros(seats)
    net[payer] -= amount
    net[winner] += amount
    return Settlement("wuxue", seats, net, (Transfer(payer, winner, amount, steps, "capped", CATALOG),), winner,
                      roles_for(seats, fields["dealer"], (winner, source, "robbed_kong"), None, None), jin, jin_steps,
                      "斤", (kind, note, *implied), None, None, fields["id"], None, None, CATALOG)


def implied_reasons(fans: list[str]) -> list[Step]:
    """G10: a named ``qiangganghu`` adds nothing to ``by: robbed_kong``, which already scores it."""
    return [Step("G10", "implied", {"fan": k}) for k in fans if k in IMPLIED]


def _kind(fans: tuple[str, ...]) -> Step:
    """The note of the big hands named (``fans``: the win's, W2), or that it has none."""
    big = tuple([k for k in fans if k in BIG])
    if not big:
        return NO_BIG_HAND
    step = _BIG_HANDS.get(big)
    if step is None:
        step = kept(_BIG_HANDS, big, Step("W2", "big_hands", {"fans": big}))
    return step
