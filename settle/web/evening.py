"""A table's evening on the page, through the library's own session code (issue 17 #2-#5).

The page keeps no rules of its own: a table is a session header (region, players, options) and a
list of hand documents, exactly what ``settle session`` reads from a file.  :func:`run_evening`
turns them into the loader's :class:`~settle.loader.Document` items and calls
:func:`settle.engine.session.run_session`, so every total, rotation, settle-up and message is the
one the command line gives.  :func:`hand_from_form` builds a hand document from the page's form
fields the way ``settle hand``'s flags build one (plain data, validated by the hand models);
:func:`form_from_hand` is its inverse, to edit a saved hand.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

import yaml

from settle.core import CAP_MARKS, Settlement
from settle.engine.batch.standings import STANDING_KEYS, Standings, tally
from settle.engine.hand import settle_hand
from settle.engine.session import SessionReport, run_session
from settle.errors import HandError, Problem
from settle.loader import Document, iter_documents
from settle.render.rules import gloss, option_names
from settle.rules.registry import Region, get_region

SEATS = ("东", "南", "西", "北")
"""Seat winds in turn order: the first player sits 东 (issue 17 #1)."""

HOWS = ("self_draw", "discard", "robbed_kong", "draw", "abandon")
"""The outcomes a hand form offers: a win by 自摸/点炮/抢杠, 荒庄, 逃跑 (where the region has it)."""


@dataclass(frozen=True)
class OptionField:
    """One house option on the set-up form: key, 中文 name, meaning (English; ``meaning_zh`` from the
    region's catalog, :func:`settle.render.rules.gloss`, as ``settle rules --lang zh`` says it), default,
    input kind (``bool``, ``choice``, ``number``) and the choices of a ``choice``."""

    key: str
    zh: str
    meaning: str
    default: Any
    kind: str
    choices: tuple[str, ...] = ()
    meaning_zh: str = ""

    def meaning_in(self, lang: str) -> str:
        """The meaning in ``lang`` (``zh``: the Chinese gloss where the catalog has one)."""
        return self.meaning_zh or self.meaning if lang == "zh" else self.meaning


def option_fields(region: Region) -> list[OptionField]:
    """The region's options as form fields, from its options model (the hand file's own options)."""
    names = option_names(region)
    out = []
    for key, info in region.options.model_fields.items():
        annotation = info.annotation
        kind: str
        choices: tuple[str, ...]
        args = [a for a in get_args(annotation) if a is not type(None)]
        if annotation is bool:
            kind, choices = "bool", ()
        elif get_origin(annotation) is Literal:
            kind, choices = "choice", tuple(str(a) for a in get_args(annotation))
        else:
            kind, choices = "number", ()
            if args and get_origin(args[0]) is Literal:  # pragma: no cover - no such option today
                kind, choices = "choice", tuple(str(a) for a in get_args(args[0]))
        out.append(OptionField(key, names[key][0], names[key][1], info.default, kind, choices,
                               gloss(region, "option", key, names[key][1], "zh")))
    return out


def options_from_form(region: Region, form: Mapping[str, Any]) -> dict[str, Any]:
    """The options a set-up or what-if form gives (``opt:KEY`` fields), only those that differ from
    the default; a number field that is not a whole number stays text, so validation names it.  A
    yes/no option is ``true`` or ``false`` (the page sends a hidden ``false`` before each checkbox, so
    the last value wins); an option the form does not name keeps its default."""
    out: dict[str, Any] = {}
    for f in option_fields(region):
        given = form.get(f"opt:{f.key}")
        raw = given if isinstance(given, str) else None
        if raw is None or (f.kind != "bool" and raw.strip() == ""):
            continue
        if f.kind == "bool":
            value: Any = raw == "true" if raw in ("true", "false") else raw
        elif f.kind == "number":
            value = _number(raw)
        else:
            value = raw.strip()
        if value != f.default:
            out[f.key] = value
    return out


def _number(raw: str) -> int | str:
    text = raw.strip()
    if text.lstrip("+-").isascii() and text.lstrip("+-").isdigit() and len(text) <= 18:
        return int(text)
    return text


def header_problems(region_key: str, players: list[str], dealer: str, options: dict[str, Any]) -> list[Problem]:
    """The problems the hand file's validation finds with a table's region, players, first dealer and
    options (the same messages ``settle hand`` prints), found by validating a 荒庄 hand of that table."""
    probe = {"region": region_key, "players": players, "dealer": dealer, "options": options, "draw": True}
    try:
        settle_hand(probe)
    except HandError as exc:
        return [p for p in exc.problems if p.path[:1] in (("region",), ("players",), ("dealer",), ("options",), ())]
    return []


# --- the evening -------------------------------------------------------------------------------


@dataclass
class Evening:
    """A table's evening settled: the session report and the hand documents it was settled from."""

    header: dict[str, Any]
    hands: list[dict[str, Any]]
    report: SessionReport

    @property
    def region(self) -> Region:
        """The table's region."""
        return get_region(self.header["region"])

    @property
    def players(self) -> list[str]:
        """Seat order of the table's header (the players of every hand unless one names others)."""
        seen = list(self.header["players"])
        return seen + [n for n in self.report.players if n not in seen]

    @property
    def totals(self) -> dict[str, int]:
        """Every player's running total after the last hand (0 before any)."""
        return {name: self.report.totals.get(name, 0) for name in self.players}

    @property
    def next_dealer(self) -> str | None:
        """The dealer of the next hand by the rotation (None once a 逃跑 ended the game)."""
        if not self.report.hands:
            return str(self.header["dealer"])
        return self.report.hands[-1].result.next_dealer

    def figures(self) -> dict[str, dict[str, int]]:
        """Per player: net, hands, won, dealt_in (点炮/放冲 given), liable, capped, golden (the standings
        of ``settle batch``, :data:`~settle.engine.batch.standings.STANDING_KEYS`)."""
        standings: Standings = {}
        for hand in self.report.hands:
            tally(standings, hand.result)
        group = standings.get(str(self.header["region"]), {})  # one table, one region (issue 16 #5)
        return {name: dict(zip(STANDING_KEYS, group.get(name, [0] * len(STANDING_KEYS)), strict=True))
                for name in self.players}


def documents(header: Mapping[str, Any], hands: Sequence[Mapping[str, Any]],
              dealers: Sequence[str] | None = None, source: str = "table") -> list[Document]:
    """The session's documents: the header (``id``, region, players, options), then each hand with
    ``id`` its number; the first hand gets the table's first dealer unless it states one.  With
    ``dealers``, every hand is dealt by the dealer given (a what-if keeps the real dealers)."""
    head: dict[str, Any] = {"id": header.get("id") or "table", "region": header["region"],
                            "players": list(header["players"])}
    if header.get("options"):
        head["options"] = dict(header["options"])
    out = [Document(head, {}, source, 0)]
    for number, hand in enumerate(hands, 1):
        data = {"id": number, **{k: v for k, v in hand.items() if k != "id"}}
        if dealers is not None and number <= len(dealers):
            data["dealer"] = dealers[number - 1]
        elif number == 1 and "dealer" not in data:
            data["dealer"] = header["dealer"]
        out.append(Document(data, {}, source, number))
    return out


def run_evening(header: Mapping[str, Any], hands: Sequence[Mapping[str, Any]],
                options: Mapping[str, Any] | None = None, dealers: Sequence[str] | None = None) -> Evening:
    """Settle the evening with :func:`settle.engine.session.run_session`; ``options`` replace the
    header's (a what-if), ``dealers`` fix each hand's dealer."""
    head = dict(header)
    if options is not None:
        head["options"] = dict(options)
    report = run_session(documents(head, hands, dealers), str(head.get("id") or "table"))
    return Evening(head, [dict(h) for h in hands], report)


def what_if(evening: Evening, options: Mapping[str, Any]) -> Evening:
    """The same facts and dealers settled under ``options`` instead of the table's."""
    dealers = [h.dealer for h in evening.report.hands]
    return run_evening(evening.header, evening.hands, options, dealers)


# --- export and import ---------------------------------------------------------------------------


def export_yaml(header: Mapping[str, Any], hands: Sequence[Mapping[str, Any]]) -> str:
    """The table as the YAML stream ``settle session`` reads (the header, then one document per hand)."""
    docs = [d.data for d in documents(header, hands)]
    buf = io.StringIO()
    buf.write(f"# settle session: {header.get('id') or 'table'} ({len(hands)} hands), written by settle serve\n")
    yaml.safe_dump_all(docs, buf, allow_unicode=True, sort_keys=False, default_flow_style=None, width=200)
    return buf.getvalue()


@dataclass
class Imported:
    """A session file read for import: its header (with ``dealer``, the first hand's) and hand
    documents, or the problems that refuse it."""

    header: dict[str, Any] = field(default_factory=dict)
    hands: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def import_yaml(raw: bytes, source: str = "upload") -> Imported:
    """Read a session file (as ``settle session`` would) into a header and hands; every problem the
    session finds refuses the whole file."""
    items = list(iter_documents(raw, source))
    report = run_session(items, source)
    if report.problems or not report.hands:
        problems = report.problems or [Problem((), "the file holds no hand")]
        return Imported(problems=problems)
    header: dict[str, Any] = {}
    hand_docs = [i for i in items if isinstance(i, Document)]
    first = hand_docs[0].data if hand_docs else {}
    if isinstance(first, Mapping) and not any(k in first for k in ("win", "draw", "abandon")):
        header = dict(first)
        hand_docs = hand_docs[1:]
    first_hand = report.hands[0]
    region = first_hand.result.region
    players = header.get("players") or list(first_hand.result.players)
    if isinstance(players, Mapping):
        players = list(players)
    out = Imported({"id": header.get("id") or report.name or source, "region": region, "players": list(players),
                    "options": dict(header.get("options") or {}), "dealer": first_hand.dealer})
    for doc in hand_docs:
        data = {k: v for k, v in dict(doc.data).items() if k != "id"}
        out.hands.append(data)
    if out.hands and out.hands[0].get("dealer") == first_hand.dealer:
        out.hands[0].pop("dealer")
    return out


# --- the hand form ---------------------------------------------------------------------------------


def hand_from_form(region: Region, players: Sequence[str], form: Mapping[str, Any], rotation: str | None,
                   ) -> dict[str, Any]:
    """The hand document a hand form describes (keys of the hand file; see module docstring).

    Fields: ``how`` (:data:`HOWS`), ``winner`` (one or more names), ``from`` (discarder or robbed
    player), ``leaver`` (逃跑), ``fan:NAME`` (pattern keys per winner), ``liable`` (``""`` found by
    the rules, ``none`` or a name), ``dealer`` (``""`` for the rotation), per player ``opens:NAME``,
    ``feed:NAME:i`` (who fed open i), ``kong:NAME:KIND``, ``ready:NAME``, ``fish:NAME``, and with
    ``count`` = ``stated`` the per-player totals ``total:NAME``.  Counts that are not whole numbers
    are passed on as text, so the hand model refuses them with its own message.
    """
    get = _getter(form)
    data: dict[str, Any] = {}
    dealer = (get("dealer") or "").strip()
    if dealer and dealer != rotation:
        data["dealer"] = dealer
    details: dict[str, dict[str, Any]] = {}
    for name in players:
        mine: dict[str, Any] = {}
        opens = _count(get(f"opens:{name}"))
        feeders = [(get(f"feed:{name}:{i}") or "").strip() for i in range(4)]
        if isinstance(opens, int) and 0 < opens <= 4 and all(feeders[:opens]):
            mine["opens"] = feeders[:opens]
        elif opens:
            mine["opens"] = opens
        kongs = {kind: n for kind in region.kongs if (n := _count(get(f"kong:{name}:{kind}")))}
        if kongs:
            mine["kongs"] = kongs
        if get(f"ready:{name}"):
            mine["ready"] = True
        fish = _count(get(f"fish:{name}"))
        if region.has_fish and fish:
            mine["fish"] = fish
        details[name] = mine
    if any(details.values()):
        data["players"] = details
    if get("count") == "stated":
        data["fans"] = {name: _count(get(f"total:{name}")) for name in players}
    how = get("how") or ""
    if how == "draw":
        data["draw"] = True
    elif how == "abandon":
        leaver = get("leaver")
        data["abandon"] = {"by": leaver} if leaver else {}
    elif how:
        winners = [w for w in _all(form, "winner") if w]
        wins = []
        for winner in winners or [""]:
            win: dict[str, Any] = {"winner": winner, "by": how} if winner else {"by": how}
            if how != "self_draw" and get("from"):
                win["from"] = get("from")
            fans = [f for f in _all(form, f"fan:{winner}") if f]
            if fans:
                win["fans"] = fans
            liable = (get("liable") or "").strip()
            if liable:
                win["liable"] = liable
            wins.append(win)
        data["win"] = wins[0] if len(wins) == 1 else wins
    return data


#: Top-level keys of a hand that the hand form writes (:func:`hand_from_form`); a saved hand's other
#: keys are not on the form and are kept when the hand is edited (:func:`keep_unformed`).
FORM_KEYS = frozenset({"dealer", "players", "fans", "jin", "draw", "abandon", "win"})


def keep_unformed(saved: Mapping[str, Any], edited: dict[str, Any]) -> dict[str, Any]:
    """The edited hand with what the form cannot show carried over from the saved hand.

    The form has no fields for a winner's tiles (``win.tiles``, the tile-level input of an imported
    session file) or keys a later hand format may add; editing such a hand on the page must not drop them.
    ``edited`` (from :func:`hand_from_form`) gets every top-level key of ``saved`` outside
    :data:`FORM_KEYS`, and each of its wins gets the ``tiles`` of the saved win with the same winner
    (a win whose winner changed starts without tiles: they were another player's).  The hand model
    then checks the tiles against the edited facts as for any hand file (opens and kongs must agree).
    Returns ``edited``, changed in place.
    """
    for key, value in saved.items():
        if key not in FORM_KEYS and key not in edited:
            edited[key] = value
    old = saved.get("win")
    old_wins = old if isinstance(old, list) else [old] if isinstance(old, Mapping) else []
    tiles = {w.get("winner"): w["tiles"] for w in old_wins if isinstance(w, Mapping) and "tiles" in w}
    new = edited.get("win")
    for win in new if isinstance(new, list) else [new] if isinstance(new, dict) else []:
        if win.get("winner") in tiles and "tiles" not in win:
            win["tiles"] = tiles[win["winner"]]
    return edited


def has_tiles(hand: Mapping[str, Any]) -> bool:
    """Whether a saved hand gives a winner's tiles (``win.tiles``), which the form keeps but does not show."""
    wins = hand.get("win")
    return any(isinstance(w, Mapping) and "tiles" in w
               for w in (wins if isinstance(wins, list) else [wins]))


def form_from_hand(hand: Mapping[str, Any], rotation: str | None) -> dict[str, Any]:
    """The form values of a saved hand (the inverse of :func:`hand_from_form`): ``how``,
    ``winners``, ``from``, ``leaver``, ``fans`` (winner -> keys), ``liable``, ``dealer``, ``count``,
    and per player ``players[NAME]`` = ``{opens, feeders, kongs, ready, fish, total}``."""
    out: dict[str, Any] = {"how": "", "winners": [], "from": "", "leaver": "", "fans": {}, "liable": "",
                           "dealer": hand.get("dealer", "") if hand.get("dealer") != rotation else "",
                           "count": "stated" if hand.get("fans") or hand.get("jin") else "", "players": {}}
    if hand.get("draw"):
        out["how"] = "draw"
    if isinstance(hand.get("abandon"), Mapping):
        out["how"], out["leaver"] = "abandon", hand["abandon"].get("by", "")
    wins = hand.get("win")
    for win in wins if isinstance(wins, list) else [wins] if isinstance(wins, Mapping) else []:
        out["how"] = win.get("by", "")
        out["winners"].append(win.get("winner", ""))
        out["from"] = win.get("from", "") or out["from"]
        out["fans"][win.get("winner", "")] = list(win.get("fans") or [])
        out["liable"] = win.get("liable", "") or out["liable"]
    players = hand.get("players")
    if isinstance(players, Mapping):
        for name, info in players.items():
            info = info or {}
            opens = info.get("opens", 0)
            out["players"][name] = {"opens": len(opens) if isinstance(opens, list) else opens,
                                    "feeders": list(opens) if isinstance(opens, list) else [],
                                    "kongs": dict(info.get("kongs") or {}), "ready": bool(info.get("ready")),
                                    "fish": info.get("fish", 0)}
    for name, total in (hand.get("fans") or hand.get("jin") or {}).items():
        out["players"].setdefault(name, {}).update(total=total)
    return out


def _getter(form: Mapping[str, Any]) -> Any:
    def get(key: str) -> str | None:
        value = form.get(key)
        if isinstance(value, list):
            return str(value[-1]) if value else None
        return None if value is None else str(value)
    return get


def _all(form: Mapping[str, Any], key: str) -> list[str]:
    getlist = getattr(form, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(key)]
    value = form.get(key)
    if isinstance(value, list):
        return [str(v) for v in value]
    return [] if value is None else [str(value)]


def _count(raw: str | None) -> int | str:
    """A counter's value: 0 when empty, the whole number, or the text itself (refused by validation)."""
    if raw is None or raw.strip() == "":
        return 0
    return _number(raw)


# --- what a settled hand shows ---------------------------------------------------------------------

CAP_WORDS: dict[str, tuple[str, str]] = {
    "capped": ("封顶", "cap"),
    "small_golden": ("小金鼎", "small golden cap"),
    "golden": ("金顶", "golden cap"),
    "bright": ("光明顶", "bright cap"),
}
"""A payment's ``cap`` mark (:data:`settle.core.CAP_MARKS`) -> (中文, English)."""
assert set(CAP_WORDS) == set(CAP_MARKS)


def marks(result: Settlement) -> list[str]:
    """The cap marks of a hand's payments and its 承包 player, as keys (``capped``, ``golden`` ...,
    ``liable``), each once, in :data:`CAP_MARKS` order."""
    found = {t.cap for t in result.transfers if t.cap}
    out = [m for m in CAP_MARKS if m in found]
    return [*out, "liable"] if result.liable else out


def chart_svg(evening: Evening, title: str = "running totals", width: int = 340, height: int = 180) -> str:
    """The running totals as an SVG line chart (one polyline per player, 0 line, last value labelled,
    ``title`` its accessible name); server-rendered text, player names and title escaped."""
    from html import escape

    names = evening.players
    series = [[0, *(h.totals.get(n, 0) for h in evening.report.hands)] for n in names]
    values = [v for s in series for v in s]
    low, high = min(values, default=0), max(values, default=0)
    span = (high - low) or 1
    steps = max(len(series[0]) - 1, 1) if series else 1
    left, right, top, bottom = 8, 70, 10, 16
    colours = ("#1b5e20", "#b71c1c", "#0d47a1", "#6a1b9a", "#e65100", "#004d40")

    def x(i: int) -> float:
        return left + (width - left - right) * i / steps

    def y(v: int) -> float:
        return top + (height - top - bottom) * (high - v) / span

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title)}" class="chart">',
             f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#767676" '
             'stroke-dasharray="3 3"/>']
    label_y = _spread([y(s[-1]) + 4 for s in series], 12, top + 4, height - 2)
    for index, (name, s) in enumerate(zip(names, series, strict=True)):
        colour = colours[index % len(colours)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        parts.append(f'<text x="{x(len(s) - 1) + 4:.1f}" y="{label_y[index]:.1f}" font-size="11" fill="{colour}">'
                     f'{escape(name)} {s[-1]:+d}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _spread(positions: list[float], gap: float, low: float, high: float) -> list[float]:
    """The label heights ``positions`` moved apart to at least ``gap`` between neighbours, kept in
    ``[low, high]`` where they fit (same order as given)."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    out = list(positions)
    previous = low - gap
    for i in order:
        out[i] = max(out[i], previous + gap)
        previous = out[i]
    overflow = previous - high
    if overflow > 0:
        for i in order:
            out[i] = max(low, out[i] - overflow)
    return out
