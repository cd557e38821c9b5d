"""The smaller holes of issue 14, each answered with a 4xx and a message, never a 5xx."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from api.campaigns.filters import TIME_OUT_OF_RANGE
from campaign.models import House
from campaign.services.chronicles import game_begin
from campaign.services.common import NAME_CONTROL_CHARACTERS
from config.input_guard import NUL_IN_PARAMETER, NUL_IN_PATH
from games import versions
from games.models import GameSession, SessionAction
from games.services.sessions import session_create
from games.services.taps import IDEMPOTENCY_KEY_OTHER_BODY
from tests.integration.api.test_sessions import concrete, first_move, phone, session, url  # noqa: F401

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


class HistoryFilterTests:
    @pytest.mark.parametrize("value", ["²", "٣", "99999999999999999999999", "-1", "0", "abc"])
    def test_odd_sticker_filters_never_answer_500(self, client, harald, value):
        campaign = harald[0]
        client.force_login(campaign.created_by)
        response = client.get(f"/campaigns/{campaign.pk}/history/", {"sticker": value})
        assert response.status_code in (200, 400)


class IdempotencyKeyTests:
    def test_a_key_reused_with_another_body_is_422_and_nothing_is_applied(self, api, session):  # noqa: F811
        seat, version = first_move(api, session)
        client = phone(session["seats"][seat]["token"])
        action = concrete(
            client.get(url("seat-legal-actions", session, seat_index=seat)).json()["choices"][0]["choice"]
        )
        address = url("seat-action-submit", session, seat_index=seat)
        first = client.post(
            address, {"action": action, "expected_version": version}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
        )
        assert first.status_code == 200, first.json()
        count = SessionAction.objects.filter(session_id=session["id"]).count()
        other = {**action, "note": "another body"}
        again = client.post(
            address, {"action": other, "expected_version": version}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
        )
        assert again.status_code == 422
        assert again.json() == {
            "message": IDEMPOTENCY_KEY_OTHER_BODY,
            "code": "idempotency_key_reused",
            "extra": {},
        }
        assert SessionAction.objects.filter(session_id=session["id"]).count() == count


class SessionVersionTests:
    """/play/s/<id>/version answers the same to a stranger for a missing session and an existing
    one; a page that may see the session polls with the key it was given."""

    def test_a_stranger_cannot_tell_an_existing_session_from_a_missing_one(self, client):
        live = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        missing = GameSession.objects.order_by("-pk").first().pk + 1000
        answers = []
        for session_id in (live.pk, missing):
            response = client.get(reverse("games:session_version", args=[session_id]), {"v": 1})
            answers.append((response.status_code, response.content))
        assert answers[0] == answers[1] and answers[0][0] == 404

    def test_a_wrong_key_is_the_same_answer(self, client):
        live = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        other = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        response = client.get(
            reverse("games:session_version", args=[live.pk]), {"v": 1, "k": versions.poll_key(other.pk)}
        )
        assert response.status_code == 404

    def test_the_seat_page_polls_with_its_key_and_no_login(self, client):
        live = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        seat = live.seats.get(index=0)
        html = client.get(reverse("games:seat_page", args=[seat.token])).content.decode()
        link = (
            reverse("games:session_version", args=[live.pk])
            + f"?v={live.version}&k={versions.poll_key(live.pk)}"
        )
        assert link in html.replace("&amp;", "&")
        assert client.get(link).status_code == 204

    def test_a_known_key_is_checked_without_a_query(self, client, django_assert_num_queries):
        live = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        link = reverse("games:session_version", args=[live.pk])
        client.get(link, {"v": live.version, "k": versions.poll_key(live.pk)})
        with django_assert_num_queries(0):
            assert client.get(link, {"v": live.version, "k": versions.poll_key(live.pk)}).status_code == 204


BAD_NAMES = ["Sme\u202ethe", "Sme\x1bthe", "Sme\x00the", "A\u2066B"]


class ControlCharacterTests:
    @pytest.mark.parametrize("name", BAD_NAMES)
    def test_house_names_refuse_control_and_bidi_characters(self, api, harald, name):
        campaign = harald[0]
        before = House.objects.count()
        response = api.post(
            f"/api/campaigns/{campaign.pk}/houses/create/", {"name": name, "number": 11}, format="json"
        )
        assert response.status_code == 400 and response.json()["message"]
        assert House.objects.count() == before

    @pytest.mark.parametrize("name", BAD_NAMES)
    def test_seat_names_refuse_them(self, api, name):
        before = GameSession.objects.count()
        body = {"game": "for_the_king", "seat_names": [name, "Ben", "Cleo"]}
        response = api.post(reverse("api:session-create"), body, format="json")
        assert response.status_code == 400 and response.json()["message"]
        assert GameSession.objects.count() == before

    @pytest.mark.parametrize("name", BAD_NAMES)
    def test_campaign_names_refuse_them(self, api, name):
        response = api.post("/api/campaigns/create/", {"name": name}, format="json")
        assert response.status_code == 400 and response.json()["message"]

    def test_a_name_with_letters_of_any_script_is_fine(self, api, harald):
        campaign = harald[0]
        response = api.post(
            f"/api/campaigns/{campaign.pk}/houses/create/",
            {"name": "Ŝmeéthe שלום", "number": 11},
            format="json",
        )
        assert response.status_code == 201, response.json()


def production_setting(name: str, **env) -> str:
    code = f"from django.conf import settings; print(settings.{name})"
    environment = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECURE_HSTS_PRELOAD")
        },
        "DEBUG": "0",
        "SECRET_KEY": "x" * 60,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


class HstsTests:
    def test_preload_is_off_unless_asked_for(self):
        assert production_setting("SECURE_HSTS_PRELOAD") == "False"
        assert production_setting("SECURE_HSTS_PRELOAD", SECURE_HSTS_PRELOAD="1") == "True"


class ExpiringTokenTests:
    def test_a_token_older_than_its_lifetime_is_refused_and_a_new_login_gives_a_new_one(self, settings, user):
        import datetime

        from django.utils import timezone
        from rest_framework.test import APIClient

        from api.authentication import TOKEN_EXPIRED
        from api.models import DeviceToken

        user.set_password("secret-pass")
        user.save()
        client = APIClient()
        body = {"username": user.username, "password": "secret-pass"}
        first = client.post("/api/auth/token/", body, format="json").json()
        assert "expires_at" in first
        client.credentials(HTTP_AUTHORIZATION=f"Token {first['token']}")
        assert client.get("/api/campaigns/").status_code == 200
        DeviceToken.objects.filter(pk=first["id"]).update(
            created=timezone.now() - datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME + 1)
        )
        expired = client.get("/api/campaigns/")
        assert expired.status_code == 401 and expired.json()["message"] == TOKEN_EXPIRED
        client.credentials()
        second = client.post("/api/auth/token/", body, format="json").json()
        assert second["token"] != first["token"]


class HistorySinceTests:
    def test_a_time_with_any_iso_offset_is_read_not_a_500(self, api, harald):
        campaign, *_ = harald
        response = api.get(
            f"/api/campaigns/{campaign.pk}/history/", {"since": "3569-05-17T03:27:16.448469+17:57"}
        )
        assert response.status_code == 200

    @pytest.mark.parametrize("since", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
    def test_a_time_out_of_range_in_utc_is_a_400_that_says_so(self, api, harald, since):
        campaign, *_ = harald
        response = api.get(f"/api/campaigns/{campaign.pk}/history/", {"since": since})
        assert response.status_code == 400
        assert str(TIME_OUT_OF_RANGE) in str(response.json())


class NulCharacterTests:
    """Issue 25: a NUL in a query value or a seat token answered 500 on PostgreSQL."""

    def test_a_nul_in_a_query_value_is_a_400_naming_the_parameter(self, api, harald):
        campaign, *_ = harald
        response = api.get(f"/api/campaigns/{campaign.pk}/history/", {"kind": "sticker\x00"})
        assert response.status_code == 400
        assert response.json()["message"] == NUL_IN_PARAMETER.format(name="kind")

    def test_a_nul_in_a_seat_token_is_a_400_page(self, client):
        response = client.get("/play/seat/abc%00def/")
        assert response.status_code == 400
        assert str(NUL_IN_PATH) in response.content.decode()

    def test_a_nul_in_an_api_path_is_a_400_in_the_api_shape(self, api):
        response = api.get("/api/sessions/1/seats/ab%00c/")
        assert response.status_code == 400 and response.json()["message"] == NUL_IN_PATH


class HugeIdTests:
    """Issue 25: on SQLite, a session id of 2**63 or more answered 500 (the driver's overflow)."""

    @pytest.mark.parametrize("number", [2**63, 2**64 + 5, 10**18])
    @pytest.mark.parametrize(
        "path",
        ["/api/sessions/{n}/seats/0/", "/api/sessions/{n}/seats/0/actions/submit/", "/api/sessions/{n}/"],
    )
    def test_an_id_beyond_the_databases_is_a_404(self, api, number, path):
        api.credentials(HTTP_AUTHORIZATION="Token anything", HTTP_X_SEAT_TOKEN="anything")
        response = (
            api.post(path.format(n=number), {}, format="json")
            if "submit" in path
            else api.get(path.format(n=number))
        )
        assert response.status_code in (401, 403, 404), response.content[:200]

    def test_a_page_with_a_huge_id_is_a_404(self, client):
        assert client.get(f"/play/s/{2**63}/").status_code == 404


class KingNameTests:
    """Issue 25: the API's games/begin accepted control and bidi characters the pages refuse."""

    @pytest.mark.parametrize("king_name", ["Evil\u202eKing", "Bell\x07", "Esc\x1b[31m"])
    def test_control_and_bidi_characters_are_refused_and_no_game_begins(self, api, harald, king_name):
        campaign, *_ = harald
        before = campaign.games.count()
        response = api.post(
            f"/api/campaigns/{campaign.pk}/games/begin/", {"king_name": king_name}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["message"] == f"king_name: {NAME_CONTROL_CHARACTERS}"
        assert campaign.games.count() == before

    def test_the_service_refuses_them_too(self, harald):
        campaign, *_ = harald
        with pytest.raises(ValidationError, match="control characters"):
            game_begin(campaign=campaign, king_name="A\u202eB")
        assert not campaign.games.filter(king_name="A\u202eB").exists()


class UrlConverterTests:
    def test_no_url_takes_an_unbounded_int(self):
        """Every id in a path goes through the <id:> converter (config/converters.py)."""
        from django.urls import URLResolver, get_resolver
        from django.urls.converters import IntConverter

        def patterns(resolver, prefix=""):
            for entry in resolver.url_patterns:
                yield prefix + str(entry.pattern), entry.pattern
                if isinstance(entry, URLResolver):
                    yield from patterns(entry, prefix + str(entry.pattern))

        unbounded = [
            route
            for route, pattern in patterns(get_resolver())
            if any(isinstance(c, IntConverter) for c in getattr(pattern, "converters", {}).values())
        ]
        assert unbounded == []
