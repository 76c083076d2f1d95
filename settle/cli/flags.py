"""Turn ``settle hand`` flags into the same plain hand document a file would give.

``--players A,B,C,D --dealer C --winner D --by discard --from A --fans A=3,B=2`` becomes
``{"region": ..., "players": {...}, "dealer": "C", "win": {...}, "fans": {...}}``, so
flags and files go through one validation and give the same result.
Malformed flag values raise :class:`~settle.errors.HandError` naming the flag.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from settle.errors import HandError


def hand_from_flags(flags: dict[str, Any]) -> dict[str, Any]:
    """The hand document described by the flags (see the module docstring)."""
    if not flags.get("region"):
        raise HandError.at(("region",), "give a hand file, or at least --region and --players", kind="flag_no_hand",
                           values={})
    names = _names(flags.get("players"))
    players: dict[str, dict[str, Any]] = {name: {} for name in names}
    _add_details(players, flags)
    data: dict[str, Any] = {"region": flags["region"], "players": players}
    if flags.get("dealer"):
        data["dealer"] = flags["dealer"]
    if flags.get("fans"):
        data["fans"] = {name: _int(value, "--fans") for name, value in _pairs(flags["fans"], "--fans")}
    data.update(_outcome(flags))
    return data


def parse_options(items: Iterable[str]) -> dict[str, Any]:
    """``cap=300`` -> ``{"cap": 300}``; values read as YAML scalars (numbers, true/false, words).

    A value YAML cannot construct (a tag that does not fit it, ``cap=!!bool x``; a number of more
    than 4,300 digits) raises :class:`HandError` at ``options.KEY`` (issue 15 #7); one it cannot
    parse stays text, as before.
    """
    import yaml

    out = {}
    for key, value in _pairs(items, "--option"):
        try:
            out[key] = yaml.safe_load(value) if value else value
        except yaml.YAMLError:
            out[key] = value
        except Exception:  # PyYAML's constructors raise ValueError, KeyError, IndexError ... for such values
            shown = value if len(value) <= 40 else value[:40] + "…"
            raise HandError.at(("options", key), f"--option {key}={shown}: the value cannot be read "
                                                 "(a YAML tag that does not fit it, or a number too long)",
                               kind="flag_option_unreadable", values={"key": key, "shown": shown}) from None
    return out


def _names(players: str | None) -> list[str]:
    if not players:
        raise HandError.at(("players",), "missing: --players A,B,C,D (names in seating order)",
                           kind="flag_players_missing", values={})
    names = [name.strip() for name in players.split(",")]
    if len(names) == 1 and len(names[0].split()) > 1:
        example = ",".join(names[0].split())
        raise HandError.at(("players",), f"--players {players!r}: separate the names with commas, "
                                         f"e.g. --players {example}",
                           kind="flag_players_commas", values={"given": players, "example": example})
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:  # a file's list is refused for this too; the mapping built here would drop the repeat
        raise HandError.at(("players",), f"--players lists {', '.join(map(repr, repeated))} more than once",
                           kind="flag_players_repeat", values={"names": tuple(repeated)})
    return names


def _add_details(players: dict[str, dict[str, Any]], flags: dict[str, Any]) -> None:
    for name, value in _pairs(flags.get("opens") or (), "--opens"):
        # ASCII digits only: '²'.isdigit() is true, and int('²') fails (issue 15 #7)
        feeders = None if _DIGITS.fullmatch(value) else [f.strip() for f in value.split(",")]
        _player(players, name, "--opens")["opens"] = feeders if feeders else _int(value, "--opens")
    for name, value in _pairs(flags.get("kong") or (), "--kong"):
        kind, _, count = value.partition(":")
        kongs = _player(players, name, "--kong").setdefault("kongs", {})
        kongs[kind.strip()] = kongs.get(kind.strip(), 0) + (_int(count, "--kong") if count else 1)
    for name in flags.get("ready") or ():
        _player(players, name, "--ready")["ready"] = True
    for name, value in _pairs(flags.get("fish") or (), "--fish"):
        _player(players, name, "--fish")["fish"] = _int(value, "--fish")


def _outcome(flags: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if flags.get("draw"):
        out["draw"] = True
    if flags.get("abandon"):
        out["abandon"] = {"by": flags["abandon"]}
    if flags.get("winner") or flags.get("by"):
        if flags.get("draw") or flags.get("abandon"):
            given = "--draw" if flags.get("draw") else "--abandon"
            raise HandError.at(("win",), f"{given} and --winner/--by describe two outcomes of one hand; give one",
                               kind="flag_two_outcomes", values={"given": given})
        if not flags.get("winner"):
            raise HandError.at(("win", "winner"), "missing: --winner NAME (who won)", kind="flag_winner_missing",
                               values={})
        # Nothing is guessed (G7): without --by the hand is refused at win.by, as a file would be.
        win: dict[str, Any] = {"winner": flags["winner"]}
        if flags.get("by"):
            win["by"] = flags["by"]
        if flags.get("from"):
            win["from"] = flags["from"]
        if flags.get("fan"):
            win["fans"] = [f.strip() for item in flags["fan"] for f in item.split(",")]
        if flags.get("liable"):
            win["liable"] = flags["liable"]
        out["win"] = win
    return out


def _player(players: dict[str, dict[str, Any]], name: str, flag: str) -> dict[str, Any]:
    if name not in players:
        raise HandError.at(("players",), f"{flag} names {name!r}, who is not in --players ({', '.join(players)})",
                           kind="flag_not_a_player", values={"flag": flag, "name": name, "players": tuple(players)})
    return players[name]


def _pairs(items: Iterable[str], flag: str) -> list[tuple[str, str]]:
    """``["A=3,B=2", "C=1"]`` -> ``[("A","3"), ("B","2"), ("C","1")]``; feeder lists stay whole."""
    out = []
    for item in items:
        for part in _split_pairs(item):
            name, sep, value = part.partition("=")
            if not sep or not name.strip():
                raise HandError.at((), f"{flag} {item!r}: expected NAME=VALUE", kind="flag_pair",
                                   values={"flag": flag, "item": item})
            out.append((name.strip(), value.strip()))
    return out


def _split_pairs(item: str) -> list[str]:
    """Split ``A=3,B=2`` at commas that start a new ``NAME=``; ``D=A,B,C`` stays one pair."""
    parts: list[str] = []
    for chunk in item.split(","):
        if "=" in chunk or not parts:
            parts.append(chunk)
        else:
            parts[-1] += "," + chunk
    return parts


_DIGITS = re.compile(r"[0-9]+")
_WHOLE = re.compile(r"[+-]?[0-9]+")
_MOST_DIGITS = 18
"""A flag's number has at most this many digits (every count and amount is far smaller)."""


def _int(value: str, flag: str) -> int:
    """A flag's whole number: ASCII digits with an optional sign (``int`` alone takes '٣' and
    fails on 5,000 digits); raises :class:`HandError` naming the flag otherwise."""
    text = value.strip()
    if not _WHOLE.fullmatch(text):
        raise HandError.at((), f"{flag}: {value!r} is not a whole number", kind="flag_not_whole",
                           values={"flag": flag, "value": value})
    if len(text.lstrip("+-")) > _MOST_DIGITS:
        raise HandError.at((), f"{flag}: a number of {len(text.lstrip('+-'))} digits is far too large",
                           kind="flag_too_many_digits", values={"flag": flag, "digits": len(text.lstrip("+-"))})
    return int(text)
