"""The install's own password rules (config/settings.py AUTH_PASSWORD_VALIDATORS, Django's four): a
weak password (`password`, `12345678`, the username) is refused with a sentence saying why, at
sign-up on the page and through the API, at a password change and at a reset; no account is made
and the old password still works."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from api.models import DeviceToken

pytestmark = pytest.mark.django_db

Users = get_user_model().objects
STRONG = "a-long-secret-1"
TOO_COMMON = "This password is too common."
ALL_DIGITS = "This password is entirely numeric."
LIKE_THE_USERNAME = "The password is too similar to the username."
WEAK = [
    ("password", TOO_COMMON),
    ("12345678", TOO_COMMON),
    ("83051937", ALL_DIGITS),  # not in the common list: refused for its digits alone
    ("annavalentine", LIKE_THE_USERNAME),
]


@pytest.fixture
def anna():
    return Users.create_user("annavalentine", "anna@example.org", STRONG)


class SignUpPageTests:
    @pytest.mark.parametrize(("password", "reason"), WEAK)
    def test_a_weak_password_is_refused_with_its_reason(self, client, password, reason):
        response = client.post(
            reverse("account_signup"),
            {
                "username": "annavalentine",
                "email": "anna@example.org",
                "password1": password,
                "password2": password,
            },
        )
        assert response.status_code == 200
        assert reason in response.content.decode().replace("&#x27;", "'")
        assert not Users.filter(username="annavalentine").exists()


class SignUpApiTests:
    @pytest.mark.parametrize(("password", "reason"), WEAK)
    def test_a_weak_password_is_a_400_naming_the_field(self, password, reason):
        body = {"username": "annavalentine", "email": "anna@example.org", "password": password}
        response = APIClient().post(reverse("api:signup"), body, format="json")
        assert response.status_code == 400
        assert reason in response.json()["message"]
        assert response.json()["message"].startswith("password: ")
        assert not Users.filter(username="annavalentine").exists()
        assert not DeviceToken.objects.exists()

    def test_a_strong_password_is_taken(self):
        body = {"username": "annavalentine", "email": "anna@example.org", "password": STRONG}
        assert APIClient().post(reverse("api:signup"), body, format="json").status_code == 201


class PasswordChangeTests:
    @pytest.mark.parametrize(("password", "reason"), WEAK)
    def test_a_weak_new_password_is_refused_and_the_old_one_kept(self, client, anna, password, reason):
        client.force_login(anna)
        response = client.post(
            reverse("account_change_password"),
            {"oldpassword": STRONG, "password1": password, "password2": password},
        )
        assert response.status_code == 200
        assert reason in response.content.decode().replace("&#x27;", "'")
        anna.refresh_from_db()
        assert anna.check_password(STRONG)


class PasswordResetTests:
    @pytest.mark.parametrize(("password", "reason"), WEAK)
    def test_a_weak_password_by_the_mailed_link_is_refused(self, client, anna, password, reason):
        client.post(reverse("account_reset_password"), {"email": "anna@example.org"})
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)[1]
        form_page = client.get(link, follow=True)
        response = client.post(
            form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
            {"password1": password, "password2": password},
        )
        assert response.status_code == 200
        assert reason in response.content.decode().replace("&#x27;", "'")
        anna.refresh_from_db()
        assert anna.check_password(STRONG)
