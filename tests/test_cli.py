"""The `settle hand` command: formats, stdin, flags equal to files, exit statuses (0, 1, 2)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from settle import cli

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
WORKED = FIXTURES / "wuhan" / "worked_example.yaml"

cli._register_commands()
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli.app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_worked_example_json_net() -> None:
    # 004 结算规则: A 2^(3+4) = 128, B 2^(2+4) = 64, C 2^(3+4) = 128, D +320
    code, out, _ = run("hand", str(WORKED), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["net"] == {"A": -128, "B": -64, "C": -128, "D": 320}
    assert data["next_dealer"] == "D"
    assert data["transfers"][0] == {"from": "A", "to": "D", "amount": 128, "why": "2^(3+4)", "cap": None,
                                    "steps": [{"rule": None, "kind": "power", "values": {"loser": 3, "winner": 4}}]}


def test_table_shows_roles_and_transfer_lines() -> None:
    code, out, _ = run("hand", str(WORKED), "--lang", "en")
    assert code == 0
    assert "A -> D" in out and "= 2^(3+4)" in out
    assert "放冲 discarder" in out and "庄 dealer" in out and "胡 winner" in out


def test_stdin_reads_the_same_hand() -> None:
    code, out, _ = run("hand", "-", "--format", "json", stdin=WORKED.read_text(encoding="utf-8"))
    assert code == 0
    assert json.loads(out)["net"]["D"] == 320


def test_csv_is_one_table_of_the_players() -> None:
    # issue 16 #4: one table, a row per player (it was the players, a blank line, then the transfers)
    code, out, _ = run("hand", str(WORKED), "--format", "csv")
    assert code == 0
    assert "\n\n" not in out.strip()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["player"]: int(r["net"]) for r in rows} == {"A": -128, "B": -64, "C": -128, "D": 320}
    assert [(r["seat"], r["roles"], r["score"]) for r in rows] == [("1", "discarder", "3"), ("2", "", "2"),
                                                                   ("3", "dealer", "3"), ("4", "winner", "4")]
    hand_cells = {(r["winner"], r["by"], r["from"], r["dealer"], r["liable"]) for r in rows}
    assert hand_cells == {("D", "discard", "A", "C", "")}


def test_markdown_is_a_github_table() -> None:
    code, out, _ = run("hand", str(WORKED), "--format", "markdown")
    assert code == 0
    assert "| A " in out and "|---" in out.replace(":", "-")


FLAG_EQUIVALENTS = [
    ("wuhan/worked_example.yaml",
     ["--region", "wuhan", "--players", "A,B,C,D", "--dealer", "C", "--winner", "D", "--by", "discard",
      "--from", "A", "--fans", "A=3,B=2,C=3,D=4"]),
    ("wuhan/chengbao_qingyise.yaml",
     ["--region", "wuhan", "--players", "东,南,西,北", "--dealer", "东", "--winner", "北", "--by", "self_draw",
      "--opens", "东=1", "--kong", "南=concealed", "--opens", "西=北,东", "--opens", "北=东,南,西",
      "--kong", "北=hongzhong", "--fan", "qingyise", "--fan", "hard", "--option", "cap=400"]),
    ("wuhan/escape_split.yaml",
     ["--region", "wuhan", "--players", "A,B,C,D", "--dealer", "A", "--abandon", "B",
      "--option", "escape_paid_to=others"]),
]


@pytest.mark.parametrize(("fixture", "flags"), FLAG_EQUIVALENTS, ids=[f for f, _ in FLAG_EQUIVALENTS])
def test_flags_give_the_same_result_as_the_file(fixture: str, flags: list[str]) -> None:
    _, from_file, _ = run("hand", str(FIXTURES / fixture), "--format", "json")
    code, from_flags, err = run("hand", *flags, "--format", "json")
    assert code == 0, err
    assert json.loads(from_flags) == json.loads(from_file)


def test_option_flag_overrides_a_file_option() -> None:
    # chengbao_qingyise with cap 300: 南 10×2^(2+3)×1.5 = 480 -> 300; 西 pays 240 + 300 + 240 = 780
    code, out, _ = run("hand", str(FIXTURES / "wuhan" / "chengbao_qingyise.yaml"), "--option", "cap=300",
                       "--format", "json")
    assert code == 0
    assert json.loads(out)["net"]["西"] == -780


def test_bad_input_exits_2_with_key_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nwin:\n  winner: D\n  by: discard\n",
                   encoding="utf-8")
    code, out, err = run("hand", str(bad))
    assert code == 2
    assert f"error: {bad}:4:1: win.from: " in err  # FILE:LINE:COL (issue 16 #9): `win:` is line 4
    assert "Traceback" not in err + out


@pytest.mark.parametrize("region_line", ["", "region: wuhen\n"])
def test_no_known_region_still_reports_the_unknown_keys(tmp_path: Path, region_line: str) -> None:
    # Without a known region no other check can run, but keys no hand has are reported with it.
    path = tmp_path / "hand.yaml"
    path.write_text(f"{region_line}players: [A, B, C, D]\nwinnr: D\n", encoding="utf-8")
    code, _, err = run("hand", str(path))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 2
    assert "region:" in lines[0]
    assert lines[1].startswith(f"error: {path}:{3 if region_line else 2}:1: winnr: unknown key")


def test_missing_file_is_bad_input(tmp_path: Path) -> None:
    code, _, err = run("hand", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "cannot read" in err


def test_file_and_hand_flags_together_are_refused() -> None:
    code, _, err = run("hand", str(WORKED), "--winner", "A")
    assert code == 2
    assert "not both" in err


def test_bad_flag_value_exits_2() -> None:
    code, _, err = run("hand", "--region", "wuhan", "--players", "A,B,C,D", "--fans", "A3")
    assert code == 2
    assert "--fans" in err


@pytest.mark.parametrize(("flags", "message"), [
    # A repeated name was dropped by the mapping the flags build (new-user trial); a file's list is refused.
    (["--players", "A,B,C,D,A", "--winner", "D", "--by", "self_draw"], "--players lists 'A' more than once"),
    (["--players", "A B C D", "--winner", "D", "--by", "self_draw"], "separate the names with commas"),
    (["--players", "A,B,C,D", "--by", "self_draw"], "missing: --winner"),
    (["--players", "A,B,C,D", "--draw", "--winner", "D"], "--draw and --winner/--by describe two outcomes"),
])
def test_flag_mistakes_name_the_flag(flags: list[str], message: str) -> None:
    code, _, err = run("hand", "--region", "wuhan", "--dealer", "A", *flags)
    assert code == 2 and message in err


def test_internal_error_exits_1_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import settle.engine.hand

    def boom(_: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(settle.engine.hand, "settle_hand", boom)
    monkeypatch.delenv("SETTLE_DEBUG", raising=False)
    code, out, err = run("hand", str(WORKED))
    assert code == 1
    assert "internal error" in err and "report" in err
    assert "Traceback" not in err + out


def test_flags_never_guess_how_the_hand_was_won() -> None:
    # G7: a file without win.by is refused, so flags without --by are refused the same way.
    code, _, err = run("hand", "--region", "wuhan", "--players", "A,B,C,D", "--dealer", "A", "--winner", "D",
                       "--fans", "A=1,B=1,C=1,D=1")
    assert code == 2
    assert "win.by" in err and "missing" in err


def test_option_flag_problems_point_at_the_flag_not_a_file_line() -> None:
    code, _, err = run("hand", str(WORKED), "--option", "capp=300")
    assert code == 2
    assert "options.capp" in err and "--option capp" in err
    assert "line" not in err.split("options.capp")[0]


def test_a_top_level_problem_prints_no_empty_path_and_no_repeated_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("region: wuhan\nplayers: [A\n", encoding="utf-8")
    code, _, err = run("hand", str(bad))
    assert code == 2
    assert "(top level)" not in err
    assert err.startswith(f"error: {bad}:3:1: YAML syntax error: ")  # the location once, first (issue 16 #9)


def test_version_alone_prints_the_version() -> None:
    # Regression (new-user trial): `settle --version` without a command said "Missing command" (exit 2).
    from settle import __version__

    code, out, _ = run("--version")
    assert (code, out.strip()) == (0, f"settle {__version__}")
