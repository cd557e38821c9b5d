"""A player's House is theirs (issue 24 item 4): the House page and the campaign page say who plays
each House ("you" for one's own); a night started from the campaign gives each House's seat to the
account that plays it, and that player opens it from their campaign page without scanning (it
counts as their phone joining); the table says so beside the code it keeps; the API lists one's
seats and the Houses one plays."""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.sessions.seat_views import SEAT_TAKEN_BY_PHONE
from campaign.models import House, Membership
from campaign.services import game_nights
from campaign.services.houses import campaign_create, house_create, membership_add
from games.models import Seat
from games.selectors import OPENS_FROM_CAMPAIGN
from games.services.seats import seat_rotate_token
from tests.factories import UserFactory
from tests.kings_dilemma_play import draft, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def group():
    """An owner, two players each playing a House, a viewer; a House played by someone without an
    account (a typed name)."""
    owner = UserFactory(username="olga")
    anna, ben, vera = UserFactory(username="anna"), UserFactory(username="ben"), UserFactory(username="vera")
    campaign = campaign_create(name="Our realm", created_by=owner)
    houses = [
        house_create(campaign=campaign, name="Valentine", number=1, user=anna),
        house_create(campaign=campaign, name="Martina", number=2, user=ben),
        house_create(campaign=campaign, name="Armin", number=3, player_name="Grandpa"),
    ]
    membership_add(campaign=campaign, user=vera, role=Membership.Role.VIEWER)
    return {"owner": owner, "anna": anna, "ben": ben, "vera": vera, "campaign": campaign, "houses": houses}


@pytest.fixture
def night(group):
    """The owner starts a night from the campaign with the three Houses."""
    return game_nights.game_night_start(
        campaign=group["campaign"], houses=group["houses"], king_name="Harald V", host=group["owner"], seed=5
    )


def logged_in(client, user):
    client.force_login(user)
    return client


def my_seat_url(session):
    return reverse("games:my_seat", args=[session.pk])


class HousePlayerTests:
    def test_the_house_page_names_the_account_the_typed_name_and_you(self, client, group):
        campaign, (valentine, martina, armin) = group["campaign"], group["houses"]
        logged_in(client, group["anna"])

        def page(house):
            return client.get(reverse("house-page", args=[campaign.pk, house.pk])).content.decode()

        assert "Played by you" in page(valentine)
        assert "Played by ben" in page(martina)
        assert "Played by Grandpa" in page(armin)

    def test_the_campaign_page_chips_say_who_plays_each_house(self, client, group):
        logged_in(client, group["ben"])
        html = client.get(reverse("campaign-detail", args=[group["campaign"].pk])).content.decode()
        assert "Played by anna" in html and "Played by you" in html and "Played by Grandpa" in html
        assert "Played by ben" not in html

    def test_the_name_typed_for_the_player_beats_the_username(self, client, group):
        """The name the group knows (kept in the House's player's name by the member services)
        is shown, not the account's username."""
        valentine = group["houses"][0]
        House.objects.filter(pk=valentine.pk).update(player_name="Annie")
        logged_in(client, group["owner"])
        html = client.get(reverse("house-page", args=[group["campaign"].pk, valentine.pk])).content.decode()
        assert "Played by Annie" in html and "Played by anna" not in html


class SeatUserTests:
    def test_a_night_started_from_the_campaign_gives_each_played_house_its_players_seat(self, group, night):
        users = dict(night.seats.values_list("index", "user_id"))
        assert users == {0: group["anna"].pk, 1: group["ben"].pk, 2: None}
        assert not night.seats.filter(joined_at__isnull=False).exists()  # nobody opened a seat yet

    def test_a_house_of_someone_no_longer_a_player_gives_no_seat(self, group):
        Membership.objects.filter(campaign=group["campaign"], user=group["ben"]).update(
            role=Membership.Role.VIEWER
        )
        session = game_nights.game_night_start(
            campaign=group["campaign"], houses=group["houses"], king_name="K", host=group["owner"], seed=5
        )
        assert session.seats.get(index=1).user_id is None
        assert session.seats.get(index=0).user_id == group["anna"].pk


class CampaignPageSeatTests:
    def test_a_player_at_a_running_night_sees_the_way_to_their_seat(self, client, group, night):
        logged_in(client, group["anna"])
        html = client.get(reverse("campaign-detail", args=[group["campaign"].pk])).content.decode()
        assert "Tonight's game:" in html and "open your seat (House Valentine)" in html
        assert my_seat_url(night) in html
        assert "House Martina)" not in html

    def test_nobody_else_sees_it_nor_anyone_once_the_night_is_over(self, client, group, night):
        for who in ("owner", "vera"):
            logged_in(client, group[who])
            html = client.get(reverse("campaign-detail", args=[group["campaign"].pk])).content.decode()
            assert "open your seat" not in html and my_seat_url(night) not in html
        night.status = night.Status.ABANDONED
        night.save()
        logged_in(client, group["anna"])
        html = client.get(reverse("campaign-detail", args=[group["campaign"].pk])).content.decode()
        assert "open your seat" not in html


class MySeatTests:
    def test_the_player_opens_their_own_seat_and_it_counts_as_joining(self, client, group, night):
        logged_in(client, group["ben"])
        response = client.get(my_seat_url(night))
        seat = Seat.objects.get(session=night, index=1)
        assert response.status_code == 302
        assert response["Location"] == reverse("games:seat_page", args=[seat.token])
        assert seat.joined_at is not None
        assert Seat.objects.get(session=night, index=0).joined_at is None
        page = client.get(response["Location"])
        assert page.status_code == 200 and "Martina" in page.content.decode()

    @pytest.mark.parametrize("who", ["owner", "vera", "stranger", "anonymous"])
    def test_anyone_without_a_seat_there_gets_404(self, client, group, night, who):
        """The owner hosts the night but plays no House; a viewer, a stranger and a visitor have no
        seat either: the same 404 as a session that does not exist (nothing marked joined)."""
        if who == "stranger":
            logged_in(client, UserFactory())
        elif who != "anonymous":
            logged_in(client, group[who])
        assert client.get(my_seat_url(night)).status_code == 404
        assert client.get(reverse("games:my_seat", args=[night.pk + 1000])).status_code == 404
        assert not Seat.objects.filter(session=night, joined_at__isnull=False).exists()

    def test_another_members_seat_is_not_theirs_after_a_new_code(self, client, group, night):
        """The host gives Anna's seat a new code (a lost phone): the account is unlinked with the old
        code (games.services.seats.seat_rotate_token), so her campaign page no longer opens it."""
        seat_rotate_token(seat=Seat.objects.get(session=night, index=0))
        logged_in(client, group["anna"])
        assert client.get(my_seat_url(night)).status_code == 404

    def test_the_player_votes_through_the_seat_it_opens(self, client, group, night):
        """'Voting Phase' (kings-dilemma.rulebook.txt): the Leader's left neighbour votes first; here
        the player of that House votes AYE with 1 Power from the page their campaign opened."""
        draft(night)
        host = logged_in(client, group["owner"])
        compose = reverse("games:session_table_compose", args=[night.pk])
        night.refresh_from_db()
        drawn = host.post(
            compose,
            {
                "version": night.version,
                "compose": "draw",
                "number": 12,
                "title": "Bread",
                "aye_wealth": "down",
            },
            headers={"HX-Request": "true"},
        )
        assert drawn.status_code == 200
        night.refresh_from_db()
        turn = night.state["vote"]["turn"]
        player = group["anna"] if turn == 0 else group["ben"] if turn == 1 else None
        if player is None:  # Armin (no account) votes first: he passes, at the table
            play(night, turn, "pass_gather")
            night.refresh_from_db()
            turn = night.state["vote"]["turn"]
            player = group["anna"] if turn == 0 else group["ben"]
        phone = logged_in(client, player)
        page_url = phone.get(my_seat_url(night))["Location"]
        night.refresh_from_db()
        action = {"type": "vote", "side": "aye", "power": 1}
        voted = phone.post(page_url, {"action": json.dumps(action), "version": night.version})
        assert voted.status_code == 302
        night.refresh_from_db()
        assert night.state["vote"]["choice"][turn] == "aye"
        assert night.actions.filter(seat=turn, payload__type="vote").exists()


class TablePanelTests:
    def test_the_table_says_who_opens_a_seat_from_the_campaign_and_keeps_its_code(self, client, group, night):
        logged_in(client, group["owner"])
        html = client.get(reverse("games:session_table", args=[night.pk])).content.decode()
        assert OPENS_FROM_CAMPAIGN.format(name="anna") in html
        assert OPENS_FROM_CAMPAIGN.format(name="ben") in html
        assert (
            html.count('<svg role="img" aria-label="QR code of the join link"') == 3
        )  # Armin's, Anna's and Ben's codes
        logged_in(client, group["ben"]).get(my_seat_url(night))  # Ben opens his seat
        html = logged_in(client, group["owner"]).get(reverse("games:session_table", args=[night.pk]))
        html = html.content.decode()
        assert OPENS_FROM_CAMPAIGN.format(name="ben") not in html
        assert OPENS_FROM_CAMPAIGN.format(name="anna") in html
        assert html.count('<svg role="img" aria-label="QR code of the join link"') == 2
        # The House chips on the table say who plays each House, joined or not (issue 24 item 4).
        chips = html[html.index('class="kd-board"') :]
        assert "played by anna" in chips and "played by ben" in chips
        ben_phone = logged_in(client, group["ben"]).get(my_seat_url(night), follow=True).content.decode()
        assert "played by anna" in ben_phone  # and the phones too

    def test_a_nights_first_screens_show_the_houses_players_as_the_night_set_them(
        self, client, group, django_capture_on_commit_callbacks
    ):
        """The first version's facts are read at the commit, once the night gave the seats their
        Houses' players (games.services.sessions.session_create), not before."""
        with django_capture_on_commit_callbacks(execute=True):
            started = game_nights.game_night_start(
                campaign=group["campaign"],
                houses=group["houses"],
                king_name="Harald V",
                host=group["owner"],
                seed=6,
            )
        html = logged_in(client, group["owner"]).get(reverse("games:session_table", args=[started.pk]))
        chips = html.content.decode()[html.content.decode().index('class="kd-board"') :]
        assert "played by anna" in chips and "played by ben" in chips

    def test_the_hosts_api_agrees_the_code_is_there_until_the_player_opens_the_seat(
        self, client, group, night
    ):
        api = APIClient()
        api.force_authenticate(group["owner"])
        join = reverse("api:seat-join", kwargs={"session_id": night.pk, "seat_index": 0})
        before = api.post(join, {}, format="json")
        assert before.status_code == 200 and before.json()["joined"] is False
        assert before.json()["token"] == Seat.objects.get(session=night, index=0).token
        logged_in(client, group["anna"]).get(my_seat_url(night))
        after = api.post(join, {}, format="json")
        assert after.status_code == 400 and after.json()["message"] == SEAT_TAKEN_BY_PHONE


class MySeatsApiTests:
    def test_a_player_lists_their_running_seats_and_opens_one_with_their_login(self, group, night):
        api = APIClient()
        api.force_authenticate(group["anna"])
        mine = api.get(reverse("api:my-seat-list"))
        assert mine.status_code == 200
        assert mine.json() == [
            {
                "session": night.pk,
                "game": "kings_dilemma",
                "version": night.version,
                "campaign": group["campaign"].pk,
                "seat_index": 0,
                "seat_name": "Valentine",
            }
        ]
        view = api.get(reverse("api:seat-view", kwargs={"session_id": night.pk, "seat_index": 0}))
        assert view.status_code == 200
        other = api.get(reverse("api:seat-view", kwargs={"session_id": night.pk, "seat_index": 1}))
        assert other.status_code == 403

    def test_others_list_nothing_and_anonymous_is_401(self, group, night):
        api = APIClient()
        api.force_authenticate(group["owner"])
        assert api.get(reverse("api:my-seat-list")).json() == []
        night.status = night.Status.FINISHED
        night.save()
        api.force_authenticate(group["anna"])
        assert api.get(reverse("api:my-seat-list")).json() == []
        assert APIClient().get(reverse("api:my-seat-list")).status_code == 401

    def test_the_campaign_list_gives_the_role_and_the_house_one_plays(self, group):
        api = APIClient()
        for who, role, houses in (
            ("owner", "owner", []),
            ("anna", "player", ["Valentine"]),
            ("vera", "viewer", []),
        ):
            api.force_authenticate(group[who])
            (row,) = api.get(reverse("api:campaign-list")).json()
            assert row["role"] == role
            assert [h["name"] for h in row["houses"]] == houses
