"""The settlement core shared by every region: steps, debts, caps, 承包, transfers, catalogs.

* :mod:`.steps` — :class:`Step`, the record of one step of an amount (issue 13: reasons as data);
* :mod:`.settlement` — :class:`Debt`, :class:`Transfer`, :class:`Forfeit`, :class:`Settlement`,
  :class:`Tally`;
* :mod:`.machinery` — the shared steps (cap, golden replace, 漂, 承包 redirect, largest remainder);
* :mod:`.text` and :mod:`.messages` — the message catalogs that word the steps (English, Chinese).

Nothing here knows a region; all arithmetic is exact (``int``, :class:`fractions.Fraction`).
"""

from settle.core.machinery import (
    add_extra,
    cap,
    flush_liability,
    flush_triggers,
    liable_flush_step,
    net_of,
    next_after,
    power_step,
    redirect,
    replace_amount,
    roles_of,
    seats_after,
    settlement,
    split_largest_remainder,
    third_open_feeder,
    to_transfers,
    whole,
)
from settle.core.messages import SHARED
from settle.core.settlement import (
    CAP_MARKS,
    FORMAT_VERSION,
    GOLDEN_CAPS,
    ROLES,
    Amount,
    Debt,
    Forfeit,
    ScoreItem,
    Settlement,
    Tally,
    Transfer,
)
from settle.core.steps import Step, jsonable
from settle.core.text import Catalog, Template, plural, show, signed

__all__ = [
    "CAP_MARKS",
    "FORMAT_VERSION",
    "GOLDEN_CAPS",
    "ROLES",
    "SHARED",
    "Amount",
    "Catalog",
    "Debt",
    "Forfeit",
    "ScoreItem",
    "Settlement",
    "Step",
    "Tally",
    "Template",
    "Transfer",
    "add_extra",
    "cap",
    "flush_liability",
    "flush_triggers",
    "jsonable",
    "liable_flush_step",
    "net_of",
    "next_after",
    "plural",
    "power_step",
    "redirect",
    "replace_amount",
    "roles_of",
    "seats_after",
    "settlement",
    "show",
    "signed",
    "split_largest_remainder",
    "third_open_feeder",
    "to_transfers",
    "whole",
]
