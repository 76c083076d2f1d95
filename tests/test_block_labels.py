"""A JSON Lines hand's label does not depend on where the batch cuts the file into blocks (issue 14).

The batch reads a file in blocks and settles each block alone, knowing the number of its first hand in
the file (``first_index``).  A hand's label is its own ``id`` as written, whatever that looks like (an
id ``f.jsonl:3`` is the hand's, even when the hand is the third of its block), else its place in the
file, ``f.jsonl:<n>``.  Before, an id equal to ``<file>:<its place in the block>`` was taken for the
loader's own label and replaced by the file's place (the tester's reproducer: a hand 560 with id
``...:3`` came out as ``...:560`` when a 128 KiB block started two hands before it).  Each path of a block
is held to it here: a line validated from its bytes, a line the loader reads (a leading space), a bad
line, and a block whose first line the loader reads (then the whole block is the loader's).
"""

from __future__ import annotations

import json

import pytest

from settle.engine.batch.reading import jsonl_outcomes

HAND: dict[str, object] = {"region": "wuhan", "dealer": "A", "players": {"A": {"opens": 1}, "B": {}, "C": {}, "D": {}},
                           "win": {"winner": "A", "by": "self_draw"}}


def _line(ident: object | None = None, lead: str = "", bad: bool = False) -> bytes:
    hand = dict(HAND)
    if ident is not None:
        hand["id"] = ident
    if bad:
        hand["dealer"] = "Z"  # not seated: a bad hand
    return (lead + json.dumps(hand, ensure_ascii=False)).encode()


@pytest.mark.parametrize("first_lead", ["", " "])  # " ": the block's first line is the loader's, and so the block
def test_labels_are_the_files_whatever_block_a_hand_is_in(first_lead: str) -> None:
    block = b"\n".join([
        _line(None, first_lead),        # hand 101 of the file: no id
        _line("f.jsonl:2"),            # its own id, which is also its place in the block
        _line("f.jsonl:3", " "),       # the same, read by the loader (a leading space)
        _line("f.jsonl:4", bad=True),  # a bad hand with such an id
        _line(None, " "),              # hand 105, read by the loader, no id
        _line(None, bad=True),         # hand 106, bad, no id
        _line(7),                      # an int id
    ])
    outcomes = jsonl_outcomes(block, "f.jsonl", first_line=201, first_index=101)
    assert [o.label for o in outcomes] == ["f.jsonl:101", "f.jsonl:2", "f.jsonl:3", "f.jsonl:4", "f.jsonl:105",
                                           "f.jsonl:106", "7"]
    # the good hands settled, the bad ones refused, each on its own line of the file (201 + its place)
    assert [o.error is None for o in outcomes] == [True, True, True, False, True, False, True]
    assert outcomes[3].error is not None and {p.line for p in outcomes[3].error.problems} == {204}
    assert outcomes[5].error is not None and {p.hand for p in outcomes[5].error.problems} == {"f.jsonl:106"}


def test_the_same_hands_in_one_block_or_after_others() -> None:
    """The labels of a file's hands 1-3 read as one block from hand 1 are those they get as hands 1-3;
    the same lines read as hands 11-13 keep their ids and take places 11-13."""
    lines = [_line("f.jsonl:1"), _line(None), _line("f.jsonl:3", " ")]
    first = jsonl_outcomes(b"\n".join(lines), "f.jsonl", 1, 1)
    later = jsonl_outcomes(b"\n".join(lines), "f.jsonl", 21, 11)
    assert [o.label for o in first] == ["f.jsonl:1", "f.jsonl:2", "f.jsonl:3"]
    assert [o.label for o in later] == ["f.jsonl:1", "f.jsonl:12", "f.jsonl:3"]
