"""A fourth region from outside settle (issue 13): ``tests/toy/settle_toy.py``, registered through the
entry-point group ``settle.regions`` by a small distribution written on a temporary path.

It settles a hand, a batch with ``--jobs 2`` and a session through the CLI (a real process whose
``PYTHONPATH`` holds the distribution) and through the library; no file of settle names it.

Its rules are in its module docstring: every other player pays ``base × 2^doubles`` on a self-draw,
the discarder alone pays twice that on a discard, each payment capped at ``cap`` (封顶).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from settle import settle_hand
from settle.rules import registry

TOY = Path(__file__).resolve().parent / "toy" / "settle_toy.py"
PLAYERS = ["东", "南", "西", "北"]


@pytest.fixture
def toy_path(tmp_path: Path) -> Path:
    """A directory holding the toy region's module and its distribution's metadata (entry point)."""
    shutil.copy(TOY, tmp_path / "settle_toy.py")
    info = tmp_path / "settle_toy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: settle-toy\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[settle.regions]\ntoy = settle_toy:REGION\n", encoding="utf-8")
    return tmp_path


@pytest.fixture
def installed(toy_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The toy distribution on ``sys.path`` for this test, and the registry made to look again."""
    monkeypatch.syspath_prepend(str(toy_path))
    registry.refresh()
    yield toy_path
    monkeypatch.undo()
    sys.modules.pop("settle_toy", None)
    registry.refresh()


def hand(**win: object) -> dict[str, object]:
    return {"region": "toy", "players": PLAYERS, "dealer": "东", "win": {"winner": "北", **win}}


def test_the_library_settles_a_toy_hand(installed: Path) -> None:
    # self-draw, no double: each of 3 losers pays 1 × 2 × 2^0 = 2 (T1)
    result = settle_hand(hand(by="self_draw"))
    assert result.net == {"东": -2, "南": -2, "西": -2, "北": 6}
    assert [t.why for t in result.transfers] == ["1×2×2^0"] * 3
    assert result.next_dealer == "北"
    # discard with a double: the discarder alone pays 2 × 2 × 2^1 = 8
    assert settle_hand(hand(by="discard", **{"from": "南"}, fans=["double"])).net == {"东": 0, "南": -8, "西": 0,
                                                                                       "北": 8}
    # 2 × 10 × 2^1 = 40, capped at 16 by the shared machinery (T3 封顶); the alias 玩具 names the region
    capped = settle_hand({**hand(by="discard", **{"from": "南"}, fans=["翻倍"]), "region": "玩具",
                          "options": {"base": 10}})
    assert capped.transfers[0].why == "2×10×2^1 = 40, capped at 16 (T3 封顶)"
    assert capped.transfers[0].cap == "capped"
    assert capped.transfers[0].text("zh") == "2×10×2^1 = 40，封顶 16 (T3 封顶)"
    assert "toy" in [r.key for r in registry.all_regions()]


def test_the_library_settles_a_toy_batch_over_two_workers_and_a_session(installed: Path) -> None:
    import io

    from settle.engine.batch import BatchRun, StreamWriter, run_batch, settle_records
    from settle.engine.session import run_session
    from settle.loader import iter_documents

    # 300 self-draws of 北: +6 each (3 losers × 1 × 2 × 2^0)
    many = installed / "many.jsonl"
    many.write_text("".join(json.dumps({**hand(by="self_draw"), "id": i}, ensure_ascii=False) + "\n"
                            for i in range(300)), encoding="utf-8")
    out = io.StringIO()
    totals = run_batch([str(many)], StreamWriter(out, "jsonl"), BatchRun(fmt="jsonl", jobs=2))
    assert totals.hands == 300 and not totals.bad
    assert totals.standings["toy"]["北"][0] == 300 * 6
    assert len(out.getvalue().splitlines()) == 300
    assert [r["net"]["北"] for r in settle_records([hand(by="self_draw")])] == [6]
    # a session: 东 deals, 北 self-draws (+6, deals next), then 南 wins on 北's discard (2 × 2 = 4)
    text = "\n".join(["---", json.dumps({"region": "toy", "players": PLAYERS}, ensure_ascii=False), "---",
                      json.dumps({"dealer": "东", "win": {"winner": "北", "by": "self_draw"}}, ensure_ascii=False),
                      "---", json.dumps({"win": {"winner": "南", "by": "discard", "from": "北"}},
                                        ensure_ascii=False), ""])
    report = run_session(iter_documents(text.encode(), "evening"), "evening")
    assert not report.problems
    assert [h.dealer for h in report.hands] == ["东", "北"]
    assert report.totals == {"东": -2, "南": 2, "西": -2, "北": 2}


def test_a_broken_region_distribution_is_left_out_with_a_warning(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A third-party region whose module fails to import must not stop the built-in regions."""
    (tmp_path / "settle_broken.py").write_text("raise ImportError('no such thing')\n", encoding="utf-8")
    info = tmp_path / "settle_broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: settle-broken\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[settle.regions]\nbroken = settle_broken:REGION\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    try:
        with pytest.warns(RuntimeWarning, match="'broken'.*could not be loaded"):
            keys = [r.key for r in registry.all_regions()]
        assert keys == ["wuhan", "wuxue", "rushan"]
        assert settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True}).net == {
            "A": 0, "B": 0, "C": 0, "D": 0}
    finally:
        monkeypatch.undo()
        registry.refresh()


def test_without_the_distribution_toy_is_unknown() -> None:
    registry.refresh()
    with pytest.raises(Exception, match="unknown region 'toy'"):
        settle_hand(hand(by="self_draw"))


def _settle(toy_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(toy_path), os.environ.get("PYTHONPATH", "")]),
           "LANG": "C.UTF-8", "LC_ALL": ""}
    return subprocess.run([sys.executable, "-m", "settle", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def test_the_cli_settles_a_toy_hand_batch_and_session(toy_path: Path) -> None:
    one = toy_path / "hand.json"
    one.write_text(json.dumps(hand(by="self_draw"), ensure_ascii=False), encoding="utf-8")
    done = _settle(toy_path, "hand", str(one), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["net"] == {"东": -2, "南": -2, "西": -2, "北": 6}

    # a batch of 400 hands over two worker processes: 200 self-draws (+6 each), 200 doubled discards (+8 each)
    lines = [hand(by="self_draw") if i % 2 else hand(by="discard", **{"from": "西"}, fans=["double"])
             for i in range(400)]
    many = toy_path / "many.jsonl"
    many.write_text("".join(json.dumps({**h, "id": i}, ensure_ascii=False) + "\n" for i, h in enumerate(lines)),
                    encoding="utf-8")
    done = _settle(toy_path, "batch", str(many), "--format", "json", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    standings = json.loads(done.stdout)["standings"]
    assert standings["北"]["net"] == 200 * 6 + 200 * 8 and standings["西"]["net"] == -200 * 2 - 200 * 8

    # a session: 东 deals, 北 wins (and deals next: T4), then a draw (北 deals again), then 南 wins
    docs = [{"region": "toy", "players": PLAYERS},
            {"dealer": "东", "win": {"winner": "北", "by": "self_draw"}},
            {"draw": True},
            {"win": {"winner": "南", "by": "discard", "from": "东"}}]
    evening = toy_path / "evening.yaml"
    evening.write_text("".join("---\n" + json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    done = _settle(toy_path, "session", str(evening), "--format", "json")
    assert done.returncode == 0, done.stderr
    session = json.loads(done.stdout)
    assert [h["dealer"] for h in session["hands"]] == ["东", "北", "北"]
    # +6/-2 each, then nothing, then 东 pays 南 2 × 2 = 4
    assert session["totals"] == {"东": -6, "南": 2, "西": -2, "北": 6}
