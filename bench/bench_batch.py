"""Benchmark ``settle batch`` on JSON Lines against the floor of reading and writing JSON Lines.

Generates N random valid hands across the three regions (fixed seed; the library's generator, as
``settle sample --n N --seed S`` prints them) into a JSON Lines file,
then times, in one run:

  (a) the floor (issue 14): ``json.loads`` of each line and ``json.dumps`` of that same hand back;
  (b) ``settle batch hands.jsonl --format jsonl`` (a subprocess, output to a file);
  (c) the bound: ``json.loads`` of each hand + the json encoder on (b)'s record of it, nothing else
      (what the output alone costs any design that keeps today's bytes);

and prints hands/s for (a) and (b), the wall ratio b/a (target <= 1.5x with the default workers) and the
peak RSS of (b) (target < 200 MB).  ``--single`` adds (b) with ``--jobs 1`` and its CPU per hand
against the floor's (target <= 3x); ``--yaml`` a YAML stream of a smaller sample.

    python bench/bench_batch.py                 # quick: 200,000 hands
    python bench/bench_batch.py --n 1000000     # the full figure
    python bench/bench_batch.py --single --rounds 3   # (a), (b), (b1) three times alternately, medians
    python bench/bench_batch.py --yaml 20000    # also a YAML batch
    python bench/bench_batch.py --stages 20000  # also CPU per hand of each stage, in this process
                                                # (the batch's own path too: validation from each
                                                # line's bytes, checks and scoring, the line as bytes)

Files go to bench/out/ (git-ignored) unless ``--dir`` says otherwise.  Not a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# --- random valid hands ------------------------------------------------------------------------------


def generate(n: int, seed: int = 1) -> Iterator[dict[str, Any]]:
    """``n`` random valid hands, regions in turn (wuhan, wuxue, rushan), reproducible from ``seed``: the
    library's generator (:func:`settle.engine.sample.sample_hands`, what ``settle sample`` prints)."""
    from settle.engine.sample import sample_hands

    return sample_hands(n, seed)


def write_jsonl(path: Path, n: int, seed: int) -> None:
    """Write ``n`` generated hands to ``path``, one JSON object per line."""
    from settle.engine.sample import write_jsonl as write_lines

    with path.open("w", encoding="utf-8") as out:
        write_lines(generate(n, seed), out)


def write_yaml(path: Path, n: int, seed: int) -> None:
    """Write ``n`` generated hands to ``path`` as a YAML stream (``---`` between documents)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    with path.open("w", encoding="utf-8") as out:
        yaml.dump_all(generate(n, seed), out, Dumper=dumper, allow_unicode=True, sort_keys=False)


# --- timing ---------------------------------------------------------------------------------------------


def cpu_seconds(who: int) -> float:
    """User + system CPU seconds of this process (RUSAGE_SELF) or its waited-for children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def fresh(out_path: Path) -> Path:
    """``out_path`` with any file of an earlier run removed, before a clock starts: each timed command
    writes a new file, so neither side is timed freeing the blocks of the previous run's output
    (truncating a 258 MB file took 0.09 s here; (b)'s output is five times the floor's)."""
    out_path.unlink(missing_ok=True)
    return out_path


def floor(path: Path, out_path: Path) -> tuple[float, float]:
    """(a) Wall and CPU seconds of issue 14's floor: one process reads the JSON Lines file, ``json.loads``
    each line and writes ``json.dumps`` of that same hand back (to a new file: :func:`fresh`)."""
    fresh(out_path)
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
    with path.open("rb") as src, out_path.open("w", encoding="utf-8") as out:
        for line in src:
            out.write(json.dumps(json.loads(line), ensure_ascii=False) + "\n")
    return time.perf_counter() - start, cpu_seconds(resource.RUSAGE_SELF) - cpu


def settle_run(args: list[str], out_path: Path) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (the process and its workers), exit status and stderr of
    ``settle batch ARGS`` (a child process, its standard output a new file: :func:`fresh`)."""
    fresh(out_path)
    cmd = [sys.executable, "-c", "from settle.cli import main; main()", "batch", *args]
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_CHILDREN)
    with out_path.open("wb") as out:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - start
    return wall, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu, proc.returncode, proc.stderr.decode(errors="replace")


BOUND_HANDS = 100_000


def bound(hands: Path, settled: Path, floor_cpu: float) -> None:
    """(c) What any design pays to read today's input and write today's output with the json encoder:
    ``json.loads`` of each input line and the encoder's text of that hand's settled record (read back
    from (b)'s output before the clock starts), with nothing between; on the first
    :data:`BOUND_HANDS` hands, in this process.  Its ratio to the floor is the part of the 3x budget
    that the output alone takes, before any rule runs."""
    encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
    with hands.open("rb") as src, settled.open("rb") as out:
        pairs = [(line, json.loads(record)) for line, record, _ in zip(src, out, range(BOUND_HANDS), strict=False)]
    if not pairs:
        return
    best = min(_cpu(lambda: [encode(record) for line, record in pairs if json.loads(line)]) for _ in range(3))
    per_hand = best / len(pairs)
    print(f"(c) bound {per_hand * 1e6:6.1f} us of CPU per hand = {per_hand / floor_cpu:.2f}x the floor's "
          f"{floor_cpu * 1e6:.1f} us: json.loads of the hand + the json encoder on its settled record "
          f"(nothing else; {len(pairs):,} hands)")


def peak_rss_mb() -> float:
    """Largest max-RSS of the children waited for so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def stages(path: Path, n: int) -> None:
    """CPU microseconds per hand of each stage of ``settle batch --format jsonl``, one process, on the
    first ``n`` hands of ``path`` (best of 3 passes; the settle package of this checkout)."""
    import gc
    import io
    from collections import deque

    sys.path.insert(0, str(HERE.parent))
    from settle.engine.batch import BLOCK_BYTES, Outcome, json_line, jsonl_task, line_blocks, tally
    from settle.engine.hand import settle_hand, settle_validated_hand
    from settle.engine.validation import lean_line, validate_model
    from settle.errors import HandError
    from settle.loader import iter_documents
    from settle.rules.checks import common_problems
    from settle.rules.registry import all_regions

    all_regions()
    with path.open("rb") as src:
        data = b"".join(line for _, line in zip(range(n), src, strict=False))
    docs = list(iter_documents(io.BytesIO(data), "hands.jsonl", fmt="jsonl"))
    hands = [doc.data for doc in docs if not isinstance(doc, HandError)]  # the generated hands are all good
    models = [validate_model(hand) for hand in hands]
    settled = [region.settle(hand) for region, hand in models]
    outcomes = [Outcome(str(hand["id"]), result) for hand, result in zip(hands, settled, strict=True)]
    blocks = list(line_blocks(io.BytesIO(data), b"", BLOCK_BYTES))
    raw_lines = data.splitlines(keepends=True)
    labels = [outcome.label for outcome in outcomes]
    standings: dict[str, dict[str, list[int]]] = {}
    gc.freeze()  # the inputs above stay alive: keep them out of the collector's way
    def each(func: Any, items: Any) -> Any:  # results dropped as they come, as in the batch
        return lambda: deque(map(func, items), maxlen=0)

    steps: list[tuple[str, Any]] = [
        ("all of it (loader .. JSON line, standings)",
         each(lambda b: jsonl_task((b[0], "hands.jsonl", b[1], b[2], "jsonl", False, "en", True)), blocks)),
        ("loader: JSON Lines to dicts",
         lambda: deque(iter_documents(io.BytesIO(data), "hands.jsonl", fmt="jsonl"), maxlen=0)),
        ("  of it json.loads", each(json.loads, data.splitlines())),
        ("bytes path: validation (lean_line)", each(lean_line, raw_lines)),
        ("bytes path: checks, scoring", each(lambda m: settle_validated_hand(*m), models)),
        ("bytes path: JSON line as UTF-8",
         each(lambda pair: pair[0].json_bytes("en", label=pair[1]),
              list(zip(settled, labels, strict=True)))),
        ("settle_hand", each(settle_hand, hands)),
        ("  pydantic validation (validate_model)", each(validate_model, hands)),
        ("  shared checks (checks.py)", each(lambda m: common_problems(m[1], m[0]), models)),
        ("  region checks", each(lambda m: m[0].check(m[1]), models)),
        ("  region scoring and Settlement", each(lambda m: m[0].settle(m[1]), models)),
        ("JSON line", each(json_line, outcomes)),
        ("standings", each(lambda result: tally(standings, result), settled)),
    ]
    print(f"CPU per hand of each stage, one process, {len(hands):,} hands (best of 3):")
    per_hand: dict[str, float] = {}
    for name, step in steps:
        per_hand[name] = min(_cpu(step) for _ in range(3)) / len(hands) * 1e6
        print(f"  {name:42s} {per_hand[name]:6.1f} us")
    print_floor(per_hand)
    lean = per_hand["bytes path: validation (lean_line)"] + per_hand["bytes path: JSON line as UTF-8"]
    print(f"  the batch's own path: validation from the bytes + JSON line as UTF-8 {lean:.1f} us; all of it "
          f"{per_hand['all of it (loader .. JSON line, standings)']:.1f} us")


FLOOR_STAGES = ("loader: JSON Lines to dicts", "  pydantic validation (validate_model)", "JSON line")
"""The stages no settled hand can skip: read the line, validate it with pydantic (the brief's
validator), write its JSON line (the transfers with their explanations, HAND-FORMAT.md)."""


def print_floor(per_hand: dict[str, float]) -> None:
    """The most hands/s any ``settle batch`` could reach on this machine's cores if the shared and
    region checks, the scoring and the standings cost nothing: the bound the issue-5 target is
    measured against (100,000 hands/s needs at most 2 * 10 us of CPU per hand on 2 cores)."""
    floor_us = sum(per_hand[name] for name in FLOOR_STAGES)
    cores = os.cpu_count() or 1
    print(f"  unavoidable per hand (loader + pydantic validation + JSON line): {floor_us:.1f} us;"
          f" with checks and scoring free, {cores} cores give at most {cores / floor_us * 1e6:,.0f} hands/s"
          f" (the parent's reading and writing not counted)")


def _cpu(step: Any) -> float:
    start = time.process_time()
    step()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200_000, help="hands to generate (default 200000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=HERE / "out", help="where to write (default bench/out)")
    parser.add_argument("--single", action="store_true", help="also time one process (--jobs 1)")
    parser.add_argument("--rounds", type=int, default=1, metavar="R",
                        help="run (a), (b) and (b1) R times alternately and print the median ratios")
    parser.add_argument("--yaml", type=int, default=0, metavar="N", help="also time a YAML stream of N hands")
    parser.add_argument("--stages", type=int, default=0, metavar="N",
                        help="also print CPU per hand of each stage on N of the hands, in this process")
    opts = parser.parse_args()
    opts.dir.mkdir(parents=True, exist_ok=True)
    hands = opts.dir / f"hands-{opts.n}-{opts.seed}.jsonl"
    if not hands.exists():
        start = time.perf_counter()
        write_jsonl(hands, opts.n, opts.seed)
        print(f"generated {opts.n:,} hands in {time.perf_counter() - start:.1f} s -> {hands}")
    report(opts, hands)
    if opts.stages:
        stages(hands, opts.stages)


def report(opts: argparse.Namespace, hands: Path) -> None:
    """Run (a), (b) and the optional extras; print one line each.  With ``--rounds R`` (a), (b) and
    (b1) are run R times alternately, each round printed, then the median of each ratio."""
    n = opts.n
    load = os.getloadavg()[0]
    print(f"{n:,} hands, {os.cpu_count()} CPUs, load average {load:.1f} before the run "
          f"(other work on the machine slows every figure)")
    print("          wall s     hands/s   CPU s   hands per CPU s")
    walls: list[float] = []
    cpus: list[float] = []
    for turn in range(opts.rounds):
        if opts.rounds > 1:
            print(f"round {turn + 1} of {opts.rounds}, load average {os.getloadavg()[0]:.1f}")
        a, a_cpu = floor(hands, opts.dir / "floor.jsonl")
        print(f"(a) floor {a:7.2f} {n / a:>11,.0f} {a_cpu:7.2f} {n / a_cpu:>11,.0f}   json.loads + json.dumps of "
              f"each hand")
        b, b_cpu, status, err = settle_run([str(hands), "--format", "jsonl"], opts.dir / "settled.jsonl")
        rss = peak_rss_mb()
        print(f"(b) batch {b:7.2f} {n / b:>11,.0f} {b_cpu:7.2f} {n / b_cpu:>11,.0f}   settle batch --format jsonl "
              f"(auto jobs), exit {status}")
        if status != 0:
            print(err[:2000])
        walls.append(b / a)
        print(f"ratio b/a (wall, default workers): {b / a:.2f}x   target <= 1.5x    "
              f"peak RSS of (b): {rss:.0f} MB (the largest of its processes), target < 200 MB")
        if opts.single:
            c, c_cpu, status, _ = settle_run([str(hands), "--format", "jsonl", "--jobs", "1"],
                                             opts.dir / "settled1.jsonl")
            print(f"(b1) one  {c:7.2f} {n / c:>11,.0f} {c_cpu:7.2f} {n / c_cpu:>11,.0f}   settle batch --jobs 1, "
                  f"exit {status}")
            cpus.append(c_cpu / a_cpu)
            print(f"ratio b1/a (CPU per hand, one process): {c_cpu / a_cpu:.2f}x ({c_cpu / n * 1e6:.1f} against "
                  f"{a_cpu / n * 1e6:.1f} us)   target <= 3x")
    # After every timed run: the bound's records make this process large, and a child forked from it
    # starts with that size in its peak RSS (the figure of (b) above would then be this process's).
    bound(hands, opts.dir / "settled.jsonl", a_cpu / n)
    if opts.rounds > 1:
        print(f"median of {opts.rounds} rounds: wall b/a {statistics.median(walls):.2f}x (target <= 1.5x)"
              + (f", CPU b1/a {statistics.median(cpus):.2f}x (target <= 3x)" if cpus else ""))
    if opts.yaml:
        stream = opts.dir / f"hands-{opts.yaml}-{opts.seed}.yaml"
        if not stream.exists():
            write_yaml(stream, opts.yaml, opts.seed)
        y, y_cpu, status, _ = settle_run([str(stream), "--format", "jsonl"], opts.dir / "settled-yaml.jsonl")
        m = opts.yaml
        print(f"(y) yaml  {y:7.2f} {m / y:>11,.0f} {y_cpu:7.2f} {m / y_cpu:>11,.0f}   settle batch on a YAML "
              f"stream of {m:,} hands, exit {status}")


if __name__ == "__main__":
    main()
