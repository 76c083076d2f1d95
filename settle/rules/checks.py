"""Checks every region shares, run on a hand that pydantic has already validated.

Each check returns a list of :class:`~settle.errors.Problem` (empty when fine), so
all problems of a hand are reported together.  Sources: HAND-FORMAT.md and
RULINGS G3, G4, G5, G6, G7, G8, G10 (the ``only_by`` and one-per-group parts);
the physical limits of the tiles (per player and, for one-tile kongs, per table);
and a bound on option amounts, so every amount stays printable.

:func:`all_clear` decides, in one walk of the hand that builds no message, whether any of them has
something to say; the checks that explain run only for a hand it does not clear.  Each region's
``checks`` module does the same with its own checks.  :func:`fan_problems` gives the ones that read
the wins' ``fans`` alone (G10), for the readings of a hand whose other facts were cleared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from settle.errors import Path, Problem, quoted, shown_name
from settle.model import MAX_POINTS, NOBODY, NOBODY_SPELLINGS, Hand, Player, Strict, Win
from settle.rules.registry import all_regions, regions_with

if TYPE_CHECKING:
    from settle.rules.registry import Region
    from settle.vocab import Pattern


def common_problems(hand: Hand, region: Region) -> list[Problem]:
    """Every region-independent problem of ``hand`` (see the module docstring).

    The checks run in this order, each adding its problems: seat count, outcome, dealer,
    names, each player's facts, the table's tile limits, the wins, the ``liable: none``
    spelling, explicit totals, option amounts.  This runs for every hand of a batch, so the hand
    is first read once by :func:`all_clear`, which decides without building a message; the
    problems, with their messages, are made only for a hand it does not clear.
    """
    if all_clear(hand, region):
        return []
    return _problems(hand, region)


def _one_discard(wins: Sequence[Win]) -> bool:
    """Whether several wins are one discard's, as :func:`all_clear` asks (G6, 一炮多响): different winners,
    none a self-draw, none of them the discarder, all from the same player the same way.  Apart from
    :func:`all_clear` so that it holds no cell for ``first`` (a comprehension reading a local makes its
    function allocate a cell at every call, Python 3.11)."""
    first = wins[0]
    winners = {one.winner for one in wins}
    return not (len(winners) != len(wins) or first.by == "self_draw" or first.from_ in winners
                or any(one.from_ != first.from_ or one.by != first.by for one in wins))


def all_clear(hand: Hand, region: Region, plain: bool = False) -> bool:
    """Whether :func:`common_problems` has nothing to say about ``hand``: its checks, in one walk of
    the hand that stops at the first doubt and builds no message (each test is the condition under
    which the check of the same rule below reports a problem).  With ``plain``, also False for a hand
    any win of which gives the winner's tiles (``win.tiles``, settled by the tile level): what
    :func:`settle.engine.hand.settle_model` asks first, so that the usual hand is read once."""
    fields = hand.__dict__  # the validated values (a model's fields are plain attributes)
    players = fields["players"]
    win = fields["win"]
    wins: Sequence[Win] = () if win is None else win if type(win) is list else (win,)
    patterns = region.patterns
    patterns_id = id(patterns)
    for one in wins:  # the wins first: a hand with tiles (``plain``) goes no further
        facts = one.__dict__
        if plain and facts["tiles"] is not None:
            return False
        winner, by, source, liable, fans = facts["winner"], facts["by"], facts["from_"], facts["liable"], facts["fans"]
        if winner not in players or (source is None) is not (by == "self_draw"):
            return False
        if source is not None and (source == winner or source not in players):
            return False
        if liable is not None:
            if liable == winner:
                return False
            if liable == NOBODY:
                if not NOBODY_SPELLINGS.isdisjoint(map(str.lower, map(str.strip, players))):
                    return False
            elif liable not in players:
                return False
        if fans:
            key = (patterns_id, by, *fans)
            fits = _FITS.get(key)
            if fits is None:
                fits = _fits(patterns, key, by, fans)
            if not fits:
                return False
    if len(wins) > 1 and not _one_discard(wins):
        return False
    if len(players) not in region.seats:
        return False
    abandon = fields["abandon"]
    dealer = fields["dealer"]
    if win is None:  # a draw or an abandon: the dealer is needed
        if dealer is None or (abandon is None) is not fields["draw"] or (
                abandon is not None and not region.has_abandon):
            return False
    elif not wins or fields["draw"] or abandon is not None or (dealer is None and region.dealer_needed_on_win):
        return False
    if (dealer is not None and dealer not in players) or (abandon is not None and abandon.by not in players):
        return False
    kinds = region.kongs
    no_fish = not region.has_fish
    table: dict[str, int] | None = None
    for name, player in players.items():
        facts = player.__dict__
        opens = facts["opens"]
        if opens.__class__ is list:
            for feeder in opens:
                if feeder == name or feeder not in players:
                    return False
            opens = len(opens)
        if opens > 4 or (no_fish and facts["fish"]):
            return False
        kongs = facts["kongs"]
        if kongs:
            ordinary = claimed = concealed = 0
            for kind, n in kongs.items():
                term = kinds[kind]
                if n > term.limit:
                    return False
                if term.ordinary:
                    ordinary += n
                    if kind in ("exposed", "added"):
                        claimed += n
                    elif kind == "concealed":
                        concealed += n
                elif n:  # a one-tile kong: the table's total of its kind within its limit too
                    if table is None:
                        table = {kind: n}
                    elif kind in table:
                        n += table[kind]
                        if n > term.limit:
                            return False
                        table[kind] = n
                    else:
                        table[kind] = n
            if ordinary > 4 or opens < claimed or opens + concealed > 4:
                return False
    totals = fields["fans"]
    if totals is not None:
        if not region.explicit_totals:
            return False
        for name in totals:
            if name not in players:
                return False
    options = fields["options"]
    return id(options) in _SMALL or _small_options(options)


_FITS: dict[tuple[Any, ...], bool] = {}
"""``(id of a region's patterns, by, *fans)`` of a win -> :func:`_fans_fit` (at most :data:`FITS_KEPT`)."""
_FITS_HELD: dict[int, Mapping[str, Pattern]] = {}
"""The patterns :data:`_FITS` is keyed by, by id (each held, so that its id stays its own)."""
FITS_KEPT = 4096
"""How many wins' fans :data:`_FITS` holds before it is emptied."""


def _fits(patterns: Mapping[str, Pattern], key: tuple[Any, ...], by: str, fans: Sequence[str]) -> bool:
    """:func:`_fans_fit`, kept in :data:`_FITS` under ``key``."""
    if len(_FITS) >= FITS_KEPT or _FITS_HELD.get(id(patterns)) is not patterns:
        if len(_FITS_HELD) >= 16:
            _FITS_HELD.clear()
            _FITS.clear()
        _FITS_HELD[id(patterns)] = patterns
        if len(_FITS) >= FITS_KEPT:
            _FITS.clear()
    fits = _FITS[key] = _fans_fit(patterns, by, fans)
    return fits


def _fans_fit(patterns: Mapping[str, Pattern], by: str, fans: Sequence[str]) -> bool:
    """Whether :func:`_fan_fit` has nothing to say about a win's ``fans`` (G10: no item twice, each
    fits ``by``, one item per group)."""
    if len(set(fans)) != len(fans):
        return False
    groups: set[str] = set()
    for key in fans:
        pattern = patterns[key]
        if pattern.only_by and by not in pattern.only_by:
            return False
        if pattern.group:
            if pattern.group in groups:
                return False
            groups.add(pattern.group)
    return True


def fan_problems(hand: Hand, region: Region) -> list[Problem]:
    """The problems :func:`common_problems` finds in the wins' ``fans`` (G10: no item twice, each
    fits ``by``, one item per group), win by win, in its order.

    Every other shared check reads facts that are not the fans, so for a hand that differs only in
    its wins' fans from one :func:`common_problems` cleared (the readings of a winner's tiles, each
    settled with its own fans), these are all the problems :func:`common_problems` would give.
    """
    patterns = region.patterns
    patterns_id = id(patterns)
    stated = hand.win
    wins: Sequence[Win] = stated if isinstance(stated, list) else () if stated is None else (stated,)  # .wins
    out: list[Problem] = []
    for i, one in enumerate(wins):
        facts = one.__dict__
        fans, by = facts["fans"], facts["by"]
        if not fans:
            continue
        key = (patterns_id, by, *fans)  # as all_clear: the answer kept per table, by and fans
        fits = _FITS.get(key)
        if fits is None:
            fits = _fits(patterns, key, by, fans)
        if not fits:
            out.extend(_fan_fit(hand, region, one, win_path(hand, i)))
    return out


def _problems(hand: Hand, region: Region) -> list[Problem]:
    """The problems of a hand :func:`all_clear` does not clear, in the order of :func:`common_problems`."""
    out: list[Problem] = []
    players = hand.players
    win = hand.win
    wins = hand.wins
    if len(players) not in region.seats:
        out.extend(_seat_count(hand, region))
    if (win is not None) + bool(hand.draw) + (hand.abandon is not None) != 1 or (
            hand.abandon is not None and not region.has_abandon) or (isinstance(win, list) and not win):
        out.extend(_outcome(hand, region))
    dealer = hand.dealer
    if dealer is None and (region.dealer_needed_on_win or not wins):
        out.extend(_dealer(hand, region))
    if not _all_named_playing(hand, players, dealer, wins):
        out.extend(_names(hand))
    if _player_facts_into(out, players, region):
        out.extend(_table_limits(hand, region))
    for i, one in enumerate(wins):
        out.extend(_one_win(hand, region, one, ("win", i) if isinstance(win, list) else ("win",)))
    if len(wins) > 1:
        out.extend(_several_wins(hand, wins, region))
    if any(one.liable == NOBODY for one in wins):
        out.extend(_liable_spelling(hand))
    if hand.fans is not None and not region.explicit_totals:
        out.extend(_explicit_totals(hand, region))
    if not _small_options(hand.options):
        out.extend(_option_amounts(hand))
    return out


def _all_named_playing(hand: Hand, players: Mapping[str, Player], dealer: str | None, wins: Sequence[Win]) -> bool:
    """Whether every name used in the hand is one of ``players`` (the quick test of :func:`_names`)."""
    if dealer is not None and dealer not in players:
        return False
    if hand.abandon is not None and hand.abandon.by not in players:
        return False
    for win in wins:
        if win.winner not in players or (win.from_ is not None and win.from_ not in players) or (
                win.liable not in (None, NOBODY) and win.liable not in players):
            return False
    if hand.fans:
        for name in hand.fans:
            if name not in players:
                return False
    for player in players.values():
        opens = player.opens
        if isinstance(opens, list):
            for feeder in opens:
                if feeder not in players:
                    return False
    return True


def _player_facts_into(out: list[Problem], players: Mapping[str, Player], region: Region) -> bool:
    """Add each player's problems to ``out`` (as the per-player checks give them, in order); returns
    whether :func:`_table_limits` may have something to say (a special kong kind past its limit at
    the table, or a player the quick test could not clear)."""
    kinds = region.kongs
    has_fish = region.has_fish
    table: dict[str, int] = {}
    unsure = False
    for name, player in players.items():
        kongs = player.kongs
        opens = player.opens
        feeders, count = (opens, len(opens)) if isinstance(opens, list) else (None, opens)
        claimed = concealed = 0
        if kongs:
            ordinary = 0
            for kind, n in kongs.items():
                term = kinds[kind]
                if n > term.limit:
                    break
                if term.ordinary:
                    ordinary += n
                    if kind in ("exposed", "added"):
                        claimed += n
                    elif kind == "concealed":
                        concealed += n
                else:
                    table[kind] = table.get(kind, 0) + n
            else:  # every kind within its limit: only the sums are left
                if ordinary > 4:
                    out.extend(_kong_limits(name, player, region))
                if count > 4 or count < claimed or count + concealed > 4:
                    out.extend(_open_limits(name, player))
                if (player.fish and not has_fish) or (feeders and name in feeders):
                    _fish_and_feeders(out, name, player, region, has_fish)
                continue
            unsure = True
            out.extend(_kong_limits(name, player, region))
            out.extend(_open_limits(name, player))
        elif count > 4:
            out.extend(_open_limits(name, player))
        if (player.fish and not has_fish) or (feeders and name in feeders):
            _fish_and_feeders(out, name, player, region, has_fish)
    return unsure or any(total > kinds[kind].limit for kind, total in table.items())


def _fish_and_feeders(out: list[Problem], name: str, player: Player, region: Region, has_fish: bool) -> None:
    if player.fish and not has_fish:
        out.append(Problem(("players", name, "fish"),
                           f"飘鱼 (fish) exists only in {_only_in('has_fish')}, not in {region.key}",
                           kind="only_in",
                           values={"thing": "飘鱼", "where": _only_in_zh("has_fish"), "region": region.term.zh}))
    opens = player.opens
    if isinstance(opens, list) and name in opens:
        for j, feeder in enumerate(opens):
            if feeder == name:
                out.append(Problem(("players", name, "opens", j),
                                   f"{name} cannot feed their own open (an open is a claim from another "
                                   "player's discard)", kind="own_feeder", values={"name": name}))


def win_path(hand: Hand, index: int) -> Path:
    """Key path of the ``index``-th win: ``("win",)`` or ``("win", index)`` for a list."""
    return ("win", index) if isinstance(hand.win, list) else ("win",)


def _seat_count(hand: Hand, region: Region) -> Iterator[Problem]:
    n = len(hand.players)
    if n not in region.seats:
        allowed = " or ".join(map(str, region.seats))
        yield Problem(("players",), f"{region.term.zh} {region.key} is played by {allowed} players, "
                                    f"this hand lists {n}", kind="seat_count",
                      values={"region": region.term.zh, "allowed": allowed, "count": n})


def _outcome(hand: Hand, region: Region) -> Iterator[Problem]:
    given = [key for key, present in (("win", hand.win is not None), ("draw", hand.draw),
                                      ("abandon", hand.abandon is not None)) if present]
    if len(given) != 1:
        found = ", ".join(given) if given else "none of them"
        yield Problem((given[-1] if given else "win",),
                      f"give exactly one of `win`, `draw: true` or `abandon` (found {found})", kind="one_outcome",
                      values={"found": ", ".join(given) if given else "都没有"})
    if hand.abandon is not None and not region.has_abandon:
        yield Problem(("abandon",), f"逃跑 (abandon) exists only in {_only_in('has_abandon')}, not in {region.key}",
                      kind="only_in",
                      values={"thing": "逃跑", "where": _only_in_zh("has_abandon"), "region": region.term.zh})
    if isinstance(hand.win, list) and not hand.win:
        yield Problem(("win",), "the list of wins is empty", kind="no_wins", values={})


def _dealer(hand: Hand, region: Region) -> Iterator[Problem]:
    if hand.dealer is None and (region.dealer_needed_on_win or not hand.wins):
        yield Problem(("dealer",), "missing: `dealer` (庄家) must name one of the players", kind="dealer_missing",
                      values={})


def _names(hand: Hand) -> Iterator[Problem]:
    """Every name used in the hand must be one of ``players`` (G7: never guess)."""
    for path, name in _named_players(hand):
        if name not in hand.players:
            players = ", ".join(shown_name(n) for n in hand.names)  # "\ufeffA" shows
            yield Problem(path, f"{quoted(name)} is not one of the players ({players})", kind="not_a_player",
                          values={"name": name, "players": players})


def _named_players(hand: Hand) -> Iterator[tuple[Path, str]]:
    if hand.dealer is not None:
        yield ("dealer",), hand.dealer
    if hand.abandon is not None:
        yield ("abandon", "by"), hand.abandon.by
    for i, win in enumerate(hand.wins):
        base = win_path(hand, i)
        yield (*base, "winner"), win.winner
        if win.from_ is not None:
            yield (*base, "from"), win.from_
        if win.liable not in (None, NOBODY):
            yield (*base, "liable"), win.liable
    for name in hand.fans or {}:
        yield ("fans", name), name
    for name, player in hand.players.items():
        for j, feeder in enumerate(player.feeders or []):
            yield ("players", name, "opens", j), feeder


def _kong_limits(name: str, player: Player, region: Region) -> Iterator[Problem]:
    for kind, count in player.kongs.items():
        limit = region.kongs[kind].limit
        if count > limit:
            yield Problem(("players", name, "kongs", kind),
                          f"{count} kongs of kind {kind} is more than the {limit} the tiles allow", kind="kong_limit",
                          values={"count": count, "kong": kind, "zh": region.kongs[kind].zh, "limit": limit})
    ordinary = sum(n for kind, n in player.kongs.items() if region.kongs[kind].ordinary)
    if ordinary > 4:
        yield Problem(("players", name, "kongs"),
                      f"{ordinary} four-tile kongs (exposed + added + concealed) is more than 4",
                      kind="four_tile_kongs", values={"count": ordinary})


def _open_limits(name: str, player: Player) -> Iterator[Problem]:
    """G4: ``opens >= exposed + added`` and ``opens + concealed <= 4``."""
    opens = player.open_count
    claimed = player.kong_count("exposed", "added")
    path = ("players", name, "opens")
    if opens > 4:
        yield Problem(path, f"{opens} opens is more than 4 (a hand holds at most 4 sets)", kind="opens_over_four",
                      values={"opens": opens})
    if opens < claimed:
        yield Problem(path, f"opens is {opens} but {name} has {claimed} exposed/added kongs; each is "
                            f"(or upgrades) an open, so opens must be at least {claimed} (G4)",
                      kind="opens_below_kongs", values={"opens": opens, "name": name, "claimed": claimed})
    concealed = player.kong_count("concealed")
    if opens <= 4 and opens + concealed > 4:
        yield Problem(path, f"{opens} opens + {concealed} concealed kongs is more than 4 sets (G4)",
                      kind="sets_over_four", values={"opens": opens, "concealed": concealed})


def _table_limits(hand: Hand, region: Region) -> Iterator[Problem]:
    """A special kong (红中杠, 癞子杠, 宝杠 ...) is one tile played out, and the tiles are shared:
    the whole table holds at most the kind's ``limit`` of them (4 红中, 7 Wuxue 癞子皮: W15)."""
    for kind, term in region.kongs.items():
        if term.ordinary:
            continue
        holders = {name: p.kongs.get(kind, 0) for name, p in hand.players.items() if p.kongs.get(kind, 0)}
        total = sum(holders.values())
        if total > term.limit and all(n <= term.limit for n in holders.values()):
            counts = ", ".join(f"{name} {n}" for name, n in holders.items())
            yield Problem(("players",), f"{total} {term.label} kongs at the table ({counts}) is more than the "
                                        f"{term.limit} tiles of that kind", kind="table_kong_limit",
                          values={"total": total, "zh": term.zh, "counts": "、".join(
                              f"{name} {n}" for name, n in holders.items()), "limit": term.limit})


def _liable_spelling(hand: Hand) -> Iterator[Problem]:
    """G7 never guesses: with a player called 无 (or none ...), ``liable: 无`` could mean either."""
    clash = [name for name in hand.players if name.strip().lower() in NOBODY_SPELLINGS]
    for i, win in enumerate(hand.wins):
        if clash and win.liable == NOBODY:
            yield Problem((*win_path(hand, i), "liable"),
                          f"`liable: none` is ambiguous: a player is named {clash[0]!r}; rename the player",
                          kind="liable_none_ambiguous", values={"name": clash[0]})


def _one_win(hand: Hand, region: Region, win: Win, path: Path) -> Iterator[Problem]:
    if win.by == "self_draw" and win.from_ is not None:
        yield Problem((*path, "from"), "a self-draw (自摸) has no `from`; remove it or set `by`",
                      kind="self_draw_from", values={})
    if win.by != "self_draw" and win.from_ is None:
        who = "who discarded (点炮/放冲)" if win.by == "discard" else "whose kong was robbed (抢杠)"
        yield Problem((*path, "from"), f"missing: `from` must name {who} when by is {win.by} (G7)",
                      kind="from_missing", values={"by": win.by})
    if win.from_ is not None and win.from_ == win.winner:
        yield Problem((*path, "from"), f"the winner {win.winner} cannot also be `from`", kind="winner_is_from",
                      values={"winner": win.winner})
    if win.liable is not None and win.liable == win.winner:
        yield Problem((*path, "liable"), "the winner cannot be the liable (包牌) player", kind="winner_is_liable",
                      values={})
    yield from _fan_fit(hand, region, win, path)


def _fan_fit(hand: Hand, region: Region, win: Win, path: Path) -> Iterator[Problem]:
    """G10: each named item fits the win type; no item twice; one item per exclusive group."""
    groups: dict[str, str] = {}
    for j, key in enumerate(win.fans):
        pattern = region.patterns[key]
        where = (*path, "fans", j)
        if key in win.fans[:j]:
            yield Problem(where, f"{pattern.label} is named twice", kind="fan_twice", values={"fan": pattern.zh})
        if pattern.only_by and win.by not in pattern.only_by:
            fits = " or ".join(sorted(pattern.only_by))
            yield Problem(where, f"{pattern.label} fits only a win by {fits}, not {win.by} (G10)", kind="fan_only_by",
                          values={"fan": pattern.zh, "fits": tuple(sorted(pattern.only_by)), "by": win.by,
                                  "discarder": region.discarder})
        if pattern.group:
            if pattern.group in groups and groups[pattern.group] != key:
                yield Problem(where, f"{pattern.label} cannot be named with {groups[pattern.group]}: "
                                     f"at most one {pattern.group} item (G10)", kind="fan_group",
                              values={"fan": pattern.zh, "other": region.patterns[groups[pattern.group]].zh,
                                      "group": pattern.group})
            groups.setdefault(pattern.group, key)


def _several_wins(hand: Hand, wins: Sequence[Win], region: Region) -> Iterator[Problem]:
    """R8: several winners share one discarder and are different players."""
    discarders = {w.from_ for w in wins}
    if len(discarders) > 1:
        yield Problem(("win",), "several winners must all win on the same discard (same `from`), "
                                f"found {', '.join(sorted(d if d else '(no from)' for d in discarders))}",
                      kind="same_discard", values={"found": tuple(sorted(d or "" for d in discarders))})
    winners = [w.winner for w in wins]
    if len(set(winners)) != len(winners):
        yield Problem(("win",), "a player is listed as winner twice", kind="winner_twice", values={})
    if any(w.by == "self_draw" for w in wins):
        yield Problem(("win",), "several winners are possible only on one discard, not on a self-draw",
                      kind="several_self_draw", values={})
    elif len({w.by for w in wins}) > 1:
        yield Problem(("win",), "several winners win on the same tile: give every win the same `by` (R8)",
                      kind="several_by", values={})
    for i, w in enumerate(wins):
        if w.winner in discarders:
            yield Problem(("win", i, "winner"), f"{w.winner} is the discarder of another win", kind="winner_discarded",
                          values={"winner": w.winner, "discarder": region.discarder})


def _option_amounts(hand: Hand) -> Iterator[Problem]:
    """Amounts in options (cap, golden, bright, escape_penalty ...) stay within :data:`MAX_POINTS`."""
    options = hand.options
    for key in _option_fields(type(options)):
        value = getattr(options, key)
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_POINTS:
            yield Problem(("options", key), f"{value if len(str(value)) <= 20 else 'a number this long'} is too "
                                            f"large: an amount in options is at most {MAX_POINTS:,} points",
                          kind="option_too_large", values={"value": value, "max": MAX_POINTS})


_OPTION_FIELDS: dict[type, tuple[str, ...]] = {}
_SMALL_KINDS = frozenset({bool, type(None), str, float, int})
"""Option values :func:`_option_amounts` passes without looking further, ints when at most MAX_POINTS."""


def _option_fields(model: type[Strict]) -> tuple[str, ...]:
    """The field names of an options model, looked up once per model."""
    fields = _OPTION_FIELDS.get(model)
    if fields is None:
        fields = _OPTION_FIELDS[model] = tuple(model.model_fields)
    return fields


def _small_options(options: Strict) -> bool:
    """The quick test of :func:`_option_amounts`: True when it has nothing to say.  An options model
    is frozen, and most hands share their region's defaults: the last few found small are known."""
    if id(options) in _SMALL:
        return True
    for value in options.__dict__.values():  # the fields' values (a model's fields are plain attributes)
        kind = type(value)
        if kind not in _SMALL_KINDS or (kind is int and value > MAX_POINTS):
            return False
    if len(_SMALL) >= 16:
        _SMALL.clear()
    _SMALL[id(options)] = options  # held, so that its id is not given to another object
    return True


_SMALL: dict[int, Strict] = {}
"""Options models :func:`_small_options` found small, by id (each held, so its id stays its own)."""


def _explicit_totals(hand: Hand, region: Region) -> Iterator[Problem]:
    if hand.fans is not None and not region.explicit_totals:
        yield Problem(("fans",), f"{region.key} has no per-player 番 count: remove `fans` (G5)",
                      kind="no_explicit_totals", values={"region": region.term.zh, "unit": region.unit})


def _only_in(feature: str) -> str:
    """``Rushan``, ``Wuhan``: the regions where a feature exists, for the message that it exists only there."""
    return "/".join(regions_with(feature))


def _only_in_zh(feature: str) -> str:
    """``乳山``, ``武汉``: the Chinese names of the regions where a feature exists (:func:`_only_in`)."""
    return "/".join(r.term.zh for r in all_regions() if getattr(r, feature))
