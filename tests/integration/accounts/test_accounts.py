"""The group's own accounts (issue 24 item 1): sign up, log in by username or email, log out,
change and reset the password (django-allauth, config/accounts.py); the login page prints no demo
password. No sign-up administers the install (tests/integration/accounts/test_administrator.py)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from campaign.models import Campaign
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-1"
ROOT = Path(__file__).resolve().parents[3]


def sign_up(client, username="anna", email="anna@example.org", password=PASSWORD):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def logged_in_as(client):
    return client.get(reverse("home")).wsgi_request.user


class SignUpTests:
    def test_a_visitor_signs_up_is_logged_in_and_creates_a_campaign(self, client):
        response = sign_up(client)
        assert response.status_code == 302
        assert logged_in_as(client).username == "anna"
        response = client.post(reverse("campaign-create"), {"name": "Our realm"})
        assert response.status_code == 302
        assert Campaign.objects.get(name="Our realm").created_by.username == "anna"

    def test_a_taken_username_is_refused_and_nothing_is_written(self, client):
        UserFactory(username="anna")
        response = sign_up(client)
        assert response.status_code == 200 and get_user_model().objects.count() == 1
        assert not logged_in_as(client).is_authenticated


class LogInTests:
    @pytest.fixture
    def anna(self):
        return get_user_model().objects.create_user("anna", "anna@example.org", PASSWORD)

    @pytest.mark.parametrize("login", ["anna", "anna@example.org", "ANNA@example.org"])
    def test_a_player_logs_in_by_username_or_email(self, client, anna, login):
        response = client.post(reverse("login"), {"login": login, "password": PASSWORD})
        assert response.status_code == 302
        assert logged_in_as(client) == anna

    def test_a_wrong_password_is_refused(self, client, anna):
        response = client.post(reverse("login"), {"login": "anna", "password": "wrong-one"})
        refusal = DefaultAccountAdapter.error_messages["username_password_mismatch"]
        assert response.status_code == 200 and str(refusal) in response.content.decode()
        assert not logged_in_as(client).is_authenticated

    def test_log_out(self, client, anna):
        client.force_login(anna)
        assert client.post(reverse("logout")).status_code == 302
        assert not logged_in_as(client).is_authenticated

    def test_the_login_page_does_not_print_the_demo_password(self, client):
        response = client.get(reverse("login"))
        assert response.status_code == 200
        assert b"chronicle-demo" not in response.content  # the password make run once printed
        assert reverse("account_signup").encode() in response.content  # and offers to sign up


class PasswordTests:
    @pytest.fixture
    def anna(self):
        return get_user_model().objects.create_user("anna", "anna@example.org", PASSWORD)

    def test_change_the_password(self, client, anna):
        client.force_login(anna)
        response = client.post(
            reverse("account_change_password"),
            {"oldpassword": PASSWORD, "password1": "another-secret-2", "password2": "another-secret-2"},
        )
        assert response.status_code == 302
        anna.refresh_from_db()
        assert anna.check_password("another-secret-2")

    def test_reset_the_password_by_the_link_in_the_mail(self, client, anna):
        response = client.post(reverse("account_reset_password"), {"email": "anna@example.org"})
        assert response.status_code == 302 and len(mail.outbox) == 1
        assert mail.outbox[0].to == ["anna@example.org"]
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)[1]
        form_page = client.get(link, follow=True)
        assert form_page.status_code == 200 and b"password1" in form_page.content
        response = client.post(
            form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
            {"password1": "another-secret-2", "password2": "another-secret-2"},
        )
        assert response.status_code == 302
        anna.refresh_from_db()
        assert anna.check_password("another-secret-2")
        assert (
            client.post(reverse("login"), {"login": "anna", "password": "another-secret-2"}).status_code
            == 302
        )


MAILER = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps(settings.MAILERS["default"]))
"""


class MailSettingsTests:
    def mailer(self, **env):
        full = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")} | env
        full |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1"}
        result = subprocess.run(
            [sys.executable, "-c", MAILER], cwd=ROOT, env=full, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def test_mail_goes_to_the_console_without_a_mail_server(self):
        assert self.mailer()["BACKEND"] == "django.core.mail.backends.console.EmailBackend"

    def test_mail_goes_to_the_smtp_server_the_environment_names(self):
        got = self.mailer(
            EMAIL_HOST="mail.example.org",
            EMAIL_PORT="465",
            EMAIL_HOST_USER="anna",
            EMAIL_HOST_PASSWORD="pw",
            EMAIL_USE_TLS="0",
            EMAIL_USE_SSL="1",
        )
        assert got["BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
        assert got["OPTIONS"] | {"timeout": None} == {
            "host": "mail.example.org",
            "port": 465,
            "username": "anna",
            "password": "pw",
            "use_tls": False,
            "use_ssl": True,
            "timeout": None,
        }


class AllauthLimitTests:
    def test_too_many_password_resets_get_the_sites_429_with_retry_after(self, client):
        """allauth's own limit: 5 resets a minute per email address (settings.ACCOUNT_RATE_LIMITS)."""
        codes = [
            client.post(reverse("account_reset_password"), {"email": "anna@example.org"}).status_code
            for _ in range(6)
        ]
        assert codes == [302] * 5 + [429]
        response = client.post(reverse("account_reset_password"), {"email": "anna@example.org"})
        assert response.status_code == 429 and response["Retry-After"]
        assert b"Too many attempts" in response.content
