"""What every region's 包牌/承包 shares: a liable player stated in the hand file (G7).

The flush rule H7 b and W11 b share is :func:`settle.core.flush_liability`.
"""

from __future__ import annotations

from settle.core import Step
from settle.model import NOBODY

Liability = tuple[str | None, Step | None]
"""The liable player and the step that says why, or ``(None, None)``."""


def stated_liability(liable: str | None, term: str) -> Liability | None:
    """G7: ``win.liable`` names the liable player (``term``: 承包, 包胡), or ``none`` says nobody is;
    None when it is not given (the region's rules decide)."""
    if liable is None:
        return None
    if liable == NOBODY:
        return None, None
    return liable, Step("G7", "liable_stated", {"term": term})
