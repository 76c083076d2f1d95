"""``settle schema`` and ``settle rules``: the input contract and the rule tables, from the code.

Registered on :data:`settle.cli.app` when :func:`settle.cli.main` imports this module.

* ``settle schema [hand|batch|result|line]`` prints a JSON Schema (draft-07) generated from the
  pydantic models (:mod:`settle.render.schema`); the committed copies are under ``schemas/``.
* ``settle rules [REGION]`` prints each region's vocabulary and options (:mod:`settle.render.rules`);
  ``--format markdown`` gives the tables used in docs/.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from settle.cli import Command, Format, FormatOpt, LangOpt, app, guarded, late_help, region_choices


class SchemaKind(StrEnum):
    """Which schema ``settle schema`` prints."""

    hand = "hand"
    batch = "batch"
    result = "result"
    line = "line"


@app.command("schema")
def schema_command(
    kind: Annotated[SchemaKind, typer.Argument(
        help="hand: a hand file; batch: a batch file (a list of hands, or one hand per YAML document or "
             "JSON line); result: the JSON output of one hand")] = SchemaKind.hand,
) -> None:
    """Print the JSON Schema of a hand file, a batch file or a JSON result.

    Point an editor at it for completion and checking while typing a YAML hand file:
    put `# yaml-language-server: $schema=schemas/hand.schema.json` (path relative to the
    file, or a URL) on the first line.
    """

    def run() -> None:
        from settle.render.schema import schema_text

        typer.echo(schema_text(kind.value), nl=False)

    guarded(run)


def complete_region(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion for a region argument: canonical keys, with the Chinese name as help."""
    from settle.rules.registry import region_terms

    return [(t.key, t.zh) for t in region_terms().values() if t.key.startswith(incomplete.lower())]


def _region_argument_help() -> str:
    return region_choices() + "; omit for all"


@app.command("rules", cls=Command)
def rules_command(
    region: Annotated[str | None, typer.Argument(
        help=late_help(_region_argument_help),
        autocompletion=complete_region)] = None,
    fmt: FormatOpt = Format.table,
    lang: LangOpt = None,
) -> None:
    """Print a region's scoring items, kong kinds and options, with values, defaults and ruling ids."""

    def run() -> None:
        from settle.render import default_lang
        from settle.render.rules import render_rules
        from settle.rules.registry import all_regions, get_region, region_key

        regions = all_regions() if region is None else [get_region(region_key(region))]
        typer.echo(render_rules(regions, fmt.value, lang.value if lang else default_lang()))

    guarded(run)
