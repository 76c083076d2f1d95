"""Issue 14's tile target three ways, interleaved in one run: ``settle batch --format jsonl --jobs 1``
(start-up excluded, as ``bench_tiles.py --batch`` measures it), ``mahjong``'s
``HandCalculator.estimate_hand_value`` on the same tiles, and the scratch prototype
(:mod:`rushan_tiles`), whose output is first checked byte for byte against settle's.

    python bench/bench_tiles.py --batch 5000          # writes bench/out/tiles-rushan-5000.jsonl
    python bench/prototype/compare_tiles.py --rounds 3

Hands per CPU second of each; the ratios against mahjong.  Not a unit test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_tiles  # noqa: E402
import rushan_tiles  # noqa: E402

from settle.tiles.notation import parse_tiles  # noqa: E402


def settle_cpu(path: Path) -> float:
    """CPU seconds of ``settle batch PATH --format jsonl --jobs 1`` (a child process; an error raises)."""
    return bench_tiles.settle_cpu(path, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=Path, default=HERE.parent / "out" / "tiles-rushan-5000.jsonl")
    parser.add_argument("--rounds", type=int, default=3)
    opts = parser.parse_args()
    lines = opts.hands.read_bytes().splitlines()
    one = opts.hands.with_name("tiles-rushan-first.jsonl")
    one.write_bytes(lines[0] + b"\n")
    settled = subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", "batch", str(opts.hands),
                              "--format", "jsonl", "--jobs", "1"], capture_output=True, check=True).stdout
    rushan_tiles.tables()
    same = b"".join(rushan_tiles.run(lines)) == settled
    print(f"{len(lines):,} hands; the prototype's output {'is' if same else 'is NOT'} settle's, byte for byte")
    tile_lists = []
    for line in lines:
        tiles = json.loads(line)["win"]["tiles"]
        hand = list(parse_tiles(tiles["hand"]))
        win = parse_tiles(tiles["win_tile"])[0]
        hand.remove(win)
        tile_lists.append([*hand, win])
    for turn in range(1, opts.rounds + 1):
        ours = (len(lines) - 1) / (settle_cpu(opts.hands) - settle_cpu(one))
        theirs = bench_tiles.estimate_hand_value_rate(tile_lists, 3) or 0
        best = min(_cpu(lambda: rushan_tiles.run(lines)) for _ in range(3))
        lean = len(lines) / best
        print(f"round {turn}: settle {ours:,.0f}   mahjong {theirs:,.0f}   prototype {lean:,.0f} hands per CPU s;"
              f"  settle/mahjong {ours / theirs:.2f}x, prototype/mahjong {lean / theirs:.2f}x")


def _cpu(step: object) -> float:
    start = time.process_time()
    step()  # type: ignore[operator]
    return time.process_time() - start


if __name__ == "__main__":
    main()
