"""Content-Security-Policy (issue 14): every page is served with a policy that allows scripts and
styles from our own origin only; the charts carry no script at all."""

import pytest

from campaign.charts import CHARTS, SIZES
from campaign.demo import demo_campaign_load

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part for part in (p.strip() for p in header.split(";")) if part}


class PolicyTests:
    @pytest.mark.parametrize("path", ["/", "/accounts/login/", "/admin/login/", "/play/"])
    def test_pages_send_a_policy_without_inline_scripts(self, client, user, path):
        client.force_login(user)
        policy = directives(client.get(path))
        assert policy["default-src"] == "default-src 'self'"
        assert "unsafe-inline" not in policy["script-src"] and "unsafe-eval" not in policy["script-src"]
        assert policy["object-src"] == "object-src 'none'"
        assert policy["frame-ancestors"] == "frame-ancestors 'none'"


class ChartTests:
    def test_charts_have_no_script_at_all(self, client):
        campaign = demo_campaign_load()
        for svg in (render(campaign=campaign, size=size) for render in CHARTS.values() for size in SIZES):
            assert "<script" not in svg and "kozea.github.io" not in svg
        client.force_login(campaign.created_by)
        response = client.get(f"/campaigns/{campaign.pk}/charts/prestige.svg")
        assert response.status_code == 200
        assert "script-src 'none'" in response["Content-Security-Policy"]


class DocsTests:
    def test_the_api_docs_load_from_this_site_only(self, client, user):
        """Swagger UI and ReDoc come from our static files (drf-spectacular-sidecar): on a home
        network without internet the docs still work, and no page's policy allows another site."""
        client.force_login(user)
        for url in ("/api/docs/", "/api/redoc/"):
            response = client.get(url)
            assert response.status_code == 200
            policy = response["Content-Security-Policy"]
            assert "https:" not in policy and "http:" not in policy
            assert directives(response)["script-src"] == "script-src 'self'"
            assert "cdn.jsdelivr.net" not in response.content.decode()
            assert "fonts.googleapis.com" not in response.content.decode()
        assert "drf_spectacular_sidecar/swagger-ui-dist/" in client.get("/api/docs/").content.decode()
        assert "blob:" not in client.get("/")["Content-Security-Policy"]
