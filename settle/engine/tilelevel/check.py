"""``settle check``: the fans a table claimed (``win.fans``) against what the tiles give
(:func:`check_claims`: a :class:`~settle.engine.tilelevel.results.ClaimCheck`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from settle.core import Settlement, Step
from settle.engine.tilelevel.choosing import choose, evaluation, implied, ordered, situations, with_fans
from settle.engine.tilelevel.reading import Prepared, prepare
from settle.engine.tilelevel.reasons import choice_steps, fan_labels, reading_step
from settle.engine.tilelevel.region import tile_rules
from settle.engine.tilelevel.results import ClaimCheck, Difference, IllegalWin, problems_step
from settle.engine.validation import has_tiles, rule_problems, validate_model
from settle.errors import HandError, Problem
from settle.model import Hand
from settle.rules.checks import win_path
from settle.rules.registry import Region
from settle.tiles.messages import tile_catalog


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
                                             "winner's tiles; give win.tiles (hand, win_tile, melds, ...)",
                           kind="check_needs_tiles", values={})
    problems = [Problem((*win_path(hand, i), "fans"),
                        "missing: the fans the table claims, e.g. fans: [qingyise] (an empty list claims "
                        "none); `settle hand` derives them from the tiles when they are left out",
                        kind="check_needs_fans", values={})
                for i, win in enumerate(hand.wins) if win.tiles is not None and "fans" not in win.model_fields_set]
    if problems:
        raise HandError(problems)
    prepared = prepare(data, region, hand)
    return _compare(prepared)


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
            illegal[tile_win.winner] = Problem(tile_win.tiles_path, "; ".join(p.message for p in exc.problems),
                                               kind="joined", values={"problems": tuple(exc.problems)})
            illegal_reasons[tile_win.winner] = exc.reasons
            derived[tile_win.winner] = None
            continue
        current = with_fans(current, tile_win.index, picked.chosen.fans)
        derived[tile_win.winner] = counted_fans(region, current, tile_win.index)
        readings[tile_win.winner] = reading_step(region, picked.tiles, picked.chosen.scored, picked.wild)
        steps += choice_steps(region, picked)[1:]  # the reading itself is in the table
    return current, derived, readings, illegal, steps, illegal_reasons


def counted_fans(region: Region, hand: Hand, index: int) -> tuple[str, ...]:
    """The fans that count for the ``index``-th win, as the region settles them, in table order: its
    ``TileRules.counted_fans`` (the fans named and those ``by`` implies, Wuhan 抢杠 on ``robbed_kong``
    G10; Rushan's base, 屁胡 when none is named, and counted multipliers, R1 R3b)."""
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
    its ``TileRules.item_value``."""
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
