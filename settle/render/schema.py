"""JSON Schemas of the public contracts: the hand file, a batch file, and the JSON result.

Generated from the pydantic models, never written by hand, so they cannot drift from
what ``settle`` accepts (HAND-FORMAT.md).  The same text is committed under ``schemas/``
(``tests/test_schema.py`` fails when it is stale) so that an editor can check a YAML
hand file while it is typed::

    # yaml-language-server: $schema=../schemas/hand.schema.json

The schemas are JSON Schema draft-07 (what yaml-language-server and VS Code check
against): ``definitions`` instead of pydantic's ``$defs``.

* ``hand``: a ``oneOf`` over the regions, one branch per region's ``Hand`` model, told
  apart by ``region`` (its key and its Chinese names, G14).  Each region's vocabulary
  (``win.by``, ``win.fans``, kong kinds) is an enum of every accepted spelling, with
  the Chinese names and glosses in the description.  Keys a region does not have
  (``fans``/``jin`` in Rushan, G5; ``abandon`` outside Wuhan, H9; ``fish`` outside
  Rushan, R6) are left out of that region's branch.
* ``batch``: a YAML list of hands, or one hand (each document of a YAML stream and
  each line of a JSON Lines file is checked as one hand).
* ``session``: a session file (``settle session``, issue 16 #8): each document is a header (only
  ``region``, ``options``, ``players``, ``id``) or a hand that may leave out what the header gives
  (``region``, ``players``, ``dealer``), whose ``players`` may list only the players with facts.
* ``result``: the object ``settle hand --format json`` prints
  (:meth:`settle.core.Settlement.as_dict`), from :class:`ResultModel`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from settle.core import CAP_MARKS, FORMAT_VERSION, ROLES
from settle.rules.registry import Region, all_regions, region_terms

KINDS = ("hand", "batch", "session", "result", "line")
"""The schemas ``settle schema`` prints and ``schemas/`` holds."""

DRAFT = "http://json-schema.org/draft-07/schema#"
"""The JSON Schema dialect written: draft-07, the newest one editors fully support."""

REPO_SCHEMAS = Path(__file__).resolve().parent.parent.parent / "schemas"
"""``schemas/`` of a source checkout (where the committed copies live)."""

Json = dict[str, Any]


def file_name(kind: str) -> str:
    """``hand.schema.json``: the committed file of a schema kind."""
    return f"{kind}.schema.json"


def schema(kind: str) -> Json:
    """The schema of ``kind`` (one of :data:`KINDS`); raises ValueError for another name."""
    builders: dict[str, Callable[[], Json]] = {"hand": hand_schema, "batch": batch_schema,
                                               "session": session_schema, "result": result_schema,
                                               "line": line_schema}
    if kind not in builders:
        raise ValueError(f"unknown schema {kind!r}; choose one of {', '.join(KINDS)}")
    return builders[kind]()


def schema_text(kind: str) -> str:
    """The schema as committed: indented JSON, Chinese kept as is, one final newline."""
    return json.dumps(schema(kind), ensure_ascii=False, indent=2) + "\n"


def write_schemas(directory: Path = REPO_SCHEMAS) -> list[Path]:
    """Write every schema to ``directory``; returns the files whose content changed."""
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    for kind in KINDS:
        path = directory / file_name(kind)
        text = schema_text(kind)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


# --- hand -----------------------------------------------------------------------------------------


def hand_schema() -> Json:
    """The hand file: one branch per region, chosen by ``region`` (HAND-FORMAT.md)."""
    definitions: Json = {}
    branches = []
    for region in all_regions():
        name, defs = region_hand_definitions(region)
        _merge(definitions, defs)
        branches.append({"$ref": f"#/definitions/{name}"})
    return {
        "$schema": DRAFT,
        "title": "settle hand file",
        "description": "One finished hand (局) for `settle hand` (HAND-FORMAT.md). Pick the rule set with "
                       "`region`; values also accept their Chinese names, simplified or traditional (G14).",
        "type": "object",
        "required": ["region"],
        "properties": {"region": _region_property(list(region_terms()))},
        "oneOf": branches,
        "definitions": dict(sorted(definitions.items())),
    }


def region_hand_definitions(region: Region) -> tuple[str, Json]:
    """``(WuhanHand, definitions)``: the region's ``Hand`` schema and the models it refers to, each
    under its class name (``WuhanPlayer``, ``WuhanWin``: :func:`settle.model.hand_model`)."""
    hand = region.hand_model.model_json_schema(ref_template="#/definitions/{model}")
    defs: Json = hand.pop("$defs", {})
    hand_name = hand["title"]
    _shape_hand(region, hand, defs, region.key.capitalize())
    defs[hand_name] = hand
    return hand_name, defs


def _merge(into: Json, defs: Json) -> None:
    """Add ``defs`` to ``into``; a name already there must mean the same schema (``Abandon``)."""
    for name, body in defs.items():
        if name in into and into[name] != body:
            raise ValueError(f"two different schemas are both called {name!r}")
        into[name] = body


def _shape_hand(region: Region, hand: Json, defs: Json, prefix: str) -> None:
    """What pydantic cannot see in the models: before-validators, aliases, per-region keys."""
    props = hand["properties"]
    hand["description"] = (f"A hand of {region.term.zh} {region.term.en}. Unit: {region.unit}. "
                           f"Players: {' or '.join(map(str, region.seats))}.")
    props["region"] = _region_property([region.key])
    props["players"] = _players_property(props["players"], region)
    props["options"] = {
        "anyOf": [{"$ref": f"#/definitions/{region.options.__name__}"}, {"type": "null"}],
        "description": f"house-rule options of {region.term.zh} {region.key}; omitted = the defaults "
                       f"(`settle rules {region.key}` lists them)",
    }
    if region.explicit_totals:
        props["jin"] = {**copy.deepcopy(props["fans"]), "title": "Jin",
                        "description": "alias of `fans` (斤); give one of the two"}
        hand["not"] = {"required": ["fans", "jin"]}
    else:
        del props["fans"]
    if not region.has_abandon:
        del props["abandon"]
    player = defs[f"{prefix}Player"]
    if not region.has_fish:
        del player["properties"]["fish"]
    kongs = player["properties"]["kongs"]
    kongs["properties"] = {  # each canonical kind by name, so editors complete and explain it
        kind.key: {**kongs["additionalProperties"],
                   "description": f"{kind.zh}: {kind.en}; {kind.value} {region.unit} each ({kind.ruling})"}
        for kind in region.kongs.values()
    }
    _shape_options(region, defs[region.options.__name__])


def _region_property(keys: list[str]) -> Json:
    terms = [region_terms()[key] for key in keys]
    return {
        "enum": list(dict.fromkeys(s for t in terms for s in t.spellings())),
        "description": "rule set: " + "; ".join(f"{t.key}: {t.zh} ({t.en})" for t in terms),
    }


def _players_property(mapping: Json, region: Region) -> Json:
    """A list of names, or name -> details (details may be empty: G8); seat counts W14/H11/R11."""
    low, high = min(region.seats), max(region.seats)
    mapping = copy.deepcopy(mapping)
    description = mapping.pop("description", "")
    mapping.pop("title", None)
    for pattern, value in mapping["patternProperties"].items():
        mapping["patternProperties"][pattern] = {"anyOf": [value, {"type": "null"}]}
    mapping.update(minProperties=low, maxProperties=high)
    name = {k: v for k, v in mapping["propertyNames"].items() if k != "description"}
    name.update(type="string", pattern=next(iter(mapping["patternProperties"])))
    as_list = {"type": "array", "items": name, "minItems": low, "maxItems": high, "uniqueItems": True}
    return {"anyOf": [as_list, mapping], "title": "Players", "description": description}


def _shape_options(region: Region, options: Json) -> None:
    """Options whose default depends on other options (None in the model) say so."""
    for key, field in region.options.model_fields.items():
        if field.default is None and key in options["properties"]:
            prop = options["properties"][key]
            prop["description"] = prop.get("description", "") + "; omit for the default"


# --- batch ----------------------------------------------------------------------------------------


def batch_schema() -> Json:
    """A batch file: a YAML list of hands, or one hand per YAML document or JSON line."""
    hand = hand_schema()
    definitions = hand.pop("definitions")
    definitions["Hand"] = {k: v for k, v in hand.items() if k not in ("$schema", "$id")}
    return {
        "$schema": DRAFT,
        "title": "settle batch file",
        "description": "Many hands for `settle batch`: a YAML list of hands, or a YAML stream "
                       "(`---` between documents) / JSON Lines file, where each document or line is one hand.",
        "anyOf": [
            {"type": "array", "items": {"$ref": "#/definitions/Hand"}},
            {"$ref": "#/definitions/Hand"},
        ],
        "definitions": definitions,
    }


def session_schema() -> Json:
    """A session file (issue 16 #8): a YAML stream (one header or hand per document) or a list of them.

    The header holds only ``region``, ``options``, ``players`` and ``id`` (:data:`settle.engine.session.HEADER_KEYS`);
    a hand is a region's hand with ``region``, ``players`` and ``dealer`` optional (the header and the
    rotation give them, H10/W13/R10) and ``players`` of any size up to the seats (only those with facts,
    issue 16 #1).  The hands' branches are an ``anyOf``: without ``region`` every region's may fit.
    """
    hand = hand_schema()
    definitions = hand.pop("definitions")
    branches = []
    for ref in hand["oneOf"]:
        name = ref["$ref"].rsplit("/", 1)[1]
        loose = copy.deepcopy(definitions[name])
        loose["required"] = [key for key in loose.get("required", []) if key not in ("region", "players", "dealer")]
        if not loose["required"]:
            del loose["required"]
        for shape in loose["properties"]["players"].get("anyOf", []):
            for bound in ("minItems", "minProperties"):
                if bound in shape:
                    shape[bound] = 1
        loose["title"] = f"{name} in a session"
        definitions[f"Session{name}"] = loose
        branches.append({"$ref": f"#/definitions/Session{name}"})
    regions = hand["properties"]["region"]
    definitions["SessionHeader"] = {
        "title": "session header",
        "description": "the first document of a session: region, options and players for every hand, and the "
                       "session's id; a hand's own options keys override these, its players add details",
        "type": "object",
        "properties": {
            "region": regions,
            "players": {"description": "the table's seating (G1): a list of names, or name -> details",
                        "anyOf": [{"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 2,
                                   "uniqueItems": True},
                                  {"type": "object", "minProperties": 2}]},
            "options": {"type": "object", "description": "house-rule options for every hand"},
            "id": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "the session's name"},
        },
        "additionalProperties": False,
        "minProperties": 1,
    }
    definitions["SessionHand"] = {"anyOf": branches}
    document = {"anyOf": [{"$ref": "#/definitions/SessionHeader"}, {"$ref": "#/definitions/SessionHand"}]}
    return {
        "$schema": DRAFT,
        "title": "settle session file",
        "description": "One table's evening for `settle session`: a YAML stream (`---` between documents), a "
                       "header first if wanted, then the hands in order; or a list of them.",
        "anyOf": [{"type": "array", "items": document}, document],
        "definitions": dict(sorted(definitions.items())),
    }


# --- result ---------------------------------------------------------------------------------------


Role = Literal[ROLES]  # type: ignore[valid-type]
"""A role key: dealer 庄, winner 胡, discarder 放冲/点炮, robbed 被抢杠, liable 包, abandoned 逃跑."""


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class StepModel(_Out):
    """One step of an amount, as data (issue 13): the ruling it applies, its kind and its values.

    ``kind`` names what happened (``power``: a 2^(a+b) formula; ``cap``/``cap_reached``: 封顶; ``golden``,
    ``bright``: 金顶/金鼎, 光明顶; ``piao``/``fish``: 漂/飘鱼; ``share_paid``: 承包/包胡 ...); ``values`` holds
    its numbers (points, 番/斤) and names; an amount that is not whole is written ``"n/d"``.
    """

    rule: str | None = Field(description="the ruling id (H5, W8, R7 ...), or null")
    kind: str = Field(description="what the step is (the key of its words in the message catalogs)")
    values: dict[str, Any] = Field(description="the step's numbers and names; a nested step is an object")


CapMark = Literal[CAP_MARKS]  # type: ignore[valid-type]
"""How a cap bit a payment: 封顶 reached or exceeded (W10's flat cap too), 小金鼎, 金顶/金鼎, 光明顶."""


class TransferModel(_Out):
    """One payment: ``from`` pays ``to`` ``amount`` whole points because of ``why`` (G2)."""

    from_: str = Field(alias="from", description="the payer (the liable player under 包牌/承包)")
    to: str = Field(description="the winner paid")
    amount: int = Field(ge=0, description="whole points")
    why: str = Field(description="the formula with the numbers put in, then each cap, 漂 or 包牌 step")
    steps: list[StepModel] = Field(description="the same explanation as data: the formula, then each step")
    cap: CapMark | None = Field(description="null, or how a cap bit: capped (封顶), small_golden (小金鼎), "
                                            "golden (金顶/金鼎) or bright (光明顶)")


class ForfeitModel(_Out):
    """A penalty paid to nobody: Wuhan 逃跑 with ``escape_paid_to: none`` (H9)."""

    from_: str = Field(alias="from", description="the player who left")
    amount: int = Field(ge=0, description="whole points")
    why: str
    steps: list[StepModel] = Field(description="the explanation as data")


class ScoreItemModel(_Out):
    """One item of a player's score (开口 1, 暗杠 2 ...; Rushan: the base, each multiplier, the kongs)."""

    item: str = Field(description="the item's key (opens, koukou, a kong kind, a fan key, dealer, self_draw, "
                                  "discarder; stated for a total given in the hand file, G5)")
    label: str = Field(description="its Chinese name")
    value: int = Field(description="番/斤 it adds (in 分: base points, the multiplier, or the kongs)")
    kind: Literal["base", "multiplier", "kongs"] | None = Field(None, description="in 分 only: how it counts")


class SubstitutionModel(_Out):
    """One wildcard of the reading kept, read as another tile (H12, W16)."""

    wildcard: str = Field(description="the wildcard tile, in notation (6s)")
    as_: str = Field(alias="as", description="the tile it stands for (2m)")


class ReadingModel(_Out):
    """The reading of a winner's tiles that was settled (``win.tiles``, issue 7)."""

    winner: str
    fans: list[str] = Field(description="the fan keys of the reading kept")
    substitutions: list[SubstitutionModel] = Field(description="each wildcard read as another tile")
    considered: int = Field(ge=0, description="how many legal readings were considered")
    others: list[ReadingModel] | None = Field(None, description="the other tile winners' readings (一炮多响)")


def _units() -> str:
    """``番 (Wuhan), 斤 (Wuxue) or 分 (Rushan)``, from the registry."""
    units = [f"{r.unit} ({r.key.capitalize()})" for r in all_regions()]
    return units[0] if len(units) == 1 else ", ".join(units[:-1]) + " or " + units[-1]


class ResultModel(_Out):
    """The settlement of one hand, as printed by ``settle hand --format json`` (HAND-FORMAT.md "Output")."""

    id: str | int | None = Field(None, description="the hand's `id`, when it has one")
    region: Literal[tuple(region_terms())] = Field(  # type: ignore[valid-type]
        description="; ".join(f"{t.key}: {t.zh}" for t in region_terms().values()))
    players: list[str] = Field(description="seating order (G1)")
    net: dict[str, int] = Field(description="player -> points won (+) or lost (-); sums to zero except "
                                            "for a 逃跑 forfeit (G2, H9)")
    transfers: list[TransferModel] = Field(description="every payment, in order")
    next_dealer: str | None = Field(description="who deals next; null after 逃跑 ends the game (H9)")
    roles: dict[str, list[Role]] = Field(description="player -> roles; players with none are left out")
    scores: dict[str, int] = Field(description="player -> counted 番/斤 (in 分: each winner's hand points)")
    unit: str = Field(description=_units())
    liable: str | None = Field(description="the 包牌/承包 player, or null")
    notes: list[str] = Field(description="rules applied once for the whole hand (金顶, 承包 ...)")
    forfeit: ForfeitModel | None = Field(None, description="present only for a forfeited 逃跑 penalty (H9)")
    score_items: dict[str, list[ScoreItemModel]] = Field(description="player -> the items behind the score")
    liable_rule: str | None = Field(description="the ruling that made `liable` liable (H7 a/b/c, W11 a/b, G7), "
                                                "or null")
    reading: ReadingModel | None = Field(description="with win.tiles: the reading kept; else null")
    reasons: list[StepModel] = Field(description="the notes as data, in the same order (金顶, 承包, 陪炮 ...)")
    format_version: Literal[FORMAT_VERSION] = Field(  # type: ignore[valid-type]
        description="the version of this output (CHANGELOG.md)")


def result_schema() -> Json:
    """The JSON result of one hand, from :class:`ResultModel`."""
    raw = ResultModel.model_json_schema(ref_template="#/definitions/{model}")
    definitions = raw.pop("$defs", {})
    return {"$schema": DRAFT, **raw, "definitions": definitions}


class ProblemModel(_Out):
    """One problem of a bad hand, as in ``settle batch --format jsonl`` (``Problem.as_dict``)."""

    path: str = Field(description="the key path (`win.fans[0]`), or `(top level)`")
    message: str
    line: int | None = Field(None, description="the line in the input file, when known")
    column: int | None = Field(
        None, ge=1, description="the 1-based column (code points) of the key on that line, when known (issue 16 #9)"
    )
    hand: str | None = Field(None, description="the hand's `id` or `file:index`")


class ErrorLineModel(_Out):
    """A bad hand's line in ``settle batch --format jsonl``: its label and every problem found."""

    id: str = Field(description="the hand's `id`, or `file:index`")
    error: list[ProblemModel] = Field(min_length=1)


def line_schema() -> Json:
    """One line of ``settle batch --format jsonl``: a settled hand (the result, with its ``id``) or a
    bad hand's ``{"id", "error": [...]}`` (HAND-FORMAT.md "Output")."""
    result = ResultModel.model_json_schema(ref_template="#/definitions/{model}")
    error = ErrorLineModel.model_json_schema(ref_template="#/definitions/{model}")
    definitions = {**result.pop("$defs", {}), **error.pop("$defs", {}), "Result": result, "ErrorLine": error}
    return {"$schema": DRAFT, "title": "settle batch JSON Lines line",
            # draft-07 ignores keywords beside a $ref, so the batch's required id goes in an allOf.
            "oneOf": [{"allOf": [{"$ref": "#/definitions/Result"}, {"required": ["id"]}]},
                      {"$ref": "#/definitions/ErrorLine"}],
            "definitions": definitions}


# --- helpers for tests and docs -------------------------------------------------------------------


def enums(node: Any) -> Iterator[list[Any]]:
    """Every ``enum`` list inside a schema (for checks that each vocabulary spelling is offered)."""
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield node["enum"]
        for value in node.values():
            yield from enums(value)
    elif isinstance(node, list):
        for item in node:
            yield from enums(item)
