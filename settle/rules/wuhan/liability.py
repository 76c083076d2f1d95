"""Wuhan 承包 (H7): who pays for everyone, by G11 priority (c) robbed kong > (a) 全求人 > (b) flush.

``win.liable`` overrides the rules (G7).  The flush rule (b) is the one H7 b and W11 b share
(:func:`settle.core.third_open_feeder`).
"""

from __future__ import annotations

from settle import core
from settle.core import Step
from settle.model import NOBODY
from settle.rules.wuhan.model import WuhanHand
from settle.rules.wuhan.vocab import LIABILITY, PATTERNS


def liable_player(hand: WuhanHand) -> tuple[str | None, Step | None]:
    """The 承包 player and the step that says why, or (None, None)."""
    win = hand.the_win
    if win.liable is not None:
        if win.liable == NOBODY:
            return None, None
        return win.liable, Step("G7", "liable_stated", {"term": LIABILITY})
    if win.by == "robbed_kong":
        return win.from_, Step("H7 c", "liable_robbed", {"term": LIABILITY, "player": win.from_})
    if "quanqiuren" in win.fans and win.by == "discard" and not hand.players[win.the_discarder].ready:
        return win.from_, Step("H7 a", "liable_unready", {"term": LIABILITY, "player": win.from_})
    names = flush_names(hand)
    feeder = core.third_open_feeder(hand.players[win.winner], names)
    if feeder is not None:
        return feeder, core.liable_flush_step(LIABILITY, "H7 b", feeder, win.winner, names)
    return None, None


def flush_names(hand: WuhanHand) -> list[str]:
    """The flushes named that 承包 (b) covers: 清一色, or also 将一色/风一色 (option ``chengbao_yise``)."""
    keys = ("qingyise",) if hand.options.chengbao_yise == "qingyise" else ("qingyise", "jiangyise", "fengyise")
    return [PATTERNS[k].zh for k in keys if k in hand.the_win.fans]


def flush_trigger(hand: WuhanHand) -> bool:
    """H7 b: a flush (per chengbao_yise) with three or more opens."""
    return core.flush_triggers(hand.players[hand.the_win.winner], flush_names(hand))
