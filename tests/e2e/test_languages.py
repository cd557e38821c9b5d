"""The reader's language and time zone in a real browser: times in the browser's zone (a browser in
New York), the chooser on a phone, the translated pages at 375 px in German, Italian, French and
Spanish (no long word overflows), the scripts' own words, and the pseudo-language walk over every
page translated so far, where no visible word may stand outside a wrapped message.

The API's documentation page (/api/docs/) is left out of the walk: Redoc writes it from the schema,
whose descriptions are developer documentation kept in English for every reader."""

import datetime
import zoneinfo

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.urls import reverse

from campaign.access import Need
from campaign.models import CampaignEvent, Membership
from campaign.services.members import invitation_create
from config.administrator import administrator_link_token
from config.catalogues import LOCALE_DIR, PSEUDO_LANGUAGE, framework_catalogues, write_pseudo
from config.ratelimits import LOGIN_FAILURES
from tests.e2e.conftest import PHONE, login
from tests.e2e.pseudo import outside_messages, page_text, unwrapped_words
from tests.factories import UserFactory, campaign_with_houses

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AFTERNOON_UTC = datetime.datetime(2026, 1, 15, 15, 55, tzinfo=datetime.UTC)
USERNAME = "greta"
# The pages translated so far: this list grows with each area translated.
ANONYMOUS_PAGES = [
    "home",
    "login",
    "account_signup",
    "account_reset_password",
    "account_reset_password_done",
    "status",
    "offline",
]
NOT_FOUND = "/no-such-page/"  # the error pages' layout, by its 404
ACCOUNT_PAGES = ["home", "account-preferences", "account_change_password", "account_email"]
# Names on the status page: the database's engine and the cache's product, no messages.
PRODUCT_NAMES = ("Redis", "sqlite", "postgresql")
# The time zone chooser names each zone by its IANA name: an identifier, not a message.
ZONE_NAMES = tuple(zone.replace("_", " ") for zone in zoneinfo.available_timezones())


def logged_in(page, live_server) -> None:
    login(page, live_server, USERNAME)
    page.wait_for_selector(f".topbar >> text={USERNAME}")


def no_overflow(page) -> list[str]:
    """The elements wider than the viewport (a long German word that does not wrap)."""
    return page.eval_on_selector_all(
        "body *",
        "els => els.filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
        ".map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))",
    )


class TimeZoneTests:
    @pytest.mark.parametrize(
        ("locale", "written"),
        [("en-US", "01/15/2026 10:55 a.m."), ("de-DE", "15.01.2026 10:55")],  # each language's short form
    )
    def test_a_browser_in_new_york_reads_times_in_new_york_time(self, live_server, new_page, locale, written):
        user = UserFactory(username=USERNAME)
        campaign, _ = campaign_with_houses("Ada", user=user)
        CampaignEvent.objects.filter(campaign=campaign).update(created_at=AFTERNOON_UTC)
        page = new_page(PHONE, timezone_id="America/New_York", locale=locale)
        logged_in(page, live_server)
        page.goto(live_server.url + reverse("campaign-history", args=[campaign.pk]))
        assert written in page.inner_text("main")  # 15:55 UTC is 10:55 in New York
        assert "15:55" not in page.inner_text("main")


class LanguageTests:
    def test_a_phone_chooses_its_language_and_keeps_it(self, live_server, new_page):
        page = new_page(PHONE, locale="de-DE")
        page.goto(live_server.url)
        assert page.get_attribute("html", "lang") == "de"
        page.select_option("#language-choice", "it")  # submits at once: the script hides the button
        page.wait_for_selector("html[lang=it]")
        assert "Accedi" in page.inner_text(".topbar")
        page.goto(live_server.url + reverse("login"))
        assert page.get_attribute("html", "lang") == "it"

    @pytest.mark.parametrize("language", ["de", "it", "fr", "es"])
    def test_the_translated_pages_at_375_px(self, live_server, new_page, screenshot, language):
        UserFactory(username=USERNAME)
        page = new_page(PHONE, locale=language)
        for name in ANONYMOUS_PAGES:
            page.goto(live_server.url + reverse(name))
            assert page.get_attribute("html", "lang") == language
            assert no_overflow(page) == [], name
            screenshot(page, f"i18n-{language}-{name}")
        page.goto(live_server.url + NOT_FOUND)
        assert no_overflow(page) == []
        screenshot(page, f"i18n-{language}-404")
        logged_in(page, live_server)
        for name in ACCOUNT_PAGES:
            page.goto(live_server.url + reverse(name))
            assert no_overflow(page) == [], name
            screenshot(page, f"i18n-{language}-signed-in-{name}")


@pytest.fixture
def pseudo_language(settings, tmp_path):
    """The pseudo-language, compiled from the project's messages and the framework's, first in
    LOCALE_PATHS and in LANGUAGES for this test only."""
    sources = [LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po", *framework_catalogues()]
    write_pseudo(tmp_path, sources)
    settings.LOCALE_PATHS = [tmp_path, *django_settings.LOCALE_PATHS]
    settings.LANGUAGES = [*django_settings.LANGUAGES, (PSEUDO_LANGUAGE, "[Þŝéûđö]")]
    return PSEUDO_LANGUAGE


def script_words(page) -> list[str]:
    """The words static/js/ writes (the offline line, the live label, Copy's answer...), each
    with its placeholders: they are on every page, shown only when something happens."""
    words = page.evaluate("Object.values(window.chronicleWords())")
    assert len(words) > 10
    return unwrapped_words(" ".join(words).replace("{time}", " ").replace("{seconds}", " "))


def too_many_attempts(page, live_server) -> list[str]:
    """The page a log-in gets once too many wrong passwords came for one login from one address."""
    for _ in range(LOGIN_FAILURES + 1):
        login(page, live_server, "someone-else", password="not-the-password")  # greta logs in next
    assert page.locator("h1").count() == 1
    assert "429" not in page.title()
    return unwrapped_words(page_text(page))


def not_allowed(page, live_server) -> list[str]:
    """The 403 page: a player opens an owner's page of a campaign (an export's file). The refusal's own
    sentence is campaign/access.py's, set aside here: the walk of the campaign pages reads it."""
    owner = UserFactory(username="olga")
    campaign, _ = campaign_with_houses("Ada", user=owner, name="Ada")
    Membership.objects.create(
        campaign=campaign, user=User.objects.get(username=USERNAME), role=Membership.Role.PLAYER
    )
    response = page.goto(live_server.url + reverse("campaign-export-download", args=[campaign.pk, 1]))
    assert response.status == 403
    return unwrapped_words(page_text(page), data=(USERNAME, str(Need.OWN.refusal)))


class PseudoLanguageWalkTests:
    def test_no_visible_word_outside_a_wrapped_message(self, live_server, new_page, pseudo_language):
        UserFactory(username=USERNAME)
        page = new_page(PHONE, locale="en-XA")
        found = {}
        for name in ANONYMOUS_PAGES:
            page.goto(live_server.url + reverse(name))
            assert page.get_attribute("html", "lang") == pseudo_language
            found[name] = unwrapped_words(page_text(page), data=PRODUCT_NAMES)
        found["script words"] = script_words(page)
        page.goto(live_server.url + NOT_FOUND)
        found["404"] = unwrapped_words(page_text(page))
        for token in (administrator_link_token(), "a-link-used-already"):
            page.goto(live_server.url + reverse("administrator-setup", args=[token]))
            found[f"administrator setup {token[:8]}"] = unwrapped_words(page_text(page))
        found["too many attempts"] = too_many_attempts(page, live_server)
        logged_in(page, live_server)
        for name in ACCOUNT_PAGES:
            page.goto(live_server.url + reverse(name))
            found[f"signed in: {name}"] = unwrapped_words(page_text(page), data=(USERNAME, *ZONE_NAMES))
        found["403"] = not_allowed(page, live_server)
        assert {name: words for name, words in found.items() if words} == {}

    def test_the_walk_finds_a_string_nobody_translated(self, live_server, new_page, pseudo_language):
        page = new_page(PHONE, locale="en-XA")
        page.goto(live_server.url)
        assert unwrapped_words(page_text(page)) == []
        page.evaluate("document.querySelector('main').append('Start a game night')")
        assert unwrapped_words(page_text(page)) == ["Start", "game", "night"]


class ScriptWordsTests:
    def test_the_scripts_words_are_the_pages_language(self, live_server, new_page):
        page = new_page(PHONE, locale="de-DE")
        page.goto(live_server.url)
        words = page.evaluate("window.chronicleWords()")
        assert words["copied"] == "Kopiert"
        assert words["offline_copy"].startswith("Offline-Kopie vom {time}.")
        page.goto(live_server.url + reverse("offline"))
        assert page.title() == "Diese Seite braucht den Server · Chronicle"

    def test_copy_answers_in_the_pages_language(self, live_server, new_page):
        user = UserFactory(username=USERNAME)
        campaign, _ = campaign_with_houses("Ada", user=user)
        invitation = invitation_create(campaign=campaign, role="viewer")
        page = new_page(PHONE, locale="de-DE")
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        logged_in(page, live_server)
        page.goto(live_server.url + reverse("campaign-members", args=[campaign.pk]))
        tools = page.locator(f"#invitation-{invitation.pk} .share-tools")
        tools.locator("button:has-text('Kopieren')").click()
        tools.locator("[data-share-status]", has_text="Kopiert").wait_for()


def test_the_check_reads_nested_messages_and_sets_data_aside():
    assert outside_messages("[Ţîɱéŝ [Ñéŵ Ýöŗķ] îñ] 10:55 [Ŝåṽé]") == " 10:55 "
    assert unwrapped_words("[Ĥéĺĺö] greta · Chronicle", data=("greta",)) == []
    assert unwrapped_words("[Ĥéĺĺö] Log out") == ["Log", "out"]
