"""The translation catalogues as files: read a .po file's entries, compile what is stale, and write
the pseudo-language's catalogue (each message wrapped and accented, its placeholders intact) that the
tests read pages in. The standard library and gettext's msgfmt only (docs/translations.md)."""

import ast
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import allauth
import django

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "locale"
# The pseudo-language: a code no browser sends and no translation uses (en-XA is the pseudo-locale
# code Android and Chromium use for accented English). In LANGUAGES only in the tests.
PSEUDO_LANGUAGE = "en-xa"
PSEUDO_LOCALE = "en_XA"
PSEUDO_OPEN, PSEUDO_CLOSE = "[", "]"

# Placeholders left exactly as they are: Python's %(name)s and %s, str.format's {name}, HTML tags
# and entities, and the template variables blocktranslate writes.
PLACEHOLDER = re.compile(
    r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[-#0 +]*\d*(?:\.\d+)?[sdifr%]|\{[^{}]*\}|<[^>]*>|&\w+;"
)
ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķĺɱñöþǫŗŝţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŘŜŢÛṼŴẊÝŽ",
)


@dataclass
class Entry:
    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)


_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$")


def _string(literal: str) -> str:
    value = ast.literal_eval(literal)  # a PO string is a C string: Python's escapes cover it
    if not isinstance(value, str):
        raise ValueError(f"not a string: {literal}")
    return value


def read_po(path: Path) -> list[Entry]:
    """Every entry of a .po file, its header (the empty msgid) first, obsolete ones (#~) marked."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    flags: set[str] = set()
    obsolete = False
    last: str | None = None

    def close() -> None:
        nonlocal fields, flags, obsolete, last
        if "msgid" in fields:
            plurals = sorted(k for k in fields if k.startswith("msgstr["))
            strings = [fields[k] for k in plurals] if plurals else [fields.get("msgstr", "")]
            entries.append(
                Entry(
                    fields["msgid"],
                    fields.get("msgctxt"),
                    fields.get("msgid_plural"),
                    strings,
                    flags,
                    obsolete,
                )
            )
        fields, flags, obsolete, last = {}, set(), False, None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            obsolete, line = True, line[2:].strip()
        elif line.startswith("#,"):
            if "msgid" in fields:
                close()
            flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        elif line.startswith("#") or not line:
            if "msgstr" in fields or any(k.startswith("msgstr[") for k in fields):
                close()
            continue
        match = _KEYWORD.match(line)
        if match:
            if match.group(1) in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
                close()
            last = match.group(1)
            fields[last] = _string(match.group(2))
        elif line.startswith('"') and last is not None:
            fields[last] += _string(line)
    close()
    return entries


def messages_of(path: Path) -> list[Entry]:
    """The messages of a catalogue: its header and obsolete entries left out."""
    return [e for e in read_po(path) if e.msgid and not e.obsolete]


def catalogues(root: Path = LOCALE_DIR) -> list[Path]:
    return sorted(root.glob("*/LC_MESSAGES/django.po"))


def compile_stale(root: Path = LOCALE_DIR) -> list[Path]:
    """Each .mo whose .po is newer (or that is missing) compiled again, written whole then renamed
    into place, so that a test process reading it meanwhile never sees half a file."""
    compiled = []
    for po in catalogues(root):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with tempfile.NamedTemporaryFile(dir=po.parent, suffix=".mo", delete=False) as out:
            temporary = Path(out.name)
        try:
            subprocess.run(["msgfmt", "--check-format", "-o", str(temporary), str(po)], check=True)
            temporary.chmod(0o644)  # readable by the server's user, as msgfmt's own output is
            os.replace(temporary, mo)
        finally:
            temporary.unlink(missing_ok=True)
        compiled.append(mo)
    return compiled


def pseudo_text(text: str) -> str:
    """``text`` accented and wrapped, each placeholder kept as it is: "Start %(n)s" reads
    "[Ŝţåŗţ %(n)s]". Text that is only placeholders (or empty) is left alone."""
    if not text or not PLACEHOLDER.sub("", text).strip():
        return text
    core = text.strip()
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    parts, position = [], 0
    for match in PLACEHOLDER.finditer(core):
        parts.append(core[position : match.start()].translate(ACCENTS))
        parts.append(match.group(0))
        position = match.end()
    parts.append(core[position:].translate(ACCENTS))
    # Leading and trailing whitespace stay outside: gettext wants a message's newlines kept.
    return lead + PSEUDO_OPEN + "".join(parts) + PSEUDO_CLOSE + trail


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def pseudo_po(sources: list[Path]) -> str:
    """The pseudo-language's .po text: every message of ``sources`` (the first of a message wins)."""
    lines = [
        'msgid ""',
        'msgstr ""',
        _quoted("Content-Type: text/plain; charset=UTF-8\n"),
        _quoted(f"Language: {PSEUDO_LOCALE}\n"),
        _quoted("Plural-Forms: nplurals=2; plural=(n != 1);\n"),
        "",
    ]
    seen: set[tuple[str | None, str]] = set()
    for source in sources:
        for entry in messages_of(source):
            if entry.key in seen:
                continue
            seen.add(entry.key)
            if entry.msgctxt is not None:
                lines.append(f"msgctxt {_quoted(entry.msgctxt)}")
            lines.append(f"msgid {_quoted(entry.msgid)}")
            if entry.msgid_plural is None:
                lines.append(f"msgstr {_quoted(pseudo_text(entry.msgid))}")
            else:
                lines.append(f"msgid_plural {_quoted(entry.msgid_plural)}")
                lines.append(f"msgstr[0] {_quoted(pseudo_text(entry.msgid))}")
                lines.append(f"msgstr[1] {_quoted(pseudo_text(entry.msgid_plural))}")
            lines.append("")
    return "\n".join(lines)


def framework_catalogues(language: str = "de") -> list[Path]:
    """The catalogues of the installed apps the pages show (Django's own, its contrib apps',
    django-allauth's, Django REST framework's): their messages are wrapped too, so that a page's every word is checked."""
    found = [Path(django.__file__).parent / "conf" / "locale" / language / "LC_MESSAGES" / "django.po"]
    found += sorted(
        (Path(django.__file__).parent / "contrib").glob(f"*/locale/{language}/LC_MESSAGES/django.po")
    )
    found.append(Path(allauth.__file__).parent / "locale" / language / "LC_MESSAGES" / "django.po")
    return [path for path in found if path.exists()]


def write_pseudo(target: Path, sources: list[Path]) -> Path:
    """The pseudo-language compiled under ``target`` (a LOCALE_PATHS entry): its .mo path."""
    folder = target / PSEUDO_LOCALE / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    po = folder / "django.po"
    po.write_text(pseudo_po(sources), encoding="utf-8")
    mo = folder / "django.mo"
    subprocess.run(["msgfmt", "-o", str(mo), str(po)], check=True)
    return mo


def main(argv: list[str]) -> int:
    """python -m config.catalogues pseudo DIR: the pseudo-language's catalogue under DIR, from
    the project's messages (the German catalogue holds them all) and the framework's."""
    if len(argv) != 2 or argv[0] != "pseudo":
        print("usage: python -m config.catalogues pseudo DIR", file=sys.stderr)
        return 2
    sources = [LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po", *framework_catalogues()]
    print(write_pseudo(Path(argv[1]), sources))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
