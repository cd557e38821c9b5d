"""The log's sentences: an action type whose label never depends on the state reads from a table of
sentences (``{who}`` and the action's own values filled in) instead of one ``if`` per type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.kernel.messages import Message, field_names


class _Words(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"  # a value the action lacks reads "?", never a crash while logging


def sentence(sentences: Mapping[str, str], action: Mapping[str, Any], **words: Any) -> str | None:
    """The sentence of ``action``'s type, or None when its label needs more than a fixed sentence.
    A message keeps only the values it says (the log stores them), so a card typed in the action
    is not stored twice."""
    kind = action.get("type")
    template = sentences.get(kind) if isinstance(kind, str) else None
    if template is None:
        return None
    values = {**action, **words}
    if isinstance(template, Message):
        used = field_names(template.id or "") | field_names(template.plural or "")
        return template.format(**{key: values[key] for key in used if key in values})
    return template.format_map(_Words(values))
