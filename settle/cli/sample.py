"""``settle sample``: random valid hands as JSON Lines, for trying ``settle batch``, for benchmarks and
for engine examples (issue 16 #11).

Registered on :data:`settle.cli.app` when :func:`settle.cli.main` imports this module; the hands come
from :func:`settle.engine.sample.sample_hands` (the generator ``bench/bench_batch.py`` uses too).
"""

from __future__ import annotations

from typing import Annotated

import typer

from settle.cli import Command, app, guarded, late_help, region_choices


@app.command("sample", cls=Command)
def sample_command(
    n: Annotated[int, typer.Option("--n", "-n", min=0, metavar="N", help="how many hands")] = 100,
    region: Annotated[str | None, typer.Option(metavar="REGION", help=late_help(region_choices))] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="the random seed: the same seed gives the same hands")] = 1,
) -> None:
    """Print N random valid hands as JSON Lines (ids h1 ... hN), the regions in turn or one region.

    \b
    Example:
      settle sample --n 5000 --seed 7 > hands.jsonl && settle batch hands.jsonl
    """

    def run() -> None:
        import sys

        from settle.engine.sample import sample_hands, write_jsonl

        write_jsonl(sample_hands(n, seed, region), sys.stdout)
        sys.stdout.flush()

    guarded(run)
