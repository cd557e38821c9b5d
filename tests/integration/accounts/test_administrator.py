"""The install's administrator is chosen, not raced: no sign-up administers the install by being
first (a guest on the Wi-Fi could be first); ``make run`` prints a one-time link that makes the
administrator (config/administrator.py), and staff see a night's seat codes only in the admin."""

import io
import re
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from config.administrator import LINK_MAX_AGE, LINK_REFUSED, administrator_link_token
from games.services.sessions import session_create
from tests.integration.api.test_concurrency import race

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-1"
Users = get_user_model().objects
LAN = "192.168.1.20"
SIGNUP = reverse("api:signup")


def printed_link() -> str:
    """The link ``make run`` prints (manage.py administrator_link), as a path."""
    out = io.StringIO()
    call_command("administrator_link", stdout=out)
    (url,) = re.findall(r"http://localhost:8000(/admin/setup/\S+/)", out.getvalue())
    return url


def make_administrator(client, link: str, username: str = "root", password: str = PASSWORD, **extra):
    return client.post(link, {"username": username, "password1": password, "password2": password}, **extra)


def administrators() -> list[str]:
    return sorted(Users.filter(is_superuser=True, is_staff=True).values_list("username", flat=True))


class NoSignUpAdministersTests:
    def test_the_first_sign_up_of_a_fresh_install_administers_nothing(self, client):
        response = client.post(
            reverse("account_signup"),
            {"username": "anna", "email": "anna@example.org", "password1": PASSWORD, "password2": PASSWORD},
        )
        assert response.status_code == 302
        anna = Users.get(username="anna")
        assert not anna.is_superuser and not anna.is_staff

    def test_the_first_sign_up_through_the_api_administers_nothing(self, client):
        body = {"username": "anna", "email": "anna@example.org", "password": PASSWORD}
        assert client.post(SIGNUP, body, content_type="application/json").status_code == 201
        assert administrators() == []


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
class FirstSignUpRaceTests:
    def test_six_simultaneous_first_sign_ups_make_no_administrator(self):
        guests = iter(range(6))

        def sign_up():  # six guests on the Wi-Fi, each from its own phone
            i = next(guests)
            body = {"username": f"guest{i}", "email": f"guest{i}@example.org", "password": PASSWORD}
            return APIClient(REMOTE_ADDR=f"192.168.1.{20 + i}").post(SIGNUP, body, format="json").status_code

        assert race(sign_up, count=6) == [201] * 6
        assert Users.count() == 6
        assert administrators() == []

    def test_six_simultaneous_uses_of_the_link_make_one_administrator(self):
        link = printed_link()
        names = iter([f"root{i}" for i in range(6)])
        answers = race(lambda: make_administrator(Client(), link, username=next(names)).status_code, count=6)
        assert sorted(answers) == [302] + [410] * 5
        assert len(administrators()) == 1 and Users.count() == 1


class AdministratorLinkTests:
    def test_make_run_prints_the_link_while_there_is_no_administrator(self):
        assert printed_link().startswith("/admin/setup/")
        Users.create_superuser("root", "", PASSWORD)
        out = io.StringIO()
        call_command("administrator_link", stdout=out)
        assert out.getvalue() == ""

    def test_make_run_calls_the_command_that_prints_it(self):
        makefile = (Path(__file__).resolve().parents[3] / "Makefile").read_text()
        recipe = makefile.split("\nrun: install\n", 1)[1].split("\n\n", 1)[0]
        assert "manage.py administrator_link" in recipe

    def test_the_link_makes_one_administrator_and_logs_them_in(self, client):
        link = printed_link()
        assert client.get(link).status_code == 200
        response = make_administrator(client, link, username="Root")
        assert response.status_code == 302 and response.url == reverse("admin:index")
        assert administrators() == ["root"]
        assert client.get(reverse("admin:index")).status_code == 200

    def test_the_link_cannot_be_used_twice(self, client):
        link = printed_link()
        make_administrator(client, link)
        for again in (Client().get(link), make_administrator(Client(), link, username="mallory")):
            assert again.status_code == 410 and str(LINK_REFUSED) in again.content.decode()
        assert administrators() == ["root"] and Users.count() == 1

    def test_a_forged_or_expired_link_makes_nobody(self, client, monkeypatch):
        token = administrator_link_token()
        forged = "/admin/setup/" + token[:-2] + ("AA" if not token.endswith("AA") else "BB") + "/"
        assert make_administrator(client, forged).status_code == 410
        later = time.time() + LINK_MAX_AGE + 60
        monkeypatch.setattr(signing.time, "time", lambda: later)
        assert make_administrator(client, f"/admin/setup/{token}/").status_code == 410
        assert Users.count() == 0

    def test_a_weak_password_is_refused_and_nobody_is_made(self, client):
        response = make_administrator(client, printed_link(), password="short")
        assert response.status_code == 200 and b"errorlist" in response.content
        assert Users.count() == 0

    def test_under_make_run_the_link_opens_from_this_machine_only(self, client, settings):
        settings.ADMIN_FROM_NETWORK = False  # make run's default (config/admin_guard.py)
        link = printed_link()
        assert client.get(link, REMOTE_ADDR=LAN).status_code == 404
        assert make_administrator(client, link, REMOTE_ADDR=LAN).status_code == 404
        assert Users.count() == 0
        assert client.get(link).status_code == 200  # 127.0.0.1


class StaffSeeNoSeatCodesTests:
    """Staff open another group's table in the admin only (from this machine under make run): not
    through its pages or the API, where every seat's code is."""

    @pytest.fixture
    def night(self):
        host = Users.create_user("anna", "", PASSWORD)
        return session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], host=host)

    @pytest.fixture
    def staff(self, client):
        root = Users.create_superuser("root", "", PASSWORD)
        client.force_login(root)
        return root

    def test_the_api_gives_staff_no_seat_code(self, client, night, staff):
        base = f"/api/sessions/{night.pk}/"
        answers = [
            client.get(base + "table/"),
            client.get(base),
            client.post(base + "seats/0/join/", {}, content_type="application/json"),
            client.post(base + "seats/0/show-code/", {}, content_type="application/json"),
        ]
        assert [a.status_code for a in answers] == [403] * 4
        codes = list(night.seats.values_list("token", flat=True))
        assert not any(code in a.content.decode() for a in answers for code in codes)

    def test_the_table_page_and_its_stream_are_not_staffs(self, client, night, staff):
        assert client.get(reverse("games:session_table", args=[night.pk])).status_code == 404
        assert client.get(reverse("games:table_events", args=[night.pk])).status_code in (403, 404)
