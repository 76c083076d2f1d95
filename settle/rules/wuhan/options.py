"""Wuhan house rules (``options:``; seed 004; H1, H5, H6, H7, H9, H12); the hand model is in :mod:`.model`."""

from typing import Literal

from pydantic import Field, PositiveInt, StrictBool, model_validator

from settle.model import MAX_POINTS, Strict


class WuhanOptions(Strict):
    """Wuhan house rules (``options:``); every default is the ruling's.

    Points are 分.  ``golden``/``bright``/``escape_penalty`` default from ``koukou``
    (H6, H9).  Raises a validation error when ``cap <= golden <= bright`` fails (G13).
    """

    cap: PositiveInt = Field(400, description="封顶: most a loser pays (H5)")
    golden: PositiveInt | None = Field(None, description="金顶: 500, or 600 with koukou (H6)")
    bright: PositiveInt | None = Field(None, description="光明顶: 600, or 700 with koukou (H6)")
    koukou: StrictBool = Field(False, description="口口翻: 1 fan per open instead of 1 in all (H1)")
    laizi_kong_fans: int = Field(1, ge=1, le=2, description="fans per 癞子杠 (H1)")
    chengbao_yise: Literal["qingyise", "all"] = Field(
        "qingyise", description="承包 (b) for 清一色 only, or also 将一色/风一色 (H7)")
    escape_penalty: PositiveInt | None = Field(None, description="逃跑 penalty: 400, 500 with koukou (H9)")
    escape_paid_to: Literal["none", "others"] = Field(
        "none", description="逃跑 penalty forfeited, or split among the others (H9)")
    require_open: StrictBool = Field(True, description="the winner must have an open (H8)")
    facai_gang: StrictBool = Field(True, description="发财 is a gang tile (H12)")
    facai_blocks_win: StrictBool = Field(
        True, description="持发财不能胡: holding 发财 forbids any win, as H8 says, even with facai_gang off "
                          "(tile level)")

    @model_validator(mode="after")
    def _defaults_and_order(self) -> "WuhanOptions":
        # The fields' values are the model's __dict__ (frozen: set there, as object.__setattr__ would).
        values = self.__dict__
        koukou = values["koukou"]
        golden, bright = values["golden"], values["bright"]
        if golden is None:
            golden = values["golden"] = 600 if koukou else 500
        if bright is None:
            bright = values["bright"] = 700 if koukou else 600
        if values["escape_penalty"] is None:
            values["escape_penalty"] = 500 if koukou else 400
        cap = values["cap"]
        # An amount past MAX_POINTS is reported as too large (settle.rules.checks), not as out of order.
        if not cap <= golden <= bright and max(cap, golden, bright) <= MAX_POINTS:
            raise ValueError(f"caps out of order: need cap <= golden <= bright, got cap {self.cap}, "
                             f"golden {self.golden}, bright {self.bright} (G13)")
        return self

    # ``golden``, ``bright`` and ``escape_penalty`` are None in the input when not stated, and filled in
    # from ``koukou`` by the validator above: every validated options model has them.

    @property
    def golden_points(self) -> int:
        """金顶 (H6): ``golden``, stated or filled in from ``koukou``."""
        return _filled(self.golden, "golden")

    @property
    def bright_points(self) -> int:
        """光明顶 (H6): ``bright``, stated or filled in from ``koukou``."""
        return _filled(self.bright, "bright")

    @property
    def escape_points(self) -> int:
        """逃跑 penalty (H9): ``escape_penalty``, stated or filled in from ``koukou``."""
        return _filled(self.escape_penalty, "escape_penalty")


def _filled(value: int | None, key: str) -> int:
    if value is None:  # only on an options model made without validation (model_construct)
        raise TypeError(f"option {key} was not filled in")
    return value


OPTION_ZH: dict[str, str] = {
    "laizi_kong_fans": "癞子杠番数",
    "chengbao_yise": "承包一色",
    "escape_penalty": "逃跑罚分",
    "escape_paid_to": "逃跑罚分归属",
    "require_open": "必须开口",
    "facai_gang": "发财杠",
}
"""中文 names of options whose description does not start with one (``settle rules``)."""
