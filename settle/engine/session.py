"""One table's evening: the hands in order, running totals, and the settle-up (``settle session``).

Input: the documents of one file (a YAML stream or list, a JSON array or JSON Lines), as
:func:`settle.loader.iter_documents` yields them.  The first document may be a *header*
holding only ``region``, ``options``, ``players`` (and ``id``, the session's name): its keys
fill every hand that lacks them, and a hand's own ``options`` keys override the header's.

Dealer rotation: a hand may leave out ``dealer``; it is then the previous hand's
``next_dealer`` (Wuxue W13, Wuhan H10, Rushan R10).  The first hand must state it.  A
stated dealer that differs from the rotation is used as stated, with a warning.

Stopping: a bad hand is reported and the running totals stop before it, since every later
dealer follows from it; a Wuhan 逃跑 ends the game (H9), and hands after it are reported as
bad.  The settle-up is the fewest-transfers-greedy cash flow that clears every total (at
most players − 1 transfers); a forfeited 逃跑 penalty is its own line (H9).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from settle.engine.batch import hand_label, how, settle_data, winners
from settle.core import Settlement
from settle.errors import HandError, Problem, counted, nearest_line

HEADER_KEYS = ("region", "options", "players", "id")
"""Keys a session header may hold; ``id`` names the session, the others fill every hand."""
OUTCOME_KEYS = ("win", "draw", "abandon")
ROTATION_RULES = {"wuhan": "H10", "wuxue": "W13", "rushan": "R10"}


# --- the settle-up ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payment:
    """One cash transfer of the settle-up: ``payer`` pays ``payee`` ``amount`` points."""

    payer: str
    payee: str
    amount: int

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"

    def as_dict(self) -> dict[str, object]:
        """JSON form: ``{"from", "to", "amount"}``."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


EXACT_SETTLE_UP_PLAYERS = 12
"""Up to this many players with a balance, the settle-up searches every subset (2^n) for the fewest
transfers; an evening's table has far fewer.  Beyond it, the largest-first pass alone (at most n − 1)."""


def settle_up(balances: Mapping[str, int]) -> list[Payment]:
    """The fewest cash transfers that bring every balance to zero (issue 5), at most ``players − 1``.

    The players split into as many groups whose balances sum to zero as they can
    (:func:`zero_sum_groups`); a group of k clears in k − 1 transfers, which is the fewest: n
    players with a balance need n − (groups) transfers.  Within a group the largest debtor pays
    the largest creditor as much as one of them needs (ties: the player listed first).  When that
    largest-first pass over everyone is already as short, it is kept as it is.  Raises ValueError
    when the balances do not sum to zero (take forfeits out first, H9).
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"balances sum to {sum(balances.values())}, not 0: {dict(balances)}")
    owing = {name: v for name, v in balances.items() if v}
    everyone = largest_first(owing)
    if len(owing) > EXACT_SETTLE_UP_PLAYERS:
        return everyone
    groups = zero_sum_groups(owing)
    if len(everyone) == len(owing) - len(groups):
        return everyone
    return [p for group in groups for p in largest_first({name: owing[name] for name in group})]


def largest_first(balances: Mapping[str, int]) -> list[Payment]:
    """Transfers that clear ``balances`` (summing to zero): the largest debtor pays the largest
    creditor as much as one of them needs, until all are clear.  Each transfer clears at least one
    player and the last clears two, so k players need at most k − 1."""
    owed = {name: -v for name, v in balances.items() if v < 0}
    due = {name: v for name, v in balances.items() if v > 0}
    out = []
    while owed:
        payer = max(owed, key=owed.__getitem__)  # max() keeps the first of equals
        payee = max(due, key=due.__getitem__)
        amount = min(owed[payer], due[payee])
        out.append(Payment(payer, payee, amount))
        for book, name in ((owed, payer), (due, payee)):
            book[name] -= amount
            if not book[name]:
                del book[name]
    return out


def zero_sum_groups(balances: Mapping[str, int]) -> list[list[str]]:
    """The players of ``balances`` (non-zero, summing to zero) split into the most groups that each
    sum to zero, in the players' order.

    Over every subset, ``best[mask]`` is the most zero-sum groups a chain of subsets can cut
    ``mask`` into, each step leaving one player out: taking the best smaller subset and counting
    ``mask`` itself when it sums to zero.  The zero-sum subsets along the best chain from everyone
    down are the cuts; the players between two cuts form a group.  O(2^n · n).
    """
    names = list(balances)
    size = 1 << len(names)
    total = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + balances[names[low.bit_length() - 1]]
    best, back = [0] * size, [0] * size
    for mask in range(1, size):
        top, via, rest = -1, 0, mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] > top:
                top, via = best[mask ^ low], mask ^ low
        best[mask], back[mask] = top + (total[mask] == 0), via
    cuts, mask = [], size - 1
    while mask:
        if total[mask] == 0:
            cuts.append(mask)
        mask = back[mask]
    cuts.append(0)
    groups = [outer & ~inner for outer, inner in pairwise(cuts)]
    return sorted(([n for i, n in enumerate(names) if group >> i & 1] for group in groups),
                  key=lambda group: names.index(group[0]))


# --- running a session ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionHand:
    """One settled hand of the session.

    ``number``: 1-based among the hands (the header not counted); ``label``: id or file:index;
    ``dealer``: the dealer it was settled with; ``rotation``: the dealer the previous hand
    passed on (None for the first hand); ``totals``: every player's running total after it.
    """

    number: int
    label: str | int
    result: Settlement
    dealer: str
    rotation: str | None
    totals: dict[str, int]

    @property
    def rotation_differs(self) -> bool:
        """The stated dealer is not the one the rotation gives."""
        return self.rotation is not None and self.rotation != self.dealer


@dataclass
class SessionReport:
    """A session's settled hands, with what stopped it and what to warn about.

    ``problems``: every problem of the bad hand(s) (empty when all were good); ``stopped``:
    why the running totals stop early (a bad hand); ``ended``: the 逃跑 that ended the game
    (H9); ``warnings``: dealers that differ from the rotation.
    """

    source: str
    name: str | int | None = None
    hands: list[SessionHand] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stopped: str | None = None
    ended: str | None = None

    @property
    def players(self) -> list[str]:
        """Every player who played a hand, in first-seen seating order."""
        return list(self.totals)

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total after the last settled hand (forfeits included)."""
        return dict(self.hands[-1].totals) if self.hands else {}

    @property
    def forfeits(self) -> dict[str, int]:
        """Points each player forfeited to nobody (Wuhan 逃跑, escape_paid_to: none; H9)."""
        out: dict[str, int] = {}
        for hand in self.hands:
            if hand.result.forfeit is not None:
                payer = hand.result.forfeit.payer
                out[payer] = out.get(payer, 0) + hand.result.forfeit.amount
        return out

    @property
    def settle_up(self) -> list[Payment]:
        """The cash transfers that clear the totals once the forfeits are paid (see :func:`settle_up`)."""
        forfeits = self.forfeits
        return settle_up({name: total + forfeits.get(name, 0) for name, total in self.totals.items()})

    @property
    def bad(self) -> bool:
        """Some hand could not be counted (exit status 2)."""
        return bool(self.problems)


def run_session(items: Iterable[Any], source: str) -> SessionReport:
    """Settle a session's documents in order (``Document`` or ``HandError`` items, as the loader
    yields them).  Never raises for bad input: problems are in the report."""
    report = SessionReport(source)
    state = _State()
    documents = iter(items)
    for item in documents:
        if isinstance(item, HandError):
            report.problems.extend(item.located(source=source).problems)
            _stop(report, f"hand {_first_hand(item) or source}", documents)
            break
        if state.first and _looks_like_header(item.data):
            state.first = False
            problems = header_problems(item.data)
            if problems:
                report.problems.extend(HandError(problems).located(item.lines, hand="header", source=source).problems)
                _stop(report, "the header", documents)
                break
            state.header = dict(item.data)
            report.name = state.header.pop("id", None)
            state.region = _header_region(state.header)
            state.header_lines = item.lines
            continue
        state.first = False
        if not _one_hand(report, state, item, source):
            _stop(report, f"hand {state.last_label}", documents)
            break
    return report


@dataclass
class _State:
    first: bool = True
    header: dict[str, Any] = field(default_factory=dict)
    rotation: str | None = None
    totals: dict[str, int] = field(default_factory=dict)
    last_label: str | int = ""
    region: str | None = None
    header_lines: dict[Any, int] = field(default_factory=dict)


def _one_hand(report: SessionReport, state: _State, doc: Any, source: str) -> bool:
    """Settle one hand into the report; False when it is bad (the session stops)."""
    number = len(report.hands) + 1
    label = doc.label if doc.label is not None else hand_label(doc.data, source, number)
    state.last_label = label
    if report.ended:
        problem = Problem((), f"the game already ended: {report.ended}; this hand is not counted "
                              "(start a new session file for a new game)")
        return _bad(report, HandError([problem]).located(doc.lines, hand=str(label), source=source))
    data = with_header(state.header, doc.data)
    dealer = data.get("dealer") if isinstance(data, Mapping) else None
    if isinstance(data, Mapping) and dealer is None:
        if state.rotation is None:
            rule = "W13, H10, R10"
            error = HandError.at(("dealer",), f"missing: `dealer` (庄家): the first hand of a session must state "
                                              f"the dealer; later hands may leave it out and follow the rotation "
                                              f"({rule})")
            return _bad(report, error.located(doc.lines, hand=str(label), source=source))
        if not _seated(data, state.rotation):
            error = HandError.at(("dealer",), f"missing: `dealer` (庄家): the rotation gives {state.rotation}, who is "
                                              "not one of this hand's players; state the dealer")
            return _bad(report, error.located(doc.lines, hand=str(label), source=source))
        data = {**data, "dealer": state.rotation}
    outcome = settle_data(data, label, doc.lines, source)
    if outcome.result is None:
        assert outcome.error is not None
        return _bad(report, _blame_header(outcome.error, state, doc.data))
    if state.region is not None and outcome.result.region != state.region:
        # One table plays one rule set: totals in 番, 斤 and 分 do not add up.
        error = HandError.at(("region",), f"this session is played under {state.region}; this hand is "
                                          f"{outcome.result.region}: one session is one table under one rule set "
                                          "(start a new session file for another region)")
        return _bad(report, error.located(doc.lines, hand=str(label), source=source))
    state.region = outcome.result.region
    _count(report, state, number, label, outcome.result)
    return True


def _count(report: SessionReport, state: _State, number: int, label: str | int, result: Settlement) -> None:
    dealer = next((n for n, roles in result.roles.items() if "dealer" in roles), "")
    if state.rotation is not None and dealer != state.rotation:
        rule = ROTATION_RULES.get(result.region, "")
        report.warnings.append(f"hand {label}: dealer {dealer} is stated, the rotation gives {state.rotation} "
                               f"({rule}); settled with {dealer}")
    for name in result.players:
        state.totals.setdefault(name, 0)
    for name, amount in result.net.items():
        state.totals[name] += amount
    report.hands.append(SessionHand(number, label, result, dealer, state.rotation, dict(state.totals)))
    state.rotation = result.next_dealer
    if result.next_dealer is None:
        leaver = next((n for n, roles in result.roles.items() if "abandoned" in roles), "?")
        report.ended = f"{leaver} left the game at hand {label} (逃跑, H9)"


def _bad(report: SessionReport, error: HandError) -> bool:
    report.problems.extend(error.problems)
    return False


def _stop(report: SessionReport, what: str, rest: Iterable[Any]) -> None:
    """Say why the running totals stop at the bad document ``what`` (``hand X``, ``the header``);
    count the documents not settled."""
    later = sum(1 for _ in rest)
    after = f"after hand {report.hands[-1].label}" if report.hands else "before the first hand"
    if report.ended:
        text = f"{what} comes after the end of the game; the running totals stop {after}"
    else:
        text = (f"{what} could not be settled: the running totals stop {after}, because every later "
                "dealer follows from it")
    if later:
        text += f"; {later} later document{'s' if later != 1 else ''} not settled"
    report.stopped = text


def _seated(data: Mapping[str, Any], name: str) -> bool:
    """Whether ``name`` is among the hand's ``players`` (list or mapping; True when they are malformed,
    so that validation reports them instead)."""
    players = data.get("players")
    if isinstance(players, list | Mapping):
        return any(isinstance(p, str) and p.strip() == name for p in players)
    return True


def _first_hand(error: HandError) -> str | None:
    return next((p.hand for p in error.problems if p.hand), None)


def _looks_like_header(data: Any) -> bool:
    """A first document with no outcome and at least one room key is meant as a header."""
    return (isinstance(data, Mapping) and not any(k in data for k in OUTCOME_KEYS)
            and any(k in data for k in HEADER_KEYS[:3]))


def header_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Keys a header may not hold (anything but region, options, players, id); options must be a mapping."""
    out = [Problem((key,), f"`{key}` is not allowed in a session header (it holds only region, options, "
                           "players and id); put it in the hands" + (", the first hand states the dealer"
                                                                     if key == "dealer" else ""))
           for key in data if key not in HEADER_KEYS]
    if data.get("options") is not None and not isinstance(data["options"], Mapping):
        out.append(Problem(("options",), "options must be a mapping of option -> value"))
    return out


def _blame_header(error: HandError, state: _State, hand: Any) -> HandError:
    """Problems with a value the header gave this hand (its players, an option it did not set
    itself) point at the header's line, and say so."""
    given = _from_header(state.header, hand) if isinstance(hand, Mapping) else []
    if not given:
        return error
    return HandError([replace(p, line=nearest_line(p.path, state.header_lines) or p.line,
                              message=f"{p.message} (from the session header)")
                      if any(p.path[:len(key)] == key for key in given) else p for p in error.problems])


def _from_header(header: Mapping[str, Any], hand: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The key paths whose values :func:`with_header` takes from the header for ``hand``."""
    keys = [(key,) for key in ("region", "players", "options") if key in header and key not in hand]
    if ("options",) in keys:  # all the hand's options are the header's (a G13 order problem too)
        return keys
    own = hand.get("options") if isinstance(hand.get("options"), Mapping) else {}
    shared = header.get("options") if isinstance(header.get("options"), Mapping) else {}
    return keys + [("options", key) for key in shared if key not in own]


def _header_region(header: Mapping[str, Any]) -> str | None:
    """The canonical region of a header, or None (none given, or one each hand will refuse)."""
    from settle.rules.registry import region_key

    try:
        return region_key(header["region"]) if "region" in header else None
    except HandError:
        return None


def with_header(header: Mapping[str, Any], hand: Any) -> Any:
    """``hand`` with the header's region/players where it has none and the header's options under
    its own (a hand's own option keys win)."""
    if not header or not isinstance(hand, Mapping):
        return hand
    merged = dict(hand)
    for key in ("region", "players"):
        if key in header and key not in merged:
            merged[key] = header[key]
    if header.get("options") is not None:
        own = merged.get("options")
        if own is None:
            merged["options"] = header["options"]
        elif isinstance(own, Mapping):
            merged["options"] = {**header["options"], **own}
    return merged


# --- output -----------------------------------------------------------------------------------------


def session_dict(report: SessionReport) -> dict[str, Any]:
    """JSON form: hands (each settlement with hand number, id, dealer, rotation dealer, running
    totals), totals, forfeits, settle_up, warnings, errors, stopped, ended."""
    hands = []
    for hand in report.hands:
        entry: dict[str, Any] = {"hand": hand.number, "id": hand.label, "dealer": hand.dealer,
                                 "rotation_dealer": hand.rotation}
        entry.update({k: v for k, v in hand.result.as_dict().items() if k != "id"})
        entry["totals"] = hand.totals
        hands.append(entry)
    return {
        "id": report.name, "source": report.source, "players": report.players,
        "hands": hands, "totals": report.totals, "forfeits": report.forfeits,
        "settle_up": [p.as_dict() for p in report.settle_up],
        "warnings": report.warnings, "errors": [p.as_dict() for p in report.problems],
        "stopped": report.stopped, "ended": report.ended,
    }


def settle_up_lines(report: SessionReport, lang: str = "en") -> list[str]:
    """``B forfeits 400`` for each forfeit (H9), then ``B pays A 120`` for each transfer
    (``B 罚 400`` and ``B 付给 A 120`` in Chinese)."""
    if lang == "zh":
        return ([f"{name} 罚 {amount}（逃跑罚分，无人收，H9）" for name, amount in report.forfeits.items()]
                + [f"{p.payer} 付给 {p.payee} {p.amount}" for p in report.settle_up])
    lines = [f"{name} forfeits {amount} (逃跑 penalty paid to nobody, H9)"
             for name, amount in report.forfeits.items()]
    return lines + [str(p) for p in report.settle_up]


def result_text(result: Settlement, lang: str = "en") -> str:
    """``D discard from A``, ``D self_draw``, ``draw``, ``abandon by B`` (``D 胡，A 点炮`` ... in Chinese)."""
    names = "+".join(winners(result))
    ended = how(result)
    if lang == "zh":
        from settle.render.i18n import how_zh

        ended = how_zh(ended)
        if not names:
            return ended
        return f"{names} {ended}" if ended == "自摸" else f"{names} 胡，{ended}"
    return f"{names} {ended}" if names else ended


def render_session(report: SessionReport, fmt: str, lang: str = "en") -> str:
    """The session as ``table``, ``markdown``, ``json`` or ``csv`` text."""
    if fmt == "json":
        return json.dumps(session_dict(report), ensure_ascii=False, indent=1)
    if fmt == "csv":
        return render_csv(report)
    return render_tables(report, "github" if fmt == "markdown" else "simple", lang)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def render_tables(report: SessionReport, style: str, lang: str) -> str:
    """Hands table (per-hand nets), running-totals table, warnings, stop notes, settle-up."""
    from tabulate import tabulate

    zh = lang == "zh"
    names = report.players
    count = f"{len(report.hands)} 局" if zh else counted(len(report.hands), "hand")
    title = f"{report.name or report.source}: {count}"
    blocks = [("牌局 " if zh else "Session ") + title]
    if report.hands:
        head = ["#", "局" if zh else "id", "庄" if zh else "dealer", "结果" if zh else "result", *names]
        rows = [[h.number, h.label, _dealer_cell(h, zh), result_text(h.result, lang),
                 *(_signed(h.result.net[n]) if n in h.result.net else "" for n in names)] for h in report.hands]
        right = ("right",) * len(names)
        blocks.append(tabulate(rows, head, tablefmt=style, disable_numparse=True,
                               colalign=("right", "left", "left", "left", *right)))
        head = ["#", "局" if zh else "id", *(f"Σ {n}" for n in names)]
        rows = [[h.number, h.label, *(_signed(h.totals.get(n, 0)) for n in names)] for h in report.hands]
        blocks.append(("累计" if zh else "Running totals") + "\n" + tabulate(
            rows, head, tablefmt=style, disable_numparse=True, colalign=("right", "left", *right)))
    notes = [("注意：" if zh else "warning: ") + w for w in report.warnings]
    notes += [("停止：" if zh else "stopped: ") + report.stopped] if report.stopped else []
    notes += [("牌局结束：" if zh else "game over: ") + report.ended] if report.ended else []
    if zh:
        from settle.render.i18n import to_zh

        notes = [to_zh(note) for note in notes]
    if notes:
        blocks.append("\n".join(notes))
    lines = settle_up_lines(report, lang)
    title = "结算" if zh else "Settle-up"
    if report.stopped and not report.hands:
        title += "（没有一局结算）" if zh else " (no hand settled: the session stopped at its first hand)"
    elif report.stopped:  # a scorekeeper must not take the partial totals for the evening's result
        last = report.hands[-1].label
        title += (f"（仅到第 {last} 局，牌局未完）" if zh
                  else f" so far (up to hand {last} only: the session stopped at a bad hand)")
    bullet = "- " if style == "github" else "  "  # a Markdown list, not one run-on paragraph
    nobody = "谁也不欠谁" if zh else "nobody owes anything"
    blocks.append(title + "\n" + "\n".join(f"{bullet}{line}" for line in lines or [nobody]))
    return "\n\n".join(blocks)


def _dealer_cell(hand: SessionHand, zh: bool = False) -> str:
    if hand.rotation_differs:
        return f"{hand.dealer} (! {'轮庄' if zh else 'rotation'}: {hand.rotation})"
    return hand.dealer


def render_csv(report: SessionReport) -> str:
    """Hands (hand, id, dealer, rotation_dealer, result, net_<player>..., total_<player>...),
    a blank line, then the settle-up (action, from, to, amount)."""
    import csv
    import io

    names = report.players
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["hand", "id", "dealer", "rotation_dealer", "result",
                     *(f"net_{n}" for n in names), *(f"total_{n}" for n in names)])
    for h in report.hands:
        writer.writerow([h.number, h.label, h.dealer, h.rotation or "", result_text(h.result),
                         *(h.result.net.get(n, "") for n in names), *(h.totals.get(n, 0) for n in names)])
    buf.write("\n")
    writer.writerow(["action", "from", "to", "amount"])
    for name, amount in report.forfeits.items():
        writer.writerow(["forfeits", name, "", amount])
    for p in report.settle_up:
        writer.writerow(["pays", p.payer, p.payee, p.amount])
    return buf.getvalue().rstrip("\n")
