"""settle: settle finished mahjong hands for Wuhan 红中赖子杠, Wuxue 武穴 and Rushan 乳山 rules.

Library use::

    from settle import settle_hand
    result = settle_hand(hand_dict)   # -> Settlement; raises HandError on bad input
    result.net, result.transfers, result.as_dict()
"""

from settle.api import parse_hand, settle_hand, settle_many
from settle.core import Settlement, Transfer
from settle.errors import HandError, Problem

__all__ = ["HandError", "Problem", "Settlement", "Transfer", "parse_hand", "settle_hand", "settle_many"]
__version__ = "0.1.0"
