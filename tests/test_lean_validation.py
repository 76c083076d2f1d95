"""The lean schema and the explaining validation agree (issue 14).

:func:`settle.engine.validation.lean_hand` validates a hand with the region's lean schema
(:func:`settle.model.lean_schema`: pydantic-core without the models' Python validators, which it
does around it); the explaining validation (the region's ``Hand`` model, ``model_validate``) runs
only for a hand the lean one refuses.  On the bad-input corpus (``tests/bad/``), the fixtures
(``fixtures/``) and a few thousand mutated hands (keys deleted, renamed and duplicated, types
swapped, odd numbers, other spellings and odd Unicode), the lean schema must accept a hand exactly
when the explaining validation does, and give the same normalised hand: the same classes, the
same values of the same types, the same keys in the same order, the same fields set.

The checks decide "all clear" in one walk and build their messages only for a hand they do not
clear (:func:`settle.rules.checks.all_clear`, each region's ``all_clear``): on every hand that
validates, the walk clears it exactly when the explaining checks find no problem.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from settle.engine.validation import lean_hand, validate_model
from settle.errors import HandError, Problem
from settle.loader import iter_documents
from settle.model import Hand, lean_json_schema, lean_schema
from settle.rules import checks
from settle.rules.registry import Region, get_region, region_key
from settle.rules.rushan import checks as rushan_checks
from settle.rules.wuhan import checks as wuhan_checks
from settle.rules.wuxue import checks as wuxue_checks
from settle.vocab import WIN_TYPES
from tests.helpers import key_paths, parent_of
from tests.strategies import any_hand

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted(p for p in (ROOT / "tests" / "bad").rglob("*") if p.is_file() and p.name != "expected.yaml")
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.suffix in (".yaml", ".yml", ".json", ".jsonl"))
MUTANTS_PER_DOCUMENT = 40

REGION_CHECKS: dict[str, tuple[Callable[[Any], bool], Callable[[Any], list[Problem]]]] = {
    "wuhan": (wuhan_checks.all_clear, wuhan_checks._problems),
    "wuxue": (wuxue_checks.all_clear, wuxue_checks._problems),
    "rushan": (rushan_checks.all_clear, rushan_checks._problems),
}
"""Each region's one-walk test and its explaining checks."""


# --- the two validations, and what they give -----------------------------------------------------------


def explained(region: Region, data: dict[str, Any]) -> Hand | None:
    """The hand the explaining validation gives, or None when it refuses ``data``."""
    try:
        return region.hand_model.model_validate({**data, "region": region.key})
    except ValidationError:
        return None


def snapshot(value: Any) -> Any:
    """``value`` as nested tuples that tell apart what ``==`` does not: classes, ``True`` and ``1``,
    the order of a mapping's keys, a model's fields set."""
    if isinstance(value, BaseModel):
        return (type(value).__qualname__, tuple(sorted(value.model_fields_set)),
                tuple((name, snapshot(getattr(value, name))) for name in type(value).model_fields))
    if isinstance(value, dict):
        return ("dict", tuple((snapshot(k), snapshot(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(snapshot(v) for v in value))
    return (type(value).__name__, value)


def region_of(data: Any) -> Region | None:
    """The region a document names, or None when the region itself is refused (both validations
    then never run: :func:`validate_model` refuses it before)."""
    if not isinstance(data, dict) or "region" not in data:
        return None
    try:
        return get_region(region_key(data["region"]))
    except HandError:
        return None


def agree(data: Any) -> bool | None:
    """Assert that the lean and the explaining validation agree on ``data`` (and, when it validates,
    that the checks' one walk agrees with their explanations); whether it validated (None when the
    region is refused)."""
    region = region_of(data)
    if region is None:
        return None
    expected = explained(region, data)
    got = lean_hand(region, data)
    assert (got is not None) == (expected is not None), (
        f"lean {'accepts' if got is not None else 'refuses'}, the explaining validation "
        f"{'accepts' if expected is not None else 'refuses'}: {data!r}")
    if expected is None or got is None:
        return False
    assert snapshot(got) == snapshot(expected), data
    common = checks._problems(expected, region)
    assert checks.all_clear(got, region) is (not common), (data, common)
    if not common:
        clear, problems = REGION_CHECKS[region.key]
        assert clear(got) is (not problems(expected)), (data, problems(expected))
    return True


# --- mutations ----------------------------------------------------------------------------------------

SPELLINGS: list[str] = [
    *(s for t in WIN_TYPES.values() for s in t.spellings()),
    *(s for r in ("wuhan", "wuxue", "rushan")
      for t in (*get_region(r).patterns.values(), *get_region(r).kongs.values()) for s in t.spellings()),
    "抢槓", "搶杠", "點炮", "Exposed", "EXPOSED", " exposed ", "exposed\u3000", "\u3000hard", "\x1cexposed",
    "exposed\x1f", "HARD", "Qingyise", "ｅｘｐｏｓｅｄ", "self-draw", "selfdraw", "niupai", "牛", "qidui", "pizi",
    "laizi",
]
"""Words put where a vocabulary word goes: every spelling of every region, mixed scripts, other case,
spaces (ideographic ones too), control characters Python strips and pydantic-core does not,
full-width letters, near misses and other regions' words."""

NOBODY_WORDS = ["none", "None", " NONE ", "nobody", "无", "無人", "none\x1f", "\x1dnone", "none\u3000", "nonе",
                "ｎｏｎｅ"]
"""Spellings of ``liable: none``, and look-alikes (a Cyrillic е, full-width letters)."""

ODD_NAMES = ["A", "A ", " A", "a", "Ａ", "A\u3000", "\u200bA", "A\x1f", "\x1cA", "", " ", "\t", "A\nB", "x" * 40,
             "x" * 41, "İ", "ß", "东", "東", "🀄", "none", "無", 1, 0, True, None, 1.5]
"""Names: trimmed alike, full-width, zero-width and control characters, too long, not text."""

ODD_VALUES: list[Any] = [None, True, False, 0, 1, 2, 3, 4, 5, -1, 64, 65, 10**9, 10**9 + 1, 2**63, 10**30, 1.0, 1.5, "",
                         "1", "x", "true", [], [1], ["A"], ["A", "B", "C", "D", "A"], {}, {"a": 1}, {"exposed": 1}]
"""Values swapped in: other types, bounds and just past them, floats, text for numbers."""

KEY_ALIASES = {"fans": ["jin", "fan"], "jin": ["fans"], "from": ["from_", "From", "from "], "players": ["player"],
               "winner": ["winer"], "opens": ["open", "opens "], "kongs": ["kong"], "options": ["option"]}
"""Keys renamed to their aliases, to the Python attribute name (``from_``), to near misses."""


def _odd_word(rng: random.Random, key: Any) -> Any:
    if key == "liable":
        return rng.choice(NOBODY_WORDS + ODD_NAMES)
    if key in ("winner", "from", "dealer", "by") and rng.random() < 0.5:
        return rng.choice(SPELLINGS if key == "by" else ODD_NAMES)
    return rng.choice(SPELLINGS + ODD_NAMES)


def mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``data`` with one to four changes: a key deleted, renamed (to an alias, a near miss, another
    spelling of the same word) or given twice in two spellings (``fans`` and ``jin``, ``exposed``
    and ``直杠``, ``A`` and ``A ``), a value swapped (another type, a bound, another spelling, odd
    Unicode), a list entry repeated, a value wrapped in a list, players given as a list."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 4)):
        paths = [p for p in key_paths(data) if p != ("region",)]
        if not paths:
            break
        path = rng.choice(paths)
        parent, key = parent_of(data, path), path[-1]
        op = rng.choice(["delete", "swap", "swap", "word", "word", "rename", "twice", "twice", "repeat", "wrap",
                         "list_players"])
        if op == "delete":
            del parent[key]
        elif op == "swap":
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == "word":
            if isinstance(parent, list) or not isinstance(parent[key], dict | list):
                # the word's key: this one, or the list's or (a key renamed to a non-text, at the top) none
                parent[key] = _odd_word(rng, key if isinstance(key, str) else path[-2] if len(path) > 1 else "")
            else:  # a mapping key (a name, a kong kind) spelled otherwise
                node = parent[key]
                if isinstance(node, dict) and node:
                    old = rng.choice(list(node))
                    node[_odd_word(rng, path[-1])] = node.pop(old)
        elif op == "rename" and isinstance(parent, dict):
            new = rng.choice(KEY_ALIASES.get(key, [])) if key in KEY_ALIASES and rng.random() < 0.7 else \
                _odd_word(rng, key)
            with contextlib.suppress(TypeError):  # an unhashable key
                parent[new] = parent.pop(key)
        elif op == "twice" and isinstance(parent, dict):
            twin = rng.choice([*KEY_ALIASES.get(key, []), f"{key} ", f" {key}", str(key).upper()]) \
                if isinstance(key, str) else key
            if twin != key:
                parent[twin] = copy.deepcopy(parent[key])
        elif op == "repeat" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif op == "list_players" and isinstance(data.get("players"), dict):
            data["players"] = list(data["players"])
        elif op == "wrap":
            parent[key] = [parent[key]]
    return data


# --- documents -----------------------------------------------------------------------------------------


def documents(path: Path) -> list[dict[str, Any]]:
    """The hand documents of a file; the hands of a session file with its header's region and players."""
    out: list[dict[str, Any]] = []
    header: dict[str, Any] = {}
    for item in iter_documents(path.read_bytes(), str(path)):
        if isinstance(item, HandError) or not isinstance(item.data, dict):
            continue
        data = dict(item.data)
        if "region" in data and "players" in data and not {"win", "draw", "abandon"} & set(data):
            header = {k: v for k, v in data.items() if k in ("region", "players")}
            continue
        out.append({**header, **data} if "region" not in data else data)
    return out


CORPUS_DOCUMENTS = [(p.relative_to(ROOT).as_posix(), d) for p in CORPUS for d in documents(p)]
FIXTURE_DOCUMENTS = [(p.relative_to(ROOT).as_posix(), d) for p in FIXTURES for d in documents(p)]


def test_there_is_something_to_compare() -> None:
    assert len(CORPUS_DOCUMENTS) > 80 and len(FIXTURE_DOCUMENTS) > 50


@pytest.mark.parametrize(("name", "data"), CORPUS_DOCUMENTS + FIXTURE_DOCUMENTS,
                         ids=[f"{n}#{i}" for i, (n, _) in enumerate(CORPUS_DOCUMENTS + FIXTURE_DOCUMENTS)])
def test_corpus_and_fixtures(name: str, data: dict[str, Any]) -> None:
    region = region_of(data)
    if region is not None:
        assert (lean_hand(region, data) is None) == (explained(region, data) is None), name
    agree(data)  # and the normalised hands, and the checks' one walk


def test_good_fixtures_take_the_lean_path() -> None:
    """Every fixture hand the explaining validation accepts, the lean schema accepts."""
    accepted = [name for name, data in FIXTURE_DOCUMENTS if agree(data)]
    assert len(accepted) > 40


def test_mutated_corpus_and_fixtures() -> None:
    """A few thousand seeded mutants of the corpus and the fixtures; both outcomes occur often."""
    outcomes = {True: 0, False: 0, None: 0}
    for name, data in CORPUS_DOCUMENTS + FIXTURE_DOCUMENTS:
        rng = random.Random(f"settle-lean:{name}:{sorted(map(str, data))}")
        for _ in range(MUTANTS_PER_DOCUMENT):
            outcomes[agree(mutate(data, rng))] += 1
    assert outcomes[True] > 500 and outcomes[False] > 2000, outcomes


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_hand(), st.randoms(use_true_random=False), st.integers(0, 3))
def test_mutated_generated_hands(data: dict[str, Any], rng: random.Random, changes: int) -> None:
    """Valid generated hands of every region (as they are, and with up to three rounds of changes)."""
    for _ in range(changes):
        data = mutate(data, rng)
    agree(data)


def test_generated_hands_validate_lean() -> None:
    """The hands the batch benchmark makes (bench/bench_batch.py) all take the lean path."""
    from bench.bench_batch import generate

    for data in generate(600, seed=14):
        region = get_region(data["region"])
        assert lean_hand(region, data) is not None, data
        assert agree(data)


def test_spellings_take_the_lean_path() -> None:
    """Aliases, traditional characters, other case and spaces: the spelled lean schema reads them."""
    data = {"region": "武漢",
            "players": {"A": None, "B ": {"kongs": {"直槓": 1}, "opens": 1}, "C": {}, "D": {"opens": 1}},
            "dealer": "A", "win": {"winner": "D", "by": " 點炮", "from": "A", "fans": ["HARD"], "liable": " 無人 "}}
    region = get_region("wuhan")
    hand = lean_hand(region, data)
    assert hand is not None and agree(data)
    assert hand.region == "wuhan" and list(hand.players) == ["A", "B", "C", "D"]
    assert hand.players["B"].kongs == {"exposed": 1} and hand.the_win.by == "discard"  # type: ignore[attr-defined]
    assert hand.the_win.fans == ["hard"] and hand.the_win.liable == "none"  # type: ignore[attr-defined]
    assert validate_model(data)[1] is not hand and validate_model(data)[1] == hand


def test_an_unknown_validator_is_not_skipped() -> None:
    """A Python validator the lean schema does not know makes it refuse to build (never skipped)."""
    from pydantic import field_validator

    from settle.rules.wuhan.model import WuhanHand

    class Checked(WuhanHand):
        @field_validator("dealer")
        @classmethod
        def _shout(cls, value: str | None) -> str | None:
            return value

    with pytest.raises(TypeError, match="_shout"):
        lean_schema(Checked)


def test_a_validator_that_explains_a_refusal_is_left_out_of_the_lean_options() -> None:
    """An options validator marked :func:`~settle.model.explains_refusal` does not run on the lean path (a
    Python call per hand saved, issue 14); the options' other validators (Wuhan's defaults from ``koukou``,
    H6 H9) still do, and the model's own schema still refuses what the marked one would have explained."""
    from pydantic import model_validator
    from pydantic_core import SchemaValidator

    from settle.model import Strict, _Lean, _lean_options, explains_refusal

    calls: list[str] = []

    class Options(Strict):
        cap: int = 32

        @model_validator(mode="before")
        @classmethod
        @explains_refusal
        def _explained(cls, data: Any) -> Any:
            calls.append("explained")
            return data

        @model_validator(mode="after")
        def _kept(self) -> Options:
            calls.append("kept")
            return self

    Options.model_rebuild()  # (the models build their schemas when first used)
    lean = SchemaValidator(_lean_options(Options.__pydantic_core_schema__, _Lean(False, [])))
    assert lean.validate_python({"cap": 64}).cap == 64
    assert calls == ["kept"]
    with pytest.raises(ValidationError):  # an unknown key: refused without the marked validator's words
        lean.validate_python({"niu": True})
    assert Options.model_validate({"cap": 64}).cap == 64  # the model itself runs both
    assert calls == ["kept", "explained", "kept"]


@pytest.mark.parametrize("key", ["牛牌", "niupai", " NiuPai ", "牛", "槓開牛牌"])
def test_rushan_niupai_options_are_refused_lean_and_explained(key: str) -> None:
    """R9: 牛牌 is not modelled.  Rushan's options validator saying so is left out of the lean schema, so
    the lean schema must refuse such options by itself (an unknown key), and the explaining validation
    then gives the message at ``options``."""
    data = {"region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "A", "options": {key: True},
            "win": {"winner": "B", "by": "self_draw", "fans": ["pihu"]}}
    region = get_region("rushan")
    assert lean_hand(region, data) is None
    with pytest.raises(ValidationError):  # the lean schema of a JSON Lines line's bytes too
        lean_json_schema(region.hand_model, "rushan").validator.validate_json(json.dumps(data))
    with pytest.raises(HandError) as caught:
        validate_model(data)
    [problem] = caught.value.problems
    assert problem.path == ("options",) and "not modelled" in problem.message
