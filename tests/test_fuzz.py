"""Fuzz test (issue 6): random mutations of every fixture file never crash ``settle hand``.

Each file under ``fixtures/`` is mutated :data:`MUTANTS_PER_FILE` times with a fixed seed:
half by its data (a key deleted or renamed, a value swapped for one of another type or out of
range, a list entry repeated), half by its bytes (bytes flipped, YAML tokens inserted, lines
repeated or tab-indented, the file truncated).  Every mutant

* goes through the library as ``settle hand`` runs it (``read_hand``, ``settle_hand``, rendering),
  which must end in a settlement (status 0, with nets summing to zero but for a forfeit) or a
  :class:`~settle.HandError` (status 2) with readable messages, never another exception (status 1);
* every :data:`CLI_EVERY`-th goes through the ``settle hand`` command in-process, and
  :data:`PROCESS_SAMPLE` through a real process: the exit status is 0 or 2, never a traceback.
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from settle import HandError, settle_hand
from settle.cli import _register_commands, app
from settle.loader import read_hand
from settle.render import render
from tests.helpers import key_paths, parent_of

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".yml", ".json", ".jsonl") and p.is_file())
MUTANTS_PER_FILE = 60
CLI_EVERY = 10
PROCESS_SAMPLE = 6

SETTLE = [sys.executable, "-c", "from settle.cli import main; main()"]
"""The ``settle`` command as a process (the console script's entry point, whatever the PATH)."""

runner = CliRunner()
_register_commands()

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 5, 65, 10**9, 10**30, 1.5, float("nan"), "", " ", "x", "10**9", "none", "武汉",
    "A" * 200, [], [1, 2], ["A", "A"], {}, {"a": 1}, {"exposed": 99}, [[[]]], "\u202e", "a\tb",
]
"""Values swapped in for a fixture's values: other types, out of range, empty, odd text."""

ODD_KEYS: list[Any] = ["from_", "jin", "fans", "winer", "Players", "opens ", "", "武汉", 1, True, None]
"""Names a key is renamed to: aliases, typos, spacing, non-text keys."""

TOKENS = [b"\t", b"\x00", b"\xff", b"\xef\xbb\xbf", b"{", b"}", b"[", b"]", b":", b": ", b",", b"-", b"- ", b"---\n",
          b"&a ", b"*a", b"!!python/object:os.system ", b"'", b'"', b"#", b"\n", b"\r", b"  ", b"99999999999999999999",
          b"<<: ", b"? ", b"%YAML 1.1\n", b"\xe6\xad\xa6"]
"""Byte strings inserted into a file: YAML syntax, control bytes, bad UTF-8, tags, anchors."""


# --- mutations -----------------------------------------------------------------------------------------


def mutate_data(data: Any, rng: random.Random) -> Any:
    """``data`` with one to three structural changes."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = key_paths(data)
        if not paths:
            return rng.choice(ODD_VALUES)
        path = rng.choice(paths)
        parent, key = parent_of(data, path), path[-1]
        op = rng.choice(["delete", "swap", "swap", "rename", "repeat", "wrap"])
        if op == "delete":
            del parent[key]
        elif op == "swap":
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == "rename" and isinstance(parent, dict):
            parent[rng.choice(ODD_KEYS)] = parent.pop(key)
        elif op == "repeat" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        else:
            parent[key] = [parent[key]]
    return data


def mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    """``raw`` with one to three byte-level changes."""
    data = bytearray(raw)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(data))
        op = rng.choice(["flip", "insert", "insert", "delete", "truncate", "line", "tab"])
        if op == "flip" and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif op == "insert":
            data[at:at] = rng.choice(TOKENS)
        elif op == "delete":
            del data[at:at + rng.randint(1, 20)]
        elif op == "truncate":
            del data[at:]
        else:
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            if op == "line":
                lines.insert(i, lines[rng.randrange(len(lines))])
            else:
                lines[i] = b"\t" + lines[i].lstrip(b" ")
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def mutants(path: Path) -> list[tuple[str, bytes]]:
    """The seeded mutants of one fixture: (file name, bytes); every other data mutant is written
    as JSON (``.json``), the others keep the fixture's format."""
    raw = path.read_bytes()
    rng = random.Random(f"settle-fuzz:{path.relative_to(FIXTURES).as_posix()}")
    try:
        data = yaml.safe_load(raw) if path.suffix != ".jsonl" else None
    except yaml.YAMLError:
        data = None
    out = []
    for i in range(MUTANTS_PER_FILE):
        if data is not None and i % 2 == 0:
            mutated = mutate_data(data, rng)
            if path.suffix == ".json" or i % 4 == 0:
                text, suffix = json.dumps(mutated, ensure_ascii=False, default=str, indent=1), ".json"
            else:
                text, suffix = yaml.safe_dump(mutated, allow_unicode=True, sort_keys=False), path.suffix
            out.append((f"{path.stem}.data{i}{suffix}", text.encode("utf-8")))
        else:
            out.append((f"{path.stem}.bytes{i}{path.suffix}", mutate_bytes(raw, rng)))
    return out


# --- running a mutant ------------------------------------------------------------------------------------

_TEMPLATE = re.compile(r"\{[a-z_]+(![rs])?\}")


def library_status(raw: bytes, source: str) -> int:
    """What ``settle hand`` does with ``raw``, in-process: 0 settled, 2 bad input; fails otherwise."""
    lines = None
    try:
        doc = read_hand(raw, source)
        lines = doc.lines
        result = settle_hand(doc.data)
        for fmt in ("table", "json", "csv", "markdown"):
            render(result, fmt, "en")
    except HandError as exc:
        located = exc.located(lines, source=source)
        assert located.problems, "a HandError without problems"
        for problem in located.problems:
            text = str(problem)
            assert problem.message.strip(), text
            assert "Traceback" not in text and not _TEMPLATE.search(problem.message), text
        return 2
    except Exception:  # exit status 1 in the CLI: an internal bug
        pytest.fail(f"{source}: internal error (exit 1) on input {raw[:400]!r}\n{traceback.format_exc()}")
    forfeit = result.forfeit.amount if result.forfeit is not None else 0
    assert sum(result.net.values()) == -forfeit, (source, result.net)
    return 0


@pytest.mark.parametrize("fixture", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_mutants_settle_or_exit_2(fixture: Path, tmp_path: Path) -> None:
    statuses = []
    for index, (source, raw) in enumerate(mutants(fixture)):
        status = library_status(raw, source)
        statuses.append(status)
        if index % CLI_EVERY == 0:
            file = tmp_path / source
            file.write_bytes(raw)
            result = runner.invoke(app, ["hand", str(file)])
            assert result.exit_code == status, (source, result.output)
            assert "Traceback" not in result.output
            if status == 2:
                assert all(line.startswith("error: ") for line in result.stderr.splitlines()), result.stderr
    assert 2 in statuses  # the mutations do break files


def test_mutants_through_a_settle_hand_process(tmp_path: Path) -> None:
    rng = random.Random("settle-fuzz:process")
    picked = [(path, *rng.choice(mutants(path))) for path in rng.sample(FILES, min(PROCESS_SAMPLE, len(FILES)))]
    for _, name, raw in picked:
        file = tmp_path / name
        file.write_bytes(raw)
        done = subprocess.run([*SETTLE, "hand", str(file)], capture_output=True, text=True,
                              timeout=20)
        assert done.returncode in (0, 2), done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        assert done.returncode == library_status(raw, file.name)
