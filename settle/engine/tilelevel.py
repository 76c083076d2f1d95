"""Tile-level settlement (issue 7): settle a hand from the winner's tiles, and check claimed fans.

Sources: HAND-FORMAT.md "The win" (``win.tiles``); RULINGS G3 G4 (what the melds give), G7
(never guess: the winning tile and the indicator are required), G10 (situational items),
H8 H12, W12 W15 W16, R3 R3b R9 (the tile-level rules, applied by :mod:`settle.tiles`).

A hand whose ``win`` (or one of whose wins, Rushan R8) has ``tiles`` goes through four steps:

1. **Read the tiles.**  Each text (``hand``, ``win_tile``, ``melds[i].tiles``, ``indicator``,
   ``bao_tile``) is parsed by the tile engine; every engine error becomes a
   :class:`~settle.errors.Problem` at the key that holds the bad text
   (``win.tiles.melds[1].tiles``): the key the text was read from, or the ``field`` of the
   engine's :class:`~settle.tiles.TileError` (never read off the message).
2. **The melds give the facts.**  The winner's ``opens`` are the claimed melds in meld order
   (chow, pung, exposed kong, and the 碰 under an added kong: G3, G4), fed by their ``from``;
   the winner's ``exposed``/``added``/``concealed`` kongs are the kong melds.  When
   ``players.<winner>.opens``/``kongs`` are given too they must agree (else a problem naming
   both keys).  The *effective hand* is the same plain document with those facts filled in,
   validated by the normal pipeline, so every shared and regional check applies.
3. **The fans.**  Situational items (the region's ``TileRules.situations``: 杠上花/杠开, 海底捞,
   天胡, 地胡, 摸宝, 宝中宝, 抢杠) cannot be seen in tiles: they come from ``win.fans`` and are
   passed to the engine.  Every other item named in ``win.fans`` is a *shape claim*.  With
   shape claims, the claims are settled as given (``settle check`` compares them with the
   tiles), provided some reading of the tiles is a legal win.  Without, every legal reading
   is settled through the region's own ``settle`` and the one a player would claim is kept:
   most for the winner, then without 包牌, then with fewer wildcard substitutions (then the
   engine's order, most fans first).
4. **Say why.**  The settlement's reasons gain steps (worded by :data:`settle.tiles.messages.TILES`)
   naming what the melds gave, the reading kept, the wildcards' values and the reason it was
   chosen, and how many readings were considered; ``Settlement.reading`` holds the same as data
   (see :func:`reading_record`).

The region's tile rules are its :class:`~settle.tiles.TileRules` (``region.tile_rules()``); no
region is named here.

Everything here is a pure function of its arguments (no I/O).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from settle.core import Catalog, Settlement, Step
from settle.engine.validation import has_tiles, rule_problems, validate_model
from settle.errors import HandError, Path, Problem, format_path
from settle.model import Hand, TileMeld, Win, WinTiles
from settle.rules.checks import common_problems, win_path
from settle.rules.registry import Region
from settle.tiles import (
    Evaluation,
    Meld,
    ScoredReading,
    TileError,
    TileHand,
    TileRules,
    evaluate_all,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_to_str,
)
from settle.tiles.messages import TILES, tile_catalog
from settle.tiles.messages import fan_labels as _labels_text
from settle.tiles.rules import reason_key

ORDINARY_KONGS = ("exposed", "added", "concealed")
"""Kong kinds a meld can have (G3); single-tile kongs (红中杠, 宝杠 ...) are no melds."""


def tile_rules(region: Region) -> TileRules:
    """The region's :class:`~settle.tiles.TileRules` (Wuhan H8 H12, Wuxue W12 W15 W16, Rushan R9 ...),
    loaded once per region (its ``tile_rules`` loader).

    Raises :class:`HandError` at ``region`` for a rule set without tile-level play.
    """
    loader = region.tile_rules
    if loader is None:
        raise HandError.at(("region",), f"{region.key} has no tile-level play: give the fans, not win.tiles")
    rules = _LOADED.get(loader)
    if rules is None:
        rules = _LOADED[loader] = loader()
    return rules


_LOADED: dict[Callable[[], Any], TileRules] = {}
"""Each region's tile rules by its loader (a hand with tiles asks for them a dozen times)."""


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
    tile-level rule forbids, with the rule's reason step; ``why``: the reason ``chosen`` was
    kept, a step (``why_only_legal``, ``why_most`` ...; worded by :data:`settle.tiles.messages.TILES`);
    ``wild``: the wildcard tile of the winner's hand, None without one.
    """

    winner: str
    path: Path
    tiles: TileHand
    chosen: Candidate
    considered: tuple[Candidate, ...]
    rejected: tuple[tuple[ScoredReading, Step], ...]
    why: Step
    wild: int | None = None


@dataclass(frozen=True)
class Difference:
    """One way a winner's claimed fans differ from the tiles (``settle check``).

    ``kind``: ``claimed_not_present`` (named in ``win.fans``, not in the tiles' best
    reading), ``present_not_claimed``, ``illegal_win`` (the tiles are no legal win; ``fan``
    is None) or ``claim_refused`` (the claim breaks a rule of the hand's facts; ``fan`` None).
    ``value``: what the item is worth in the region (``base 10``, ``2 斤``, ``×2``); ``detail``: why
    (English), and ``reasons`` the same as steps (for the words in another language).
    """

    winner: str
    kind: str
    fan: str | None
    label: str
    value: str
    detail: str = ""
    reasons: tuple[Step, ...] = ()

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
    an ``illegal_win`` difference to ``settle check``.  ``reasons``: why, as steps (the engine's
    reasons, or ``problems_at`` naming the keys of the problems), for the words in another language."""

    reasons: tuple[Step, ...] = ()


def illegal_win(problems: list[Problem], reasons: Sequence[Step]) -> IllegalWin:
    """An :class:`IllegalWin` of ``problems`` with its ``reasons`` as steps."""
    error = IllegalWin(problems)
    error.reasons = tuple(reasons)
    return error


def problems_step(problems: Sequence[Problem]) -> Step:
    """The problems of a refused claim or reading as a step: their messages (English only) and keys."""
    return Step("", "problems_at", {"problems": tuple(p.message for p in problems),
                                    "paths": tuple(dict.fromkeys(format_path(p.path) for p in problems))})


@dataclass(frozen=True)
class ClaimCheck:
    """What ``settle check`` reports: the claimed fans against the tiles.

    ``claimed``/``derived``: per winner, the counted fan keys (Rushan: the base and the
    counted multipliers, R1 R3b; Wuhan 抢杠 implied by ``robbed_kong``); ``derived`` is None
    for a winner whose tiles are no legal win.  ``reading_steps``: per winner with a legal
    reading, the reading kept as a ``tiles_read`` step (:attr:`readings` in English).
    ``claimed_result``/``tiles_result``: the hand settled each way (None when that way cannot
    be settled).  ``reasons``: the check's notes as steps (why each reading was kept, readings
    refused, a claim that is another legal reading), worded by ``catalog`` (:attr:`notes` in
    English).  ``agree`` when there is no difference.
    """

    region: str
    players: tuple[str, ...]
    claimed: dict[str, tuple[str, ...]]
    derived: dict[str, tuple[str, ...] | None]
    reading_steps: dict[str, Step]
    differences: tuple[Difference, ...]
    claimed_result: Settlement | None
    tiles_result: Settlement | None
    reasons: tuple[Step, ...] = ()
    catalog: Catalog = field(default=TILES, repr=False, compare=False)

    @property
    def readings(self) -> dict[str, str]:
        """Winner -> the reading kept in English (``123m 22m ... (癞子 6s as 5m)``)."""
        return self.reading_texts("en")

    def reading_texts(self, lang: str = "en") -> dict[str, str]:
        """Winner -> the reading kept in ``lang``."""
        return {name: self.catalog.text(item, lang) for name, item in self.reading_steps.items()}

    @property
    def notes(self) -> tuple[str, ...]:
        """The reasons in English (the check table's ``*`` lines)."""
        return tuple(self.note_texts("en"))

    def note_texts(self, lang: str = "en") -> list[str]:
        """The reasons in ``lang``."""
        return [self.catalog.text(item, lang) for item in self.reasons]

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
    open, or None when no meld names its ``from``; ``kongs``: ordinary kong kind -> count;
    ``wild``: the wildcard tile (:func:`wildcard`), None without one.
    """

    index: int
    path: Path
    winner: str
    tiles: TileHand
    claims: tuple[int, ...]
    feeders: tuple[str, ...] | None
    kongs: dict[str, int]
    wild: int | None = None

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
    spec = _tiles_of(win)
    problems: list[Problem] = []
    concealed = _parsed(spec.hand, (*base, "hand"), problems, parse_tiles)
    win_tile = _win_tile(spec.win_tile, (*base, "win_tile"), problems)
    indicator = _parsed(spec.indicator, (*base, "indicator"), problems, parse_tile)
    bao_tile = _parsed(spec.bao_tile, (*base, "bao_tile"), problems, parse_tile)
    read = [_meld(region, win, m, (*base, "melds", j), problems) for j, m in enumerate(spec.melds)]
    problems += _feeder_problems(win, spec.melds, base)
    if problems:
        return None, problems
    melds = [m for m in read if m is not None]  # all of them: a meld not read is a problem
    try:
        tiles = TileHand(tuple(concealed), win_tile, tuple(melds), indicator, bao_tile)
    except ValueError as exc:  # a TileError names its key (hand, win_tile, melds); else the tiles as a whole
        return None, [Problem((*base, *_field(exc)), str(exc))]
    claims = tuple(j for j, m in enumerate(melds) if m.claimed)
    # ``from`` on every claimed meld or on none (_feeder_problems): the feeders, or None.
    named = [feeder for j in claims if (feeder := spec.melds[j].from_) is not None]
    feeders = tuple(named) if named else None
    kongs = Counter(m.kong_kind for m in melds if m.kind == "kong" and m.kong_kind is not None)
    return TileWin(index, win_path(hand, index), win.winner, tiles, claims, feeders, dict(kongs),
                   wildcard(region, hand, tiles)), []


def _tiles_of(win: Win) -> WinTiles:
    """``win.tiles`` of a win that gives them (a tile win); TypeError otherwise: a caller's mistake."""
    if win.tiles is None:
        raise TypeError(f"the win of {win.winner} gives no tiles")
    return win.tiles


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


def _meld(region: Region, win: Win, spec: TileMeld, path: Path, problems: list[Problem]) -> Meld | None:
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
    except ValueError as exc:  # at the meld's key the engine names (tiles, kind, kong); tiles by default
        problems.append(Problem((*path, *(_field(exc) or ("tiles",))), str(exc)))
        return None


def _field(exc: ValueError) -> Path:
    """The key path a tile engine error is about (:attr:`TileError.path`), empty when it names none."""
    return exc.path if isinstance(exc, TileError) else ()


def _meld_kind_problems(region: Region, win: Win, spec: TileMeld, path: Path) -> list[Problem]:
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


def _feeder_problems(win: Win, melds: Sequence[TileMeld], base: Path) -> list[Problem]:
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
        spec = _tiles_of(hand.wins[tile_win.index])
        for j, meld in enumerate(spec.melds):
            if meld.kind == "chow" and meld.from_ is not None and meld.from_ in names and meld.from_ != before:
                out.append(Problem((*tile_win.tiles_path, "melds", j, "from"),
                                   f"a chow (吃) is claimed only from the player before {tile_win.winner} in turn "
                                   f"order, {before}, not {meld.from_} (G1)"))
    return out


def _remapped(problem: Problem, origins: Mapping[str, Origin]) -> Problem:
    """``players.<winner>.opens[j]`` -> ``win.tiles.melds[k].from`` and so on, where the melds gave it."""
    path = problem.path
    if len(path) < 3 or path[0] != "players" or not isinstance(path[1], str) or path[1] not in origins:
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
    """Four copies of the wildcard in all: those in hand and melds plus the winner's single-tile
    kongs of it (``TileRules.wildcard_kong``: Wuhan 癞子杠, Wuxue 宝杠), each one copy played out (H1, W3)."""
    rules = tile_rules(prepared.region)
    kind = rules.wildcard_kong
    out: list[Problem] = []
    if kind is None:
        return out
    for tile_win in prepared.tile_wins:
        wild = tile_win.wild
        if wild is None:
            continue
        held = tile_win.tiles.all_tiles().count(wild)
        played = prepared.hand.players[tile_win.winner].kongs.get(kind, 0)
        if held + played > 4:
            out.append(Problem((*tile_win.tiles_path, "hand"),
                               f"{held} {rules.wildcard_name} {tile_to_str(wild)} in the tiles and "
                               f"{played} {prepared.region.kongs[kind].zh} make {held + played}: there are only 4"))
    return out


def wildcard(region: Region, hand: Hand, tiles: TileHand) -> int | None:
    """The wildcard tile of the winner's hand (Wuhan 癞子 H12, Wuxue 宝 W15), or None (no
    indicator, or a region without wildcards such as Rushan, R9)."""
    rules = tile_rules(region)
    if not rules.flips_indicator or tiles.indicator is None:
        return None
    return rules.wildcard_tile(tiles, tile_options(region, hand))


# --- step 3: the fans -------------------------------------------------------------------------


def shape_claims(region: Region, win: Win) -> list[str]:
    """The items of ``win.fans`` the tiles decide: every one but the situational items and the
    items implied by ``by`` (Wuxue/Rushan ``qiangganghu``, G10)."""
    stated = tile_rules(region).situations
    return [k for k in win.fans if k not in stated and not implied(region, k)]


def implied(region: Region, key: str) -> bool:
    """An item the win type already scores, named or not (G10: ``qiangganghu`` on ``robbed_kong``
    in Wuxue and Rushan, whose tables give it no value of its own)."""
    return region.patterns[key].kind == "implied"


def situations(region: Region, win: Win) -> list[str]:
    """The situational items of ``win.fans`` (the region's ``TileRules.situations``), passed to the engine."""
    stated = tile_rules(region).situations
    return [k for k in win.fans if k in stated]


def evaluation(prepared: Prepared, tile_win: TileWin) -> Evaluation:
    """Every reading of a winner's tiles, by the engine; its errors as HandError at their key."""
    hand, region = prepared.hand, prepared.region
    win = hand.wins[tile_win.index]
    try:
        return evaluate_all(tile_rules(region), tile_win.tiles, tile_options(region, hand), win.by,
                            situations(region, win))
    except ValueError as exc:
        raise HandError([engine_problem(exc, tile_win)]) from None


def engine_problem(exc: ValueError, tile_win: TileWin) -> Problem:
    """An :func:`~settle.tiles.evaluate_all` error as a problem at its key: a
    :class:`~settle.tiles.TileError`'s ``field`` under ``win.tiles`` (``win.tiles.melds[1].tiles``),
    ``fans`` under the win itself, no field (or another ValueError) at ``win.tiles``; its words
    without the key the path already says (``detail``)."""
    if not isinstance(exc, TileError):
        return Problem(tile_win.tiles_path, str(exc))
    if exc.field == "fans":
        return Problem((*tile_win.path, "fans"), exc.detail)
    return Problem((*tile_win.tiles_path, *exc.path), exc.detail)


def tile_options(region: Region, hand: Hand) -> dict[str, Any]:
    """The hand's options the engine reads (the region's ``TileRules.option_defaults``: H12, R3, R9).

    The engine ignores every other option, so only these are read off the model (a full
    ``model_dump`` per evaluation costs more than the rest of a small hand's setup).
    """
    options = hand.options
    return {name: getattr(options, name) for name in tile_rules(region).option_defaults if hasattr(options, name)}


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
        raise illegal_win([Problem(tile_win.tiles_path,
                                   f"{tile_win.winner}'s tiles are not a legal win: {found.why_not()}")],
                          found.why_not_steps())


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
        raise illegal_win(list(candidates[0].problems), [problems_step(candidates[0].problems)])
    ranked = sorted(settled, key=lambda c: choice_key(c, winner))  # stable: engine order breaks ties
    chosen = ranked[0]
    why = _why(chosen, ranked[1:], winner, prepared.region) if len(candidates) > 1 else Step("", "why_only_legal", {})
    return Choice(winner, tile_win.path, tile_win.tiles, chosen, tuple(candidates), found.rejected, why,
                  tile_win.wild)


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
        return Resolution(region, current, _with_reasons(region.settle(current), prepared, ()), ())
    found = {tw.index: evaluation(prepared, tw) for tw in derive}
    choices = []
    for tile_win in derive:  # several winners (R8): each keeps the best given the others' so far
        picked = choose(prepared, current, tile_win, found[tile_win.index])
        assert picked.chosen.hand is not None  # a reading is kept settled, with the hand it settled
        current = picked.chosen.hand
        choices.append(picked)
    # The last reading kept was settled on exactly this hand (every winner's fans as kept), and
    # only readings that pass every rule are kept: its settlement is the hand's, as it stands.
    settled = choices[-1].chosen.settlement
    assert settled is not None
    return Resolution(region, current, _with_reasons(settled, prepared, choices), tuple(choices))


# --- step 4: reasons ---------------------------------------------------------------------------


def fan_items(region: Region, fans: Iterable[str]) -> tuple[dict[str, str], ...]:
    """The fans as ``{"key", "zh"}`` items (what the ``tiles_*`` steps name), in the order given."""
    return tuple({"key": k, "zh": region.patterns[k].zh} for k in fans)


def fan_labels(region: Region, fans: Iterable[str]) -> str:
    """``清一色 qingyise, 硬胡 hard`` (or ``no shape item``), in English."""
    return _labels_text(fan_items(region, fans))


def reading_step(region: Region, tiles: TileHand, scored: ScoredReading, wild: int | None) -> Step:
    """The reading as a ``tiles_read`` step: its shape, the groups as read (tile notation), the
    melds, and what each wildcard stands for (``read_as``: (tile, or None for itself; count), in
    the order first met), with the wildcard's name (``TileRules.wildcard_name``: 癞子 H12, 宝 W15).
    ``wild``: the hand's wildcard tile (:func:`wildcard`), None without one."""
    reading = scored.reading
    groups = tuple(format_tiles(g) for g in reading.groups) or (format_tiles(reading.tiles),)
    melds = tuple({"kind": m.kind, "kong": m.kong_kind, "tiles": format_tiles(m.tiles)} for m in tiles.melds)
    read_as: tuple[tuple[str | None, int], ...] = ()
    if wild is not None and reading.wild_values:
        read_as = tuple(Counter(None if v == wild else tile_to_str(v) for v in reading.wild_values).items())
    return Step("", "tiles_read", {"shape": reading.shape, "groups": groups, "melds": melds,
                                   "wildcard": tile_rules(region).wildcard_name,
                                   "wild": None if wild is None else tile_to_str(wild), "read_as": read_as})


def reading_text(region: Region, hand: Hand, tiles: TileHand, scored: ScoredReading) -> str:
    """``123m 22m 456m 555m 789m [pung 777p] (癞子 6s as 5m)``: the groups as read, the melds,
    and what each wildcard stands for (:func:`reading_step` in English)."""
    return tile_catalog(region.catalog).text(reading_step(region, tiles, scored, wildcard(region, hand, tiles)), "en")


def reading_record(choice: Choice) -> dict[str, Any]:
    """The reading kept for a winner as data (``Settlement.reading``):
    ``{"winner", "fans": [keys], "substitutions": [{"wildcard": "6s", "as": "2m"}, ...], "considered": n}``,
    one substitution per wildcard read as another tile (H8 W16; none when every one is itself),
    ``considered`` the legal readings settled."""
    reading = choice.chosen.scored.reading
    wild = choice.wild
    substitutions = [] if wild is None else [{"wildcard": tile_to_str(wild), "as": tile_to_str(v)}
                                             for v in reading.wild_values if v != wild]
    return {"winner": choice.winner, "fans": list(choice.chosen.fans), "substitutions": substitutions,
            "considered": len(choice.considered)}


def _why(chosen: Candidate, others: Sequence[Candidate], winner: str, region: Region) -> Step:
    """Why ``chosen`` beat the next best of ``others`` (same order as :func:`choice_key`), as a step."""
    if not others:
        return Step("", "why_only_allowed", {})
    runner = others[0]
    mine, theirs = chosen.net(winner), runner.net(winner)
    versus = {"next_fans": fan_items(region, runner.fans), "next_net": theirs}
    if mine != theirs:
        return Step("", "why_most", {"winner": winner, "net": mine, **versus})
    if chosen.liable is None and runner.liable is not None:
        return Step("", "why_no_liable", {"liable": runner.liable, **versus})
    if chosen.substitutions < runner.substitutions:
        return Step("", "why_fewer_substitutions", {"substitutions": chosen.substitutions,
                                                    "next_substitutions": runner.substitutions, **versus})
    return Step("", "why_first", versus)


def _with_reasons(settlement: Settlement, prepared: Prepared, choices: Sequence[Choice]) -> Settlement:
    """The settlement with the tile-level steps after its own reasons, worded by the tile words in
    front of its catalog (:func:`~settle.tiles.messages.tile_catalog`), and ``reading`` filled in
    (the first tile winner's reading kept; the others under ``"others"`` when several winners'
    readings were chosen, R8; None when every tile winner's claims were settled as given)."""
    steps = fact_steps(prepared)
    chosen = {c.winner: c for c in choices}
    for tile_win in prepared.tile_wins:
        choice = chosen.get(tile_win.winner)
        if choice is None:
            claims = fan_items(prepared.region, prepared.hand.wins[tile_win.index].fans)
            steps.append(Step("", "tiles_claimed", {"winner": tile_win.winner, "fans": claims}))
        else:
            steps += choice_steps(prepared.region, choice)
    records = [reading_record(c) for c in choices]
    reading = None
    if records:
        reading = {**records[0], "others": records[1:]} if len(records) > 1 else records[0]
    return replace(settlement, reasons=(*settlement.reasons, *steps), reading=reading,
                   catalog=tile_catalog(settlement.catalog))


def choice_steps(region: Region, choice: Choice) -> list[Step]:
    """The steps that say which reading was kept for a winner, why, and what else was considered:
    ``tiles_reading``, ``tiles_chosen``, then ``tiles_refused`` (readings the hand's facts refuse)
    and ``tiles_not_legal`` (readings a tile rule forbids, their reasons by ruling) where any.
    ``tiles_refused`` holds the problems' messages (English only) and their key paths."""
    chosen = choice.chosen
    read = reading_step(region, choice.tiles, chosen.scored, choice.wild)
    steps = [Step("", "tiles_reading", {"winner": choice.winner, "read": read, "fans": fan_items(region, chosen.fans)}),
             Step("", "tiles_chosen", {"winner": choice.winner, "why": choice.why,
                                       "considered": len(choice.considered)})]
    refused = [c for c in choice.considered if c.settlement is None]
    if refused:
        problems = tuple(dict.fromkeys(p.message for c in refused for p in c.problems))
        paths = tuple(dict.fromkeys(format_path(p.path) for c in refused for p in c.problems))
        steps.append(Step("", "tiles_refused", {"count": len(refused), "problems": problems, "paths": paths}))
    if choice.rejected:
        reasons = tuple(sorted(dict.fromkeys(why for _, why in choice.rejected), key=reason_key))
        steps.append(Step("", "tiles_not_legal", {"count": len(choice.rejected), "reasons": reasons}))
    return steps


def fact_steps(prepared: Prepared) -> list[Step]:
    """What the melds gave each winner, as ``tiles_melds`` steps (G4; G8: the facts behind the
    amounts are shown): the opens, who fed them, the four-tile kongs by kind."""
    out = []
    for name, origin in prepared.origins.items():
        tile_win = origin.tile_win
        out.append(Step("G4", "tiles_melds", {"winner": name, "opens": len(tile_win.claims),
                                              "feeders": tile_win.feeders or (),
                                              "kongs": tuple(tile_win.kongs.items())}))
    return out


# --- settle check ------------------------------------------------------------------------------


def _compare(prepared: Prepared) -> ClaimCheck:
    """The claimed version against the best reading of the tiles, winner by winner."""
    region, hand = prepared.region, prepared.hand
    claim_problems = rule_problems(region, hand)
    claimed_result = None if claim_problems else region.settle(hand)
    tiles_hand, derived, readings, illegal, reasons, illegal_reasons = _derive_all(prepared)
    if claim_problems and illegal:  # nothing to compare: the hand cannot be settled at all
        claimed_problems = prepared.remap(claim_problems)
        said = {p.message for p in claimed_problems}
        raise HandError([*claimed_problems, *(p for p in illegal.values() if p.message not in said)])
    tiles_result = None if illegal else region.settle(tiles_hand)
    claimed = {tw.winner: counted_fans(region, hand, tw.index) for tw in prepared.tile_wins}
    differences = []
    for tile_win in prepared.tile_wins:
        name = tile_win.winner
        differences += _differences(region, name, claimed[name], derived.get(name), illegal.get(name),
                                    illegal_reasons.get(name, ()))
    if claim_problems:
        refused = prepared.remap(claim_problems)
        detail = "; ".join(p.message for p in refused)
        differences.append(Difference(prepared.tile_wins[0].winner, "claim_refused", None, "—", "", detail,
                                      (problems_step(refused),)))
    reasons += _other_reading_steps(prepared, claimed, derived, claimed_result, tiles_result)
    return ClaimCheck(region.key, tuple(hand.names), claimed, derived, readings, tuple(differences),
                      claimed_result, tiles_result, tuple(reasons), tile_catalog(region.catalog))


def _derive_all(prepared: Prepared) -> tuple[Hand, dict[str, tuple[str, ...] | None], dict[str, Step],
                                              dict[str, Problem], list[Step], dict[str, tuple[Step, ...]]]:
    """Every tile winner's best reading (the claims ignored, situations kept), or why none is legal
    (the problem, and its reasons as steps)."""
    region = prepared.region
    current = prepared.hand
    for tw in prepared.tile_wins:
        current = with_fans(current, tw.index, ordered(region, situations(region, current.wins[tw.index])))
    derived: dict[str, tuple[str, ...] | None] = {}
    readings: dict[str, Step] = {}
    illegal: dict[str, Problem] = {}
    illegal_reasons: dict[str, tuple[Step, ...]] = {}
    steps: list[Step] = []
    for tile_win in prepared.tile_wins:
        found = evaluation(prepared, tile_win)
        try:
            picked = choose(prepared, current, tile_win, found)
        except IllegalWin as exc:
            illegal[tile_win.winner] = Problem(tile_win.tiles_path, "; ".join(p.message for p in exc.problems))
            illegal_reasons[tile_win.winner] = exc.reasons
            derived[tile_win.winner] = None
            continue
        current = with_fans(current, tile_win.index, picked.chosen.fans)
        derived[tile_win.winner] = counted_fans(region, current, tile_win.index)
        readings[tile_win.winner] = reading_step(region, picked.tiles, picked.chosen.scored, picked.wild)
        steps += choice_steps(region, picked)[1:]  # the reading itself is in the table
    return current, derived, readings, illegal, steps, illegal_reasons


def counted_fans(region: Region, hand: Hand, index: int) -> tuple[str, ...]:
    """The fans that count for the ``index``-th win, as the region settles them, in table order:
    ``region.counted_fans`` where the region gives one, else its ``TileRules.counted_fans`` (the
    fans named and those ``by`` implies, Wuhan 抢杠 on ``robbed_kong`` G10; Rushan's base, 屁胡 when
    none is named, and counted multipliers, R1 R3b)."""
    if region.counted_fans is not None:
        return region.counted_fans(hand, index)
    return ordered(region, tile_rules(region).counted_fans(hand, hand.wins[index]))


def _differences(region: Region, winner: str, claimed: Sequence[str], derived: Sequence[str] | None,
                 illegal: Problem | None, reasons: Sequence[Step] = ()) -> list[Difference]:
    if illegal is not None or derived is None:
        reason = illegal.message if illegal is not None else "no legal reading"
        return [Difference(winner, "illegal_win", None, "—", "", reason, tuple(reasons))]
    claimed = [k for k in claimed if not implied(region, k)]
    out = [Difference(winner, "claimed_not_present", k, fan_labels(region, [k]), item_value(region, k))
           for k in claimed if k not in derived]
    out += [Difference(winner, "present_not_claimed", k, fan_labels(region, [k]), item_value(region, k))
            for k in derived if k not in claimed]
    return out


def item_value(region: Region, key: str) -> str:
    """What one item is worth in the region (``base +10 (大胡)``, ``1 番``, ``2 斤``, ``×2``, ``base 2``):
    ``region.item_value`` where the region gives one, else its ``TileRules.item_value``."""
    if region.item_value is not None:
        return region.item_value(key)
    return tile_rules(region).item_value(region.patterns[key])


def _other_reading_steps(prepared: Prepared, claimed: Mapping[str, Sequence[str]],
                         derived: Mapping[str, Sequence[str] | None], claimed_result: Settlement | None,
                         tiles_result: Settlement | None) -> list[Step]:
    """Say so (a ``claim_other_reading`` step) when a claim that differs from the best reading is
    still some legal reading of the tiles (the table under-claimed, or chose a reading with 包牌),
    with the winner's net each way (None when either way cannot be settled)."""
    out = []
    for tile_win in prepared.tile_wins:
        name = tile_win.winner
        kept = derived.get(name)
        if kept is None or tuple(claimed[name]) == tuple(kept):
            continue
        found = evaluation(prepared, tile_win)
        if tuple(claimed[name]) not in {ordered(prepared.region, s.fans) for s in found.legal}:
            continue
        both = claimed_result is not None and tiles_result is not None
        out.append(Step("", "claim_other_reading", {
            "winner": name,
            "claim_net": claimed_result.net[name] if both and claimed_result is not None else None,
            "kept_net": tiles_result.net[name] if both and tiles_result is not None else None}))
    return out
