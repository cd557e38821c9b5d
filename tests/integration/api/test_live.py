"""Issue 29 item 6 and item 2: from a scanned seat code to the seat (POST /api/seats/find/), and the
session's event stream open to API clients (the host's token, a seat's X-Seat-Token header).

The stream's access is checked before the stream opens: under the test client (WSGI) an admitted
request answers 204 ("poll instead"), a refused one its error; under ASGI (AsyncClient) 200 and
``text/event-stream``."""

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient
from django.urls import reverse
from rest_framework.test import APIClient

from api.sessions.seat_views import SEAT_TOKEN_UNKNOWN
from games import access
from games.services.seats import seat_rotate_token
from tests.factories import UserFactory
from tests.integration.api.conftest import device_token
from tests.integration.games.conftest import new_session

pytestmark = [pytest.mark.database, pytest.mark.django_db]

FIND = "/api/seats/find/"


def find(token) -> tuple[int, dict]:
    response = APIClient().post(FIND, {"token": token}, format="json")
    return response.status_code, response.json()


def events_url(session) -> str:
    return reverse("api:session-events", kwargs={"session_id": session.pk})


def bearer(user, scheme: str = "Bearer") -> dict:
    key = f"live-token-of-{user.pk}"
    device_token(user, key)
    return {"HTTP_AUTHORIZATION": f"{scheme} {key}"}


class SeatFindTests:
    def test_a_scanned_token_gives_the_session_the_seat_and_where_to_play_it(self):
        session = new_session()
        seat = session.seats.get(index=1)
        status, found = find(seat.token)
        assert status == 200
        at = {"session_id": session.pk, "seat_index": 1}
        assert found == {
            "session": session.pk,
            "seat": 1,
            "seat_name": seat.name,
            "game": session.game,
            "version": session.version,
            "view_url": reverse("api:seat-view", kwargs=at),
            "actions_url": reverse("api:seat-legal-actions", kwargs=at),
            "submit_url": reverse("api:seat-action-submit", kwargs=at),
            "stream_url": events_url(session),
        }
        phone = APIClient()
        phone.credentials(HTTP_X_SEAT_TOKEN=seat.token)
        assert phone.get(found["view_url"]).json()["seat"] == 1

    def test_the_token_in_the_seat_code_is_the_last_part_of_its_address(self):
        seat = new_session().seats.get(index=0)
        link = reverse("games:seat_page", args=[seat.token])  # what the seat's QR code holds
        assert find(link.rstrip("/").rsplit("/", 1)[-1])[1]["seat"] == 0

    def test_an_unknown_or_rotated_token_is_404_with_its_own_code(self):
        seat = new_session().seats.get(index=0)
        old = seat.token
        seat_rotate_token(seat=seat)
        for token in ("not-a-seat-token", old):
            assert find(token) == (
                404,
                {"message": SEAT_TOKEN_UNKNOWN, "code": "seat_token_unknown", "extra": {}},
            )

    def test_guessing_is_limited_with_every_other_use_of_seat_tokens(self):
        statuses: list[int] = []
        while 429 not in statuses and len(statuses) < 61:  # a minute's window may turn meanwhile
            statuses.append(find(f"guess-{len(statuses)}")[0])
        assert statuses[:30] == [404] * 30 and statuses[-1] == 429
        response = APIClient().post(FIND, {"token": "guess-31"}, format="json")
        assert response.status_code == 429 and response["Retry-After"]

    def test_a_missing_token_is_400_naming_the_field(self):
        response = APIClient().post(FIND, {}, format="json")
        assert (response.status_code, response.json()["message"]) == (400, "token: This field is required.")


class StreamForApiClientsTests:
    def test_the_hosts_api_token_opens_the_table_stream_as_bearer_or_token(self, user):
        session = new_session(host=user)
        client = APIClient()
        for scheme in ("Bearer", "Token"):
            assert client.get(events_url(session), **bearer(user, scheme)).status_code == 204
            assert client.get(f"/play/s/{session.pk}/events/", **bearer(user, scheme)).status_code == 204

    def test_under_asgi_the_host_token_gets_the_event_stream(self, user):
        session = new_session(host=user)
        headers = {"Authorization": f"Bearer live-token-of-{user.pk}"}
        bearer(user)

        async def opened():
            response = await AsyncClient().get(events_url(session), headers=headers)
            return response.status_code, response["Content-Type"]

        assert async_to_sync(opened)() == (200, "text/event-stream")

    def test_a_seat_opens_the_stream_with_its_header(self):
        session = new_session()
        token = session.seats.get(index=2).token
        assert APIClient().get(events_url(session), HTTP_X_SEAT_TOKEN=token).status_code == 204
        assert access.session_stream_reader(_request(HTTP_X_SEAT_TOKEN=token), session.pk) == 2

    def test_another_sessions_seat_or_host_is_404_in_the_error_shape(self, user):
        mine, theirs = new_session(host=user), new_session(host=UserFactory())
        token = mine.seats.get(index=0).token
        for headers in ({"HTTP_X_SEAT_TOKEN": token}, bearer(user)):
            response = APIClient().get(events_url(theirs), **headers)
            assert response.status_code == 404
            assert response.json() == {"message": access.STREAM_NOT_FOUND, "code": "not_found", "extra": {}}

    def test_a_player_whose_account_holds_a_seat_follows_the_session(self, user):
        session = new_session()
        session.seats.filter(index=1).update(user=user)
        assert APIClient().get(events_url(session), **bearer(user)).status_code == 204

    def test_no_credentials_is_401_and_a_bad_token_401(self):
        session = new_session()
        anonymous = APIClient().get(events_url(session))
        assert (anonymous.status_code, anonymous.json()["message"]) == (401, access.STREAM_NO_CREDENTIALS)
        bad = APIClient().get(events_url(session), HTTP_AUTHORIZATION="Bearer not-a-token")
        assert (bad.status_code, bad.json()["message"], bad.json()["code"]) == (
            401,
            access.STREAM_TOKEN_REFUSED,
            "authentication_failed",
        )

    def test_the_table_page_keeps_its_404_for_whoever_is_not_at_the_table(self):
        session = new_session()
        assert APIClient().get(f"/play/s/{session.pk}/events/").status_code == 404

    def test_the_api_stream_is_served_apart_like_the_pages_streams(self):
        from games.live.asgi import is_stream

        assert is_stream({"type": "http", "path": "/api/sessions/12/events/", "query_string": b""})


def _request(**meta):
    from django.test import RequestFactory

    return RequestFactory().get("/", **meta)


class ETagTests:
    """Item 4: a weak ETag on the seat view, the table view, the legal actions and the session; a
    matching If-None-Match is 304 without building the answer."""

    def phone(self, session, index: int = 0) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_X_SEAT_TOKEN=session.seats.get(index=index).token)
        return client

    def test_the_seat_view_answers_304_while_nothing_changed_then_200_after_a_change(
        self, django_capture_on_commit_callbacks
    ):
        from tests.integration.games.test_events import _submit

        session = new_session()
        phone, address = self.phone(session), reverse("api:seat-view", args=[session.pk, 0])
        first = phone.get(address)
        etag = first["ETag"]
        assert etag.startswith('W/"') and etag == f'W/"view-{session.pk}-{session.version}-active-seat0"'
        again = phone.get(address, HTTP_IF_NONE_MATCH=etag)
        assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
        _submit(session, django_capture_on_commit_callbacks)
        changed = phone.get(address, HTTP_IF_NONE_MATCH=etag)
        assert changed.status_code == 200 and changed["ETag"] != etag

    def test_the_304_reads_only_the_seat_with_its_session(self, django_assert_num_queries):
        session = new_session()
        phone, address = self.phone(session), reverse("api:seat-view", args=[session.pk, 0])
        etag = phone.get(address)["ETag"]
        with django_assert_num_queries(1):  # no seats, no log, no view built
            assert phone.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 304

    def test_a_304_never_builds_the_view(self, monkeypatch):
        session = new_session()
        phone, address = self.phone(session), reverse("api:seat-view", args=[session.pk, 0])
        etag = phone.get(address)["ETag"]

        def built(**kwargs):
            raise AssertionError("the view was built")

        monkeypatch.setattr("games.selectors.session_view_for_seat", built)
        assert phone.get(address, HTTP_IF_NONE_MATCH=f'"x", {etag}').status_code == 304

    def test_seats_and_answers_never_share_an_etag(self, user):
        session = new_session(host=user)
        host = APIClient()
        host.credentials(**{"HTTP_AUTHORIZATION": bearer(user)["HTTP_AUTHORIZATION"]})
        tags = {
            self.phone(session, 0).get(reverse("api:seat-view", args=[session.pk, 0]))["ETag"],
            self.phone(session, 1).get(reverse("api:seat-view", args=[session.pk, 1]))["ETag"],
            self.phone(session, 0).get(reverse("api:seat-legal-actions", args=[session.pk, 0]))["ETag"],
            host.get(reverse("api:session-table", args=[session.pk]))["ETag"],
            host.get(reverse("api:session-detail", args=[session.pk]))["ETag"],
        }
        assert len(tags) == 5

    def test_the_table_actions_and_session_answer_304_too(self, user):
        session = new_session(host=user)
        host = APIClient()
        host.credentials(HTTP_AUTHORIZATION=bearer(user)["HTTP_AUTHORIZATION"])
        phone = self.phone(session, 1)
        for client, address in (
            (host, reverse("api:session-table", args=[session.pk])),
            (host, reverse("api:session-detail", args=[session.pk])),
            (phone, reverse("api:seat-legal-actions", args=[session.pk, 1])),
        ):
            etag = client.get(address)["ETag"]
            assert client.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 304, address

    def test_a_seat_joining_changes_the_sessions_etag(self, user):
        """Joining moves no version: the session's ETag follows its answer."""
        session = new_session(host=user)
        host = APIClient()
        host.credentials(HTTP_AUTHORIZATION=bearer(user)["HTTP_AUTHORIZATION"])
        address = reverse("api:session-detail", args=[session.pk])
        etag = host.get(address)["ETag"]
        self.phone(session, 2).get(reverse("api:seat-view", args=[session.pk, 2]))  # the phone joins
        assert host.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 200


class CompressionTests:
    """Item 5: gzip for the API's JSON and the pages (Django's GZipMiddleware), never for a stream."""

    def test_a_big_view_comes_gzipped_to_a_client_that_takes_it(self):
        import gzip
        import json

        session = new_session()
        phone = APIClient()
        phone.credentials(HTTP_X_SEAT_TOKEN=session.seats.get(index=0).token)
        address = reverse("api:seat-view", args=[session.pk, 0])
        plain = phone.get(address)
        packed = phone.get(address, HTTP_ACCEPT_ENCODING="gzip")
        assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed["Vary"]
        assert len(packed.content) < len(plain.content)
        assert json.loads(gzip.decompress(packed.content)) == plain.json()

    def test_an_event_stream_is_never_compressed(self, user):
        session = new_session(host=user)
        headers = {"Authorization": bearer(user)["HTTP_AUTHORIZATION"], "Accept-Encoding": "gzip"}

        async def opened():
            # AsyncClient runs the whole middleware chain (the server serves streams apart from it)
            response = await AsyncClient().get(events_url(session), headers=headers)
            return response["Content-Type"], response.get("Content-Encoding")

        assert async_to_sync(opened)() == ("text/event-stream", None)


class LiveSchemaTests:
    """Items 3, 4, 6 and 7 as the schema states them (what a generated client is built from)."""

    @pytest.fixture(scope="class")
    @classmethod
    def paths(cls):
        from drf_spectacular.generators import SchemaGenerator

        return SchemaGenerator().get_schema(request=None, public=True)["paths"]

    def test_both_submits_require_an_idempotency_key(self, paths):
        for path in (
            "/api/sessions/{session_id}/seats/{seat_index}/actions/submit/",
            "/api/sessions/{session_id}/table/actions/submit/",
        ):
            (key,) = [p for p in paths[path]["post"]["parameters"] if p["name"] == "Idempotency-Key"]
            assert key["required"] is True and key["schema"]["minLength"] == 1

    def test_the_stream_is_an_operation_with_its_events_reconnection_and_fallback(self, paths):
        stream = paths["/api/sessions/{session_id}/events/"]["get"]
        assert stream["operationId"] == "session_events"
        assert set(stream["responses"]["200"]["content"]) == {"text/event-stream"}
        assert {"Last-Event-ID", "lastEventId", "X-Seat-Token"} <= {p["name"] for p in stream["parameters"]}
        for waited in ("429", "503"):
            assert "Retry-After" in stream["responses"][waited]["headers"]
            assert "text/plain" in stream["responses"][waited]["content"]
        assert '{"type": "session_version", "session": <id>, "version": <n>}' in stream["description"]
        assert "If-None-Match" in stream["description"]

    def test_the_views_declare_304_and_if_none_match(self, paths):
        for path in (
            "/api/sessions/{session_id}/",
            "/api/sessions/{session_id}/table/",
            "/api/sessions/{session_id}/seats/{seat_index}/",
            "/api/sessions/{session_id}/seats/{seat_index}/actions/",
        ):
            operation = paths[path]["get"]
            assert "ETag" in operation["responses"]["304"]["headers"], path
            assert "If-None-Match" in {p["name"] for p in operation["parameters"]}, path

    def test_seat_find_takes_the_token_in_its_body_only(self, paths):
        find = paths["/api/seats/find/"]["post"]
        assert find["operationId"] == "seat_find"
        assert "parameters" not in find or not [p for p in find["parameters"] if "token" in p["name"].lower()]

    def test_every_session_and_auth_operation_is_described_for_client_developers(self, paths):
        for path, operations in paths.items():
            for method, operation in operations.items():
                if operation["tags"][0] in ("sessions", "auth"):
                    description = operation.get("description", "")
                    assert description and "``" not in description and "self." not in description, (
                        method,
                        path,
                    )
