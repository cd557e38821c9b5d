"""Issue 29: the API's docs work on a home network without internet. Swagger UI and ReDoc load from
this site only (drf-spectacular-sidecar), draw the operations, and break no Content-Security-Policy."""

from urllib.parse import urlparse

import pytest

from tests.e2e.test_csp import watched

REDOCLY_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def offline(page, live_server) -> list[str]:
    """Abort every request to another host, as a Wi-Fi without internet would; return them."""
    here = urlparse(live_server.url).netloc
    elsewhere: list[str] = []

    def route(r):
        if urlparse(r.request.url).netloc == here or r.request.url.startswith(("data:", "blob:")):
            return r.continue_()
        elsewhere.append(r.request.url)
        return r.abort()

    page.route("**/*", route)
    return elsewhere


class ApiDocsTests:
    def test_swagger_ui_draws_the_operations_offline(self, new_page, live_server, screenshot):
        page = new_page()
        elsewhere, violations = offline(page, live_server), watched(page)
        page.goto(f"{live_server.url}/api/docs/")
        page.locator(".opblock").first.wait_for(timeout=20000)
        assert page.locator(".opblock").count() > 20
        assert page.get_by_text("Chronicle API").first.is_visible()
        screenshot(page, "api-docs-swagger")
        assert elsewhere == [] and violations == []
        assert page.evaluate("window.__csp") == []

    def test_redoc_draws_the_operations_offline(self, new_page, live_server):
        page = new_page()
        elsewhere, violations = offline(page, live_server), watched(page)
        page.goto(f"{live_server.url}/api/redoc/")
        page.locator("h1", has_text="Chronicle API").wait_for(timeout=20000)
        assert page.get_by_text("Submit an action for this seat", exact=False).count() > 0
        # ReDoc's bundle always shows Redocly's logo from their CDN; the page's policy blocks it before
        # any request leaves (the logo hides itself on error): the one violation, and no other.
        assert elsewhere == []
        assert all(REDOCLY_LOGO in v for v in violations)
        assert all(REDOCLY_LOGO in v for v in page.evaluate("window.__csp"))
