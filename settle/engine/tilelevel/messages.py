"""The Chinese words of the problems the tile-level settlement finds (:mod:`settle.engine.tilelevel`;
issue 16 #9): a hand's ``win.tiles`` that cannot be read, melds that disagree with the facts, a win no
reading of the tiles makes legal, ``settle check`` without tiles or claims.

Each :class:`~settle.errors.Problem` built there has a ``kind`` and ``values``; :data:`PROBLEMS_ZH` words
it from the values alone (the English ``message`` stays as it is), for :func:`settle.render.problem_message`.
"""

from __future__ import annotations

from typing import Any

from settle.core import Step, Template
from settle.tiles.fans import reason_text

MELDS_ZH = {"chow": "吃", "pung": "碰", "kong": "杠"}
"""The meld kinds of ``win.tiles.melds`` in Chinese."""


def _not_a_kong(values: Any, lang: str) -> str:
    meld = values.raw("meld")
    return f"只有杠才有杠的种类；这一组是{MELDS_ZH.get(meld, meld)}"


def _shown_opens(value: Any) -> str:
    """``2（由 B、C 喂牌）`` for a list of feeders, ``0`` for none, else the count."""
    if isinstance(value, list | tuple):
        return f"{len(value)}（由 {'、'.join(value)} 喂牌）" if value else "0"
    return str(value)


def _shown_kongs(kongs: Any) -> str:
    """``1 个明杠、2 个暗杠`` from (Chinese name, count) pairs; ``没有四张的杠`` for none."""
    shown = "、".join(f"{n} 个{zh}" for zh, n in kongs if n)
    return shown or "没有四张的杠"


def _opens_disagree(values: Any, lang: str) -> str:
    return (f"players.{values['winner']}.opens 是 {_shown_opens(values.raw('given'))}，但 {values['melds']} 给出 "
            f"{_shown_opens(values.raw('from_melds'))}（吃、碰、明杠，以及补杠下面的碰，G4）：两者必须一致")


def _kongs_disagree(values: Any, lang: str) -> str:
    return (f"players.{values['winner']}.kongs 给出 {_shown_kongs(values.raw('given'))}，但 {values['melds']} 给出 "
            f"{_shown_kongs(values.raw('from_melds'))}：两者必须一致")


def _not_a_legal_win(values: Any, lang: str) -> str:
    reasons: tuple[Step, ...] = values.raw("reasons")
    return f"{values['winner']} 的牌不是合法的胡牌：" + "；".join(reason_text(item, "zh") for item in reasons)


def _joined(values: Any, lang: str) -> str:
    """The words of several problems (``problems``) at one key, each as its own kind says it in the
    catalog the template is worded by (its English message where the catalog has no words), ``；`` between."""
    catalog = values.catalog
    known = catalog.kinds("zh")
    out = []
    for problem in values.raw("problems"):
        if problem.values is not None and problem.kind in known:
            out.append(str(catalog.text(Step("", problem.kind, {**problem.values, "path": problem.path}), "zh")))
        else:
            out.append(problem.message)
    return "；".join(out)


PROBLEMS_ZH: dict[str, Template] = {
    "check_needs_tiles": "缺少：`settle check` 拿桌上报的番和胡牌者的牌比对；请给出 win.tiles（hand、win_tile、"
                         "melds ...）",
    "check_needs_fans": "缺少：桌上报的番，如 fans: [qingyise]（空列表表示什么都没报）；不写时 `settle hand` "
                        "会从牌算出",
    "win_tile_missing": "缺少：胡的那张牌，`hand` 里的一张（如 win_tile: 5m）；它决定是不是胡在癞子/宝上，"
                        "以及摸宝（G7）",
    "kong_kind_missing": "缺少：杠的种类（exposed 明杠、added 补杠 或 concealed 暗杠）",
    "kong_kind_not_kong": _not_a_kong,
    "single_tile_kong_meld": "{zh} 是打出一张牌，不是四张的一组：请记在 players.{winner}.kongs 里",
    "concealed_kong_from": "暗杠不是从谁那里得来的：删掉 `from`（G3）",
    "meld_from_missing": "缺少：这一组是吃碰谁的牌；每个吃来的组（吃、碰、明杠、补杠）都写 `from`，"
                         "或都不写（那样开口只是个数）",
    "opens_disagree": _opens_disagree,
    "kongs_disagree": _kongs_disagree,
    "chow_not_before": "吃只能吃上家的牌：{winner} 的上家是 {before}，不是 {source}（G1）",
    "wildcard_copies": "牌里有 {held} 张{wild_name} {tile}，又打出 {played} 个{kong}，共 {total} 张：这种牌只有 4 张",
    "no_tile_play": "{region}没有牌面层级的算法：请写番，不要写 win.tiles",
    "not_a_legal_win": _not_a_legal_win,
    "joined": _joined,
}
"""Problem ``kind`` -> its Chinese words, over the values the tile-level settlement gives it."""
