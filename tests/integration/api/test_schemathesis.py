"""Schema fuzzing (schemathesis): for every operation of /api/schema/, a few generated requests,
valid and invalid, authenticated as the host of a seeded campaign: never a 5xx, and every
response (status, content type, body) is one the schema declares.

Every operation is reached: the path ids are the seeded campaign's and session's, and every
request carries the host's token and seat 1's X-Seat-Token (so the session and seat operations
reach their views instead of the seat-token limiter). The API's throttle is off here
(API_RATE ""): test_statuses.py provokes its 429.

Bounded to stay well under a minute: 25 examples per operation and mode (derandomized), no coverage
phase; CHRONICLE_SCHEMA_EXAMPLES=100 by hand for a deeper run (about 3 minutes on 2 cores).
Schemathesis's own pytest plugin (``schema.parametrize``) does not run under pytest 9 in
4.32.5, so each operation is a plain parametrized test driving ``operation.as_strategy``."""

import json
import os
import re

import hypothesis
import pytest
import schemathesis
from allauth.account.adapter import DefaultAccountAdapter
from django.core.wsgi import get_wsgi_application
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given
from rest_framework.fields import FileField as DrfFileField
from schemathesis import GenerationMode
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.fields import NAME_CONTROL_CHARACTERS
from api.sessions import serializers as session_serializers
from api.sessions import views as session_views
from campaign.services import common, game_nights
from campaign.services.archive import format as archive_format
from campaign.services.archive.upload import ARCHIVE_NOT_JSON
from campaign.services.chronicles import (
    PAPER_GAME_NIGHT_RUNNING,
    RESULT_ALREADY,
    RESULT_HOUSE_TWICE,
    RESULT_NOT_RECORDED,
)
from campaign.services.common import CAMPAIGN_CLOSED
from campaign.services.envelopes import (
    DILEMMA_CARD_TWICE,
    DILEMMA_CARD_UNKNOWN,
    ENVELOPE_ALREADY_OPENED,
    ENVELOPE_CARDS_PLAYED,
    GRAND_FINALE_NOT_YET,
    STANDARD_ENVELOPE_CARDS,
    STARTING_DECK_EMPTY,
    STORY_CARD_TWICE,
    STORYLINE_REQUIRED,
)
from campaign.services.houses import (
    ACHIEVEMENT_FULL,
    CAMPAIGN_NAME_REQUIRED,
    HOUSE_LIMIT,
    HOUSE_NAME_REQUIRED,
    HOUSE_NUMBER_TAKEN,
)
from campaign.services.members import (
    HOUSE_ALREADY_PLAYED,
    INVITATION_ALREADY_REVOKED,
    INVITATION_EXPIRED,
    INVITATION_HOUSE_PLAYER,
    INVITATION_REVOKED,
    INVITATION_USED,
    LAST_OWNER_DEMOTE,
    LAST_OWNER_REMOVE,
    ONE_HOUSE_PER_PLAYER,
)
from campaign.services.stickers import (
    AGING_MARKS_RANGE,
    AGING_MARKS_UNCHANGED,
    MYSTERY_ALL_ATTACHED,
    MYSTERY_ALREADY,
    NOTHING_TO_CORRECT,
    STICKER_ALREADY_ATTACHED,
)
from campaign.services.stories import STORY_LINK_NONE
from games.engines.kernel import rules
from games.services.sessions import (
    BOT_SEAT_UNKNOWN,
    CONFIG_SEATS,
    SEAT_COUNT,
    SEAT_NAME_INVALID,
    SEAT_NAME_REQUIRED,
    SEAT_NAME_TWICE,
    SESSION_NOT_ABANDONED,
    SETUP_REFUSED,
)
from games.services.taps import (
    ACTION_NOT_STORABLE,
    ACTION_TEXT_CONTROL,
    ACTION_UNKNOWN_KEYS,
    IDEMPOTENCY_KEY_OTHER_BODY,
    SESSION_NOT_RUNNING,
)
from tests.integration.api.conftest import host_tokens_back

pytestmark = [pytest.mark.database, pytest.mark.django_db]

SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
SCHEMA.app = get_wsgi_application()
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
# Invalid data needs something to make invalid: a body or a query parameter (path ids are fixed).
CASES = [(op, GenerationMode.POSITIVE) for op in OPERATIONS] + [
    (op, GenerationMode.NEGATIVE) for op in OPERATIONS if op.body or op.query
]


def _sentence(template: str) -> re.Pattern:
    """A service message constant as a pattern: its {placeholders} match anything."""
    parts = re.split(r"\{[^}]*\}", str(template))  # str(): a lazy message, in English
    return re.compile(".*".join(re.escape(part) for part in parts))


# Refusals of schema-valid data that the schema cannot express: the state of the campaign or the
# table (already attached, already recorded), an id that is not there, a rule across fields,
# wrong credentials. schemathesis calls allowing them "tuning" positive_data_acceptance (ST202).
# Every other refusal of schema-valid data fails, ranges first: those belong in the schema.
RULE_REFUSALS = [
    _sentence(m)
    for m in (
        "Unable to log in with provided credentials.",
        CAMPAIGN_NAME_REQUIRED,
        HOUSE_NAME_REQUIRED,
        HOUSE_NUMBER_TAKEN,
        HOUSE_LIMIT,
        STICKER_ALREADY_ATTACHED,
        ENVELOPE_ALREADY_OPENED,
        STANDARD_ENVELOPE_CARDS,
        GRAND_FINALE_NOT_YET,  # Envelope 70 before the campaign's sixth Mystery sticker
        STARTING_DECK_EMPTY,
        NOTHING_TO_CORRECT,
        ENVELOPE_CARDS_PLAYED,
        DILEMMA_CARD_TWICE,
        STORY_CARD_TWICE,
        STORYLINE_REQUIRED,
        ACHIEVEMENT_FULL,
        MYSTERY_ALREADY,
        MYSTERY_ALL_ATTACHED,
        RESULT_HOUSE_TWICE,
        RESULT_ALREADY,
        RESULT_NOT_RECORDED,
        CAMPAIGN_CLOSED,
        game_nights.NIGHT_HOUSE_TWICE,
        *game_nights.NIGHT_KEEP_TWO.values(),
        # One night at a time: the state of the campaign's nights and games on paper.
        game_nights.NIGHT_RUNNING,
        game_nights.NIGHT_PAPER_GAME,
        game_nights.NIGHT_ALREADY_RECORDED,
        PAPER_GAME_NIGHT_RUNNING,
        SESSION_NOT_ABANDONED,
        AGING_MARKS_RANGE,  # the campaign's aging squares (its settings), within the schema's bound
        # A count's message in its two forms (one mark, more marks), its count a placeholder too.
        *(
            AGING_MARKS_UNCHANGED.format(number="{n}", marks=m).replace(f"has {m} ", "has {m} ")
            for m in (1, 2)
        ),
        SEAT_COUNT,
        SEAT_NAME_REQUIRED,
        SEAT_NAME_TWICE,
        SESSION_NOT_RUNNING,
        IDEMPOTENCY_KEY_OTHER_BODY,
        "{x} cannot be undone{y}",
        # Django's password validators: how like the username a password is, and whether it is one
        # of the common ones, is no pattern a schema can state.
        "The password is too similar to the {x}.",
        "This password is too common.",
        "This password is entirely numeric.",
        "Invalid pk {x} - object does not exist.",
        session_serializers.ACTION_NUL,
        session_serializers.SETTINGS_NUL,
        NAME_CONTROL_CHARACTERS,
        common.NAME_CONTROL_CHARACTERS,
        common.TEXT_CONTROL_CHARACTERS,  # as a name's: the pattern says it, generators may not heed it
        # An action holds what its offered choice names, in texts the archive carries (its state).
        ACTION_UNKNOWN_KEYS,
        ACTION_TEXT_CONTROL,
        ACTION_NOT_STORABLE,
        DILEMMA_CARD_UNKNOWN,
        SEAT_NAME_INVALID,
        BOT_SEAT_UNKNOWN,
        SETUP_REFUSED,  # an engine's config rule (e.g. a House's Power beyond the box)
        session_views.CONFIG_WRONG,  # another game's settings than the body's game (a rule across fields)
        CONFIG_SEATS,  # settings for another number of seats than seat_names
        STORY_LINK_NONE,
        # Members and invitations: the state of an invitation, a House or the campaign's owners.
        INVITATION_ALREADY_REVOKED,
        INVITATION_HOUSE_PLAYER,
        INVITATION_EXPIRED,
        INVITATION_REVOKED,
        INVITATION_USED,
        HOUSE_ALREADY_PLAYED,
        ONE_HOUSE_PER_PLAYER,
        LAST_OWNER_DEMOTE,
        LAST_OWNER_REMOVE,
        rules.UNKNOWN_ACTION,  # which actions a game knows (and takes now) is its state's legal_actions
        # An import: what the file holds (a generated file is never an archive), and a file part of no
        # bytes, which the multipart parser reads as empty or as no file at all: the schema says a file,
        # never how long it is.
        ARCHIVE_NOT_JSON,
        *(str(DrfFileField.default_error_messages[key]) for key in ("required", "empty")),
        archive_format.ARCHIVE_NOT_AN_OBJECT,
        archive_format.ARCHIVE_WRONG_FORMAT,
        archive_format.ARCHIVE_WRONG_VERSION,
        archive_format.ARCHIVE_DAMAGED,
        archive_format.ARCHIVE_TOO_DEEP,
        # Sign-up: a username or an email address another account has (allauth's words).
        *(str(DefaultAccountAdapter.error_messages[key]) for key in ("username_taken", "email_taken")),
    )
]


@schemathesis.check
def positive_data_acceptance_but_rules(ctx, response, case):
    """positive_data_acceptance (ST202), except the refusals the schema cannot express (a 400
    with one of RULE_REFUSALS, or a 409 for a stale version)."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if response.status_code == 409:
            return None
        if response.status_code == 400:
            message = json.loads(response.content or b"{}").get("message", "")
            if any(rule.search(message) for rule in RULE_REFUSALS):
                return None
        raise


# More examples by hand: CHRONICLE_SCHEMA_EXAMPLES=300 (make test keeps the default).
EXAMPLES = int(os.environ.get("CHRONICLE_SCHEMA_EXAMPLES", "25"))
TOKEN = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(("operation", "mode"), CASES, ids=[f"{op.label} {mode}" for op, mode in CASES])
def test_the_api_keeps_to_its_schema(operation, mode, seeded, settings):
    settings.API_RATE = ""  # every request is the host's: the throttle is test_statuses.py's
    # Path ids point into the seeded campaign and session, and the seat token opens seat 1, so
    # requests reach the services (unknown ids and refusals are covered in the other modules).
    names = {p.name for p in operation.path_parameters}
    strategy = operation.as_strategy(
        generation_mode=mode,
        path_parameters={k: v for k, v in seeded["ids"].items() if k in names},
        # identity: schemathesis's WSGI transport reads the body as sent, and the API gzips for those who ask
        headers={
            "Authorization": f"Token {TOKEN}",
            "X-Seat-Token": seeded["seat_token"],
            "Accept-Encoding": "identity",
        },
    )

    @given(case=strategy)
    @hypothesis.settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        host_tokens_back(seeded, TOKEN)  # a revoke may drop one
        # Every check: no 5xx, no schema violation (ST201 negative data accepted, ST202 positive
        # data refused, the latter tuned for the rules the schema cannot express).
        response = case.call_and_validate(
            excluded_checks=[positive_data_acceptance],
            additional_checks=[positive_data_acceptance_but_rules],
        )
        statuses.add(response.status_code)

    statuses: set[int] = set()
    run()
    if mode == GenerationMode.POSITIVE:  # valid requests get past the credentials and the limits
        assert statuses - {401, 403, 429}, statuses
