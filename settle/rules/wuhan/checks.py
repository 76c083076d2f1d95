"""Wuhan legality (seed 004; H8, H12, G7, G9): what makes a fact-level hand unsettleable."""

from __future__ import annotations

from typing import Any

from settle.errors import Problem
from settle.rules.wuhan.liability import flush_names, flush_trigger
from settle.rules.wuhan.model import WuhanHand
from settle.rules.wuhan.options import WuhanOptions
from settle.rules.wuhan.term import TERM


def check(hand: WuhanHand) -> list[Problem]:
    """Wuhan legality: H8 ``require_open`` (not when the winner's total is given, G9);
    承包 (b) decidable (G7); 发财 kongs only with ``facai_gang``; lists of wins (R8 is Rushan).

    :func:`all_clear` decides first, building no message; the problems are made only for a hand
    it does not clear."""
    if all_clear(hand):
        return []
    return _problems(hand)


def all_clear(hand: WuhanHand) -> bool:
    """Whether :func:`check` has nothing to say about ``hand`` (the same conditions, in one read)."""
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes, read faster so)
    win = fields["win"]
    options = fields["options"]
    last = _LAST_OPTIONS
    facai_gang, require_open = last[1] if options is last[0] else _read_options(options)
    players = fields["players"]
    if type(win) is list or (not facai_gang and any(p.kongs.get("facai") for p in players.values())):
        return False
    if win is None:
        return True
    facts = win.__dict__
    winner = facts["winner"]
    opens = players[winner].opens
    totals = fields["fans"]
    if not opens and require_open and (totals is None or winner not in totals):
        return False  # H8: no open
    # 承包 (b) needs who fed the third open: a flush with a bare count of 3 or more opens
    return facts["liable"] is not None or type(opens) is list or opens < 3 or not flush_trigger(hand)


_LAST_OPTIONS: tuple[Any, tuple[bool, bool]] = (None, (True, True))
"""The options model :func:`all_clear` read last and its ``(facai_gang, require_open)`` (a batch
repeats one options model, the shared default, hand after hand; replaced whole, so that a reader
never sees an options model with another one's values)."""


def _read_options(options: WuhanOptions) -> tuple[bool, bool]:
    global _LAST_OPTIONS
    read = options.facai_gang, options.require_open
    _LAST_OPTIONS = (options, read)
    return read


def _problems(hand: WuhanHand) -> list[Problem]:
    problems = []
    if isinstance(hand.win, list):
        problems.append(Problem(("win",), "Wuhan has one winner per hand (一炮单响): give `win` as a mapping",
                                kind="one_winner", values={"region": TERM.zh, "term": "一炮单响"}))
        return problems
    if not hand.options.facai_gang:
        problems += [Problem(("players", n, "kongs", "facai"), "发财杠 needs option facai_gang (H12)",
                             kind="facai_gang", values={})
                     for n, p in hand.players.items() if p.kong_count("facai")]
    if hand.win is not None:
        problems += _win_problems(hand)
    return problems


def _win_problems(hand: WuhanHand) -> list[Problem]:
    win = hand.the_win
    winner = hand.players[win.winner]
    out = []
    if hand.options.require_open and hand.explicit_total(win.winner) is None and not winner.open_count:
        out.append(Problem(("players", win.winner, "opens"),
                           f"the winner {win.winner} has no open (开口); Wuhan requires one to win "
                           "(H8; option require_open: false, or give the winner's fans total, G9)",
                           kind="require_open", values={"winner": win.winner}))
    if win.liable is None and flush_trigger(hand) and winner.feeders is None:
        out.append(Problem(("players", win.winner, "opens"),
                           f"{'/'.join(flush_names(hand))} with {winner.open_count} opens: 承包 needs "
                           "who fed the third open; give opens as a list of feeders, or win.liable (H7 b, G7)",
                           kind="chengbao_feeders",
                           values={"flushes": "/".join(flush_names(hand)), "opens": winner.open_count}))
    return out
