"""One base for settle's small immutable records written out by hand (issue 14).

Making a dataclass generates and compiles its methods, a cost every start-up pays; the records read
on every start (vocabulary terms, regions, problems) subclass :class:`Frozen` instead, which gives
them what a frozen dataclass would: equality with another of the same class and equal fields, a
hash, the dataclass ``repr`` (``Term(key='...', ...)``), :class:`dataclasses.FrozenInstanceError`
on assignment, and pickling and copying by remaking them from their fields.  A subclass lists its
fields in ``_FIELDS`` (the constructor's order) and any field ``repr`` leaves out in ``_UNSHOWN``.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any


class Frozen:
    """Base of a hand-written frozen record (see the module docstring)."""

    __slots__ = ()
    _FIELDS: tuple[str, ...] = ()
    _UNSHOWN: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._FIELDS])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS if name not in self._UNSHOWN)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy: made again from its fields, by name
        return (_remade, (type(self), {name: getattr(self, name) for name in self._FIELDS}))


def _remade(cls: type[Frozen], fields: dict[str, Any]) -> Frozen:
    return cls(**fields)
