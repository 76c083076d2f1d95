"""Issue 15, messages: values shown as written, zero transfers left out, a session's player limit
and the loader's problems in Chinese, and an unwritable stderr that changes no exit status.

* #9 a session of more than 16 players is refused in Chinese too, and a session of 1,000 hands with
  four new players each stops at the fifth hand (counted: five hands settled, not 1,000);
* #16 a YAML date, a ``!!binary`` value or a mapping where text or a number is expected is shown as
  the user wrote it (``2001-12-14``), never as a Python repr (``datetime.date(2001, 12, 14)``);
* #18 Wuhan 逃跑 with ``escape_paid_to: others`` lists no transfer of 0 points (H9, G2);
* the loader's duplicate key, empty document and JSON syntax error have Chinese words under
  ``--lang zh`` (their English words unchanged);
* a stderr that cannot be written (closed, or ``/dev/full``) leaves the exit status what happened.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from settle import settle_hand
from settle.cli import _register_commands, app
from settle.engine.session import run as session_run
from tests.helpers import new_players_session

runner = CliRunner()
_register_commands()

SETTLE = shutil.which("settle", path=str(Path(sys.executable).parent)) or "settle"

HAND = ("region: wuhan\nplayers: [A, B, C, D]\ndealer: {dealer}\nwin: {{winner: B, by: self_draw}}\n"
        "fans: {{A: {fan}, B: 2, C: 0, D: 0}}\n")


def _errors(text: str, *args: str) -> list[str]:
    """The stderr lines of ``settle hand`` on a YAML hand ``text`` (exit 2 asserted)."""
    done = runner.invoke(app, ["hand", "-", *args], input=text)
    assert done.exit_code == 2, done.output
    return [line for line in done.output.splitlines() if line.startswith("error:")]


# --- #9: at most 16 players, in Chinese too; refused at the fifth hand ------------------------------


def test_session_player_limit_in_chinese(tmp_path: Path) -> None:
    """Hand 5 brings P16-P19 (16 + 4 = 20 > 16); its document starts on line 6*4+3 = 27 (each hand is
    6 lines plus its ``---``, the problem at ``players`` on the hand's third line)."""
    path = tmp_path / "many.yaml"
    path.write_text(new_players_session(6), encoding="utf-8")
    done = runner.invoke(app, ["session", str(path), "--lang", "zh", "--format", "json"])
    assert done.exit_code == 2
    errors = [line for line in done.output.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {path}:27:1: 局 {path}:5: players: 一个牌局最多 16 位玩家；这一局一共 20 位"
                      "（新来的：P16、P17、P18、P19）：另一桌请另开一个牌局文件"]


def test_session_player_limit_problem_is_data(tmp_path: Path) -> None:
    """The problem carries its kind and values (the limit, the count, the new names), not only words."""
    path = tmp_path / "many.yaml"
    path.write_text(new_players_session(5), encoding="utf-8")
    from settle.loader import iter_documents

    with path.open("rb") as handle:
        report = session_run.run_session(iter_documents(handle, str(path)), str(path))
    [problem] = report.problems
    assert problem.kind == "too_many_players"
    assert problem.values == {"max": 16, "count": 20, "new": "P16、P17、P18、P19"}


def test_thousand_tables_stop_at_the_fifth_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#9: 1,000 hands of 4 new players each: hands 1-4 are settled, hand 5 is refused, and nothing
    after it is settled (counted: 5 calls to settle, not 1,000); the JSON holds 4 hands of 16 players."""
    path = tmp_path / "thousand.yaml"
    path.write_text(new_players_session(1000), encoding="utf-8")
    calls = []
    real = session_run.settle_data

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(session_run, "settle_data", counting)
    done = runner.invoke(app, ["session", str(path), "--format", "json"])
    assert done.exit_code == 2
    assert len(calls) == 5
    body = json.loads(done.stdout)
    assert len(body["hands"]) == 4
    assert len(body["totals"]) == 16


# --- #16: values as written ---------------------------------------------------------------------------

@pytest.mark.parametrize(("written", "shown"), [
    ("2001-12-14", "2001-12-14"),
    ("2001-12-14 10:00:00", "2001-12-14 10:00:00"),
    ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    ("!!binary aGVsbG8=", "!!binary aGVsbG8="),
])
def test_values_are_shown_as_written(written: str, shown: str) -> None:
    """A date, a timestamp and a ``!!binary`` value read as the user wrote them, in English and Chinese."""
    assert _errors(HAND.format(dealer="A", fan=written)) == [
        f"error: <stdin>:5:8: fans.A: must be a whole number, not {shown}"]
    assert _errors(HAND.format(dealer="A", fan=written), "--lang", "zh") == [
        f"error: <stdin>:5:8: fans.A: 必须是整数，不是 {shown}"]
    assert _errors(HAND.format(dealer=written, fan="1")) == [
        f"error: <stdin>:3:1: dealer: must be text (quote numbers and names like '1' or 'yes'), not {shown}"]


def test_region_that_is_no_name_is_shown_as_written() -> None:
    """``region`` a mapping, a date, a list, a yes/no or null: no dict or list repr, no
    ``datetime.date(...)``, no ``True``/``None``."""
    rest = "players: [A, B, C, D]\n"
    allowed = "allowed: wuhan 武汉, wuxue 武穴, rushan 乳山"
    assert _errors("region: {a: 1}\n" + rest) == [
        f"error: <stdin>:1:1: region: region must be a name, got a mapping; {allowed}"]
    assert _errors("region: 2001-12-14\n" + rest) == [
        f"error: <stdin>:1:1: region: region must be a name, got 2001-12-14; {allowed}"]
    assert _errors("region: !!binary aGVsbG8=\n" + rest) == [
        f"error: <stdin>:1:1: region: region must be a name, got !!binary aGVsbG8=; {allowed}"]
    for value, shown in (("[wuhan]", "a list of 1 item"), ("yes", "true"), ("~", "null")):
        assert _errors(f"region: {value}\n" + rest) == [
            f"error: <stdin>:1:1: region: region must be a name, got {shown}; {allowed}"]


def test_key_that_is_a_date_is_shown_as_written() -> None:
    """A kongs key written 2001-12-14 appears so in the key path and in the message, located at the
    path's last text key, ``kongs`` ('players: {A: {}, B: {}, C: {}, D: {' is 35 characters: column 36)."""
    text = ("region: wuhan\nplayers: {A: {}, B: {}, C: {}, D: {kongs: {2001-12-14: 1}}}\ndealer: A\n"
            "win: {winner: B, by: self_draw}\nfans: {A: 1, B: 2, C: 0, D: 0}\n")
    [line] = _errors(text)
    assert "datetime" not in line
    assert line.startswith("error: <stdin>:2:36: players.D.kongs.2001-12-14: must be one of ")
    assert line.endswith(", not 2001-12-14")


def test_duplicate_date_key_is_shown_as_written() -> None:
    text = "region: wuhan\n2001-12-14: 1\n2001-12-14: 2\n"
    assert _errors(text)[0] == "error: <stdin>:3:1: 2001-12-14: duplicate key 2001-12-14 (lines 2 and 3)"


def test_top_level_binary_is_shown_as_written() -> None:
    assert _errors("!!binary aGVsbG8=\n") == [
        "error: <stdin>:1:1: expected a hand (a mapping with region, players, ...), found a binary value "
        "(!!binary aGVsbG8=)"]


def test_no_repr_in_any_message_of_odd_values() -> None:
    """Dates, timestamps, binaries and mappings at every key that wants text or a number: no
    ``datetime.``, ``b'``, ``{'`` in any message."""
    for odd in ("2001-12-14", "2001-12-14 10:00:00", "!!binary aGVsbG8=", "{a: 1}", "{a: {b: 2}}"):
        for template in (HAND.format(dealer=odd, fan=1), HAND.format(dealer="A", fan=odd),
                         f"region: {odd}\nplayers: [A, B, C, D]\n",
                         f"region: wuhan\nplayers: [{odd}, B, C, D]\ndealer: B\nwin: {{winner: B, by: self_draw}}\n",
                         f"region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nwin: {{winner: B, by: {odd}}}\n",
                         f"region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nabandon: {{by: {odd}}}\n",
                         f"region: wuhan\nplayers: [A, B, C, D]\ndealer: A\ndraw: {odd}\n",
                         HAND.format(dealer="A", fan=1) + f"options: {{cap: {odd}, koukou: {odd}}}\n"):
            for lang in ("en", "zh"):
                for line in _errors(template, "--lang", lang):
                    assert "datetime." not in line and "b'" not in line and "{'" not in line, line


# --- #18: no transfer of 0 points ------------------------------------------------------------------

def test_escape_split_leaves_out_zero_transfers() -> None:
    """H9: a penalty of 1 split among B, C, D by largest remainder: 1 = 1 + 0 + 0, the extra point to
    B (the player after A); only A -> B 1 is a payment (G2: payments are transfers between players)."""
    result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
                          "abandon": {"by": "A"}, "options": {"escape_penalty": 1, "escape_paid_to": "others"}})
    assert [(t.payer, t.payee, t.amount) for t in result.transfers] == [("A", "B", 1)]
    assert result.net == {"A": -1, "B": 1, "C": 0, "D": 0}


def test_escape_split_of_two_leaves_out_one_zero() -> None:
    """H9: 2 = 1 + 1 + 0: B and C get a point each (the extras go first to B, then C), D nothing."""
    result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
                          "abandon": {"by": "A"}, "options": {"escape_penalty": 2, "escape_paid_to": "others"}})
    assert [(t.payer, t.payee, t.amount) for t in result.transfers] == [("A", "B", 1), ("A", "C", 1)]


# --- the loader's problems in Chinese ---------------------------------------------------------------

def test_duplicate_key_in_chinese() -> None:
    text = "region: wuhan\nregion: wuxue\n"
    assert _errors(text)[0] == "error: <stdin>:2:1: region: duplicate key 'region' (lines 1 and 2)"
    assert _errors(text, "--lang", "zh")[0] == "error: <stdin>:2:1: region: 重复的键 'region'（第 1 行和第 2 行）"


def test_duplicate_json_key_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_text('{"region": "wuhan", "region": "wuxue"}', encoding="utf-8")
    done = runner.invoke(app, ["hand", str(path), "--lang", "zh"])
    assert done.exit_code == 2
    assert done.output.splitlines()[0] == f"error: {path}:1:21: region: 重复的键 'region'（第 2 列和第 21 列）"


def test_empty_document_in_chinese() -> None:
    assert _errors("") == ["error: <stdin>:1:1: empty document: expected a hand (a mapping with region, players, ...)"]
    assert _errors("", "--lang", "zh") == ["error: <stdin>:1:1: 空文档：应为一局牌（含 region、players 等键的映射）"]


def test_json_syntax_error_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"region": "wuhan",}', encoding="utf-8")
    en = runner.invoke(app, ["hand", str(path)])
    zh = runner.invoke(app, ["hand", str(path), "--lang", "zh"])
    assert en.exit_code == zh.exit_code == 2
    assert en.output.splitlines() == [
        f"error: {path}:1:20: JSON syntax error: Expecting property name enclosed in double quotes"]
    assert zh.output.splitlines() == [f"error: {path}:1:20: JSON 语法错误：键名必须用双引号括起"]


def test_json_extra_data_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    path.write_text('{"region": "wuhan"}\n{"region": "wuhan"}\n', encoding="utf-8")
    zh = runner.invoke(app, ["hand", str(path), "--lang", "zh"])
    assert zh.exit_code == 2
    assert zh.output.splitlines() == [
        f"error: {path}:2:1: JSON 语法错误：多余的数据（多于一个 JSON 值：一行一局请用 .jsonl 文件）"]


# --- an unwritable stderr -----------------------------------------------------------------------------

BAD = ("region: wuhan\nplayers: [A, B, C, D]\ndealer: Z\nwin: {winner: B, by: self_draw}\n"
       "fans: {A: 1, B: 2, C: 0, D: 0}\n")
"""A hand whose dealer Z is not at the table: bad input, exit 2."""


@pytest.mark.parametrize("command", ["hand", "session", "check", "batch"])
@pytest.mark.parametrize("stderr", ["2>&-", "2>/dev/full"])
def test_unwritable_stderr_keeps_the_exit_status(tmp_path: Path, command: str, stderr: str) -> None:
    """A bad hand exits 2 even when its problems cannot be written: never 1, never a traceback (the
    traceback would go to stdout's neighbour, so stdout is checked to hold none)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD, encoding="utf-8")
    done = subprocess.run(["sh", "-c", f'"$0" {command} "$1" {stderr}', SETTLE, str(bad)],
                          stdout=subprocess.PIPE, timeout=120, check=False)
    assert done.returncode == 2
    assert b"Traceback" not in done.stdout and b"internal error" not in done.stdout


def test_unwritable_stderr_with_a_good_hand_exits_0(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(BAD.replace("dealer: Z", "dealer: A"), encoding="utf-8")
    for stderr in ("2>&-", "2>/dev/full"):
        done = subprocess.run(["sh", "-c", f'"$0" hand "$1" {stderr}', SETTLE, str(good)],
                              stdout=subprocess.PIPE, timeout=120, check=False)
        assert done.returncode == 0
        assert done.stdout.startswith("武汉".encode())


def test_closed_stderr_does_not_write_into_the_output(tmp_path: Path) -> None:
    """With file descriptor 2 closed, ``-o`` may be given descriptor 2: the problems of a bad hand in a
    batch must not land in the output file."""
    hands = tmp_path / "hands.yaml"
    hands.write_text(BAD.replace("dealer: Z", "dealer: A") + "---\n" + BAD, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = subprocess.run(["sh", "-c", '"$0" batch "$1" -o "$2" 2>&-', SETTLE, str(hands), str(out)],
                          stdout=subprocess.PIPE, timeout=120, check=False)
    assert done.returncode == 2
    assert b"error:" not in out.read_bytes()
