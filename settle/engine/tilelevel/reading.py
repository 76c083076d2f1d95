"""Steps 1 and 2: read the tiles and build the effective hand.

Every ``win.tiles`` text is parsed by the tile engine (:func:`read_tiles`: a :class:`TileWin`),
the winners' opens and kongs are filled in from the melds (G3 G4), and the effective hand is
checked by the shared checks (:func:`prepare`: a :class:`Prepared`).  Problems of the effective
hand are put back at the keys the user wrote (:meth:`Prepared.remap`, :class:`Origin`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from settle.engine.tilelevel.region import tile_options, tile_rules
from settle.errors import HandError, Path, Problem, format_path
from settle.model import Hand, TileMeld, Win, WinTiles
from settle.rules.checks import common_problems, win_path
from settle.rules.registry import Region
from settle.tiles import Meld, TileError, TileHand, parse_tile, parse_tiles, tile_to_str
from settle.tiles.hand import closed_hand
from settle.tiles.notation import parse_tile_ids
from settle.tiles.quick import quick_init

ORDINARY_KONGS = ("exposed", "added", "concealed")
"""Kong kinds a meld can have (G3); single-tile kongs (红中杠, 宝杠 ...) are no melds."""


@quick_init
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


@quick_init
@dataclass(frozen=True)
class Origin:
    """Which of a winner's facts in the effective hand came from the melds (for error paths)."""

    tile_win: TileWin
    opens_from_melds: bool
    feeders_from_melds: bool
    kongs_from_melds: bool


@quick_init
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


def prepare(data: Mapping[str, Any] | None, region: Region, hand: Hand) -> Prepared:
    """Steps 1–2: read every win's tiles, fill the winners' opens/kongs from the melds, and
    check the effective hand (the shared checks, with the claimed fans).

    ``hand`` is ``data`` validated by pydantic (only ``hand`` is read; ``data`` may be None); the
    effective hand is a copy of it with the winners' facts filled in (see :func:`_effective_hand`).
    Raises :class:`HandError` with every problem found.
    """
    one = hand.win
    if one is not None and type(one) is not list and one.tiles is not None:  # type: ignore[union-attr]
        # One win whose tiles are a closed hand, all read (:func:`_closed_hand`), its winner a player
        # with no kong and no opens given (the usual tile hand): the melds give what he has (no open,
        # no kong), so the effective hand is ``hand`` itself, and there is no wildcard to count.
        tile_win = _closed_hand(one, 0, False)  # type: ignore[arg-type]
        if tile_win is not None:
            name = tile_win.winner
            players = hand.players
            typed = players.get(name)
            if typed is not None and not typed.kongs and "opens" not in typed.__pydantic_fields_set__:
                prepared = Prepared(region, hand, (tile_win,), {name: Origin(tile_win, True, False, True)})
                problems = common_problems(hand, region)
                if problems:
                    raise HandError(prepared.remap(problems))
                return prepared
    tile_wins, problems = _read_all_tiles(region, hand)
    if problems:  # with the problems that do not depend on the tiles, so one pass fixes the file
        raise HandError([*problems, *common_problems(hand, region)])
    effective, origins, problems = _effective_hand(region, hand, tile_wins)
    if problems:
        raise HandError(problems)
    prepared = Prepared(region, effective, tuple(tile_wins), origins)
    problems = common_problems(effective, region)
    problems = prepared.remap(problems) if problems else _wildcard_copies(prepared)
    if problems:
        raise HandError(problems)
    return prepared


def _read_all_tiles(region: Region, hand: Hand) -> tuple[list[TileWin], list[Problem]]:
    tile_wins: list[TileWin] = []
    problems: list[Problem] = []
    stated = hand.win
    listed = isinstance(stated, list)
    wins: Sequence[Win] = stated if isinstance(stated, list) else () if stated is None else (stated,)  # hand.wins
    for i, win in enumerate(wins):
        if win.tiles is None:
            continue
        tile_win = _closed_hand(win, i, listed)
        if tile_win is None:
            tile_win, found = read_tiles(region, hand, i)
            problems += found
        if tile_win is not None:
            tile_wins.append(tile_win)
    return tile_wins, problems


_ONE_WIN: Path = ("win",)


def _closed_hand(win: Win, index: int, listed: bool) -> TileWin | None:
    """Step 1 for the usual win: concealed tiles and a winning tile, nothing else (no meld, no
    indicator, no 宝 tile), all read.  None when the win is not that, or its tiles have a problem:
    :func:`read_tiles` reads it then, and says what the problems are.  ``listed``: ``win`` is a
    list (its entries are at ``win[i]``)."""
    spec = win.tiles
    if spec is None or spec.melds or spec.indicator is not None or spec.bao_tile is not None or spec.win_tile is None:
        return None
    try:
        tiles = closed_hand(parse_tile_ids(spec.hand), parse_tile(spec.win_tile))
    except ValueError:
        return None
    return TileWin(index, ("win", index) if listed else _ONE_WIN, win.winner, tiles, (), None, _NO_KONGS)


_NO_KONGS: dict[str, int] = {}
"""The kongs of a win without melds (never changed)."""


def read_tiles(region: Region, hand: Hand, index: int) -> tuple[TileWin | None, list[Problem]]:
    """Step 1 for the ``index``-th win: its :class:`TileWin`, or None and the problems found."""
    win = hand.wins[index]
    path = win_path(hand, index)
    base = (*path, "tiles")
    spec = _tiles_of(win)
    specs = spec.melds
    problems: list[Problem] = []
    concealed = _parsed(spec.hand, base, "hand", problems, parse_tiles)
    win_tile = _win_tile(spec.win_tile, base, problems)
    indicator = None if spec.indicator is None else _parsed(spec.indicator, base, "indicator", problems, parse_tile)
    bao_tile = None if spec.bao_tile is None else _parsed(spec.bao_tile, base, "bao_tile", problems, parse_tile)
    read = [_meld(region, win, m, (*base, "melds", j), problems) for j, m in enumerate(specs)] if specs else []
    if specs:
        problems += _feeder_problems(win, specs, base)
    if problems:
        return None, problems
    melds = tuple(m for m in read if m is not None)  # all of them: a meld not read is a problem
    try:
        tiles = TileHand(tuple(concealed), win_tile, melds, indicator, bao_tile)
    except ValueError as exc:  # a TileError names its key (hand, win_tile, melds); else the tiles as a whole
        return None, [Problem((*base, *_field(exc)), str(exc), **engine_words(exc))]
    if not melds:
        return TileWin(index, path, win.winner, tiles, (), None, {}, wildcard(region, hand, tiles)), []
    claims = tuple(j for j, m in enumerate(melds) if m.claimed)
    # ``from`` on every claimed meld or on none (_feeder_problems): the feeders, or None.
    named = [feeder for j in claims if (feeder := specs[j].from_) is not None]
    feeders = tuple(named) if named else None
    kongs = Counter(m.kong_kind for m in melds if m.kind == "kong" and m.kong_kind is not None)
    return TileWin(index, path, win.winner, tiles, claims, feeders, dict(kongs),
                   wildcard(region, hand, tiles)), []


def _tiles_of(win: Win) -> WinTiles:
    """``win.tiles`` of a win that gives them (a tile win); TypeError otherwise: a caller's mistake."""
    if win.tiles is None:
        raise TypeError(f"the win of {win.winner} gives no tiles")
    return win.tiles


def _parsed(text: str | None, base: Path, key: str, problems: list[Problem], parse: Any) -> Any:
    """``parse(text)`` (None for no text); its error a problem at ``base`` + ``key``."""
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        problems.append(Problem((*base, key), str(exc), **engine_words(exc)))
        return None


def _win_tile(text: str | None, base: Path, problems: list[Problem]) -> Any:
    if text is None:
        problems.append(Problem((*base, "win_tile"), "missing: the winning tile, one of the tiles in `hand` (e.g. "
                                                     "win_tile: 5m); it decides whether a wildcard was won on and "
                                                     "摸宝 (G7)", kind="win_tile_missing", values={}))
        return None
    return _parsed(text, base, "win_tile", problems, parse_tile)


def _meld(region: Region, win: Win, spec: TileMeld, path: Path, problems: list[Problem]) -> Meld | None:
    """One declared meld as an engine :class:`~settle.tiles.Meld`; problems at its keys."""
    found = _meld_kind_problems(region, win, spec, path)
    if found:
        problems += found
        return None
    tiles = _parsed(spec.tiles, path, "tiles", problems, parse_tiles)
    if tiles is None:
        return None
    try:
        return Meld(spec.kind, tuple(tiles), None, spec.kong)
    except ValueError as exc:  # at the meld's key the engine names (tiles, kind, kong); tiles by default
        problems.append(Problem((*path, *(_field(exc) or ("tiles",))), str(exc), **engine_words(exc)))
        return None


def engine_words(exc: ValueError) -> dict[str, Any]:
    """The ``kind`` and ``values`` of a tile engine error (:class:`TileError`), for the problem that shows
    it (its words in Chinese: :mod:`settle.tiles.problems`, a region's ``problem_zh``); none for an error
    without them."""
    if isinstance(exc, TileError) and exc.kind:
        return {"kind": exc.kind, "values": exc.values if exc.values is not None else {}}
    return {}


def _field(exc: ValueError) -> Path:
    """The key path a tile engine error is about (:attr:`TileError.path`), empty when it names none."""
    return exc.path if isinstance(exc, TileError) else ()


def _meld_kind_problems(region: Region, win: Win, spec: TileMeld, path: Path) -> list[Problem]:
    """``kong`` given exactly for kongs, an ordinary kind (G3); no ``from`` on a concealed kong."""
    if spec.kind == "kong" and spec.kong is None:
        return [Problem((*path, "kong"), "missing: the kong's kind (exposed 明杠, added 补杠 or concealed 暗杠)",
                        kind="kong_kind_missing", values={})]
    if spec.kind != "kong" and spec.kong is not None:
        return [Problem((*path, "kong"), f"only a kong has a kong kind; this meld is a {spec.kind}",
                        kind="kong_kind_not_kong", values={"meld": spec.kind})]
    if spec.kong is not None and spec.kong not in ORDINARY_KONGS:
        term = region.kongs[spec.kong]
        return [Problem((*path, "kong"), f"{term.label} is one tile played out, not a four-tile meld: count it in "
                                         f"players.{win.winner}.kongs", kind="single_tile_kong_meld",
                        values={"zh": term.zh, "winner": win.winner})]
    if spec.kong == "concealed" and spec.from_ is not None:
        return [Problem((*path, "from"), "a concealed kong (暗杠) is claimed from nobody: remove `from` (G3)",
                        kind="concealed_kong_from", values={})]
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
                    "补杠), or on none (then the opens are a bare count)", kind="meld_from_missing", values={})
            for j in claimed if melds[j].from_ is None]


def _effective_hand(region: Region, hand: Hand,
                    tile_wins: Sequence[TileWin]) -> tuple[Hand, dict[str, Origin], list[Problem]]:
    """The hand with each tile winner's opens and kongs filled from the melds (step 2).

    A copy of the validated ``hand`` with new player models (``hand`` itself when every winner's
    facts are already those the melds give), not a re-validated document:
    every value put in is already validated (the feeders are the melds' validated ``from``
    names, at most 4 of them; the kong kinds are canonical keys, each count at most 4), so
    validating the document again could not fail and would only cost time.
    """
    players = hand.players  # copied before the first change (a closed hand without kongs changes nothing)
    origins: dict[str, Origin] = {}
    problems: list[Problem] = []
    changed = False
    for tile_win in tile_wins:
        name = tile_win.winner
        if name not in players or name in origins:  # not a player, or twice a winner: the shared checks say so
            continue
        typed = players[name]
        if not (tile_win.claims or tile_win.kongs or typed.kongs or "opens" in typed.__pydantic_fields_set__):
            # No meld claimed, no kong, no opens given (a closed hand, the usual case): the melds give
            # 0 opens and no kong, what the player already has (opens 0 unless given).
            origins[name] = Origin(tile_win, True, False, True)
            continue
        opens, opens_origin = _opens(tile_win, typed, problems)
        kongs, kongs_origin = _kongs(region, tile_win, typed, problems)
        # Nothing reads which facts were given in the effective hand: a player whose facts are
        # already these (a closed hand without kongs, the usual case) is kept as validated.
        if not (type(opens) is type(typed.opens) and opens == typed.opens
                and list(kongs.items()) == list(typed.kongs.items())):
            if not changed:
                players = dict(players)
                changed = True
            players[name] = typed.model_copy(update={"opens": opens, "kongs": kongs})
        origins[name] = Origin(tile_win, *opens_origin, kongs_origin)
    problems += _chow_problems(hand, tile_wins)
    return (hand.model_copy(update={"players": players}) if changed else hand), origins, problems


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
                                "(chow, pung, exposed kong and the 碰 under an added kong, G4): they must agree",
                                kind="opens_disagree",
                                values={"winner": tile_win.winner, "given": given, "from_melds": melds_value,
                                        "melds": f"{format_path(tile_win.tiles_path)}.melds"}))
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
    if not typed.kongs and not tile_win.kongs:  # no kong given nor melded (the usual case): nothing to agree
        return {}, True
    given = {k: n for k, n in typed.kongs.items() if region.kongs[k].ordinary}
    special = {k: n for k, n in typed.kongs.items() if not region.kongs[k].ordinary}
    melds = {k: n for k, n in tile_win.kongs.items() if n}
    if given and {k: n for k, n in given.items() if n} != melds:
        where = f"{format_path(tile_win.tiles_path)}.melds"
        problems.append(Problem(("players", tile_win.winner, "kongs"),
                                f"players.{tile_win.winner}.kongs gives {_shown_kongs(given)} but {where} give "
                                f"{_shown_kongs(melds)}: they must agree", kind="kongs_disagree",
                                values={"winner": tile_win.winner, "melds": where,
                                        "given": tuple((region.kongs[k].zh, n) for k, n in given.items()),
                                        "from_melds": tuple((region.kongs[k].zh, n) for k, n in melds.items())}))
    return {**special, **melds}, not given


def _shown_kongs(kongs: Mapping[str, int]) -> str:
    shown = ", ".join(f"{n} {k} kong{'s' if n > 1 else ''}" for k, n in kongs.items() if n)
    return shown or "no four-tile kong"


def _chow_problems(hand: Hand, tile_wins: Sequence[TileWin]) -> list[Problem]:
    """A chow is claimed only from the player before the winner in turn order (上家, G1)."""
    out: list[Problem] = []
    for tile_win in tile_wins:
        if tile_win.claims:
            break
    else:  # no claimed meld (a closed hand, the usual case)
        return out
    names = hand.names
    for tile_win in tile_wins:
        if not tile_win.claims or tile_win.winner not in names:  # no claimed meld, or not a player
            continue
        before = names[(names.index(tile_win.winner) - 1) % len(names)]
        spec = _tiles_of(hand.wins[tile_win.index])
        for j, meld in enumerate(spec.melds):
            if meld.kind == "chow" and meld.from_ is not None and meld.from_ in names and meld.from_ != before:
                out.append(Problem((*tile_win.tiles_path, "melds", j, "from"),
                                   f"a chow (吃) is claimed only from the player before {tile_win.winner} in turn "
                                   f"order, {before}, not {meld.from_} (G1)", kind="chow_not_before",
                                   values={"winner": tile_win.winner, "before": before, "source": meld.from_}))
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
    values = problem.values if problem.values is None else {**problem.values, "melds_give": format_path(path)}
    return replace(problem, path=new, message=f"{problem.message} (as the melds give {format_path(path)})",
                   values=values)


def _wildcard_copies(prepared: Prepared) -> list[Problem]:
    """Four copies of the wildcard in all: those in hand and melds plus the winner's single-tile
    kongs of it (``TileRules.wildcard_kong``: Wuhan 癞子杠, Wuxue 宝杠), each one copy played out (H1, W3)."""
    out: list[Problem] = []
    for tile_win in prepared.tile_wins:
        if tile_win.wild is not None:
            break
    else:  # no wildcard (Rushan; no indicator)
        return out
    rules = tile_rules(prepared.region)
    kind = rules.wildcard_kong
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
                               f"{played} {prepared.region.kongs[kind].zh} make {held + played}: there are only 4",
                               kind="wildcard_copies",
                               values={"held": held, "wild_name": rules.wildcard_name, "tile": tile_to_str(wild),
                                       "played": played, "kong": prepared.region.kongs[kind].zh,
                                       "total": held + played}))
    return out


def wildcard(region: Region, hand: Hand, tiles: TileHand) -> int | None:
    """The wildcard tile of the winner's hand (Wuhan 癞子 H12, Wuxue 宝 W15), or None (no
    indicator, or a region without wildcards such as Rushan, R9)."""
    rules = tile_rules(region)
    if not rules.flips_indicator or tiles.indicator is None:
        return None
    return rules.wildcard_tile(tiles, tile_options(region, hand))
