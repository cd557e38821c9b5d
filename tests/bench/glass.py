"""make bench, section "tap to glass" (issue 27, item 1): Chromium phones at a table, as people see
it. Debian's Chromium driven by Playwright (as tests/e2e does), on the same machine as the server, so
the pages' clocks (``performance.timeOrigin + performance.now()``) and the tap's agree.

A For the King table of 5 seats and 6 Chromium phones (issue 27: "with 6 Chromium phones"): the 5
seat phones and a second phone on seat 0. Each page notes when a panel of each version first enters its
document (a MutationObserver on ``data-version``: the swap, before the paint). A tap is a click on the
acting phone's first choice, timed in that page just before the click; the figure is the time from it
to the moment the last of the 5 other phones has the new panel. Beside it, in the same run, between
taps, the panel GET alone two ways: as a page does it (a phone fetches its panel and morphs it in:
live.js's refresh, timed in the page until the morph is done) and from a plain client (``HX-Request``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import time

from tests.bench.server import HOST, ROOT, BenchError, request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TAPS = 60
WARM_TAPS = 3
PANEL_GETS_PER_TAP = 3
WAIT_MS = 5000
GAP = 0.3  # between one tap shown everywhere and the next
SETTLE = 0.3  # after a tap, before the bench reads the pages' times (a slower page is awaited)

CREATE_TABLE = """
import json, sys
from django.contrib.auth import get_user_model
from games.services.sessions import session_create
seed = int(sys.argv[1])
host = get_user_model().objects.create_user(username=f"bench-host-{seed}", password="bench-pass-1234")
s = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo", "Dario", "Emma"], host=host, seed=seed)
print(json.dumps({"id": s.pk, "tokens": [seat.token for seat in s.seats.order_by("index")]}))
"""

# Each page: when a panel of each version first entered the document (ms, the machine's clock), and
# a promise per version for the bench to await. The bench never polls a page: Playwright's
# ``wait_for_function`` polls on every animation frame and a DOM query loop wakes every page, which
# would spend the very CPU the figure measures (7 pages share 2 cores with the servers).
SHOWN = """
window.__shown = {};
window.__nudged = {};
document.addEventListener("htmx:sseMessage", function (evt) {
  try {
    var v = String(JSON.parse(evt.detail.data).version);
    if (!(v in window.__nudged)) window.__nudged[v] = performance.timeOrigin + performance.now();
  } catch (e) {}
});
// The panel fetches (live.js's refresh): when each was sent and answered (its headers), so the bench
// can split the last phone's time into the nudge, the panel GET and the morph.
window.__fetches = [];
(function () {
  var send = window.fetch;
  window.fetch = function () {
    var sent = {start: performance.timeOrigin + performance.now()};
    window.__fetches.push(sent);
    if (window.__fetches.length > 40) window.__fetches.shift();
    return send.apply(this, arguments).then(function (response) {
      sent.answered = performance.timeOrigin + performance.now();
      return response;
    });
  };
})();
window.__phases = function (v) {
  var shown = window.__shown[v], nudged = window.__nudged[v];
  var fetched = window.__fetches.filter(function (f) {
    return f.start >= nudged && f.answered && f.answered <= shown;
  }).pop();
  return fetched ? [nudged, fetched.answered, shown] : null;
};
window.__waiting = {};
window.__whenShown = function (v, ms) {
  if (v in window.__shown) return Promise.resolve(window.__shown[v]);
  return new Promise(function (resolve, reject) {
    (window.__waiting[v] = window.__waiting[v] || []).push(resolve);
    setTimeout(function () { reject(new Error("version " + v + " not shown in " + ms + " ms")); }, ms);
  });
};
(function () {
  function look() {
    var panel = document.querySelector("[data-version]");
    if (!panel) return;
    var v = panel.getAttribute("data-version");
    if (v in window.__shown) return;
    window.__shown[v] = performance.timeOrigin + performance.now();
    (window.__waiting[v] || []).forEach(function (resolve) { resolve(window.__shown[v]); });
    delete window.__waiting[v];
  }
  new MutationObserver(look).observe(document, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["data-version"],
  });
})();
"""
# A phone's own refresh alone: from asking live.js for the panel ("session-changed", as the version
# poll does) until its morph is done (Idiomorph.morph wrapped while it runs), in the page's clock.
REDRAW = """ms => new Promise(function (resolve, reject) {
  var morph = Idiomorph.morph;
  var t0 = performance.timeOrigin + performance.now();
  var timer = setTimeout(function () { Idiomorph.morph = morph; reject(new Error("no refresh in " + ms + " ms")); }, ms);
  Idiomorph.morph = function () {
    var out = morph.apply(this, arguments);
    Idiomorph.morph = morph;
    clearTimeout(timer);
    resolve(performance.timeOrigin + performance.now() - t0);
    return out;
  };
  document.dispatchEvent(new CustomEvent("session-changed"));
})"""
LIVE = "() => (document.querySelector('[data-live-stream]') || {}).textContent === 'Live'"
TAP = """() => {
  const button = document.querySelector("#seat-panel button.choice");
  const t = performance.timeOrigin + performance.now();
  button.click();
  return t;
}"""


# ---- Where the CPU goes (read from /proc, as `top` would) ------------------------------------------

CPU_KINDS = (
    ("renderer", "Chromium: the pages' main threads (script, style, layout, paint)"),
    ("chromium", "Chromium: the rest (browser, network, compositing, raster)"),
    ("server", "the server's processes"),
    ("databases", "PostgreSQL and Redis"),
    ("driver", "the bench: Playwright's driver and this process"),
)


def _kind(pid: str, comm: str, cmdline: str) -> str | None:
    if comm == "chromium":
        return "chromium"
    if "config.asgi" in cmdline:
        return "server"
    if comm in ("postgres", "redis-server"):
        return "databases"
    if comm.startswith("node") or pid == str(os.getpid()) or "playwright" in cmdline:
        return "driver"
    return None


def _times(stat: str, tick: int) -> float:
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / tick


def cpu_seconds() -> dict[str, float]:
    """CPU time (user + system) of every process on the machine, summed by kind. A process's own
    line counts its threads that have ended too (a server's per-request threads); a page's main
    thread (a renderer's first thread) is read apart from the rest of Chromium."""
    tick, totals = os.sysconf("SC_CLK_TCK"), dict.fromkeys((k for k, _ in CPU_KINDS), 0.0)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            comm = open(f"/proc/{pid}/comm").read().strip()  # noqa: SIM115
            # A zygote's children rewrite their command line: one string, spaces instead of NULs.
            cmdline = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")  # noqa: SIM115
            kind = _kind(pid, comm, cmdline)
            if kind is None:
                continue
            total = _times(open(f"/proc/{pid}/stat").read(), tick)  # noqa: SIM115
            if kind == "chromium" and "--type=renderer" in cmdline:
                main = _times(open(f"/proc/{pid}/task/{pid}/stat").read(), tick)  # noqa: SIM115
                totals["renderer"] += main
                total -= main
            totals[kind] += total
        except (OSError, ValueError):
            continue  # a process that ended meanwhile
    return totals


def table_with_host(env: dict[str, str], seed: int) -> dict:
    """A table of 5 seats (and its host), in the database ``env`` names."""
    script = f"import sys; sys.argv = ['x', '{seed}']\n" + CREATE_TABLE
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-v0", "-c", script],
        env=env, cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode:
        raise BenchError(f"creating the table failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def chromium():
    if not os.path.exists(CHROMIUM):
        raise BenchError(f"Chromium is missing at {CHROMIUM} (make test installs Debian's chromium).")
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                  "--disable-backgrounding-occluded-windows"],
        )  # fmt: skip
        try:
            yield browser
        finally:
            browser.close()


def _pages(browser, port: int, table: dict) -> list:
    """The 6 phones (5 seats, a second on seat 0), each pushed ("Live")."""
    from playwright.sync_api import Error as PlaywrightError

    base = f"http://{HOST}:{port}"
    pages = []
    for token in [*table["tokens"], table["tokens"][0]]:
        context = browser.new_context(viewport={"width": 375, "height": 812})
        context.add_init_script(SHOWN)
        page = context.new_page()
        page.goto(f"{base}/play/seat/{token}/")
        pages.append(page)
    for page in pages:
        try:
            page.wait_for_function(LIVE, timeout=WAIT_MS * 4)
        except PlaywrightError as exc:
            label = page.evaluate("() => (document.querySelector('[data-live-stream]') || {}).textContent")
            raise BenchError(f"{page.url} is not pushed (its label: {label!r})") from exc
    return pages


def _acting(phones: list) -> tuple[int, bool]:
    """The phone told "Your turn", and whether it shows a choice to tap (a choice with fields to fill,
    e.g. a King card's tiles, is played through the API instead, untimed). Asked once the pages show
    the same version; asked again after a pause only if no phone has the turn yet."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for i, page in enumerate(phones):
            if page.locator(".turn-banner.yours").count():
                return i, bool(page.locator("#seat-panel button.choice").count())
        time.sleep(0.1)
    banners = [p.evaluate("() => (document.querySelector('.turn-banner') || {}).textContent") for p in phones]
    raise BenchError(f"no phone has the turn: {banners}")


def _version(page) -> int:
    return int(page.get_attribute("[data-version]", "data-version"))


def _shown(page, version: int) -> float:
    return page.evaluate("([v, ms]) => window.__whenShown(String(v), ms)", [version, WAIT_MS])


def _panel_gets(port: int, token: str, count: int, out: list) -> None:
    for _ in range(count):
        t0 = time.perf_counter()
        status, _ = request(
            port, "GET", f"/play/seat/{token}/", headers={"HX-Request": "true", "Accept": "text/html"}
        )
        if status != 200:
            raise BenchError(f"the panel GET answered {status}")
        out.append(time.perf_counter() - t0)


def taps(browser, port: int, table: dict, count: int = TAPS) -> dict:
    """``count`` taps at the table (after WARM_TAPS): each one's time to every other phone and to the
    tapping phone's own panel, and the panel GET alone (a page's refresh, a plain client),
    interleaved; in seconds."""
    from tests.bench.push import submit

    phones = _pages(browser, port, table)
    warm = WARM_TAPS
    everyone, own, panel, redraw, nudged, phases = [], [], [], [], [], []
    played = {"id": table["id"], "tokens": dict(enumerate(table["tokens"]))}
    rng = random.Random(table["id"])
    changes, cpu_before = 0, None
    while len(everyone) < count:
        actor, tappable = _acting(phones)
        if warm == 0 and cpu_before is None:
            cpu_before, changes = cpu_seconds(), 0
        version = _version(phones[actor]) + 1
        if not tappable:
            submit(port, {**played, "active": actor % 5}, rng)
            for page in phones:
                _shown(page, version)
            changes += 1
            continue
        tapped = phones[actor].evaluate(TAP)
        # The pages time themselves: the bench reads them once they are done, so that its own calls
        # (Playwright's driver, the browser's DevTools pipe) take no CPU from the redraws it times.
        time.sleep(SETTLE)
        others = [p for i, p in enumerate(phones) if i != actor]
        times = [_shown(p, version) - tapped for p in others]
        mine = _shown(phones[actor], version) - tapped
        warm -= 1
        if warm < 0:
            got = [p.evaluate("v => window.__nudged[String(v)]", version) for p in others]
            if None not in got:
                nudged.append((max(got) - tapped) / 1000)
            last = others[times.index(max(times))]
            split = last.evaluate("v => window.__phases(String(v))", version)
            if split:  # the last phone: tap -> its nudge -> its panel GET answered -> shown
                nudged_at, answered, shown = split
                phases.append(
                    ((nudged_at - tapped) / 1000, (answered - nudged_at) / 1000, (shown - answered) / 1000)
                )
            everyone.append(max(times) / 1000)
            own.append(mine / 1000)
            _panel_gets(port, table["tokens"][(actor + 1) % 5], PANEL_GETS_PER_TAP, panel)
            for _ in range(PANEL_GETS_PER_TAP):
                redraw.append(phones[(actor + 1) % 5].evaluate(REDRAW, WAIT_MS) / 1000)
        changes += 1
        time.sleep(GAP)
    cpu_after = cpu_seconds()  # before the pages close: a closed page's threads are gone
    for page in phones:
        page.context.close()
    cpu = {k: (cpu_after[k] - cpu_before[k]) / max(1, changes) for k in cpu_after} if cpu_before else {}
    return {
        "everyone": everyone,
        "own": own,
        "panel": panel,
        "redraw": redraw,
        "nudged": nudged,
        "phases": phases,
        "cpu": cpu,
        "changes": changes,
    }
