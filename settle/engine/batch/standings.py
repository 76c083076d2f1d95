"""The standings of a batch: per region and player, total net and counts of wins, deal-ins, liability and caps.

:data:`Standings` is ``region -> player -> [net, hands, won, dealt_in, liable, capped, golden]``
(:data:`STANDING_KEYS`, in that order), regions and players in first-seen order.  Each region is a
group of its own: the amounts of two regions are in different units (番 of Wuhan, 斤 of Wuxue ...)
and are never added together (issue 16 #5).
"""

from __future__ import annotations

from typing import Any

from settle.core import GOLDEN_CAPS, Settlement
from settle.rules.registry import get_region

STANDING_KEYS = ("net", "hands", "won", "dealt_in", "liable", "capped", "golden")
"""Per player: total net (points), hands played, hands won, 点炮/放冲 given (discarder or robbed
player, G6), times liable (包牌/承包), hands won with a capped payment (封顶), and hands won with
a golden cap (金顶/金鼎/光明顶)."""

Group = dict[str, list[int]]
"""One region's standings: ``player -> [net, hands, won, dealt_in, liable, capped, golden]``."""
Standings = dict[str, Group]
"""``region key -> player -> row`` (:data:`Group`): one group per region, in first-seen order."""


def tally(standings: Standings, result: Settlement) -> None:
    """Add one settled hand to its region's group of ``standings`` (see :data:`STANDING_KEYS`), read from
    the result's fields (``region``, ``net``, ``roles``, and the transfers' ``cap`` for a winner), never
    from its text."""
    group = standings.get(result.region)
    if group is None:
        group = standings[result.region] = {}
    for name, amount in result.net.items():
        row = group.get(name)
        if row is None:
            group[name] = [amount, 1, 0, 0, 0, 0, 0]
        else:
            row[0] += amount
            row[1] += 1
    for name, roles in result.roles.items():
        if not roles:
            continue
        row = group[name]
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
    """Add ``other`` into ``into`` region by region, keeping first-seen region and player order."""
    for region, group in other.items():
        mine = into.get(region)
        if mine is None:
            into[region] = {name: list(row) for name, row in group.items()}
            continue
        for name, row in group.items():
            kept = mine.get(name)
            if kept is None:
                mine[name] = list(row)
            else:
                for i, n in enumerate(row):
                    kept[i] += n


def ranked(group: Group) -> list[tuple[str, dict[str, int]]]:
    """One region's players by total net, highest first (ties keep first-seen order), as key -> value dicts."""
    order = sorted(group.items(), key=lambda item: -item[1][0])
    return [(name, dict(zip(STANDING_KEYS, row, strict=True))) for name, row in order]


def standings_by_region(standings: Standings) -> dict[str, dict[str, Any]]:
    """The JSON form of the standings (issue 16 #5): ``region -> {"unit": 番|斤|分, "players": {player ->
    {net, hands, won, dealt_in, liable, capped, golden}}}``, regions in first-seen order, players by net
    (:func:`ranked`); ``unit`` is the region's unit (:attr:`settle.rules.registry.Region.unit`)."""
    return {region: {"unit": region_unit(region), "players": dict(ranked(group))}
            for region, group in standings.items()}


def region_unit(region: str) -> str:
    """The unit of a region key (番, 斤, 分), ``""`` for a region the registry does not know."""
    try:
        return get_region(region).unit
    except KeyError:
        return ""
