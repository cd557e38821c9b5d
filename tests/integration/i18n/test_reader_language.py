"""Each request answers in its reader's language (config/locale.py): an account's (set at sign-up
from the browser, changed on the account page), a phone's browser or its chooser's cookie, English
when nothing is known. One table mixes languages: each request is its own reader's."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import AccountPreference
from campaign.services.preferences import account_preference_set
from config.locale import ACCOUNT_LANGUAGE_SESSION_KEY
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-1"


def html_lang(response) -> str:
    text = response.content.decode()
    start = text.index('<html lang="') + len('<html lang="')
    return text[start : text.index('"', start)]


class BrowserLanguageTests:
    def test_no_accept_language_answers_in_english(self, client):
        response = client.get(reverse("home"))
        assert html_lang(response) == "en"
        assert response["Content-Language"] == "en"
        assert "Log in" in response.content.decode()

    @pytest.mark.parametrize(
        ("header", "lang", "log_in"),
        [
            ("de-DE,de;q=0.9,en;q=0.5", "de", "Anmelden"),
            ("it-IT,it;q=0.9", "it", "Accedi"),
            ("fr-FR,fr;q=0.9", "fr", "Connexion"),
            ("es-ES,es;q=0.9", "es", "Iniciar sesión"),
        ],
    )
    def test_a_browser_s_language_is_answered(self, client, header, lang, log_in):
        response = client.get(reverse("home"), headers={"accept-language": header})
        assert html_lang(response) == lang
        assert response["Content-Language"] == lang
        assert "Accept-Language" in response["Vary"]
        assert log_in in response.content.decode()

    def test_a_language_not_translated_falls_back_to_english(self, client):
        response = client.get(reverse("home"), headers={"accept-language": "ja-JP,ja"})
        assert html_lang(response) == "en"

    def test_the_chooser_keeps_a_phone_s_language_in_a_cookie(self, client):
        chosen = client.post(reverse("set_language"), {"language": "it", "next": "/"})
        assert chosen.status_code == 302
        response = client.get(reverse("home"), headers={"accept-language": "de"})
        assert html_lang(response) == "it"  # the chooser wins over the browser

    def test_an_unknown_language_cookie_is_ignored(self, client):
        client.cookies["chronicle_language"] = "<script>"
        response = client.get(reverse("home"), headers={"accept-language": "fr"})
        assert response.status_code == 200
        assert html_lang(response) == "fr"


class AccountLanguageTests:
    def test_sign_up_keeps_the_browser_s_language_on_the_account(self, client):
        client.post(
            reverse("account_signup"),
            {"username": "greta", "email": "g@example.org", "password1": PASSWORD, "password2": PASSWORD},
            headers={"accept-language": "de-DE,de;q=0.9"},
        )
        user = get_user_model().objects.get(username="greta")
        assert AccountPreference.objects.get(user=user).language == "de"
        assert html_lang(client.get(reverse("home"))) == "de"  # no header: the account's

    def test_the_account_s_language_follows_it_to_another_browser(self):
        user = UserFactory(username="ugo")
        user.set_password(PASSWORD)
        user.save()
        account_preference_set(user=user, language="it")
        phone = Client(headers={"accept-language": "en-US,en"})
        phone.post(reverse("login"), {"login": "ugo", "password": PASSWORD})
        assert phone.session[ACCOUNT_LANGUAGE_SESSION_KEY] == "it"
        assert html_lang(phone.get(reverse("home"))) == "it"

    def test_the_account_page_changes_the_language(self, client):
        user = UserFactory()
        client.force_login(user)
        page = client.get(reverse("account-preferences"))
        assert page.status_code == 200
        saved = client.post(reverse("account-preferences"), {"language": "fr", "time_zone": "Europe/Paris"})
        assert saved.status_code == 302
        preference = AccountPreference.objects.get(user=user)
        assert (preference.language, preference.time_zone) == ("fr", "Europe/Paris")
        assert html_lang(client.get(reverse("home"), headers={"accept-language": "de"})) == "fr"

    def test_the_account_page_refuses_an_unknown_zone_visibly(self, client):
        client.force_login(UserFactory())
        response = client.post(
            reverse("account-preferences"), {"language": "fr", "time_zone": "Mars/Olympus"}
        )
        assert response.status_code == 200
        assert "errorlist" in response.content.decode()
        assert not AccountPreference.objects.exists()

    def test_one_table_mixes_languages(self):
        """Two phones at one table, each read in its own language, one request after the other."""
        german, italian = Client(), Client()
        german_page = german.get(reverse("home"), headers={"accept-language": "de"})
        italian_page = italian.get(reverse("home"), headers={"accept-language": "it"})
        again = german.get(reverse("home"), headers={"accept-language": "de"})
        assert (html_lang(german_page), html_lang(italian_page), html_lang(again)) == ("de", "it", "de")


def test_a_reader_s_language_does_not_outlive_the_request(client):
    from django.utils import translation

    client.get(reverse("home"), headers={"accept-language": "de"})
    assert translation.get_language() == "en"


class PhoneTests:
    """A phone at a table (a seat page, no account): its browser's language or its chooser's."""

    def test_each_phone_reads_its_seat_page_in_its_own_language(self, client):
        from tests.integration.games.conftest import new_session

        first, second = new_session().seats.order_by("index")[:2]
        german = client.get(reverse("games:seat_page", args=[first.token]), headers={"accept-language": "de"})
        italian = Client().get(
            reverse("games:seat_page", args=[second.token]), headers={"accept-language": "it"}
        )
        assert (html_lang(german), html_lang(italian)) == ("de", "it")
        assert 'id="language-choice"' in german.content.decode()  # the chooser, kept in a cookie


def test_the_chooser_changes_a_signed_in_account_s_language(client):
    user = UserFactory()
    client.force_login(user)
    account_preference_set(user=user, language="de")
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert AccountPreference.objects.get(user=user).language == "es"
    assert html_lang(client.get(reverse("home"))) == "es"
