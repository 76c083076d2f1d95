"""Wuxue 包胡 (W11): who pays for everyone, by G11 priority (a) 全求人 > (b) 一色包牌.

``win.liable`` overrides the rules (G7); 抢杠胡 has no 包胡 (W10).  The flush rule (b) is the one
H7 b and W11 b share (:func:`settle.core.flush_liability`).
"""

from __future__ import annotations

from settle import core
from settle.core import Step
from settle.rules.liability import stated_liability
from settle.rules.wuxue.model import WuxueHand
from settle.rules.wuxue.vocab import LIABILITY, PATTERNS


def liable_player(hand: WuxueHand) -> tuple[str | None, Step | None]:
    """The 包胡 player and the step that says why, or (None, None).  Not called on 抢杠胡 (W10)."""
    win = hand.the_win
    stated = stated_liability(win.liable, LIABILITY)
    if stated is not None:
        return stated
    if quanqiuren_trigger(hand):
        return win.from_, Step("W11 a", "liable_quanqiuren", {"term": LIABILITY, "player": win.from_})
    return core.flush_liability(hand.players[win.winner], win.winner, flush_names(hand), LIABILITY, "W11 b") \
        or (None, None)


def quanqiuren_trigger(hand: WuxueHand) -> bool:
    """W11 a: 全求人 won on a discard."""
    win = hand.the_win
    return "quanqiuren" in win.fans and win.by == "discard"


def flush_names(hand: WuxueHand) -> list[str]:
    """The flushes named that 包胡 (b) covers: 清一色, 将一色, 风一色."""
    return [PATTERNS[k].zh for k in ("qingyise", "jiangyise", "fengyise") if k in hand.the_win.fans]


def flush_trigger(hand: WuxueHand) -> bool:
    """W11 b: 清一色/将一色/风一色 with three or more opens (暗杠 is not an open)."""
    return core.flush_triggers(hand.players[hand.the_win.winner], flush_names(hand))


def needs_feeders(hand: WuxueHand) -> bool:
    """W11 b decides the liable player but ``opens`` is a bare count (G7); not when W10 or
    W11 a (G11) or ``win.liable`` decides instead."""
    win = hand.the_win
    return (win.by != "robbed_kong" and win.liable is None and not quanqiuren_trigger(hand)
            and flush_trigger(hand) and hand.players[win.winner].feeders is None)
