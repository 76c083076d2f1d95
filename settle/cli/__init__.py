"""The ``settle`` command line: a thin layer over the library (typer).

Exit status (:data:`EXIT_SETTLED` ...): 0 settled, 2 bad input (every problem on stderr, one line
each), 3 ``settle check`` found a difference, 4 the run could not finish for a reason outside the
input (disk full, a worker died), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 1 only for a
bug in settle (issue 15).  A closed stdout (``settle hand F | head -1``) ends a command quietly with
the status of what it had done.
Heavy modules (tabulate, the loaders) are imported inside the commands to keep start-up fast.

The annotations of this module are evaluated when it is defined (no ``from __future__ import
annotations``): typer reads every command's signature on each run, and string annotations would
be parsed and evaluated again each time.
"""

import errno
import inspect
import io
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from settle.cli.options import (
    CONTEXT,
    DEFAULT_MAX_BYTES,
    ErrorsOpt,
    Format,
    FormatOpt,
    InputFormat,
    InputFormatOpt,
    Lang,
    LangOpt,
    MaxBytesOpt,
    OutputOpt,
    QuietOpt,
    format_option,
)
from settle.errors import HandError, Problem
from settle.rules.registry import region_terms

__all__ = ["CONTEXT", "DEFAULT_MAX_BYTES", "ErrorsOpt", "Format", "FormatOpt", "InputFormat", "InputFormatOpt",
           "Lang", "LangOpt", "MaxBytesOpt", "OutputOpt", "QuietOpt", "app", "format_option", "main"]

if TYPE_CHECKING:
    from typer._click import Context, HelpFormatter
    from typer._click.core import Parameter
    from typer._click.shell_completion import CompletionItem


def region_list(sep: str = ", ") -> str:
    """``武汉 Wuhan 红中赖子杠, 武穴 Wuxue, 乳山 Rushan``: the regions for help texts (from the registry)."""
    return sep.join(f"{t.zh} {t.key.capitalize()}" + (f" {t.aliases[0]}" if t.aliases and not
                                                        t.aliases[0].startswith(t.zh) else "")
                    for t in region_terms().values())


def region_choices() -> str:
    """``wuhan 武汉 | wuxue 武穴 | rushan 乳山``: the region keys for an option's help."""
    return " | ".join(t.label for t in region_terms().values())


_LATE_HELP: dict[str, Callable[[], str]] = {}


def late_help(make: Callable[[], str]) -> str:
    """A stand-in for a help text that names the regions, replaced by ``make()`` when help is shown.

    The regions include those other distributions install (the registry reads their entry points,
    which loads ``importlib.metadata``: a tenth of ``settle hand``'s start-up), and only help needs
    them; :class:`Group` and :class:`Command` put the text in place before formatting help or
    offering shell completions, so every help text reads as if it had been computed at import.
    """
    placeholder = f"<help: {make.__name__} #{len(_LATE_HELP)}>"
    _LATE_HELP[placeholder] = make
    return placeholder


def fill_late_help(command: Any, ctx: "Context") -> None:
    """Replace the :func:`late_help` stand-ins of ``command`` and of its parameters by their texts
    (cleaned as typer cleans the help of a group or an option given at once)."""
    params: list[Parameter] = command.get_params(ctx)
    for item in (command, *params):
        if isinstance(item.help, str) and item.help in _LATE_HELP:
            text = _LATE_HELP[item.help]()
            item.help = text if isinstance(item, TyperArgument) else inspect.cleandoc(text)


def _no_value(param: "Parameter", ctx: "Context") -> Any:
    """What typer makes of a parameter given no value (None) that is not required: ``()`` for a
    repeatable one, else None, passed through its callback.  typer would first build the
    parameter's pydantic adapter, which it does not use for None (half a millisecond for each of
    ``settle hand``'s twenty-odd options); a given value still goes through typer's coercion."""
    value = () if param.multiple or param.nargs == -1 else None
    return value if param.callback is None else param.callback(ctx, param, value)


class _Option(TyperOption):
    """typer's option, making no value without building its adapter (:func:`_no_value`)."""

    def process_value(self, ctx: "Context", value: Any) -> Any:
        if value is None and not self.required:
            return _no_value(self, ctx)
        return super().process_value(ctx, value)


class _Argument(TyperArgument):
    """typer's argument, making no value without building its adapter (:func:`_no_value`), shown by
    its metavar alone where it has one (``FILE``, ``[FILE]``, ``FILE...``: not ``{file}`` and
    ``<list[str]>``, issue 16 #6)."""

    def process_value(self, ctx: "Context", value: Any) -> Any:
        if value is None and not self.required:
            return _no_value(self, ctx)
        return super().process_value(ctx, value)

    def display_type(self, ctx: "Context") -> str:
        return "" if self.metavar is not None else super().display_type(ctx)

    def _usage_display_name(self) -> str:
        if self.metavar is None:
            return super()._usage_display_name()
        return self.metavar if self.required else f"[{self.metavar}]"


def _lean_params(params: "list[Parameter]") -> "list[Parameter]":
    """``params`` with typer's options and arguments made :class:`_Option` and :class:`_Argument`."""
    for param in params:
        if type(param) is TyperOption:
            param.__class__ = _Option
        elif type(param) is TyperArgument:
            param.__class__ = _Argument
    return params


class Group(TyperGroup):
    """The ``settle`` group: its help (the regions) is made when shown (:func:`late_help`), and an
    option given no value is made without typer's adapter (:func:`_no_value`)."""

    def get_params(self, ctx: "Context") -> "list[Parameter]":
        return _lean_params(super().get_params(ctx))

    def format_help(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        fill_late_help(self, ctx)
        super().format_help(ctx, formatter)


class Command(TyperCommand):
    """A command whose parameters' help may name the regions (:func:`late_help`), made when shown; a
    parameter given no value is made without typer's adapter (:func:`_no_value`)."""

    def get_params(self, ctx: "Context") -> "list[Parameter]":
        return _lean_params(super().get_params(ctx))

    def format_help(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        fill_late_help(self, ctx)
        super().format_help(ctx, formatter)

    def shell_complete(self, ctx: "Context", incomplete: str) -> list["CompletionItem"]:
        fill_late_help(self, ctx)
        return super().shell_complete(ctx, incomplete)


def _app_help() -> str:
    return ("Settle finished mahjong hands: " + region_list() + ".\n\n"
            "Prints who pays whom, with the formula behind every payment.")


app = typer.Typer(
    help=late_help(_app_help),
    cls=Group,
    no_args_is_help=True,
    context_settings=CONTEXT,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


MACHINE_FORMATS = frozenset({"json", "jsonl", "csv"})
"""Formats whose text stays English unless ``--lang zh`` is given: their bytes never depend on the locale."""


def output_lang(lang: Lang | None, fmt: str) -> str:
    """The language of the output: ``--lang`` when given; else English for JSON, JSON Lines and CSV,
    and the locale's language for the tables (``settle.render.default_lang``)."""
    if lang is not None:
        return lang.value
    if fmt in MACHINE_FORMATS:
        return "en"
    from settle.render import default_lang

    return default_lang()


def problem_lang(lang: Lang | None) -> str:
    """The language of the problems on stderr: Chinese under ``--lang zh``, else English (not the
    locale's: a script reading stderr sees the same words on every machine)."""
    return "zh" if lang is not None and lang.value == "zh" else "en"


def fail(problems: list[Problem], lang: Lang | None = None) -> NoReturn:
    """Report bad input on stderr (in ``--lang``'s language, :func:`problem_lang`) and exit 2."""
    from settle.render import render_problems

    typer.echo(render_problems(problems, problem_lang(lang)), err=True)
    raise typer.Exit(2)


@contextmanager
def output_to(path: str | None, inputs: list[str]) -> Iterator[IO[str]]:
    """stdout, or ``path`` written atomically (:func:`settle.engine.output.atomic_output`: the file is
    replaced only when the run completes, and keeps its content when it is interrupted or fails):
    ``--output`` of every command (issue 16 #6).

    Raises :class:`HandError` (exit 2) for an output that is one of ``inputs`` or a file that cannot
    be made for a reason of the user's (no such directory, no permission); an outside reason
    (disk full) stays an OSError, exit 4 in :func:`guarded` (issue 15 #11, #15).
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    from settle.engine.output import atomic_output, output_is_input

    same = output_is_input(path, inputs)
    if same is None and "-" in inputs and _is_stdin(path):
        same = "<stdin>"
    if same is not None:
        raise HandError.at((), f"the output {path} is the input {same}: give another --output",
                           kind="output_is_input", values={"file": path, "input": same})
    opened = False
    try:
        with atomic_output(path) as handle:
            opened = True
            yield handle
    except OSError as exc:
        if opened or exc.errno in OUTSIDE_ERRNOS:
            raise
        raise HandError.at((), f"cannot write {path}: {exc.strerror}", kind="cannot_write",
                           values=_os_values(path, exc)) from None


def _is_stdin(path: str) -> bool:
    """Whether ``path`` is the regular file that stdin reads (``settle batch - -o in.jsonl < in.jsonl``):
    the same device and inode as descriptor 0.  Writing it would replace the input being read, so
    :func:`output_to` refuses it as it refuses an output named among the inputs.  Only a regular
    file: ``-o /dev/null < /dev/null`` is no input overwritten."""
    import stat

    try:
        target = os.stat(path)
        given = os.fstat(0)
    except (OSError, ValueError):  # no such file yet, or no stdin at all: not the same file
        return False
    return stat.S_ISREG(target.st_mode) and (target.st_dev, target.st_ino) == (given.st_dev, given.st_ino)


EXIT_SETTLED = 0
EXIT_BUG = 1
EXIT_BAD_INPUT = 2
EXIT_DIFFERENT = 3
EXIT_OUTSIDE = 4
"""The run could not finish for a reason outside the input: the disk is full, a worker died (issue 15)."""
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Stopped(BaseException):
    """Ctrl-C or SIGTERM, raised in the main thread by :func:`main`'s signal handlers (issue 15 #13).

    A BaseException that is not KeyboardInterrupt, so that neither click nor a command's ``except
    Exception`` takes it for something else; ``finally`` blocks (a temporary output file's removal)
    run as it goes up.  ``status``: 130 or 143; ``words``: the one line printed.
    """

    def __init__(self, status: int, words: str) -> None:
        super().__init__(words)
        self.status = status
        self.words = words


STOP_WORDS = {"en": {EXIT_INTERRUPTED: "interrupted", EXIT_TERMINATED: "terminated"},
              "zh": {EXIT_INTERRUPTED: "已中断", EXIT_TERMINATED: "已终止"}}
"""The one line printed when Ctrl-C (130) or SIGTERM (143) ends a run, by language (``--lang zh``)."""


def _argv_lang(argv: list[str]) -> str:
    """``zh`` when the command line asks for ``--lang zh`` (``--lang=zh``), else ``en``: read from the
    words before a signal may end the run, when no option has been parsed yet."""
    for k, word in enumerate(argv):
        if word == "--lang=zh" or (word == "--lang" and argv[k + 1:k + 2] == ["zh"]):
            return "zh"
    return "en"


def _stop(signum: int, frame: object) -> None:
    global _SIGNALLED
    status = EXIT_INTERRUPTED if signum == signal.SIGINT else EXIT_TERMINATED
    _SIGNALLED = Stopped(status, STOP_WORDS[_argv_lang(sys.argv[1:])][status])
    raise _SIGNALLED


_SIGNALLED: Stopped | None = None
"""The :class:`Stopped` that :func:`_stop` raised in this run, if any.  Code in C that calls back into Python
may catch it and raise an error of its own instead (pydantic-core building a schema at a hand's first use
of its region raises ``SchemaError: ... Stopped: interrupted``): :func:`_bug` raises this stop again in that
error's place, so that Ctrl-C or SIGTERM exits 130 or 143 wherever it lands, never 1 (issue 15 #13)."""


def quiet_stdout() -> None:
    """Point file descriptor 1 at the null device after the reader of stdout went away, so that
    the interpreter's last flush does not fail again (the text still buffered is dropped)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no file descriptor (a test's captured stdout): nothing to flush
        pass


def _os_values(path: str, exc: OSError) -> dict[str, object]:
    """The data of a file that cannot be opened: ``file``, the error's symbolic name (``errno``:
    ``ENOENT``, ``""`` when none) and the system's own words (``reason``), for the words in Chinese."""
    return {"file": path, "errno": errno.errorcode.get(exc.errno or 0, ""), "reason": exc.strerror or str(exc)}


OUTSIDE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS})
"""Write errors that come from outside settle: disk full, quota, I/O error, file too large, read-only."""


def outside_failure(exc: OSError, lang: Lang | None = None) -> NoReturn:
    """Report an :class:`OSError` from outside settle (``cannot write the output: the disk is full``;
    under ``--lang zh`` ``error: 无法写入输出 FILE：磁盘已满``) and exit 4 (:data:`EXIT_OUTSIDE`)."""
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    reason = "the disk is full" if full else (exc.strerror or str(exc))
    name = f" {exc.filename}" if exc.filename else ""
    if problem_lang(lang) == "zh":
        from settle.engine.messages import os_reason_zh

        reason_zh = "磁盘已满" if full else os_reason_zh(errno.errorcode.get(exc.errno or 0, ""), reason)
        typer.echo(f"error: 无法写入输出{name}：{reason_zh}", err=True)
    else:
        typer.echo(f"error: cannot write the output{name}: {reason}", err=True)
    raise typer.Exit(EXIT_OUTSIDE)


def guarded(action: Callable[[], None], status: Callable[[], int] | None = None, lang: Lang | None = None) -> None:
    """Run a command body: bad input exits 2 (its problems in ``lang``'s language, :func:`fail`), an
    unexpected error exits 1 with one line.

    A closed stdout (BrokenPipeError) ends the command quietly with ``status()`` (default 0: what
    was settled until then); a write that fails for an outside reason (:data:`OUTSIDE_ERRNOS`: disk
    full ...) exits 4 with one line (issue 15 #14, #15).
    """
    try:
        action()
    except HandError as exc:
        fail(exc.problems, lang)
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except BrokenPipeError:
        quiet_stdout()
        raise typer.Exit(status() if status is not None else EXIT_SETTLED) from None
    except OSError as exc:
        if exc.errno not in OUTSIDE_ERRNOS:
            _bug(exc)
        outside_failure(exc, lang=lang)
    except Exception as exc:  # an internal bug: one line, no traceback unless asked for
        _bug(exc)


def _bug(exc: Exception) -> NoReturn:
    if _SIGNALLED is not None:  # an error made of the stop itself (see _SIGNALLED): the stop goes on up
        raise _SIGNALLED from None
    if os.environ.get("SETTLE_DEBUG"):
        raise exc
    typer.echo(f"internal error: {type(exc).__name__}: {exc} — this is a bug in settle; please report it "
               "with the input file (set SETTLE_DEBUG=1 for the traceback)", err=True)
    raise typer.Exit(EXIT_BUG) from None


def read_input(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """Bytes of a file, or of stdin for ``-``, read up to one byte past ``max_bytes``.

    Reading stops there so an endless input (``/dev/zero``) is refused by the loader's size
    check instead of filling memory.  A missing or unreadable file is bad input (exit 2).
    """
    if path == "-":
        return sys.stdin.buffer.read(max_bytes + 1)
    try:
        with open(path, "rb") as handle:
            return handle.read(max_bytes + 1)
    except OSError as exc:
        raise HandError.at((), f"cannot read {path}: {exc.strerror}", kind="cannot_read",
                           values=_os_values(path, exc)) from None


def _print_version(asked: bool) -> None:
    # Eager, so that `settle --version` alone works (a group otherwise asks for a command first).
    if asked:
        from settle import __version__

        typer.echo(f"settle {__version__}")
        raise typer.Exit(0)


@app.callback()
def _group(
    version: Annotated[bool, typer.Option("--version", help="print the version and exit", is_eager=True,
                                          callback=_print_version)] = False,
) -> None:
    """Settle finished mahjong hands: 武汉 Wuhan 红中赖子杠, 武穴 Wuxue, 乳山 Rushan."""


# --- settle hand ----------------------------------------------------------------------------------


@app.command("hand", cls=Command)
def hand_command(
    file: Annotated[str | None, typer.Argument(metavar="FILE", help="hand file (YAML or JSON); - reads stdin; "
                                                                      "omit to describe the hand with flags")] = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    lang: LangOpt = None,
    region: Annotated[str | None, typer.Option(metavar="REGION", help=late_help(region_choices))] = None,
    players: Annotated[str | None, typer.Option(metavar="A,B,C,D",
                                                help="names in seating order, comma-separated")] = None,
    dealer: Annotated[str | None, typer.Option(metavar="NAME", help="庄家")] = None,
    winner: Annotated[str | None, typer.Option(metavar="NAME", help="胡: the winner")] = None,
    by: Annotated[str | None, typer.Option(metavar="HOW",
                                           help="self_draw 自摸 | discard 点炮/放冲 | robbed_kong 抢杠")] = None,
    from_: Annotated[str | None, typer.Option("--from", metavar="NAME", help="the discarder or robbed player")] = None,
    fan: Annotated[list[str] | None, typer.Option(metavar="FAN",
                                                  help="a named item the winner claims (repeat): qingyise")] = None,
    fans: Annotated[list[str] | None, typer.Option(metavar="NAME=N",
                                                   help="stated 番/斤 total (repeat, or A=3,B=2)")] = None,
    opens: Annotated[list[str] | None, typer.Option(metavar="NAME=N",
                                                    help="开口: B=2, or who fed each: D=A,B,C (repeat)")] = None,
    kong: Annotated[list[str] | None, typer.Option(metavar="NAME=KIND[:N]",
                                                   help="杠: B=concealed or B=concealed:2 (repeat)")] = None,
    ready: Annotated[list[str] | None, typer.Option(metavar="NAME",
                                                    help="a player who was 听牌 ready (repeat)")] = None,
    fish: Annotated[list[str] | None, typer.Option(metavar="NAME=N", help="飘鱼 fish: A=1 (repeat; R6)")] = None,
    liable: Annotated[str | None, typer.Option(metavar="NAME|none", help="包牌/承包 player, or none")] = None,
    draw: Annotated[bool, typer.Option("--draw", help="荒庄: nobody won")] = False,
    abandon: Annotated[str | None, typer.Option(metavar="NAME", help="逃跑: the player who left (H9)")] = None,
    option: Annotated[list[str] | None, typer.Option(metavar="KEY=VALUE", help="house rule: cap=300 (repeat)")] = None,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    bom: Annotated[bool, typer.Option("--bom", help="start the CSV with the UTF-8 byte-order mark "
                                                    "(for Excel)")] = False,
) -> None:
    """Settle one hand from a file (or stdin), or from flags.

    \b
    Example:
      settle hand fixtures/wuhan/worked_example.yaml --format json
    """

    def run() -> None:
        from settle.cli.flags import hand_from_flags, parse_options
        from settle.engine.hand import settle_hand
        from settle.render import bom_mark, render

        mark = bom_mark(bom, fmt.value)
        flags = {"region": region, "players": players, "dealer": dealer, "winner": winner, "by": by,
                 "from": from_, "fan": fan, "fans": fans, "opens": opens, "kong": kong, "ready": ready,
                 "fish": fish, "liable": liable, "draw": draw, "abandon": abandon}
        file_options = False
        if file is not None:
            data, located = _load_file(file, flags, max_bytes)
            file_options = "options" in data
        else:
            data, located = hand_from_flags(flags), None
        flag_options = parse_options(option or ())
        if flag_options:
            data = {**data, "options": {**(data.get("options") or {}), **flag_options}}
        try:
            result = settle_hand(data)
        except HandError as exc:
            raise blame_flags(located(exc) if located else exc, flag_options, file_options) from None
        text = render(result, "json" if fmt.value == "jsonl" else fmt.value, output_lang(lang, fmt.value))
        with output_to(output, [] if file is None else [file]) as out:
            out.write(mark + text + "\n")

    guarded(run, lang=lang)


def blame_flags(exc: HandError, flag_options: dict[str, Any], file_options: bool = True) -> HandError:
    """Problems with options given by ``--option`` point at the flag, not at a line of the file.

    A problem of the options together (caps out of order, G13) names the flags too; it keeps the
    file's line only when the file has ``options`` of its own (else the line would be the hand's
    first key, which has nothing to do with it).
    """
    def from_flag(p: Problem) -> bool:
        return p.path[:1] == ("options",) and len(p.path) > 1 and p.path[1] in flag_options

    def all_options(p: Problem) -> bool:
        return bool(flag_options) and p.path == ("options",)

    flags = ", ".join(f"--option {key}=..." for key in flag_options)

    def noted(p: Problem, flag: str) -> Any:  # the flag beside the words in another language too
        return None if p.values is None else {**p.values, "via": flag}

    return HandError([replace(p, line=None, column=None, message=f"{p.message} (given with --option {p.path[1]}=...)",
                              values=noted(p, f"--option {p.path[1]}=..."))
                      if from_flag(p) else
                      replace(p, line=p.line if file_options else None, column=p.column if file_options else None,
                              message=f"{p.message} (with {flags})", values=noted(p, flags))
                      if all_options(p) else p for p in exc.problems])


def _load_file(file: str, flags: dict[str, Any],
               max_bytes: int) -> tuple[dict[str, Any], Callable[[HandError], HandError]]:
    given = [f"--{k}" for k, v in flags.items() if v not in (None, False, [])]
    if given:
        raise HandError.at((), f"give a hand file or hand flags, not both (found {', '.join(given)}); "
                               "--option may be combined with a file")
    source = "<stdin>" if file == "-" else file
    raw = read_input(file, max_bytes)
    doc = read_document(raw, source, max_bytes)
    return doc.data, lambda exc: located_in(exc, doc.lines, source, raw)


def read_document(raw: bytes, source: str, max_bytes: int) -> Any:
    """:func:`settle.loader.read_hand` of a file's bytes; its problems (a duplicate key ...) with the
    column of their key on its line (:func:`located_in`)."""
    from settle.loader import read_hand

    try:
        return read_hand(raw, source, max_bytes=max_bytes)
    except HandError as exc:
        raise located_in(exc, {}, source, raw) from None


def located_in(exc: HandError, lines: dict[Any, int], source: str, raw: bytes) -> HandError:
    """``exc``'s problems with the lines of a read file, and the column of each key on its line
    (:func:`settle.errors.with_columns`): ``FILE:LINE:COL`` (issue 16 #9)."""
    from settle.errors import with_columns

    return HandError(with_columns(exc.located(lines, source=source).problems,
                                  raw.decode("utf-8", "replace").removeprefix("\ufeff")))


COMMAND_MODULES = ("settle.cli.batch", "settle.cli.docs", "settle.cli.check", "settle.cli.sample",
                   "settle.cli.serve")
"""Modules that register more commands on :data:`app` (batch/session, schema/rules, check, sample, serve)."""


def _register_commands(argv: list[str] | None = None) -> None:
    """Register every command; when ``argv`` starts with a command's name, keep only that one.

    typer turns each registered command into a click command on every run, reading its whole
    signature (about 4 ms per command here); building only the one asked for keeps
    ``settle hand FILE`` quick to start (issue 5).  ``settle --help`` still lists them all.
    A command of this module (``hand``) is kept without importing :data:`COMMAND_MODULES`.
    """
    wanted = argv[0] if argv else None
    chosen = [info for info in app.registered_commands if info.name == wanted]
    if not chosen:
        import importlib

        for name in COMMAND_MODULES:
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:
                    raise
        chosen = [info for info in app.registered_commands if info.name == wanted]
    if chosen:
        app.registered_commands = chosen


class _UnfailingStderr(io.RawIOBase):
    """File descriptor 2 as a raw stream whose writes never fail: a stderr nobody can read (closed,
    ``/dev/full``, a closed pipe) drops the text, so that the exit status stays the one of what
    happened (2 for bad input), never 1 or a traceback from the words about it."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        try:
            return os.write(2, data)
        except OSError:  # ENOSPC, EPIPE, EBADF ...: nobody reads these words
            return len(data)

    def fileno(self) -> int:
        return 2

    def isatty(self) -> bool:
        try:
            return os.isatty(2)
        except OSError:
            return False


def unfailing_stderr() -> None:
    """Make ``sys.stderr`` a stream whose writes never fail (:class:`_UnfailingStderr`), with the
    encoding and error handler it had, line-buffered as Python's own stderr.

    A closed descriptor 2 (``2>&-``) gets the null device first, so that no file opened later (an
    ``--output``) is given descriptor 2 and receives the problems meant for stderr.
    """
    try:
        os.fstat(2)
    except OSError:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 2:
            os.dup2(null, 2)
            os.close(null)
    old = sys.stderr
    encoding = getattr(old, "encoding", None) or "utf-8"
    handler = getattr(old, "errors", None) or "backslashreplace"
    sys.stderr = io.TextIOWrapper(io.BufferedWriter(_UnfailingStderr()), encoding=encoding, errors=handler,
                                  line_buffering=True)


def main() -> None:
    """Console-script entry point.

    pydantic plugins are off unless ``PYDANTIC_DISABLE_PLUGINS`` is set (to ``""`` to turn them
    on): looking for them scans every installed package's entry points before the first hand is
    validated, a start-up cost no settle command needs.  Ctrl-C and SIGTERM end the run with one
    line and exit 130/143 (:class:`Stopped`); an output file being written is left as it was.  A
    stderr that cannot be written changes no exit status (:func:`unfailing_stderr`).
    """
    global _SIGNALLED
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    unfailing_stderr()
    _SIGNALLED = None
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        _register_commands(sys.argv[1:])
        app()
    except Stopped as stop:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while stopping changes nothing
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        quiet_stdout()
        try:
            sys.stderr.write(stop.words + "\n")
            sys.stderr.flush()
        except OSError:
            pass
        raise SystemExit(stop.status) from None


if __name__ == "__main__":
    main()
