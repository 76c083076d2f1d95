"""Tile-level settlement (issue 7): settle a hand from the winner's tiles, and check claimed fans.

Sources: HAND-FORMAT.md "The win" (``win.tiles``); RULINGS G3 G4 (what the melds give), G7
(never guess: the winning tile and the indicator are required), G10 (situational items),
H8 H12, W12 W15 W16, R3 R3b R9 (the tile-level rules, applied by :mod:`settle.tiles`).

A hand whose ``win`` (or one of whose wins, Rushan R8) has ``tiles`` goes through four steps:

1. **Read the tiles.**  Each text (``hand``, ``win_tile``, ``melds[i].tiles``, ``indicator``,
   ``bao_tile``) is parsed by the tile engine; every engine :class:`ValueError` becomes a
   :class:`~settle.errors.Problem` at the key that holds the bad text
   (``win.tiles.melds[1].tiles``).
2. **The melds give the facts.**  The winner's ``opens`` are the claimed melds in meld order
   (chow, pung, exposed kong, and the 碰 under an added kong: G3, G4), fed by their ``from``;
   the winner's ``exposed``/``added``/``concealed`` kongs are the kong melds.  When
   ``players.<winner>.opens``/``kongs`` are given too they must agree (else a problem naming
   both keys).  The *effective hand* is the same plain document with those facts filled in,
   validated by the normal pipeline, so every shared and regional check applies.
3. **The fans.**  Situational items (``settle.tiles.SITUATIONS``: 杠上花/杠开, 海底捞, 天胡,
   地胡, 摸宝, 宝中宝, 抢杠) cannot be seen in tiles: they come from ``win.fans`` and are
   passed to the engine.  Every other item named in ``win.fans`` is a *shape claim*.  With
   shape claims, the claims are settled as given (``settle check`` compares them with the
   tiles), provided some reading of the tiles is a legal win.  Without, every legal reading
   is settled through the region's own ``settle`` and the one a player would claim is kept:
   most for the winner, then without 包牌, then with fewer wildcard substitutions (then the
   engine's order, most fans first).
4. **Say why.**  The settlement's notes name the reading kept, the wildcards' values and the
   reason it was chosen, and how many readings were considered.

Everything here is a pure function of its arguments (no I/O).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from settle.engine.hand import has_tiles, rule_problems, validate_model
from settle.rules.checks import common_problems, win_path
from settle.core import Settlement
from settle.errors import HandError, Path, Problem, format_path
from settle.rules.registry import Region
from settle.tiles import OPTION_DEFAULTS, SITUATIONS, Evaluation, Meld, ScoredReading, TileHand, evaluate_all
from settle.tiles.notation import format_tiles, parse_tile, parse_tiles, tile_to_str
from settle.tiles.wildcards import wuhan_wildcards, wuxue_wildcards

Hand = Any  # a region's Hand model (settle.model.hand_model)
WinModel = Any  # that region's Win model

ORDINARY_KONGS = ("exposed", "added", "concealed")
"""Kong kinds a meld can have (G3); single-tile kongs (红中杠, 宝杠 ...) are no melds."""

WILDCARD_NAMES = {"wuhan": "癞子", "wuxue": "宝"}
"""What each region calls its wildcard (H12, W15); Rushan has none (its 宝 is no wildcard, R9)."""


# --- public results --------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One legal reading of a winner's tiles, settled (or refused by the hand's facts).

    ``fans``: the winner's fan keys in the region's table order, situational items included;
    ``settlement``: the whole hand settled with them, None when ``problems`` (a rule that
    needs facts beyond the tiles, H8 ``require_open``, W12) refuses the reading.
    """

    scored: ScoredReading
    fans: tuple[str, ...]
    settlement: Settlement | None
    problems: tuple[Problem, ...] = ()
    hand: Hand | None = field(default=None, repr=False, compare=False)
    """The hand settled (the winner's ``fans`` replaced), so that the reading kept is not
    checked and settled a second time."""

    @property
    def substitutions(self) -> int:
        """Wildcards read as another tile than themselves (H8, W16)."""
        return self.scored.reading.substitutions

    def net(self, winner: str) -> int:
        """The winner's net under this reading, in the region's points."""
        return self.settlement.net[winner] if self.settlement is not None else 0

    @property
    def liable(self) -> str | None:
        """The 包牌/承包 player under this reading, or None."""
        return self.settlement.liable if self.settlement is not None else None


@dataclass(frozen=True)
class Choice:
    """The reading kept for one winner, and the ones it was chosen from.

    ``considered``: every engine-legal reading (one per distinct fan set, each with its
    fewest substitutions), settled; ``rejected``: readings of a winning shape that a
    tile-level rule forbids, with the rule; ``why``: the reason ``chosen`` was kept.
    """

    winner: str
    path: Path
    tiles: TileHand
    chosen: Candidate
    considered: tuple[Candidate, ...]
    rejected: tuple[tuple[ScoredReading, str], ...]
    why: str


@dataclass(frozen=True)
class Difference:
    """One way a winner's claimed fans differ from the tiles (``settle check``).

    ``kind``: ``claimed_not_present`` (named in ``win.fans``, not in the tiles' best
    reading), ``present_not_claimed``, ``illegal_win`` (the tiles are no legal win; ``fan``
    is None) or ``claim_refused`` (the claim breaks a rule of the hand's facts; ``fan`` None).
    ``value``: what the item is worth in the region (``base 10``, ``2 斤``, ``×2``).
    """

    winner: str
    kind: str
    fan: str | None
    label: str
    value: str
    detail: str = ""

    def as_dict(self) -> dict[str, object]:
        """JSON form: ``{"winner", "kind", "fan", "label", "value", "detail"}``."""
        return {"winner": self.winner, "kind": self.kind, "fan": self.fan, "label": self.label,
                "value": self.value, "detail": self.detail}


DIFFERENCE_KINDS: dict[str, str] = {
    "claimed_not_present": "claimed, not in the tiles",
    "present_not_claimed": "in the tiles, not claimed",
    "illegal_win": "illegal win",
    "claim_refused": "claim refused",
}
"""Each :attr:`Difference.kind` in words (``settle check`` tables)."""


class IllegalWin(HandError):
    """No reading of a winner's tiles can be settled: none is legal by the tile rules, or the
    hand's facts refuse every legal one (H8 require_open, W12 ...).  Bad input to ``settle hand``;
    an ``illegal_win`` difference to ``settle check``."""


@dataclass(frozen=True)
class ClaimCheck:
    """What ``settle check`` reports: the claimed fans against the tiles.

    ``claimed``/``derived``: per winner, the counted fan keys (Rushan: the base and the
    counted multipliers, R1 R3b; Wuhan 抢杠 implied by ``robbed_kong``); ``derived`` is None
    for a winner whose tiles are no legal win.  ``claimed_result``/``tiles_result``: the hand
    settled each way (None when that way cannot be settled).  ``agree`` when there is no
    difference.
    """

    region: str
    players: tuple[str, ...]
    claimed: dict[str, tuple[str, ...]]
    derived: dict[str, tuple[str, ...] | None]
    readings: dict[str, str]
    differences: tuple[Difference, ...]
    claimed_result: Settlement | None
    tiles_result: Settlement | None
    notes: tuple[str, ...] = ()

    @property
    def agree(self) -> bool:
        """The claims are what the tiles give (``settle check`` exits 0)."""
        return not self.differences

    def payments(self) -> list[tuple[str, str, int | None, int | None]]:
        """``(payer, payee, claimed amount, tiles amount)`` for every pair that pays either way;
        an amount is None when that way cannot be settled."""
        claimed = _paid(self.claimed_result)
        tiles = _paid(self.tiles_result)
        pairs = list(dict.fromkeys([*(claimed or {}), *(tiles or {})]))
        return [(a, b, None if claimed is None else claimed.get((a, b), 0),
                 None if tiles is None else tiles.get((a, b), 0)) for a, b in pairs]

    def as_dict(self) -> dict[str, object]:
        """JSON form of the check (keys as in the attributes, plus ``agree`` and ``payments``)."""
        return {
            "region": self.region, "agree": self.agree, "players": list(self.players),
            "claimed": {w: list(f) for w, f in self.claimed.items()},
            "tiles": {w: (None if f is None else list(f)) for w, f in self.derived.items()},
            "readings": dict(self.readings),
            "differences": [d.as_dict() for d in self.differences],
            "payments": [{"from": a, "to": b, "claimed": c, "tiles": t} for a, b, c, t in self.payments()],
            "net": {"claimed": None if self.claimed_result is None else dict(self.claimed_result.net),
                    "tiles": None if self.tiles_result is None else dict(self.tiles_result.net)},
            "notes": list(self.notes),
        }


def _paid(result: Settlement | None) -> dict[tuple[str, str], int] | None:
    if result is None:
        return None
    out: dict[tuple[str, str], int] = {}
    for t in result.transfers:
        out[(t.payer, t.payee)] = out.get((t.payer, t.payee), 0) + t.amount
    return out


# --- entry points ----------------------------------------------------------------------------


def settle_with_tiles(data: Mapping[str, Any]) -> Settlement:
    """Settle a hand document whose win gives the winner's tiles (``win.tiles``).

    ``data`` is the plain hand (parsed YAML/JSON).  Returns the
    :class:`~settle.core.Settlement` of the effective hand (opens and kongs from the melds):
    with the claimed fans when ``win.fans`` names a shape item, else with the fans of the
    reading that pays the winner most, its notes saying which reading and why.  A hand
    without tiles is settled as usual.  Raises :class:`~settle.errors.HandError` for bad
    input: notation and engine errors at their key (``win.tiles.melds[1].tiles``), melds
    that disagree with ``players.<winner>.opens``/``kongs``, a hand with no legal reading
    (at ``win.tiles``, with the engine's reason), and every usual problem.
    """
    region, hand = validate_model(data)
    return resolve(data, region, hand).settlement


def parse_with_tiles(data: Mapping[str, Any]) -> tuple[Region, Hand]:
    """:func:`settle.engine.hand.parse_hand` for a hand with tiles: the region and the effective
    ``Hand`` with the fans that :func:`settle_with_tiles` settles.  Raises as it does."""
    region, hand = validate_model(data)
    resolution = resolve(data, region, hand)
    return region, resolution.hand


def check_claims(data: Mapping[str, Any]) -> ClaimCheck:
    """Compare the fans a table claimed (``win.fans``) with what the tiles give (``settle check``).

    Needs ``win.tiles`` and ``win.fans`` (an empty list claims no shape item); else a
    :class:`~settle.errors.HandError` naming the missing key.  Settles the claimed version and
    the best reading of the tiles (as :func:`settle_with_tiles` chooses it) and lists every
    :class:`Difference`.  Raises HandError for bad input, and when neither version can be
    settled (the claim breaks a rule and the tiles are no legal win).
    """
    region, hand = validate_model(data)
    if not has_tiles(hand):
        raise HandError.at(("win", "tiles"), "missing: `settle check` compares the claimed fans with the "
                                             "winner's tiles; give win.tiles (hand, win_tile, melds, ...)")
    problems = [Problem((*win_path(hand, i), "fans"),
                        "missing: the fans the table claims, e.g. fans: [qingyise] (an empty list claims "
                        "none); `settle hand` derives them from the tiles when they are left out")
                for i, win in enumerate(hand.wins) if win.tiles is not None and "fans" not in win.model_fields_set]
    if problems:
        raise HandError(problems)
    prepared = prepare(data, region, hand)
    return _compare(prepared)


# --- step 1 and 2: tiles and the effective hand --------------------------------------------------


@dataclass(frozen=True)
class TileWin:
    """One win's tiles as read (step 1) and the facts its melds give (step 2).

    ``index``: position among the hand's wins; ``path``: ``("win",)`` or ``("win", i)``;
    ``claims``: index of the meld behind each open, in order (G4); ``feeders``: who fed each
    open, or None when no meld names its ``from``; ``kongs``: ordinary kong kind -> count.
    """

    index: int
    path: Path
    winner: str
    tiles: TileHand
    claims: tuple[int, ...]
    feeders: tuple[str, ...] | None
    kongs: dict[str, int]

    @property
    def tiles_path(self) -> Path:
        """``win.tiles`` (or ``win[i].tiles``)."""
        return (*self.path, "tiles")


@dataclass(frozen=True)
class Origin:
    """Which of a winner's facts in the effective hand came from the melds (for error paths)."""

    tile_win: TileWin
    opens_from_melds: bool
    feeders_from_melds: bool
    kongs_from_melds: bool


@dataclass(frozen=True)
class Prepared:
    """A hand with tiles after steps 1–2: the effective hand (claims as given) and its tiles."""

    region: Region
    hand: Hand
    tile_wins: tuple[TileWin, ...]
    origins: dict[str, Origin] = field(default_factory=dict)

    def remap(self, problems: Iterable[Problem]) -> list[Problem]:
        """Problems of the effective hand at the keys the user wrote (melds for filled facts)."""
        return [_remapped(p, self.origins) for p in problems]


def prepare(data: Mapping[str, Any], region: Region, hand: Hand) -> Prepared:
    """Steps 1–2: read every win's tiles, fill the winners' opens/kongs from the melds, and
    check the effective hand (the shared checks, with the claimed fans).

    ``hand`` is ``data`` validated by pydantic; the effective hand is a copy of it with the
    winners' facts filled in (see :func:`_effective_hand`).  Raises :class:`HandError` with
    every problem found.
    """
    tile_wins, problems = _read_all_tiles(region, hand)
    if problems:  # with the problems that do not depend on the tiles, so one pass fixes the file
        raise HandError([*problems, *common_problems(hand, region)])
    effective, origins, problems = _effective_hand(region, hand, tile_wins)
    if problems:
        raise HandError(problems)
    prepared = Prepared(region, effective, tuple(tile_wins), origins)
    problems = prepared.remap(common_problems(effective, region)) or _wildcard_copies(prepared)
    if problems:
        raise HandError(problems)
    return prepared


def _read_all_tiles(region: Region, hand: Hand) -> tuple[list[TileWin], list[Problem]]:
    tile_wins: list[TileWin] = []
    problems: list[Problem] = []
    for i, win in enumerate(hand.wins):
        if win.tiles is None:
            continue
        tile_win, found = read_tiles(region, hand, i)
        problems += found
        if tile_win is not None:
            tile_wins.append(tile_win)
    return tile_wins, problems


def read_tiles(region: Region, hand: Hand, index: int) -> tuple[TileWin | None, list[Problem]]:
    """Step 1 for the ``index``-th win: its :class:`TileWin`, or None and the problems found."""
    win = hand.wins[index]
    base = (*win_path(hand, index), "tiles")
    spec = win.tiles
    problems: list[Problem] = []
    concealed = _parsed(spec.hand, (*base, "hand"), problems, parse_tiles)
    win_tile = _win_tile(spec.win_tile, (*base, "win_tile"), problems)
    indicator = _parsed(spec.indicator, (*base, "indicator"), problems, parse_tile)
    bao_tile = _parsed(spec.bao_tile, (*base, "bao_tile"), problems, parse_tile)
    melds = [_meld(region, win, m, (*base, "melds", j), problems) for j, m in enumerate(spec.melds)]
    problems += _feeder_problems(win, spec.melds, base)
    if problems:
        return None, problems
    try:
        tiles = TileHand(tuple(concealed), win_tile, tuple(melds), indicator, bao_tile)
    except ValueError as exc:
        return None, [Problem(_hand_error_path(str(exc), base), str(exc))]
    claims = tuple(j for j, m in enumerate(melds) if m.claimed)
    feeders = tuple(spec.melds[j].from_ for j in claims) if claims and spec.melds[claims[0]].from_ else None
    kongs = Counter(m.kong_kind for m in melds if m.kind == "kong")
    return TileWin(index, win_path(hand, index), win.winner, tiles, claims, feeders, dict(kongs)), []


def _parsed(text: str | None, path: Path, problems: list[Problem], parse: Any) -> Any:
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        problems.append(Problem(path, str(exc)))
        return None


def _win_tile(text: str | None, path: Path, problems: list[Problem]) -> Any:
    if text is None:
        problems.append(Problem(path, "missing: the winning tile, one of the tiles in `hand` (e.g. win_tile: 5m); "
                                      "it decides whether a wildcard was won on and 摸宝 (G7)"))
        return None
    return _parsed(text, path, problems, parse_tile)


def _meld(region: Region, win: WinModel, spec: Any, path: Path, problems: list[Problem]) -> Meld | None:
    """One declared meld as an engine :class:`~settle.tiles.Meld`; problems at its keys."""
    found = _meld_kind_problems(region, win, spec, path)
    if found:
        problems += found
        return None
    tiles = _parsed(spec.tiles, (*path, "tiles"), problems, parse_tiles)
    if tiles is None:
        return None
    try:
        return Meld(spec.kind, tuple(tiles), None, spec.kong)
    except ValueError as exc:
        problems.append(Problem((*path, "tiles"), str(exc)))
        return None


def _meld_kind_problems(region: Region, win: WinModel, spec: Any, path: Path) -> list[Problem]:
    """``kong`` given exactly for kongs, an ordinary kind (G3); no ``from`` on a concealed kong."""
    if spec.kind == "kong" and spec.kong is None:
        return [Problem((*path, "kong"), "missing: the kong's kind (exposed 明杠, added 补杠 or concealed 暗杠)")]
    if spec.kind != "kong" and spec.kong is not None:
        return [Problem((*path, "kong"), f"only a kong has a kong kind; this meld is a {spec.kind}")]
    if spec.kong is not None and spec.kong not in ORDINARY_KONGS:
        label = region.kongs[spec.kong].label
        return [Problem((*path, "kong"), f"{label} is one tile played out, not a four-tile meld: count it in "
                                         f"players.{win.winner}.kongs")]
    if spec.kong == "concealed" and spec.from_ is not None:
        return [Problem((*path, "from"), "a concealed kong (暗杠) is claimed from nobody: remove `from` (G3)")]
    return []


def _feeder_problems(win: WinModel, melds: Sequence[Any], base: Path) -> list[Problem]:
    """``from`` on every claimed meld or on none (G7: a partial list of feeders is not guessed);
    a chow only from the player before the winner (上家, G1) is checked in the effective hand."""
    claimed = [j for j, m in enumerate(melds) if m.kong != "concealed"]
    named = [j for j in claimed if melds[j].from_ is not None]
    if not named or len(named) == len(claimed):
        return []
    return [Problem((*base, "melds", j, "from"),
                    "missing: who fed this claimed meld; give `from` on every claimed meld (吃, 碰, 明杠, "
                    "补杠), or on none (then the opens are a bare count)")
            for j in claimed if melds[j].from_ is None]


def _hand_error_path(message: str, base: Path) -> Path:
    """The key a :class:`TileHand` error is about, from its message."""
    if message.startswith("at most 4 melds"):
        return (*base, "melds")
    if "concealed tiles with" in message:
        return (*base, "hand")
    if message.startswith("win_tile"):
        return (*base, "win_tile")
    return base


def _effective_hand(region: Region, hand: Hand,
                    tile_wins: Sequence[TileWin]) -> tuple[Hand, dict[str, Origin], list[Problem]]:
    """The hand with each tile winner's opens and kongs filled from the melds (step 2).

    A copy of the validated ``hand`` with new player models, not a re-validated document:
    every value put in is already validated (the feeders are the melds' validated ``from``
    names, at most 4 of them; the kong kinds are canonical keys, each count at most 4), so
    validating the document again could not fail and would only cost time.
    """
    players = dict(hand.players)
    origins: dict[str, Origin] = {}
    problems: list[Problem] = []
    for tile_win in tile_wins:
        name = tile_win.winner
        if name not in players or name in origins:  # not a player, or twice a winner: the shared checks say so
            continue
        typed = players[name]
        opens, opens_origin = _opens(tile_win, typed, problems)
        kongs, kongs_origin = _kongs(region, tile_win, typed, problems)
        players[name] = typed.model_copy(update={"opens": opens, "kongs": kongs})
        origins[name] = Origin(tile_win, *opens_origin, kongs_origin)
    problems += _chow_problems(hand, tile_wins)
    return hand.model_copy(update={"players": players}), origins, problems


def _opens(tile_win: TileWin, typed: Any, problems: list[Problem]) -> tuple[Any, tuple[bool, bool]]:
    """The winner's ``opens`` from the melds (G4), checked against ``players.<winner>.opens``.

    Returns the value and (opens came from the melds, the feeder list came from the melds).
    """
    count, feeders = len(tile_win.claims), tile_win.feeders
    melds_value: Any = list(feeders) if feeders is not None else count
    if "opens" not in typed.model_fields_set:
        return melds_value, (True, feeders is not None)
    given = typed.opens
    same = given == list(feeders) if isinstance(given, list) and feeders is not None else typed.open_count == count
    if not same:
        problems.append(Problem(("players", tile_win.winner, "opens"),
                                f"players.{tile_win.winner}.opens is {_shown_opens(given)} but "
                                f"{format_path(tile_win.tiles_path)}.melds give {_shown_opens(melds_value)} "
                                "(chow, pung, exposed kong and the 碰 under an added kong, G4): they must agree"))
    if feeders is not None:
        return list(feeders), (False, True)
    return given, (False, False)


def _shown_opens(value: Any) -> str:
    if isinstance(value, list):
        return f"{len(value)} (fed by {', '.join(value)})" if value else "0"
    return str(value)


def _kongs(region: Region, tile_win: TileWin, typed: Any, problems: list[Problem]) -> tuple[dict[str, int], bool]:
    """The winner's kongs: ordinary kinds from the kong melds, single-tile kinds (红中杠, 宝杠 ...)
    from ``players.<winner>.kongs``.  When that key names an ordinary kind, the counts must agree.

    Returns the kongs and whether the ordinary ones came from the melds alone.
    """
    given = {k: n for k, n in typed.kongs.items() if region.kongs[k].ordinary}
    special = {k: n for k, n in typed.kongs.items() if not region.kongs[k].ordinary}
    melds = {k: n for k, n in tile_win.kongs.items() if n}
    if given and {k: n for k, n in given.items() if n} != melds:
        where = f"{format_path(tile_win.tiles_path)}.melds"
        problems.append(Problem(("players", tile_win.winner, "kongs"),
                                f"players.{tile_win.winner}.kongs gives {_shown_kongs(given)} but {where} give "
                                f"{_shown_kongs(melds)}: they must agree"))
    return {**special, **melds}, not given


def _shown_kongs(kongs: Mapping[str, int]) -> str:
    shown = ", ".join(f"{n} {k} kong{'s' if n > 1 else ''}" for k, n in kongs.items() if n)
    return shown or "no four-tile kong"


def _chow_problems(hand: Hand, tile_wins: Sequence[TileWin]) -> list[Problem]:
    """A chow is claimed only from the player before the winner in turn order (上家, G1)."""
    out = []
    names = hand.names
    for tile_win in tile_wins:
        if tile_win.winner not in names:
            continue
        before = names[(names.index(tile_win.winner) - 1) % len(names)]
        spec = hand.wins[tile_win.index].tiles
        for j, meld in enumerate(spec.melds):
            if meld.kind == "chow" and meld.from_ is not None and meld.from_ in names and meld.from_ != before:
                out.append(Problem((*tile_win.tiles_path, "melds", j, "from"),
                                   f"a chow (吃) is claimed only from the player before {tile_win.winner} in turn "
                                   f"order, {before}, not {meld.from_} (G1)"))
    return out


def _remapped(problem: Problem, origins: Mapping[str, Origin]) -> Problem:
    """``players.<winner>.opens[j]`` -> ``win.tiles.melds[k].from`` and so on, where the melds gave it."""
    path = problem.path
    if len(path) < 3 or path[0] != "players" or path[1] not in origins:
        return problem
    origin = origins[path[1]]
    melds = (*origin.tile_win.tiles_path, "melds")
    if path[2] == "opens" and len(path) > 3 and isinstance(path[3], int) and origin.feeders_from_melds:
        where = origin.tile_win.claims[path[3]] if path[3] < len(origin.tile_win.claims) else None
        new: Path = melds if where is None else (*melds, where, "from")
    elif (path[2] == "opens" and origin.opens_from_melds) or (path[2] == "kongs" and origin.kongs_from_melds):
        new = melds
    else:
        return problem
    return replace(problem, path=new, message=f"{problem.message} (as the melds give {format_path(path)})")


def _wildcard_copies(prepared: Prepared) -> list[Problem]:
    """Four copies of the wildcard in all: those in hand and melds plus the winner's 癞子杠 (Wuhan)
    or 宝杠 (Wuxue), each one copy played out (H1, W3)."""
    kind = {"wuhan": "laizi", "wuxue": "bao"}.get(prepared.region.key)
    out = []
    for tile_win in prepared.tile_wins:
        wild = wildcard(prepared.region, prepared.hand, tile_win.tiles)
        if kind is None or wild is None:
            continue
        held = tile_win.tiles.all_tiles().count(wild)
        played = prepared.hand.players[tile_win.winner].kongs.get(kind, 0)
        if held + played > 4:
            out.append(Problem((*tile_win.tiles_path, "hand"),
                               f"{held} {WILDCARD_NAMES[prepared.region.key]} {tile_to_str(wild)} in the tiles and "
                               f"{played} {prepared.region.kongs[kind].zh} make {held + played}: there are only 4"))
    return out


def wildcard(region: Region, hand: Hand, tiles: TileHand) -> int | None:
    """The wildcard tile of the winner's hand (Wuhan 癞子 H12, Wuxue 宝 W15), or None."""
    if tiles.indicator is None or region.key == "rushan":
        return None
    if region.key == "wuhan":
        return wuhan_wildcards(tiles.indicator, facai_gang=hand.options.facai_gang).wild
    return wuxue_wildcards(tiles.indicator).wild


# --- step 3: the fans -------------------------------------------------------------------------


def shape_claims(region: Region, win: WinModel) -> list[str]:
    """The items of ``win.fans`` the tiles decide: every one but the situational items and the
    items implied by ``by`` (Wuxue/Rushan ``qiangganghu``, G10)."""
    return [k for k in win.fans if k not in SITUATIONS[region.key] and not implied(region, k)]


def implied(region: Region, key: str) -> bool:
    """An item the win type already scores, named or not (G10: ``qiangganghu`` on ``robbed_kong``
    in Wuxue and Rushan, whose tables give it no value of its own)."""
    return region.patterns[key].kind == "implied"


def situations(region: Region, win: WinModel) -> list[str]:
    """The situational items of ``win.fans`` (``settle.tiles.SITUATIONS``), passed to the engine."""
    return [k for k in win.fans if k in SITUATIONS[region.key]]


def evaluation(prepared: Prepared, tile_win: TileWin) -> Evaluation:
    """Every reading of a winner's tiles, by the engine; its ValueErrors as HandError at their key."""
    hand, region = prepared.hand, prepared.region
    win = hand.wins[tile_win.index]
    try:
        return evaluate_all(region.key, tile_win.tiles, tile_options(region, hand), win.by, situations(region, win))
    except ValueError as exc:
        path = _engine_error_path(str(exc), tile_win, win)
        # The engine names the key first ("indicator: ..."); the path says it already.
        raise HandError([Problem(path, str(exc).removeprefix(f"{path[-1]}: "))]) from None


def tile_options(region: Region, hand: Hand) -> dict[str, Any]:
    """The hand's options the engine reads (``settle.tiles.OPTION_DEFAULTS``: H12, R3, R9).

    The engine ignores every other option, so only these are read off the model (a full
    ``model_dump`` per evaluation costs more than the rest of a small hand's setup).
    """
    options = hand.options
    return {name: getattr(options, name) for name in OPTION_DEFAULTS[region.key] if hasattr(options, name)}


def _engine_error_path(message: str, tile_win: TileWin, win: WinModel) -> Path:
    """The key an :func:`~settle.tiles.evaluate_all` error is about, from its message."""
    base = tile_win.tiles_path
    if message.startswith("meld "):
        for j, meld in enumerate(tile_win.tiles.melds):
            if meld.describe() in message:
                return (*base, "melds", j, "tiles")
        return (*base, "melds")
    prefixes = (("indicator", "indicator"), ("bao_tile", "bao_tile"), ("win_tile", "win_tile"),
                ("option no_honors", "hand"))
    for prefix, key in prefixes:
        if message.startswith(prefix):
            return (*base, key)
    if "flipped indicator" in message:
        return (*base, "hand")
    if message.startswith("situation"):
        if "bao_tile" in message and "winning tile" in message:
            return (*base, "win_tile")
        return (*base, "bao_tile") if "bao_tile" in message else (*tile_win.path, "fans")
    return base


def ordered(region: Region, fans: Iterable[str]) -> tuple[str, ...]:
    """Fan keys in the order of the region's table (the order explanations list them)."""
    keys = set(fans)
    return tuple(k for k in region.patterns if k in keys)


def with_fans(hand: Hand, index: int, fans: Sequence[str]) -> Hand:
    """``hand`` with the ``index``-th win's ``fans`` replaced (keys already canonical)."""
    win = hand.wins[index].model_copy(update={"fans": list(fans)})
    if isinstance(hand.win, list):
        wins = list(hand.win)
        wins[index] = win
        return hand.model_copy(update={"win": wins})
    return hand.model_copy(update={"win": win})


def settle_candidate(prepared: Prepared, hand: Hand, index: int, scored: ScoredReading) -> Candidate:
    """One reading settled: the whole hand with the winner's fans read from the tiles, checked
    by the shared and the region's rules (H8 require_open, W12 ... refuse a reading)."""
    region = prepared.region
    fans = ordered(region, scored.fans)
    trial = with_fans(hand, index, fans)
    problems = rule_problems(region, trial)
    if problems:
        return Candidate(scored, fans, None, tuple(prepared.remap(problems)), trial)
    return Candidate(scored, fans, region.settle(trial), (), trial)


def choice_key(candidate: Candidate, winner: str) -> tuple[int, bool, int]:
    """The order readings are preferred in: the winner's net (most first), then without 包牌,
    then fewer wildcard substitutions (the reading a player would claim)."""
    return (-candidate.net(winner), candidate.liable is not None, candidate.substitutions)


def refuse_unwinnable(tile_win: TileWin, found: Evaluation) -> None:
    """Raise :class:`IllegalWin` at ``win.tiles`` when no reading of the tiles is a legal win.

    Claimed fans are settled as given, but not on tiles that cannot win at all (holding 红中,
    H8; a 癞子皮, W15; no 2/5/8 pair, H8 W12 R9 ...): the tile rules forbid the win itself.
    """
    if not found.legal:
        raise IllegalWin([Problem(tile_win.tiles_path,
                                  f"{tile_win.winner}'s tiles are not a legal win: {found.why_not()}")])


def choose(prepared: Prepared, hand: Hand, tile_win: TileWin, found: Evaluation) -> Choice:
    """The reading kept for ``tile_win`` among the engine's legal ones, the other wins as in ``hand``.

    Raises HandError when no reading is legal: the engine's reason at ``win.tiles``, or the
    problems of the facts that refuse every reading (e.g. H8: the winner has no open).
    """
    winner = tile_win.winner
    refuse_unwinnable(tile_win, found)
    candidates = [settle_candidate(prepared, hand, tile_win.index, scored) for scored in found.legal]
    settled = [c for c in candidates if c.settlement is not None]
    if not settled:
        raise IllegalWin(list(candidates[0].problems))
    ranked = sorted(settled, key=lambda c: choice_key(c, winner))  # stable: engine order breaks ties
    chosen = ranked[0]
    why = _why(chosen, ranked[1:], winner, prepared.region) if len(candidates) > 1 else "the only legal reading"
    return Choice(winner, tile_win.path, tile_win.tiles, chosen, tuple(candidates), found.rejected, why)


# --- resolution: settle a hand with tiles --------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    """A hand with tiles resolved: the hand settled (fans as kept) and the choices made."""

    region: Region
    hand: Hand
    settlement: Settlement
    choices: tuple[Choice, ...]


def resolve(data: Mapping[str, Any], region: Region, hand: Hand) -> Resolution:
    """Steps 1–4 for a pydantic-validated ``hand`` (``data`` is its plain document)."""
    prepared = prepare(data, region, hand)
    current = prepared.hand
    claimed = [tw for tw in prepared.tile_wins if shape_claims(region, current.wins[tw.index])]
    derive = [tw for tw in prepared.tile_wins if tw not in claimed]
    for tile_win in claimed:
        refuse_unwinnable(tile_win, evaluation(prepared, tile_win))
    if not derive:
        problems = rule_problems(region, current)
        if problems:
            raise HandError(prepared.remap(problems))
        return Resolution(region, current, _with_notes(region.settle(current), prepared, ()), ())
    found = {tw.index: evaluation(prepared, tw) for tw in derive}
    choices = []
    for tile_win in derive:  # several winners (R8): each keeps the best given the others' so far
        picked = choose(prepared, current, tile_win, found[tile_win.index])
        current = picked.chosen.hand
        choices.append(picked)
    # The last reading kept was settled on exactly this hand (every winner's fans as kept), and
    # only readings that pass every rule are kept: its settlement is the hand's, as it stands.
    settled = choices[-1].chosen.settlement
    assert current is not None and settled is not None
    return Resolution(region, current, _with_notes(settled, prepared, choices), tuple(choices))


# --- step 4: notes ----------------------------------------------------------------------------


def fan_labels(region: Region, fans: Iterable[str]) -> str:
    """``清一色 qingyise, 硬胡 hard`` (or ``no shape item``)."""
    shown = [f"{region.patterns[k].zh} {k}" for k in fans]
    return ", ".join(shown) if shown else "no shape item"


def reading_text(region: Region, hand: Hand, tiles: TileHand, scored: ScoredReading) -> str:
    """``123m 22m 456m 555m 789m [pung 777p] (癞子 6s as 5m)``: the groups as read, the melds,
    and what each wildcard stands for."""
    reading = scored.reading
    shape = {"seven_pairs": "七对 ", "loose": "乱 (no shape) "}.get(reading.shape, "")
    body = " ".join(format_tiles(g) for g in reading.groups) or format_tiles(reading.tiles)
    melds = " ".join(f"[{m.describe()}]" for m in tiles.melds)
    text = f"{shape}{body}" + (f" {melds}" if melds else "")
    wild = wildcard(region, hand, tiles)
    if wild is not None and reading.wild_values:
        shown = Counter("itself" if v == wild else tile_to_str(v) for v in reading.wild_values)
        values = ", ".join(f"{v} ×{n}" if n > 1 else v for v, n in shown.items())
        text += f" ({WILDCARD_NAMES[region.key]} {tile_to_str(wild)} as {values})"
    return text


def _why(chosen: Candidate, others: Sequence[Candidate], winner: str, region: Region) -> str:
    """Why ``chosen`` beat the next best of ``others`` (same order as :func:`choice_key`)."""
    if not others:
        return "the only reading the hand's facts allow"
    runner = others[0]
    mine, theirs = chosen.net(winner), runner.net(winner)
    other = f"{fan_labels(region, runner.fans)} {_signed(theirs)}"
    if mine != theirs:
        return f"pays {winner} the most, {_signed(mine)} (next best: {other})"
    if chosen.liable is None and runner.liable is not None:
        return f"ties with {other}; preferred without 包牌 (there {runner.liable} would pay for everyone)"
    if chosen.substitutions < runner.substitutions:
        return (f"ties with {other}; preferred with fewer wildcard substitutions "
                f"({chosen.substitutions} against {runner.substitutions})")
    return f"ties with {other} in every respect; the first in the engine's order (most fans)"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _with_notes(settlement: Settlement, prepared: Prepared, choices: Sequence[Choice]) -> Settlement:
    notes = [*settlement.notes, *_fact_notes(prepared)]
    chosen = {c.winner: c for c in choices}
    for tile_win in prepared.tile_wins:
        choice = chosen.get(tile_win.winner)
        if choice is None:
            claims = fan_labels(prepared.region, prepared.hand.wins[tile_win.index].fans)
            notes.append(f"tiles: {tile_win.winner}'s claimed fans are settled as given ({claims}); "
                         "`settle check` compares them with the tiles")
        else:
            notes += choice_notes(prepared.region, prepared.hand, choice)
    return replace(settlement, notes=tuple(notes))


def choice_notes(region: Region, hand: Hand, choice: Choice) -> list[str]:
    """The notes that say which reading was kept for a winner, why, and what else was considered."""
    chosen = choice.chosen
    text = reading_text(region, hand, choice.tiles, chosen.scored)
    notes = [f"reading: {choice.winner}'s tiles read as {text} — {fan_labels(region, chosen.fans)}",
             f"chosen for {choice.winner}: {choice.why}; {len(choice.considered)} legal reading(s) considered "
             "(one per distinct set of fans, each with its fewest wildcard substitutions)"]
    refused = [c for c in choice.considered if c.settlement is None]
    if refused:
        reasons = "; ".join(dict.fromkeys(p.message for c in refused for p in c.problems))
        notes.append(f"refused by the hand's facts: {len(refused)} reading(s) ({reasons})")
    if choice.rejected:
        reasons = "; ".join(sorted({reason for _, reason in choice.rejected}))
        notes.append(f"not legal: {len(choice.rejected)} other reading(s) ({reasons})")
    return notes


def _fact_notes(prepared: Prepared) -> list[str]:
    """What the melds gave each winner (G8: the facts behind the amounts are shown)."""
    out = []
    for name, origin in prepared.origins.items():
        tile_win = origin.tile_win
        fed = f" fed by {', '.join(tile_win.feeders)}" if tile_win.feeders else ""
        kongs = _shown_kongs(tile_win.kongs) if tile_win.kongs else "no four-tile kong"
        out.append(f"tiles: {name}'s melds give {len(tile_win.claims)} open(s){fed} and {kongs}")
    return out


# --- settle check ------------------------------------------------------------------------------


def _compare(prepared: Prepared) -> ClaimCheck:
    """The claimed version against the best reading of the tiles, winner by winner."""
    region, hand = prepared.region, prepared.hand
    claim_problems = rule_problems(region, hand)
    claimed_result = None if claim_problems else region.settle(hand)
    tiles_hand, derived, readings, illegal, notes = _derive_all(prepared)
    if claim_problems and illegal:  # nothing to compare: the hand cannot be settled at all
        claimed_problems = prepared.remap(claim_problems)
        said = {p.message for p in claimed_problems}
        raise HandError([*claimed_problems, *(p for p in illegal.values() if p.message not in said)])
    tiles_result = None if illegal else region.settle(tiles_hand)
    claimed = {tw.winner: counted_fans(region, hand, tw.index) for tw in prepared.tile_wins}
    differences = []
    for tile_win in prepared.tile_wins:
        name = tile_win.winner
        differences += _differences(region, name, claimed[name], derived.get(name), illegal.get(name))
    if claim_problems:
        detail = "; ".join(p.message for p in prepared.remap(claim_problems))
        differences.append(Difference(prepared.tile_wins[0].winner, "claim_refused", None, "—", "", detail))
    notes += _other_reading_notes(prepared, claimed, derived, claimed_result, tiles_result)
    return ClaimCheck(region.key, tuple(hand.names), claimed, derived, readings, tuple(differences),
                      claimed_result, tiles_result, tuple(notes))


def _derive_all(prepared: Prepared) -> tuple[Hand, dict[str, tuple[str, ...] | None], dict[str, str],
                                              dict[str, Problem], list[str]]:
    """Every tile winner's best reading (the claims ignored, situations kept), or why none is legal."""
    region = prepared.region
    current = prepared.hand
    for tw in prepared.tile_wins:
        current = with_fans(current, tw.index, ordered(region, situations(region, current.wins[tw.index])))
    derived: dict[str, tuple[str, ...] | None] = {}
    readings: dict[str, str] = {}
    illegal: dict[str, Problem] = {}
    notes: list[str] = []
    for tile_win in prepared.tile_wins:
        found = evaluation(prepared, tile_win)
        try:
            picked = choose(prepared, current, tile_win, found)
        except IllegalWin as exc:
            illegal[tile_win.winner] = Problem(tile_win.tiles_path, "; ".join(p.message for p in exc.problems))
            derived[tile_win.winner] = None
            continue
        current = with_fans(current, tile_win.index, picked.chosen.fans)
        derived[tile_win.winner] = counted_fans(region, current, tile_win.index)
        readings[tile_win.winner] = reading_text(region, prepared.hand, picked.tiles, picked.chosen.scored)
        notes += choice_notes(region, prepared.hand, picked)[1:]
    return current, derived, readings, illegal, notes


def counted_fans(region: Region, hand: Hand, index: int) -> tuple[str, ...]:
    """The fans that count for the ``index``-th win, as the region settles them: Rushan's base
    (屁胡 when none is named) and counted multipliers (门清 counted unnamed, 门清/一条龙 not
    counted with the option off: R1 R3b); Wuhan 抢杠 implied by ``robbed_kong`` (G10)."""
    win = hand.wins[index]
    if region.key == "rushan":
        from settle.rules.rushan import count_points

        points = count_points(hand, win)
        return ordered(region, (points.base, *points.counted))
    if region.key == "wuhan" and win.by == "robbed_kong":
        return ordered(region, (*win.fans, "qiangganghu"))
    return ordered(region, win.fans)


def _differences(region: Region, winner: str, claimed: Sequence[str], derived: Sequence[str] | None,
                 illegal: Problem | None) -> list[Difference]:
    if illegal is not None or derived is None:
        reason = illegal.message if illegal is not None else "no legal reading"
        return [Difference(winner, "illegal_win", None, "—", "", reason)]
    claimed = [k for k in claimed if not implied(region, k)]
    out = [Difference(winner, "claimed_not_present", k, fan_labels(region, [k]), item_value(region, k))
           for k in claimed if k not in derived]
    out += [Difference(winner, "present_not_claimed", k, fan_labels(region, [k]), item_value(region, k))
            for k in derived if k not in claimed]
    return out


def item_value(region: Region, key: str) -> str:
    """What one item is worth in the region: ``base 10 (H3)``, ``1 番``, ``2 斤``, ``×2``, ``base 2``."""
    pattern = region.patterns[key]
    if region.key == "wuhan":
        return f"base +{pattern.value} (大胡)" if pattern.kind == "big" else f"{pattern.value} 番"
    if region.key == "wuxue":
        return f"{pattern.value} 斤"
    return f"base {pattern.value}" if pattern.kind == "base" else f"×{pattern.value}"


def _other_reading_notes(prepared: Prepared, claimed: Mapping[str, Sequence[str]],
                         derived: Mapping[str, Sequence[str] | None], claimed_result: Settlement | None,
                         tiles_result: Settlement | None) -> list[str]:
    """Say so when a claim that differs from the best reading is still some legal reading of the
    tiles (the table under-claimed, or chose a reading with 包牌), with the winner's net each way."""
    out = []
    for tile_win in prepared.tile_wins:
        name = tile_win.winner
        if derived.get(name) is None or tuple(claimed[name]) == tuple(derived[name]):
            continue
        found = evaluation(prepared, tile_win)
        if tuple(claimed[name]) not in {ordered(prepared.region, s.fans) for s in found.legal}:
            continue
        text = f"{name}'s claim is another legal reading of the tiles, not the one kept"
        if claimed_result is not None and tiles_result is not None:
            text += (f" ({name} nets {_signed(claimed_result.net[name])} with the claim, "
                     f"{_signed(tiles_result.net[name])} with the reading kept)")
        out.append(text)
    return out
