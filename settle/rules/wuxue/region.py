"""The Wuxue :class:`~settle.rules.registry.Region`: vocabulary, options, checks, scoring, words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from settle.rules.registry import Region
from settle.rules.wuxue.checks import check
from settle.rules.wuxue.messages import CATALOG, PROBLEMS_ZH
from settle.rules.wuxue.model import WuxueHand
from settle.rules.wuxue.options import OPTION_ZH, WuxueOptions
from settle.rules.wuxue.scoring import settle
from settle.rules.wuxue.term import TERM
from settle.rules.wuxue.vocab import DISCARDER, KONGS, PATTERNS

if TYPE_CHECKING:
    from settle.tiles import TileRules


def _tile_rules() -> TileRules:
    """The tile engine's rules for Wuxue (loaded only for a hand with tiles)."""
    from settle.rules.wuxue.tiles import TILE_RULES

    return TILE_RULES


REGION = Region(
    term=TERM, unit="斤", seats=(2, 3, 4), patterns=PATTERNS, kongs=KONGS,
    options=WuxueOptions, hand_model=WuxueHand, check=check, settle=settle, dealer_needed_on_win=False,
    catalog=CATALOG, rotation_rule="W13", discarder=DISCARDER, option_zh=OPTION_ZH, problem_zh=PROBLEMS_ZH,
    tile_rules=_tile_rules,
)
