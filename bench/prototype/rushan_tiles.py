"""A scratch prototype, not part of settle: the leanest path for issue 14's tile target that I could
imagine, to measure what a lean design costs against today's (the brief: "a floor of today's design is
not a floor").  settle never imports it; it settles only the bench's hands: Rushan (seed 003, R1 R2 R5
R10), wildcard-free, 14 concealed tiles, self-draw, no melds, options or situations, four players.

Per line: pydantic ``TypeAdapter`` of a strict ``TypedDict`` validates the bytes; the hand text becomes
34 counts; per-suit tables of every complete suit shape (built once at first use from the melds, about
0.07 s) give each suit's decompositions; the readings are combined across suits, plus seven pairs; fans
and points on ints; the best reading of each distinct fan set (the lowest pair first, as settle shows
it); the JSON line from texts kept per shape (the table, the winner, the fans considered: names already
in), with the id and the groups put in last.  On the bench's 5,000 hands its output is byte for byte
``settle batch --format jsonl``'s (``compare_tiles.py`` checks it).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product
from typing import Literal

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict


@with_config(ConfigDict(extra="forbid", strict=True))
class Tiles(TypedDict):
    hand: str
    win_tile: str


@with_config(ConfigDict(extra="forbid", strict=True))
class Win(TypedDict):
    winner: str
    by: Literal["self_draw"]
    tiles: Tiles


@with_config(ConfigDict(extra="forbid", strict=True))
class Hand(TypedDict):
    region: Literal["rushan"]
    players: list[str]
    dealer: str
    id: int | str
    win: Win


HAND = TypeAdapter(Hand)

SUITS = {"m": 0, "p": 9, "s": 18, "z": 27}
LETTER = "mpsz"

# --- per-suit tables: every complete shape of one suit -> its decompositions (groups as tile tuples) ----


def _suit_table(size: int, chows: bool) -> dict[tuple[int, ...], list[tuple[tuple[int, ...], ...]]]:
    melds = [(i, i, i) for i in range(size)]
    if chows:
        melds += [(i, i + 1, i + 2) for i in range(size - 2)]
    table: dict[tuple[int, ...], list[tuple[tuple[int, ...], ...]]] = {}
    pairs: list[tuple[int, ...] | None] = [None, *((i, i) for i in range(size))]
    for k in range(5):
        for combo in combinations_with_replacement(melds, k):
            for pair in pairs:
                counts = [0] * size
                groups = list(combo) + ([pair] if pair else [])
                for group in groups:
                    for t in group:
                        counts[t] += 1
                if max(counts, default=0) > 4:
                    continue
                key = tuple(counts)
                found = table.setdefault(key, [])
                shape = tuple(sorted(groups))
                if shape not in found:
                    found.append(shape)
    return table


_TABLES: list[dict[tuple[int, ...], list[tuple[tuple[int, ...], ...]]]] = []


def tables() -> list[dict[tuple[int, ...], list[tuple[tuple[int, ...], ...]]]]:
    if not _TABLES:
        suited = _suit_table(9, True)
        _TABLES.extend([suited, suited, suited, _suit_table(7, False)])
    return _TABLES


def counts_of(text: str) -> list[int] | None:
    counts = [0] * 34
    digits: list[int] = []
    for ch in text:
        if "1" <= ch <= "9":
            digits.append(ord(ch) - 49)
        elif ch in SUITS:
            base = SUITS[ch]
            for d in digits:
                if ch == "z" and d > 6:
                    return None
                counts[base + d] += 1
            digits = []
        else:
            return None
    return None if digits else counts


def tile_text(t: int) -> str:
    return f"{t % 9 + 1}{LETTER[t // 9]}"


def group_text(group: tuple[int, ...]) -> str:
    return "".join(str(t % 9 + 1) for t in group) + LETTER[group[0] // 9]


# --- fans (R1 R2, default options) ----------------------------------------------------------------------

ZH = {"pihu": "屁胡", "pengpenghu": "碰碰胡", "qidui": "七对", "qingyise": "清一色", "fengyise": "风一色"}
VALUE = {"pihu": 1, "pengpenghu": 2, "qidui": 2, "qingyise": 2, "fengyise": 2}


_Found = tuple[int, tuple[str, ...], str, tuple[tuple[int, ...], ...]]
"""A reading found: (points, fans, shape, groups)."""


def readings(counts: list[int]) -> list[_Found]:
    """(points, fans, shape, groups) of each legal reading, one per distinct fan set (the first met)."""
    tabs = tables()
    per_suit: list[list[tuple[tuple[int, ...], ...]]] = []
    winnable = True
    for s in range(4):
        key = tuple(counts[s * 9: s * 9 + (7 if s == 3 else 9)])
        if any(key):
            shapes = tabs[s].get(key)
            if shapes is None:
                winnable = False
                break
            per_suit.append([tuple(tuple(t + s * 9 for t in g) for g in shape) for shape in shapes])
    suits_used = [s for s in range(4) if any(counts[s * 9: s * 9 + 9])]
    one_suit = len(suits_used) == 1 and suits_used[0] != 3
    honours = suits_used == [3]
    found: dict[tuple[str, ...], tuple[int, tuple[str, ...], str, tuple[tuple[int, ...], ...]]] = {}
    if winnable:
        for combo in product(*per_suit):
            groups = tuple(sorted(g for part in combo for g in part))
            if sum(1 for g in groups if len(g) == 2) != 1:
                continue
            pungs = all(len(g) == 2 or g[0] == g[1] for g in groups)
            base = "pengpenghu" if pungs else "pihu"
            fans = (base, "qingyise") if one_suit else (base, "fengyise") if honours else (base,)
            pair = next(g for g in groups if len(g) == 2)
            old = found.get(fans)
            if old is None or (pair, groups) < (next(g for g in old[3] if len(g) == 2), old[3]):
                points = 1
                for f in fans:
                    points *= VALUE[f]
                found[fans] = (points, fans, "standard", groups)
    if all(c % 2 == 0 for c in counts):
        groups = tuple((t, t) for t in range(34) for _ in range(counts[t] // 2))
        fans = ("qidui", "qingyise") if one_suit else ("qidui", "fengyise") if honours else ("qidui",)
        if fans not in found:
            points = 1
            for f in fans:
                points *= VALUE[f]
            found[fans] = (points, fans, "seven_pairs", groups)
    return list(found.values())


# --- the JSON line ------------------------------------------------------------------------------------

def _q(s: str) -> str:
    return '"' + s + '"'


_WHY_CACHE: dict[tuple[int, ...], tuple[str, str]] = {}


def transfer_text(frm: str, to: str, points: int, factors: tuple[int, ...]) -> str:
    got = _WHY_CACHE.get(factors)
    if got is None:
        why = "×".join(map(str, factors))
        steps = ('[{"rule": null, "kind": "points", "values": {"factors": [' + ", ".join(map(str, factors))
                 + '], "kongs": 0}}]')
        got = _WHY_CACHE[factors] = (why, steps)
    return (f'{{"from": {_q(frm)}, "to": {_q(to)}, "amount": {points}, "why": "{got[0]}", "steps": {got[1]}, '
            f'"cap": null}}')


def fan_words(fans: tuple[str, ...]) -> str:
    return ", ".join(f"{ZH[f]} {f}" for f in fans)


def fan_list(fans: tuple[str, ...]) -> str:
    return "[" + ", ".join(f'{{"key": "{f}", "zh": "{ZH[f]}"}}' for f in fans) + "]"


_FRAMES: dict[tuple[object, ...], tuple[str, str, str]] = {}


def _frame(players: tuple[str, ...], winner: str, dealer: str, found: tuple[_Found, ...]) -> tuple[str, str, str]:
    """The line's texts that depend on the table, the winner and the fans considered (not on the tiles'
    groups or the id): kept per such shape, the names already in."""
    points, fans, shape, _ = found[0]
    seat = players.index(winner)
    losers = [players[(seat + k) % 4] for k in (1, 2, 3)]
    factors = tuple(VALUE[f] for f in fans)
    net = {p: (3 * points if p == winner else -points) for p in players}
    roles = {}
    for p in players:
        r = []
        if p == dealer:
            r.append('"dealer"')
        if p == winner:
            r.append('"winner"')
        if r:
            roles[p] = "[" + ", ".join(r) + "]"
    next_dealer = dealer if winner == dealer else players[(players.index(dealer) + 1) % 4]
    considered = len(found)
    if considered == 1:
        chosen = "the only legal reading"
        why = '{"rule": null, "kind": "why_only_legal", "values": {}}'
    else:
        nxt = found[1]
        chosen = f"pays {winner} the most, +{3 * points} (next best: {fan_words(nxt[1])} +{3 * nxt[0]})"
        why = (f'{{"rule": null, "kind": "why_most", "values": {{"winner": {_q(winner)}, "net": {3 * points}, '
               f'"next_fans": {fan_list(nxt[1])}, "next_net": {3 * nxt[0]}}}}}')
    items = []
    for f, v in zip(fans, factors, strict=False):
        kind = "base" if f in ("pihu", "pengpenghu", "qidui") else "multiplier"
        items.append(f'{{"item": "{f}", "label": "{ZH[f]}", "value": {v}, "kind": "{kind}"}}')
    head = ",".join([
        ' "region": "rushan", "players": [' + ", ".join(map(_q, players)) + "]",
        ' "net": {' + ", ".join(f"{_q(p)}: {net[p]}" for p in players) + "}",
        ' "transfers": [' + ", ".join(transfer_text(p, winner, points, factors) for p in losers) + "]",
        f' "next_dealer": {_q(next_dealer)}',
        ' "roles": {' + ", ".join(f"{_q(p)}: {r}" for p, r in roles.items()) + "}",
        f' "scores": {{{_q(winner)}: {points}}}, "unit": "分", "liable": null',
        ' "notes": [' + _q(f"自摸: {winner} self-drew, every other player pays (R5)") + ", "
        + _q(f"tiles: {winner}'s melds give 0 open(s) and no four-tile kong") + ", "
        + f'"reading: {winner}\'s tiles read as ' + ("七对 " if shape == "seven_pairs" else ""),
    ])
    middle = (f' — {fan_words(fans)}", '
              + _q(f"chosen for {winner}: {chosen}; {considered} legal reading(s) considered (one per distinct set "
                   "of fans, each with its fewest wildcard substitutions)") + "],"
              + f' "score_items": {{{_q(winner)}: [' + ", ".join(items) + "]},"
              + ' "liable_rule": null,'
              + f' "reading": {{"winner": {_q(winner)}, "fans": [' + ", ".join(map(_q, fans))
              + f'], "substitutions": [], "considered": {considered}}},'
              + f' "reasons": [{{"rule": "R5", "kind": "self_draw_pays", "values": {{"winner": {_q(winner)}}}}}, '
              f'{{"rule": "G4", "kind": "tiles_melds", "values": {{"winner": {_q(winner)}, "opens": 0, "feeders": [], '
              f'"kongs": []}}}}, {{"rule": null, "kind": "tiles_reading", "values": {{"winner": {_q(winner)}, "read": '
              f'{{"rule": null, "kind": "tiles_read", "values": {{"shape": "{shape}", "groups": [')
    tail = (f'], "melds": [], "wildcard": null, "wild": null, "read_as": []}}}}, "fans": {fan_list(fans)}}}}}, '
            f'{{"rule": null, "kind": "tiles_chosen", "values": {{"winner": {_q(winner)}, "why": {why}, '
            f'"considered": {considered}}}}}], "format_version": 2}}')
    return head, middle, tail


_GROUP_TEXT: dict[tuple[int, ...], str] = {}


def line_of(hand: Hand) -> str:
    win = hand["win"]
    tiles = win["tiles"]
    players = tuple(hand["players"])
    winner, dealer = win["winner"], hand["dealer"]
    if winner not in players or dealer not in players or len(set(players)) != 4:
        raise ValueError("bad names")
    counts = counts_of(tiles["hand"])
    if counts is None or sum(counts) != 14 or max(counts) > 4:
        raise ValueError("bad tiles")
    wt = counts_of(tiles["win_tile"])
    if wt is None or sum(wt) != 1 or not any(c and w for c, w in zip(counts, wt, strict=False)):
        raise ValueError("bad win tile")
    found = readings(counts)
    if not found:
        raise ValueError("no win")
    found.sort(key=lambda r: -r[0])
    key = (players, winner, dealer, *((r[0], r[1], r[2]) for r in found))
    frame = _FRAMES.get(key)
    if frame is None:
        frame = _FRAMES[key] = _frame(players, winner, dealer, tuple(found))
    texts = []
    for g in found[0][3]:
        t = _GROUP_TEXT.get(g)
        if t is None:
            t = _GROUP_TEXT[g] = group_text(g)
        texts.append(t)
    return ('{"id": "' + str(hand["id"]) + '",' + frame[0] + " ".join(texts) + frame[1]
            + ", ".join(['"' + t + '"' for t in texts]) + frame[2])


def run(lines: list[bytes]) -> list[bytes]:
    out = []
    validate = HAND.validate_json
    for raw in lines:
        out.append(line_of(validate(raw)).encode() + b"\n")
    return out
