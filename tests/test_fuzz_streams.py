"""Stream fuzzer (issue 15): a bad hand in a batch or session file never loses its neighbours.

Each case is a file of three hands — a good first hand, a mutant, a good last hand — as a YAML
stream (``---``) or JSON Lines, with the line ends of the whole file varied (``\\n``, ``\\r\\n``,
lone ``\\r``).  The mutant is a fixture changed by structure (keys deleted, renamed and duplicated,
types swapped, odd numbers and Unicode: :func:`tests.test_fuzz.mutate_data`) or by bytes (YAML
tokens, explicit tags on values they do not fit, anchors, invalid UTF-8, control characters, line
breaks libyaml counts, deep nesting: :data:`STREAM_TOKENS`).  Through the CLI's entry function
(``settle batch`` and ``settle session`` in-process), every case must

* exit 0 or 2, never 1 (an internal error) and never hang (:data:`CASE_SECONDS`, by an alarm);
* in a batch, settle both good hands, each exactly as alone (``keep-first``, ``keep-last``);
* report every bad hand on stderr with lines that start with ``error:``.

:data:`CASES` runs in CI (seeded); ``SETTLE_FUZZ_CASES=200000 python -m pytest tests/test_fuzz_streams.py``
is the longer run for a release.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from settle.cli import _register_commands, app
from tests.test_fuzz import FILES, FIXTURES, TOKENS, mutate_bytes, mutate_data

CASES = int(os.environ.get("SETTLE_FUZZ_CASES", "2000"))
"""How many seeded cases run (CI: 2,000; a release: many more)."""
CASE_SECONDS = 20
"""The most one case may take (an in-process alarm): a hang fails the test instead of stalling CI."""

runner = CliRunner()
_register_commands()

STREAM_TOKENS = [
    *TOKENS,
    b"!!bool ", b"!!timestamp ", b"!!float ''", b'!!int ""', b'!!bool ""', b"!!int ", b"!!str ", b"!!binary ",
    b"!!null ", b"!!map ", b"!!seq ", b"&x ", b"*x", b"<<: *x\n",
    "\u007f".encode(), "\u0085".encode(), "\u2028".encode(), "\u2029".encode(), "\u3000".encode(),
    "\u001c".encode(), b"\r", b"\r\n", b"\x0b", b"\x0c",
    b"[" * 120 + b"]" * 120, b"note: " + b"[" * 101 + b"]" * 101 + b"\n",
    b"\xfe", b"\xc3", b"\xed\xa0\x80",  # a lone lead byte, a cut sequence, an encoded surrogate
]
"""Byte strings put into the mutant: the fixture fuzzer's tokens, then tags that fit no value here,
anchors and aliases, control characters, line breaks other than ``\\n``, nesting past the limit and
more bad UTF-8."""

GOOD = (FIXTURES / "wuhan" / "worked_example.yaml").read_bytes()
"""The good hands' text (the Wuhan worked example: A 3, B 2, C 3, D 4 番; A discards to D)."""


def _good(ident: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(GOOD)
    data["id"] = ident
    return data


def _is_stream(path: Path) -> bool:
    try:
        yaml.safe_load(path.read_bytes())
    except yaml.YAMLError:
        return True
    return False


_STREAMS = frozenset(p for p in FILES if p.suffix in (".yaml", ".yml") and _is_stream(p))
"""Fixtures of several documents (sessions): mutated by their bytes only."""


def _mutant(rng: random.Random) -> tuple[bytes, Any]:
    """A mutated fixture as YAML bytes, and its data when it was mutated as data (else None)."""
    path = rng.choice([p for p in FILES if p.suffix in (".yaml", ".yml")])
    raw = path.read_bytes()
    if rng.random() < 0.4 and path not in _STREAMS:
        data = mutate_data(yaml.safe_load(raw), rng)
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8", "surrogatepass"), data
    body = bytearray(mutate_bytes(raw, rng))
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(body))
        body[at:at] = rng.choice(STREAM_TOKENS)
    return bytes(body), None


_MARKER = re.compile(rb"(^|\r\n|\r|\n|\xc2\x85|\xe2\x80\xa8|\xe2\x80\xa9)(---|\.\.\.)")
"""A document marker at the start of a line, after any line break libyaml knows."""


def _yaml_case(rng: random.Random) -> bytes:
    first = yaml.safe_dump(_good("keep-first"), allow_unicode=True, sort_keys=False).encode()
    last = yaml.safe_dump(_good("keep-last"), allow_unicode=True, sort_keys=False).encode()
    middle, _ = _mutant(rng)
    # no document marker may come from the mutant: it would split it, which is no loss
    middle = _MARKER.sub(rb"\1#\2", middle)
    text = b"---\n" + first + b"---\n" + middle.rstrip(b"\r") + b"\n---\n" + last
    end = rng.choice([b"\n", b"\n", b"\r\n", b"\r"])
    return text.replace(b"\n", end) if end != b"\n" else text


def _jsonl_case(rng: random.Random) -> bytes:
    first = json.dumps(_good("keep-first"), ensure_ascii=False).encode()
    last = json.dumps(_good("keep-last"), ensure_ascii=False).encode()
    middle_raw, data = _mutant(rng)
    if data is not None and rng.random() < 0.5:
        middle = json.dumps(data, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")
    else:
        try:
            middle = json.dumps(yaml.safe_load(middle_raw), ensure_ascii=False, default=str).encode(
                "utf-8", "surrogatepass")
        except Exception:  # not YAML any more: the mutant's bytes on one line, as a JSON Lines line
            middle = middle_raw
        for _ in range(rng.randint(0, 2)):
            at = rng.randint(0, len(middle))
            middle = middle[:at] + rng.choice(STREAM_TOKENS) + middle[at:]
    middle = middle.replace(b"\n", b" ").replace(b"\r", b" ")
    end = rng.choice([b"\n", b"\r\n"])
    return first + end + middle + end + last + end


def cases(count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` seeded cases: (file name, bytes); two YAML streams for each JSON Lines file."""
    rng = random.Random("settle-fuzz-streams")
    for i in range(count):
        if i % 3 == 2:
            yield f"case{i}.jsonl", _jsonl_case(rng)
        else:
            yield f"case{i}.yaml", _yaml_case(rng)


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang


def _invoke(args: list[str]) -> Any:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    try:
        return runner.invoke(app, args)
    except _Hang:
        pytest.fail(f"settle {' '.join(args)} took more than {CASE_SECONDS} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _alone() -> dict[str, Any]:
    """The good hand settled alone (its JSON record, without the id)."""
    done = runner.invoke(app, ["hand", str(FIXTURES / "wuhan" / "worked_example.yaml"), "--format", "json"])
    assert done.exit_code == 0
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def test_a_bad_hand_never_loses_its_neighbours(tmp_path: Path) -> None:
    alone = _alone()
    bad_seen = 0
    for name, raw in cases(CASES):
        path = tmp_path / name
        path.write_bytes(raw)
        done = _invoke(["batch", str(path), "--format", "jsonl"])
        context = f"{name}: {raw[:600]!r}\n{done.stderr[-2000:]}"
        assert done.exit_code in (0, 2), context
        assert "internal error" not in done.stderr, context
        assert all(line.startswith(("error: ", "stopped: ")) or not line or "hands bad" in line
                   for line in done.stderr.splitlines()), context
        records = [json.loads(line) for line in done.stdout.splitlines()]
        by_id = {r.get("id"): r for r in records}
        for ident in ("keep-first", "keep-last"):
            assert ident in by_id, f"{ident} lost: {context}"
            kept = dict(by_id[ident])
            kept.pop("id")
            expected = {k: v for k, v in alone.items() if k != "id"}
            assert kept == expected, context
        bad_seen += done.exit_code == 2
        if name.endswith(".yaml") and int(name[4:-5]) % 10 == 0:
            session = _invoke(["session", str(path)])
            assert session.exit_code in (0, 2), context
            assert "internal error" not in session.stderr, context
    assert bad_seen > CASES // 4  # the mutations do break hands
