"""quick_init (settle/tiles/quick.py): the one-call __init__ builds what the dataclass's own builds."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from settle.engine.tilelevel import Candidate, Choice, Origin, Prepared, TileWin
from settle.tiles import Evaluation, ScoredReading, TileError, TileHand
from settle.tiles.quick import quick_init
from settle.tiles.readings import Reading


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = field(default_factory=dict)
    d: int | None = field(default=None, compare=False)


@quick_init
@dataclass(frozen=True)
class Quick:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = field(default_factory=dict)
    d: int | None = field(default=None, compare=False)


def fields_of(obj: object) -> dict[str, object]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]


def test_same_fields_defaults_and_factories() -> None:
    assert fields_of(Quick(1)) == fields_of(Plain(1))
    assert fields_of(Quick(1, (2,))) == fields_of(Plain(1, (2,)))
    assert fields_of(Quick(1, c={"x": 1}, d=4)) == fields_of(Plain(1, c={"x": 1}, d=4))
    assert fields_of(Quick(a=3, b=(1,))) == fields_of(Plain(a=3, b=(1,)))
    assert Quick(1).c is not Quick(1).c  # a new default per instance


def test_class_otherwise_unchanged() -> None:
    one = Quick(1, (2,), {}, 5)
    assert one == Quick(1, (2,), {}, 6) and one != Quick(1, (3,))
    assert hash(Reading("standard", ((0, 0),), (0, 0))) == hash(Reading("standard", ((0, 0),), (0, 0), (), 0))
    assert repr(one) == "Quick(a=1, b=(2,), c={}, d=5)"
    assert dataclasses.replace(one, a=7) == Quick(7, (2,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, e=2)  # type: ignore[call-arg]


def test_post_init_still_runs() -> None:
    hand = TileHand((5, 0, 1, 2, 3, 3, 4, 4, 4, 9, 9, 9, 27, 27), 5)
    assert hand.concealed == (0, 1, 2, 3, 3, 4, 4, 4, 5, 9, 9, 9, 27, 27)
    with pytest.raises(TileError):
        TileHand((0,) * 14, 1)


def test_applied_to_the_tile_level_results() -> None:
    for cls in (Reading, ScoredReading, Evaluation, TileHand, TileWin, Origin, Prepared, Candidate, Choice):
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
        assert cls.__init__.__code__.co_filename == "<string>"  # the one-call __init__
    reading = Reading("standard", ((0, 0),), (0, 0))
    assert (reading.wild_values, reading.substitutions) == ((), 0)


def test_unfit_class_left_as_is() -> None:
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    for cls in (Mutable, Slotted):
        init = cls.__init__
        assert quick_init(cls).__init__ is init
