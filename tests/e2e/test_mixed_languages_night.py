"""One King's Dilemma table, three languages: the host's table screen in English (1920 px), one phone
in German and one in Italian (375 px, each from its browser's language), two more in English. Played
by taps through the Secret Agenda draft, a Dilemma drawn, voted and resolved: each screen reads its
own language, its page says so (``<html lang>``), and each log line and piece of news reads in each
reader's language from the one message the log keeps."""

import pytest
from django.utils import translation

from campaign.services import game_nights
from games.engines.kings_dilemma.turn import to_act
from games.models import SessionAction
from games.translation import say_stored
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.e2e.table import following, value
from tests.factories import UserFactory, campaign_with_houses
from tests.kings_dilemma_play import remember_library

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOUSES = ["House Solad", "House Tiberius", "House Crann", "House Vaclav"]
BROWSER_LOCALES = {0: "de-DE", 1: "it-IT", 2: "en-GB", 3: "en-US"}  # each phone's browser
LANGUAGES = {0: "de", 1: "it", 2: "en", 3: "en"}


def said(action: SessionAction, language: str) -> str:
    """The log line as a reader of ``language`` reads it (its first line: the action itself)."""
    with translation.override(language):
        return say_stored(action.label_data, english=action.label).splitlines()[0]


def first_line_english(action: SessionAction) -> str:
    return action.label.splitlines()[0]


class MixedLanguagesNightTests:
    def test_each_screen_reads_its_readers_language(self, live_server, new_page, screenshot):
        host = UserFactory(username="host")
        campaign, houses = campaign_with_houses(*HOUSES, user=host)
        remember_library(campaign)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="Harald V", host=host, seed=3
        )
        table = new_page(DESKTOP, locale="en-US")
        login(table, live_server, host.username)
        table.goto(f"{live_server.url}/play/s/{session.pk}/")
        phones = {}
        for seat in session.seats.order_by("index"):
            phone = new_page(PHONE, locale=BROWSER_LOCALES[seat.index])
            phone.goto(f"{live_server.url}/play/seat/{seat.token}/")
            phones[seat.index] = phone

        refresh = following(session, table, phones)

        def check_languages(name: str):
            """Every screen in its reader's language: the page's own language, the turn banner and
            the newest log lines said from the log's messages."""
            assert table.evaluate("document.documentElement.lang") == "en"
            latest = list(SessionAction.objects.filter(session=session, undone=False).order_by("-seq")[:3])
            table_text = table.inner_text("#table-panel")
            for index, phone in phones.items():
                language = LANGUAGES[index]
                assert phone.evaluate("document.documentElement.lang") == language, (index, name)
                text = phone.inner_text("body")
                for action in latest:
                    line = said(action, language)
                    assert line in text, (name, language, line)
                    if language != "en":
                        # The German and Italian phones say it otherwise, and not in English.
                        assert line != first_line_english(action), (name, language, line)
                        assert first_line_english(action) not in text, (name, language)
                acting = [s for s in to_act(session.state) if s is not None]
                if acting and acting[0] == index:
                    with translation.override(language):
                        assert translation.gettext("Your turn.") in text, (name, language)
            for action in latest:
                assert first_line_english(action) in table.inner_text("body"), (name, action.label)
            assert table_text

        # The draft: each House taps one of the Secret Agendas offered to it, on its own phone.
        state = refresh(moved=False)
        while state["phase"] == "draft":
            seat = state["draft"]["order"][state["draft"]["index"]]
            phones[seat].locator("form.control-choose_secret_agenda button.choice").first.click()
            state = refresh()
            check_languages(f"draft {seat}")
        screenshot(phones[0], "mixed-languages-de-draft-375")

        # The host draws a Dilemma on the table, in English.
        form = table.locator("form:has(input[name=compose][value=draw])")
        form.locator("input[name=number]").fill("12")
        form.locator("input[name=title]").fill("Bread taxes")
        form.locator("label.tok:has(input[name=aye_influence][value=up])").click()
        form.locator("button[type=submit]").click()
        state = refresh()
        assert state["phase"] == "voting"
        check_languages("draw")

        # The vote: the first House to act votes AYE with 1 Power, the others pass.
        while state["phase"] == "voting":
            seat = next(s for s in to_act(state) if s is not None)
            phone = phones[seat]
            if "aye" not in state["vote"]["choice"] and state["vote"]["choice"][seat] is None:
                vote = phone.locator("form.control-vote")
                vote.locator("input[name=p_power]").fill("1")
                vote.locator(f"button.choice[value={value('aye')}]").click()
            elif state["vote"]["choice"][seat] is not None:
                phone.locator("form.control-stay button.choice").click()
            else:
                phone.locator("form.control-pass_gather button.choice").click()
            state = refresh()
            check_languages(f"vote {seat}")
        screenshot(phones[1], "mixed-languages-it-vote-375")

        # The host turns the card over; its news reads in each reader's language.
        table.locator("form:has(input[name=compose][value=outcome]) button[type=submit]").click()
        state = refresh()
        assert 12 in state["time_counter"]
        check_languages("outcome")
        english_news = "Card 12 goes on the Time Counter"
        assert english_news in table.inner_text("body")
        for index in (0, 1):
            assert english_news not in phones[index].inner_text("body"), LANGUAGES[index]
        for index, phone in phones.items():
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], index
        screenshot(phones[0], "mixed-languages-de-news-375")
        screenshot(phones[1], "mixed-languages-it-news-375")
        screenshot(table, "mixed-languages-en-table-1920")
