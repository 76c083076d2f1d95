"""Issue 16 #10: the data-engine examples of README.md and bench/README.md run as written.

The Dask scripts are cut out of the two READMEs as they stand and run as scripts (``python FILE``)
on a few thousand ``settle sample`` hands in two files, with Dask's process scheduler (its workers
start by spawn, so the scripts need their ``__main__`` guard); what they write and total is compared
with ``settle batch`` on the same files.  The PySpark script needs a Java runtime and a 300 MB
package: it is compiled, and every name it uses is checked to be imported or bound, with its actions
(``saveAsTextFile``, ``count``) present.
"""

from __future__ import annotations

import ast
import builtins
import json
import subprocess
import sys
from pathlib import Path

import pytest

from settle.engine.sample import sample_hands

ROOT = Path(__file__).resolve().parent.parent
HANDS = 3000


def script(readme: Path, first_line: str) -> str:
    """The ```python block of ``readme`` whose first line is ``first_line``."""
    text = readme.read_text(encoding="utf-8")
    for block in text.split("```python\n")[1:]:
        code = block.split("```", 1)[0]
        if code.startswith(first_line):
            return code
    raise AssertionError(f"no python block starting {first_line!r} in {readme.name}")


@pytest.fixture(scope="module")
def hands_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two JSON Lines files of sample hands (1,500 each) and ``settle batch``'s JSON Lines of them."""
    folder = tmp_path_factory.mktemp("engines")
    lines = [json.dumps(h, ensure_ascii=False) for h in sample_hands(HANDS, seed=16)]
    half = HANDS // 2
    (folder / "hands-0.jsonl").write_text("\n".join(lines[:half]) + "\n", encoding="utf-8")
    (folder / "hands-1.jsonl").write_text("\n".join(lines[half:]) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", "batch", "hands-0.jsonl",
                           "hands-1.jsonl", "--format", "jsonl", "--jobs", "1", "-o", "batch.jsonl"],
                          cwd=folder, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return folder


def run_script(folder: Path, name: str, code: str) -> subprocess.CompletedProcess[str]:
    (folder / name).write_text(code, encoding="utf-8")
    return subprocess.run([sys.executable, name], cwd=folder, capture_output=True, text=True, check=False,
                          timeout=600)


def settled_lines(folder: Path) -> list[str]:
    return [line for path in sorted(folder.glob("settled-*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_readme_dask_script_runs_on_process_workers(hands_dir: Path) -> None:
    for old in hands_dir.glob("settled-*.jsonl"):
        old.unlink()
    code = script(ROOT / "README.md", "# dask_settle.py")
    assert 'if __name__ == "__main__":' in code and 'scheduler="processes"' in code
    done = run_script(hands_dir, "dask_settle.py", code)
    assert done.returncode == 0, done.stderr[-3000:]
    # the same records as settle batch, in the same order (two files: two partitions)
    assert settled_lines(hands_dir) == (hands_dir / "batch.jsonl").read_text(encoding="utf-8").splitlines()


def test_the_bench_readme_dask_totals_match_the_standings(hands_dir: Path) -> None:
    for old in hands_dir.glob("settled-*.jsonl"):
        old.unlink()
    code = script(ROOT / "bench" / "README.md", "# dask_totals.py")
    assert "combine=operator.add" in code
    done = run_script(hands_dir, "dask_totals.py", code)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = {}
    for line in done.stdout.splitlines():
        region, name, net = line.rsplit(" ", 2)
        printed[(region, name)] = int(net)
    # the totals per region and player are the sums of the nets settle batch wrote
    expected: dict[tuple[str, str], int] = {}
    for line in (hands_dir / "batch.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for name, amount in record["net"].items():
            expected[(record["region"], name)] = expected.get((record["region"], name), 0) + amount
    assert printed == expected and len({region for region, _ in printed}) == 3


def unbound_names(code: str) -> set[str]:
    """Names ``code`` loads that it never imports, assigns, binds as a parameter, and that are no builtin."""
    tree = ast.parse(code)
    bound = set(dir(builtins)) | {"__name__"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.FunctionDef):
            bound.add(node.name)
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
            and node.id not in bound}


@pytest.mark.parametrize("readme", ["README.md", "bench/README.md"])
def test_the_pyspark_script_compiles_imports_what_it_uses_and_has_actions(readme: str) -> None:
    # Before: no action (nothing would run) and `json` borrowed from the Dask example above it.
    code = script(ROOT / readme, "# spark_settle.py")
    compile(code, "spark_settle.py", "exec")
    assert unbound_names(code) == set()
    assert ".saveAsTextFile(" in code and ".count()" in code
    assert 'if __name__ == "__main__":' in code


def test_the_unbound_name_check_finds_a_borrowed_import() -> None:
    assert unbound_names("x = json.loads('1')\n") == {"json"}
