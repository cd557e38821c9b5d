"""Seat keys stay private (issue 17 item 4): the table shows a seat's code only until a phone has
joined it and its link only on request, never a bot's; the host shows a code again or gives a new
one (the old token stops opening the seat); a finished session's seat shows the result without
the hand or controls; the host cannot claim a seat a phone has joined."""

import random

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from api.sessions.seat_views import SEAT_TAKEN_BY_PHONE
from games.models import GameSession, Seat
from games.services import seats as seat_services
from games.services import undo
from tests.factories import UserFactory
from tests.integration.games.conftest import new_session, play
from tests.integration.games.test_secrets import secrets_of_each_seat

pytestmark = pytest.mark.django_db

QR_TITLE = "QR code of the join link"


def table_html(client, session) -> str:
    return client.get(reverse("games:session_table", args=[session.pk])).content.decode()


def seat_item(html: str, name: str) -> str:
    """The join panel's entry of one seat."""
    panel = html[html.index('id="join-panel"') :]
    start = panel.rindex('<li class="join-item"', 0, panel.index(f"</span>{name}</strong>"))
    end = panel.find('<li class="join-item"', start + 1)
    return panel[start : end if end > 0 else None]


@pytest.fixture
def hosted(client):
    host = UserFactory()
    session = new_session(host=host, names=["Anna", "Bruno", "Chiara"], bot_seats=[2])
    client.force_login(host)
    return host, session, {s.index: s for s in session.seats.all()}


class TableJoinPanelTests:
    def test_codes_show_until_a_phone_joins_and_never_for_a_bot(self, client, hosted):
        host, session, seats = hosted
        html = table_html(client, session)
        assert html.count(QR_TITLE) == 4  # each code's title and its text alternative
        assert html.count(f'<svg role="img" aria-label="{QR_TITLE}"') == 2
        assert seats[0].token in seat_item(html, "Anna") and seats[1].token in seat_item(html, "Bruno")
        assert seats[2].token not in html and QR_TITLE not in seat_item(html, "Chiara")
        assert "<summary>Show the link</summary>" in seat_item(html, "Anna")

        phone = APIClient()
        assert phone.get(reverse("games:seat_page", args=[seats[0].token])).status_code == 200
        html = table_html(client, session)
        assert seats[0].token not in html and QR_TITLE not in seat_item(html, "Anna")
        assert "joined" in seat_item(html, "Anna") and html.count(QR_TITLE) == 2
        joins = client.get(
            reverse("games:session_table", args=[session.pk]) + "?part=joins", headers={"HX-Request": "true"}
        ).content.decode()
        assert joins.count(QR_TITLE) == 2 and seats[0].token not in joins

    def test_the_host_shows_a_joined_seats_code_again(self, client, hosted):
        _, session, seats = hosted
        APIClient().get(reverse("games:seat_page", args=[seats[0].token]))
        url = reverse("games:session_seat_show_code", args=[session.pk, 0])
        assert client.post(url).status_code == 302
        html = table_html(client, session)
        assert seats[0].token in seat_item(html, "Anna") and QR_TITLE in seat_item(html, "Anna")
        assert "Anna&#x27;s code is on the table again" in html

    def test_a_new_code_locks_out_the_old_link_and_its_phone_is_told(self, client, hosted):
        _, session, seats = hosted
        old = seats[0].token
        phone = APIClient()
        phone.get(reverse("games:seat_page", args=[old]))
        version = GameSession.objects.get(pk=session.pk).version
        url = reverse("games:session_seat_new_code", args=[session.pk, 0])
        assert client.post(url, {"confirm": "yes"}).status_code == 302
        seat = Seat.objects.get(pk=seats[0].pk)
        assert seat.token != old and seat.joined_at is None
        assert GameSession.objects.get(pk=session.pk).version == version + 1  # the old phone looks
        refreshed = phone.get(reverse("games:seat_page", args=[old]), headers={"HX-Request": "true"})
        assert refreshed.status_code == 200 and refreshed["HX-Refresh"] == "true"
        page = phone.get(reverse("games:seat_page", args=[old]))
        assert page.status_code == 404
        assert "Ask the host to show your seat's code again" in page.content.decode()
        assert seat.token in seat_item(table_html(client, session), "Anna")
        assert phone.get(reverse("games:seat_page", args=[seat.token])).status_code == 200
        assert seat.token not in table_html(client, session)

    def test_a_new_code_asks_first_and_nothing_changes_until_the_host_confirms(self, client, hosted):
        _, session, seats = hosted
        version = GameSession.objects.get(pk=session.pk).version
        response = client.post(reverse("games:session_seat_new_code", args=[session.pk, 0]))
        html = response.content.decode()
        assert response.status_code == 200
        assert "Replace Anna's phone?" in html and "will be disconnected" in html
        assert 'name="confirm" value="yes"' in html
        assert Seat.objects.get(pk=seats[0].pk).token == seats[0].token  # the phone keeps its seat
        assert GameSession.objects.get(pk=session.pk).version == version

    def test_a_bot_seat_gets_no_code(self, hosted):
        _, _, seats = hosted
        with pytest.raises(ValidationError, match="played by a bot"):
            seat_services.seat_rotate_token(seat=seats[2])
        assert Seat.objects.get(pk=seats[2].pk).token == seats[2].token

    def test_another_user_cannot_change_a_seats_code(self, client, hosted):
        _, session, seats = hosted
        client.force_login(UserFactory())
        assert client.post(reverse("games:session_seat_new_code", args=[session.pk, 0])).status_code == 404
        assert Seat.objects.get(pk=seats[0].pk).token == seats[0].token


class FinishedSessionSeatTests:
    def test_a_finished_seat_shows_the_result_without_the_hand_or_controls(self, client):
        host = UserFactory()
        session = new_session(host=host, names=["Anna", "Bruno"])
        rng = random.Random(8)
        while session.status == GameSession.Status.ACTIVE:
            before, _, private = secrets_of_each_seat(session)
            play(session, rng, 1)
        seat = session.seats.get(index=0)
        response = APIClient().get(reverse("games:seat_page", args=[seat.token]))
        html = response.content.decode()
        assert response.status_code == 200
        assert "The game is over." in html and "Final scores" in html and "This seat is closed" in html
        assert "<form" not in html and "only you see" not in html
        assert not [card for card in private[0] if card in html]
        assert 'href="/accounts/login/"' not in html and 'class="brand" href' not in html
        # The result stays readable at the table; the seat's own API view is closed.
        client.force_login(host)
        assert "Final scores" in table_html(client, session)
        phone = APIClient()
        phone.credentials(HTTP_X_SEAT_TOKEN=seat.token)
        closed = phone.get(reverse("api:seat-view", kwargs={"session_id": session.pk, "seat_index": 0}))
        assert closed.status_code == 200 and closed.json()["legal_actions"] == []
        assert closed.json()["result"] and not [c for c in private[0] if c in closed.content.decode()]
        table = phone.get(reverse("api:session-table", kwargs={"session_id": session.pk}))
        assert table.status_code == 200 and table.json()["over"] is True

    def test_undo_is_refused_once_the_game_is_over_and_the_table_offers_none(self, client):
        host = UserFactory()
        session = new_session(host=host, names=["Anna", "Bruno"])
        play(session, random.Random(8), 10_000)
        client.force_login(host)
        assert "Undo" not in table_html(client, session)
        api = APIClient()
        api.force_authenticate(host)
        refused = api.post(reverse("api:session-undo", kwargs={"session_id": session.pk}))
        assert refused.status_code == 400
        assert refused.json()["message"] == undo.GAME_OVER_NO_UNDO
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED


class SeatCodeApiTests:
    def url(self, name, session, index=0):
        return reverse(f"api:{name}", kwargs={"session_id": session.pk, "seat_index": index})

    def test_the_host_cannot_claim_or_read_the_token_of_a_seat_a_phone_joined(self, hosted):
        host, session, seats = hosted
        api = APIClient()
        api.force_authenticate(host)
        assert api.post(self.url("seat-join", session), {"claim": True}, format="json").status_code == 200
        Seat.objects.filter(pk=seats[0].pk).update(user=None)  # undo the host's own claim
        phone = APIClient()
        phone.credentials(HTTP_X_SEAT_TOKEN=seats[1].token)
        assert phone.get(self.url("seat-view", session, 1)).status_code == 200  # the phone joins
        refused = api.post(self.url("seat-join", session, 1), {"claim": True}, format="json")
        assert refused.status_code == 400 and refused.json()["message"] == SEAT_TAKEN_BY_PHONE
        assert Seat.objects.get(pk=seats[1].pk).user_id is None
        assert (
            seats[1].token
            not in api.post(self.url("seat-join", session, 1), {}, format="json").content.decode()
        )
        with pytest.raises(ValidationError, match="joined by a phone"):
            seat_services.session_seat_claim(
                session=session, seat=Seat.objects.get(pk=seats[1].pk), user=host
            )

    def test_a_phone_logged_in_claims_its_own_joined_seat(self, hosted):
        _, session, seats = hosted
        player = UserFactory()
        phone = APIClient()
        phone.force_authenticate(player)
        phone.credentials(HTTP_X_SEAT_TOKEN=seats[1].token)
        assert phone.get(self.url("seat-view", session, 1)).status_code == 200
        claimed = phone.post(self.url("seat-join", session, 1), {"claim": True}, format="json")
        assert claimed.status_code == 200 and claimed.json()["joined"] is True
        assert Seat.objects.get(pk=seats[1].pk).user_id == player.pk

    def test_rotate_and_show_code_are_the_hosts_and_the_old_token_stops_working(self, hosted):
        host, session, seats = hosted
        phone = APIClient()
        phone.credentials(HTTP_X_SEAT_TOKEN=seats[0].token)
        assert phone.get(self.url("seat-view", session)).status_code == 200
        assert phone.post(self.url("seat-rotate", session)).status_code == 403
        assert APIClient().post(self.url("seat-rotate", session)).status_code == 401
        api = APIClient()
        api.force_authenticate(host)
        shown = api.post(self.url("seat-show-code", session))
        assert shown.status_code == 200 and shown.json()["joined"] is False
        rotated = api.post(self.url("seat-rotate", session))
        assert rotated.status_code == 200 and rotated.json()["token"] not in (seats[0].token, "")
        assert phone.get(self.url("seat-view", session)).status_code in (401, 403)
        bot = api.post(self.url("seat-rotate", session, 2))
        assert bot.status_code == 400 and "bot" in bot.json()["message"]


class NoDeadEndTests:
    def test_home_and_campaign_pages_lead_to_the_table_companion(self, client):
        from campaign.demo import demo_campaign_load

        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        play = f'href="{reverse("games:session_list")}"'
        home = client.get(reverse("home")).content.decode()
        detail = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert play in home.split("</header>", 1)[1]  # in the page itself, not only the top bar
        assert play in detail.split("</header>", 1)[1]

    def test_a_message_after_undo_shows_once_and_the_next_refresh_drops_it(self, client, hosted):
        host, session, seats = hosted
        play(session, random.Random(3), 1)
        response = client.post(reverse("games:session_undo", args=[session.pk]), follow=True)
        html = response.content.decode()
        panel = html[html.index('id="table-panel"') : html.index('id="join-panel"')]
        assert 'class="msg ' in panel  # inside the panel that the next swap replaces
        assert 'class="msg ' not in html[: html.index('id="table-panel"')]
        again = client.get(reverse("games:session_table", args=[session.pk]))
        assert 'class="msg ' not in again.content.decode()


class PhoneAddressTests:
    def test_on_localhost_the_codes_use_this_machines_lan_address_on_the_same_port(self, rf, settings):
        settings.CHRONICLE_PUBLIC_URL = ""
        from config.network import lan_addresses, phone_base_url

        if not lan_addresses():
            pytest.skip("this machine has no private LAN address")
        lan = lan_addresses()[0]
        assert phone_base_url(rf.get("/", HTTP_HOST="localhost:8000")) == f"http://{lan}:8000"
        assert phone_base_url(rf.get("/", HTTP_HOST="127.0.0.1:8000")) == f"http://{lan}:8000"
        assert phone_base_url(rf.get("/", HTTP_HOST=f"{lan}:8000")) == f"http://{lan}:8000"

    def test_a_host_browsing_by_another_name_keeps_it_and_the_setting_wins(self, rf, settings):
        from config.network import phone_base_url

        settings.CHRONICLE_PUBLIC_URL = ""
        settings.ALLOWED_HOSTS = ["chronicle.home"]
        assert phone_base_url(rf.get("/", HTTP_HOST="chronicle.home:8000")) == "http://chronicle.home:8000"
        settings.CHRONICLE_PUBLIC_URL = "https://chronicle.example.org"
        assert phone_base_url(rf.get("/", HTTP_HOST="localhost")) == "https://chronicle.example.org"

    def test_the_table_says_where_phones_join(self, client, hosted, settings):
        _, session, seats = hosted
        settings.CHRONICLE_PUBLIC_URL = "https://chronicle.example.org"
        html = table_html(client, session)
        assert 'Phones join at <strong class="phone-base">https://chronicle.example.org</strong>' in html
        assert f"https://chronicle.example.org/play/seat/{seats[0].token}/" in html


class ShareLinkAddressTests:
    """Issue 26, item 5: a link meant for others uses the address phones reach, like the seat
    codes: a host on localhost shares the LAN address, never 127.0.0.1."""

    def test_a_story_link_shared_from_localhost_uses_the_lan_address(self, client, settings):
        from config.network import lan_addresses
        from tests.factories import UserFactory
        from tests.story_play import campaign_of_nights

        settings.CHRONICLE_PUBLIC_URL = ""
        if not lan_addresses():
            pytest.skip("this machine has no private LAN address")
        campaign, _houses, games = campaign_of_nights(1, user=UserFactory())
        client.force_login(campaign.created_by)
        client.post(
            f"/campaigns/{campaign.pk}/games/{games[0].number}/story/share/", HTTP_HOST="127.0.0.1:8000"
        )
        page = client.get(
            f"/campaigns/{campaign.pk}/games/{games[0].number}/story/", HTTP_HOST="127.0.0.1:8000"
        )
        html = page.content.decode()
        assert f"http://{lan_addresses()[0]}:8000/stories/" in html
        assert "127.0.0.1:8000/stories/" not in html
