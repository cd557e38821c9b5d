"""Missing translations fail the build: every message of every catalogue translated and not fuzzy,
its placeholders those of the English, and the catalogues the code's (makemessages run into a copy
adds nothing new and leaves nothing obsolete). Each check has a self-test that it can fail."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from config.catalogues import (
    LOCALE_DIR,
    ROOT,
    catalogues,
    framework_catalogues,
    messages_of,
    pseudo_text,
    read_po,
    write_pseudo,
)

LANGUAGES = ("it", "de", "fr", "es")
# As scripts/messages.sh update runs makemessages.
IGNORE = [".venv", "staticfiles", "tests", "node_modules", "media", "screenshots", "docker", "locale"]


def not_done(po: Path) -> list[str]:
    """The messages of ``po`` a reader would see in English (or a translator left fuzzy)."""
    return [entry.msgid for entry in messages_of(po) if not entry.translated or "fuzzy" in entry.flags]


def msgfmt_errors(po: Path) -> str:
    result = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(po)], capture_output=True, text=True)
    return result.stderr if result.returncode else ""


def drift(po: Path, updated: Path) -> tuple[list, list]:
    """What makemessages would add to ``po`` and what it would make obsolete."""
    ours = {entry.key for entry in messages_of(po)}
    theirs = {entry.key for entry in messages_of(updated)}
    return sorted(theirs - ours, key=str), sorted(ours - theirs, key=str)


class CompletenessTests:
    def test_there_is_a_catalogue_for_each_language(self):
        assert [po.parent.parent.name for po in catalogues()] == sorted(LANGUAGES)
        assert {code for code, _ in settings.LANGUAGES} == {"en", *LANGUAGES}

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_every_message_is_translated_and_not_fuzzy(self, language):
        po = LOCALE_DIR / language / "LC_MESSAGES" / "django.po"
        assert not_done(po) == []
        assert msgfmt_errors(po) == ""  # placeholders, plural forms and the header as gettext wants

    def test_an_untranslated_or_fuzzy_message_is_found(self, tmp_path):
        po = tmp_path / "django.po"
        po.write_text(
            'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            'msgid "Log in"\nmsgstr ""\n\n'
            '#, fuzzy\nmsgid "Log out"\nmsgstr "Abmelden"\n\n'
            'msgid "one Coin"\nmsgid_plural "%(n)s Coins"\nmsgstr[0] "eine Münze"\nmsgstr[1] ""\n\n'
            'msgid "Save"\nmsgstr "Speichern"\n\n'
            '#~ msgid "Gone"\n#~ msgstr ""\n',
            encoding="utf-8",
        )
        assert not_done(po) == ["Log in", "Log out", "one Coin"]

    def test_a_placeholder_lost_in_translation_is_found(self, tmp_path):
        po = tmp_path / "django.po"
        po.write_text(
            'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            '#, python-format\nmsgid "since %(date)s"\nmsgstr "seit %(datum)s"\n',
            encoding="utf-8",
        )
        assert "datum" in msgfmt_errors(po) or msgfmt_errors(po) != ""


class MatchTheCodeTests:
    def test_makemessages_adds_nothing_and_leaves_nothing_obsolete(self, tmp_path, monkeypatch):
        """Run in a copy of the project: makemessages writes beside the sources it reads."""
        tree = tmp_path / "project"
        shutil.copytree(
            ROOT, tree, ignore=shutil.ignore_patterns(*IGNORE, ".*", "*.mo", "*.png", "__pycache__")
        )
        copy = tree / "locale"
        shutil.copytree(LOCALE_DIR, copy, ignore=shutil.ignore_patterns("*.mo"))
        monkeypatch.chdir(tree)
        with override_settings(LOCALE_PATHS=[copy]):
            call_command(
                "makemessages", locale=list(LANGUAGES), ignore_patterns=IGNORE, no_location=True, verbosity=0
            )
        for language in LANGUAGES:
            relative = Path(language) / "LC_MESSAGES" / "django.po"
            assert drift(LOCALE_DIR / relative, copy / relative) == ([], []), language

    def test_a_message_missing_from_a_catalogue_is_found(self, tmp_path):
        ours, updated = tmp_path / "ours.po", tmp_path / "updated.po"
        ours.write_text('msgid "Log in"\nmsgstr "Anmelden"\n\nmsgid "Gone"\nmsgstr "Weg"\n', encoding="utf-8")
        updated.write_text('msgid "Log in"\nmsgstr "Anmelden"\n\nmsgid "New"\nmsgstr ""\n', encoding="utf-8")
        assert drift(ours, updated) == ([(None, "New")], [(None, "Gone")])

    def test_the_reader_keeps_context_and_plurals(self):
        entries = {entry.key: entry for entry in read_po(LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po")}
        assert entries[("theme", "Dark")].msgstr == ["Dunkel"]
        assert entries[(None, "")].msgstr[0].startswith("Project-Id-Version")


GLOSSARY_TERMS = (
    "Prestige",
    "Crave",
    "Chronicle sticker",
    "Envelope",
    "Secret Agenda",
    "Duty tiles",
    "Favor deck",
    "Councilor",
    "Balcony",
    "Permit",
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_its_glossary_of_the_games_terms(language):
    glossary = (ROOT / "docs" / "glossary" / f"{language}.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in glossary.splitlines() if line.startswith("| ")}
    assert [term for term in GLOSSARY_TERMS if term not in rows] == []
    assert "Register:" in glossary  # the form of address every message of the language keeps


def test_every_way_of_running_compiles_the_catalogues():
    """The .mo files are never committed: make run, make test and the image compile them."""
    assert "scripts/messages.sh compile" in (ROOT / "Makefile").read_text()
    assert "scripts/messages.sh compile" in (ROOT / "scripts" / "test.sh").read_text()
    assert "compilemessages" in (ROOT / "docker" / "Dockerfile").read_text()
    assert "locale/*/LC_MESSAGES/*.mo" in (ROOT / ".gitignore").read_text()


class PseudoLanguageTests:
    def test_each_message_is_accented_and_wrapped_its_placeholders_intact(self):
        assert pseudo_text("Start a game night") == "[Ŝţåŗţ å ĝåɱé ñîĝĥţ]"
        assert pseudo_text('Since %(date)s, {name} <a href="%(url)s">here</a> %s') == (
            '[Ŝîñçé %(date)s, {name} <a href="%(url)s">ĥéŗé</a> %s]'
        )
        assert pseudo_text("\nTwo lines\n") == "\n[Ţŵö ĺîñéŝ]\n"  # gettext keeps a message's newlines
        assert pseudo_text("%(count)s") == "%(count)s"  # only a placeholder: nothing to read

    def test_the_pseudo_catalogue_passes_msgfmt_s_checks(self, tmp_path):
        """msgfmt --check compares each translation's placeholders with its message's."""
        sources = [LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po", *framework_catalogues()]
        mo = write_pseudo(tmp_path, sources)
        assert msgfmt_errors(mo.with_suffix(".po")) == ""
        pseudo = {entry.key: entry for entry in messages_of(mo.with_suffix(".po"))}
        assert pseudo[(None, "Log in")].msgstr == ["[Ĺöĝ îñ]"]
        assert len(pseudo) > 1000  # the framework's messages too (Django's, allauth's)
