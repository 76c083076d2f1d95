"""Cold start of ``settle hand FIXTURE`` against ``python -c "import typer, pydantic"`` (issue 5).

Runs each command ``--runs`` times, interleaved, and prints the minimum and the median wall time
of each and their ratio (target: settle at most 1.5x the baseline).

Before timing, settle's modules are compiled to bytecode (``compileall``), as ``pip install``
does for the baseline's typer and pydantic: with ``PYTHONDONTWRITEBYTECODE`` set (as on this
machine) or a read-only checkout, Python would otherwise compile settle's sources on every
start, a cost an installed settle does not have.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--fixture", default="fixtures/wuhan/worked_example.yaml")
    args = parser.parse_args()
    settle = shutil.which("settle") or sys.exit("the settle command is not installed")
    import settle as package

    compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    commands = {"baseline: import typer, pydantic": [sys.executable, "-c", "import typer, pydantic"],
                **{name: [sys.executable, "-c", code] for name, code in FLOORS.items()},
                f"settle hand {args.fixture}": [settle, "hand", args.fixture]}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            times[name].append(timed(cmd))
    base = statistics.median(next(iter(times.values())))
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:66} min {min(values) * 1000:5.0f} ms   median {median * 1000:5.0f} ms   "
              f"{median / base:.2f}x")
    ours = statistics.median(times[f"settle hand {args.fixture}"])
    print(f"ratio settle hand / baseline (medians): {ours / base:.2f}x   target <= 1.5x")


FLOORS = {
    "floor: import typer; from pydantic import BaseModel":
        "import typer; from pydantic import BaseModel",
    "floor: ... + import yaml, tabulate (what settle hand must load)":
        "import typer; from pydantic import BaseModel; import yaml, tabulate",
}
"""Imports ``settle hand FILE`` cannot do without, each timed like the baseline: pydantic's
``BaseModel`` (the hand models; ``import pydantic`` alone leaves it unloaded), PyYAML (the hand
file) and tabulate (the default table output).  Their ratio to the baseline is the least any
``settle hand`` could reach with these libraries."""


if __name__ == "__main__":
    main()
