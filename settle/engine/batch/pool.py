"""The ordered worker pool: ``map`` over worker processes, results in input order, memory bounded.

:func:`chunk_map` is :func:`ordered_map` for the batch's worker entry points: with forked workers, a
chunk's output comes back through shared memory (:data:`SLOT_BYTES` per task in flight) instead of
being pickled through the result pipe, so the parent only copies it out and writes it (issue 14).
"""

from __future__ import annotations

import mmap
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from typing import Any, TypeVar

from settle.engine.batch.encode import Chunk

T = TypeVar("T")

WINDOW_PER_JOB = 3
"""Tasks in flight per worker; bounds memory (Pool.imap would read the whole input ahead)."""

SLOT_BYTES = 8 << 20
"""Shared memory for one task's output in :func:`chunk_map` (a JSON Lines block of 512 KiB makes about
3 MiB of JSON lines); a chunk whose output is larger comes back through the result pipe."""


def worker_count() -> int:
    """Worker processes for ``jobs=0``: every CPU this process may run on (issue 16 #12), at least 1.

    ``os.process_cpu_count`` where Python has it (3.13: the affinity mask, and ``PYTHON_CPU_COUNT``),
    else ``os.sched_getaffinity`` (Linux: a ``taskset`` or a container's cpuset is honoured), else
    ``os.cpu_count``."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        cpus = counter()
    else:
        try:
            cpus = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cpus = os.cpu_count()
    return max(1, cpus or 1)


def forks() -> bool:
    """Whether worker processes are forked from this one (so they share its open files and memory)."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


Setup = tuple[Callable[..., None], tuple[Any, ...]]
"""A function and its arguments, run in each worker process as it starts (after the regions are warmed)."""


def ordered_map(func: Callable[[Any], T], tasks: Iterator[Any], jobs: int,
                setup: Setup | None = None) -> Generator[T, None, None]:
    """``map(func, tasks)`` in order, over ``jobs`` worker processes when ``jobs > 1``.

    ``func`` must be picklable (a module-level function) when ``jobs > 1``.  At most
    ``jobs * WINDOW_PER_JOB`` tasks are in flight, and a task is handed out only once the result
    ``jobs * WINDOW_PER_JOB`` tasks before it has been yielded and the caller has asked for the
    next, so the input is read only as fast as it is settled (``Pool.imap`` would queue the whole
    input).  ``setup`` is run in each worker as it starts (its arguments are not pickled when the
    workers are forked).  Closing the iterator early (``strict``) terminates the workers.  An
    exception raised by ``func`` in a worker is raised here.
    """
    if jobs <= 1:
        yield from map(func, tasks)
        return
    import multiprocessing

    _warm_regions()  # imported before the fork, so workers start warm
    context = multiprocessing.get_context("fork" if forks() else None)
    with _signals_held():  # the workers start with them held, and set their own (_start)
        pool = context.Pool(jobs, initializer=_start, initargs=(setup,))
    workers = list(pool._pool)  # type: ignore[attr-defined] # the processes started: none should end
    with pool:
        pending: deque[Any] = deque()
        for task in tasks:
            pending.append(pool.apply_async(func, (task,)))
            if len(pending) >= jobs * WINDOW_PER_JOB:
                yield _result(pending.popleft(), workers)
        while pending:
            yield _result(pending.popleft(), workers)


POLL_SECONDS = 0.2
"""How often a wait for a worker's result looks whether a worker process died (issue 15 #12)."""


class WorkerDied(Exception):
    """A worker process of :func:`ordered_map` ended while the run waited for results (``kill -9``,
    the out-of-memory killer): its task would never come back (issue 15 #12).  ``exitcode``: the
    process's (``-9``: killed by SIGKILL)."""

    def __init__(self, pid: int | None, exitcode: int) -> None:
        how = f"was killed by signal {-exitcode}" if exitcode < 0 else f"exited with status {exitcode}"
        super().__init__(f"a worker process (pid {pid}) {how}")
        self.pid, self.exitcode = pid, exitcode


def _result(pending: Any, workers: list[Any]) -> Any:
    """``pending.get()`` (an ``AsyncResult``), looking every :data:`POLL_SECONDS` whether one of
    ``workers`` (the pool's processes, which end only when the pool is closed) has ended: then its
    task may be lost and the wait endless (``Pool`` starts a new process, the task is not redone).
    Raises :class:`WorkerDied` then, or the task's own exception."""
    while not pending.ready():
        pending.wait(POLL_SECONDS)
        if pending.ready():
            break
        for worker in workers:
            if worker.exitcode is not None:
                raise WorkerDied(worker.pid, worker.exitcode)
    return pending.get()


def chunk_map(func: Callable[[Any], Chunk], tasks: Iterator[Any], jobs: int) -> Iterator[Chunk]:
    """:func:`ordered_map` of a worker entry point that returns a :class:`Chunk`: the same chunks.

    With forked workers each task in flight has a slot of :data:`SLOT_BYTES` in shared memory,
    task ``k`` slot ``k % window``: the worker puts the chunk's output there and returns the chunk
    without it, and the chunk's ``data`` is copied out here before it is yielded.  A slot is used
    again only by the task ``window`` places later, which :func:`ordered_map` hands out only after
    this chunk was yielded and the caller asked for the next, so no slot is written while it is read.
    """
    if jobs <= 1 or not forks():
        yield from ordered_map(func, tasks, jobs)
        return
    window = jobs * WINDOW_PER_JOB
    area = mmap.mmap(-1, window * SLOT_BYTES)  # shared with the workers forked after this
    view = memoryview(area)
    jobs_in_slots = ((func, task, k % window) for k, task in enumerate(tasks))
    try:
        with closing(ordered_map(_in_slot, jobs_in_slots, jobs, setup=(_attach, (area,)))) as results:
            for chunk, slot, length in results:
                if length >= 0:
                    start = slot * SLOT_BYTES
                    chunk.data = bytes(view[start:start + length])
                yield chunk
    finally:
        view.release()
        area.close()


_AREA: mmap.mmap | None = None
"""In a worker of :func:`chunk_map`: the shared slots (set by :func:`_attach` as the worker starts)."""


def _attach(area: mmap.mmap) -> None:
    global _AREA
    _AREA = area


def _in_slot(job: tuple[Callable[[Any], Chunk], Any, int]) -> tuple[Chunk, int, int]:
    """Worker side of :func:`chunk_map`: ``func(task)`` with its output put in the slot, and its length
    (-1: the output stays in the chunk, too large for a slot or no slots)."""
    func, task, slot = job
    chunk = func(task)
    data = chunk.data
    if _AREA is None or not data or len(data) > SLOT_BYTES:
        return chunk, slot, -1
    start = slot * SLOT_BYTES
    _AREA[start:start + len(data)] = data
    chunk.data = b""
    return chunk, slot, len(data)


_STOPS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held (delivered when the block ends) while worker processes are forked, so
    that no worker runs the parent's handlers (:func:`settle.cli.main` turns them into an exception,
    and a worker that gets one when ``Pool.terminate`` stops it can hang the parent's wait for it)."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: workers are spawned, with default handlers
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _start(setup: Setup | None) -> None:
    """A worker's start: SIGTERM ends it at once (``Pool.terminate``), Ctrl-C is the parent's to act on
    (it stops the workers), then the regions warmed and ``setup`` run."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    _warm_regions()
    if setup is not None:
        setup[0](*setup[1])


def _warm_regions() -> None:
    from settle.rules.registry import all_regions

    all_regions()
