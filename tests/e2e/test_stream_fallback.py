"""Issue 27, item 3: a page whose event stream is refused (a seat, or the phones' address, past
its cap: 429 with Retry-After, games/live/caps.py) says "Live · polling" with the cap that refused
it, and still shows every change, by its poll (static/js/live.js). make run's server (uvicorn, SQLite, no Redis) with a seat cap of 0, so that
every seat stream is refused."""

import pytest

from tests.e2e import test_live_push
from tests.e2e.conftest import PHONE
from tests.e2e.test_live_push import GUARD_MS, _acting, _version, _wait_version

served_as_make_run = test_live_push.asgi_server  # the fixture, registered here by its own name

pytestmark = [pytest.mark.e2e]

POLLING = "Live · polling"


CAPS = {
    # The cap set to 0, and the label that names it (games/live/caps.py's words, as live.js puts them).
    "seat": ("CHRONICLE_MAX_STREAMS_PER_SEAT", POLLING + " · too many live streams for this seat"),
    "address": (
        "CHRONICLE_MAX_STREAMS_PER_ADDRESS",
        POLLING + " · too many live streams from this network address",
    ),
}


@pytest.fixture(autouse=True, params=sorted(CAPS))
def refused_streams(request, monkeypatch):
    """Read by ``served_as_make_run`` when it starts the server: every stream refused by one cap
    (a seat's; the phones' address's), a quick poll. The label the page must show."""
    variable, label = CAPS[request.param]
    monkeypatch.setenv(variable, "0")
    monkeypatch.setenv("CHRONICLE_POLL_SECONDS", "0.5")
    return label


class RefusedStreamFallbackTests:
    def test_a_refused_stream_falls_back_to_polling_names_its_cap_and_the_change_still_shows(
        self, served_as_make_run, new_page, refused_streams
    ):
        refusals = []
        phones = []
        for token in served_as_make_run["tokens"]:
            page = new_page(PHONE)
            page.on("response", lambda r: "/events/" in r.url and refusals.append(r.status))
            with page.expect_response(lambda r: "/events/" in r.url, timeout=GUARD_MS):
                page.goto(f"{served_as_make_run['url']}/play/seat/{token}/")
            phones.append(page)
        for page in phones:
            page.wait_for_function(
                "text => document.querySelector('[data-live-stream]').textContent === text",
                arg=refused_streams,
                timeout=GUARD_MS,
            )
        assert len(refusals) >= len(phones) and set(refusals) == {429}

        actor = _acting(phones)
        before = _version(phones[actor])
        phones[actor].locator("#seat-panel button.choice").first.click()
        for page in phones:  # the others by their poll: no stream is open
            _wait_version(page, before + 1)
        # A swapped panel brings the server's label; live.js words it again once htmx has settled it.
        for page in phones:
            page.wait_for_function(
                "text => document.querySelector('[data-live-stream]').textContent === text",
                arg=refused_streams,
                timeout=GUARD_MS,
            )
