"""Table sessions through the API: create (host), join seats (tokens), views, legal actions,
submit with expected_version and Idempotency-Key (stale: 409), undo (host), the log.

Who may: the host sees the table and every join token, never a seat's private view; a seat is
opened by its X-Seat-Token (an anonymous phone) or by the logged-in user who joined it, and only
that seat; anyone else is 403 (401 when anonymous without a token); unknown ids are 404."""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.sessions.submit import IDEMPOTENCY_KEY_REQUIRED
from games.models import GameSession, SessionAction
from tests.factories import UserFactory
from tests.integration.api.conftest import fresh_key, token_client

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def url(name, session, **kwargs):
    return reverse(f"api:{name}", kwargs={"session_id": session["id"], **kwargs})


def phone(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_SEAT_TOKEN=token)
    return client


@pytest.fixture
def session(api):
    """A For the King session for Anna, Ben and Cleo, hosted by the Harald host."""
    body = {"game": "for_the_king", "seat_names": ["Anna", "Ben", "Cleo"]}
    response = api.post(reverse("api:session-create"), body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def first_move(client, session):
    """The seat to act and its first legal action (the deal is already done)."""
    table = client.get(url("session-table", session)).json()
    (seat,) = [s for s in table["active_seats"] if s is not None]
    return seat, table["version"]


class SessionCreateTests:
    def test_lists_the_games(self, api):
        games = api.get(reverse("api:table-game-list")).json()
        listed = [{k: g[k] for k in ("slug", "name", "min_seats", "max_seats")} for g in games]
        assert {
            "slug": "for_the_king",
            "name": "For the King (and Me)",
            "min_seats": 2,
            "max_seats": 5,
        } in listed
        assert all(g["config_schema"]["type"] == "object" for g in games)  # test_typed_views.py: more

    def test_host_gets_each_seats_token_and_the_deal_is_done(self, session):
        assert [s["name"] for s in session["seats"]] == ["Anna", "Ben", "Cleo"]
        assert all(len(s["token"]) > 20 for s in session["seats"])
        assert (session["status"], session["version"]) == ("active", 1)

    def test_an_unknown_game_is_400(self, api):
        body = {"game": "chess", "seat_names": ["A", "B"]}
        response = api.post(reverse("api:session-create"), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == 'game: "chess" is not a valid choice.'

    def test_too_few_seats_is_400_with_the_services_message(self, api):
        body = {"game": "for_the_king", "seat_names": ["Solo"]}
        response = api.post(reverse("api:session-create"), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == "For the King (and Me) is played by 2 to 5 players; got 1."
        assert not GameSession.objects.exists()

    def test_anonymous_cannot_create(self, anonymous):
        response = anonymous.post(reverse("api:session-create"), {}, format="json")
        assert response.status_code == 401


class JoinTests:
    def test_a_phone_with_the_seat_token_joins_anonymously(self, session):
        token = session["seats"][1]["token"]
        response = phone(token).post(url("seat-join", session, seat_index=1), {}, format="json")
        assert response.status_code == 200
        assert (response.json()["name"], response.json()["token"]) == ("Ben", token)

    def test_a_logged_in_player_claims_the_seat_then_needs_no_token(self, session):
        ben = UserFactory()
        client = APIClient()
        client.force_authenticate(ben)
        client.credentials(HTTP_X_SEAT_TOKEN=session["seats"][1]["token"])
        response = client.post(url("seat-join", session, seat_index=1), {"claim": True}, format="json")
        assert response.json()["joined"] is True
        assert token_client(ben).get(url("seat-view", session, seat_index=1)).status_code == 200

    def test_the_host_gets_a_seats_token(self, api, session):
        response = api.post(url("seat-join", session, seat_index=2), {}, format="json")
        assert response.json()["token"] == session["seats"][2]["token"]

    def test_a_stranger_cannot_join_without_the_link(self, stranger, session, anonymous):
        response = stranger.post(url("seat-join", session, seat_index=0), {}, format="json")
        assert response.status_code == 403
        assert response.json()["message"] == "Ask the host for this seat's link (its join token)."
        assert anonymous.post(url("seat-join", session, seat_index=0), {}, format="json").status_code == 401

    def test_another_seats_token_does_not_join_this_seat(self, session):
        client = phone(session["seats"][0]["token"])
        assert client.post(url("seat-join", session, seat_index=1), {}, format="json").status_code == 403

    def test_claiming_anonymously_is_400(self, session):
        client = phone(session["seats"][0]["token"])
        response = client.post(url("seat-join", session, seat_index=0), {"claim": True}, format="json")
        assert response.json()["message"] == "Log in to join a seat with your account."

    def test_an_unknown_seat_or_session_is_404(self, api, session):
        assert api.post(url("seat-join", session, seat_index=9), {}, format="json").status_code == 404
        missing = {"id": session["id"] + 100}
        assert api.get(url("session-table", missing)).status_code == 404


class ViewTests:
    def test_a_seat_sees_its_own_view_and_no_other_seat(self, session):
        anna = phone(session["seats"][0]["token"])
        mine = anna.get(url("seat-view", session, seat_index=0))
        assert mine.status_code == 200
        assert (mine.json()["seat"], mine.json()["view"]["you"]) == (0, 0)
        other = anna.get(url("seat-view", session, seat_index=1))
        assert other.status_code == 403
        assert other.json()["message"] == "Only this seat's player can see or act for it."

    def test_the_host_sees_the_table_but_not_a_seats_private_view(self, api, session):
        table = api.get(url("session-table", session))
        assert table.status_code == 200 and table.json()["seat"] is None
        assert api.get(url("seat-view", session, seat_index=0)).status_code == 403

    def test_seats_see_the_table_strangers_do_not(self, session, stranger, anonymous):
        assert phone(session["seats"][2]["token"]).get(url("session-table", session)).status_code == 200
        assert stranger.get(url("session-table", session)).status_code == 403
        assert anonymous.get(url("session-table", session)).status_code == 401
        assert phone("not-a-token").get(url("session-table", session)).status_code == 403

    def test_legal_actions_are_choices_with_their_bounds_and_titles(self, session, api):
        seat, version = first_move(api, session)
        response = phone(session["seats"][seat]["token"]).get(
            url("seat-legal-actions", session, seat_index=seat)
        )
        data = response.json()
        assert data["version"] == version
        assert data["choices"][0]["choice"]["seat"] == seat
        assert set(data["choices"][0]["choice"]) == {"type", "seat", "params", "title"}
        assert data["choices"][0]["title"] and "_" not in data["choices"][0]["title"]


def concrete(choice: dict) -> dict:
    """The first concrete action a choice offers (the least amount, the first option)."""
    action = {"type": choice["type"], "seat": choice["seat"]}
    for name, param in choice["params"].items():
        kind = param["kind"]
        action[name] = {
            "amount": lambda p: p["min"],
            "pick": lambda p: p["options"][0],
            "cards": lambda p: p["options"][: p["min"]],
            "flag": lambda p: False,
            "text": lambda p: "x",
        }[kind](param)
    return action


class SubmitTests:
    def test_play_the_first_turn(self, api, session):
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        action = concrete(
            client.get(url("seat-legal-actions", session, seat_index=seat)).json()["choices"][0]["choice"]
        )
        response = client.post(
            url("seat-action-submit", session, seat_index=seat),
            {"action": action, "expected_version": version},
            format="json",
            HTTP_IDEMPOTENCY_KEY="turn-1",
        )
        assert response.status_code == 200, response.json()
        data = response.json()
        assert data["action"]["version"] == version + 1
        assert data["view"]["version"] == version + 1 and data["view"]["seat"] == seat

    def test_a_repeated_idempotency_key_is_applied_once(self, api, session):
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        action = concrete(
            client.get(url("seat-legal-actions", session, seat_index=seat)).json()["choices"][0]["choice"]
        )
        address = url("seat-action-submit", session, seat_index=seat)
        body = {"action": action, "expected_version": version}
        first = client.post(address, body, format="json", HTTP_IDEMPOTENCY_KEY="k1").json()
        again = client.post(address, body, format="json", HTTP_IDEMPOTENCY_KEY="k1").json()
        assert again["action"] == first["action"]
        assert SessionAction.objects.filter(session_id=session["id"]).count() == 2  # the deal and one

    def test_a_stale_version_is_409_with_the_current_version(self, api, session):
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        action = concrete(
            client.get(url("seat-legal-actions", session, seat_index=seat)).json()["choices"][0]["choice"]
        )
        response = client.post(
            url("seat-action-submit", session, seat_index=seat),
            {"action": action, "expected_version": version - 1},
            format="json",
            **fresh_key(),
        )
        assert response.status_code == 409
        assert response.json() == {
            "message": "The table moved on: here is the new state.",
            "code": "stale_version",
            "extra": {"current_version": version},
        }

    def test_an_illegal_action_is_400_with_the_rules_sentence(self, api, session):
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        response = client.post(
            url("seat-action-submit", session, seat_index=seat),
            {"action": {"type": "fly"}, "expected_version": version},
            format="json",
            **fresh_key(),
        )
        assert response.status_code == 400
        assert response.json()["message"] == "There is no action called 'fly' in this game."

    def test_acting_for_another_seat_is_403(self, api, session):
        seat, version = first_move(api, session)
        other = (seat + 1) % 3
        client = phone(session["seats"][other]["token"])
        response = client.post(
            url("seat-action-submit", session, seat_index=seat),
            {"action": {"type": "place", "area": "favor"}, "expected_version": version},
            format="json",
            **fresh_key(),
        )
        assert response.status_code == 403

    def test_bad_bodies_are_400(self, api, session):
        seat, _ = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        address = url("seat-action-submit", session, seat_index=seat)
        assert client.post(address, {"action": {"type": "place", "area": "favor"}}, format="json").json()[
            "message"
        ] == ("expected_version: This field is required.")
        nul = client.post(address, {"action": {"type": "a\x00"}, "expected_version": 1}, format="json")
        assert nul.json()["message"] == "action: An action cannot contain NUL characters."
        long_key = client.post(
            address,
            {"action": {"type": "place", "area": "favor"}, "expected_version": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY="k" * 101,
        )
        assert long_key.json()["message"] == "An idempotency key has at most 100 characters."


class IdempotencyKeyRequiredTests:
    """Shared decision 5: both submit operations need an Idempotency-Key; without one nothing is applied."""

    def test_a_seat_submit_without_a_key_is_400_and_applies_nothing(self, api, session):
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        choices = client.get(url("seat-legal-actions", session, seat_index=seat)).json()["choices"]
        action, address = concrete(choices[0]["choice"]), url("seat-action-submit", session, seat_index=seat)
        for headers in ({}, {"HTTP_IDEMPOTENCY_KEY": "  "}):
            response = client.post(
                address, {"action": action, "expected_version": version}, format="json", **headers
            )
            assert response.status_code == 400
            assert response.json() == {
                "message": IDEMPOTENCY_KEY_REQUIRED,
                "code": "idempotency_key_required",
                "extra": {},
            }
        assert SessionAction.objects.filter(session_id=session["id"]).count() == 1  # the deal only

    def test_a_table_submit_without_a_key_is_400(self, api, session):
        body = {"action": {"type": "deal"}, "expected_version": 1}
        response = api.post(url("session-table-action", session), body, format="json")
        assert (response.status_code, response.json()["code"]) == (400, "idempotency_key_required")


class UndoAndLogTests:
    def _play(self, api, session):
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        action = concrete(
            client.get(url("seat-legal-actions", session, seat_index=seat)).json()["choices"][0]["choice"]
        )
        client.post(
            url("seat-action-submit", session, seat_index=seat),
            {"action": action, "expected_version": version},
            format="json",
            **fresh_key(),
        )
        return client

    def test_the_log_since_a_version(self, api, session):
        client = self._play(api, session)
        log = client.get(url("session-log", session)).json()
        assert log["count"] == 2
        assert log["results"][0]["label"]
        since = client.get(url("session-log", session), {"since": 1}).json()
        assert [a["version"] for a in since["results"]] == [2]

    def test_only_the_host_undoes_and_never_a_drawn_card(self, api, session):
        client = self._play(api, session)  # the first turn draws a card: it revealed information
        response = client.post(url("session-undo", session))
        assert response.status_code == 403
        assert response.json()["message"] == "Only the host of this session can do that."
        response = api.post(url("session-undo", session))
        assert response.status_code == 400
        assert response.json()["message"].endswith("cannot be undone: it revealed hidden information.")

    def test_the_deal_cannot_be_undone(self, api, session):
        response = api.post(url("session-undo", session))
        assert response.status_code == 400
        assert "cannot be undone" in response.json()["message"]

    def test_table_actions_are_the_hosts(self, api, session):
        seat_client = phone(session["seats"][0]["token"])
        body = {"action": {"type": "deal"}, "expected_version": 1}
        assert seat_client.post(url("session-table-action", session), body, format="json").status_code == 403
        response = api.post(url("session-table-action", session), body, format="json", **fresh_key())
        assert response.status_code == 400  # the deal is done: the engine says why


class KingsDilemmaBoundsTests:
    """Issue 13 item 8: every number a King's Dilemma session accepts is checked against the rules."""

    def create(self, api, power: int):
        seats = [{"name": n, "power": power} for n in ("Anna", "Ben", "Cleo")]
        body = {"game": "kings_dilemma", "seat_names": ["Anna", "Ben", "Cleo"], "config": {"seats": seats}}
        return api.post(reverse("api:session-create"), body, format="json")

    def test_the_largest_power_the_rules_allow_gives_a_seat_view_of_the_same_size(self, api):
        sizes = []
        for power in (1, 65):  # 65: every Power token in the box
            created = self.create(api, power)
            assert created.status_code == 201, created.json()
            session = created.json()
            table = api.get(url("session-table", session)).json()
            while table["view"]["phase"] == "draft":  # the draft, then the card, then the vote
                seat = table["view"]["to_act"][0]
                token = session["seats"][seat]["token"]
                mine = phone(token).get(url("seat-view", session, seat_index=seat)).json()
                action = concrete(mine["legal_actions"][0])
                body = {"action": action, "expected_version": mine["version"]}
                phone(token).post(
                    url("seat-action-submit", session, seat_index=seat), body, format="json", **fresh_key()
                )
                table = api.get(url("session-table", session)).json()
            card = {"number": 12, "title": "Bread taxes", "aye": {"resources": [["wealth", "up"]]}}
            body = {"action": {"type": "draw_dilemma", "card": card}, "expected_version": table["version"]}
            assert (
                api.post(url("session-table-action", session), body, format="json", **fresh_key()).status_code
                == 200
            )
            table = api.get(url("session-table", session)).json()
            seat = table["view"]["to_act"][0]
            mine = phone(session["seats"][seat]["token"]).get(url("seat-view", session, seat_index=seat))
            vote = next(c for c in mine.json()["legal_actions"] if c["type"] == "vote")
            assert vote["params"]["power"]["max"] == power
            sizes.append(len(json.dumps(mine.json()["legal_actions"])))
        assert abs(sizes[1] - sizes[0]) <= 2  # the digits of the bound, nothing more

    def test_more_power_than_the_box_holds_is_a_400_naming_the_field(self, api):
        response = self.create(api, 1_000_000)
        assert response.status_code == 400
        assert response.json()["message"].endswith("Anna's power must be a whole number from 0 to 65.")
