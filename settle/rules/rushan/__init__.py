"""Rushan 乳山 (seed 003; RULINGS R1–R11): options, vocabulary and scoring.

Unit: 分 (points) times multipliers.  For each winner (seed 输分计算, 杠牌规则 4–5):

* hand points  ``base × product of multipliers``                      (R1, R2, R4)
* kong points  ``1`` per kong of the winner (明杠 or 暗杠); nobody else's (R4)

Self-draw: every other player pays hand + kong points; a discard or a robbed kong:
only the discarder (robbed player) pays (R5, G6).  Each paying loser adds 飘鱼
``fish_winner + fish_loser`` (R6).  A loser loses at most ``cap`` in hand + kong
points, fish on top unless ``cap_includes_fish`` (R7); a capped discarder of 一炮多响
splits the cap among the winners (R7, R8).  Next dealer: R10.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from math import prod
from typing import Any

from pydantic import Field, PositiveInt, StrictBool, model_validator
from pydantic_core import PydanticCustomError

from settle import core
from settle.rules.checks import win_path
from settle.core import Debt, Settlement
from settle.errors import Path, Problem
from settle.model import NOBODY, Strict, hand_model
from settle.rules.registry import REGION_TERMS, Region, foreign_term
from settle.vocab import KongKind, Pattern, vocabulary, with_traditional

SELF = frozenset({"self_draw"})

PATTERNS: dict[str, Pattern] = {
    p.key: p
    for p in (
        Pattern("pihu", "屁胡", "plain win: 两边/对倒/单吊/夹胡/3-7胡 (the default base)", 1,
                kind="base", ruling="R1", group="base"),
        Pattern("pengpenghu", "碰碰胡", "all pungs (单吊飘胡/对倒飘胡)", 2, kind="base", ruling="R1",
                group="base", aliases=("飘胡",)),
        Pattern("qidui", "七对", "seven pairs", 2, kind="base", ruling="R1", group="base",
                aliases=("七小对",)),
        Pattern("tianhu", "天胡", "the dealer wins on the dealt hand", 4, kind="multiplier",
                ruling="R2, G10", only_by=SELF),
        Pattern("dihu", "地胡", "a non-dealer wins right after the dealer's first discard", 4,
                kind="multiplier", ruling="R2, G10"),
        Pattern("qingyise", "清一色", "one suit only", 2, kind="multiplier", ruling="R2"),
        Pattern("haidilao", "海底捞", "self-draw on the last tile before 分张", 2, kind="multiplier",
                ruling="R2, G10", only_by=SELF, aliases=("海底", "海底捞月")),
        Pattern("gangshanghua", "杠上花", "self-draw on the replacement tile after a kong", 2,
                kind="multiplier", ruling="R2, G10", only_by=SELF, aliases=("杠开", "杠上开花")),
        Pattern("fengyise", "风一色", "only wind and dragon tiles", 2, kind="multiplier", ruling="R2, R9"),
        Pattern("mobao", "摸宝", "self-draw of the 宝牌 (搂宝 only)", 2, kind="multiplier", ruling="R2, R9"),
        Pattern("baozhongbao", "宝中宝", "the 宝牌 is the winning tile (搂宝 only)", 2, kind="multiplier",
                ruling="R2, R9"),
        Pattern("jiangyise", "将一色", "only 2, 5 and 8 tiles (258将 only)", 3, kind="multiplier",
                ruling="R2, R9"),
        Pattern("yitiaolong", "一条龙", "123, 456 and 789 of one suit (门清一条龙 only)", 2,
                kind="multiplier", ruling="R2, R3, R3b"),
        Pattern("menqing", "门清", "self-draw with no 吃/碰/明杠 (门清一条龙 only)", 2,
                kind="multiplier", ruling="R2, R3, R3b, G10", aliases=("门前清",)),
        Pattern("qiangganghu", "抢杠", "robbing a kong: implied by by: robbed_kong; no multiplier (R2)", 0,
                kind="implied", ruling="G10, R5", only_by=frozenset({"robbed_kong"}), aliases=("抢杠胡",)),
    )
}
"""Rushan scoring items: one base (R1) times every multiplier named (R2)."""

DEFAULT_BASE = "pihu"
"""屁胡 is the base when none is named (R1)."""

OPTIONAL_COUNT = frozenset({"menqing", "yitiaolong"})
"""Multipliers that count only with option ``menqing_yitiaolong`` (R3, R3b)."""

KONGS: dict[str, KongKind] = {
    k.key: k
    for k in (
        KongKind("exposed", "明杠", "exposed kong claimed from a discard (直杠/点杠); also an open",
                 1, aliases=("直杠", "点杠", "冲杠"), ruling="R4, G3"),
        KongKind("added", "补杠", "added kong upgrading a 碰 (蓄杠); can be robbed", 1,
                 aliases=("蓄杠",), ruling="R4, G3"),
        KongKind("concealed", "暗杠", "concealed kong; never an open", 1, ruling="R4, G3"),
    )
}
"""Rushan kong kinds: 1 point each, for the winner only (杠牌规则 4–5, R4)."""

_NIUPAI = {s.lower() for s in ("niu", "niupai", *with_traditional(("牛", "牛牌", "杠开牛牌")))}
NIUPAI_MESSAGE = ("牛牌 (niupai, 搂宝's 牛 tiles) is not modelled by settle: a hand that uses it "
                  "cannot be settled here; settle it at the table (R9)")


def _hint(kind: str) -> Callable[[str], str | None]:
    """The vocabulary hint: 牛牌 is not modelled (R9); other regions' words are named (G14)."""
    shared = foreign_term("rushan", kind)

    def hint(word: str) -> str | None:
        return NIUPAI_MESSAGE if word.lower() in _NIUPAI else shared(word)

    return hint


RushanFan = vocabulary(PATTERNS, "Rushan fan", _hint("fan"))
RushanKong = vocabulary(KONGS, "Rushan kong kind", _hint("kong kind"))


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
    def _no_niupai(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and any(str(k).strip().lower() in _NIUPAI for k in data):
            raise PydanticCustomError("not_modelled", NIUPAI_MESSAGE)
        return data


RushanHand = hand_model("Rushan", RushanOptions, RushanFan, RushanKong)
RushanWin = Any  # one win of a RushanHand (its narrowed Win model)

SELF_DRAW_ONLY: dict[str, str] = {"loubao": "搂宝", "minglou": "明搂"}
"""Options under which every win is a self-draw after 报听 (R9)."""


# --- checks --------------------------------------------------------------------------------------

FanRule = tuple[Callable[[RushanHand, RushanWin], bool], str]

FAN_RULES: dict[str, FanRule] = {
    "tianhu": (lambda h, w: w.winner == h.dealer,
               "天胡 tianhu is only the dealer's self-draw; {winner} is not the dealer {dealer} (G10)"),
    "dihu": (lambda h, w: w.winner != h.dealer,
             "地胡 dihu is only a non-dealer's win; {winner} is the dealer (G10)"),
    "jiangyise": (lambda h, w: h.options.jiang258,
                  "将一色 jiangyise needs options.jiang258 (258将) on (R9)"),
    "fengyise": (lambda h, w: not h.options.no_honors,
                 "风一色 fengyise is impossible with options.no_honors (不带风) on (R9)"),
    "mobao": (lambda h, w: h.options.loubao, "摸宝 mobao needs options.loubao (搂宝) on (R9)"),
    "baozhongbao": (lambda h, w: h.options.loubao, "宝中宝 baozhongbao needs options.loubao (搂宝) on (R9)"),
    "menqing": (lambda h, w: not h.options.menqing_yitiaolong or is_menqing(h, w),
                "门清 menqing needs a self-draw with no open (吃/碰/明杠); {winner} won by {by} with "
                "{opens} open(s) (R3, G10)"),
}
"""Fan name -> (fits this hand?, message): G10 and R9 legality of each named item."""


def check(hand: RushanHand) -> list[Problem]:
    """Rushan legality: R8 several winners, G10 and R9 fits of each win, no 包牌.

    Returns the problems, each at the key it is about (``win``, ``win.by``, ``win.fans[i]``).
    """
    problems = list(_several_wins(hand))
    for i, win in enumerate(hand.wins):
        problems += _win_problems(hand, win, win_path(hand, i))
    return problems


def _several_wins(hand: RushanHand) -> Iterable[Problem]:
    wins = hand.wins
    if len(wins) > 1 and not hand.options.multi_win:
        yield Problem(("win",), f"{len(wins)} winners need options.multi_win (一炮多响) on; "
                                "without it only one player wins (R8)")


def _win_problems(hand: RushanHand, win: RushanWin, path: Path) -> list[Problem]:
    out = [Problem((*path, "by"), f"options.{key} ({zh}) allows only self-draw wins after 报听, "
                                  f"not {win.by} (R9)")
           for key, zh in SELF_DRAW_ONLY.items() if getattr(hand.options, key) and win.by != "self_draw"]
    facts = {"winner": win.winner, "dealer": hand.dealer, "by": win.by,
             "opens": hand.players[win.winner].open_count}
    for j, key in enumerate(win.fans):
        if key in FAN_RULES and not FAN_RULES[key][0](hand, win):
            out.append(Problem((*path, "fans", j), FAN_RULES[key][1].format(**facts)))
    if win.liable not in (None, NOBODY):
        out.append(Problem((*path, "liable"), "Rushan has no 包牌: remove win.liable (R5)"))
    return out


def is_menqing(hand: RushanHand, win: RushanWin) -> bool:
    """门清: a self-draw by a winner with no 吃/碰/明杠 (opens count them all, G4; R3)."""
    return win.by == "self_draw" and hand.players[win.winner].open_count == 0


# --- points --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Points:
    """One winner's points (R1–R4, R3b).

    ``base``: the base key; ``counted``: multiplier keys that count, in order;
    ``uncounted``: named multipliers that count nothing (R3b, option off);
    ``auto``: counted without being named (门清, R3b); ``kongs``: the winner's kongs.
    """

    winner: str
    base: str
    counted: tuple[str, ...]
    uncounted: tuple[str, ...]
    auto: tuple[str, ...]
    kongs: int

    @functools.cached_property  # read for every debt, score and note of the win
    def hand(self) -> int:
        """Hand points: base × product of multipliers (R4), in 分."""
        return PATTERNS[self.base].value * prod(PATTERNS[k].value for k in self.counted)

    @property
    def owed(self) -> int:
        """Hand points + 1 per kong of the winner (R4): what each paying loser owes before R6/R7."""
        return self.hand + self.kongs

    @property
    def formula(self) -> str:
        """The numbers: ``2×2 + 1 kong``."""
        text = "×".join([str(PATTERNS[k].value) for k in (self.base, *self.counted)])
        return text + _kongs(self.kongs)

    @property
    def detail(self) -> str:
        """The items: ``pengpenghu 2 × qingyise ×2 = 4, + 1 kong``."""
        items = [f"{self.base} {PATTERNS[self.base].value}",
                 *(f"{k} ×{PATTERNS[k].value}" for k in self.counted)]
        text = " × ".join(items) + (f" = {self.hand}" if self.counted else "")
        return text + ("," + _kongs(self.kongs) if self.kongs else "")


def _kongs(n: int) -> str:
    return f" + {n} kong{'s' if n > 1 else ''}" if n else ""


def count_points(hand: RushanHand, win: RushanWin) -> Points:
    """The winner's base, counted multipliers and kongs (R1–R4; R3b for 门清/一条龙)."""
    named_base = [k for k in win.fans if PATTERNS[k].kind == "base"]
    multipliers = [k for k in win.fans if PATTERNS[k].kind == "multiplier"]
    if hand.options.menqing_yitiaolong:
        auto = ("menqing",) if is_menqing(hand, win) and "menqing" not in multipliers else ()
        counted, uncounted = (*multipliers, *auto), ()
    else:  # R3b: 门清 and 一条龙 count nothing with the option off
        auto = ()
        counted = tuple([k for k in multipliers if k not in OPTIONAL_COUNT])
        uncounted = tuple([k for k in multipliers if k in OPTIONAL_COUNT])
    return Points(
        winner=win.winner,
        base=named_base[0] if named_base else DEFAULT_BASE,
        counted=counted,
        uncounted=uncounted,
        auto=auto,
        kongs=hand.players[win.winner].kong_count(),
    )


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: RushanHand) -> Settlement:
    """Settle a checked Rushan hand: one or several wins (R4–R8), or a 荒庄 (R10)."""
    wins, names = hand.wins, hand.names
    points = {w.winner: count_points(hand, w) for w in wins}
    debts = [d for w in wins for d in _owed(names, w, points[w.winner])]
    inside = hand.options.cap_includes_fish
    if inside:
        debts = _fish(hand, debts, "R6, inside the cap")
    debts = [d for group in _by_loser(debts) for d in _cap(hand, names, group)]
    if not inside:
        debts = _fish(hand, debts, "R6")
    return core.settlement(
        hand, "rushan", core.to_transfers(debts), next_dealer(hand), unit="分",
        scores={w: p.hand for w, p in points.items()},
        score_detail={w: p.detail for w, p in points.items()},
        notes=_notes(hand, wins, points),
    )


def _owed(names: list[str], win: RushanWin, points: Points) -> list[Debt]:
    """R5: on a self-draw every other player owes, else only the discarder (robbed player, G6)."""
    losers = core.seats_after(names, win.winner) if win.by == "self_draw" else [win.from_]
    owed, formula = points.owed, points.formula
    return [Debt(loser, win.winner, owed, formula) for loser in losers]


def _fish(hand: RushanHand, debts: list[Debt], rule: str) -> list[Debt]:
    """R6 飘鱼: each paying loser adds ``fish_winner + fish_loser`` (before or after the R7 cap)."""
    players = hand.players
    out = []
    for d in debts:
        fw, fl = players[d.winner].fish, players[d.loser].fish
        # No fish, no step: add_extra would drop it, so its text is not built.
        out.append(core.add_extra(d, fw + fl, f"+ fish {fw}+{fl} ({rule})") if fw + fl else d)
    return out


def _by_loser(debts: list[Debt]) -> list[list[Debt]]:
    groups: dict[str, list[Debt]] = {}
    for d in debts:
        groups.setdefault(d.loser, []).append(d)
    return list(groups.values())


def _cap(hand: RushanHand, names: list[str], debts: list[Debt]) -> list[Debt]:
    """R7: one loser's debts together at most ``cap``; several winners split it by what each was owed."""
    limit = hand.options.cap
    if len(debts) == 1:
        return [core.cap(debts[0], limit, "R7")]
    total = sum(d.amount for d in debts)
    if total <= limit:
        return debts
    loser = debts[0].loser
    owed = {d.winner: d.amount for d in debts}
    order = [n for n in core.seats_after(names, loser) if n in owed]  # ties: nearer after the loser
    shares = core.split_largest_remainder(limit, [(n, owed[n]) for n in order])
    # Each winner named beside his amount: a bare ratio (6:5) on every row does not say whose share is whose.
    step = (f"{loser} owes {' + '.join(f'{n} {owed[n]}' for n in order)} = {total}, capped at {limit}: "
            f"{limit} split by what each winner was owed, {', '.join(f'{n} {shares[n]}' for n in order)}"
            f"{_leftover(limit, total, owed, loser)} (R7)")
    return [d.then(shares[d.winner], f"= {d.amount}; {step}", capped=True) for d in debts]


def _leftover(limit: int, total: int, owed: dict[str, int], loser: str) -> str:
    """How a cap that does not split into whole points was rounded (R7), or nothing when it does."""
    if all(limit * amount % total == 0 for amount in owed.values()):
        return ""
    return f" (whole points by largest remainder, ties to the winner nearer after {loser})"


def next_dealer(hand: RushanHand) -> str:
    """R10: the dealer stays if he wins or on a 荒庄 with no kongs; otherwise the next player deals."""
    wins = hand.wins
    if wins:
        stays = any(w.winner == hand.dealer for w in wins)
    else:
        stays = not any(p.kong_count() for p in hand.players.values())
    return hand.dealer if stays else core.next_after(hand.names, hand.dealer)


def _notes(hand: RushanHand, wins: list[RushanWin], points: Mapping[str, Points]) -> list[str]:
    """The rule applications and facts behind the amounts (G8): who pays, kongs, R3b, options."""
    notes = _win_notes(hand, wins, points) if wins else [_draw_note(hand)]
    changed = _changed_options(hand.options)
    if changed:
        notes.append(f"options: {', '.join(changed)}")
    return notes


def _win_notes(hand: RushanHand, wins: list[RushanWin], points: Mapping[str, Points]) -> list[str]:
    """Who pays (R5), 抢杠 named (G10), 门清/一条龙 (R3b), and the kongs that score nothing (R4)."""
    notes = [_who_pays(wins[0])]
    for win in wins:
        notes += [f"{PATTERNS[k].label} named by {win.winner}: implied by robbed_kong and counted once, "
                  "no multiplier of its own (G10, R2)" for k in win.fans if PATTERNS[k].kind == "implied"]
    for p in points.values():
        if not (p.auto or p.uncounted):  # R3b concerns 门清/一条龙 only
            continue
        notes += [f"{PATTERNS[k].label} ×{PATTERNS[k].value} counted for {p.winner}: a self-draw with no open (R3b)"
                  for k in p.auto]
        notes += [f"{PATTERNS[k].label} named by {p.winner} but not counted: options.menqing_yitiaolong "
                  "is off (R3b)" for k in p.uncounted]
    others = [f"{n} {kongs}" for n, pl in hand.players.items() if n not in points and (kongs := pl.kong_count())]
    if others:
        notes.append(f"kongs of {', '.join(others)} score nothing: only a winner's kongs count (R4)")
    return notes


def _who_pays(win: RushanWin) -> str:
    if win.by == "self_draw":
        return f"自摸: {win.winner} self-drew, every other player pays (R5)"
    how = "was robbed (抢杠, G6)" if win.by == "robbed_kong" else "discarded (点炮)"
    return f"{win.from_} {how}: only {win.from_} pays (R5)"


def _draw_note(hand: RushanHand) -> str:
    kongs = [f"{n} {p.kong_count()}" for n, p in hand.players.items() if p.kong_count()]
    if kongs:
        return f"荒庄 with kongs ({', '.join(kongs)}): the deal passes to {next_dealer(hand)} (R10)"
    return f"荒庄 with no kongs: {hand.dealer} stays dealer (R10)"


@functools.lru_cache(maxsize=256)
def _changed_options(options: RushanOptions) -> tuple[str, ...]:
    """``key value`` of every option that differs from its default, as the hand file stated it
    (options models are frozen and hashable; a batch repeats a few option sets many times)."""
    out = []
    for key, field in RushanOptions.model_fields.items():
        value = getattr(options, key)
        if value != field.default:
            out.append(f"{key} {'on' if value is True else value}")
    return tuple(out)


REGION = Region(
    term=REGION_TERMS["rushan"], unit="分", seats=(4,), patterns=PATTERNS, kongs=KONGS,
    options=RushanOptions, hand_model=RushanHand, check=check, settle=settle,
    explicit_totals=False, has_fish=True,
)
