"""``settle batch`` and ``settle session``: many hands at once, and one table's evening.

Registered on :data:`settle.cli.app` when :func:`settle.cli.main` imports this module, so
this module imports nothing heavy: the batch machinery, tabulate, yaml, rich and
multiprocessing are imported inside the commands (start-up time, see bench/README.md).

Exit status: 0 every hand settled; 2 some hand was bad (each reported on stderr, the good
ones still written); 4 the run could not finish for an outside reason (disk full, a worker
process died); 1 an internal bug.  ``--output`` is written atomically (issue 15 #11).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from settle.cli import (
    CONTEXT,
    EXIT_OUTSIDE,
    Command,
    ErrorsOpt,
    Format,
    FormatOpt,
    InputFormat,
    InputFormatOpt,
    Lang,
    LangOpt,
    OutputOpt,
    QuietOpt,
    app,
    guarded,
    output_lang,
    output_to,
    problem_lang,
    read_input,
)
from settle.errors import HandError, Problem, counted

if TYPE_CHECKING:
    from settle.engine.batch import BatchWriter


BatchFormat = Format
"""``settle batch``'s formats: the shared :class:`settle.cli.options.Format` (one enum for every command)."""
StandingsOpt = Annotated[bool, typer.Option("--standings", help="print the standings (per region and player) "
                                                                  "instead of the hands")]
BomOpt = Annotated[bool, typer.Option("--bom", help="start the CSV with the UTF-8 byte-order mark (for Excel)")]


@contextmanager
def _output(path: str | None, inputs: list[str]) -> Iterator[IO[str]]:
    """:func:`settle.cli.output_to` (kept under this name for the commands of this module)."""
    with output_to(path, inputs) as out:
        yield out


def _lang(lang: Lang | None) -> str:
    from settle.render import default_lang

    return lang.value if lang else default_lang()


def _report(problems: list[Problem], lang: Lang | None = None) -> None:
    from settle.render import render_problems

    typer.echo(render_problems(problems, problem_lang(lang)), err=True)


class Columns:
    """The columns of a batch's problems (``FILE:LINE:COL``, issue 16 #9), read from the input files
    again on the error path only: the parent holds no input, the workers send lines.  Each file is read
    forward as its problems come (a batch reports them in input order), keeping the last
    :data:`WINDOW` lines for problems of one hand on earlier lines; an earlier line than that opens the
    file again.  stdin cannot be read again: its columns are found where its bytes are at hand (the
    workers' blocks, :func:`settle.engine.batch.reading.block_columns`; a whole YAML input).  Nor can
    an input that is not a regular file (a FIFO, ``/dev/stdin`` on a pipe, a character device): opening
    a FIFO again waits for a writer that never comes, so such an input is never opened here and its
    problems are shown without a column."""

    WINDOW = 4096

    def __init__(self, files: list[str]) -> None:
        self.files = {f for f in files if f != "-" and _regular_file(f)}
        self.open: dict[str, tuple[IO[str], int, dict[int, str]]] = {}

    def fill(self, problems: list[Problem]) -> list[Problem]:
        """``problems`` with the column of each key on its line, where the file can be read."""
        from dataclasses import replace

        from settle.errors import column_in

        out = []
        for p in problems:
            row = None
            if p.column is None and p.line is not None and p.source in self.files:
                row = self._row(p.source, p.line)
            out.append(p if row is None else replace(p, column=column_in(row, p.path)))
        return out

    def _row(self, source: str, line: int) -> str | None:
        handle, at, window = self.open.get(source) or (None, 0, {})
        if line in window:
            return window[line]
        if handle is None or line < at:
            if handle is not None:
                handle.close()
            try:  # universal newlines: \r\n, \r and \n end a line, as an editor counts (issue 15 item 2)
                handle = open(source, encoding="utf-8", errors="replace")  # noqa: SIM115 (kept open across chunks)
            except OSError:
                self.files.discard(source)
                return None
            at, window = 0, {}
        row = None
        longest = _longest_line()
        while at < line:
            text = handle.readline(longest + 1)
            if not text:
                break
            if len(text) > longest and not text.endswith(("\n", "\r")):
                # Longer than the loader reads (its hand was refused whole): no column from here on, and
                # an endless line (/dev/zero) is not read on (issue 15 #10).
                handle.close()
                self.open.pop(source, None)
                self.files.discard(source)
                return None
            at += 1
            row = text.rstrip("\r\n").removeprefix("\ufeff") if at == 1 else text.rstrip("\r\n")
            window[at] = row
            if len(window) > self.WINDOW:
                del window[next(iter(window))]
        self.open[source] = (handle, at, window)
        return row if at == line else None

    def close(self) -> None:
        """Close the files read."""
        for handle, _, _ in self.open.values():
            handle.close()
        self.open.clear()


def _regular_file(path: str) -> bool:
    """Whether ``path`` names a regular file (followed through links), which can be read again;
    False for a FIFO, a device, a directory, or a path that cannot be looked at."""
    import os
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _longest_line() -> int:
    """The longest line (in characters) :class:`Columns` reads: the loader's limit of one document."""
    from settle.loader import MAX_DOCUMENT_BYTES

    return MAX_DOCUMENT_BYTES


class ErrorLines:
    """``--errors FILE`` (issue 16 #7): every bad hand as one JSON line ``{"id", "error": [...]}``, the
    shape of a bad hand's line in ``--format jsonl`` (``settle schema line``), written as they come
    (the file replaced atomically when the run completes); no file: nothing kept."""

    def __init__(self, path: str | None, inputs: list[str]) -> None:
        self.path, self.inputs = path, inputs
        self.out: IO[str] | None = None
        self._context: Any = None

    def __enter__(self) -> ErrorLines:
        if self.path is not None:
            self._context = output_to(self.path, self.inputs)
            self.out = self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._context is not None:
            self._context.__exit__(*exc)

    def add(self, problems: list[Problem], sizes: list[int] | None = None) -> None:
        """Write the bad hands of ``problems``, one line each: ``sizes`` says how many problems each hand has,
        in order (:attr:`~settle.engine.batch.encode.Chunk.bad_sizes`: two bad hands with one id are two
        lines); without it, consecutive problems of one label make one hand."""
        if self.out is None or not problems:
            return
        import json
        from itertools import groupby, islice

        if sizes is None:
            hands = [list(found) for _, found in groupby(problems, key=lambda problem: problem.hand)]
        else:
            rest = iter(problems)
            hands = [list(islice(rest, size)) for size in sizes]
        for found in hands:
            self.out.write(json.dumps({"id": found[0].hand, "error": [p.as_dict() for p in found]},
                                      ensure_ascii=False) + "\n")


def _same_target(one: str, other: str) -> bool:
    """Whether two output paths name one file (the same path once resolved, or the same existing file):
    ``--errors`` and ``--output`` must not, or one would replace the other (issue 15 #11)."""
    import os

    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist yet: not the same file
        return False


def _input_size(files: list[str]) -> int | None:
    """Total bytes of the inputs when all are regular files (for the progress bar), else None."""
    import os

    try:
        return sum(os.path.getsize(f) for f in files) if "-" not in files else None
    except OSError:
        return None


def _writer(out: IO[str], fmt: BatchFormat, lang: Lang | None, standings: bool = False) -> BatchWriter:
    """The writer of ``fmt``: the standings only (``--standings``), tables laid out at the end
    (``table``, ``markdown``; headings in ``lang`` or the locale's), or the engine's streamed writer
    (``json``, ``jsonl``, ``csv``)."""
    from settle.engine.batch import StreamWriter
    from settle.render.batch import TABLE_FORMATS, TableWriter

    if standings:
        from settle.render.standings import StandingsWriter

        return StandingsWriter(out, fmt.value, output_lang(lang, fmt.value))
    if fmt.value in TABLE_FORMATS:
        return TableWriter(out, fmt.value, _lang(lang))
    return StreamWriter(out, fmt.value, raw=_raw(out))


def _raw(out: IO[str]) -> IO[bytes] | None:
    """The binary stream under ``out`` when writing UTF-8 bytes there makes the same file (UTF-8,
    ``\\n`` not translated), for the streamed writer to write the workers' bytes as they are.  The
    error handler does not matter (stdout's is ``surrogateescape`` in a C.UTF-8 locale): UTF-8 encodes
    every character but a lone surrogate, and a chunk holding one goes through the text stream
    (:meth:`settle.engine.batch.StreamWriter.add`), whose handler decides."""
    import codecs
    import os

    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    if buffer is None or not isinstance(encoding, str):
        return None
    try:
        if codecs.lookup(encoding).name != "utf-8":
            return None
    except LookupError:
        return None
    if out is sys.stdout and os.linesep != "\n":
        return None
    return buffer  # type: ignore[no-any-return]


@app.command("batch", cls=Command, context_settings=CONTEXT)
def batch_command(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help="hand files: a YAML stream (---), a YAML "
                                                                      "list, a JSON array or JSON Lines (.jsonl); "
                                                                      "- reads stdin")],
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="stop at the first bad hand")] = False,
    input_format: InputFormatOpt = InputFormat.auto,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, metavar="N",
                                      help="worker processes that settle: 0 = auto (every CPU for inputs over 4 MiB), "
                                           "1 = none")] = 0,
    lang: LangOpt = None,
    quiet: QuietOpt = False,
    errors: ErrorsOpt = None,
    standings: StandingsOpt = False,
    bom: BomOpt = False,
) -> None:
    """Settle many hands: one row per hand, then the standings per player.

    Each hand is named by its id, or file:index.  Bad hands are reported on stderr (and in the
    JSON output's errors) and the good ones are still settled; the exit status is then 2.
    jsonl, json and csv are written as the hands are settled; table and markdown are laid out
    at the end, so use those for what fits on a screen.

    \b
    Example:
      settle batch hands.jsonl --format jsonl --output settled.jsonl --errors bad.jsonl --quiet
    """

    from settle.engine.batch import Totals

    running = Totals()
    """The run's totals as it goes: a closed stdout ends it with 2 when a bad hand was among them (#14)."""

    def run() -> None:
        from settle.cli.progress import BatchProgress
        from settle.engine.batch import BatchRun, Chunk, Totals, run_batch
        from settle.engine.batch.encode import STANDINGS_WRITTEN
        from settle.engine.batch.pool import WorkerDied

        if errors is not None and output not in (None, "-") and _same_target(errors, output):
            raise HandError.at((), f"the errors file {errors} is the output {output}: give another --errors",
                               kind="errors_is_output", values={"errors": errors, "output": output})
        progress = BatchProgress(total=_input_size(files))
        columns = Columns(files)
        with ErrorLines(errors, files) as bad_lines:

            def on_chunk(totals: Totals, chunk: Chunk) -> None:
                if chunk.problems and (errors is not None or not quiet):
                    problems = columns.fill(chunk.problems)
                    bad_lines.add(problems, chunk.bad_sizes)
                    if not quiet:
                        progress.done()  # cleared before the problems are printed
                        _report(problems, lang)
                progress.update(totals)

            running.keep_problems = fmt.value == "json" and not standings
            from settle.render import bom_mark

            mark = bom_mark(bom, fmt.value)
            kind = "standings" if standings else fmt.value
            settings = BatchRun(fmt=kind, input_format=input_format.value, strict=strict, jobs=jobs,
                                json_lang=output_lang(lang, "json"), standings=kind in STANDINGS_WRITTEN,
                                on_chunk=on_chunk)
            try:
                with _output(output, files) as out:
                    out.write(mark)
                    totals = run_batch(files, _writer(out, fmt, lang, standings), settings, totals=running)
            except WorkerDied as exc:  # the output file is as it was (#12)
                progress.done()
                if problem_lang(lang) == "zh":
                    how = (f"被信号 {-exc.exitcode} 终止" if exc.exitcode < 0 else f"以状态 {exc.exitcode} 退出")
                    typer.echo(f"error: 批处理已停止：一个工作进程（pid {exc.pid}）{how}"
                               + ("；输出文件未被写入" if output not in (None, "-") else ""), err=True)
                else:
                    typer.echo(f"error: the batch stopped: {exc}; nothing was written to the output file"
                               if output not in (None, "-") else f"error: the batch stopped: {exc}", err=True)
                raise typer.Exit(EXIT_OUTSIDE) from None
            finally:
                progress.done()
                columns.close()
        if totals.bad:
            stop = " (stopped at the first bad hand: --strict)" if totals.stopped else ""
            settled = totals.hands - totals.bad
            if problem_lang(lang) == "zh":
                stop = "（--strict：遇到第一局有误即停）" if totals.stopped else ""
                typer.echo(f"{totals.hands} 局中 {totals.bad} 局有误；结算 {settled} 局{stop}", err=True)
            else:
                typer.echo(f"{totals.bad} of {counted(totals.hands, 'hand')} bad; {settled} settled{stop}", err=True)
            raise typer.Exit(2)

    guarded(run, status=lambda: 2 if running.bad else 0, lang=lang)


@app.command("session", cls=Command, context_settings=CONTEXT)
def session_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="the hands of one table in order (YAML stream, list, "
                                                             "JSON array or JSON Lines); the first document may be "
                                                             "a header with region, options, players; - reads stdin")],
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    input_format: InputFormatOpt = InputFormat.auto,
    lang: LangOpt = None,
    details: Annotated[bool, typer.Option("--details", help="every hand's payments with their why (table, markdown; "
                                                               "JSON has them always)")] = False,
    hand: Annotated[str | None, typer.Option("--hand", metavar="N",
                                             help="only hand N, as settle hand shows it: its 1-based position "
                                                  "or its id")] = None,
    quiet: QuietOpt = False,
    errors: ErrorsOpt = None,
    standings: StandingsOpt = False,
    bom: BomOpt = False,
) -> None:
    """Settle one table's hands in order: per-hand nets, running totals and the settle-up.

    A hand may leave out the dealer: it is the previous hand's next dealer (W13, H10, R10).
    A hand's players add details to the header's seating: list only the players with facts.
    A bad hand stops the running totals there; a Wuhan 逃跑 ends the game (H9).

    \b
    Example:
      settle session fixtures/session/wuhan.yaml --details
      settle session fixtures/session/wuhan.yaml --hand w7
    """

    def run() -> None:
        from settle.engine.batch.reading import SNIFF_BYTES, sniff_jsonl
        from settle.engine.session import find_hand, run_session
        from settle.loader import iter_documents
        from settle.render.session import render_session

        source = "<stdin>" if file == "-" else file
        raw = read_input(file)
        kind = input_format.value
        if kind == "auto" and file == "-" and sniff_jsonl(raw[:SNIFF_BYTES]):
            kind = "jsonl"
        from settle.render import bom_mark

        mark = bom_mark(bom, fmt.value)
        report = run_session(iter_documents(raw, source, fmt=kind), source)
        if report.problems:  # the column of each key on its line: FILE:LINE:COL (issue 16 #9)
            from settle.errors import with_columns

            report.problems = with_columns(report.problems, raw.decode("utf-8", "replace").removeprefix("\ufeff"))
        out_lang = output_lang(lang, fmt.value)
        if hand is not None:
            chosen = find_hand(report, hand)
            if chosen is None:
                raise _hand_not_found(report, hand)
            from settle.render import render

            text = render(chosen.result, "json" if fmt.value == "jsonl" else fmt.value, out_lang)
        elif standings:
            from settle.render.session import session_standings
            from settle.render.standings import render_standings

            text = render_standings(session_standings(report), fmt.value, out_lang)
        else:
            text = render_session(report, fmt.value, out_lang, details=details)
        with _output(output, [file]) as out:
            out.write(mark + text + "\n")
        if fmt == Format.csv and report.warnings and not quiet:
            typer.echo("\n".join(f"warning: {w}" for w in report.texts(problem_lang(lang))[0]), err=True)
        if report.bad:
            with ErrorLines(errors, [file]) as bad_lines:
                bad_lines.add(report.problems)
            if quiet:
                bad = len({p.hand for p in report.problems})
                typer.echo(f"{bad} 局有误；牌局停在那里" if problem_lang(lang) == "zh"
                           else f"{counted(bad, 'bad hand')}; the session stopped there", err=True)
                raise typer.Exit(2)
            _report(report.problems, lang)
            stopped = report.texts(problem_lang(lang))[1]
            if stopped:
                typer.echo(("停止：" if problem_lang(lang) == "zh" else "stopped: ") + stopped, err=True)
            raise typer.Exit(2)

    guarded(run, lang=lang)


def _hand_not_found(report: Any, wanted: str) -> HandError:
    """``--hand N`` names no settled hand: the bad input (exit 2) to raise, saying which hands there are."""

    labels = ", ".join(str(h.label) for h in report.hands[:12]) + (", ..." if len(report.hands) > 12 else "")
    have = f"it has {counted(len(report.hands), 'settled hand')} (1-{len(report.hands)}: {labels})" \
        if report.hands else "no hand was settled"
    stop = "; the session stopped at a bad hand" if report.bad else ""
    return HandError.at((), f"--hand {wanted}: no such hand in this session: {have}{stop}", kind="no_such_hand",
                        values={"wanted": wanted, "count": len(report.hands), "stopped": bool(report.bad)})
