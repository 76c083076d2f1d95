"""Tile notation: tiles are ints 0..33, parsed from and formatted to text.

Tile ids::

    0-8   1-9m  万 (characters)        9-17  1-9p  筒/饼 (dots)
    18-26 1-9s  条/索 (bamboo)         27-33 1-7z  东 南 西 北 中 发 白

The honour order 东南西北中发白 is the one the rule texts cycle through (seed 000
2.2③, seed 004 癞子); note that it differs from riichi notation, where 5z is 白.

Accepted input, freely mixed, spaces and commas optional::

    "123m 456p 789s 11z"   "1m2m3m"   "一万 二万 三万"   "五饼五筒 九索 红中 發財 白板"

Errors are :class:`ValueError` naming the bad token and what is allowed; the caller
maps them to a key path in the hand file.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from settle.errors import written
from settle.tiles.errors import TileError

TILE_COUNT = 34
MAN, PIN, SOU, HONOURS = 0, 9, 18, 27
EAST, SOUTH, WEST, NORTH, ZHONG, FA, BAI = range(27, 34)

SUIT_LETTERS = "mpsz"
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7}

_NUMERALS = "一二三四五六七八九"
# Chinese suit characters, simplified and traditional, and the suit letter each means.
_SUIT_CHARS = {"万": "m", "筒": "p", "饼": "p", "条": "s", "索": "s"}
_CANONICAL_SUIT_CHAR = {"m": "万", "p": "筒", "s": "条"}
_HONOUR_NAMES: dict[int, tuple[str, ...]] = {
    EAST: ("东", "东风"),
    SOUTH: ("南", "南风"),
    WEST: ("西", "西风"),
    NORTH: ("北", "北风"),
    ZHONG: ("中", "红中"),
    FA: ("发", "发财"),
    BAI: ("白", "白板"),
}
# Traditional characters are read as their simplified forms, so mixed spellings work.
_SIMPLIFIED = str.maketrans("東發萬條餅風紅財", "东发万条饼风红财")
_CANONICAL_HONOUR = {EAST: "东", SOUTH: "南", WEST: "西", NORTH: "北", ZHONG: "红中", FA: "发财", BAI: "白板"}
_SEPARATORS = frozenset(" \t\r\n,，、;；")

ALLOWED = (
    "digits 1-9 followed by m (万), p (筒/饼) or s (条/索), digits 1-7 followed by z "
    "(东南西北中发白), e.g. '123m 55z'; or Chinese names such as 一万, 五筒/五饼, 九条/九索, "
    "东 南 西 北 红中 发财 白板 (traditional 萬 條 東 發 also accepted)"
)


def _chinese_names() -> dict[str, int]:
    names: dict[str, int] = {}
    for suit_char, letter in _SUIT_CHARS.items():
        offset = SUIT_LETTERS.index(letter) * 9
        for rank in range(9):
            names[_NUMERALS[rank] + suit_char] = offset + rank
    for tile, aliases in _HONOUR_NAMES.items():
        for alias in aliases:
            names[alias] = tile
    return names


_NAME_TO_TILE = _chinese_names()
_LONGEST_NAME = max(len(name) for name in _NAME_TO_TILE)


def suit_of(tile: int) -> int:
    """0 万, 1 筒, 2 条, 3 honours."""
    return tile // 9


def rank_of(tile: int) -> int:
    """1..9 for suited tiles, 1..7 for honours (东=1 ... 白=7)."""
    return tile % 9 + 1


def is_honour(tile: int) -> bool:
    return tile >= HONOURS


def is_258(tile: int) -> bool:
    """A suited 2, 5 or 8: the 将 the texts ask for (seed 000 2.7③, seed 004 胡牌要求)."""
    return tile < HONOURS and tile % 9 in (1, 4, 7)


def check_tile(tile: int) -> int:
    """Return ``tile`` if it is a tile id 0..33, else raise :class:`~settle.tiles.errors.TileError`
    (a ValueError; no field: the caller knows which value it checked)."""
    if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < TILE_COUNT:
        raise TileError(f"bad tile id {tile!r}: tile ids are ints 0..33", kind="bad_tile_id",
                        values={"tile": repr(tile)})
    return tile


# Text made only of valid compact runs (``123m``, ``55z``) and ASCII separators: read by one
# regular expression instead of character by character.  Anything else (Chinese names, bad
# tokens) takes the general reader, which also words the errors.
_COMPACT_ONLY = re.compile(r"(?:[1-9]+[mpsMPS]|[1-7]+[zZ]|[ \t\r\n,;])*")
_SUIT_OFFSET = {letter: SUIT_LETTERS.index(letter.lower()) * 9 for letter in "mpszMPSZ"}
# Per suit letter, each digit as the character whose code is its tile id (``"5"`` of ``m`` -> ``"\x04"``):
# a compact run is read by ``str.translate``, and the text of tile ids becomes ints as Latin-1 bytes.
_RUN_IDS = {letter: str.maketrans({str(rank): chr(offset + rank - 1) for rank in range(1, 10)})
            for letter, offset in _SUIT_OFFSET.items()}
# Texts already read (hand files repeat tiles such as win_tile, indicator and melds); bounded.
_PARSED: dict[str, tuple[int, ...]] = {}
PARSED_MEMO_LIMIT = 20_000
# The runs of a compact text (``88m``, ``334455678p``; the text :data:`_COMPACT_ONLY` reads, separators
# between runs allowed).  Each run's tile ids (as bytes, :data:`_RUN_IDS`) are kept: a suit's runs recur
# far more often than whole hands do (about 2,800 runs in 5,000 random hands); bounded by PARSED_MEMO_LIMIT.
_VALID_RUN = re.compile(r"[1-9]+[mpsMPS]|[1-7]+[zZ]")
_RUN_BYTES: dict[str, bytes] = {}


_TILE_IDS = frozenset(range(TILE_COUNT))
_INT_ONLY = frozenset({int})


def all_tile_ids(tiles: Collection[object]) -> bool:
    """Whether every value is a plain int tile id 0..33 (the quick test before
    :func:`check_tile` words the error for the first bad one)."""
    # Equal values hash alike (True == 1, 3.0 == 3): the ids' set alone would let them in, the types not.
    try:
        return _TILE_IDS.issuperset(tiles) and _INT_ONLY.issuperset(map(type, tiles))
    except TypeError:  # an unhashable value is no tile id either
        return False


def parse_tiles(text: str) -> list[int]:
    """Parse compact notation and/or Chinese names into tile ids, in the order written.

    ``"123m 45p 11z"`` -> ``[0, 1, 2, 12, 13, 27, 27]``; ``"一万 红中"`` -> ``[0, 31]``.
    """
    if not isinstance(text, str):
        raise _not_text(text)
    return list(parse_tile_ids(text))


def parse_tile_ids(text: str) -> tuple[int, ...]:
    """:func:`parse_tiles` as a tuple (shared by every call with the same text: read only)."""
    if not isinstance(text, str):
        raise _not_text(text)
    tiles = _PARSED.get(text)
    if tiles is None:
        if _COMPACT_ONLY.fullmatch(text):  # honours' digits are 1-7 here: every id below 34
            tiles = tuple(b"".join([_RUN_BYTES.get(run) or _run_bytes(run) for run in _VALID_RUN.findall(text)]))
        else:
            tiles = tuple(_read_tiles(text))
        if len(_PARSED) >= PARSED_MEMO_LIMIT:
            _PARSED.clear()
        _PARSED[text] = tiles
    return tiles


def _run_bytes(run: str) -> bytes:
    """The tile ids of one valid compact run (``"345p"`` -> ``b"\\x0b\\x0c\\x0d"``), kept in :data:`_RUN_BYTES`."""
    ids = run[:-1].translate(_RUN_IDS[run[-1]]).encode("latin-1")
    if len(_RUN_BYTES) >= PARSED_MEMO_LIMIT:
        _RUN_BYTES.clear()
    _RUN_BYTES[run] = ids
    return ids


def _not_text(value: object) -> ValueError:
    return TileError(f"tiles must be a string such as '123m 55z', got {written(value)}", kind="tiles_not_text",
                     values={"value": written(value)})


def _read_tiles(text: str) -> list[int]:
    """The general reader: compact runs and Chinese names, character by character.

    Every bad token is reported at once (``'456x'`` unknown suit, ``'0p'`` no such tile ...), so a
    mistyped hand is mended in one pass.
    """
    original, text = text, text.translate(_SIMPLIFIED)
    tiles: list[int] = []
    bad: list[_BadToken] = []
    digits = ""
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char.isascii() and char.isdigit():
            digits += char
            pos += 1
        elif digits:
            try:
                tiles.extend(_digits_with_suit(digits, char))
            except _BadToken as token:
                bad.append(token)
            digits = ""
            pos += 1
        elif char in _SEPARATORS:
            pos += 1
        else:
            try:
                tile, pos = _chinese_name_at(text, pos, original)
            except _BadToken as token:
                bad.append(token)
                pos = token.end
                continue
            tiles.append(tile)
    if digits:
        bad.append(_BadToken(digits, "digits need a suit", code="no_suit"))
    if bad:
        raise TileError(_bad_tokens_message(bad, original), kind="bad_tokens",
                        values={"tokens": tuple((b.token, b.code) for b in bad), "text": original})
    return tiles


class _BadToken(ValueError):
    """One unreadable token of a tile text, with why (``""`` for an unknown name) and where it ends."""

    def __init__(self, token: str, reason: str = "", end: int = 0, code: str = "") -> None:
        super().__init__(token)
        self.token, self.reason, self.end, self.code = token, reason, end, code


def _bad_tokens_message(bad: list[_BadToken], original: str) -> str:
    if len(bad) == 1:
        reason = f"{bad[0].reason}; " if bad[0].reason else ""
        return f"bad tile token {bad[0].token!r} in {original!r}: {reason}use {ALLOWED}"
    listed = ", ".join(f"{b.token!r}" + (f" ({b.reason})" if b.reason else "") for b in bad)
    return f"bad tile tokens {listed} in {original!r}; use {ALLOWED}"


def parse_tile(text: str | int) -> int:
    """Exactly one tile, from notation (``"5m"``, ``"红中"``) or an id (``4``)."""
    tile = _ONE_TILE.get(text) if type(text) is str else None
    if tile is not None:  # one compact tile, as written most often (``win_tile: 5m``)
        return tile
    if not isinstance(text, str):
        if isinstance(text, bool) or not isinstance(text, int):
            raise _not_text(text)
        return check_tile(text)
    tiles = parse_tile_ids(text)
    if len(tiles) != 1:
        raise TileError(f"expected exactly one tile, got {len(tiles)} in {text!r}; use {ALLOWED}", kind="one_tile",
                        values={"count": len(tiles), "text": text})
    return tiles[0]


_ONE_TILE: dict[str, int] = {f"{rank}{letter}": offset + rank - 1 for letter, offset in _SUIT_OFFSET.items()
                              for rank in range(1, 8 if letter in "zZ" else 10)}
"""Each tile in compact notation (``"5m"``, ``"5M"``, ``"7z"``) -> its id: what :func:`parse_tile_ids` reads it as."""


def _digits_with_suit(digits: str, suit_char: str) -> list[int]:
    letter = suit_char.lower() if suit_char.isascii() else _SUIT_CHARS.get(suit_char, "")
    if letter not in _SUIT_SIZE:
        raise _BadToken(digits + suit_char, "unknown suit", code="unknown_suit")
    offset = SUIT_LETTERS.index(letter) * 9
    tiles = []
    for digit in digits:
        rank = int(digit)
        if not 1 <= rank <= _SUIT_SIZE[letter]:
            raise _BadToken(digit + suit_char, "no such tile", code="no_such_tile")
        tiles.append(offset + rank - 1)
    return tiles


def _chinese_name_at(text: str, pos: int, original: str) -> tuple[int, int]:
    # Longest match, so 红中 wins over a bare 中 and 东风 over 东.
    for length in range(min(_LONGEST_NAME, len(text) - pos), 0, -1):
        tile = _NAME_TO_TILE.get(text[pos : pos + length])
        if tile is not None:
            return tile, pos + length
    end = pos + 1
    while end < len(text) and text[end] not in _SEPARATORS:
        end += 1
    raise _BadToken(original[pos:end], end=end)


def tile_to_str(tile: int) -> str:
    """Compact form of one tile: ``4`` -> ``"5m"``, ``31`` -> ``"5z"``."""
    check_tile(tile)
    return f"{rank_of(tile)}{SUIT_LETTERS[suit_of(tile)]}"


def tile_to_chinese(tile: int) -> str:
    """Simplified Chinese name: ``4`` -> ``"五万"``, ``31`` -> ``"红中"``."""
    check_tile(tile)
    if is_honour(tile):
        return _CANONICAL_HONOUR[tile]
    return _NUMERALS[tile % 9] + _CANONICAL_SUIT_CHAR[SUIT_LETTERS[suit_of(tile)]]


def _group_texts() -> dict[tuple[int, ...], str]:
    """The text of every one-tile group and every pair, pung and chow (what readings print)."""
    out: dict[tuple[int, ...], str] = {}
    for tile in range(TILE_COUNT):
        letter = SUIT_LETTERS[suit_of(tile)]
        rank = str(rank_of(tile))
        out[(tile,)] = rank + letter
        out[(tile, tile)] = rank * 2 + letter
        out[(tile, tile, tile)] = rank * 3 + letter
        if tile < HONOURS and tile % 9 <= 6:
            out[(tile, tile + 1, tile + 2)] = f"{rank}{tile % 9 + 2}{tile % 9 + 3}{letter}"
    return out


_GROUP_TEXT = _group_texts()
GROUP_TEXT: Mapping[tuple[int, ...], str] = _GROUP_TEXT
"""Every sorted one-tile group, pair, pung and chow of tile ids (ints) -> its compact notation
(``(0, 1, 2)`` -> ``"123m"``): the groups of any reading (read only)."""


def format_tiles(tiles: Iterable[int], *, sort: bool = True) -> str:
    """Compact notation, one suit letter per run: ``[0, 1, 2, 27, 27]`` -> ``"123m11z"``."""
    if type(tiles) is tuple and len(tiles) <= 3:
        try:
            known = _GROUP_TEXT.get(tiles)  # a sorted one-tile group, pair, pung or chow
        except TypeError:  # an unhashable value: not a tile (worded below)
            known = None
        if known is not None and _INT_ONLY.issuperset(map(type, tiles)):
            return known
    ordered = sorted(tiles) if sort else list(tiles)
    if not all_tile_ids(ordered):
        for tile in ordered:
            check_tile(tile)  # raises for the first bad one
    out: list[str] = []
    run_suit: int | None = None
    for tile in ordered:
        if run_suit is not None and suit_of(tile) != run_suit:
            out.append(SUIT_LETTERS[run_suit])
        run_suit = suit_of(tile)
        out.append(str(rank_of(tile)))
    if run_suit is not None:
        out.append(SUIT_LETTERS[run_suit])
    return "".join(out)


def format_chinese(tiles: Iterable[int], *, sort: bool = True, sep: str = " ") -> str:
    """Chinese names: ``[0, 31]`` -> ``"一万 红中"``."""
    ordered = sorted(tiles) if sort else list(tiles)
    return sep.join(tile_to_chinese(tile) for tile in ordered)


def to_counts(tiles: Iterable[int]) -> list[int]:
    """34-entry count vector of ``tiles``."""
    counts = [0] * TILE_COUNT
    for tile in tiles:
        counts[check_tile(tile)] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[int]:
    """Sorted tile list of a 34-entry count vector."""
    return [tile for tile, count in enumerate(counts) for _ in range(count)]
