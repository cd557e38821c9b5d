"""The demo account stays on the machine that runs Chronicle: it has no password (make run printed
one, which the log-in form and the API took from any phone on the Wi-Fi); its one-click login works
from this machine only; a password it is given there opens it from this machine only, on the log-in
form and through the API (config/accounts.py)."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape
from rest_framework.test import APIClient

from api.models import DeviceToken
from campaign.access import DEMO_USER
from campaign.demo import demo_campaign_load
from config.accounts import DEMO_ONLY_ON_THIS_MACHINE

pytestmark = pytest.mark.django_db

OLD_DEMO_PASSWORD = "chronicle-demo"  # what make run printed at start-up, and every install had
SET_AT_THE_MACHINE = "a-demo-secret-9"
LAN = "192.168.1.20"
LOOPBACK = "127.0.0.1"
TOKEN = reverse("api:token-obtain")


@pytest.fixture
def demo():
    demo_campaign_load()
    return get_user_model().objects.get(username=DEMO_USER)


def logged_in_as(client):
    return client.get(reverse("home")).wsgi_request.user


def log_in(client, password: str, address: str):
    return client.post(reverse("login"), {"login": DEMO_USER, "password": password}, REMOTE_ADDR=address)


def api_log_in(password: str, address: str):
    body = {"username": DEMO_USER, "password": password}
    return APIClient(REMOTE_ADDR=address).post(TOKEN, body, format="json")


class DemoPasswordTests:
    def test_make_run_prints_no_password_and_the_demo_has_none(self, demo):
        out = io.StringIO()
        call_command("load_demo", stdout=out)
        assert OLD_DEMO_PASSWORD not in out.getvalue() and "/" not in out.getvalue()
        assert not demo.has_usable_password()

    def test_an_install_whose_demo_had_the_printed_password_loses_it_at_the_next_start(self, demo):
        demo.set_password(OLD_DEMO_PASSWORD)
        demo.save()
        call_command("load_demo", stdout=io.StringIO())
        demo.refresh_from_db()
        assert not demo.has_usable_password()

    @pytest.mark.parametrize("address", [LAN, LOOPBACK])
    def test_the_old_printed_password_opens_nothing(self, client, demo, address):
        assert log_in(client, OLD_DEMO_PASSWORD, address).status_code == 200
        assert not logged_in_as(client).is_authenticated
        assert api_log_in(OLD_DEMO_PASSWORD, address).status_code == 400
        assert not DeviceToken.objects.exists()


class DemoFromAnotherDeviceTests:
    @pytest.fixture
    def demo(self, demo):
        demo.set_password(SET_AT_THE_MACHINE)  # as the password page would, logged in as demo here
        demo.save()
        return demo

    def test_the_log_in_form_refuses_the_demo_from_another_device(self, client, demo):
        response = log_in(client, SET_AT_THE_MACHINE, LAN)
        assert (
            response.status_code == 200
            and escape(str(DEMO_ONLY_ON_THIS_MACHINE)) in response.content.decode()
        )
        assert not logged_in_as(client).is_authenticated

    def test_the_api_gives_the_demo_no_token_on_another_device(self, demo):
        response = api_log_in(SET_AT_THE_MACHINE, LAN)
        assert response.status_code == 400 and str(DEMO_ONLY_ON_THIS_MACHINE) in str(response.json())
        assert not DeviceToken.objects.exists()

    def test_on_this_machine_the_demo_logs_in(self, client, demo):
        assert log_in(client, SET_AT_THE_MACHINE, LOOPBACK).status_code == 302
        assert logged_in_as(client) == demo
        assert api_log_in(SET_AT_THE_MACHINE, LOOPBACK).status_code == 200

    def test_the_one_click_login_stays_on_this_machine(self, client, demo):
        assert client.post(reverse("demo-login"), REMOTE_ADDR=LAN).status_code == 403
        assert client.post(reverse("demo-login"), REMOTE_ADDR=LOOPBACK).status_code == 302
        assert logged_in_as(client) == demo
