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
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from settle.errors import HandError, Problem
from settle.rules.registry import region_terms

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
    """typer's argument, making no value without building its adapter (:func:`_no_value`)."""

    def process_value(self, ctx: "Context", value: Any) -> Any:
        if value is None and not self.required:
            return _no_value(self, ctx)
        return super().process_value(ctx, value)


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
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(StrEnum):
    """Output formats shared by every command."""

    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


class Lang(StrEnum):
    """Output label language; JSON keys stay canonical."""

    en = "en"
    zh = "zh"


FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="table | json | csv | markdown")]
LangOpt = Annotated[Lang | None, typer.Option("--lang", help="labels: en (with 中文 beside) or zh; "
                                                             "default from the locale")]


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


def fail(problems: list[Problem]) -> NoReturn:
    """Report bad input on stderr and exit 2."""
    from settle.render import render_problems

    typer.echo(render_problems(problems), err=True)
    raise typer.Exit(2)


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


def _stop(signum: int, frame: object) -> None:
    if signum == signal.SIGINT:
        raise Stopped(EXIT_INTERRUPTED, "interrupted")
    raise Stopped(EXIT_TERMINATED, "terminated")


def quiet_stdout() -> None:
    """Point file descriptor 1 at the null device after the reader of stdout went away, so that
    the interpreter's last flush does not fail again (the text still buffered is dropped)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no file descriptor (a test's captured stdout): nothing to flush
        pass


OUTSIDE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS})
"""Write errors that come from outside settle: disk full, quota, I/O error, file too large, read-only."""


def outside_failure(exc: OSError, what: str = "write the output") -> NoReturn:
    """Report an :class:`OSError` from outside settle (``cannot write the output: the disk is full``)
    and exit 4 (:data:`EXIT_OUTSIDE`)."""
    reason = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else (exc.strerror or str(exc))
    name = f" {exc.filename}" if exc.filename else ""
    typer.echo(f"error: cannot {what}{name}: {reason}", err=True)
    raise typer.Exit(EXIT_OUTSIDE)


def guarded(action: Callable[[], None], status: Callable[[], int] | None = None) -> None:
    """Run a command body: bad input exits 2, an unexpected error exits 1 with one line.

    A closed stdout (BrokenPipeError) ends the command quietly with ``status()`` (default 0: what
    was settled until then); a write that fails for an outside reason (:data:`OUTSIDE_ERRNOS`: disk
    full ...) exits 4 with one line (issue 15 #14, #15).
    """
    try:
        action()
    except HandError as exc:
        fail(exc.problems)
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except BrokenPipeError:
        quiet_stdout()
        raise typer.Exit(status() if status is not None else EXIT_SETTLED) from None
    except OSError as exc:
        if exc.errno not in OUTSIDE_ERRNOS:
            _bug(exc)
        outside_failure(exc)
    except Exception as exc:  # an internal bug: one line, no traceback unless asked for
        _bug(exc)


def _bug(exc: Exception) -> NoReturn:
    if os.environ.get("SETTLE_DEBUG"):
        raise exc
    typer.echo(f"internal error: {type(exc).__name__}: {exc} — this is a bug in settle; please report it "
               "with the input file (set SETTLE_DEBUG=1 for the traceback)", err=True)
    raise typer.Exit(EXIT_BUG) from None


DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""The default size limit of one document (issue 6: 64 MiB)."""

MaxBytesOpt = Annotated[int, typer.Option("--max-bytes", min=1, help="refuse a document larger than this "
                                                                      "many bytes (default 64 MiB)")]


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
        raise HandError.at((), f"cannot read {path}: {exc.strerror}") from None


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
    file: Annotated[str | None, typer.Argument(help="hand file (YAML or JSON); - reads stdin; "
                                                    "omit to describe the hand with flags")] = None,
    fmt: FormatOpt = Format.table,
    lang: LangOpt = None,
    region: Annotated[str | None, typer.Option(help=late_help(region_choices))] = None,
    players: Annotated[str | None, typer.Option(help="names in seating order, comma-separated: A,B,C,D")] = None,
    dealer: Annotated[str | None, typer.Option(help="庄家")] = None,
    winner: Annotated[str | None, typer.Option(help="胡: the winner")] = None,
    by: Annotated[str | None, typer.Option(help="self_draw 自摸 | discard 点炮 | robbed_kong 抢杠")] = None,
    from_: Annotated[str | None, typer.Option("--from", help="the discarder or robbed player")] = None,
    fan: Annotated[list[str] | None, typer.Option(help="a named item the winner claims (repeat): qingyise")] = None,
    fans: Annotated[list[str] | None, typer.Option(help="stated 番/斤 total: A=3 (repeat, or A=3,B=2)")] = None,
    opens: Annotated[list[str] | None, typer.Option(help="开口: B=2, or who fed each: D=A,B,C (repeat)")] = None,
    kong: Annotated[list[str] | None, typer.Option(help="杠: B=concealed or B=concealed:2 (repeat)")] = None,
    ready: Annotated[list[str] | None, typer.Option(help="a player who was 听牌 ready (repeat)")] = None,
    fish: Annotated[list[str] | None, typer.Option(help="飘鱼 fish: A=1 (repeat; R6)")] = None,
    liable: Annotated[str | None, typer.Option(help="包牌/承包 player, or none")] = None,
    draw: Annotated[bool, typer.Option("--draw", help="荒庄: nobody won")] = False,
    abandon: Annotated[str | None, typer.Option(help="逃跑: the player who left (H9)")] = None,
    option: Annotated[list[str] | None, typer.Option(help="house rule: cap=300 (repeat)")] = None,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
) -> None:
    """Settle one hand from a file (or stdin), or from flags."""

    def run() -> None:
        from settle.cli.flags import hand_from_flags, parse_options
        from settle.engine.hand import settle_hand
        from settle.render import render

        flags = {"region": region, "players": players, "dealer": dealer, "winner": winner, "by": by,
                 "from": from_, "fan": fan, "fans": fans, "opens": opens, "kong": kong, "ready": ready,
                 "fish": fish, "liable": liable, "draw": draw, "abandon": abandon}
        if file is not None:
            data, located = _load_file(file, flags, max_bytes)
        else:
            data, located = hand_from_flags(flags), None
        flag_options = parse_options(option or ())
        if flag_options:
            data = {**data, "options": {**(data.get("options") or {}), **flag_options}}
        try:
            result = settle_hand(data)
        except HandError as exc:
            raise blame_flags(located(exc) if located else exc, flag_options) from None
        typer.echo(render(result, fmt.value, output_lang(lang, fmt.value)))

    guarded(run)


def blame_flags(exc: HandError, flag_options: dict[str, Any]) -> HandError:
    """Problems with options given by ``--option`` point at the flag, not at a line of the file."""
    def from_flag(p: Problem) -> bool:
        return p.path[:1] == ("options",) and len(p.path) > 1 and p.path[1] in flag_options

    return HandError([replace(p, line=None, message=f"{p.message} (given with --option {p.path[1]}=...)")
                      if from_flag(p) else p for p in exc.problems])


def _load_file(file: str, flags: dict[str, Any],
               max_bytes: int) -> tuple[dict[str, Any], Callable[[HandError], HandError]]:
    from settle.loader import read_hand

    given = [f"--{k}" for k, v in flags.items() if v not in (None, False, [])]
    if given:
        raise HandError.at((), f"give a hand file or hand flags, not both (found {', '.join(given)}); "
                               "--option may be combined with a file")
    source = "<stdin>" if file == "-" else file
    doc = read_hand(read_input(file, max_bytes), source, max_bytes=max_bytes)
    return doc.data, lambda exc: exc.located(doc.lines, source=source)


COMMAND_MODULES = ("settle.cli.batch", "settle.cli.docs", "settle.cli.check", "settle.cli.serve")
"""Modules that register more commands on :data:`app` (batch/session, schema/rules, check)."""


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


def main() -> None:
    """Console-script entry point.

    pydantic plugins are off unless ``PYDANTIC_DISABLE_PLUGINS`` is set (to ``""`` to turn them
    on): looking for them scans every installed package's entry points before the first hand is
    validated, a start-up cost no settle command needs.  Ctrl-C and SIGTERM end the run with one
    line and exit 130/143 (:class:`Stopped`); an output file being written is left as it was.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
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
