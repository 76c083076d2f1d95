"""Wuxue house rules (``options:``, seed 000 3.4 / 4.4–4.6); the hand model is in :mod:`.model`."""

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt, model_validator

from settle.model import MAX_POINTS, Strict

Points = Annotated[StrictInt, Field(ge=1)]


class WuxueOptions(Strict):
    """Wuxue house rules (``options:``, seed 3.4 / 4.4–4.6); every default is the ruling's.

    Amounts are points.  Raises a validation error when ``cap <= small_golden <= golden``
    fails (G13).
    """

    cap: Points = Field(15, description="封顶: most a loser pays before 漂 (W7)")
    small_golden: Points = Field(20, description="小金鼎: each of two capped losers (W8)")
    golden: Points = Field(30, description="金鼎: each of three capped losers (W8)")
    three_player_golden: Literal["small", "full"] = Field(
        "small", description="3 players, both capped: small_golden or golden each (W8)")
    piao: Annotated[StrictInt, Field(ge=0, le=100)] = Field(0, description="漂分 per paying loser (W9)")
    piao_both_sides: StrictBool = Field(False, description="漂 counted for winner and loser: 2 × piao (W9)")
    genpi: StrictBool = Field(False, description="跟皮: a 0-斤 陪炮 player counts as 1 斤 (W6)")
    menqing: StrictBool = Field(False, description="门清: a closed 屁胡 may win, by self-draw only (W12)")

    @model_validator(mode="after")
    def _caps_in_order(self) -> "WuxueOptions":
        # An amount past MAX_POINTS is reported as too large (settle.rules.checks), not as out of order.
        if max(self.cap, self.small_golden, self.golden) <= MAX_POINTS and not (
                self.cap <= self.small_golden <= self.golden):
            raise ValueError(f"caps out of order: need cap <= small_golden <= golden, got cap {self.cap}, "
                             f"small_golden {self.small_golden}, golden {self.golden} (G13)")
        return self

    @property
    def piao_per_loser(self) -> int:
        """漂 each paying loser adds (W9)."""
        return 2 * self.piao if self.piao_both_sides else self.piao


OPTION_ZH: dict[str, str] = {
    "three_player_golden": "三人金鼎",
    "piao": "漂分",
    "piao_both_sides": "双边漂",
}
"""中文 names of options whose description does not start with one (``settle rules``)."""
