"""Random valid hands: ``settle sample`` and the benchmarks' input (issue 16 #11).

:func:`sample_hands` deals ``n`` hands from one ``random.Random(seed)``, the regions in turn
(listing order) or one region only, each hand with an ``id`` ``h1``, ``h2`` ...  A region offers
sample hands by a module ``sample`` in its package with ``sample_hand(rng)`` (the built-in regions do:
:mod:`settle.rules.sample`); a region without one (an installed region) is left out of the turns.
The same seed gives the same hands (``bench/bench_batch.py`` generates its input here).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from settle.errors import HandError
from settle.rules.registry import region_key, region_terms

Maker = Callable[[random.Random], dict[str, Any]]
"""A region's ``sample_hand``: one random valid hand (a plain dict, as a hand file holds it)."""


def sample_maker(key: str) -> Maker | None:
    """The ``sample_hand`` of the region ``key`` (from ``settle.rules.<key>.sample``), or None when the
    region offers no sample hands."""
    name = f"settle.rules.{key}.sample"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):  # no such package or module: none offered
            return None
        raise
    maker = getattr(module, "sample_hand", None)
    return maker if callable(maker) else None


def sample_makers(region: str | None = None) -> list[Maker]:
    """The makers dealt in turn: every region's that offers sample hands (listing order), or only
    ``region``'s (a key or alias, :func:`settle.rules.registry.region_key`).  Raises :class:`HandError`
    at ``region`` for an unknown region or one that offers no sample hands."""
    if region is not None:
        key = region_key(region)
        maker = sample_maker(key)
        if maker is None:
            raise HandError.at(("region",), f"the region {key} offers no sample hands")
        return [maker]
    makers = [maker for key in region_terms() if (maker := sample_maker(key)) is not None]
    if not makers:
        raise HandError.at(("region",), "no region offers sample hands")
    return makers


def sample_hands(n: int, seed: int = 1, region: str | None = None) -> Iterator[dict[str, Any]]:
    """``n`` random valid hands (plain dicts), regions in turn (or only ``region``), reproducible from
    ``seed``: each has ``id`` ``h1`` ... ``hN``.  Raises :class:`HandError` as :func:`sample_makers`
    (before the first hand), ValueError for a negative ``n``."""
    if n < 0:
        raise ValueError(f"n must be 0 or more, got {n}")
    makers = sample_makers(region)
    return _deal(makers, n, random.Random(seed))


def _deal(makers: list[Maker], n: int, rng: random.Random) -> Iterator[dict[str, Any]]:
    count = len(makers)
    for i in range(n):
        hand = makers[i % count](rng)
        hand["id"] = f"h{i + 1}"
        yield hand


def write_jsonl(hands: Iterable[dict[str, Any]], out: IO[str]) -> None:
    """Write ``hands`` to ``out`` as JSON Lines (``json.dumps``, UTF-8 text kept), 10,000 lines per
    ``write``: ``settle sample``'s output and the benchmarks' inputs."""
    import json

    lines: list[str] = []
    for hand in hands:
        lines.append(json.dumps(hand, ensure_ascii=False))
        if len(lines) == 10_000:
            out.write("\n".join(lines) + "\n")
            lines.clear()
    if lines:
        out.write("\n".join(lines) + "\n")
