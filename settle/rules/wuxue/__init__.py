"""Wuxue 武穴麻将 (seed 000 算分 / 计分规则; RULINGS W1–W16): everything this rule set knows, in one package.

* :mod:`.vocab` — scoring items (大胡 2 斤 each, the 七对 levels, extras) and kong kinds (宝杠, 癞子皮杠);
* :mod:`.options` — the house rules (封顶, 小金鼎/金鼎, 漂, 跟皮, 门清);
* :mod:`.model` — the hand model (``WuxuePlayer`` ... ``WuxueHand``);
* :mod:`.checks` — legality (W12 屁胡, 包胡 decidable G7, W10);
* :mod:`.liability` — 包胡 (W11) by G11 priority;
* :mod:`.scoring` — 自摸/点炮/陪炮 (W1, W5, W6), caps (W7, W8), 漂 (W9), 抢杠胡 (W10), rotation (W13);
* :mod:`.tiles` — the tile rules (宝/癞子皮 W15, W12/W16 legality, the fans from the tiles);
* :mod:`.messages` — the words of every step, English and Chinese;
* :mod:`.region` — the :class:`~settle.rules.registry.Region` that puts them together.

This module stays light (the registry reads ``TERM`` without loading the models).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from settle.rules.wuxue.term import ORDER, TERM

if TYPE_CHECKING:
    from settle.rules.registry import Region

__all__ = ["ORDER", "TERM", "load"]


def load() -> Region:
    """The Wuxue :class:`~settle.rules.registry.Region` (its models are built on first use)."""
    from settle.rules.wuxue.region import REGION

    return REGION
