"""One hand of a batch: its label and its settlement or its error (:class:`Outcome`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from settle.core import Settlement
from settle.engine.hand import settle_hand, settle_model, settle_models
from settle.errors import HandError
from settle.model import Hand
from settle.rules.registry import Region


@dataclass(slots=True)
class Outcome:
    """One hand of a batch: ``label`` (its id, or ``file:index``) and the result or the error.

    Treated as immutable (not frozen, so that making one, once per hand, costs three attribute stores)."""

    label: str
    result: Settlement | None = None
    error: HandError | None = None


def hand_label(data: Any, source: str, index: int) -> str:
    """The hand's ``id`` (text or whole number, as text) when it has one, else ``source:index``
    (the same rule as :attr:`settle.loader.Document.label`)."""
    if isinstance(data, Mapping):
        given = data.get("id")
        if (isinstance(given, str) and given) or (isinstance(given, int) and not isinstance(given, bool)):
            return str(given)
    return f"{source}:{index}"


def settle_data(data: Any, label: str, lines: dict[Any, int], source: str) -> Outcome:
    """Settle one parsed hand into an :class:`Outcome`; never raises for bad input: a
    :class:`HandError` comes back in ``error``, located (``lines``, hand ``label``, ``source``)."""
    try:
        return Outcome(label, settle_hand(data))
    except HandError as exc:
        return Outcome(label, error=exc.located(lines, hand=str(label), source=source))


def settle_validated(region: Region, hand: Hand, label: str, line: int, source: str) -> Outcome:
    """:func:`settle_data` of a hand already validated (:func:`settle.engine.validation.lean_line`):
    what :func:`settle.engine.hand.settle_hand` does after validating (:func:`~settle.engine.hand.settle_model`:
    the rule checks and the region's scoring, or the tile level for a hand with tiles), on ``line`` of
    ``source`` (a JSON line: every key on it); never raises for bad input."""
    try:
        return Outcome(label, settle_model(region, hand))
    except HandError as exc:
        return Outcome(label, error=exc.located({(): line}, hand=str(label), source=source))


def settle_validated_all(region: Region, hands: Sequence[Hand], labels: Sequence[str], lines: Sequence[int],
                         source: str) -> list[Outcome]:
    """:func:`settle_validated` of each of ``hands`` (of ``region``), with its label and line, in order,
    the hands settled together (:func:`~settle.engine.hand.settle_models`: hands with tiles step by step
    over all of them)."""
    out = []
    for label, line, result in zip(labels, lines, settle_models([(region, hand) for hand in hands]), strict=True):
        if isinstance(result, HandError):
            out.append(Outcome(label, error=result.located({(): line}, hand=str(label), source=source)))
        else:
            out.append(Outcome(label, result))
    return out
