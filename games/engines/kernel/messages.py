"""An engine's sentences as message ids with parameters. The engines stay free of Django: they say
what to say, in English, and the edge (``games/translation.py``) says it again in each reader's
language, so one table can read its log in five languages.

A ``Message`` is a ``str`` holding its English words, so an engine, its tests and anything that only
reads English keep working; it also keeps its message id and its parameters, which the edge
translates and the log stores (``to_data`` / ``from_data``).

Marking a message, so ``makemessages`` finds it (these names are among its keywords):

- ``gettext_noop("Sticker {number} is already on the board.")``: a module constant; its
  ``.format(number=3)`` is a ``Message``.
- ``pgettext_lazy("theme", "Dark")``: the same words meaning two things get a context
  (``pgettext_noop`` says the same, but ``makemessages`` does not extract it: use this name).
- ``ngettext("{n} Coin", "{n} Coins", n)``: a count, in the plural form of the reader's language.
- ``ngettext_lazy("{have} Coin", "{have} Coins", "have")``: a module constant with a count; its
  ``.format(have=3)`` takes the plural form of 3.
- ``join([...], "\\n")``: sentences said one after the other (a log line and its consequences).

A parameter that is itself a ``Message`` (a resource row's name, "AYE") is translated too; any other
value (a player's name, a typed card title, a number) is written as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from string import Formatter
from typing import Any, NamedTuple


class _Words(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"  # a value the message lacks reads "?", never a crash while saying it


class Translators(NamedTuple):
    """How a reader's language says a message id: gettext's four functions."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]
    npgettext: Callable[[str, str, str, int], str]


ENGLISH = Translators(
    gettext=lambda text: text,
    ngettext=lambda one, many, n: one if abs(n) == 1 else many,
    pgettext=lambda context, text: text,
    npgettext=lambda context, one, many, n: one if abs(n) == 1 else many,
)


class Message(str):
    """Words to say, as a message id with its parameters; its ``str`` value is the English."""

    id: str | None
    plural: str | None
    n: int | None
    context: str | None
    params: dict[str, Any]
    parts: tuple[Any, ...]
    sep: str

    def __new__(
        cls,
        id: str | None,
        params: Mapping[str, Any] | None = None,
        *,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
        parts: Iterable[Any] = (),
        sep: str = "",
    ) -> Message:
        fields = {
            "id": id,
            "plural": plural,
            "n": n,
            "context": context,
            "params": dict(params or {}),
            "parts": tuple(parts),
            "sep": sep,
        }
        self = super().__new__(cls, _say(fields, ENGLISH))
        self.__dict__.update(fields)
        return self

    def format(self, *args: Any, **params: Any) -> Message:
        """The message with its parameters, like ``str.format`` (keywords only: a translation may
        put the parameters in another order)."""
        if args:
            raise TypeError("a message's parameters are named")
        return self._with(params)

    def format_map(self, params: Mapping[str, Any]) -> Message:  # type: ignore[override]
        return self._with(dict(params))

    def _with(self, params: Mapping[str, Any]) -> Message:
        return Message(
            self.id,
            {**self.params, **params},
            plural=self.plural,
            n=self.n,
            context=self.context,
            parts=self.parts,
            sep=self.sep,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_from_fields, (self.__dict__,))

    def __copy__(self) -> Message:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Message:
        return self  # a message never changes once said


def _from_fields(fields: dict[str, Any]) -> Message:
    return Message(
        fields["id"],
        fields["params"],
        plural=fields["plural"],
        n=fields["n"],
        context=fields["context"],
        parts=fields["parts"],
        sep=fields["sep"],
    )


def gettext_noop(text: str) -> Message:
    """A message id, said later: a module constant of an engine's messages."""
    return Message(text)


def pgettext_noop(context: str, text: str) -> Message:
    """A message id with a context, for words that mean two things."""
    return Message(text, context=context)


def pgettext_lazy(context: str, text: str) -> Message:
    """``pgettext_noop`` under the name ``makemessages`` extracts with its context (its keywords
    name ``pgettext_lazy``, not ``pgettext_noop``): the words are said later, as Django's are."""
    return Message(text, context=context)


def ngettext(one: str, many: str, n: int, **params: Any) -> Message:
    """A count in the plural form of the reader's language; ``{n}`` in the words is the count."""
    return Message(one, {"n": n, **params}, plural=many, n=n)


class _Counted(Message):
    """A count whose number is one of its parameters, known once the message is formatted."""

    counted: str

    def _with(self, params: Mapping[str, Any]) -> Message:
        merged = {**self.params, **params}
        number = merged.get(self.counted)
        n = number if isinstance(number, int) and not isinstance(number, bool) else 0
        return Message(self.id, merged, plural=self.plural, n=n, context=self.context)


def ngettext_lazy(one: str, many: str, number: str) -> Message:
    """A module constant with a count, like Django's: ``number`` names the parameter holding the
    count, so ``GIFT.format(have=3)`` takes the plural form of 3 in the reader's language."""
    counted = _Counted(one, plural=many)
    counted.counted = number
    return counted


def join(parts: Iterable[Any], sep: str = "\n") -> Message:
    """Sentences said one after the other, each in the reader's language."""
    return Message(None, parts=list(parts), sep=sep)


def say(text: Any, translators: Translators = ENGLISH) -> str:
    """``text`` in the language of ``translators``: a ``Message`` translated with its parameters, any
    other value written as it is."""
    if not isinstance(text, Message):
        return text if isinstance(text, str) else str(text)
    return _say(text.__dict__, translators)


def _say(fields: Mapping[str, Any], translators: Translators) -> str:
    if fields["id"] is None:
        return str(fields["sep"]).join(say(part, translators) for part in fields["parts"])
    words = _words(fields, translators)
    # A message parameter is said in the language too; any other keeps its type, so a number's
    # format ("{number:02d}", "{amount:+d}") applies to it.
    params = _Words(
        {
            key: say(value, translators) if isinstance(value, Message) else value
            for key, value in fields["params"].items()
        }
    )
    if not fields["params"]:
        return words
    if not _plain_fields(words):
        return words  # "{n.__class__}": a stored message (an archive's) reaches no attribute
    try:
        return words.format_map(params)
    except (ValueError, IndexError, AttributeError, TypeError, KeyError):
        return words  # a translation whose braces do not parse reads as it is, never a crash


@functools.lru_cache(maxsize=4096)
def _plain_fields(words: str) -> bool:
    """Whether every placeholder of ``words`` names a parameter, never an attribute or an item."""
    try:
        return all(not name or name.isidentifier() for _, name, _, _ in Formatter().parse(words))
    except ValueError:
        return True  # braces that do not parse: format_map says so, and the words read as they are


def _words(fields: Mapping[str, Any], translators: Translators) -> str:
    text, context, plural = fields["id"], fields["context"], fields["plural"]
    if plural is not None:
        n = int(fields["n"] or 0)
        if context:
            return translators.npgettext(context, text, plural, n)
        return translators.ngettext(text, plural, n)
    if context:
        return translators.pgettext(context, text)
    return translators.gettext(text)


# Storing a message: plain JSON, so a log line is said again in each reader's language.


def to_data(text: Any) -> Any:
    """``text`` as JSON data: a message as an object, any other value as it is."""
    if not isinstance(text, Message):
        return text
    if text.id is None:
        return {"parts": [to_data(part) for part in text.parts], "sep": text.sep}
    data: dict[str, Any] = {"id": text.id}
    if text.params:
        data["params"] = {key: to_data(value) for key, value in text.params.items()}
    if text.plural is not None:
        data["plural"], data["n"] = text.plural, text.n
    if text.context:
        data["context"] = text.context
    return data


def from_data(data: Any) -> Any:
    """The message ``to_data`` wrote (a value that is not a message's data comes back as it is)."""
    if not isinstance(data, dict):
        return data
    if isinstance(data.get("parts"), list):
        return join((from_data(part) for part in data["parts"]), str(data.get("sep", "")))
    if not isinstance(data.get("id"), str):
        return data
    params = data.get("params")
    n = data.get("n")
    return Message(
        data["id"],
        {str(k): from_data(v) for k, v in params.items()} if isinstance(params, dict) else {},
        plural=data["plural"] if isinstance(data.get("plural"), str) else None,
        n=n if isinstance(n, int) else None,
        context=data["context"] if isinstance(data.get("context"), str) else None,
    )


def field_names(text: str) -> frozenset[str]:
    """The names of the parameters ``text`` (a message id, or its English) fills in: ``{who}``,
    ``{number:02d}`` and ``{row!r}`` name ``who``, ``number`` and ``row``."""
    try:
        return frozenset(
            name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(text) if name
        )
    except ValueError:
        return frozenset()


def say_data(data: Any, translators: Translators = ENGLISH, *, english: str = "") -> str:
    """A stored message (``to_data``) said by ``translators``; a row stored before messages were
    kept reads its English."""
    if data is None or data == "" or data == {}:
        return english
    return say(from_data(data), translators)
