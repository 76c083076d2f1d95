"""Step 3: the fans.  The shape claims and situational items of ``win.fans`` (G10), every
reading of a winner's tiles by the engine (:func:`evaluation`), each legal reading settled
(:func:`settle_candidate`) and the one a player would claim kept (:func:`choose`,
:func:`choice_key`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from settle.engine.tilelevel.reading import Prepared, TileWin, engine_words
from settle.engine.tilelevel.reasons import WHY_ONLY_LEGAL, _why
from settle.engine.tilelevel.region import tile_options, tile_rules
from settle.engine.tilelevel.results import Candidate, Choice, illegal_win, problems_step
from settle.engine.validation import fan_rule_problems
from settle.errors import HandError, Problem
from settle.model import Hand, Win
from settle.rules.registry import Region
from settle.tiles import Evaluation, ScoredReading, TileError, evaluate_all


def shape_claims(region: Region, win: Win) -> list[str]:
    """The items of ``win.fans`` the tiles decide: every one but the situational items and the
    items implied by ``by`` (Wuxue/Rushan ``qiangganghu``, G10)."""
    fans = win.fans
    if not fans:  # the usual case: fans derived from the tiles
        return []
    stated = tile_rules(region).situations
    return [k for k in fans if k not in stated and not implied(region, k)]


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
    one = hand.win
    win = one[tile_win.index] if isinstance(one, list) else one  # hand.wins[index], fewer calls
    assert win is not None  # a tile win is a win of the hand
    rules = tile_rules(region)
    try:  # the situations as :func:`situations` gives them, the region's rules looked up once
        return evaluate_all(rules, tile_win.tiles, tile_options(region, hand, rules), win.by,
                            list(filter(rules.situations.__contains__, win.fans)) if win.fans else [])
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
        return Problem((*tile_win.path, "fans"), exc.detail, **engine_words(exc))
    return Problem((*tile_win.tiles_path, *exc.path), exc.detail, **engine_words(exc))


def ordered(region: Region, fans: Iterable[str]) -> tuple[str, ...]:
    """Fan keys in the order of the region's table (the order explanations list them); keys the
    table does not have are left out."""
    patterns = region.patterns
    held = _RANKS.get(id(patterns))
    if held is None or held[0] is not patterns:
        held = _RANKS[id(patterns)] = (patterns, {k: i for i, k in enumerate(patterns)})
    rank = held[1]
    if type(fans) is frozenset and len(fans) == 1:  # one fan (a reading's base alone, the usual case)
        for k in fans:
            return (k,) if k in rank else ()
    return tuple(sorted(set(filter(rank.__contains__, fans)), key=rank.__getitem__))


_RANKS: dict[int, tuple[object, dict[str, int]]] = {}
"""Each region's table (``Region.patterns``, by identity) -> the position of every key in it."""


def with_fans(hand: Hand, index: int, fans: Sequence[str]) -> Hand:
    """``hand`` with the ``index``-th win's ``fans`` replaced (keys already canonical)."""
    one = hand.win
    if index == 0 and one is not None and type(one) is not list:  # one win, the usual case
        single: Win = one  # type: ignore[assignment]  # one win, not a list
        if (single.__pydantic_extra__ is None and single.__pydantic_private__ is None
                and hand.__pydantic_extra__ is None and hand.__pydantic_private__ is None):
            # both copies as _replaced makes them, in one go (the usual hand: no extra or private values)
            win = _new(type(single))
            values = single.__dict__.copy()
            values["fans"] = list(fans)
            _set(win, "__dict__", values)
            given = single.__pydantic_fields_set__
            _set_fields_set(win, given if "fans" in given else given | _FANS_SET)
            _set_extra(win, None)
            _set_private(win, None)
            copied = _new(type(hand))
            values = hand.__dict__.copy()
            values["win"] = win
            _set(copied, "__dict__", values)
            given = hand.__pydantic_fields_set__
            _set_fields_set(copied, given if "win" in given else given | _WIN_SET)
            _set_extra(copied, None)
            _set_private(copied, None)
            return copied
        return _replaced(hand, "win", _replaced(single, "fans", list(fans)))
    win = _replaced(hand.wins[index], "fans", list(fans))
    if isinstance(hand.win, list):
        wins = list(hand.win)
        wins[index] = win
        return _replaced(hand, "win", wins)
    return _replaced(hand, "win", win)


_M = TypeVar("_M", bound=BaseModel)
_set = object.__setattr__
_new = object.__new__
_SLOTS = BaseModel.__dict__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__
"""The setters of a model's slots (``object.__setattr__`` without looking each name up)."""
_FANS_SET, _WIN_SET = frozenset({"fans"}), frozenset({"win"})
"""What a copy's fields set gains (``set | frozenset`` is a set, as ``set | set``)."""


def _replaced(model: _M, key: str, value: object) -> _M:
    """``model.model_copy(update={key: value})``: the same new model (its fields' values, fields set,
    no extra or private values: the models forbid extra keys and have no private attributes),
    without the generic work of a copy."""
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None:
        return model.model_copy(update={key: value})
    copied = _new(model.__class__)
    values = model.__dict__.copy()
    values[key] = value
    _set(copied, "__dict__", values)
    given = model.__pydantic_fields_set__  # never changed in place (a copy copies it first): shared
    _set_fields_set(copied, given if key in given else given | {key})
    _set_extra(copied, None)
    _set_private(copied, None)
    return copied


def settle_candidate(prepared: Prepared, hand: Hand, index: int, scored: ScoredReading) -> Candidate:
    """One reading settled: the whole hand with the winner's fans read from the tiles, checked
    by the shared and the region's rules (H8 require_open, W12 ... refuse a reading).

    ``hand`` differs from ``prepared.hand`` (which :func:`~settle.engine.tilelevel.prepare` checked)
    only in its wins' fans, so of the shared checks only those that read the fans run again
    (:func:`~settle.engine.validation.fan_rule_problems`: the problems of ``rule_problems``).
    """
    region = prepared.region
    fans = ordered(region, scored.fans)
    trial = with_fans(hand, index, fans)
    problems = fan_rule_problems(region, trial)
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
                                   f"{tile_win.winner}'s tiles are not a legal win: {found.why_not()}",
                                   kind="not_a_legal_win",
                                   values={"winner": tile_win.winner, "reasons": found.why_not_steps()})],
                          found.why_not_steps())


def _settled_readings(prepared: Prepared, hand: Hand, index: int,
                      legal: Sequence[ScoredReading]) -> tuple[list[Candidate], list[Candidate]]:
    """Several legal readings, each settled (:func:`settle_candidate`), and those the hand's facts allow.
    (Apart from :func:`choose`, as :func:`_ranked`: a comprehension or lambda reading a function's locals
    makes the function allocate a cell for each at every call, Python 3.11, and most hands have one
    reading.)"""
    candidates = [settle_candidate(prepared, hand, index, scored) for scored in legal]
    return candidates, [c for c in candidates if c.settlement is not None]


def _ranked(settled: list[Candidate], winner: str) -> list[Candidate]:
    """The settled readings in the order :func:`choice_key` prefers them (stable: the engine's order
    breaks ties)."""
    return sorted(settled, key=lambda c: choice_key(c, winner))


def choose(prepared: Prepared, hand: Hand, tile_win: TileWin, found: Evaluation) -> Choice:
    """The reading kept for ``tile_win`` among the engine's legal ones, the other wins as in ``hand``.

    Raises HandError when no reading is legal: the engine's reason at ``win.tiles``, or the
    problems of the facts that refuse every reading (e.g. H8: the winner has no open).  ``hand`` is
    ``prepared.hand`` or differs from it only in its wins' fans (see :func:`settle_candidate`).
    """
    winner = tile_win.winner
    legal = found.legal
    if not legal:
        refuse_unwinnable(tile_win, found)
    if len(legal) == 1:  # one legal reading (the usual case): no list to build and filter
        candidates = [settle_candidate(prepared, hand, tile_win.index, legal[0])]
        settled = candidates if candidates[0].settlement is not None else []
    else:
        candidates, settled = _settled_readings(prepared, hand, tile_win.index, legal)
    if not settled:
        raise illegal_win(list(candidates[0].problems), [problems_step(candidates[0].problems)])
    ranked = _ranked(settled, winner) if len(settled) > 1 else settled  # one reading needs no ranking
    chosen = ranked[0]
    why = _why(chosen, ranked[1:], winner, prepared.region) if len(candidates) > 1 else WHY_ONLY_LEGAL
    return Choice(winner, tile_win.path, tile_win.tiles, chosen, tuple(candidates), found.rejected, why,
                  tile_win.wild)
