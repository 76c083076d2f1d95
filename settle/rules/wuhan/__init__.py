"""Wuhan 红中赖子杠 (seed 004; RULINGS H1–H12): everything this rule set knows, in one package.

* :mod:`.vocab` — scoring items (大胡, 硬胡) and kong kinds, with their aliases (G14);
* :mod:`.options` — the house rules (封顶, 金顶/光明顶, 口口翻, 逃跑 ...);
* :mod:`.model` — the hand model (``WuhanPlayer`` ... ``WuhanHand``);
* :mod:`.checks` — legality (H8 开口, 承包 decidable G7, 发财杠 H12);
* :mod:`.liability` — 承包 (H7) by G11 priority;
* :mod:`.scoring` — 小胡/大胡, caps, 金顶/光明顶, 逃跑 (H2–H9), and the dealer rotation (H10);
* :mod:`.tiles` — the tile rules (癞子 H12, H8 legality, the fans from the tiles);
* :mod:`.messages` — the words of every step, English and Chinese;
* :mod:`.region` — the :class:`~settle.rules.registry.Region` that puts them together.

This module stays light (the registry reads ``TERM`` without loading the models).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from settle.rules.wuhan.term import ORDER, TERM

if TYPE_CHECKING:
    from settle.rules.registry import Region

__all__ = ["ORDER", "TERM", "load"]


def load() -> Region:
    """The Wuhan :class:`~settle.rules.registry.Region` (its models are built on first use)."""
    from settle.rules.wuhan.region import REGION

    return REGION
