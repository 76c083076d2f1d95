"""The cyclic garbage collector paused while settle makes many objects that form no cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The body run with the cyclic garbage collector off (:func:`gc.disable`; on again afterwards if it
    was on, also when the body raises).  For work that makes many objects and no cycles (they are freed
    by their counts): each collection of the young objects meanwhile would walk all those made so far,
    for nothing.  Anything that did make a cycle is collected afterwards.  Used by a batch's block of
    hands (:func:`settle.engine.batch.run.jsonl_task`) and the tile tables' build
    (:func:`settle.tiles.features.plain_classes`)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
