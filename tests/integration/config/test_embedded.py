"""A safe embedded default on a shared network (issue 17 item 5): make run serves with DEBUG off
(no traceback or debug page for anyone), accepts this machine's LAN address, allows the demo login
only from the machine itself, and every error page is the project's own and says what to do."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from campaign.demo import demo_campaign_load
from config.network import lan_addresses
from tests.factories import UserFactory, campaign_with_houses

ROOT = Path(__file__).resolve().parents[3]
LAN_PHONE = "192.168.1.50"

READ = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({k: getattr(settings, k, None) for k in (
    "DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "DEMO_LOGIN",
    "CELERY_TASK_ALWAYS_EAGER", "ADMIN_FROM_NETWORK")} | {"engine": settings.DATABASES["default"]["ENGINE"],
    "key": bool(settings.SECRET_KEY)}))
"""


def embedded_settings(tmp_path, **env) -> dict:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "SECRET_KEY"}
    }
    full = {
        **base,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CHRONICLE_EMBEDDED": "1",
        "CHRONICLE_SECRET_KEY_FILE": str(tmp_path / "key"),
        **env,
    }
    result = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=full, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


class EmbeddedSettingsTests:
    def test_make_run_serves_sqlite_and_eager_tasks_with_debug_off_over_plain_http(self, tmp_path):
        got = embedded_settings(tmp_path)
        assert got["DEBUG"] is False
        assert got["engine"] == "django.db.backends.sqlite3" and got["CELERY_TASK_ALWAYS_EAGER"] is True
        assert got["SECURE_SSL_REDIRECT"] is not True and got["SESSION_COOKIE_SECURE"] is not True
        assert got["key"] and (tmp_path / "key").stat().st_mode & 0o077 == 0  # kept, private
        assert got["DEMO_LOGIN"] is True

    def test_the_lan_address_and_the_public_url_are_allowed_hosts_never_a_wildcard(self, tmp_path):
        got = embedded_settings(tmp_path, CHRONICLE_PUBLIC_URL="http://chronicle.home:8000")
        assert set(lan_addresses()) <= set(got["ALLOWED_HOSTS"])
        assert "chronicle.home" in got["ALLOWED_HOSTS"] and "*" not in got["ALLOWED_HOSTS"]
        assert {"localhost", "127.0.0.1"} <= set(got["ALLOWED_HOSTS"])

    def test_production_allowed_hosts_are_exactly_what_the_environment_says(self, tmp_path):
        got = embedded_settings(
            tmp_path,
            CHRONICLE_EMBEDDED="0",
            DEBUG="0",
            SECRET_KEY="x" * 60,
            ALLOWED_HOSTS="chronicle.example.org",
        )
        assert got["ALLOWED_HOSTS"] == ["chronicle.example.org"] and got["DEMO_LOGIN"] is False


@pytest.mark.django_db
class DemoLoginTests:
    def test_another_machine_is_refused_even_when_it_sends_host_localhost(self, client, settings):
        settings.DEMO_LOGIN = True
        demo_campaign_load()
        response = client.post(reverse("demo-login"), REMOTE_ADDR=LAN_PHONE, HTTP_HOST="localhost")
        assert response.status_code == 403
        assert "_auth_user_id" not in client.session
        home = client.get(reverse("home"), REMOTE_ADDR=LAN_PHONE, HTTP_HOST="localhost").content.decode()
        assert "Open the demo campaign" not in home

    def test_the_machine_itself_logs_in_as_demo(self, client, settings):
        settings.DEMO_LOGIN = True
        demo_campaign_load()
        assert (
            "Open the demo campaign" in client.get(reverse("home"), REMOTE_ADDR="127.0.0.1").content.decode()
        )
        assert client.post(reverse("demo-login"), REMOTE_ADDR="127.0.0.1").status_code == 302
        assert int(client.session["_auth_user_id"]) == get_user_model().objects.get(username="demo").pk

    def test_without_the_demo_setting_even_the_machine_itself_is_refused(self, client, settings):
        settings.DEMO_LOGIN = False
        demo_campaign_load()
        assert client.post(reverse("demo-login"), REMOTE_ADDR="127.0.0.1").status_code == 403
        assert "_auth_user_id" not in client.session


@pytest.mark.django_db
class ErrorPageTests:
    def test_a_wrong_join_link_says_to_ask_the_host_for_the_code(self, client):
        response = client.get(reverse("games:seat_page", args=["not-a-real-token"]))
        html = response.content.decode()
        assert response.status_code == 404
        assert "Ask the host to show your seat's code again" in html
        assert 'class="topbar"' in html and "Traceback" not in html and "URLconf" not in html

    def test_a_page_of_someone_elses_campaign_is_our_404_that_says_campaigns_are_for_members(self, client):
        campaign, _ = campaign_with_houses("Anna")
        client.force_login(UserFactory())
        response = client.get(reverse("campaign-detail", args=[campaign.pk]))
        assert response.status_code == 404
        assert "visible to its members only" in response.content.decode()

    def test_an_unknown_host_is_our_400_naming_the_address_to_use(self, client):
        response = client.get("/", HTTP_HOST="evil.example")
        assert response.status_code == 400
        assert "Phones join at" in response.content.decode()

    def test_the_500_page_renders_without_the_database_or_context_processors(self, django_assert_num_queries):
        request = RequestFactory().get("/")
        with django_assert_num_queries(0):
            response = server_error(request)
        html = response.content.decode()
        assert response.status_code == 500
        assert "Something went wrong on our side" in html and 'class="topbar"' in html


@pytest.mark.django_db
class StatusTests:
    """The health check says how changes reach the pages, as it is on this server."""

    def test_without_redis_changes_are_pushed_from_this_process(self, client, settings):
        settings.REDIS_URL = ""
        status = client.get("/healthz").json()
        assert (status["redis"], status["live_updates"]) == (
            "not configured",
            "pushed from this process (one server, no Redis)",
        )

    def test_with_redis_unreachable_the_pages_poll(self, client, settings):
        settings.REDIS_URL = "redis://127.0.0.1:9/0"  # the discard port: nothing answers
        status = client.get("/healthz").json()
        assert status["redis"] == "unreachable"
        assert status["live_updates"].startswith("polling")
        assert "Live updates" in client.get("/status/").content.decode()
