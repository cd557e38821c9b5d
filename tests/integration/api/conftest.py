import uuid

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.utils import timezone
from rest_framework.test import APIClient

from api.models import DeviceToken, token_digest
from campaign.services.archive.export_queue import campaign_export_request, campaign_export_write
from campaign.services.chronicles import game_begin, game_result_record
from campaign.services.envelopes import envelope_open
from campaign.services.members import invitation_accept, invitation_create
from campaign.services.stickers import sticker_attach
from games.services.sessions import session_create
from tests.factories import HARALD, HARALD_AGENDAS, UserFactory, campaign_with_houses
from tests.factories import harald_rows as factory_harald_rows

AGENDAS = HARALD_AGENDAS


def harald_rows(houses, agendas=AGENDAS):
    """The King Harald V Realm Chronicles table as an API body (House ids)."""
    return factory_harald_rows(houses, agendas, house_key=lambda h: h.pk)


def device_token(user, key: str, name: str = "Test phone") -> DeviceToken:
    """The user's device token of this key (made if missing), last used just now: the request
    path's minute-old write of its last use is not due (test_devices.py counts that one)."""
    token, _ = DeviceToken.objects.get_or_create(
        digest=token_digest(key), defaults={"user": user, "name": name, "last_used": timezone.now()}
    )
    return token


ANOTHER_PHONE = "Another phone"


def host_tokens_back(seeded: dict, key: str) -> None:
    """The seeded host's token of this key, and their other device (the id the device
    operations take), again: a revoke drops one of them."""
    device_token(seeded["host"], key)
    DeviceToken.objects.get_or_create(
        pk=seeded["ids"]["device_id"],
        defaults={"user": seeded["host"], "name": ANOTHER_PHONE, "digest": token_digest("another-phone")},
    )


def token_client(user) -> APIClient:
    client = APIClient()
    key = f"test-token-of-{user.pk}"
    device_token(user, key)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def host(db):
    return UserFactory(username="host")


@pytest.fixture
def harald(host):
    """A campaign of five Houses (the King Harald V table), its first game begun."""
    campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD], user=host, name="Harald")
    game = game_begin(campaign=campaign, king_name="Harald V")
    return campaign, houses, game


@pytest.fixture
def api(host) -> APIClient:
    """The host of the Harald campaign, authenticated with a token."""
    return token_client(host)


@pytest.fixture
def stranger(db) -> APIClient:
    """A member of another campaign only."""
    user = UserFactory(username="stranger")
    campaign_with_houses("Elsewhere", user=user, name="Another campaign")
    return token_client(user)


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def seeded(db, settings, tmp_path):
    """The Harald campaign with a recorded game, a sticker, an envelope and an export written
    (under tmp_path), and a For the King session, all of one host (whose token the requests carry): the ids of each path parameter
    and seat 1's token, for the schema tests (test_schemathesis.py, test_statuses.py).
    The WSGI application shares the test's connection (as Django's test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    host = UserFactory(username="fuzz-host")
    campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD], user=host, name="Harald")
    game = game_begin(campaign=campaign, king_name="Harald V")
    rows = [{**row, "house": house} for row, house in zip(harald_rows(houses), houses, strict=True)]
    game_result_record(game=game, end="king_died", rows=rows)
    sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=houses[1])
    envelope_open(campaign=campaign, number=5, special=True, trigger_numbers=[90])
    session = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], host=host)
    another_phone = device_token(host, "another-phone", name=ANOTHER_PHONE)
    invitation = invitation_create(campaign=campaign, role="viewer", actor=host)
    invitation_accept(invitation=invitation, user=UserFactory(username="fuzz-viewer"))
    settings.MEDIA_ROOT = tmp_path
    export = campaign_export_request(campaign=campaign, requested_by=host)
    campaign_export_write(export_id=export.pk)
    yield {
        "host": host,
        "ids": {
            "campaign_id": campaign.pk,
            "house_id": houses[0].pk,
            "game_id": game.pk,
            "achievement_id": houses[0].achievements.first().pk,
            "session_id": session.pk,
            "seat_index": 1,
            "sticker_number": 43,
            "envelope_number": 5,
            "card_number": campaign.dilemma_cards.order_by("number").first().number,
            "device_id": another_phone.pk,
            "member_id": campaign.memberships.get(user__username="fuzz-viewer").pk,
            "invitation_id": invitation.pk,
            "token": invitation.token,
            "export_id": export.pk,
        },
        "seat_token": session.seats.get(index=1).token,
    }
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def fresh_key() -> dict:
    """A new Idempotency-Key header for a submit (the API requires one: a new key per action)."""
    return {"HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex}
