"""The ordered worker pool: ``map`` over worker processes, results in input order, memory bounded.

:func:`chunk_map` is :func:`ordered_map` for the batch's worker entry points: with forked workers, a
chunk's output comes back through shared memory (:data:`SLOT_BYTES` per task in flight) instead of
being pickled through the result pipe, so the parent only copies it out and writes it (issue 14).
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import select
import signal
import struct
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from typing import Any, TypeVar

from settle.engine.batch.encode import Chunk

T = TypeVar("T")

WINDOW_PER_JOB = 3
"""Tasks in flight per worker; bounds memory (Pool.imap would read the whole input ahead)."""

SLOT_BYTES = 8 << 20
"""Shared memory for one task's output in :func:`chunk_map` (a JSON Lines block of 128 KiB makes about
700 KiB of JSON lines; the first block of a sniffed standard input, up to 512 KiB, about 3 MiB); a chunk
whose output is larger comes back through the result pipe."""


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
    """Whether worker processes can be forked from this one (:func:`os.fork`: they share its open files
    and memory); where not, :func:`ordered_map` runs the tasks in this process."""
    return hasattr(os, "fork")


Setup = tuple[Callable[..., None], tuple[Any, ...]]
"""A function and its arguments, run in each worker process as it starts (after the regions are warmed)."""


def ordered_map(func: Callable[[Any], T], tasks: Iterator[Any], jobs: int,
                setup: Setup | None = None) -> Generator[T, None, None]:
    """``map(func, tasks)`` in order, over ``jobs`` forked worker processes when ``jobs > 1``.

    Each worker is forked from this process (:func:`os.fork`) with a task pipe and a result pipe of
    its own: task ``k`` goes to worker ``k % jobs``, which settles its tasks in the order they come,
    so the results are read back in order, worker after worker.  No lock is shared between the
    processes, so stopping never waits for one a worker may hold (issue 15 #13).  At most
    ``jobs * WINDOW_PER_JOB`` tasks are in flight, and a task is handed out only once the result
    ``jobs * WINDOW_PER_JOB`` tasks before it has been yielded and the caller has asked for the
    next, so the input is read only as fast as it is settled.  ``func`` and ``setup`` are the forked
    workers' own (nothing but the tasks and the results is pickled); ``setup`` is run in each worker
    as it starts.  An exception raised by ``func`` in a worker is raised here, in its task's place.
    A worker that ends (``kill -9``, the out-of-memory killer) raises :class:`WorkerDied`.

    However the generator ends (exhausted, closed early by ``strict``, an exception, Ctrl-C or
    SIGTERM in the parent), every worker is killed (SIGKILL) and reaped before it returns.  Where
    ``fork`` is missing (Windows, macOS builds without it) the tasks are run here, as with
    ``jobs=1``: a spawned worker would import settle again and cost more than it saves.
    """
    if jobs <= 1 or not forks():
        yield from map(func, tasks)
        return
    _warm_regions()  # imported before the fork, so workers start warm
    workers: list[_Worker] = []
    try:
        with _signals_held():  # the workers start with them held, and set their own (_serve)
            for _ in range(jobs):
                workers.append(_Worker.fork(func, setup, workers))
        pending: deque[_Worker] = deque()
        for turn, task in enumerate(tasks):
            worker = workers[turn % jobs]
            worker.send(task)
            pending.append(worker)
            if len(pending) >= jobs * WINDOW_PER_JOB:
                yield _receive(pending.popleft(), workers)
        while pending:
            yield _receive(pending.popleft(), workers)
    finally:
        _stop_all(workers)


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


_HEADER = struct.Struct("<Q")
"""A message on a worker's pipes: its length (8 bytes, little-endian), then that many bytes of pickle."""


class _Worker:
    """The parent's side of one forked worker: its pid, the write end of its task pipe (non-blocking:
    ``out`` holds what the pipe did not take yet), the read end of its result pipe (``into``: bytes read,
    ``results``: the messages complete, in order)."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results_fd = pid, tasks, results
        self.out = bytearray()
        self.into = bytearray()
        self.results: deque[tuple[bool, Any]] = deque()
        self.exitcode: int | None = None

    @classmethod
    def fork(cls, func: Callable[[Any], Any], setup: Setup | None, others: list[_Worker]) -> _Worker:
        """Fork one worker that runs :func:`_serve`; ``others``: the workers forked before (their pipes
        are closed in the new one, so that each worker's pipes have one reader and one writer)."""
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            status = 1
            try:
                os.close(task_write)
                os.close(result_read)
                for other in others:
                    os.close(other.tasks)
                    os.close(other.results_fd)
                _serve(func, setup, task_read, result_write)
                status = 0
            except BaseException:  # a closed pipe, a stop: quietly, no traceback (issue 15 #13)
                pass
            finally:
                os._exit(status)
        os.close(task_read)
        os.close(result_write)
        os.set_blocking(task_write, False)
        return cls(pid, task_write, result_read)

    def send(self, task: Any) -> None:
        """Queue ``task`` for this worker and write what its pipe takes now."""
        data = pickle.dumps(task, pickle.HIGHEST_PROTOCOL)
        self.out += _HEADER.pack(len(data)) + data
        self.flush()

    def flush(self) -> None:
        """Write as much of ``out`` as the task pipe takes without waiting."""
        try:
            while self.out:
                written = os.write(self.tasks, self.out[:1 << 20])
                del self.out[:written]
        except BlockingIOError:
            pass
        except BrokenPipeError:  # the worker is gone: found by the read of its results
            self.out.clear()

    def read(self) -> bool:
        """Read what the result pipe has (it is readable); False at its end (the worker is gone)."""
        data = os.read(self.results_fd, 1 << 20)
        if not data:
            return False
        self.into += data
        while len(self.into) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self.into)
            if len(self.into) < _HEADER.size + length:
                break
            self.results.append(pickle.loads(self.into[_HEADER.size:_HEADER.size + length]))
            del self.into[:_HEADER.size + length]
        return True

    def ended(self, wait: bool = False) -> int | None:
        """The worker's exit status once it ended (``-N``: killed by signal N), else None; ``wait``:
        kill it first and wait for it (it is reaped either way)."""
        if self.exitcode is None:
            if wait:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
            try:
                pid, status = os.waitpid(self.pid, 0 if wait else os.WNOHANG)
            except ChildProcessError:  # reaped already (by someone else's wait)
                pid, status = self.pid, 0
            if pid:
                self.exitcode = os.waitstatus_to_exitcode(status)
        return self.exitcode

    def close(self) -> None:
        for fd in (self.tasks, self.results_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def _receive(worker: _Worker, workers: list[_Worker]) -> Any:
    """The next result of ``worker``, meanwhile writing every worker's queued tasks and reading every
    worker's results (so that no worker waits on a full pipe), and looking every :data:`POLL_SECONDS`
    whether a worker ended.  Raises :class:`WorkerDied` then, or the task's own exception."""
    while not worker.results:
        writing = [w.tasks for w in workers if w.out]
        readable, writable, _ = select.select([w.results_fd for w in workers], writing, [], POLL_SECONDS)
        for other in workers:
            if other.tasks in writable:
                other.flush()
            if other.results_fd in readable and not other.read():
                raise WorkerDied(other.pid, _ended(other))
        if not readable and not writable:
            for other in workers:
                if other.ended() is not None:
                    raise WorkerDied(other.pid, other.exitcode or 0)
    done, value = worker.results.popleft()
    if not done:
        raise value
    return value


def _ended(worker: _Worker) -> int:
    """The exit status of a worker whose result pipe was closed: it is ending (a moment is given for
    its status to be known), else it is killed."""
    for _ in range(50):
        if worker.ended() is not None:
            return worker.exitcode or 0
        time.sleep(0.01)
    return worker.ended(wait=True) or 0


def _stop_all(workers: list[_Worker]) -> None:
    """Kill every worker (SIGKILL) and reap it, with Ctrl-C and SIGTERM held meanwhile (delivered
    after: the stop goes on up); nothing here waits for anything a worker does."""
    with _signals_held():
        for worker in workers:
            with contextlib.suppress(ProcessLookupError):
                if worker.exitcode is None:
                    os.kill(worker.pid, signal.SIGKILL)
        for worker in workers:
            worker.ended(wait=True)
            worker.close()


def _serve(func: Callable[[Any], Any], setup: Setup | None, tasks: int, results: int) -> None:
    """A worker's life: SIGTERM ends it at once, Ctrl-C is the parent's to act on (it kills the
    workers); the regions warmed and ``setup`` run; then each task read from ``tasks`` is run and its
    ``(True, result)`` or ``(False, exception)`` written to ``results``, until the task pipe ends."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a parent gone: end quietly
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    _warm_regions()
    if setup is not None:
        setup[0](*setup[1])
    reader = os.fdopen(tasks, "rb")
    while True:
        header = reader.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        (length,) = _HEADER.unpack(header)
        task = pickle.loads(reader.read(length))
        try:
            message: tuple[bool, Any] = (True, func(task))
        except Exception as exc:  # the task's own error: raised in the parent
            message = (False, exc)
        try:
            data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an exception that cannot be pickled: its words
            data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {message[1]}")))
        view = memoryview(_HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(results, view):]


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
    that no worker runs the parent's handlers (:func:`settle.cli.main` turns them into an exception),
    and while the workers are stopped (:func:`_stop_all`), so that every one is killed and reaped."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: workers are spawned, with default handlers
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _warm_regions() -> None:
    from settle.rules.registry import all_regions

    all_regions()
