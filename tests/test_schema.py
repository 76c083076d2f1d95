"""JSON Schemas (issue 8): generated from the models, committed under schemas/, true to what settle accepts.

Every fixture validates against the committed hand and batch schemas (jsonschema, draft-07),
every result against the result schema; each region's vocabulary is offered in every spelling
the models accept (RULINGS G14); keys a region lacks are refused (G5, H9, R6).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

import settle.cli.docs  # noqa: F401  (registers `settle schema` / `settle rules`)
from settle import HandError, settle_hand
from settle.cli import app
from settle.render.schema import KINDS, REPO_SCHEMAS, enums, file_name, schema, schema_text
from settle.rules.registry import Region, all_regions, region_terms
from settle.vocab import WIN_TYPES

ROOT = Path(__file__).resolve().parent.parent
REGIONS = {r.key: r for r in all_regions()}
FIXTURES = sorted(p for key in REGIONS for p in (ROOT / "fixtures" / key).glob("*.yaml"))
"""The hand fixtures, fixtures/<region>/*.yaml (sessions have their own header format)."""
BATCH_FIXTURES = sorted(p for p in (ROOT / "fixtures" / "batch").glob("*") if p.suffix in (".yaml", ".yml"))


@cache
def committed(kind: str) -> dict[str, Any]:
    """The committed schema file of ``kind``."""
    return json.loads((REPO_SCHEMAS / file_name(kind)).read_text(encoding="utf-8"))


@cache
def validator(kind: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(committed(kind))


def errors(kind: str, doc: Any) -> list[str]:
    return [e.message for e in validator(kind).iter_errors(doc)]


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def spellings(terms: Any) -> set[str]:
    return {s for t in terms.values() for s in t.spellings()}


def region_branch(region: Region) -> dict[str, Any]:
    return committed("hand")["definitions"][f"{region.key.capitalize()}Hand"]


def hand(region: str = "wuhan", **keys: Any) -> dict[str, Any]:
    """A valid self-drawn hand of ``region`` (4 players, B wins with one open fed by A)."""
    doc: dict[str, Any] = {"region": region, "players": {"A": {}, "B": {"opens": ["A"]}, "C": {}, "D": {}},
                           "dealer": "A", "win": {"winner": "B", "by": "self_draw"}}
    doc.update(keys)
    return doc


# --- committed == generated ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_is_current(kind: str) -> None:
    path = REPO_SCHEMAS / file_name(kind)
    assert path.read_text(encoding="utf-8") == schema_text(kind), (
        f"{path} is stale: run python scripts/render_docs.py")


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft7(kind: str) -> None:
    jsonschema.Draft7Validator.check_schema(committed(kind))
    assert committed(kind)["$schema"] == "http://json-schema.org/draft-07/schema#"


@pytest.mark.parametrize("kind", KINDS)
def test_cli_prints_the_committed_schema(kind: str) -> None:
    out = CliRunner().invoke(app, ["schema", kind])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == committed(kind)


def test_cli_default_schema_is_the_hand_and_unknown_is_refused() -> None:
    runner = CliRunner()
    assert json.loads(runner.invoke(app, ["schema"]).stdout) == committed("hand")
    assert runner.invoke(app, ["schema", "players"]).exit_code == 2


def test_unknown_kind_is_an_error() -> None:
    with pytest.raises(ValueError, match="hand, batch, session, result"):
        schema("hands")


# --- fixtures and results validate ---------------------------------------------------------------


def test_there_are_fixtures_for_every_region() -> None:
    assert {p.parent.name for p in FIXTURES} >= set(REGIONS)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_validates_against_hand_and_batch_schemas(path: Path) -> None:
    doc = load(path)
    assert errors("hand", doc) == []
    assert errors("batch", doc) == []
    assert errors("batch", [doc, doc]) == []


@pytest.mark.parametrize("path", BATCH_FIXTURES, ids=lambda p: p.name)
def test_batch_fixture_hands_that_settle_validate(path: Path) -> None:
    """Each document of a YAML batch validates as a batch; every hand settle accepts, the schema accepts."""
    for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
        for one in doc if isinstance(doc, list) else [doc]:
            try:
                settle_hand(one)
            except HandError:
                continue  # a deliberately bad hand of the batch
            assert errors("hand", one) == [] and errors("batch", one) == []


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_result_of_fixture_validates_against_result_schema(path: Path) -> None:
    result = settle_hand(load(path))
    assert errors("result", result.as_dict()) == []
    from settle.render import render

    assert errors("result", json.loads(render(result, "json"))) == []


def test_forfeit_result_validates() -> None:
    result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
                          "abandon": {"by": "B"}})
    data = result.as_dict()
    assert "forfeit" in data and data["next_dealer"] is None
    assert errors("result", data) == []
    assert errors("result", {**data, "forfeit": {"from": "B"}}) != []


def test_result_schema_requires_the_output_keys() -> None:
    required = set(committed("result")["required"])
    assert required == {"region", "players", "net", "transfers", "next_dealer", "roles", "scores", "unit",
                        "liable", "notes", "score_items", "liable_rule", "reading", "reasons", "format_version"}
    data = settle_hand(load(ROOT / "fixtures/wuhan/worked_example.yaml")).as_dict()
    assert errors("result", {**data, "extra": 1}) != []
    assert errors("result", {**data, "roles": {"A": ["boss"]}}) != []


# --- vocabulary: every accepted spelling, and only that -------------------------------------------


def test_every_region_is_a_branch_of_the_hand_schema() -> None:
    refs = [b["$ref"] for b in committed("hand")["oneOf"]]
    assert refs == [f"#/definitions/{key.capitalize()}Hand" for key in region_terms()]
    assert set(committed("hand")["properties"]["region"]["enum"]) == spellings(region_terms())


@pytest.mark.parametrize("key", list(REGIONS))
def test_region_vocabulary_enums_hold_every_spelling(key: str) -> None:
    region = REGIONS[key]
    defs = committed("hand")["definitions"]
    prefix = key.capitalize()
    win = defs[f"{prefix}Win"]["properties"]
    assert set(win["fans"]["items"]["enum"]) == spellings(region.patterns)
    assert set(win["by"]["enum"]) == spellings(WIN_TYPES)
    kongs = defs[f"{prefix}Player"]["properties"]["kongs"]["propertyNames"]
    assert set(kongs["enum"]) == spellings(region.kongs)
    for term in region.patterns.values():  # Chinese names in the descriptions
        assert f"{term.key}: {term.zh}" in win["fans"]["items"]["description"]
    assert set(region_branch(region)["properties"]["region"]["enum"]) == set(region.term.spellings())


@pytest.mark.parametrize("key", list(REGIONS))
def test_every_spelling_the_schema_offers_is_accepted_by_settle(key: str) -> None:
    """Schema and models agree: each enum spelling of fans and kongs is valid input for the model."""
    region = REGIONS[key]
    defs = committed("hand")["definitions"]
    prefix = key.capitalize()
    for spelling in defs[f"{prefix}Win"]["properties"]["fans"]["items"]["enum"]:
        model = region.hand_model.model_validate(hand(key, win={"winner": "B", "by": "self_draw",
                                                                "fans": [spelling]}))
        assert model.win.fans[0] in region.patterns  # normalised to a canonical key
    for spelling in defs[f"{prefix}Player"]["properties"]["kongs"]["propertyNames"]["enum"]:
        model = region.hand_model.model_validate(hand(key, players={"A": {"kongs": {spelling: 1}}, "B": {},
                                                                    "C": {}, "D": {}}))
        assert set(model.players["A"].kongs) <= set(region.kongs)


def test_chinese_aliases_validate_in_schema_and_settle() -> None:
    doc = {"region": "武漢", "players": {"A": {"opens": 1}, "B": {}, "C": {"opens": ["A", "B"]},
                                         "D": {"kongs": {"暗槓": 1}}},
           "dealer": "A", "win": {"winner": "C", "by": "自摸", "fans": ["清一色", "槓上花"]}}
    assert errors("hand", doc) == []
    assert settle_hand(doc).net["C"] > 0


@pytest.mark.parametrize(("doc", "why"), [
    (hand(colour="red"), "unknown top-level key"),
    (hand(win={"winner": "B", "by": "selfdraw"}), "misspelt win type"),
    (hand(win={"winner": "B", "by": "self_draw", "fans": ["qidui"]}), "qidui is not a Wuhan fan"),
    (hand(players=["A", "B", "C"]), "Wuhan needs 4 players"),
    (hand(players=["A", "A", "B", "C"]), "repeated name"),
    (hand(players={"A": {"kongs": {"bao": 1}}, "B": {}, "C": {}, "D": {}}), "bao is a Wuxue kong"),
    (hand(players={"A": {"fish": 1}, "B": {}, "C": {}, "D": {}}), "fish is Rushan only"),
    (hand("rushan", fans={"A": 1}), "no fans total in Rushan"),
    (hand("wuxue", abandon={"by": "A"}), "abandon is Wuhan only"),
    (hand("wuxue", fans={"A": 1}, jin={"A": 1}), "fans and its alias jin together"),
    (hand(options={"cap": "big"}), "cap is a number"),
    (hand(options={"golden": 0}), "golden is positive"),
    (hand(fans={"A": 65}), "a total above 64"),
    ({"players": ["A", "B", "C", "D"]}, "no region"),
    (hand("mars"), "unknown region"),
])
def test_schema_refuses(doc: dict[str, Any], why: str) -> None:
    assert errors("hand", doc), why


@pytest.mark.parametrize(("doc", "why"), [
    (hand(players={"A": None, "B": {"opens": ["A"]}, "C": {}, "D": {}}), "a player with no details (G8)"),
    (hand(players=["A", "B", "C", "D"], win={"winner": "B", "by": "discard", "from": "A"}), "list form"),
    (hand(options=None), "options: with nothing after it"),
    (hand(options={"koukou": True, "golden": 600}), "golden given, bright from koukou"),
    (hand("wuxue", players=["A", "B"], jin={"A": 1, "B": 2}), "jin alias, 2 players"),
    (hand("rushan", players={"A": {"fish": 2}, "B": {"opens": ["A"]}, "C": {}, "D": {}}), "fish in Rushan"),
    (hand("乳山", win=[{"winner": "B", "by": "discard", "from": "A"},
                       {"winner": "C", "by": "discard", "from": "A"}], options={"multi_win": True}),
     "a list of wins"),
    (hand(win={"winner": "B", "by": "self_draw", "liable": "none", "tiles": {"hand": "123m"}}), "liable/tiles"),
    (hand(id=7), "a numeric id"),
])
def test_schema_accepts(doc: dict[str, Any], why: str) -> None:
    assert errors("hand", doc) == [], why


def test_options_defaults_that_depend_on_other_options_say_so() -> None:
    props = committed("hand")["definitions"]["WuhanOptions"]["properties"]
    assert "omit for the default" in props["golden"]["description"]
    assert {"type": "null"} in props["golden"]["anyOf"]


def test_every_enum_is_a_list_of_distinct_strings() -> None:
    for values in enums(committed("hand")):
        assert len(values) == len(set(values))
        assert all(isinstance(v, str) for v in values)


def test_every_batch_jsonl_line_validates_against_the_line_schema() -> None:
    # HAND-FORMAT "Output": one object per hand, the settlement with its id, or `error` for a bad hand.
    import io

    from settle.engine.batch import BatchRun, StreamWriter, run_batch

    out = io.StringIO()
    run_batch([str(ROOT / "fixtures" / "batch" / "mixed.yaml")], StreamWriter(out, "jsonl"), BatchRun(fmt="jsonl"))
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert any("error" in line for line in lines) and any("net" in line for line in lines)
    assert [errors("line", line) for line in lines] == [[] for _ in lines]
    assert errors("line", {"id": "x"}) != []  # neither a result nor an error line
    assert errors("line", {"id": "x", "error": []}) != []  # a bad hand has at least one problem
