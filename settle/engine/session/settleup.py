"""The settle-up of a session: the fewest cash transfers that clear every player's total (issue 5).

:func:`settle_up` splits the players into as many zero-sum groups as it can (:func:`zero_sum_groups`)
and clears each with the largest-first pass (:func:`largest_first`): at most players − 1 transfers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise


@dataclass(frozen=True)
class Payment:
    """One cash transfer of the settle-up: ``payer`` pays ``payee`` ``amount`` points."""

    payer: str
    payee: str
    amount: int

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"

    def as_dict(self) -> dict[str, object]:
        """JSON form: ``{"from", "to", "amount"}``."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


EXACT_SETTLE_UP_PLAYERS = 12
"""Up to this many players with a balance, the settle-up searches every subset (2^n) for the fewest
transfers; an evening's table has far fewer.  Beyond it, the largest-first pass alone (at most n − 1)."""


def settle_up(balances: Mapping[str, int]) -> list[Payment]:
    """The fewest cash transfers that bring every balance to zero (issue 5), at most ``players − 1``.

    The players split into as many groups whose balances sum to zero as they can
    (:func:`zero_sum_groups`); a group of k clears in k − 1 transfers, which is the fewest: n
    players with a balance need n − (groups) transfers.  Within a group the largest debtor pays
    the largest creditor as much as one of them needs (ties: the player listed first).  When that
    largest-first pass over everyone is already as short, it is kept as it is.  Raises ValueError
    when the balances do not sum to zero (take forfeits out first, H9).
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"balances sum to {sum(balances.values())}, not 0: {dict(balances)}")
    owing = {name: v for name, v in balances.items() if v}
    everyone = largest_first(owing)
    if len(owing) > EXACT_SETTLE_UP_PLAYERS:
        return everyone
    groups = zero_sum_groups(owing)
    if len(everyone) == len(owing) - len(groups):
        return everyone
    return [p for group in groups for p in largest_first({name: owing[name] for name in group})]


def largest_first(balances: Mapping[str, int]) -> list[Payment]:
    """Transfers that clear ``balances`` (summing to zero): the largest debtor pays the largest
    creditor as much as one of them needs, until all are clear.  Each transfer clears at least one
    player and the last clears two, so k players need at most k − 1."""
    owed = {name: -v for name, v in balances.items() if v < 0}
    due = {name: v for name, v in balances.items() if v > 0}
    out = []
    while owed:
        payer = max(owed, key=owed.__getitem__)  # max() keeps the first of equals
        payee = max(due, key=due.__getitem__)
        amount = min(owed[payer], due[payee])
        out.append(Payment(payer, payee, amount))
        for book, name in ((owed, payer), (due, payee)):
            book[name] -= amount
            if not book[name]:
                del book[name]
    return out


def zero_sum_groups(balances: Mapping[str, int]) -> list[list[str]]:
    """The players of ``balances`` (non-zero, summing to zero) split into the most groups that each
    sum to zero, in the players' order.

    Over every subset, ``best[mask]`` is the most zero-sum groups a chain of subsets can cut
    ``mask`` into, each step leaving one player out: taking the best smaller subset and counting
    ``mask`` itself when it sums to zero.  The zero-sum subsets along the best chain from everyone
    down are the cuts; the players between two cuts form a group.  O(2^n · n).
    """
    names = list(balances)
    size = 1 << len(names)
    total = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + balances[names[low.bit_length() - 1]]
    best, back = [0] * size, [0] * size
    for mask in range(1, size):
        top, via, rest = -1, 0, mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] > top:
                top, via = best[mask ^ low], mask ^ low
        best[mask], back[mask] = top + (total[mask] == 0), via
    cuts, mask = [], size - 1
    while mask:
        if total[mask] == 0:
            cuts.append(mask)
        mask = back[mask]
    cuts.append(0)
    groups = [outer & ~inner for outer, inner in pairwise(cuts)]
    return sorted(([n for i, n in enumerate(names) if group >> i & 1] for group in groups),
                  key=lambda group: names.index(group[0]))
