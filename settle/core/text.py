"""Message catalogs: the words of every :class:`~settle.core.steps.Step`, per language.

A :class:`Catalog` maps a step kind to a template for each language (``en``, ``zh``).  A template
is a :meth:`str.format` pattern over the step's values (``"= {limit}, the cap ({ref})"``), or a
function ``(values, lang) -> str`` for a step whose words need more than a pattern (a list of
names joined, a plural).  Values are formatted by :func:`shown`: amounts with :func:`show`, nested
steps rendered in the same language.

Each region keeps its catalog in its own package, chained to :data:`SHARED` (the machinery's steps:
caps, 承包 redirect ...) by ``parent``.  No code parses the text a catalog renders.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from json.encoder import encode_basestring
from typing import Any

from settle.core.steps import Step

Template = str | Callable[[Mapping[str, Any], str], str]
"""A ``str.format`` pattern over the step's values, or a function of (values, lang)."""

LANGS = ("en", "zh")

WORDS_KEPT = 8192
"""How many rendered steps, and how many explanations, a catalog keeps (see :meth:`Catalog.text`)."""


def _json_encoding() -> Callable[[Any], str]:
    """The json module's own encoder, made once: ``json.dumps(..., ensure_ascii=False)`` would build a
    :class:`json.JSONEncoder` per call, and its ``encode`` a C encoder per call (with these very
    arguments, :meth:`json.JSONEncoder.iterencode`); the C encoder is made here once and its chunks
    joined, as ``encode`` does.  It does not look for cycles (no ``markers``): what it encodes here
    is made of fresh and kept forms, none holding itself, and the text is the same.  Without the C
    encoder, ``JSONEncoder.encode``."""
    encoder = json.JSONEncoder(ensure_ascii=False, check_circular=False)
    make = getattr(json.encoder, "c_make_encoder", None)  # untyped in typeshed
    if make is None:
        return encoder.encode
    chunks = make(None, encoder.default, encode_basestring, None, encoder.key_separator, encoder.item_separator,
                  encoder.sort_keys, encoder.skipkeys, encoder.allow_nan)
    join = "".join
    return lambda value: join(chunks(value, 0))


dumps: Callable[[Any], str] = _json_encoding()
"""``value`` as JSON text, the same text as ``json.dumps(value, ensure_ascii=False)`` (``", "`` and
``": "`` between items, non-ASCII as it is, a lone surrogate too); ``value`` must hold no cycle
(RecursionError).  Raises TypeError for what JSON cannot hold, as ``json.dumps``."""


class Catalog:
    """Templates per language and step kind, falling back to ``parent`` for kinds it lacks.

    ``templates``: lang -> kind -> :data:`Template`.  :meth:`text` raises KeyError for a kind
    no catalog in the chain knows (a bug, never user input).  ``payment_json_held`` and
    ``notes_json_held`` are the tables :meth:`payment_json` and :meth:`notes_json` keep their texts in,
    for a hot path to look up first (read only).  ``json_forms`` (lang -> tables of UTF-8 forms, each
    holding what it is kept for) is where :meth:`settle.core.Settlement.json_bytes` keeps the forms it
    makes of this catalog's texts (:meth:`keep_form`).
    """

    __slots__ = ("_forms", "_forms_held", "_json_kept", "_lookup", "_note_texts", "_notes", "_notes_held", "_pieces",
                 "_pieces_held", "_whys", "_words", "json_forms", "name", "notes_json_held", "parent",
                 "payment_json_held", "templates")

    def __init__(self, templates: Mapping[str, Mapping[str, Template]], parent: Catalog | None = None,
                 name: str = "") -> None:
        self.templates = {lang: dict(kinds) for lang, kinds in templates.items()}
        self.parent = parent
        self.name = name
        self._lookup: dict[str, dict[str, Template]] = {}
        self._words: dict[tuple[str, Step], str] = {}
        self._whys: dict[tuple[str, tuple[Step, ...]], str] = {}
        self._forms: dict[tuple[str, tuple[Step, ...]], tuple[str, list[dict[str, Any]]]] = {}
        self._notes: dict[tuple[str, Step], tuple[str, dict[str, Any]]] = {}
        # the same, found by the steps' identity (no Python-level hash), holding the steps keyed on
        self._forms_held: dict[tuple[Any, ...], tuple[tuple[str, list[dict[str, Any]]], tuple[Step, ...]]] = {}
        self._notes_held: dict[tuple[str, int], tuple[tuple[str, dict[str, Any]], Step]] = {}
        # the JSON texts of payment_json and notes_json, by the steps' identity; _json_kept holds the
        # steps they key on (emptied with them), so that an ``id`` there is never another object's
        self.payment_json_held: dict[tuple[Any, ...], str] = {}
        self.notes_json_held: dict[tuple[Any, ...], tuple[str, str]] = {}
        self._json_kept: list[tuple[Step, ...]] = []
        self.json_forms: dict[str, Any] = {}
        # each step's part of a payment's JSON text (_step_piece), by (lang, id) holding the step, and by
        # (lang, step) for an equal step made anew (a scoring's table of steps emptied)
        self._pieces_held: dict[tuple[str, int], tuple[str, str, str, Step]] = {}
        self._pieces: dict[tuple[str, Step], tuple[str, str, str, Step]] = {}
        # the notes' texts by (lang, reasons), for equal steps made anew
        self._note_texts: dict[tuple[str, tuple[Step, ...]], tuple[str, str]] = {}

    def template(self, kind: str, lang: str) -> Template:
        """The template of ``kind`` in ``lang`` (this catalog's, else its parents')."""
        table = self._lookup.get(lang)
        if table is None:
            table = self._lookup[lang] = self._merged(lang)
        return table[kind]

    def _merged(self, lang: str) -> dict[str, Template]:
        base = self.parent._merged(lang) if self.parent is not None else {}
        return {**base, **self.templates.get(lang, {})}

    def kinds(self, lang: str = "en") -> set[str]:
        """Every kind this catalog (with its parents) has words for in ``lang``."""
        return set(self._merged(lang))

    def text(self, item: Step, lang: str = "en") -> str:
        """The words of one step in ``lang``.

        Steps of the same shape and values recur across a batch (``2^(1+2)``, ``= 480, capped at 400``),
        so the words are kept per (lang, step) where the step is hashable (:class:`Step`): a bounded
        table, emptied when it grows past :data:`WORDS_KEPT`.
        """
        key = (lang, item)
        try:
            words = self._words.get(key)
        except TypeError:  # a value that cannot be hashed (a list): worded every time
            return self._render(item, lang)
        if words is None:
            words = self._render(item, lang)
            if len(self._words) >= WORDS_KEPT:
                self._words.clear()
            self._words[key] = words
        return words

    def _render(self, item: Step, lang: str) -> str:
        template = self.template(item.kind, lang)
        values = _Shown({"rule": item.rule, **item.values}, self, lang)  # ``{rule}`` is the step's ruling
        if isinstance(template, str):
            return template.format_map(values)
        return template(values, lang)

    def why(self, steps: Iterable[Step], lang: str = "en") -> str:
        """A payment's explanation: the first step (its formula), then each later step, after a
        space when it reads on with ``=`` (``= 480, capped at 400``), else after ``; `` (``；`` in Chinese).

        Kept per (lang, steps) like :meth:`text`'s words.
        """
        key = (lang, steps if type(steps) is tuple else tuple(steps))
        try:
            words = self._whys.get(key)
        except TypeError:
            return self._join(key[1], lang)
        if words is None:
            words = self._join(key[1], lang)
            if len(self._whys) >= WORDS_KEPT:
                self._whys.clear()
            self._whys[key] = words
        return words

    def forms(self, steps: tuple[Step, ...], lang: str = "en") -> tuple[str, list[dict[str, Any]]]:
        """``(why, [step.as_dict() ...])`` of a payment's steps, kept per (lang, steps) like :meth:`why`.

        The list and its dicts are shared by every payment with the same steps: read only (the
        JSON line encodes them at once); :meth:`~settle.core.steps.Step.as_dict` gives fresh ones.
        Steps kept by the scoring recur as the same objects, so the forms are first looked up by the
        steps' identity (``id`` of each, a key that needs no :meth:`Step.__hash__`): the table holds
        the steps it keys on, so an ``id`` in it is never another object's.  Steps that cannot be
        hashed are formed afresh each time, as by :meth:`why`.
        """
        held = self._forms_held
        key = (lang, *map(id, steps))
        found = held.get(key)
        if found is not None:
            return found[0]
        try:
            form = self._forms.get((lang, steps))
        except TypeError:
            return self._join(steps, lang), [item.as_dict() for item in steps]
        if form is None:
            form = self._join(steps, lang), [item.as_dict() for item in steps]
            if len(self._forms) >= WORDS_KEPT:
                self._forms.clear()
            self._forms[(lang, steps)] = form
        if len(held) >= WORDS_KEPT:
            held.clear()
        held[key] = form, steps
        return form

    def note(self, item: Step, lang: str = "en") -> tuple[str, dict[str, Any]]:
        """``(words, item.as_dict())`` of a reason, kept per (lang, step), and found first by the step's
        identity like :meth:`forms`; the dict is shared: read only."""
        held = self._notes_held
        key = (lang, id(item))
        found = held.get(key)
        if found is not None:
            return found[0]
        try:
            form = self._notes.get((lang, item))
        except TypeError:
            return self._render(item, lang), item.as_dict()
        if form is None:
            form = self._render(item, lang), item.as_dict()
            if len(self._notes) >= WORDS_KEPT:
                self._notes.clear()
            self._notes[(lang, item)] = form
        if len(held) >= WORDS_KEPT:
            held.clear()
        held[key] = form, item
        return form

    def notes_kept(self, item: Step, lang: str = "en") -> bool:
        """Whether :meth:`note` keeps the words of ``item`` in ``lang`` by its identity now (it keeps those of
        a step that can be hashed)."""
        return (lang, id(item)) in self._notes_held

    def payment_json(self, steps: tuple[Step, ...], lang: str = "en") -> str:
        """The JSON text that follows a payment's ``amount``: ``, "why": <why>, "steps": [<forms>]``, in
        ``lang``, as ``json.dumps`` (``ensure_ascii=False``) writes those members of ``{"why": why,
        "steps": forms}`` (:meth:`forms`), with ``, `` before them.

        Kept by the steps' identity in :attr:`payment_json_held` under ``(lang, *map(id, steps))`` (the
        steps are held meanwhile, so an ``id`` there is never another object's): a caller on a hot path
        looks that key up first and calls this on a miss.  A miss (steps met before, but not together)
        joins each step's kept part (:meth:`_step_piece`: its words escaped as the json encoder escapes
        them, with what goes before them when they read on, and its form's JSON text): escaping is per
        character, so the escaped words joined are the joined words escaped.  The table at most
        :data:`WORDS_KEPT` (with the steps it holds).  Steps that cannot be hashed are not kept.
        """
        key = (lang, *map(id, steps))
        found = self.payment_json_held.get(key)
        if found is not None:
            return found
        held = self._pieces_held
        pieces: list[tuple[str, str, str, Step]] = []
        for item in steps:
            piece = held.get((lang, id(item))) or self._step_piece(item, lang)
            if piece is None:  # a value that cannot be hashed: worded afresh, not kept
                why, forms = self.forms(steps, lang)
                return f', "why": {dumps(why)}, "steps": {dumps(forms)}'
            pieces.append(piece)
        if pieces:
            first = pieces[0]
            text = (f', "why": "{first[0]}{"".join([piece[1] for piece in pieces[1:]])}", "steps": '
                    f'[{", ".join([piece[2] for piece in pieces])}]')
        else:
            text = ', "why": "", "steps": []'
        self._keep_json(steps)
        self.payment_json_held[key] = text
        return text

    def step_piece(self, item: Step, lang: str) -> tuple[str, str, str, Step] | None:
        """A step's part of :meth:`payment_json` in ``lang``: ``(words, later, form, item)`` as
        :meth:`_step_piece` makes and keeps it (None for a step that cannot be hashed)."""
        return self._pieces_held.get((lang, id(item))) or self._step_piece(item, lang)

    def _step_piece(self, item: Step, lang: str) -> tuple[str, str, str, Step] | None:
        """A step's part of :meth:`payment_json` in ``lang``: ``(words, later, form, item)``, where ``words``
        is the JSON text of its words (:meth:`text`) without the quotes, ``later`` the same after what
        joins it to the step before (:meth:`_join`: a space before ``=``, else ``; ``/``；``) and ``form``
        the JSON text of :meth:`~settle.core.steps.Step.as_dict`.  Kept by (lang, step) and by the step's
        identity (each table at most :data:`WORDS_KEPT`); None for a step that cannot be hashed."""
        try:
            piece = self._pieces.get((lang, item))
        except TypeError:
            return None
        if piece is None:
            words = self._render(item, lang)
            escaped = encode_basestring(words)[1:-1]
            later = (" " if words.startswith("=") else "；" if lang == "zh" else "; ") + escaped
            piece = (escaped, later, dumps(item.as_dict()), item)
            if len(self._pieces) >= WORDS_KEPT:
                self._pieces.clear()
            self._pieces[(lang, item)] = piece
        held = self._pieces_held
        if len(held) >= WORDS_KEPT:
            held.clear()
        held[(lang, id(item))] = piece  # the piece holds the step: an id here is never another object's
        return piece

    def notes_json(self, reasons: tuple[Step, ...], lang: str = "en") -> tuple[str, str]:
        """The JSON texts of a settlement's ``notes`` (the reasons' words in ``lang``, :meth:`note`) and
        ``reasons`` (their :meth:`~settle.core.steps.Step.as_dict` forms): two lists, as ``json.dumps``
        writes them (``ensure_ascii=False``).  Kept by the reasons' identity in :attr:`notes_json_held`
        under ``(lang, *map(id, reasons))``, then by (lang, reasons), like :meth:`payment_json`."""
        key = (lang, *map(id, reasons))
        found = self.notes_json_held.get(key)
        if found is not None:
            return found
        try:
            texts = self._note_texts.get((lang, reasons))
        except TypeError:
            return self._notes_json(reasons, lang)
        if texts is None:
            texts = self._notes_json(reasons, lang)
            if len(self._note_texts) >= WORDS_KEPT:
                self._note_texts.clear()
            self._note_texts[(lang, reasons)] = texts
        self._keep_json(reasons)
        self.notes_json_held[key] = texts
        return texts

    makes_fresh_notes = False
    """Whether :meth:`fresh_notes_utf8` may give texts (a catalog of hands settled from tiles); when False,
    a caller need not ask it."""

    def fresh_notes_utf8(self, reasons: tuple[Step, ...], lang: str = "en") -> tuple[bytes, bytes] | None:
        """:meth:`notes_json` of ``reasons`` in UTF-8 (``surrogatepass``) when this catalog makes those texts
        afresh for this one settlement (a step of the hand's own among them), so that a caller writing
        bytes need neither keep nor look up texts seen once; None otherwise (then :meth:`notes_json`,
        whose texts are kept).  This catalog keeps every text it makes: None."""
        return None

    def _notes_json(self, reasons: tuple[Step, ...], lang: str) -> tuple[str, str]:
        words: list[str] = []
        forms: list[dict[str, Any]] = []
        for item in reasons:
            said, form = self.note(item, lang)
            words.append(said)
            forms.append(form)
        return dumps(words), dumps(forms)

    @staticmethod
    def keep_form(table: dict[Any, Any], key: Any, form: Any) -> None:
        """Keep ``form`` in ``table`` (one of :attr:`json_forms`') under ``key``, after emptying the table when
        it holds :data:`WORDS_KEPT` forms."""
        if len(table) >= WORDS_KEPT:
            table.clear()
        table[key] = form

    def _keep_json(self, steps: tuple[Step, ...]) -> None:
        """Hold ``steps`` while a JSON text is kept by their identity; past :data:`WORDS_KEPT` of them,
        empty both tables of JSON texts (and what they hold) first."""
        kept = self._json_kept
        if len(kept) >= WORDS_KEPT:
            kept.clear()
            self.payment_json_held.clear()
            self.notes_json_held.clear()
        kept.append(steps)

    def _join(self, steps: tuple[Step, ...], lang: str) -> str:
        out = ""
        then = "；" if lang == "zh" else "; "
        for i, item in enumerate(steps):
            words = self.text(item, lang)
            out = words if i == 0 else out + (" " if words.startswith("=") else then) + words
        return out


class _Shown(dict[str, Any]):
    """The values of a step as a template sees them: amounts shown, nested steps in words."""

    def __init__(self, values: Mapping[str, Any], catalog: Catalog, lang: str) -> None:
        super().__init__(values)
        self.catalog, self.lang = catalog, lang

    def __getitem__(self, key: str) -> Any:
        return shown(super().__getitem__(key), self.catalog, self.lang)

    def raw(self, key: str) -> Any:
        """The value as the step holds it (a list, a number), for function templates."""
        return super().__getitem__(key)


_AS_IT_IS = frozenset({int, str, bool, type(None)})
"""Types :func:`shown` gives back as they are (exact types: neither a step nor a Fraction)."""


def shown(value: Any, catalog: Catalog, lang: str) -> Any:
    """A value as text goes: a nested step in words, an amount by :func:`show`, else as it is."""
    if type(value) in _AS_IT_IS:
        return value
    if isinstance(value, Step):
        return catalog.text(value, lang)
    if isinstance(value, Fraction):
        return show(value)
    return value


def show(amount: int | Fraction) -> str:
    """An amount for an explanation: ``240``, ``1.5`` for halves, else ``7/3``."""
    if type(amount) is int:  # most amounts: no ×1.5 involved
        return str(amount)
    if isinstance(amount, Fraction):  # one check: a Fraction's isinstance goes through its ABC
        denominator = amount.denominator
        if denominator == 2:
            return f"{amount.numerator // 2}.5"
        if denominator != 1:
            return str(amount)
    return str(int(amount))


def signed(n: int) -> str:
    """``+12``, ``0``, ``-5``."""
    return f"+{n}" if n > 0 else str(n)


def plural(n: int, noun: str) -> str:
    """``1 kong``, ``2 kongs``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
