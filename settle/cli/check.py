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

import json
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from settle.cli import DEFAULT_MAX_BYTES, MaxBytesOpt, app, guarded, read_input
from settle.errors import HandError

if TYPE_CHECKING:
    from settle.engine.tilelevel import ClaimCheck

DIFFER = 3
"""Exit status when the claims and the tiles differ."""


class CheckFormat(StrEnum):
    """Output formats of ``settle check``."""

    table = "table"
    json = "json"


@app.command("check")
def check_command(
    file: Annotated[str, typer.Argument(help="hand file (YAML or JSON) with win.tiles and win.fans; - reads stdin")],
    fmt: Annotated[CheckFormat, typer.Option("--format", "-f", help="table | json")] = CheckFormat.table,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
) -> None:
    """Check the claimed fans (win.fans) against the winner's tiles (win.tiles).

    Reports every fan claimed but not in the tiles, every fan in the tiles but not claimed,
    and an illegal win, with each payment and the winner's net under the claim and under the
    tiles.  Exit 0 when they agree, 3 when they differ, 2 on bad input.
    """
    outcome: dict[str, bool] = {}

    def run() -> None:
        from settle.engine.tilelevel import check_claims
        from settle.loader import read_hand

        source = "<stdin>" if file == "-" else file
        doc = read_hand(read_input(file, max_bytes), source, max_bytes=max_bytes)
        try:
            result = check_claims(doc.data)
        except HandError as exc:
            raise exc.located(doc.lines, source=source) from None
        typer.echo(render_check(result, fmt.value))
        outcome["agree"] = result.agree

    guarded(run)
    if not outcome.get("agree", True):
        raise typer.Exit(DIFFER)


def render_check(result: ClaimCheck, fmt: str = "table") -> str:
    """``result`` as a table (tabulate) or as JSON (:meth:`ClaimCheck.as_dict`)."""
    if fmt == "json":
        return json.dumps(result.as_dict(), ensure_ascii=False)
    from tabulate import tabulate

    blocks = [_headline(result), tabulate(_fan_rows(result), ["winner", "claimed", "tiles"], tablefmt="simple",
                                          disable_numparse=True)]
    if result.differences:
        rows = _difference_rows(result)
        head = ["difference", "item", "value", "detail"]
        if not any(row[3] for row in rows):
            head, rows = head[:3], [row[:3] for row in rows]
        blocks.append(tabulate(rows, head, tablefmt="simple", disable_numparse=True))
    blocks.append(tabulate(_payment_rows(result), ["payment", "claimed", "tiles"], tablefmt="simple",
                           disable_numparse=True, colalign=("left", "right", "right")))
    if result.notes:
        blocks.append("\n".join(f"* {note}" for note in result.notes))
    return "\n\n".join(blocks)


def _headline(result: ClaimCheck) -> str:
    from settle.rules.registry import get_region

    term = get_region(result.region).term
    verdict = "the claims agree with the tiles" if result.agree else (
        f"the claims differ from the tiles ({len(result.differences)} difference(s))")
    return f"{term.zh} {term.key}: {verdict}"


def _labels(region: str, fans: tuple[str, ...] | None) -> str:
    from settle.engine.tilelevel import fan_labels
    from settle.rules.registry import get_region

    return "(no legal win)" if fans is None else fan_labels(get_region(region), fans)


def _fan_rows(result: ClaimCheck) -> list[list[str]]:
    rows = []
    for winner, claimed in result.claimed.items():
        tiles = _labels(result.region, result.derived.get(winner))
        reading = result.readings.get(winner)
        rows.append([winner, _labels(result.region, claimed), f"{tiles}\n{reading}" if reading else tiles])
    return rows


def _difference_rows(result: ClaimCheck) -> list[list[str]]:
    from settle.engine.tilelevel import DIFFERENCE_KINDS

    return [[DIFFERENCE_KINDS[d.kind], d.label, d.value, d.detail] for d in result.differences]


def _payment_rows(result: ClaimCheck) -> list[list[str]]:
    rows = [[f"{payer} -> {payee}", _amount(claimed), _amount(tiles)]
            for payer, payee, claimed, tiles in result.payments()]
    for name in result.players:
        claimed = None if result.claimed_result is None else result.claimed_result.net[name]
        tiles = None if result.tiles_result is None else result.tiles_result.net[name]
        rows.append([f"net {name}", _signed(claimed), _signed(tiles)])
    return rows


def _amount(value: int | None) -> str:
    return "—" if value is None else str(value)


def _signed(value: int | None) -> str:
    if value is None:
        return "—"
    return f"+{value}" if value > 0 else str(value)
