"""Rushan legality (seed 003; R5, R8, R9, G10): what makes a fact-level hand unsettleable."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from settle.errors import Path, Problem
from settle.model import NOBODY
from settle.rules.checks import win_path
from settle.rules.rushan.model import RushanHand, RushanWin
from settle.rules.rushan.options import RushanOptions

SELF_DRAW_ONLY: dict[str, str] = {"loubao": "搂宝", "minglou": "明搂"}
"""Options under which every win is a self-draw after 报听 (R9)."""


FanRule = tuple[Callable[[RushanHand, RushanWin], bool], str]

FAN_RULES: dict[str, FanRule] = {
    "tianhu": (lambda h, w: w.winner == h.dealer,
               "天胡 tianhu is only the dealer's self-draw; {winner} is not the dealer {dealer} (G10)"),
    "dihu": (lambda h, w: w.winner != h.dealer,
             "地胡 dihu is only a non-dealer's win; {winner} is the dealer (G10)"),
    "jiangyise": (lambda h, w: h.options.jiang258,
                  "将一色 jiangyise needs options.jiang258 (258将) on (R9)"),
    "fengyise": (lambda h, w: not h.options.no_honors,
                 "风一色 fengyise is impossible with options.no_honors (不带风) on (R9)"),
    "mobao": (lambda h, w: h.options.loubao, "摸宝 mobao needs options.loubao (搂宝) on (R9)"),
    "baozhongbao": (lambda h, w: h.options.loubao, "宝中宝 baozhongbao needs options.loubao (搂宝) on (R9)"),
    "menqing": (lambda h, w: not h.options.menqing_yitiaolong or is_menqing(h, w),
                "门清 menqing needs a self-draw with no open (吃/碰/明杠); {winner} won by {by} with "
                "{opens} open(s) (R3, G10)"),
}
"""Fan name -> (fits this hand?, message): G10 and R9 legality of each named item (the problem's kind is
``fan_rule:<fan>``, its Chinese words :data:`settle.rules.rushan.messages.FAN_RULES_ZH`)."""


def check(hand: RushanHand) -> list[Problem]:
    """Rushan legality: R8 several winners, G10 and R9 fits of each win, no 包牌.

    Returns the problems, each at the key it is about (``win``, ``win.by``, ``win.fans[i]``).
    :func:`all_clear` decides first; the problems are made only for a hand it does not clear.
    """
    if all_clear(hand):
        return []
    return _problems(hand)


def _problems(hand: RushanHand) -> list[Problem]:
    problems = list(_several_wins(hand))
    for i, win in enumerate(hand.wins):
        problems += _win_problems(hand, win, win_path(hand, i))
    return problems


def all_clear(hand: RushanHand) -> bool:
    """Whether :func:`check` has nothing to say about ``hand`` (the same conditions, in one read,
    building no message)."""
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes, read faster so)
    win = fields["win"]
    if win is None:
        return True
    options = fields["options"]
    last = _LAST_OPTIONS
    multi_win, self_draw_only = last[1] if options is last[0] else _read_options(options)
    wins = win if type(win) is list else (win,)
    if len(wins) > 1 and not multi_win:
        return False
    for win in wins:
        facts = win.__dict__
        liable = facts["liable"]
        if (self_draw_only and facts["by"] != "self_draw") or (liable is not None and liable != NOBODY):
            return False
        for key in facts["fans"]:
            rule = FAN_RULES.get(key)
            if rule is not None and not rule[0](hand, win):
                return False
    return True


_LAST_OPTIONS: tuple[Any, tuple[bool, bool]] = (None, (False, False))
"""The options model :func:`all_clear` read last and its ``(multi_win, any of SELF_DRAW_ONLY)`` (a batch
repeats one options model, the shared default, hand after hand; replaced whole, so that a reader
never sees an options model with another one's values)."""


def _read_options(options: RushanOptions) -> tuple[bool, bool]:
    global _LAST_OPTIONS
    read = options.multi_win, any([getattr(options, key) for key in SELF_DRAW_ONLY])
    _LAST_OPTIONS = (options, read)
    return read


def _several_wins(hand: RushanHand) -> Iterable[Problem]:
    wins = hand.wins
    if len(wins) > 1 and not hand.options.multi_win:
        yield Problem(("win",), f"{len(wins)} winners need options.multi_win (一炮多响) on; "
                                "without it only one player wins (R8)", kind="multi_win", values={"count": len(wins)})


def _win_problems(hand: RushanHand, win: RushanWin, path: Path) -> list[Problem]:
    out = [Problem((*path, "by"), f"options.{key} ({zh}) allows only self-draw wins after 报听, "
                                  f"not {win.by} (R9)", kind="self_draw_only",
                   values={"option": key, "zh": zh, "by": win.by})
           for key, zh in SELF_DRAW_ONLY.items() if getattr(hand.options, key) and win.by != "self_draw"]
    facts = {"winner": win.winner, "dealer": hand.dealer, "by": win.by,
             "opens": hand.players[win.winner].open_count}
    for j, key in enumerate(win.fans):
        if key in FAN_RULES and not FAN_RULES[key][0](hand, win):
            out.append(Problem((*path, "fans", j), FAN_RULES[key][1].format(**facts), kind=f"fan_rule:{key}",
                               values=facts))
    if win.liable not in (None, NOBODY):
        out.append(Problem((*path, "liable"), "Rushan has no 包牌: remove win.liable (R5)", kind="no_baopai",
                           values={}))
    return out


def is_menqing(hand: RushanHand, win: RushanWin) -> bool:
    """门清: a self-draw by a winner with no 吃/碰/明杠 (opens count them all, G4; R3)."""
    return win.by == "self_draw" and hand.players[win.winner].open_count == 0
