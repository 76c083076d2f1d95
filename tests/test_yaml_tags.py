"""Explicit YAML tags that do not fit their value: plain words, never Python's (issue 15 #7, #16), and
their Chinese words under ``--lang zh`` (issue 16 #9)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from settle.cli import _register_commands, app

runner = CliRunner()


def hand(winner: str) -> str:
    return f"region: wuhan\nplayers: [A, B, C, D]\ndealer: A\nwin: {{winner: {winner}, by: self_draw}}\n"


@pytest.mark.parametrize(("written", "english", "chinese"), [
    ("!<tag:yaml.org,2002:int> x", "cannot read 'x' as !!int: it is not a value of that type",
     "无法把 'x' 读作 !!int：不是这种类型的值"),
    ("!!int 0x_", "cannot read '0x_' as !!int: it is not a value of that type",
     "无法把 '0x_' 读作 !!int：不是这种类型的值"),
    # 1e400 is past the largest float: PyYAML would read inf, which the file does not say
    ("!!float 1e400", "cannot read '1e400' as !!float: the number is out of range",
     "无法把 '1e400' 读作 !!float：数超出范围"),
    ("!!merge D", "cannot read 'D' as !!merge: only '<<' is a merge key",
     "无法把 'D' 读作 !!merge：只有 '<<' 是合并键"),
    ("!!foo x", "unsupported YAML tag !!foo", "不支持的 YAML 标签 !!foo"),
])
def test_tag_that_does_not_fit(written: str, english: str, chinese: str, tmp_path: Path) -> None:
    _register_commands()
    path = tmp_path / "t.yaml"
    path.write_text(hand(written), encoding="utf-8")
    where = f"error: {path}:4:7: win.winner: "  # line 4, the value's column 7 (after '{winner: ')
    done = runner.invoke(app, ["hand", str(path)])
    assert done.exit_code == 2 and done.stderr == where + english + "\n"
    done = runner.invoke(app, ["hand", str(path), "--lang", "zh"])
    assert done.exit_code == 2 and done.stderr == where + chinese + "\n"
