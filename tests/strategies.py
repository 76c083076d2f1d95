"""Hypothesis strategies: random VALID hands of the three regions, as plain hand documents.

Each strategy builds the dict a hand file would give, valid by construction:

* seats per region (H11, W14, R11), names distinct after trimming, none spelled like ``none``;
* every player's facts within G4 (``opens >= exposed + added``, ``opens + concealed <= 4``)
  and the table's tiles (4 红中杠/发财杠/癞子杠/宝杠 and 7 癞子皮杠 at the whole table, W15);
* named items that fit the win (G10) and the region's options (R3, R9); caps in order (G13);
* the winner's open where the region demands one (H8, W12), and 包牌/承包 always derivable
  (a winner with 3+ opens gives them as a list of feeders, G7);
* outcomes: a win (Rushan: one or, with ``multi_win``, several winners), a draw, a Wuhan abandon.

:func:`one_more` adds one fan or kong to a single winner, still valid (G12's monotony);
:func:`renamed_and_rotated` renames the players and rotates the seating (G12's symmetry).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from hypothesis import strategies as st

from settle.model import NOBODY_SPELLINGS

Hand = dict[str, Any]
REGIONS = ("wuhan", "wuxue", "rushan")


@cache
def _ints(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


@cache
def _one_of(choices: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from(choices)


@cache
def _some_of(choices: tuple[Any, ...], size: int, exact: bool = False) -> st.SearchStrategy[list[Any]]:
    return st.lists(st.sampled_from(choices), min_size=size if exact else 0, max_size=size)


@cache
def _distinct(choices: tuple[Any, ...], low: int, high: int) -> st.SearchStrategy[list[Any]]:
    return st.lists(st.sampled_from(choices), min_size=low, max_size=high, unique=True)


def ints(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers``, built once per range (strategies are immutable; building them is slow)."""
    return _ints(low, high)


def one_of(choices: Sequence[Any]) -> st.SearchStrategy[Any]:
    """``st.sampled_from``, built once per choice list."""
    return _one_of(tuple(choices))


_BOOL = st.booleans()

NAME_POOL = ("A", "B", "C", "D", "东", "南", "西", "北", "张三", "李四", "王五", "赵六", "老王", "小李", "Ann", "Bob",
             "Mary Jane", "J", "x1", "7号", "大 大", "🀄", "Ö", "a" * 40)
"""Valid player names: letters, CJK, inner spaces, an emoji, 40 characters (the longest allowed)."""


def _good_name(name: str) -> bool:
    return bool(name) and name == name.strip() and name.lower() not in NOBODY_SPELLINGS


assert all(_good_name(name) for name in NAME_POOL)


@cache
def seat_names(count: int) -> st.SearchStrategy[list[str]]:
    """``count`` distinct valid names (drawn from a pool: text strategies are slow to draw)."""
    return st.lists(st.sampled_from(NAME_POOL), min_size=count, max_size=count, unique=True)


# --- fan fit: G10 and the regions' option rules ---------------------------------------------------

WUHAN_FANS = ("pengpenghu", "quanqiuren", "qingyise", "jiangyise", "fengyise", "gangshanghua", "haidilao",
              "qiangganghu", "hard")
WUXUE_FANS = ("qidui", "qingyise", "jiangyise", "fengyise", "pengpenghu", "quanqiuren", "haohua_qidui",
              "chaohaohua_qidui", "chaochaohaohua_qidui", "hard", "sibao", "gangkai")
RUSHAN_FANS = ("pihu", "pengpenghu", "qidui", "tianhu", "dihu", "qingyise", "haidilao", "gangshanghua",
               "fengyise", "mobao", "baozhongbao", "jiangyise", "yitiaolong", "menqing")
FANS = {"wuhan": WUHAN_FANS, "wuxue": WUXUE_FANS, "rushan": RUSHAN_FANS}

ONLY_BY: dict[str, set[str]] = {
    "gangshanghua": {"self_draw"}, "haidilao": {"self_draw"}, "gangkai": {"self_draw"}, "tianhu": {"self_draw"},
    "quanqiuren": {"discard"}, "qiangganghu": {"robbed_kong"},
}
"""G10: the win types each item fits (others fit any)."""

GROUPS: dict[str, dict[str, str]] = {
    "wuxue": dict.fromkeys(("qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui"), "qidui"),
    "rushan": dict.fromkeys(("pihu", "pengpenghu", "qidui"), "base"),
}
"""G10: at most one item of each group (the seven-pairs levels, the Rushan bases)."""

WUHAN_BIG = frozenset(WUHAN_FANS) - {"hard"}
WUXUE_BIG = frozenset({"qidui", "qingyise", "jiangyise", "fengyise", "pengpenghu", "quanqiuren", "haohua_qidui",
                       "chaohaohua_qidui", "chaochaohaohua_qidui"})


def fan_fits(region: str, fan: str, by: str, winner: str, dealer: str | None, opens: int,
             options: dict[str, Any]) -> bool:
    """Whether ``fan`` may be named on this win (G10; Rushan R3, R9), ignoring the other items."""
    if fan in ONLY_BY and by not in ONLY_BY[fan]:
        return False
    if region != "rushan":
        return True
    return {
        "tianhu": winner == dealer,
        "dihu": winner != dealer,
        "jiangyise": bool(options.get("jiang258")),
        "fengyise": not options.get("no_honors"),
        "mobao": bool(options.get("loubao")),
        "baozhongbao": bool(options.get("loubao")),
        "menqing": not options.get("menqing_yitiaolong") or (by == "self_draw" and opens == 0),
    }.get(fan, True)


def fits_with(region: str, fan: str, named: list[str]) -> bool:
    """``fan`` is not named yet and its group (G10) is still free."""
    group = GROUPS.get(region, {}).get(fan)
    return fan not in named and not (group and any(GROUPS[region].get(f) == group for f in named))


def named_fans(draw: st.DrawFn, region: str, by: str, winner: str, dealer: str | None, opens: int,
               options: dict[str, Any]) -> list[str]:
    """Items named in ``win.fans`` that fit the win and each other (G10)."""
    fits = [f for f in FANS[region] if fan_fits(region, f, by, winner, dealer, opens, options)]
    picked: list[str] = []
    for fan in draw(st.lists(st.sampled_from(fits), max_size=4, unique=True)):
        if fits_with(region, fan, picked):
            picked.append(fan)
    return picked


# --- players ------------------------------------------------------------------------------------------

SPECIAL_KONGS: dict[str, dict[str, int]] = {
    "wuhan": {"hongzhong": 4, "facai": 4, "laizi": 4},
    "wuxue": {"bao": 4, "pizi": 7},
    "rushan": {},
}
"""Special kongs (one tile played out) and how many the whole table holds (H1, W3, W15)."""


def player_facts(draw: st.DrawFn, me: str, others: list[str], *, min_opens: int = 0,
                 feeders: bool = False) -> dict[str, Any]:
    """One player's ``opens`` and ordinary kongs within G4; ``feeders`` forces the list form."""
    opens = draw(ints(min_opens, 4))
    concealed = draw(ints(0, 4 - opens))
    exposed = draw(ints(0, opens))
    added = draw(ints(0, opens - exposed))
    facts: dict[str, Any] = {}
    if feeders or draw(_BOOL):
        facts["opens"] = draw(_some_of(tuple(others), opens, exact=True))
    elif opens or draw(_BOOL):
        facts["opens"] = opens
    kongs = {k: n for k, n in (("exposed", exposed), ("added", added), ("concealed", concealed)) if n}
    if kongs:
        facts["kongs"] = kongs
    return facts


def table_of_players(draw: st.DrawFn, region: str, names: list[str], min_opens: dict[str, int],
                     feeders: set[str], kinds: tuple[str, ...] | None = None) -> dict[str, dict[str, Any]]:
    """Every player's facts, the special kongs shared out within the table's tiles."""
    players = {n: player_facts(draw, n, [o for o in names if o != n], min_opens=min_opens.get(n, 0),
                                    feeders=n in feeders) for n in names}
    limits = SPECIAL_KONGS[region]
    for kind in kinds if kinds is not None else tuple(limits):
        for name, count in Counter(draw(_some_of(tuple(names), limits[kind]))).items():
            players[name].setdefault("kongs", {})[kind] = count
    if region == "wuhan":
        for name in names:
            if draw(_BOOL):
                players[name]["ready"] = draw(_BOOL)
    if region == "rushan":
        for name in names:
            fish = draw(ints(0, 2))
            if fish:
                players[name]["fish"] = fish
    return players


def open_count(facts: dict[str, Any]) -> int:
    opens = facts.get("opens", 0)
    return len(opens) if isinstance(opens, list) else opens


# --- options ------------------------------------------------------------------------------------------


def ordered_caps(draw: st.DrawFn, keys: tuple[str, str, str], top: int) -> dict[str, int]:
    """Three amounts in order (G13): ``cap <= golden <= bright`` and the like."""
    cap = draw(ints(1, top))
    middle = draw(ints(cap, cap + top))
    return {keys[0]: cap, keys[1]: middle, keys[2]: draw(ints(middle, middle + top))}


def wuhan_options(draw: st.DrawFn) -> dict[str, Any]:
    if draw(_BOOL):
        return {}
    options: dict[str, Any] = {
        "koukou": draw(_BOOL), "laizi_kong_fans": draw(ints(1, 2)),
        "chengbao_yise": draw(one_of(["qingyise", "all"])),
        "escape_paid_to": draw(one_of(["none", "others"])),
        "require_open": draw(_BOOL), "facai_gang": draw(_BOOL),
    }
    if draw(_BOOL):
        options.update(ordered_caps(draw, ("cap", "golden", "bright"), 800))
    if draw(_BOOL):
        options["escape_penalty"] = draw(ints(1, 1000))
    return options


def wuxue_options(draw: st.DrawFn) -> dict[str, Any]:
    if draw(_BOOL):
        return {}
    options: dict[str, Any] = {
        "piao": draw(ints(0, 100)), "piao_both_sides": draw(_BOOL), "genpi": draw(_BOOL),
        "menqing": draw(_BOOL), "three_player_golden": draw(one_of(["small", "full"])),
    }
    if draw(_BOOL):
        options.update(ordered_caps(draw, ("cap", "small_golden", "golden"), 40))
    return options


SELF_DRAW_ONLY = ("loubao", "minglou")
RUSHAN_SWITCHES = ("cap_includes_fish", "multi_win", "menqing_yitiaolong", "jiang258", "no_honors", "no_chow",
                   "loubao", "minglou", "no_draw", "liang_gang_ding", "guohu")


def rushan_options(draw: st.DrawFn) -> dict[str, Any]:
    if draw(_BOOL):
        return {}
    options: dict[str, Any] = {key: draw(_BOOL) for key in RUSHAN_SWITCHES}
    for key in SELF_DRAW_ONLY:  # rarer: they forbid discards, and so several winners (R9)
        options[key] = options[key] and draw(_BOOL)
    if draw(_BOOL):
        options["cap"] = draw(ints(1, 40))
    return options


def option(data: Hand, key: str, default: Any) -> Any:
    return (data.get("options") or {}).get(key, default)


# --- hands --------------------------------------------------------------------------------------------

WIN_TYPES = ("self_draw", "discard", "robbed_kong")


def stated_totals(draw: st.DrawFn, names: list[str]) -> dict[str, int]:
    """Explicit per-player totals for some players (G5), small enough to stay below the caps' reach."""
    return draw(st.dictionaries(st.sampled_from(names), ints(0, 8), max_size=len(names)))


@st.composite
def wuhan_hands(draw: st.DrawFn, outcome: str | None = None) -> Hand:
    """A valid Wuhan hand (H1-H12): a win, a draw or an abandon."""
    names = draw(seat_names(4))
    options = wuhan_options(draw)
    outcome = outcome or draw(one_of(["win"] * 8 + ["draw", "abandon"]))
    data: Hand = {"region": "wuhan", "players": {}, "dealer": draw(one_of(names))}
    if options:
        data["options"] = options
    kinds = ("hongzhong", "laizi") + (("facai",) if options.get("facai_gang", True) else ())
    if outcome != "win":
        data["players"] = table_of_players(draw, "wuhan", names, {}, set(), kinds)
        data["draw" if outcome == "draw" else "abandon"] = True if outcome == "draw" else {
            "by": draw(one_of(names))}
        return data
    winner = draw(one_of(names))
    by = draw(one_of(WIN_TYPES))
    totals = stated_totals(draw, names) if draw(_BOOL) else {}
    needs_open = options.get("require_open", True) and winner not in totals
    players = table_of_players(draw, "wuhan", names, {winner: 1 if needs_open else 0}, {winner}, kinds)
    fans = named_fans(draw, "wuhan", by, winner, data["dealer"], open_count(players[winner]), options)
    data["players"] = players
    data["win"] = _win(draw, names, winner, by, fans)
    if totals:
        data["fans" if draw(_BOOL) else "jin"] = totals
    return data


@st.composite
def wuxue_hands(draw: st.DrawFn, outcome: str | None = None) -> Hand:
    """A valid Wuxue hand (W1-W16): 2 to 4 players, a win or a draw."""
    names = draw(seat_names(draw(ints(2, 4))))
    options = wuxue_options(draw)
    outcome = outcome or draw(one_of(["win"] * 9 + ["draw"]))
    data: Hand = {"region": "wuxue", "players": {}}
    if options:
        data["options"] = options
    if outcome == "draw" or draw(_BOOL):
        data["dealer"] = draw(one_of(names))
    if outcome == "draw":
        data["players"] = table_of_players(draw, "wuxue", names, {}, set())
        data["draw"] = True
        return data
    winner = draw(one_of(names))
    by = draw(one_of(WIN_TYPES))
    fans = named_fans(draw, "wuxue", by, winner, data.get("dealer"), 0, options)
    totals = stated_totals(draw, names) if draw(_BOOL) else {}
    pihu = not WUXUE_BIG & set(fans)
    menqing_ok = options.get("menqing", False) and by == "self_draw"
    needs_open = pihu and winner not in totals and not menqing_ok
    data["players"] = table_of_players(draw, "wuxue", names, {winner: 1 if needs_open else 0}, {winner})
    # W10: on 抢杠胡 only the robbed player pays, so a stated liable player can only be him.
    data["win"] = _win(draw, names, winner, by, fans, robbed_only=by == "robbed_kong")
    if totals:
        data["jin" if draw(_BOOL) else "fans"] = totals
    return data


@st.composite
def rushan_hands(draw: st.DrawFn, outcome: str | None = None, single: bool = False) -> Hand:
    """A valid Rushan hand (R1-R11): one win, several on one discard (``multi_win``), or a draw.

    ``single`` keeps to one winner (for G12's monotony, which holds only with one).
    """
    names = draw(seat_names(4))
    options = rushan_options(draw)
    outcome = outcome or draw(one_of(["win"] * 9 + ["draw"]))
    several = outcome == "win" and not single and draw(ints(0, 2)) == 0
    if several:  # 一炮多响 (R8): one discard, and no option that allows only self-draws (R9)
        options = {**options, "multi_win": True, **dict.fromkeys(SELF_DRAW_ONLY, False)}
    dealer = draw(one_of(names))
    data: Hand = {"region": "rushan", "players": table_of_players(draw, "rushan", names, {}, set()),
                  "dealer": dealer}
    if options:
        data["options"] = options
    if outcome == "draw":
        data["draw"] = True
        return data
    self_draw_only = any(options.get(key) for key in SELF_DRAW_ONLY)
    if several:
        by = draw(one_of(WIN_TYPES[1:]))
        loser = draw(one_of(names))
        winners = draw(_distinct(tuple(n for n in names if n != loser), 2, 3))
    else:
        by = "self_draw" if self_draw_only else draw(one_of(WIN_TYPES))
        winners = [draw(one_of(names))]
        loser = draw(one_of([n for n in names if n != winners[0]]))
    wins = []
    for winner in winners:
        opens = open_count(data["players"][winner])
        fans = named_fans(draw, "rushan", by, winner, dealer, opens, options)
        win: dict[str, Any] = {"winner": winner, "by": by, "fans": fans}
        if by != "self_draw":
            win["from"] = loser
        if draw(ints(0, 9)) == 0:
            win["liable"] = "none"
        wins.append(win)
    data["win"] = wins[0] if len(wins) == 1 and draw(_BOOL) else wins
    return data


def _win(draw: st.DrawFn, names: list[str], winner: str, by: str, fans: list[str],
         robbed_only: bool = False) -> dict[str, Any]:
    """``win`` with ``from`` when it is not a self-draw, sometimes ``liable`` (a name or none, G7)."""
    win: dict[str, Any] = {"winner": winner, "by": by}
    if fans or draw(_BOOL):
        win["fans"] = fans
    if by != "self_draw":
        win["from"] = draw(one_of([n for n in names if n != winner]))
    choice = draw(ints(0, 9))
    if choice == 0:
        win["liable"] = "none"
    elif choice == 1:
        win["liable"] = win["from"] if robbed_only else draw(one_of([n for n in names if n != winner]))
    return win


HANDS: dict[str, Callable[..., st.SearchStrategy[Hand]]] = {
    "wuhan": wuhan_hands, "wuxue": wuxue_hands, "rushan": rushan_hands,
}


def any_hand(outcome: str | None = None) -> st.SearchStrategy[Hand]:
    """A valid hand of any region."""
    return st.one_of(*(make(outcome) for make in HANDS.values()))


def single_win_hand(region: str) -> st.SearchStrategy[Hand]:
    """A valid hand of ``region`` with exactly one winner."""
    if region == "rushan":
        return rushan_hands("win", single=True)
    return HANDS[region]("win")


# --- G12 transformations ------------------------------------------------------------------------------


def wins_of(data: Hand) -> list[dict[str, Any]]:
    win = data.get("win")
    if win is None:
        return []
    return win if isinstance(win, list) else [win]


@st.composite
def one_more(draw: st.DrawFn, data: Hand) -> tuple[str, Hand]:
    """``data`` (one winner) with one more fan or one more kong for the winner, still valid.

    Returns a label of what was added and the new hand.
    """
    region = data["region"]
    win = wins_of(data)[0]
    winner, named = win["winner"], list(win.get("fans", []))
    facts = data["players"][winner]
    options = data.get("options") or {}
    opens = open_count(facts)
    fans = [f for f in FANS[region] if fits_with(region, f, named)
            and fan_fits(region, f, win["by"], winner, data.get("dealer"), opens, options)]
    kongs = facts.get("kongs", {})
    ordinary = sum(kongs.get(k, 0) for k in ("exposed", "added", "concealed"))
    kinds = []
    if opens + kongs.get("concealed", 0) < 4 and ordinary < 4:
        kinds.append("concealed")
    if opens > kongs.get("exposed", 0) + kongs.get("added", 0):
        kinds.append("added")  # upgrades one of the winner's 碰: no new open (G4)
    for kind, limit in SPECIAL_KONGS[region].items():
        if kind == "facai" and not options.get("facai_gang", True):
            continue
        if sum(p.get("kongs", {}).get(kind, 0) for p in data["players"].values()) < limit:
            kinds.append(kind)
    choices = [("fan", f) for f in fans] + [("kong", k) for k in kinds]
    if not choices:
        return "nothing (every item named, no room for a kong)", data
    what, key = draw(one_of(choices))
    if what == "fan":
        new_win = {**win, "fans": [*named, key]}
        return f"fan {key}", {**data, "win": new_win if isinstance(data["win"], dict) else [new_win]}
    new_facts = {**facts, "kongs": {**kongs, key: kongs.get(key, 0) + 1}}
    return f"kong {key}", {**data, "players": {**data["players"], winner: new_facts}}


def renamed_and_rotated(data: Hand, rename: dict[str, str], turn: int) -> Hand:
    """The same hand with every player renamed by ``rename`` and the seating rotated by ``turn``
    seats (turn order kept, G1), the dealer and every role following its player."""
    def n(name: str) -> str:
        return rename[name]

    old = list(data["players"])
    seats = old[turn % len(old):] + old[:turn % len(old)]
    out: Hand = {k: v for k, v in data.items() if k not in ("players", "dealer", "win", "fans", "jin", "abandon")}
    out["players"] = {n(name): _renamed_facts(data["players"][name], n) for name in seats}
    if "dealer" in data:
        out["dealer"] = n(data["dealer"])
    for key in ("fans", "jin"):
        if key in data:
            out[key] = {n(name): total for name, total in data[key].items()}
    if "abandon" in data:
        out["abandon"] = {"by": n(data["abandon"]["by"])}
    if "win" in data:
        wins = [_renamed_win(w, n) for w in wins_of(data)]
        out["win"] = wins if isinstance(data["win"], list) else wins[0]
    return out


def _renamed_facts(facts: dict[str, Any], n: Callable[[str], str]) -> dict[str, Any]:
    out = dict(facts)
    if isinstance(facts.get("opens"), list):
        out["opens"] = [n(f) for f in facts["opens"]]
    return out


def _renamed_win(win: dict[str, Any], n: Callable[[str], str]) -> dict[str, Any]:
    out = dict(win)
    for key in ("winner", "from"):
        if key in win:
            out[key] = n(win[key])
    if win.get("liable") not in (None, "none"):
        out["liable"] = n(win["liable"])
    return out
