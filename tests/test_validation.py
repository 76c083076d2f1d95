"""One run reports every problem it can (brief: validation reports every error at once).

pydantic's problems (types, vocabulary) come first; then the shared and region rule checks run on
the hand with the refused values left out, and report what stands whatever those values were meant
to be (settle.engine.validation.problems_beside).  What a left-out value could cause is not reported.
"""

from __future__ import annotations

from typing import Any

from helpers import error_paths, hand_of

DISCARD_WITHOUT_FROM = {"winner": "D", "by": "discard"}  # G7: `from` is required on a discard


def players(**details: Any) -> dict[str, Any]:
    return {name: details.get(name, {}) for name in "ABCD"}


def test_type_and_rule_problems_in_one_run() -> None:
    # A bad count (pydantic), a dealer who is not playing and a discard with no discarder (rule checks).
    data = hand_of("wuhan", players(A={"opens": "x"}, D={"opens": 1}), dealer="E", win=DISCARD_WITHOUT_FROM)
    assert error_paths(data) == ["players.A.opens", "dealer", "win.from"]


def test_every_region_reports_its_rule_problems_beside_the_type_problems() -> None:
    # Rushan: fish 3 is out of range (R6: 0-2); the missing `from` (G7) is reported in the same run.
    data = hand_of("rushan", players(A={"fish": 3}), win=DISCARD_WITHOUT_FROM)
    assert error_paths(data) == ["players.A.fish", "win.from"]


def test_a_left_out_fact_raises_nothing_about_its_player() -> None:
    # B's opens are refused; left out, B would have 2 exposed kongs and no open (G4) — not reported,
    # since B's real opens may well be 2.  The unrelated missing `from` still is.
    data = hand_of("wuhan", players(B={"opens": "two", "kongs": {"exposed": 2}}, D={"opens": 1}),
                   win=DISCARD_WITHOUT_FROM)
    assert error_paths(data) == ["players.B.opens", "win.from"]


def test_a_left_out_winner_fact_does_not_make_him_closed() -> None:
    # D's opens (9) are refused; left out, D would have no open and H8 would refuse the win: not said.
    data = hand_of("wuhan", players(D={"opens": 9}), win={"winner": "D", "by": "self_draw"})
    assert error_paths(data) == ["players.D.opens"]


def test_a_refused_option_or_fan_stops_there() -> None:
    # Options and fans decide which rules apply (require_open, big hands ...): nothing more this run.
    bad_option = hand_of("wuhan", players(D={"opens": 1}), dealer="E", options={"cap": "x"},
                         win=DISCARD_WITHOUT_FROM)
    bad_fan = hand_of("wuhan", players(D={"opens": 1}), dealer="E",
                      win={**DISCARD_WITHOUT_FROM, "fans": ["qingyse"]})
    assert error_paths(bad_option) == ["options.cap"]
    assert error_paths(bad_fan) == ["win.fans[0]"]


def test_a_stray_key_does_not_hide_the_rule_problems() -> None:
    # `colour` is no near miss of any hand key: leaving it out drops nothing meant (final trial: it hid
    # the dealer and `from` problems).
    data = hand_of("wuhan", players(D={"opens": 1}), dealer="E", colour="red", win=DISCARD_WITHOUT_FROM)
    assert error_paths(data) == ["colour", "dealer", "win.from"]


def test_a_near_miss_of_a_known_key_stops_there() -> None:
    # `fan` may be the winner's stated fans (`fans`), which would change the rules (G9): nothing more.
    data = hand_of("wuhan", players(), dealer="E", fan={"D": 3}, win=DISCARD_WITHOUT_FROM)
    assert error_paths(data) == ["fan"]
