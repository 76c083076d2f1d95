"""The page's routes without a browser (Starlette's test client): set-up validation, the read-only
link refused on every write, CSRF, request bounds, escaping, stale writes, import/export/CSV, what-if,
languages, the chart and the per-player figures (issue 17)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from webhelpers import TestClient, client_for, csrf

from settle.web import create_app
from settle.web.app import MAX_BODY

ROOT = Path(__file__).resolve().parents[2]
SETTLE = [sys.executable, "-m", "settle"]

# fixtures/session/wuhan.yaml hands 1-7 as the page's form fields (stated 番 totals).
WUHAN_FORMS: list[dict[str, Any]] = [
    {"how": "self_draw", "winner": "D", "totals": "1012"},
    {"how": "discard", "winner": "B", "from": "C", "totals": "0211"},
    {"how": "draw"},
    {"how": "discard", "winner": "A", "from": "D", "totals": "3102"},
    {"how": "self_draw", "winner": "C", "totals": "1130"},
    {"how": "discard", "winner": "D", "from": "A", "totals": "2013"},
    {"how": "discard", "winner": "B", "from": "A", "totals": "4524"},
]


def setup(client: TestClient, region: str = "wuhan", players: str = "ABCD", **options: str) -> str:
    data = {"csrf": csrf(client), "region": region, "seats": str(len(players)), "dealer": "0", "name": "t"}
    data.update({f"player:{i}": p for i, p in enumerate(players)})
    data.update({f"opt:{k}": v for k, v in options.items()})
    response = client.post("/new", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def hand_fields(client: TestClient, url: str, hand: dict[str, Any], edit: str | None = None) -> dict[str, Any]:
    page = client.get(f"{url}/hand" + (f"?edit={edit}" if edit else "")).text
    fields: dict[str, Any] = {"csrf": csrf(client), "form_id": _hidden(page, "form_id"),
                              "version": _hidden(page, "version"), "how": hand["how"]}
    if edit:
        fields["edit"] = edit
    for key in ("winner", "from", "leaver"):
        if key in hand:
            fields[key] = hand[key]
    if "totals" in hand:
        fields["count"] = "stated"
        fields.update({f"total:{p}": n for p, n in zip("ABCD", hand["totals"], strict=True)})
    return fields


def _hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, name
    return found.group(1)


def save(client: TestClient, url: str, hand: dict[str, Any]) -> Any:
    return client.post(f"{url}/hands", data=hand_fields(client, url, hand), follow_redirects=False)


def evening(client: TestClient, url: str, hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        assert save(client, url, hand).status_code == 303


def totals(page: str) -> dict[str, int]:
    section = page[page.index('id="totals"'):page.index('id="settle"')]
    return {m[0]: int(m[1].replace("+", "")) for m in
            re.findall(r'class="num total[^"]*" data-player="([^"]+)">([^<]+)<', section)}


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "web.db")


@pytest.fixture
def client(app: Any) -> TestClient:
    return client_for(app)


def test_set_up_refuses_a_bad_option_with_the_cli_message_and_keeps_nothing(client: TestClient, app: Any) -> None:
    data = {"csrf": csrf(client), "region": "wuhan", "seats": "4", "dealer": "0", "opt:cap": "-5",
            **{f"player:{i}": p for i, p in enumerate("ABCD")}}
    response = client.post("/new", data=data, follow_redirects=False)
    assert response.status_code == 422
    cli = subprocess.run([*SETTLE, "hand", "--region", "wuhan", "--players", "A,B,C,D", "--dealer", "A", "--draw",
                          "--option", "cap=-5"], capture_output=True, text=True, timeout=60, check=False)
    # the CLI: "error: options.cap: must be more than 0, not -5 (given with --option cap=...)"
    message = cli.stderr.split("options.cap: ")[1].split(" (given with")[0]
    assert message == "must be more than 0, not -5"
    assert f'<p class="error">{message}</p>' in response.text
    assert app.state.web.store.tables() == []


def test_set_up_defaults_and_chinese_option_names(client: TestClient, app: Any) -> None:
    page = client.get("/new?region=wuhan").text
    assert "封顶" in page and 'name="opt:cap" inputmode="numeric" value="400"' in page  # H5 default 400
    assert "口口翻" in page
    url = setup(client)
    table = app.state.web.store.table(url.rsplit("/", 1)[1])
    assert table.header == {"id": "t", "region": "wuhan", "players": ["A", "B", "C", "D"], "options": {},
                            "dealer": "A"}
    page = client.get("/new?region=wuxue&seats=2").text
    assert page.count('name="player:') == 2  # a Wuxue table of two (W14)


def test_every_write_route_refuses_the_read_only_link_and_a_browser_without_the_key(
        app: Any, client: TestClient) -> None:
    url = setup(client)
    evening(client, url, WUHAN_FORMS[:2])
    store = app.state.web.store
    table_id = url.rsplit("/", 1)[1]
    table = store.table(table_id)
    form_id = store.hands(table_id)[0].form_id
    before = (store.table(table_id).version, [h.data for h in store.hands(table_id)])
    stranger = client_for(app)  # has the read-only link, never the edit key
    assert stranger.get(f"/v/{table.view_id}").status_code == 200
    posts = [r for r in app.routes if "POST" in (getattr(r, "methods", None) or ())]
    writes = [r.path for r in posts if r.path.startswith("/t/")]
    assert writes == ["/t/{table}/preview", "/t/{table}/hands", "/t/{table}/hands/{form}",
                      "/t/{table}/hands/{form}/delete", "/t/{table}/whatif"]
    fields = hand_fields(client, url, WUHAN_FORMS[2]) | {"csrf": csrf(stranger)}
    for path in writes:
        for ident, status in ((table_id, 403), (table.view_id, 404)):
            target = path.replace("{table}", ident).replace("{form}", form_id)
            response = stranger.post(target, data=fields | {"edit": form_id}, follow_redirects=False)
            assert response.status_code == status, target
    for path in [r.path for r in app.routes if getattr(r, "path", "").startswith("/v/")]:
        target = path.replace("{view}", table.view_id)
        assert stranger.post(target, data={"csrf": csrf(stranger)}).status_code == 405, target
    assert stranger.get(url).status_code == 403
    assert stranger.get(f"{url}/export.yaml").status_code == 403
    assert (store.table(table_id).version, [h.data for h in store.hands(table_id)]) == before


def test_csrf_origin_and_body_bounds(client: TestClient, app: Any) -> None:
    url = setup(client)
    fields = hand_fields(client, url, WUHAN_FORMS[0])
    assert client.post(f"{url}/hands", data={k: v for k, v in fields.items() if k != "csrf"}).status_code == 403
    assert client.post(f"{url}/hands", data=fields | {"csrf": "forged"}).status_code == 403
    other_site = client.post(f"{url}/hands", data=fields, headers={"Origin": "http://evil.example"})
    assert other_site.status_code == 403
    big = client.post(f"{url}/hands", data=fields | {"pad": "x" * (MAX_BODY + 1)})
    assert big.status_code == 413
    assert app.state.web.store.hands(url.rsplit("/", 1)[1]) == []
    assert client.post(f"{url}/hands", data=fields, follow_redirects=False).status_code == 303


def test_user_text_is_escaped(client: TestClient) -> None:
    url = setup(client, players=["<b>x</b>", "B&", "C\"'", "D"])  # type: ignore[arg-type]
    page = client.get(url).text
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert "B&amp;" in page
    assert "frame-ancestors 'none'" in client.get(url).headers["content-security-policy"]


def test_a_resend_is_recorded_once_and_a_stale_write_is_refused(client: TestClient, app: Any) -> None:
    url = setup(client)
    fields = hand_fields(client, url, WUHAN_FORMS[0])
    first = client.post(f"{url}/hands", data=fields, follow_redirects=False)
    again = client.post(f"{url}/hands", data=fields, follow_redirects=False)
    assert first.headers["location"].endswith("?saved=1")
    assert again.headers["location"].endswith("?saved=1&again=1")
    table_id = url.rsplit("/", 1)[1]
    assert len(app.state.web.store.hands(table_id)) == 1
    # two phones open the edit form of hand 1 at the same version; the second save is refused
    form_id = app.state.web.store.hands(table_id)[0].form_id
    phone1 = hand_fields(client, url, WUHAN_FORMS[1] | {"how": "self_draw"}, edit=form_id)
    phone2 = hand_fields(client, url, WUHAN_FORMS[4], edit=form_id)
    assert client.post(f"{url}/hands/{form_id}", data=phone1).status_code == 200
    stale = client.post(f"{url}/hands/{form_id}", data=phone2)
    assert stale.status_code == 409
    assert "changed on another phone" in stale.text
    assert app.state.web.store.hands(table_id)[0].data["win"] == {"winner": "B", "by": "self_draw"}


def test_export_is_what_settle_session_reads_and_import_round_trips(client: TestClient, app: Any,
                                                                      tmp_path: Path) -> None:
    url = setup(client)
    evening(client, url, WUHAN_FORMS)
    page = client.get(url).text
    # tests/test_session.py, after hand 7: -4-400, -24+928, 0-128, 28-400
    assert totals(page) == {"A": -404, "B": 904, "C": -128, "D": -372}
    exported = client.get(f"{url}/export.yaml").text
    docs = list(yaml.safe_load_all(exported))
    assert docs[0] == {"id": "t", "region": "wuhan", "players": ["A", "B", "C", "D"]}
    assert docs[1] == {"id": 1, "dealer": "A", "win": {"winner": "D", "by": "self_draw"},
                       "fans": {"A": 1, "B": 0, "C": 1, "D": 2}}
    path = tmp_path / "evening.yaml"
    path.write_text(exported, encoding="utf-8")
    done = subprocess.run([*SETTLE, "session", str(path), "--format", "json"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert json.loads(done.stdout)["totals"] == {"A": -404, "B": 904, "C": -128, "D": -372}
    csv_text = client.get(f"{url}/export.csv").text
    # the session CSV (issue 16 #4): one row per hand and player, the running total after the net
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert list(rows[0]) == ["hand", "id", "region", "unit", "seat", "player", "roles", "score", "net", "total",
                             "winner", "by", "from", "dealer", "rotation_dealer", "liable", "error"]
    assert len(rows) == 7 * 4
    assert {r["player"]: int(r["total"]) for r in rows if r["hand"] == "7"} == {"A": -404, "B": 904, "C": -128,
                                                                               "D": -372}
    imported = client.post("/import", data={"csrf": csrf(client)}, files={"file": ("e.yaml", exported.encode())},
                           follow_redirects=False)
    assert imported.status_code == 303
    assert totals(client.get(imported.headers["location"]).text) == {"A": -404, "B": 904, "C": -128, "D": -372}
    # the Rushan session fixture: totals of tests/test_session.py
    raw = (ROOT / "fixtures/session/rushan.yaml").read_bytes()
    imported = client.post("/import", data={"csrf": csrf(client)}, files={"file": ("rushan.yaml", raw)},
                           follow_redirects=False)
    assert totals(client.get(imported.headers["location"]).text) == {"A": -23, "B": -24, "C": 6, "D": 41}
    bad = client.post("/import", data={"csrf": csrf(client)},
                      files={"file": ("bad.yaml", b"region: wuhan\nplayers: [A, B, C, D]\n---\nwin: {winner: D}\n")})
    # FILE:LINE first (issue 16 #9)
    assert bad.status_code == 422 and "error: bad.yaml:4: hand bad.yaml:2: dealer: missing" in bad.text
    assert len(app.state.web.store.tables()) == 3


def test_what_if_figures_chart_and_languages(client: TestClient) -> None:
    url = setup(client)
    evening(client, url, WUHAN_FORMS)
    fields = {"csrf": csrf(client), "opt:cap": "300"}
    response = client.post(f"{url}/whatif", data=fields)
    # hand 7 under cap 300: A 512 -> 300, D 512 -> 300, C 128 (not all three over: no 金顶, H6): B +728.
    # A -4-300 = -304, B -24+728 = 704, C -128, D 28-300 = -272; the real totals stay.
    rows = dict(re.findall(r'<tr data-player="([A-D])"><td>[A-D]</td><td class="num real">-?\d+</td>'
                           r'<td class="num other">(-?\d+)</td>', response.text))
    assert rows == {"A": "-304", "B": "704", "C": "-128", "D": "-272"}
    page = client.get(url).text
    assert totals(page) == {"A": -404, "B": 904, "C": -128, "D": -372}
    # per player: won A 1 (hand 4), B 2 (2, 7), C 1 (5), D 2 (1, 6); 放冲 given A 2 (6, 7), C 1 (2), D 1 (4);
    # capped wins: B 1 (hand 7's payments capped at 400)
    figures = re.findall(r'<tr><td>([A-D])</td><td class="num">(\d+)</td><td class="num">(\d+)</td>'
                         r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>', page)
    assert figures == [("A", "1", "2", "0", "0"), ("B", "2", "0", "0", "1"), ("C", "1", "1", "0", "0"),
                       ("D", "2", "1", "0", "0")]
    chart = page[page.index("<svg"):page.index("</svg>")]
    assert chart.count("<polyline") == 4 and ">B +904</text>" in chart
    english = client.get(f"{url}/hand").text
    client.get("/lang/zh?next=/")
    chinese = client.get(f"{url}/hand").text
    assert "Enter a hand" not in chinese and "Each player" in english and "各家" in chinese
    hand = hand_fields(client, url, {"how": "self_draw", "winner": "B", "totals": "0100"})
    preview = client.post(f"{url}/preview", data=hand).text
    assert "小胡：底分 1 (H2)" in preview  # the region catalog's Chinese note, as `settle hand --lang zh`
    client.get("/lang/en?next=/")
    assert "小胡 small hand: base 1 (H2)" in client.post(f"{url}/preview", data=hand).text
    # the set-up form's option meanings in the page's language, from the region catalog (settle rules --lang zh)
    assert "most a loser pays (H5)" in client.get("/new?region=wuhan&seats=4").text
    client.get("/lang/zh?next=/")
    setup_zh = client.get("/new?region=wuhan&seats=4").text
    assert "每个输家最多付的分 (H5)" in setup_zh and "most a loser pays" not in setup_zh
    client.get("/lang/en?next=/")


def test_store_schema_wal_and_forward_migration(tmp_path: Path) -> None:
    import sqlite3

    from settle.web.store import MIGRATIONS, SCHEMA_VERSION, StaleWrite, Store

    path = tmp_path / "old.db"
    db = sqlite3.connect(path)  # a file written by a settle that knew only migration 1
    db.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);"
                     + MIGRATIONS[0])
    db.execute("INSERT INTO tables VALUES ('t1', 'v1', 'k1', 'old', ?, 1, 0)",
               (json.dumps({"id": "old", "region": "wuhan", "players": list("ABCD"), "dealer": "A"}),))
    db.execute("INSERT INTO hands VALUES ('t1', 'f1', 1, ?, 0)", (json.dumps({"draw": True}),))
    db.commit()
    db.close()
    store = Store(path)
    assert SCHEMA_VERSION == 2 and store.schema_version() == 2
    assert [h.data for h in store.hands("t1")] == [{"draw": True}]
    assert store.hands("t1")[0].edited is None  # the column migration 2 added
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(StaleWrite):
        store.add_hand("t1", "f2", {"draw": True}, version=0)
    assert len(store.hands("t1")) == 1
    row, new = store.add_hand("t1", "f2", {"draw": True}, version=1)
    assert new and row.position == 2
    assert store.add_hand("t1", "f2", {"other": 1}, version=2) == (row, False)
    ids = {store.create_table("x", {}).id for _ in range(50)}
    assert len(ids) == 50 and all(len(i) >= 22 for i in ids)  # 128 random bits each


def test_the_edit_link_hands_editing_to_another_phone_and_the_qr_codes(app: Any, client: TestClient) -> None:
    url = setup(client)
    table = app.state.web.store.table(url.rsplit("/", 1)[1])
    other = client_for(app)
    assert other.get(url).status_code == 403
    assert other.get(f"{url}/qr-edit.svg").status_code == 403  # only the key holder can show the edit code
    handed = other.get(f"{url}?key={table.edit_key}", follow_redirects=False)
    assert handed.status_code == 303 and handed.headers["location"] == url  # the key leaves the address
    assert other.get(url).status_code == 200
    assert save(other, url, WUHAN_FORMS[0]).status_code == 303
    wrong = client_for(app)
    wrong.get(f"{url}?key=guess")
    assert wrong.get(url).status_code == 403
    qr = client.get(f"{url}/qr-edit.svg")
    assert qr.headers["content-type"] == "image/svg+xml" and qr.text.startswith("<?xml")
    assert client.get(f"/v/{table.view_id}/qr.svg").status_code == 200


def test_a_feeder_of_the_third_open_is_liable_and_the_preview_marks_it(client: TestClient) -> None:
    url = setup(client)
    fields = hand_fields(client, url, {"how": "discard", "winner": "D", "from": "A"})
    # D's 清一色 with three opens fed by A, B, C: C fed the third, so C pays for everyone (H7 b, 承包).
    fields |= {"fan:D": "qingyise", "opens:D": "3", "feed:D:0": "A", "feed:D:1": "B", "feed:D:2": "C"}
    preview = client.post(f"{url}/preview", data=fields).text
    assert '<span class="mark">承包 liable</span>' in preview
    assert re.findall(r"<strong>([A-D]) -&gt; D (\d+)</strong>", preview)
    assert all(payer == "C" for payer, _ in re.findall(r"<strong>([A-D]) -&gt; D (\d+)</strong>", preview))


def test_settle_serve_starts_on_the_given_port_and_database(tmp_path: Path) -> None:
    import os
    import signal
    import time
    import urllib.request

    from conftest import free_port

    port = free_port()
    db = tmp_path / "serve.db"
    proc = subprocess.Popen([*SETTLE, "serve", "--port", str(port), "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith(f"settle serve: http://127.0.0.1:{port}/") and str(db) in line
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert db.exists()
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(30)
    assert proc.returncode == 143  # SIGTERM, as every settle command (issue 15)


def test_the_default_database_is_in_the_user_data_directory(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    from settle.cli.serve import default_db

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where platformdirs puts user data on Linux
    assert default_db() == str(tmp_path / "settle" / "settle.db")


def test_a_wuxue_table_of_two_and_a_dealer_stated_against_the_rotation(client: TestClient, app: Any) -> None:
    url = setup(client, region="wuxue", players="AB")
    two = [{"how": "self_draw", "winner": "B", "count": "stated", "total:A": "1", "total:B": "2"},
           {"how": "discard", "winner": "A", "from": "B", "count": "stated", "total:A": "2", "total:B": "0"}]
    for hand in two:
        page = client.get(f"{url}/hand").text
        fields = {"csrf": csrf(client), "form_id": _hidden(page, "form_id"), "version": _hidden(page, "version"),
                  **hand}
        assert client.post(f"{url}/hands", data=fields, follow_redirects=False).status_code == 303
    page = client.get(url).text
    # 1: B self-draws, A 2^(1+2)=8; 2: A on B's discard, B 2^(0+2)=4 (two players: no 陪炮, W6)
    assert totals(page) == {"A": -4, "B": 4}
    assert '<span class="muted running">Σ -8</span>' in page  # A's running total after hand 1
    url4 = setup(client)
    evening(client, url4, WUHAN_FORMS[:1])
    fields = hand_fields(client, url4, WUHAN_FORMS[1]) | {"dealer": "C"}  # the rotation gives B (H10)
    assert client.post(f"{url4}/hands", data=fields, follow_redirects=False).status_code == 303
    page = client.get(url4).text
    assert re.search(r'<tr class="hand" id="hand-2">[^\n]*<span class="name">C</span> <span class="mark">!</span>',
                     page)
    assert "warning: " in page
    docs = list(yaml.safe_load_all(client.get(f"{url4}/export.yaml").text))
    assert [d.get("dealer") for d in docs] == [None, "A", "C"]  # the first dealer, then the one stated


def test_what_if_lists_the_hands_that_change(client: TestClient) -> None:
    url = setup(client)
    evening(client, url, WUHAN_FORMS)
    response = client.post(f"{url}/whatif", data={"csrf": csrf(client), "opt:cap": "300"})
    # only hand 7 reaches the cap: A -400 -> -300, B 928 -> 728, D -400 -> -300 (C's 128 stays)
    assert re.findall(r"<li>Hand (\d+): (.*?)</li>", response.text) == [
        ("7", "A -400 → -300; B 928 → 728; D -400 → -300")]
    bad = client.post(f"{url}/whatif", data={"csrf": csrf(client), "opt:cap": "-5"})
    assert "options.cap: must be more than 0, not -5" in bad.text  # the hand file's message, per hand
    assert "whatif-table" not in bad.text


def test_the_read_only_totals_are_sent_again_only_after_a_change(client: TestClient, app: Any) -> None:
    url = setup(client)
    table = app.state.web.store.table(url.rsplit("/", 1)[1])
    live = f"/v/{table.view_id}/live?since={table.version}"
    assert client.get(live).status_code == 204  # nothing new: htmx swaps nothing
    evening(client, url, WUHAN_FORMS[:1])
    changed = client.get(live)
    assert changed.status_code == 200 and f"since={table.version + 1}" in changed.text


def test_an_imported_hand_with_jin_totals_is_edited_with_them(client: TestClient, app: Any) -> None:
    raw = (ROOT / "fixtures/session/wuxue.yaml").read_bytes()
    imported = client.post("/import", data={"csrf": csrf(client)}, files={"file": ("wuxue.yaml", raw)},
                           follow_redirects=False)
    url = imported.headers["location"]
    assert totals(client.get(url).text) == {"A": 8, "B": 76, "C": -44, "D": -40}  # tests/test_session.py
    first = app.state.web.store.hands(url.rsplit("/", 1)[1])[0]
    assert first.data["jin"] == {"A": 1, "B": 2, "C": 0, "D": 1}
    page = client.get(f"{url}/hand?edit={first.form_id}").text
    assert 'name="count" value="stated" checked' in page
    assert re.search(r'name="total:B" value="2"', page)


def test_serve_on_all_addresses_prints_the_address_and_a_qr_code(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    import segno
    import uvicorn
    from typer.testing import CliRunner

    from settle.cli import app as cli_app
    from settle.cli import serve

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: ran.append(self.config))
    monkeypatch.setattr(serve, "listen", lambda host, port: None)  # nothing is bound
    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    out = CliRunner().invoke(cli_app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--db", str(tmp_path / "x.db")])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0] == f"settle serve: http://10.1.2.3:8123/  (data: {tmp_path / 'x.db'})"
    code = segno.make("http://10.1.2.3:8123/", error="m")
    # the terminal drawing has two modules per character row (compact), plus the quiet zone of 4 on each side
    drawing = [line for line in lines[1:] if line.strip()]
    assert len(drawing) == (code.symbol_size()[1] + 1) // 2
    assert ran[0].host == "0.0.0.0" and ran[0].port == 8123


def test_a_killed_server_loses_no_saved_hand(tmp_path: Path) -> None:
    import os
    import signal
    import sqlite3

    from settle.web.store import Store

    path = tmp_path / "crash.db"
    table = Store(path).create_table("t", {"region": "wuhan"})
    writer = subprocess.Popen(
        [sys.executable, "-c",
         "import sys\nfrom settle.web.store import Store\ns = Store(sys.argv[1])\nv = 0\nfor i in range(100000):\n"
         "    s.add_hand(sys.argv[2], f'f{i}', {'draw': True}, v)\n    v += 1\n    print(i + 1, flush=True)\n",
         str(path), table.id], stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    committed = 0
    while committed < 30:  # each line is printed after its transaction committed
        committed = int(writer.stdout.readline())
    os.kill(writer.pid, signal.SIGKILL)  # no clean-up of any kind
    writer.wait(30)
    store = Store(path)
    hands = store.hands(table.id)
    assert len(hands) >= committed
    assert [h.position for h in hands] == list(range(1, len(hands) + 1))
    assert store.table(table.id).version == len(hands)  # each hand and its version bump in one transaction
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_serve_on_a_port_in_use_exits_4_with_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([*SETTLE, "serve", "--port", str(port), "--db", str(tmp_path / "x.db")],
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 4
    assert done.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert done.stdout == ""


@pytest.mark.parametrize(("region", "form", "flags"), [
    ("wuhan", {"how": "discard", "winner": "D", "from": "A", "fan:D": ["qingyise"], "opens:D": "3", "feed:D:0": "A",
               "feed:D:1": "B", "feed:D:2": "C", "kong:B:concealed": "1", "ready:C": "1"},
     {"winner": "D", "by": "discard", "from": "A", "fan": ["qingyise"], "opens": ["D=A,B,C"],
      "kong": ["B=concealed"], "ready": ["C"]}),
    ("wuhan", {"how": "self_draw", "winner": "B", "count": "stated", "total:A": "1", "total:B": "3", "total:C": "0",
               "total:D": "2", "liable": "none"},
     {"winner": "B", "by": "self_draw", "fans": ["A=1,B=3,C=0,D=2"], "liable": "none"}),
    ("wuhan", {"how": "abandon", "leaver": "C"}, {"abandon": "C"}),
    ("rushan", {"how": "discard", "winner": "A", "from": "D", "fan:A": ["pengpenghu", "qingyise"], "fish:A": "1",
                "fish:D": "2", "kong:A:concealed": "1"},
     {"winner": "A", "by": "discard", "from": "D", "fan": ["pengpenghu,qingyise"], "fish": ["A=1", "D=2"],
      "kong": ["A=concealed"]}),
    ("wuxue", {"how": "robbed_kong", "winner": "C", "from": "B", "opens:C": "1", "kong:A:bao": "1"},
     {"winner": "C", "by": "robbed_kong", "from": "B", "opens": ["C=1"], "kong": ["A=bao"]}),
])
def test_the_form_builds_the_hand_the_cli_flags_build(region: str, form: dict[str, Any],
                                                      flags: dict[str, Any]) -> None:
    from settle.cli.flags import hand_from_flags
    from settle.engine.hand import settle_hand
    from settle.rules.registry import get_region
    from settle.web.evening import hand_from_form

    players = ["A", "B", "C", "D"]
    built = hand_from_form(get_region(region), players, form, "A")
    page_hand = {"region": region, "players": players, "dealer": "A", **built}
    cli_hand = hand_from_flags({"region": region, "players": "A,B,C,D", "dealer": "A", **flags})
    assert settle_hand(page_hand).as_dict() == settle_hand(cli_hand).as_dict()


def test_the_browser_tests_fail_with_advice_when_chromium_is_missing(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "SETTLE_TEST_CHROMIUM": str(tmp_path / "no-chromium")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x",
                           str(ROOT / "tests/web/test_web_browser.py"), "-k", "language"],
                          capture_output=True, text=True, timeout=300, check=False, env=env, cwd=ROOT)
    assert done.returncode == 1, done.stdout[-2000:]  # failed, not skipped
    assert "run scripts/ensure-chromium" in done.stdout and "sudo apt-get install -y chromium" in done.stdout
    assert "skipped" not in done.stdout


TILES_SESSION = """\
region: wuhan
players: [A, B, C, D]
---
id: t1
dealer: A
players:
  B: {kongs: {concealed: 1}}
win:
  winner: D
  by: self_draw
  tiles:
    hand: 123m 456m 789m 2m 6s
    win_tile: 2m
    indicator: 5s
    melds:
      - {kind: pung, tiles: 555m, from: C}
"""


def test_editing_an_imported_hand_keeps_its_tiles(client: TestClient, app: Any) -> None:
    """The hand of fixtures/tiles/wuhan_qingyise_laizi.yaml in a session (H3, H8, H12): 清一色 read
    from the tiles, D 开口 1 (the pung from C), B 暗杠 2; D self-drew, big hand base 10, ×1.5:
    A 10×2^(0+1)×1.5 = 30, B 10×2^(2+1)×1.5 = 120, C 30, D +180.

    Editing it on the page (the form shows no tiles) must keep ``win.tiles``: saved
    unchanged the totals stay; with a second 暗杠 for B (B 4 番) B owes 10×2^(4+1)×1.5 = 480,
    capped at 400 (封顶, H5 default), so D 30 + 400 + 30 = +460."""
    imported = client.post("/import", data={"csrf": csrf(client)},
                           files={"file": ("tiles.yaml", TILES_SESSION.encode())}, follow_redirects=False)
    assert imported.status_code == 303, imported.text
    url = imported.headers["location"]
    assert totals(client.get(url).text) == {"A": -30, "B": -120, "C": -30, "D": 180}
    table_id = url.rsplit("/", 1)[1]
    first = app.state.web.store.hands(table_id)[0]
    page = client.get(f"{url}/hand?edit={first.form_id}").text
    assert 'id="tiles-kept"' in page
    fields = hand_fields(client, url, {"how": "self_draw", "winner": "D"}, edit=first.form_id)
    fields["kong:B:concealed"] = "1"
    kept = client.post(f"{url}/hands/{first.form_id}", data=fields, follow_redirects=False)
    assert kept.status_code == 303, kept.text
    saved = app.state.web.store.hands(table_id)[0].data
    assert saved["win"]["tiles"]["indicator"] == "5s"
    assert totals(client.get(url).text) == {"A": -30, "B": -120, "C": -30, "D": 180}
    fields = hand_fields(client, url, {"how": "self_draw", "winner": "D"}, edit=first.form_id)
    fields["kong:B:concealed"] = "2"
    assert client.post(f"{url}/hands/{first.form_id}", data=fields, follow_redirects=False).status_code == 303
    assert totals(client.get(url).text) == {"A": -30, "B": -400, "C": -30, "D": 460}


def test_an_edit_and_a_deletion_redirect_to_the_table_which_shows_what_changed(client: TestClient, app: Any) -> None:
    """Post/Redirect/Get: after an edit or a deletion the browser is sent to the table page, so a reload
    sends nothing again; the page shows each player's total before and after.  Hand 1 of
    WUHAN_FORMS: D self-draws on totals A 1, B 0, C 1, D 2 (H2): A 2^(1+2) = 8, B 2^(0+2) = 4, C 8,
    D +20.  Edited to D 3: A 2^(1+3) = 16, B 2^3 = 8, C 16, D +40.  Deleted: every total 0."""
    url = setup(client)
    evening(client, url, WUHAN_FORMS[:1])
    table_id = url.rsplit("/", 1)[1]
    form_id = app.state.web.store.hands(table_id)[0].form_id
    fields = hand_fields(client, url, {**WUHAN_FORMS[0], "totals": [1, 0, 1, 3]}, edit=form_id)
    edited = client.post(f"{url}/hands/{form_id}", data=fields, follow_redirects=False)
    assert edited.status_code == 303
    assert edited.headers["location"] == f"/t/{table_id}?changed=1&was=-8,-4,-8,20"
    page = client.get(edited.headers["location"]).text
    rows = re.findall(r'<tr class="change" data-player="(\w)"><td>\w</td><td class="num">(-?\d+)</td>'
                      r'<td class="num">(-?\d+)</td>', page)
    assert rows == [("A", "-8", "-16"), ("B", "-4", "-8"), ("C", "-8", "-16"), ("D", "20", "40")]
    assert client.get(f"/t/{table_id}?changed=1&was=1,2").text.count('class="change"') == 0  # not this table's
    version = _hidden(client.get(f"{url}/hand?edit={form_id}").text, "version")
    gone = client.post(f"{url}/hands/{form_id}/delete", data={"csrf": csrf(client), "version": version},
                       follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"] == f"/t/{table_id}?changed=1&was=-16,-8,-16,40"
    assert totals(client.get(url).text) == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_downloads_keep_a_chinese_table_name(client: TestClient) -> None:
    """The export's file name is the table's name in UTF-8 (RFC 6266 ``filename*``), with an ASCII one beside it."""
    data = {"csrf": csrf(client), "region": "wuhan", "seats": "4", "dealer": "0", "name": "周五 武汉"}
    data.update({f"player:{i}": p for i, p in enumerate("ABCD")})
    url = client.post("/new", data=data, follow_redirects=False).headers["location"]
    for suffix in ("yaml", "csv"):
        header = client.get(f"{url}/export.{suffix}").headers["content-disposition"]
        assert header == (f'attachment; filename="_____.{suffix}"; '
                          f"filename*=UTF-8''%E5%91%A8%E4%BA%94%20%E6%AD%A6%E6%B1%89.{suffix}")


def test_bad_input_is_refused_in_the_page_language(client: TestClient) -> None:
    """A Wuhan win with no open and no stated totals is refused by H8 (option require_open, default on);
    the page says it as ``settle hand --lang`` says it: in Chinese, then in English after the switch."""
    url = setup(client)
    fields = hand_fields(client, url, {"how": "self_draw", "winner": "D"})
    client.get("/lang/zh?next=/")
    zh = client.post(f"{url}/hands", data=fields, follow_redirects=False)
    assert zh.status_code == 422
    assert "局 1: players.D.opens: 胡牌者 D 没有开口；武汉要开口才能胡（H8" in zh.text
    client.get("/lang/en?next=/")
    fields = hand_fields(client, url, {"how": "self_draw", "winner": "D"})
    en = client.post(f"{url}/hands", data=fields, follow_redirects=False)
    assert en.status_code == 422
    assert "hand 1: players.D.opens: the winner D has no open (开口); Wuhan requires one to win (H8" in en.text
