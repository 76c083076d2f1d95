"""Wuxue 武穴麻将 (seed 000 算分 / 计分规则; RULINGS W1–W14): options, vocabulary and scoring.

Unit: 斤 (jin), counted for every player separately (W2–W4).  A loser owes

* self-draw 自摸 (W5), and the discarder 点炮 (W6):  ``2^(jin_loser + jin_winner)``         (W1)
* every other player on a discard, 陪炮 (W6):        ``2^(jin_loser + jin_winner - 1)``,
  nothing when his own jin is 0 (option ``genpi`` 跟皮 counts that 0 as 1)

then 封顶 ``cap`` (W7), 小金鼎/金鼎 when two or three paying losers reached it (W8),
漂 on top (W9), and 包胡 (W11).  抢杠胡: the robbed player alone pays one cap + 漂 (W10).
A player's jin come from the facts, or from an explicit ``fans``/``jin`` total (G5).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt, model_validator

from settle import core
from settle.core import Debt, Settlement, Tally, Transfer
from settle.errors import Problem
from settle.model import MAX_POINTS, NOBODY, Player, Strict, hand_model
from settle.rules.registry import REGION_TERMS, Region, foreign_term
from settle.vocab import KongKind, Pattern, vocabulary

SELF = frozenset({"self_draw"})
DISCARD = frozenset({"discard"})
ROBBED = frozenset({"robbed_kong"})

PATTERNS: dict[str, Pattern] = {
    p.key: p
    for p in (
        Pattern("qidui", "七对", "seven pairs (宝杠 allowed)", 2, ruling="W2", group="qidui",
                aliases=("七小对",)),
        Pattern("qingyise", "清一色", "one suit only", 2, ruling="W2, W11 b"),
        Pattern("jiangyise", "将一色", "only 2, 5 and 8 tiles (any shape)", 2, ruling="W2, W11 b"),
        Pattern("fengyise", "风一色", "only wind and dragon tiles", 2, ruling="W2, W11 b"),
        Pattern("pengpenghu", "碰碰胡", "all pungs: every set a pung or kong", 2, ruling="W2"),
        Pattern("quanqiuren", "全求人", "four claimed sets, single 2/5/8 pair tile won on a discard",
                2, ruling="W2, W11 a, G10", only_by=DISCARD),
        Pattern("haohua_qidui", "豪华七对", "seven pairs with one set of four alike (replaces 七对)",
                3, ruling="W2", group="qidui"),
        Pattern("chaohaohua_qidui", "超豪华七对", "seven pairs with two sets of four alike (replaces 七对)",
                4, ruling="W2", group="qidui"),
        Pattern("chaochaohaohua_qidui", "超超豪华七对",
                "seven pairs with three sets of four alike (replaces 七对)", 5, ruling="W2", group="qidui"),
        Pattern("hard", "硬胡", "no 宝 in hand, or every 宝 used as itself", 1, kind="extra",
                ruling="W2, W16"),
        Pattern("sibao", "四宝牌", "four 宝 tiles in hand", 1, kind="extra", ruling="W2",
                aliases=("四宝",)),
        Pattern("gangkai", "杠开", "self-draw on the replacement tile after any kong", 1, kind="extra",
                ruling="W2, G10", only_by=SELF, aliases=("杠上开花", "杠上花")),
        Pattern("qiangganghu", "抢杠胡", "robbing a kong: implied by by: robbed_kong, which W10 scores",
                0, kind="implied", ruling="G10, W10", only_by=ROBBED, aliases=("抢杠",)),
    )
}
"""Wuxue scoring items (W2): big hands 2 斤 each and adding, the seven-pairs levels 2–5 斤
(at most one, G10), extras 1 斤 each.  No big hand is a 屁胡."""

KONGS: dict[str, KongKind] = {
    k.key: k
    for k in (
        KongKind("exposed", "明杠", "exposed kong claimed from a discard; also an open", 1,
                 aliases=("直杠", "点杠"), ruling="W3, G3"),
        KongKind("added", "补杠", "added kong upgrading a 碰", 1, ruling="W3, G3"),
        KongKind("concealed", "暗杠", "concealed kong; never an open", 2, ruling="W3, G3"),
        KongKind("bao", "宝杠", "a 宝 tile played out, counted as a kong; not an open", 2,
                 ordinary=False, ruling="W3, W4", aliases=("宝牌杠",)),
        # 7 = the flipped tile's 3 remaining copies + the 4 红中 (seed 2.2; W15).
        KongKind("pizi", "癞子皮杠", "a 癞子皮 tile played out, counted as a kong; not an open", 1,
                 ordinary=False, limit=7, ruling="W3, W4, W15", aliases=("赖子皮杠", "痞子杠", "皮杠")),
    )
}
"""Wuxue kong kinds and their 斤 for every player (W3)."""

WuxueFan = vocabulary(PATTERNS, "Wuxue fan", foreign_term("wuxue", "fan"))
WuxueKong = vocabulary(KONGS, "Wuxue kong kind", foreign_term("wuxue", "kong kind"))

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
    def _caps_in_order(self) -> WuxueOptions:
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


WuxueHand = hand_model("Wuxue", WuxueOptions, WuxueFan, WuxueKong)

GOLDEN: dict[tuple[int, int], str] = {
    (4, 2): "small",
    (4, 3): "full",
}
"""W8 with 4 players: (players at the table, paying losers capped) -> the golden cap each capped loser
pays.  With 3 players both capped pay by option ``three_player_golden``; 2 players have none (W8)."""

GOLDEN_NAMES = {"small": "小金鼎", "full": "金鼎"}


# --- checks --------------------------------------------------------------------------------------


def check(hand: WuxueHand) -> list[Problem]:
    """Wuxue legality: one winner (无一炮多响); W12 屁胡 opens/门清 (not when the winner's total
    is given, G9); 包胡 (b) decidable (G7); no 包胡 on 抢杠胡 (W10)."""
    if isinstance(hand.win, list):
        return [Problem(("win",), "Wuxue has one winner per hand (无一炮多响): give `win` as a mapping")]
    if hand.win is None:
        return []
    return [*_w12_problems(hand), *_liable_problems(hand)]


def is_pihu(hand: WuxueHand) -> bool:
    """屁胡: the winner names no big hand (W2)."""
    return not any(PATTERNS[k].kind == "big" for k in hand.win.fans)


def _w12_problems(hand: WuxueHand) -> list[Problem]:
    win = hand.win
    if hand.explicit_total(win.winner) is not None or not is_pihu(hand) or hand.players[win.winner].open_count:
        return []
    if not hand.options.menqing:
        return [Problem(("players", win.winner, "opens"),
                        f"the winner {win.winner} has a 屁胡 (no big hand) and no open (开口); Wuxue needs an "
                        "open for a 屁胡 (W12; option menqing 门清 allows a closed self-drawn 屁胡, or give the "
                        "winner's jin total, G9)")]
    if win.by != "self_draw":
        return [Problem(("win", "by"),
                        f"with option menqing 门清 a closed 屁胡 must be self-drawn (自摸), not won by {win.by} "
                        f"({win.winner} has no open; W12)")]
    return []


def _liable_problems(hand: WuxueHand) -> list[Problem]:
    win = hand.win
    if win.by == "robbed_kong" and win.liable not in (None, NOBODY, win.from_):
        return [Problem(("win", "liable"),
                        f"抢杠胡 has no 包胡: only the robbed player {win.from_} pays (W10, G11); "
                        "remove win.liable or set it to none")]
    if _needs_feeders(hand):
        return [Problem(("players", win.winner, "opens"),
                        f"{'/'.join(_flush_names(hand))} with {hand.players[win.winner].open_count} opens: 包胡 "
                        "needs who fed the third open; give opens as a list of feeders, or win.liable (W11 b, G7)")]
    return []


def _needs_feeders(hand: WuxueHand) -> bool:
    """W11 b decides the liable player but ``opens`` is a bare count (G7); not when W10 or
    W11 a (G11) or ``win.liable`` decides instead."""
    win = hand.win
    return (win.by != "robbed_kong" and win.liable is None and not _quanqiuren_trigger(hand)
            and _flush_trigger(hand) and hand.players[win.winner].feeders is None)


# --- jin -----------------------------------------------------------------------------------------


def count_jin(hand: WuxueHand, name: str) -> Tally:
    """斤 of ``name``: own kongs (W3), plus the named items for the winner (W2) or 开口 1 for a
    loser with any open (W4); or the stated total (G5)."""
    return count_all_jin(hand)[name]


def count_all_jin(hand: WuxueHand) -> dict[str, Tally]:
    """Every player's 斤, in seat order: :func:`count_jin` of each, the win looked at once per hand."""
    winner = hand.win.winner
    stated = hand.fans or {}
    return {
        name: Tally.given(stated[name]) if name in stated
        else Tally.of((_winner_items(hand) if name == winner else _open_items(player)) + _kong_items(player))
        for name, player in hand.players.items()
    }


def _winner_items(hand: WuxueHand) -> list[tuple[str, int]]:
    return [(PATTERNS[k].zh, PATTERNS[k].value) for k in hand.win.fans if PATTERNS[k].kind != "implied"]


def _open_items(player: Player) -> list[tuple[str, int]]:
    # W4: once for any number of opens; the winner never gets it.
    return [("开口", 1)] if player.open_count else []


def _kong_items(player: Player) -> list[tuple[str, int]]:
    out = []
    for kind, n in player.kongs.items():
        if n:
            kong = KONGS[kind]
            out.append((kong.zh if n == 1 else f"{kong.zh}×{n}", n * kong.value))
    return out


# --- scoring -------------------------------------------------------------------------------------


def settle(hand: WuxueHand) -> Settlement:
    """Settle a checked Wuxue hand: a win (W1–W11) or a 荒庄 draw (no payments, no 漂; W9, W13)."""
    win = hand.win
    if win is None:
        return _result(hand, [], {}, hand.dealer, ["荒庄: nobody pays, no 漂 (W9); the dealer stays (W13)"])
    jin = count_all_jin(hand)
    if win.by == "robbed_kong":
        debts, notes = _robbed(hand)
        return _result(hand, core.to_transfers(debts), jin, win.winner, notes)
    names = hand.names
    debts, notes = _owed_all(hand, names, jin)
    debts, cap_notes = _caps(hand, len(names), debts)
    debts = _piao(hand, debts)
    notes += cap_notes
    liable, reason = liable_player(hand)
    if liable is not None:
        debts = core.redirect(debts, liable, reason)
        notes.append(f"{liable} pays for everyone: {reason}")
    return _result(hand, core.to_transfers(debts), jin, win.winner, notes, liable)


def _owed_all(hand: WuxueHand, names: list[str], jin: dict[str, Tally]) -> tuple[list[Debt], list[str]]:
    """W1, W5, W6: each loser's debt before caps, in seat order after the winner; the notes
    say which 陪炮 players pay nothing."""
    debts, notes = [], []
    for loser in core.seats_after(names, hand.win.winner):
        debt = _owed(hand, loser, jin)
        if debt is None:
            notes.append(f"{loser} owes nothing of his own: 陪炮 with 0 斤 (W6; option genpi 跟皮 would count it as 1)")
        else:
            debts.append(debt)
    return debts, notes


def _owed(hand: WuxueHand, loser: str, jin: dict[str, Tally]) -> Debt | None:
    """What ``loser`` owes before caps, or None for a 0-斤 陪炮 player without 跟皮 (W6)."""
    win = hand.win
    a, b = jin[loser].total, jin[win.winner].total
    if win.by == "self_draw":
        return _debt(hand, loser, "自摸 (W5)", 2 ** (a + b), f"2^({a}+{b})")
    if loser == win.from_:
        return _debt(hand, loser, "点炮 (W6)", 2 ** (a + b), f"2^({a}+{b})")
    if a == 0 and not hand.options.genpi:
        return None
    role = "陪炮 half (W6)"
    if a == 0:
        a, role = 1, "陪炮 half (W6; 跟皮: 0 斤 counted as 1)"
    return _debt(hand, loser, role, 2 ** (a + b - 1), f"2^({a}+{b}-1)")


def _debt(hand: WuxueHand, loser: str, role: str, amount: int, power: str) -> Debt:
    # The plain value is shown only when no cap step will show it.
    shown = power if amount >= hand.options.cap else f"{power} = {amount}"
    return Debt(loser, hand.win.winner, amount, f"{role}: {shown}")


def _caps(hand: WuxueHand, players: int, debts: list[Debt]) -> tuple[list[Debt], list[str]]:
    """W7 封顶 (reached, G13), then W8 小金鼎/金鼎 for each capped paying loser at a table of ``players``."""
    opts = hand.options
    capped = [core.cap(d, opts.cap, "W7 封顶") for d in debts]
    count = sum([d.capped for d in capped])
    level = golden_level(opts, players, count)
    if level is None:
        return capped, []
    amount = opts.small_golden if level == "small" else opts.golden
    what = {2: "two losers capped", 3: "all three losers capped"}[count]
    if players == 3:
        what = f"both losers capped, three_player_golden: {level}"
    step = f"{GOLDEN_NAMES[level]} {amount}: {what} (W8)"
    return [core.replace_amount(d, amount, step) if d.capped else d for d in capped], [step]


def golden_level(opts: WuxueOptions, players: int, capped: int) -> str | None:
    """W8: ``small`` (小金鼎), ``full`` (金鼎) or None for ``capped`` paying losers at a table of ``players``."""
    if (players, capped) == (3, 2):
        return opts.three_player_golden
    return GOLDEN.get((players, capped))


def _piao(hand: WuxueHand, debts: list[Debt]) -> list[Debt]:
    """W9: 漂 on top of every paying loser's amount, never capped."""
    opts = hand.options
    points = opts.piao_per_loser
    if not points:
        return debts
    source = f" (2×{opts.piao}, piao_both_sides)" if opts.piao_both_sides else ""
    return [core.add_extra(d, points, f"+ 漂 {points}{source} = {d.amount + points} (W9)") for d in debts]


def _robbed(hand: WuxueHand) -> tuple[list[Debt], list[str]]:
    """W10 抢杠胡: the robbed player alone pays one cap, plus 漂; no golden cap, no 包胡."""
    win, opts = hand.win, hand.options
    debt = Debt(win.from_, win.winner, opts.cap,
                f"抢杠胡: {win.from_}'s kong was robbed, pays the cap {opts.cap} (W10)", capped=True)
    note = f"抢杠胡: only {win.from_} pays, one cap {opts.cap} + 漂; no 金鼎, no 包胡 (W10, G11)"
    return _piao(hand, [debt]), [note, *implied_notes(win.fans)]


def implied_notes(fans: list[str]) -> list[str]:
    """G10: a named ``qiangganghu`` adds nothing to ``by: robbed_kong``, which already scores it."""
    return [f"{PATTERNS[k].label} named: implied by robbed_kong and counted once (G10)"
            for k in fans if PATTERNS[k].kind == "implied"]


def liable_player(hand: WuxueHand) -> tuple[str | None, str]:
    """包胡 (W11) by G11 priority (a) 全求人 > (b) 一色包牌; ``win.liable`` overrides (G7).

    Not called on 抢杠胡 (W10).  Returns (player or None, reason).
    """
    win = hand.win
    if win.liable is not None:
        return (None, "") if win.liable == NOBODY else (win.liable, "包胡 stated by win.liable (G7)")
    if _quanqiuren_trigger(hand):
        return win.from_, f"包胡 W11 a: {win.from_} fed 全求人"
    if _flush_trigger(hand):
        feeder = hand.players[win.winner].feeders[2]
        return feeder, f"包胡 W11 b: {feeder} fed {win.winner}'s third open of {'/'.join(_flush_names(hand))}"
    return None, ""


def _quanqiuren_trigger(hand: WuxueHand) -> bool:
    return "quanqiuren" in hand.win.fans and hand.win.by == "discard"


def _flush_names(hand: WuxueHand) -> list[str]:
    return [PATTERNS[k].zh for k in ("qingyise", "jiangyise", "fengyise") if k in hand.win.fans]


def _flush_trigger(hand: WuxueHand) -> bool:
    """W11 b: 清一色/将一色/风一色 with three or more opens (暗杠 is not an open)."""
    return hand.players[hand.win.winner].open_count >= 3 and bool(_flush_names(hand))


def _result(hand: WuxueHand, transfers: list[Transfer], jin: dict[str, Tally], next_dealer: str | None,
            notes: list[str], liable: str | None = None) -> Settlement:
    if hand.win is not None:
        big = [PATTERNS[k].label for k in hand.win.fans if PATTERNS[k].kind == "big"]
        kind = f"大胡 {' + '.join(big)} (W2)" if big else "屁胡: no big hand (W2)"
        notes = [kind, *notes]
    return core.settlement(
        hand, "wuxue", transfers, next_dealer, unit="斤",
        scores={n: j.total for n, j in jin.items()},
        score_detail={n: j.detail for n, j in jin.items()},
        notes=notes, liable=liable,
    )


REGION = Region(
    term=REGION_TERMS["wuxue"], unit="斤", seats=(2, 3, 4), patterns=PATTERNS, kongs=KONGS,
    options=WuxueOptions, hand_model=WuxueHand, check=check, settle=settle, dealer_needed_on_win=False,
)
