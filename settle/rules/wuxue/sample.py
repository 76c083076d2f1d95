"""Random valid Wuxue hands for ``settle sample`` (issue 16 #11; :mod:`settle.rules.sample`)."""

from __future__ import annotations

import random
from typing import Any

from settle.rules.sample import NAMES, facts, win


def sample_hand(rng: random.Random) -> dict[str, Any]:
    """A Wuxue hand with 2–4 players (W14): a win or a 荒庄; 漂 (W9) now and then."""
    names = rng.choice(NAMES)[: rng.choice((4, 4, 4, 3, 2))]
    dealer = rng.choice(names)
    hand: dict[str, Any] = {"region": "wuxue", "dealer": dealer}
    if rng.random() < 0.3:
        hand["options"] = {"piao": rng.choice((1, 2, 5))}
    if rng.random() < 0.08:
        return {**hand, "players": names, "draw": True}
    winner = rng.choice(names)
    hand_win = win(rng, names, winner)
    fans = [k for k in ("qingyise", "pengpenghu", "hard") if rng.random() < 0.15]
    if rng.random() < 0.1:
        fans.append(rng.choice(("qidui", "haohua_qidui")))
    if hand_win["by"] == "self_draw" and rng.random() < 0.1:
        fans.append("gangkai")
    if fans:
        hand_win["fans"] = fans
    hand["players"] = facts(rng, names, winner, ["bao", "pizi"])
    hand["win"] = hand_win
    return hand
