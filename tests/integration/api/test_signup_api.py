"""Sign up through the API (issue 24 item 5): the site's sign-up rules (django-allauth's form, the
password validators), a token for the device, never the install's administrator, the same limit per
client address as the sign-up page; every refusal a 400 with its reason and no account made."""

import pytest
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core import mail
from django.urls import reverse

from api.accounts.services import SIGNUP_CONFIRM_EMAIL_FIRST
from api.models import DeviceToken
from config.api_errors import TOO_MANY_ATTEMPTS
from config.ratelimits import LOGIN_ATTEMPTS, LOGIN_WINDOW
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = reverse("api:signup")
CAMPAIGNS = reverse("api:campaign-list")
PASSWORD = "a-long-secret-1"
Users = get_user_model().objects


def body(**changes):
    return {
        "username": "anna",
        "email": "anna@example.org",
        "password": PASSWORD,
        "device": "Anna's phone",
    } | changes


def sign_up(client, **changes):
    return client.post(SIGNUP, body(**changes), format="json")


def nothing_written(users_before: int) -> bool:
    return Users.count() == users_before and not DeviceToken.objects.exists()


class SignupTests:
    def test_an_account_and_a_token_for_this_device_that_authenticates(self, anonymous):
        response = sign_up(anonymous)
        assert response.status_code == 201
        answer = response.json()
        assert answer["username"] == "anna" and answer["device"] == "Anna's phone"
        assert DeviceToken.objects.get(pk=answer["id"]).user == Users.get(username="anna")
        anonymous.credentials(HTTP_AUTHORIZATION=f"Token {answer['token']}")
        assert anonymous.get(CAMPAIGNS).status_code == 200
        assert anonymous.get(reverse("api:device-list")).json()[0]["name"] == "Anna's phone"

    def test_the_account_logs_in_on_the_site_and_gets_the_sites_confirmation_mail(self, anonymous, client):
        sign_up(anonymous)
        assert client.login(username="anna", password=PASSWORD)
        assert EmailAddress.objects.get(user__username="anna").email == "anna@example.org"
        assert [m.to for m in mail.outbox] == [["anna@example.org"]]

    def test_the_username_is_kept_in_lower_case_as_on_the_site(self, anonymous):
        assert sign_up(anonymous, username="Anna").json()["username"] == "anna"


class SignupRefusalTests:
    @pytest.mark.parametrize("username", ["anna", "ANNA"])
    def test_a_taken_username_whatever_its_case(self, anonymous, username):
        UserFactory(username="anna")
        before = Users.count()
        response = sign_up(anonymous, username=username, email="other@example.org")
        assert response.status_code == 400
        message = str(DefaultAccountAdapter.error_messages["username_taken"])
        assert response.json()["message"] == f"username: {message}"
        assert nothing_written(before)

    def test_a_taken_email_address(self, anonymous):
        sign_up(anonymous)
        DeviceToken.objects.all().delete()
        before = Users.count()
        response = sign_up(anonymous, username="ben")
        assert response.status_code == 400
        message = str(DefaultAccountAdapter.error_messages["email_taken"])
        assert response.json()["message"] == f"email: {message}"
        assert nothing_written(before)

    def test_a_password_too_short(self, anonymous):
        response = sign_up(anonymous, password="short1")
        assert response.status_code == 400
        assert response.json()["message"] == "password: Ensure this field has at least 8 characters."
        assert nothing_written(0)

    def test_the_sites_password_validators_apply(self, anonymous, settings):
        """Whatever AUTH_PASSWORD_VALIDATORS the install sets: here a common and a numeric one."""
        settings.AUTH_PASSWORD_VALIDATORS = [
            {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
            {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
            {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
        ]
        common = sign_up(anonymous, password="qwertyuiop")
        assert common.status_code == 400
        assert common.json()["message"] == "password: This password is too common."
        numeric = sign_up(anonymous, password="8305193746")
        assert numeric.json()["message"] == "password: This password is entirely numeric."
        assert nothing_written(0)

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"email": "not-an-address"}, "email: Enter a valid email address."),
            ({"email": ""}, "email: This field may not be blank."),
            ({"username": "anna smith"}, f"username: {UnicodeUsernameValidator.message}"),
            ({"username": 12}, f"username: {UnicodeUsernameValidator.message}"),
            ({"password": 12345678}, "password: Not a valid string."),
            (
                {"device": "phone\u202e"},
                "device: A name cannot hold control characters (such as NUL, ESC or U+202E).",
            ),
        ],
    )
    def test_bad_input_names_its_field(self, anonymous, changes, message):
        response = sign_up(anonymous, **changes)
        assert response.status_code == 400
        assert response.json()["message"] == message
        assert nothing_written(0)

    def test_a_missing_email_is_refused_as_the_site_asks_for_one(self, anonymous):
        response = anonymous.post(SIGNUP, {"username": "anna", "password": PASSWORD}, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == "email: This field is required."
        assert nothing_written(0)


class SignupConfirmationFirstTests:
    """CHRONICLE_EMAIL_VERIFICATION=mandatory: the site logs nobody in before the address is
    confirmed; the API answers 202 without a token, and says nothing of an address in use."""

    def test_a_new_account_gets_the_mail_and_no_token(self, anonymous, settings):
        settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
        response = sign_up(anonymous)
        assert response.status_code == 202
        assert response.json() == {"message": SIGNUP_CONFIRM_EMAIL_FIRST}
        assert Users.filter(username="anna").exists() and not DeviceToken.objects.exists()
        assert [m.to for m in mail.outbox] == [["anna@example.org"]]

    def test_an_address_in_use_answers_the_same_and_makes_no_account(self, anonymous, settings):
        settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
        sign_up(anonymous)
        mail.outbox.clear()
        response = sign_up(anonymous, username="ben")
        assert response.status_code == 202
        assert response.json() == {"message": SIGNUP_CONFIRM_EMAIL_FIRST}
        assert not Users.filter(username="ben").exists()
        assert [m.to for m in mail.outbox] == [["anna@example.org"]]  # "you have an account already"


class SignupRateLimitTests:
    def test_signing_up_is_limited_per_address_with_retry_after(self, anonymous):
        answers = [
            sign_up(anonymous, username=f"u{i}", email=f"u{i}@example.org") for i in range(LOGIN_ATTEMPTS + 1)
        ]
        assert {a.status_code for a in answers[:LOGIN_ATTEMPTS]} == {201}
        assert answers[-1].status_code == 429
        assert answers[-1].json() == {"message": TOO_MANY_ATTEMPTS, "code": "throttled", "extra": {}}
        assert 0 < int(answers[-1]["Retry-After"]) <= LOGIN_WINDOW  # when the first sign-ups leave the window
        assert Users.count() == LOGIN_ATTEMPTS

    def test_the_page_and_the_api_count_together(self, anonymous, client):
        for i in range(LOGIN_ATTEMPTS):
            client.post(reverse("account_signup"), {"username": f"p{i}", "email": "bad"})
        assert sign_up(anonymous).status_code == 429
        assert not Users.filter(username="anna").exists()
