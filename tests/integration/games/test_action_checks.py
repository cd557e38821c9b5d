"""What every tap is held to before the rules see it, on the pages and in the API alike: the keys
the offered choice names (type, seat and its parameters) and texts without control characters,
bidi controls or lone surrogates (games/engines/kernel/text.py: the rule the campaign archive's
import holds every text to). An action refused here writes nothing, so whatever a table stores,
its campaign's export imports again."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from config.json_limits import JSON_LONE_SURROGATE, STORED_JSON_MAX_DEPTH
from games.services.taps import (
    ACTION_NOT_STORABLE,
    ACTION_TEXT_CONTROL,
    ACTION_UNKNOWN_KEYS,
    session_submit_action,
)
from tests.integration.games.conftest import acting_seat, new_session

pytestmark = [pytest.mark.database, pytest.mark.django_db]

HOSTILE = ["note\u202e", "\x1b[31m", "a\x85b", "\u2066x\u2069"]


def place(index: int, **extra) -> dict:
    return {"type": "place", "area": "favor", "seat": index, **extra}


class ServiceTests:
    def test_an_unknown_key_is_refused_with_its_name_and_nothing_is_written(self):
        session = new_session()
        index, seat = acting_seat(session)
        with pytest.raises(ValidationError) as error:
            session_submit_action(
                session=session, seat=seat, action=place(index, note="hi"), expected_version=1
            )
        assert error.value.messages == [ACTION_UNKNOWN_KEYS.format(keys="'note'", known="type, seat, area")]
        session.refresh_from_db()
        assert session.version == 1 and session.actions.count() == 1

    @pytest.mark.parametrize("text", HOSTILE)
    def test_a_hostile_text_is_refused_even_in_a_known_key(self, text):
        session = new_session()
        index, seat = acting_seat(session)
        with pytest.raises(ValidationError) as error:
            session_submit_action(
                session=session, seat=seat, action={**place(index), "area": text}, expected_version=1
            )
        assert error.value.messages == [ACTION_TEXT_CONTROL.format(key="'area'")]
        assert session.actions.count() == 1

    def test_a_lone_surrogate_in_a_key_is_refused(self):
        session = new_session()
        index, seat = acting_seat(session)
        with pytest.raises(ValidationError) as error:
            session_submit_action(
                session=session, seat=seat, action={**place(index), "\ud800": 1}, expected_version=1
            )
        assert error.value.messages == [ACTION_TEXT_CONTROL.format(key="key")]

    @pytest.mark.parametrize(
        "value",
        [2**63, -(2**63) - 1, json.loads('{"a": ' * 12 + "1" + "}" * 12)],
    )
    def test_a_value_the_archive_could_not_carry_is_refused(self, value):
        """As deep and as large as the archive's import takes (config/json_limits.py), never more."""
        session = new_session()
        index, seat = acting_seat(session)
        with pytest.raises(ValidationError) as error:
            session_submit_action(
                session=session, seat=seat, action=place(index, area=value), expected_version=1
            )
        assert error.value.messages == [ACTION_NOT_STORABLE.format(depth=STORED_JSON_MAX_DEPTH)]
        assert session.actions.count() == 1

    def test_the_offered_action_still_applies(self):
        session = new_session()
        index, seat = acting_seat(session)
        logged = session_submit_action(session=session, seat=seat, action=place(index), expected_version=1)
        assert logged.seq == 2


def seat_client(seat) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_SEAT_TOKEN=seat.token)
    return client


def api_submit(seat, body: str):
    address = reverse(
        "api:seat-action-submit", kwargs={"session_id": seat.session_id, "seat_index": seat.index}
    )
    return seat_client(seat).post(address, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1")


class ApiTests:
    def test_an_unknown_key_is_400_naming_it(self):
        session = new_session()
        index, seat = acting_seat(session)
        response = api_submit(
            seat, json.dumps({"action": place(index, note="\u202e"), "expected_version": 1})
        )
        assert response.status_code == 400
        assert response.json()["message"] == ACTION_TEXT_CONTROL.format(key="'note'")
        response = api_submit(seat, json.dumps({"action": place(index, note="x"), "expected_version": 1}))
        assert response.status_code == 400
        assert response.json()["message"] == ACTION_UNKNOWN_KEYS.format(
            keys="'note'", known="type, seat, area"
        )
        assert session.actions.count() == 1

    def test_a_lone_surrogate_anywhere_in_the_body_is_400_not_500(self):
        session = new_session()
        index, seat = acting_seat(session)
        body = json.dumps({"action": place(index, area="favor@"), "expected_version": 1}).replace(
            "@", "\\ud800"
        )
        response = api_submit(seat, body)
        assert response.status_code == 400
        assert str(JSON_LONE_SURROGATE) in response.json()["message"]
        assert session.actions.count() == 1


class PageTests:
    def test_an_unknown_key_shows_a_message_naming_it(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        response = client.post(
            reverse("games:seat_page", args=[seat.token]),
            {"action": json.dumps(place(index, note="hello")), "version": 1},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 422
        assert "This action has no &#x27;note&#x27;" in response.content.decode()
        assert session.actions.count() == 1

    def test_an_escape_in_a_tapped_value_shows_a_message(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        response = client.post(
            reverse("games:seat_page", args=[seat.token]),
            {"action": json.dumps({**place(index), "area": "favor\x1b"}), "version": 1},
            follow=True,
        )
        assert "cannot hold control characters" in response.content.decode()
        assert session.actions.count() == 1

    def test_a_lone_surrogate_is_a_message_not_a_crash(self, client):
        session = new_session()
        index, seat = acting_seat(session)
        response = client.post(
            reverse("games:seat_page", args=[seat.token]),
            {"action": json.dumps(place(index, area="@")).replace("@", "\\udc00"), "version": 1},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 422
        assert session.actions.count() == 1
