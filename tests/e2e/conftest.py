"""Browser tests: Playwright (Python) driving Debian's Chromium at /usr/bin/chromium (installed by
make test; never a browser download). Screenshots go to the folder SCREENSHOT_DIR names."""

import collections
import os
import shutil
import time
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
        watch(page)
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            PAGE_LOGS.pop(page, None)
        context.close()


# What each page asked of the server and what came back, the last entries only: a test that waits in
# vain for a tap to be applied says where the tap went (tests/e2e/table.py's wait_applied).
PAGE_LOGS: dict = {}


# In the page itself, with the page's own clock (the events above reach Python only when it next
# calls Playwright): each htmx POST and its answer, with the version and key a tap sent.
HTMX_LOG = """(() => {
  const log = (window.__htmxLog = []);
  const note = (kind) => (evt) => {
    const cfg = evt.detail.requestConfig || {};
    if (String(cfg.verb).toLowerCase() !== "post") return; // not the version poll
    const data = cfg.formData;
    const xhr = evt.detail.xhr;
    log.push([Math.round(performance.now()), kind, cfg.verb, String(cfg.path || "").slice(0, 40),
      data && data.get ? data.get("version") + "/" + data.get("key") : "",
      xhr && xhr.readyState === 4 ? xhr.status : ""].join(" "));
    if (log.length > 80) log.shift();
  };
  ["htmx:beforeRequest", "htmx:beforeOnLoad", "htmx:beforeSwap", "htmx:afterRequest", "htmx:onLoadError", "htmx:xhr:loadend", "htmx:sendError", "htmx:responseError", "htmx:sendAbort"].forEach(
    (name) => document.addEventListener(name, note(name.slice(5))));
  ["click", "submit"].forEach((name) => document.addEventListener(name, (evt) => {
    const form = evt.target.closest ? evt.target.closest("form") : null;
    const d = form ? form["htmx-internal-data"] || {} : {};
    log.push([Math.round(performance.now()), name, evt.target.tagName, evt.target.name || "",
      form ? form.className : "-", d.xhr ? "busy" : "", d.initHash ? "processed" : "unprocessed",
      evt.defaultPrevented ? "prevented" : ""].join(" "));
  }, true));
  document.addEventListener("htmx:trigger", (evt) => log.push(Math.round(performance.now()) + " trigger " + evt.target.tagName));
})();"""


def watch(page) -> None:
    page.add_init_script(HTMX_LOG)
    log = PAGE_LOGS[page] = collections.deque(maxlen=60)
    start = time.monotonic()

    def note(text: str) -> None:
        log.append(f"{time.monotonic() - start:8.2f}s {text}")

    def request_line(request) -> str:
        return f"{request.method} {request.url.split('//', 1)[-1].split('/', 1)[-1][:70]}"

    page.on("request", lambda r: note(f"-> {request_line(r)}") if r.method == "POST" else None)
    page.on("requestfailed", lambda r: note(f"!! {request_line(r)} failed: {r.failure}"))
    page.on(
        "response",
        lambda r: (
            note(f"<- {request_line(r.request)} {r.status}")
            if r.request.method == "POST" or r.status not in (200, 204)
            else None
        ),
    )
    page.on(
        "console",
        lambda m: note(f"console {m.type}: {m.text[:200]}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: note(f"page error: {e}"))


def page_log(page) -> str:
    return "\n".join(PAGE_LOGS.get(page, ())) or "(nothing recorded)"


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
