"""Small helpers shared by the region tests: build a hand, read its nets, payments and errors."""

from __future__ import annotations

from typing import Any

import pytest

from settle import HandError, settle_hand
from settle.errors import format_path

FOUR = ["A", "B", "C", "D"]


def hand_of(region: str, players: Any = None, /, **keys: Any) -> dict[str, Any]:
    """A hand of ``region``: players A,B,C,D (unless given) with A dealing unless given; ``keys``
    override anything, the region included (to test its aliases)."""
    return {"region": region, "players": players or FOUR, "dealer": keys.pop("dealer", "A"), **keys}


def nets(data: dict[str, Any]) -> dict[str, int]:
    """Each player's net in points."""
    return settle_hand(data).net


def paid(data: dict[str, Any]) -> dict[str, int]:
    """What each payer pays in total."""
    out: dict[str, int] = {}
    for t in settle_hand(data).transfers:
        out[t.payer] = out.get(t.payer, 0) + t.amount
    return out


def error_paths(data: dict[str, Any]) -> list[str]:
    """The key paths of the problems ``data`` is refused with (it must be refused)."""
    with pytest.raises(HandError) as info:
        settle_hand(data)
    return [format_path(p.path) for p in info.value.problems]


def key_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path below ``node`` (mapping keys and list indices), for the mutators of the tests."""
    out = []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        out.append((*prefix, key))
        out += key_paths(child, (*prefix, key))
    return out


def parent_of(data: Any, path: tuple[Any, ...]) -> Any:
    """The container that holds the last key of ``path``."""
    for key in path[:-1]:
        data = data[key]
    return data


def new_players_session(count: int) -> str:
    """A session file of ``count`` Wuhan hands, each with four players no earlier hand had
    (P0 .. P{4*count-1}); hand ``t`` (0-based): P{4t} deals, P{4t+1} wins on P{4t+2}'s discard
    (issue 15 #9: a session holds at most 16 players)."""
    out = []
    for t in range(count):
        a, b, c, d = (f"P{4 * t + j}" for j in range(4))
        out.append(f"---\nregion: wuhan\nplayers: [{a}, {b}, {c}, {d}]\ndealer: {a}\n"
                   f"win: {{winner: {b}, by: discard, from: {c}}}\nfans: {{{a}: 1, {b}: 2, {c}: 1, {d}: 0}}\n")
    return "".join(out)
