"""Issue 15, messages: values shown as written, zero transfers left out, a session's player limit
and the loader's problems in Chinese, and an unwritable stderr that changes no exit status.

* #9 a session of more than 16 players is refused in Chinese too, and a session of 1,000 hands with
  four new players each stops at the fifth hand (counted: five hands settled, not 1,000);
* #16 a YAML date, a ``!!binary`` value or a mapping where text or a number is expected is shown as
  the user wrote it (``2001-12-14``), never as a Python repr (``datetime.date(2001, 12, 14)``);
* #18 Wuhan 逃跑 with ``escape_paid_to: others`` lists no transfer of 0 points (H9, G2);
* the loader's duplicate key, empty document and JSON syntax error have Chinese words under
  ``--lang zh`` (their English words unchanged);
* a stderr that cannot be written (closed, or ``/dev/full``) leaves the exit status what happened.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from typer.testing import CliRunner

from settle import settle_hand
from settle.cli import _register_commands, app

runner = CliRunner()
_register_commands()

SETTLE = shutil.which("settle", path=str(Path(sys.executable).parent)) or "settle"

HAND = ("region: wuhan\nplayers: [A, B, C, D]\ndealer: {dealer}\nwin: {{winner: B, by: self_draw}}\n"
        "fans: {{A: {fan}, B: 2, C: 0, D: 0}}\n")


def _errors(text: str, *args: str) -> list[str]:
    """The stderr lines of ``settle hand`` on a YAML hand ``text`` (exit 2 asserted)."""
    done = runner.invoke(app, ["hand", "-", *args], input=text)
    assert done.exit_code == 2, done.output
    return [line for line in done.output.splitlines() if line.startswith("error:")]


# --- #18: no transfer of 0 points ------------------------------------------------------------------

def test_escape_split_leaves_out_zero_transfers() -> None:
    """H9: a penalty of 1 split among B, C, D by largest remainder: 1 = 1 + 0 + 0, the extra point to
    B (the player after A); only A -> B 1 is a payment (G2: payments are transfers between players)."""
    result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
                          "abandon": {"by": "A"}, "options": {"escape_penalty": 1, "escape_paid_to": "others"}})
    assert [(t.payer, t.payee, t.amount) for t in result.transfers] == [("A", "B", 1)]
    assert result.net == {"A": -1, "B": 1, "C": 0, "D": 0}


def test_escape_split_of_two_leaves_out_one_zero() -> None:
    """H9: 2 = 1 + 1 + 0: B and C get a point each (the extras go first to B, then C), D nothing."""
    result = settle_hand({"region": "wuhan", "players": ["A", "B", "C", "D"], "dealer": "A",
                          "abandon": {"by": "A"}, "options": {"escape_penalty": 2, "escape_paid_to": "others"}})
    assert [(t.payer, t.payee, t.amount) for t in result.transfers] == [("A", "B", 1), ("A", "C", 1)]

