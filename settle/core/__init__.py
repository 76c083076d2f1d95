"""The settlement core shared by every region: debts, caps, 包牌, transfers, net, dealer.

A region works out, for each paying loser, a :class:`Debt`: the amount owed to a
winner before caps, with the formula that produced it.  The core then applies the
steps every rule set shares, each leaving its reason on the debt:

1. :func:`cap` — 封顶: a loser pays at most the cap;
2. :func:`replace_amount` — golden caps (金顶/金鼎/光明顶) set a new amount;
3. :func:`add_extra` — 漂/飘鱼 paid on top, outside the cap;
4. :func:`redirect` — 包牌/承包: the liable player pays every debt;
5. :func:`to_transfers` — whole points, one :class:`Transfer` per debt, each with its why.

All arithmetic is exact: ``int`` and :class:`fractions.Fraction` (for ×1.5); a debt
that is not a whole number of points when it becomes a transfer is a bug and raises.
Everything here is a pure function of its arguments (no I/O).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

Amount = int | Fraction


@dataclass(frozen=True, slots=True)
class Debt:
    """What ``loser`` owes ``winner`` in one hand, with its reasons.

    ``amount`` is in points (分) and may be a Fraction until caps are applied;
    ``formula`` is the rule with the numbers put in (``10×2^(1+3)×1.5``);
    ``steps`` are the later adjustments in order (cap, golden cap, 漂, 包牌);
    ``capped`` records that the cap bit; ``payer`` is who actually pays
    (the loser, or the liable player under 包牌).
    """

    loser: str
    winner: str
    amount: Amount
    formula: str
    steps: tuple[str, ...] = ()
    capped: bool = False
    payer: str = ""

    def __post_init__(self) -> None:
        if not self.payer:
            object.__setattr__(self, "payer", self.loser)

    def then(self, amount: Amount, step: str, **changes: object) -> Debt:
        """The same debt with a new amount and one more explained step."""
        capped = changes.pop("capped", self.capped)
        if not changes:  # what the shared steps change: built directly (replace is slow)
            return Debt(self.loser, self.winner, amount, self.formula, (*self.steps, step), capped,  # type: ignore[arg-type]
                        self.payer)
        return replace(self, amount=amount, steps=(*self.steps, step), capped=capped, **changes)  # type: ignore[arg-type]

    @property
    def why(self) -> str:
        """The full explanation: the formula, then each step (``= 256`` steps read on)."""
        text = self.formula
        if not self.steps:  # most debts: no cap, 漂 or 包牌 step
            return text
        for step in self.steps:
            text += (" " if step.startswith("=") else "; ") + step
        return text


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` whole points because of ``why``."""

    payer: str
    payee: str
    amount: int
    why: str

    def as_dict(self) -> dict[str, object]:
        """JSON form of HAND-FORMAT.md: ``{"from", "to", "amount", "why"}``."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "why": self.why}


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A penalty paid to nobody (Wuhan 逃跑 with ``escape_paid_to: none``, H9)."""

    payer: str
    amount: int
    why: str

    def as_dict(self) -> dict[str, object]:
        """JSON form: ``{"from", "amount", "why"}``."""
        return {"from": self.payer, "amount": self.amount, "why": self.why}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of settling one hand.

    ``net``: player -> points won (+) or lost (-), summing to zero except for a
    forfeit (G2, H9); ``transfers`` in payment order; ``next_dealer`` None after
    an abandon; ``roles``: player -> role keys (dealer, winner, discarder, robbed,
    liable, abandoned); ``scores``: player -> counted 番/斤 (or Rushan hand points
    for winners) in ``unit``; ``score_detail``: the items behind each score;
    ``notes``: rule applications worth stating once (金顶, 承包 ...).
    """

    region: str
    players: tuple[str, ...]
    net: dict[str, int]
    transfers: tuple[Transfer, ...]
    next_dealer: str | None
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    score_detail: dict[str, str] = field(default_factory=dict)
    unit: str = ""
    notes: tuple[str, ...] = ()
    forfeit: Forfeit | None = None
    liable: str | None = None
    id: str | int | None = None

    def as_dict(self) -> dict[str, object]:
        """JSON form (HAND-FORMAT.md "Output"), with extra keys roles/scores/notes."""
        out: dict[str, object] = {}
        if self.id is not None:
            out["id"] = self.id
        out.update({
            "region": self.region,
            "players": list(self.players),
            "net": dict(self.net),
            "transfers": [t.as_dict() for t in self.transfers],
            "next_dealer": self.next_dealer,
            "roles": {name: list(roles) for name, roles in self.roles.items() if roles},
            "scores": dict(self.scores),
            "unit": self.unit,
            "liable": self.liable,
            "notes": list(self.notes),
        })
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's 番/斤 count with the items behind it (H1–H3, W2–W4), or a stated total (G5).

    ``items`` are ``(label, amount)`` pairs such as ``("开口", 1)``; ``stated`` marks a total
    taken from the hand file's ``fans``/``jin`` instead of counted.
    """

    total: int
    items: tuple[tuple[str, int], ...] = ()
    stated: bool = False

    @classmethod
    def of(cls, items: Iterable[tuple[str, int]]) -> Tally:
        """The tally of counted items: one shared (frozen) Tally per combination of items."""
        return _tally_of(tuple(items))

    @classmethod
    def given(cls, total: int) -> Tally:
        """The tally of a total stated in the hand file (``fans``/``jin``, G5): one shared Tally per total."""
        return _stated_tally(total)

    @property
    def detail(self) -> str:
        """``3 = 开口 1 + 红中杠 1 + 硬胡 1``, ``0``, or ``4 (stated)``."""
        if self.stated:
            return f"{self.total} (stated)"
        if not self.items:
            return "0"
        return f"{self.total} = {_items_text(self.items)}"


@functools.lru_cache(maxsize=1024)
def _tally_of(items: tuple[tuple[str, int], ...]) -> Tally:
    """:meth:`Tally.of`, kept: a batch counts the same few combinations of items again and again."""
    return Tally(sum([n for _, n in items]), items)


@functools.lru_cache(maxsize=128)
def _stated_tally(total: int) -> Tally:
    return Tally(total, stated=True)


@functools.lru_cache(maxsize=1024)
def _items_text(items: tuple[tuple[str, int], ...]) -> str:
    """``开口 1 + 红中杠 1``: kept, since a batch counts the same few combinations of items again and again."""
    return " + ".join([f"{label} {n}" for label, n in items])


# --- the shared steps -------------------------------------------------------------------------


def cap(debt: Debt, limit: int, rule: str) -> Debt:
    """封顶: the debt becomes ``min(amount, limit)``; ``capped`` when it reached the limit (>=).

    Regions that need "exceeded" rather than "reached" (Wuhan 金顶, G13) compare the
    pre-cap amount themselves.
    """
    if debt.amount < limit:
        return debt
    if debt.amount == limit:  # nothing taken off: "capped at" would say it was
        return debt.then(limit, f"= {limit}, the cap ({rule})", capped=True)
    return debt.then(limit, f"= {show(debt.amount)}, capped at {limit} ({rule})", capped=True)


def replace_amount(debt: Debt, amount: int, step: str) -> Debt:
    """A golden cap (金顶/金鼎/光明顶) or fixed amount replaces the capped one."""
    return debt.then(amount, step)


def add_extra(debt: Debt, points: int, step: str) -> Debt:
    """漂/飘鱼: points added after caps, never capped (W9, R6)."""
    if points == 0:
        return debt
    return debt.then(debt.amount + points, step)


def redirect(debts: Iterable[Debt], liable: str, reason: str) -> list[Debt]:
    """包牌/承包: the liable player pays every debt in full; the others pay nothing.

    ``reason`` names the rule and the fact that made the player liable (H7, W11).
    """
    return [
        d if d.loser == liable
        else Debt(d.loser, d.winner, d.amount, d.formula,
                  (*d.steps, f"{d.loser}'s share paid by {liable} ({reason})"), d.capped, liable)
        for d in debts
    ]


def to_transfers(debts: Iterable[Debt]) -> list[Transfer]:
    """One transfer per non-zero debt, in whole points.

    Raises ValueError if an amount is not whole (a rule-table bug, never user input).
    """
    out = []
    for d in debts:
        amount = d.amount
        points = amount if type(amount) is int else whole(amount)
        if points:
            out.append(Transfer(d.payer, d.winner, points, d.why))
    return out


def net_of(players: Sequence[str], transfers: Iterable[Transfer],
           forfeit: Forfeit | None = None) -> dict[str, int]:
    """Each player's net: received minus paid (minus any forfeit)."""
    net = dict.fromkeys(players, 0)
    for t in transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    if forfeit is not None:
        net[forfeit.payer] -= forfeit.amount
    return net


def settlement(hand: Any, region: str, transfers: Sequence[Transfer], next_dealer: str | None, *,
               unit: str, scores: dict[str, int], score_detail: dict[str, str],
               notes: Sequence[str] = (), liable: str | None = None,
               forfeit: Forfeit | None = None) -> Settlement:
    """Assemble a :class:`Settlement` for ``hand`` (any region's ``Hand``): net and roles derived."""
    players = tuple(hand.players)  # the seating order (G1), as ``hand.names`` gives it
    return Settlement(
        region=region, players=players, id=hand.id,
        net=net_of(players, transfers, forfeit), transfers=tuple(transfers),
        next_dealer=next_dealer, roles=roles_of(hand, liable), unit=unit,
        scores=scores, score_detail=score_detail, notes=tuple(notes), forfeit=forfeit,
        liable=liable,
    )


def roles_of(hand: Any, liable: str | None) -> dict[str, tuple[str, ...]]:
    """Each player's roles: dealer 庄, winner 胡, discarder 放冲/点炮, robbed, liable 包, abandoned."""
    roles: dict[str, tuple[str, ...]] = dict.fromkeys(hand.players, ())
    if hand.dealer:
        roles[hand.dealer] += ("dealer",)
    for win in hand.wins:
        roles[win.winner] += ("winner",)
        source = win.from_
        if source in roles:
            held = roles[source]
            if "discarder" not in held and "robbed" not in held:  # one role per source (Rushan R8: one discard)
                roles[source] = (*held, "robbed" if win.by == "robbed_kong" else "discarder")
    if liable:
        roles[liable] += ("liable",)
    abandon = getattr(hand, "abandon", None)
    if abandon:
        roles[abandon.by] += ("abandoned",)
    return roles


# --- helpers ---------------------------------------------------------------------------------


def whole(amount: Amount) -> int:
    """``amount`` as an int; raises ValueError if it has a fractional part."""
    if isinstance(amount, Fraction):
        if amount.denominator != 1:
            raise ValueError(f"amount {amount} is not a whole number of points")
        return amount.numerator
    return amount


def show(amount: Amount) -> str:
    """An amount for an explanation: ``240``, ``1.5`` for halves, else ``7/3``."""
    if type(amount) is int:  # most amounts: no ×1.5 involved
        return str(amount)
    if isinstance(amount, Fraction) and amount.denominator == 2:
        return f"{amount.numerator // 2}.5"
    if isinstance(amount, Fraction) and amount.denominator != 1:
        return str(amount)
    return str(whole(amount))


def next_after(players: Sequence[str], name: str) -> str:
    """The player after ``name`` in turn order, wrapping around (G1)."""
    i = players.index(name)
    return players[(i + 1) % len(players)]


def seats_after(players: Sequence[str], name: str) -> list[str]:
    """The other players in turn order, starting with the one after ``name`` (G1)."""
    i = players.index(name)
    return [*players[i + 1:], *players[:i]]  # those after ``name``, then those before it


def split_largest_remainder(total: int, weights: Sequence[tuple[str, int]]) -> dict[str, int]:
    """Split ``total`` whole points in proportion to ``weights`` (name, weight).

    Largest remainder method; ties go to the name listed first, so callers list
    names in the priority order their rule gives (H9: the player after the one who
    left; R7: the winner nearer after the discarder).  All-zero weights split evenly.
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


def power_formula(base: int, loser: int, winner: int, factor: Fraction) -> str:
    """``2^(a+b)``, ``10×2^(a+b)``, ``10×2^(a+b)×1.5`` — the formula as printed."""
    text = f"2^({loser}+{winner})"
    if base != 1:
        text = f"{base}×{text}"
    if factor != 1:
        text += f"×{show(factor)}"
    return text
