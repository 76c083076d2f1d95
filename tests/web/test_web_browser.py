"""The page end to end in Chromium at phone size (issue 17, Tests): an evening in each region entered
by tapping, whose totals equal the hand-worked ones and ``settle session`` on the exported YAML;
editing and deleting; a double submit; bad input; a restart; the read-only page refreshing itself."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from webhelpers import enter_hand, fill_hand, new_table, page_totals

SETTLE = [sys.executable, "-m", "settle"]

# The Wuhan evening of fixtures/session/wuhan.yaml (hand-worked there and in tests/test_session.py),
# entered by tapping: stated 番 totals, a 荒庄, a big hand, and 逃跑 ending the game.
WUHAN = [
    {"how": "self_draw", "winners": ["D"], "totals": {"A": 1, "B": 0, "C": 1, "D": 2}},
    {"how": "discard", "winners": ["B"], "from": "C", "totals": {"A": 0, "B": 2, "C": 1, "D": 1}},
    {"how": "draw"},
    {"how": "discard", "winners": ["A"], "from": "D", "totals": {"A": 3, "B": 1, "C": 0, "D": 2}},
    {"how": "self_draw", "winners": ["C"], "totals": {"A": 1, "B": 1, "C": 3, "D": 0}},
    {"how": "discard", "winners": ["D"], "from": "A", "totals": {"A": 2, "B": 0, "C": 1, "D": 3}},
    {"how": "discard", "winners": ["B"], "from": "A", "totals": {"A": 4, "B": 5, "C": 2, "D": 4}},
    {"how": "self_draw", "winners": ["A"], "fans": {"A": ["pengpenghu"]}, "totals": {"A": 1, "B": 0, "C": 1, "D": 0}},
    {"how": "abandon", "leaver": "B"},
]
# Totals after hand 9 (tests/test_session.py): A -4-400+120, B -24+928-30-400, C 0-128-60, D 28-400-30.
WUHAN_TOTALS = {"A": -284, "B": 474, "C": -188, "D": -402}

# The Rushan evening of fixtures/session/rushan.yaml (cap 16, 一炮多响 allowed at this table): 飘鱼, kongs,
# opens, and two winners on one discard.
RUSHAN = [
    {"how": "self_draw", "winners": ["B"]},
    {"how": "discard", "winners": ["B"], "from": "C", "fans": {"B": ["pengpenghu"]}},
    {"how": "draw"},
    {"how": "self_draw", "winners": ["D"], "fans": {"D": ["qidui", "qingyise"]}},
    {"how": "draw", "kongs": {"A": {"concealed": 1}}},
    {"how": "discard", "winners": ["A"], "from": "D", "fans": {"A": ["pengpenghu", "qingyise"]},
     "fish": {"A": 1, "D": 2}, "kongs": {"A": {"concealed": 1}}},
    {"how": "self_draw", "winners": ["C"], "fans": {"C": ["pengpenghu", "qingyise", "gangshanghua"]},
     "opens": {"C": 1}, "kongs": {"C": {"added": 1, "concealed": 1}}},
    {"how": "self_draw", "winners": ["D"], "fans": {"D": ["pengpenghu", "qingyise", "gangshanghua", "haidilao"]},
     "opens": {"D": 1}, "fish": {"D": 1}, "kongs": {"D": {"added": 1, "concealed": 1}}},
    {"how": "discard", "winners": ["A", "B"], "from": "D", "fans": {"B": ["pengpenghu"]}},
]
# tests/test_session.py: after hand 8 A -24, B -26, C 6, D 44; hand 9 D pays A 1 (屁胡) and B 2 (碰碰胡).
RUSHAN_TOTALS = {"A": -23, "B": -24, "C": 6, "D": 41}

# A Wuxue table of three (W14) with stated 斤; 陪炮 pays 2^(a+b-1), nothing with 0 斤 (W6); cap 15 (W7);
# three players, both losers capped: 小金鼎 20 each (three_player_golden: small, W8).
WUXUE = [
    # A deals; B self-draws: A 2^(1+2)=8, C 2^(0+2)=4 -> B +12
    {"how": "self_draw", "winners": ["B"], "totals": {"A": 1, "B": 2, "C": 0}},
    # B deals; C on A's discard: A 2^(1+2)=8, B 陪炮 2^(1+2-1)=4 -> C +12
    {"how": "discard", "winners": ["C"], "from": "A", "totals": {"A": 1, "B": 1, "C": 2}},
    # 荒庄: nothing; C keeps the deal (W13)
    {"how": "draw"},
    # A self-draws: B 2^(1+3)=16 -> 15, C 16 -> 15, both capped -> 小金鼎 20 each -> A +40
    {"how": "self_draw", "winners": ["A"], "totals": {"A": 3, "B": 1, "C": 1}},
    # B on C's discard: C 2^(1+2)=8; A 陪炮 with 0 斤 pays nothing -> B +8
    {"how": "discard", "winners": ["B"], "from": "C", "totals": {"A": 0, "B": 2, "C": 1}},
    # B self-draws: A 2^(1+1)=4, C 2^(0+1)=2 -> B +6
    {"how": "self_draw", "winners": ["B"], "totals": {"A": 1, "B": 1, "C": 0}},
]
# A -8-8+40-4 = 20; B 12-4-20+8+6 = 2; C -4+12-20-8-2 = -22.
WUXUE_TOTALS = {"A": 20, "B": 2, "C": -22}


def session_totals(yaml_text: str, tmp_path: Path) -> dict[str, int]:
    """``settle session`` on the exported file: its final totals."""
    path = tmp_path / "exported.yaml"
    path.write_text(yaml_text, encoding="utf-8")
    done = subprocess.run([*SETTLE, "session", str(path), "--format", "json"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    totals: dict[str, int] = json.loads(done.stdout)["totals"]
    return totals


@pytest.mark.parametrize(("region", "players", "options", "hands", "expected"), [
    ("wuhan", ["A", "B", "C", "D"], {}, WUHAN, WUHAN_TOTALS),
    ("rushan", ["A", "B", "C", "D"], {"cap": 16, "multi_win": True}, RUSHAN, RUSHAN_TOTALS),
    ("wuxue", ["A", "B", "C"], {}, WUXUE, WUXUE_TOTALS),
])
def test_an_evening_entered_by_tapping_equals_settle_session_on_its_export(
        server: Any, phone: Any, tmp_path: Path, region: str, players: list[str], options: dict[str, Any],
        hands: list[dict[str, Any]], expected: dict[str, int]) -> None:
    page = phone.new_page()
    url = new_table(page, server.base, region, players, 0, options)
    for hand in hands:
        enter_hand(page, url, hand)
    page.goto(url)
    assert page_totals(page) == expected
    assert page.locator("tr.hand").count() == len(hands)
    exported = page.request.get(f"{url}/export.yaml")
    assert exported.ok
    assert session_totals(exported.text(), tmp_path) == expected
    if region == "wuhan":  # 逃跑 ended the evening: no more hands, the page says why
        assert page.locator("#enter").count() == 0
        assert "H9" in page.locator("#ended").inner_text()


def test_edit_delete_refusal_double_submit_bad_input_and_restart(server: Any, phone: Any) -> None:
    page = phone.new_page()
    url = new_table(page, server.base, "wuhan", ["A", "B", "C", "D"])
    for hand in WUHAN[:3]:
        enter_hand(page, url, hand)
    page.goto(url)
    # after hands 1-3: -8-4, -4+20, -8-8, 20-8 (tests/test_session.py)
    assert page_totals(page) == {"A": -12, "B": 16, "C": -16, "D": 12}

    # Bad input: a 放冲 win without the discarder is refused with the CLI's message, nothing saved.
    page.goto(f"{url}/hand")
    fill_hand(page, {"how": "discard", "winners": ["D"], "totals": {"A": 1, "B": 0, "C": 1, "D": 2}})
    page.click("#save")
    problems = page.locator("#problems").inner_text()
    cli = subprocess.run([*SETTLE, "hand", "--region", "wuhan", "--players", "A,B,C,D", "--dealer", "B",
                          "--winner", "D", "--by", "discard", "--fans", "A=1,B=0,C=1,D=2"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert cli.returncode == 2
    message = cli.stderr.strip().removeprefix("error: ")
    assert message and message in problems
    assert page.locator("[data-field=from]").count() == 1  # shown next to the discarder's taps
    page.goto(url)
    assert page.locator("tr.hand").count() == 3

    # A double submit (two posts of one form, as a resend would) records the hand once.
    page.goto(f"{url}/hand")
    fill_hand(page, WUHAN[3])
    statuses = page.evaluate("""async () => {
        const form = document.getElementById('hand');
        const send = () => fetch(form.action, {method: 'POST', body: new FormData(form)}).then(r => r.status);
        return Promise.all([send(), send()]);
    }""")
    assert statuses == [200, 200]  # both end on the table page (the redirect followed)
    page.goto(url)
    assert page.locator("tr.hand").count() == 4
    assert page_totals(page) == {"A": 44, "B": 0, "C": -24, "D": -20}  # -12+56, 16-16, -16-8, 12-32

    # Edit hand 2: B wins on C's discard -> on D's discard.  Every loser pays 2^(own+winner) whoever
    # discarded (H4): A 2^(0+2)=4, C 2^(1+2)=8, D 2^(1+2)=8, B +20, as before: the totals stay.
    page.locator("#hand-2 a.edit").click()
    page.locator("#from input[value='D']").check(force=True)
    expect(page.locator("#preview-body")).to_contain_text("D -> B")
    assert page.locator("#preview-body td.net[data-player='D']").inner_text() == "-8"
    page.click("#save")
    page.wait_for_selector("#changes")
    assert page_totals(page) == {"A": 44, "B": 0, "C": -24, "D": -20}
    assert "B discard from D" in page.locator("#hand-2").inner_text()

    # Edit hand 1: C self-draws instead of D, the 番 A1 B0 C2 D2: A 2^(1+2)=8, B 2^(0+2)=4,
    # D 2^(2+2)=16 -> C +28; the rotation still gives B (A dealt and did not win, H10).
    page.locator("#hand-1 a.edit").click()
    page.locator("#winner input[value='C']").check(force=True)
    if page.locator("#player-2").get_attribute("open") is None:
        page.locator("#player-2 summary").click()
    page.fill("input[name='total:C']", "2")  # D's 2 stays
    page.click("#save")
    page.wait_for_selector("#changes")
    # hand 1 was A -8, B -4, C -8, D +20 and is now A -8, B -4, C +28, D -16: C +36, D -36.
    changes = {row.get_attribute("data-player"): row.locator("td").all_inner_texts()[1:]
               for row in page.locator("tr.change").all()}
    assert changes == {"A": ["44", "44"], "B": ["0", "0"], "C": ["-24", "12"], "D": ["-20", "-56"]}
    assert page_totals(page) == {"A": 44, "B": 0, "C": 12, "D": -56}

    # A change that cannot stand: hand 2 made a 逃跑 while later hands exist is refused with its reason.
    page.locator("#hand-2 a.edit").click()
    page.locator("input[name=how][value=abandon]").check(force=True)
    page.locator("#leaver input[value='B']").check(force=True)
    page.click("#save")
    assert "the game already ended" in page.locator("#problems").inner_text()
    page.goto(url)
    assert page_totals(page) == {"A": 44, "B": 0, "C": 12, "D": -56}

    # Delete hand 4 (A on D's discard, A +56, B -16, C -8, D -32): totals go back.
    page.locator("#hand-4 a.edit").click()
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#delete")
    page.wait_for_selector("#changes")
    assert page_totals(page) == {"A": -12, "B": 16, "C": 20, "D": -24}  # 44-56, 0+16, 12+8, -56+32
    assert page.locator("tr.hand").count() == 3

    # A restart of the server keeps everything.
    server.restart()
    page.goto(url)
    assert page_totals(page) == {"A": -12, "B": 16, "C": 20, "D": -24}
    assert page.locator("tr.hand").count() == 3


def test_the_read_only_page_refreshes_itself_and_has_no_write_control(server: Any, browser: Any, phone: Any) -> None:
    keeper = phone.new_page()
    url = new_table(keeper, server.base, "wuhan", ["A", "B", "C", "D"])
    enter_hand(keeper, url, WUHAN[0])
    keeper.goto(url)
    view_url = server.base + str(keeper.locator("#view-link").get_attribute("href"))
    other = browser.new_context(viewport={"width": 360, "height": 740})
    viewer = other.new_page()
    viewer.goto(view_url)
    assert page_totals(viewer) == {"A": -8, "B": -4, "C": -8, "D": 20}
    assert viewer.locator("form").count() == 0 and viewer.locator("a.edit").count() == 0
    enter_hand(keeper, url, WUHAN[1])
    expect(viewer.locator("tr.hand")).to_have_count(2, timeout=10000)
    assert page_totals(viewer) == {"A": -12, "B": 16, "C": -16, "D": 12}
    # the table's own address without the edit key is refused
    viewer.goto(url)
    assert viewer.locator("#refused").count() == 1
    assert re.search(r"edit key|记分权限", viewer.locator("#refused").inner_text())
    other.close()


TAP_TARGETS = """() => {
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('a, button, select, input:not([type=hidden]), summary')) {
    let target = el;
    if (el.matches('input[type=radio], input[type=checkbox]')) { target = el.closest('label') || el; }
    if (seen.has(target)) { continue; }
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }  // hidden
    if (target.closest('[hidden]')) { continue; }
    if (box.width < 44 || box.height < 44) {
      out.push(target.tagName + ' ' + (target.name || target.id || target.textContent.trim().slice(0, 30))
               + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
    }
  }
  return out;
}"""

CONTRAST = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) { return null; }
    const p = m[1].split(',').map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => {
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const background = (el) => { for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) { return c; } }
    return {r: 255, g: 255, b: 255, a: 1}; };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const done = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode; const el = node.parentElement;
    if (!node.textContent.trim() || done.has(el) || el.closest('svg')) { continue; }
    done.add(el);
    const box = el.getBoundingClientRect(); if (box.width === 0 || el.closest('[hidden]')) { continue; }
    const fg = parse(getComputedStyle(el).color); const bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) { out.push(node.textContent.trim().slice(0, 30) + ' ' + ratio.toFixed(2)); }
  }
  return out;
}"""


def test_phone_layout_tap_targets_and_contrast(server: Any, phone: Any) -> None:
    page = phone.new_page()
    url = new_table(page, server.base, "rushan", ["A", "B", "C", "D"], 0, {"multi_win": True})
    enter_hand(page, url, RUSHAN[5])
    screens = [f"{server.base}/", f"{server.base}/new?region=wuhan", url, f"{url}/hand"]
    page.goto(url)
    screens.append(server.base + str(page.locator("#view-link").get_attribute("href")))
    for address in screens:
        page.goto(address)
        for box in page.locator("details").all():  # the folded parts too
            if box.get_attribute("open") is None:
                box.locator("summary").click()
        if address.endswith("/hand"):
            fill_hand(page, RUSHAN[5])
            expect(page.locator("#preview-body")).to_be_visible()
        assert page.evaluate(TAP_TARGETS) == [], address
        assert page.evaluate(CONTRAST) == [], address
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, address  # nothing wider than the phone


def test_the_language_switch_on_the_page(server: Any, phone: Any) -> None:
    page = phone.new_page()
    url = new_table(page, server.base, "wuhan", ["A", "B", "C", "D"])
    page.goto(f"{url}/hand")
    fill_hand(page, WUHAN[0])
    # the region catalog's note, in the page language (settle hand prints the same in each --lang)
    expect(page.locator("#preview-body")).to_contain_text("小胡 small hand: base 1 (H2)")
    page.click("#lang")
    expect(page.locator("h1")).to_contain_text("第 1 局")
    fill_hand(page, WUHAN[0])
    expect(page.locator("#preview-body")).to_contain_text("小胡：底分 1 (H2)")
    assert "第 1 局" in page.locator("h1").inner_text()  # what expect waited for, read once more plainly
    page.click("#lang")
    expect(page.locator("h1")).to_contain_text("Hand 1")
    assert "Hand 1" in page.locator("h1").inner_text()


def test_set_up_redraws_for_the_seat_count_and_the_hand_list_fits_the_phone(server: Any, phone: Any) -> None:
    """Picking 3 players for a Wuxue table redraws the form with three seats at once (no extra tap);
    a 4-player evening with two-character names lists its hands within the phone's width (nothing to
    scroll sideways inside the list)."""
    page = phone.new_page()
    page.goto(f"{server.base}/new?region=wuxue")
    page.select_option("select[name=seats]", "3")
    page.wait_for_url(re.compile(r"seats=3"))
    expect(page.locator("input[name^='player:']")).to_have_count(3)
    names = ["东风", "南山", "西湖", "北斗"]
    url = new_table(page, server.base, "wuhan", names)
    enter_hand(page, url, {"how": "self_draw", "winners": ["东风"],
                           "totals": {"东风": 1, "南山": 0, "西湖": 1, "北斗": 2}})
    page.goto(url)
    overflow = page.evaluate("() => [...document.querySelectorAll('#hands .scroll')]"
                             ".map(e => e.scrollWidth - e.clientWidth)")
    assert overflow == [0]
