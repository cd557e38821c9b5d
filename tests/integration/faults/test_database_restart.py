"""PostgreSQL gone in the middle of a request (issue 25: "Requests in flight when PostgreSQL
restarts answer 500"). The request's connection is terminated by the server, as a restart does,
while the view runs; a read is answered from a fresh connection, a write is a 503 with Retry-After
(the client sends it again) and nothing is half-written."""

import psycopg
import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from campaign import selectors
from campaign.models import Campaign
from config.db_faults import DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS
from tests.factories import UserFactory, campaign_with_houses

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def terminate_this_connection() -> None:
    """What a PostgreSQL restart does to a connection: the server ends it from its side."""
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def lost_once(monkeypatch):
    """The first campaign-list read of the request finds its connection terminated."""
    original = selectors.campaign_list_for_user
    calls = []

    def terminating(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            connection.ensure_connection()
            terminate_this_connection()
        return original(*args, **kwargs)

    monkeypatch.setattr(selectors, "campaign_list_for_user", terminating)
    return calls


class DatabaseRestartTests:
    def test_a_read_whose_connection_is_lost_is_read_again(self, client, lost_once):
        user = UserFactory()
        campaign, _ = campaign_with_houses("A", "B", "C", user=user)
        client.force_login(user)
        response = client.get(reverse("home"))
        assert response.status_code == 200 and campaign.name in response.content.decode()
        assert len(lost_once) == 2

    def test_an_api_read_too(self, lost_once):
        user = UserFactory()
        campaign_with_houses("A", "B", "C", user=user)
        api = APIClient()
        api.force_authenticate(user)
        response = api.get("/api/campaigns/")
        assert response.status_code == 200 and len(response.json()) == 1

    def test_a_write_whose_connection_is_lost_is_a_503_with_retry_after(self, monkeypatch):
        from campaign.services import houses

        user = UserFactory()
        api = APIClient()
        api.force_authenticate(user)
        original = houses.campaign_create

        def terminating(**kwargs):
            connection.ensure_connection()
            terminate_this_connection()
            return original(**kwargs)

        monkeypatch.setattr("api.campaigns.views.campaign_create", terminating)
        response = api.post("/api/campaigns/create/", {"name": "Lost"}, format="json")
        assert response.status_code == 503
        assert response.json()["message"] == DATABASE_UNAVAILABLE
        assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
        assert not Campaign.objects.filter(name="Lost").exists()
