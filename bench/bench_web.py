"""settle serve: server time of saving a hand and rendering the updated totals on a table of 100 hands,
and the bytes of each main page's first load (issue 17, Speed).

Targets: save + render < 50 ms of server time for a table of 100 hands; a first page load (HTML,
scripts and styles, uncompressed) < 150 KB.

Server time is measured around the ASGI app itself (an ASGI wrapper, in one thread, requests sent by
httpx's in-process ASGI transport: no network, no browser): ``time.process_time()`` and
``time.perf_counter()`` summed over the POST of the 100th hand (validation, the evening re-settled,
the SQLite transaction with its fsync) and the GET of the table page it redirects to (totals,
settle-up, chart, figures and hand list rendered).  Each round saves into a fresh copy of a 99-hand
table served by a fresh app (nothing kept in memory); the best and the median of ``--rounds`` are
printed.

    .venv/bin/python bench/bench_web.py [--rounds 15] [--hands 100]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import httpx

from settle.web import create_app


class Timed:
    """ASGI wrapper adding each request's CPU and wall time (ms) to ``cpu`` and ``wall``."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cpu = 0.0
        self.wall = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.cpu += (time.process_time() - c0) * 1000
            self.wall += (time.perf_counter() - w0) * 1000


async def save_round(db: Path, url: str, token: str, key_name: str, key: str, expected: int) -> tuple[float, float]:
    """Save one hand into ``db`` through a fresh app; the server's (CPU ms, wall ms) of save + page."""
    timed = Timed(create_app(db))
    cookies = {"settle_csrf": token, key_name: key}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=timed), base_url="http://testserver",
                                 cookies=cookies, headers={"Accept-Language": "en"}) as c:
        page = (await c.get(f"{url}/hand")).text
        fields = {**FORM, "csrf": token, "form_id": hidden(page, "form_id"), "version": hidden(page, "version")}
        timed.cpu = timed.wall = 0.0
        saved = await c.post(f"{url}/hands", data=fields, follow_redirects=True)
        assert saved.status_code == 200 and f"?saved={expected}" in str(saved.url), saved.text[:500]
    return timed.cpu, timed.wall

# Wuhan hands with stated 番 (fixtures/session/wuhan.yaml hands 1, 2, 4-6), repeated to fill the table.
CYCLE = [
    {"fans": {"A": 1, "B": 0, "C": 1, "D": 2}, "win": {"winner": "D", "by": "self_draw"}},
    {"fans": {"A": 0, "B": 2, "C": 1, "D": 1}, "win": {"winner": "B", "by": "discard", "from": "C"}},
    {"fans": {"A": 3, "B": 1, "C": 0, "D": 2}, "win": {"winner": "A", "by": "discard", "from": "D"}},
    {"fans": {"A": 1, "B": 1, "C": 3, "D": 0}, "win": {"winner": "C", "by": "self_draw"}},
    {"fans": {"A": 2, "B": 0, "C": 1, "D": 3}, "win": {"winner": "D", "by": "discard", "from": "A"},
     "players": {"A": {}, "B": {"opens": 1, "kongs": {"concealed": 1}}, "C": {}, "D": {"opens": 1}}},
]
FORM = {"how": "discard", "winner": "B", "from": "A", "count": "stated", "total:A": "2", "total:B": "3",
        "total:C": "1", "total:D": "0", "opens:B": "1"}


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, name
    return found.group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--hands", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        seed = Path(tmp) / "seed.db"
        app = create_app(seed)
        client = TestClient(app, headers={"Accept-Language": "en"})
        client.get("/")
        token = str(client.cookies.get("settle_csrf"))
        data = {"csrf": token, "region": "wuhan", "seats": "4", "dealer": "0", "name": "bench",
                **{f"player:{i}": p for i, p in enumerate("ABCD")}}
        url = client.post("/new", data=data, follow_redirects=False).headers["location"]
        table_id = url.rsplit("/", 1)[1]
        store = app.state.web.store
        for i in range(args.hands - 1):
            store.add_hand(table_id, f"seed-{i}", CYCLE[i % len(CYCLE)], store.table(table_id).version)
        key = client.cookies.get(f"settle_key_{table_id}")
        cpu: list[float] = []
        wall: list[float] = []
        for round_ in range(args.rounds):
            db = Path(tmp) / f"round-{round_}.db"
            shutil.copy(seed, db)
            one_cpu, one_wall = asyncio.run(save_round(db, url, token, f"settle_key_{table_id}", str(key),
                                                       args.hands))
            cpu.append(one_cpu)
            wall.append(one_wall)
        print(f"server time of saving hand {args.hands} + rendering the table page ({args.rounds} rounds):")
        print(f"  CPU  best {min(cpu):6.1f} ms  median {statistics.median(cpu):6.1f} ms   target < 50 ms")
        print(f"  wall best {min(wall):6.1f} ms  median {statistics.median(wall):6.1f} ms")
        static = {name: len(client.get(f"/static/{name}").content) for name in ("htmx.min.js", "app.js", "app.css")}
        assets = sum(static.values())
        print("first load (HTML + htmx.min.js + app.js + app.css, uncompressed), target < 150 KB:")
        view = store.table(table_id).view_id
        for label, path in (("table list", "/"), ("set-up", "/new?region=wuhan"), ("hand form", f"{url}/hand"),
                            (f"evening of {args.hands - 1} hands", url), ("read-only", f"/v/{view}")):
            html = len(client.get(path).content)
            total = html + assets
            print(f"  {label:22} {html / 1024:6.1f} KB HTML + {assets / 1024:5.1f} KB = {total / 1024:6.1f} KB"
                  f"  {'ok' if total < 150 * 1024 else 'OVER'}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
