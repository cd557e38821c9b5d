"""The edge where an engine's words are said in the reader's language: a ``Message`` from an engine
(games/engines/kernel/messages.py) is translated with Django's gettext in the language active for
this request, its parameters too; any other text is written as it is."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from games.engines.kernel.messages import Translators, from_data, say

READER = Translators(
    gettext=translation.gettext,
    ngettext=translation.ngettext,
    pgettext=translation.pgettext,
    npgettext=translation.npgettext,
)


def say_to_reader(text: Any) -> str:
    """``text`` in the language of the request being answered."""
    return say(text, READER)


def say_stored(data: Any, *, english: str = "") -> str:
    """A stored message (``to_data``) in the reader's language; a row stored before messages were
    kept reads its English."""
    if data in (None, "", {}):
        return english
    return say_to_reader(from_data(data))
