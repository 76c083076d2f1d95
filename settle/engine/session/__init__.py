"""One table's evening: the hands in order, running totals, and the settle-up (``settle session``).

* :mod:`.run`: :func:`run_session` settles a session's documents in order into a
  :class:`SessionReport` (the header, the dealer rotation, where the running totals stop);
* :mod:`.settleup`: :func:`settle_up`, the fewest cash transfers that clear the totals
  (:class:`Payment`).

The report's tables, Markdown, CSV and JSON are :mod:`settle.render.session`'s; the session's
messages are :data:`settle.engine.messages.ENGINE`.
"""

from __future__ import annotations

from settle.engine.session.run import (
    HEADER_KEYS,
    OUTCOME_KEYS,
    SessionHand,
    SessionReport,
    find_hand,
    header_problems,
    run_session,
    seat_problems,
    with_header,
)
from settle.engine.session.settleup import (
    EXACT_SETTLE_UP_PLAYERS,
    Payment,
    largest_first,
    settle_up,
    zero_sum_groups,
)

__all__ = [
    "EXACT_SETTLE_UP_PLAYERS",
    "HEADER_KEYS",
    "OUTCOME_KEYS",
    "Payment",
    "SessionHand",
    "SessionReport",
    "find_hand",
    "header_problems",
    "largest_first",
    "run_session",
    "seat_problems",
    "settle_up",
    "with_header",
    "zero_sum_groups",
]
