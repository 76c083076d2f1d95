"""Issue 16 #9: the field checks, settle hand's flags and the file errors in Chinese under ``--lang zh``
(settle.engine.messages.PROBLEMS_ZH), the English as before."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from settle.cli import _register_commands, app

runner = CliRunner()
_register_commands()


def run(*args: str, stdin: str = "") -> str:
    result = runner.invoke(app, list(args), input=stdin, env={"LANG": "C.UTF-8", "LC_ALL": "", "CI": "1"})
    assert result.exit_code == 2
    return result.stderr


FLAGS = [
    # (flags, English, Chinese): each line written from the message and the catalog's words
    (["--region", "wuhan", "--players", "A B C D"],
     "error: players: --players 'A B C D': separate the names with commas, e.g. --players A,B,C,D\n",
     "error: players: --players 'A B C D'：名字之间请用逗号隔开，如 --players A,B,C,D\n"),
    (["--region", "wuhan", "--players", "A,B,A,C"],
     "error: players: --players lists 'A' more than once\n",
     "error: players: --players 中 'A' 列了不止一次\n"),
    (["--region", "wuhan", "--players", "A,B,C,D", "--opens", "E=1"],
     "error: players: --opens names 'E', who is not in --players (A, B, C, D)\n",
     "error: players: --opens 写了 'E'，不在 --players 里（A、B、C、D）\n"),
    (["--region", "wuhan", "--players", "A,B,C,D", "--opens", "A1"],
     "error: --opens 'A1': expected NAME=VALUE\n", "error: --opens 'A1'：应为 NAME=VALUE\n"),
    (["--region", "wuhan", "--players", "A,B,C,D", "--fish", "A=x"],
     "error: --fish: 'x' is not a whole number\n", "error: --fish：'x' 不是整数\n"),
    (["--region", "wuhan", "--players", "A,B,C,D", "--fish", "A=" + "1" * 22],
     "error: --fish: a number of 22 digits is far too large\n", "error: --fish：22 位的数太大了\n"),
    (["--region", "wuhan"], "error: players: missing: --players A,B,C,D (names in seating order)\n",
     "error: players: 缺少：--players A,B,C,D（按座次列出名字）\n"),
    (["--players", "A,B"], "error: region: give a hand file, or at least --region and --players\n",
     "error: region: 请给出牌局文件，或至少给出 --region 和 --players\n"),
    (["--region", "wuhan", "--players", "A,B,C,D", "--draw", "--winner", "A"],
     "error: win: --draw and --winner/--by describe two outcomes of one hand; give one\n",
     "error: win: --draw 与 --winner/--by 是一局的两种结局：只能给一个\n"),
    (["--region", "wuhan", "--players", "A,B,C,D", "--by", "self_draw"],
     "error: win.winner: missing: --winner NAME (who won)\n", "error: win.winner: 缺少：--winner NAME（谁胡牌）\n"),
]


@pytest.mark.parametrize(("flags", "english", "chinese"), FLAGS)
def test_flag_errors_in_chinese(flags: list[str], english: str, chinese: str) -> None:
    assert run("hand", *flags) == english
    assert run("hand", *flags, "--lang", "zh") == chinese


FIELDS = [
    # (hand file, Chinese line): the value at players.* / id, with its line and column
    ('region: wuhan\nplayers: ["A\\tx", B, C, D]\ndealer: B\ndraw: true\n',
     'error: <stdin>:2:1: players: 不能有控制字符（制表符、换行），不是 "A\\tx"\n'),  # YAML's escape
    ("region: wuhan\nid: " + "x" * 201 + "\nplayers: [A, B, C, D]\ndealer: A\ndraw: true\n",
     "error: <stdin>:2:1: id: 太长：最多 200 个字符\n"),
    ("region: wuhan\nplayers: [true, B, C, D]\ndealer: B\ndraw: true\n",
     "error: <stdin>:2:1: players[0]: 玩家的名字必须是文字，不是是非值 true；请加引号\n"),
    ("region: wuhan\nplayers: [1.5, B, C, D]\ndealer: B\ndraw: true\n",
     "error: <stdin>:2:1: players[0]: 玩家的名字必须是文字，不是数字 1.5；请加引号（'1.5'）\n"),
    ("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nid: [1]\ndraw: true\n",
     "error: <stdin>:4:1: id: 必须是文字或整数，不是 1 项的列表\n"),
    ("region: wuhan\nplayers: {A: {ready: {}}, B: {}, C: {}, D: {}}\ndealer: A\ndraw: true\n",
     "error: <stdin>:2:15: players.A.ready: 必须是 true 或 false，不是 一个映射\n"),
    ("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nfans: {A: 1}\njin: {A: 1}\ndraw: true\n",
     "error: <stdin>:5:1: jin: `fans` 和它的别名 `jin` 只能给一个\n"),
]


@pytest.mark.parametrize(("text", "chinese"), FIELDS)
def test_field_checks_in_chinese(text: str, chinese: str) -> None:
    english = run("hand", "-", stdin=text)
    assert english.startswith(chinese.split(": ", 2)[0]) and english != chinese
    assert run("hand", "-", "--lang", "zh", stdin=text) == chinese


def test_file_errors_in_chinese(tmp_path) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "none.yaml"
    assert run("hand", str(missing)) == f"error: cannot read {missing}: No such file or directory\n"
    assert run("hand", str(missing), "--lang", "zh") == f"error: 无法读取 {missing}：没有这个文件或目录\n"
    hand = tmp_path / "h.yaml"
    hand.write_text("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\ndraw: true\n", encoding="utf-8")
    assert run("batch", str(hand), "-o", str(hand), "--lang", "zh") == (
        f"error: 输出文件 {hand} 就是输入文件 {hand}：请换一个 --output\n")
    assert run("batch", str(hand), "-o", str(tmp_path), "--lang", "zh") == f"error: 无法写入 {tmp_path}：这是一个目录\n"
