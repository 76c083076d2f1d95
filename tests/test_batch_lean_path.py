"""The batch's lean path for a hand (issue 14): one function settles a validated hand for both
:func:`settle.settle_hand` and the batch, the public names of the batch package, and the bytes the
streamed writer hands to the output."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from settle import settle_hand
from settle.cli.batch import _raw
from settle.engine import hand as hand_module
from settle.engine.batch import Chunk, StreamWriter, Totals, encode
from settle.engine.batch import outcome as outcome_module
from settle.engine.batch.reading import jsonl_outcomes
from settle.engine.validation import validate_model
from settle.errors import HandError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_batch import generate  # noqa: E402

WUHAN = {"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "C",
         "win": {"winner": "D", "by": "discard", "from": "A"}, "fans": {"A": 3, "B": 2, "C": 3, "D": 4}}
"""The README's hand: D wins 320 (A and C pay 2^(3+4) = 128 each, B 2^(2+4) = 64)."""


def test_a_validated_hand_is_settled_by_one_function() -> None:
    region, hand = validate_model(WUHAN)
    result = hand_module.settle_validated_hand(region, hand)
    assert result.net == {"A": -128, "B": -64, "C": -128, "D": 320}  # 128 + 64 + 128 = 320
    assert result == settle_hand(WUHAN)
    for data in generate(300, seed=3):
        region, hand = validate_model(data)
        assert hand_module.settle_validated_hand(region, hand) == settle_hand(data)


def test_a_validated_hand_the_checks_refuse_raises_every_problem() -> None:
    bad = {**WUHAN, "dealer": "Z", "win": {"winner": "D", "by": "discard", "from": "D"}}
    region, hand = validate_model(bad)
    with pytest.raises(HandError) as caught:
        hand_module.settle_validated_hand(region, hand)
    with pytest.raises(HandError) as alone:
        settle_hand(bad)
    assert len(caught.value.problems) >= 2  # the dealer not seated, the winner feeding himself
    assert caught.value.problems == alone.value.problems


def test_the_batch_settles_a_line_read_from_its_bytes_through_that_function(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = hand_module.settle_models  # settle_model of each hand (tests/test_tile_steps.py)

    def spy(items):  # type: ignore[no-untyped-def]
        seen.extend(hand.id for _, hand in items)
        return real(items)

    monkeypatch.setattr(outcome_module, "settle_models", spy)
    block = b'{"id": "x1", "region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A", "draw": true}'
    (outcome,) = jsonl_outcomes(block, "t.jsonl", 1, 1)
    assert seen == ["x1"] and outcome.result is not None and outcome.label == "x1"


def test_worker_died_is_public() -> None:
    from settle.engine.batch import WorkerDied, __all__
    from settle.engine.batch.pool import WorkerDied as in_pool

    assert WorkerDied is in_pool and "WorkerDied" in __all__
    assert str(WorkerDied(12, -9)) == "a worker process (pid 12) was killed by signal 9"


def test_the_bytes_go_straight_to_a_utf8_stream_whatever_its_error_handler() -> None:
    # stdout in a C.UTF-8 locale is utf-8 with surrogateescape: its buffer takes the chunks' bytes.
    for errors in ("strict", "surrogateescape"):
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors)
        assert _raw(out) is out.buffer
    assert _raw(io.TextIOWrapper(io.BytesIO(), encoding="latin-1")) is None
    assert _raw(io.StringIO()) is None


def test_a_lone_surrogate_is_written_by_the_text_stream_as_before() -> None:
    # An id read with surrogateescape (a byte 0xff) comes back as that byte through a surrogateescape
    # stream, and the chunk's other lines as they are.
    result = settle_hand(WUHAN)
    from settle.engine.batch import Outcome

    chunk = encode([Outcome("x\udcff", result), Outcome("y", result)], "jsonl")
    assert b"\xed\xb3\xbf" in chunk.data  # surrogatepass in the chunk
    written = io.BytesIO()
    out = io.TextIOWrapper(written, encoding="utf-8", errors="surrogateescape", newline="\n")
    writer = StreamWriter(out, "jsonl", raw=_raw(out))
    writer.start()
    writer.add(chunk)
    writer.add(Chunk(data=b'{"id": "z"}\n', hands=1))
    writer.finish(Totals())
    text = chunk.data.decode("utf-8", "surrogatepass")
    assert written.getvalue() == text.encode("utf-8", "surrogateescape") + b'{"id": "z"}\n'
    assert written.getvalue().startswith(b'{"id": "x\xff", ')
