"""Issue 16: output for spreadsheets and programs (#4 CSV, #5 standings per region), ``settle sample``
(#11), ``--jobs 0`` (#12) and the sdist (#13).

Every CSV is read back as a spreadsheet program would: with Python's :mod:`csv` and with pandas
(the test extra), counting rows and checking that the number columns are integers.  The amounts are
the hand-worked ones of fixtures/batch/mixed.yaml (see tests/test_batch.py, where each is added up)
and of the fixtures' comments.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

from settle.engine.batch.pool import worker_count
from settle.engine.sample import sample_hands
from tests.test_batch import BAD, STANDINGS, UNITS

ROOT = Path(__file__).resolve().parent.parent
MIXED = ROOT / "fixtures" / "batch" / "mixed.yaml"
SESSIONS = ROOT / "fixtures" / "session"


def settle_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT, check=False)


def settle_bytes(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", *args],
                          capture_output=True, cwd=ROOT, check=False)


def good_hands_file(tmp_path: Path) -> Path:
    """mixed.yaml without its three bad hands."""
    hands = [h for h in yaml.safe_load_all(MIXED.read_text(encoding="utf-8")) if h["id"] not in BAD]
    path = tmp_path / "good.yaml"
    path.write_text(yaml.safe_dump_all(hands, allow_unicode=True), encoding="utf-8")
    return path


# --- #4 CSV: one table, a row per hand and player ------------------------------------------------------

HAND_COLUMNS = ["id", "region", "unit", "seat", "player", "roles", "score", "net",
                "winner", "by", "from", "dealer", "liable", "error"]


def test_batch_csv_is_one_table_pandas_reads_with_integer_columns(tmp_path: Path) -> None:
    # Before: the hands, a blank line, then the standings under another header; pandas read the
    # standings as hands and the net columns as text.  17 good hands: 16 of four players, b13 of three.
    result = settle_cli("batch", str(good_hands_file(tmp_path)), "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 16 * 4 + 3
    assert list(rows[0]) == HAND_COLUMNS
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert len(frame) == 16 * 4 + 3 and list(frame.columns) == HAND_COLUMNS
    assert str(frame["net"].dtype) == "int64" and str(frame["seat"].dtype) == "int64"
    # each hand's nets sum to zero (G2), and per region and player they add up to the standings
    assert (frame.groupby("id")["net"].sum() == 0).all()
    totals = frame.groupby(["region", "player"])["net"].sum().to_dict()
    assert totals == {(region, name): v["net"] for region, group in STANDINGS.items() for name, v in group.items()}
    # b04, the worked example: A 放冲 2^(3+4) = 128, B 2^(2+4) = 64, C (庄) 128, D +320
    b04 = frame[frame["id"] == "b04"]
    assert list(zip(b04["seat"], b04["player"], b04["roles"].fillna(""), b04["score"].astype(int), b04["net"],
                    strict=True)) == [(1, "A", "discarder", 3, -128), (2, "B", "", 2, -64), (3, "C", "dealer", 3, -128),
                                      (4, "D", "winner", 4, 320)]
    assert b04[["winner", "by", "from", "dealer"]].drop_duplicates().values.tolist() == [["D", "discard", "A", "C"]]


def test_a_bad_hand_is_one_row_with_its_error() -> None:
    result = settle_cli("batch", str(MIXED), "--format", "csv")
    assert result.returncode == 2
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 16 * 4 + 3 + 3  # three bad hands, one row each
    bad = [r for r in rows if r["error"]]
    assert [r["id"] for r in bad] == ["b05", "b11", "b17"]
    assert bad[0]["error"] == ("win.winnr: unknown key (not part of the hand format for this region)"
                               " (did you mean winner?)")  # issue 16 #9
    assert all(r[k] == "" for r in bad for k in HAND_COLUMNS if k not in ("id", "error"))
    frame = pd.read_csv(io.StringIO(result.stdout), dtype={"seat": "Int64", "net": "Int64"})
    assert len(frame) == 70 and frame["seat"].isna().sum() == 3 and int(frame["net"].sum()) == 0


def test_several_winners_are_separated_by_semicolons() -> None:
    # fixtures/rushan/two_winners_capped.yaml: 一炮双响 on A's discard; A -37, B +21, C +16, D 0 (its comment)
    result = settle_cli("hand", "fixtures/rushan/two_winners_capped.yaml", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["player"], r["roles"], int(r["net"])) for r in rows] == [
        ("A", "dealer;discarder", -37), ("B", "winner", 21), ("C", "winner", 16), ("D", "", 0)]
    assert {(r["winner"], r["by"], r["from"]) for r in rows} == {("B;C", "discard", "A")}


def test_session_csv_has_the_running_total() -> None:
    # fixtures/session/wuxue.yaml: 8 hands of four players; totals A 8, B 76, C -44, D -40 and B's running
    # totals 20, 20, 20, 0, -4, 86, 84, 76 (tests/test_session.py works them out)
    result = settle_cli("session", str(SESSIONS / "wuxue.yaml"), "--format", "csv")
    assert result.returncode == 0, result.stderr
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert len(frame) == 8 * 4
    assert all(str(frame[c].dtype) == "int64" for c in ("hand", "seat", "net", "total"))
    last = frame[frame["hand"] == 8].set_index("player")["total"].to_dict()
    assert last == {"A": 8, "B": 76, "C": -44, "D": -40}
    assert frame[frame["player"] == "B"]["total"].tolist() == [20, 20, 20, 0, -4, 86, 84, 76]


def test_a_sessions_bad_hand_is_one_row_with_its_id_and_error() -> None:
    # h1: A 2^(1+2) = 8, B 2^(0+2) = 4, C 8 -> D +20; h2 names E, who is not at the table: the totals stop
    text = ("region: wuhan\nplayers: [A, B, C, D]\n---\nid: h1\ndealer: A\nfans: {A: 1, B: 0, C: 1, D: 2}\n"
            "win: {winner: D, by: self_draw}\n---\nid: h2\nwin: {winner: E, by: self_draw}\n")
    result = settle_cli("session", "-", "--format", "csv", stdin=text)
    assert result.returncode == 2
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["hand"], r["id"], r["player"], r["net"], r["total"]) for r in rows[:4]] == [
        ("1", "h1", "A", "-8", "-8"), ("1", "h1", "B", "-4", "-4"), ("1", "h1", "C", "-8", "-8"),
        ("1", "h1", "D", "20", "20")]
    assert len(rows) == 5 and rows[4]["id"] == "h2" and rows[4]["player"] == "" and rows[4]["hand"] == ""
    assert rows[4]["error"] == "win.winner: 'E' is not one of the players (A, B, C, D)"


def test_bom_for_excel(tmp_path: Path) -> None:
    # --bom writes EF BB BF first (before: no way to, and Excel garbled 东南西北)
    for args in (["batch", str(good_hands_file(tmp_path))], ["hand", "fixtures/wuhan/chengbao_qingyise.yaml"],
                 ["session", str(SESSIONS / "wuxue.yaml")]):
        done = settle_bytes(*args, "--format", "csv", "--bom")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(b"\xef\xbb\xbfid,") or done.stdout.startswith(b"\xef\xbb\xbfhand,")
        assert done.stdout.count(b"\xef\xbb\xbf") == 1
        frame = pd.read_csv(io.BytesIO(done.stdout), encoding="utf-8-sig")
        assert frame.columns[0] in ("id", "hand")
    chengbao = pd.read_csv(io.BytesIO(settle_bytes("hand", "fixtures/wuhan/chengbao_qingyise.yaml", "-f", "csv",
                                                   "--bom").stdout), encoding="utf-8-sig")
    assert chengbao["player"].tolist() == ["东", "南", "西", "北"]
    refused = settle_cli("batch", str(MIXED), "--format", "json", "--bom")
    assert refused.returncode == 2 and "--bom is for --format csv" in refused.stderr


def test_per_player_table_keeps_a_bad_hands_message(tmp_path: Path) -> None:
    # Every hand with players A-D: one column per player.  Before, b05's row showed only its key path.
    hands = [h for h in yaml.safe_load_all(MIXED.read_text(encoding="utf-8")) if h["id"] in ("b01", "b05")]
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump_all(hands, allow_unicode=True), encoding="utf-8")
    out = settle_cli("batch", str(path), "--lang", "en").stdout
    row = next(line for line in out.splitlines() if line.startswith("b05"))
    assert "bad hand: win.winnr: unknown key (not part of the hand format for this region)" in row


# --- #5 standings per region ----------------------------------------------------------------------------

TWO_REGIONS = ("b01", "b02")
"""b01 Wuhan: A -8, B -4, C -8, D +20 (D wins); b02 Wuxue: A -8, B +20, C -4, D -8 (B wins).  Added up
as before, D would have 20 + (-8) = 12 of two different units."""


def two_regions(tmp_path: Path) -> Path:
    hands = [h for h in yaml.safe_load_all(MIXED.read_text(encoding="utf-8")) if h["id"] in TWO_REGIONS]
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump_all(hands, allow_unicode=True), encoding="utf-8")
    return path


def test_standings_of_two_regions_are_never_added(tmp_path: Path) -> None:
    path = two_regions(tmp_path)
    out = json.loads(settle_cli("batch", str(path), "--format", "json").stdout)
    assert "standings" not in out  # the flat player -> totals would add 番 and 斤
    grouped = out["standings_by_region"]
    assert list(grouped) == ["wuhan", "wuxue"]
    assert {r: g["unit"] for r, g in grouped.items()} == {"wuhan": "番", "wuxue": "斤"}
    assert {r: {n: v["net"] for n, v in g["players"].items()} for r, g in grouped.items()} == {
        "wuhan": {"D": 20, "B": -4, "A": -8, "C": -8}, "wuxue": {"B": 20, "C": -4, "A": -8, "D": -8}}
    assert grouped["wuhan"]["players"]["D"] == {"net": 20, "hands": 1, "won": 1, "dealt_in": 0, "liable": 0,
                                                "capped": 0, "golden": 0}
    table = settle_cli("batch", str(path), "--lang", "en").stdout
    wuhan, wuxue = table.split("武汉 wuhan (番 fans)\n")[1].split("武穴 wuxue (斤 jin)\n")
    assert [line.split()[:2] for line in wuhan.splitlines()[2:6]] == [["D", "+20"], ["B", "-4"], ["A", "-8"],
                                                                      ["C", "-8"]]
    assert [line.split()[:2] for line in wuxue.splitlines()[2:6]] == [["B", "+20"], ["C", "-4"], ["A", "-8"],
                                                                      ["D", "-8"]]


def test_one_region_keeps_the_flat_standings(tmp_path: Path) -> None:
    hands = [h for h in yaml.safe_load_all(MIXED.read_text(encoding="utf-8")) if h["id"] == "b01"]
    path = tmp_path / "one.yaml"
    path.write_text(yaml.safe_dump_all(hands, allow_unicode=True), encoding="utf-8")
    out = json.loads(settle_cli("batch", str(path), "--format", "json").stdout)
    assert {n: v["net"] for n, v in out["standings"].items()} == {"D": 20, "B": -4, "A": -8, "C": -8}
    assert out["standings_by_region"]["wuhan"]["players"] == out["standings"]


def test_standings_flag_csv_per_region_and_player() -> None:
    result = settle_cli("batch", str(MIXED), "--standings", "--format", "csv")
    assert result.returncode == 2  # the three bad hands are still reported
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert list(frame.columns) == ["region", "unit", "player", "net", "hands", "won", "dealt_in", "liable",
                                   "capped", "golden"]
    assert len(frame) == 12 and str(frame["net"].dtype) == "int64"
    got = {(r.region, r.player): (r.unit, r.net, r.hands, r.won, r.dealt_in) for r in frame.itertuples()}
    assert got == {(region, name): (UNITS[region], v["net"], v["hands"], v["won"], v["dealt_in"])
                   for region, group in STANDINGS.items() for name, v in group.items()}
    assert frame["player"].tolist()[:4] == ["D", "B", "A", "C"]  # Wuhan first (b01), by net
    lines = settle_cli("batch", str(MIXED), "--standings", "--format", "jsonl").stdout.splitlines()
    assert json.loads(lines[0]) == {"region": "wuhan", "unit": "番", "player": "D", **STANDINGS["wuhan"]["D"]}


def test_session_standings() -> None:
    # wuxue.yaml totals A 8, B 76, C -44, D -40 over its 8 hands
    frame = pd.read_csv(io.StringIO(settle_cli("session", str(SESSIONS / "wuxue.yaml"), "--standings",
                                               "--format", "csv").stdout))
    assert frame[["player", "net", "hands"]].values.tolist() == [["B", 76, 8], ["A", 8, 8], ["D", -40, 8],
                                                                 ["C", -44, 8]]
    assert set(frame["region"]) == {"wuxue"} and set(frame["unit"]) == {"斤"}


# --- #12 --jobs 0 ----------------------------------------------------------------------------------------


def test_jobs_0_uses_every_cpu_this_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: at most 2 whatever the machine.
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert worker_count() == 8
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert worker_count() == 1
    monkeypatch.setattr(os, "process_cpu_count", lambda: 6, raising=False)  # Python 3.13's, preferred
    assert worker_count() == 6


# --- #11 settle sample -------------------------------------------------------------------------------------


def test_sample_hands_settle_with_no_bad_hand(tmp_path: Path) -> None:
    sample = settle_cli("sample", "--n", "3000", "--seed", "11")
    assert sample.returncode == 0, sample.stderr
    lines = sample.stdout.splitlines()
    assert len(lines) == 3000 and [json.loads(line)["id"] for line in lines[:3]] == ["h1", "h2", "h3"]
    assert [json.loads(line)["region"] for line in lines[:3]] == ["wuhan", "wuxue", "rushan"]  # in turn
    path = tmp_path / "hands.jsonl"
    path.write_text(sample.stdout, encoding="utf-8")
    settled = settle_cli("batch", str(path), "--format", "jsonl")
    assert settled.returncode == 0, settled.stderr[:2000]
    records = [json.loads(line) for line in settled.stdout.splitlines()]
    assert len(records) == 3000 and not [r["id"] for r in records if "error" in r]
    assert settle_cli("sample", "--n", "3000", "--seed", "11").stdout == sample.stdout  # the seed decides
    assert settle_cli("sample", "--n", "30", "--seed", "12").stdout != settle_cli("sample", "--n", "30").stdout


def test_sample_of_one_region_and_the_bench_uses_the_same_generator() -> None:
    one = settle_cli("sample", "--n", "50", "--region", "武穴", "--seed", "3")
    assert one.returncode == 0, one.stderr
    assert {json.loads(line)["region"] for line in one.stdout.splitlines()} == {"wuxue"}
    assert settle_cli("batch", "-", "--format", "jsonl", stdin=one.stdout).returncode == 0
    bad = settle_cli("sample", "--n", "5", "--region", "nowhere")
    assert bad.returncode == 2 and "unknown region 'nowhere'" in bad.stderr
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_batch import generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    text = "".join(json.dumps(h, ensure_ascii=False) + "\n" for h in generate(200, 5))
    assert text == settle_cli("sample", "--n", "200", "--seed", "5").stdout
    assert [h["id"] for h in sample_hands(2, 9)] == ["h1", "h2"]


# --- #13 the sdist ------------------------------------------------------------------------------------------


def _built(kind: str, folder: Path) -> Path:
    """The one distribution ``python -m build <kind>`` (``--wheel`` or ``--sdist``, offline) makes of the
    checkout in ``folder``; the build must succeed."""
    done = subprocess.run([sys.executable, "-m", "build", kind, "--no-isolation", "--outdir", str(folder),
                           str(ROOT)], capture_output=True, text=True, cwd=folder, check=False, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [made] = folder.glob("settle-*.whl" if kind == "--wheel" else "settle-*.tar.gz")
    return made


TILE_TABLES = ("settle/tiles/tables/suit_flags.pickle.z", "settle/tiles/tables/plain_classes.pickle.z")
"""The tile tables settle reads at a process's first tile hand (issue 14; package data)."""


def test_the_wheel_holds_the_tile_tables(tmp_path: Path) -> None:
    """An installed settle reads its tile tables from its own files (issue 14): the wheel has them."""
    import zipfile

    wheel = _built("--wheel", tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for table in TILE_TABLES:
            assert table in names, table
            assert archive.read(table) == (ROOT / table).read_bytes()


def shipped(folder: str) -> set[str]:
    """The files under ``folder`` of the checkout that the tests read (caches left out)."""
    base = ROOT / folder
    return {p.relative_to(ROOT).as_posix() for p in base.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
            and not p.relative_to(ROOT).as_posix().startswith("bench/out/")}


def test_the_sdist_holds_the_tests_data_and_the_licence(tmp_path: Path) -> None:
    # Before: tests/*.py only, no tests/bad/expected.yaml, no fixtures, no LICENSE.
    archive = _built("--sdist", tmp_path)
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        info = tar.extractfile(next(n for n in tar.getnames() if n.endswith("/PKG-INFO") and n.count("/") == 1))
        assert info is not None
        metadata = info.read().decode("utf-8")
    for needed in ("LICENSE", "README.md", "CHANGELOG.md", "tests/bad/expected.yaml", "tests/golden/expected.json",
                   "tests/golden/inputs/tiles.jsonl", "fixtures/wuhan/worked_example.yaml", "bench/bench_batch.py",
                   *TILE_TABLES):
        assert needed in names, needed
    for folder in ("tests", "fixtures", "schemas", "docs", "scripts"):
        assert shipped(folder) <= names, sorted(shipped(folder) - names)[:5]
    assert not [n for n in names if "__pycache__" in n or n.startswith("bench/out/")]
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata


def test_licence_file_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
