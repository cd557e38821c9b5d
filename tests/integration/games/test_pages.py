"""The table companion pages: start a session, the host's table, the phone, the polling endpoint."""

import json
import random

import pytest
from django.urls import reverse

from games.models import GameSession
from games.services import STALE_VERSION, session_submit_action
from tests.factories import UserFactory
from tests.integration.games.conftest import acting_seat, new_session, play

pytestmark = pytest.mark.django_db


def post_action(client, seat, action, version, key=""):
    return client.post(
        reverse("games:seat_page", args=[seat.token]),
        {"action": json.dumps(action), "version": version, "key": key},
        follow=True,
    )


class SessionListPageTests:
    def test_the_form_starts_a_session_and_opens_the_table(self, client):
        host = UserFactory()
        client.force_login(host)
        page = client.get(reverse("games:session_list"))
        assert page.status_code == 200
        assert b"For the King" in page.content
        response = client.post(
            reverse("games:session_list"),
            {"game": "for_the_king", "seat_1": "Anna", "seat_2": "Bruno", "seat_3": "", "seat_4": "Chiara"},
        )
        session = GameSession.objects.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("games:session_table", args=[session.pk])
        assert session.host == host and session.version == 1
        assert [s.name for s in session.seats.order_by("index")] == ["Anna", "Bruno", "Chiara"]
        table = client.get(response["Location"])
        assert table.status_code == 200
        for seat in session.seats.all():
            assert reverse("games:seat_page", args=[seat.token]) in table.content.decode()
        assert b"The table shuffled the cards" in table.content

    def test_one_seat_is_not_enough(self, client):
        client.force_login(UserFactory())
        response = client.post(reverse("games:session_list"), {"game": "for_the_king", "seat_1": "Anna"})
        assert response.status_code == 400
        assert b"Name at least 2 seats." in response.content
        assert GameSession.objects.count() == 0

    def test_an_unknown_game_is_refused(self, client):
        client.force_login(UserFactory())
        response = client.post(reverse("games:session_list"), {"game": "chess", "seat_1": "A", "seat_2": "B"})
        assert response.status_code == 400
        assert GameSession.objects.count() == 0

    def test_a_stranger_must_log_in(self, client):
        response = client.get(reverse("games:session_list"))
        assert response.status_code == 302
        assert reverse("login") in response["Location"]

    def test_a_session_with_bots_plays_their_turns(self, client, django_capture_on_commit_callbacks):
        client.force_login(UserFactory())
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                reverse("games:session_list"),
                {"game": "for_the_king", "seat_1": "Anna", "seat_2": "Robot", "bot_2": "on"},
            )
        session = GameSession.objects.get()
        assert session.seats.get(index=1).is_bot
        # The bot played until the human must act.
        assert acting_seat(session)[0] == 0


class SeatPageTests:
    def test_the_phone_shows_its_own_view_and_a_button_per_legal_action(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        page = client.get(reverse("games:seat_page", args=[seat.token]))
        html = page.content.decode()
        assert page.status_code == 200
        assert seat.name in html
        assert "Your turn." in html
        assert html.count('name="action"') == 1
        assert f"{seat.name} drew a card" in html

    def test_a_button_applies_its_action(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        response = post_action(client, seat, {"type": "draw", "seat": index}, 1, key="tap-1")
        assert response.status_code == 200
        session.refresh_from_db()
        assert session.version == 2
        assert session.state["drawn"] is not None
        drawn = session.state["drawn"]
        assert drawn in response.content.decode()  # the Adviser sees the card they drew
        assert response.content.decode().count('name="action"') >= 2  # where to place it

    def test_a_double_tap_applies_once(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        post_action(client, seat, {"type": "draw"}, 1, key="tap-1")
        response = post_action(client, seat, {"type": "draw"}, 1, key="tap-1")
        session.refresh_from_db()
        assert session.version == 2 and session.actions.count() == 2
        assert STALE_VERSION not in response.content.decode()

    def test_a_stale_button_shows_the_new_state_with_a_clear_message(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        session_submit_action(session=session, seat=seat, action={"type": "draw"}, expected_version=1)
        response = post_action(client, seat, {"type": "draw"}, 1)
        html = response.content.decode()
        assert response.status_code == 200
        assert STALE_VERSION in html
        assert "version 2" in html
        assert GameSession.objects.get(pk=session.pk).version == 2

    def test_a_broken_rule_shows_its_sentence(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        other = session.seats.exclude(index=index).first()
        response = post_action(client, other, {"type": "draw"}, 1)
        html = response.content.decode()
        assert "turn" in html.lower()
        assert 'class="msg error"' in html
        assert GameSession.objects.get(pk=session.pk).version == 1

    def test_garbage_is_a_message_not_a_crash(self, client):
        session = new_session()
        _, seat = acting_seat(session)
        response = client.post(
            reverse("games:seat_page", args=[seat.token]), {"action": "{", "version": "x"}, follow=True
        )
        assert response.status_code == 200
        assert GameSession.objects.get(pk=session.pk).version == 1

    def test_an_unknown_token_is_not_found(self, client):
        assert client.get(reverse("games:seat_page", args=["nope"])).status_code == 404

    def test_an_htmx_request_gets_only_the_panel(self, client):
        session = new_session()
        _, seat = acting_seat(session)
        response = client.get(reverse("games:seat_page", args=[seat.token]), headers={"HX-Request": "true"})
        html = response.content.decode()
        assert 'id="seat-panel"' in html
        assert "<html" not in html


class TablePageTests:
    def test_the_host_undoes_from_the_table(self, client):
        host = UserFactory()
        session = new_session(host=host)
        rng = random.Random(3)
        play(session, rng, 2)  # draw, then place (undoable)
        client.force_login(host)
        page = client.get(reverse("games:session_table", args=[session.pk]))
        assert "Undo" in page.content.decode()
        response = client.post(reverse("games:session_undo", args=[session.pk]), follow=True)
        assert "Undone" in response.content.decode()
        session.refresh_from_db()
        assert session.actions.filter(undone=True).count() == 1

    def test_an_undo_that_is_refused_says_why(self, client):
        host = UserFactory()
        session = new_session(host=host)
        play(session, random.Random(3), 1)  # a draw: not undoable
        client.force_login(host)
        page = client.get(reverse("games:session_table", args=[session.pk]))
        assert "Undo “" not in page.content.decode()
        response = client.post(reverse("games:session_undo", args=[session.pk]), follow=True)
        assert "cannot be undone" in response.content.decode()

    def test_only_the_host_opens_the_table(self, client):
        session = new_session(host=UserFactory())
        assert client.get(reverse("games:session_table", args=[session.pk])).status_code == 302
        client.force_login(UserFactory())
        assert client.get(reverse("games:session_table", args=[session.pk])).status_code == 404
        assert client.post(reverse("games:session_undo", args=[session.pk])).status_code == 404

    def test_the_host_abandons_a_session(self, client):
        host = UserFactory()
        session = new_session(host=host)
        client.force_login(host)
        client.post(reverse("games:session_abandon", args=[session.pk]))
        session.refresh_from_db()
        assert session.status == GameSession.Status.ABANDONED

    def test_a_finished_game_shows_the_result_and_stops_polling(self, client):
        host = UserFactory()
        session = new_session(host=host, names=["A", "B"])
        play(session, random.Random(8), 10_000)
        assert session.status == GameSession.Status.FINISHED
        client.force_login(host)
        html = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert "The game is over." in html and "Result" in html
        assert "hx-trigger" not in html


class SessionVersionTests:
    def url(self, session, version):
        return reverse("games:session_version", args=[session.pk]) + f"?v={version}"

    def test_unchanged_is_204(self, client):
        session = new_session()
        assert client.get(self.url(session, 1), headers={"HX-Request": "true"}).status_code == 204
        # Now from the cache.
        assert client.get(self.url(session, 1), headers={"HX-Request": "true"}).status_code == 204

    def test_unchanged_is_answered_from_the_cache(self, client, django_assert_num_queries):
        session = new_session()
        client.get(self.url(session, 1))
        with django_assert_num_queries(0):
            assert client.get(self.url(session, 1)).status_code == 204

    def test_a_change_reloads_the_page(self, client, django_capture_on_commit_callbacks):
        session = new_session()
        client.get(self.url(session, 1))
        _, seat = acting_seat(session)
        with django_capture_on_commit_callbacks(execute=True):
            session_submit_action(session=session, seat=seat, action={"type": "draw"}, expected_version=1)
        response = client.get(self.url(session, 1), headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert response["HX-Refresh"] == "true"
        plain = client.get(self.url(session, 1))
        assert plain.json() == {"session": session.pk, "version": 2, "status": "active"}
        assert client.get(self.url(session, 2)).status_code == 204

    def test_a_finished_session_stops_the_polling(self, client):
        session = new_session()
        play(session, random.Random(4), 10_000)
        response = client.get(self.url(session, session.version), headers={"HX-Request": "true"})
        assert response.status_code == 286

    def test_the_pages_poll_with_a_working_link(self, client):
        session = new_session()
        _, seat = acting_seat(session)
        html = client.get(reverse("games:seat_page", args=[seat.token])).content.decode()
        assert f'hx-get="{self.url(session, 1)}"' in html.replace("&amp;", "&")
        assert f'href="{reverse("games:seat_page", args=[seat.token])}"' in html
        assert 'hx-trigger="every 2s"' in html

    def test_an_unknown_session_is_not_found(self, client):
        assert client.get(reverse("games:session_version", args=[999999]) + "?v=1").status_code == 404
