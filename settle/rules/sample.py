"""What every region's sample hands share (``settle sample``, issue 16 #11): the player names, and
random opens, kongs and wins within the shared checks.

Each region package offers its random valid hands in a module ``sample`` (``sample_hand(rng)``, a
plain hand dict as a hand file holds it), built from these helpers; :mod:`settle.engine.sample`
deals them out.  Every choice is drawn from the ``random.Random`` given, in a fixed order, so that a
seed always gives the same hands.
"""

from __future__ import annotations

import random
from typing import Any

NAMES = (["A", "B", "C", "D"], ["东", "南", "西", "北"], ["Ann", "Bo", "Cy", "Di"])
"""The tables' names: plain letters, the four winds, and names of several letters."""


def facts(rng: random.Random, names: list[str], winner: str | None, kinds: list[str]) -> dict[str, Any]:
    """Players with random opens and kongs, within G4: exposed+added <= opens, opens+concealed <= 4.
    The winner's opens are a list of feeders (so 包牌 can be decided); ``kinds``: the region's own
    kong kinds, each drawn with probability 0.15."""
    players: dict[str, Any] = {}
    for name in names:
        opens = rng.choice((0, 0, 1, 1, 2, 3)) if name != winner else rng.choice((1, 1, 2, 3))
        kongs: dict[str, int] = {}
        if opens and rng.random() < 0.2:
            kongs["exposed"] = 1
        if opens + 1 <= 4 and rng.random() < 0.15:
            kongs["concealed"] = 1
        for kind in kinds:
            if rng.random() < 0.15:
                kongs[kind] = 1
        details: dict[str, Any] = {}
        if opens:
            others = [m for m in names if m != name]
            details["opens"] = [rng.choice(others) for _ in range(opens)] if name == winner else opens
        if kongs:
            details["kongs"] = kongs
        players[name] = details
    return players


def win(rng: random.Random, names: list[str], winner: str, robbed: bool = True) -> dict[str, Any]:
    """A random ``win``: self-draw, discard (twice as likely) or robbed kong, from another player."""
    others = [n for n in names if n != winner]
    by = rng.choice(("self_draw", "discard", "discard", "robbed_kong" if robbed else "discard"))
    out: dict[str, Any] = {"winner": winner, "by": by}
    if by != "self_draw":
        out["from"] = rng.choice(others)
    return out
