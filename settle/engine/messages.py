"""The words of the engine's own steps (a session's rotation warnings, its end, where its totals stop),
English and Chinese; the rules' steps are worded by each region's catalog."""

from __future__ import annotations

from typing import Any

from settle.core import SHARED, Catalog, Template
from settle.errors import shown_name, shown_word


def _where(values: Any, lang: str) -> str:
    """``hand w3``/``第 w3 局`` or ``the header``/``表头``: the document the totals stop at."""
    hand = values.raw("hand")
    if hand is None:
        return "表头" if lang == "zh" else "the header"
    return f"第 {hand} 局" if lang == "zh" else f"hand {hand}"


def _after(values: Any, lang: str) -> str:
    last = values.raw("after")
    if lang == "zh":
        return "累计停在第一局之前" if last is None else f"累计停在第 {last} 局之后"
    return "before the first hand" if last is None else f"after hand {last}"


def _stopped(values: Any, lang: str) -> str:
    later = values.raw("later")
    if lang == "zh":
        if values.raw("ended"):
            text = f"{_where(values, lang)}在牌局结束之后：{_after(values, lang)}"
        else:
            failed = "表头有误" if values.raw("hand") is None else f"{_where(values, lang)}无法结算"
            text = f"{failed}：{_after(values, lang)}（之后每局的庄家都由它而定）"
        return text + (f"；后面 {later} 份未结算" if later else "")
    if values.raw("ended"):
        text = f"{_where(values, lang)} comes after the end of the game; the running totals stop {_after(values, lang)}"
    else:
        text = (f"{_where(values, lang)} could not be settled: the running totals stop {_after(values, lang)}, "
                "because every later dealer follows from it")
    if later:
        text += f"; {later} later document{'s' if later != 1 else ''} not settled"
    return text


EN: dict[str, Template] = {
    "rotation_differs": "hand {hand}: dealer {dealer} is stated, the rotation gives {rotation} ({rule}); "
                        "settled with {dealer}",
    "game_ended": "{leaver} left the game at hand {hand} (逃跑, H9)",
    "totals_stop": _stopped,
    "mark_liable": "包 liable {liable}",
    "mark_capped": "封顶 capped",
    "mark_small_golden": "小金鼎 small golden",
    "mark_golden": "金顶 golden",
    "mark_bright": "光明顶 bright",
    "mark_forfeit": "罚没 forfeit {amount}",
}
ZH: dict[str, Template] = {
    "rotation_differs": "第 {hand} 局：写明庄家 {dealer}，轮庄应为 {rotation}（{rule}）；按 {dealer} 结算",
    "game_ended": "{leaver} 在第 {hand} 局逃跑（H9）",
    "totals_stop": _stopped,
    "mark_liable": "包 {liable}",
    "mark_capped": "封顶",
    "mark_small_golden": "小金鼎",
    "mark_golden": "金顶",
    "mark_bright": "光明顶",
    "mark_forfeit": "罚没 {amount}",
}
"""``mark_*``: the marks of a session's per-hand table (issue 16 #2): 承包/包胡 (the region's term), a cap
(封顶), a golden cap and a forfeit; a region whose words differ (Wuxue 金鼎) says them in its catalog."""

ENGINE = Catalog({"en": EN, "zh": ZH}, parent=SHARED, name="engine")
"""The engine's words (sessions)."""


# --- problems (issue 16 #9) ---------------------------------------------------------------------------

KEY_NAMES_ZH: dict[str, str] = {
    "region": "地区", "players": "玩家", "dealer": "庄家", "win": "胡牌", "winner": "胡牌者", "by": "胡法",
    "from": "放冲/点炮者", "fans": "番种", "kongs": "杠", "opens": "开口", "liable": "包牌者", "options": "规则选项",
    "kind": "副露种类", "kong": "杠的种类", "fish": "飘鱼", "abandon": "逃跑", "tiles": "牌",
}
"""Chinese names of the hand-file keys, for a problem that names the key it is about."""


def _suggest(values: Any, lang: str) -> str:
    guess = values.raw("suggest") if "suggest" in values else ""
    if not guess:
        return ""
    return f"（是不是 {guess}？）" if lang == "zh" else f" (did you mean {guess}?)"


def _input(values: Any) -> str:
    """The value a problem is about, in Chinese where the English says what it is (``input_form`` of
    :func:`settle.engine.validation.input_form`: a mapping, a list of n, null), else as written."""
    form = values.raw("input_form") if "input_form" in values else None
    if form == "list":
        return f"{values.raw('input_len')} 项的列表"
    if form is not None:
        return {"mapping": "一个映射", "null": "空值（null）"}.get(form, str(values["input"]))
    return str(values["input"])


def _with_input(template: str) -> Template:
    """A template whose ``{input}`` is :func:`_input`'s words (the other fields filled as a string template)."""
    def words(values: Any, lang: str) -> str:
        return template.replace("{input}", _input(values).replace("{", "{{").replace("}", "}}")).format_map(values)
    return words


def _bound(word: str, key: str) -> Template:
    return lambda values, lang: f"必须{word} {values[key]}，不是 {_input(values)}"


def _unknown_term(values: Any, lang: str) -> str:
    """``未知的番种 'x'（是不是 y？）；可用：…``; a word of another region's (G14) names those regions, and
    Rushan's 牛牌 (R9) says that settle does not model it (the vocabulary's ``owners``/``unmodelled``)."""
    path = values.raw("path")
    keys = [p for p in path if isinstance(p, str)]
    noun = KEY_NAMES_ZH.get(keys[-1], "词") if keys else "词"
    word = shown_word(str(values.raw("value")))
    if "unmodelled" in values and values.raw("unmodelled"):
        return f"{word}：牛牌（搂宝的牛牌）settle 没有建模，用到它的一局不能在这里结算，请在牌桌上结算（R9）"
    owners = values.raw("owners") if "owners" in values else []
    if owners:
        return f"{word} 不是本地区的{noun}（它属于 {'、'.join(owners)}）；可用：{values['allowed']}"
    return f"未知的{noun} {word}{_suggest(values, lang)}；可用：{values['allowed']}"


def _no_such_hand(values: Any, lang: str) -> str:
    count = values.raw("count")
    have = f"已结算 {count} 局（1-{count}）" if count else "没有结算任何一局"
    stopped = "；牌局停在一局有误的牌上" if values.raw("stopped") else ""
    return f"--hand {values['wanted']}：这个牌局里没有这一局：{have}{stopped}"


def _duplicate_key(values: Any, lang: str) -> str:
    """``重复的键 'A'（第 3 行和第 5 行）``: the loader's ``duplicate_key`` (``where``: lines, line, same, columns)."""
    at, where = values.raw("at"), values.raw("where")
    if where == "same":
        shown = "都在这一行"
    elif where == "line":
        shown = f"第 {at[0]} 行"
    else:
        unit = "列" if where == "columns" else "行"
        shown = f"第 {at[0]} {unit}和第 {at[1]} {unit}"
    return f"重复的键 {values['key']}（{shown}）"


JSON_REASONS_ZH: dict[str, str] = {
    "Expecting value": "此处应有一个值",
    "Expecting ',' delimiter": "此处应有逗号 ','",
    "Expecting ':' delimiter": "此处应有冒号 ':'",
    "Expecting property name enclosed in double quotes": "键名必须用双引号括起",
    "Unterminated string starting at": "字符串没有结束（从这里开始）",
    "Invalid control character at": "字符串里有控制字符（换行、制表符请写成 \\n、\\t）",
    "Invalid \\escape": "无效的转义（反斜杠 \\ 后的字符）",
    "Invalid \\uXXXX escape": "无效的 \\uXXXX 转义",
    "Extra data": "多余的数据",
    "Illegal trailing comma before end of object": "对象结尾前多了逗号",
    "Illegal trailing comma before end of array": "数组结尾前多了逗号",
    "Unexpected UTF-8 BOM (decode using utf-8-sig)": "此处应有一个值，却是字节顺序标记（U+FEFF）",
}
"""Chinese words of :mod:`json`'s syntax errors (its ``msg``, as data); a reason not here stays in English."""


def _json_syntax(values: Any, lang: str) -> str:
    reason = values.raw("reason")
    hint = "（多于一个 JSON 值：一行一局请用 .jsonl 文件）" if values.raw("jsonl_hint") else ""
    return f"JSON 语法错误：{JSON_REASONS_ZH.get(reason, reason)}{hint}"


YAML_TAG_REASONS_ZH = {
    "it is not a value of that type": "不是这种类型的值",
    "only '<<' is a merge key": "只有 '<<' 是合并键",
    "the number is out of range": "数超出范围",
    "the number is far too long (more than 4300 digits)": "数字太长（超过 4300 位）",
}
"""Why a tagged YAML scalar was refused (the loader's ``yaml_tag`` reasons), in Chinese; a reason not
here (a timestamp's, in Python's words) is kept as it is."""


def _yaml_tag(values: Any) -> str:
    reason = str(values.raw("reason"))
    return f"无法把 '{values.raw('value')}' 读作 {values.raw('tag')}：{YAML_TAG_REASONS_ZH.get(reason, reason)}"


# the loader's own problems (settle.loader): too big, not UTF-8, YAML's and JSON's syntax, nesting, aliases

YAML_PROBLEMS_ZH: dict[str, str] = {
    "mapping values are not allowed in this context": "此处不允许映射的值",
    "mapping values are not allowed here": "此处不允许映射的值",
    "mapping keys are not allowed in this context": "此处不允许映射的键",
    "mapping keys are not allowed here": "此处不允许映射的键",
    "block sequence entries are not allowed in this context": "此处不允许块序列的项（'- '）",
    "sequence entries are not allowed here": "此处不允许序列的项（'- '）",
    "found character that cannot start any token": "发现不能作为任何记号开头的字符",
    "could not find expected ':'": "找不到应有的冒号 ':'",
    "did not find expected ',' or ']'": "没有找到应有的逗号 ',' 或 ']'",
    "did not find expected ',' or '}'": "没有找到应有的逗号 ',' 或 '}'",
    "did not find expected key": "没有找到应有的键",
    "did not find expected '-' indicator": "没有找到应有的 '-'",
    "did not find expected node content": "没有找到应有的值",
    "did not find expected <document start>": "没有找到应有的文档开始（---）",
    "did not find expected <stream-start>": "没有找到应有的流开始",
    "found unexpected end of stream": "文件意外结束",
    "found unknown escape character": "未知的转义字符",
    "did not find expected hexdecimal number": "没有找到应有的十六进制数",
    "found invalid Unicode character escape code": "无效的 Unicode 字符转义码",
    "did not find expected alphabetic or numeric character": "没有找到应有的字母或数字",
    "found unexpected document indicator": "意外的文档标记（--- 或 ...）",
    "found a tab character that violates indentation": "制表符破坏了缩进",
    "found a tab character where an indentation space is expected": "应为缩进空格的地方有制表符",
    "found an indentation indicator equal to 0": "缩进指示符为 0",
    "did not find expected comment or line break": "没有找到应有的注释或换行",
    "found unknown directive name": "未知的指令名",
    "could not find expected directive name": "找不到应有的指令名",
    "found unexpected non-alphabetical character": "意外的非字母字符",
    "did not find expected whitespace": "没有找到应有的空白",
    "did not find expected whitespace or line break": "没有找到应有的空白或换行",
    "did not find expected digit or '.' character": "没有找到应有的数字或 '.'",
    "did not find expected version number": "没有找到应有的版本号",
    "found extremely long version number": "版本号太长",
    "did not find the expected '>'": "没有找到应有的 '>'",
    "did not find expected '!'": "没有找到应有的 '!'",
    "did not find expected tag URI": "没有找到应有的标签 URI",
    "did not find URI escaped octet": "没有找到 URI 转义的字节",
    "found an incorrect leading UTF-8 octet": "UTF-8 首字节不正确",
    "found an incorrect trailing UTF-8 octet": "UTF-8 后续字节不正确",
    "found undefined tag handle": "未定义的标签前缀",
    "found duplicate %YAML directive": "重复的 %YAML 指令",
    "found incompatible YAML document": "不兼容的 YAML 文档（版本不对）",
    "found duplicate %TAG directive": "重复的 %TAG 指令",
    "found unexpected ':'": "意外的冒号 ':'",
}
"""Chinese words of libyaml's (and PyYAML's) syntax problems, by their own words (as data, like
:data:`JSON_REASONS_ZH`); a problem not here stays in English."""

YAML_CONTEXTS_ZH: dict[str, str] = {
    "while parsing a block mapping": "读第 {line} 行开始的块映射时",
    "while parsing a block collection": "读第 {line} 行开始的块序列时",
    "while parsing a flow sequence": "读第 {line} 行开始的 [ ] 序列时",
    "while parsing a flow mapping": "读第 {line} 行开始的 { } 映射时",
    "while parsing a block node": "读第 {line} 行开始的值时",
    "while parsing a flow node": "读第 {line} 行开始的值时",
    "while parsing a node": "读第 {line} 行开始的值时",
    "while parsing a tag": "读第 {line} 行开始的标签时",
    "while scanning a tag": "读第 {line} 行开始的标签时",
    "while parsing a quoted scalar": "读第 {line} 行开始的带引号的字符串时",
    "while scanning a quoted scalar": "读第 {line} 行开始的带引号的字符串时",
    "while scanning a block scalar": "读第 {line} 行开始的块标量（| 或 >）时",
    "while scanning a plain scalar": "读第 {line} 行开始的不带引号的值时",
    "while scanning a simple key": "读第 {line} 行开始的键时",
    "while scanning an anchor": "读第 {line} 行的锚点时",
    "while scanning an alias": "读第 {line} 行的别名时",
    "while scanning a directive": "读第 {line} 行的指令时",
    "while scanning a %YAML directive": "读第 {line} 行的 %YAML 指令时",
    "while scanning a %TAG directive": "读第 {line} 行的 %TAG 指令时",
    "while parsing a %TAG directive": "读第 {line} 行的 %TAG 指令时",
    "while scanning for the next token": "在第 {line} 行找下一个记号时",
}
"""Where libyaml was when it found a syntax problem (its ``context``, started on another line), in
Chinese; a context not here stays in English."""

YAML_READER_ZH: dict[str, str] = {
    "control characters are not allowed": "不允许控制字符",
    "special characters are not allowed": "不允许特殊字符",
    "invalid leading UTF-8 octet": "无效的 UTF-8 首字节",
    "incomplete UTF-8 octet sequence": "不完整的 UTF-8 字节序列",
    "invalid trailing UTF-8 octet": "无效的 UTF-8 后续字节",
    "invalid length of a UTF-8 sequence": "UTF-8 序列的长度无效",
    "invalid Unicode character": "无效的 Unicode 字符",
    "input is too long": "输入太长",
}
"""Chinese words of libyaml's reader (the characters of the file), by its own words; others stay English."""


def _yaml_syntax(values: Any, lang: str) -> str:
    """``YAML 语法错误：…（读第 3 行开始的块映射时）``: libyaml's ``problem`` (the ``character`` that cannot
    start a token, where known) and its ``context`` begun on ``context_line``."""
    problem, character = values.raw("problem"), values.raw("character")
    if character is not None:
        words = f"字符 {character!r} 不能作为任何记号的开头"
    else:
        words = YAML_PROBLEMS_ZH.get(problem, problem)
    context = values.raw("context")
    if context is not None:
        line = values.raw("context_line")
        where = YAML_CONTEXTS_ZH.get(context)
        words += f"（{where.replace('{line}', str(line))}）" if where else f"（{context}，第 {line} 行）"
    return f"YAML 语法错误：{words}"


def _limit_zh(max_bytes: int) -> str:
    """``64 MiB``, ``1 KiB``, ``100 字节``: the size limit as the loader's English says it, in Chinese."""
    if max_bytes % (1024 * 1024) == 0:
        return f"{max_bytes // (1024 * 1024)} MiB"
    if max_bytes % 1024 == 0:
        return f"{max_bytes // 1024} KiB"
    return f"{max_bytes} 字节"


def _too_large(values: Any, lang: str) -> str:
    limit = _limit_zh(values.raw("max_bytes"))
    limit += "" if limit.endswith("字节") else " "  # a space after a Latin unit only: 64 MiB 的, 100 字节的
    words = f"文档超过 {limit}的上限"
    if values.raw("jsonl_hint"):
        words += "（更大的批量请用 JSON Lines，一行一局）"
    if values.raw("rest_unread"):
        words += f"；这一行再读 {limit}也没有结束：其余的输入不再读取"
    return words


_FORMS_ZH: dict[str, str] = {"null": "空值（null）", "mapping": "一个映射", "boolean": "是非值 {shown}",
                             "number": "数字 {shown}", "string": "文字 {shown}", "list": "{count} 项的列表",
                             "binary": "二进制值（{shown}）", "date": "日期 {shown}", "datetime": "时间 {shown}"}


def _endless_line(values: Any, lang: str) -> str:
    """A JSON Lines line of a batch that does not end within twice the limit (settle.engine.batch.reading)."""
    limit = _limit_zh(values.raw("max_bytes"))
    limit += "" if limit.endswith("字节") else " "
    return (f"无法读取 {values.raw('file')}：第 {values.raw('line')} 行超过 {limit}的上限，"
            f"再读 {limit}也没有结束；其余的输入不再读取")


def _described_zh(values: Any) -> str:
    """A wrong value in Chinese, from the loader's ``form``, ``shown`` and ``count`` (``文字 'abc'``)."""
    form = values.raw("form")
    words = _FORMS_ZH.get(form, "{shown}")
    return words.replace("{shown}", str(values.raw("shown")) if "shown" in values else "").replace(
        "{count}", str(values.raw("count")) if "count" in values else "")


def _json_value(values: Any, lang: str) -> str:
    reason = str(values.raw("reason"))
    return f"JSON 值读不出来：{YAML_TAG_REASONS_ZH.get(reason, reason)}"


LOADER_ZH: dict[str, Template] = {
    "too_large": _too_large,
    "encoding": "文件是 {encoding} 编码；请另存为 UTF-8",
    "not_utf8": lambda values, lang: f"文件不是 UTF-8 编码：字节 0x{values['byte']:02x}",
    "yaml_character": lambda values, lang: f"YAML 里不允许字符 U+{values['code']:04X}（不允许控制字符）",
    "yaml_reader": lambda values, lang: f"YAML 错误：{YAML_READER_ZH.get(values['reason'], values['reason'])}",
    "yaml_syntax": _yaml_syntax,
    "yaml_tab": "制表符：YAML 的缩进必须用空格",
    "second_document": "应为一局牌，但这一行开始了第二个 YAML 文档（多局牌请用 batch）",
    "too_deep": "嵌套超过 {max} 层",
    "too_many_nodes": "文档超过 {max} 个节点",
    "nodes_expanded": "文档展开后超过 {max} 个节点（YAML 别名？）",
    "alias_itself": "别名 *{name} 指向它自己",
    "alias_undefined": "别名 *{name} 未定义",
    "key_not_scalar": lambda values, lang: f"{'列表' if values['what'] == 'list' else '映射'}不能作为映射的键",
    "merge_value": lambda values, lang: f"'<<'（合并键）需要一个映射或映射的列表，不是 {_described_zh(values)}",
    "not_a_hand": lambda values, lang: f"应为一局牌（含 region、players 等键的映射），不是 {_described_zh(values)}",
    "json_value": _json_value,
    "endless_line": _endless_line,
    "lone_surrogate": lambda values, lang: (f"\\u{values['code'][2:].lower()} 是 UTF-16 代理对的一半，不是字符："
                                            "请直接写这个字符，或写出代理对的两半"),
}
"""The Chinese words of the loader's own problems (issue 16 #9), by the kinds and values it gives them."""


_ALIAS_WHAT: dict[str, str] = {"kong kind": "杠的种类", "player": "玩家"}
"""The ``what`` of an ``alias_clash`` between two keys of one mapping, in Chinese."""


def _alias_clash(values: Any, lang: str) -> str:
    """Two spellings of one key (``alias_clash`` of :mod:`settle.model`): ``fans``/``jin``, ``from_``, or two
    keys of one mapping that are the same ``what`` (``keys``)."""
    key = values.raw("key") if "key" in values else None
    if key == "jin":
        return "`fans` 和它的别名 `jin` 只能给一个"
    if key == "from_":
        both = "（同时也给了 `from`）" if values.raw("both") else ""
        return f"`from_` 不是牌局格式的键{both}：`from` 写一次即可"
    what = values.raw("what")
    return f"{values['keys']} 是同一个{_ALIAS_WHAT.get(what, what)}：只写一次"


SHAPES_ZH: dict[str, str] = {
    "opens": "0–4 的整数（吃碰杠别家打出的牌的次数），或最多 4 个玩家名字的列表（依次是谁喂的牌）",
    "id": "文字或整数",
    "win": "一个映射，如 {winner: D, by: discard, from: A, fans: [qingyise]}",
    "options": "规则选项的映射，如 {cap: 400}",
    "abandon": "一个映射 {by: NAME}",
    "players": "按座次的 2–4 个名字的列表，或 名字 -> 细节 的映射",
    "player": "玩家细节的映射，如 {opens: 1, kongs: {concealed: 1}}，或者什么都不写",
    "kongs": "种类 -> 个数 的映射，如 {concealed: 1}",
    "fans": "每位玩家的总计，如 {A: 3, B: 2}（顶层），或番种名的列表，如 [qingyise, hard]（在 win 里）",
    "tiles": "一个映射（hand、win_tile、melds ……）",
    "melds": "一组副露，如 {kind: pung, tiles: 555p, from: A} 或 {kind: kong, tiles: 5555p, kong: concealed}",
}
"""What each key accepts (:data:`settle.engine.validation.SHAPES`), in Chinese, by the same keys."""


def _wrong_shape(values: Any, lang: str) -> str:
    shape = values.raw("shape")
    return f"必须是{SHAPES_ZH.get(shape, shape)}，不是 {_input(values)}"


def _player_name(values: Any, lang: str) -> str:
    """Why a value cannot be a player's name (``why`` of :func:`settle.model.name_problem_values`)."""
    why = values.raw("why")
    if why == "empty":
        return "玩家的名字是空的"
    if why == "null":
        return "玩家的名字是空的（null）"
    if why == "mapping":
        return ("玩家列表里只能写名字；要给玩家写细节，请把 `players` 写成映射（名字: 细节），"
                "如 players: {A: {opens: 1}, B: {}, C: {}, D: {}}")
    if why == "yes_no":
        return f"玩家的名字必须是文字，不是是非值 {values['shown']}；请加引号"
    if why == "number":
        return f"玩家的名字必须是文字，不是数字 {values['shown']}；请加引号（'{values['quoted']}'）"
    if why == "list":
        return f"玩家的名字必须是文字，不是有 {values['count']} 项的列表"
    return f"玩家的名字必须是文字，不是 {values['shown']}；请加引号（'{values['shown']}'）"


OS_REASONS_ZH: dict[str, str] = {
    "ENOENT": "没有这个文件或目录", "EACCES": "没有权限", "EPERM": "不允许这样操作", "EISDIR": "这是一个目录",
    "ENOTDIR": "路径中有一项不是目录", "ENOSPC": "磁盘已满", "EDQUOT": "磁盘已满", "EROFS": "文件系统只读",
    "ENAMETOOLONG": "文件名太长", "ELOOP": "符号链接太多层",
}
"""Chinese words of the operating system's file errors, by their symbolic name (``errno``); another
error keeps the system's own words."""


def _not_a_player(values: Any, lang: str) -> str:
    return f"{shown_name(str(values.raw('name')))} 不是本局的玩家（{values['players']}）"


def _players_repeat(values: Any, lang: str) -> str:
    return "--players 中 " + "、".join(f"'{name}'" for name in values.raw("names")) + " 列了不止一次"


def _flag_not_a_player(values: Any, lang: str) -> str:
    players = "、".join(values.raw("players"))
    return f"{values['flag']} 写了 '{values['name']}'，不在 --players 里（{players}）"


def _os_reason(values: Any) -> str:
    return os_reason_zh(values.raw("errno"), str(values.raw("reason")))


def os_reason_zh(name: str, reason: str) -> str:
    """The system's reason for a failed open or write in Chinese, by the error's symbolic name
    (``ENOENT`` ...); ``reason``, the system's own words, where no Chinese is kept for it."""
    return OS_REASONS_ZH.get(name, reason)


_BREAK_NAMES_ZH = {"U+0085": "下一行符", "U+2028": "行分隔符", "U+2029": "段落分隔符"}
"""The Chinese names of the line breaks libyaml counts and an editor does not (issue 15 item 2)."""


PROBLEMS_ZH: dict[str, Template] = {
    "extra_forbidden": lambda values, lang: "未知的键（不属于这一地区的牌局格式）" + _suggest(values, lang),
    "missing": "缺少：此键必填",
    "unknown_term": _unknown_term,
    "unknown_region": lambda values, lang: (f"未知的地区 '{values['value']}'{_suggest(values, lang)}；"
                                            f"可用：{values['allowed']}"),
    "int_type": "必须是整数，不是 {input}",
    "int_parsing": "必须是整数，不是 {input}",
    "int_from_float": "必须是整数，不是 {input}",
    "bool_type": "必须是 true 或 false，不是 {input}",
    "bool_parsing": "必须是 true 或 false，不是 {input}",
    "string_type": "必须是文字（数字或名字请加引号，如 '1'、'yes'），不是 {input}",
    "list_type": "必须是列表，不是 {input}",
    "string_too_short": "不能为空",
    "too_long": "有 {actual_length} 项，最多 {max_length} 项",
    "greater_than_equal": _bound("至少为", "ge"),
    "less_than_equal": _bound("至多为", "le"),
    "greater_than": _bound("大于", "gt"),
    "less_than": _bound("小于", "lt"),
    "not_a_player": _not_a_player,
    "not_at_table": "{name} 不在这一桌（表头的座次：{table}）；每局的 players 只是给表头的座次补充细节",
    "seat_order": "这一局按另一种顺序列出了所有玩家（{listed}），与表头的座次（{table}）不同：座次以表头为准；"
                  "只列出有细节的玩家，或按表头的顺序列出全部",
    "first_dealer": "缺少：庄家（dealer）：一个牌局的第一局必须写明庄家；之后各局可以不写，按轮庄（{rule}）",
    "dealer_missing": "缺少：庄家（dealer）必须是其中一位玩家",
    "seat_count": "{region}要 {allowed} 位玩家，这一局列了 {count} 位",
    "one_outcome": "win、draw: true、abandon 只能给一个（现在：{found}）",
    "self_draw_from": "自摸没有 `from`：删掉它，或改 `by`",
    "from_missing": lambda values, lang: ("缺少：`from` 必须写明" + (
        "谁放冲/点炮" if values["by"] == "discard" else "谁被抢杠") + f"（by 为 {values['by']}，G7）"),
    "winner_is_from": "胡牌者 {winner} 不能同时是 `from`",
    "winner_is_liable": "胡牌者不能是包牌者",
    "region_missing": lambda values, lang: f"缺少：地区 `region`（{str(values['allowed']).replace(' or ', ', ')}）",
    "listed_twice": "玩家 '{name}' 列了两次：第 {entry} 项与前面的重复（名字去掉两边的空格后比较）",
    "only_in": "{thing}只有 {where} 才有，{region} 没有",
    "no_such_hand": _no_such_hand,
    "duplicate_key": _duplicate_key,
    "empty_document": "空文档：应为一局牌（含 region、players 等键的映射）",
    "json_syntax": _json_syntax,
    "yaml_tag": lambda values, lang: _yaml_tag(values),
    "yaml_tag_unsupported": "不支持的 YAML 标签 {tag}",
    "yaml_unquoted_break": lambda values, lang: (
        f"字符 {values['code']}（{_BREAK_NAMES_ZH.get(str(values['code']), values['name'])}）在引号外："
        "YAML 把它当作换行，编辑器里却不换行；请删掉它，或把这段文字放进引号"),
    "yaml_bom_inside": ("文件中间、引号外有字节顺序标记（U+FEFF）：YAML 把它当作新文件的开头，"
                        "编辑器里却看不见；请删掉它"),
    **LOADER_ZH,
    # field checks of the hand model (settle.model) and pydantic's own
    "player_name": _player_name,
    "duplicate_player": "玩家 '{name}' 列了两次（名字去掉两边的空格后比较）",
    "players_list": "有一个名字列了两次",
    "alias_clash": _alias_clash,
    "string_pattern_mismatch": "不能有控制字符（制表符、换行），不是 {input}",
    "string_too_long": "太长：最多 {max_length} 个字符",
    "model_type": "必须是映射（键: 值），不是 {input}",
    "model_attributes_type": "必须是映射（键: 值），不是 {input}",
    "dict_type": "必须是映射（键: 值），不是 {input}",
    "literal_error": "必须是 {expected} 之一，不是 {input}",
    "float_type": "必须是数，不是 {input}",
    "wrong_shape": _wrong_shape,
    # settle hand's flags (settle.cli.flags)
    "flag_no_hand": "请给出牌局文件，或至少给出 --region 和 --players",
    "flag_option_unreadable": "--option {key}={shown}：这个值读不出来（YAML 标签与值不符，或数字太长）",
    "flag_players_missing": "缺少：--players A,B,C,D（按座次列出名字）",
    "flag_players_commas": "--players '{given}'：名字之间请用逗号隔开，如 --players {example}",
    "flag_players_repeat": _players_repeat,
    "flag_two_outcomes": "{given} 与 --winner/--by 是一局的两种结局：只能给一个",
    "flag_winner_missing": "缺少：--winner NAME（谁胡牌）",
    "flag_not_a_player": _flag_not_a_player,
    "flag_pair": "{flag} '{item}'：应为 NAME=VALUE",
    "flag_not_whole": "{flag}：'{value}' 不是整数",
    "flag_too_many_digits": "{flag}：{digits} 位的数太大了",
    # files (settle.cli)
    "output_is_input": "输出文件 {file} 就是输入文件 {input}：请换一个 --output",
    "cannot_read": lambda values, lang: f"无法读取 {values['file']}：{_os_reason(values)}",
    "cannot_write": lambda values, lang: f"无法写入 {values['file']}：{_os_reason(values)}",
    "errors_is_output": "错误文件 {errors} 就是输出文件 {output}：请换一个 --errors",
}
PROBLEMS_ZH = {kind: _with_input(words) if isinstance(words, str) and "{input}" in words else words
               for kind, words in PROBLEMS_ZH.items()}
"""The Chinese words of the problems users meet most (unknown keys and words, missing keys, wrong
types and bounds, a name not at the table); a problem whose kind is not here keeps its English message."""

PROBLEMS = Catalog({"en": {}, "zh": PROBLEMS_ZH}, name="problems")
"""The problems' words in Chinese (:func:`settle.render.problem_text`); English is each problem's message."""
