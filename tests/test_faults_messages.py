"""Issue 15, messages and bounds: flags YAML cannot read, odd key names, sessions of many players.

* #7 ``--option 'cap=!!bool x'`` (a tag that does not fit its value), ``--opens D=²`` and ``--opens D=``
  with 5,000 digits are bad input (exit 2, the flag named), never an internal error (exit 1);
* #17 a key holding a line break is shown escaped, so that every stderr line starts with ``error:``;
* #9 a session holds at most 16 distinct players; a bad hand's long id costs linear time in Chinese.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from settle.cli import _register_commands, app
from settle.errors import format_path
from tests.helpers import new_players_session

runner = CliRunner()
_register_commands()

HAND_FLAGS = ["hand", "--region", "wuhan", "--players", "A,B,C,D", "--dealer", "A", "--winner", "B",
              "--by", "self_draw", "--fans", "A=1,B=2,C=0,D=0"]


@pytest.mark.parametrize("value", ["cap=!!bool x", "cap=!!int", "cap=!!timestamp x", "cap=!!float ''",
                                   "cap=!!int \"\"", "cap=!!bool \"\""])
def test_option_with_a_tag_that_does_not_fit_is_bad_input(value: str) -> None:
    """#7: exit 2 with one problem at ``options.cap`` naming the flag."""
    done = runner.invoke(app, [*HAND_FLAGS, "--option", value])
    assert done.exit_code == 2, done.output
    lines = done.output.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: options.cap: --option cap=")
    assert "internal error" not in done.output


def test_option_with_a_fitting_tag_still_reads() -> None:
    """``!!int 300`` fits its value: the cap is 300, as with ``cap=300`` (the same output)."""
    tagged = runner.invoke(app, [*HAND_FLAGS, "--option", "cap=!!int 300", "--format", "json"])
    plain = runner.invoke(app, [*HAND_FLAGS, "--option", "cap=300", "--format", "json"])
    assert tagged.exit_code == 0
    assert tagged.output == plain.output


def test_opens_with_a_superscript_digit_is_a_player_name() -> None:
    """#7: '²'.isdigit() is true but it is no count: read as a feeder's name, refused as not a player."""
    done = runner.invoke(app, [*HAND_FLAGS, "--opens", "D=²"])
    assert done.exit_code == 2
    assert done.output.splitlines() == ["error: players.D.opens[0]: '²' is not one of the players (A, B, C, D)"]


def test_opens_with_five_thousand_digits_is_bad_input() -> None:
    """#7: int() of 5,000 digits raises ValueError (Python's 4,300-digit limit): a bad flag, exit 2."""
    done = runner.invoke(app, [*HAND_FLAGS, "--opens", "D=" + "9" * 5000])
    assert done.exit_code == 2
    assert done.output.splitlines() == ["error: --opens: a number of 5000 digits is far too large"]


def test_fans_in_other_digits_are_not_whole_numbers() -> None:
    """``int('٣')`` is 3, but a flag's number is ASCII digits."""
    done = runner.invoke(app, ["hand", "--region", "wuhan", "--players", "A,B,C,D", "--dealer", "A",
                               "--winner", "B", "--by", "self_draw", "--fans", "A=1,B=2,C=0,D=٣"])
    assert done.exit_code == 2
    assert done.output.splitlines() == ["error: --fans: '٣' is not a whole number"]


def test_key_path_with_line_breaks_is_escaped() -> None:
    """#17: control characters and U+0085/U+2028/U+2029 in a key are shown escaped (JSON style)."""
    assert format_path(("fans", "A\nB")) == 'fans."A\\nB"'
    assert format_path(("players", "A\u2028B", "opens")) == 'players."A\\u2028B".opens'
    assert format_path(("players", "x\x85y")) == 'players."x\\u0085y"'
    assert format_path(("players", "B", "kongs", "concealed")) == "players.B.kongs.concealed"
    assert format_path(("win", "fans", 1)) == "win.fans[1]"


def test_error_lines_start_with_error_for_a_name_with_a_newline(tmp_path: Path) -> None:
    """#17 through the CLI: every stderr line of the bad hand starts with ``error:``."""
    hand = tmp_path / "nl.yaml"
    hand.write_text('region: wuhan\nplayers: ["A\\nB", C, D, E]\ndealer: C\n'
                    'win: {winner: D, by: discard, from: C}\nfans: {"A\\nB": x, C: 2, D: 3, E: 1}\n',
                    encoding="utf-8")
    done = runner.invoke(app, ["hand", str(hand)])
    assert done.exit_code == 2
    lines = done.output.splitlines()
    assert len(lines) == 3
    assert all(line.startswith("error: ") for line in lines)



def test_session_holds_at_most_sixteen_players(tmp_path: Path) -> None:
    """#9: hands 1-4 bring 16 players; hand 5 brings 4 more: it is refused (exit 2) and the
    totals stop after hand 4."""
    path = tmp_path / "many.yaml"
    path.write_text(new_players_session(6), encoding="utf-8")
    done = runner.invoke(app, ["session", str(path), "--format", "json"])
    assert done.exit_code == 2
    errors = [line for line in done.output.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {path}:27:1: hand {path}:5: players: a session holds at most 16 players; this hand "
                      "brings 20 (new here: P16, P17, P18, P19): start a new session file for another table"]


def test_session_of_sixteen_players_settles(tmp_path: Path) -> None:
    """16 distinct players are allowed (4 tables' worth): exit 0."""
    path = tmp_path / "sixteen.yaml"
    path.write_text(new_players_session(4), encoding="utf-8")
    assert runner.invoke(app, ["session", str(path)]).exit_code == 0


def _long_id_seconds(tmp_path: Path, size: int) -> float:
    path = tmp_path / f"id{size}.yaml"
    path.write_text(f"---\nid: {'x' * size}\nregion: wuhan\nplayers: [A, B, C, D]\ndealer: C\n"
                    "win: {winner: D, by: discard, from: A}\nfans: {A: 3, B: 2, C: 3, D: x}\n", encoding="utf-8")
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        done = runner.invoke(app, ["session", str(path), "--lang", "zh"])
        best = min(best, time.process_time() - start)
        assert done.exit_code == 2
    return best


def test_long_id_in_chinese_is_linear(tmp_path: Path) -> None:
    """#9: a bad hand whose id is 4n characters costs at most 6x one of n characters (not 16x), in Chinese."""
    small = _long_id_seconds(tmp_path, 8_000)
    large = _long_id_seconds(tmp_path, 32_000)
    assert large <= 6 * max(small, 0.005)
