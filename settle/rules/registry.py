"""The rule sets settle knows, one module each, and the :class:`Region` each module exports.

A region module (``wuhan``, ``wuxue``, ``rushan``) is a rule book: its options model,
its vocabulary tables (fan name -> value), its checks and its scoring.  The shared
machinery (transfers, caps, 包牌, explanations) is in :mod:`settle.core`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from settle.core import Settlement
from settle.errors import HandError, Problem
from settle.vocab import KongKind, Pattern, Term, lookup_table, simplified

CheckFn = Callable[[Any], list[Problem]]
SettleFn = Callable[[Any], Settlement]


@dataclass(frozen=True)
class Region:
    """Everything the shared layers need to know about one rule set.

    ``seats``: allowed player counts (W14, H11, R11); ``unit``: 番, 斤 or 分;
    ``patterns``/``kongs``: the vocabulary tables; ``options``: the options model;
    ``hand_model``: the ``Hand`` model built for this region (:func:`settle.model.hand_model`); ``check`` returns the
    region's legality problems (G10, G13 ...); ``settle`` scores a checked hand.
    ``explicit_totals``: whether a per-player ``fans``/``jin`` total is allowed (G5);
    ``has_fish``: 飘鱼 exists (R6); ``has_abandon``: 逃跑 exists (H9);
    ``dealer_needed_on_win``: the dealer matters even when someone wins.
    """

    term: Term
    unit: str
    seats: tuple[int, ...]
    patterns: Mapping[str, Pattern]
    kongs: Mapping[str, KongKind]
    options: type[BaseModel]
    hand_model: type[BaseModel]
    check: CheckFn
    settle: SettleFn
    explicit_totals: bool = True
    has_fish: bool = False
    has_abandon: bool = False
    dealer_needed_on_win: bool = True

    @property
    def key(self) -> str:
        """Canonical region key: ``wuhan``, ``wuxue`` or ``rushan``."""
        return self.term.key


REGION_TERMS: dict[str, Term] = {
    t.key: t
    for t in (
        Term("wuhan", "武汉", "Wuhan 红中赖子杠 (seed 004)", aliases=("红中赖子杠", "武汉麻将")),
        Term("wuxue", "武穴", "Wuxue, Huanggang (seed 000)", aliases=("武穴麻将",)),
        Term("rushan", "乳山", "Rushan, Weihai (seed 003)", aliases=("乳山麻将",)),
    )
}
_LOOKUP = lookup_table(REGION_TERMS.values())


def region_key(value: object) -> str:
    """Canonical key of a region name or alias; raises :class:`HandError` at ``region``."""
    if not isinstance(value, str):
        raise HandError.at(("region",), f"region must be a name, got {value!r}; {_allowed()}")
    key = _LOOKUP.get(simplified(value.strip()).lower())
    if key is None:
        raise HandError.at(("region",), f"unknown region {value!r}; {_allowed()}")
    return key


@functools.cache
def get_region(key: str) -> Region:
    """The :class:`Region` of a canonical key (modules are imported on first use)."""
    module = importlib.import_module(f"settle.rules.{key}")
    return module.REGION


def all_regions() -> list[Region]:
    """Every region, in the order of :data:`REGION_TERMS`."""
    return [get_region(key) for key in REGION_TERMS]


def foreign_term(own: str, kind: str) -> Callable[[str], str | None]:
    """A hint for a vocabulary word that belongs to another region ("qidui is Wuxue/Rushan")."""

    def hint(word: str) -> str | None:
        owners = [
            REGION_TERMS[key].zh + " " + key
            for key in REGION_TERMS
            if key != own and word.lower() in _vocabulary_words(key, kind)
        ]
        if not owners:
            return None
        return f"{word!r} is not a {own} {kind} (it belongs to {', '.join(owners)})"

    return hint


def _vocabulary_words(key: str, kind: str) -> set[str]:
    module = get_region(key)
    table = module.patterns if kind == "fan" else module.kongs
    return set(lookup_table(table.values()))


def _allowed() -> str:
    return "allowed: " + ", ".join(t.label for t in REGION_TERMS.values())
