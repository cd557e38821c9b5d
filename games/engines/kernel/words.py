"""Small words every engine's sentences need right: "a" or "an" before a word, and a number with
its noun in the singular or the plural ("1 Coin", "2 Coins"). tests/unit/test_sentences.py walks the
labels of random games of every engine for "a" before a vowel and "1" before a plural."""

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
