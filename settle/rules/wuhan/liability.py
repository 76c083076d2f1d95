"""Wuhan 承包 (H7): who pays for everyone, by G11 priority (c) robbed kong > (a) 全求人 > (b) flush.

``win.liable`` overrides the rules (G7).  The flush rule (b) is the one H7 b and W11 b share
(:func:`settle.core.flush_liability`).
"""

from __future__ import annotations

from collections.abc import Mapping

from settle import core
from settle.core import Step
from settle.core.machinery import kept
from settle.model import single_win
from settle.rules.liability import Liability, given_liability
from settle.rules.wuhan.model import WuhanHand, WuhanPlayer, WuhanWin
from settle.rules.wuhan.vocab import LIABILITY, PATTERNS

FLUSH_KEYS = {"qingyise": ("qingyise",), "all": ("qingyise", "jiangyise", "fengyise")}
"""Option ``chengbao_yise`` -> the flushes 承包 (b) covers (H7 b)."""


_REASONS: dict[tuple[str, str | None], Step] = {}
"""(kind, player) -> the step of H7 c (``liable_robbed``) or H7 a (``liable_unready``), kept."""


def liable_player(hand: WuhanHand, win: WuhanWin) -> Liability:
    """The 承包 player of ``win`` (the hand's win) and the step that says why, or (None, None)."""
    return liable_of(hand, win, win.liable, hand.players, win.winner, win.by, win.from_, "quanqiuren" in win.fans)


NO_ONE: Liability = (None, None)
"""Nobody is liable."""


def liable_of(hand: WuhanHand, win: WuhanWin, liable: str | None, players: Mapping[str, WuhanPlayer], winner: str,
              by: str, source: str | None, quanqiuren: bool) -> Liability:
    """:func:`liable_player` with the win's facts read: ``liable`` (as given), ``players`` (the hand's),
    ``winner``, ``by``, ``source`` (``from``) and whether 全求人 is named."""
    if liable is not None:
        return given_liability(liable, LIABILITY)
    if by == "robbed_kong":
        return source, _reason("H7 c", "liable_robbed", source)
    if by == "discard" and quanqiuren and not players[win.the_discarder].ready:
        return source, _reason("H7 a", "liable_unready", source)
    player = players[winner]
    opens = player.opens
    if (len(opens) if isinstance(opens, list) else opens) < 3:  # (b) needs a third open: no flush to look for
        return NO_ONE
    return core.flush_liability(player, winner, _flush_names(hand, win), LIABILITY, "H7 b") or NO_ONE


def _reason(rule: str, kind: str, player: str | None) -> Step:
    key = (kind, player)
    step = _REASONS.get(key)
    if step is None:
        step = kept(_REASONS, key, Step(rule, kind, {"term": LIABILITY, "player": player}))
    return step


def flush_names(hand: WuhanHand) -> list[str]:
    """The flushes named that 承包 (b) covers: 清一色, or also 将一色/风一色 (option ``chengbao_yise``)."""
    return _flush_names(hand, single_win(hand.win))


def _flush_names(hand: WuhanHand, win: WuhanWin) -> list[str]:
    fans = win.fans
    return [PATTERNS[k].zh for k in FLUSH_KEYS[hand.options.chengbao_yise] if k in fans]


def flush_trigger(hand: WuhanHand) -> bool:
    """H7 b: a flush (per chengbao_yise) with three or more opens."""
    win = single_win(hand.win)
    return core.flush_triggers(hand.players[win.winner], _flush_names(hand, win))
