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
from enum import StrEnum
from typing import IO, TYPE_CHECKING, Annotated

import typer

from settle.cli import EXIT_OUTSIDE, Format, FormatOpt, Lang, LangOpt, app, guarded, output_lang, read_input
from settle.errors import HandError, Problem, counted

if TYPE_CHECKING:
    from settle.engine.batch import BatchWriter


class BatchFormat(StrEnum):
    """Output formats of ``settle batch`` (JSON Lines: one object per hand, in input order)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    markdown = "markdown"


class InputFormat(StrEnum):
    """How to read an input: ``auto`` (``.jsonl``/``.ndjson`` by name, stdin sniffed, else YAML/JSON)."""

    auto = "auto"
    yaml = "yaml"
    json = "json"
    jsonl = "jsonl"


BatchFormatOpt = Annotated[BatchFormat, typer.Option("--format", "-f", help="table | json | jsonl | csv | markdown")]
InputFormatOpt = Annotated[InputFormat, typer.Option("--input-format", help="auto (by file name; stdin sniffed) | "
                                                                            "yaml | json | jsonl")]
OutputOpt = Annotated[str | None, typer.Option("--output", "-o", help="write to this file instead of stdout")]
StandingsOpt = Annotated[bool, typer.Option("--standings", help="print the standings (per region and player) "
                                                                 "instead of the hands")]
BomOpt = Annotated[bool, typer.Option("--bom", help="start the CSV with the UTF-8 byte-order mark (for Excel)")]


@contextmanager
def _output(path: str | None, inputs: list[str]) -> Iterator[IO[str]]:
    """stdout, or ``path`` written atomically (:func:`settle.engine.output.atomic_output`: the file is
    replaced only when the run completes, and keeps its content when it is interrupted or fails).

    Raises :class:`HandError` (exit 2) for an output that is one of ``inputs`` or a file that cannot
    be made for a reason of the user's (no such directory, no permission); an outside reason
    (disk full) stays an OSError, exit 4 in :func:`settle.cli.guarded` (issue 15 #11, #15).
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    from settle.cli import OUTSIDE_ERRNOS
    from settle.engine.output import atomic_output, output_is_input

    same = output_is_input(path, inputs)
    if same is not None:
        raise HandError.at((), f"the output {path} is the input {same}: give another --output")
    opened = False
    try:
        with atomic_output(path) as handle:
            opened = True
            yield handle
    except OSError as exc:
        if opened or exc.errno in OUTSIDE_ERRNOS:
            raise
        raise HandError.at((), f"cannot write {path}: {exc.strerror}") from None


def _lang(lang: Lang | None) -> str:
    from settle.render import default_lang

    return lang.value if lang else default_lang()


def _report(problems: list[Problem]) -> None:
    from settle.render import render_problems

    typer.echo(render_problems(problems), err=True)


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
    """The binary stream under ``out`` when writing UTF-8 bytes there makes the same file (strict
    UTF-8, ``\\n`` not translated), for the streamed writer to write the workers' bytes as they are."""
    import codecs
    import os

    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    if buffer is None or not isinstance(encoding, str) or getattr(out, "errors", None) != "strict":
        return None
    try:
        if codecs.lookup(encoding).name != "utf-8":
            return None
    except LookupError:
        return None
    if out is sys.stdout and os.linesep != "\n":
        return None
    return buffer  # type: ignore[no-any-return]


@app.command("batch")
def batch_command(
    files: Annotated[list[str], typer.Argument(help="hand files: a YAML stream (---), a YAML list, a JSON array "
                                                   "or JSON Lines (.jsonl); - reads stdin")],
    fmt: BatchFormatOpt = BatchFormat.table,
    output: OutputOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="stop at the first bad hand")] = False,
    input_format: InputFormatOpt = InputFormat.auto,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="worker processes that settle: 0 = auto "
                                                                  "(every CPU for inputs over 4 MiB), 1 = none")] = 0,
    lang: LangOpt = None,
    standings: StandingsOpt = False,
    bom: BomOpt = False,
) -> None:
    """Settle many hands: one row per hand, then the standings per player.

    Each hand is named by its id, or file:index.  Bad hands are reported on stderr (and in the
    JSON output's errors) and the good ones are still settled; the exit status is then 2.
    jsonl, json and csv are written as the hands are settled; table and markdown are laid out
    at the end, so use those for what fits on a screen.
    """

    from settle.engine.batch import Totals

    running = Totals()
    """The run's totals as it goes: a closed stdout ends it with 2 when a bad hand was among them (#14)."""

    def run() -> None:
        from settle.cli.progress import BatchProgress
        from settle.engine.batch import BatchRun, Chunk, Totals, run_batch
        from settle.engine.batch.pool import WorkerDied

        progress = BatchProgress(total=_input_size(files))

        def on_chunk(totals: Totals, chunk: Chunk) -> None:
            if chunk.problems:
                progress.done()  # cleared before the problems are printed
                _report(chunk.problems)
            progress.update(totals)

        running.keep_problems = fmt.value == "json" and not standings
        from settle.render import bom_mark

        mark = bom_mark(bom, fmt.value)
        settings = BatchRun(fmt="standings" if standings else fmt.value, input_format=input_format.value,
                            strict=strict, jobs=jobs, json_lang=output_lang(lang, "json"), on_chunk=on_chunk)
        try:
            with _output(output, files) as out:
                out.write(mark)
                totals = run_batch(files, _writer(out, fmt, lang, standings), settings, totals=running)
        except WorkerDied as exc:  # the output file is as it was (#12)
            progress.done()
            typer.echo(f"error: the batch stopped: {exc}; nothing was written to the output file"
                       if output not in (None, "-") else f"error: the batch stopped: {exc}", err=True)
            raise typer.Exit(EXIT_OUTSIDE) from None
        finally:
            progress.done()
        if totals.bad:
            stop = " (stopped at the first bad hand: --strict)" if totals.stopped else ""
            settled = totals.hands - totals.bad
            typer.echo(f"{totals.bad} of {counted(totals.hands, 'hand')} bad; {settled} settled{stop}", err=True)
            raise typer.Exit(2)

    guarded(run, status=lambda: 2 if running.bad else 0)


@app.command("session")
def session_command(
    file: Annotated[str, typer.Argument(help="the hands of one table in order (YAML stream, list, JSON array or "
                                             "JSON Lines); the first document may be a header with region, "
                                             "options, players; - reads stdin")],
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    input_format: InputFormatOpt = InputFormat.auto,
    lang: LangOpt = None,
    standings: StandingsOpt = False,
    bom: BomOpt = False,
) -> None:
    """Settle one table's hands in order: per-hand nets, running totals and the settle-up.

    A hand may leave out the dealer: it is the previous hand's next dealer (W13, H10, R10).
    A bad hand stops the running totals there; a Wuhan 逃跑 ends the game (H9).
    """

    def run() -> None:
        from settle.engine.batch.reading import BLOCK_BYTES, sniff_jsonl
        from settle.engine.session import run_session
        from settle.loader import iter_documents
        from settle.render.session import render_session

        source = "<stdin>" if file == "-" else file
        raw = read_input(file)
        kind = input_format.value
        if kind == "auto" and file == "-" and sniff_jsonl(raw[:BLOCK_BYTES]):
            kind = "jsonl"
        from settle.render import bom_mark

        mark = bom_mark(bom, fmt.value)
        report = run_session(iter_documents(raw, source, fmt=kind), source)
        text_lang = output_lang(lang, fmt.value)
        if standings:
            from settle.render.session import session_standings
            from settle.render.standings import render_standings

            text = render_standings(session_standings(report), fmt.value, text_lang)
        else:
            text = render_session(report, fmt.value, text_lang)
        with _output(output, [file]) as out:
            out.write(mark + text + "\n")
        if fmt == Format.csv and report.warnings:
            typer.echo("\n".join(f"warning: {w}" for w in report.warnings), err=True)
        if report.bad:
            _report(report.problems)
            if report.stopped:
                typer.echo(f"stopped: {report.stopped}", err=True)
            raise typer.Exit(2)

    guarded(run)
