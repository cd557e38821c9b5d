"""Chronicle meets Chromium's installability criteria (the manifest, its icons, the service worker),
asked of the browser itself through the DevTools protocol. Its own browser with a profile on disk:
Chromium refuses to install from an incognito context, which every context of a shared browser is."""

import shutil

import pytest

from tests.e2e.conftest import CHROMIUM, DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_manifest_and_its_icons_meet_the_installability_criteria(live_server, tmp_path):
    if not shutil.which(CHROMIUM):
        pytest.skip("Chromium not installed: run through make test")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            viewport=DESKTOP,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
        )
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            cdp = context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
            assert manifest["errors"] == []
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            for icon in ("icon-192.png", "icon-512.png", "icon-maskable-512.png"):
                assert page.request.get(f"{live_server.url}/static/icons/{icon}").status == 200
            assert page.request.get(f"{live_server.url}/favicon.ico").status == 200
        finally:
            context.close()
