"""What settling a hand produces: debts on the way, then transfers and the :class:`Settlement`.

Amounts are points (分), exact: ``int``, and :class:`fractions.Fraction` for ×1.5 until a debt
becomes a transfer (a whole number of points, or a bug).  Every amount carries its steps
(:class:`~settle.core.steps.Step`); the words come from the region's :class:`~settle.core.text.Catalog`
only when asked for (``why``, ``notes``, ``score_detail``, :meth:`Settlement.as_dict`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from settle.core.messages import SHARED
from settle.core.steps import Step, jsonable
from settle.core.text import Catalog

Amount = int | Fraction

FORMAT_VERSION = 2
"""The version of the JSON output (``format_version``); CHANGELOG.md lists every change."""

CAP_MARKS = ("capped", "small_golden", "golden", "bright")
"""A payment's ``cap``: reached or past the cap (封顶, W10's flat cap too), 小金鼎, 金顶/金鼎, 光明顶."""
GOLDEN_CAPS = frozenset(CAP_MARKS[1:])
ROLES = ("dealer", "winner", "discarder", "robbed", "liable", "abandoned")
"""A player's roles in a hand (``Settlement.roles``): 庄, 胡, 放冲/点炮, 被抢杠, 包, 逃跑."""


@dataclass(slots=True, init=False)
class Debt:
    """What ``loser`` owes ``winner`` in one hand, with its steps.

    ``amount`` is in points and may be a Fraction until caps are applied; ``formula`` is the
    first step (the rule with its numbers); ``steps`` the later ones in order (cap, golden cap,
    漂, 承包); ``capped`` records that the cap was reached (>=, G13); ``cap`` the mark of the last
    cap applied (:data:`CAP_MARKS`, or None); ``payer`` is who pays (the loser, or the liable player;
    ``""`` means the loser).  Treated as immutable (:meth:`then` makes a new one); not frozen, so
    that making one costs a few attribute stores.
    """

    loser: str
    winner: str
    amount: Amount
    formula: Step
    steps: tuple[Step, ...]
    capped: bool
    payer: str
    cap: str | None

    def __init__(self, loser: str, winner: str, amount: Amount, formula: Step, steps: tuple[Step, ...] = (),
                 capped: bool = False, payer: str = "", cap: str | None = None) -> None:
        self.loser = loser
        self.winner = winner
        self.amount = amount
        self.formula = formula
        self.steps = steps
        self.capped = capped
        self.payer = payer or loser
        self.cap = cap

    def then(self, amount: Amount, item: Step, *, capped: bool | None = None, cap: str | None = None,
             payer: str | None = None) -> Debt:
        """The same debt with a new amount and one more step (and, where given, a cap mark or payer)."""
        return Debt(self.loser, self.winner, amount, self.formula, (*self.steps, item),
                    self.capped if capped is None else capped, self.payer if payer is None else payer,
                    self.cap if cap is None else cap)

    @property
    def all_steps(self) -> tuple[Step, ...]:
        """The formula, then every later step."""
        return (self.formula, *self.steps)


@dataclass(slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` whole points; ``steps`` say why (the formula first).

    ``cap``: None, or how a cap bit (:data:`CAP_MARKS`).  ``why`` is the English explanation,
    :meth:`text` the explanation in another language.  Treated as immutable (not frozen, so that
    making one is cheap).
    """

    payer: str
    payee: str
    amount: int
    steps: tuple[Step, ...] = ()
    cap: str | None = None
    catalog: Catalog = field(default=SHARED, repr=False, compare=False)

    @property
    def why(self) -> str:
        """The explanation in English (``10×2^(2+3)×1.5 = 480, capped at 400 (H5 封顶)``)."""
        return self.catalog.why(self.steps, "en")

    def text(self, lang: str = "en") -> str:
        """The explanation in ``lang``."""
        return self.catalog.why(self.steps, lang)

    def as_dict(self, lang: str = "en", *, shared: bool = False) -> dict[str, object]:
        """JSON form of HAND-FORMAT.md ``{"from", "to", "amount", "why"}``, with ``steps`` and ``cap``.

        With ``shared`` the ``steps`` list is the catalog's (:meth:`Catalog.forms`): read only.
        """
        steps = self.steps
        if shared:
            why, forms = self.catalog.forms(steps, lang)
            return {"from": self.payer, "to": self.payee, "amount": self.amount, "why": why,
                    "steps": forms, "cap": self.cap}
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "why": self.catalog.why(steps, lang), "steps": [s.as_dict() for s in steps],
                "cap": self.cap}


@dataclass(slots=True)
class Forfeit:
    """A penalty paid to nobody (Wuhan 逃跑 with ``escape_paid_to: none``, H9)."""

    payer: str
    amount: int
    steps: tuple[Step, ...] = ()
    catalog: Catalog = field(default=SHARED, repr=False, compare=False)

    @property
    def why(self) -> str:
        """The explanation in English."""
        return self.catalog.why(self.steps, "en")

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        """JSON form: ``{"from", "amount", "why", "steps"}``."""
        return {"from": self.payer, "amount": self.amount, "why": self.catalog.why(self.steps, lang),
                "steps": [s.as_dict() for s in self.steps]}


@dataclass(slots=True)
class Settlement:
    """The result of settling one hand.

    ``net``: player -> points won (+) or lost (-), summing to zero except for a forfeit (G2, H9);
    ``transfers`` in payment order; ``next_dealer`` None after an abandon; ``roles``: player ->
    role keys (dealer, winner, discarder, robbed, liable, abandoned); ``scores``: player -> counted
    番/斤 (Rushan: hand points of each winner) in ``unit``; ``score_steps``: player -> the step
    behind the score (its items in ``values["items"]``); ``reasons``: the rule applications worth
    stating once (金顶, 承包 ...), as steps; ``liable``/``liable_rule``: the 承包/包胡 player and the
    ruling that made him liable; ``reading``: with tiles, the reading kept (fans, each wildcard's
    substitution, how many readings were considered), else None.  ``catalog`` words the steps.
    Treated as immutable (not frozen, so that making one is cheap; :func:`dataclasses.replace` makes
    a changed copy).
    """

    region: str
    players: tuple[str, ...]
    net: dict[str, int]
    transfers: tuple[Transfer, ...]
    next_dealer: str | None
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    score_steps: dict[str, Step] = field(default_factory=dict)
    unit: str = ""
    reasons: tuple[Step, ...] = ()
    forfeit: Forfeit | None = None
    liable: str | None = None
    id: str | int | None = None
    liable_rule: str | None = None
    reading: Mapping[str, Any] | None = None
    catalog: Catalog = field(default=SHARED, repr=False, compare=False)

    @property
    def notes(self) -> tuple[str, ...]:
        """The reasons in English."""
        return tuple(self.note_texts("en"))

    def note_texts(self, lang: str = "en") -> list[str]:
        """The reasons in ``lang``."""
        return [self.catalog.text(r, lang) for r in self.reasons]

    @property
    def score_detail(self) -> dict[str, str]:
        """Player -> the items behind the score in English (``3 = 开口 1 + 红中杠 1``)."""
        return self.score_texts("en")

    def score_texts(self, lang: str = "en") -> dict[str, str]:
        """Player -> the items behind the score in ``lang``."""
        return {name: self.catalog.text(s, lang) for name, s in self.score_steps.items()}

    @property
    def score_items(self) -> dict[str, list[dict[str, Any]]]:
        """Player -> the items of the score: ``[{"item": "opens", "label": "开口", "value": 1}, ...]``."""
        return self._score_items(False)

    def _score_items(self, shared: bool) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        kept = _ITEM_FORMS
        for name, s in self.score_steps.items():
            values = s.values
            if values.get("stated"):
                out[name] = [{"item": "stated", "label": "报数", "value": values["total"]}]
                continue
            items = values.get("items", ())
            if shared:
                try:
                    found = kept.get(items)
                except TypeError:  # items that cannot be hashed: a fresh list
                    found = None
                if found is None:
                    found = score_item_forms(items)
                out[name] = found
            else:
                out[name] = [_score_item(item) for item in items]
        return out

    def winners(self) -> list[str]:
        """The winner(s) in seat order (several only for 一炮多响)."""
        return [name for name in self.players if "winner" in self.roles.get(name, ())]

    def as_dict(self, lang: str = "en", *, shared: bool = False, label: str | int | None = None) -> dict[str, object]:
        """JSON form (HAND-FORMAT.md "Output") with the structured fields of issue 13; texts in ``lang``.

        The keys in this order: ``id`` (only when the hand states one, or ``label`` is given: then
        ``label`` is the id, as the batch output names each hand), region ... notes, ``forfeit``
        (only with one), score_items ... format_version.  Every container is new unless ``shared``:
        then the steps, reasons, roles and score items are kept forms, shared with other
        results and read only (for encoding at once: :func:`settle.engine.batch.encode.json_line`).
        """
        catalog = self.catalog
        reasons = self.reasons
        if shared:
            forms = catalog.forms
            transfers: list[dict[str, object]] = []
            for t in self.transfers:
                why, steps = forms(t.steps, lang)
                transfers.append({"from": t.payer, "to": t.payee, "amount": t.amount, "why": why, "steps": steps,
                                  "cap": t.cap})
            note = catalog.note
            notes: list[str] = []
            reason_forms: list[dict[str, Any]] = []
            for r in reasons:
                words, form = note(r, lang)
                notes.append(words)
                reason_forms.append(form)
            roles = self.roles
            roles_key = tuple(roles.items())
            try:
                roles_form = _ROLE_FORMS.get(roles_key)
            except TypeError:  # roles that cannot be hashed (lists): a fresh form
                roles_form = _role_form(roles)
            else:
                if roles_form is None:
                    roles_form = _role_form(roles)
                    if len(_ROLE_FORMS) >= ITEM_FORMS_KEPT:
                        _ROLE_FORMS.clear()
                    _ROLE_FORMS[roles_key] = roles_form
        else:
            transfers = [t.as_dict(lang) for t in self.transfers]
            notes = [catalog.text(r, lang) for r in reasons]
            reason_forms = [r.as_dict() for r in reasons]
            roles_form = _role_form(self.roles)
        ident = self.id if label is None else label
        forfeit = self.forfeit
        reading = self.reading
        out: dict[str, object] = {
            "id": ident,
            "region": self.region,
            "players": list(self.players),
            "net": dict(self.net),
            "transfers": transfers,
            "next_dealer": self.next_dealer,
            "roles": roles_form,
            "scores": dict(self.scores),
            "unit": self.unit,
            "liable": self.liable,
            "notes": notes,
            "forfeit": None if forfeit is None else forfeit.as_dict(lang),
            "score_items": self._score_items(shared),
            "liable_rule": self.liable_rule,
            "reading": None if reading is None else jsonable(reading),
            "reasons": reason_forms,
            "format_version": FORMAT_VERSION,
        }
        if ident is None:
            del out["id"]
        if forfeit is None:
            del out["forfeit"]
        return out


def _role_form(roles: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """The JSON form of a settlement's roles: the players with a role, each with a list of them."""
    return {name: list(held) for name, held in roles.items() if held}


_ROLE_FORMS: dict[tuple[tuple[str, tuple[str, ...]], ...], dict[str, list[str]]] = {}
"""Roles (as their items) -> their JSON form, shared (read only); at most :data:`ITEM_FORMS_KEPT`."""
_ITEM_FORMS: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
ITEM_FORMS_KEPT = 4096
"""How many score item lists :func:`score_item_forms` keeps (and how many roles :meth:`Settlement.as_dict`
keeps the JSON form of)."""


def score_item_forms(items: Any) -> list[dict[str, Any]]:
    """The JSON forms of a score's items (:func:`_score_item` each), kept per items tuple (at most
    :data:`ITEM_FORMS_KEPT`): shared, read only."""
    try:
        found = _ITEM_FORMS.get(items)
    except TypeError:
        return [_score_item(item) for item in items]
    if found is None:
        found = [_score_item(item) for item in items]
        if len(_ITEM_FORMS) >= ITEM_FORMS_KEPT:
            _ITEM_FORMS.clear()
        _ITEM_FORMS[items] = found
    return found


def _score_item(item: Any) -> dict[str, Any]:
    """An item of a score step as JSON: ``(key, label, value)`` or ``(key, label, value, kind)``."""
    out = {"item": item[0], "label": item[1], "value": item[2]}
    if len(item) > 3:
        out["kind"] = item[3]
    return out


ScoreItem = tuple[str, str, int]
"""One item of a 番/斤 count: (item key, label, amount), e.g. ``("opens", "开口", 1)``."""


@dataclass(slots=True)
class Tally:
    """One player's 番/斤 count with the items behind it (H1–H3, W2–W4), or a stated total (G5).

    ``items`` are (item key, label, amount) triples such as ``("opens", "开口", 1)``; ``stated``
    marks a total taken from the hand file's ``fans``/``jin`` instead of counted.
    """

    total: int
    items: tuple[ScoreItem, ...] = ()
    stated: bool = False

    @classmethod
    def of(cls, items: Iterable[ScoreItem]) -> Tally:
        """The tally of counted items."""
        found = tuple(items)
        return cls(sum([n for _, _, n in found]), found)

    @classmethod
    def given(cls, total: int) -> Tally:
        """The tally of a total stated in the hand file (``fans``/``jin``, G5)."""
        return cls(total, stated=True)

    @property
    def step(self) -> Step:
        """The tally as a ``tally`` step (the score's detail)."""
        return Step("", "tally", {"total": self.total, "stated": self.stated, "items": self.items})
