"""Vocabulary shared by the regions: scoring items, kong kinds, and their Chinese aliases.

Each scoring item (番/斤/× pattern) is a small self-describing :class:`Pattern`
(key, Chinese name, English gloss, value, ruling, which wins it fits), the way
the riichi calculator MahjongRepository/mahjong describes each yaku.  Each region
module holds a table of them; validation and scoring read the tables, so a rule
is changed in one row.

Values (region, ``by``, fan names, kong kinds) accept Chinese aliases in
simplified and traditional characters (RULINGS G14).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple, get_args, get_origin

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from settle.errors import shown_word
from settle.records import Frozen

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, JsonValue
    from pydantic_core import CoreSchema

# Each simplified character that appears in a key's Chinese name, with its traditional form,
# so that every alias is accepted in both scripts (G14) without listing each twice.
_TRADITIONAL_OF = (
    {
        "汉": "漢", "点": "點", "冲": "沖", "抢": "搶", "杠": "槓", "碰": "碰", "风": "風",
        "将": "將", "对": "對", "宝": "寶", "开": "開", "门": "門", "条": "條", "龙": "龍",
        "华": "華", "发": "發", "财": "財", "红": "紅", "赖": "賴", "癞": "癩", "摸": "摸",
        "庄": "莊", "海": "海", "捞": "撈", "底": "底", "胡": "胡", "荒": "荒", "飘": "飄",
        "鱼": "魚", "乳": "乳", "穴": "穴", "武": "武", "硬": "硬", "暗": "暗", "补": "補",
        "蓄": "蓄", "直": "直", "皮": "皮", "中": "中", "万": "萬", "过": "過", "东": "東",
        "搂": "摟", "亮": "亮", "顶": "頂", "带": "帶", "吃": "吃", "无": "無",
    }
)
_TRADITIONAL = str.maketrans(_TRADITIONAL_OF)
_SIMPLIFIED = str.maketrans({t: s for s, t in _TRADITIONAL_OF.items() if s != t})


def simplified(text: str) -> str:
    """``text`` with the traditional characters settle knows made simplified (mixed scripts too)."""
    return text.translate(_SIMPLIFIED)


def with_traditional(names: Iterable[str]) -> tuple[str, ...]:
    """The names plus their traditional-character spellings, without repeats."""
    out: list[str] = []
    for name in names:
        for spelling in (name, name.translate(_TRADITIONAL)):
            if spelling not in out:
                out.append(spelling)
    return tuple(out)


class Term(Frozen):
    """A canonical key with its Chinese name, extra aliases and English gloss."""

    __slots__ = ("aliases", "en", "key", "zh")
    _FIELDS: tuple[str, ...] = ("key", "zh", "en", "aliases")

    key: str
    zh: str
    en: str
    aliases: tuple[str, ...]

    def __init__(self, key: str, zh: str, en: str, *, aliases: tuple[str, ...] = ()) -> None:
        _set = object.__setattr__
        _set(self, "key", key)
        _set(self, "zh", zh)
        _set(self, "en", en)
        _set(self, "aliases", aliases)

    def spellings(self) -> tuple[str, ...]:
        """Every accepted spelling: key, Chinese name and aliases, both scripts."""
        return (self.key, *with_traditional((self.zh, *self.aliases)))

    @property
    def label(self) -> str:
        """``key 中文`` as shown in help and messages."""
        return f"{self.key} {self.zh}"


class Pattern(Term):
    """One scoring item a winner can claim in ``win.fans``.

    ``value`` is in the region's unit (番 fans, 斤 jin, × multiplier or base points);
    ``kind`` tells the region's scorer how it counts (e.g. ``big`` 大胡, ``extra``,
    ``base``, ``multiplier``); ``only_by`` lists the win types it fits (G10), empty
    for any; ``group`` names a family of which at most one may be named (the seven-pairs
    levels, the Rushan bases: G10); ``ruling`` is the RULINGS.md id that defines it.
    """

    __slots__ = ("group", "kind", "only_by", "ruling", "value")
    _FIELDS = ("key", "zh", "en", "aliases", "value", "kind", "ruling", "only_by", "group")

    value: int
    kind: str
    ruling: str
    only_by: frozenset[str]
    group: str

    def __init__(self, key: str, zh: str, en: str, value: int = 0, kind: str = "big", ruling: str = "",
                 only_by: frozenset[str] = frozenset(), group: str = "", *,
                 aliases: tuple[str, ...] = ()) -> None:
        super().__init__(key, zh, en, aliases=aliases)
        _set = object.__setattr__
        _set(self, "value", value)
        _set(self, "kind", kind)
        _set(self, "ruling", ruling)
        _set(self, "only_by", only_by)
        _set(self, "group", group)


class KongKind(Term):
    """A kind of kong (杠) a player can have in ``kongs``.

    ``value`` is what one such kong scores (番 or 斤); ``ordinary`` kinds are the
    four-tile kongs that share the limit of 4 per player; ``limit`` bounds the
    count of this kind for one player (physical tile count).
    """

    __slots__ = ("limit", "ordinary", "ruling", "value")
    _FIELDS = ("key", "zh", "en", "aliases", "value", "ordinary", "limit", "ruling")

    value: int
    ordinary: bool
    limit: int
    ruling: str

    def __init__(self, key: str, zh: str, en: str, value: int = 0, ordinary: bool = True, limit: int = 4,
                 ruling: str = "", *, aliases: tuple[str, ...] = ()) -> None:
        super().__init__(key, zh, en, aliases=aliases)
        _set = object.__setattr__
        _set(self, "value", value)
        _set(self, "ordinary", ordinary)
        _set(self, "limit", limit)
        _set(self, "ruling", ruling)


def lookup_table(terms: Iterable[Term]) -> dict[str, str]:
    """Map every spelling (lower-cased key, Chinese, traditional) to its canonical key."""
    table: dict[str, str] = {}
    for term in terms:
        for spelling in term.spellings():
            table[spelling.lower()] = term.key
    return table


class Hint(NamedTuple):
    """Why a word that is no key of a vocabulary is refused, beyond "unknown": ``text``, the English
    problem; ``owners``, the labels (``武汉 wuhan``) of the other regions whose word it is (G14), empty
    for another reason (Rushan's 牛牌, R9: ``unmodelled``).  Both go into the error's values, so that
    every language words it from data."""

    text: str
    owners: tuple[str, ...] = ()
    unmodelled: bool = False


def _no_hint(word: str) -> Hint | None:
    return None


def close_word(value: str, table: Mapping[str, str]) -> str | None:
    """The key of the known word nearest ``value`` (``self_drw`` -> ``self_draw``), by
    :func:`difflib.get_close_matches` over every spelling in ``table`` (spelling -> key), or None
    when none is close (ratio under 0.6).  For "did you mean" only (issue 16 #9): never a reading."""
    import difflib

    word = simplified(value.strip()).lower()
    match = difflib.get_close_matches(word, list(table), n=1, cutoff=0.6)
    return table[match[0]] if match else None


def vocabulary(
    terms: Mapping[str, Term],
    what: str,
    foreign: Callable[[str], Hint | None] = _no_hint,
) -> Any:
    """A pydantic type accepting the keys of ``terms`` or any alias, normalised to the key.

    ``what`` names the thing in errors ("Wuhan fan"); ``foreign(key)`` may explain a
    key that belongs to another region.  An unknown value fails validation with
    the list of allowed keys and their Chinese names.
    """
    table = lookup_table(terms.values())
    allowed = ", ".join(t.label for t in terms.values())

    def normalise(value: object) -> object:
        if not isinstance(value, str):
            return value
        key = table.get(value)  # the usual case: a key or a name written exactly as listed
        if key is not None:
            return key
        key = table.get(simplified(value.strip()).lower())
        if key is not None:
            return key
        hint = foreign(value.strip())
        if hint is not None:
            raise PydanticCustomError("unknown_term", "{problem}; allowed: {allowed}",
                                      {"problem": hint.text, "allowed": allowed, "foreign": True,
                                       "value": value.strip(), "what": what, "owners": list(hint.owners),
                                       "unmodelled": hint.unmodelled})
        guess = close_word(value, table)
        problem = f"unknown {what} {shown_word(value)}" + (f" (did you mean {guess}?)" if guess else "")
        raise PydanticCustomError("unknown_term", "{problem}; allowed: {allowed}",
                                  {"problem": problem, "allowed": allowed, "value": value, "what": what,
                                   "suggest": guess or ""})

    keys = tuple(terms)
    description = "; ".join(f"{t.key}: {t.zh} ({t.en})" for t in terms.values())
    # The JSON Schema lists every accepted spelling, so a file using an alias (自摸, 清一色) validates.
    spellings: list[JsonValue] = list(dict.fromkeys(s for t in terms.values() for s in t.spellings()))
    return Annotated[
        Literal[keys],
        BeforeValidator(normalise),
        Field(description=description, json_schema_extra={"enum": spellings}),
    ]


class Vocabulary:
    """Pydantic metadata that makes a type a vocabulary: ``Annotated[str, Vocabulary(PATTERNS, "Wuhan
    fan")]`` is a ``str`` to a type checker and, to pydantic, the type :func:`vocabulary` builds (the
    keys of ``terms``, any alias normalised to its key, the same errors and JSON Schema).

    A type checker cannot read a type that a function builds; this is how a model's field type is
    both written out and made from the table.  The annotated type may be the ``Literal`` of the keys
    (``win.by``), which must then be exactly the keys of ``terms`` (checked when a model is built).
    The pydantic type is built on first use, when the first model that holds it is built.
    """

    __slots__ = ("_type", "foreign", "terms", "what")

    def __init__(self, terms: Mapping[str, Term], what: str,
                 foreign: Callable[[str], Hint | None] = _no_hint) -> None:
        self.terms = terms
        self.what = what
        self.foreign = foreign
        self._type: Any = None

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        if get_origin(source) is Literal and set(get_args(source)) != set(self.terms):
            raise TypeError(f"the Literal of a {self.what} must list its keys {sorted(self.terms)}, "
                            f"got {sorted(get_args(source))}")
        if self._type is None:
            self._type = vocabulary(self.terms, self.what, self.foreign)
        return handler.generate_schema(self._type)


WIN_TYPES: dict[str, Term] = {
    t.key: t
    for t in (
        Term("self_draw", "自摸", "self-draw: the winner drew the winning tile"),
        Term("discard", "点炮", "won on another player's discard", aliases=("放冲", "放炮", "点冲")),
        Term("robbed_kong", "抢杠", "robbing a kong: won on the tile of another player's added kong",
             aliases=("抢杠胡", "抢胡")),
    )
}
"""How a hand was won (``win.by``); G6: the robbed player counts as the discarder."""

WinByKey = Literal["self_draw", "discard", "robbed_kong"]
"""The keys of :data:`WIN_TYPES`, for a type checker."""

WinBy = Annotated[WinByKey, Vocabulary(WIN_TYPES, "win type (by)")]
"""``win.by``: a key of :data:`WIN_TYPES` or an alias of one (G14)."""
