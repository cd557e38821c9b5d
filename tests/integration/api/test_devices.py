"""API tokens, one per device (issue 24, item 5): each log-in a new token with its device's name,
when it was last used, revoked one at a time."""

import datetime

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from api.accounts.services import DEVICE_UNNAMED
from api.authentication import LAST_USED_EVERY, TOKEN_EXPIRED
from api.models import DeviceToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OBTAIN = reverse("api:token-obtain")
REVOKE = reverse("api:token-revoke")
DEVICES = reverse("api:device-list")
CAMPAIGNS = reverse("api:campaign-list")


def device_revoke_url(device_id: int) -> str:
    return reverse("api:device-revoke", kwargs={"device_id": device_id})


def log_in(username: str = "anna", device: str | None = None) -> tuple[APIClient, dict]:
    client = APIClient()
    body = {"username": username, "password": "secret-pass"}
    if device is not None:
        body["device"] = device
    response = client.post(OBTAIN, body, format="json")
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client, response.json()


@pytest.fixture
def anna(db):
    return UserFactory(username="anna")


class TwoDevicesTests:
    def test_two_logins_give_two_tokens_that_both_work(self, anna):
        phone, first = log_in(device="Anna's phone")
        tablet, second = log_in(device="Anna's tablet")
        assert first["token"] != second["token"]
        assert (first["device"], second["device"]) == ("Anna's phone", "Anna's tablet")
        assert DeviceToken.objects.filter(user=anna).count() == 2
        assert phone.get(CAMPAIGNS).status_code == 200
        assert tablet.get(CAMPAIGNS).status_code == 200

    def test_only_a_digest_of_the_key_is_stored(self, anna):
        _, body = log_in()
        assert not DeviceToken.objects.filter(digest=body["token"]).exists()
        assert DeviceToken.objects.get(pk=body["id"]).digest != body["token"]

    def test_a_login_without_a_device_name_is_named_for_it(self, anna):
        _, body = log_in()
        assert body["device"] == DEVICE_UNNAMED
        assert DeviceToken.objects.get(pk=body["id"]).name == DEVICE_UNNAMED

    def test_revoking_the_current_token_leaves_the_other_device_logged_in(self, anna):
        phone, first = log_in(device="phone")
        tablet, _ = log_in(device="tablet")
        assert phone.post(REVOKE).status_code == 204
        assert not DeviceToken.objects.filter(pk=first["id"]).exists()
        refused = phone.get(CAMPAIGNS)
        assert refused.status_code == 401 and refused.json()["message"] == "Invalid token."
        assert tablet.get(CAMPAIGNS).status_code == 200

    def test_revoking_one_device_by_id_leaves_the_other_logged_in(self, anna):
        phone, first = log_in(device="phone")
        tablet, second = log_in(device="tablet")
        assert tablet.post(device_revoke_url(first["id"])).status_code == 204
        assert phone.get(CAMPAIGNS).status_code == 401
        assert tablet.get(CAMPAIGNS).status_code == 200
        assert list(DeviceToken.objects.values_list("pk", flat=True)) == [second["id"]]

    def test_revoking_the_current_token_from_a_browser_session_is_a_400_and_revokes_nothing(self, anna):
        log_in()
        browser = APIClient()
        browser.force_login(anna)
        response = browser.post(REVOKE)
        assert response.status_code == 400
        assert DeviceToken.objects.filter(user=anna).count() == 1


class DeviceListTests:
    def test_the_list_shows_each_device_with_its_name_and_which_one_is_current(self, anna):
        log_in(device="phone")
        tablet, second = log_in(device="tablet")
        rows = tablet.get(DEVICES).json()
        assert [(r["name"], r["current"]) for r in rows] == [("tablet", True), ("phone", False)]
        assert rows[0]["id"] == second["id"]
        assert set(rows[0]) == {"id", "name", "created", "last_used", "expires_at", "current"}

    def test_last_used_is_written_by_a_use_and_again_only_after_a_minute(self, anna):
        phone, body = log_in(device="phone")
        token = DeviceToken.objects.get(pk=body["id"])
        assert token.last_used is None
        phone.get(CAMPAIGNS)
        token.refresh_from_db()
        assert token.last_used is not None
        first_use = token.last_used
        phone.get(CAMPAIGNS)
        token.refresh_from_db()
        assert token.last_used == first_use  # within the minute: not written again
        stale = timezone.now() - LAST_USED_EVERY - datetime.timedelta(seconds=1)
        DeviceToken.objects.filter(pk=token.pk).update(last_used=stale)
        row = phone.get(DEVICES).json()[0]
        token.refresh_from_db()
        assert token.last_used > stale
        assert row["last_used"] is not None

    def test_a_fresh_last_use_costs_no_query_and_a_stale_one_one_update(self, anna):
        phone, body = log_in(device="phone")
        phone.get(CAMPAIGNS)  # the first use: written
        with CaptureQueriesContext(connection) as fresh:
            phone.get(CAMPAIGNS)
        DeviceToken.objects.filter(pk=body["id"]).update(last_used=timezone.now() - LAST_USED_EVERY)
        with CaptureQueriesContext(connection) as stale:
            phone.get(CAMPAIGNS)
        updates = [q["sql"] for q in stale.captured_queries if q["sql"].startswith("UPDATE")]
        assert len(stale) == len(fresh) + 1
        assert len(updates) == 1 and "api_devicetoken" in updates[0]

    def test_another_users_device_cannot_be_revoked_it_is_a_404(self, anna):
        UserFactory(username="bruno")
        bruno, bruno_body = log_in("bruno")
        anna_client, _ = log_in("anna")
        response = anna_client.post(device_revoke_url(bruno_body["id"]))
        assert response.status_code == 404
        assert DeviceToken.objects.filter(pk=bruno_body["id"]).exists()
        assert bruno.get(CAMPAIGNS).status_code == 200

    def test_the_list_shows_only_ones_own_devices(self, anna):
        UserFactory(username="bruno")
        log_in("bruno", device="Bruno's phone")
        anna_client, _ = log_in("anna", device="Anna's phone")
        assert [r["name"] for r in anna_client.get(DEVICES).json()] == ["Anna's phone"]

    def test_the_device_list_needs_authentication(self):
        assert APIClient().get(DEVICES).status_code == 401
        assert APIClient().post(device_revoke_url(1)).status_code == 401


class ExpiryTests:
    def test_an_expired_token_is_401_with_the_expired_message_and_the_other_device_works(self, anna):
        phone, first = log_in(device="phone")
        tablet, _ = log_in(device="tablet")
        DeviceToken.objects.filter(pk=first["id"]).update(
            created=timezone.now() - datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME + 1)
        )
        response = phone.get(CAMPAIGNS)
        assert response.status_code == 401
        assert response.json()["message"] == TOKEN_EXPIRED
        assert tablet.get(CAMPAIGNS).status_code == 200

    def test_an_inactive_users_token_is_refused(self, anna):
        phone, _ = log_in()
        anna.is_active = False
        anna.save()
        assert phone.get(CAMPAIGNS).status_code == 401


class EarlierTokenMigrationTests:
    def test_a_one_per_user_token_becomes_a_device_that_keeps_working(self, anna):
        import importlib

        from django.apps import apps
        from rest_framework.authtoken.models import Token

        from api.models import EARLIER_LOGIN

        earlier = Token.objects.create(user=anna)
        importlib.import_module("api.migrations.0002_move_earlier_tokens").move_tokens(apps, None)
        assert not Token.objects.exists()
        device = DeviceToken.objects.get(user=anna)
        assert (device.name, device.created) == (EARLIER_LOGIN, earlier.created)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {earlier.key}")
        assert client.get(CAMPAIGNS).status_code == 200


class DeviceTokenAdminTests:
    def test_staff_see_each_device_and_may_revoke_one_but_not_make_one(self, anna, client):
        from django.contrib.auth import get_user_model

        _, body = log_in(device="Anna's lost phone")
        root = get_user_model().objects.create_superuser("root", "root@example.org", "secret-pass")
        client.force_login(root)
        listing = client.get("/admin/api/devicetoken/")
        assert listing.status_code == 200 and "Anna&#x27;s lost phone" in listing.content.decode()
        assert client.get("/admin/api/devicetoken/add/").status_code == 403
        deleted = client.post(f"/admin/api/devicetoken/{body['id']}/delete/", {"post": "yes"})
        assert deleted.status_code == 302
        assert not DeviceToken.objects.exists()


class DeviceNameTests:
    def test_a_device_name_with_control_characters_is_a_400_and_no_token(self, anna):
        from api.fields import NAME_CONTROL_CHARACTERS

        body = {"username": "anna", "password": "secret-pass", "device": "phone\u202e"}
        response = APIClient().post(OBTAIN, body, format="json")
        assert response.status_code == 400
        assert str(NAME_CONTROL_CHARACTERS) in str(response.json())
        assert not DeviceToken.objects.exists()

    def test_the_service_refuses_one_too(self, anna):
        from django.core.exceptions import ValidationError

        from api.accounts.services import token_obtain

        with pytest.raises(ValidationError):
            token_obtain(user=anna, device="phone\x1b")
        assert not DeviceToken.objects.exists()

    def test_a_login_clears_the_users_expired_tokens_and_keeps_the_others(self, anna):
        _, old = log_in(device="old phone")
        _, kept = log_in(device="tablet")
        DeviceToken.objects.filter(pk=old["id"]).update(
            created=timezone.now() - datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME + 1)
        )
        _, new = log_in(device="new phone")
        assert set(DeviceToken.objects.values_list("pk", flat=True)) == {kept["id"], new["id"]}
