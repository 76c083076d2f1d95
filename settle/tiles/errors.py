"""The tile engine's input errors: a :class:`TileError` names the key it is about.

Every error the engine raises for bad input is a :class:`TileError` (a :class:`ValueError`, so
callers that catch ``ValueError`` keep working).  Its ``field`` names the part of the input at
fault, in the words of the hand file's ``win.tiles`` mapping (HAND-FORMAT.md "The win"), so a
caller places the error without reading its text:

* ``"hand"``, ``"win_tile"``, ``"indicator"``, ``"bao_tile"``, ``"melds"``: that key of
  ``win.tiles`` (the concealed tiles, the winning tile, the flipped tile, Rushan's 搂宝 tile R9,
  the meld list);
* ``("melds", j, "tiles")``: the tiles of the ``j``-th meld (a meld the region bars, H8 W15 R9);
* ``"fans"``: the win's stated situational fans (``win.fans``, G10), not a key of ``win.tiles``;
* ``None``: the tiles as a whole (a fifth copy of a tile, a bad win type ...).

``detail`` is the message without the key; ``str(error)`` is what the engine has always said,
which for a few errors starts with the key (``"indicator: the flipped tile is required ..."``).
"""

from __future__ import annotations

from collections.abc import Mapping

Field = str | tuple[str | int, ...] | None
"""A key of ``win.tiles`` (or ``"fans"``), a path below it, or None for the tiles as a whole."""


class TileError(ValueError):
    """Bad tile-level input, at ``field`` (see the module docstring for the fields).

    ``detail``: the words to show at that key.  With ``keyed`` the full message names the key
    first (``"indicator: ..."``), as a caller without key paths needs it.  ``kind`` and ``values``:
    what went wrong as data, for the words of another language (:data:`settle.tiles.problems.PROBLEMS_ZH`,
    a region's ``problem_zh``; the caller's :class:`~settle.errors.Problem` carries them, issue 16 #9).
    """

    def __init__(self, detail: str, field: Field = None, *, keyed: bool = False, kind: str = "",
                 values: Mapping[str, object] | None = None) -> None:
        self.detail = detail
        self.field = field
        self.kind = kind
        self.values = values
        super().__init__(f"{field}: {detail}" if keyed and isinstance(field, str) else detail)

    @property
    def path(self) -> tuple[str | int, ...]:
        """``field`` as a key path: ``("indicator",)``, ``("melds", 1, "tiles")``, ``()`` for None."""
        if self.field is None:
            return ()
        return (self.field,) if isinstance(self.field, str) else tuple(self.field)
