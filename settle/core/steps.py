"""Reasons as data (issue 13): every step of an amount, and every rule applied, is a :class:`Step`.

A step is a light record: the ruling id it applies (``H5``, ``W8``, ``R7``, or ``""``), a *kind*
naming what happened (``cap``, ``golden``, ``liable``, ``power`` ...), and its values (names of
the step's choosing: amounts in points, 番/斤 counts, player names, canonical keys).  Computing an
amount builds steps and never text; the words are rendered from the message catalogs
(:mod:`settle.core.text`) only when output asks for them, in English or Chinese.

Values are plain data: ``int``, :class:`fractions.Fraction` (an amount before a cap, ×1.5), ``str``,
``bool``, ``None``, lists/tuples of those, and nested steps (the trigger of a 承包, for example).
:func:`jsonable` turns them into JSON (a Fraction becomes ``"135/2"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple


class Step(NamedTuple):
    """One step of an amount or one rule application: ``rule`` (ruling id, may be empty),
    ``kind`` (the template key) and ``values`` (the numbers and names the text shows)."""

    rule: str
    kind: str
    values: Mapping[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """JSON form: ``{"rule", "kind", "values"}`` (``rule`` null when the step applies no ruling)."""
        return {"rule": self.rule or None, "kind": self.kind, "values": jsonable(self.values)}


def jsonable(value: Any) -> Any:
    """``value`` as JSON-ready data: steps as dicts, Fractions as ``"n/d"`` text (whole ones as int)."""
    if isinstance(value, Step):
        return value.as_dict()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value
