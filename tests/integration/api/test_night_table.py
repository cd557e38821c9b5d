"""The table of a campaign's night through the API: its host's and, as on the table page, the
campaign owner's when the host's phone dies; nobody else's (api/sessions/callers.py)."""

import pytest
from django.urls import reverse

from campaign.services.game_nights import game_night_start
from games import access
from tests.factories import UserFactory, campaign_with_houses, group_campaign
from tests.integration.api.conftest import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """A night of a group's campaign hosted by a player (not the owner)."""
    owner, player, viewer = UserFactory(), UserFactory(), UserFactory()
    campaign = group_campaign(owner, player=player, viewer=viewer)
    houses = list(campaign.houses.order_by("number")[:3])
    session = game_night_start(campaign=campaign, houses=houses, king_name="Ben I", host=player, seed=1)
    return session, {"owner": owner, "player": player, "viewer": viewer, "stranger": UserFactory()}


def table(session):
    return reverse("api:session-table", kwargs={"session_id": session.pk})


class NightTableApiTests:
    def test_the_campaigns_owner_reads_the_table_view_as_the_table_page_lets_them(self, night):
        session, users = night
        assert access.session_table_for(session_id=session.pk, user=users["owner"]) == session
        answer = token_client(users["owner"]).get(table(session))
        assert answer.status_code == 200 and answer.json()["seat"] is None
        assert token_client(users["player"]).get(table(session)).status_code == 200

    def test_the_owner_acts_for_the_table_and_sees_the_join_tokens(self, night):
        session, users = night
        api = token_client(users["owner"])
        joined = api.post(
            reverse("api:seat-join", kwargs={"session_id": session.pk, "seat_index": 0}), {}, format="json"
        )
        assert joined.status_code == 200 and joined.json()["token"]

    def test_a_viewer_or_a_stranger_is_refused(self, night):
        session, users = night
        for who in ("viewer", "stranger"):
            assert token_client(users[who]).get(table(session)).status_code == 403, who

    def test_the_owner_of_another_campaign_is_refused(self, night):
        session, _users = night
        other = UserFactory()
        campaign_with_houses("Anna", "Ben", user=other)
        assert token_client(other).get(table(session)).status_code == 403
