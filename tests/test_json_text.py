"""A settled hand's JSON text (:meth:`Settlement.json_text`, the batch's JSON line) is the very text
``json.dumps(record, ensure_ascii=False)`` writes (issue 14).

The text is joined from kept pieces (the steps' forms, the names with their punctuation, the roles,
the score items) instead of running the json encoder on the record, so these tests compare it with
``json.dumps`` of the fresh record (``shared=False``) on: the benchmark's generated hands, every
fixture and the golden inputs of the three regions (Rushan with several winners, a Wuhan escape with
its forfeit, tile hands with a ``reading``), in English and Chinese; players and ids of hostile
text (quotes, backslashes, ``%``, control characters, lone surrogates, U+2028); values of unusual
types (a bool where an int goes, a float, a Fraction, an int id); and the kept tables stay bounded.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import sys
from collections.abc import Iterator
from enum import IntEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from settle import settle_hand
from settle.core import Settlement, Step, Transfer
from settle.engine.batch import Outcome, encode, json_line, record
from settle.errors import HandError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_batch import generate  # noqa: E402

settlement_module = importlib.import_module("settle.core.settlement")
text_module = importlib.import_module("settle.core.text")

LANGS = ("en", "zh")


def dumped(outcome: Outcome, lang: str) -> str:
    """What the line must be: json.dumps of the record with every container fresh."""
    return json.dumps(record(outcome, lang, shared=False), ensure_ascii=False)


def settled(hands: Iterator[dict[str, Any]] | list[dict[str, Any]]) -> list[Outcome]:
    """The hands that settle, as the batch labels them (their id, else ``hand:index``)."""
    out = []
    for index, hand in enumerate(hands):
        try:
            result = settle_hand(hand)
        except HandError:
            continue
        out.append(Outcome(str(hand.get("id", f"hand:{index}")), result))
    return out


ESCAPE = {"id": "escape", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
          "options": {"escape_paid_to": "none"}, "abandon": {"by": "B"}}
"""逃跑 with the penalty paid to nobody: a ``forfeit`` (H9)."""


def fixture_outcomes() -> list[Outcome]:
    """Every fixture hand of the three regions and the tile fixtures, the golden inputs, :data:`ESCAPE`."""
    hands: list[dict[str, Any]] = [ESCAPE]
    for path in sorted((ROOT / "fixtures").glob("*/*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            hands += doc if isinstance(doc, list) else [doc]
    for path in sorted((ROOT / "tests" / "golden" / "inputs").glob("*.jsonl")):
        hands += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return settled([hand for hand in hands if isinstance(hand, dict) and "region" in hand])


FIXTURES = fixture_outcomes()


def test_the_fixtures_cover_every_kind_of_hand() -> None:
    """The corpus below has what the text must get right (else the comparisons prove less)."""
    results = [o.result for o in FIXTURES if o.result is not None]
    assert {r.region for r in results} == {"wuhan", "wuxue", "rushan"}
    assert any(len(r.winners()) > 1 for r in results if r.region == "rushan")  # 一炮多响
    assert any(r.forfeit is not None for r in results)  # Wuhan 逃跑, escape paid to nobody
    assert any(r.reading is not None for r in results)  # tile hands
    assert any(r.liable is not None for r in results)  # 承包/包胡
    assert any(t.cap is not None for r in results for t in r.transfers)
    assert any(len(r.players) < 4 for r in results)  # Wuxue with 2 or 3 seats
    assert any(not r.transfers for r in results)  # 荒庄


@pytest.mark.parametrize("lang", LANGS)
def test_fixture_and_golden_hands_are_json_dumps(lang: str) -> None:
    for _ in range(2):  # the second time from the kept pieces
        for outcome in FIXTURES:
            assert json_line(outcome, lang) == dumped(outcome, lang), outcome.label


@pytest.mark.parametrize("lang", LANGS)
def test_generated_hands_are_json_dumps(lang: str) -> None:
    outcomes = settled(generate(3000, seed=41))
    assert len(outcomes) == 3000
    for _ in range(2):
        for outcome in outcomes:
            assert json_line(outcome, lang) == dumped(outcome, lang), outcome.label


@pytest.mark.parametrize("lang", LANGS)
def test_json_text_without_a_label_writes_the_hands_own_id(lang: str) -> None:
    for hand in list(generate(300, seed=3)):
        result = settle_hand(hand)
        assert result.id == hand["id"]
        assert result.json_text(lang) == json.dumps(result.as_dict(lang), ensure_ascii=False)
        anonymous = dataclasses.replace(result, id=None)
        text = anonymous.json_text(lang)
        assert text == json.dumps(anonymous.as_dict(lang), ensure_ascii=False)
        assert text.startswith('{"region": ')


def test_the_batch_writes_the_same_bytes() -> None:
    """The chunk a worker hands the parent: the lines joined, UTF-8 with surrogatepass."""
    outcomes = [*FIXTURES[:40], Outcome("id \udc80 \u2028 \"q\"", FIXTURES[0].result)]
    for lang in LANGS:
        want = "".join(dumped(o, lang) + "\n" for o in outcomes).encode("utf-8", "surrogatepass")
        assert encode(outcomes, "jsonl", lang=lang).data == want
        want = ",\n".join(dumped(o, lang) for o in outcomes).encode("utf-8", "surrogatepass")
        assert encode(outcomes, "json", lang=lang).data == want


HOSTILE_NAMES = ['a"b', "c\\d", "%s", "100%", "%%d", "\u2028x", "y\u2029", "🀄", "é\u00e9", "张三",
                 '{"from": "x"}', "null", "a" * 40]
"""Names the hand files may hold (no control characters or surrogates: the model refuses those)."""


def hostile_hands() -> Iterator[dict[str, Any]]:
    """Hands of every region with hostile names in every seat, winning, discarding, liable."""
    for start in range(0, len(HOSTILE_NAMES), 2):
        names = (HOSTILE_NAMES[start:] + HOSTILE_NAMES)[:4]
        a, b, c, d = names
        yield {"id": f"{a}|{b}", "region": "wuhan", "players": names, "dealer": a,
               "win": {"winner": b, "by": "discard", "from": c, "liable": "none"}, "fans": dict.fromkeys(names, 2)}
        yield {"region": "wuhan", "players": {a: {}, b: {"opens": [a, c, d]}, c: {}, d: {"kongs": {"exposed": 1},
                                                                                        "opens": 1}},
               "dealer": d, "win": {"winner": b, "by": "self_draw", "fans": ["qingyise"]}}
        yield {"region": "wuhan", "players": names, "dealer": a, "abandon": {"by": c},
               "options": {"escape_paid_to": "none"}}
        yield {"region": "wuxue", "players": names[:3], "dealer": a, "jin": {a: 1, b: 2, c: 3},
               "win": {"winner": c, "by": "self_draw"}}
        yield {"region": "rushan", "players": {a: {"fish": 1}, b: {}, c: {"fish": 2}, d: {}}, "dealer": a,
               "options": {"multi_win": True},
               "win": [{"winner": b, "by": "discard", "from": a, "fans": ["pengpenghu"]},
                       {"winner": c, "by": "discard", "from": a, "fans": ["qidui"]}]}


@pytest.mark.parametrize("lang", LANGS)
def test_hostile_names_are_escaped_as_json_dumps_does(lang: str) -> None:
    outcomes = settled(list(hostile_hands()))
    assert len(outcomes) == 5 * len(range(0, len(HOSTILE_NAMES), 2))  # every hand settles
    assert any(o.result is not None and o.result.forfeit is not None for o in outcomes)
    for outcome in outcomes:
        assert json_line(outcome, lang) == dumped(outcome, lang), outcome.label
    line = json_line(outcomes[0], lang)
    assert line.startswith('{"id": "a\\"b|c\\\\d", "region": "wuhan", "players": ["a\\"b", "c\\\\d", "%s", "100%"], ')


HOSTILE_IDS = ["", '"', "\\", "\x00\x1f\x7f", "\udc80\udcff", "\ud800", "\ud83d\ude00", "\u2028\u2029", "%s%d%%",
               "\n\r\t\b\f", "中文 id"]


@pytest.mark.parametrize("label", HOSTILE_IDS)
def test_any_text_id_is_escaped_as_json_dumps_does(label: str) -> None:
    # An id the loader kept as it read it: a lone surrogate from surrogateescape/surrogatepass input too.
    for outcome in FIXTURES[:20]:
        labelled = Outcome(label, outcome.result)
        for lang in LANGS:
            assert json_line(labelled, lang) == dumped(labelled, lang)


def renamed(result: Settlement, new: dict[str, str]) -> Settlement:
    """``result`` with its players renamed in every field that names them (the steps keep the old names)."""
    def n(name: str | None) -> str | None:
        return None if name is None else new[name]

    return dataclasses.replace(
        result, players=tuple(new[p] for p in result.players), net={new[k]: v for k, v in result.net.items()},
        transfers=tuple(dataclasses.replace(t, payer=new[t.payer], payee=new[t.payee]) for t in result.transfers),
        next_dealer=n(result.next_dealer), roles={new[k]: v for k, v in result.roles.items()},
        scores={new[k]: v for k, v in result.scores.items()},
        score_steps={new[k]: v for k, v in result.score_steps.items()}, liable=n(result.liable),
        forfeit=None if result.forfeit is None else
        dataclasses.replace(result.forfeit, payer=new[result.forfeit.payer]))


def _first(test: Any) -> Settlement:
    found = next(o.result for o in FIXTURES if o.result is not None and test(o.result))
    assert found is not None
    return found


BASES = [
    _first(lambda r: r.liable is not None and r.region == "wuhan"),
    _first(lambda r: r.forfeit is not None),
    _first(lambda r: r.region == "rushan" and len(r.winners()) > 1),
    _first(lambda r: r.region == "wuxue" and len(r.players) == 3),
    _first(lambda r: r.reading is not None),
    _first(lambda r: not r.transfers),
]
"""Settlements of each kind, to rename."""

ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=6)
"""Any text at all: control characters, lone surrogates, U+2028 ..."""


@settings(max_examples=150, deadline=None)
@given(names=st.lists(ANY_TEXT, min_size=4, max_size=4, unique=True), label=st.one_of(ANY_TEXT, st.none()),
       base=st.sampled_from(BASES), lang=st.sampled_from(LANGS))
def test_any_text_names_and_ids_are_json_dumps(names: list[str], label: str | None, base: Settlement,
                                               lang: str) -> None:
    result = renamed(base, dict(zip(base.players, names, strict=False)))
    want = json.dumps(result.as_dict(lang, label=label), ensure_ascii=False)
    assert result.json_text(lang, label=label) == want
    assert result.json_text(lang, label=label) == want  # from the kept pieces
    # The bytes the batch writes: the same text in UTF-8, a lone surrogate as its three bytes.
    assert result.json_bytes(lang, label=label) == want.encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("lang", LANGS)
def test_a_chunk_is_its_lines_in_utf8(lang: str) -> None:
    """encode() joins the hands' JSON bytes: the chunk is every line's json.dumps text and a newline, in
    UTF-8 (JSON Lines), or the lines joined by ",\n" (the JSON array's items); a bad hand's line too."""
    bad = Outcome("bad\ud800", error=HandError.at(("players",), "missing"))
    outcomes = [*FIXTURES[:40], bad, *FIXTURES[40:80]]
    lines = [json.dumps(record(o, lang, shared=False), ensure_ascii=False) for o in outcomes]
    assert encode(outcomes, "jsonl", lang=lang).data == ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    assert encode(outcomes, "json", lang=lang).data == ",\n".join(lines).encode("utf-8", "surrogatepass")
    assert encode([], "jsonl", lang=lang).data == b""


class Points(IntEnum):
    TEN = 10


def test_values_of_unusual_types_are_written_as_json_dumps_writes_them() -> None:
    """A bool is ``true`` (never ``1``), an int subclass its number, a float as json writes it (NaN
    too), an int id a number; a name not seated, a cap not known, roles as lists: the long way."""
    base = BASES[0]
    a, b = base.players[:2]
    step = Step("", "power", {"loser": 1, "winner": 2})
    changes: list[dict[str, Any]] = [
        {"net": {**base.net, a: True}}, {"net": {**base.net, a: False}}, {"scores": {**base.scores, a: True}},
        {"scores": {**base.scores, b: 1.5}}, {"scores": {**base.scores, b: math.nan}}, {"net": {a: Points.TEN}},
        {"transfers": (Transfer(a, b, True, (step,), None, base.catalog),)},
        {"transfers": (Transfer(a, b, Points.TEN, (step,), None, base.catalog),)},
        {"transfers": (Transfer(a, "nobody seated", 10, (step,), "capped", base.catalog),)},
        {"transfers": (Transfer(a, b, 10, (step,), "a cap not known", base.catalog),)},
        {"transfers": (Transfer(a, b, 10, (Step("", "power", {"loser": [1], "winner": 2}),), None, base.catalog),)},
        {"reasons": (Step("H5", "cap_reached", {"limit": "tab\t", "label": "\u2028"}),)},
        {"roles": {a: ["dealer"], b: ()}}, {"id": 7}, {"id": True}, {"id": None}, {"next_dealer": "somebody else"},
        {"liable": "李"}, {"liable": 3}, {"region": "%s"}, {"unit": None}, {"liable_rule": "H7 \"c\""},
        {"players": list(base.players)}, {"net": {1: 0, a: 0}}, {"reading": {"fans": ("x",), "left": Fraction(3, 2)}},
        {"reading": {"winner": "B", "fans": ["pihu"], "substitutions": [{"wildcard": "6s", "as": "2m"}],
                     "considered": 2}},
        {"reading": {"fans": ("x",), "as": ({"a": None, "b": True},)}}, {"reading": {True: 1}},
        {"reading": {"a": [{"b": Fraction(1, 2)}]}}, {"reading": {"a": [{1: "x"}]}}, {"reading": {"a": (1, [2])}},
        {"reading": {"a": [step]}}, {"reading": {"a": step}}, {"reading": {"a": {"b": 1}}},
        {"reading": {"a": Points.TEN}}, {"reading": {"a": [1.5, math.nan]}},
    ]
    for change in changes:
        result = dataclasses.replace(base, **change)
        for lang in LANGS:
            for label in (None, "x", 12):
                want = json.dumps(result.as_dict(lang, label=label), ensure_ascii=False)
                assert result.json_text(lang, label=label) == want, change
    text = dataclasses.replace(base, net={**base.net, a: True}).json_text()
    assert f'"net": {{{json.dumps(a, ensure_ascii=False)}: true, ' in text


def test_what_json_cannot_write_fails_as_json_dumps_fails() -> None:
    result = dataclasses.replace(BASES[0], net={BASES[0].players[0]: Fraction(1, 2)})
    with pytest.raises(TypeError):
        json.dumps(result.as_dict())
    with pytest.raises(TypeError):
        result.json_text()


def test_the_kept_tables_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands with players, amounts and steps never seen before fill every table to its bound, then
    start it again (a file of millions of hands with distinct names does not grow memory)."""
    bounds = {"ITEM_FORMS_KEPT": 50, "SHAPES_KEPT": 20, "PARTS_KEPT": 50, "DIGITS_KEPT": 50, "WORDS_KEPT": 40}
    for name, bound in bounds.items():
        monkeypatch.setattr(settlement_module, name, bound)
    monkeypatch.setattr(text_module, "WORDS_KEPT", 40)
    tables = {"_SHAPES_JSON": 20, "_USUAL_SHAPES": 20, "_ROLES_KEPT": 20, "_SCORES_KEPT": 20, "_TALLY_JSON": 50,
              "_TALLIES_HELD": 50, "_DIGITS": 50}
    for name in tables:
        monkeypatch.setattr(settlement_module, name, type(getattr(settlement_module, name))())
    monkeypatch.setattr(settlement_module, "_PARTS_FILLED", [0])
    catalogs = {id(b.catalog): b.catalog for b in BASES}.values()
    kept = ("_words", "_notes", "_notes_held", "_pieces", "_pieces_held")
    for catalog in catalogs:  # kept texts only: emptied, they are made again
        for name in kept:
            getattr(catalog, name).clear()
        catalog.json_forms.clear()
    for i in range(400):
        base = BASES[i % len(BASES)]
        result = renamed(base, {name: f"{name}{i}" for name in base.players})
        a, b = result.players[:2]
        result = dataclasses.replace(
            result, scores={k: v + i for k, v in result.scores.items()}, unit=f"unit {i}", liable_rule=f"rule {i}",
            transfers=(*result.transfers, Transfer(a, b, i, (Step("", "power", {"loser": 1, "winner": 2, "base": i}),),
                                                   None, result.catalog)),
            reasons=(Step("H5", "cap_reached", {"limit": i, "label": "封顶"}),),
            score_steps={**result.score_steps, a: Step("", "tally", {"total": i, "stated": True, "items": ()})})
        for lang in LANGS:
            want = json.dumps(result.as_dict(lang, label=str(i)), ensure_ascii=False)
            assert result.json_text(lang, label=str(i)) == want
        for name, bound in tables.items():  # these hands' shapes are not the usual: none kept as such
            assert (name != "_USUAL_SHAPES") <= len(getattr(settlement_module, name)) <= bound, name
        parts = [*settlement_module._ROLES_KEPT.values(), *settlement_module._SCORES_KEPT.values()]
        assert 0 < sum(map(len, parts)) <= 50
        for catalog in catalogs:
            assert all(len(table) <= 40 for forms in catalog.json_forms.values() for table in forms)
        for catalog in catalogs:
            assert all(len(getattr(catalog, name)) <= 40 for name in kept)
    assert all(max(len(getattr(c, name)) for c in catalogs) > 0 for name in kept)
