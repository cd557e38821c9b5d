"""Small English words: "a" or "an" before a word, and a number with its noun in the singular or the
plural ("1 Coin", "2 Coins"). tests/unit/test_sentences.py walks the labels of random games of every
engine for "a" before a vowel and "1" before a plural.

English only: an engine's sentence is a message (games/engines/kernel/messages.py) said in each
reader's language, so a count there is ``ngettext("{n} Coin", "{n} Coins", n)`` with its literal
words (a helper given the noun as a variable cannot be extracted for translators), and "a"/"an" is
part of the English message's own words. These helpers stay for words not yet made messages."""

from __future__ import annotations

VOWELS = frozenset("aeiouAEIOU")


def article(word: str) -> str:
    """The indefinite article before ``word`` ("an orange", "a black", "a Dilemma")."""
    return "an" if word[:1] in VOWELS else "a"


def with_article(word: str) -> str:
    return f"{article(word)} {word}"


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun: "1 Coin", "0 Coins", "3 Servants", "-1 point" (``many`` defaults to
    ``one`` + "s"; the sign of ``n`` does not change the noun)."""
    return f"{n} {one if abs(n) == 1 else (many or one + 's')}"


def plural(n: int) -> str:
    """The ending of a regular noun after ``n``: "" for 1 (and -1), "s" otherwise ("Coin{s}")."""
    return "" if abs(n) == 1 else "s"
