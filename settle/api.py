"""Library entry points: validate a hand, settle it.  Pure functions, no I/O.

>>> from settle import settle_hand
>>> result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
...                       "win": {"winner": "D", "by": "discard", "from": "A"},
...                       "fans": {"A": 3, "B": 2, "C": 3, "D": 4}})
>>> result.net
{'A': -128, 'B': -64, 'C': -128, 'D': 320}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from settle.checks import common_problems
from settle.core import Settlement
from settle.errors import HandError, Path, Problem
from settle.regions import Region, get_region, region_key


def parse_hand(data: Mapping[str, Any]) -> tuple[Region, Any]:
    """Validate a hand document (plain dict) into its region and region-typed ``Hand`` model.

    Raises :class:`HandError` listing every problem found: pydantic's (types, unknown keys,
    vocabulary) first; when those pass, the shared and the region's rule checks.
    """
    if not isinstance(data, Mapping):
        raise HandError.at((), f"a hand must be a mapping of keys (region, players, ...), "
                               f"got {type(data).__name__}")
    if "region" not in data:
        raise HandError.at(("region",), "missing: `region` (wuhan 武汉, wuxue 武穴 or rushan 乳山)")
    region = get_region(region_key(data["region"]))
    try:
        hand = region.hand_model.model_validate({**data, "region": region.key})
    except ValidationError as exc:
        raise HandError(pydantic_problems(exc, data)) from None
    problems = common_problems(hand, region)
    if not problems:
        problems = region.check(hand)
    if problems:
        raise HandError(problems)
    return region, hand


def settle_hand(data: Mapping[str, Any]) -> Settlement:
    """Settle one hand given as plain data (the parsed YAML/JSON of a hand file).

    Returns a :class:`~settle.core.Settlement` (net per player in points, transfers
    with their explanations, next dealer).  Raises :class:`~settle.errors.HandError`
    for input that cannot be settled; never returns a partial result.
    """
    region, hand = parse_hand(data)
    return region.settle(hand)


def settle_many(hands: Iterable[Mapping[str, Any]]) -> Iterator[Settlement | HandError]:
    """Settle each hand in turn, yielding its Settlement or its HandError (never raising for input).

    Lazily consumes ``hands``, so it can be mapped over a stream or a partition.
    """
    for data in hands:
        try:
            yield settle_hand(data)
        except HandError as exc:
            label = data.get("id") if isinstance(data, Mapping) else None
            yield exc.located(hand=None if label is None else str(label))


def pydantic_problems(exc: ValidationError, data: Any) -> list[Problem]:
    """pydantic's errors as Problems whose paths are the user's keys."""
    out = []
    for err in exc.errors(include_url=False):
        path = user_path(err["loc"], data)
        out.append(Problem(path, _message(err)))
    return out


def user_path(loc: tuple[Any, ...], data: Any) -> Path:
    """Drop the parts of a pydantic location that are not keys of the input (union tags...)."""
    path: list[str | int] = []
    node = data
    for part in loc:
        if _has_child(node, part):
            node = node[part]
        elif isinstance(node, Mapping) and isinstance(part, str) and _is_key_slot(part):
            node = None  # a missing key: keep its name, nothing below it
        else:
            continue
        path.append(part)
    return tuple(path)


def _has_child(node: Any, part: Any) -> bool:
    if isinstance(node, Mapping):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _is_key_slot(part: str) -> bool:
    return not any(c in part for c in "[]-") and part not in ("one", "many", "str", "int")


_MESSAGES = {
    "string_type": "must be text (quote numbers and names like '1' or 'yes')",
    "extra_forbidden": "unknown key (not part of the hand format for this region)",
    "missing": "missing: this key is required",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
}


def _message(err: Any) -> str:
    kind = err["type"]
    if kind in _MESSAGES:
        return _MESSAGES[kind]
    message = err["msg"]
    return message.removeprefix("Value error, ")
