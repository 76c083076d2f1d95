"""settle: settle finished mahjong hands for Wuhan 红中赖子杠, Wuxue 武穴 and Rushan 乳山 rules.

Library use::

    from settle import settle_hand
    result = settle_hand(hand_dict)   # -> Settlement; raises HandError on bad input
    result.net, result.transfers, result.as_dict()
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from settle.errors import HandError, Problem

if TYPE_CHECKING:
    from settle.core import Settlement, Transfer
    from settle.engine.hand import parse_hand, settle_hand, settle_many

__all__ = ["HandError", "Problem", "Settlement", "Transfer", "parse_hand", "settle_hand", "settle_many"]
__version__ = "0.2.0"

# The models import pydantic and build validators: only load them when a hand is settled, so
# `settle --help`, `settle rules` and every `import settle.errors` (the CLI's) stay quick.
_LAZY = {"parse_hand": "settle.engine.hand", "settle_hand": "settle.engine.hand", "settle_many": "settle.engine.hand",
         "Settlement": "settle.core", "Transfer": "settle.core"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'settle' has no attribute {name!r}")
