"""Wuhan 承包 (H7): who pays for everyone, by G11 priority (c) robbed kong > (a) 全求人 > (b) flush.

``win.liable`` overrides the rules (G7).  The flush rule (b) is the one H7 b and W11 b share
(:func:`settle.core.flush_liability`).
"""

from __future__ import annotations

from settle import core
from settle.core import Step
from settle.rules.liability import stated_liability
from settle.rules.wuhan.model import WuhanHand
from settle.rules.wuhan.vocab import LIABILITY, PATTERNS


def liable_player(hand: WuhanHand) -> tuple[str | None, Step | None]:
    """The 承包 player and the step that says why, or (None, None)."""
    win = hand.the_win
    stated = stated_liability(win.liable, LIABILITY)
    if stated is not None:
        return stated
    if win.by == "robbed_kong":
        return win.from_, Step("H7 c", "liable_robbed", {"term": LIABILITY, "player": win.from_})
    if "quanqiuren" in win.fans and win.by == "discard" and not hand.players[win.the_discarder].ready:
        return win.from_, Step("H7 a", "liable_unready", {"term": LIABILITY, "player": win.from_})
    return core.flush_liability(hand.players[win.winner], win.winner, flush_names(hand), LIABILITY, "H7 b") \
        or (None, None)


def flush_names(hand: WuhanHand) -> list[str]:
    """The flushes named that 承包 (b) covers: 清一色, or also 将一色/风一色 (option ``chengbao_yise``)."""
    keys = ("qingyise",) if hand.options.chengbao_yise == "qingyise" else ("qingyise", "jiangyise", "fengyise")
    return [PATTERNS[k].zh for k in keys if k in hand.the_win.fans]


def flush_trigger(hand: WuhanHand) -> bool:
    """H7 b: a flush (per chengbao_yise) with three or more opens."""
    return core.flush_triggers(hand.players[hand.the_win.winner], flush_names(hand))
