"""What every region's 包牌/承包 shares: a liable player stated in the hand file (G7).

The flush rule H7 b and W11 b share is :func:`settle.core.flush_liability`.
"""

from __future__ import annotations

from settle.core import Step
from settle.model import NOBODY

Liability = tuple[str | None, Step | None]
"""The liable player and the step that says why, or ``(None, None)``."""


_STATED: dict[str, Step] = {}
"""``term`` -> the step of G7 (one per term: the same record for every hand)."""


def stated_liability(liable: str | None, term: str) -> Liability | None:
    """G7: ``win.liable`` names the liable player (``term``: 承包, 包胡), or ``none`` says nobody is;
    None when it is not given (the region's rules decide)."""
    return None if liable is None else given_liability(liable, term)


def given_liability(liable: str, term: str) -> Liability:
    """G7 for a ``win.liable`` that is given: the player it names and the step saying so, or
    ``(None, None)`` for ``none``."""
    if liable == NOBODY:
        return None, None
    step = _STATED.get(term)
    if step is None:
        step = _STATED[term] = Step("G7", "liable_stated", {"term": term})
    return liable, step
