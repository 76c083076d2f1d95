"""Every reading of a winning hand: what each wildcard stands for, and how it splits.

A reading fixes the tile each wildcard is read as (possibly the wildcard tile itself,
which is no substitution: seed 004 硬胡 "用本身花数胡", seed 000 3.3① "宝牌做本身使用",
RULINGS H8 W16) and the decomposition of the concealed tiles:

* ``standard``: sets (3 tiles, chow or pung) and one pair, seed 000 1.3/2.7, 004 胡牌要求;
* ``seven_pairs``: seven pairs, a four-of-a-kind counting twice (seed 000 3.2①⑦-⑨, 003 七对);
* ``loose``: no shape at all, for 乱将/乱风 hands the fans module builds (seed 004 风一色/将一色).

Two readings differ when their groups (as read) differ; which physical copy sits in
which group does not matter, and what the wildcards stand for follows from the groups.
The number of readings is bounded: at most 4 wildcards, and at most one group made of
wildcards alone (two pairs in seven pairs), whose value ranges over every tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, combinations_with_replacement

from settle.tiles.quick import quick_init
from settle.tiles.shapes import MAX_WILDS, WIN_SIZES

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
LOOSE = "loose"

Group = tuple[int, ...]
# One way to read a suit: (wildcards used, pairs made, groups, what the wildcards read as).
_Option = tuple[int, int, tuple[Group, ...], tuple[int, ...]]

_ALL_PUNGS: tuple[Group, ...] = tuple((t, t, t) for t in range(34))
_ALL_CHOWS: tuple[Group, ...] = tuple((s, s + 1, s + 2) for suit in (0, 9, 18) for s in range(suit, suit + 7))
_ALL_PAIRS: tuple[Group, ...] = tuple((t, t) for t in range(34))
_SUIT_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))


@quick_init
@dataclass(frozen=True)
class Reading:
    """One reading of the concealed tiles (melds are not part of it).

    ``groups``: sets (3 tiles) and pairs (2 tiles) as read, sorted; empty for ``loose``.
    ``tiles``: every concealed tile as read, sorted (14 - 3 * melds of them).
    ``wild_values``: what each wildcard in hand stands for, sorted.
    ``substitutions``: wildcards read as another tile than themselves.
    """

    shape: str
    groups: tuple[Group, ...]
    tiles: tuple[int, ...]
    wild_values: tuple[int, ...] = ()
    substitutions: int = 0

    @property
    def sets(self) -> tuple[Group, ...]:
        """Concealed sets (chows and pungs) as read."""
        return tuple(g for g in self.groups if len(g) == 3)

    @property
    def pairs(self) -> tuple[Group, ...]:
        """The pair (standard) or the seven pairs; empty for a loose reading."""
        return tuple(g for g in self.groups if len(g) == 2)

    @property
    def pair(self) -> Group | None:
        """The 将 of a standard reading."""
        return self.pairs[0] if self.shape == STANDARD else None


def enumerate_readings(
    concealed: Sequence[int], wild: int | None = None, *, seven_pairs: bool = False
) -> list[Reading]:
    """Every standard (and, if allowed, seven-pairs) reading of the concealed tiles.

    ``concealed`` holds the tiles in hand including the winning tile and every copy of
    the ``wild`` tile (at most 4); empty when the hand does not win.
    """
    counts = [0] * 34
    for tile in concealed:
        counts[tile] += 1
    wilds = counts[wild] if wild is not None else 0
    if wild is not None:
        counts[wild] = 0
    return readings_from_counts(counts, wilds, wild, seven_pairs=seven_pairs)


def readings_from_counts(
    counts: Sequence[int], wilds: int, wild: int | None, *, seven_pairs: bool = False
) -> list[Reading]:
    """As :func:`enumerate_readings`, from real-tile counts (wild tile removed) and a wild count."""
    if not 0 <= wilds <= MAX_WILDS:
        raise ValueError(f"at most {MAX_WILDS} wildcards, got {wilds}")
    size = sum(counts) + wilds
    if size not in WIN_SIZES:
        return []
    real = tuple(counts)
    # Keyed by groups alone: seven pairs and a standard split never share groups.
    found: dict[tuple[Group, ...], Reading] = {}
    for groups, wild_values in _standard_groups(real, wilds):
        _keep(found, STANDARD, groups, wild_values, wild)
    if seven_pairs and size == 14:
        for groups, wild_values in _seven_pairs_groups(real, wilds):
            _keep(found, SEVEN_PAIRS, groups, wild_values, wild)
    return list(found.values())


def loose_reading(real_tiles: Iterable[int], wild_values: Sequence[int], wild: int | None) -> Reading:
    """A reading without shape (乱将/乱风): the real tiles plus the wildcards as read."""
    tiles = tuple(sorted([*real_tiles, *wild_values]))
    values = tuple(sorted(wild_values))
    return Reading(LOOSE, (), tiles, values, sum(v != wild for v in values))


def make_reading(
    shape: str,
    groups: Iterable[Group],
    wild_values: Iterable[int],
    wild: int | None,
    tiles: tuple[int, ...] | None = None,
) -> Reading:
    """A reading from its groups (any order) and what the wildcards read as.

    ``tiles``: the groups' tiles sorted, when the caller has them (else gathered from the groups).
    """
    ordered = tuple(sorted(groups))
    values = tuple(sorted(wild_values))
    if tiles is None:
        tiles = tuple(sorted(chain.from_iterable(ordered)))
    return Reading(shape, ordered, tiles, values, len(values) - values.count(wild))


def _keep(
    found: dict[tuple[Group, ...], Reading],
    shape: str,
    groups: tuple[Group, ...],
    wild_values: tuple[int, ...],
    wild: int | None,
) -> None:
    key = tuple(sorted(groups))
    if key not in found:
        found[key] = make_reading(shape, key, wild_values, wild)


def _standard_groups(real: tuple[int, ...], wilds: int) -> Iterator[tuple[tuple[Group, ...], tuple[int, ...]]]:
    per_suit = [_suit_options(start, real[start:end]) for start, end in _SUIT_SLICES]
    for groups, values, used, pairs in _combine_suits(per_suit, 0, wilds, 1):
        left = wilds - used
        for extra in _wild_only_groups(left, 1 - pairs):
            yield (*groups, extra) if extra else groups, values + extra


def _combine_suits(
    per_suit: list[dict[tuple[int, int], list[tuple[tuple[Group, ...], tuple[int, ...]]]]],
    index: int,
    wilds: int,
    pairs: int,
) -> Iterator[tuple[tuple[Group, ...], tuple[int, ...], int, int]]:
    if index == len(per_suit):
        yield (), (), 0, 0
        return
    for (used, made), options in per_suit[index].items():
        if used > wilds or made > pairs:
            continue
        for groups_rest, values_rest, used_rest, made_rest in _combine_suits(
            per_suit, index + 1, wilds - used, pairs - made
        ):
            for groups, values in options:
                yield groups + groups_rest, values + values_rest, used + used_rest, made + made_rest


def _wild_only_groups(left: int, pair_needed: int) -> tuple[Group, ...]:
    """Groups made of wildcards alone (any tile): none, a pair, or a set."""
    if left == 0 and not pair_needed:
        return ((),)
    if left == 2 and pair_needed:
        return _ALL_PAIRS
    if left == 3 and not pair_needed:
        return _ALL_PUNGS + _ALL_CHOWS
    return ()


_SuitOptions = dict[tuple[int, int], list[tuple[tuple[Group, ...], tuple[int, ...]]]]
"""One suit's readings, bucketed by (wildcards used, pairs made): (groups, wild values) of each."""
_SUIT_OPTIONS: dict[tuple[int, tuple[int, ...]], _SuitOptions] = {}
READINGS_MEMO_LIMIT = 20_000  # entries kept before a table starts afresh (memory bound)
_SUIT_READINGS: dict[tuple[int, tuple[int, ...]], list[_Option]] = {}


def _suit_options(start: int, counts: tuple[int, ...]) -> _SuitOptions:
    """Readings of one suit's real tiles, bucketed by (wildcards used, pairs made)."""
    key = (start, counts)
    cached = _SUIT_OPTIONS.get(key)
    if cached is None:
        cached = {}
        for used, made, groups, values in suit_readings(start, counts):
            cached.setdefault((used, made), []).append((groups, values))
        if len(_SUIT_OPTIONS) >= READINGS_MEMO_LIMIT:
            _SUIT_OPTIONS.clear()
        _SUIT_OPTIONS[key] = cached
    return cached


def suit_readings(start: int, counts: tuple[int, ...]) -> list[_Option]:
    """Readings of one suit's real tiles (suit starting at tile ``start``), each as
    (wildcards used, pairs made, groups, what the wildcards read as); groups made of
    wildcards alone are left out (the caller adds them)."""
    key = (start, counts)
    cached = _SUIT_READINGS.get(key)
    if cached is None:
        cached = _compute_suit_readings(start, counts)
        if len(_SUIT_READINGS) >= READINGS_MEMO_LIMIT:
            _SUIT_READINGS.clear()
        _SUIT_READINGS[key] = cached
    return cached


def _compute_suit_readings(start: int, counts: tuple[int, ...]) -> list[_Option]:
    anchored = anchored_groups(start, counts)
    if not anchored:
        return [(0, 0, (), ())]
    options: list[_Option] = []
    for group, rest, values in anchored:
        pair = len(group) == 2
        for used, made, groups, rest_values in suit_readings(start, rest):
            if used + len(values) <= MAX_WILDS and made + pair <= 1:
                options.append((used + len(values), made + pair, (group, *groups), values + rest_values))
    return options


def anchored_groups(start: int, counts: tuple[int, ...]) -> list[tuple[Group, tuple[int, ...], tuple[int, ...]]]:
    """Every group holding the lowest real tile of a suit (none if the suit is empty).

    Each is (group as read, counts left, what its wildcards read as): the pair, the
    pung and the chows in each of the three places, wildcards filling what is missing.
    """
    nonzero = [i for i, c in enumerate(counts) if c]
    if not nonzero:
        return []
    first = nonzero[0]
    found = []
    for members in _groups_at(first, len(counts) == 9):
        rest, values = _take(counts, members, first, start)
        found.append((tuple(start + m for m in members), rest, values))
    return found


def _groups_at(first: int, suited: bool) -> list[tuple[int, ...]]:
    """Groups (local indices) holding the lowest remaining tile ``first``."""
    groups: list[tuple[int, ...]] = [(first, first), (first, first, first)]
    if suited:
        for low in range(max(first - 2, 0), min(first, 6) + 1):
            groups.append((low, low + 1, low + 2))
    return groups


def _take(
    counts: tuple[int, ...], members: tuple[int, ...], first: int, start: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Fill the group with the real ``first`` and real tiles where left, else wildcards.

    Returns the counts left and what the group's wildcards read as. Taking a real tile
    whenever one is left loses no reading: swapping it with a wildcard read as the same
    tile in another group changes neither the groups nor what the wildcards read as.
    """
    rest = list(counts)
    rest[first] -= 1
    others = list(members)
    others.remove(first)
    values: list[int] = []
    for member in others:
        if rest[member]:
            rest[member] -= 1
        else:
            values.append(start + member)
    return tuple(rest), tuple(values)


def _seven_pairs_groups(real: tuple[int, ...], wilds: int) -> Iterator[tuple[tuple[Group, ...], tuple[int, ...]]]:
    pairs: list[Group] = []
    values: list[int] = []
    for tile, count in enumerate(real):
        pairs.extend([(tile, tile)] * ((count + 1) // 2))
        if count % 2:
            values.append(tile)
    left = wilds - len(values)
    if left < 0 or left % 2:
        return
    for extra in combinations_with_replacement(range(34), left // 2):
        yield (
            tuple(pairs) + tuple((t, t) for t in extra),
            tuple(values) + tuple(t for t in extra for _ in range(2)),
        )
