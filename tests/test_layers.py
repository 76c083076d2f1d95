"""The house (issue 13): one-way layers, no import cycles, and no region named outside its package.

* The import contract in ``pyproject.toml`` (``[tool.importlinter]``: cli -> render -> engine ->
  rules -> model/tiles -> vocab -> loader/core -> errors) is checked with import-linter.
* No module imports itself back through others (a cycle), at the level of modules, function-level
  imports included (grimp's graph, which import-linter reads).
* No region key or alias (``wuhan``, ``武汉``, ``红中赖子杠`` ...) appears in code outside that region's
  package ``settle/rules/<key>/``: the string literals and names of every other module are read with
  :mod:`tokenize` (docstrings and comments may cite rulings and regions).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import grimp

from settle.rules.registry import all_regions

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "settle"


def test_the_import_contract_is_kept() -> None:
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                                                 "lint_imports_command()", "--no-cache"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "Contracts: 1 kept, 0 broken." in done.stdout


def strongly_connected(graph: grimp.ImportGraph) -> list[set[str]]:
    """The import cycles of ``graph``: its strongly connected components of more than one module
    (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_no_import_cycles() -> None:
    graph = grimp.build_graph("settle", cache_dir=None)
    cycles = strongly_connected(graph)
    assert cycles == [], [sorted(c) for c in cycles]


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert strongly_connected(graph) == [{"p.a", "p.b"}]


def region_words() -> dict[str, set[str]]:
    """Each region key -> its key and every Chinese name and alias."""
    return {r.key: {r.key, r.term.zh, *r.term.aliases} for r in all_regions()}


def code_tokens(source: str) -> list[tuple[int, str]]:
    """(line, text) of the string literals and names of ``source``, docstrings left out."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out = []
    layout = (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT)
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.NAME:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            before = next((t for t in reversed(tokens[:i]) if t.type not in (tokenize.NL, tokenize.COMMENT)), None)
            after = next((t for t in tokens[i + 1:] if t.type not in (tokenize.NL, tokenize.COMMENT)), None)
            docstring = (tok.type == tokenize.STRING and (before is None or before.type in layout[:4]
                                                          or before.string == ":")
                         and (after is None or after.type in (tokenize.NEWLINE, tokenize.ENDMARKER)))
            if not docstring:
                out.append((tok.start[0], tok.string))
    return out


def test_no_region_is_named_outside_its_package() -> None:
    words = region_words()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for key, spellings in words.items():
            if rel.startswith(f"settle/rules/{key}/"):
                continue
            pattern = re.compile("|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True)), re.I)
            found += [f"{rel}:{line}: {text[:80]}" for line, text in code_tokens(path.read_text(encoding="utf-8"))
                      if pattern.search(text)]
    assert found == []


def test_the_scanner_sees_code_and_skips_docstrings() -> None:
    source = '"""Wuhan rules (H5)."""\nx = "wuhan"\ndef f():\n    """wuxue."""\n    return rushan_thing\n'
    assert [text for _, text in code_tokens(source) if re.search("wuhan|wuxue|rushan", text, re.I)] == [
        '"wuhan"', "rushan_thing"]
