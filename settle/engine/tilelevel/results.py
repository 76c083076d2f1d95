"""The tile-level settlement's public results: a legal reading settled (:class:`Candidate`), the
reading kept for a winner (:class:`Choice`), ``settle check``'s report (:class:`ClaimCheck`) and its
:class:`Difference` kinds (:data:`DIFFERENCE_KINDS`), and the error of a win no reading can settle
(:class:`IllegalWin`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from settle.core import Catalog, Settlement, Step
from settle.errors import HandError, Path, Problem, format_path
from settle.model import Hand
from settle.tiles import ScoredReading, TileHand
from settle.tiles.messages import TILES
from settle.tiles.quick import quick_init


@quick_init
@dataclass(frozen=True)
class Candidate:
    """One legal reading of a winner's tiles, settled (or refused by the hand's facts).

    ``fans``: the winner's fan keys in the region's table order, situational items included;
    ``settlement``: the whole hand settled with them, None when ``problems`` (a rule that
    needs facts beyond the tiles, H8 ``require_open``, W12) refuses the reading.
    """

    scored: ScoredReading
    fans: tuple[str, ...]
    settlement: Settlement | None
    problems: tuple[Problem, ...] = ()
    hand: Hand | None = field(default=None, repr=False, compare=False)
    """The hand settled (the winner's ``fans`` replaced), so that the reading kept is not
    checked and settled a second time."""

    @property
    def substitutions(self) -> int:
        """Wildcards read as another tile than themselves (H8, W16)."""
        return self.scored.reading.substitutions

    def net(self, winner: str) -> int:
        """The winner's net under this reading, in the region's points."""
        return self.settlement.net[winner] if self.settlement is not None else 0

    @property
    def liable(self) -> str | None:
        """The 包牌/承包 player under this reading, or None."""
        return self.settlement.liable if self.settlement is not None else None


@quick_init
@dataclass(frozen=True)
class Choice:
    """The reading kept for one winner, and the ones it was chosen from.

    ``considered``: every engine-legal reading (one per distinct fan set, each with its
    fewest substitutions), settled; ``rejected``: readings of a winning shape that a
    tile-level rule forbids, with the rule's reason step; ``why``: the reason ``chosen`` was
    kept, a step (``why_only_legal``, ``why_most`` ...; worded by :data:`settle.tiles.messages.TILES`);
    ``wild``: the wildcard tile of the winner's hand, None without one.
    """

    winner: str
    path: Path
    tiles: TileHand
    chosen: Candidate
    considered: tuple[Candidate, ...]
    rejected: tuple[tuple[ScoredReading, Step], ...]
    why: Step
    wild: int | None = None


@dataclass(frozen=True)
class Difference:
    """One way a winner's claimed fans differ from the tiles (``settle check``).

    ``kind``: ``claimed_not_present`` (named in ``win.fans``, not in the tiles' best
    reading), ``present_not_claimed``, ``illegal_win`` (the tiles are no legal win; ``fan``
    is None) or ``claim_refused`` (the claim breaks a rule of the hand's facts; ``fan`` None).
    ``value``: what the item is worth in the region (``base 10``, ``2 斤``, ``×2``); ``detail``: why
    (English), and ``reasons`` the same as steps (for the words in another language).
    """

    winner: str
    kind: str
    fan: str | None
    label: str
    value: str
    detail: str = ""
    reasons: tuple[Step, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """JSON form: ``{"winner", "kind", "fan", "label", "value", "detail"}``."""
        return {"winner": self.winner, "kind": self.kind, "fan": self.fan, "label": self.label,
                "value": self.value, "detail": self.detail}


DIFFERENCE_KINDS: dict[str, str] = {
    "claimed_not_present": "claimed, not in the tiles",
    "present_not_claimed": "in the tiles, not claimed",
    "illegal_win": "illegal win",
    "claim_refused": "claim refused",
}
"""Each :attr:`Difference.kind` in words (``settle check`` tables)."""


class IllegalWin(HandError):
    """No reading of a winner's tiles can be settled: none is legal by the tile rules, or the
    hand's facts refuse every legal one (H8 require_open, W12 ...).  Bad input to ``settle hand``;
    an ``illegal_win`` difference to ``settle check``.  ``reasons``: why, as steps (the engine's
    reasons, or ``problems_at`` naming the keys of the problems), for the words in another language."""

    reasons: tuple[Step, ...] = ()


def illegal_win(problems: list[Problem], reasons: Sequence[Step]) -> IllegalWin:
    """An :class:`IllegalWin` of ``problems`` with its ``reasons`` as steps."""
    error = IllegalWin(problems)
    error.reasons = tuple(reasons)
    return error


def problems_step(problems: Sequence[Problem]) -> Step:
    """The problems of a refused claim or reading as a step: their messages (English only) and keys."""
    return Step("", "problems_at", {"problems": tuple(p.message for p in problems),
                                    "paths": tuple(dict.fromkeys(format_path(p.path) for p in problems))})


@dataclass(frozen=True)
class ClaimCheck:
    """What ``settle check`` reports: the claimed fans against the tiles.

    ``claimed``/``derived``: per winner, the counted fan keys (Rushan: the base and the
    counted multipliers, R1 R3b; Wuhan 抢杠 implied by ``robbed_kong``); ``derived`` is None
    for a winner whose tiles are no legal win.  ``reading_steps``: per winner with a legal
    reading, the reading kept as a ``tiles_read`` step (:attr:`readings` in English).
    ``claimed_result``/``tiles_result``: the hand settled each way (None when that way cannot
    be settled).  ``reasons``: the check's notes as steps (why each reading was kept, readings
    refused, a claim that is another legal reading), worded by ``catalog`` (:attr:`notes` in
    English).  ``agree`` when there is no difference.
    """

    region: str
    players: tuple[str, ...]
    claimed: dict[str, tuple[str, ...]]
    derived: dict[str, tuple[str, ...] | None]
    reading_steps: dict[str, Step]
    differences: tuple[Difference, ...]
    claimed_result: Settlement | None
    tiles_result: Settlement | None
    reasons: tuple[Step, ...] = ()
    catalog: Catalog = field(default=TILES, repr=False, compare=False)

    @property
    def readings(self) -> dict[str, str]:
        """Winner -> the reading kept in English (``123m 22m ... (癞子 6s as 5m)``)."""
        return self.reading_texts("en")

    def reading_texts(self, lang: str = "en") -> dict[str, str]:
        """Winner -> the reading kept in ``lang``."""
        return {name: self.catalog.text(item, lang) for name, item in self.reading_steps.items()}

    @property
    def notes(self) -> tuple[str, ...]:
        """The reasons in English (the check table's ``*`` lines)."""
        return tuple(self.note_texts("en"))

    def note_texts(self, lang: str = "en") -> list[str]:
        """The reasons in ``lang``."""
        return [self.catalog.text(item, lang) for item in self.reasons]

    @property
    def agree(self) -> bool:
        """The claims are what the tiles give (``settle check`` exits 0)."""
        return not self.differences

    def payments(self) -> list[tuple[str, str, int | None, int | None]]:
        """``(payer, payee, claimed amount, tiles amount)`` for every pair that pays either way;
        an amount is None when that way cannot be settled."""
        claimed = _paid(self.claimed_result)
        tiles = _paid(self.tiles_result)
        pairs = list(dict.fromkeys([*(claimed or {}), *(tiles or {})]))
        return [(a, b, None if claimed is None else claimed.get((a, b), 0),
                 None if tiles is None else tiles.get((a, b), 0)) for a, b in pairs]

    def as_dict(self) -> dict[str, object]:
        """JSON form of the check (keys as in the attributes, plus ``agree`` and ``payments``)."""
        return {
            "region": self.region, "agree": self.agree, "players": list(self.players),
            "claimed": {w: list(f) for w, f in self.claimed.items()},
            "tiles": {w: (None if f is None else list(f)) for w, f in self.derived.items()},
            "readings": dict(self.readings),
            "differences": [d.as_dict() for d in self.differences],
            "payments": [{"from": a, "to": b, "claimed": c, "tiles": t} for a, b, c, t in self.payments()],
            "net": {"claimed": None if self.claimed_result is None else dict(self.claimed_result.net),
                    "tiles": None if self.tiles_result is None else dict(self.tiles_result.net)},
            "notes": list(self.notes),
        }


def _paid(result: Settlement | None) -> dict[tuple[str, str], int] | None:
    if result is None:
        return None
    out: dict[tuple[str, str], int] = {}
    for t in result.transfers:
        out[(t.payer, t.payee)] = out.get((t.payer, t.payee), 0) + t.amount
    return out
