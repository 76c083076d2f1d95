"""A word of another region's vocabulary (G14), or Rushan's 牛牌 (R9), worded in Chinese from the
problem's values: the English text names the owners, the Chinese names them too (no text parsed).

Before, ``--lang zh`` ended such a hand with "internal error: KeyError: 'value'" (exit 1): the problem
had no ``value`` for the Chinese template.  Expected words are written out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from settle import HandError, settle_hand
from settle.cli import _register_commands, app
from settle.render import problem_message

_register_commands()

RUSHAN_ALLOWED = ("pihu 屁胡, pengpenghu 碰碰胡, qidui 七对, tianhu 天胡, dihu 地胡, qingyise 清一色, "
                  "haidilao 海底捞, gangshanghua 杠上花, fengyise 风一色, mobao 摸宝, baozhongbao 宝中宝, "
                  "jiangyise 将一色, yitiaolong 一条龙, menqing 门清, qiangganghu 抢杠")


def _rushan_fan(word: str) -> dict[str, object]:
    return {"region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "A",
            "win": {"winner": "B", "by": "discard", "from": "A", "fans": [word]}}


def _problem(hand: dict[str, object]) -> object:
    with pytest.raises(HandError) as caught:
        settle_hand(hand)
    (problem,) = caught.value.problems
    return problem


def test_a_wuhan_word_in_a_rushan_hand() -> None:
    problem = _problem(_rushan_fan("hard"))  # 硬胡 is Wuhan's and Wuxue's, not Rushan's
    assert problem_message(problem, "en") == (  # type: ignore[arg-type]
        f"'hard' is not a rushan fan (it belongs to 武汉 wuhan, 武穴 wuxue); allowed: {RUSHAN_ALLOWED}")
    assert problem_message(problem, "zh") == (  # type: ignore[arg-type]
        f"'hard' 不是本地区的番种（它属于 武汉 wuhan、武穴 wuxue）；可用：{RUSHAN_ALLOWED}")


def test_niupai_is_not_modelled() -> None:
    problem = _problem(_rushan_fan("niu"))
    assert problem_message(problem, "zh") == (  # type: ignore[arg-type]
        "'niu'：牛牌（搂宝的牛牌）settle 没有建模，用到它的一局不能在这里结算，请在牌桌上结算（R9）")


def test_the_batch_in_chinese_reports_the_hand_and_settles_the_rest(tmp_path: Path) -> None:
    good = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": True, "id": "g"}
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps(_rushan_fan("hard")) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["batch", str(path), "--lang", "zh", "--format", "table"])
    assert result.exit_code == 2  # bad input, not a bug (1)
    assert "'hard' 不是本地区的番种（它属于 武汉 wuhan、武穴 wuxue）" in result.output
    assert "internal error" not in result.output
