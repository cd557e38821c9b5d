"""QR codes of links meant for a phone (a seat's join link, an invitation), drawn here as inline SVG
(segno: no network), each a picture with a text alternative."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@lru_cache(maxsize=256)
def qr_svg(link: str, label: str) -> SafeString:
    """``link`` as a QR code; ``label`` says what it opens (its title and its accessible name)."""
    svg = segno.make(link, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#1f1a14", light="#ffffff", title=label
    )
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))
