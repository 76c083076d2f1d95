"""``settle serve``: a phone-first page for the scorekeeper at the table, over the same library (issue 17).

A layer above :mod:`settle.render` and :mod:`settle.engine`, beside :mod:`settle.cli` (which imports it
lazily for ``settle serve``; nothing else imports it).  The page builds the hand documents the
command line reads and settles them with the library's session code (:mod:`settle.web.evening`), keeps
them in SQLite (:mod:`settle.web.store`) and serves them with Starlette (:mod:`settle.web.app`).
Needs the ``web`` extra: ``pip install 'settle[web]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app"]


def create_app(db: Any) -> Starlette:
    """The ASGI app over the SQLite file ``db`` (see :func:`settle.web.app.create_app`)."""
    from settle.web.app import create_app as make

    return make(db)
