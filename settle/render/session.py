"""A session as text: tables, Markdown, CSV and JSON (``settle session --format``).

Tables and Markdown hold the per-hand nets (with a ``marks`` column for 承包, caps and forfeits when a
hand has one), the running totals, the warnings and stop notes, every hand's payments with their
``why`` (``details``), and the settle-up; CSV is one table, a row per hand and player with the running
totals (:func:`render_csv`); JSON is :func:`session_dict`.  English
(with the Chinese words of the rules where they name a thing) or Chinese (``lang="zh"``).
"""

from __future__ import annotations

import json
from typing import Any

from settle.core import Settlement, Step
from settle.engine.batch import Standings, ending, how, tally, winners
from settle.engine.messages import ENGINE
from settle.engine.session import SessionHand, SessionReport
from settle.errors import Problem, counted
from settle.render import ending_words, problem_message

CAP_MARKS = ("capped", "small_golden", "golden", "bright")
"""A payment's ``cap`` marks in the order a hand's marks list them (封顶, 小金鼎, 金顶/金鼎, 光明顶)."""


def hand_marks(result: Settlement, lang: str = "en") -> list[str]:
    """The marks of one hand for the session table (issue 16 #2), in ``lang``: the 承包/包胡 player
    (``承包 C``: the region's term, H7/W11), each cap a payment reached (封顶 H5/W7/R7; 小金鼎, 金顶/金鼎
    W8/H6; 光明顶 H6), and a forfeit (罚没 400, H9).  Words from the region's catalog, else the
    session's (:data:`settle.engine.messages.ENGINE`)."""
    steps: list[Step] = []
    if result.liable is not None:
        steps.append(Step("", "mark_liable", {"liable": result.liable}))
    caps = {t.cap for t in result.transfers if t.cap}
    steps += [Step("", f"mark_{cap}", {}) for cap in CAP_MARKS if cap in caps]
    if result.forfeit is not None:
        steps.append(Step("", "mark_forfeit", {"amount": result.forfeit.amount}))
    own = result.catalog.kinds(lang)
    return [(result.catalog if step.kind in own else ENGINE).text(step, lang) for step in steps]


def session_dict(report: SessionReport, lang: str = "en") -> dict[str, Any]:
    """JSON form: hands (each settlement with hand number, id, dealer, rotation dealer, running
    totals), totals, forfeits, settle_up, warnings, errors, stopped, ended."""
    warnings, stopped, ended = report.texts(lang)
    hands = []
    for hand in report.hands:
        entry: dict[str, Any] = {"hand": hand.number, "id": hand.label, "dealer": hand.dealer,
                                 "rotation_dealer": hand.rotation}
        entry.update({k: v for k, v in hand.result.as_dict(lang).items() if k != "id"})
        entry["totals"] = hand.totals
        hands.append(entry)
    return {
        "id": report.name, "source": report.source, "players": report.players,
        "hands": hands, "totals": report.totals, "forfeits": report.forfeits,
        "settle_up": [p.as_dict() for p in report.settle_up],
        "warnings": warnings, "errors": [_error_dict(p, lang) for p in report.problems],
        "stopped": stopped, "ended": ended,
    }


def _error_dict(problem: Problem, lang: str) -> dict[str, object]:
    """A problem's JSON form, its message in ``lang`` (:func:`settle.render.problem_message`)."""
    out = problem.as_dict()
    if lang != "en":
        out["message"] = problem_message(problem, lang)
    return out


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
    if lang == "zh":
        kind, _ = end = ending(result)
        ended = ending_words(end, result.region, "zh")
        if not names:
            return ended
        return f"{names} {ended}" if kind == "self_draw" else f"{names} 胡，{ended}"
    ended = how(result)
    return f"{names} {ended}" if names else ended


def render_session(report: SessionReport, fmt: str, lang: str = "en", details: bool = False) -> str:
    """The session as ``table``, ``markdown``, ``json``, ``jsonl`` or ``csv`` text; ``details`` adds every hand's
    payments with their ``why`` to the tables (issue 16 #2: JSON holds them always)."""
    if fmt == "json":
        return json.dumps(session_dict(report, lang), ensure_ascii=False, indent=1)
    if fmt == "jsonl":  # one line per hand (as in JSON's hands), then one line for the session itself
        whole = session_dict(report, lang)
        hands = whole.pop("hands")
        return "\n".join(json.dumps(line, ensure_ascii=False) for line in [*hands, whole])
    if fmt == "csv":
        return render_csv(report)
    return render_tables(report, "github" if fmt == "markdown" else "simple", lang, details)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def render_tables(report: SessionReport, style: str, lang: str, details: bool = False) -> str:
    """Hands table (per-hand nets, and marks when a hand has one), running-totals table, warnings,
    stop notes, each hand's payments (``details``), settle-up."""
    from tabulate import tabulate

    zh = lang == "zh"
    names = report.players
    count = f"{len(report.hands)} 局" if zh else counted(len(report.hands), "hand")
    title = f"{report.name or report.source}: {count}"
    blocks = [("牌局 " if zh else "Session ") + title]
    right = ("right",) * len(names)
    if report.hands:
        marks = [", ".join(hand_marks(h.result, lang)) for h in report.hands]
        marked = any(marks)
        head = ["#", "局" if zh else "id", "庄" if zh else "dealer", "结果" if zh else "result",
                *(["标记" if zh else "marks"] if marked else []), *names]
        rows = [[h.number, h.label, _dealer_cell(h, zh), result_text(h.result, lang), *([mark] if marked else []),
                 *(_signed(h.result.net[n]) if n in h.result.net else "" for n in names)]
                for h, mark in zip(report.hands, marks, strict=True)]
        blocks.append(tabulate(rows, head, tablefmt=style, disable_numparse=True,
                               colalign=("right", "left", "left", "left", *(("left",) if marked else ()), *right)))
        head = ["#", "局" if zh else "id", *(f"Σ {n}" for n in names)]
        rows = [[h.number, h.label, *(_signed(h.totals.get(n, 0)) for n in names)] for h in report.hands]
        blocks.append(("累计" if zh else "Running totals") + "\n" + tabulate(
            rows, head, tablefmt=style, disable_numparse=True, colalign=("right", "left", *right)))
    if details and report.hands:
        blocks.append(details_text(report, style, lang))
    warnings, stopped, ended = report.texts(lang)
    notes = [("注意：" if zh else "warning: ") + w for w in warnings]
    notes += [("停止：" if zh else "stopped: ") + stopped] if stopped else []
    notes += [("牌局结束：" if zh else "game over: ") + ended] if ended else []
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


def details_text(report: SessionReport, style: str, lang: str) -> str:
    """Every hand's payments with their ``why`` and its notes (``settle session --details``, issue 16 #2):
    a line naming the hand (number, id, dealer, result, marks), then its payments table as
    ``settle hand`` shows it, then its notes."""
    from tabulate import tabulate

    from settle.render import heading, transfer_rows

    zh = lang == "zh"
    out = []
    bullet = "- " if style == "github" else "* "
    for hand in report.hands:
        marks = hand_marks(hand.result, lang)
        title = (f"第 {hand.number} 局 {hand.label}（庄 {hand.dealer}）：{result_text(hand.result, lang)}" if zh else
                 f"Hand {hand.number} {hand.label} (dealer {hand.dealer}): {result_text(hand.result, lang)}")
        title += ("；" if zh else "; ") + ", ".join(marks) if marks else ""
        parts = [title]
        rows = transfer_rows(hand.result, lang)
        if rows:
            parts.append(tabulate(rows, [heading(k, lang) for k in ("from", "amount", "why")], tablefmt=style,
                                  disable_numparse=True, colalign=("left", "right", "left")))
        else:
            parts.append("（无人付分）" if zh else "(no payments)")
        if hand.result.reasons:
            parts.append("\n".join(bullet + note for note in hand.result.note_texts(lang)))
        out.append(("\n\n" if style == "github" else "\n").join(parts))  # Markdown: a table needs its own block
    return ("明细" if zh else "Details") + "\n\n" + "\n\n".join(out)


def _dealer_cell(hand: SessionHand, zh: bool = False) -> str:
    if hand.rotation_differs:
        return f"{hand.dealer} (! {'轮庄' if zh else 'rotation'}: {hand.rotation})"
    return hand.dealer


def render_csv(report: SessionReport) -> str:
    """One table (issue 16 #4): a row per hand and player in :data:`settle.engine.csvrows.SESSION_COLUMNS`
    (hand, id, region, unit, seat, player, roles, score, net, total: the running total, winner, by,
    from, dealer, rotation_dealer, liable, error), then one row per bad hand with its ``id`` and
    ``error`` (problems without a hand, such as a bad header's, in one row without an id).  The
    settle-up is in the other formats; ``--standings`` gives each player's totals."""
    import csv
    import io

    from settle.engine.csvrows import SESSION_COLUMNS, error_row, session_rows

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(SESSION_COLUMNS)
    for h in report.hands:
        writer.writerows(session_rows(h.number, h.label, h.result, h.totals, h.rotation))
    bad: dict[str | None, list[Problem]] = {}
    for problem in report.problems:
        bad.setdefault(problem.hand, []).append(problem)
    for label, problems in bad.items():
        writer.writerow(error_row(label, problems, len(SESSION_COLUMNS), at=1))
    return buf.getvalue().rstrip("\n")


def session_standings(report: SessionReport) -> Standings:
    """The standings of a session's settled hands (:func:`settle.engine.batch.tally` of each): one region,
    each player's total net (forfeits included), hands, wins, deal-ins, liability and caps."""
    standings: Standings = {}
    for hand in report.hands:
        tally(standings, hand.result)
    return standings
