"""The lean path of a tile hand in a batch (issue 14, tile-level target).

* A JSON Lines line with ``win.tiles`` is validated straight from its bytes
  (:func:`settle.engine.validation.lean_line`) into the very ``Hand`` the loader and
  :func:`settle.engine.validation.validate_model` make, and a key written twice anywhere in the
  tiles (which the JSON reader keeps the last of) leaves the line to the loader, which refuses it.
* The tile catalog's ``notes_json`` writes the texts the plain catalog writes, and
  :func:`settle.tiles.messages.form_json` is ``dumps(step.as_dict())`` for every step.
"""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from settle import settle_hand
from settle.core import Catalog, Step
from settle.core.text import dumps
from settle.engine.tilelevel.reasons import ReadingStep, fan_items
from settle.engine.validation import lean_line, validate_model
from settle.rules.registry import get_region
from settle.tiles.messages import TILES, TileCatalog, form_json, tile_catalog
from tests.test_lean_validation import snapshot

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_tiles import hand_document  # noqa: E402

RUSHAN = ('{"region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "A", "id": 3, '
          '"win": {"winner": "B", "by": "self_draw", "tiles": {"hand": "88m334455678p222s", "win_tile": "8m"}}}')


def bench_lines(count: int) -> list[bytes]:
    """The bench's tile hands of the three regions (melds, indicators, Chinese names) as JSON lines."""
    rng = random.Random(1414)
    return [json.dumps({"id": f"h{i}", **hand_document(rng, i)}, ensure_ascii=False).encode() + b"\n"
            for i in range(count)]


def test_a_tile_line_is_validated_from_its_bytes() -> None:
    got = lean_line(RUSHAN.encode() + b"\n")
    assert got is not None  # before issue 14's tile work: None (every tile hand went through the loader)
    region, hand = validate_model(json.loads(RUSHAN))
    assert got[0] is region
    assert snapshot(got[1]) == snapshot(hand)
    assert got[1].win.tiles.hand == "88m334455678p222s" and got[1].win.tiles.win_tile == "8m"


def test_bench_tile_lines_give_the_loaders_hand() -> None:
    taken = 0
    for raw in bench_lines(300):
        got = lean_line(raw)
        if got is None:
            continue
        taken += 1
        region, hand = validate_model(json.loads(raw))
        assert got[0] is region and snapshot(got[1]) == snapshot(hand), raw
    assert taken == 300  # every one is plain JSON with keys written once


@pytest.mark.parametrize("twice", [
    '"hand": "11m", ',  # win.tiles.hand written twice (the JSON reader keeps the last, the loader refuses)
    '"win_tile": "2m", ',
    '"win_tile": "8m", ',  # the same value twice: refused by the loader all the same
])
def test_a_key_written_twice_in_the_tiles_is_left_to_the_loader(twice: str) -> None:
    line = RUSHAN.replace('"tiles": {', '"tiles": {' + twice)
    assert lean_line(line.encode() + b"\n") is None


def test_a_key_written_twice_in_a_meld_is_left_to_the_loader() -> None:
    line = ('{"region": "rushan", "players": ["A", "B", "C", "D"], "dealer": "A", "win": {"winner": "B", '
            '"by": "self_draw", "tiles": {"hand": "88m334455p222s", "win_tile": "8m", '
            '"melds": [{"kind": "chow", "tiles": "678p", "from": "A", "from": "A"}]}}}')
    assert lean_line(line.encode() + b"\n") is None
    once = line.replace('"from": "A", "from": "A"', '"from": "A"')
    assert lean_line(once.encode() + b"\n") is not None


def plain_catalog(region_key: str) -> Catalog:
    """The catalog a tile settlement was worded by before issue 14's tile work: the tile words in front
    of the region's, a plain :class:`Catalog`."""
    return Catalog(TILES.templates, parent=get_region(region_key).catalog, name="plain")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tile_notes_json_is_the_plain_catalogs(lang: str) -> None:
    plain = {key: plain_catalog(key) for key in ("wuhan", "wuxue", "rushan")}
    compared = 0
    for raw in bench_lines(240):
        document = json.loads(raw)
        try:
            settlement = settle_hand(document)
        except Exception:
            continue
        catalog = settlement.catalog
        assert type(catalog) is TileCatalog
        for _ in range(2):  # the second time the runs' texts are kept
            assert catalog.notes_json(settlement.reasons, lang) == \
                plain[document["region"]].notes_json(settlement.reasons, lang)
        compared += 1
    assert compared > 120  # about 60% of the bench hands settle


def reading_like(**changes: Any) -> Step:
    """A ``tiles_reading`` step as the tile level makes it, with ``changes`` to its ``tiles_read`` values."""
    read: dict[str, Any] = {"shape": "standard", "groups": ("88m", "345p"), "melds": (), "wildcard": None,
                            "wild": None, "read_as": ()}
    read.update(changes)
    return Step("", "tiles_reading", {"winner": "B", "read": Step("", "tiles_read", read),
                                      "fans": ({"key": "pihu", "zh": "屁胡"},)})


@pytest.mark.parametrize("step", [
    reading_like(),
    reading_like(melds=({"kind": "kong", "kong": "exposed", "tiles": "5555m"},), wildcard="癞子", wild="6s",
                 read_as=(("5m", 2), (None, 1))),
    reading_like(groups=["88m", "345p"]),  # a list: encoded from as_dict (the same text)
    reading_like(read_as=((Fraction(1, 2), 1),)),  # a Fraction: as_dict writes "1/2"
    reading_like(melds=({"kind": "pung", "tiles": ("7p",) * 3},)),
    reading_like(wild=Fraction(3, 1)),
    Step("R5", "self_draw_pays", {"winner": "B"}),
    Step("", "tiles_reading", {"winner": "B", "read": Step("", "tiles_read", {}), "fans": ()}),
    Step("", "tiles_reading", {"winner": 7, "read": Step("", "tiles_read", {}), "fans": ()}),
])
def test_form_json_is_dumps_of_the_form(step: Step) -> None:
    assert form_json(step) == dumps(step.as_dict()) == json.dumps(step.as_dict(), ensure_ascii=False)


def test_every_tile_settlement_reading_step_encodes_as_its_form() -> None:
    rushan = tile_catalog(get_region("rushan").catalog)
    assert type(rushan) is TileCatalog
    seen = 0
    for raw in bench_lines(150):
        try:
            settlement = settle_hand(json.loads(raw))
        except Exception:
            continue
        for item in settlement.reasons:
            if item.kind == "tiles_reading":
                assert form_json(item) == json.dumps(item.as_dict(), ensure_ascii=False)
                seen += 1
    assert seen > 70  # about 60% of the bench hands settle


def closed_reading(groups: tuple[str, ...]) -> Step:
    """The reading kept of a closed hand without wildcards, as the tile level makes it (a step that
    cannot be hashed)."""
    read = ReadingStep("", "tiles_read", {"shape": "standard", "groups": groups, "melds": (), "wildcard": None,
                                          "wild": None, "read_as": ()})
    return ReadingStep("", "tiles_reading", {"winner": "B", "read": read, "fans": ({"key": "pihu", "zh": "屁胡"},)})


def test_a_closed_reading_is_framed_between_kept_texts() -> None:
    catalog = tile_catalog(get_region("rushan").catalog)
    assert type(catalog) is TileCatalog
    self_draw = Step("R5", "self_draw_pays", {"winner": "B"})
    reading = closed_reading(("88m", "345p"))
    notes, forms = catalog.notes_json((self_draw, reading), "en")
    assert any(key[1] == "B" for key in catalog._framed)  # kept as a frame, not worded the general way
    # worked out from the templates: the R5 note, then "reading: <winner>'s tiles read as <groups> — <zh> <key>"
    assert notes == ('["自摸: B self-drew, every other player pays (R5)", '
                     '"reading: B\'s tiles read as 88m 345p — 屁胡 pihu"]')
    assert forms == ('[{"rule": "R5", "kind": "self_draw_pays", "values": {"winner": "B"}}, '
                     '{"rule": null, "kind": "tiles_reading", "values": {"winner": "B", "read": {"rule": null, '
                     '"kind": "tiles_read", "values": {"shape": "standard", "groups": ["88m", "345p"], "melds": [], '
                     '"wildcard": null, "wild": null, "read_as": []}}, "fans": [{"key": "pihu", "zh": "屁胡"}]}}]')
    # another hand's groups, the same frame: only the groups differ
    other = catalog.notes_json((self_draw, closed_reading(("111z", "99s"))), "en")
    assert other[0] == notes.replace("88m 345p", "111z 99s")
    assert other[1] == forms.replace('"88m", "345p"', '"111z", "99s"')


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_a_framed_reading_anywhere_is_the_plain_catalogs(lang: str, at: int) -> None:
    catalog = tile_catalog(get_region("rushan").catalog)
    plain = plain_catalog("rushan")
    others = [Step("R5", "self_draw_pays", {"winner": "B"}),
              Step("G4", "tiles_melds", {"winner": "B", "opens": 0, "feeders": (), "kongs": ()})]
    for groups in (("88m", "345p", "345p", "678p", "222s"), ("11z",), ("123m", "99s")):
        reasons = (*others[:at], closed_reading(groups), *others[at:])
        for _ in range(2):  # the second time from the kept frame
            assert catalog.notes_json(reasons, lang) == plain.notes_json(reasons, lang)


def test_fan_items_are_one_tuple_per_fans() -> None:
    rushan = get_region("rushan")
    items = fan_items(rushan, ("pihu",))
    assert items == ({"key": "pihu", "zh": "屁胡"},)  # the key and its 中文 name in the Rushan table (R1)
    assert fan_items(rushan, iter(["pihu"])) is items  # any iterable of the same keys: the same tuple
    assert fan_items(rushan, ()) == ()
    with pytest.raises(KeyError):
        fan_items(rushan, ("no_such_fan",))
