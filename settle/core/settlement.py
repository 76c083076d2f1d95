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

        The parts that recur across hands as the same objects are encoded once and their bytes kept:
        each payment's ``why`` and ``steps`` (:meth:`Catalog.payment_json`, by the steps' identity), the
        notes and reasons (:meth:`Catalog.notes_json`; texts made for one settlement alone,
        such as a tile reading's, in UTF-8 at once and not kept: :meth:`Catalog.fresh_notes_utf8`), each
        score step's items, the roles, ``scores``
        filled in, and per shape (the players and the keys of ``net``, ``scores``, ``score_items`` and
        ``roles``) the names with the punctuation around them (:func:`_shape_json`); all in bounded
        tables (:data:`SHAPES_KEPT`, :data:`ITEM_FORMS_KEPT`, :data:`~settle.core.text.WORDS_KEPT`; the
        catalog's texts as UTF-8 in :data:`_UTF8`).
        Per call only the hand's own values are encoded: its id by
        :func:`json.encoder.encode_basestring` (the json encoder's own escaper), whole numbers as
        ``int`` writes them.  Anything of another type than the usual (a bool or a Fraction where an
        int is expected, a name that is not text, a payer not seated, a cap not in :data:`CAP_MARKS`,
        a value that cannot be hashed) sends the whole dict through the json encoder instead, so the
        bytes never differ; what JSON cannot hold raises TypeError, as ``json.dumps`` does.
        """
        try:
            net_values = tuple(self.net.values())
            score_values = tuple(self.scores.values())
            if not _INT.issuperset(map(type, net_values + score_values)):
                raise TypeError("not an int")  # a bool, a Fraction ...: the json encoder says how
            score_steps = self.score_steps
            roles = self.roles
            shape = (*self.players, _GAP, *self.net, _GAP, *self.scores, _GAP, *score_steps, _GAP, *roles)
            players_text, net_form, score_form, item_form, starts, froms, tos, nexts, liables, role_keys = \
                _SHAPES_JSON.get(shape) or _shape_json(self, shape)
            ident = self.id if label is None else label
            utf8 = _UTF8
            out = [
                b"{" if ident is None else
                (b'{"id": %s, ' % (encode_basestring(ident) if type(ident) is str else dumps(ident))
                 .encode("utf-8", "surrogatepass")),
                _REGION_JSON.get(self.region) or _baked(_REGION_JSON, self.region, '"region": ', ', "players": '),
                players_text, net_form % net_values,
            ]
            catalog = self.catalog
            held = catalog.payment_json_held
            caps = _CAP_JSON
            last: tuple[Step, ...] | None = None  # the steps of the payment before, and their text's bytes
            why_utf8 = b""
            for t in self.transfers:  # the first from starts, each later one after ", " (froms)
                steps = t.steps
                amount = t.amount
                if type(amount) is not int:
                    raise TypeError("not an int")
                if steps is not last:  # a self-draw's losers usually owe by the same steps (one object)
                    why = held.get((lang, *map(id, steps))) or catalog.payment_json(steps, lang)
                    why_utf8 = utf8.get(why) or _utf8(why)
                    last = steps
                out += (starts[t.payer], tos[t.payee], b"%d" % amount, why_utf8, caps[t.cap])
                starts = froms
            reasons = self.reasons
            # Texts made for this settlement alone (a tile reading's groups) are written at once, not kept.
            fresh = catalog.fresh_notes_utf8(reasons, lang) if catalog.makes_fresh_notes else None
            if fresh is None:
                notes, reason_forms = catalog.notes_json_held.get((lang, *map(id, reasons))) or \
                    catalog.notes_json(reasons, lang)
                notes_utf8 = utf8.get(notes) or _utf8(notes)
                forms_utf8 = utf8.get(reason_forms) or _utf8(reason_forms)
            else:
                notes_utf8, forms_utf8 = fresh
            roles_text = _ROLES_JSON.get(roles_key := (role_keys, tuple(roles.values()))) or \
                _roles_json(roles, roles_key)
            items = tuple(map(_TALLY_JSON.get, map(id, score_steps.values())))
            if None in items:
                items = tuple(map(_tally_json, score_steps.values()))
            out += (
                nexts.get(self.next_dealer) or
                b'], "next_dealer": %s, "roles": ' % dumps(self.next_dealer).encode("utf-8", "surrogatepass"),
                roles_text, _SCORES_JSON.get(score_key := (score_form, score_values)) or _scores_json(score_key),
                _UNIT_JSON.get(self.unit) or _baked(_UNIT_JSON, self.unit, "", ', "liable": '),
                liables.get(self.liable) or b'%s, "notes": ' % dumps(self.liable).encode("utf-8", "surrogatepass"),
                notes_utf8,
                _NO_FORFEIT_JSON if self.forfeit is None else
                f', "forfeit": {dumps(self.forfeit.as_dict(lang))}, "score_items": {{'.encode("utf-8", "surrogatepass"),
                item_form % items,
                _RULE_JSON.get(self.liable_rule) or _baked(_RULE_JSON, self.liable_rule, "", ', "reading": '),
                _NO_READING_JSON if self.reading is None else _reading_json(self.reading),
                forms_utf8, _END_JSON,
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
_NO_FORFEIT_JSON = b', "score_items": {'
_NO_READING_JSON = b'null, "reasons": '
_END_JSON = f', "format_version": {FORMAT_VERSION}}}'.encode()
_REGION_JSON: dict[Any, bytes] = {}
"""A region -> ``"region": <its JSON>, "players": ``; at most :data:`ITEM_FORMS_KEPT` (:func:`_baked`)."""
_UNIT_JSON: dict[Any, bytes] = {}
"""A unit -> ``<its JSON>, "liable": ``; likewise."""
_RULE_JSON: dict[Any, bytes] = {None: b'null, "reading": '}
"""A ``liable_rule`` -> ``<its JSON>, "reading": ``; likewise."""


def _encoded(text: str) -> bytes:
    """``text`` in UTF-8, a lone surrogate as its three bytes (``surrogatepass``, as the batch writes it)."""
    return text.encode("utf-8", "surrogatepass")


_UTF8: dict[str, bytes] = {}
"""A kept text of the catalog (:meth:`Catalog.payment_json`, :meth:`Catalog.notes_json`: the same ``str``
objects hand after hand, their hash kept) -> its UTF-8 (:func:`_utf8`); at most
:data:`~settle.core.text.WORDS_KEPT`, then emptied."""


def _utf8(text: str) -> bytes:
    """:func:`_encoded` of ``text``, kept in :data:`_UTF8`."""
    data = _encoded(text)
    if len(_UTF8) >= WORDS_KEPT:
        _UTF8.clear()
    _UTF8[text] = data
    return data


def _baked(table: dict[Any, bytes], value: Any, before: str, after: str) -> bytes:
    """``before`` + the JSON text of ``value`` + ``after`` in UTF-8 (``surrogatepass``), kept in ``table``
    when ``value`` is plain text or None (at most :data:`ITEM_FORMS_KEPT`, then emptied)."""
    text = _encoded(f"{before}{dumps(value)}{after}")
    if type(value) is str or value is None:
        if len(table) >= ITEM_FORMS_KEPT:
            table.clear()
        table[value] = text
    return text


_Shape = tuple[bytes, bytes, bytes, bytes, dict[str, bytes], dict[str, bytes], dict[str, bytes], dict[Any, bytes],
               dict[Any, bytes], tuple[str, ...]]
_SHAPES_JSON: dict[tuple[Any, ...], _Shape] = {}
"""A settlement's shape (the players, then the keys of ``net``, ``scores``, ``score_steps`` and ``roles``,
with :data:`_GAP` between) -> its JSON pieces (:func:`_shape_json`); at most :data:`SHAPES_KEPT`."""
SHAPES_KEPT = 1024
"""How many shapes :meth:`Settlement.json_text` keeps the pieces of (a few kB each)."""


def _shape_json(result: Settlement, shape: tuple[Any, ...]) -> _Shape:
    """The JSON pieces of a settlement's shape in UTF-8 (``surrogatepass``), kept in :data:`_SHAPES_JSON`
    under ``shape``:

    * ``[<the players>], "net": {``;
    * the ``%`` patterns of ``net`` and ``scores`` (each key's text, ``: %d``, ``, `` between, a ``%`` in
      a name doubled) and of ``score_items`` (``: %s``, for the items' bytes), each with the end of the
      dict and what follows it
      (``}, "transfers": [``, ``}, "unit": ``, ``}, "liable_rule": ``);
    * name -> the start of the first payment, from the player (``{"from": "A", "to": ``), and of a
      later one (``, {"from": "A", "to": ``); name -> the payee's part (``"B", "amount": ``);
    * the next dealer (a name or None) -> ``], "next_dealer": "A", "roles": ``; the liable player
      (a name or None) -> ``"B", "notes": ``;
    * the keys of the roles (a tuple the roles' texts are kept under, :func:`_roles_json`).

    TypeError when the players are not a tuple of text, or a key is not text (then
    :meth:`Settlement.json_text` encodes the whole dict).
    """
    players = result.players
    if type(players) is not tuple or not _STR.issuperset(map(type, players)) or \
            not _STR.issuperset(map(type, result.roles)):
        raise TypeError("players not a tuple of text")
    names = {name: encode_basestring(name) for name in players}
    enc = _encoded
    shaped: _Shape = (
        enc(f'{dumps(list(players))}, "net": {{'), enc(_members(result.net, "%d") + '}, "transfers": ['),
        enc(_members(result.scores, "%d") + '}, "unit": '),
        enc(_members(result.score_steps, "%s") + '}, "liable_rule": '),
        {name: enc(f'{{"from": {text}, "to": ') for name, text in names.items()},
        {name: enc(f', {{"from": {text}, "to": ') for name, text in names.items()},
        {name: enc(f'{text}, "amount": ') for name, text in names.items()},
        {None: b'], "next_dealer": null, "roles": ',
         **{name: enc(f'], "next_dealer": {text}, "roles": ') for name, text in names.items()}},
        {None: b'null, "notes": ', **{name: enc(f'{text}, "notes": ') for name, text in names.items()}},
        tuple(result.roles))
    if len(_SHAPES_JSON) >= SHAPES_KEPT:
        _SHAPES_JSON.clear()
    _SHAPES_JSON[shape] = shaped
    return shaped


_SCORES_JSON: dict[tuple[bytes, tuple[int, ...]], bytes] = {}
"""(The ``%`` pattern of ``scores``, its whole numbers) -> the pattern filled in: the counts recur (a few
番/斤 each), so most hands find theirs; at most :data:`ITEM_FORMS_KEPT`.  Only exact ints are looked up
(``1`` and ``True`` are equal keys)."""


def _scores_json(key: tuple[bytes, tuple[int, ...]]) -> bytes:
    """``pattern % numbers`` for ``key`` (pattern, numbers), kept in :data:`_SCORES_JSON`."""
    text = key[0] % key[1]
    if len(_SCORES_JSON) >= ITEM_FORMS_KEPT:
        _SCORES_JSON.clear()
    _SCORES_JSON[key] = text
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


_ROLES_JSON: dict[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], bytes] = {}
"""(The roles' keys, their values) -> the JSON text of their form (:func:`_role_form`) and ``, "scores": {``;
at most :data:`ITEM_FORMS_KEPT`.  The keys are a shape's tuple (:func:`_shape_json`), the same object for
every settlement of that shape."""


def _roles_json(roles: dict[str, tuple[str, ...]], key: tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]) -> bytes:
    """The JSON text of the roles' form and ``, "scores": {`` in UTF-8, kept in :data:`_ROLES_JSON` under
    ``key``."""
    text = _encoded(f'{dumps(_role_form(roles))}, "scores": {{')
    if len(_ROLES_JSON) >= ITEM_FORMS_KEPT:
        _ROLES_JSON.clear()
    _ROLES_JSON[key] = text
    return text


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
