"""Validating a hand document: pydantic's errors as problems at the user's key paths, and the rules'.

:func:`validate_model` finds the region and validates the document with the region's lean schema
(:func:`lean_hand`: pydantic-core alone, issue 14); only a hand that refuses is validated again with
the region's ``Hand`` model, the explaining validation: every pydantic error becomes a
:class:`~settle.errors.Problem` at the key the user wrote (:func:`pydantic_problems`), with the rule
checks that stand whatever the refused values were meant to be (:func:`problems_beside`), so one run
reports every problem.  Both accept the same hands and give the same ``Hand``.  :func:`rule_problems`
runs the shared checks (:mod:`settle.rules.checks`) and the region's.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from settle.errors import HandError, Path, Problem, written
from settle.model import (
    Hand,
    LeanSchema,
    Player,
    Win,
    lean_json_schema,
    lean_schema,
    name_problem,
    name_problem_values,
    trimmed_repeats,
)
from settle.rules.checks import all_clear, common_problems, fan_problems
from settle.rules.registry import Region, allowed_text, get_region, region_key

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    class _Error(ErrorDetails):
        """One pydantic error, with the union alternative it is about (``int``, ``list[...]``) or None."""

        union_tag: str | None


def validate_model(data: Mapping[str, Any]) -> tuple[Region, Hand]:
    """The region and the pydantic-validated ``Hand`` of ``data``; no rule checks yet.

    Raises :class:`HandError` with every type, key and vocabulary problem at its key path,
    followed by the rule checks' problems those leave standing (:func:`problems_beside`), so
    that one run shows both kinds.
    """
    if type(data) is dict:  # the usual case: the region by its key, a hand the lean schema takes
        given = data.get("region")
        if type(given) is str and given in _REGION_KEYS:
            try:
                region = get_region(given)
            except KeyError:  # an installed region since removed (registry.refresh)
                pass
            else:
                hand = lean_hand(region, data)
                if hand is not None:
                    return region, hand
    if not isinstance(data, Mapping):
        raise HandError.at((), f"a hand must be a mapping of keys (region, players, ...), "
                               f"got {type(data).__name__}")
    if "region" not in data:
        raise HandError([Problem(("region",), f"missing: `region` ({allowed_text()})", kind="region_missing",
                                 values={"allowed": allowed_text()}),
                         *unknown_top_keys(data)])
    try:
        region = get_region(region_key(data["region"]))
    except HandError as exc:
        raise HandError([*exc.problems, *unknown_top_keys(data)]) from None
    if region.key == data["region"]:
        _REGION_KEYS.add(region.key)
    hand = lean_hand(region, data)
    if hand is not None:
        return region, hand
    try:  # the explaining validation: a hand the lean schema refuses
        hand = region.hand_model.model_validate({**data, "region": region.key})
    except ValidationError as exc:
        problems = pydantic_problems(exc, data, region.hand_model)
        names = player_name_problems(data.get("players"))
        if names:  # the same problems, with the exact key path of each name
            problems = names + [p for p in problems if p.path[:1] != ("players",)]
        raise HandError([*problems, *problems_beside(region, data, problems)]) from None
    return region, hand


_REGION_KEYS: set[str] = set()
"""Region keys (``wuhan`` ...) seen written as themselves: :func:`validate_model` looks them up
directly (``region_key`` gives such a key itself)."""

_EMPTY: dict[str, Any] = {}
"""A player's details that state nothing; never changed."""


def lean_hand(region: Region, data: Mapping[str, Any]) -> Hand | None:
    """The region's ``Hand`` of ``data`` as the explaining validation would make it, validated by the
    region's lean schema (:func:`settle.model.lean_schema`), or None when that refuses it.

    pydantic-core validates alone; what the hand models' own Python validators do that it cannot
    (:data:`settle.model.LEAN_DROPPED`) is done around it: the list form of ``players`` (a name
    repeated is refused; each player given by name only, as ``{}`` or as null is the region's empty
    player), two names or two totals of ``fans`` the same after trimming spaces.  (``fans`` and
    ``jin`` together pydantic-core refuses itself: the second is a key it does not know.)  A word
    spelled other than its key (an alias, traditional characters, other case: G14) is read by the
    spelled lean schema, which keeps the vocabulary's validators and runs only when the first
    refuses.  The explaining validation (:func:`validate_model`) runs only
    for a hand this refuses: both accept the same hands, with the same values
    (tests/test_lean_validation.py).  ``data["region"]`` must name ``region``.
    """
    lean = lean_schema(region.hand_model)
    players = data.get("players")
    if type(players) is list:  # names only: each the empty player (pydantic-core takes it as it is)
        try:
            named = dict.fromkeys(players, lean.empty_player)
        except TypeError:  # a name that is no text (a mapping ...)
            return None
        if len(named) != len(players):
            return None
        data = {**data, "players": named}
    elif type(players) is not dict:
        return None
    else:
        facts = players.values()
        if _EMPTY in facts or None in facts:
            empty = lean.empty_player
            data = {**data, "players": {name: empty if details is None or details == _EMPTY else details
                                        for name, details in players.items()}}
    hand: Hand
    try:
        hand = lean.validator.validate_python(data)
    except ValidationError:
        try:
            hand = lean_schema(region.hand_model, spelled=True).validator.validate_python(data)
        except ValidationError:
            return None
    fields = hand.__dict__
    if len(fields["players"]) != len(players):
        return None  # two names the same after trimming spaces
    totals = fields["fans"]
    if totals is not None and len(totals) != len(data["fans"] if "fans" in data else data["jin"]):
        return None  # two totals of one player after trimming spaces
    if fields["region"] != region.key:
        fields["region"] = region.key
    return hand


def lean_line(raw: bytes) -> tuple[Region, Hand] | None:
    """The region and ``Hand`` of one JSON Lines line validated straight from its bytes (``raw``: the
    line as read, with its newline or without), when that gives what the loader's reading and
    :func:`validate_model` give, else None: then the caller reads the line as before.  :func:`lean_lines`
    of the one line."""
    return lean_lines([raw], raw)[0]


def lean_lines(lines: list[bytes], block: bytes, start: int = 0) -> list[tuple[Region, Hand] | None]:
    """:func:`lean_line` of each of ``lines``, the lines of ``block`` from its byte ``start`` on
    (``block[start:]`` is them joined by newlines, ``b"\\n".join(lines)``: a JSON Lines block, or one
    line alone), in order.

    A line is validated straight from its bytes by its region's :func:`settle.model.lean_json_schema`
    (``validate_json``: no ``json.loads``, no plain dicts), when that gives what the loader's reading
    and :func:`validate_model` give, else it is None and the caller reads it as before.  A line that
    is not UTF-8 is None: pydantic-core's JSON reader refuses it (in a text, and no other place may
    hold a byte past ASCII).  pydantic-core's JSON reader takes no text ``json.loads`` refuses and
    reads the same values (NaN, big numbers, escapes), but it keeps the last of a repeated key where
    the loader refuses the hand: so the keys of each ``Hand`` are counted (:func:`_kept_keys`) against
    the colons of its line, and as each key written has its own colon and a hand never holds more
    keys than its line has colons, equal counts mean that no key was repeated (nor two names the same
    after trimming).  The counts are compared over the block first (the colons of the lines taken,
    the block's less those of the others; equal sums, equal counts line by line), and line by line
    only when those differ.  None, too, for any line this need not decide: not starting with ``{``
    (a BOM, spaces), long enough to hold a number of more than 4300 digits (``json.loads`` refuses
    one), with a ``\\u`` escape of a surrogate (``json.loads`` keeps a lone one), a region not written
    as its key (the lean JSON schema takes only that key: the region the line is looked up by).
    When no text of the block can hold a control character (no escape, no DEL, no C1 control, no
    U+2028/2029 in its bytes), or else of the line, the line is validated without the patterns that
    refuse one (:attr:`~settle.model.LeanSchema.plain`).  A hand with tiles is taken too (its tiles'
    keys and melds' keys counted): the tile level settles it from the ``Hand`` alone.  Nesting deeper
    than :data:`~settle.loader.MAX_DEPTH` (which the loader refuses) needs no look: a hand the lean
    schema takes nests as deep as its models do (the hand, ``win`` as a list, a win, its tiles, their
    melds, a meld: :data:`LEAN_NESTING` levels), and deeper JSON is refused by it or by pydantic-core's
    reader.  tests/test_validate_bytes.py holds both readings to the same hands.
    """
    # Bytes looked for as ints where one will do: ``92 in raw`` is a memchr, ``b"\\" in raw`` costs five times it.
    # No backslash (so no escape), no DEL, no C1 control, no U+2028/2029 (no 0xc2 or 0xe2 byte: none of
    # U+0080-U+00BF, U+2000-U+2FFF): no text of the block can hold what the patterns refuse.
    # (The whole block is looked at: what it does not hold, its lines from ``start`` on do not hold either.)
    clean = 92 not in block and _no_control_bytes(block)
    starts, lengths, limit = _LEAN_STARTS, _START_LENGTHS, _LINE_LIMIT
    out: list[tuple[Region, Hand] | None] = []
    kept = 0  # the keys of the hands taken
    colons = 0  # the colons of the lines not taken
    for raw in lines:
        # The usual line starts {"region": "key": looked up by each length of such a start, without a search.
        for length in lengths:
            known = starts.get(raw[:length])
            if known is not None:
                break
        else:
            known = _searched(raw)
        hand: Hand | None = None
        # Not taken: no region known, too long, or a \u escape of a surrogate (a backslash: only in a block
        # that is not clean).
        if known is not None and len(raw) <= limit and \
                (clean or 92 not in raw or not (b"\\ud" in raw or b"\\uD" in raw)):
            region, lean = known
            # Without the control-character patterns where no text of the line can hold one.
            validator = lean.plain if clean or (92 not in raw and _no_control_bytes(raw)) else lean.validator
            try:
                hand = validator.validate_json(raw)  # type: ignore[union-attr]
            except ValidationError:
                hand = None
        if hand is None:
            out.append(None)
            colons += raw.count(b":")
            continue
        kept += _kept_keys(hand, lean.listed_player)
        out.append((region, hand))
    if kept != block.count(b":", start) - colons:  # a key repeated in some line: find them, one line at a time
        for place, (raw, got) in enumerate(zip(lines, out, strict=True)):
            if got is not None and _kept_keys(got[1], _LEAN_REGIONS_BY_ID[id(got[0])].listed_player) \
                    != raw.count(b":"):
                out[place] = None
    return out


def _no_control_bytes(data: bytes) -> bool:
    """Whether ``data`` holds no DEL, no C1 control and no U+2028/2029: no 0x7f byte, and no 0xc2 or 0xe2
    byte (none of U+0080-U+00BF, U+2000-U+2FFF); with no backslash besides, no text in it can hold what
    the lean schema's patterns refuse (:func:`lean_lines`)."""
    return 127 not in data and (data.isascii() or (194 not in data and 226 not in data))


def _searched(raw: bytes) -> tuple[Region, LeanSchema] | None:
    """The region and lean JSON schema of a line that does not start as :data:`_LEAN_STARTS` knows: by its
    ``"region": "key"`` pair (:data:`_REGION_VALUE`, a region written as its key); None for no such pair,
    a key that is no region's, or a line that does not start with ``{``."""
    if raw[:1] != b"{":
        return None
    found = _REGION_VALUE.search(raw)
    if found is None:
        return None
    known = _LEAN_REGIONS.get(found.group(1))
    return known if known is not None else _lean_region(found.group(1))


_LEAN_REGIONS: dict[bytes, tuple[Region, LeanSchema]] = {}
"""A region key as a line writes it -> its :class:`Region` and that region's lean JSON schema
(:func:`_lean_region`): one lookup per line in :func:`lean_lines`."""
_LEAN_STARTS: dict[bytes, tuple[Region, LeanSchema]] = {}
"""The same under the start of a line that names its region first, ``{"region": "wuhan"``: :func:`lean_lines`
looks it up without searching the line."""
_START_LENGTHS: list[int] = []
"""The lengths of the starts in :data:`_LEAN_STARTS` (``{"region": "wuhan"`` 18, ``{"region": "rushan"``
19), in the order first seen: a line's start is looked up at each."""
_LEAN_REGIONS_BY_ID: dict[int, LeanSchema] = {}
"""``id(region)`` -> its lean JSON schema (a :class:`Region` is not hashable)."""


def _lean_region(written: bytes) -> tuple[Region, LeanSchema] | None:
    """The :class:`Region` and lean JSON schema of the region key ``written`` (ASCII bytes), kept in
    :data:`_LEAN_REGIONS` and :data:`_LEAN_STARTS`; None for a key that is no region's."""
    key = written.decode("ascii")
    try:
        region = get_region(key)
    except KeyError:
        return None
    lean = lean_json_schema(region.hand_model, region.key)
    start = b'{"region": "' + written + b'"'
    known = _LEAN_REGIONS[written] = _LEAN_STARTS[start] = (region, lean)
    _LEAN_REGIONS_BY_ID[id(region)] = lean
    if len(start) not in _START_LENGTHS:
        _START_LENGTHS.append(len(start))
    return known


LEAN_NESTING = 6
"""The deepest nesting of JSON objects and arrays in a hand the lean schema takes (``{"win": [{"tiles":
{"melds": [{...}]}}]}``), far below :data:`~settle.loader.MAX_DEPTH` (tests/test_validate_bytes.py)."""

_LINE_LIMIT = 4000
"""The longest line :func:`lean_lines` reads: too short for a 4300-digit number (Python's limit for
reading one, which ``json.loads`` keeps and pydantic-core does not)."""

_REGION_VALUE = re.compile(rb'"region"\s*:\s*"([a-z0-9_]+)"')
"""A ``"region": "key"`` pair (inside a JSON string a quote is escaped, so this is a key and its value,
or a line that is no JSON): the region whose lean JSON schema validates the line, which takes that
region's key only."""


def _kept_keys(hand: Hand, listed: Player | None) -> int:
    """How many keys of the document ``hand`` was validated from are in it: the fields given of each
    model (the hand, its players, wins, their tiles and melds, options, abandon) and the entries of its
    mappings (players, their ``kongs``, the totals ``fans``); a name of the list form of ``players``
    (``listed``) is no key.

    Never more than the distinct keys of the document (each counted one was given once), and less
    when a key was repeated, two names became one after trimming, or a model holds a mapping or model
    not counted here (a new field): then :func:`lean_lines` leaves the line to the loader.  Each
    attribute of a model costs a lookup past pydantic's ``__getattr__``: a field not given (``kongs``,
    ``tiles``, ``melds``) is not looked at.
    """
    given = hand.__pydantic_fields_set__
    fields = hand.__dict__
    players = fields["players"]
    keys = len(given) + len(players)
    for player in players.values():  # its facts given and its kongs' kinds
        if player is listed:  # the list form: every player is the listed one
            keys -= len(players)
            break
        facts = player.__pydantic_fields_set__
        keys += len(player.__dict__["kongs"]) + len(facts) if "kongs" in facts else len(facts)
    if "win" in given:
        win = fields["win"]
        for one in win if type(win) is list else () if win is None else (win,):
            said = one.__pydantic_fields_set__
            keys += len(said)
            if "tiles" in said:
                tiles = one.__dict__["tiles"]
                if tiles is not None:  # win.tiles and its melds (issue 14: tile hands from the bytes too)
                    keys += len(tiles.__pydantic_fields_set__)
                    for meld in tiles.melds:
                        keys += len(meld.__pydantic_fields_set__)
    if not given.isdisjoint(_MORE_KEYS):  # rare: fans, options or abandon given
        if "fans" in given and fields["fans"] is not None:
            keys += len(fields["fans"])
        if "options" in given:
            keys += len(fields["options"].__pydantic_fields_set__)
        if "abandon" in given and fields["abandon"] is not None:
            keys += len(fields["abandon"].__pydantic_fields_set__)
    return keys


_MORE_KEYS = frozenset({"fans", "options", "abandon"})
"""The hand's fields :func:`_kept_keys` looks into besides ``players`` and ``win``."""


def problems_beside(region: Region, data: Mapping[str, Any], refused: list[Problem]) -> list[Problem]:
    """The shared and region rule problems that stand whatever the ``refused`` values were meant to be.

    Each refused value is left out (a player's fact as not given, G8; ``dealer``, ``id``,
    ``win.from``/``win.liable`` as missing) and the hand is validated again; when that passes,
    the rule checks run on it and only the problems that cannot come from a left-out value are
    kept: none at or below a left-out key (or above it), none about a player one of whose facts
    was left out.  A refused option, fan, win, name or tile changes which rules apply, so then
    nothing more is reported (the next run will).
    """
    paths = [p.path for p in refused]
    if not paths or not all(_can_leave_out(p) for p in refused) or _raw_tiles(data):
        return []
    try:
        hand = region.hand_model.model_validate({**_left_out(data, paths), "region": region.key})
        standing = rule_problems(region, hand)
    except (ValidationError, HandError, KeyError, IndexError, AttributeError, TypeError, ValueError):
        return []  # the left-out hand is not one the checks can read: the next run will tell
    said = {p.message for p in refused}
    return [p for p in standing if p.message not in said and not any(_related(p.path, r) for r in paths)]


def _can_leave_out(problem: Problem) -> bool:
    """A refused value that leaving out turns into an omitted fact, not into another rule."""
    path = problem.path
    if path in (("dealer",), ("id",), ("win", "from"), ("win", "liable")):
        return True
    if len(path) >= 3 and path[0] == "players" and isinstance(path[1], str):
        return True
    return problem.kind == "extra_forbidden" and _stray_key(path)


def _stray_key(path: Path) -> bool:
    """An unknown top-level or ``win`` key that is no near miss of a known one (``colour``,
    ``note``): leaving it out drops nothing the user meant.  A near miss (``fan``, ``dealr``) may
    be a fact the rules would have read, so it is not left out."""
    if len(path) == 1:
        known = _known_keys(Hand)
    elif len(path) == 2 and path[0] == "win":
        known = _known_keys(Win)
    else:
        return False
    return isinstance(path[-1], str) and not difflib.get_close_matches(path[-1], known, n=1, cutoff=0.6)


def _known_keys(model: type[BaseModel]) -> set[str]:
    """The keys a model reads, by their aliases (``from``, ``jin``)."""
    known: set[str] = set()
    for name, field in model.model_fields.items():
        choices = getattr(field.validation_alias, "choices", None)
        known.update(choices or (field.alias or name,))
    return known


def _left_out(data: Mapping[str, Any], paths: list[Path]) -> dict[str, Any]:
    """A copy of ``data`` without the value at each path (a player's whole fact at ``players.X.key``)."""
    out: dict[str, Any] = dict(data)
    for path in paths:
        if path[0] == "players":
            players = out["players"] = dict(out["players"])
            details: dict[object, Any] = dict(players[path[1]] or {})
            players[path[1]] = details
            details.pop(path[2], None)
        elif path[0] == "win":
            win = out["win"] = dict(out["win"])
            win.pop(path[1], None)
        elif isinstance(path[0], str):  # a top-level key (a path never starts with an index)
            out.pop(path[0], None)
    return out


def _related(path: Path, left_out: Path) -> bool:
    """Whether a problem at ``path`` may come from leaving out ``left_out``: one is a prefix of the
    other, or both are about the same player."""
    shorter = min(len(path), len(left_out))
    if path[:shorter] == left_out[:shorter]:
        return True
    return left_out[0] == "players" and path[:2] == left_out[:2]


def _raw_tiles(data: Mapping[str, Any]) -> bool:
    """Whether the plain document gives tiles (``win.tiles``): the tile checks read them whole."""
    wins = data.get("win")
    return any(isinstance(w, Mapping) and "tiles" in w for w in (wins if isinstance(wins, list) else [wins]))


def unknown_top_keys(data: Mapping[str, Any]) -> list[Problem]:
    """Top-level keys that no region's hand has (HAND-FORMAT.md), each at its key.

    The region decides every other check, so without a known region these are the only
    further problems that can be reported in the same run.
    """
    known = _known_keys(Hand)
    return [_unknown_key((key,), "unknown key (not part of the hand format)", known) for key in data
            if isinstance(key, str) and key not in known]


def _unknown_key(path: Path, message: str, known: set[str]) -> Problem:
    """An unknown key, with "did you mean" the nearest key known there (``winnr`` -> ``winner``,
    ``fan`` -> ``fans``; :func:`difflib.get_close_matches`, issue 16 #9)."""
    key = path[-1]
    match = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6) if isinstance(key, str) else []
    suggest = match[0] if match else ""
    return Problem(path, message + (f" (did you mean {suggest}?)" if suggest else ""), kind="extra_forbidden",
                   values={"suggest": suggest})


def _model_at(model: type[BaseModel], path: Path) -> type[BaseModel] | None:
    """The model that reads the keys at ``path`` under ``model`` (``("win",)`` -> the win model,
    ``("players", "A")`` -> the player model), or None where no model does (a mapping of counts)."""
    current: type[BaseModel] | None = model
    skip = False
    for part in path:
        if skip:  # a key or index of a mapping or list of models
            skip = False
            continue
        if current is None:
            return None
        if not isinstance(part, str):  # an index of a list of the model (several wins, R8): the same model
            continue
        field = next((f for name, f in current.model_fields.items()
                      if part in (getattr(f.validation_alias, "choices", None) or (f.alias or name,))), None)
        if field is None:
            return None
        current, skip = _model_in(field.annotation)
    return None if skip else current


def _model_in(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The model inside a field's type, and whether a mapping or list holds it (``dict[str, Player]``)."""
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    origin = typing.get_origin(annotation)
    for arg in typing.get_args(annotation):
        model, held = _model_in(arg)
        if model is not None:
            container = origin in (dict, list, Mapping) or (isinstance(origin, type)
                                                             and issubclass(origin, Mapping | list))
            return model, held or container
    return None, False


def rule_problems(region: Region, hand: Hand) -> list[Problem]:
    """The shared checks (:mod:`settle.rules.checks`) and the region's own, all reported together."""
    if all_clear(hand, region):  # the usual case: the shared checks have nothing to say
        return region.check(hand)
    return _with_region_problems(region, hand, common_problems(hand, region))


def fan_rule_problems(region: Region, hand: Hand) -> list[Problem]:
    """:func:`rule_problems` of a hand that differs only in its wins' ``fans`` from one the shared
    checks cleared (a reading of a winner's tiles, settled with its fans): the same problems in the
    same order, the shared checks reduced to the ones that read the fans
    (:func:`settle.rules.checks.fan_problems`)."""
    problems = fan_problems(hand, region)
    return _with_region_problems(region, hand, problems) if problems else region.check(hand)


def _with_region_problems(region: Region, hand: Hand, problems: list[Problem]) -> list[Problem]:
    """The shared checks' ``problems`` of ``hand`` followed by the region's own (those not already said)."""
    if not problems:
        return region.check(hand)
    try:
        more = region.check(hand)
    except (KeyError, IndexError, AttributeError, TypeError, ValueError):
        # The region's checks may assume what the shared ones just refused (a winner who is not
        # playing ...); those problems are already reported, so theirs can wait for the next run.
        more = []
    return problems + [p for p in more if p not in problems]


def has_tiles(hand: Hand) -> bool:
    """Whether any win of ``hand`` gives the winner's tiles (``win.tiles``)."""
    return any(win.tiles is not None for win in hand.wins)


def player_name_problems(players: object) -> list[Problem]:
    """Names in ``players`` that are not text, each at its own key path (``players[3]`` in the list
    form, ``players.<name>`` in the mapping), and names that repeat another after trimming spaces."""
    if isinstance(players, list):
        names: list[object] = list(players)
        paths: list[Path] = [("players", i) for i in range(len(names))]
    elif isinstance(players, Mapping):
        names = list(players)
        # An empty name cannot show in a dotted path (``players.``): the mapping itself is meant.
        # A key that is not text as written (``players.null``, ``players.true``, a date), issue 15 #16.
        paths = [("players", key if isinstance(key, str) else written(key)) if key != "" else ("players",)
                 for key in names]
    else:
        return []
    out = [Problem(path, problem, kind="player_name", values=name_problem_values(name))
           for path, name in zip(paths, names, strict=True)
           if (problem := name_problem(name)) is not None]
    out += [Problem(("players",), f"player '{name}' is listed twice: entry {i + 1} repeats an earlier one "
                                  "(names are compared after trimming spaces)", kind="listed_twice",
                    values={"name": name, "entry": i + 1})
            for i, name in trimmed_repeats(names)]
    return out


def pydantic_problems(exc: ValidationError, data: Any, model: type[BaseModel] | None = None) -> list[Problem]:
    """pydantic's errors as Problems whose paths are the user's keys.

    The errors of the alternatives of one value (``opens``: a count or a list of names) are
    merged into one problem that says which shapes are allowed.  Each problem keeps pydantic's
    error type as ``kind`` and its context with the value shown as ``values`` (its words in another
    language, issue 16 #9); an unknown key says the nearest key ``model`` reads there, if one is close.
    """
    grouped: dict[Path, list[_Error]] = {}
    for err in exc.errors(include_url=False):
        path, other = _split_location(err["loc"], data)
        key = (err.get("ctx") or {}).get("key")
        if err["type"] == "alias_clash" and key:  # a mapping-level check about one of its keys
            path = (*path, key)
        tag = next((part for part in other if part in _UNION_TAGS), None)
        if tag and tag.startswith("list") and path and isinstance(path[-1], int):
            tag = None  # an entry of the list alternative: its own error, at its own index
        grouped.setdefault(path, []).append({**err, "union_tag": tag})
    out = []
    for path, errors in grouped.items():
        alternatives = [e for e in errors if e["union_tag"]]
        plain = [e for e in errors if not e["union_tag"]]
        if isinstance(errors[0].get("input"), list) and any(
                len(other) > len(path) and other[:len(path)] == path for other in grouped):
            alternatives = []  # a list with bad entries: the entries' errors say what is wrong
        out += [_plain_problem(e, path, model) for e in plain]
        if alternatives:
            out.append(_alternatives_problem(alternatives, path, model))
    return out


def _alternatives_problem(errors: list[_Error], path: Path, model: type[BaseModel] | None) -> Problem:
    """The problem of a value that fits none of a union's shapes (:func:`_alternatives_message`); when
    one alternative is of the value's own type, its kind and values, for its words in Chinese."""
    message = _alternatives_message(errors, path)
    fitting = [e for e in errors if _same_kind(e, errors[0].get("input"))]
    if len(fitting) == 1:
        own = _plain_problem(fitting[0], path, model)
        return Problem(path, message, kind=own.kind, values=own.values)
    shape = _shape_key(path)
    if shape is not None:
        value = errors[0].get("input")
        return Problem(path, message, kind="wrong_shape",
                       values={"shape": shape, "input": _shown(value), **input_form(value)})
    return Problem(path, message)


def _plain_problem(err: _Error, path: Path, model: type[BaseModel] | None) -> Problem:
    """One pydantic error as a problem (:func:`pydantic_problems`)."""
    message = _message(err, path)
    if err["type"] == "extra_forbidden" and model is not None and path:
        parent = _model_at(model, path[:-1])
        if parent is not None:
            return _unknown_key(path, message, _known_keys(parent))
    # plain data only: a validator's exception (ctx "error") as its text, so that equal problems are equal
    ctx = {key: str(value) if isinstance(value, BaseException) else value
           for key, value in (err.get("ctx") or {}).items()}
    values = {**ctx, "input": _shown(err.get("input")), **input_form(err.get("input"))}
    return Problem(path, message, kind=err["type"], values=values)


def input_form(value: Any) -> dict[str, Any]:
    """What :func:`_shown` says in English of a value not shown as written, as data for its words in
    another language: ``{"input_form": "mapping" | "list" | "null", "input_len": n}`` (a list's entries), or
    ``{}`` for a value shown as the user wrote it."""
    if isinstance(value, bool) or not (value is None or isinstance(value, Mapping | list)):
        return {}
    if isinstance(value, list):
        return {"input_form": "list", "input_len": len(value)}
    return {"input_form": "null" if value is None else "mapping"}


def user_path(loc: tuple[Any, ...], data: Any) -> Path:
    """Drop the parts of a pydantic location that are not keys of the input (union tags...)."""
    return _split_location(loc, data)[0]


def _split_location(loc: tuple[Any, ...], data: Any) -> tuple[Path, list[Any]]:
    """A pydantic location split into the user's key path and the other parts (union tags...)."""
    path: list[str | int] = []
    other: list[Any] = []
    node = data
    for part in loc:
        if isinstance(part, str) and isinstance(node, Mapping) and not _has_child(node, part):
            part = _key_named(node, part)  # pydantic names a key that is no text by its repr
        if _has_child(node, part):
            node = node[part]
        elif isinstance(node, Mapping) and isinstance(part, str) and _is_key_slot(part):
            node = None  # a missing key: keep its name, nothing below it
        else:
            other.append(part)
            continue
        path.append(part)
    return tuple(path), other


def _key_named(node: Mapping[Any, Any], part: str) -> Any:
    """The key of ``node`` that is no text and whose repr is ``part`` (a YAML date as a key, which
    pydantic's location names as ``datetime.date(2001, 12, 14)``), so that the path holds the key
    itself and shows as written (issue 15 #16); else ``part``."""
    for key in node:
        if not isinstance(key, str) and repr(key) == part:
            return key
    return part


def _has_child(node: Any, part: Any) -> bool:
    if isinstance(node, Mapping):
        try:
            return part in node
        except TypeError:  # an unhashable part cannot be a key
            return False
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _is_key_slot(part: str) -> bool:
    return not any(c in part for c in "[]-") and part not in ("one", "many", "str", "int")


_UNION_TAGS = frozenset({"constrained-int", "constrained-str", "int", "str", "list[constrained-str]", "none"})
"""pydantic's names of the alternatives of a union (``opens``: count or list; ``id``: text or number)."""


SHAPES: dict[str, str] = {
    "opens": "a whole number 0–4 (how many claims from a discard), or a list of up to 4 player names "
             "(who fed each claim, in order)",
    "id": "text or a whole number",
    "win": "a mapping such as {winner: D, by: discard, from: A, fans: [qingyise]}",
    "options": "a mapping of house-rule options such as {cap: 400}",
    "abandon": "a mapping {by: NAME}",
    "players": "a list of 2–4 names in seating order, or a mapping name -> details",
    "player": "a mapping of the player's facts such as {opens: 1, kongs: {concealed: 1}}, or nothing",
    "kongs": "a mapping kind -> count such as {concealed: 1}",
    "fans": "per-player totals such as {A: 3, B: 2} (top level), or a list of named items such as "
            "[qingyise, hard] (in win)",
    "tiles": "a mapping (hand, win_tile, melds, ...)",
    "melds": "a meld such as {kind: pung, tiles: 555p, from: A} or {kind: kong, tiles: 5555p, kong: concealed}",
}
"""What each key accepts, said when a value has the wrong shape."""

_MISSING = {
    ("players",): "the names in seating order",
    ("win", "winner"): "the winner's name",
    ("win", "by"): "self_draw 自摸, discard 点炮 or robbed_kong 抢杠",
    ("abandon", "by"): "the name of the player who left",
}
"""What a missing key must give, by its key path (list indices left out)."""

_MESSAGES = {
    "string_type": "must be text (quote numbers and names like '1' or 'yes')",
    "extra_forbidden": "unknown key (not part of the hand format for this region)",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "string_too_short": "must not be empty",
    "string_pattern_mismatch": "must not contain control characters (tabs, line breaks)",
}


def _shape_key(path: Path) -> str | None:
    """The key of :data:`SHAPES` that says what the value at ``path`` accepts, or None."""
    keys = [part for part in path if isinstance(part, str)]
    if len(path) == 2 and path[0] == "players":
        return "player"
    return keys[-1] if keys and keys[-1] in SHAPES else None


def _shape(path: Path) -> str | None:
    key = _shape_key(path)
    return None if key is None else SHAPES[key]


def _shown(value: Any) -> str:
    """A short rendering of an input value for a message (``true``, ``'abc'``, ``1.5``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "null (empty)"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    text = written(value)  # a YAML date or ``!!binary`` as the user wrote it, never a repr (issue 15 #16)
    return text if len(text) <= 40 else text[:37] + "..."


def _message(err: _Error, path: Path = ()) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    shape = _shape(path)
    if kind == "missing":
        keys = tuple(p for p in path if isinstance(p, str))
        hint = allowed_text() if keys == ("region",) else _MISSING.get(keys)
        return f"missing: this key is required ({hint})" if hint else "missing: this key is required"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be {shape or 'a mapping (key: value)'}, not {_shown(err.get('input'))}"
    if kind == "list_type" and path[-1:] == ("fans",) and isinstance(err.get("input"), str):
        return f"must be a list of named items, e.g. fans: [{err['input']}]"
    if kind in _MESSAGES:
        text = _MESSAGES[kind]
        if kind in ("extra_forbidden", "string_too_short"):
            return text
        return f"{text}, not {_shown(err.get('input'))}"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
                 "greater_than": ("more than", "gt"), "less_than": ("less than", "lt")}[kind]
        return f"must be {bound[0]} {ctx.get(bound[1])}, not {_shown(err.get('input'))}"
    if kind == "too_long":
        return f"has {ctx.get('actual_length')} entries; at most {ctx.get('max_length')} are allowed"
    if kind == "string_too_long":
        return f"is too long: at most {ctx.get('max_length')} characters"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected')}, not {_shown(err.get('input'))}"
    message = err["msg"]
    return message.removeprefix("Value error, ")


def _alternatives_message(errors: list[_Error], path: Path) -> str:
    """One message for a value that fits none of the allowed shapes (a union)."""
    value = errors[0].get("input")
    fitting = [e for e in errors if _same_kind(e, value)]
    shape = _shape(path)
    if len(fitting) == 1:
        detail = _message(fitting[0], path)
        return f"{detail} ({shape})" if shape else detail
    if shape:
        return f"must be {shape}, not {_shown(value)}"
    return "; or ".join(dict.fromkeys(_message(e, path) for e in errors))


def _same_kind(err: _Error, value: Any) -> bool:
    """The alternative whose type the value has: its error is about the value, not its type."""
    tag = err["union_tag"] or ""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return tag.endswith("int")
    if isinstance(value, str):
        return tag.endswith("str") and not tag.startswith("list")
    if isinstance(value, list):
        return tag.startswith("list")
    return False
