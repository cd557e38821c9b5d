"""Browser tests: Playwright (Python) driving Debian's Chromium at /usr/bin/chromium (installed by
make test; never a browser download). Screenshots go to the folder SCREENSHOT_DIR names."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOT_DIR = Path(os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parents[2] / "screenshots"))
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1920, "height": 1080}

# Playwright's sync API runs an event loop in this thread; the Django test DB calls are still sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def quick_poll(settings):
    """pytest's live server is WSGI, so it cannot hold an event stream open: its pages live on the
    polling fallback (tests/e2e/test_live_push.py runs the real push server). A quick poll keeps a
    table of phones from waiting two seconds at every turn; the interval is the setting's lowest."""
    settings.LIVE_POLL_SECONDS = 0.2


# One browser per module, not per session: Playwright's sync API keeps an event loop running in this
# thread while it is open, and a later test of another module on the same xdist worker that calls
# async_to_sync (the event-stream tests) would find it and refuse to run.
@pytest.fixture(scope="module")
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"Chromium missing at {CHROMIUM}: make test installs Debian's chromium.")
        pytest.skip("Chromium not installed: run through make test")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(viewport=DESKTOP, **options):
        context = browser.new_context(viewport=viewport, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        path = SCREENSHOT_DIR / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def login(page, live_server, username, password="secret-pass"):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
