"""Shared pieces of the presenters: a generic renderer of view dicts, seat colours, names. Plain
functions of plain data: no model, no query (the seats' infos are read by ``games.screens``)."""

from __future__ import annotations

import re
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

# ---- A small generic renderer of view dicts (definition lists and tables) ----------------


def key_words(key: Any) -> str:
    return str(key).replace("_", " ").capitalize()


def _scalar(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def render_value(value: Any) -> SafeString:
    """Any JSON value as readable HTML: dicts as definition lists, lists of dicts as tables."""
    if isinstance(value, dict):
        if not value:
            return mark_safe('<span class="muted">—</span>')
        rows = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((key_words(k), render_value(v)) for k, v in value.items())
        )
        return format_html('<dl class="view">{}</dl>', rows)
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="muted">none</span>')
        if all(isinstance(item, dict) for item in value):
            keys: list[str] = []
            for item in value:
                keys += [k for k in item if k not in keys]
            head = format_html_join("", "<th>{}</th>", ((key_words(k),) for k in keys))
            body = format_html_join(
                "",
                "<tr>{}</tr>",
                (
                    (format_html_join("", "<td>{}</td>", ((render_value(item.get(k)),) for k in keys)),)
                    for item in value
                ),
            )
            return format_html(
                '<div class="scroll"><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>',
                head,
                body,
            )
        return format_html_join(", ", "{}", ((render_value(item),) for item in value))
    return format_html("{}", _scalar(value))


def phrase(value: Any) -> str:
    """A parameter of an action in words (never JSON)."""
    if isinstance(value, dict):
        return ", ".join(f"{key_words(k).lower()} {phrase(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " + ".join(phrase(v) for v in value) or "nothing"
    if isinstance(value, str):
        return value.replace("_", " ")
    return _scalar(value)


def generic_label(action: dict) -> str:
    """'Vote aye: power 3' from {'type': 'vote_aye', 'power': 3}: words, never raw JSON."""
    label = key_words(action.get("type", "?"))
    params = [f"{key_words(k).lower()} {phrase(v)}" for k, v in action.items() if k not in ("type", "seat")]
    return f"{label}: {', '.join(params)}" if params else label


# ---- Colours -----------------------------------------------------------------------------

# Seat colours (services.sessions.SEAT_COLOURS) as inks that read on paper (yellow is a dark mustard). A seat
# of a campaign night holds its House's colour itself, "#rrggbb" (campaign.colours): shown as it is.
SEAT_HEX = {
    "red": "#b3261e",
    "blue": "#1f5fa8",
    "green": "#2e7d32",
    "yellow": "#a67c00",
    "purple": "#6a3d9a",
    "orange": "#c45d12",
    "teal": "#00796b",
    "grey": "#5f5f5f",
}


HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def seat_hex(colour: str) -> str:
    if HEX_COLOUR.fullmatch(colour or ""):
        return colour
    return SEAT_HEX.get(colour or "", "#5f5f5f")


INK, WHITE = "#1f1a14", "#ffffff"


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(hex_colour: str) -> str:
    """The text colour that reads best on a seat's colour (the "Your turn" banner wears the seat's
    colour: light Houses get dark ink, dark ones white), by WCAG contrast."""
    if not HEX_COLOUR.fullmatch(hex_colour or ""):
        return WHITE
    light = _luminance(hex_colour)
    on_white = 1.05 / (light + 0.05)
    on_ink = (light + 0.05) / (_luminance(INK) + 0.05)
    return WHITE if on_white >= on_ink else INK


def seat_name(names: dict[int, dict], index: Any) -> str:
    if index is None:
        return "the table"
    info = names.get(index)
    return info["name"] if info else f"Seat {index}"
