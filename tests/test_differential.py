"""Issue 14's differential test: ``settle batch`` (worker processes, blocks, the lean path) gives
exactly what settling each hand alone through :func:`settle.settle_hand` gives.

20,000 generated hands of the three regions (the benchmark's generator, ``bench/bench_batch.py``,
fixed seed), every 53rd one spoilt the way files go wrong, go through the real command with two
worker processes; each JSON line must equal the record of ``settle_hand`` on the same hand: the
nets, the transfers with their ``why`` and ``steps``, the notes, the reasons, the errors.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from settle import settle_hand
from settle.engine.batch import Outcome, hand_count, record
from settle.errors import HandError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_batch import generate  # noqa: E402

HANDS = 20_000


def spoil(hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A bad hand: a key lost, a value of the wrong type, an unknown word, a stray key."""
    choice = rng.randrange(4)
    if choice == 0:
        hand.pop("dealer", None)
        hand.pop("win", None)
    elif choice == 1:
        hand["players"] = 4
    elif choice == 2:
        hand["region"] = "atlantis"
    else:
        hand["wind"] = "east"
    return hand


def corpus() -> list[dict[str, Any]]:
    rng = random.Random(14)
    hands = []
    for index, hand in enumerate(generate(HANDS, seed=14)):
        if index % 53 == 52:
            hand = spoil(hand, rng)
        if index % 7 == 3:
            del hand["id"]  # labelled file:index, which must count across the workers' blocks
        hands.append(hand)
    return hands


def alone(hand: dict[str, Any], label: str) -> dict[str, Any]:
    """The JSON record of one hand settled on its own (the error located as the batch locates it)."""
    try:
        outcome = Outcome(label, settle_hand(hand))
    except HandError as exc:
        outcome = Outcome(label, error=exc.located({(): 0}, hand=label, source="x"))
    return record(outcome)


def test_batch_equals_each_hand_alone(tmp_path: Path) -> None:
    hands = corpus()
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "settle", "batch", str(path), "--format", "jsonl",
                           "--jobs", "2", "-o", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr[-2000:]  # the spoilt hands are bad
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == HANDS
    bad = 0
    for number, (hand, line) in enumerate(zip(hands, lines, strict=True), 1):
        got = json.loads(line)
        label = str(hand["id"]) if "id" in hand else f"{path}:{number}"
        want = alone(hand, label)
        if "error" in want:
            bad += 1
            # the batch adds where the hand is (its line, the file); the messages are the same
            assert [e["message"] for e in got["error"]] == [e["message"] for e in want["error"]], label
            assert all(e["line"] == number for e in got["error"]), label
        else:
            assert got == want, label
    assert bad == len(range(52, HANDS, 53))


SPACES = [chr(c).encode() for c in range(0x110000) if chr(c).isspace() and c != 0x0A]
"""Each character but ``\\n`` that ``str.strip`` strips, UTF-8 encoded: 28 of them, from U+0009 to U+3000."""


def _blank(line: bytes) -> bool:
    """The loader's definition (:func:`settle.loader.jsonl_lines`): UTF-8 that is white space once decoded."""
    try:
        return not line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return False


@given(st.lists(st.lists(st.sampled_from([b"{}", b"x", b"\xe3\x80", b"\xff", *SPACES]), max_size=3)
                .map(b"".join), max_size=12))
def test_hand_count_counts_non_blank_lines(lines: list[bytes]) -> None:
    """hand_count's fast patterns agree with the definition: lines with more than white space (issue 15 #3:
    U+001C ... U+001F, U+3000 and the rest that str.strip strips are white space too; a broken one is not)."""
    assert len(SPACES) == 28
    block = b"\n".join(lines)
    assert hand_count(block) == sum(1 for line in block.split(b"\n") if not _blank(line))
