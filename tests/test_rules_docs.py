"""`settle rules`, --lang and docs/ (issue 8).

* The rule tables list exactly the vocabulary the scoring code knows: no key scored but
  undocumented, none documented but unscored (checked by settling probe hands).
* Chinese tables align (display width through wcwidth) and zh labels carry no English.
* docs/<region>.md is what scripts/render_docs.py renders now (stale check), and names
  every ruling of its region.
* The worked example of the Wuhan rule text (seed 004, 结算规则) in English and Chinese.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner
from wcwidth import wcswidth

import settle.cli.docs  # noqa: F401  (registers `settle schema` / `settle rules`)
from settle import HandError, settle_hand
from settle.cli import app
from settle.core import Settlement
from settle.render import ROLE_LABELS, render
from settle.render.rules import (
    documented_keys,
    option_names,
    option_table,
    region_tables,
    render_rules,
    value_text,
)
from settle.rules.registry import Region, all_regions
from settle.vocab import KongKind, Pattern

ROOT = Path(__file__).resolve().parent.parent
REGIONS = {r.key: r for r in all_regions()}
ASCII_WORD = re.compile(r"[A-Za-z]")

RULING_IDS = {
    "wuhan": [f"H{i}" for i in range(1, 13)],
    "wuxue": [f"W{i}" for i in range(1, 17)],
    "rushan": [*(f"R{i}" for i in range(1, 12)), "R3b"],
}
"""Every ruling id of RULINGS.md, per region; G1–G14 are in docs/README.md."""


def run(*args: str, **env: str | None) -> str:
    """``settle ARGS`` through typer; fails the test on a non-zero exit."""
    out = CliRunner().invoke(app, list(args), env=env or None)
    assert out.exit_code == 0, out.output
    return out.stdout


@cache
def render_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("render_docs", ROOT / "scripts" / "render_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the tables list what is scored ----------------------------------------------------------------


@pytest.mark.parametrize("key", list(REGIONS))
def test_tables_list_every_vocabulary_key_once(key: str) -> None:
    region = REGIONS[key]
    patterns, kongs, options = region_tables(region)
    assert list(patterns.keys) == list(region.patterns)
    assert list(kongs.keys) == list(region.kongs)
    assert list(options.keys) == list(region.options.model_fields)
    assert documented_keys(region) == set(region.patterns) | set(region.kongs)


def _string_constants(key: str) -> set[str]:
    out: set[str] = set()
    for path in (ROOT / "settle" / "rules" / key).rglob("*.py"):  # the region's package (issue 13)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return out


@pytest.mark.parametrize("key", list(REGIONS))
def test_no_key_scored_but_undocumented(key: str) -> None:
    """A vocabulary word the region's code names is in its tables; the model refuses the others."""
    region = REGIONS[key]
    every_word = {w for r in REGIONS.values() for w in (*r.patterns, *r.kongs)}
    named_in_code = _string_constants(key) & every_word
    assert named_in_code <= documented_keys(region)
    for word in sorted(set().union(*(r.patterns for r in REGIONS.values()))):
        accepted = _accepts(region, {"win": {"winner": "B", "by": "self_draw", "fans": [word]}})
        assert accepted == (word in region.patterns), word
    for word in sorted(set().union(*(r.kongs for r in REGIONS.values()))):
        accepted = _accepts(region, {"players": {"A": {"kongs": {word: 1}}, "B": {}, "C": {}, "D": {}}})
        assert accepted == (word in region.kongs), word


def _accepts(region: Region, keys: dict[str, Any]) -> bool:
    doc = {"region": region.key, "players": ["A", "B", "C", "D"], "dealer": "A",
           "win": {"winner": "B", "by": "self_draw"}, **keys}
    try:
        region.hand_model.model_validate(doc)
    except ValidationError:
        return False
    return True


def _probes(region: Region, by_kinds: list[str], opens_choices: tuple[int, ...]) -> Iterator[dict[str, Any]]:
    """Small valid-looking hands to settle: each win type, winner dealer or not, options flipped on."""
    names = ["A", "B", "C", "D"][: max(region.seats)]
    flags = [k for k, f in region.options.model_fields.items() if f.default is False]
    for options in ({}, *({flag: True} for flag in flags)):
        for by in by_kinds:
            for winner in (names[1], names[0]):
                giver = names[(names.index(winner) + 1) % len(names)]
                for opens in opens_choices:
                    players: dict[str, Any] = {n: {"opens": 1} for n in names}
                    players[winner] = {"opens": [giver] * opens} if opens else {}
                    win: dict[str, Any] = {"winner": winner, "by": by}
                    if by != "self_draw":
                        win["from"] = giver
                    yield {"region": region.key, "players": players, "dealer": names[0], "win": win,
                           "options": options}


def _settle(doc: dict[str, Any]) -> Settlement | None:
    try:
        return settle_hand(doc)
    except HandError:
        return None


def _text(result: Settlement) -> str:
    return " ".join([*result.notes, *(t.why for t in result.transfers), *result.score_detail.values()])


def _names(pattern: Pattern, text: str) -> bool:
    """The explanation names the pattern, by key (``pihu 1``) or by its Chinese name."""
    return pattern.zh in text or re.search(rf"\b{pattern.key}\b", text) is not None


def _pattern_scored(region: Region, pattern: Pattern) -> bool:
    """Claiming ``pattern`` changes the winner's net in some probe hand, or it is implied by the facts
    (the explanation names it with and without the claim: 抢杠 by robbed_kong, R3b 门清, R1 屁胡)."""
    by_kinds = sorted(pattern.only_by) or ["self_draw", "discard"]
    for base in _probes(region, by_kinds, (1, 0, 4)):
        claimed = {**base, "win": {**base["win"], "fans": [pattern.key]}}
        with_key, without = _settle(claimed), _settle(base)
        if with_key is None or without is None:
            continue
        winner = claimed["win"]["winner"]
        if with_key.net[winner] != without.net[winner]:
            return True
        if all(_names(pattern, _text(r)) for r in (with_key, without)):
            return True
    return False


def _kong_scored(region: Region, kong: KongKind) -> bool:
    """A kong of this kind held by the winner changes the winner's net in some probe hand."""
    for base in _probes(region, ["self_draw", "discard"], (1,)):
        winner = base["win"]["winner"]
        with_kong = {**base, "players": {**base["players"],
                                         winner: {**base["players"][winner], "kongs": {kong.key: 1}}}}
        a, b = _settle(with_kong), _settle(base)
        if a is not None and b is not None and a.net[winner] != b.net[winner]:
            return True
    return False


@pytest.mark.parametrize(("key", "word"), [(r.key, w) for r in all_regions() for w in (*r.patterns, *r.kongs)])
def test_none_documented_but_unscored(key: str, word: str) -> None:
    region = REGIONS[key]
    if word in region.patterns:
        assert _pattern_scored(region, region.patterns[word]), f"{key} {word} is listed but never scores"
    else:
        assert _kong_scored(region, region.kongs[word]), f"{key} kong {word} is listed but never scores"


# --- values, options --------------------------------------------------------------------------------


def test_values_carry_their_units() -> None:
    wuhan, wuxue, rushan = REGIONS["wuhan"], REGIONS["wuxue"], REGIONS["rushan"]
    assert value_text(wuhan, wuhan.patterns["qingyise"]) == "base 10"  # H3
    assert value_text(wuhan, wuhan.patterns["hard"]) == "1 番"  # H2/H3
    assert value_text(wuhan, wuhan.kongs["concealed"]) == "2 番"  # H1
    assert value_text(wuhan, wuhan.patterns["qingyise"], "zh") == "底分 10"
    assert value_text(wuxue, wuxue.patterns["haohua_qidui"]) == "3 斤"  # W2
    assert value_text(rushan, rushan.patterns["pengpenghu"]) == "base 2"  # R1
    assert value_text(rushan, rushan.patterns["tianhu"]) == "×4"  # R2


@pytest.mark.parametrize("key", list(REGIONS))
def test_every_option_has_a_chinese_name_a_meaning_and_its_default(key: str) -> None:
    region = REGIONS[key]
    names = option_names(region)
    for option, (zh, meaning) in names.items():
        assert zh and not ASCII_WORD.search(zh), (
            f"{key} option {option}: start its description with its 中文 name ('封顶: ...') or add it to "
            "the region's option_zh (settle/rules/<key>/options.py)")
        assert meaning, option
    defaults = region.options()
    for row in option_table(region).rows:
        value = getattr(defaults, row[0])
        assert row[2] == (str(value).lower() if isinstance(value, bool) else str(value))


def test_wuhan_defaults_that_follow_koukou_show_the_plain_default() -> None:
    rows = {row[0]: row for row in option_table(REGIONS["wuhan"]).rows}
    assert rows["golden"][2] == "500" and "600 with koukou" in rows["golden"][3]  # H6
    assert rows["escape_penalty"][2] == "400"  # H9


# --- settle rules ---------------------------------------------------------------------------------


def test_rules_without_region_prints_every_region() -> None:
    out = run("rules", "--lang", "en")
    for region in REGIONS.values():
        assert f"{region.term.zh} {region.key}" in out
        for word in documented_keys(region):
            assert word in out


@pytest.mark.parametrize("key", list(REGIONS))
def test_rules_markdown_is_the_docs_table(key: str) -> None:
    out = run("rules", key, "--format", "markdown", "--lang", "en")
    assert out.startswith(f"## {REGIONS[key].term.zh} {key}")
    assert len(re.findall(r"^\|-[-|]*\|$", out, re.M)) == 3  # three GitHub tables
    page = (ROOT / "docs" / f"{key}.md").read_text(encoding="utf-8")
    assert out.split("\n", 1)[1].strip() in page


def test_rules_accepts_a_chinese_region_name_and_json() -> None:
    data = json.loads(run("rules", "武穴", "--format", "json"))
    assert list(data) == ["wuxue"]
    assert {p["key"] for p in data["wuxue"]["patterns"]} == set(REGIONS["wuxue"].patterns)
    assert data["wuxue"]["options"][0] == {"key": "cap", "zh": "封顶", "default": 15,
                                           "meaning": "most a loser pays before 漂 (W7)"}


def test_rules_csv_has_one_block_per_table() -> None:
    out = run("rules", "rushan", "--format", "csv", "--lang", "en")
    assert [b.splitlines()[0].split(",")[:2] for b in out.strip().split("\n\n")] == [["region", "key"]] * 3


def test_rules_unknown_region_exits_2() -> None:
    out = CliRunner().invoke(app, ["rules", "mars"])
    assert out.exit_code == 2
    assert "unknown region 'mars'" in out.output


def test_rules_zh_labels_have_no_english() -> None:
    for region in REGIONS.values():
        for table in region_tables(region, "zh"):
            # the table titles name the hand-file key they describe (win.fans), which stays English
            assert not ASCII_WORD.search(table.title.split("（")[0])
            assert not any(ASCII_WORD.search(h) for h in table.headers), table.headers


def _github_blocks(text: str) -> list[list[str]]:
    return [b.splitlines() for b in text.split("\n\n") if b.startswith("|")]


def test_zh_rules_tables_align_by_display_width() -> None:
    out = render_rules(all_regions(), "markdown", "zh")
    blocks = _github_blocks(out)
    assert len(blocks) == 3 * len(REGIONS)
    for lines in blocks:
        assert len({wcswidth(line) for line in lines}) == 1, lines
        assert len({len(line) for line in lines}) > 1  # Chinese really is wider than one column


def _spans(rule: str) -> list[tuple[int, int]]:
    """Column spans (display columns) from a ``-----  ----`` rule line."""
    return [(m.start(), m.end()) for m in re.finditer(r"-+", rule)]


def _assert_cells_in_columns(block: str, rows: list[list[str]]) -> None:
    lines = block.splitlines()
    spans = _spans(lines[1])
    for line, row in zip(lines[2:], rows, strict=True):
        at = 0
        for cell, (start, end) in zip(row, spans, strict=True):
            if not cell:
                continue
            at = line.index(cell, at)
            left = wcswidth(line[:at])
            assert start <= left and left + wcswidth(cell) <= end, (line, cell)
            at += len(cell)


def test_plain_zh_rules_tables_align() -> None:
    region = REGIONS["wuhan"]
    blocks = region_text_blocks(region)
    for table, block in zip(region_tables(region, "zh"), blocks, strict=True):
        _assert_cells_in_columns(block, [list(r) for r in table.rows])


def region_text_blocks(region: Region) -> list[str]:
    from settle.render.rules import region_text

    return [b.split("\n", 1)[1] for b in region_text(region, "table", "zh").split("\n\n")[1:]]


# --- --lang and the worked example -----------------------------------------------------------------

WORKED = ["hand", "--region", "wuhan", "--players", "A,B,C,D", "--dealer", "C", "--winner", "D",
          "--by", "discard", "--from", "A", "--fans", "A=3,B=2,C=3,D=4"]
"""The worked example of the Wuhan rule text (seed 004, 结算规则; HAND-FORMAT.md): A 3, B 2, C 3, D 4 fans."""


def test_worked_example_in_english() -> None:
    out = run(*WORKED, "--lang", "en")
    lines = out.splitlines()
    assert lines[0] == "武汉 wuhan"
    assert lines[2].split() == ["player", "role", "番", "fans", "net"]
    assert re.search(r"^A +放冲 discarder +3 \(stated\) +-128$", out, re.M)
    assert re.search(r"^C +庄 dealer +3 \(stated\) +-128$", out, re.M)
    assert re.search(r"^D +胡 winner +4 \(stated\) +\+320$", out, re.M)
    assert re.search(r"^A -> D +128 += 2\^\(3\+4\)$", out, re.M)  # H2: 2^(3+4)
    assert re.search(r"^B -> D +64 += 2\^\(2\+4\)$", out, re.M)
    assert lines[-1] == "next dealer: D"  # H10: the winner D was not the dealer C


def test_worked_example_in_chinese() -> None:
    out = run(*WORKED, "--lang", "zh")
    lines = out.splitlines()
    assert lines[0] == "武汉"
    assert lines[2].split() == ["玩家", "角色", "番", "输赢"]
    assert re.search(r"^A +放冲 +3（报数） +-128$", out, re.M)
    assert re.search(r"^C +庄 +3（报数） +-128$", out, re.M)
    assert re.search(r"^D +胡 +4（报数） +\+320$", out, re.M)
    assert "* 小胡：底分 1 (H2)" in lines
    assert re.search(r"^付 +分 +算法$", out, re.M)
    assert re.search(r"^C -> D +128 += 2\^\(3\+4\)$", out, re.M)
    assert lines[-1] == "下一局庄家: D"


def _worked_result() -> Settlement:
    return settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
                        "win": {"winner": "D", "by": "discard", "from": "A"},
                        "fans": {"A": 3, "B": 2, "C": 3, "D": 4}})


def test_zh_output_labels_have_no_english_and_align() -> None:
    from settle.render import player_rows

    result = _worked_result()
    out = render(result, "table", "zh")
    blocks = out.split("\n\n")
    assert not ASCII_WORD.search(blocks[0])  # title
    assert not ASCII_WORD.search(blocks[1].splitlines()[0])  # players table headings
    assert not ASCII_WORD.search(blocks[2].splitlines()[0])  # transfers table headings
    assert not ASCII_WORD.search(blocks[-1].split(":")[0])  # next dealer
    for name in result.players:
        for role in result.roles.get(name, ()):
            assert ROLE_LABELS[role][0] in out
    _assert_cells_in_columns(blocks[1], player_rows(result, "zh"))
    for lines in _github_blocks(render(result, "markdown", "zh")):
        assert len({wcswidth(line) for line in lines}) == 1


def test_zh_forfeit_label() -> None:
    result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
                          "abandon": {"by": "B"}})
    assert "B -> (罚没)" in render(result, "table", "zh")
    assert "B -> (forfeit)" in render(result, "table", "en")


def test_json_keys_stay_canonical_in_chinese() -> None:
    """Issue 13: with --lang zh given, JSON's texts are Chinese; its keys and values stay canonical."""
    zh = json.loads(run(*WORKED, "--format", "json", "--lang", "zh"))
    assert zh == _worked_result().as_dict("zh")
    en = _worked_result().as_dict()
    assert set(zh) == set(en) and zh["net"] == en["net"] and zh["roles"] == en["roles"]
    assert zh["notes"] == ["小胡：底分 1 (H2)"] and en["notes"] == ["小胡 small hand: base 1 (H2)"]


def test_json_stays_english_under_a_chinese_locale_unless_asked() -> None:
    """Issue 13: JSON bytes never depend on the machine's locale; only --lang zh makes them Chinese."""
    out = run(*WORKED, "--format", "json", LANG="zh_CN.UTF-8", LC_ALL=None, LC_MESSAGES=None)
    assert json.loads(out) == _worked_result().as_dict()


@pytest.mark.parametrize(("env", "heading"), [
    ({"LANG": "zh_CN.UTF-8"}, "玩家"), ({"LANG": "en_US.UTF-8"}, "player"), ({"LANG": "C"}, "player"),
])
def test_language_defaults_from_the_locale(env: dict[str, str], heading: str) -> None:
    out = run(*WORKED, LC_ALL=None, LC_MESSAGES=None, **env)
    assert out.splitlines()[2].startswith(heading)
    rules = run("rules", "wuhan", LC_ALL=None, LC_MESSAGES=None, **env)
    assert ("键" in rules.splitlines()[3]) == (heading == "玩家")


# --- docs -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(REGIONS))
def test_docs_page_is_current(key: str) -> None:
    path = ROOT / "docs" / f"{key}.md"
    expected = render_docs().pages()[path]
    assert path.exists() and path.read_text(encoding="utf-8") == expected, (
        f"{path.relative_to(ROOT)} is stale: run python scripts/render_docs.py")


def test_render_docs_check_reports_nothing_stale() -> None:
    assert render_docs().stale(render_docs().generated()) == []


@pytest.mark.parametrize("key", list(REGIONS))
def test_docs_page_has_intro_formula_rulings_tables_and_examples(key: str) -> None:
    assert (ROOT / "docs" / "_intro" / f"{key}.md").exists()
    page = (ROOT / "docs" / f"{key}.md").read_text(encoding="utf-8")
    for heading in ("## The formula", "## Rulings", "## Vocabulary and options", "## Worked examples"):
        assert heading in page
    for ruling in RULING_IDS.get(key, []):
        assert f"- **{ruling}**" in page, f"{key}: ruling {ruling} has no bullet"
    for fixture in sorted((ROOT / "fixtures" / key).glob("*.yaml")):
        assert f"$ settle hand fixtures/{key}/{fixture.name} --format markdown" in page


def test_docs_index_links_every_region_and_states_the_common_rulings() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for key in REGIONS:
        assert f"]({key}.md)" in index
    for i in range(1, 15):
        assert f"- **G{i}**" in index
    for needle in ("# yaml-language-server: $schema=", "--install-completion", "--show-completion", "--lang zh"):
        assert needle in index


def test_shell_completion_is_offered() -> None:
    out = run("--help")
    assert "--install-completion" in out and "--show-completion" in out


def test_region_argument_completes() -> None:
    from settle.cli.docs import complete_region

    assert complete_region("wu") == [("wuhan", "武汉"), ("wuxue", "武穴")]
