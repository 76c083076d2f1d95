"""The ordered worker pool: ``map`` over worker processes, results in input order, memory bounded."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

WINDOW_PER_JOB = 3
"""Tasks in flight per worker; bounds memory (Pool.imap would read the whole input ahead)."""


def worker_count() -> int:
    """Worker processes for ``jobs=0``: the CPUs this process may use, at most 2 (see bench/)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus))


def ordered_map(func: Callable[[Any], T], tasks: Iterator[Any], jobs: int) -> Iterator[T]:
    """``map(func, tasks)`` in order, over ``jobs`` worker processes when ``jobs > 1``.

    ``func`` must be picklable (a module-level function) when ``jobs > 1``.  At most
    ``jobs * WINDOW_PER_JOB`` tasks are in flight, so the input is read only as fast as it is
    settled (``Pool.imap`` would queue the whole input).  Closing the iterator early (``strict``)
    terminates the workers.  An exception raised by ``func`` in a worker is raised here.
    """
    if jobs <= 1:
        yield from map(func, tasks)
        return
    import multiprocessing

    _warm_regions()  # imported before the fork, so workers start warm
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs, initializer=_warm_regions) as pool:
        pending: deque[Any] = deque()
        for task in tasks:
            pending.append(pool.apply_async(func, (task,)))
            if len(pending) >= jobs * WINDOW_PER_JOB:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _warm_regions() -> None:
    from settle.rules.registry import all_regions

    all_regions()
