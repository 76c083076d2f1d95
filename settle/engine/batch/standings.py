"""The standings of a batch: per player, total net and counts of wins, deal-ins, liability and caps.

:data:`Standings` is ``player -> [net, hands, won, dealt_in, liable, capped, golden]``
(:data:`STANDING_KEYS`, in that order), players in first-seen order.
"""

from __future__ import annotations

from settle.core import GOLDEN_CAPS, Settlement

STANDING_KEYS = ("net", "hands", "won", "dealt_in", "liable", "capped", "golden")
"""Per player: total net (points), hands played, hands won, 点炮/放冲 given (discarder or robbed
player, G6), times liable (包牌/承包), hands won with a capped payment (封顶), and hands won with
a golden cap (金顶/金鼎/光明顶)."""

Standings = dict[str, list[int]]


def tally(standings: Standings, result: Settlement) -> None:
    """Add one settled hand to ``standings`` (see :data:`STANDING_KEYS`), read from the result's fields
    (``net``, ``roles``, and the transfers' ``cap`` for a winner), never from its text."""
    for name, amount in result.net.items():
        row = standings.get(name)
        if row is None:
            standings[name] = [amount, 1, 0, 0, 0, 0, 0]
        else:
            row[0] += amount
            row[1] += 1
    for name, roles in result.roles.items():
        if not roles:
            continue
        row = standings[name]
        for role in roles:
            if role == "winner":
                row[2] += 1
                capped = golden = False
                for t in result.transfers:
                    if t.cap is not None and t.payee == name:
                        capped = True
                        if t.cap in GOLDEN_CAPS:
                            golden = True
                            break
                row[5] += capped
                row[6] += golden
            elif role == "discarder" or role == "robbed":
                row[3] += 1
            elif role == "liable":
                row[4] += 1


def cap_hits(result: Settlement, winner: str) -> tuple[bool, bool]:
    """Whether a payment to ``winner`` reached a cap (``cap`` set: 封顶 >= G13, W10's flat cap, a golden
    cap), and whether one was a golden cap (金顶/金鼎/小金鼎/光明顶), from the transfers' ``cap`` field."""
    marks = [t.cap for t in result.transfers if t.payee == winner and t.cap is not None]
    return bool(marks), any(mark in GOLDEN_CAPS for mark in marks)


def merge_standings(into: Standings, other: Standings) -> None:
    """Add ``other`` into ``into``, keeping first-seen player order."""
    for name, row in other.items():
        mine = into.get(name)
        if mine is None:
            into[name] = list(row)
        else:
            for i, n in enumerate(row):
                mine[i] += n


def ranked(standings: Standings) -> list[tuple[str, dict[str, int]]]:
    """Players by total net, highest first (ties keep first-seen order), as key -> value dicts."""
    order = sorted(standings.items(), key=lambda item: -item[1][0])
    return [(name, dict(zip(STANDING_KEYS, row, strict=True))) for name, row in order]
