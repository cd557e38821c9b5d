"""Who may see or act for a seat or a night's table (games/access.py): one rule for the pages, the
API and the streams. What a campaign or the API says reaches it through what they register at
start-up; nothing registered is nothing allowed."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from campaign.access import member_name, night_kept_by
from campaign.services.game_nights import game_night_start
from games import access, selectors
from tests.factories import UserFactory, group_campaign
from tests.integration.api.conftest import device_token
from tests.integration.games.conftest import new_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """A night of a group's campaign hosted by a player (not the owner)."""
    owner, player, viewer = UserFactory(), UserFactory(), UserFactory()
    campaign = group_campaign(owner, player=player, viewer=viewer)
    houses = list(campaign.houses.order_by("number")[:3])
    session = game_night_start(campaign=campaign, houses=houses, king_name="Ben I", host=player, seed=1)
    return session, {"owner": owner, "player": player, "viewer": viewer}


@pytest.fixture
def unregistered(monkeypatch):
    """The hooks as they are before the campaign and the API register theirs."""
    for hook in ("campaign_night_rule", "member_names", "api_tokens"):
        monkeypatch.setattr(access.hooks, hook, None)


def _request(**meta):
    request = RequestFactory().get("/", **meta)
    request.user = AnonymousUser()
    return request


class RegisteredHooksTests:
    def test_the_campaign_and_the_api_register_their_hooks_at_start_up(self):
        assert access.hooks.campaign_night_rule is night_kept_by
        assert access.hooks.member_names is member_name
        assert access.hooks.api_tokens is not None

    def test_a_campaign_night_is_its_owners_and_its_playing_hosts_not_a_viewers(self, night):
        session, users = night
        assert access.session_kept_by(session=session, user=users["owner"])
        assert access.session_kept_by(session=session, user=users["player"])
        assert not access.session_kept_by(session=session, user=users["viewer"])
        assert not access.session_kept_by(session=session, user=UserFactory())


class NothingRegisteredTests:
    def test_without_the_campaigns_rule_nobody_keeps_a_campaigns_night(self, night, unregistered):
        session, users = night
        for who in ("owner", "player", "viewer"):
            assert not access.session_kept_by(session=session, user=users[who]), who
            assert access.session_table_for(session_id=session.pk, user=users[who]) is None, who

    def test_without_the_campaigns_rule_a_plain_session_is_still_its_hosts(self, unregistered):
        host = UserFactory()
        session = new_session(host=host)
        assert access.session_kept_by(session=session, user=host)
        assert not access.session_kept_by(session=session, user=UserFactory())

    def test_without_the_campaigns_names_a_seats_player_is_shown_by_username(self, night, unregistered):
        session, users = night
        from campaign.models import Membership

        Membership.objects.filter(user=users["player"]).update(display_name="Queen Bea")
        players = {seat.user_id: seat.member_name for seat in selectors.session_seats(session=session)}
        assert players.get(users["player"].pk) is None

    def test_with_the_campaigns_names_a_seats_player_has_their_campaign_name(self, night):
        session, users = night
        from campaign.models import Membership

        Membership.objects.filter(user=users["player"]).update(display_name="Queen Bea")
        players = {seat.user_id: seat.member_name for seat in selectors.session_seats(session=session)}
        assert players[users["player"].pk] == "Queen Bea"

    def test_without_the_apis_reader_an_api_token_opens_nothing(self, unregistered):
        host = UserFactory()
        session = new_session(host=host)
        device_token(host, "host-key")
        request = _request(HTTP_AUTHORIZATION="Bearer host-key")
        assert access.session_of_token_host(request, session_id=session.pk) is None
        refusal = access.session_stream_reader(request, session.pk)
        assert refusal == access.Refusal(401, access.STREAM_TOKEN_REFUSED, "authentication_failed")
        assert access.request_account(request) is None

    def test_with_the_apis_reader_the_hosts_token_opens_the_table(self):
        host = UserFactory()
        session = new_session(host=host)
        device_token(host, "host-key")
        assert access.session_of_token_host(
            _request(HTTP_AUTHORIZATION="Bearer host-key"), session_id=session.pk
        )
        assert (
            access.session_stream_reader(_request(HTTP_AUTHORIZATION="Bearer host-key"), session.pk) is None
        )
        assert access.request_account(_request(HTTP_AUTHORIZATION="Bearer host-key")) == host.pk
