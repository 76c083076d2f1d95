"""Wuxue legality (seed 000; W10, W11, W12, G7, G9): what makes a fact-level hand unsettleable."""

from __future__ import annotations

from settle.errors import Problem
from settle.model import NOBODY
from settle.rules.wuxue.liability import flush_names, needs_feeders
from settle.rules.wuxue.model import WuxueHand
from settle.rules.wuxue.term import TERM
from settle.rules.wuxue.vocab import PATTERNS


def check(hand: WuxueHand) -> list[Problem]:
    """Wuxue legality: one winner (无一炮多响); W12 屁胡 opens/门清 (not when the winner's total
    is given, G9); 包胡 (b) decidable (G7); no 包胡 on 抢杠胡 (W10).

    :func:`all_clear` decides first; the problems are made only for a hand it does not clear."""
    if all_clear(hand):
        return []
    return _problems(hand)


def _problems(hand: WuxueHand) -> list[Problem]:
    if isinstance(hand.win, list):
        return [Problem(("win",), "Wuxue has one winner per hand (无一炮多响): give `win` as a mapping",
                        kind="one_winner", values={"region": TERM.zh, "term": "无一炮多响"})]
    if hand.win is None:
        return []
    return [*_w12_problems(hand), *_liable_problems(hand)]


def all_clear(hand: WuxueHand) -> bool:
    """Whether :func:`check` has nothing to say about ``hand`` (the same conditions, in one read,
    building no message)."""
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes, read faster so)
    win = fields["win"]
    if win is None:
        return True
    if type(win) is list:
        return False
    facts = win.__dict__
    winner, by, liable, fans = facts["winner"], facts["by"], facts["liable"], facts["fans"]
    opens = fields["players"][winner].opens
    totals = fields["fans"]
    if (not opens and (totals is None or winner not in totals) and not (fields["options"].menqing and by == "self_draw")
            and not any(PATTERNS[k].kind == "big" for k in fans)):
        return False  # W12: a closed 屁胡 (with option menqing, one not self-drawn)
    if by == "robbed_kong":
        return liable is None or liable == NOBODY or liable == facts["from_"]  # W10
    # W11 b needs who fed the third open: a flush with a bare count of 3 or more opens
    return liable is not None or type(opens) is list or opens < 3 or not needs_feeders(hand)


def is_pihu(hand: WuxueHand) -> bool:
    """屁胡: the winner names no big hand (W2)."""
    return not any(PATTERNS[k].kind == "big" for k in hand.the_win.fans)


def _w12_problems(hand: WuxueHand) -> list[Problem]:
    win = hand.the_win
    if hand.explicit_total(win.winner) is not None or not is_pihu(hand) or hand.players[win.winner].open_count:
        return []
    if not hand.options.menqing:
        return [Problem(("players", win.winner, "opens"),
                        f"the winner {win.winner} has a 屁胡 (no big hand) and no open (开口); Wuxue needs an "
                        "open for a 屁胡 (W12; option menqing 门清 allows a closed self-drawn 屁胡, or give the "
                        "winner's jin total, G9)", kind="pihu_open", values={"winner": win.winner})]
    if win.by != "self_draw":
        return [Problem(("win", "by"),
                        f"with option menqing 门清 a closed 屁胡 must be self-drawn (自摸), not won by {win.by} "
                        f"({win.winner} has no open; W12)", kind="menqing_self_draw",
                        values={"winner": win.winner, "by": win.by})]
    return []


def _liable_problems(hand: WuxueHand) -> list[Problem]:
    win = hand.the_win
    if win.by == "robbed_kong" and win.liable not in (None, NOBODY, win.from_):
        return [Problem(("win", "liable"),
                        f"抢杠胡 has no 包胡: only the robbed player {win.from_} pays (W10, G11); "
                        "remove win.liable or set it to none", kind="qianggang_no_baohu", values={"robbed": win.from_})]
    if needs_feeders(hand):
        return [Problem(("players", win.winner, "opens"),
                        f"{'/'.join(flush_names(hand))} with {hand.players[win.winner].open_count} opens: 包胡 "
                        "needs who fed the third open; give opens as a list of feeders, or win.liable (W11 b, G7)",
                        kind="baohu_feeders", values={"flushes": "/".join(flush_names(hand)),
                                                      "opens": hand.players[win.winner].open_count})]
    return []
