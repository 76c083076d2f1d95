"""The words of the tile-level steps, English and Chinese (issue 13: reasons as data).

Two families of kinds, both region-free (a region gives the names and rulings as values):

* the engine's reasons (:mod:`settle.tiles.rules`, :mod:`settle.tiles.fans`): why a reading or a
  hand cannot win (``two_wilds``, ``pair_258_except``, ``small_needs_pair``,
  ``option_needs_pair``, ``holds_blocked``, ``no_winning_shape``) and where a rule is written
  (``seed``);
* the tile-level settlement's notes (:mod:`settle.engine.tilelevel`): what the melds give
  (``tiles_melds``), claimed fans settled as given (``tiles_claimed``), the reading kept
  (``tiles_reading`` with its ``tiles_read``), why it was kept (``tiles_chosen`` with one of the
  ``why_*`` kinds), readings refused or not legal (``tiles_refused``, ``tiles_not_legal``) and,
  for ``settle check``, a claim that is another legal reading (``claim_other_reading``).

English is what settle has always printed, byte for byte; Chinese says the same with the same
numbers, player names, pinyin keys, ruling ids and tile notation.  :data:`TILES` falls back to the
shared machinery's catalog; a hand settled from tiles is worded by :func:`tile_catalog` of its
region's catalog (these words in front of the region's), so a region loads none of this for a
hand without tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from json.encoder import encode_basestring
from typing import Any

from settle.core import SHARED, Catalog, Step, Template, signed
from settle.core.text import WORDS_KEPT, dumps
from settle.tiles.notation import GROUP_TEXT

KONG_ZH: Mapping[str, str] = {"exposed": "明杠", "added": "补杠", "concealed": "暗杠"}
"""The ordinary kong kinds (G3) in Chinese."""
MELD_ZH: Mapping[str, str] = {"chow": "吃", "pung": "碰", "kong": "杠"}
"""The meld kinds in Chinese."""
_SHAPE = {"en": {"seven_pairs": "七对 ", "loose": "乱 (no shape) "},
          "zh": {"seven_pairs": "七对 ", "loose": "乱（无牌型）"}}


def _nested(values: Any, item: Step | None, lang: str) -> str:
    """A nested step in words (empty for None)."""
    return "" if item is None else values.catalog.text(item, lang)


def _ref(values: Any, lang: str) -> str:
    """``H8, seed 004 癞子 5``: the ruling and where the rule is written (``原文 004 癞子 5``)."""
    source = values.raw("source") if "source" in values else None
    sep = ", " if lang == "en" else "，"
    return sep.join(part for part in (values.raw("rule"), _nested(values, source, lang)) if part)


def fan_labels(fans: Iterable[Mapping[str, str]], lang: str = "en") -> str:
    """``清一色 qingyise, 硬胡 hard`` (``清一色 qingyise、硬胡 hard``), or ``no shape item`` (``无牌型番``).

    ``fans``: ``{"key", "zh"}`` items, in the region's table order.
    """
    shown = [f"{f['zh']} {f['key']}" for f in fans]
    if lang == "zh":
        return "、".join(shown) if shown else "无牌型番"
    return ", ".join(shown) if shown else "no shape item"


def _joined(items: Iterable[str], lang: str, en: str, zh: str) -> str:
    return (zh if lang == "zh" else en).join(items)


# --- the engine's reasons ---------------------------------------------------------------------


def _holds_blocked(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"手里有 {values['tiles']}：手里有{values['what']}不能胡 ({_ref(values, lang)})"
    return f"holds {values['tiles']}: a hand holding {values['what']} ({_ref(values, lang)}) cannot win"


def _two_wilds(values: Any, lang: str) -> str:
    excused = values.raw("excused")
    if lang == "zh":
        unless = f"（{'或'.join(excused)}除外）" if excused else ""
        return f"手里有两张{values['wildcard']}不能胡{values['small']}{unless} ({_ref(values, lang)})"
    unless = f" except {' or '.join(excused)}" if excused else ""
    return f"two {values['wildcard']} in hand forbid a {values['small']}{unless} ({_ref(values, lang)})"


def _pair_258_except(values: Any, lang: str) -> str:
    fans = values.raw("fans")
    if lang == "zh":
        return f"将必须是 2/5/8（{'、'.join(fans)}除外） ({_ref(values, lang)})"
    return f"the pair must be 2/5/8 except in {', '.join(fans)} ({_ref(values, lang)})"


def _small_needs_pair(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"{values['small']}要 2/5/8 的将 ({_ref(values, lang)})"
    return f"a {values['small']} needs a 2/5/8 pair ({_ref(values, lang)})"


def _option_needs_pair(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"选项 {values['option']}：要 2/5/8 的将 ({_ref(values, lang)})"
    return f"option {values['option']}: the hand needs a 2/5/8 pair ({_ref(values, lang)})"


# --- the tile-level settlement's notes ----------------------------------------------------------


def _kongs(kongs: Iterable[tuple[str, int]], lang: str) -> str:
    """``1 exposed kong, 2 concealed kongs`` (``1 个明杠、2 个暗杠``), or ``no four-tile kong``."""
    if lang == "zh":
        return "、".join(f"{n} 个{KONG_ZH.get(k, k)}" for k, n in kongs if n) or "没有四张的杠"
    return ", ".join(f"{n} {k} kong{'s' if n > 1 else ''}" for k, n in kongs if n) or "no four-tile kong"


def _tiles_melds(values: Any, lang: str) -> str:
    feeders = values.raw("feeders")
    kongs = _kongs(values.raw("kongs"), lang)
    if lang == "zh":
        fed = f"（{'、'.join(feeders)} 供牌）" if feeders else ""
        return f"牌：{values['winner']} 的副露算 {values['opens']} 次开口{fed}，{kongs}"
    fed = f" fed by {', '.join(feeders)}" if feeders else ""
    return f"tiles: {values['winner']}'s melds give {values['opens']} open(s){fed} and {kongs}"


def _tiles_claimed(values: Any, lang: str) -> str:
    labels = fan_labels(values.raw("fans"), lang)
    if lang == "zh":
        return f"牌：{values['winner']} 报的番照报算（{labels}）；`settle check` 会拿它和牌面对照"
    return (f"tiles: {values['winner']}'s claimed fans are settled as given ({labels}); "
            "`settle check` compares them with the tiles")


def _meld(meld: Mapping[str, Any], lang: str) -> str:
    """``[exposed kong 5555m]``, ``[pung 777p]`` (``[明杠 5555m]``, ``[碰 777p]``)."""
    kind, kong = meld["kind"], meld.get("kong")
    if lang == "zh":
        label = KONG_ZH.get(kong, MELD_ZH["kong"]) if kong else MELD_ZH.get(kind, kind)
    else:
        label = f"{kong} kong" if kong else kind
    return f"[{label} {meld['tiles']}]"


def _tiles_read(values: Any, lang: str) -> str:
    """``123m 22m 456m [pung 777p] (癞子 6s as 5m)``: the groups as read, the melds, the wildcards."""
    return _read_words(values, lang)


def _read_words(values: Mapping[str, Any], lang: str) -> str:
    """The words of a ``tiles_read`` step from its values (text, tuples and lists, none a nested step:
    a template's view of them and the values themselves read alike): the shape's word, the groups
    joined by spaces, then :func:`_read_tail`."""
    return _SHAPE[lang].get(values["shape"], "") + " ".join(values["groups"]) + _read_tail(values, lang)


def _read_tail(values: Mapping[str, Any], lang: str) -> str:
    """What a ``tiles_read`` step's words say after its groups: the melds, then what each wildcard
    stands for (empty for a closed hand without wildcards)."""
    text = ""
    melds = values["melds"]
    if melds:
        text += " " + " ".join(_meld(m, lang) for m in melds)
    read_as = values["read_as"]
    if read_as:
        if lang == "zh":
            shown = "、".join(("作本身" if v is None else f"作 {v}") + (f" ×{n}" if n > 1 else "") for v, n in read_as)
            text += f"（{values['wildcard']} {values['wild']} {shown}）"
        else:
            shown = ", ".join(("itself" if v is None else v) + (f" ×{n}" if n > 1 else "") for v, n in read_as)
            text += f" ({values['wildcard']} {values['wild']} as {shown})"
    return text


def _tiles_reading(values: Any, lang: str) -> str:
    """The reading kept: its nested ``tiles_read`` step worded here from its values (the tile words
    are in front of every catalog that words a ``tiles_reading``: :func:`tile_catalog`), not looked
    up in the catalog's table of words (a reading is new to nearly every hand)."""
    read = values.raw("read")
    words = _read_words(read.values, lang) if read.kind == "tiles_read" else values["read"]
    head, tail = _reading_frame(values.raw("winner"), values.raw("fans"), lang)
    return head + words + tail


def _reading_frame(winner: str, fans: Iterable[Mapping[str, str]], lang: str) -> tuple[str, str]:
    """The words of a ``tiles_reading`` step before and after the words of its ``tiles_read``:
    ``reading: B's tiles read as `` and `` — 屁胡 pihu`` (``fans``: ``{"key", "zh"}`` items)."""
    labels = fan_labels(fans, lang)
    if lang == "zh":
        return f"读法：{winner} 的牌读作 ", f"，番：{labels}"
    return f"reading: {winner}'s tiles read as ", f" — {labels}"


def _tiles_chosen(values: Any, lang: str) -> str:
    if lang == "zh":
        return (f"选给 {values['winner']}：{values['why']}；共考虑 {values['considered']} 种合法读法"
                "（每种番组合一种，各取替代最少的）")
    return (f"chosen for {values['winner']}: {values['why']}; {values['considered']} legal reading(s) considered "
            "(one per distinct set of fans, each with its fewest wildcard substitutions)")


def _next(values: Any, lang: str) -> str:
    """The next best reading: its fans and the winner's net under it."""
    return f"{fan_labels(values.raw('next_fans'), lang)} {signed(values.raw('next_net'))}"


def _why_most(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"{values['winner']} 赢得最多，{signed(values.raw('net'))}（次优：{_next(values, lang)}）"
    return f"pays {values['winner']} the most, {signed(values.raw('net'))} (next best: {_next(values, lang)})"


def _why_no_liable(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"与 {_next(values, lang)} 同分；取不包牌的读法（那种读法 {values['liable']} 一家全付）"
    return (f"ties with {_next(values, lang)}; preferred without 包牌 "
            f"(there {values['liable']} would pay for everyone)")


def _why_fewer(values: Any, lang: str) -> str:
    if lang == "zh":
        return (f"与 {_next(values, lang)} 同分；取替代较少的读法"
                f"（{values['substitutions']} 对 {values['next_substitutions']}）")
    return (f"ties with {_next(values, lang)}; preferred with fewer wildcard substitutions "
            f"({values['substitutions']} against {values['next_substitutions']})")


def _why_first(values: Any, lang: str) -> str:
    if lang == "zh":
        return f"与 {_next(values, lang)} 完全相同；取引擎顺序中的第一种（番多者在前）"
    return f"ties with {_next(values, lang)} in every respect; the first in the engine's order (most fans)"


def _tiles_refused(values: Any, lang: str) -> str:
    """The region checks' problems are English words only (``Problem.message``): the Chinese names
    the keys they are at (``players.B.opens``, ``win.tiles.melds``) instead."""
    if lang == "zh":
        return f"与牌局事实不符：{values['count']} 种读法（问题在 {'、'.join(values.raw('paths'))}）"
    return f"refused by the hand's facts: {values['count']} reading(s) ({'; '.join(values.raw('problems'))})"


def _problems_at(values: Any, lang: str) -> str:
    """The problems of a refused claim or reading (``settle check``): their messages in English; in
    Chinese, the keys they are at (the messages are English only)."""
    if lang == "zh":
        return f"问题在 {'、'.join(values.raw('paths'))}"
    return "; ".join(values.raw("problems"))


def _tiles_not_legal(values: Any, lang: str) -> str:
    reasons = _joined((_nested(values, r, lang) for r in values.raw("reasons")), lang, "; ", "；")
    if lang == "zh":
        return f"不合法：另 {values['count']} 种读法（{reasons}）"
    return f"not legal: {values['count']} other reading(s) ({reasons})"


def _claim_other_reading(values: Any, lang: str) -> str:
    winner = values["winner"]
    claim, kept = values.raw("claim_net"), values.raw("kept_net")
    if lang == "zh":
        text = f"{winner} 报的番是牌的另一种合法读法，不是所取的那种"
        if claim is not None and kept is not None:
            text += f"（{winner} 按报的番净得 {signed(claim)}，按所取读法净得 {signed(kept)}）"
        return text
    text = f"{winner}'s claim is another legal reading of the tiles, not the one kept"
    if claim is not None and kept is not None:
        text += f" ({winner} nets {signed(claim)} with the claim, {signed(kept)} with the reading kept)"
    return text


_BOTH: dict[str, Template] = {
    "holds_blocked": _holds_blocked,
    "two_wilds": _two_wilds,
    "pair_258_except": _pair_258_except,
    "small_needs_pair": _small_needs_pair,
    "option_needs_pair": _option_needs_pair,
    "tiles_melds": _tiles_melds,
    "tiles_claimed": _tiles_claimed,
    "tiles_read": _tiles_read,
    "tiles_reading": _tiles_reading,
    "tiles_chosen": _tiles_chosen,
    "why_most": _why_most,
    "why_no_liable": _why_no_liable,
    "why_fewer_substitutions": _why_fewer,
    "why_first": _why_first,
    "tiles_refused": _tiles_refused,
    "problems_at": _problems_at,
    "tiles_not_legal": _tiles_not_legal,
    "claim_other_reading": _claim_other_reading,
}

EN: dict[str, Template] = {
    **_BOTH,
    "seed": "seed {number} {section}",
    "no_winning_shape": "the tiles are not a winning hand (sets and a 2-tile pair, or a shape the region allows)",
    "why_only_legal": "the only legal reading",
    "why_only_allowed": "the only reading the hand's facts allow",
}
ZH: dict[str, Template] = {
    **_BOTH,
    "seed": "原文 {number} {section}",
    "no_winning_shape": "牌不成胡（要几副顺子或刻子加一对将，或本地允许的牌型）",
    "why_only_legal": "唯一合法的读法",
    "why_only_allowed": "牌局事实只允许这一种读法",
}

TILES = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="tiles")
"""Tile readings' words, falling back to the shared machinery's (the engine's reasons alone)."""


class ReadingStep(Step):
    """A step the catalogs never keep: the reading kept for a winner (``tiles_reading``, ``tiles_read``).

    Its groups are the hand's, so it is new to nearly every hand: keeping its words and JSON form
    would fill the catalogs' tables for nothing, and looking it up there would cost a hash of every
    value.  It cannot be hashed (TypeError at once, before any value is hashed), so the catalogs
    (:meth:`~settle.core.text.Catalog.note`, :meth:`~settle.core.text.Catalog.text`) word and form
    it afresh each time; otherwise it is a :class:`~settle.core.steps.Step` (equal to one with the
    same rule, kind and values; the same JSON form).
    """

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]


class FramedReading(ReadingStep):
    """The step of the reading kept (``tiles_reading``) of a closed hand whose reading substitutes no
    wildcard, made only where every test :meth:`TileCatalog._framing` makes of such a step is known to
    hold (:func:`settle.engine.tilelevel.reasons.choice_steps`): its values ``{"winner": text, "read":
    tiles_read step, "fans": fan items}``, the ``tiles_read`` step's rule empty and its values ``{"shape":
    text, "groups": a non-empty tuple of group notations (GROUP_TEXT), "melds": (), "wildcard": text or
    None, "wild": text or None, "read_as": ()}``.  The catalog then reads it without testing it again
    (issue 14).  A :class:`ReadingStep` (never kept, cannot be hashed)."""

    __slots__ = ()


_Frame = tuple[tuple[Step, ...], object, str, str, str, str, bytes, bytes, bytes, bytes]
"""What :meth:`TileCatalog._frame` keeps: the steps held, the fans held, the texts before and after the
groups (the notes, then the forms), and the same four texts in UTF-8 (``surrogatepass``)."""


class TileCatalog(Catalog):
    """The catalog of a hand settled from tiles (:func:`tile_catalog`): a :class:`~settle.core.text.Catalog`
    whose :meth:`notes_json` keeps the texts of the steps that recur (the region's, ``tiles_melds``,
    ``tiles_chosen``) apart from those of the reading kept, a step new to nearly every hand that
    cannot be hashed (:class:`ReadingStep`): only the latter is
    worded and encoded per hand (issue 14)."""

    __slots__ = ("_framed",)
    makes_fresh_notes = True

    def __init__(self, templates: Mapping[str, Mapping[str, Template]], parent: Catalog | None = None,
                 name: str = "") -> None:
        super().__init__(templates, parent, name)
        self._framed: dict[tuple[Any, ...], _Frame] = {}

    def notes_json(self, reasons: tuple[Step, ...], lang: str = "en") -> tuple[str, str]:
        """:meth:`Catalog.notes_json <settle.core.text.Catalog.notes_json>`, the same two texts: each run
        of steps that can be hashed by the catalog's own (its texts kept), each step that cannot
        (its type's ``__hash__`` is None) worded and encoded afresh (its JSON form by
        :func:`form_json`), the pieces joined as the json encoder joins a list's items (``", "``).

        The usual hand settled from tiles has one such step, the reading kept, of a closed hand
        without wildcards: then both texts are the hand's groups put between texts kept per everything
        else (:meth:`_frame`), and only the groups are joined per hand (issue 14)."""
        at = -1
        for i, item in enumerate(reasons):
            if type(item).__hash__ is None:
                if at >= 0:  # two readings (several winners, R8): the general way
                    at = -2
                    break
                at = i
        if at == -1:
            return super().notes_json(reasons, lang)
        if at >= 0:
            framed = self._framed_json(reasons, at, lang)
            if framed is not None:
                return framed
        found = self.notes_json_held.get((lang, *map(id, reasons)))
        if found is not None:
            return found
        notes: list[str] = []
        forms: list[str] = []
        start = 0
        for end, item in enumerate(reasons):
            if type(item).__hash__ is not None:
                continue
            if start < end:
                run_notes, run_forms = super().notes_json(reasons[start:end], lang)
                notes.append(run_notes[1:-1])  # the items of "[...]"
                forms.append(run_forms[1:-1])
            notes.append(encode_basestring(self._render(item, lang)))  # as note() words it: never kept
            forms.append(form_json(item))
            start = end + 1
        if start < len(reasons):
            run_notes, run_forms = super().notes_json(reasons[start:], lang)
            notes.append(run_notes[1:-1])
            forms.append(run_forms[1:-1])
        return f"[{', '.join(notes)}]", f"[{', '.join(forms)}]"

    def fresh_notes_utf8(self, reasons: tuple[Step, ...], lang: str = "en") -> tuple[bytes, bytes] | None:
        """:meth:`notes_json` in UTF-8 (``surrogatepass``) for the usual hand settled from tiles (the one
        step that cannot be hashed the reading kept, :meth:`_framed_json`): the hand's groups put between
        the frame's bytes, no text made and encoded per hand (issue 14).  None for any other reasons."""
        at = -1
        for i, item in enumerate(reasons):
            if type(item).__hash__ is None:
                if at >= 0:
                    return None
                at = i
        if at < 0:
            return None
        framing = self._framing(reasons, at, lang)
        if framing is None:
            return None
        frame, groups = framing
        spaced, apart = " ".join(groups).encode("ascii"), _GROUPS_APART.join(groups).encode("ascii")
        return b"%s%s%s" % (frame[6], spaced, frame[7]), b"%s%s%s" % (frame[8], apart, frame[9])

    def _framed_json(self, reasons: tuple[Step, ...], at: int, lang: str) -> tuple[str, str] | None:
        """:meth:`notes_json` of ``reasons`` whose one step that cannot be hashed, ``reasons[at]``, is the
        reading kept (``tiles_reading``, as :func:`settle.engine.tilelevel.reasons.choice_steps` makes
        it) of a closed hand without wildcards whose groups are tile notation: the groups joined between
        the texts :meth:`_frame` keeps for the other steps (by their identity), the winner, the shape,
        the wildcard's name and the fans.  None for any other reasons (the general way then)."""
        framing = self._framing(reasons, at, lang)
        if framing is None:
            return None
        frame, groups = framing
        notes_before, notes_after, forms_before, forms_after = frame[2:6]
        return (f"{notes_before}{' '.join(groups)}{notes_after}",
                f"{forms_before}{_GROUPS_APART.join(groups)}{forms_after}")

    def _framing(self, reasons: tuple[Step, ...], at: int, lang: str) -> tuple[_Frame, tuple[str, ...]] | None:
        """The frame :meth:`_frame` keeps for ``reasons`` (see :meth:`_framed_json`) and the reading's groups
        (each tile notation, :data:`_GROUP_WORDS`: ASCII that JSON writes as it is); None when ``reasons[at]``
        is not the reading kept of such a hand."""
        item = reasons[at]
        values = item.values
        if isinstance(item, FramedReading):  # made so that every test below holds (its maker's word)
            read, fans, winner = values["read"], values["fans"], values["winner"]
            shown = read.values
            groups = shown["groups"]
        else:
            if (item.kind != "tiles_reading" or item.rule or type(values) is not dict
                    or tuple(values) != _READING_KEYS):
                return None
            read, fans, winner = values["read"], values["fans"], values["winner"]
            if not isinstance(read, Step) or read.kind != "tiles_read" or read.rule or type(winner) is not str:
                return None
            shown = read.values
            if (type(shown) is not dict or tuple(shown) != _READ_KEYS or shown["melds"] != ()
                    or shown["read_as"] != () or type(shown["shape"]) is not str
                    or not _TEXT_OR_NONE.issuperset((type(shown["wildcard"]), type(shown["wild"])))):
                return None
            groups = shown["groups"]
            if type(groups) is not tuple or not groups or not _GROUP_WORDS.issuperset(groups):
                return None
        try:
            key = (lang, winner, shown["shape"], shown["wildcard"], shown["wild"], id(fans), *map(id, reasons[:at]),
                   None, *map(id, reasons[at + 1:]))
            frame = self._framed.get(key)
        except TypeError:  # a value that cannot be hashed
            return None
        if frame is None:
            if type(fans) is not tuple or not all(type(f) is dict and tuple(f) == _FAN_KEYS for f in fans):
                return None
            frame = self._frame(reasons, at, lang)
            if frame is None:
                return None
            if len(self._framed) >= WORDS_KEPT:
                self._framed.clear()
            self._framed[key] = frame
        return frame, groups

    def _frame(self, reasons: tuple[Step, ...], at: int, lang: str) -> _Frame | None:
        """What :meth:`_framed_json` keeps: the steps around ``reasons[at]`` and the reading's fans (held, so
        that their identity in its key is never another object's; the fans' items are read only, as a
        step's values are), then the texts before and after the groups in each list:
        the words (:func:`_reading_frame`, :func:`_read_tail`; :func:`_tiles_reading` words the step
        so, groups between them) and the JSON form (:func:`form_json`, the groups a list of texts),
        and those four texts in UTF-8 (:meth:`fresh_notes_utf8`).  None when this catalog words
        ``tiles_reading`` otherwise."""
        if self.template("tiles_reading", lang) is not _tiles_reading:
            return None
        item = reasons[at]
        values = item.values
        shown = values["read"].values
        head, tail = _reading_frame(values["winner"], values["fans"], lang)
        before = head + _SHAPE[lang].get(shown["shape"], "")
        after = _read_tail(shown, lang) + tail
        form_before = (f'{{"rule": null, "kind": "tiles_reading", "values": {{"winner": '
                       f'{encode_basestring(values["winner"])}, "read": {{"rule": null, "kind": "tiles_read", '
                       f'"values": {{"shape": {dumps(shown["shape"])}, "groups": ["')
        form_after = (f'"], "melds": [], "wildcard": {dumps(shown["wildcard"])}, "wild": {dumps(shown["wild"])}, '
                      f'"read_as": []}}}}, "fans": {dumps(values["fans"])}}}}}')
        notes_before, notes_after = encode_basestring(before)[:-1], encode_basestring(after)[1:]
        forms_before, forms_after = form_before, form_after
        if at:
            run_notes, run_forms = super().notes_json(reasons[:at], lang)
            notes_before = f"{run_notes[:-1]}, {notes_before}"
            forms_before = f"{run_forms[:-1]}, {forms_before}"
        else:
            notes_before, forms_before = "[" + notes_before, "[" + forms_before
        if at + 1 < len(reasons):
            run_notes, run_forms = super().notes_json(reasons[at + 1:], lang)
            notes_after = f"{notes_after}, {run_notes[1:]}"
            forms_after = f"{forms_after}, {run_forms[1:]}"
        else:
            notes_after, forms_after = notes_after + "]", forms_after + "]"
        held = (*reasons[:at], *reasons[at + 1:])
        texts = (notes_before, notes_after, forms_before, forms_after)
        return (held, values["fans"], *texts, *[text.encode("utf-8", "surrogatepass") for text in texts])


def form_json(item: Step) -> str:
    """``dumps(item.as_dict())``, the JSON text of a step's form, written without building the form for
    the step of the reading kept (``tiles_reading`` with its ``tiles_read``, as
    :func:`settle.engine.tilelevel.reasons.reading_step` makes them): its values are text, None, whole
    numbers and tuples and dicts of those (what the json encoder writes as :func:`~settle.core.steps.jsonable`
    turns them, tuples as lists), so they are encoded as they are.  Any other step, or a value of
    another type, is encoded from :meth:`~settle.core.steps.Step.as_dict` (the same text, issue 14)."""
    values = item.values
    if item.kind == "tiles_reading" and not item.rule and type(values) is dict and tuple(values) == _READING_KEYS:
        winner, read, fans = values["winner"], values["read"], values["fans"]
        if (type(winner) is str and isinstance(read, Step) and read.kind == "tiles_read" and not read.rule
                and _plain_dicts(fans) and _read_ready(read.values)):
            return (f'{{"rule": null, "kind": "tiles_reading", "values": {{"winner": {encode_basestring(winner)}, '
                    f'"read": {{"rule": null, "kind": "tiles_read", "values": {dumps(read.values)}}}, '
                    f'"fans": {dumps(fans)}}}}}')
    return dumps(item.as_dict())


_READING_KEYS = ("winner", "read", "fans")
_FAN_KEYS = ("key", "zh")
_GROUPS_APART = '", "'
"""Between two groups' texts in a JSON list (each text needs no escape: :data:`_GROUP_WORDS`)."""
_GROUP_WORDS = frozenset(GROUP_TEXT.values())
"""The notation of every group of a reading (:data:`~settle.tiles.notation.GROUP_TEXT`): digits and
a suit letter, written in JSON as they are."""
_READ_KEYS = ("shape", "groups", "melds", "wildcard", "wild", "read_as")
_TEXT = frozenset({str})
_TEXT_OR_NONE = frozenset({str, type(None)})
_PLAIN = frozenset({str, int, bool, type(None)})
_COUNT = frozenset({int})


def _plain_dicts(items: object) -> bool:
    """A tuple of dicts with text keys and plain values (text, int, bool, None): the fans, the melds."""
    if type(items) is not tuple:
        return False
    for entry in items:
        if type(entry) is not dict or not _TEXT.issuperset(map(type, entry)) or \
                not _PLAIN.issuperset(map(type, entry.values())):
            return False
    return True


def _read_ready(values: object) -> bool:
    """The values of a ``tiles_read`` step as :func:`~settle.engine.tilelevel.reasons.reading_step` makes
    them: a dict of its keys in order, the groups a tuple of texts, the melds plain dicts, the wildcard's
    name and tile text or None, ``read_as`` (tile text or None, count) pairs."""
    if type(values) is not dict or tuple(values) != _READ_KEYS:
        return False
    groups, read_as = values["groups"], values["read_as"]
    return (type(values["shape"]) is str and type(groups) is tuple and _TEXT.issuperset(map(type, groups))
            and _plain_dicts(values["melds"]) and _TEXT_OR_NONE.issuperset((type(values["wildcard"]),
                                                                            type(values["wild"])))
            and type(read_as) is tuple
            and all(type(pair) is tuple and len(pair) == 2 and type(pair[0]) in _TEXT_OR_NONE
                    and type(pair[1]) in _COUNT for pair in read_as))


@cache
def tile_catalog(region: Catalog) -> Catalog:
    """The tile words in front of a region's catalog (one per region catalog): what a hand settled
    from tiles, and ``settle check``, are worded by (a :class:`TileCatalog`)."""
    return TileCatalog(TILES.templates, parent=region, name=f"tiles+{region.name}")
