"""Wuxue 包胡 (W11): who pays for everyone, by G11 priority (a) 全求人 > (b) 一色包牌.

``win.liable`` overrides the rules (G7); 抢杠胡 has no 包胡 (W10).  The flush rule (b) is the one
H7 b and W11 b share (:func:`settle.core.flush_liability`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from settle import core
from settle.core import Step
from settle.core.machinery import kept
from settle.model import single_win
from settle.rules.liability import Liability, given_liability
from settle.rules.wuxue.model import WuxueHand, WuxuePlayer, WuxueWin
from settle.rules.wuxue.vocab import LIABILITY, PATTERNS

FLUSH_KEYS = ("qingyise", "jiangyise", "fengyise")
"""The flushes 包胡 (b) covers (W11 b)."""


_QUANQIUREN: dict[str | None, Step] = {}
"""The discarder -> the step of W11 a, kept."""


def liable_player(hand: WuxueHand, win: WuxueWin) -> Liability:
    """The 包胡 player of ``win`` (the hand's win) and the step that says why, or (None, None).
    Not called on 抢杠胡 (W10)."""
    return liable_of(hand, win, win.liable, hand.players, win.winner, win.by, win.fans)


NO_ONE: Liability = (None, None)
"""Nobody is liable."""


def liable_of(hand: WuxueHand, win: WuxueWin, liable: str | None, players: Mapping[str, WuxuePlayer], winner: str,
              by: str, fans: Sequence[str]) -> Liability:
    """:func:`liable_player` with the win's facts read: ``liable`` (as given), ``players`` (the hand's),
    ``winner``, ``by`` and the fans named."""
    if liable is not None:
        return given_liability(liable, LIABILITY)
    if by == "discard" and "quanqiuren" in fans:  # W11 a
        source = win.from_
        step = _QUANQIUREN.get(source)
        if step is None:
            step = kept(_QUANQIUREN, source, Step("W11 a", "liable_quanqiuren", {"term": LIABILITY, "player": source}))
        return source, step
    player = players[winner]
    opens = player.opens
    if (len(opens) if isinstance(opens, list) else opens) < 3:  # (b) needs a third open: no flush to look for
        return NO_ONE
    return core.flush_liability(player, winner, _flush_names(win), LIABILITY, "W11 b") or NO_ONE


def quanqiuren_trigger(hand: WuxueHand) -> bool:
    """W11 a: 全求人 won on a discard."""
    return _quanqiuren(single_win(hand.win))


def _quanqiuren(win: WuxueWin) -> bool:
    return "quanqiuren" in win.fans and win.by == "discard"


def flush_names(hand: WuxueHand) -> list[str]:
    """The flushes named that 包胡 (b) covers: 清一色, 将一色, 风一色."""
    return _flush_names(single_win(hand.win))


def _flush_names(win: WuxueWin) -> list[str]:
    fans = win.fans
    return [PATTERNS[k].zh for k in FLUSH_KEYS if k in fans]


def flush_trigger(hand: WuxueHand) -> bool:
    """W11 b: 清一色/将一色/风一色 with three or more opens (暗杠 is not an open)."""
    win = single_win(hand.win)
    return core.flush_triggers(hand.players[win.winner], _flush_names(win))


def needs_feeders(hand: WuxueHand) -> bool:
    """W11 b decides the liable player but ``opens`` is a bare count (G7); not when W10 or
    W11 a (G11) or ``win.liable`` decides instead."""
    win = single_win(hand.win)
    return (win.by != "robbed_kong" and win.liable is None and not _quanqiuren(win)
            and flush_trigger(hand) and hand.players[win.winner].feeders is None)
