"""The settlement steps every rule set shares, each leaving its step on the debt.

A region works out, for each paying loser, a :class:`~settle.core.settlement.Debt`: the amount
owed to a winner before caps, with the formula step that produced it.  Then:

1. :func:`cap` — 封顶: a loser pays at most the cap;
2. :func:`replace_amount` — golden caps (金顶/金鼎/光明顶) set a new amount;
3. :func:`add_extra` — 漂/飘鱼 paid on top, outside the cap;
4. :func:`redirect` — 包牌/承包: the liable player pays every debt (H7, W11);
5. :func:`to_transfers` — whole points, one transfer per debt, each with its steps.

The built-in regions compute their amounts on plain ints and build each payment's steps with the
step makers these functions use (:func:`cap_step`, :func:`share_paid_step`, :func:`power_step`,
:func:`tally_step`, :func:`pays_for_everyone_step`), then the :class:`Transfer` directly: no
:class:`Debt` per loser.  A step is an immutable record, so the step makers keep the steps they made
per shape and values (a bounded table, :data:`STEPS_KEPT`) and hand the same record to every hand
that needs it.  A region that has the seating and the win's facts at hand gives them to
:func:`settlement` (``players``, ``roles`` from :func:`roles_for`) rather than have them read again.

Also shared: :func:`split_largest_remainder` (H9, R7), :func:`flush_liability` (the flush
liability of H7 b and W11 b), seats in turn order (G1), roles, net.  Everything here is a pure
function of its arguments (no I/O, no text).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from settle.core.messages import SHARED
from settle.core.settlement import Amount, Debt, Forfeit, ScoreItem, Settlement, Transfer
from settle.core.steps import Step
from settle.core.text import Catalog

STEPS_KEPT = 4096
"""How many steps each table of :func:`kept` holds before it is emptied (steps recur across a batch:
``2^(1+2)``, a tally ``1 = 开口 1``, a cap at 400)."""


K = TypeVar("K")
"""What a table of :func:`kept` holds."""


TABLES_KEPT = 256
"""How many inner tables a table of tables holds (``kept(outer, key, {}, TABLES_KEPT)``), and how
many entries each inner table does: a bound on their product, the entries a region keeps in all."""


def kept(table: dict[Any, K], key: Any, step: K, most: int = STEPS_KEPT) -> K:
    """Keep ``step`` (a step, or what a region makes of recurring values) in ``table`` under ``key``
    (the values that make it) and return it; the table is emptied when it holds ``most`` entries
    (:data:`STEPS_KEPT`; :data:`TABLES_KEPT` for a table of tables and for each of its tables).  The
    caller looks ``key`` up first."""
    if len(table) >= most:
        table.clear()
    table[key] = step
    return step


_CAP_STEPS: dict[tuple[int, int, str, str], Step] = {}


def cap_step(amount: Amount, limit: int, rule: str, label: str = "") -> Step:
    """The step of 封顶 for an ``amount`` at or above ``limit``: ``cap_reached`` when it equals the
    limit (nothing taken off: "capped at" would say it was), else ``cap`` (G13).  ``rule`` is the
    ruling (``H5``), ``label`` the cap's Chinese name where the words show it (``封顶``)."""
    if type(amount) is int:
        key = (amount, limit, rule, label)
        step = _CAP_STEPS.get(key)
        if step is None:
            kind = "cap_reached" if amount == limit else "cap"
            step = kept(_CAP_STEPS, key, Step(rule, kind, {"amount": amount, "limit": limit, "label": label}))
        return step
    return Step(rule, "cap_reached" if amount == limit else "cap", {"amount": amount, "limit": limit, "label": label})


def cap(debt: Debt, limit: int, rule: str, label: str = "") -> Debt:
    """封顶: the debt becomes ``min(amount, limit)``; ``capped`` when it reached the limit (>=, G13).

    ``rule`` is the ruling (``H5``), ``label`` the cap's Chinese name where the words show it
    (``封顶``); the step is :func:`cap_step`'s.  Regions that need "exceeded" rather than "reached"
    (Wuhan 金顶, G13) compare the pre-cap amount themselves.
    """
    if debt.amount < limit:
        return debt
    return debt.then(limit, cap_step(debt.amount, limit, rule, label), capped=True, cap="capped")


def replace_amount(debt: Debt, amount: int, item: Step, mark: str) -> Debt:
    """A golden cap (金顶/金鼎/光明顶: ``mark`` small_golden, golden or bright) replaces the capped amount."""
    return debt.then(amount, item, cap=mark)


def add_extra(debt: Debt, points: int, item: Step) -> Debt:
    """漂/飘鱼: points added after caps, never capped (W9, R6)."""
    if points == 0:
        return debt
    return debt.then(debt.amount + points, item)


_SHARE_PAID_STEPS: dict[tuple[str, str, Step], Step] = {}
_PAYS_FOR_EVERYONE_STEPS: dict[tuple[str, Step], Step] = {}


def share_paid_step(loser: str, liable: str, reason: Step) -> Step:
    """包牌/承包: the step on ``loser``'s debt that ``liable`` pays it, for ``reason`` (H7, W11, G7)."""
    key = (loser, liable, reason)
    step = _SHARE_PAID_STEPS.get(key)
    if step is None:
        step = kept(_SHARE_PAID_STEPS, key,
                    Step(reason.rule, "share_paid", {"loser": loser, "liable": liable, "reason": reason}))
    return step


def pays_for_everyone_step(liable: str, reason: Step) -> Step:
    """包牌/承包: the note that ``liable`` pays every debt, for ``reason`` (H7, W11, G7)."""
    key = (liable, reason)
    step = _PAYS_FOR_EVERYONE_STEPS.get(key)
    if step is None:
        step = kept(_PAYS_FOR_EVERYONE_STEPS, key, Step("", "pays_for_everyone", {"liable": liable, "reason": reason}))
    return step


def redirect(debts: Iterable[Debt], liable: str, reason: Step) -> list[Debt]:
    """包牌/承包: the liable player pays every debt in full; the others pay nothing.

    ``reason`` is the step naming the rule and the fact that made the player liable (H7, W11, G7).
    """
    return [
        d if d.loser == liable else d.then(d.amount, share_paid_step(d.loser, liable, reason), payer=liable)
        for d in debts
    ]


def to_transfers(debts: Iterable[Debt], catalog: Catalog = SHARED) -> list[Transfer]:
    """One transfer per non-zero debt, in whole points, worded by ``catalog``.

    Raises ValueError if an amount is not whole (a rule-table bug, never user input).
    """
    out = []
    for d in debts:
        amount = d.amount
        points = amount if type(amount) is int else whole(amount)
        if points:
            out.append(Transfer(d.payer, d.winner, points, (d.formula, *d.steps), d.cap, catalog))
    return out


def net_of(players: Sequence[str], transfers: Iterable[Transfer],
           forfeit: Forfeit | None = None) -> dict[str, int]:
    """Each player's net: received minus paid (minus any forfeit)."""
    net = dict.fromkeys(players, 0)
    for t in transfers:
        amount = t.amount
        net[t.payer] -= amount
        net[t.payee] += amount
    if forfeit is not None:
        net[forfeit.payer] -= forfeit.amount
    return net


def settlement(hand: Any, region: str, transfers: Sequence[Transfer], next_dealer: str | None, *,
               unit: str, catalog: Catalog, scores: dict[str, int] | None = None,
               score_steps: dict[str, Step] | None = None, reasons: Sequence[Step] = (),
               liable: str | None = None, liable_rule: str | None = None,
               forfeit: Forfeit | None = None, players: tuple[str, ...] | None = None,
               roles: dict[str, tuple[str, ...]] | None = None) -> Settlement:
    """Assemble a :class:`Settlement` for ``hand`` (any region's ``Hand``): net and roles derived.

    ``players`` (the seating, as ``tuple(hand.players)``) and ``roles`` (:func:`roles_for`, a dict
    the settlement may keep) when the region has them at hand, else read from ``hand``."""
    if players is None:
        players = tuple(hand.players)  # the seating order (G1), as ``hand.names`` gives it
    return Settlement(
        region=region, players=players, id=hand.id,
        net=net_of(players, transfers, forfeit), transfers=tuple(transfers),
        next_dealer=next_dealer, roles=_roles_of(players, hand, liable) if roles is None else roles, unit=unit,
        scores=scores or {}, score_steps=score_steps or {}, reasons=tuple(reasons), forfeit=forfeit,
        liable=liable, liable_rule=liable_rule, catalog=catalog,
    )


_ROLES: dict[tuple[Any, ...], dict[str, tuple[str, ...]]] = {}


def roles_of(hand: Any, liable: str | None) -> dict[str, tuple[str, ...]]:
    """Each player's roles: dealer 庄, winner 胡, discarder 放冲/点炮, robbed, liable 包, abandoned.

    A new dict each time; the roles of the same seating, dealer, wins, liable and abandon are worked
    out once and kept (a bounded table, :data:`STEPS_KEPT`)."""
    return _roles_of(tuple(hand.players), hand, liable)


def _roles_of(players: tuple[str, ...], hand: Any, liable: str | None) -> dict[str, tuple[str, ...]]:
    win = hand.win
    if win is None:
        wins: Any = None
    elif type(win) is list:
        wins = tuple([(w.winner, w.from_, w.by) for w in win])
    else:
        wins = (win.winner, win.from_, win.by)
    abandon = getattr(hand, "abandon", None)
    return roles_for(players, hand.dealer, wins, liable, None if abandon is None else abandon.by)


def roles_for(players: tuple[str, ...], dealer: str | None, wins: Any, liable: str | None,
              abandoned: str | None) -> dict[str, tuple[str, ...]]:
    """:func:`roles_of` from the facts: ``wins`` None, one win's ``(winner, from, by)``, or a tuple
    of those; ``abandoned`` the player who left (H9) or None.  A new dict each time."""
    key = (players, dealer, wins, liable, abandoned)
    roles = _ROLES.get(key)
    if roles is None:
        if len(_ROLES) >= STEPS_KEPT:
            _ROLES.clear()
        roles = _ROLES[key] = _roles(*key)
    return roles.copy()


def _roles(players: tuple[str, ...], dealer: str | None, wins: Any, liable: str | None,
           abandoned: str | None) -> dict[str, tuple[str, ...]]:
    roles: dict[str, tuple[str, ...]] = dict.fromkeys(players, ())
    if dealer:
        roles[dealer] += ("dealer",)
    if wins:
        for winner, source, by in wins if type(wins[0]) is tuple else (wins,):
            roles[winner] += ("winner",)
            if source in roles:
                held = roles[source]
                if "discarder" not in held and "robbed" not in held:  # one role per source (R8: one discard)
                    roles[source] = (*held, "robbed" if by == "robbed_kong" else "discarder")
    if liable:
        roles[liable] += ("liable",)
    if abandoned:
        roles[abandoned] += ("abandoned",)
    return roles


def whole(amount: Amount) -> int:
    """``amount`` as an int; raises ValueError if it has a fractional part."""
    if isinstance(amount, Fraction):
        if amount.denominator != 1:
            raise ValueError(f"amount {amount} is not a whole number of points")
        return amount.numerator
    return amount


def next_after(players: Sequence[str], name: str) -> str:
    """The player after ``name`` in turn order, wrapping around (G1)."""
    i = players.index(name)
    return players[(i + 1) % len(players)]


def seats_after(players: Sequence[str], name: str) -> list[str]:
    """The other players in turn order, starting with the one after ``name`` (G1)."""
    i = players.index(name)
    return [*players[i + 1:], *players[:i]]


def split_largest_remainder(total: int, weights: Sequence[tuple[str, Amount]]) -> dict[str, int]:
    """Split ``total`` whole points in proportion to ``weights`` (name, weight).

    Largest remainder method; ties go to the name listed first, so callers list names in the
    priority order their rule gives (H9: the player after the one who left; R7: the winner nearer
    after the discarder).  All-zero weights split evenly.
    """
    if not weights:
        return {}
    if all(w == 0 for _, w in weights):
        weights = [(name, 1) for name, _ in weights]
    whole_sum = sum(w for _, w in weights)
    shares = {name: Fraction(total * w, whole_sum) for name, w in weights}
    floors = {name: s.numerator // s.denominator for name, s in shares.items()}
    left = total - sum(floors.values())
    order = sorted(range(len(weights)), key=lambda i: -(shares[weights[i][0]] - floors[weights[i][0]]))
    for i in order[:left]:
        floors[weights[i][0]] += 1
    return floors


_POWER_STEPS: dict[tuple[int, ...], Step] = {}


def power_step(base: int, loser: int, winner: int, factor: Fraction | int = 1, minus: int = 0) -> Step:
    """The formula ``2^(a+b)``, ``10×2^(a+b)``, ``10×2^(a+b)×1.5`` or ``2^(a+b-1)`` as a step (H2 H3 W1 W6)."""
    # A Fraction is keyed by its numerator and denominator: hashing one costs more than the step.
    key = (base, loser, winner, minus, factor) if type(factor) is int \
        else (base, loser, winner, minus, factor.numerator, factor.denominator)
    step = _POWER_STEPS.get(key)
    if step is not None:
        return step
    values: dict[str, Any] = {"loser": loser, "winner": winner}
    if base != 1:
        values["base"] = base
    if factor != 1:
        values["factor"] = factor
    if minus:
        values["minus"] = minus
    return kept(_POWER_STEPS, key, Step("", "power", values))


_TALLY_STEPS: dict[tuple[ScoreItem, ...], Step] = {}
_STATED_STEPS: dict[int, Step] = {}


def tally_step(items: tuple[ScoreItem, ...]) -> Step:
    """A 番/斤 count as a ``tally`` step (a player's score detail, H1–H3, W2–W4): ``items`` are
    (item key, label, amount) triples such as ``("opens", "开口", 1)``; ``total`` their sum."""
    step = _TALLY_STEPS.get(items)
    if step is None:
        total = 0
        for item in items:
            total += item[2]
        step = kept(_TALLY_STEPS, items, Step("", "tally", {"total": total, "stated": False, "items": items}))
    return step


def stated_step(total: int) -> Step:
    """A 番/斤 total stated in the hand file (``fans``/``jin``, G5) as a ``tally`` step."""
    step = _STATED_STEPS.get(total)
    if step is None:
        step = kept(_STATED_STEPS, total, Step("", "tally", {"total": total, "stated": True, "items": ()}))
    return step


STATED_TALLIES: dict[int, tuple[int, Step]] = {}
"""A stated total -> ``(total, stated_step(total))``, as a region's table of counted totals holds
them (:func:`stated_tally` fills it; a hot path looks the total up here first).  Read only."""


def stated_tally(total: int) -> tuple[int, Step]:
    """``(total, step)`` of a 番/斤 total stated in the hand file (G5; the step is :func:`stated_step`'s),
    kept in :data:`STATED_TALLIES`."""
    found = STATED_TALLIES.get(total)
    if found is None:
        found = kept(STATED_TALLIES, total, (total, stated_step(total)))
    return found


ZEROS: dict[tuple[str, ...], dict[str, int]] = {}
"""A seating -> ``{name: 0}`` in seat order, to copy as a net to start from (:func:`zeros` fills it;
a hot path looks the seating up here first).  Read only."""


def zeros(players: tuple[str, ...]) -> dict[str, int]:
    """A new ``{name: 0}`` for the seating ``players``, in seat order (G1): a copy of the one kept in
    :data:`ZEROS` (copying a dict costs a fraction of building one with ``dict.fromkeys``)."""
    found = ZEROS.get(players)
    if found is None:
        found = kept(ZEROS, players, dict.fromkeys(players, 0))
    return found.copy()


_TURNS: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}


def turn_after(players: tuple[str, ...], name: str) -> tuple[str, ...]:
    """:func:`seats_after` as a tuple, kept per seating and ``name`` (G1): the same tuple for every
    hand of that seating.  ValueError when ``name`` is not seated."""
    key = (players, name)
    seats = _TURNS.get(key)
    if seats is None:
        seats = kept(_TURNS, key, tuple(seats_after(players, name)))
    return seats


def third_open_feeder(player: Any, flush_names: Sequence[str]) -> str | None:
    """H7 b and W11 b: with a flush named and three or more opens, who fed the third open (None when
    the flush does not trigger, or ``opens`` is a bare count: the region then asks for the feeders, G7)."""
    if player.open_count < 3 or not flush_names:
        return None
    feeders = player.feeders
    return feeders[2] if feeders is not None else None


def flush_triggers(player: Any, flush_names: Sequence[str]) -> bool:
    """H7 b and W11 b: a flush (as the region lists them) with three or more opens."""
    return player.open_count >= 3 and bool(flush_names)


_FLUSH_STEPS: dict[tuple[str, ...], Step] = {}


def liable_flush_step(term: str, rule: str, feeder: str, winner: str, flush_names: Sequence[str]) -> Step:
    """The reason of a flush 承包/包胡 (H7 b, W11 b): ``feeder`` fed ``winner``'s third open."""
    flushes = "/".join(flush_names)
    key = (term, rule, feeder, winner, flushes)
    step = _FLUSH_STEPS.get(key)
    if step is None:
        step = kept(_FLUSH_STEPS, key, Step(rule, "liable_flush", {"term": term, "player": feeder, "winner": winner,
                                                                   "flushes": flushes}))
    return step


def flush_liability(player: Any, winner: str, flush_names: Sequence[str], term: str,
                    rule: str) -> tuple[str, Step] | None:
    """H7 b and W11 b: the player who fed ``winner``'s third open of a flush, with the step saying so
    (``term`` 承包 or 包胡, ``rule`` H7 b or W11 b), or None when the flush rule does not apply."""
    feeder = third_open_feeder(player, flush_names)
    return None if feeder is None else (feeder, liable_flush_step(term, rule, feeder, winner, flush_names))
