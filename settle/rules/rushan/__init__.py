"""Rushan 乳山麻将 (seed 003; RULINGS R1–R11): everything this rule set knows, in one package.

* :mod:`.vocab` — bases (R1), multipliers (R2) and kong kinds, with their aliases (G14);
* :mod:`.options` — the room options (封顶, 一炮多响, 门清一条龙, 258将, 搂宝 ...);
* :mod:`.model` — the hand model (``RushanPlayer`` ... ``RushanHand``);
* :mod:`.checks` — legality (R8 several winners, G10 and R9 fits, no 包牌);
* :mod:`.scoring` — hand and kong points (R1–R4), who pays (R5), 飘鱼 (R6), the cap and its split
  (R7, R8), and the dealer rotation (R10);
* :mod:`.tiles` — the tile rules (R3, R3b, R9: the fans from the tiles);
* :mod:`.messages` — the words of every step, English and Chinese;
* :mod:`.region` — the :class:`~settle.rules.registry.Region` that puts them together.

This module stays light (the registry reads ``TERM`` without loading the models).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from settle.rules.rushan.term import ORDER, TERM

if TYPE_CHECKING:
    from settle.rules.registry import Region

__all__ = ["ORDER", "TERM", "load"]


def load() -> Region:
    """The Rushan :class:`~settle.rules.registry.Region` (its models are built on first use)."""
    from settle.rules.rushan.region import REGION

    return REGION
