"""The Rushan region's name: its key, Chinese name and aliases (G14), and where it is listed."""

from __future__ import annotations

from settle.vocab import Term

TERM = Term("rushan", "乳山", "Rushan, Weihai (seed 003)", aliases=("乳山麻将",))
ORDER = 30
"""Listed third."""
