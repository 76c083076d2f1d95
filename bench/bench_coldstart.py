"""Cold start of ``settle hand FIXTURE`` against issue 14's floor: a committed typer app of one command.

    python bench/bench_coldstart.py --runs 21

The floor (``bench/floor/coldstart_app.py``) reads the fixture with PyYAML's C loader, validates it
with one pydantic ``TypeAdapter`` of a small TypedDict and prints JSON; ``coldstart_app_tabulate.py``
is the same with ``import tabulate`` added.  Targets (issue 14): ``settle hand FIXTURE --format json``
at most 1.25x the floor, ``settle hand FIXTURE`` (the table) at most 1.25x the floor with tabulate.

Each command runs ``--runs`` times, interleaved (this machine is shared: the ratio of medians taken
in one run is the figure), and the minimum and median wall times are printed beside the ratio.
Before timing, settle's modules are compiled to bytecode (``compileall``), as ``pip install`` does for
the floor's libraries: with ``PYTHONDONTWRITEBYTECODE`` set or a read-only checkout, Python would
otherwise compile settle's sources on every start, a cost an installed settle does not have.
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
FLOOR = Path(__file__).resolve().parent / "floor"
TARGET = 1.25


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--fixture", default="fixtures/wuhan/worked_example.yaml")
    args = parser.parse_args()
    settle = shutil.which("settle") or sys.exit("the settle command is not installed (pip install -e .)")
    import settle as package

    compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    compileall.compile_dir(FLOOR, quiet=1)
    commands = {
        "floor: typer + yaml C loader + TypeAdapter + json": [sys.executable, str(FLOOR / "coldstart_app.py"),
                                                              args.fixture],
        f"settle hand {args.fixture} --format json": [settle, "hand", args.fixture, "--format", "json"],
        "floor + import tabulate": [sys.executable, str(FLOOR / "coldstart_app_tabulate.py"), args.fixture],
        f"settle hand {args.fixture} (table)": [settle, "hand", args.fixture],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            times[name].append(timed(cmd))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:62} min {min(values) * 1000:5.0f} ms   median {medians[name] * 1000:5.0f} ms")
    names = list(commands)
    for ours, floor in ((names[1], names[0]), (names[3], names[2])):
        ratio = medians[ours] / medians[floor]
        print(f"ratio {ours} / {floor}: {ratio:.2f}x   target <= {TARGET}x   {'met' if ratio <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
