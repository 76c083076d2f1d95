"""Running a session: one table's hands in order, the dealer rotation, the header, the running totals.

Input: the documents of one file (a YAML stream or list, a JSON array or JSON Lines), as
:func:`settle.loader.iter_documents` yields them.  The first document may be a *header*
holding only ``region``, ``options``, ``players`` (and ``id``, the session's name): its keys
fill every hand that lacks them, and a hand's own ``options`` keys override the header's.

Seating (issue 16 #1): the header's ``players`` is the table's seating for every hand.  A hand's
own ``players`` adds details to it: it lists only the players with facts (``{D: {opens: 1}}``), the
seating stays the header's, and each listed player's details go over the header's key by key.  A
name not at the table is an error, and so is a hand that lists every player in another order (a
seating is not changed silently).  Without a header, each hand's ``players`` is its own seating, as
before (the first hand's seating holds until a hand lists another).

Dealer rotation: a hand may leave out ``dealer``; it is then the previous hand's
``next_dealer`` (Wuxue W13, Wuhan H10, Rushan R10).  The first hand must state it.  A
stated dealer that differs from the rotation is used as stated, with a warning.

Stopping: a bad hand is reported and the running totals stop before it, since every later
dealer follows from it; a Wuhan 逃跑 ends the game (H9), and hands after it are reported as
bad.  The documents after the stop are not counted but still checked, so that one run reports
every bad hand (a later hand that states no dealer is tried with each player dealing: the rotation
that would give it is not known).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from settle.core import Settlement, Step
from settle.engine.batch.outcome import hand_label, settle_data
from settle.engine.messages import ENGINE
from settle.engine.session.settleup import Payment, settle_up
from settle.errors import HandError, Problem, nearest_line
from settle.rules.registry import get_region

HEADER_KEYS = ("region", "options", "players", "id")
"""Keys a session header may hold; ``id`` names the session, the others fill every hand."""

MAX_PLAYERS = 16
"""The most distinct players a session may hold (issue 15 #9): an evening's table and the players who
take a seat in turn; more is a bad input (problem kind ``session_players``, values ``limit``, ``count``
and ``new``, the new names joined by ``, ``), not a table of thousands of columns.  Checked as each
hand is settled, so a file of 1,000 tables stops at its fifth hand."""
OUTCOME_KEYS = ("win", "draw", "abandon")


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

    ``problems``: every problem of the bad hand(s) (empty when all were good); ``stop``: why
    the running totals stop early (a bad hand), as a step; ``end``: the 逃跑 that ended the game
    (H9); ``warning_steps``: dealers that differ from the rotation.  ``stopped``, ``ended`` and
    ``warnings`` are those in English (:meth:`texts` in another language).
    """

    source: str
    name: str | int | None = None
    hands: list[SessionHand] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warning_steps: list[Step] = field(default_factory=list)
    stop: Step | None = None
    end: Step | None = None

    @property
    def warnings(self) -> list[str]:
        """The rotation warnings in English."""
        return [ENGINE.text(w) for w in self.warning_steps]

    @property
    def stopped(self) -> str | None:
        """Why the running totals stop early, in English (None when they do not)."""
        return None if self.stop is None else ENGINE.text(self.stop)

    @property
    def ended(self) -> str | None:
        """The 逃跑 that ended the game, in English (None when it did not end)."""
        return None if self.end is None else ENGINE.text(self.end)

    def texts(self, lang: str) -> tuple[list[str], str | None, str | None]:
        """(warnings, stopped, ended) in ``lang``."""
        return ([ENGINE.text(w, lang) for w in self.warning_steps],
                None if self.stop is None else ENGINE.text(self.stop, lang),
                None if self.end is None else ENGINE.text(self.end, lang))

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


def find_hand(report: SessionReport, wanted: str) -> SessionHand | None:
    """The settled hand ``wanted`` names (``settle session --hand N``, issue 16 #2): the hand whose
    ``id`` is ``wanted``, else the ``wanted``-th hand (1-based, the header not counted); None when
    neither is settled.  An id is looked for first, so ``--hand 3`` on hands whose ids are numbers
    finds the hand with ``id: 3``."""
    for hand in report.hands:
        if str(hand.label) == wanted:
            return hand
    if wanted.isascii() and wanted.isdigit() and 1 <= int(wanted) <= len(report.hands):
        return report.hands[int(wanted) - 1]
    return None


def run_session(items: Iterable[Any], source: str) -> SessionReport:
    """Settle a session's documents in order (``Document`` or ``HandError`` items, as the loader
    yields them).  Never raises for bad input: problems are in the report.

    The running totals stop at the first bad document (the header, or a hand), but every later
    document is still checked, so that one run reports every bad hand (:func:`_stop`)."""
    report = SessionReport(source)
    state = _State()
    documents = iter(items)
    for item in documents:
        if isinstance(item, HandError):
            report.problems.extend(item.located(source=source).problems)
            checked, state.first = not state.first, False
            _stop(report, state, _first_hand(item) or source, documents, checked=checked)
            break
        if state.first and _looks_like_header(item.data):
            state.first = False
            problems = header_problems(item.data)
            _take_header(report, state, item)
            if problems:
                report.problems.extend(HandError(problems).located(item.lines, hand="header", source=source).problems)
                _stop(report, state, None, documents, rotation=True)
                break
            continue
        state.first = False
        if not _one_hand(report, state, item, source):
            # Past the most players a session holds the rest of the file is other tables (issue 15 #9):
            # read, not checked against this one, so a file of 1,000 tables still stops at its fifth hand.
            other_tables = bool(report.problems) and report.problems[-1].kind == "too_many_players"
            _stop(report, state, state.last_label, documents, checked=not other_tables)
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


def _take_header(report: SessionReport, state: _State, doc: Any) -> None:
    """Take the header's keys for every hand: those a header may hold (a bad header's other keys are
    its problems, and the later hands are still checked with the rest; ``options`` that are not a
    mapping are left out)."""
    header = {key: value for key, value in doc.data.items() if key in HEADER_KEYS}
    if header.get("options") is not None and not isinstance(header["options"], Mapping):
        del header["options"]
    state.header = header
    report.name = state.header.pop("id", None)
    state.region = _header_region(state.header)
    state.header_lines = doc.lines


def _one_hand(report: SessionReport, state: _State, doc: Any, source: str) -> bool:
    """Settle one hand into the report; False when it is bad (the session stops)."""
    number = len(report.hands) + 1
    label = doc.label if doc.label is not None else hand_label(doc.data, source, number)
    state.last_label = label
    if report.ended:
        end = report.end.values if report.end is not None else {}
        problem = Problem((), f"the game already ended: {report.ended}; this hand is not counted "
                              "(start a new session file for a new game)", kind="after_game_end",
                          values={"leaver": end.get("leaver"), "hand": end.get("hand")})
        return _bad(report, HandError([problem]).located(doc.lines, hand=str(label), source=source))
    checked = _checked(state, doc, label, source, rotation=True)
    if isinstance(checked, HandError):
        return _bad(report, checked)
    result = checked[0]
    new = [name for name in result.players if name not in state.totals]
    if len(state.totals) + len(new) > MAX_PLAYERS:
        error = HandError.at(("players",), f"a session holds at most {MAX_PLAYERS} players; this hand brings "
                                           f"{len(state.totals) + len(new)} (new here: {', '.join(new)}): "
                                           "start a new session file for another table", kind="too_many_players",
                                 values={"max": MAX_PLAYERS, "count": len(state.totals) + len(new),
                                         "new": "、".join(new)})
        return _bad(report, error.located(doc.lines, hand=str(label), source=source))
    state.region = result.region
    _count(report, state, number, label, result)
    return True


def _checked(state: _State, doc: Any, label: str, source: str,
             rotation: bool) -> HandError | tuple[Settlement, bool]:
    """One hand settled with the header and the dealer rotation, not counted: its problems, or its
    settlement and whether its dealer was guessed.  ``rotation``: whether ``state.rotation`` is the
    dealer the rotation gives (None before the first hand); when it is not known (after a bad hand), a
    hand that states no dealer is tried with each player dealing (:func:`_any_dealer`)."""
    seating = seat_problems(state.header, doc.data)
    if seating:
        return HandError(seating).located(doc.lines, hand=str(label), source=source)
    data = with_header(state.header, doc.data)
    dealer = data.get("dealer") if isinstance(data, Mapping) else None
    if isinstance(data, Mapping) and dealer is None:
        if not rotation:
            return _any_dealer(state, doc, data, label, source)
        if state.rotation is None:
            rule = "W13, H10, R10"
            error = HandError.at(("dealer",), f"missing: `dealer` (庄家): the first hand of a session must state "
                                              f"the dealer; later hands may leave it out and follow the rotation "
                                              f"({rule})", kind="first_dealer", values={"rule": rule})
            return error.located(doc.lines, hand=str(label), source=source)
        if not _seated(data, state.rotation):
            error = HandError.at(("dealer",), f"missing: `dealer` (庄家): the rotation gives {state.rotation}, who is "
                                              "not one of this hand's players; state the dealer",
                                 kind="rotation_not_seated", values={"rotation": state.rotation})
            return error.located(doc.lines, hand=str(label), source=source)
        data = {**data, "dealer": state.rotation}
    settled = _settled(state, doc, data, label, source)
    return settled if isinstance(settled, HandError) else (settled, False)


def _settled(state: _State, doc: Any, data: Any, label: str, source: str) -> HandError | Settlement:
    """``data`` (the hand with the header's keys and its dealer) settled, or its problems: the hand's own,
    those of a value the header gave it (:func:`_blame_header`), or a region other than the session's."""
    outcome = settle_data(data, label, doc.lines, source)
    if outcome.result is None:
        assert outcome.error is not None
        return _blame_header(outcome.error, state, doc.data)
    if state.region is not None and outcome.result.region != state.region:
        # One table plays one rule set: totals in 番, 斤 and 分 do not add up.
        error = HandError.at(("region",), f"this session is played under {state.region}; this hand is "
                                          f"{outcome.result.region}: one session is one table under one rule set "
                                          "(start a new session file for another region)", kind="other_region",
                                 values={"session": get_region(state.region).term.zh,
                                         "hand": get_region(outcome.result.region).term.zh})
        return error.located(doc.lines, hand=str(label), source=source)
    return outcome.result


def _any_dealer(state: _State, doc: Any, data: Mapping[str, Any], label: str,
                source: str) -> HandError | tuple[Settlement, bool]:
    """A hand after a bad one that states no dealer: the rotation that would give it is not known, so it
    is tried with each of its players dealing, in seating order.  The first that settles is taken (the
    hand may well be good); when none does, the problems common to every try are its problems (those of
    the first try when no problem is common to all).  A hand whose players cannot be read is settled as
    it is, without the dealer's absence among its problems (it is not the hand's fault)."""
    names = _names(data.get("players"))
    if not names:
        settled = _settled(state, doc, data, label, source)
        if isinstance(settled, HandError):
            kept = [p for p in settled.problems if p.kind != "dealer_missing"]
            return HandError(kept or settled.problems)
        return settled, True
    errors: list[HandError] = []
    for name in names:
        settled = _settled(state, doc, {**data, "dealer": name}, label, source)
        if not isinstance(settled, HandError):
            return settled, True
        errors.append(settled)
    seen = [{(p.path, p.kind, p.message) for p in error.problems} for error in errors[1:]]
    common = [p for p in errors[0].problems if all((p.path, p.kind, p.message) in one for one in seen)]
    return HandError(common) if common else errors[0]


def _count(report: SessionReport, state: _State, number: int, label: str | int, result: Settlement) -> None:
    dealer = next((n for n, roles in result.roles.items() if "dealer" in roles), "")
    if state.rotation is not None and dealer != state.rotation:
        rule = get_region(result.region).rotation_rule
        report.warning_steps.append(Step(rule, "rotation_differs", {"hand": label, "dealer": dealer,
                                                                    "rotation": state.rotation}))
    for name in result.players:
        state.totals.setdefault(name, 0)
    for name, amount in result.net.items():
        state.totals[name] += amount
    report.hands.append(SessionHand(number, label, result, dealer, state.rotation, dict(state.totals)))
    state.rotation = result.next_dealer
    if result.next_dealer is None:
        leaver = next((n for n, roles in result.roles.items() if "abandoned" in roles), "?")
        report.end = Step("H9", "game_ended", {"leaver": leaver, "hand": label})


def _bad(report: SessionReport, error: HandError) -> bool:
    report.problems.extend(error.problems)
    return False


def _stop(report: SessionReport, state: _State, hand: str | int | None, rest: Iterable[Any],
          checked: bool = True, rotation: bool = False) -> None:
    """Say why the running totals stop at the bad document: ``hand`` (its label), or the header (None);
    count the documents not settled, and report every later bad hand's problems.

    Each later document is checked as the session would settle it, and never counted: its reading
    problems, its seating against the header, its own checks with the header's keys.  ``rotation``:
    whether the dealer rotation is still known (after a bad header: the first hand must state the dealer);
    after a bad hand it is not, until a later hand states its dealer and settles.  ``checked`` False: only
    the later documents' reading problems are reported, when the first document could not be read (it may
    have been the header, and the checks would blame its missing keys on every hand) or the session holds
    too many players (the rest of the file is other tables)."""
    later = 0
    for item in rest:
        later += 1
        if isinstance(item, HandError):
            report.problems.extend(item.located(source=report.source).problems)
            rotation = False
        elif checked:
            rotation = _check_later(report, state, item, rotation)
    after = report.hands[-1].label if report.hands else None
    report.stop = Step("", "totals_stop", {"hand": hand, "after": after, "ended": report.end is not None,
                                           "later": later})


def _check_later(report: SessionReport, state: _State, doc: Any, rotation: bool) -> bool:
    """Check one document after the session stopped (:func:`_stop`), adding its problems to the report;
    whether the dealer rotation is known after it."""
    checked = _checked(state, doc, doc.label, report.source, rotation)
    if isinstance(checked, HandError):
        report.problems.extend(checked.problems)
        return False
    result, guessed = checked
    if state.region is None:
        state.region = result.region
    if guessed or result.next_dealer is None:
        return False
    state.rotation = result.next_dealer
    return True


def _seated(data: Mapping[str, Any], name: str) -> bool:
    """Whether ``name`` is among the hand's ``players`` (list or mapping; True when they are malformed,
    so that validation reports them instead)."""
    players = data.get("players")
    if isinstance(players, list | Mapping):
        return any(isinstance(p, str) and p.strip() == name for p in players)
    return True


def _seat(seating: Any, given: Any, name: str, listed: list[str]) -> Any:
    """One seat's details: the header's, with the hand's keys over them when the hand lists the player."""
    base = _details(seating, name)
    if name not in listed:
        return base
    own = _details(given, name)
    if isinstance(base, Mapping) and isinstance(own, Mapping):
        return {**base, **own}
    return own


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
                                                                     if key == "dealer" else ""),
                   kind="header_key", values={"key": key, "dealer": key == "dealer"})
           for key in data if key not in HEADER_KEYS]
    if data.get("options") is not None and not isinstance(data["options"], Mapping):
        out.append(Problem(("options",), "options must be a mapping of option -> value", kind="header_options",
                           values={}))
    return out


def _blame_header(error: HandError, state: _State, hand: Any) -> HandError:
    """Problems with a value the header gave this hand (its players, an option it did not set
    itself) point at the header's line, and say so."""
    given = _from_header(state.header, hand) if isinstance(hand, Mapping) else []
    if not given:
        return error
    return HandError([replace(p, line=nearest_line(p.path, state.header_lines) or p.line,
                              message=f"{p.message} (from the session header)",
                              values=None if p.values is None else {**p.values, "from_header": True})
                      if any(p.path[:len(key)] == key for key in given) else p for p in error.problems])


def _from_header(header: Mapping[str, Any], hand: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The key paths whose values :func:`with_header` takes from the header for ``hand``."""
    keys: list[tuple[str, ...]] = [(key,) for key in ("region", "players", "options")
                                   if key in header and key not in hand]
    listed = _names(hand.get("players"))
    if ("players",) not in keys and listed is not None:  # the seats the hand leaves to the header
        keys += [("players", name) for name in _names(header.get("players")) or () if name not in listed]
    if ("options",) in keys:  # all the hand's options are the header's (a G13 order problem too)
        return keys
    own = _options_of(hand)
    return keys + [("options", key) for key in _options_of(header) if key not in own]


def _options_of(document: Mapping[str, Any]) -> Mapping[str, Any]:
    """The ``options`` mapping of a header or hand, empty when it gives none (or not a mapping)."""
    options = document.get("options")
    return options if isinstance(options, Mapping) else {}


def _header_region(header: Mapping[str, Any]) -> str | None:
    """The canonical region of a header, or None (none given, or one each hand will refuse)."""
    from settle.rules.registry import region_key

    try:
        return region_key(header["region"]) if "region" in header else None
    except HandError:
        return None


def _names(players: Any) -> list[str] | None:
    """The names of a ``players`` list or mapping, in order; None when it is neither or holds a name
    that is not text (validation reports those)."""
    if not isinstance(players, list | Mapping):
        return None
    names = list(players)
    return names if all(isinstance(name, str) for name in names) else None


def _details(players: Any, name: str) -> Any:
    """The details of ``name`` in a ``players`` list (none: ``{}``) or mapping (as given)."""
    if isinstance(players, Mapping):
        details = players[name]
        return {} if details is None else details
    return {}


def seat_problems(header: Mapping[str, Any], hand: Any) -> list[Problem]:
    """What is wrong with a hand's ``players`` against the header's seating (issue 16 #1): a name not
    at the table (at ``players.NAME``), or every player listed in another order (at ``players``).
    Nothing without a header seating, or when either list is malformed (validation says so)."""
    seated = _names(header.get("players")) if header else None
    listed = _names(hand.get("players")) if isinstance(hand, Mapping) else None
    if not seated or listed is None:
        return []
    table = ", ".join(seated)
    out = [Problem(("players", name), f"{name} is not at this table (the session header seats {table}); a hand's "
                                      "players adds details to the header's seating",
                   kind="not_at_table", values={"name": name, "table": table})
           for name in listed if name not in seated]
    if not out and len(listed) == len(seated) and set(listed) == set(seated) and listed != seated:
        out.append(Problem(("players",), f"this hand lists every player in another order ({', '.join(listed)}) "
                                         f"than the session header's seating ({table}): the seating is the "
                                         "header's; list only the players with facts, or all in the header's order",
                           kind="seat_order", values={"listed": ", ".join(listed), "table": table}))
    return out


def with_header(header: Mapping[str, Any], hand: Any) -> Any:
    """``hand`` with the header's region/players where it has none and the header's options under
    its own (a hand's own option keys win).

    A hand's own ``players`` adds to the header's seating (issue 16 #1): the seating is the header's,
    each player's details the header's with the hand's keys over them (call :func:`seat_problems`
    first: a name not at the table, or another order, is refused there).
    """
    if not header or not isinstance(hand, Mapping):
        return hand
    merged = dict(hand)
    for key in ("region", "players"):
        if key in header and key not in merged:
            merged[key] = header[key]
    seated = _names(header.get("players"))
    listed = _names(hand.get("players"))
    if ("players" in hand and seated and listed is not None and len(set(listed)) == len(listed)
            and set(listed) <= set(seated)):
        merged["players"] = {name: _seat(header["players"], hand["players"], name, listed) for name in seated}
    if header.get("options") is not None:
        own = merged.get("options")
        if own is None:
            merged["options"] = header["options"]
        elif isinstance(own, Mapping):
            merged["options"] = {**header["options"], **own}
    return merged
