"""Random valid Wuhan hands for ``settle sample`` (issue 16 #11; :mod:`settle.rules.sample`)."""

from __future__ import annotations

import random
from typing import Any

from settle.rules.sample import NAMES, facts, win


def sample_hand(rng: random.Random) -> dict[str, Any]:
    """A Wuhan hand: a win (facts or stated 番, now and then a 大胡), a 荒庄, or now and then an abandon
    (H9, paid to the others)."""
    names = list(rng.choice(NAMES))  # a copy: the caller may change the hand
    dealer = rng.choice(names)
    roll = rng.random()
    if roll < 0.08:
        return {"region": "wuhan", "players": names, "dealer": dealer, "draw": True}
    if roll < 0.10:
        return {"region": "wuhan", "players": names, "dealer": dealer, "abandon": {"by": rng.choice(names)},
                "options": {"escape_paid_to": "others"}}
    winner = rng.choice(names)
    hand_win = win(rng, names, winner)
    fans = [k for k in ("pengpenghu", "qingyise", "jiangyise", "hard") if rng.random() < 0.12]
    if hand_win["by"] == "self_draw" and rng.random() < 0.1:
        fans.append("gangshanghua")
    hand: dict[str, Any] = {"region": "wuhan", "dealer": dealer, "win": hand_win}
    if rng.random() < 0.3:
        hand["players"] = names
        hand["fans"] = {n: rng.randint(0, 4) for n in names}
        hand_win["liable"] = "none"
    else:
        hand["players"] = facts(rng, names, winner, ["hongzhong", "laizi"])
    if fans:
        hand_win["fans"] = fans
    return hand
