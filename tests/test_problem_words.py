"""Issue 16 #9: under ``--lang zh`` every problem the rule checks, the tile level and the session build
is Chinese, from the catalogs of problems (its ``kind`` and ``values``; the English ``message`` as it was).

Before, only problems with a kind in :data:`settle.engine.messages.PROBLEMS_ZH` were Chinese: Wuhan H8
("the winner B has no open (开口) ..."), 承包 without feeders, a session's header keys and every tile
problem stayed English.  The walk over the sources (:func:`built_kinds`) finds every problem these
modules build; the bad hands drive each kind once and look at its Chinese words.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from settle import HandError, settle_hand
from settle.cli import _register_commands, app
from settle.engine.messages import PROBLEMS_ZH as ENGINE_ZH
from settle.engine.session.messages import PROBLEMS_ZH as SESSION_ZH
from settle.engine.session.run import run_session
from settle.engine.tilelevel import check_claims
from settle.engine.tilelevel.messages import PROBLEMS_ZH as TILES_ZH
from settle.engine.tilelevel.region import tile_rules
from settle.errors import Problem
from settle.loader import iter_documents
from settle.render import problem_catalog, problem_message
from settle.rules.problems import PROBLEMS_ZH as SHARED_ZH
from settle.rules.registry import Region, all_regions, get_region
from settle.rules.rushan.checks import FAN_RULES
from settle.rules.rushan.tiles import TILE_RULES as RUSHAN_RULES
from settle.rules.wuhan.tiles import TILE_RULES as WUHAN_RULES
from settle.tiles import Meld, TileError, TileHand, TileRules, evaluate_all, parse_tile
from settle.tiles.notation import check_tile
from settle.tiles.problems import PROBLEMS_ZH as TILE_ENGINE_ZH
from tests.test_chinese import english_left

ROOT = Path(__file__).resolve().parent.parent
MODULES = [ROOT / "settle" / "rules" / "checks.py",
           *(ROOT / "settle" / "rules" / region / "checks.py" for region in ("wuhan", "wuxue", "rushan")),
           *sorted((ROOT / "settle" / "engine" / "tilelevel").glob("*.py")),
           ROOT / "settle" / "engine" / "session" / "run.py", ROOT / "settle" / "web" / "evening.py"]
"""The modules whose problems get Chinese words here (the loader's and validation's are worded apart)."""

runner = CliRunner()
_register_commands()


def _problem_calls(tree: ast.AST) -> Iterator[ast.Call]:
    """Every ``Problem(...)`` and ``HandError.at(...)`` call in a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "Problem") or (
                    isinstance(func, ast.Attribute) and func.attr == "at"
                    and isinstance(func.value, ast.Name) and func.value.id == "HandError"):
                yield node


def _passes_an_engine_error(call: ast.Call) -> bool:
    """A problem that shows a tile engine error with the error's own kind and values
    (``**engine_words(exc)``): its kinds are those of :func:`tile_error_kinds`."""
    return any(k.arg is None and isinstance(k.value, ast.Call) and isinstance(k.value.func, ast.Name)
               and k.value.func.id == "engine_words" for k in call.keywords)


NOT_USER_INPUT = {"settle/engine/tilelevel/choosing.py: Problem(tile_win.tiles_path, str(exc))"}
"""Problems of an error that is no user input: an engine ValueError that is not a TileError (a bug)."""


def _kind_of(call: ast.Call, where: str, found: dict[str, list[str]]) -> None:
    keywords = {k.arg: k.value for k in call.keywords}
    kind = keywords.get("kind")
    if kind is None or "values" not in keywords:
        found.setdefault("", []).append(where)
    elif isinstance(kind, ast.Constant) and isinstance(kind.value, str):
        found.setdefault(kind.value, []).append(where)
    elif isinstance(kind, ast.JoinedStr) and ast.unparse(kind) == "f'fan_rule:{key}'":
        for key in FAN_RULES:
            found.setdefault(f"fan_rule:{key}", []).append(where)
    else:
        found.setdefault(f"? {ast.unparse(kind)}", []).append(where)


def built_kinds() -> dict[str, list[str]]:
    """kind -> where it is built (``file:line``), for every problem built in :data:`MODULES`; a call
    without a ``kind`` and ``values`` is listed under ``""``.  ``kind=f"fan_rule:{key}"`` stands for
    every fan of Rushan's FAN_RULES."""
    found: dict[str, list[str]] = {}
    for module in MODULES:
        name = str(module.relative_to(ROOT))
        for call in _problem_calls(ast.parse(module.read_text(encoding="utf-8"))):
            if _passes_an_engine_error(call) or f"{name}: {ast.unparse(call)}" in NOT_USER_INPUT:
                continue
            _kind_of(call, f"{name}:{call.lineno}", found)
    return found


TILE_MODULES = [*sorted((ROOT / "settle" / "tiles").glob("*.py")),
                *(ROOT / "settle" / "rules" / region / "tiles.py" for region in ("wuhan", "wuxue", "rushan"))]
"""The tile engine and the regions' tile rules, whose TileErrors the tile level shows as problems."""


def tile_error_kinds() -> dict[str, list[str]]:
    """kind -> where, for every ``TileError(...)`` made in :data:`TILE_MODULES` (``""``: one without)."""
    found: dict[str, list[str]] = {}
    for module in TILE_MODULES:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "TileError":
                _kind_of(node, f"{module.relative_to(ROOT)}:{node.lineno}", found)
    return found


def test_every_tile_error_has_a_kind_and_values() -> None:
    found = tile_error_kinds()
    assert found.pop("", []) == []
    assert [kind for kind in found if kind.startswith("?")] == []
    known = problem_catalog().kinds("zh")
    assert sorted(kind for kind in found if kind not in known) == []


def test_every_problem_these_modules_build_has_a_kind_and_values() -> None:
    found = built_kinds()
    assert found.pop("", []) == []
    assert [kind for kind in found if kind.startswith("?")] == []


def test_every_kind_built_has_chinese_words() -> None:
    known = problem_catalog().kinds("zh")
    assert sorted(kind for kind in built_kinds() if kind not in known) == []


def test_no_kind_is_worded_in_two_catalogs() -> None:
    """Each table of problem words says its own kinds: no kind is in two (one place to change the words)."""
    tables: dict[str, Mapping[str, Any]] = {"engine": ENGINE_ZH, "shared": SHARED_ZH, "tiles": TILES_ZH,
                                            "tile engine": TILE_ENGINE_ZH, "session": SESSION_ZH}
    tables |= {region.key: region.problem_zh for region in all_regions()}
    seen: dict[str, str] = {}
    clashes = []
    for name, table in tables.items():
        for kind in table:
            if kind in seen:
                clashes.append((kind, seen[kind], name))
            seen[kind] = name
    assert clashes == []


# --- every kind driven by a small bad hand --------------------------------------------------------------

FOUR = ["A", "B", "C", "D"]


def hand(region: str = "wuhan", players: Any = None, win: Any = None, **more: Any) -> dict[str, Any]:
    """A hand document: four players, A deals; ``win`` a self-draw of B unless given."""
    doc: dict[str, Any] = {"region": region, "players": FOUR if players is None else players, "dealer": "A"}
    doc["win"] = {"winner": "B", "by": "self_draw"} if win is None else win
    return {**doc, **more}


def seated(**facts: Any) -> dict[str, Any]:
    """Players A-D, each with the facts given for them (``B={"opens": 1}``)."""
    return {name: facts.get(name, {}) for name in FOUR}


OPEN_B = seated(B={"opens": 1})


def rushan_tiles(concealed: str, win_tile: str = "2m", melds: Any = None, fans: Any = None, options: Any = None,
                 **tiles: Any) -> dict[str, Any]:
    """A Rushan hand whose winner B self-draws with ``concealed`` (and ``melds``) in ``win.tiles``."""
    spec = {"hand": concealed, "win_tile": win_tile, **tiles, **({"melds": melds} if melds else {})}
    win = {"winner": "B", "by": "self_draw", "tiles": spec, **({"fans": fans} if fans else {})}
    return hand("rushan", win=win, **({"options": options} if options else {}))
RUSHAN_TWO = [{"winner": "B", "by": "discard", "from": "A"}, {"winner": "C", "by": "discard", "from": "A"}]
WUHAN_TILES = {"hand": "2223456m456p456s55z", "win_tile": "5z"}  # not a win: 中 is no pair in Wuhan ...

HANDS: dict[str, dict[str, Any]] = {
    # shared checks (settle/rules/checks.py), those worded in settle.engine.messages first
    "seat_count": hand(players=["A", "B", "C"]),
    "one_outcome": hand(players=OPEN_B, draw=True),
    "only_in": hand("rushan", abandon={"by": "C"}, win=None) | {"win": None},
    "dealer_missing": {**hand("rushan", win=None), "win": None, "dealer": None, "draw": True},
    "not_a_player": hand(players=OPEN_B, dealer="E"),
    "self_draw_from": hand(players=OPEN_B, win={"winner": "B", "by": "self_draw", "from": "C"}),
    "from_missing": hand(players=OPEN_B, win={"winner": "B", "by": "discard"}),
    "winner_is_from": hand(players=OPEN_B, win={"winner": "B", "by": "discard", "from": "B"}),
    "winner_is_liable": hand(players=OPEN_B, win={"winner": "B", "by": "discard", "from": "C", "liable": "B"}),
    "own_feeder": hand(players=seated(B={"opens": ["B"]})),
    "no_wins": hand("rushan", win=[]),
    "kong_limit": hand(players=seated(B={"opens": 1, "kongs": {"hongzhong": 5}})),
    "four_tile_kongs": hand(players=seated(B={"opens": 3, "kongs": {"exposed": 3, "concealed": 2}})),
    "opens_over_four": hand(players=seated(B={"opens": 5})),
    "opens_below_kongs": hand(players=seated(B={"opens": 1, "kongs": {"exposed": 2}})),
    "sets_over_four": hand(players=seated(B={"opens": 3, "kongs": {"concealed": 2}})),
    "table_kong_limit": hand(players=seated(A={"kongs": {"hongzhong": 2}}, B={"opens": 1, "kongs": {"hongzhong": 3}})),
    "liable_none_ambiguous": hand(players=["A", "B", "C", "none"],
                                  win={"winner": "B", "by": "discard", "from": "C", "liable": "none"}),
    "fan_twice": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": ["qingyise", "qingyise"]}),
    "fan_only_by": hand(players=OPEN_B, win={"winner": "B", "by": "discard", "from": "C", "fans": ["haidilao"]}),
    "fan_group": hand("wuxue", players=OPEN_B, win={"winner": "B", "by": "self_draw",
                                                    "fans": ["qidui", "haohua_qidui"]}),
    "same_discard": hand("rushan", win=[RUSHAN_TWO[0], {**RUSHAN_TWO[1], "from": "D"}], options={"multi_win": True}),
    "winner_twice": hand("rushan", win=[RUSHAN_TWO[0], RUSHAN_TWO[0]], options={"multi_win": True}),
    "several_self_draw": hand("rushan", win=[{"winner": "B", "by": "self_draw"}, {"winner": "C", "by": "self_draw"}],
                              options={"multi_win": True}),
    "several_by": hand("rushan", win=[RUSHAN_TWO[0], {**RUSHAN_TWO[1], "by": "robbed_kong"}],
                       options={"multi_win": True}),
    "winner_discarded": hand("rushan", win=[RUSHAN_TWO[0], {"winner": "A", "by": "discard", "from": "D"}],
                             options={"multi_win": True}),
    "option_too_large": hand(players=OPEN_B, options={"escape_penalty": 10 ** 30}),
    "no_explicit_totals": hand("rushan", fans={"B": 2}),
    "one_winner": hand(win=[{"winner": "B", "by": "self_draw"}]),
    # Wuhan (H8, H7 b, H12)
    "require_open": hand(),
    "chengbao_feeders": hand(players=seated(B={"opens": 3}), win={"winner": "B", "by": "discard", "from": "C",
                                                                   "fans": ["qingyise"]}),
    "facai_gang": hand(players=seated(B={"opens": 1}, C={"kongs": {"facai": 1}}), options={"facai_gang": False}),
    # Wuxue (W10, W11 b, W12)
    "pihu_open": hand("wuxue", win={"winner": "B", "by": "discard", "from": "C"}),
    "menqing_self_draw": hand("wuxue", win={"winner": "B", "by": "discard", "from": "C"}, options={"menqing": True}),
    "qianggang_no_baohu": hand("wuxue", players=OPEN_B, win={"winner": "B", "by": "robbed_kong", "from": "C",
                                                             "liable": "D"}),
    "baohu_feeders": hand("wuxue", players=seated(B={"opens": 3}), win={"winner": "B", "by": "discard", "from": "C",
                                                                        "fans": ["qingyise"]}),
    # Rushan (R5, R8, R9, G10)
    "multi_win": hand("rushan", win=RUSHAN_TWO),
    "self_draw_only": hand("rushan", win=RUSHAN_TWO[0], options={"loubao": True}),
    "no_baopai": hand("rushan", win={**RUSHAN_TWO[0], "liable": "D"}),
    "fan_rule:tianhu": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": ["tianhu"]}),
    "fan_rule:dihu": hand("rushan", win={"winner": "A", "by": "self_draw", "fans": ["dihu"]}),
    "fan_rule:jiangyise": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": ["jiangyise"]}),
    "fan_rule:fengyise": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": ["fengyise"]},
                              options={"no_honors": True}),
    "fan_rule:mobao": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": ["mobao"]}),
    "fan_rule:baozhongbao": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": ["baozhongbao"]}),
    "fan_rule:menqing": hand("rushan", win={**RUSHAN_TWO[0], "fans": ["menqing"]},
                             options={"menqing_yitiaolong": True}),
    # the tile level (settle/engine/tilelevel)
    "win_tile_missing": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {"hand": "123m"}}),
    "kong_kind_missing": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "melds": [{"kind": "kong", "tiles": "1111z"}]}}),
    "kong_kind_not_kong": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "melds": [{"kind": "pung", "tiles": "111z", "kong": "exposed"}]}}),
    "single_tile_kong_meld": hand(win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "indicator": "9s",
        "melds": [{"kind": "kong", "tiles": "5555z", "kong": "hongzhong"}]}}),
    "concealed_kong_from": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m",
        "melds": [{"kind": "kong", "tiles": "1111z", "kong": "concealed", "from": "C"}]}}),
    "meld_from_missing": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m55s", "win_tile": "2m", "melds": [{"kind": "pung", "tiles": "111z", "from": "C"},
                                                         {"kind": "pung", "tiles": "222z"}]}}),
    "opens_disagree": hand("rushan", players=seated(B={"opens": 2}), win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "melds": [{"kind": "pung", "tiles": "111z"}]}}),
    "kongs_disagree": hand("rushan", players=seated(B={"kongs": {"exposed": 1}}), win={
        "winner": "B", "by": "self_draw", "tiles": {"hand": "234567m456p55s", "win_tile": "2m",
                                                    "melds": [{"kind": "pung", "tiles": "111z"}]}}),
    "chow_not_before": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "melds": [{"kind": "chow", "tiles": "789s", "from": "C"}]}}),
    "wildcard_copies": hand(players=seated(B={"opens": 1, "kongs": {"laizi": 2}}), win={
        "winner": "B", "by": "self_draw", "tiles": {"hand": "111234m456p55s", "win_tile": "4m", "indicator": "9m",
                                                    "melds": [{"kind": "chow", "tiles": "789s", "from": "A"}]}}),
    "not_a_legal_win": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "1357m2468p135799s", "win_tile": "1m"}}),
    # the tile engine's errors (settle/tiles, the regions' tiles.py), shown by the tile level
    "bad_tokens": rushan_tiles("123m456x789p11s"),
    "one_tile": rushan_tiles("234567m456p55s", win_tile="22m"),
    "meld_size": rushan_tiles("234567m456p55s", melds=[{"kind": "pung", "tiles": "11z"}]),
    "chow_run": rushan_tiles("234567m456p55s", melds=[{"kind": "chow", "tiles": "135m"}]),
    "meld_same": rushan_tiles("234567m456p55s", melds=[{"kind": "pung", "tiles": "123z"}]),
    "win_tile_not_held": rushan_tiles("234567m456p55s", win_tile="9m", melds=[{"kind": "pung", "tiles": "111z"}]),
    "concealed_count": rushan_tiles("23456m456p55s", melds=[{"kind": "pung", "tiles": "111z"}]),
    "five_copies": rushan_tiles("111123m456p55s", win_tile="1m", melds=[{"kind": "pung", "tiles": "111m"}]),
    "bao_tile_not_here": hand(players=OPEN_B, win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "indicator": "9s", "bao_tile": "1z",
        "melds": [{"kind": "chow", "tiles": "789s", "from": "A"}]}}),
    "indicator_required": hand(players=OPEN_B, win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "melds": [{"kind": "chow", "tiles": "789s", "from": "A"}]}}),
    "meld_barred": hand(players=OPEN_B, win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "234567m456p55s", "win_tile": "2m", "indicator": "9s",
        "melds": [{"kind": "pung", "tiles": "555z", "from": "C"}]}}),
    "wildcard_discard": hand(players=OPEN_B, win={"winner": "B", "by": "discard", "from": "C", "tiles": {
        "hand": "123567m456p55s", "win_tile": "1m", "indicator": "9m",
        "melds": [{"kind": "chow", "tiles": "789s", "from": "A"}]}}),
    "bao_win_needs_bao": rushan_tiles("123456789m12355s", win_tile="1m", fans=["mobao"], options={"loubao": True}),
    "bao_win_tile": rushan_tiles("123456789m12355s", win_tile="1m", fans=["mobao"], options={"loubao": True},
                                 bao_tile="5s"),
    "bao_not_indicator": rushan_tiles("123456789m12355s", win_tile="1m", indicator="5s"),
    "bao_needs_loubao": rushan_tiles("123456789m12355s", win_tile="1m", bao_tile="5s"),
    "no_chow": rushan_tiles("234567m456p55s", melds=[{"kind": "chow", "tiles": "789s", "from": "A"}],
                            options={"no_chow": True}),
    "no_honors": rushan_tiles("123456789m12311z", win_tile="1m", options={"no_honors": True}),
    "indicator_copies": hand("wuxue", win={"winner": "B", "by": "self_draw", "fans": ["qingyise"], "tiles": {
        "hand": "11112345678999m", "win_tile": "2m", "indicator": "1m"}}),
}
"""A small bad hand for each kind: settling it finds (at least) a problem of that kind."""

CHECKED: dict[str, dict[str, Any]] = {
    "check_needs_tiles": hand("rushan", win={"winner": "B", "by": "self_draw", "fans": []}),
    "check_needs_fans": hand("rushan", win={"winner": "B", "by": "self_draw", "tiles": {
        "hand": "123456789m11122s", "win_tile": "1m"}}),
    "joined": hand(win={"winner": "B", "by": "self_draw", "fans": ["qingyise"], "tiles": {
        "hand": "1112345678999m5z", "win_tile": "5z", "indicator": "9s"}}),
}
"""Kinds that ``settle check`` finds (:func:`settle.engine.tilelevel.check_claims`)."""

SESSIONS: dict[str, str] = {
    "first_dealer": "region: wuhan\nplayers: [A, B, C, D]\n---\ndraw: true\n",
    "not_at_table": "region: wuhan\nplayers: [A, B, C, D]\n---\ndealer: A\nplayers: {E: {}}\ndraw: true\n",
    "seat_order": "region: wuhan\nplayers: [A, B, C, D]\n---\ndealer: A\nplayers: [D, C, B, A]\ndraw: true\n",
    "header_key": "region: wuhan\nplayers: [A, B, C, D]\ndealer: A\n",
    "header_options": "region: wuhan\nplayers: [A, B, C, D]\noptions: 3\n",
    "after_game_end": "region: wuhan\nplayers: [A, B, C, D]\n---\ndealer: A\nabandon: {by: C}\n---\ndraw: true\n",
    "rotation_not_seated": "region: rushan\nplayers: [A, B, C, D]\ndealer: A\nwin: {winner: B, by: self_draw}"
                           "\n---\nregion: rushan\nplayers: [A, E, C, D]\ndraw: true\n",
    "other_region": "dealer: A\nregion: wuhan\nplayers: [A, B, C, D]\ndraw: true\n---\nregion: rushan\n"
                    "players: [A, B, C, D]\ndealer: A\ndraw: true\n",
    "too_many_players": "\n---\n".join(f"region: rushan\ndealer: P{i}\nplayers: [P{i}, Q{i}, R{i}, S{i}]\ndraw: true"
                                       for i in range(5)) + "\n",
}
"""Kinds a session finds (:func:`settle.engine.session.run.run_session`), as session files."""


def problems_of(kind: str) -> list[Problem]:
    """The problems found for ``kind``'s bad input (a hand, a hand for ``settle check``, a session)."""
    if kind in SESSIONS:
        return run_session(iter_documents(SESSIONS[kind].encode(), "s.yaml"), "s.yaml").problems
    try:
        if kind in CHECKED:
            check_claims(CHECKED[kind])
        else:
            settle_hand(HANDS[kind])
    except HandError as exc:
        return exc.problems
    raise AssertionError(f"{kind}: no problem found")


DRIVEN = sorted([*HANDS, *CHECKED, *SESSIONS])
NOT_DRIVEN = {"no_tile_play", "no_hand", "one_winner"}
"""Kinds driven by their own tests below: :func:`test_a_region_without_tile_play_in_chinese`,
:func:`test_an_imported_file_without_a_hand_in_chinese`, :func:`test_one_winner_says_the_region_and_its_term`."""


def test_every_kind_built_is_driven_by_a_bad_hand() -> None:
    assert sorted(set(built_kinds()) - set(DRIVEN) - NOT_DRIVEN) == []
    assert sorted(set(tile_error_kinds()) - set(DRIVEN) - set(ENGINE_ERRORS)) == []


KEYS = ("hand", "win_tile", "indicator", "bao_tile", "dealer", "id", "region", "draw", "abandon", "true", "false",
        "m", "p", "s", "z")
"""Hand-file keys and values the Chinese words name as they are written (``win_tile: 5m``, ``draw: true``),
and the suit letters of tile notation (``digits 1-9 followed by m``)."""


def _names(problem: Problem) -> tuple[str, ...]:
    """The text values of a problem (names, the user's tile text and tokens), which its words quote."""
    def texts(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                yield from texts(item)

    return tuple(text for value in (problem.values or {}).values() for text in texts(value))


@pytest.mark.parametrize("kind", DRIVEN)
def test_each_kind_is_said_in_chinese(kind: str) -> None:
    found = [p for p in problems_of(kind) if p.kind == kind]
    assert found, [p.kind for p in problems_of(kind)]
    for problem in found:
        words = problem_message(problem, "zh")
        assert words != problem.message
        # no English left once names, keys, ruling ids and tiles are out (the player names A-D, P0 ...)
        names = (*FOUR, "none", "E", *(f"{c}{i}" for c in "PQRS" for i in range(5)), *_names(problem))
        assert english_left(words, names) - set(KEYS) == set(), words
        assert problem_message(problem, "en") == problem.message


def _engine_error(make: Any) -> TileError:
    with pytest.raises(TileError) as caught:
        make()
    return caught.value


ENGINE_ERRORS: dict[str, Any] = {
    "bad_tile_id": lambda: check_tile(34),
    "tiles_not_text": lambda: parse_tile(1.5),
    "meld_claimed": lambda: Meld("kong", (0, 0, 0, 0), True, "concealed"),
    "bad_meld_kind": lambda: Meld("set", (0, 0, 0)),
    "kong_kind_for_kongs": lambda: Meld("pung", (0, 0, 0), None, "exposed"),
    "bad_kong_kind": lambda: Meld("kong", (0, 0, 0, 0), None, "open"),
    "too_many_melds": lambda: TileHand((0, 0), 0, tuple(Meld("pung", (t, t, t)) for t in range(1, 6))),
    "bad_by": lambda: evaluate_all(RUSHAN_RULES, TileHand.parse("123456789m12355s", "1m"), by="tsumo"),
    "option_not_bool": lambda: RUSHAN_RULES.resolve_options({"loubao": "yes"}),
    "not_a_situation": lambda: RUSHAN_RULES.check_situations("self_draw", ["qingyise"],
                                                             TileHand.parse("123456789m12355s", "1m")),
    "situation_needs_by": lambda: WUHAN_RULES.check_situations("discard", ["gangshanghua"],
                                                               TileHand.parse("123456789m12355s", "1m")),
    "no_indicator": lambda: TileRules().wildcards(TileHand.parse("123456789m12355s", "1m", indicator="5s"), {}),
    "no_bao_tile": lambda: TileRules().wildcards(TileHand.parse("123456789m12355s", "1m", bao_tile="5s"), {}),
}
"""Tile engine errors no hand file reaches (the hand model validates the meld kinds, ``by``, options and
tile texts first; only stated situations reach the engine; every built-in region overrides the base
rules' wildcards), made by calling the engine itself."""


@pytest.mark.parametrize("kind", sorted(ENGINE_ERRORS))
def test_each_engine_error_is_said_in_chinese(kind: str) -> None:
    error = _engine_error(ENGINE_ERRORS[kind])
    assert error.kind == kind
    problem = Problem(("win", "tiles"), str(error), kind=error.kind, values=error.values)
    words = problem_message(problem, "zh")
    assert words != problem.message
    assert english_left(words, _names(problem)) - {*KEYS, "set", "open", "tsumo", "qingyise"} == set(), words


# --- exact words through the command line ---------------------------------------------------------------


def run(*args: str, stdin: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin, env={"LANG": "C.UTF-8", "LC_ALL": "", "CI": "1"})
    return result.exit_code, result.stderr


def test_h8_no_open_in_chinese() -> None:
    # Wuhan H8: B wins by self-draw with no open; the problem is at players.B.opens, line 2 column 1 (the
    # flow list ``players: [A, B, C, D]`` has no key ``B``: the line's first character)
    code, err = run("hand", "-", "--lang", "zh", stdin="region: wuhan\nplayers: [A, B, C, D]\ndealer: A\n"
                                                       "win: {winner: B, by: self_draw}\n")
    assert code == 2
    assert err == ("error: <stdin>:2:1: players.B.opens: 胡牌者 B 没有开口；武汉要开口才能胡（H8；"
                   "或设选项 require_open: false，或写明胡牌者的番数总计，G9）\n")


def test_chengbao_needs_feeders_in_chinese() -> None:
    # Wuhan H7 b: 清一色 with a bare count of 3 opens cannot say who fed the third; ``B: {opens: 3}`` is line 4,
    # ``opens`` at column 7 (after ``  B: {``)
    text = yaml.safe_dump(hand(players=seated(B={"opens": 3}), win={"winner": "B", "by": "discard", "from": "C",
                                                                     "fans": ["qingyise"]}),
                          allow_unicode=True, default_flow_style=None, sort_keys=False)
    code, err = run("hand", "-", "--lang", "zh", stdin=text)
    assert code == 2
    assert err.endswith("players.B.opens: 清一色，开口 3 次：承包要知道第三口吃碰的是谁的牌；opens 请写成喂牌者的列表，"
                        "或写明 win.liable（H7 b，G7）\n")
    assert err.count("error:") == 1


def test_a_session_header_key_in_chinese() -> None:
    # `dealer` in the header (line 3, column 1) belongs in the first hand
    code, err = run("session", "-", "--lang", "zh", stdin=SESSIONS["header_key"])
    assert code == 2
    assert ("error: <stdin>:3:1: 局 header: dealer: 牌局表头不能有 `dealer`"
            "（表头只放 region、options、players 和 id）；"
            "请写在各局里，第一局写明庄家\n") in err


def test_a_tile_problem_in_chinese() -> None:
    # a concealed kong claimed from C: at win.tiles.melds[0].from
    text = json.dumps(HANDS["concealed_kong_from"])
    column = text.index('"from"', text.index('"melds"')) + 1  # the meld's `"from"` key on the one line
    code, err = run("hand", "-", "--lang", "zh", stdin=text)
    assert code == 2
    assert err == f"error: <stdin>:1:{column}: win.tiles.melds[0].from: 暗杠不是从谁那里得来的：删掉 `from`（G3）\n"


def test_a_fact_from_the_melds_says_so_in_chinese() -> None:
    # Wuhan H8 on a tile hand whose melds give B no open: the problem moves to the melds and says why
    doc = hand(win={"winner": "B", "by": "self_draw", "tiles": {"hand": "123456789m12355s", "win_tile": "1m",
                                                                 "indicator": "9p"}})
    problems = problems_of_hand(doc)
    opens = [p for p in problems if p.kind == "require_open"]
    assert [p.path for p in opens] == [("win", "tiles", "melds")]
    assert problem_message(opens[0], "zh").endswith("（players.B.opens 由副露得出）")


def problems_of_hand(doc: dict[str, Any]) -> list[Problem]:
    try:
        settle_hand(doc)
    except HandError as exc:
        return exc.problems
    raise AssertionError("no problem found")


def test_a_value_from_the_session_header_says_so_in_chinese() -> None:
    # B's opens are given in the header only: H8 blames the header's line, in Chinese too
    text = "region: wuhan\nplayers: [A, B, C, D]\n---\ndealer: A\nwin: {winner: B, by: self_draw}\n"
    problems = run_session(iter_documents(text.encode(), "s.yaml"), "s.yaml").problems
    assert [problem_message(p, "zh") for p in problems] == [
        "胡牌者 B 没有开口；武汉要开口才能胡（H8；或设选项 require_open: false，或写明胡牌者的番数总计，G9）"
        "（来自牌局表头）"]


def test_one_winner_says_the_region_and_its_term() -> None:
    wuhan = [p for p in problems_of_hand(HANDS["one_winner"]) if p.kind == "one_winner"]
    wuxue = [p for p in problems_of_hand(hand("wuxue", win=[{"winner": "B", "by": "self_draw"}]))
             if p.kind == "one_winner"]
    assert [problem_message(p, "zh") for p in wuhan + wuxue] == [
        "武汉每局只有一位胡牌者（一炮单响）：`win` 请写成一个映射，不要写成列表",
        "武穴每局只有一位胡牌者（无一炮多响）：`win` 请写成一个映射，不要写成列表"]


def test_the_discarder_is_the_regions_word() -> None:
    # G10: 海底捞 fits only a self-draw; Wuhan calls a discard 放冲, Rushan 点炮
    wuhan = [p for p in problems_of_hand(HANDS["fan_only_by"]) if p.kind == "fan_only_by"]
    assert problem_message(wuhan[0], "zh") == "海底捞 只能在自摸时算，这一局是放冲（G10）"
    rushan = [p for p in problems_of_hand(HANDS["fan_rule:menqing"]) if p.kind == "fan_rule:menqing"]
    assert problem_message(rushan[0], "zh") == "门清 要自摸且没有开口（吃/碰/明杠）；B 是点炮，开口 0 次（R3，G10）"


def test_a_hand_without_problems_builds_no_catalog_of_problems() -> None:
    problem_catalog.cache_clear()
    settle_hand(hand(players=OPEN_B))
    assert problem_catalog.cache_info().currsize == 0


def test_a_region_without_tile_play_in_chinese() -> None:
    # Wuhan's region as it is, but without tile rules (as a region distribution may be)
    wuhan = get_region("wuhan")
    bare = Region(**{name: getattr(wuhan, name) for name in Region._FIELDS if name != "tile_rules"})
    with pytest.raises(HandError) as caught:
        tile_rules(bare)
    assert [problem_message(p, "zh") for p in caught.value.problems] == [
        "武汉没有牌面层级的算法：请写番，不要写 win.tiles"]
    assert caught.value.problems[0].message == "wuhan has no tile-level play: give the fans, not win.tiles"


def test_an_imported_file_without_a_hand_in_chinese() -> None:
    # settle serve imports a session file of a header alone: no hand to show
    from settle.web.evening import import_yaml

    imported = import_yaml(b"region: wuhan\nplayers: [A, B, C, D]\n")
    assert [(p.kind, problem_message(p, "zh"), p.message) for p in imported.problems] == [
        ("no_hand", "文件里没有任何一局", "the file holds no hand")]
