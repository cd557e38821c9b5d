"""The campaign's own sentences in each reader's language: the services' refusals (raised inside a
request, said in its language; English when nothing is asked), through the pages and the API
(Accept-Language), counts in each language's plural forms, the story and the charts of one
campaign read by a German and an Italian member (each chart kept in the cache per language), and
the e-mails an account receives in its own language."""

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from campaign.charts import chart_cache_key, chart_stamp
from campaign.models import AccountPreference, Membership
from campaign.services.chronicles import campaign_charts_render
from campaign.services.houses import CAMPAIGN_NAME_REQUIRED, HOUSE_NUMBER_TAKEN, campaign_create, house_create
from campaign.services.night_saves import NIGHT_CONFLICTS
from campaign.services.stickers import (
    AGING_MARKS_UNCHANGED,
    STICKER_ALREADY_ATTACHED,
    sticker_attach,
    sticker_marks_correct,
)
from campaign.services.stories import story_link_create
from tests.factories import UserFactory, campaign_with_houses
from tests.story_play import campaign_of_nights

pytestmark = pytest.mark.django_db


def refusal(call) -> str:
    with pytest.raises(ValidationError) as refused:
        call()
    return " ".join(refused.value.messages)


class RefusalLanguageTests:
    def test_a_refusal_is_said_in_the_active_language_and_english_by_default(self, user):
        campaign, _ = campaign_with_houses("Anna", user=user)
        assert refusal(lambda: campaign_create(name="", created_by=user)) == CAMPAIGN_NAME_REQUIRED
        with translation.override("de"):
            assert (
                refusal(lambda: campaign_create(name="", created_by=user))
                == "Eine Kampagne braucht einen Namen."
            )
            taken = refusal(lambda: house_create(campaign=campaign, name="Ben", number=1))
        assert taken == "Die Hausnummer 1 wird in dieser Kampagne bereits verwendet."
        with translation.override("it"):
            taken = refusal(lambda: house_create(campaign=campaign, name="Ben", number=1))
        assert taken == "Il numero di Casata 1 è già usato in questa campagna."
        # Outside any language, the constant formatted is the English the tests compare with.
        assert refusal(
            lambda: house_create(campaign=campaign, name="Ben", number=1)
        ) == HOUSE_NUMBER_TAKEN.format(number=1)

    def test_the_api_says_a_service_refusal_in_the_accept_language_and_keeps_its_code(self, user):
        campaign, houses = campaign_with_houses("Anna", user=user)
        sticker_attach(campaign=campaign, number=43, row="wealth", positive=True, signer=houses[0])
        api = APIClient()
        api.force_authenticate(user)
        address = reverse("api:sticker-attach", kwargs={"campaign_id": campaign.pk})
        body = {"number": 43, "row": "wealth", "positive": False}
        german = api.post(address, body, format="json", headers={"accept-language": "de"})
        assert german.status_code == 400 and german["Content-Language"] == "de"
        assert german.json()["message"] == "Sticker 43 ist bereits auf dem Spielplan."
        english = api.post(address, body, format="json")
        assert english.json()["message"] == STICKER_ALREADY_ATTACHED.format(number=43)
        assert german.json()["code"] == english.json()["code"]
        assert campaign.stickers.count() == 1

    def test_a_page_shows_the_refusal_in_the_reader_s_language(self, client, user):
        campaign, _ = campaign_with_houses("Anna", user=user)
        client.force_login(user)
        response = client.post(
            reverse("house-create", args=[campaign.pk]),
            {"name": "Ben", "number": 1},
            headers={"accept-language": "it"},
        )
        assert "Il numero di Casata 1 è già usato in questa campagna." in response.content.decode()
        assert campaign.houses.count() == 1


class PluralFormTests:
    @pytest.mark.parametrize(
        ("language", "one", "two"),
        [
            (
                "de",
                "Nichts zu korrigieren: Sticker 12 hat bereits 1 Alterungsmarkierung.",
                "Nichts zu korrigieren: Sticker 12 hat bereits 2 Alterungsmarkierungen.",
            ),
            (
                "it",
                "Niente da correggere: l'adesivo 12 ha già 1 segno di invecchiamento.",
                "Niente da correggere: l'adesivo 12 ha già 2 segni di invecchiamento.",
            ),
        ],
    )
    def test_a_count_takes_the_language_s_plural_form(self, user, language, one, two):
        campaign, houses = campaign_with_houses("Anna", user=user)
        sticker = sticker_attach(campaign=campaign, number=12, row="morale", positive=True, signer=houses[0])
        said = []
        for marks in (1, 2):
            sticker = sticker_marks_correct(sticker=sticker, marks=marks)
            with translation.override(language):
                said.append(refusal(lambda s=sticker, m=marks: sticker_marks_correct(sticker=s, marks=m)))
        assert said == [one, two]
        assert AGING_MARKS_UNCHANGED.format(number=12, marks=1).endswith("1 aging mark.")
        assert AGING_MARKS_UNCHANGED.format(number=12, marks=2).endswith("2 aging marks.")

    def test_the_night_s_conflicts_are_counted_in_each_language(self):
        with translation.override("de"):
            assert NIGHT_CONFLICTS.format(count=1).startswith("1 Eintrag des Abends widersprach")
            assert NIGHT_CONFLICTS.format(count=2).startswith("2 Einträge des Abends widersprachen")
        with translation.override("fr"):
            # French says one for 0 and 1.
            assert NIGHT_CONFLICTS.format(count=0).startswith("0 élément de la soirée était")
        assert NIGHT_CONFLICTS.format(count=0).startswith("0 items of the night")


@pytest.fixture
def realm(user):
    cache.clear()
    campaign, houses, games = campaign_of_nights(2, user=user)
    readers = {}
    for language in ("de", "it"):
        reader = UserFactory(username=f"reader-{language}")
        Membership.objects.create(campaign=campaign, user=reader, role=Membership.Role.VIEWER)
        AccountPreference.objects.create(user=reader, language=language)
        readers[language] = reader
    return campaign, games, readers


def read_as(client, reader, path: str) -> str:
    client.force_login(reader)
    response = client.get(path)  # the account's language comes with its log-in
    assert response.status_code == 200, path
    return response.content.decode()


class StoryAndChartLanguageTests:
    def test_two_members_read_the_same_night_each_in_their_language(self, client, realm):
        campaign, _, readers = realm
        path = f"/campaigns/{campaign.pk}/games/2/story/"
        german, italian = read_as(client, readers["de"], path), read_as(client, readers["it"], path)
        assert "Der König ist gestorben" in german and "Il Re è morto" in italian
        assert "hat gepasst und Macht gesammelt" in german and "è passata e ha raccolto Potere" in italian
        assert "stimmte JA mit 1 Macht" in german or "stimmte NEIN mit 1 Macht" in german
        assert "ha votato SÌ con 1 Potere" in italian or "ha votato NO con 1 Potere" in italian
        assert "passed and gathered Power" not in german + italian

    def test_the_charts_are_drawn_and_kept_per_language(self, client, realm):
        campaign, _, readers = realm
        keys = campaign_charts_render(campaign_id=campaign.pk)
        stamp = chart_stamp(campaign=campaign)
        assert len(keys) == 3 * 2 * 3  # three charts, two sizes, English and the members' two languages
        kept = {
            language: cache.get(
                chart_cache_key(
                    campaign=campaign, name="prestige", size="wide", stamp=stamp, language=language
                )
            )
            for language in ("en", "de", "it")
        }
        assert "Prestige of each House across the games" in kept["en"]
        assert "Prestige jedes Hauses über die Partien" in kept["de"] and "Haus " in kept["de"]
        assert "Prestigio di ogni Casata nel corso delle partite" in kept["it"] and "Casata " in kept["it"]
        path = reverse("campaign-chart", args=[campaign.pk, "prestige"])
        german, italian = read_as(client, readers["de"], path), read_as(client, readers["it"], path)
        assert german == kept["de"] and italian == kept["it"]
        resources = read_as(client, readers["it"], reverse("campaign-chart", args=[campaign.pk, "resources"]))
        assert "Risorse alla fine di ogni partita" in resources and "Ricchezza" in resources

    def test_a_chart_missing_from_the_cache_is_drawn_in_the_reader_s_language(self, client, realm):
        campaign, _, readers = realm
        cache.clear()
        path = reverse("statistics-chart", args=[campaign.pk, "council"])
        assert "Der Rat: Dilemmas angeführt" in read_as(client, readers["de"], path)
        assert "Il consiglio: Dilemmi guidati" in read_as(client, readers["it"], path)

    def test_a_shared_story_is_told_in_each_visitor_s_language(self, client, realm):
        campaign, games, _ = realm
        link = story_link_create(game=games[1])
        path = f"/stories/{link.token}/"
        spanish = client.get(path, headers={"accept-language": "es"}).content.decode()
        french = client.get(path, headers={"accept-language": "fr"}).content.decode()
        assert "El Rey murió" in spanish and "pasó y reunió Poder" in spanish
        assert "Le Roi est mort" in french and "a passé et rassemblé du Pouvoir" in french


class EmailLanguageTests:
    def test_a_german_account_receives_its_password_reset_in_german(self, client):
        anna = UserFactory(username="anna", email="anna@example.org")
        AccountPreference.objects.create(user=anna, language="de")
        # Asked from an English browser: the e-mail follows the account, not the browser.
        response = client.post(
            reverse("account_reset_password"),
            {"email": "anna@example.org"},
            headers={"accept-language": "en"},
        )
        assert response.status_code == 302
        (sent,) = mail.outbox
        assert sent.to == ["anna@example.org"]
        assert "Passwort" in sent.subject + sent.body and "password reset" not in sent.body.lower()

    def test_an_address_without_a_language_gets_the_sender_s_language(self, client):
        UserFactory(username="ben", email="ben@example.org")
        client.post(
            reverse("account_reset_password"), {"email": "ben@example.org"}, headers={"accept-language": "it"}
        )
        (sent,) = mail.outbox
        assert "password" in sent.body.lower() and "Hai ricevuto" in sent.body
