"""Schema fuzzing (schemathesis): for every operation of /api/schema/, a few generated requests,
valid and invalid, authenticated as the host of a seeded campaign: never a 5xx, and every
response (status, content type, body) is one the schema declares.

Bounded to stay well under a minute: 25 examples per operation and mode (derandomized), no coverage phase.
Schemathesis's own pytest plugin (``schema.parametrize``) does not run under pytest 9 in
4.32.5, so each operation is a plain parametrized test driving ``operation.as_strategy``."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from campaign import services
from games.services import session_create
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.conftest import HARALD, harald_rows

pytestmark = pytest.mark.django_db

SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
SCHEMA.app = get_wsgi_application()
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
# Invalid data needs something to make invalid: a body or a query parameter (path ids are fixed).
CASES = [(op, GenerationMode.POSITIVE) for op in OPERATIONS] + [
    (op, GenerationMode.NEGATIVE) for op in OPERATIONS if op.body or op.query
]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
TOKEN = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def seeded(db):
    """The Harald campaign with a recorded game, a sticker and an envelope, and a For the King
    session, all of one host (whose token the requests carry).
    The WSGI application shares the test's connection (as Django's test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    host = UserFactory(username="fuzz-host")
    campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD], user=host, name="Harald")
    game = services.game_begin(campaign=campaign, king_name="Harald V")
    rows = [{**row, "house": house} for row, house in zip(harald_rows(houses), houses, strict=True)]
    services.game_result_record(game=game, end="king_died", rows=rows)
    services.sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=houses[1])
    services.envelope_open(campaign=campaign, number=5, special=True, trigger_numbers=[90])
    session = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], host=host)
    yield {
        "host": host,
        "ids": {
            "campaign_id": campaign.pk,
            "house_id": houses[0].pk,
            "game_id": game.pk,
            "achievement_id": houses[0].achievements.first().pk,
            "session_id": session.pk,
            "seat_index": 1,
        },
        "seat_token": session.seats.get(index=1).token,
    }
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.parametrize(("operation", "mode"), CASES, ids=[f"{op.label} {mode}" for op, mode in CASES])
def test_the_api_keeps_to_its_schema(operation, mode, seeded):
    # Path ids point into the seeded campaign and session, and the seat token opens seat 1, so
    # requests reach the services (unknown ids and refusals are covered in the other modules).
    names = {p.name for p in operation.path_parameters}
    strategy = operation.as_strategy(
        generation_mode=mode,
        path_parameters={k: v for k, v in seeded["ids"].items() if k in names},
        headers={"Authorization": f"Token {TOKEN}", "X-Seat-Token": seeded["seat_token"]},
    )

    @given(case=strategy)
    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        Token.objects.get_or_create(user=seeded["host"], defaults={"key": TOKEN})  # revoke may drop it
        case.call_and_validate(checks=CHECKS)

    run()
