"""Turn ``settle hand`` flags into the same plain hand document a file would give.

``--players A,B,C,D --dealer C --winner D --by discard --from A --fans A=3,B=2`` becomes
``{"region": ..., "players": {...}, "dealer": "C", "win": {...}, "fans": {...}}``, so
flags and files go through one validation and give the same result.
Malformed flag values raise :class:`~settle.errors.HandError` naming the flag.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from settle.errors import HandError


def hand_from_flags(flags: dict[str, Any]) -> dict[str, Any]:
    """The hand document described by the flags (see the module docstring)."""
    if not flags.get("region"):
        raise HandError.at(("region",), "give a hand file, or at least --region and --players")
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
    """``cap=300`` -> ``{"cap": 300}``; values read as YAML scalars (numbers, true/false, words)."""
    import yaml

    out = {}
    for key, value in _pairs(items, "--option"):
        try:
            out[key] = yaml.safe_load(value) if value else value
        except yaml.YAMLError:
            out[key] = value
    return out


def _names(players: str | None) -> list[str]:
    if not players:
        raise HandError.at(("players",), "missing: --players A,B,C,D (names in seating order)")
    names = [name.strip() for name in players.split(",")]
    if len(names) == 1 and len(names[0].split()) > 1:
        raise HandError.at(("players",), f"--players {players!r}: separate the names with commas, "
                                         f"e.g. --players {','.join(names[0].split())}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:  # a file's list is refused for this too; the mapping built here would drop the repeat
        raise HandError.at(("players",), f"--players lists {', '.join(map(repr, repeated))} more than once")
    return names


def _add_details(players: dict[str, dict[str, Any]], flags: dict[str, Any]) -> None:
    for name, value in _pairs(flags.get("opens") or (), "--opens"):
        feeders = [f.strip() for f in value.split(",")] if not value.strip().isdigit() else None
        _player(players, name, "--opens")["opens"] = feeders if feeders else int(value)
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
            raise HandError.at(("win",), f"{given} and --winner/--by describe two outcomes of one hand; give one")
        if not flags.get("winner"):
            raise HandError.at(("win", "winner"), "missing: --winner NAME (who won)")
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
        raise HandError.at(("players",), f"{flag} names {name!r}, who is not in --players ({', '.join(players)})")
    return players[name]


def _pairs(items: Iterable[str], flag: str) -> list[tuple[str, str]]:
    """``["A=3,B=2", "C=1"]`` -> ``[("A","3"), ("B","2"), ("C","1")]``; feeder lists stay whole."""
    out = []
    for item in items:
        for part in _split_pairs(item):
            name, sep, value = part.partition("=")
            if not sep or not name.strip():
                raise HandError.at((), f"{flag} {item!r}: expected NAME=VALUE")
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


def _int(value: str, flag: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise HandError.at((), f"{flag}: {value!r} is not a whole number") from None
