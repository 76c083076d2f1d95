"""Screenshots of settle serve's main screens at phone size (360x740) for docs/web/ and the README.

Run: .venv/bin/python scripts/web_screenshots.py  (needs the web extra, playwright and /usr/bin/chromium;
scripts/ensure-chromium installs it).  Serves a temporary database on a free port of 127.0.0.1.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

import uvicorn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from webhelpers import enter_hand, fill_hand, new_table  # noqa: E402

from settle.web import create_app  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
OUT = ROOT / "docs" / "web"

HANDS = [
    {"how": "self_draw", "winners": ["东风"], "totals": {"东风": 1, "南山": 0, "西湖": 1, "北斗": 2}},
    {"how": "discard", "winners": ["南山"], "from": "西湖", "totals": {"东风": 0, "南山": 2, "西湖": 1, "北斗": 1}},
    {"how": "draw"},
    {"how": "discard", "winners": ["东风"], "from": "北斗", "totals": {"东风": 3, "南山": 1, "西湖": 0, "北斗": 2}},
    {"how": "self_draw", "winners": ["西湖"], "totals": {"东风": 1, "南山": 1, "西湖": 3, "北斗": 0}},
    {"how": "discard", "winners": ["南山"], "from": "东风", "totals": {"东风": 4, "南山": 5, "西湖": 2, "北斗": 4}},
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        server = uvicorn.Server(uvicorn.Config(create_app(Path(tmp) / "shots.db"), host="127.0.0.1", port=port,
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for lang in ("zh", "en"):
                context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1,
                                              locale="zh-CN" if lang == "zh" else "en-US")
                page = context.new_page()
                page.goto(f"{base}/new?region=wuhan")
                page.screenshot(path=str(OUT / f"setup-{lang}.png"))
                names = ["东风", "南山", "西湖", "北斗"]
                url = new_table(page, base, "wuhan", names, 0, {}, name="周五晚上" if lang == "zh" else "Friday")
                for hand in HANDS:
                    enter_hand(page, url, hand)
                page.goto(f"{url}/hand")
                fill_hand(page, {"how": "self_draw", "winners": ["东风"], "fans": {"东风": ["qingyise"]},
                                 "opens": {"东风": 1}})
                page.locator("#preview-body").wait_for()
                page.locator("#preview").scroll_into_view_if_needed()
                page.screenshot(path=str(OUT / f"hand-{lang}.png"))
                page.goto(f"{url}/hand")
                page.screenshot(path=str(OUT / f"hand-top-{lang}.png"))
                page.goto(url)
                page.screenshot(path=str(OUT / f"evening-{lang}.png"), full_page=True)
                view = base + str(page.locator("#view-link").get_attribute("href"))
                page.goto(view)
                page.screenshot(path=str(OUT / f"view-{lang}.png"))
                context.close()
            browser.close()
        server.should_exit = True
        thread.join()
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(ROOT), path.stat().st_size)


if __name__ == "__main__":
    main()
