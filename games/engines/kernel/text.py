"""What a name or a typed text may hold: no control characters (NUL, ESC, ...), no bidi controls
(U+202E and its kind), which would hide or reorder what other players read, and no lone surrogate
(half of a UTF-16 pair: no database stores it).

One rule for every entry (a tap's values, the forms, the API, the campaign archive's import):
whatever one of them accepts, the others accept, so an export always imports again."""

from __future__ import annotations

import unicodedata
from typing import Any

# Explicit directional formatting characters (Unicode Bidirectional Algorithm, section 2).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\n\r\t")


def has_control_characters(text: str, *, multiline: bool = False) -> bool:
    """True if ``text`` holds a control character (C0 and C1), a bidi control or a lone surrogate. A
    multi-line text may hold line breaks and tabs; a name may not."""
    for char in text:
        if multiline and char in LINE_BREAKS:
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs"):
            return True
    return False


def json_text_refused(value: Any) -> str | None:
    """The first text of a JSON value (an action, a card's typed data) the rule refuses: a key
    holding any control character, or a value holding one other than a line break or a tab; None
    if every text passes. The archive's import holds its JSON to the same rule."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str) or has_control_characters(key):
                    return str(key)
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and has_control_characters(item, multiline=True):
            return item
    return None
