"""CSV rows of settled hands: one table per output, one row per hand and player (issue 16 #4).

Every CSV output of settle (``settle hand``, ``settle batch``, ``settle session`` with ``--format
csv``) is one table that a spreadsheet or ``pandas.read_csv`` reads as it is:

* one row per hand and player: the hand's ``id``, ``region`` and ``unit`` (番, 斤, 分), the player's
  ``seat`` (1-based, in seating order), ``player``, ``roles`` (role keys of
  :data:`settle.core.ROLES` separated by ``;``: ``dealer;discarder``), ``score`` (counted 番/斤, or a
  Rushan winner's hand points; empty where the region counts none) and ``net`` (points, signed);
* the same hand-level columns on each of its rows: ``winner`` (the winners separated by ``;`` under
  Rushan 一炮多响, R8), ``by`` (``self_draw``, ``discard``, ``robbed_kong``, or ``draw``/``abandon``
  when nobody won), ``from`` (the discarder or robbed player), ``dealer`` and ``liable`` (包牌/承包);
* a bad hand is one row: its ``id`` and ``error`` (each problem as ``PATH: message``, ``; `` between),
  the other cells empty, no player rows.

Cells hold the hand file's words (role keys, ``by`` values), whatever ``--lang``: a program reads them
as it reads the hand files.  A session's table adds ``hand`` (its 1-based number) first, ``total``
(the running total after the hand) after ``net`` and ``rotation_dealer`` (the dealer the rotation
gave, when it differs) after ``dealer`` (:data:`SESSION_COLUMNS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from settle.core import Settlement
from settle.errors import Problem, format_path

HAND_COLUMNS = ("id", "region", "unit", "seat", "player", "roles", "score", "net",
                "winner", "by", "from", "dealer", "liable", "error")
"""The columns of ``settle hand`` and ``settle batch`` CSV."""

SESSION_COLUMNS = ("hand", "id", "region", "unit", "seat", "player", "roles", "score", "net", "total",
                   "winner", "by", "from", "dealer", "rotation_dealer", "liable", "error")
"""The columns of ``settle session`` CSV."""

STANDING_COLUMNS = ("region", "unit", "player", "net", "hands", "won", "dealt_in", "liable", "capped", "golden")
"""The columns of ``--standings`` CSV: one row per region and player (issue 16 #5)."""


def hand_cells(result: Settlement) -> tuple[str, str, str, str, str]:
    """The hand-level cells ``(winner, by, from, dealer, liable)`` of a settled hand, from its roles.

    ``winner``: the winners in seat order joined by ``;``; ``by``: ``abandon`` when a player left (H9),
    ``draw`` when nobody won, else ``robbed_kong``, ``discard`` or ``self_draw``; ``from``: the robbed
    player or the discarder (empty on a self-draw, a draw or an abandon)."""
    roles = result.roles
    found: dict[str, str] = {}
    for name in result.players:
        for role in roles.get(name, ()):
            found.setdefault(role, name)
    winners = ";".join(name for name in result.players if "winner" in roles.get(name, ()))
    if "abandoned" in found:
        by, source = "abandon", ""
    elif not winners:
        by, source = "draw", ""
    elif "robbed" in found:
        by, source = "robbed_kong", found["robbed"]
    elif "discarder" in found:
        by, source = "discard", found["discarder"]
    else:
        by, source = "self_draw", ""
    return winners, by, source, found.get("dealer", ""), result.liable or ""


def player_cells(result: Settlement) -> list[tuple[int, str, str, int | str, int]]:
    """``(seat, player, roles, score, net)`` of each player in seating order (``roles`` joined by ``;``,
    ``score`` empty where the region counts none for the player)."""
    roles, scores, net = result.roles, result.scores, result.net
    return [(seat, name, ";".join(roles.get(name, ())), scores.get(name, ""), net[name])
            for seat, name in enumerate(result.players, 1)]


def hand_rows(label: str | int | None, result: Settlement) -> list[list[Any]]:
    """The :data:`HAND_COLUMNS` rows of one settled hand (``label``: its id, or ``file:index``; None: none)."""
    ident = "" if label is None else label
    winner, by, source, dealer, liable = hand_cells(result)
    region, unit = result.region, result.unit
    return [[ident, region, unit, seat, name, roles, score, net, winner, by, source, dealer, liable, ""]
            for seat, name, roles, score, net in player_cells(result)]


def error_text(problems: Iterable[Problem]) -> str:
    """The ``error`` cell of a bad hand: ``PATH: message`` of each problem, joined by ``; ``."""
    return "; ".join(f"{format_path(p.path)}: {p.message}" for p in problems)


def error_row(label: str | int | None, problems: Iterable[Problem], columns: int = len(HAND_COLUMNS),
              at: int = 0) -> list[Any]:
    """The one row of a bad hand: ``label`` in column ``at`` (the ``id``), :func:`error_text` in the last
    of ``columns``, every other cell empty."""
    row: list[Any] = [""] * columns
    row[at] = "" if label is None else label
    row[-1] = error_text(problems)
    return row


def session_rows(number: int, label: str | int, result: Settlement, totals: Mapping[str, int],
                 rotation: str | None) -> list[list[Any]]:
    """The :data:`SESSION_COLUMNS` rows of one settled hand of a session: ``number`` (1-based), the
    running ``totals`` after it and the ``rotation`` dealer (written only when it differs from the
    dealer)."""
    winner, by, source, dealer, liable = hand_cells(result)
    turn = rotation if rotation is not None and rotation != dealer else ""
    region, unit = result.region, result.unit
    return [[number, label, region, unit, seat, name, roles, score, net, totals.get(name, 0), winner, by, source,
             dealer, turn, liable, ""] for seat, name, roles, score, net in player_cells(result)]
