"""/admin/ from this machine only under the embedded default (issue 24 item 6): make run serves the
whole home network, the admin answers only to loopback unless CHRONICLE_ADMIN_FROM_NETWORK opens it."""

import pytest

from tests.integration.config.test_embedded import embedded_settings

pytestmark = pytest.mark.django_db

LAN_PHONE = "192.168.1.50"


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "secret-pass"))
    return client


class AdminFromThisMachineTests:
    @pytest.mark.parametrize("path", ["/admin/", "/admin/login/", "/admin/auth/user/"])
    def test_a_lan_address_gets_404_under_the_embedded_default(self, admin_client, settings, path):
        settings.ADMIN_FROM_NETWORK = False
        assert admin_client.get(path, REMOTE_ADDR=LAN_PHONE).status_code == 404
        assert admin_client.post(path, REMOTE_ADDR=LAN_PHONE).status_code == 404

    def test_a_forwarded_header_does_not_open_it(self, admin_client, settings):
        settings.ADMIN_FROM_NETWORK = False
        response = admin_client.get("/admin/", REMOTE_ADDR=LAN_PHONE, HTTP_X_FORWARDED_FOR="127.0.0.1")
        assert response.status_code == 404

    @pytest.mark.parametrize("address", ["127.0.0.1", "::1"])
    def test_this_machine_administers(self, admin_client, settings, address):
        settings.ADMIN_FROM_NETWORK = False
        assert admin_client.get("/admin/", REMOTE_ADDR=address).status_code == 200

    def test_the_setting_opens_it_to_the_network(self, admin_client, settings):
        settings.ADMIN_FROM_NETWORK = True
        assert admin_client.get("/admin/", REMOTE_ADDR=LAN_PHONE).status_code == 200

    def test_the_rest_of_the_site_still_answers_the_network(self, client, settings):
        settings.ADMIN_FROM_NETWORK = False
        assert client.get("/accounts/login/", REMOTE_ADDR=LAN_PHONE).status_code == 200


class AdminSettingTests:
    def test_closed_under_make_run_open_in_production_and_on_request(self, tmp_path):
        assert embedded_settings(tmp_path)["ADMIN_FROM_NETWORK"] is False
        assert embedded_settings(tmp_path, CHRONICLE_ADMIN_FROM_NETWORK="1")["ADMIN_FROM_NETWORK"] is True
        production = {
            "CHRONICLE_EMBEDDED": "0",
            "DEBUG": "0",
            "SECRET_KEY": "x" * 60,
            "ALLOWED_HOSTS": "a.org",
        }
        assert embedded_settings(tmp_path, **production)["ADMIN_FROM_NETWORK"] is True
        closed = embedded_settings(tmp_path, **production, CHRONICLE_ADMIN_FROM_NETWORK="0")
        assert closed["ADMIN_FROM_NETWORK"] is False
