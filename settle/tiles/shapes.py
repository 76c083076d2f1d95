"""Win detection: sets and a pair, or seven pairs, with up to four wildcards.

A hand is a 34-entry count vector of its real (non-wild) concealed tiles plus a
number of wildcards (0-4), each of which may stand for any tile. Declared melds are
not passed: a hand with ``k`` melds holds ``14 - 3k`` tiles and needs ``4 - k`` sets
(chow or pung) and one pair (seed 000 1.3/2.7, seed 003 胡牌规则, seed 004 胡牌要求).
Seven pairs (a four-of-a-kind counts as two pairs) is only checked where the caller
allows it: Wuxue 七对 and Rushan 七对, never Wuhan (seed 004: 武汉麻将没有7对子).

The fast checker :func:`is_win` works per suit. For each suit's count tuple it
memoises a 10-bit mask: bit ``2*w + p`` is set when that suit's tiles plus exactly
``w`` wildcards split into sets and ``p`` pairs (p = 0 or 1). The four suit masks
(honours allow no chows) are then combined with a memoised convolution, and the hand
wins when bit ``2*wilds + 1`` survives. Suit masks are computed on demand, from the
masks of the suit's blocks (tiles two ranks or more apart share no chow) and of
smaller tuples, so a new pattern costs a handful of dict look-ups; honours are looked
at first, since most random hands fail there.

:func:`is_win_bruteforce` (plain backtracking) and :func:`is_win_by_substitution`
(the literal definition) are the oracles the tests hold the fast checker to.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

MAX_WILDS = 4
_MASK_BITS = 2 * (MAX_WILDS + 1)
_ALL_BITS = (1 << _MASK_BITS) - 1
_NO_PAIR_BITS = sum(1 << (2 * w) for w in range(MAX_WILDS + 1))
WIN_SIZES = frozenset({2, 5, 8, 11, 14})


def _bit(wilds: int, pairs: int) -> int:
    return 1 << (2 * wilds + pairs)


# Wildcards alone: nothing, a pair of them, or a set of them (any tile: no real tile needed).
_WILDS_ONLY = _bit(0, 0) | _bit(2, 1) | _bit(3, 0)

# Groups that use the lowest remaining tile t of a suit: (copies of t, wilds, pair made).
# A chow that reads wildcards below t is the same consumption as one above it, and a
# chow with two wildcards is the same consumption as a pung with two: both are covered.
_SAME_TILE_GROUPS = ((2, 0, 1), (1, 1, 1), (3, 0, 0), (2, 1, 0), (1, 2, 0))

_MASKS: dict[tuple[int, ...], int] = {}
_COMBINED: dict[int, int] = {}  # at most one entry per pair of masks seen: stays small
# Suit patterns kept before the table starts afresh (bounds memory in a long run;
# a few hundred thousand patterns exist, an entry is about 200 bytes).
MASK_MEMO_LIMIT = 200_000


def _add_group(mask: int, wilds: int, pair: int) -> int:
    """Outcomes of the rest of the suit, after one more group costing ``wilds`` (and a pair)."""
    if pair:
        mask = (mask & _NO_PAIR_BITS) << 1
    return (mask << (2 * wilds)) & _ALL_BITS


def _suit_mask(counts: tuple[int, ...]) -> int:
    mask = _MASKS.get(counts)
    if mask is None:
        mask = _compute_suit_mask(counts)
        if len(_MASKS) >= MASK_MEMO_LIMIT:
            _MASKS.clear()
        _MASKS[counts] = mask
    return mask


def _compute_suit_mask(counts: tuple[int, ...]) -> int:
    blocks = split_blocks(counts)
    if len(blocks) > 1:
        # Tiles two or more ranks apart never share a chow: combine the blocks' masks,
        # so a new suit pattern is mostly made of memoised blocks.
        mask = _suit_mask(blocks[0])
        for block in blocks[1:]:
            mask = _combine(mask, _suit_mask(block))
        return mask
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return _WILDS_ONLY
    rest = list(counts)
    mask = 0
    for copies, wilds, pair in _SAME_TILE_GROUPS:
        if counts[first] >= copies:
            rest[first] -= copies
            mask |= _add_group(_suit_mask(tuple(rest)), wilds, pair)
            rest[first] += copies
    if len(counts) == 9:  # suited: chows; honours (7 entries) have none
        for others, wilds in _chow_partners(counts, first):
            rest[first] -= 1
            for other in others:
                rest[other] -= 1
            mask |= _add_group(_suit_mask(tuple(rest)), wilds, 0)
            rest[first] += 1
            for other in others:
                rest[other] += 1
    return mask


def split_blocks(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """A suit's count tuple split into independent blocks, each as a full-length tuple.

    Two tiles share no chow when two or more empty ranks lie between them (honours,
    7 entries, never chow: each honour is its own block).
    """
    reach = 2 if len(counts) == 9 else 0
    blocks: list[tuple[int, ...]] = []
    first = last = -1
    for index, count in enumerate(counts):
        if not count:
            continue
        if first >= 0 and index - last > reach:
            blocks.append(_only(counts, first, last))
            first = -1
        if first < 0:
            first = index
        last = index
    if first >= 0:
        blocks.append(_only(counts, first, last))
    return blocks


def _only(counts: tuple[int, ...], first: int, last: int) -> tuple[int, ...]:
    return (0,) * first + counts[first : last + 1] + (0,) * (len(counts) - last - 1)


def _chow_partners(counts: tuple[int, ...], first: int) -> list[tuple[tuple[int, ...], int]]:
    """Real partners of ``first`` in a chow, and the wildcards filling the rest."""
    present = [first + d for d in (1, 2) if first + d < 9 and counts[first + d]]
    options: list[tuple[tuple[int, ...], int]] = [((p,), 1) for p in present]
    if len(present) == 2:
        options.append((tuple(present), 0))
    return options


def _combine(a: int, b: int) -> int:
    """Outcomes of two tile groups together (wilds add up, at most one pair)."""
    key = (a << _MASK_BITS) | b
    mask = _COMBINED.get(key)
    if mask is None:
        mask = 0
        for index in range(_MASK_BITS):
            if a >> index & 1:
                mask |= _add_group(b, index >> 1, index & 1)
        _COMBINED[key] = mask
    return mask


def is_win(counts: Sequence[int], wilds: int = 0, seven_pairs: bool = False) -> bool:
    """True when ``counts`` (34 real tiles) plus ``wilds`` wildcards form a winning shape.

    Shape: ``(n - 2) // 3`` sets and one pair for ``n = sum(counts) + wilds`` in
    2, 5, 8, 11, 14; with ``seven_pairs``, also seven pairs for ``n == 14``.
    Each wildcard may stand for any tile (seed 000 2.3①, seed 004 癞子 1).
    """
    if not 0 <= wilds <= MAX_WILDS:
        raise ValueError(f"wilds must be 0..{MAX_WILDS}, got {wilds}")
    if type(counts) is not tuple:
        counts = tuple(counts)  # slices of a tuple are the memo keys, no copy each
    size = sum(counts) + wilds
    if size not in WIN_SIZES:
        return False
    if _standard_win(counts, wilds):
        return True
    return seven_pairs and size == 14 and _odd_tiles(counts) <= wilds


def _standard_win(counts: tuple[int, ...], wilds: int) -> bool:
    # Written out flat: this is the hot path. Honours first, and a stop as soon as no
    # outcome within the wildcards is left: most random hands end after one look-up.
    masks, combined = _MASKS, _COMBINED
    within = _WITHIN[wilds]
    key = counts[27:34]
    honours = masks.get(key)
    if honours is None:
        honours = _suit_mask(key)
    if not honours & within:
        return False
    key = counts[0:9]
    man = masks.get(key)
    if man is None:
        man = _suit_mask(key)
    both = combined.get((honours << _MASK_BITS) | man)
    if both is None:
        both = _combine(honours, man)
    if not both & within:
        return False
    key = counts[9:18]
    pin = masks.get(key)
    if pin is None:
        pin = _suit_mask(key)
    three = combined.get((both << _MASK_BITS) | pin)
    if three is None:
        three = _combine(both, pin)
    if not three & within:
        return False
    key = counts[18:27]
    sou = masks.get(key)
    if sou is None:
        sou = _suit_mask(key)
    four = combined.get((three << _MASK_BITS) | sou)
    if four is None:
        four = _combine(three, sou)
    return bool(four >> (2 * wilds + 1) & 1)


# Outcome bits using at most w wildcards.
_WITHIN = tuple((1 << (2 * w + 2)) - 1 for w in range(MAX_WILDS + 1))


def _odd_tiles(counts: Sequence[int]) -> int:
    return sum(map((1).__and__, counts))


def is_seven_pairs(counts: Sequence[int], wilds: int = 0) -> bool:
    """Seven pairs of 14 tiles; a wildcard completes an odd count, spare ones pair up."""
    return sum(counts) + wilds == 14 and _odd_tiles(counts) <= wilds


# --- the brute-force oracle (tests and benchmark only) -------------------------------


def is_win_bruteforce(counts: Sequence[int], wilds: int = 0, seven_pairs: bool = False) -> bool:
    """Reference checker by plain backtracking: no tables, no memo, no shortcuts.

    The lowest remaining real tile must sit in some group: every pair, pung and chow
    (in each of its three positions) of that tile is tried, and every other place of
    the group is filled by a real tile when one is left *or* by a wildcard substituted
    by exactly that tile (both are tried). Wildcards left at the end stand for a pair
    and sets of any tile. Seven pairs likewise pairs the lowest real tile with a real
    copy or a wildcard. Exponential, but bounded by 14 tiles and 4 wildcards.
    """
    size = sum(counts) + wilds
    if size not in WIN_SIZES:
        return False
    tiles = list(counts)
    if seven_pairs and size == 14 and _pairs_backtrack(tiles, wilds):
        return True
    return _sets_backtrack(tiles, wilds, pair_left=1)


def _lowest(tiles: list[int]) -> int | None:
    for tile, count in enumerate(tiles):
        if count:
            return tile
    return None


def _group_places(tile: int) -> list[tuple[int, ...]]:
    """Every group (as tiles) holding ``tile``: pair first, then pung and chows."""
    places: list[tuple[int, ...]] = [(tile, tile), (tile, tile, tile)]
    if tile < 27:
        rank = tile % 9
        for start in range(rank - 2, rank + 1):
            if 0 <= start <= 6:
                base = tile - rank + start
                places.append((base, base + 1, base + 2))
    return places


def _sets_backtrack(tiles: list[int], wilds: int, pair_left: int) -> bool:
    tile = _lowest(tiles)
    if tile is None:
        # Wildcards alone make the pair (2) and sets of any tile (3 each).
        return wilds >= 2 * pair_left and (wilds - 2 * pair_left) % 3 == 0
    for group in _group_places(tile):
        is_pair = len(group) == 2
        if is_pair and not pair_left:
            continue
        others = list(group)
        others.remove(tile)
        tiles[tile] -= 1
        found = _fill_with_real_or_wild(tiles, others, wilds, pair_left - is_pair)
        tiles[tile] += 1
        if found:
            return True
    return False


def _fill_with_real_or_wild(tiles: list[int], places: list[int], wilds: int, pair_left: int) -> bool:
    if not places:
        return _sets_backtrack(tiles, wilds, pair_left)
    place, rest = places[0], places[1:]
    if tiles[place]:
        tiles[place] -= 1
        found = _fill_with_real_or_wild(tiles, rest, wilds, pair_left)
        tiles[place] += 1
        if found:
            return True
    return wilds > 0 and _fill_with_real_or_wild(tiles, rest, wilds - 1, pair_left)


def _pairs_backtrack(tiles: list[int], wilds: int) -> bool:
    tile = _lowest(tiles)
    if tile is None:
        return wilds % 2 == 0
    tiles[tile] -= 1
    found = False
    if tiles[tile]:
        tiles[tile] -= 1
        found = _pairs_backtrack(tiles, wilds)
        tiles[tile] += 1
    if not found and wilds:
        found = _pairs_backtrack(tiles, wilds - 1)
    tiles[tile] += 1
    return found


def is_win_by_substitution(counts: Sequence[int], wilds: int = 0, seven_pairs: bool = False) -> bool:
    """The literal definition: put every wildcard on every tile, check each plain hand.

    Up to C(37, 4) = 66,045 substitutions, so only for small samples in tests.
    """
    size = sum(counts) + wilds
    if size not in WIN_SIZES:
        return False
    for substitute in combinations_with_replacement(range(34), wilds):
        tiles = list(counts)
        for tile in substitute:
            tiles[tile] += 1
        if seven_pairs and size == 14 and all(c % 2 == 0 for c in tiles):
            return True
        if _sets_backtrack(tiles, 0, pair_left=1):
            return True
    return False
