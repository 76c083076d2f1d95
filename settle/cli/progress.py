"""The progress bar of ``settle batch``: a rich progress line on a terminal's stderr.

Imported inside the command (rich is slow to import, see bench/README.md).  The bar is
presentation of a run in progress, so it lives in the CLI: the engine only reports
:class:`~settle.engine.batch.Totals` after each chunk (``BatchRun.on_chunk``).
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, TaskID, TaskProgressColumn, TextColumn

from settle.engine.batch import Chunk, Totals

STATS = "{task.fields[hands]:,} hands, {task.fields[bad]:,} bad, {task.fields[rate]:,.0f} hands/s"
"""The counts beside the bar: hands settled, bad hands, hands per second since the start."""


class BatchProgress:
    """A one-line progress bar on a terminal's stderr, for inputs that take a while (rich.progress).

    Shown only when ``stream`` (stderr by default) is a terminal and ``CI`` is not set, and only
    once the run has taken ``delay`` seconds (so small inputs never show it); redrawn at most 10
    times a second, from :meth:`update` (no refresh thread: the batch may fork workers).  With
    ``total`` (input bytes, when every input is a file) and inputs whose bytes are counted (JSON
    Lines) it draws a bar and a percentage of the bytes read; otherwise only the counts.
    :meth:`done` clears it (call it before printing anything else on the stream); a later
    :meth:`update` draws it again.
    """

    def __init__(self, stream: IO[str] | None = None, delay: float = 1.0, total: int | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) and not os.environ.get("CI")
        self.start = time.monotonic()
        self.delay = delay
        self.total = total
        self.drawn = 0.0
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    @property
    def shown(self) -> bool:
        """Whether the bar is on the screen now."""
        return self._bar is not None

    def update(self, totals: Totals, _chunk: Chunk | None = None) -> None:
        """Redraw the bar (hands settled, bad, hands/s, and the share of the input read) if it is time.

        Fits :attr:`settle.engine.batch.BatchRun.on_chunk`'s ``(totals, chunk)``."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self.drawn < 0.1:
            return
        self.drawn = now
        rate = totals.hands / max(now - self.start, 1e-9)
        done = min(totals.size, self.total) if self.total else 0
        counts: dict[str, Any] = {"hands": totals.hands, "bad": totals.bad, "rate": rate}
        if self._bar is None or self._task is None:
            self._bar, self._task = self._show(bool(self.total and totals.size))
            self._bar.update(self._task, completed=done, **counts)
            self._bar.start()  # draws it
            return
        self._bar.update(self._task, completed=done, **counts)
        self._bar.refresh()

    def done(self) -> None:
        """Clear the progress line, if one is drawn."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = self._task = None
        self.drawn = 0.0

    def _show(self, bar: bool) -> tuple[Progress, TaskID]:
        columns: list[str | ProgressColumn] = [TextColumn("settle:")]
        if bar:
            columns += [BarColumn(bar_width=30), TaskProgressColumn()]
        columns.append(TextColumn(STATS))
        console = Console(file=self.stream, force_terminal=True, highlight=False)
        shown = Progress(*columns, console=console, auto_refresh=False, transient=True,
                         redirect_stdout=False, redirect_stderr=False)
        task = shown.add_task("settle", total=self.total if bar else None, hands=0, bad=0, rate=0.0)
        return shown, task


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
