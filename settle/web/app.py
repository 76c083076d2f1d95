"""The ASGI app of ``settle serve`` (Starlette, Jinja2 with autoescaping, htmx shipped in the package).

Routes (``T`` a table id, ``V`` its read-only id, ``F`` a hand's form id):

* ``GET /`` the table list; ``GET|POST /new`` set up a table; ``POST /import`` a session file;
* ``GET /t/T`` the evening (needs the edit key: ``/t/T?key=K`` stores it in this browser);
  ``GET /t/T/hand[?edit=F]`` the hand form; ``POST /t/T/preview`` the payments before saving;
  ``POST /t/T/hands`` save a new hand; ``POST /t/T/hands/F`` save an edit; ``POST /t/T/hands/F/delete``;
  ``POST /t/T/whatif``; ``GET /t/T/export.yaml``, ``/t/T/export.csv``, ``/t/T/qr-edit.svg``;
* ``GET /v/V`` the read-only page, ``/v/V/live`` its totals (polled), ``/v/V/export.yaml|csv``,
  ``/v/V/qr.svg``; no write route takes a read-only id;
* ``GET /lang/zh|en`` switch the language (a cookie).

Safety: every POST carries the ``csrf`` field equal to this browser's ``settle_csrf`` cookie
(HttpOnly, SameSite=Lax, so that a link or QR code opened from another app still finds it) and,
when the browser sends ``Origin``, comes from this host; bodies are bounded
(:data:`MAX_BODY`, :data:`MAX_UPLOAD`); the edit key is compared in constant time; every write names
the table version it was made from (:class:`~settle.web.store.StaleWrite`).
"""

from __future__ import annotations

import io
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from settle.errors import Problem
from settle.render import heading, player_rows, problem_message, problem_text, transfer_rows
from settle.render.rules import default_text
from settle.render.session import render_csv, result_text, settle_up_lines
from settle.rules.registry import all_regions, get_region, region_key
from settle.web import evening as ev
from settle.web.store import HandRow, NotFound, StaleWrite, Store, TableRow, new_id
from settle.web.words import word

MAX_BODY = 64 * 1024
"""The most bytes a form may send (a hand form is a few kilobytes)."""
MAX_UPLOAD = 1024 * 1024
"""The most bytes an imported session file may have."""
EVENINGS_KEPT = 32
"""How many settled evenings the app keeps in memory (by content; see :meth:`Web.evening`)."""
CSRF_COOKIE = "settle_csrf"
LANG_COOKIE = "settle_lang"


def key_cookie(table_id: str) -> str:
    """The name of the cookie that holds a table's edit key in the scorekeeper's browser."""
    return f"settle_key_{table_id}"


class BodyLimit:
    """ASGI middleware: a request body larger than the limit is refused with 413 before it is read."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_UPLOAD if scope["path"] == "/import" else MAX_BODY
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await PlainTextResponse("request too large", 413)(scope, receive, send)
                return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise TooLarge
            return message

        try:
            await self.app(scope, bounded, send)
        except TooLarge:
            await PlainTextResponse("request too large", 413)(scope, receive, send)


class TooLarge(Exception):
    """A request body went past its bound while being read."""


class Web:
    """The routes over one :class:`~settle.web.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.env = Environment(loader=PackageLoader("settle.web", "templates"),
                               autoescape=select_autoescape(["html", "svg"], default=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.globals.update(heading=heading, default_text=default_text, SEATS=ev.SEATS)
        self.kept: OrderedDict[str, ev.Evening] = OrderedDict()
        self.lock = threading.Lock()

    # --- helpers -------------------------------------------------------------------------------

    def lang(self, request: Request) -> str:
        """The page language: the cookie, else the browser's first choice of zh/en (default zh)."""
        chosen = request.cookies.get(LANG_COOKIE)
        if chosen in ("en", "zh"):
            return chosen
        accept = request.headers.get("accept-language", "").lower()
        return "en" if accept.startswith("en") else "zh"

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """``template`` rendered in the page language with the CSRF token (set as a cookie when new) and
        the safety headers (CSP without inline scripts, no framing, no sniffing, no referrer)."""
        lang = self.lang(request)
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(16)

        def w(key: str, **values: Any) -> str:
            return word(key, lang, **values)

        def problem(p: Problem) -> str:  # a problem as the command line says it in this language
            return problem_text(p, lang)

        def problem_words(p: Problem) -> str:  # its message alone, beside its field
            return problem_message(p, lang)

        html = self.env.get_template(template).render(
            request=request, lang=lang, w=w, problem=problem, problem_words=problem_words, csrf=csrf,
            path=request.url.path, **context)
        response = HTMLResponse(html, status)
        if request.cookies.get(CSRF_COOKIE) != csrf:
            response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="lax")
        response.headers["Content-Security-Policy"] = ("default-src 'self'; img-src 'self' data:; "
                                                       "style-src 'self'; script-src 'self'; "
                                                       "frame-ancestors 'none'; form-action 'self'")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    async def form(self, request: Request) -> FormData:
        """The POSTed form, after the CSRF and origin checks (:class:`Refused` on failure)."""
        origin = request.headers.get("origin")
        if origin and origin != "null" and urlsplit(origin).netloc != request.headers.get("host"):
            raise Refused(403, "cross-site request refused")
        form = await request.form(max_files=1, max_fields=400, max_part_size=MAX_UPLOAD)
        token = form.get("csrf")
        cookie = request.cookies.get(CSRF_COOKIE)
        if not cookie or not isinstance(token, str) or not secrets.compare_digest(token, cookie):
            raise Refused(403, "the form's CSRF token does not match this browser: reload the page")
        return form

    def editable(self, request: Request, table_id: str) -> TableRow:
        """The table, when this browser holds its edit key (:class:`Refused` 403 otherwise)."""
        try:
            table = self.store.table(table_id)
        except NotFound:
            raise Refused(404, "no such table") from None
        key = request.cookies.get(key_cookie(table_id), "")
        if not secrets.compare_digest(key.encode(), table.edit_key.encode()):
            raise Refused(403, word("no_key", self.lang(request)))
        return table

    def evening(self, table: TableRow, hands: list[HandRow] | None = None) -> ev.Evening:
        """The table's evening settled with ``hands`` (default: the stored ones).

        Kept by content (the header and the hands' JSON text) for :data:`EVENINGS_KEPT` evenings: the
        save of a hand settles the evening with it once, and the page it redirects to finds it kept.
        Treated as read only.
        """
        rows = self.store.hands(table.id) if hands is None else hands
        key = json.dumps([table.header, [h.data for h in rows]], sort_keys=True, ensure_ascii=False)
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
                return found
        evening = ev.run_evening(table.header, [h.data for h in rows])
        with self.lock:
            self.kept[key] = evening
            while len(self.kept) > EVENINGS_KEPT:
                self.kept.popitem(last=False)
        return evening

    def evening_context(self, table: TableRow, lang: str) -> dict[str, Any]:
        """What the evening templates show: totals, settle-up lines, figures, chart, results, notes."""
        rows = self.store.hands(table.id)
        evening = self.evening(table, rows)
        warnings, stopped, ended = evening.report.texts(lang)
        return {"table": table, "rows": rows, "evening": evening, "region": evening.region,
                "totals": evening.totals, "settle": settle_up_lines(evening.report, lang),
                "figures": evening.figures(), "chart": ev.chart_svg(evening, word("chart", lang)),
                "results": [result_text(h.result, lang) for h in evening.report.hands],
                "warnings": warnings, "stopped": stopped, "ended": ended,
                "region_title": region_title(evening.region, lang),
                "option_fields": ev.option_fields(evening.region)}

    # --- the table list and set-up ---------------------------------------------------------------

    def index(self, request: Request, form: FormData | None = None) -> Response:
        """``GET /``: the tables whose edit key this browser holds, and the import form."""
        tables = self.store.tables()
        mine = [t for t in tables if request.cookies.get(key_cookie(t.id)) == t.edit_key]
        return self.page(request, "index.html", tables=mine, regions=all_regions())

    def new(self, request: Request, form: FormData | None = None) -> Response:
        """``GET /new``: the set-up form; ``POST /new``: create the table (the hand file's validation of
        region, players, first dealer and options; 422 with its messages) and keep its edit key."""
        lang = self.lang(request)
        if request.method == "GET":
            key = request.query_params.get("region") or all_regions()[0].key
            try:
                region = get_region(region_key(key))
            except Exception:
                region = all_regions()[0]
            count = _int(request.query_params.get("seats"), region.seats[-1])
            count = count if count in region.seats else region.seats[-1]
            return self.page(request, "new.html", region=region, regions=all_regions(), count=count,
                             fields=ev.option_fields(region), values={}, problems=[], names=list(ev.SEATS[:count]),
                             dealer="", region_title=region_title(region, lang), name="")
        form = posted(form)
        try:
            region = get_region(region_key(str(form.get("region", ""))))
        except Exception:
            raise Refused(400, "unknown region") from None
        count = _int(_text(form, "seats"), region.seats[-1])
        names = [(_text(form, f"player:{i}") or "").strip() or ev.SEATS[i] for i in range(min(count, 4))]
        seat = _int(_text(form, "dealer"), 0)
        dealer = names[seat] if 0 <= seat < len(names) else names[0]
        options = ev.options_from_form(region, form)
        problems = ev.header_problems(region.key, names, dealer, options)
        name = (_text(form, "name") or "").strip()[:80] or time.strftime("%Y-%m-%d %H:%M")
        if problems:
            return self.page(request, "new.html", 422, region=region, regions=all_regions(), count=count,
                             fields=ev.option_fields(region), values=dict(form), problems=problems, names=names,
                             dealer=dealer, region_title=region_title(region, lang), name=name)
        header = {"id": name, "region": region.key, "players": names, "options": options, "dealer": dealer}
        table = self.store.create_table(name, header)
        response = RedirectResponse(f"/t/{table.id}", 303)
        response.set_cookie(key_cookie(table.id), table.edit_key, httponly=True, samesite="lax",
                            max_age=400 * 24 * 3600)
        return response

    def import_file(self, request: Request, form: FormData | None = None) -> Response:
        """``POST /import``: a session file becomes a new table (refused whole, 422, if any hand is bad)."""
        form = posted(form)
        upload = form.get("file")
        raw = upload.file.read(MAX_UPLOAD + 1) if isinstance(upload, UploadFile) else str(upload or "").encode()
        imported = ev.import_yaml(raw, getattr(upload, "filename", None) or "upload")
        if imported.problems:
            return self.page(request, "index.html", 422, tables=[], regions=all_regions(),
                             problems=imported.problems)
        header = imported.header
        table = self.store.create_table(str(header["id"])[:80], header)
        for data in imported.hands:
            self.store.add_hand(table.id, new_id(), data, self.store.table(table.id).version)
        response = RedirectResponse(f"/t/{table.id}", 303)
        response.set_cookie(key_cookie(table.id), table.edit_key, httponly=True, samesite="lax",
                            max_age=400 * 24 * 3600)
        return response

    # --- the evening ------------------------------------------------------------------------------

    def table(self, request: Request, form: FormData | None = None) -> Response:
        """``GET /t/T``: the evening for the key holder; ``?key=K`` keeps K in this browser first."""
        table_id = request.path_params["table"]
        key = request.query_params.get("key")
        if key is not None:  # an edit link (the hand-over QR code): keep the key, drop it from the address
            response = RedirectResponse(f"/t/{table_id}", 303)
            response.set_cookie(key_cookie(table_id), key, httponly=True, samesite="lax",
                                max_age=400 * 24 * 3600)
            return response
        table = self.editable(request, table_id)
        lang = self.lang(request)
        context = self.evening_context(table, lang)
        saved = request.query_params.get("saved")
        changes, changed = _changes(context["evening"], request.query_params.get("was"),
                                    request.query_params.get("changed"))
        return self.page(request, "table.html", **context, saved=saved, changes=changes, changed_hand=changed,
                         again=request.query_params.get("again"), base=_base(request))

    def hand_form(self, request: Request, form: FormData | None = None) -> Response:
        """``GET /t/T/hand[?edit=F]``: the hand form, new or filled from a saved hand."""
        table = self.editable(request, request.path_params["table"])
        return self.hand_page(request, table, request.query_params.get("edit"))

    def hand_page(self, request: Request, table: TableRow, edit: str | None, values: Mapping[str, Any] | None = None,
                  problems: list[Any] | None = None, status: int = 200, notice: str | None = None) -> Response:
        """The hand form page (new, or editing form id ``edit``), with ``values`` and ``problems`` shown."""
        rows = self.store.hands(table.id)
        position = next((r.position for r in rows if r.form_id == edit), None)
        if edit is not None and position is None:
            raise Refused(404, "no such hand")
        before = rows if position is None else rows[:position - 1]
        rotation = self.evening(table, before).next_dealer
        region = get_region(table.header["region"])
        if values is None:
            values = ev.form_from_hand(rows[position - 1].data, rotation) if position else {}
        return self.page(request, "hand.html", status, table=table, region=region, players=table.header["players"],
                         rotation=rotation, edit=edit, number=position or len(rows) + 1,
                         form_id=edit or new_id(), v=_Values(values),
                         tiles_kept=position is not None and ev.has_tiles(rows[position - 1].data),
                         problems=problems or [],
                         fields=_fields(problems or [], self.lang(request)), notice=notice, version=table.version,
                         multi=bool(table.header.get("options", {}).get("multi_win")),
                         hows=[h for h in ev.HOWS if h != "abandon" or region.has_abandon],
                         how_words={h: word(f"how_{h}", self.lang(request), discarder=region.discarder)
                                    for h in ev.HOWS},
                         region_title=region_title(region, self.lang(request)))

    def proposed(self, table: TableRow, form: FormData) -> tuple[list[HandRow], dict[str, Any], int, str | None]:
        """The hands as they would be with this form saved: (hands, the form's hand, its 1-based
        number, the edited form id or None)."""
        rows = self.store.hands(table.id)
        edit = _text(form, "edit") or None
        position = next((r.position for r in rows if r.form_id == edit), None) if edit else None
        if edit and position is None:
            raise Refused(404, "no such hand")
        before = rows if position is None else rows[:position - 1]
        rotation = self.evening(table, before).next_dealer
        data = ev.hand_from_form(get_region(table.header["region"]), table.header["players"], form, rotation)
        if position is not None:
            ev.keep_unformed(rows[position - 1].data, data)
        new = HandRow(edit or _text(form, "form_id") or new_id(), position or len(rows) + 1, data)
        if position is None:
            return [*rows, new], data, new.position, None
        return [*rows[:position - 1], new, *rows[position:]], data, position, edit

    def preview(self, request: Request, form: FormData | None = None) -> Response:
        """``POST /t/T/preview``: the payments of the form's hand within the evening, or its problems."""
        table = self.editable(request, request.path_params["table"])
        form = posted(form)
        hands, _, number, _ = self.proposed(table, form)
        evening = self.evening(table, hands)
        return self.preview_page(request, evening, number)

    def preview_page(self, request: Request, evening: ev.Evening, number: int) -> Response:
        """The preview fragment of hand ``number`` of ``evening`` (always 200, for htmx to swap it in)."""
        lang = self.lang(request)
        problems = evening.report.problems
        hand = next((h for h in evening.report.hands if h.number == number), None)
        return self.page(request, "_preview.html", problems=problems,
                         hand=hand, **(_hand_view(hand.result, lang) if hand else {}))

    def save_hand(self, request: Request, form: FormData | None = None) -> Response:
        """``POST /t/T/hands``: save a new hand once per form id; bad input 422, a stale form 409."""
        table = self.editable(request, request.path_params["table"])
        form = posted(form)
        form_id = _text(form, "form_id") or ""
        if not form_id or len(form_id) > 64:
            raise Refused(400, "the form has no id: reload the page")
        done = self.store.has_form(table.id, form_id)
        if done is not None:
            return RedirectResponse(f"/t/{table.id}?saved={done.position}&again=1", 303)
        hands, data, _, _ = self.proposed(table, form)
        evening = self.evening(table, hands)
        if evening.report.problems:
            return self.hand_page(request, table, None, ev.form_from_hand(data, None), evening.report.problems, 422)
        try:
            row, _ = self.store.add_hand(table.id, form_id, data, _int(_text(form, "version"), -1))
        except StaleWrite as exc:
            return self.hand_page(request, table, None, ev.form_from_hand(data, None), [], 409,
                                  notice=stale_text(exc, self.lang(request)))
        return RedirectResponse(f"/t/{table.id}?saved={row.position}", 303)

    def edit_hand(self, request: Request, form: FormData | None = None) -> Response:
        """``POST /t/T/hands/F``: replace hand F; refused (422) when the evening cannot stand with it."""
        table = self.editable(request, request.path_params["table"])
        form = posted(form)
        edit = request.path_params["form"]
        if _text(form, "edit") != edit:
            raise Refused(400, "the form does not edit this hand")
        before = self.evening(table)
        hands, data, number, _ = self.proposed(table, form)
        after = self.evening(table, hands)
        if after.report.problems:
            return self.hand_page(request, table, edit, ev.form_from_hand(data, None), after.report.problems, 422)
        return self.commit(request, table, form, before, after, hands, edit, number)

    def delete_hand(self, request: Request, form: FormData | None = None) -> Response:
        """``POST /t/T/hands/F/delete``: delete hand F; refused (422) when the evening cannot stand without it."""
        table = self.editable(request, request.path_params["table"])
        form = posted(form)
        edit = request.path_params["form"]
        rows = self.store.hands(table.id)
        if not any(r.form_id == edit for r in rows):
            raise Refused(404, "no such hand")
        before = self.evening(table, rows)
        hands = [r for r in rows if r.form_id != edit]
        after = self.evening(table, hands)
        number = next(r.position for r in rows if r.form_id == edit)
        if after.report.problems:
            return self.refused(request, table, after)
        return self.commit(request, table, form, before, after, hands, None, number)

    def refused(self, request: Request, table: TableRow, after: ev.Evening) -> Response:
        """The evening page with the problems that refused a change."""
        context = self.evening_context(table, self.lang(request))
        return self.page(request, "table.html", 422, **context, refused=after.report.problems, base=_base(request))

    def commit(self, request: Request, table: TableRow, form: FormData, before: ev.Evening, after: ev.Evening,
               hands: list[HandRow], edit: str | None, number: int) -> Response:
        """Store the changed hands (version checked), then send the browser to the table page, which
        shows each player's total before and after (:func:`_changes`); a stale version is refused (409)."""
        lang = self.lang(request)
        try:
            self.store.replace_hands(table.id, [(h.form_id, h.data) for h in hands],
                                     _int(_text(form, "version"), -1), edit)
        except StaleWrite as exc:
            context = self.evening_context(table, lang)
            return self.page(request, "table.html", 409, **context, notice=stale_text(exc, lang), base=_base(request))
        was = ",".join(str(before.totals.get(n, 0)) for n in after.players)
        # Post/Redirect/Get: a reload of the table page sends nothing again
        return RedirectResponse(f"/t/{table.id}?changed={number}&was={was}", 303)

    def what_if(self, request: Request, form: FormData | None = None) -> Response:
        """``POST /t/T/whatif``: the same facts and dealers under the form's options, beside the real totals."""
        table = self.editable(request, request.path_params["table"])
        form = posted(form)
        region = get_region(table.header["region"])
        options = ev.options_from_form(region, form)
        real = self.evening(table)
        other = ev.what_if(real, options)
        differ = [(a.number, a.result.net, b.result.net) for a, b in zip(real.report.hands, other.report.hands,
                                                                         strict=False) if a.result.net != b.result.net]
        return self.page(request, "_whatif.html", real=real, other=other, differ=differ,
                         options=options, problems=other.report.problems,
                         settle=settle_up_lines(other.report, self.lang(request)))

    def export_yaml(self, request: Request, form: FormData | None = None) -> Response:
        """The table as a ``settle session`` file."""
        table = self.readable(request)
        text = ev.export_yaml(table.header, [h.data for h in self.store.hands(table.id)])
        return Response(text, media_type="application/yaml; charset=utf-8",
                        headers={"Content-Disposition": _disposition(table, ".yaml")})

    def export_csv(self, request: Request, form: FormData | None = None) -> Response:
        """The evening as ``settle session --format csv`` writes it."""
        table = self.readable(request)
        report = self.evening(table).report
        return Response(render_csv(report) + "\n", media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": _disposition(table, ".csv")})

    def readable(self, request: Request) -> TableRow:
        """The table of a read-only id (``/v/V/...``) or an editable table id (``/t/T/...``)."""
        if "view" in request.path_params:
            try:
                return self.store.table_by_view(request.path_params["view"])
            except NotFound:
                raise Refused(404, "no such table") from None
        return self.editable(request, request.path_params["table"])

    def qr_view(self, request: Request, form: FormData | None = None) -> Response:
        """The read-only link as a QR code."""
        table = self.readable(request)
        return qr_response(f"{_base(request)}/v/{table.view_id}")

    def qr_edit(self, request: Request, form: FormData | None = None) -> Response:
        """The edit link (with the key) as a QR code, for the key holder only."""
        table = self.editable(request, request.path_params["table"])
        return qr_response(f"{_base(request)}/t/{table.id}?key={table.edit_key}")

    # --- the read-only page ---------------------------------------------------------------------------

    def view(self, request: Request, form: FormData | None = None) -> Response:
        """``GET /v/V``: the read-only page."""
        table = self.readable(request)
        context = self.evening_context(table, self.lang(request))
        return self.page(request, "view.html", **context, base=_base(request))

    def live(self, request: Request, form: FormData | None = None) -> Response:
        """The read-only page's totals, polled every 2 s: 204 (nothing to swap) while the table's
        version is still ``since``."""
        table = self.readable(request)
        if request.query_params.get("since") == str(table.version):
            return Response(status_code=204)
        context = self.evening_context(table, self.lang(request))
        return self.page(request, "_live.html", **context)

    def set_lang(self, request: Request, form: FormData | None = None) -> Response:
        """``GET /lang/zh|en?next=/path``: keep the language in a cookie and go back."""
        lang = request.path_params["lang"]
        target = request.query_params.get("next", "/")
        if not target.startswith("/") or target.startswith("//"):
            target = "/"
        response = RedirectResponse(target, 303)
        if lang in ("en", "zh"):
            response.set_cookie(LANG_COOKIE, lang, samesite="lax", max_age=400 * 24 * 3600)
        return response


class Refused(Exception):
    """A request refused with ``status`` and a message shown as the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Values:
    """The hand form's current values for the template (:func:`settle.web.evening.form_from_hand`'s dict)."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = values

    def get(self, key: str, default: Any = "") -> Any:
        """A top-level value (``how``, ``from``, ``liable`` ...)."""
        value = self.values.get(key, default)
        return value if value is not None else default

    def winners(self) -> list[str]:
        """The winners ticked."""
        return list(self.values.get("winners", []))

    def fans(self, winner: str) -> list[str]:
        """The fan keys ticked for ``winner``."""
        return list(self.values.get("fans", {}).get(winner, []))

    def player(self, name: str, item: str, default: Any = 0) -> Any:
        """A per-player value (``opens``, ``ready``, ``fish``, ``total``)."""
        return self.values.get("players", {}).get(name, {}).get(item, default)

    def feeder(self, name: str, index: int) -> str:
        """Who fed open ``index`` of ``name`` (empty when not given)."""
        feeders = self.values.get("players", {}).get(name, {}).get("feeders", [])
        return str(feeders[index]) if index < len(feeders) else ""

    def kong(self, name: str, kind: str) -> Any:
        """How many kongs of ``kind`` ``name`` made."""
        return self.values.get("players", {}).get(name, {}).get("kongs", {}).get(kind, 0)


def posted(form: FormData | None) -> FormData:
    """The form of a POST route (the router gives every POST its checked form)."""
    if form is None:
        raise Refused(405, "this address takes a form (POST)")
    return form


def _fields(problems: list[Any], lang: str = "en") -> dict[str, list[str]]:
    """Problem messages in ``lang`` by the form field they belong to (``win.from`` -> ``from`` ...);
    problems of the whole hand under ``""``."""
    out: dict[str, list[str]] = {}
    for p in problems:
        path = tuple(p.path)
        if path[:1] == ("win",):
            rest = [x for x in path[1:] if not isinstance(x, int)]
            key = {"winner": "winner", "by": "how", "from": "from", "fans": "fans", "liable": "liable"}.get(
                rest[0] if rest else "", "how")
        elif path[:1] == ("players",) and len(path) >= 2:
            key = f"player:{path[1]}"
        elif path[:1] == ("abandon",):
            key = "leaver"
        elif path[:1] in (("dealer",), ("fans",), ("draw",)):
            key = {"dealer": "dealer", "fans": "count", "draw": "how"}[str(path[0])]
        else:
            key = ""
        out.setdefault(key, []).append(problem_message(p, lang))
    return out


def _hand_view(result: Any, lang: str) -> dict[str, Any]:
    return {"players_rows": player_rows(result, lang), "transfer_rows": transfer_rows(result, lang),
            "notes": result.note_texts(lang), "marks": [cap_label(m, lang) for m in ev.marks(result)],
            "liable": result.liable, "next_dealer": result.next_dealer,
            "caps": {(t.payer, t.payee): cap_label(t.cap, lang) for t in result.transfers if t.cap}}


def cap_label(mark: str, lang: str) -> str:
    """``封顶 cap``, ``金顶 golden cap``, ``承包 liable`` (Chinese alone in ``zh``)."""
    zh, en = ev.CAP_WORDS.get(mark) or ("承包", "liable")
    return zh if lang == "zh" else f"{zh} {en}"


def region_title(region: Any, lang: str) -> str:
    """``武汉 wuhan — 番`` / ``武汉 — 番``."""
    return f"{region.term.zh} — {region.unit}" if lang == "zh" else f"{region.term.zh} {region.key} — {region.unit}"


def stale_text(exc: StaleWrite, lang: str) -> str:
    """The refusal of a stale write in the page language."""
    if lang == "zh":
        return "打开这一页之后，这张桌已在另一部手机上改动；请刷新页面后重新输入。"
    return str(exc)


def qr_response(url: str) -> Response:
    """``url`` as a QR code (SVG)."""
    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=5, border=2, dark="#000", light="#fff")
    return Response(buf.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def _changes(evening: ev.Evening, was: str | None, changed: str | None,
             ) -> tuple[list[tuple[str, int, int]], int | None]:
    """Each player's total before and after an edit or a deletion, from the table page's query
    (``changed=N&was=T1,T2,...``, the totals before in seat order, put there by the redirect after the
    change): ``[(name, before, after), ...]`` and hand number N; nothing when the query is absent or
    does not fit this table."""
    try:
        befores = [int(t) for t in (was or "").split(",")] if was else []
        number = int(changed) if changed else None
    except ValueError:
        return [], None
    if number is None or len(befores) != len(evening.players):
        return [], None
    return [(n, b, evening.totals.get(n, 0)) for n, b in zip(evening.players, befores, strict=True)], number


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def _filename(table: TableRow) -> str:
    """An ASCII file name for old browsers (``filename=``); :func:`_disposition` adds the UTF-8 one."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in table.name)[:40] or "table"


def _disposition(table: TableRow, suffix: str) -> str:
    """``Content-Disposition`` of a download named after the table, Chinese names kept (RFC 6266
    ``filename*`` in UTF-8, with an ASCII ``filename`` beside it)."""
    from urllib.parse import quote

    name = "".join(c for c in table.name if c.isprintable() and c not in '/\\:*?"<>|').strip()[:40] or "table"
    return f"attachment; filename=\"{_filename(table)}{suffix}\"; filename*=UTF-8''{quote(name + suffix)}"


def _int(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw is not None else default
    except ValueError:
        return default


def _text(form: FormData, key: str) -> str | None:
    value = form.get(key)
    return value if isinstance(value, str) else None


def create_app(db: str | Path) -> Starlette:
    """The app over the SQLite file ``db`` (created and migrated when needed)."""
    web = Web(Store(db))

    def guard(handler: Callable[[Request, FormData | None], Response]) -> Callable[[Request], Awaitable[Response]]:
        """``handler`` run in a worker thread (SQLite and the settling never hold up the event loop),
        given the POSTed form after its CSRF and origin checks (:meth:`Web.form`); a :class:`Refused`
        is shown as a page with its status."""
        async def run(request: Request) -> Response:
            form = None
            try:
                form = await web.form(request) if request.method == "POST" else None
                return await run_in_threadpool(handler, request, form)
            except Refused as exc:
                return web.page(request, "refused.html", exc.status, message=exc.message)
            finally:
                if form is not None:
                    await form.close()
        return run

    static = Path(__file__).parent / "static"
    routes = [
        Route("/", guard(web.index)),
        Route("/new", guard(web.new), methods=["GET", "POST"]),
        Route("/import", guard(web.import_file), methods=["POST"]),
        Route("/lang/{lang}", guard(web.set_lang)),
        Route("/t/{table}", guard(web.table)),
        Route("/t/{table}/hand", guard(web.hand_form)),
        Route("/t/{table}/preview", guard(web.preview), methods=["POST"]),
        Route("/t/{table}/hands", guard(web.save_hand), methods=["POST"]),
        Route("/t/{table}/hands/{form}", guard(web.edit_hand), methods=["POST"]),
        Route("/t/{table}/hands/{form}/delete", guard(web.delete_hand), methods=["POST"]),
        Route("/t/{table}/whatif", guard(web.what_if), methods=["POST"]),
        Route("/t/{table}/export.yaml", guard(web.export_yaml)),
        Route("/t/{table}/export.csv", guard(web.export_csv)),
        Route("/t/{table}/qr-edit.svg", guard(web.qr_edit)),
        Route("/t/{table}/qr.svg", guard(web.qr_view)),
        Route("/v/{view}", guard(web.view)),
        Route("/v/{view}/live", guard(web.live)),
        Route("/v/{view}/export.yaml", guard(web.export_yaml)),
        Route("/v/{view}/export.csv", guard(web.export_csv)),
        Route("/v/{view}/qr.svg", guard(web.qr_view)),
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.web = web
    app.add_middleware(BodyLimit)
    return app

