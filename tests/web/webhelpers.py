"""Driving the page as a scorekeeper would: set up a table, enter a hand by tapping (tests/web)."""

from __future__ import annotations

import re
import warnings
from typing import Any

with warnings.catch_warnings():  # starlette 1.x suggests httpx2 for its test client; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SEATS = "东南西北"


def new_table(page: Any, base: str, region: str, players: list[str], dealer: int = 0,
              options: dict[str, Any] | None = None, name: str = "evening") -> str:
    """Set up a table through the form; returns the table's URL."""
    page.goto(f"{base}/new?region={region}&seats={len(players)}")
    page.fill("input[name=name]", name)
    for i, player in enumerate(players):
        page.fill(f"input[name='player:{i}']", player)
    page.locator(f"input[name=dealer][value='{dealer}']").check(force=True)
    for key, value in (options or {}).items():
        field = page.locator(f"[name='opt:{key}']:not([type=hidden])")
        if isinstance(value, bool):
            if value:
                field.check()
            else:
                field.uncheck()
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    return str(page.url)


def tap(page: Any, container: str, text: str) -> None:
    """Tap the choice labelled ``text`` (exactly, after the seat wind) inside ``container``."""
    page.locator(f"{container} label").filter(has_text=re.compile(rf"(^|\s){re.escape(text)}$")).first.click()


def enter_hand(page: Any, table_url: str, hand: dict[str, Any], save: bool = True) -> None:
    """Enter one hand on the hand form by tapping: ``how``, ``winners``, ``from``, ``leaver``, ``fans``
    (winner -> keys), ``totals`` (stated per player), ``opens`` (player -> count or feeders), ``kongs``
    (player -> kind -> count), ``fish``, ``ready``, ``liable``, ``dealer``."""
    page.goto(f"{table_url}/hand")
    fill_hand(page, hand)
    if save:
        page.click("#save")
        page.wait_for_selector("#saved")


def fill_hand(page: Any, hand: dict[str, Any]) -> None:
    """Fill the open hand form (see :func:`enter_hand`)."""
    page.locator(f"input[name=how][value={hand['how']}]").check(force=True)
    for winner in hand.get("winners", []):
        page.locator(f"#winner input[value='{winner}']").check(force=True)
    if "from" in hand:
        page.locator(f"#from input[value='{hand['from']}']").check(force=True)
    if "leaver" in hand:
        page.locator(f"#leaver input[value='{hand['leaver']}']").check(force=True)
    for winner, fans in hand.get("fans", {}).items():
        for fan in fans:
            page.locator(f"[data-winner='{winner}'] input[value='{fan}']").check(force=True)
    players = page.locator("details.player")
    names = [n.split(" ", 1)[1] for n in players.locator("summary").all_inner_texts()]

    def open_player(name: str) -> Any:
        box = page.locator(f"#player-{names.index(name)}")
        if box.get_attribute("open") is None:
            box.locator("summary").click()
        return box

    if "totals" in hand:
        page.locator("input[name=count]").check()
        for name, total in hand["totals"].items():
            open_player(name).locator(f"input[name='total:{name}']").fill(str(total))
    for name, opens in hand.get("opens", {}).items():
        box = open_player(name)
        count = len(opens) if isinstance(opens, list) else opens
        for _ in range(count):
            box.locator("[data-opens] button[data-step='1']").click()
        if isinstance(opens, list):
            for i, feeder in enumerate(opens):
                box.locator(f"select[name='feed:{name}:{i}']").select_option(feeder)
    for name, kongs in hand.get("kongs", {}).items():
        box = open_player(name)
        for kind, count in kongs.items():
            plus = box.locator(f"input[name='kong:{name}:{kind}']").locator("xpath=..").locator("button[data-step='1']")
            for _ in range(count):
                plus.click()
    for name, fish in hand.get("fish", {}).items():
        box = open_player(name)
        for _ in range(fish):
            box.locator(f"input[name='fish:{name}']").locator("xpath=..").locator("button[data-step='1']").click()
    for name in hand.get("ready", []):
        open_player(name).locator(f"input[name='ready:{name}']").check(force=True)
    if "liable" in hand:
        page.select_option("#liable", hand["liable"])
    if "dealer" in hand:
        page.select_option("#dealer", hand["dealer"])


def page_totals(page: Any) -> dict[str, int]:
    """The running totals shown on the table page."""
    out = {}
    for cell in page.locator("#totals td.total").all():
        out[str(cell.get_attribute("data-player"))] = int(cell.inner_text().replace("+", ""))
    return out


def client_for(app: Any) -> TestClient:
    """A test client with this browser's CSRF cookie set (by a first page load)."""
    client = TestClient(app, headers={"Accept-Language": "en"})
    client.get("/")
    return client


def csrf(client: TestClient) -> str:
    return str(client.cookies.get("settle_csrf"))
