"""A session as text: tables, Markdown, CSV and JSON (``settle session --format``).

Tables and Markdown hold the per-hand nets, the running totals, the warnings and stop notes, and
the settle-up; CSV holds the hands then the settle-up; JSON is :func:`session_dict`.  English
(with the Chinese words of the rules where they name a thing) or Chinese (``lang="zh"``).
"""

from __future__ import annotations

import json
from typing import Any

from settle.core import Settlement
from settle.engine.batch import ending, how, how_text, winners
from settle.engine.session import SessionHand, SessionReport
from settle.errors import counted


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
        "warnings": warnings, "errors": [p.as_dict() for p in report.problems],
        "stopped": stopped, "ended": ended,
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
    if lang == "zh":
        kind, _ = end = ending(result)
        ended = how_text(end, "zh")
        if not names:
            return ended
        return f"{names} {ended}" if kind == "self_draw" else f"{names} 胡，{ended}"
    ended = how(result)
    return f"{names} {ended}" if names else ended


def render_session(report: SessionReport, fmt: str, lang: str = "en") -> str:
    """The session as ``table``, ``markdown``, ``json`` or ``csv`` text."""
    if fmt == "json":
        return json.dumps(session_dict(report, lang), ensure_ascii=False, indent=1)
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
