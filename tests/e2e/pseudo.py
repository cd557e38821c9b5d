"""The pseudo-language's check for the browser walks: on a page read in it, every visible word is
inside a wrapped message ("[Ŝţåŗţ å ĝåɱé]"); what is left outside is a string nobody translated."""

import re

from config.catalogues import PSEUDO_CLOSE, PSEUDO_OPEN

# Words that are no message: the brand, and each language's own name in the chooser.
NOT_MESSAGES = ("Chronicle", "English", "Italiano", "Deutsch", "Français", "Español")
WORD = re.compile(r"[^\W\d_]{2,}")  # two letters or more: "x" of a close button is a symbol


def outside_messages(text: str) -> str:
    """``text`` without its wrapped messages (nested ones too: a placeholder's value may be one)."""
    kept, depth = [], 0
    for character in text:
        if character == PSEUDO_OPEN:
            depth += 1
        elif character == PSEUDO_CLOSE and depth:
            depth -= 1
        elif depth == 0:
            kept.append(character)
    return "".join(kept)


def unwrapped_words(text: str, data: tuple[str, ...] = ()) -> list[str]:
    """The words of ``text`` outside any wrapped message, once ``data`` (names the test itself
    typed: a username, a campaign's name) and the words that are no message are set aside."""
    rest = outside_messages(text)
    for allowed in sorted((*data, *NOT_MESSAGES), key=len, reverse=True):
        rest = rest.replace(allowed, " ")
    return WORD.findall(rest)


def page_text(page) -> str:
    """What a reader sees: the title, the body's rendered text, and each control's visible label."""
    controls = page.eval_on_selector_all(
        "input[type=submit], input[type=button], [placeholder], [aria-label], [title]",
        "els => els.map(e => [['submit', 'button'].includes(e.type) && e.tagName === 'INPUT' ? e.value : '',"
        " e.placeholder || '', e.getAttribute('aria-label') || '', e.title || ''].join(' '))",
    )
    return "\n".join([page.title(), page.inner_text("body"), *controls])
