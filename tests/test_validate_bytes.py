"""A JSON Lines line validated straight from its bytes gives what the loader and validate_model give (issue 14).

:func:`settle.engine.validation.lean_line` validates a line's bytes with the region's
:func:`settle.model.lean_json_schema` (``validate_json``: no ``json.loads``, no plain dicts) and
takes the hand only when that is sound: a repeated key (which the JSON reader keeps the last of,
where the loader refuses the hand) shows as fewer keys in the hand than colons in the line, and
every line it does not decide goes to the loader as before.  Here every hand it takes must be the
one the loader's data and :func:`settle.engine.validation.validate_model` make (the same classes,
values, key order and fields set), on the corpus, the fixtures and their mutants written as JSON in
several styles, with keys written twice, escaped, and odd values (NaN, huge numbers, lone
surrogates, a BOM); and the batch must write the same bytes as the loader's path.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settle.engine.batch import encode
from settle.engine.batch.outcome import Outcome, settle_data
from settle.engine.batch.reading import _moved, jsonl_outcomes
from settle.engine.validation import lean_line, lean_lines, validate_model
from settle.errors import HandError
from settle.loader import Document, iter_documents
from settle.rules.registry import get_region
from tests.strategies import any_hand
from tests.test_lean_validation import CORPUS_DOCUMENTS, FIXTURE_DOCUMENTS, mutate, snapshot

SOURCE = "t.jsonl"

# --- JSON text, written in several ways ------------------------------------------------------------------

STYLES = [
    {"ascii": False, "item": ", ", "key": ": "},
    {"ascii": True, "item": ", ", "key": ": "},
    {"ascii": False, "item": ",", "key": ":"},
    {"ascii": False, "item": " ,\t", "key": " :  "},
]
"""How a line is written: ``\\u`` escapes or UTF-8, separators with and without spaces."""


def emit(value: Any, style: dict[str, Any], twice: tuple[Any, ...] | None = None, odd: Any = None,
         escaped: tuple[Any, ...] | None = None, path: tuple[Any, ...] = ()) -> str:
    """``value`` as JSON text in ``style``; the key at ``twice`` written twice (first with ``odd``, then
    with its own value: ``json.loads`` keeps the last), the key at ``escaped`` written in ``\\u`` escapes."""
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            here = (*path, key)
            name = json.dumps(str(key), ensure_ascii=style["ascii"])
            if here == escaped:
                name = '"' + "".join(f"\\u{ord(c):04x}" for c in str(key)) + '"'
            text = emit(item, style, twice, odd, escaped, here)
            if here == twice:
                parts.append(name + style["key"] + json.dumps(odd, ensure_ascii=style["ascii"]))
            parts.append(name + style["key"] + text)
        return "{" + style["item"].join(parts) + "}"
    if isinstance(value, list):
        items = (emit(v, style, twice, odd, escaped, (*path, i)) for i, v in enumerate(value))
        return "[" + style["item"].join(items) + "]"
    return json.dumps(value, ensure_ascii=style["ascii"])


def key_paths_of(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path of a mapping key below ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from key_paths_of(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from key_paths_of(item, (*path, i))


def lines_of(data: Any, rng: random.Random) -> Iterator[bytes]:
    """``data`` written as a line in every style, and with a key written twice and escaped."""
    if not isinstance(data, dict):
        return
    for style in STYLES:
        yield emit(data, style).encode() + b"\n"
    paths = list(key_paths_of(data))
    if paths:
        style = rng.choice(STYLES)
        path = rng.choice(paths)
        odd = rng.choice([None, 0, 1, "A", [], {}, True])
        yield emit(data, style, twice=path, odd=odd).encode() + b"\n"
        yield emit(data, style, twice=path, odd=_value_at(data, path)).encode() + b"\n"  # the same value twice
        yield emit(data, style, escaped=rng.choice(paths)).encode() + b"\n"


def _value_at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


# --- the two readings -----------------------------------------------------------------------------------


def reference(raw: bytes) -> tuple[str, Any, Any] | None:
    """What the loader and validate_model make of one line: (region key, hand, the loader's data), or
    None when either refuses it."""
    (item,) = list(iter_documents(io.BytesIO(raw), SOURCE, fmt="jsonl"))
    if isinstance(item, HandError):
        return None
    try:
        region, hand = validate_model(item.data)
    except HandError:
        return None
    return region.key, hand, item.data


def agree(raw: bytes) -> bool:
    """Assert that when :func:`lean_line` takes ``raw``, it gives the region and hand of the loader's
    path, with the id the label is made of; whether it took it."""
    got = lean_line(raw)
    if got is None:
        return False
    expected = reference(raw)
    assert expected is not None, f"lean_line takes a line the loader or validation refuses: {raw!r}"
    key, hand, data = expected
    assert got[0].key == key, raw
    assert snapshot(got[1]) == snapshot(hand), raw
    assert got[1].id == data.get("id") and type(got[1].id) is type(data.get("id")), raw
    return True


DOCUMENTS = [data for _, data in CORPUS_DOCUMENTS + FIXTURE_DOCUMENTS]


def test_corpus_fixtures_and_mutants_in_every_style() -> None:
    taken = refused = 0
    for n, data in enumerate(DOCUMENTS):
        rng = random.Random(f"settle-bytes:{n}")
        for variant in [data] + [mutate(data, rng) for _ in range(12)]:
            for raw in lines_of(variant, rng):
                if agree(raw):
                    taken += 1
                else:
                    refused += 1
    assert taken > 1000 and refused > 2000, (taken, refused)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_hand(), st.randoms(use_true_random=False), st.integers(0, 2))
def test_mutated_generated_hands(data: dict[str, Any], rng: random.Random, changes: int) -> None:
    for _ in range(changes):
        data = mutate(data, rng)
    for raw in lines_of(data, rng):
        agree(raw)


def test_generated_hands_are_read_from_their_bytes() -> None:
    """The batch benchmark's hands (bench/bench_batch.py) all take the bytes path, written as it writes them."""
    from bench.bench_batch import generate

    for data in generate(600, seed=14):
        raw = json.dumps(data, ensure_ascii=False).encode() + b"\n"
        assert agree(raw), raw


CONTROLS = ["\x7f", "\x80", "\x85", "\x9f", "\xa0", "\u2028", "\u2029", "\u2027", "\u202f", "\x01", "\n", "\t",
            "东"]
"""Characters the patterns of names and ids refuse, or that are near them: raw in a line's bytes (DEL, C1,
the separators, where the lean schema's plain validator must not be used) or escaped by ``json.dumps``."""

WUHAN = {"region": "wuhan", "players": {"A": {"opens": 1}, "B": {}, "C": None, "D": {"kongs": {"concealed": 1}}},
         "dealer": "A", "win": {"winner": "A", "by": "self_draw"}, "id": "x1"}


@pytest.mark.parametrize("text", [
    '{"region": "wuhan", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": {"A": {}, "A": {"opens": 1}, "B": {}, "C": {}}, "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": {"A": {}, "A ": {}, "B": {}, "C": {}}, "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": ["A", "A", "B", "C"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": ["A", " A", "B", "C"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": {"A": {"opens": 1, "opens": 2}, "B": {}, "C": {}, "D": {}}, "dealer": "A", '
    '"draw": true}',
    '{"region": "wuhan", "players": {"A": {"kongs": {"concealed": 1, "concealed": 2}}, "B": {}, "C": {}, "D": {}}, '
    '"dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "fans": {"A": 1, "A": 2, "B": 0, "C": 0, '
    '"D": 0}, "win": {"winner": "A", "by": "self_draw"}}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "win": {"winner": "A", "winner": "B", '
    '"by": "self_draw"}}',
    '{"region": "wuxue", "players": ["A", "B", "C", "D"], "dealer": "A", "options": {"piao": 5, "piao": 6}, '
    '"draw": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "abandon": {"by": "B", "by": "C"}}',
    '{"region": "wuhan", "\\u0072egion": "wuxue", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": "\\ud800"}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": "\\ud83c\\udc04"}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": NaN}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": ' + "7" * 4400 + "}",
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": ' + "7" * 300 + "}",
    '\ufeff{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}',
    ' {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}\x0c',
    '{"region": "武汉", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": "a:b"}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true, "id": 12}',
    '{"region": "wuhan", "players": [" A", "B", "C", "D"], "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": {"A": null, "B": {}, "C": [], "D": {}}, "dealer": "A", "draw": true}',
    '{"region": "wuhan", "players": {"A": {}, "B": {}, "C": {}, "D": {}}, "dealer": "A", "options": {}, "draw": true}',
    '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "win": {"winner": "A", "by": "self_draw", '
    '"tiles": {"hand": "123m456m789m123p55s", "win_tile": "5s"}}}',
    json.dumps(WUHAN), json.dumps(WUHAN, ensure_ascii=True, separators=(",", ":")),
    *[json.dumps({**WUHAN, "id": f"x{c}1"}, ensure_ascii=False) for c in CONTROLS],
    *[json.dumps({**WUHAN, "players": ["A", f"B{c}b", "C", "D"]}, ensure_ascii=False) for c in CONTROLS],
    *[json.dumps({**WUHAN, "players": {**WUHAN["players"], f"B{c}b": {}}}, ensure_ascii=False) for c in CONTROLS],
    *[json.dumps({**WUHAN, "dealer": f"A{c}"}, ensure_ascii=False) for c in CONTROLS],
])
def test_written_cases(text: str) -> None:
    """Keys written twice at every level, names the same after trimming, escapes, odd numbers, a BOM,
    spaces around the object, an alias of the region, a colon in a string, tiles: each either taken
    with the loader's hand or left to the loader, and the batch writes the same either way."""
    raw = text.encode("utf-8", "surrogatepass") + b"\n"
    agree(raw)
    assert batch_output(raw) == reference_output(raw)


def test_what_is_left_to_the_loader() -> None:
    """The cases above that must not be taken from the bytes: a repeated key or name, a BOM, spaces, a
    colon in a string, tiles, an alias of the region."""
    base = '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true'
    assert lean_line((base + "}\n").encode()) is not None
    assert lean_line((base + ', "id": 12}\n').encode()) is not None
    for text in [base + ', "draw": true}', base + ', "id": "a:b"}', " " + base + "}", "\ufeff" + base + "}",
                 base.replace("wuhan", "武汉") + "}", base.replace('"A", "B"', '"A", " A"') + "}",
                 base + ', "id": "\\ud83c\\udc04"}']:
        assert lean_line(text.encode() + b"\n") is None, text


def test_listed_and_empty_players_are_the_region_players_with_no_facts() -> None:
    listed = lean_line(b'{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}\n')
    mapped = lean_line(b'{"region": "wuhan", "players": {"A": {}, "B": null, "C": {}, "D": {}}, "dealer": "A", '
                       b'"draw": true}\n')
    assert listed is not None and mapped is not None
    assert listed[1] == mapped[1] and list(listed[1].players) == ["A", "B", "C", "D"]
    region = get_region("wuhan")
    assert type(listed[1]) is region.hand_model and type(listed[1].players["A"]) is type(mapped[1].players["A"])



def test_a_block_is_read_line_by_line_where_a_line_repeats_a_key() -> None:
    """lean_lines compares the keys of the hands taken with the colons of their lines over the block
    first: a line that repeats a key, or holds a colon in a text, is left to the loader alone, and the
    others are taken, wherever it stands in the block."""
    base = '{"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true'
    good = [(base + f', "id": "h{i}"}}').encode() for i in range(4)]
    odd = [(base + ', "dealer": "B"}').encode(), (base + ', "id": "a:b"}').encode(),
           b'{"region": "wuhan", "players": {"A": {"opens": 1, "opens": 2}, "B": {}, "C": {}, "D": {}}, '
           b'"dealer": "A", "draw": true}',
           b'{"region": "wuhan", "players": {"A": {"kongs": {"exposed": 1, "exposed": 1}}, "B": {}, "C": {}, '
           b'"D": {}}, "dealer": "A", "draw": true}']
    for bad in odd:
        for place in range(len(good) + 1):
            lines = [*good[:place], bad, *good[place:]]
            got = lean_lines(lines, b"\n".join(lines))
            assert [g is None for g in got] == [line is bad for line in lines], (bad, place)
            assert [g[1].id for g in got if g is not None] == [f"h{i}" for i in range(4)]
    lines = [*good, b"", b"  ", b"[1]", b'{"region": "nowhere", "players": []}']
    assert [g is None for g in lean_lines(lines, b"\n".join(lines))] == [False] * 4 + [True] * 4
    rest = b"\n".join(lines)
    block = good[0] + b"\n" + rest
    assert lean_lines(lines, block, len(good[0]) + 1) == lean_lines(lines, rest)


def test_a_block_whose_first_line_starts_a_refused_object_is_the_loaders() -> None:
    """A block whose first line starts with ``{`` but is not taken (a key repeated) is read by the loader
    as a whole, as one whose first line is no JSON object: the same output as the loader's path."""
    good = json.dumps(WUHAN)
    for first in [good[:-1] + ', "dealer": "B"}', good[:-1] + ', "id": "a:b"}', "{not json"]:
        block = "\n".join([first, good, "", json.dumps({**WUHAN, "id": "t.jsonl:3"}), good]).encode()
        assert lean_line(first.encode()) is None
        assert batch_output(block) == reference_output(block)



def test_the_region_is_the_key_the_line_is_looked_up_by() -> None:
    """The lean JSON schema of a region takes that region's key alone, so a line that names another
    region later (a repeated key), or a region that is not written as its key, is never taken as the
    first one's hand; a line that names its region elsewhere than first is taken by its region."""
    rest = ', "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}'
    assert lean_line(('{"region": "wuhan", "region": "rushan"' + rest).encode()) is None
    assert lean_line(('{"region": "wuhanx"' + rest).encode()) is None
    assert lean_line(('{"region": "Wuhan"' + rest).encode()) is None
    later = lean_line(('{"dealer": "A", "region": "rushan"' + rest.replace(', "dealer": "A"', "")).encode())
    assert later is not None and later[0].key == "rushan" and later[1].region == "rushan"
    first = lean_line(('{"region": "rushan"' + rest).encode())
    assert first is not None and first[0].key == "rushan" and first[1] == later[1]


# --- the batch: the same bytes as the loader's path --------------------------------------------------------


def _hand_line(block: bytes, k: int) -> int:
    """1-based line in ``block`` of its ``k``-th (0-based) hand: its ``k``-th line that is not white space
    once decoded (a line that is not UTF-8 is a hand)."""
    seen = -1
    for number, raw in enumerate(block.split(b"\n"), 1):
        if raw.decode("utf-8", "replace").strip():
            seen += 1
            if seen == k:
                return number
    return 1


def reference_outcomes(block: bytes, source: str, first_line: int, first_index: int) -> Iterator[Outcome]:
    """:func:`jsonl_outcomes` as it was before the bytes path: every line through the loader and
    :func:`settle_data`, the block read as the part of a file that follows ``first_index - 1`` other hands
    (lines ``{}`` put before it, their outcomes dropped), so that the loader itself numbers the hands
    and labels those without an id as the file's (a hand's own id is its label, whatever it looks like).
    A block that does not start its input (``first_line`` > 1) is read after one blank line too, so that
    a BOM on its first line is read as on any later line of a file (not skipped)."""
    shift = first_line - 1
    if first_line > 1:
        block, shift = b"\n" + block, shift - 1
    pad = first_index - 1
    block, shift = b"{}\n" * pad + block, shift - pad
    for index, item in enumerate(iter_documents(io.BytesIO(block), source, fmt="jsonl"), 1):
        if index <= pad:
            continue
        if isinstance(item, HandError):
            given = item.problems[0].hand if item.problems else None
            label = given or f"{source}:{index}"
            line = _hand_line(block, index - 1) + shift
            yield Outcome(label, error=HandError([_moved(p, line, label) for p in item.problems]))
            continue
        assert isinstance(item, Document)
        line = item.lines.get((), 1) + shift
        yield settle_data(item.data, item.label, {(): line}, source)


def batch_output(block: bytes, first_line: int = 3, first_index: int = 2) -> tuple[bytes, list[Any], int]:
    chunk = encode(jsonl_outcomes(block.rstrip(b"\n"), SOURCE, first_line, first_index), "jsonl")
    return chunk.data, chunk.problems, chunk.bad


def reference_output(block: bytes, first_line: int = 3, first_index: int = 2) -> tuple[bytes, list[Any], int]:
    chunk = encode(reference_outcomes(block.rstrip(b"\n"), SOURCE, first_line, first_index), "jsonl")
    return chunk.data, chunk.problems, chunk.bad


NOT_UTF8 = [b"\xff", b"\xc3", b"\xc3(", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf8\x88\x80\x80\x80", b"\xe4\xb8",
            b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\x80", b"\xe4\xb8A", b"\xf0\x9f\x80"]
"""Byte sequences that are not UTF-8: lone, truncated, overlong, a surrogate, past U+10FFFF."""


def test_a_line_that_is_not_utf8_is_left_to_the_loader() -> None:
    """The batch gives :func:`lean_line` any line that starts with ``{``, UTF-8 or not: pydantic-core's JSON
    reader must refuse every line that is not (here: bytes that are not UTF-8 put in a hand's texts, keys
    and anywhere else), and the batch then writes what the loader's path writes."""
    from bench.bench_batch import generate

    rng = random.Random("settle-not-utf8")
    lines = []
    for data in generate(300, seed=15):
        raw = json.dumps(data, ensure_ascii=False).encode()
        texts = [i for i in range(1, len(raw)) if raw[i - 1:i] == b'"']  # the first byte of a text or key
        for spot, cut in [(rng.choice(texts), 0), (rng.randrange(1, len(raw)), 1)]:
            line = raw[:spot] + rng.choice(NOT_UTF8) + raw[spot + cut:] + b"\n"
            if not _is_utf8(line):
                assert lean_line(line) is None, line
                lines.append(line)
    block = b"".join(lines[::7])
    assert batch_output(block) == reference_output(block)


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_a_block_of_every_kind_of_line_writes_the_same() -> None:
    rng = random.Random("settle-bytes-block")
    lines: list[bytes] = [b"\xef\xbb\xbf" + json.dumps(WUHAN).encode() + b"\n", b"\n", b"  \t\n"]
    for data in DOCUMENTS[::3]:
        lines += list(lines_of(mutate(data, rng), rng))[:3]
        lines.append(b"\n" if rng.random() < 0.2 else b"")
    lines += [b"{not json\n", b'{"region": "wuhan", "id": "t.jsonl:5"}\n', b"\xff\xfe\n", b"[1, 2]\n"]
    block = b"".join(lines)
    got, expected = batch_output(block), reference_output(block)
    assert got == expected
    assert got[2] > 20 and got[0].count(b"\n") > 100  # bad hands and good ones


def test_a_foreign_encoding_on_the_first_line_ends_the_block_as_before() -> None:
    block = '{"region": "wuhan"}\n'.encode("utf-16") + b"\n" + json.dumps(WUHAN).encode()
    assert batch_output(block) == reference_output(block)


def test_a_block_that_starts_well_writes_the_same_line_by_line() -> None:
    # The first line reads from its bytes, so every later line takes jsonl_outcomes' own loop (a bad or
    # odd line read alone by the loader, the good ones after it from their bytes again): the same
    # output, problems and count as the loader's path for the whole block, labels and lines included.
    rng = random.Random("settle-bytes-block-2")
    lines: list[bytes] = [json.dumps(WUHAN).encode() + b"\n"]
    for data in DOCUMENTS[1::3]:
        lines += list(lines_of(mutate(data, rng), rng))[:3]
        lines.append(b"\n" if rng.random() < 0.2 else b"")
    lines += [b"{not json\n", b'{"region": "wuhan", "id": "t.jsonl:5"}\n', b"\xff\xfe\n", b"[1, 2]\n",
              "\u3000\n".encode(), b"\x1c\n", b"\xef\xbb\xbf" + json.dumps(WUHAN).encode() + b"\n",
              b'{"region": "wuhan", "bad": "\xff"}\n', json.dumps({**WUHAN, "id": "t.jsonl:3"}).encode() + b"\n",
              json.dumps({**WUHAN, "id": None}).encode() + b"\n", json.dumps(WUHAN).encode()]
    block = b"".join(lines)
    got, expected = batch_output(block), reference_output(block)
    assert got == expected
    assert got[2] > 20 and got[0].count(b"\n") > 100  # bad hands and good ones


def _nesting(schema: Any, seen: frozenset[str] = frozenset(), refs: dict[str, Any] | None = None) -> int:
    """The deepest nesting of JSON objects and arrays that a core schema takes: a model, a dict and a
    list each take one level more than their values; a reference is followed (a cycle would never end:
    ``seen`` refuses one)."""
    if refs is None:
        refs = {d["ref"]: d for d in schema.get("definitions", [])}
    if isinstance(schema, list):
        return max((_nesting(item, seen, refs) for item in schema), default=0)
    if not isinstance(schema, dict):
        return 0
    kind = schema.get("type")
    if kind == "definition-ref":
        ref = schema["schema_ref"]
        assert ref not in seen, f"the hand's schema refers to itself through {ref}"
        return _nesting(refs[ref], seen | {ref}, refs)
    inner = max((_nesting(value, seen, refs) for key, value in schema.items()
                 if key not in ("definitions", "metadata", "serialization", "cls", "ref", "function")), default=0)
    return inner + (1 if kind in ("model", "dict", "list") else 0)


def test_the_lean_schema_nests_at_most_lean_nesting_levels() -> None:
    """lean_line needs no bracket count for the loader's MAX_DEPTH (100): a hand the lean schema takes nests
    at most LEAN_NESTING levels.  By hand: the hand {1}, ``win`` as a list [2], a win {3}, its tiles {4},
    their melds [5], a meld {6}; ``players`` {2} -> a player {3} -> ``kongs`` {4} or ``opens`` [4] is less."""
    from settle.engine.validation import LEAN_NESTING
    from settle.loader import MAX_DEPTH
    from settle.rules.registry import all_regions

    assert LEAN_NESTING == 6 < MAX_DEPTH
    for region in all_regions():
        region.hand_model.model_rebuild()
        assert _nesting(region.hand_model.__pydantic_core_schema__) == LEAN_NESTING, region.key


def test_brackets_past_max_depth_in_names_are_read_from_the_bytes() -> None:
    """More brackets than MAX_DEPTH (4 names of 30 ``[``: 120, in strings, so no nesting) is a hand the
    loader reads too: lean_line takes it, with the loader's hand; 101 levels of nesting in a key the hand
    does not have is refused by both."""
    names = ["[" * 29 + c for c in "ABCD"]
    text = json.dumps({"region": "wuhan", "players": names, "dealer": names[0], "draw": True}, ensure_ascii=False)
    raw = text.encode() + b"\n"
    assert raw.count(b"[") > 100
    assert agree(raw)
    assert batch_output(raw) == reference_output(raw)
    deep = text[:-1] + ', "note": ' + "[" * 101 + "]" * 101 + "}"
    raw = deep.encode() + b"\n"
    assert lean_line(raw) is None and reference(raw) is None
    assert batch_output(raw) == reference_output(raw)
