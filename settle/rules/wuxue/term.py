"""The Wuxue region's name: its key, Chinese name and aliases (G14), and where it is listed."""

from __future__ import annotations

from settle.vocab import Term

TERM = Term("wuxue", "武穴", "Wuxue, Huanggang (seed 000)", aliases=("武穴麻将",))
ORDER = 20
"""Listed second."""
