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
from json.encoder import encode_basestring
from typing import Any

from settle.core.messages import SHARED
from settle.core.steps import PLAIN, Step, jsonable
from settle.core.text import WORDS_KEPT, Catalog, dumps

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

    def json_text(self, lang: str = "en", *, label: str | int | None = None) -> str:
        """The JSON text of :meth:`as_dict` (``lang``, ``label``): exactly ``json.dumps(self.as_dict(lang,
        label=label), ensure_ascii=False)``, one line: :meth:`json_bytes` as text."""
        return self.json_bytes(lang, label=label).decode("utf-8", "surrogatepass")

    def json_bytes(self, lang: str = "en", *, label: str | int | None = None) -> bytes:
        """The UTF-8 bytes (``surrogatepass``: a lone surrogate of a name or id comes out as its three
        bytes) of :meth:`json_text`, built from kept UTF-8 pieces without the json encoder (issue 14):
        the batch writes them as they are, with no text to encode.

        A line is a few pieces joined, each kept with the punctuation and member names around it:

        * per shape (the region, unit, ``liable_rule``, the players, the keys of ``net``, ``scores``,
          ``score_steps`` and ``roles``: :func:`_shape_json`, the usual shape found by the players and
          the scores' keys, :func:`_shape_of`) the line's head up to the transfers as a ``%`` pattern
          of the net's numbers, the start of each payment from payer to payee, the unit, and the
          patterns of ``scores`` and ``score_items``;
        * per payment steps and cap, by the steps' identity (:func:`_payment_form`, joined from each
          step's part kept by its identity): the payment from after its amount (the amount's digits
          kept, :data:`_DIGITS`);
        * per next dealer, liable player and roles (:func:`_roles_json`), and per scores
          (:func:`_scores_json`), kept for the keys of a shape's; each score step's items by its
          identity (:func:`_tally_json`);
        * per reasons, by identity (:func:`_notes_form`, joined from each reason's texts kept by its
          identity; texts made for one settlement alone, such as a tile reading's, in UTF-8 at once
          and not kept: :meth:`Catalog.fresh_notes_utf8`): ``notes``, and ``reasons`` to the line's end.

        All in bounded tables (:data:`SHAPES_KEPT`, :data:`PARTS_KEPT`, :data:`DIGITS_KEPT`,
        :data:`~settle.core.text.WORDS_KEPT`).  Per call only the hand's own values are encoded: its id
        by :func:`json.encoder.encode_basestring` (the json encoder's own escaper), whole numbers as
        ``int`` writes them.  Anything of another type than the usual (a bool or a Fraction where an
        int is expected, a name that is not text, a payer not seated, a value that cannot be hashed)
        sends the whole dict through the json encoder instead, so the bytes never differ; what JSON
        cannot hold raises TypeError, as ``json.dumps`` does.
        """
        try:
            net = self.net
            scores = self.scores
            net_values = tuple(net.values())
            score_values = tuple(scores.values())
            for number in net_values:
                if type(number) is not int:
                    raise TypeError("not an int")  # a bool, a Fraction ...: the json encoder says how
            for number in score_values:
                if type(number) is not int:
                    raise TypeError("not an int")
            score_steps = self.score_steps
            roles = self.roles
            # The usual shape (net and roles keyed by the players, the score steps by the scores' keys) found
            # by the players and the scores' keys, the key orders compared; any other by every key.
            shaped = _USUAL_SHAPES.get((self.region, self.unit, self.liable_rule, self.players, tuple(scores)))
            if shaped is None or [*net] != shaped[9] or [*roles] != shaped[9] or [*score_steps] != shaped[10]:
                shaped = _shape_of(self)
            ident = self.id if label is None else label
            if ident is None:
                out = [shaped[1] % net_values]
            else:
                out = [_ID_JSON, (encode_basestring(ident) if type(ident) is str else dumps(ident))
                       .encode("utf-8", "surrogatepass"), shaped[0] % net_values]
            catalog = self.catalog
            tables = catalog.json_forms.get(lang) or _json_forms(catalog, lang)
            forms = tables[0]
            starts = shaped[2]
            digits = _DIGITS
            for t in self.transfers:  # the first from starts, each later one after ", " (shaped[3])
                amount = t.amount
                if type(amount) is not int:
                    raise TypeError("not an int")
                steps = t.steps
                form = forms.get(id(steps))
                if form is None or form[0] is not t.cap:
                    form = _payment_form(catalog, tables, steps, t.cap, lang)
                out.append(starts[t.payer][t.payee])
                out.append(digits[amount])
                out.append(form[1])
                starts = shaped[3]
            reasons = self.reasons
            many = len(reasons)
            noted = tables[1].get(id(reasons[0]) if many == 1 else (id(reasons[0]), id(reasons[1])) if many == 2
                                  else tuple(map(id, reasons))) or _notes_form(catalog, tables, reasons, lang)
            roled = shaped[4].get(key := (self.next_dealer, self.liable, *roles.values())) or \
                _roles_json(self, shaped, key)
            tallies = _TALLY_JSON
            items = []
            for step in score_steps.values():
                items.append(tallies.get(id(step)) or _tally_json(step))
            out += (
                roled[0], shaped[5].get(score_values) or _scores_json(shaped, score_values), shaped[8], roled[1],
                noted[0] if self.forfeit is None else
                noted[2] + f', "forfeit": {dumps(self.forfeit.as_dict(lang))}, "score_items": {{'
                .encode("utf-8", "surrogatepass"),
                shaped[7] % tuple(items),
                _NO_READING_JSON if self.reading is None else _reading_json(self.reading),
                noted[1],
            )
            return b"".join(out)
        except (KeyError, TypeError):  # not the usual types (see above): the json encoder on the dict
            return dumps(self.as_dict(lang, shared=True, label=label)).encode("utf-8", "surrogatepass")

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


_INT = frozenset({int})
_TEXT = frozenset({str})


def _flat_json(value: object) -> bool:
    """Whether the json encoder writes ``value`` as it writes :func:`~settle.core.steps.jsonable` of it: a
    dict with text keys whose values are of :data:`~settle.core.steps.PLAIN` types, lists or tuples of
    those, or lists or tuples of such dicts with plain values (a tile reading kept,
    ``Settlement.reading``).  A Fraction, a step, a key that is not text ... anywhere: False."""
    if type(value) is not dict or not _TEXT.issuperset(map(type, value)):
        return False
    for item in value.values():
        kind = type(item)
        if kind in PLAIN:
            continue
        if kind is not list and kind is not tuple:
            return False
        if PLAIN.issuperset(map(type, item)):
            continue
        for entry in item:
            if type(entry) is not dict or not _TEXT.issuperset(map(type, entry)) or \
                    not PLAIN.issuperset(map(type, entry.values())):
                return False
    return True
def _reading_json(reading: Mapping[str, Any]) -> bytes:
    """The JSON text of a settlement's ``reading`` and ``, "reasons": `` in UTF-8 (``surrogatepass``).

    The usual reading, one winner's fans without substitutions (``{"winner", "fans", "substitutions": [],
    "considered"}``: text, a list of texts, an empty list, an int), recurs hand after hand: its text is
    kept per winner, readings considered and fans (:data:`_READINGS_JSON`); any other is encoded each time."""
    if type(reading) is dict and tuple(reading) == _READING_KEYS:
        winner, fans, substitutions, considered = reading.values()
        if (type(winner) is str and type(fans) is list and type(substitutions) is list and not substitutions
                and type(considered) is int and _TEXT.issuperset(map(type, fans))):
            key = (winner, considered, *fans)
            found = _READINGS_JSON.get(key)
            if found is None:
                found = _encoded(f'{dumps(reading)}, "reasons": ')
                if len(_READINGS_JSON) >= ITEM_FORMS_KEPT:
                    _READINGS_JSON.clear()
                _READINGS_JSON[key] = found
            return found
    return _encoded(f'{dumps(reading if _flat_json(reading) else jsonable(reading))}, "reasons": ')


_READING_KEYS = ("winner", "fans", "substitutions", "considered")
_READINGS_JSON: dict[tuple[Any, ...], bytes] = {}
"""(winner, readings considered, *fans) -> :func:`_reading_json` of the usual reading; at most
:data:`ITEM_FORMS_KEPT`."""
_STR = frozenset({str})
_GAP = object()
"""Between the key groups of a shape (:func:`_shape_json`): no name is it."""
_CAP_JSON: dict[str | None, bytes] = {mark: f', "cap": {dumps(mark)}}}'.encode() for mark in (None, *CAP_MARKS)}
"""A payment's ``cap`` (:data:`CAP_MARKS`, or None) -> the JSON text that ends the payment (``, "cap":
null}``); another value: KeyError, and :meth:`Settlement.json_text` encodes the whole dict."""

# The JSON text of a settlement is joined from pieces that each carry the punctuation and member
# names around them (``"region": "wuhan", "players": ``), so that a line has few pieces to join.
_ID_JSON = b'{"id": '
_NO_FORFEIT_JSON = b', "score_items": {'
_NO_READING_JSON = b'null, "reasons": '
_END_JSON = f', "format_version": {FORMAT_VERSION}}}'.encode()


def _encoded(text: str) -> bytes:
    """``text`` in UTF-8, a lone surrogate as its three bytes (``surrogatepass``, as the batch writes it)."""
    return text.encode("utf-8", "surrogatepass")


def _pattern(text: str) -> bytes:
    """:func:`_encoded` of ``text`` as a literal part of a bytes ``%`` pattern (each ``%`` doubled)."""
    return _encoded(text).replace(b"%", b"%%")


_PaymentForm = tuple[Any, bytes, tuple[Step, ...]]
"""A payment's cap, its JSON text from after ``amount``'s value to its end (``, "why": ..., "steps":
[...], "cap": null}``), and the steps it is kept for (:func:`_payment_form`)."""
_NotesForm = tuple[bytes, bytes, bytes, tuple[Step, ...]]
"""A settlement's ``notes`` in UTF-8 followed by ``, "score_items": {`` (no forfeit), its ``reasons`` and
the line's end, its ``notes`` alone, and the reasons it is kept for (:func:`_notes_form`)."""
_PaymentPiece = tuple[bytes, bytes, bytes, Step]
"""A step's part of a payment's JSON text (:meth:`Catalog.step_piece` in UTF-8): its words first, its words
after an earlier step's, its form, and the step."""
_NotePiece = tuple[bytes, bytes, Step]
"""A reason's JSON texts in UTF-8: its words (``notes``), its form (``reasons``), and the step."""
_Forms = tuple[dict[int, _PaymentForm], dict[Any, _NotesForm], dict[int, _PaymentPiece], dict[int, _NotePiece]]
"""A catalog's UTF-8 forms in one language (:attr:`~settle.core.text.Catalog.json_forms`): payments by the
``id`` of their steps, notes by the ``id`` of the one reason or the tuple of the reasons' ``id``, and each
step's part of either by its ``id``; every form holds what its key is the ``id`` of."""
_FORMS_START = b', "why": "'
_FORMS_STEPS = b'", "steps": ['
class _Digits(dict[int, bytes]):
    """A whole number (an exact ``int``) -> its digits in UTF-8 (``b"%d" % n``), made when first asked for;
    at most :data:`DIGITS_KEPT`, then emptied."""

    def __missing__(self, number: int) -> bytes:
        text = b"%d" % number
        if len(self) >= DIGITS_KEPT:
            self.clear()
        self[number] = text
        return text


_DIGITS = _Digits()
DIGITS_KEPT = 16384


def _json_forms(catalog: Catalog, lang: str) -> _Forms:
    """The catalog's :data:`_Forms` in ``lang``, made empty at first."""
    forms: _Forms = ({}, {}, {}, {})
    catalog.json_forms[lang] = forms
    return forms


def _payment_form(catalog: Catalog, tables: _Forms, steps: tuple[Step, ...], cap: Any, lang: str) -> _PaymentForm:
    """A payment's :data:`_PaymentForm` in ``lang``, joined from its steps' parts (:data:`_PaymentPiece`: the
    same text as :meth:`Catalog.payment_json`) and kept in ``tables`` by the steps' identity (a tuple of
    steps that can be hashed; at most :data:`~settle.core.text.WORDS_KEPT`); KeyError for a cap not in
    :data:`CAP_MARKS`."""
    pieces = tables[2]
    words = [_FORMS_START]
    forms: list[bytes] = []
    for item in steps:
        piece = pieces.get(id(item)) or _payment_piece(catalog, pieces, item, lang)
        if piece is None:  # a step that cannot be hashed (it may change): worded afresh, not kept
            return cap, _encoded(catalog.payment_json(steps, lang)) + _CAP_JSON[cap], steps
        words.append(piece[1] if forms else piece[0])
        forms.append(piece[2])
    words += (_FORMS_STEPS, b", ".join(forms), b"]", _CAP_JSON[cap])
    form = (cap, b"".join(words), steps)
    if type(steps) is tuple:
        kept = tables[0]
        if len(kept) >= WORDS_KEPT:
            kept.clear()
        kept[id(steps)] = form
    return form


def _payment_piece(catalog: Catalog, pieces: dict[int, _PaymentPiece], item: Step, lang: str) -> _PaymentPiece | None:
    """:data:`_PaymentPiece` of ``item``, kept in ``pieces`` by its identity; None when it cannot be hashed."""
    piece = catalog.step_piece(item, lang)
    if piece is None:
        return None
    made = (_encoded(piece[0]), _encoded(piece[1]), _encoded(piece[2]), item)
    catalog.keep_form(pieces, id(item), made)
    return made


def _notes_form(catalog: Catalog, tables: _Forms, reasons: tuple[Step, ...], lang: str) -> _NotesForm:
    """The :data:`_NotesForm` of ``reasons`` in ``lang`` (the texts of :meth:`Catalog.notes_json`), joined from
    each reason's (:data:`_NotePiece`) and kept in ``tables`` under the ``id`` of the one reason, or the
    tuple of the reasons' ``id``.  Reasons that cannot be hashed, and those of a catalog that makes texts
    for one settlement alone (:meth:`Catalog.fresh_notes_utf8`: a tile reading's groups), are not kept:
    their texts come from the catalog each time."""
    if catalog.makes_fresh_notes:
        fresh = catalog.fresh_notes_utf8(reasons, lang)
        if fresh is not None:
            return fresh[0] + _NO_FORFEIT_JSON, fresh[1] + _END_JSON, fresh[0], reasons
    elif type(reasons) is tuple:
        pieces = tables[3]
        words: list[bytes] = []
        forms: list[bytes] = []
        for item in reasons:
            piece = pieces.get(id(item)) or _note_piece(catalog, pieces, item, lang)
            if piece is None:  # a reason that cannot be hashed: the catalog's texts, not kept
                break
            words.append(piece[0])
            forms.append(piece[1])
        else:
            said = b"[" + b", ".join(words) + b"]"
            form = (said + _NO_FORFEIT_JSON, b"[" + b", ".join(forms) + b"]" + _END_JSON, said, reasons)
            kept = tables[1]
            if len(kept) >= WORDS_KEPT:
                kept.clear()
            kept[id(reasons[0]) if len(reasons) == 1 else tuple(map(id, reasons))] = form
            return form
    notes_text, forms_text = catalog.notes_json(reasons, lang)
    said = _encoded(notes_text)
    return said + _NO_FORFEIT_JSON, _encoded(forms_text) + _END_JSON, said, reasons


def _note_piece(catalog: Catalog, pieces: dict[int, _NotePiece], item: Step, lang: str) -> _NotePiece | None:
    """:data:`_NotePiece` of ``item`` (:meth:`Catalog.note`), kept in ``pieces`` by its identity; None when
    it cannot be hashed (the catalog does not keep its words)."""
    words, form = catalog.note(item, lang)
    if not catalog.notes_kept(item, lang):
        return None
    made = (_encoded(dumps(words)), _encoded(dumps(form)), item)
    catalog.keep_form(pieces, id(item), made)
    return made


_Roled = tuple[bytes, bytes]
"""A settlement's JSON text from the end of its transfers to ``scores`` (``], "next_dealer": "A", "roles":
{...}, "scores": {``) and that of its liable player (``null, "notes": ``) (:func:`_roles_json`)."""
_Shape = tuple[bytes, bytes, dict[str, dict[str, bytes]], dict[str, dict[str, bytes]], dict[tuple[Any, ...], _Roled],
               dict[tuple[int, ...], bytes], bytes, bytes, bytes, list[str], list[str]]
_SHAPES_JSON: dict[tuple[Any, ...], _Shape] = {}
"""A settlement's shape (its region, unit and ``liable_rule``, the players, then the keys of ``net``,
``scores``, ``score_steps`` and ``roles``, with :data:`_GAP` between) -> its JSON pieces
(:func:`_shape_json`); at most :data:`SHAPES_KEPT`."""
SHAPES_KEPT = 1024
"""How many shapes :meth:`Settlement.json_text` keeps the pieces of (a few kB each)."""
_ROLES_KEPT: dict[tuple[str, ...], dict[tuple[Any, ...], _Roled]] = {}
"""The keys of a settlement's roles -> the texts of roles with those keys (:func:`_roles_json`), shared by
the shapes with those keys (in all regions); emptied with :data:`_SHAPES_JSON`."""
_SCORES_KEPT: dict[tuple[str, ...], dict[tuple[int, ...], bytes]] = {}
"""The keys of a settlement's scores -> the texts of scores with those keys (:func:`_scores_json`), shared
likewise."""
PARTS_KEPT = 8192
"""How many texts of roles and scores (:func:`_roles_json`, :func:`_scores_json`) are kept in all; past it
every one is dropped."""
_PARTS_FILLED = [0]
"""How many texts of roles and scores are kept (:data:`PARTS_KEPT`)."""


_USUAL_SHAPES: dict[tuple[Any, ...], _Shape] = {}
"""(The region, unit, ``liable_rule``, players and the scores' keys) -> the pieces of the usual shape of
those (:func:`_shape_of`); at most :data:`SHAPES_KEPT`, emptied with :data:`_SHAPES_JSON`."""


def _shape_of(result: Settlement) -> _Shape:
    """The JSON pieces of ``result``'s shape (:func:`_shape_json`), found by every key; kept in
    :data:`_USUAL_SHAPES` too when the shape is the usual one: ``net`` and ``roles`` keyed by the players
    in seat order and ``score_steps`` by the keys of ``scores`` in their order."""
    net, scores, score_steps, roles = result.net, result.scores, result.score_steps, result.roles
    players = result.players
    shape = (result.region, result.unit, result.liable_rule, *players, _GAP, *net, _GAP, *scores, _GAP,
             *score_steps, _GAP, *roles)
    shaped = _SHAPES_JSON.get(shape) or _shape_json(result, shape)
    if [*net] == shaped[9] and [*roles] == shaped[9] and [*score_steps] == shaped[10]:
        _USUAL_SHAPES[(result.region, result.unit, result.liable_rule, players, tuple(scores))] = shaped
    return shaped


def _shape_json(result: Settlement, shape: tuple[Any, ...]) -> _Shape:
    """The JSON pieces of a settlement's shape in UTF-8 (``surrogatepass``), kept in :data:`_SHAPES_JSON`
    under ``shape``:

    * the head, as a ``%`` pattern of the net's numbers: ``, "region": "wuhan", "players": [...], "net":
      {"A": %d, ...}, "transfers": [`` (after the id) and ``{"region": ...`` (no id);
    * payer -> payee -> the start of the first payment (``{"from": "A", "to": "B", "amount": ``), and of
      a later one (``, {"from": "A", "to": "B", "amount": ``);
    * the texts of roles and of scores kept for the keys of the shape's (:func:`_roles_json`,
      :func:`_scores_json`);
    * the ``%`` patterns of ``scores`` (``: %d`` each, then ``}, "unit": ``) and of ``score_items``
      (``: %s``, for the items' bytes, then ``}, "liable_rule": <rule>, "reading": ``);
    * the unit's text (``"番", "liable": ``);
    * the players and the scores' keys as lists (to compare a settlement's key orders with,
      :func:`_shape_of`).

    TypeError when the players are not a tuple of text, a key is not text, the region or unit are not
    text or the ``liable_rule`` neither text nor None (then :meth:`Settlement.json_text` encodes the
    whole dict).
    """
    players = result.players
    rule = result.liable_rule
    if type(players) is not tuple or not _STR.issuperset(map(type, players)) or \
            not _STR.issuperset(map(type, result.roles)) or type(result.region) is not str or \
            type(result.unit) is not str or not (rule is None or type(rule) is str):
        raise TypeError("players not a tuple of text")
    names = {name: encode_basestring(name) for name in players}
    enc = _encoded
    head = _pattern(f'"region": {dumps(result.region)}, "players": {dumps(list(players))}, "net": {{') + \
        enc(_members(result.net, "%d") + '}, "transfers": [')
    if len(_SHAPES_JSON) >= SHAPES_KEPT:
        _SHAPES_JSON.clear()
        _USUAL_SHAPES.clear()
        _ROLES_KEPT.clear()
        _SCORES_KEPT.clear()
        _PARTS_FILLED[0] = 0
    role_keys, score_keys = tuple(result.roles), tuple(result.scores)
    shaped: _Shape = (
        b", " + head, b"{" + head,
        {payer: {payee: enc(f'{{"from": {text}, "to": {to}, "amount": ') for payee, to in names.items()}
         for payer, text in names.items()},
        {payer: {payee: enc(f', {{"from": {text}, "to": {to}, "amount": ') for payee, to in names.items()}
         for payer, text in names.items()},
        _ROLES_KEPT.get(role_keys) or _ROLES_KEPT.setdefault(role_keys, {}),
        _SCORES_KEPT.get(score_keys) or _SCORES_KEPT.setdefault(score_keys, {}),
        enc(_members(result.scores, "%d") + '}, "unit": '),
        enc(_members(result.score_steps, "%s")) + _pattern(f'}}, "liable_rule": {dumps(rule)}, "reading": '),
        enc(f'{dumps(result.unit)}, "liable": '), list(players), list(result.scores))
    _SHAPES_JSON[shape] = shaped
    return shaped


def _keep_part(table: dict[Any, Any], key: Any, part: Any) -> None:
    """Keep ``part`` in ``table`` (one of :data:`_ROLES_KEPT`' or :data:`_SCORES_KEPT`') under ``key``; past
    :data:`PARTS_KEPT` in all, every one of those tables is emptied first."""
    if _PARTS_FILLED[0] >= PARTS_KEPT:
        for roled in _ROLES_KEPT.values():
            roled.clear()
        for scored in _SCORES_KEPT.values():
            scored.clear()
        _PARTS_FILLED[0] = 0
    table[key] = part
    _PARTS_FILLED[0] += 1


def _roles_json(result: Settlement, shaped: _Shape, key: tuple[Any, ...]) -> _Roled:
    """The :data:`_Roled` texts of ``result`` (of the shape ``shaped``): kept in the shape's under ``key``
    (the next dealer, the liable player, the roles' values) when the next dealer and the liable player
    are text or None.  The roles' form is :func:`_role_form`."""
    next_dealer, liable = result.next_dealer, result.liable
    roled = (_encoded(f'], "next_dealer": {dumps(next_dealer)}, "roles": {dumps(_role_form(result.roles))}, '
                      f'"scores": {{'), _encoded(f'{dumps(liable)}, "notes": '))
    if (next_dealer is None or type(next_dealer) is str) and (liable is None or type(liable) is str):
        _keep_part(shaped[4], key, roled)
    return roled


def _scores_json(shaped: _Shape, numbers: tuple[int, ...]) -> bytes:
    """The text of the scores ``numbers`` (exact ints) of a settlement of the shape ``shaped``, to ``"unit":
    ``, kept in the shape's."""
    text = shaped[6] % numbers
    _keep_part(shaped[5], numbers, text)
    return text


def _members(table: dict[str, Any], spec: str) -> str:
    """The ``%`` pattern of a dict's members: each key's JSON text and ``: `` with ``spec`` (``%d``, ``%s``),
    ``, `` between, a ``%`` in a key doubled; TypeError when a key is not text."""
    if not _STR.issuperset(map(type, table)):
        raise TypeError("a key not text")
    return ", ".join([f"{encode_basestring(key).replace('%', '%%')}: {spec}" for key in table])


_TALLY_JSON: dict[int, bytes] = {}
"""``id`` of a score step -> the JSON text of its items in UTF-8, as ``score_items`` holds them; at most
:data:`ITEM_FORMS_KEPT`, emptied with :data:`_TALLIES_HELD`."""
_TALLIES_HELD: list[Step] = []
"""The score steps :data:`_TALLY_JSON` is keyed on, held so that an ``id`` there is never another object's."""


def _tally_json(step: Step) -> bytes:
    """The JSON text in UTF-8 of a score step's items as ``score_items`` holds them (a stated total: one
    ``stated`` item), kept in :data:`_TALLY_JSON` by the step's identity when the step can be hashed
    (one that cannot may change: worded every time)."""
    found = _TALLY_JSON.get(id(step))
    if found is not None:
        return found
    values = step.values
    if values.get("stated"):
        text = _encoded(dumps([{"item": "stated", "label": "报数", "value": values["total"]}]))
    else:
        text = _encoded(dumps([_score_item(item) for item in values.get("items", ())]))
    try:
        hash(step)
    except TypeError:
        return text
    if len(_TALLY_JSON) >= ITEM_FORMS_KEPT:
        _TALLY_JSON.clear()
        _TALLIES_HELD.clear()
    _TALLY_JSON[id(step)] = text
    _TALLIES_HELD.append(step)
    return text


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
