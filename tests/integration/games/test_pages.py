"""The table companion pages: start a session, the host's table, the phone, the polling endpoint."""

import json
import random

import pytest
from django.urls import reverse

from games import versions
from games.forms import BOT_NAME, SessionCreateForm
from games.models import GameSession
from games.services.taps import STALE_VERSION, session_submit_action
from tests.factories import UserFactory
from tests.integration.games.conftest import acting_seat, new_session, play, without_tokens

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

    def test_a_bot_seat_left_unnamed_plays_as_bot_1(self, client, django_capture_on_commit_callbacks):
        # A five-seat For the King game with one unnamed bot seat starts with five seats.
        client.force_login(UserFactory())
        seats = {f"seat_{i}": name for i, name in enumerate(["Anna", "Ben", "Cora", "Dan"], start=1)}
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                reverse("games:session_list"), {"game": "for_the_king", **seats, "bot_5": "on"}
            )
        assert response.status_code == 302
        session = GameSession.objects.get()
        assert [s.name for s in session.seats.order_by("index")] == ["Anna", "Ben", "Cora", "Dan", "Bot 1"]
        assert session.seats.get(index=4).is_bot

    def test_unnamed_bots_take_names_no_seat_holds(self):
        form = SessionCreateForm(
            {
                "game": "for_the_king",
                "seat_1": "Bot 1",
                "bot_2": "on",
                "seat_3": "Ann",
                "bot_4": "on",
                "bot_5": "on",
            }
        )
        assert form.is_valid(), form.errors
        assert form.cleaned_data["seat_names"] == [
            "Bot 1",
            BOT_NAME.format(number=2),
            "Ann",
            "Bot 3",
            "Bot 4",
        ]
        assert form.cleaned_data["bot_seats"] == [1, 3, 4]

    def test_two_unnamed_bots_are_two_seats(self):
        form = SessionCreateForm({"game": "for_the_king", "bot_1": "on", "bot_3": "on"})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["seat_names"] == ["Bot 1", "Bot 2"]


class SeatPageTests:
    def test_the_phone_shows_its_own_view_and_a_control_per_choice(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        page = client.get(reverse("games:seat_page", args=[seat.token]))
        html = page.content.decode()
        assert page.status_code == 200
        assert seat.name in html
        assert "Your turn." in html
        assert html.count('name="choice"') == 1
        assert "Place on the Favor deck" in html  # the button, in the game's words
        assert "Draw the top card" not in html  # the draw is no tap: it happened by itself
        assert "The table shuffled the cards and dealt the deck" in html  # the log
        assert "is the Adviser and drew the top card of the deck" in html  # the draw, said in the log

    def test_a_button_applies_its_action(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        response = post_action(
            client, seat, {"type": "place", "area": "favor", "seat": index}, 1, key="tap-1"
        )
        assert response.status_code == 200
        session.refresh_from_db()
        assert session.version == 2
        assert session.state["drawn"] is not None
        drawn = session.state["drawn"]
        assert drawn in response.content.decode()  # the Adviser sees the card they drew
        assert "Place in the middle" in response.content.decode()  # where to place it

    def test_a_double_tap_applies_once(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        post_action(client, seat, {"type": "place", "area": "favor"}, 1, key="tap-1")
        response = post_action(client, seat, {"type": "place", "area": "favor"}, 1, key="tap-1")
        session.refresh_from_db()
        assert session.version == 2 and session.actions.count() == 2
        assert str(STALE_VERSION) not in response.content.decode()

    def test_a_stale_button_shows_the_new_state_with_a_clear_message(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        session_submit_action(
            session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
        )
        response = post_action(client, seat, {"type": "place", "area": "favor"}, 1)
        html = response.content.decode()
        assert response.status_code == 200
        assert str(STALE_VERSION) in html
        assert 'data-version="2"' in html
        assert GameSession.objects.get(pk=session.pk).version == 2

    def test_a_broken_rule_shows_its_sentence(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        other = session.seats.exclude(index=index).first()
        response = post_action(client, other, {"type": "place", "area": "favor"}, 1)
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
        play(session, rng, 1)
        while not session.actions.order_by("-seq").first().undoable:  # a draw, a card placed face up
            play(session, rng, 1)
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
        url = reverse("games:session_abandon", args=[session.pk])
        question = client.get(url)
        assert "Yes, abandon this session" in question.content.decode()
        assert client.post(url).status_code == 200  # no confirmation: the question again
        session.refresh_from_db()
        assert session.status == GameSession.Status.ACTIVE
        assert client.post(url, {"confirm": "yes"}).status_code == 302
        session.refresh_from_db()
        assert session.status == GameSession.Status.ABANDONED

    def test_a_finished_game_shows_the_result_and_stops_polling(self, client):
        host = UserFactory()
        session = new_session(host=host, names=["A", "B"])
        play(session, random.Random(8), 10_000)
        assert session.status == GameSession.Status.FINISHED
        client.force_login(host)
        html = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert "The game is over." in html and "Final scores" in html
        assert "hx-trigger" not in html


class SessionVersionTests:
    def url(self, session, version):
        key = versions.poll_key(session.pk)
        return reverse("games:session_version", args=[session.pk]) + f"?v={version}&k={key}"

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

    def test_a_change_asks_the_page_to_swap_its_panel(self, client, django_capture_on_commit_callbacks):
        session = new_session()
        client.get(self.url(session, 1))
        _, seat = acting_seat(session)
        with django_capture_on_commit_callbacks(execute=True):
            session_submit_action(
                session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
            )
        response = client.get(self.url(session, 1), headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert "HX-Refresh" not in response
        assert json.loads(response["HX-Trigger"])["session-changed"]["version"] == 2
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
        assert 'hx-trigger="every 2000ms, live-check"' in html  # the fallback while push is down
        stream = reverse("games:seat_events", args=[seat.token]) + f"?lastEventId=session-{session.pk}:1"
        assert f'data-live-stream="{stream}"' in html  # push, resuming from the version shown

    def test_the_poll_interval_comes_from_the_setting(self, client, settings):
        settings.LIVE_POLL_SECONDS = 0.5
        session = new_session()
        _, seat = acting_seat(session)
        html = client.get(reverse("games:seat_page", args=[seat.token])).content.decode()
        assert 'hx-trigger="every 500ms, live-check"' in html
        assert 'data-live-poll-ms="500"' in html  # the label says how often

    def test_an_unknown_session_is_not_found(self, client):
        link = reverse("games:session_version", args=[999999]) + f"?v=1&k={versions.poll_key(999999)}"
        assert client.get(link).status_code == 404


def htmx_post_action(client, seat, action, version, key=""):
    return client.post(
        reverse("games:seat_page", args=[seat.token]),
        {"action": json.dumps(action), "version": version, "key": key},
        headers={"HX-Request": "true"},
    )


def private_ids(session, index):
    """A For the King seat's cards nobody else has seen (hand and personal deck, minus the cards
    it took face up from the middle)."""
    seen = {a.payload.get("card") for a in session.actions.filter(payload__type="choose")}
    state = session.state["seats"][index]
    return (set(state["hand"]) | set(state["personal_deck"])) - seen


class SeatPanelInPlaceTests:
    def test_a_button_swaps_the_seat_panel_in_place(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        response = htmx_post_action(
            client, seat, {"type": "place", "area": "favor", "seat": index}, 1, key="tap-1"
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<div id="seat-panel"') and "<html" not in html
        assert "Done: " in html and 'data-version="2"' in html
        assert "Place in the middle" in html  # the next buttons, in the game's words
        assert 'hx-post="' in html and 'hx-target="#seat-panel"' in html

    def test_a_refused_action_is_422_with_its_sentence_and_writes_nothing(self, client):
        session = new_session()
        index, _ = acting_seat(session)
        other = session.seats.exclude(index=index).first()
        response = htmx_post_action(client, other, {"type": "place", "area": "favor", "seat": other.index}, 1)
        html = response.content.decode()
        assert response.status_code == 422
        assert 'id="seat-panel"' in html and 'class="msg error notice"' in html
        assert "turn" in html.lower()
        session.refresh_from_db()
        assert session.version == 1 and session.actions.count() == 1

    def test_garbage_is_422_in_place(self, client):
        session = new_session()
        _, seat = acting_seat(session)
        response = client.post(
            reverse("games:seat_page", args=[seat.token]),
            {"action": "{", "version": "x"},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 422
        assert 'id="seat-panel"' in response.content.decode()

    def test_a_stale_button_shows_the_new_state_and_says_so(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        session_submit_action(
            session=session,
            seat=seat,
            action={"type": "place", "area": "favor", "seat": index},
            expected_version=1,
        )
        response = htmx_post_action(client, seat, {"type": "place", "area": "favor", "seat": index}, 1)
        html = response.content.decode()
        assert response.status_code == 200
        assert STALE_VERSION == "The table moved on: here is the new state."
        assert str(STALE_VERSION) in html
        assert 'data-version="2"' in html and "Place in the middle" in html
        assert GameSession.objects.get(pk=session.pk).version == 2

    def test_the_panel_listens_for_the_change_and_fetches_itself(self, client):
        session = new_session()
        _, seat = acting_seat(session)
        html = client.get(reverse("games:seat_page", args=[seat.token])).content.decode()
        url = reverse("games:seat_page", args=[seat.token])
        # static/js/live.js fetches the link's address on a nudge or "session-changed" and morphs it in.
        assert f'href="{url}" hx-target="#seat-panel" hx-swap="outerHTML"' in html
        assert 'data-live-reload="seat-panel"' in html

    def test_a_phone_shows_its_own_cards_and_no_other_seat_s(self, client):
        session = new_session()
        play(session, random.Random(5), 40)
        pages = {  # the page without its own random token, which may hold any card id by chance
            s.index: client.get(reverse("games:seat_page", args=[s.token]))
            .content.decode()
            .replace(s.token, "")
            for s in session.seats.all()
        }
        for index, html in pages.items():
            own = session.state["seats"][index]
            for card in own["hand"] + own["personal_deck"]:
                assert f'data-card="{card}"' in html
            for other in pages:
                if other != index:
                    for card in private_ids(session, other):
                        assert card not in html, (index, other, card)


class TableScreenTests:
    def test_the_table_shows_a_qr_code_and_the_link_per_seat(self, client):
        host = UserFactory()
        session = new_session(host=host)
        client.force_login(host)
        html = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert html.count('class="segno"') == 3
        for seat in session.seats.all():
            assert reverse("games:seat_page", args=[seat.token]) in html

    def test_the_table_board_speaks_the_game_s_words_and_hides_every_hand(self, client):
        host = UserFactory()
        session = new_session(host=host)
        play(session, random.Random(5), 40)
        client.force_login(host)
        html = without_tokens(
            client.get(reverse("games:session_table", args=[session.pk])).content.decode(), session
        )
        assert "Government board" in html and "Primary Duty" in html and "Favor deck" in html
        for seat in session.seats.all():
            for card in private_ids(session, seat.index):
                assert card not in html

    def test_htmx_gets_only_the_table_panel(self, client):
        host = UserFactory()
        session = new_session(host=host)
        client.force_login(host)
        response = client.get(
            reverse("games:session_table", args=[session.pk]), headers={"HX-Request": "true"}
        )
        html = response.content.decode()
        assert html.lstrip().startswith('<div id="table-panel"') and "<html" not in html
        assert "segno" not in html  # the join codes stay outside the live panel

    def test_the_council_of_four_table_draws_the_map(self, client):
        host = UserFactory()
        session = new_session(host=host, game="council_of_four")
        play(session, random.Random(2), 30)
        client.force_login(host)
        html = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert html.count('<g class="city"') == 15
        assert html.count('class="balcony"') == 4
        assert "Business Permit tiles" in html and "Tracks" in html
        hands = {i: s["hand"] for i, s in enumerate(session.state["seats"])}
        for seat in session.seats.all():
            page = client.get(reverse("games:seat_page", args=[seat.token])).content.decode()
            assert "Your Politics cards" in page
            for other, cards in hands.items():
                mine = other == seat.index
                for card in cards:
                    assert (f'data-card="{card}"' in page) == mine

    def test_the_king_s_dilemma_renders_its_view(self, client):
        host = UserFactory()
        session = new_session(host=host, game="kings_dilemma")
        client.force_login(host)
        assert client.get(reverse("games:session_table", args=[session.pk])).status_code == 200
        for seat in session.seats.all():
            assert client.get(reverse("games:seat_page", args=[seat.token])).status_code == 200


class PhonePageLimitsTests:
    """Issue 14: the phone page applies the API's limits (size, NaN and Infinity, deep nesting)."""

    @pytest.mark.parametrize(
        "raw",
        [
            '{"type": "draw", "extra": "' + "x" * 10_001 + '"}',
            '{"type": "draw", "amount": NaN}',
            '{"type": "draw", "amount": Infinity}',
            '{"type": "draw", "amount": 1e400}',
            "[" * 5000 + "]" * 5000,
        ],
    )
    def test_an_oversized_or_invalid_action_is_refused_and_nothing_is_logged(self, client, raw):
        session = new_session()
        _, seat = acting_seat(session)
        count = session.actions.count()
        response = client.post(
            reverse("games:seat_page", args=[seat.token]),
            {"action": raw, "version": session.version},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 422
        assert session.actions.count() == count
