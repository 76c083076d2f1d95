"""``settle batch``: many hands, mixed regions, bad hands reported without losing good ones.

The 20-hand batch is fixtures/batch/mixed.yaml; each hand there states its own arithmetic and
the standings below are added up by hand from those lines.  Speed is measured by
bench/bench_batch.py, not here; the streaming test asserts memory, not time.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import settle.engine.batch as batch
import settle.engine.batch.run as batch_run
from settle import settle_hand, settle_many
from settle.cli.progress import BatchProgress
from settle.engine.batch import BatchRun, StreamWriter, Totals, hand_count, line_blocks, run_batch, settle_records
from settle.render.batch import TableWriter

ROOT = Path(__file__).resolve().parent.parent
MIXED = ROOT / "fixtures" / "batch" / "mixed.yaml"
BAD = {"b05": ("win.winnr", 35), "b11": ("win.from", 74), "b17": ("win.winner", 113)}
"""The three bad hands of mixed.yaml: id -> (key path, YAML line)."""

NETS = {
    "b01": {"A": -8, "B": -4, "C": -8, "D": 20},       # 2^(1+2), 2^(0+2), 2^(1+2)
    "b04": {"A": -128, "B": -64, "C": -128, "D": 320},  # the worked example 2^(3+4), 2^(2+4), 2^(3+4)
    "b07": {"A": -4, "B": 0, "C": 12, "D": -8},        # 点炮 2^(1+2); 陪炮 2^(1+2-1); 陪炮 at 0 斤 pays nothing
    "b13": {"A": 8, "B": -4, "C": -4},                 # three players, 2^(1+1) each
    "b14": {"A": -4, "B": -4, "C": -4, "D": 12},       # 七对 2 × 清一色 2
}

STANDINGS = {
    # One group per region (issue 16 #5): a Wuhan net (番 stakes), a Wuxue net (斤) and a Rushan net (分)
    # are never added.  net: the sum of each player's nets in that region's hands of mixed.yaml (see the
    # comment beside each hand); won, dealt in: the winners and discarders of those hands.
    # wuhan: b01 b04 b08 b09 b12 b15 b18; wins D b01 b04 b18, A b09, B b12, C b15; dealt in A b04, C b12, B b18
    # net D 20+320-8-2-2+12, B -4-64-8+8-2-4, A -8-128+24-2-2-4, C -8-128-8-4+6-4
    "wuhan": {
        "D": {"net": 340, "hands": 7, "won": 3, "dealt_in": 0, "liable": 0, "capped": 0, "golden": 0},
        "B": {"net": -74, "hands": 7, "won": 1, "dealt_in": 1, "liable": 0, "capped": 0, "golden": 0},
        "A": {"net": -120, "hands": 7, "won": 1, "dealt_in": 1, "liable": 0, "capped": 0, "golden": 0},
        "C": {"net": -146, "hands": 7, "won": 1, "dealt_in": 1, "liable": 0, "capped": 0, "golden": 0},
    },
    "wuxue": {  # b02 b07 b13 (D sits out) b16 b20; wins B b02, C b07, A b13, D b20; dealt in D b07
        "B": {"net": 15, "hands": 5, "won": 1, "dealt_in": 0, "liable": 0, "capped": 0, "golden": 0},  # 20+0-4-1
        "C": {"net": 3, "hands": 5, "won": 1, "dealt_in": 0, "liable": 0, "capped": 0, "golden": 0},  # -4+12-4-1
        "A": {"net": -5, "hands": 5, "won": 1, "dealt_in": 0, "liable": 0, "capped": 0, "golden": 0},  # -8-4+8-1
        "D": {"net": -13, "hands": 4, "won": 1, "dealt_in": 1, "liable": 0, "capped": 0, "golden": 0},  # -8-8+3
    },
    "rushan": {  # b03 b06 b10 b14 b19; wins B b03, C b06, D b14, A b19; dealt in A b06, B b19
        "D": {"net": 11, "hands": 5, "won": 1, "dealt_in": 0, "liable": 0, "capped": 0, "golden": 0},  # -1+12
        "B": {"net": -2, "hands": 5, "won": 1, "dealt_in": 1, "liable": 0, "capped": 0, "golden": 0},  # 3-4-1
        "C": {"net": -3, "hands": 5, "won": 1, "dealt_in": 0, "liable": 0, "capped": 0, "golden": 0},  # -1+2-4
        "A": {"net": -6, "hands": 5, "won": 1, "dealt_in": 1, "liable": 0, "capped": 0, "golden": 0},  # -1-2-4+1
    },
}
UNITS = {"wuhan": "番", "wuxue": "斤", "rushan": "分"}


def by_region(totals: Totals) -> dict[str, dict[str, dict[str, int]]]:
    """The standings as region -> player -> totals, players by net (as the outputs rank them)."""
    return {region: dict(batch.ranked(group)) for region, group in totals.standings.items()}


def run(paths: list[str], **settings: Any) -> tuple[str, Totals]:
    out = io.StringIO()
    fmt = settings.get("fmt", "jsonl")
    writer = TableWriter(out, fmt) if fmt in ("table", "markdown") else StreamWriter(out, fmt)
    totals = run_batch(paths, writer, BatchRun(**settings))
    return out.getvalue(), totals


def settle_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", *args],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, check=False)


def mixed_hands() -> list[dict[str, Any]]:
    return list(yaml.safe_load_all(MIXED.read_text(encoding="utf-8")))


def as_jsonl(tmp_path: Path, hands: list[Any], name: str = "mixed.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands), encoding="utf-8")
    return path


# --- 3 bad hands among 20 ------------------------------------------------------------------------------


def test_twenty_hands_three_bad_settles_seventeen_and_reports_three() -> None:
    text, totals = run([str(MIXED)], fmt="jsonl")
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["id"] for line in lines] == [f"b{i:02d}" for i in range(1, 21)]  # input order
    good = [line for line in lines if "net" in line]
    bad = [line for line in lines if "error" in line]
    assert len(good) == 17 and len(bad) == 3
    assert {line["id"]: (line["error"][0]["path"], line["error"][0]["line"]) for line in bad} == BAD
    assert all("net" not in line for line in bad)
    assert {line["id"]: line["net"] for line in good if line["id"] in NETS} == NETS
    assert (totals.hands, totals.bad) == (20, 3)
    _, totals = run([str(MIXED)], fmt="json")  # JSON keeps every problem for its "errors"
    assert sorted(p.hand or "" for p in totals.problems) == sorted(BAD)


def test_standings_added_up_by_hand() -> None:
    _, totals = run([str(MIXED)], fmt="jsonl")
    assert by_region(totals) == STANDINGS
    assert list(by_region(totals)) == ["wuhan", "wuxue", "rushan"]  # first seen: b01, b02, b03
    assert list(by_region(totals)["wuhan"]) == ["D", "B", "A", "C"]  # by net, highest first


def test_no_standings_tallied_leaves_the_output_and_counts_alone(tmp_path: Path) -> None:
    # BatchRun(standings=False) (settle batch for JSON Lines and CSV, which write none, issue 14):
    # the same lines, hands and bad hands; only the standings are not added up.
    path = as_jsonl(tmp_path, mixed_hands())
    for jobs in (1, 2):
        with_standings, totals = run([str(path)], fmt="jsonl", jobs=jobs)
        without, bare = run([str(path)], fmt="jsonl", jobs=jobs, standings=False)
        assert without == with_standings and (bare.hands, bare.bad) == (totals.hands, totals.bad) == (20, 3)
        assert bare.standings == {} and by_region(totals) == STANDINGS


def test_same_batch_as_json_array_and_json_lines(tmp_path: Path) -> None:
    hands = mixed_hands()
    array = tmp_path / "mixed.json"
    array.write_text(json.dumps(hands, ensure_ascii=False), encoding="utf-8")
    for path in (array, as_jsonl(tmp_path, hands)):
        text, totals = run([str(path)], fmt="jsonl")
        lines = [json.loads(line) for line in text.splitlines()]
        assert [line["id"] for line in lines if "error" in line] == sorted(BAD), path
        assert {line["id"]: line["net"] for line in lines if line["id"] in NETS} == NETS
        assert by_region(totals) == STANDINGS


def test_json_lines_bad_lines_name_their_file_line(tmp_path: Path) -> None:
    # Line 1 good, 2 blank, 3 not JSON, 4 a duplicate key, 5 no id and an unknown region.
    good = json.dumps({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True})
    path = tmp_path / "h.jsonl"
    path.write_text(f'{good}\n\n{{"region": \n{{"region": "wuhan", "region": "wuxue"}}\n{{"region": "x"}}\n')
    text, totals = run([str(path)], fmt="jsonl")
    lines = [json.loads(line) for line in text.splitlines()]
    # file:index counts hands (non-blank lines); the line is the file's line
    assert [line["id"] for line in lines] == [f"{path}:{i}" for i in (1, 2, 3, 4)]
    assert [line["error"][0]["line"] for line in lines[1:]] == [3, 4, 5]
    # the line and column are data, never written into the message (issue 16 #9)
    message = lines[1]["error"][0]["message"]
    assert message.startswith("JSON syntax error: ") and "line" not in message
    assert totals.bad == 3


def test_blocks_and_workers_keep_order_labels_and_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Small blocks so the input spans many; the same output with one process and with two.
    hands = [dict(hand) for _ in range(10) for hand in mixed_hands()]
    for i, hand in enumerate(hands):
        if isinstance(hand, dict) and i % 7 == 0:
            hand.pop("id", None)
    path = as_jsonl(tmp_path, hands)
    path.write_text(path.read_text().replace("\n", "\n\n", 5))  # some blank lines too
    monkeypatch.setattr(batch_run, "BLOCK_BYTES", 2000)  # the blocks run_batch reads
    single, totals1 = run([str(path)], fmt="jsonl", jobs=1)
    double, totals2 = run([str(path)], fmt="jsonl", jobs=2)
    assert single == double
    assert totals1.standings == totals2.standings and (totals1.hands, totals1.bad) == (200, 30)
    unlabelled = [json.loads(line)["id"] for line in single.splitlines() if ":" in json.loads(line)["id"]]
    assert unlabelled[:2] == [f"{path}:1", f"{path}:8"]


def test_yaml_groups_in_workers_keep_order() -> None:
    single, _ = run([str(MIXED)], fmt="json", jobs=1)
    double, totals = run([str(MIXED)], fmt="json", jobs=2)
    assert single == double and totals.bad == 3


def test_line_blocks_count_hands_and_lines() -> None:
    data = b'{"a": 1}\n\n  \n{"b": 2}\n{"c": 3}'
    assert hand_count(data) == 3
    blocks = list(line_blocks(io.BytesIO(data), size=4))
    assert blocks[0][1:] == (1, 1)
    assert sum(hand_count(b) for b, _, _ in blocks) == 3
    assert blocks[-1][1:] == (5, 3)  # the third hand is on line 5


# --- the command ---------------------------------------------------------------------------------------


def test_cli_reports_each_bad_hand_and_exits_2() -> None:
    result = settle_cli("batch", str(MIXED), "--format", "json")
    assert result.returncode == 2
    for hand, (path, line) in BAD.items():
        assert re.search(rf"error: {re.escape(str(MIXED))}:{line}:\d+: hand {hand}: {re.escape(path)}: ", result.stderr)
    assert "3 of 20 hands bad; 17 settled" in result.stderr
    out = json.loads(result.stdout)
    # three regions: no player -> total "standings" (it would add 番, 斤 and 分), one group per region
    assert set(out) == {"hands", "standings_by_region", "errors"}
    assert len(out["hands"]) == 20 and sum("net" in h for h in out["hands"]) == 17
    assert sorted(e["hand"] for e in out["errors"]) == sorted(BAD)
    assert out["standings_by_region"] == {r: {"unit": UNITS[r], "players": g} for r, g in STANDINGS.items()}


def test_cli_all_good_exits_0_table_and_markdown(tmp_path: Path) -> None:
    good = [h for h in mixed_hands() if h["id"] not in BAD]
    path = tmp_path / "good.yaml"
    path.write_text(yaml.safe_dump_all(good, allow_unicode=True), encoding="utf-8")
    result = settle_cli("batch", str(path))
    assert result.returncode == 0, result.stderr
    assert "b04" in result.stdout and "A -128, B -64, C -128, D +320" in result.stdout
    assert "17 hands, 17 settled, 0 bad" in result.stdout
    markdown = settle_cli("batch", str(path), "-f", "markdown").stdout
    assert "| b01 " in markdown and "|---" in markdown


def test_cli_strict_stops_at_the_first_bad_hand() -> None:
    result = settle_cli("batch", str(MIXED), "--format", "jsonl", "--strict")
    assert result.returncode == 2
    ids = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    assert ids == ["b01", "b02", "b03", "b04", "b05"]
    assert "b11" not in result.stderr and "--strict" in result.stderr


def test_cli_stdin_json_lines_several_files_and_output(tmp_path: Path) -> None:
    hands = mixed_hands()
    text = "".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands[:4])
    out_path = tmp_path / "out.csv"
    result = settle_cli("batch", "-", str(MIXED), "-f", "csv", "-o", str(out_path), stdin=text)
    assert result.returncode == 2 and result.stdout == ""
    rows = out_path.read_text(encoding="utf-8").splitlines()  # one table (issue 16 #4)
    assert rows[0] == ",".join(batch.CSV_HEADER)
    # header + b01-b04 from stdin (4 players each) + mixed.yaml: 16 good hands of 4, b13 of 3, 3 bad hands
    assert len(rows) == 1 + 4 * 4 + (16 * 4 + 3 + 3)
    assert rows[13:17] == ["b04,wuhan,番,1,A,discarder,3,-128,D,discard,A,C,,",
                           "b04,wuhan,番,2,B,,2,-64,D,discard,A,C,,",
                           "b04,wuhan,番,3,C,dealer,3,-128,D,discard,A,C,,",
                           "b04,wuhan,番,4,D,winner,4,320,D,discard,A,C,,"]
    assert "\r" not in result.stderr  # no progress bar in a pipe


def test_cli_unreadable_file_exits_2() -> None:
    result = settle_cli("batch", "no/such/file.jsonl")
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_standings_count_liable_cap_and_golden() -> None:
    fixtures = ROOT / "fixtures" / "wuhan"
    _, totals = run([str(fixtures / "golden_bright.yaml"), str(fixtures / "chengbao_qingyise.yaml")], fmt="jsonl")
    # golden_bright: C wins, all three exceed 400 -> 金顶/光明顶 (H6): C capped and golden.
    # chengbao_qingyise: 北 wins, 南 capped at 400 (H5), 西 liable (H7 b).
    standings = by_region(totals)["wuhan"]
    assert (standings["C"]["capped"], standings["C"]["golden"]) == (1, 1)
    assert (standings["北"]["capped"], standings["北"]["golden"]) == (1, 0)
    assert standings["西"]["liable"] == 1


@pytest.mark.parametrize("name", ["day.yaml", "day.jsonl"])
def test_a_hand_with_a_repeated_key_keeps_its_id(tmp_path: Path, name: str) -> None:
    # Regression (many-hand audit): a duplicate-key hand was labelled file:index although it has an id.
    hand = {"id": "dup", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True}
    text = json.dumps(hand).replace('"dealer": "A"', '"dealer": "A", "dealer": "B"')
    path = tmp_path / name
    path.write_text(text + "\n", encoding="utf-8")
    out, totals = run([str(path)], fmt="jsonl")
    assert totals.bad == 1
    assert json.loads(out)["id"] == "dup"


def test_standings_count_a_cap_reached_exactly() -> None:
    # Wuxue "capped" means the amount reached the cap (>=, G13, W7).  D self-draws with 2 斤, A has
    # 2 斤: A owes 2^(2+2) = 16 = cap 16, B and C 2^(0+2) = 4.  One loser capped: no 金鼎 (W8).
    # Regression (many-hand audit): the wording "= 16, the cap" was not counted as a cap.
    data = {"region": "wuxue", "id": "reach", "players": ["A", "B", "C", "D"], "options": {"cap": 16},
            "jin": {"A": 2, "B": 0, "C": 0, "D": 2}, "win": {"winner": "D", "by": "self_draw"}}
    standings: batch.Standings = {}
    result = settle_hand(data)
    batch.tally(standings, result)
    assert result.net == {"A": -16, "B": -4, "C": -4, "D": 24}
    assert (standings["wuxue"]["D"][5], standings["wuxue"]["D"][6]) == (1, 0)  # capped, golden


def test_json_lines_are_json_dumps_of_each_record() -> None:
    """A hand's line is ``json.dumps(record, ensure_ascii=False)`` (the library encoder, issue 13), and
    values of unusual types (a bool, a float, a forfeit, odd characters in a step) come out as
    json.dumps spells them."""
    import dataclasses

    from settle.core import Forfeit, Step, Transfer

    fixtures = sorted((ROOT / "fixtures").glob("[rw]*/*.yaml"))
    text, totals = run([str(path) for path in fixtures], fmt="jsonl")
    assert totals.hands == len(fixtures) and not totals.bad
    settled = [batch.Outcome(str(r.get("id")), settle_hand(h))
               for r, h in zip(map(json.loads, text.splitlines()), _fixture_hands(fixtures), strict=True)]
    odd = settled[0].result
    assert odd is not None
    settled += [batch.Outcome('quote " and 中文', dataclasses.replace(odd, **change)) for change in (
        {"net": {"A": True, "B": -1}}, {"scores": {"A": 1.5}},
        {"reasons": (Step("H5", "cap_reached", {"limit": "tab\t", "label": "\u2028"}),)},
        {"transfers": (Transfer("A", "B", False, (Step("", "power", {"loser": 1, "winner": 2}),)),)},
        {"forfeit": Forfeit("A", 10, (Step("", "power", {"loser": 0, "winner": 1}),), odd.catalog)},
        {"next_dealer": None, "liable": "李"}, {"roles": {"A": ["dealer"], "B": ()}},
    )]
    for outcome in settled:
        assert batch.json_line(outcome) == json.dumps(batch.record(outcome), ensure_ascii=False)


def _fixture_hands(paths: list[Path]) -> list[dict[str, Any]]:
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in paths]


# --- library API ------------------------------------------------------------------------------------------


def test_settle_records_is_lazy_and_never_raises() -> None:
    def hands() -> Any:
        yield {"id": "ok", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True}
        yield {"region": "nowhere"}
        raise AssertionError("read too far")  # only two records are asked for

    records = settle_records(hands(), source="part-0")
    first, second = next(records), next(records)
    assert first["id"] == "ok" and first["net"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert second["id"] == "part-0:2" and second["error"][0]["path"] == "region"
    results = list(settle_many([{"region": "wuhan"}]))
    assert len(results) == 1 and not hasattr(results[0], "net")


class Tty(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_is_never_shown_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = io.StringIO()  # a pipe or a file
    quiet = BatchProgress(stream, delay=0, total=100)
    quiet.update(Totals(hands=5000, size=50))
    quiet.done()
    assert not quiet.enabled and not quiet.shown and stream.getvalue() == ""


def test_progress_is_never_shown_on_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "1")
    stream = Tty()
    quiet = BatchProgress(stream, delay=0)
    quiet.update(Totals(hands=5000))
    quiet.done()
    assert not quiet.enabled and not quiet.shown and stream.getvalue() == ""


def test_progress_waits_for_a_slow_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = Tty()
    early = BatchProgress(stream, delay=60)  # a small input is done long before
    early.update(Totals(hands=5000))
    early.done()
    assert early.enabled and not early.shown and stream.getvalue() == ""


def test_progress_on_a_terminal_is_drawn_and_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = Tty()
    shown = BatchProgress(stream, delay=0, total=1000)
    shown.update(Totals(hands=5000, bad=3, size=500))
    drawn = stream.getvalue()
    assert shown.shown and "5,000 hands, 3 bad" in drawn and "50%" in drawn
    shown.done()  # before problems are printed, and at the end
    assert not shown.shown
    assert stream.getvalue()[len(drawn):].endswith("\x1b[2K")  # the line erased
    shown.update(Totals(hands=6000, bad=3, size=700))  # drawn again after the problems
    assert shown.shown and "6,000 hands" in stream.getvalue()
    shown.done()
    counts = BatchProgress(Tty(), delay=0)  # no input size (stdin): the counts, no bar
    counts.update(Totals(hands=10))
    assert counts.shown and "%" not in counts.stream.getvalue()  # type: ignore[attr-defined]
    counts.done()


def test_commands_import_nothing_heavy_at_start_up() -> None:
    code = ("import sys, settle.cli, settle.cli.batch; "
            "print([m for m in ('tabulate', 'yaml', 'multiprocessing', 'settle.engine.batch', 'rich.progress', "
            "'settle.cli.progress', 'settle.render.batch') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --- streaming memory ----------------------------------------------------------------------------------------

RSS_CODE = """
import resource, subprocess, sys
with open(sys.argv[2], "wb") as out:
    subprocess.run([sys.executable, "-c", "from settle.cli import main; main()", "batch", sys.argv[1],
                    "--format", "jsonl", "--jobs", "2"], stdout=out, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_rss_kib(path: Path, out: Path) -> int:
    """Largest RSS (KiB) of the batch process and its workers, measured in a fresh parent."""
    result = subprocess.run([sys.executable, "-c", RSS_CODE, str(path), str(out)],
                            capture_output=True, text=True, check=True, cwd=ROOT)
    return int(result.stdout)


def write_simple_hands(path: Path, n: int) -> None:
    """``n`` small valid hands, half of them 荒庄 draws, across the three regions: cheap to settle,
    because this test is about memory, not the rules."""
    templates = [
        '{{"id": "m{i}", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", '
        '"fans": {{"A": {a}, "B": 0, "C": 1, "D": 2}}, "win": {{"winner": "D", "by": "self_draw"}}}}',
        '{{"id": "m{i}", "region": "wuxue", "players": ["A", "B", "C", "D"], "dealer": "B", "draw": true}}',
        '{{"id": "m{i}", "region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "C", '
        '"win": {{"winner": "C", "by": "discard", "from": "A"}}}}',
        '{{"id": "m{i}", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "D", "draw": true}}',
    ]
    with path.open("w", encoding="utf-8") as out:
        out.write("".join(templates[i % 4].format(i=i, a=i % 4) + "\n" for i in range(n)))


def test_json_lines_streaming_memory_stays_flat(tmp_path: Path) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    write_simple_hands(small, 2_000)
    write_simple_hands(large, 100_000)
    base = peak_rss_kib(small, tmp_path / "small.out")
    peak = peak_rss_kib(large, tmp_path / "large.out")
    assert sum(1 for _ in (tmp_path / "large.out").open()) == 100_000
    assert peak < 200 * 1024, f"peak RSS {peak / 1024:.0f} MB"
    # 50 times the hands: the peak may grow by the blocks in flight, not with the file
    assert peak - base < 40 * 1024, f"RSS grew from {base / 1024:.0f} MB to {peak / 1024:.0f} MB"


def test_empty_yaml_documents_are_no_hands(tmp_path: Path) -> None:
    # Regression (new-user trial): `cat a.yaml; echo ---` per file left a trailing empty document,
    # which was a bad hand and made the batch exit 2.  Nothing written between `---` is no hand; an
    # explicit `~` still is a (bad) document, and a stream of nothing but `---` is an empty input.
    draw = "region: wuhan\nplayers: [A, B, C, D]\ndealer: {d}\ndraw: true\n"
    stream = tmp_path / "stream.yaml"
    stream.write_text(f"---\n# no hand here\n---\n{draw.format(d='A')}---\n{draw.format(d='B')}---\n",
                      encoding="utf-8")
    _, totals = run([str(stream)], fmt="jsonl")
    assert (totals.hands, totals.bad) == (2, 0)
    explicit = tmp_path / "explicit.yaml"
    explicit.write_text(f"{draw.format(d='A')}---\n~\n", encoding="utf-8")
    assert run([str(explicit)], fmt="jsonl")[1].bad == 1
    nothing = tmp_path / "nothing.yaml"
    nothing.write_text("---\n---\n", encoding="utf-8")
    assert run([str(nothing)], fmt="jsonl")[1].bad == 1
