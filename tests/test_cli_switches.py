"""Issue 16 #6-#8: the same output switches on every command, --quiet and --errors FILE, the session
schema and ``settle schema --out DIR``.  Each test failed before issue 16 (``-h`` refused, ``hand`` without
jsonl or --output, ``session`` without jsonl, ``<list[str]>`` metavars, no --quiet/--errors, no session
schema, no --out)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from settle import cli
from settle.render.schema import KINDS, file_name, schema, schema_text

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "wuhan" / "worked_example.yaml"
SESSION = ROOT / "fixtures" / "session" / "wuhan.yaml"

cli._register_commands()
runner = CliRunner()

COMMANDS = ("hand", "batch", "session", "schema", "rules", "check", "sample", "serve")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli.app, list(args), input=stdin, prog_name="settle")
    return result.exit_code, result.stdout, result.stderr


# --- #6 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_h_and_shows_readable_metavars_and_an_example(command: str) -> None:
    code, out, _ = run(command, "-h")
    assert code == 0 and out.startswith(f"Usage: settle {command} ")
    for unreadable in ("<list[str]>", "<int range>", "<str>", "<int>", "{file}", "{files}"):
        assert unreadable not in out
    assert "Example:\n  settle " in out or "Example:\n    settle " in out


@pytest.mark.parametrize("command", ("hand", "batch", "session", "rules", "check", "schema"))
def test_every_command_has_output(command: str) -> None:
    _, out, _ = run(command, "-h")
    assert "-o, --output FILE" in out


def test_hand_flags_read_as_what_to_type() -> None:
    _, out, _ = run("hand", "-h")
    for metavar in ("--fans NAME=N", "--option KEY=VALUE", "--kong NAME=KIND[:N]", "--max-bytes N",
                    "-f, --format FORMAT", "--lang en|zh"):
        assert metavar in out


def test_hand_jsonl_is_one_line_and_output_writes_the_file(tmp_path: Path) -> None:
    # 004 结算规则: A 2^(3+4) = 128, B 2^(2+4) = 64, C 2^(3+4) = 128, D +320
    target = tmp_path / "one.jsonl"
    code, out, _ = run("hand", str(WORKED), "--format", "jsonl", "--output", str(target))
    assert code == 0 and out == ""
    [line] = target.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["net"] == {"A": -128, "B": -64, "C": -128, "D": 320}


def test_session_jsonl_is_one_line_per_hand_then_the_session() -> None:
    # fixtures/session/wuhan.yaml: 9 hands; totals after w9 as in tests/test_session.py
    code, out, _ = run("session", str(SESSION), "--format", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 10
    assert [line["id"] for line in lines[:9]] == [f"w{i}" for i in range(1, 10)]
    assert lines[9]["totals"] == {"A": -284, "B": 474, "C": -188, "D": -402} and "hands" not in lines[9]


# --- #7 ---------------------------------------------------------------------------------------------


BAD_BATCH = "".join(json.dumps(hand) + "\n" for hand in [
    {"id": "g1", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
     "win": {"winner": "D", "by": "discard", "from": "A"}, "fans": {"A": 3, "B": 2, "C": 3, "D": 4}},
    {"id": "x1", "region": "wuhan"},
    {"id": "x2", "region": "wuhn", "players": ["A", "B", "C", "D"]},
])


def test_quiet_prints_only_the_count(tmp_path: Path) -> None:
    source = tmp_path / "hands.jsonl"
    source.write_text(BAD_BATCH, encoding="utf-8")
    code, _, err = run("batch", str(source), "--format", "jsonl", "--quiet")
    assert code == 2 and err == "2 of 3 hands bad; 1 settled\n"


def test_errors_file_holds_every_bad_hand_as_a_json_line(tmp_path: Path) -> None:
    source, errors = tmp_path / "hands.jsonl", tmp_path / "bad.jsonl"
    source.write_text(BAD_BATCH, encoding="utf-8")
    code, _, err = run("batch", str(source), "--format", "jsonl", "--errors", str(errors), "-q")
    assert code == 2 and "error:" not in err
    lines = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    assert [(line["id"], [e["path"] for e in line["error"]]) for line in lines] == [("x1", ["players"]),
                                                                                     ("x2", ["region"])]
    assert [line["error"][0]["line"] for line in lines] == [2, 3]
    line_schema = schema("line")  # the same shape as a bad hand's line of --format jsonl
    for line in lines:
        jsonschema.validate(line, line_schema)


def test_errors_file_keeps_two_bad_hands_with_one_id_apart(tmp_path: Path) -> None:
    """Two bad hands with the same id, a good hand between them, are two lines of the errors file, each
    with its own problem and line (before, the problems of one chunk were gathered by id: one line held
    both hands' problems, and whether it did depended on where the batch cut the file into blocks)."""
    source, errors = tmp_path / "hands.jsonl", tmp_path / "bad.jsonl"
    good = {"region": "wuhan", "dealer": "A", "players": {"A": {"opens": 1}, "B": {}, "C": {}, "D": {}},
            "win": {"winner": "A", "by": "self_draw"}}
    source.write_text("\n".join(json.dumps(hand) for hand in [
        {**good, "dealer": "Z", "id": "same"}, good, {**good, "region": "nowhere", "id": "same"},
        {**good, "region": "nowhere", "id": "same"}]) + "\n", encoding="utf-8")
    code, _, _ = run("batch", str(source), "--format", "jsonl", "--errors", str(errors), "-q")
    assert code == 2
    lines = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    assert [(line["id"], [(e["path"], e["line"]) for e in line["error"]]) for line in lines] == [
        ("same", [("dealer", 1)]), ("same", [("region", 3)]), ("same", [("region", 4)])]


def test_session_errors_file_keeps_bad_hands_with_one_id_apart(tmp_path: Path) -> None:
    """The same for a session: bad hands x, y, x are three lines, the third hand's problem on its own line
    (before, it was gathered into the first x's line).  Each winner is no player at the table: one problem
    a hand, at ``win.winner``, on the line of its ``win`` (the header 2 lines, then each hand's ``---``)."""
    source, errors = tmp_path / "evening.yaml", tmp_path / "bad.jsonl"
    source.write_text("region: wuhan\nplayers: [A, B, C, D]\n"
                      "---\nid: x\ndealer: A\nwin: {winner: E, by: self_draw}\n"
                      "---\nid: y\nwin: {winner: F, by: self_draw}\n"
                      "---\nid: x\nwin: {winner: G, by: self_draw}\n", encoding="utf-8")
    code, _, _ = run("session", str(source), "--errors", str(errors), "-q")
    assert code == 2
    lines = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    assert [(line["id"], [(e["path"], e["line"]) for e in line["error"]]) for line in lines] == [
        ("x", [("win.winner", 6)]), ("y", [("win.winner", 9)]), ("x", [("win.winner", 12)])]


# --- #8 ---------------------------------------------------------------------------------------------


def test_schema_out_writes_every_schema(tmp_path: Path) -> None:
    target = tmp_path / "schemas"
    code, out, _ = run("schema", "--out", str(target))
    assert code == 0
    assert sorted(p.name for p in target.iterdir()) == sorted(file_name(k) for k in KINDS)
    assert "session" in KINDS
    for kind in KINDS:
        assert (target / file_name(kind)).read_text(encoding="utf-8") == schema_text(kind)
    assert out.splitlines() == [str(target / file_name(k)) for k in KINDS]


def test_committed_session_schema_is_current() -> None:
    assert (ROOT / "schemas" / "session.schema.json").read_text(encoding="utf-8") == schema_text("session")
    _, out, _ = run("schema", "session")
    assert out == schema_text("session")


@pytest.mark.parametrize("name", ("wuhan.yaml", "wuxue.yaml", "rushan.yaml"))
def test_session_fixtures_validate_against_the_session_schema(name: str) -> None:
    session = schema("session")
    checker = jsonschema.validators.validator_for(session)(session)  # the draft the schema names, as validate() picks
    for document in yaml.safe_load_all((ROOT / "fixtures" / "session" / name).read_text(encoding="utf-8")):
        assert [e.message for e in checker.iter_errors(document)] == []


def test_a_short_players_hand_fits_the_session_schema_not_the_hand_schema() -> None:
    # Issue 16 #8: a modeline on a session file flagged every hand; a hand listing one player (#1)
    # and leaving region and dealer to the header is a session hand, not a hand file.
    document = {"players": {"D": {"opens": 1}}, "win": {"winner": "D", "by": "self_draw"}}
    jsonschema.validate(document, schema("session"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema("hand"))
    with pytest.raises(jsonschema.ValidationError):  # a header holds only region, options, players, id
        jsonschema.validate([{"region": "wuhan", "dealer": 3}], schema("session"))


def test_help_names_no_python_type() -> None:
    for command in COMMANDS:
        _, out, _ = run(command, "--help")
        assert not re.search(r"<(str|int|list\[str\]|int range|bool)>", out), command
