"""The edge where an engine's words are said in the reader's language: a ``Message`` from an engine
(games/engines/kernel/messages.py) is translated with Django's gettext in the language active for
this request, its parameters too; any other text is written as it is.

Both functions are the kernel's own ``say`` and ``say_data`` given the reader's translators: the
saying is the kernel's, the language Django's, so a tap's path runs no code of this module."""

from __future__ import annotations

from functools import partial

from django.utils import translation

from games.engines.kernel.messages import Translators, say, say_data

READER = Translators(
    gettext=translation.gettext,
    ngettext=translation.ngettext,
    pgettext=translation.pgettext,
    npgettext=translation.npgettext,
)

# ``say_to_reader(text)``: ``text`` in the language of the request being answered.
say_to_reader: partial[str] = partial(say, translators=READER)
# ``say_stored(data, english=...)``: a stored message (``to_data``) in the reader's language; a row
# stored before messages were kept reads its English.
say_stored: partial[str] = partial(say_data, translators=READER)
