"""``settle check FILE``: compare the fans a table claimed with what the winner's tiles give.

Registered on :data:`settle.cli.app` when :func:`settle.cli.main` imports this module; it
imports nothing heavy at start-up (tabulate, the loader and the tile engine load inside the
command).

Exit status: 0 the claims agree with the tiles; 3 they differ (a fan claimed but not in the
tiles, one in the tiles but not claimed, an illegal win, or a claim the hand's facts refuse);
2 bad input (no ``win.tiles`` or no ``win.fans``, a file that cannot be read or settled);
1 an internal bug.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from settle.cli import (
    CONTEXT,
    DEFAULT_MAX_BYTES,
    Command,
    LangOpt,
    MaxBytesOpt,
    OutputOpt,
    app,
    format_option,
    guarded,
    located_in,
    output_lang,
    output_to,
    read_document,
    read_input,
)
from settle.errors import HandError

DIFFER = 3
"""Exit status when the claims and the tiles differ."""


class CheckFormat(StrEnum):
    """Output formats of ``settle check``."""

    table = "table"
    json = "json"
    jsonl = "jsonl"


@app.command("check", cls=Command, context_settings=CONTEXT)
def check_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="hand file (YAML or JSON) with win.tiles and "
                                                             "win.fans; - reads stdin")],
    fmt: Annotated[CheckFormat, format_option("table | json | jsonl (json on one line)")] = CheckFormat.table,
    output: OutputOpt = None,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    lang: LangOpt = None,
) -> None:
    """Check the claimed fans (win.fans) against the winner's tiles (win.tiles).

    Reports every fan claimed but not in the tiles, every fan in the tiles but not claimed,
    and an illegal win, with each payment and the winner's net under the claim and under the
    tiles.  Exit 0 when they agree, 3 when they differ, 2 on bad input.

    \b
    Example:
      settle check fixtures/tiles/wuhan_claims_disagree.yaml
    """
    outcome: dict[str, bool] = {}

    def run() -> None:
        from settle.engine.tilelevel import check_claims
        from settle.render.check import render_check

        source = "<stdin>" if file == "-" else file
        raw = read_input(file, max_bytes)
        doc = read_document(raw, source, max_bytes)
        try:
            result = check_claims(doc.data)
        except HandError as exc:
            raise located_in(exc, doc.lines, source, raw) from None
        shown = "json" if fmt.value == "jsonl" else fmt.value
        with output_to(output, [file]) as out:
            out.write(render_check(result, shown, output_lang(lang, fmt.value)) + "\n")
        outcome["agree"] = result.agree

    guarded(run, lang=lang)
    if not outcome.get("agree", True):
        raise typer.Exit(DIFFER)
