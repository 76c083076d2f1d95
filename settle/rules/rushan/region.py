"""The Rushan :class:`~settle.rules.registry.Region`: vocabulary, options, checks, scoring, words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from settle.rules.registry import Region
from settle.rules.rushan.checks import check
from settle.rules.rushan.messages import CATALOG, PROBLEMS_ZH
from settle.rules.rushan.model import RushanHand
from settle.rules.rushan.options import OPTION_ZH, RushanOptions
from settle.rules.rushan.scoring import settle
from settle.rules.rushan.term import TERM
from settle.rules.rushan.vocab import DISCARDER, KONGS, PATTERNS

if TYPE_CHECKING:
    from settle.tiles import TileRules


def _tile_rules() -> TileRules:
    """The tile engine's rules for Rushan (loaded only for a hand with tiles)."""
    from settle.rules.rushan.tiles import TILE_RULES

    return TILE_RULES


REGION = Region(
    term=TERM, unit="分", seats=(4,), patterns=PATTERNS, kongs=KONGS,
    options=RushanOptions, hand_model=RushanHand, check=check, settle=settle,
    explicit_totals=False, has_fish=True,
    catalog=CATALOG, rotation_rule="R10", discarder=DISCARDER, option_zh=OPTION_ZH, problem_zh=PROBLEMS_ZH,
    tile_rules=_tile_rules,
)
