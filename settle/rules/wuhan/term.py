"""The Wuhan region's name: its key, Chinese name and aliases (G14), and where it is listed."""

from __future__ import annotations

from settle.vocab import Term

TERM = Term("wuhan", "武汉", "Wuhan 红中赖子杠 (seed 004)", aliases=("红中赖子杠", "武汉麻将"))
ORDER = 10
"""Listed first."""
