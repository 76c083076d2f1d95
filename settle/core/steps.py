"""Reasons as data (issue 13): every step of an amount, and every rule applied, is a :class:`Step`.

A step is a light record: the ruling id it applies (``H5``, ``W8``, ``R7``, or ``""``), a *kind*
naming what happened (``cap``, ``golden``, ``liable``, ``power`` ...), and its values (names of
the step's choosing: amounts in points, 番/斤 counts, player names, canonical keys).  Computing an
amount builds steps and never text; the words are rendered from the message catalogs
(:mod:`settle.core.text`) only when output asks for them, in English or Chinese.

Values are plain data: ``int``, :class:`fractions.Fraction` (an amount before a cap, ×1.5), ``str``,
``bool``, ``None``, lists/tuples of those, and nested steps (the trigger of a 承包, for example).
:func:`jsonable` turns them into JSON (a Fraction becomes ``"135/2"``).  A step is hashable when
its values are (tuples rather than lists), so the catalogs can keep its words and JSON form per
step (:meth:`settle.core.text.Catalog.forms`).  As equal steps share what is kept, a kind builds
its values in one key order, and a value's type is fixed per kind and key (a flag always a bool,
never 0/1).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

PLAIN = frozenset({int, str, bool, type(None)})
"""Types a value keeps as it is in JSON (exact types: a subclass goes the long way)."""


class Step(NamedTuple):
    """One step of an amount or one rule application: ``rule`` (ruling id, may be empty),
    ``kind`` (the template key) and ``values`` (the numbers and names the text shows)."""

    rule: str
    kind: str
    values: Mapping[str, Any]

    def __hash__(self) -> int:
        """A hash of kind, rule and the values (TypeError when a value cannot be hashed); the keys
        are left out, as a kind has the same ones (equal steps still hash alike)."""
        return hash((self.kind, self.rule, *self.values.values()))

    def as_dict(self) -> dict[str, Any]:
        """JSON form: ``{"rule", "kind", "values"}`` (``rule`` null when the step applies no ruling).

        A fresh dict each time (the caller may change it); values of :data:`PLAIN` types only are
        copied as they are, others go through :func:`jsonable`.
        """
        values = self.values
        return {"rule": self.rule or None, "kind": self.kind,
                "values": dict(values) if PLAIN.issuperset(map(type, values.values()))
                else {str(k): jsonable(v) for k, v in values.items()}}


def jsonable(value: Any) -> Any:
    """``value`` as JSON-ready data: steps as dicts, Fractions as ``"n/d"`` text (whole ones as int),
    mappings as dicts with text keys, lists and tuples as lists (always new containers)."""
    kind = type(value)
    if kind in PLAIN:
        return value
    if kind is tuple or kind is list:
        return list(value) if PLAIN.issuperset(map(type, value)) else [jsonable(v) for v in value]
    if kind is Fraction:
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if kind is Step:
        return value.as_dict()
    if kind is dict:
        return {str(k): jsonable(v) for k, v in value.items()}
    # the same, for subclasses and other mappings
    if isinstance(value, Step):
        return value.as_dict()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value
