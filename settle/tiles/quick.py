"""One-call construction of the tile level's frozen dataclasses (issue 14: speed).

A frozen dataclass's generated ``__init__`` sets each field with its own ``object.__setattr__``
call; :func:`quick_init` gives the class an ``__init__`` with the same parameters and defaults
that sets the instance's ``__dict__`` in one call (about half the cost for eight fields).  Nothing
else of the class changes: its fields, ``repr``, equality, hash and ``dataclasses.replace`` are
the dataclass's own.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_C = TypeVar("_C", bound=type)


def quick_init(cls: _C) -> _C:
    """``cls`` (a frozen dataclass, without slots) with the one-call ``__init__`` described above.

    Every field must be an init field given by position or keyword; ``__post_init__`` (without
    init-only variables) is called as the generated ``__init__`` calls it.  A class this does not
    fit is returned as it is (its own ``__init__`` kept).
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__:
        return cls
    fields = dataclasses.fields(cls)
    if any(not f.init or f.kw_only for f in fields):
        return cls
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_set": object.__setattr__, "_MISSING": dataclasses.MISSING}
    parameters, lines = [], []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            parameters.append(f"{f.name}=_MISSING")
            lines.append(f"    if {f.name} is _MISSING: {f.name} = _factory_{f.name}()")
        else:
            parameters.append(f.name)
    body = ", ".join(f"{name!r}: {name}" for name in names)
    lines.append(f"    _set(self, '__dict__', {{{body}}})")
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(lines) + "\n"
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__dict__["__init__"].__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - mypy forbids assigning a class's __init__
    return cls
