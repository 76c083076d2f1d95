"""Random valid Rushan hands for ``settle sample`` (issue 16 #11; :mod:`settle.rules.sample`)."""

from __future__ import annotations

import random
from typing import Any

from settle.rules.sample import NAMES, facts, win


def sample_hand(rng: random.Random) -> dict[str, Any]:
    """A Rushan hand: one base, a few multipliers, 飘鱼 (R6); 荒庄 now and then."""
    names = list(rng.choice(NAMES))  # a copy: the caller may change the hand
    dealer = rng.choice(names)
    players = facts(rng, names, None, [])
    for details in players.values():
        if rng.random() < 0.3:
            details["fish"] = rng.choice((1, 2))
    hand: dict[str, Any] = {"region": "rushan", "players": players, "dealer": dealer}
    if rng.random() < 0.08:
        return {**hand, "draw": True}
    winner = rng.choice(names)
    hand_win = win(rng, names, winner)
    fans = [rng.choice(("pihu", "pihu", "pengpenghu", "qidui"))]
    fans += [k for k in ("qingyise", "fengyise") if rng.random() < 0.1]
    if hand_win["by"] == "self_draw" and rng.random() < 0.15:
        fans.append(rng.choice(("haidilao", "gangshanghua")))
    hand_win["fans"] = fans
    hand["win"] = hand_win
    return hand
