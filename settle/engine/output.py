"""Writing an output file atomically: a temporary file beside the target, renamed into place at the end.

``settle batch -o out.jsonl`` and ``settle session -o ...`` write through :func:`atomic_output`
(issue 15 #11, #15): the target keeps its old content until the run completes (a run with bad
hands completes too), and when the run is interrupted or fails (a missing input, a full disk,
Ctrl-C: any exception, ``BaseException`` included) the temporary file is removed and the target
is as it was.  :func:`output_is_input` refuses an output that is one of the inputs.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO


def output_is_input(output: str, inputs: Iterable[str]) -> str | None:
    """The first of ``inputs`` that is the same file as ``output`` (``os.path.samefile``; ``-``, stdin,
    is no file), or None; a path that does not exist (yet) is no input."""
    if not os.path.exists(output):
        return None
    for path in inputs:
        if path == "-":
            continue
        try:
            if os.path.samefile(output, path):
                return path
        except OSError:  # the input does not exist: its own error, later
            continue
    return None


def _open_temp(directory: str, name: str) -> tuple[IO[str], str]:
    """A new file ``.NAME.<random>.tmp`` in ``directory`` opened for UTF-8 text (``\\n`` not
    translated) and its path.  Made with mode 0o666 less the umask, as ``open(path, "w")`` makes a
    new file.  Raises OSError when it cannot be made (no such directory, no permission, disk full)."""
    while True:
        temp = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        try:
            return open(fd, "w", encoding="utf-8", newline="\n"), temp
        except BaseException:  # Ctrl-C just now: no file left behind
            os.close(fd)
            os.unlink(temp)
            raise


_DESCRIPTORS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
"""Names of this process's own standard descriptors (:func:`_own_descriptor`)."""


def _own_descriptor(path: str) -> int | None:
    """The descriptor number ``path`` names in this process (``/dev/stdout``: 1, ``/dev/fd/N``,
    ``/proc/self/fd/N``: N), else None."""
    name = os.path.normpath(os.path.abspath(path))
    if name in _DESCRIPTORS:
        return _DESCRIPTORS[name]
    for prefix in ("/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", f"/proc/{os.getpid()}/fd/"):
        number = name.removeprefix(prefix)
        if number != name and number.isascii() and number.isdigit():
            return int(number)
    return None


@contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """``path`` opened for writing UTF-8 text, replaced only when the block ends without an exception.

    The text goes to a temporary file in ``path``'s directory (:func:`_open_temp`; a symbolic link is
    followed, so the file it points to is replaced), which ``os.replace`` puts in place once the block
    ends and the file is closed; an existing target's permission bits are kept.  When the block raises
    (anything, ``BaseException`` included) or the file cannot be closed (ENOSPC on the last flush),
    the temporary file is removed and the exception goes on: the target keeps its old content.
    A target that exists and is not a regular file (``/dev/null``, a FIFO, ``/dev/stdout`` on a pipe or a
    terminal) is written directly; a name of this process's own descriptor (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``) is written through that descriptor (a copy of it), at its offset, whatever it is
    open on: a descriptor cannot be replaced by a rename (issue 15 #11).
    Raises OSError when the temporary file cannot be made or written (its ``filename``: ``path``).
    """
    own = _own_descriptor(path)
    if own is not None:  # written through the descriptor itself: its offset is shared, as a shell's
        with open(os.dup(own), "w", encoding="utf-8", newline="\n") as direct:
            yield direct
        return
    try:  # the path itself: a link such as /dev/fd/N on a pipe has a real path that names no file
        mode: int | None = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "w", encoding="utf-8", newline="\n") as direct:
            yield direct
        return
    target = os.path.realpath(path)
    directory, name = os.path.split(target)
    try:
        handle, temp = _open_temp(directory, name)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        try:
            with handle:
                yield handle
            if mode is not None:
                os.chmod(temp, stat.S_IMODE(mode))
            os.replace(temp, target)
        except OSError as exc:
            if exc.filename in (None, temp):
                raise OSError(exc.errno, exc.strerror, path) from None
            raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
