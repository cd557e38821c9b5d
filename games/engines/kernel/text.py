"""What a name or a typed text may hold: no control characters (NUL, ESC, ...) and no bidi
controls (U+202E and its kind), which would hide or reorder what other players read."""

from __future__ import annotations

import unicodedata

# Explicit directional formatting characters (Unicode Bidirectional Algorithm, section 2).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\n\r\t")


def has_control_characters(text: str, *, multiline: bool = False) -> bool:
    """True if ``text`` holds a control character or a bidi control. A multi-line text may
    hold line breaks and tabs; a name may not."""
    for char in text:
        if multiline and char in LINE_BREAKS:
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs"):
            return True
    return False
