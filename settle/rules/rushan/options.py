"""Rushan room options (seed 房间选项, 特殊规则; R3, R7, R8, R9); the hand model is in :mod:`.model`."""

from collections.abc import Mapping
from typing import Any

from pydantic import Field, PositiveInt, StrictBool, model_validator
from pydantic_core import PydanticCustomError

from settle.model import Strict, explains_refusal
from settle.rules.rushan.vocab import _NIUPAI, NIUPAI_MESSAGE


class RushanOptions(Strict):
    """Rushan room options (seed 房间选项, 特殊规则; ``options:``); every default is the ruling's.

    ``cap`` is in 分 (R7).  Options that only restrict legality (R9) are checked where a
    fact-level hand can break them and otherwise accepted and echoed in the notes.
    """

    cap: PositiveInt = Field(32, description="封顶: most a player loses in hand + kong points (R7)")
    cap_includes_fish: StrictBool = Field(False, description="飘鱼 counted inside the cap (R7)")
    multi_win: StrictBool = Field(False, description="一炮多响: several winners on one discard (R8)")
    menqing_yitiaolong: StrictBool = Field(False, description="门清一条龙: 门清 and 一条龙 count (R3, R3b)")
    jiang258: StrictBool = Field(False, description="258将: 2/5/8 pair; allows 将一色 (R9)")
    no_honors: StrictBool = Field(False, description="不带风: no wind/dragon tiles, so no 风一色 (R9)")
    no_chow: StrictBool = Field(False, description="只碰不吃: no 吃 (R9)")
    loubao: StrictBool = Field(False, description="搂宝: 宝牌, self-draw wins only, allows 摸宝/宝中宝 (R9)")
    minglou: StrictBool = Field(False, description="明搂: self-draw wins only (R9)")
    no_draw: StrictBool = Field(False, description="不荒庄: the wall is played out (R9)")
    liang_gang_ding: StrictBool = Field(False, description="亮杠腚: kong tiles shown (R9)")
    guohu: StrictBool = Field(False, description="过胡: a passed win allows only self-draw until one's next discard "
                                                 "(R9; the seed calls it 默认玩法, the ruling gives no default)")

    @model_validator(mode="before")
    @classmethod
    @explains_refusal  # a 牛牌 key is an unknown key too: the lean schema refuses it without this call
    def _no_niupai(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and any(str(k).strip().lower() in _NIUPAI for k in data):
            raise PydanticCustomError("not_modelled", NIUPAI_MESSAGE)
        return data


OPTION_ZH: dict[str, str] = {"cap_includes_fish": "封顶含飘鱼"}
"""中文 names of options whose description does not start with one (``settle rules``)."""
