"""Byte-for-byte comparison of ``settle batch`` output between two installs (issue 14's ``cmp``).

Builds one corpus (``--n`` generated hands of the three regions, every ``--bad``-th one mutated
into a bad hand, and the tile hands of ``tests/golden/inputs/tiles.jsonl`` after them), runs
``settle batch`` of each install in every ``--format`` (and ``--lang zh`` for jsonl and csv, one
and two jobs for jsonl), then compares the outputs, stdout and stderr byte for byte and prints
``same`` or the first differing byte of each.

    python bench/compare_outputs.py --base /path/to/old/venv/bin/settle --n 200000

The install under test is ``settle`` beside this Python unless ``--new`` names another.  Files go
to ``bench/out/compare/``.  Not a unit test; it is what "the output of every ``--format`` stays
byte-for-byte" was checked with.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_batch import generate  # noqa: E402

RUNS: list[tuple[str, list[str]]] = [
    ("jsonl", ["--format", "jsonl"]),
    ("jsonl-j1", ["--format", "jsonl", "--jobs", "1"]),
    ("jsonl-j2", ["--format", "jsonl", "--jobs", "2"]),
    ("jsonl-zh", ["--format", "jsonl", "--lang", "zh"]),
    ("json", ["--format", "json"]),
    ("csv", ["--format", "csv"]),
    ("csv-zh", ["--format", "csv", "--lang", "zh"]),
    ("table", ["--format", "table", "--lang", "en"]),
    ("markdown", ["--format", "markdown", "--lang", "zh"]),
]


def mutate(hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of a few ways a real file goes wrong: a key lost, renamed or mistyped, a bad number."""
    choice = rng.randrange(7)
    if "win" not in hand or not isinstance(hand["win"], dict):
        choice = 3
    if choice == 0:
        hand.pop("win", None)
    elif choice == 1:
        hand["win"]["by"] = "teleport"
    elif choice == 2:
        players = hand["players"]
        if isinstance(players, dict):
            players[next(iter(players))] = {"opens": -1}
        else:
            hand["fans"] = {players[0]: "many"}
    elif choice == 3:
        hand["region"] = "nowhere"
    elif choice == 4:
        hand["wni"] = hand.pop("win")
    elif choice == 5:
        hand["win"]["winner"] = "Nobody"
    else:
        hand["dealer"] = 7
    return hand


def corpus(path: Path, n: int, bad: int, seed: int) -> None:
    """Write the comparison corpus to ``path`` (JSON Lines)."""
    rng = random.Random(seed)
    tiles = (HERE.parent / "tests" / "golden" / "inputs" / "tiles.jsonl").read_text(encoding="utf-8")
    part = path.with_suffix(".part")
    with part.open("w", encoding="utf-8") as out:
        for index, hand in enumerate(generate(n, seed)):
            if bad and index % bad == bad - 1:
                hand = mutate(hand, rng)
            out.write(json.dumps(hand, ensure_ascii=False) + "\n")
        out.write(tiles)
    part.replace(path)


def run_all(settle: str, hands: Path, into: Path) -> None:
    """Every run of ``RUNS`` with ``settle`` on ``hands``; output, stdout, stderr and status kept."""
    into.mkdir(parents=True, exist_ok=True)
    for name, args in RUNS:
        output = into / f"{name}.out"
        done = subprocess.run([settle, "batch", str(hands), *args, "-o", str(output)],
                              capture_output=True, check=False)
        (into / f"{name}.stdout").write_bytes(done.stdout)
        (into / f"{name}.stderr").write_bytes(done.stderr)
        (into / f"{name}.status").write_text(f"{done.returncode}\n")


def first_difference(a: bytes, b: bytes) -> int:
    """The offset of the first byte where ``a`` and ``b`` differ (the shorter length if one is a prefix)."""
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


def compare(old: Path, new: Path) -> bool:
    """Print one line per file of ``old``: same, or where it differs from ``new``. True if all same."""
    all_same = True
    for path in sorted(old.iterdir()):
        a, b = path.read_bytes(), (new / path.name).read_bytes()
        if a == b:
            print(f"  same       {path.name} ({len(a):,} bytes)")
        else:
            all_same = False
            at = first_difference(a, b)
            print(f"  DIFFERENT  {path.name} at byte {at:,}: {a[at:at + 60]!r} | {b[at:at + 60]!r}")
    return all_same


def main() -> None:
    """Build the corpus, run both installs, compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the settle executable to compare against")
    parser.add_argument("--new", default=str(Path(sys.executable).with_name("settle")))
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--bad", type=int, default=97, help="every BAD-th hand is mutated (0: none)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=HERE / "out" / "compare")
    parser.add_argument("--keep-base", action="store_true", help="reuse the base outputs already in --dir")
    opts = parser.parse_args()
    hands = opts.dir / f"corpus-{opts.n}-{opts.seed}.jsonl"
    opts.dir.mkdir(parents=True, exist_ok=True)
    if not hands.exists():
        corpus(hands, opts.n, opts.bad, opts.seed)
    lines = sum(1 for _ in hands.open(encoding="utf-8"))
    print(f"corpus: {hands} ({lines:,} hands)")
    if not (opts.keep_base and (opts.dir / "base").exists()):
        shutil.rmtree(opts.dir / "base", ignore_errors=True)
        run_all(opts.base, hands, opts.dir / "base")
    shutil.rmtree(opts.dir / "new", ignore_errors=True)
    run_all(opts.new, hands, opts.dir / "new")
    same = compare(opts.dir / "base", opts.dir / "new")
    print("all the same" if same else "outputs differ")
    sys.exit(0 if same else 3)


if __name__ == "__main__":
    main()
