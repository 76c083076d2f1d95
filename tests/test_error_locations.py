"""Issue 16 #9 and the output defects found with it: errors located as ``error: FILE:LINE:COL:``, the
line and column carried as data (never read back from message text), Chinese messages under
``--lang zh`` from a catalog, "did you mean" for misspelt keys and values (difflib), and Chinese
output without English glosses or pinyin where a Chinese word exists.  Each test failed before issue
16 (errors read ``error: FILE, line N: ...``; messages were English under zh; no suggestion; the
loader wrote "at line N, column C" into messages and JSON Lines rewrote that text)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from settle import cli
from settle.errors import HandError, Problem, with_columns
from settle.render import render_problems

ROOT = Path(__file__).resolve().parent.parent

cli._register_commands()
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli.app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


TYPOS = "region: wuhan\nplayers: [A, B, C, D]\ndealer: C\nfan: {A: 1}\nwin:\n  winnr: D\n  by: self_drw\n"


def test_errors_are_located_file_line_column(tmp_path: Path) -> None:
    hand = tmp_path / "typos.yaml"
    hand.write_text(TYPOS, encoding="utf-8")
    code, _, err = run("hand", str(hand))
    assert code == 2
    lines = set(err.splitlines())
    # `fan` at line 4 column 1; `winnr` at line 6 column 3 (two spaces in); `by` at line 7 column 3
    assert f"error: {hand}:4:1: fan: unknown key (not part of the hand format for this region) " \
           "(did you mean fans?)" in lines
    assert f"error: {hand}:6:3: win.winnr: unknown key (not part of the hand format for this region) " \
           "(did you mean winner?)" in lines
    assert any(line.startswith(f"error: {hand}:7:3: win.by: unknown win type (by) 'self_drw' "
                               "(did you mean self_draw?); allowed: ") for line in lines)


def test_did_you_mean_a_region() -> None:
    code, _, err = run("hand", "-", stdin="region: wuhn\nplayers: [A, B, C, D]\n")
    assert code == 2 and "error: <stdin>:1:1: region: unknown region 'wuhn' (did you mean wuhan?)" in err


def test_no_suggestion_when_nothing_is_close() -> None:
    code, _, err = run("hand", "-", stdin="region: wuhan\nplayers: [A, B, C, D]\nzzzzqqq: 1\n")
    assert code == 2 and "zzzzqqq: unknown key" in err and "did you mean" not in err


def test_chinese_messages_under_lang_zh(tmp_path: Path) -> None:
    hand = tmp_path / "typos.yaml"
    hand.write_text(TYPOS, encoding="utf-8")
    _, _, err = run("hand", str(hand), "--lang", "zh")
    lines = set(err.splitlines())
    assert f"error: {hand}:6:3: win.winnr: 未知的键（不属于这一地区的牌局格式）（是不是 winner？）" in lines
    assert f"error: {hand}:5:1: win.winner: 缺少：此键必填" in lines
    assert any(line.startswith(f"error: {hand}:7:3: win.by: 未知的胡法 'self_drw'（是不是 self_draw？）；可用：")
               for line in lines)
    _, _, err = run("hand", "-", "--lang", "zh", stdin="region: wuhan\nplayers: [A, B, C, D]\ndealer: C\n"
                                                      "win: {winner: E, by: self_draw}\n")
    assert "error: <stdin>:4:7: win.winner: E 不是本局的玩家（A, B, C, D）" in err  # `win: {` is 6 characters


def test_a_yaml_syntax_error_carries_its_line_and_column_as_data() -> None:
    code, _, err = run("hand", "-", stdin="region: wuhan\nplayers: [A\n")
    # libyaml stops at the end of the input: line 3, column 1; the flow sequence began on line 2
    assert code == 2
    assert err == ("error: <stdin>:3:1: YAML syntax error: did not find expected ',' or ']' "
                   "(while parsing a flow sequence at line 2)\n")


def test_json_lines_problems_keep_their_file_line_without_rewriting_text(tmp_path: Path) -> None:
    # Line 3 of the file is bad JSON (column 10: the first character after `{"id": "x"`), line 5 repeats
    # a key: the lines are the file's, the messages say no line (before: "at line 1" was rewritten).
    good = json.dumps({"id": "g", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True})
    source = tmp_path / "h.jsonl"
    source.write_text("\n".join([good, good.replace('"g"', '"g2"'), '{"id": "x" "region": 1}', good.replace(
        '"g"', '"g3"'), '{"id": "d", "id": "e"}']) + "\n", encoding="utf-8")
    code, out, err = run("batch", str(source), "--format", "jsonl")
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert errors[0] == f"error: {source}:3:12: hand {source}:3: JSON syntax error: Expecting ',' delimiter"
    assert errors[1].startswith(f"error: {source}:5:13: ") and "duplicate key 'id' (columns 2 and 13)" in errors[1]
    bad = [json.loads(line) for line in out.splitlines() if "error" in json.loads(line)]
    assert [(e["error"][0]["line"], e["error"][0]["column"]) for e in bad] == [(3, 12), (5, 13)]
    assert all("line" not in e["error"][0]["message"] for e in bad)


def test_problem_place_is_data_not_text() -> None:
    # A message that mentions a line never hides the location (before: "line 4" in the text left it out).
    problem = Problem(("win",), "see line 4", line=4, source="f.yaml", column=2)
    assert str(problem) == "f.yaml:4:2: win: see line 4"
    assert str(Problem((), "m", line=3)) == "line 3: m"
    assert str(Problem(("a",), "m", hand="h1", source="f.jsonl", line=9)) == "f.jsonl:9: hand h1: a: m"
    assert render_problems([Problem(("a",), "m", hand="h1", source="f", line=1)], "zh") == "error: f:1: 局 h1: a: m"


def test_with_columns_finds_the_key_on_its_line() -> None:
    text = 'a: 1\nplayers:\n  "B": {opens: x}\n  - item\n'
    found = with_columns([Problem(("players", "B", "opens"), "m", line=3), Problem(("players", 0), "m", line=4),
                          Problem(("z",), "m", line=9)], text)
    # `opens` at column 9 of line 3 (after `  "B": {`, 8 characters); an index: the first character after
    # the indent and `-` (column 5); line 9 is past the end: no column
    assert [p.column for p in found] == [9, 5, None]


def test_option_flag_problem_names_the_flag_not_a_file_line() -> None:
    # worked_example.yaml has no options; --option golden=100 puts golden under cap 400 (G13).
    code, _, err = run("hand", str(ROOT / "fixtures" / "wuhan" / "worked_example.yaml"), "--option", "golden=100")
    assert code == 2
    assert err.startswith(f"error: {ROOT / 'fixtures' / 'wuhan' / 'worked_example.yaml'}: options: caps out of order")
    assert err.rstrip().endswith("(with --option golden=...)")
    _, _, err = run("hand", str(ROOT / "fixtures" / "wuhan" / "worked_example.yaml"), "--option", "cap=abc",
                    "--lang", "zh")
    assert err.rstrip().endswith("options.cap: 必须是整数，不是 'abc'（由 --option cap=... 给出）")


def test_a_hand_error_is_still_a_hand_error() -> None:
    error = HandError.at(("region",), "m", kind="k", values={"v": 1})
    assert error.problems[0].values == {"v": 1} and hash(error.problems[0]) == hash(Problem(("region",), "m", kind="k"))


# --- output defects ------------------------------------------------------------------------------


def test_strict_at_a_first_bad_hand_prints_no_empty_standings() -> None:
    code, out, _ = run("batch", "-", "--strict", "--lang", "en", stdin='{"id": "x", "region": "wuhan"}\n'
                                                                       '{"id": "y", "region": "wuhan"}\n')
    assert code == 2 and "player 玩家" not in out and "net 总输赢" not in out
    assert "1 hand, 0 settled, 1 bad (stopped at the first bad hand: --strict)" in out


def test_rules_in_chinese_give_chinese_glosses() -> None:
    _, out, _ = run("rules", "rushan", "--lang", "zh")
    row = next(line for line in out.splitlines() if line.startswith("qingyise"))
    assert "全是一种花色" in row and "one suit" not in row
    option = next(line for line in out.splitlines() if line.startswith("no_chow"))
    assert "不能吃 (R9)" in option
    _, out, _ = run("rules", "rushan", "--lang", "en")
    assert "one suit only" in out  # English unchanged


def test_batch_table_in_chinese_words_a_bad_hand_in_chinese() -> None:
    # fixtures/batch/mixed.yaml b05 misspells win.winner as winnr.
    _, out, _ = run("batch", str(ROOT / "fixtures" / "batch" / "mixed.yaml"), "--lang", "zh")
    row = next(line for line in out.splitlines() if line.startswith("b05"))
    assert "有误：win.winnr" in row and "未知的键" in row and "unknown key" not in row


def test_rule_problems_in_chinese() -> None:
    # G7: a discard names its discarder; Wuhan is played by 4 players (H11).
    _, _, err = run("hand", "-", "--lang", "zh", stdin="region: wuhan\nplayers: [A, B, C]\ndealer: A\n"
                                                      "win: {winner: C, by: discard}\n")
    assert "error: <stdin>:2:1: players: 武汉要 4 位玩家，这一局列了 3 位" in err
    assert "win.from: 缺少：`from` 必须写明谁放冲/点炮（by 为 discard，G7）" in err
    _, _, err = run("hand", "-", "--lang", "en", stdin="region: wuhan\nplayers: [A, B, C]\ndealer: A\n"
                                                      "win: {winner: C, by: discard}\n")
    assert "players: 武汉 wuhan is played by 4 players, this hand lists 3" in err  # English unchanged


def test_did_you_mean_inside_options_players_and_several_wins() -> None:
    _, _, err = run("hand", "-", stdin="region: wuhan\nplayers: {A: {}, B: {opnes: 1}, C: {}, D: {}}\ndealer: C\n"
                                       "options: {cpa: 300}\nwin: {winner: D, by: self_draw}\n")
    assert "players.B.opnes: unknown key (not part of the hand format for this region) (did you mean opens?)" in err
    assert "options.cpa: unknown key (not part of the hand format for this region) (did you mean cap?)" in err
    _, _, err = run("hand", "-", stdin="region: rushan\nplayers: [A, B, C, D]\noptions: {multi_win: true}\n"
                                       "win: [{winner: D, by: discard, from: A, fnas: [x]}, "
                                       "{winner: C, by: discard, from: A}]\n")
    assert "win[0].fnas: unknown key (not part of the hand format for this region) (did you mean fans?)" in err


def test_batch_problems_have_columns_read_from_the_file(tmp_path: Path) -> None:
    # A JSON line: the `"东"` after `"fans"`, not the 东 of `players`.  Characters before each:
    # `{"id": "h1", ` 13 + `"region": "wuhan", ` 19 + `"players": [` 12 = 44 -> players' 东 at column 45;
    # + `"东", "南", "西", "北"], ` 21 + `"dealer": "东", ` 15 + the win 43 + `"fans": {` 9 = 132 -> column 133.
    # A YAML stream: `winnr` two spaces in (column 3) on line 8.
    hand = {"id": "h1", "region": "wuhan", "players": ["东", "南", "西", "北"], "dealer": "东",
            "win": {"winner": "南", "by": "self_draw"}, "fans": {"东": "many"}}
    line = json.dumps(hand, ensure_ascii=False)
    assert (line.index('"东"') + 1, line.index('"东": "many"') + 1) == (45, 133)
    source = tmp_path / "h.jsonl"
    source.write_text(line + "\n", encoding="utf-8")
    _, _, err = run("batch", str(source), "--format", "jsonl")
    assert f"error: {source}:1:133: hand h1: fans.东: must be a whole number, not 'many'" in err
    stream = tmp_path / "s.yaml"
    stream.write_text("region: wuhan\nplayers: [A, B, C, D]\ndealer: A\ndraw: true\n---\nid: b2\nwin:\n  winnr: D\n"
                      "region: wuhan\nplayers: [A, B, C, D]\ndealer: A\n", encoding="utf-8")
    _, _, err = run("batch", str(stream))
    assert f"error: {stream}:8:3: hand b2: win.winnr: unknown key" in err


def test_more_rule_problems_in_chinese() -> None:
    # The region key missing, a name listed twice (G8: names compared trimmed), 飘鱼 outside Rushan (R6):
    # worded in Chinese from their kind and values, not from the English text (issue 16 #9).
    _, _, err = run("hand", "-", "--lang", "zh", stdin="players: [A, B, C, D]\ndealer: A\n"
                                                      "win: {winner: A, by: self_draw}\n")
    assert err.startswith("error: <stdin>:1:1: region: 缺少：地区 `region`（wuhan 武汉, wuxue 武穴, rushan 乳山）")
    _, _, err = run("hand", "-", "--lang", "zh", stdin="region: wuhan\nplayers: [A, ' A', C, D]\ndealer: A\n"
                                                      "win: {winner: A, by: self_draw}\n")
    assert "error: <stdin>:2:1: players: 玩家 'A' 列了两次：第 2 项与前面的重复（名字去掉两边的空格后比较）" in err
    _, _, err = run("hand", "-", "--lang", "zh", stdin="region: wuhan\nplayers:\n  A: {fish: 1}\n  B: {}\n  C: {}\n"
                                                      "  D: {}\ndealer: A\nwin: {winner: A, by: self_draw}\n")
    assert "error: <stdin>:3:7: players.A.fish: 飘鱼只有 乳山 才有，武汉 没有" in err
    _, _, err = run("hand", "-", "--lang", "en", stdin="region: wuhan\nplayers:\n  A: {fish: 1}\n  B: {}\n  C: {}\n"
                                                      "  D: {}\ndealer: A\nwin: {winner: A, by: self_draw}\n")
    assert "players.A.fish: 飘鱼 (fish) exists only in Rushan, not in wuhan" in err  # English unchanged


def test_no_such_hand_in_chinese() -> None:
    # fixtures/session/wuhan.yaml settles 9 hands: --hand 99 names none of them.
    code, _, err = run("session", str(ROOT / "fixtures" / "session" / "wuhan.yaml"), "--hand", "99", "--lang", "zh")
    assert code == 2 and err == "error: --hand 99：这个牌局里没有这一局：已结算 9 局（1-9）\n"


def test_a_bound_of_a_count_or_list_in_chinese() -> None:
    # opens is a count or a list of feeders; -1 is a count below 0: the count's own bound, in Chinese.
    _, _, err = run("hand", "-", "--lang", "zh", stdin="region: wuhan\nplayers:\n  A: {opens: -1}\n  B: {}\n  C: {}\n"
                                                      "  D: {}\ndealer: A\nwin: {winner: A, by: self_draw}\n")
    assert "error: <stdin>:3:7: players.A.opens: 必须至少为 0，不是 -1\n" in err


STDIN_CASES = {
    # JSON Lines: fans.D's key "D" is the 133rd character of the line (the line is written out below).
    "jsonl": ('{"region":"wuhan","players":["A","B","C","D"],"dealer":"C","win":{"winner":"D","by":"discard",'
              '"from":"A"},"fans":{"A":3,"B":2,"C":3,"D":"x"}}\n') * 2,
    # A YAML stream: fans.D on line 5 at column 26 ("fans: {A: 3, B: 2, C: 3, " is 25 characters);
    # the misspelt dealr on line 9, column 1.
    "yaml": ("region: wuhan\nplayers: [A, B, C, D]\ndealer: C\nwin: {winner: D, by: discard, from: A}\n"
             "fans: {A: 3, B: 2, C: 3, D: x}\n---\nregion: wuhan\nplayers: [A, B, C, D]\ndealr: C\n"),
}


def test_batch_from_a_pipe_gives_the_columns_a_file_gives(tmp_path: Path) -> None:
    """Issue 16 #9: ``settle batch -`` reading a pipe (which cannot be read again) reports
    ``<stdin>:LINE:COL`` with the same line and column as the same bytes in a file."""
    import subprocess
    import sys

    for kind, text in STDIN_CASES.items():
        path = tmp_path / f"hands.{kind}"
        path.write_text(text, encoding="utf-8")
        run = [sys.executable, "-m", "settle", "batch"]
        from_file = subprocess.run([*run, str(path)], capture_output=True, text=True, timeout=120)
        from_pipe = subprocess.run([*run, "-"], input=text, capture_output=True, text=True, timeout=120)
        assert from_file.returncode == from_pipe.returncode == 2
        assert from_pipe.stderr == from_file.stderr.replace(str(path), "<stdin>"), kind
        first = from_pipe.stderr.splitlines()[0]
        assert first.startswith("error: <stdin>:1:133: " if kind == "jsonl" else "error: <stdin>:5:26: "), first
