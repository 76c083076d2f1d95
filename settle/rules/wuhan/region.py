"""The Wuhan :class:`~settle.rules.registry.Region`: vocabulary, options, checks, scoring, words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from settle.rules.registry import Region
from settle.rules.wuhan.checks import check
from settle.rules.wuhan.messages import CATALOG, PROBLEMS_ZH
from settle.rules.wuhan.model import WuhanHand
from settle.rules.wuhan.options import OPTION_ZH, WuhanOptions
from settle.rules.wuhan.scoring import settle
from settle.rules.wuhan.term import TERM
from settle.rules.wuhan.vocab import DISCARDER, KONGS, PATTERNS

if TYPE_CHECKING:
    from settle.tiles import TileRules


def _tile_rules() -> TileRules:
    """The tile engine's rules for Wuhan (loaded only for a hand with tiles)."""
    from settle.rules.wuhan.tiles import TILE_RULES

    return TILE_RULES


REGION = Region(
    term=TERM, unit="番", seats=(4,), patterns=PATTERNS, kongs=KONGS,
    options=WuhanOptions, hand_model=WuhanHand, check=check, settle=settle, has_abandon=True,
    catalog=CATALOG, rotation_rule="H10", discarder=DISCARDER, option_zh=OPTION_ZH, problem_zh=PROBLEMS_ZH,
    tile_rules=_tile_rules,
)
