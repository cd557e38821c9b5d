"""The engines' sentences in each reader's language, through the real catalogues: a night of The
King's Dilemma played through the services keeps each log line's message beside its English, and
the log reads in German or Italian (the selectors, the API under Accept-Language), in English as
before; an engine's refusal is said in the request's language; and a log line carried by the
campaign archive still translates once imported (an older archive's line reads its English)."""

import copy
import json
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from rest_framework.test import APIClient

from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.format import ADDED_IN, ARCHIVE_VERSION
from campaign.services.archive.restore import campaign_import
from games import selectors
from games.engines.kernel.messages import from_data
from games.engines.kings_dilemma import messages as msg
from games.models import SessionAction
from games.services.sessions import session_create
from games.services.taps import STALE_VERSION, session_submit_action
from games.translation import say_stored
from tests.factories import UserFactory
from tests.integration.api.conftest import fresh_key, token_client
from tests.integration.games.conftest import random_move

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bruno", "Chiara"]
DEAL = "The table removed one Secret Agenda at random, unseen, and the draft began."
DEAL_DE = "Der Tisch hat zufällig und ungesehen eine Geheime Agenda entfernt, und die Auswahl hat begonnen."
DEAL_IT = "Il tavolo ha tolto a caso un'Agenda Segreta, senza guardarla, e la scelta è cominciata."


def night(host=None, moves: int = 40):
    """A King's Dilemma night played by random legal moves through the tap service."""
    session = session_create(game="kings_dilemma", seat_names=NAMES, host=host, seed=3)
    rng = random.Random(3)
    for _ in range(moves):
        seat, action = random_move(session, rng)
        if action is None:
            break
        session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
    return session


def log_in(session, language: str) -> list[str]:
    with translation.override(language):
        return [entry["label"] for entry in selectors.session_log(session=session)]


class LogLanguageTests:
    def test_the_log_keeps_each_label_s_message_and_its_english_reads_as_before(self):
        session = night()
        rows = list(session.actions.order_by("seq"))
        assert len(rows) > 20 and all(row.label_data for row in rows)
        assert all(str(from_data(row.label_data)) == row.label for row in rows)
        assert rows[0].label == DEAL
        assert log_in(session, "en") == [row.label for row in rows]
        with translation.override("de"):
            assert selectors.session_log(session=session)[0]["seat_name"] == "Tisch"

    def test_the_log_reads_in_german_and_in_italian(self):
        session = night()
        english, german, italian = log_in(session, "en"), log_in(session, "de"), log_in(session, "it")
        assert (german[0], italian[0]) == (DEAL_DE, DEAL_IT)
        # Every line said again: no English line is left but where a line holds only names.
        assert all(g != e for g, e in zip(german, english, strict=True))
        assert any("Geheime Agenda" in line for line in german)
        assert any("Agenda Segreta" in line for line in italian)
        drawn = [line for line in german if line.startswith("Der Tisch hat die Dilemmakarte")]
        assert drawn, german

    def test_the_news_lines_of_a_label_are_translated_too(self):
        session = night(moves=80)
        lines = [line for label in log_in(session, "de") for line in label.splitlines()[1:]]
        english = [line for label in log_in(session, "en") for line in label.splitlines()[1:]]
        assert lines and len(lines) == len(english)
        assert not set(lines) & set(english)


class ApiLanguageTests:
    def test_the_api_s_log_follows_accept_language(self):
        host = UserFactory(username="host")
        session = night(host=host)
        client = token_client(host)
        address = reverse("api:session-log", kwargs={"session_id": session.pk})
        german = client.get(address, headers={"accept-language": "de"}).json()["results"]
        english = client.get(address).json()["results"]
        assert german[0]["label"] == DEAL_DE and english[0]["label"] == DEAL

    def test_a_refusal_of_the_engine_is_said_in_the_request_s_language(self):
        host = UserFactory(username="host")
        session = session_create(game="kings_dilemma", seat_names=NAMES, host=host, seed=3)
        seat = session.state["draft"]["order"][0]
        token = session.seats.get(index=seat).token
        client = APIClient()
        client.credentials(HTTP_X_SEAT_TOKEN=token)
        address = reverse("api:seat-action-submit", kwargs={"session_id": session.pk, "seat_index": seat})
        body = {
            "action": {"type": "choose_secret_agenda", "agenda": "nobody"},
            "expected_version": session.version,
        }
        german = client.post(address, body, format="json", headers={"accept-language": "de"}, **fresh_key())
        english = client.post(address, body, format="json", **fresh_key())
        assert german.status_code == english.status_code == 400
        assert english.json()["message"] == msg.AGENDA_NOT_OFFERED
        assert german.json() == {
            "message": "Diese Geheime Agenda ist nicht unter den Karten, die dir angeboten wurden.",
            "code": "rule_broken",
            "extra": {},
        }

    def test_the_tap_service_s_refusal_is_said_in_the_request_s_language(self):
        host = UserFactory(username="host")
        session = session_create(game="kings_dilemma", seat_names=NAMES, host=host, seed=3)
        seat = session.state["draft"]["order"][0]
        client = APIClient()
        client.credentials(HTTP_X_SEAT_TOKEN=session.seats.get(index=seat).token)
        address = reverse("api:seat-action-submit", kwargs={"session_id": session.pk, "seat_index": seat})
        agenda = session.state["draft"]["remaining"][0]
        body = {"action": {"type": "choose_secret_agenda", "agenda": agenda}, "expected_version": 0}
        stale = client.post(address, body, format="json", headers={"accept-language": "de"}, **fresh_key())
        assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
        with translation.override("de"):
            german = translation.gettext(STALE_VERSION)
        assert german != STALE_VERSION  # the catalogue says it in German
        assert stale.json()["message"] == german

    def test_the_view_s_news_and_the_choices_titles_follow_accept_language(self):
        host = UserFactory(username="host")
        session = night(host=host, moves=30)
        client = token_client(host)
        address = reverse("api:session-table", kwargs={"session_id": session.pk})
        german = client.get(address, headers={"accept-language": "it"}).json()
        english = client.get(address).json()
        titles = {c["title"] for c in english["legal_actions"] if "title" in c}
        assert titles and not titles & {c["title"] for c in german["legal_actions"] if "title" in c}
        assert len(german["view"]["news"]) == len(english["view"]["news"])


class ArchiveTests:
    def test_a_stored_label_survives_export_and_import_and_still_translates(self):
        from tests.story_play import campaign_of_nights

        campaign, _, _ = campaign_of_nights(1)
        archive = json.loads(archive_dumps(campaign_archive(campaign=campaign)))
        assert archive["version"] == ARCHIVE_VERSION and all(
            "label_data" in row for row in archive["actions"]
        )
        copy_ = campaign_import(archive=copy.deepcopy(archive), owner=UserFactory())
        rows = SessionAction.objects.filter(session__campaign=copy_).order_by("session", "seq")
        originals = SessionAction.objects.filter(session__campaign=campaign).order_by("session", "seq")
        assert [r.label_data for r in rows] == [r.label_data for r in originals]
        with translation.override("de"):
            said = [say_stored(r.label_data, english=r.label) for r in rows]
        assert DEAL_DE in said and DEAL not in said

    def test_an_archive_of_version_4_imports_and_its_lines_read_their_english(self):
        from tests.story_play import campaign_of_nights

        campaign, _, _ = campaign_of_nights(1)
        archive = json.loads(archive_dumps(campaign_archive(campaign=campaign)))
        archive["version"] = 4
        for (section, field), since in ADDED_IN.items():  # what versions 5 and 6 added
            for row in archive[section] if since > 4 else ():
                del row[field]
        copy_ = campaign_import(archive=archive, owner=UserFactory())
        rows = list(SessionAction.objects.filter(session__campaign=copy_))
        assert rows and all(r.label_data is None for r in rows)
        with translation.override("de"):
            assert [say_stored(r.label_data, english=r.label) for r in rows] == [r.label for r in rows]


class ScreenLanguageTests:
    def test_two_phones_of_one_table_read_the_log_each_in_its_browser_s_language(self):
        session = night(moves=3)
        row = session.actions.order_by("-seq").first()
        address = reverse("games:seat_page", kwargs={"token": session.seats.get(index=0).token})
        pages = {}
        for language in ("de", "it", "en"):
            with translation.override(language):
                said = escape(say_stored(row.label_data, english=row.label)).replace("\n", "<br>")
            pages[language] = (said, Client(HTTP_ACCEPT_LANGUAGE=language).get(address).content.decode())
        assert len({said for said, _ in pages.values()}) == 3
        assert all(said in page for said, page in pages.values())
        assert escape(row.label).split("<br>")[0] not in pages["de"][1]
