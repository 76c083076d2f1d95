"""``settle schema`` and ``settle rules``: the input contract and the rule tables, from the code.

Registered on :data:`settle.cli.app` when :func:`settle.cli.main` imports this module.

* ``settle schema [hand|batch|session|result|line]`` prints a JSON Schema (draft-07) generated from the
  pydantic models (:mod:`settle.render.schema`); the committed copies are under ``schemas/``;
  ``settle schema --out DIR`` writes them all into DIR (issue 16 #8: for an editor's modeline).
* ``settle rules [REGION]`` prints each region's vocabulary and options (:mod:`settle.render.rules`);
  ``--format markdown`` gives the tables used in docs/.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from settle.cli import (
    CONTEXT,
    OUTSIDE_ERRNOS,
    Command,
    Format,
    FormatOpt,
    LangOpt,
    OutputOpt,
    app,
    guarded,
    late_help,
    output_to,
    region_choices,
)


class SchemaKind(StrEnum):
    """Which schema ``settle schema`` prints."""

    hand = "hand"
    batch = "batch"
    session = "session"
    result = "result"
    line = "line"


@app.command("schema", cls=Command, context_settings=CONTEXT)
def schema_command(
    kind: Annotated[SchemaKind, typer.Argument(
        metavar="KIND",
        help="hand: a hand file; batch: a batch file (a list of hands, or one hand per YAML document or "
             "JSON line); session: a session file (header and hands); result: the JSON output of one hand; "
             "line: one line of settle batch --format jsonl")] = SchemaKind.hand,
    out_dir: Annotated[str | None, typer.Option("--out", metavar="DIR",
                                                help="write every schema into DIR (KIND.schema.json each)")] = None,
    output: OutputOpt = None,
) -> None:
    """Print the JSON Schema of a hand file, a batch file, a session file or a JSON result.

    Point an editor at it for completion and checking while typing a YAML hand file:
    put `# yaml-language-server: $schema=schemas/hand.schema.json` (path relative to the
    file, or a URL) on the first line; --out DIR writes them all for that.

    \b
    Example:
      settle schema --out ~/.settle-schemas
      # yaml-language-server: $schema=~/.settle-schemas/session.schema.json
    """

    def run() -> None:
        from settle.render.schema import schema_text, write_schemas

        if out_dir is not None:
            from pathlib import Path

            from settle.render.schema import KINDS, file_name

            directory = Path(out_dir).expanduser()
            try:
                write_schemas(directory)
            except OSError as exc:
                from settle.errors import HandError

                if exc.errno in OUTSIDE_ERRNOS:
                    raise
                raise HandError.at((), f"cannot write the schemas to {out_dir}: {exc.strerror}") from None
            typer.echo("\n".join(str(directory / file_name(k)) for k in KINDS))
            return
        with output_to(output, []) as out:
            out.write(schema_text(kind.value))

    guarded(run)


def complete_region(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion for a region argument: canonical keys, with the Chinese name as help."""
    from settle.rules.registry import region_terms

    return [(t.key, t.zh) for t in region_terms().values() if t.key.startswith(incomplete.lower())]


def _region_argument_help() -> str:
    return region_choices() + "; omit for all"


@app.command("rules", cls=Command, context_settings=CONTEXT)
def rules_command(
    region: Annotated[str | None, typer.Argument(
        metavar="REGION",
        help=late_help(_region_argument_help),
        autocompletion=complete_region)] = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    lang: LangOpt = None,
) -> None:
    """Print a region's scoring items, kong kinds and options, with values, defaults and ruling ids.

    \b
    Example:
      settle rules wuhan --lang zh
    """

    def run() -> None:
        from settle.render import default_lang
        from settle.render.rules import render_rules
        from settle.rules.registry import all_regions, get_region, region_key

        regions = all_regions() if region is None else [get_region(region_key(region))]
        text = render_rules(regions, fmt.value, lang.value if lang else default_lang())
        with output_to(output, []) as out:
            out.write(text + "\n")

    guarded(run, lang=lang)
