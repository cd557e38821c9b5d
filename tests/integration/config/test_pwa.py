"""The installable app's files (config/pwa.py): the manifest, the service worker, the favicon and the
offline page answer at the site's root with their content types; every page links the manifest and
the theme colour; log-out tells the browser to drop its cached pages; make run takes its PORT."""

import json
import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from config import network
from config.network import NO_LAN, serving_message
from config.pwa import BACKGROUND_COLOUR, OFFLINE_TITLE, THEME_COLOUR
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG)
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


class ManifestTests:
    def test_the_manifest_names_the_app_its_icons_and_its_start(self, client):
        response = client.get("/manifest.webmanifest")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/manifest+json"
        manifest = json.loads(response.content)
        assert manifest["name"] == manifest["short_name"] == "Chronicle"
        assert manifest["start_url"] == "/" and manifest["scope"] == "/"
        assert manifest["display"] == "standalone"
        assert manifest["theme_color"] == THEME_COLOUR and manifest["background_color"] == BACKGROUND_COLOUR
        sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes

    def test_each_icon_is_a_png_of_its_declared_size(self, client):
        for icon in json.loads(client.get("/manifest.webmanifest").content)["icons"]:
            found = finders.find(icon["src"].removeprefix("/static/"))
            assert found, icon["src"]
            with open(found, "rb") as f:
                width, height = png_size(f.read())
            assert f"{width}x{height}" == icon["sizes"]

    def test_the_favicon_is_an_icon(self, client):
        response = client.get("/favicon.ico")
        assert response.status_code == 200
        assert response["Content-Type"] == "image/x-icon"
        body = b"".join(response.streaming_content)
        assert body[:4] == b"\x00\x00\x01\x00"  # an ICO header


class ServiceWorkerTests:
    def test_the_worker_answers_from_the_root_as_javascript_never_kept_stale(self, client):
        response = client.get("/sw.js")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/javascript")
        assert response["Service-Worker-Allowed"] == "/"
        assert response["Cache-Control"] == "no-cache"

    def test_the_worker_keeps_the_static_files_and_the_offline_page(self, client):
        text = client.get("/sw.js").content.decode()
        for url in ("/static/css/chronicle.css", "/static/js/live.js", "/static/js/pocket.js", "/offline/"):
            assert url in text
        assert re.search(r'var VERSION = "[0-9a-f]{12}"', text)
        assert "{%" not in text and "{{" not in text

    def test_the_offline_page_holds_nothing_of_the_member(self, client):
        user = UserFactory(username="walter")
        client.force_login(user)
        response = client.get("/offline/")
        assert response.status_code == 200
        text = response.content.decode()
        assert str(OFFLINE_TITLE) in text
        assert "walter" not in text and "csrf" not in text.lower()


class PageTests:
    def test_every_page_links_the_manifest_the_favicon_and_the_theme_colour(self, client):
        text = client.get("/accounts/login/").content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in text
        assert '<link rel="icon" href="/favicon.ico"' in text
        assert f'<meta name="theme-color" content="{THEME_COLOUR}">' in text
        assert 'src="/static/js/pocket.js" data-service-worker="/sw.js"' in text

    def test_log_out_tells_the_browser_to_drop_its_cached_pages(self, client):
        client.force_login(UserFactory())
        response = client.post("/accounts/logout/")
        assert response.status_code == 302
        assert response["Clear-Site-Data"] == '"cache"'
        assert "Clear-Site-Data" not in client.get("/accounts/logout/")


class MakeRunPortTests:
    """``make run PORT=…`` (8000 by default): uvicorn, the administrator's link and the phones' address
    it prints all use the port."""

    def recipe(self, *args: str) -> str:
        out = subprocess.run(
            ["make", "-n", "run", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        return out

    def test_the_port_is_8000_by_default_and_chosen_with_port(self):
        assert "--port 8000 " in self.recipe()
        recipe = self.recipe("PORT=8123")
        assert "--port 8123 " in recipe and "--port 8000" not in recipe
        assert "administrator_link --base-url http://localhost:8123" in recipe
        assert "-m config.network 8123" in recipe

    def test_the_message_names_this_machine_and_the_lan_address_on_the_port(self, monkeypatch):
        monkeypatch.setattr(network, "lan_addresses", lambda: ("192.168.1.23",))
        assert serving_message(8123) == (
            "Chronicle: open http://localhost:8123/ on this machine; phones on this network join at "
            "http://192.168.1.23:8123/"
        )
        monkeypatch.setattr(network, "lan_addresses", lambda: ())
        assert serving_message(8123).endswith(NO_LAN)
