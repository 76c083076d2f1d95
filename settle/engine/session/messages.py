"""The Chinese words of the problems a session finds (:mod:`settle.engine.session.run`; issue 16 #9): a
header key that belongs in the hands, a hand after the game ended, a dealer the rotation cannot give, a
hand under another rule set, too many players, a file without a hand.

Each :class:`~settle.errors.Problem` built there has a ``kind`` and ``values``; :data:`PROBLEMS_ZH` words
it from the values alone (the English ``message`` stays as it is), for :func:`settle.render.problem_message`.
"""

from __future__ import annotations

from typing import Any

from settle.core import Template


def _header_key(values: Any, lang: str) -> str:
    dealer = "，第一局写明庄家" if values.raw("dealer") else ""
    return f"牌局表头不能有 `{values['key']}`（表头只放 region、options、players 和 id）；请写在各局里{dealer}"


PROBLEMS_ZH: dict[str, Template] = {
    "header_key": _header_key,
    "header_options": "options 必须是“选项: 值”的映射",
    "after_game_end": "牌局已经结束：{leaver} 在第 {hand} 局逃跑（H9）；这一局不计（新的一场牌请另开一个牌局文件）",
    "rotation_not_seated": "缺少：庄家（dealer）：轮庄轮到 {rotation}，但他不是这一局的玩家；请写明庄家",
    "other_region": "这个牌局按{session}规则打，这一局是{hand}：一个牌局是一桌人按一种规则打"
                    "（另一种规则请另开一个牌局文件）",
    "too_many_players": "一个牌局最多 {max} 位玩家；这一局一共 {count} 位（新来的：{new}）：另一桌请另开一个牌局文件",
    "no_hand": "文件里没有任何一局",
}
"""Problem ``kind`` -> its Chinese words, over the values a session gives it (``no_hand`` is also what
``settle serve`` says of an imported file without a hand)."""
