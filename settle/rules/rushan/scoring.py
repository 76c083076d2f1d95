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
from settle.core.machinery import ZEROS, cap_step, kept, roles_for, turn_after, zeros
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


_Paid = tuple[int, tuple[Step, ...], str | None]
"""A debt as paid: the amount, its steps and the cap mark."""
_Debts = dict[tuple[int, int, bool, int], _Paid]
"""The debts of one shape (:func:`_debt`) by (winner's fish, loser's fish, ``cap_includes_fish``, cap)."""
DEBTS_KEPT = 64
"""How many debts the table of one shape holds (18 fish and option values under one cap): shapes are
kept by the thousand, and the cap is an option that may differ from hand to hand."""
_SHAPES: dict[tuple[tuple[str, ...], bool, bool, int], tuple[Points, _Debts]] = {}
"""A win's shape -> its :class:`Points` and the table of its debts."""


def count_points(hand: RushanHand, win: RushanWin) -> Points:
    """The winner's base, counted multipliers and kongs (R1–R4; R3b for 门清/一条龙), kept per shape:
    the items named, option ``menqing_yitiaolong``, whether the win is 门清, the winner's kongs."""
    return _count_points(hand, win, win.fans, hand.options.menqing_yitiaolong, hand.players[win.winner].kongs)[0]


def _count_points(hand: RushanHand, win: RushanWin, fans: list[str], option: bool,
                  kongs: dict[str, int]) -> tuple[Points, _Debts]:
    """:func:`count_points` with the fans named, the option and the winner's kongs read, with the table
    of the debts of that shape (:func:`_debt`)."""
    key = (tuple(fans), option, option and is_menqing(hand, win), sum(kongs.values()) if kongs else 0)
    found = _SHAPES.get(key)
    if found is None:
        found = kept(_SHAPES, key, (_points(*key), {}))
    return found


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


_Read = tuple[bool, bool, int, tuple[Step, ...]]
"""What scoring reads of a hand's options: ``menqing_yitiaolong``, ``cap_includes_fish``, ``cap``,
and the note of the options changed from their defaults (none, or one step)."""
_LAST_READ: tuple[Any, Any] = (None, None)
"""The options model of the last hand and its :data:`_Read` (replaced whole, so that a reader never
sees an options model with another one's values)."""


def _read_options(opts: RushanOptions) -> _Read:
    global _LAST_READ
    last = _LAST_READ
    if opts is last[0]:
        read: _Read = last[1]
        return read
    changed = changed_options(opts)
    read = (opts.menqing_yitiaolong, opts.cap_includes_fish, opts.cap,
            (Step("", "options", {"changed": changed}),) if changed else ())
    _LAST_READ = (opts, read)
    return read


def settle(hand: RushanHand) -> Settlement:
    """Settle a checked Rushan hand: one or several wins (R4–R8), or a 荒庄 (R10)."""
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes, read faster so)
    given, players, opts = fields["win"], fields["players"], fields["options"]
    last = _LAST_READ
    read: _Read = last[1] if opts is last[0] else _read_options(opts)
    seats = tuple(players)
    dealer = fields["dealer"]
    if given is None or (type(given) is list and not given):  # an empty list: refused by the checks
        return _draw(hand, fields, players, seats, dealer, read)
    wins: list[RushanWin] = given if type(given) is list else [given]
    option, inside, limit = read[0], read[1], read[2]
    points: dict[str, Points] = {}
    scores: dict[str, int] = {}
    score_steps: dict[str, Step] = {}
    zero = ZEROS.get(seats)
    net = zeros(seats) if zero is None else zero.copy()
    transfers = []
    # Each win's facts read once (a model's attribute read costs more than a variable's).
    facts = []
    # With one winner each loser owes him alone, paid at once; several winners' debts (R8) are grouped.
    debts: list[_Debt] | None = None if len(wins) == 1 else []
    for win in wins:
        values = win.__dict__
        winner, source, by = values["winner"], values["from_"], values["by"]
        facts.append((winner, source, by))
        winner_player = players[winner]
        p, table = _count_points(hand, win, values["fans"], option, winner_player.kongs)
        points[winner] = p
        scores[winner], score_steps[winner] = p.hand, p.detail
        fish = winner_player.fish
        owed_by = None  # the fish of the loser whose debt is below: a loser with the same fish owes the same
        # R5: on a self-draw every other player owes, else only the discarder (G6)
        for loser in turn_after(seats, winner) if by == "self_draw" else \
                (win.the_discarder if source is None else source,):
            if debts is None:
                loser_fish = players[loser].fish
                if loser_fish != owed_by:
                    amount, steps, mark = _single(inside, limit, loser_fish, fish, p, table)
                    owed_by = loser_fish
                if amount:
                    transfers.append(Transfer(loser, winner, amount, steps, mark, CATALOG))
                    net[loser] -= amount
                    net[winner] += amount
            else:
                debts.append((loser, winner, fish, p, table))
    if debts is not None:  # R7, R8: one loser's several debts share his cap
        for loser, winner, (amount, steps, mark) in _grouped(players, inside, limit, seats, debts):
            if amount:
                transfers.append(Transfer(loser, winner, amount, steps, mark, CATALOG))
                net[loser] -= amount
                net[winner] += amount
    # The roles' wins as roles_of reads them: one win's facts, or a tuple of them (R8).
    return Settlement("rushan", seats, net, tuple(transfers), _next_dealer(hand, facts, seats, dealer),
                      roles_for(seats, dealer, tuple(facts) if type(given) is list else facts[0], None, None),
                      scores, score_steps, "分",
                      _win_reasons(players, facts, points, read[3]), None, None, fields["id"], None, None, CATALOG)


_Debt = tuple[str, str, int, Points, _Debts]
"""A debt before R6/R7: the loser, the winner, the winner's fish, the winner's points and the table
of their debts."""


def _single(inside: bool, limit: int, fl: int, fw: int, p: Points, table: _Debts) -> _Paid:
    """The debt of a loser with ``fl`` fish who owes one winner only (with ``fw`` fish and the points
    ``p``), as paid (:func:`_debt`, kept in ``table``, the table of the winner's shape)."""
    key = (fw, fl, inside, limit)
    found = table.get(key)
    if found is None:
        found = kept(table, key, _debt(p, fw, fl, inside, limit), DEBTS_KEPT)
    return found


def _grouped(players: dict[str, RushanPlayer], inside: bool, limit: int, seats: Sequence[str],
             debts: list[_Debt]) -> list[tuple[str, str, _Paid]]:
    """R7, R8: the debts as paid, grouped by loser in order of appearance: a loser's only debt
    (:func:`_single`), or his several debts sharing his cap (:func:`_split`)."""
    groups: dict[str, list[_Debt]] = {}
    for debt in debts:
        groups.setdefault(debt[0], []).append(debt)
    out: list[tuple[str, str, _Paid]] = []
    for group in groups.values():
        if len(group) == 1:
            loser, winner, fw, p, table = group[0]
            out.append((loser, winner, _single(inside, limit, players[loser].fish, fw, p, table)))
        else:
            out += _split(players, limit, inside, seats, group)
    return out


def _debt(p: Points, fw: int, fl: int, inside: bool, limit: int) -> _Paid:
    """One loser's debt to a winner of shape ``p``, the only debt the loser has (R5–R7): the amount,
    the steps and the cap mark.  R6 飘鱼 ``fw + fl`` (the winner's and the loser's fish) inside the
    cap (``inside``) or on top of it; R7 the cap ``limit`` when reached (G13)."""
    amount, steps = p.owed, [p.formula]
    fish = fw + fl
    if inside and fish:
        steps.append(_fish_step(fw, fl, True))
        amount += fish
    mark = None
    if amount >= limit:
        steps.append(cap_step(amount, limit, "R7"))
        amount, mark = limit, "capped"
    if not inside and fish:
        steps.append(_fish_step(fw, fl, False))
        amount += fish
    return amount, tuple(steps), mark


def _fish_step(fw: int, fl: int, inside: bool) -> Step:
    """R6 飘鱼: the winner's fish ``fw`` and the loser's ``fl``, ``inside`` the cap or not."""
    return FISH.get((fw, fl, inside)) or Step("R6", "fish", {"winner_fish": fw, "loser_fish": fl, "inside": inside})


def _split(players: dict[str, RushanPlayer], limit: int, inside: bool, seats: Sequence[str],
           group: list[_Debt]) -> list[tuple[str, str, _Paid]]:
    """R6–R8 for one loser owing several winners (一炮多响; ``group``: his debts in order): 飘鱼 inside
    the cap (``inside``), then the cap ``limit`` split by what each was owed when the debts together
    exceed it, then 飘鱼 on top.  Each debt as (loser, winner, (amount, steps, mark))."""
    loser = group[0][0]
    amounts = []
    steps: list[list[Step]] = []
    for _, winner, _, p, _ in group:
        amount, debt_steps = p.owed, [p.formula]
        if inside:
            fw, fl = players[winner].fish, players[loser].fish
            if fw + fl:
                debt_steps.append(_fish_step(fw, fl, True))
                amount += fw + fl
        amounts.append(amount)
        steps.append(debt_steps)
    marks: list[str | None] = [None] * len(group)
    total = sum(amounts)
    if total > limit:
        owed = {debt[1]: amount for debt, amount in zip(group, amounts, strict=True)}
        order = [n for n in core.seats_after(seats, loser) if n in owed]  # ties: nearer after the loser
        shares = core.split_largest_remainder(limit, [(n, owed[n]) for n in order])
        # Each winner named beside his amount: a bare ratio (6:5) on every row does not say whose share is whose.
        rounded = not all(limit * amount % total == 0 for amount in owed.values())
        split = {"loser": loser, "owed": tuple((n, owed[n]) for n in order), "total": total, "limit": limit,
                 "shares": tuple((n, shares[n]) for n in order), "rounded": rounded}
        for i, debt in enumerate(group):
            steps[i].append(Step("R7", "split", {"amount": amounts[i], **split}))
            amounts[i], marks[i] = shares[debt[1]], "capped"
    out = []
    for i, (_, winner, _, _, _) in enumerate(group):
        amount = amounts[i]
        if not inside:
            fw, fl = players[winner].fish, players[loser].fish
            if fw + fl:
                steps[i].append(_fish_step(fw, fl, False))
                amount += fw + fl
        out.append((loser, winner, (amount, tuple(steps[i]), marks[i])))
    return out


def next_dealer(hand: RushanHand) -> str:
    """R10: the dealer stays if he wins or on a 荒庄 with no kongs; otherwise the next player deals."""
    return _next_dealer(hand, [(w.winner, w.from_, w.by) for w in win_list(hand.win)], tuple(hand.players),
                        hand.dealer)


def _next_dealer(hand: RushanHand, facts: Sequence[tuple[str, str | None, str]], names: Sequence[str],
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


_DRAWS: dict[tuple[Any, ...], Step] = {}
"""The R10 note of a 荒庄 by its kongs and the next dealer (or the dealer), kept."""


def _draw(hand: RushanHand, fields: dict[str, Any], players: dict[str, RushanPlayer], seats: tuple[str, ...],
          dealer: str | None, read: _Read) -> Settlement:
    """R10 荒庄: no payments; the dealer stays unless someone has a kong."""
    next_dealer = _next_dealer(hand, (), seats, dealer)
    kongs = tuple([(n, k) for n, k in [(n, _kongs(p)) for n, p in players.items()] if k])
    key: Any = (kongs, next_dealer) if kongs else dealer
    step = _DRAWS.get(key)
    if step is None:
        step = kept(_DRAWS, key, Step("R10", "draw_kongs", {"kongs": kongs, "next_dealer": next_dealer}) if kongs
                    else Step("R10", "draw_no_kongs", {"dealer": dealer}))
    return Settlement("rushan", seats, zeros(seats), (), next_dealer,
                      roles_for(seats, dealer, None, None, None), {}, {}, "分", (step, *read[3]), None, None,
                      fields["id"], None, None, CATALOG)


_OTHERS: dict[tuple[tuple[str, int], ...], Step] = {}
"""The R4 note of the kongs that score nothing, by the players and their kongs, kept."""


def _win_reasons(players: dict[str, RushanPlayer], facts: list[tuple[str, str | None, str]],
                 points: dict[str, Points], options: tuple[Step, ...]) -> tuple[Step, ...]:
    """The rule applications and facts behind the amounts (G8): who pays (R5), 抢杠 named (G10),
    门清/一条龙 (R3b), the kongs that score nothing (R4), and then ``options`` (the note of the options
    changed, or nothing).  ``facts``: each win's (winner, from, by)."""
    winner, source, by = facts[0]
    reasons = [_who_pays(by, winner, source)]
    for winner, _, _ in facts:
        implied = points[winner].implied
        if implied:
            reasons += _fan_steps("G10, R2", "implied", implied, winner)
    for winner, p in points.items():
        if not (p.auto or p.uncounted):  # R3b concerns 门清/一条龙 only
            continue
        reasons += _fan_steps("R3b", "counted_unnamed", p.auto, winner)
        reasons += _fan_steps("R3b", "named_uncounted", p.uncounted, winner)
    others = []
    for name, player in players.items():
        kongs = player.kongs
        if kongs and name not in points:
            count = sum(kongs.values())
            if count:
                others.append((name, count))
    if others:
        key = tuple(others)
        step = _OTHERS.get(key)
        if step is None:
            step = kept(_OTHERS, key, Step("R4", "others_kongs", {"kongs": key}))
        reasons.append(step)
    return (*reasons, *options)


def _fan_steps(rule: str, kind: str, fans: Sequence[str], winner: str) -> list[Step]:
    """A step of ``kind`` under ``rule`` for each of ``fans`` of ``winner`` (apart from :func:`_win_reasons`
    so that it makes no cell for ``winner`` at every call, Python 3.11)."""
    return [Step(rule, kind, {"fan": k, "winner": winner}) for k in fans]


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


_LAST_OPTIONS: tuple[Any, tuple[tuple[str, Any], ...]] = (None, ())


def changed_options(options: RushanOptions) -> tuple[tuple[str, Any], ...]:
    """``(key, value)`` of every option that differs from its default, as the hand file stated it.
    A batch repeats one options model (the shared default) hand after hand: the last one's answer is
    kept by identity, others by value (options models are frozen and hashable)."""
    global _LAST_OPTIONS
    last = _LAST_OPTIONS
    if options is not last[0]:
        last = _LAST_OPTIONS = (options, _changed_options(options))
    return last[1]


@functools.lru_cache(maxsize=256)
def _changed_options(options: RushanOptions) -> tuple[tuple[str, Any], ...]:
    out = []
    for key, field in RushanOptions.model_fields.items():
        value = getattr(options, key)
        if value != field.default:
            out.append((key, value))
    return tuple(out)
