"""The switches every ``settle`` command shares, declared once (issue 16 #6).

Each command takes its output switches from here, so they read the same everywhere: ``--format/-f
FORMAT``, ``--output/-o FILE``, ``--lang en|zh``, ``--quiet/-q``, ``--errors FILE``, ``--max-bytes
N``, ``--input-format``, and ``-h``/``--help`` (:data:`CONTEXT`).  Metavars are words a user types
(``FILE``, ``NAME=N``, ``N``), never a Python type.  A command that writes fewer formats declares its
own choices with :func:`format_option`; a switch added later (``--bom``, ``--standings`` ...) is one more
``Annotated`` alias here, used by the commands that take it.

Imports nothing but typer: every command's module imports it at start-up.  The annotations are
evaluated when defined (no ``from __future__ import annotations``): typer reads them on each run.
"""

from enum import StrEnum
from typing import Annotated, Any

import typer

CONTEXT: dict[str, Any] = {"help_option_names": ["-h", "--help"]}
"""Context settings of the group and of every command: ``-h`` as well as ``--help``."""


class Format(StrEnum):
    """Output formats: a table, JSON, JSON Lines (one object per line), CSV, Markdown."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    markdown = "markdown"


class Lang(StrEnum):
    """Output label language; JSON keys stay canonical."""

    en = "en"
    zh = "zh"


class InputFormat(StrEnum):
    """How to read an input: ``auto`` (``.jsonl``/``.ndjson`` by name, stdin sniffed, else YAML/JSON)."""

    auto = "auto"
    yaml = "yaml"
    json = "json"
    jsonl = "jsonl"


FORMAT_HELP = "table | json | jsonl (one JSON object per line) | csv | markdown"


def format_option(choices: str = FORMAT_HELP) -> Any:
    """The ``--format/-f FORMAT`` switch, its help listing ``choices``."""
    return typer.Option("--format", "-f", metavar="FORMAT", help=choices)


FormatOpt = Annotated[Format, format_option()]
LangOpt = Annotated[Lang | None, typer.Option("--lang", metavar="en|zh",
                                              help="labels and messages: en (with 中文 beside) or zh; "
                                                   "default from the locale (JSON, JSON Lines, CSV: en)")]
OutputOpt = Annotated[str | None, typer.Option("--output", "-o", metavar="FILE",
                                               help="write to FILE instead of stdout (replaced when complete)")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q",
                                        help="on stderr only the count of bad hands, not each problem")]
ErrorsOpt = Annotated[str | None, typer.Option("--errors", metavar="FILE",
                                               help="write every bad hand to FILE as a JSON line "
                                                    "(id, source, errors)")]
InputFormatOpt = Annotated[InputFormat, typer.Option("--input-format", metavar="FORMAT",
                                                     help="auto (by file name; stdin sniffed) | yaml | json | jsonl")]

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""The default size limit of one document (issue 6: 64 MiB)."""

MaxBytesOpt = Annotated[int, typer.Option("--max-bytes", min=1, metavar="N", show_default=False,
                                          help="refuse a document larger than N bytes (default 64 MiB)")]
