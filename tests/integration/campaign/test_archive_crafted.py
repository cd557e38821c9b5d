"""Crafted archives (issue 23, "An import that cannot hurt"): every value an archive brings is held
to what the rules and both databases allow before anything is written. Each crafted archive below
is refused with a message saying where and why, and nothing is written; an archive one random
value away from a valid one is either refused the same way or renders every page of the imported
campaign and can start a night. Runs on SQLite and PostgreSQL (``database``): the two used to
disagree (SQLite stores 64 bits in any integer column; PostgreSQL refuses NUL and Infinity in
JSON; a date at the edge of the range overflowed Python on one and the pages on the other)."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaign.demo import demo_campaign_load
from campaign.models import Campaign, CampaignEvent, ChronicleSticker, House, LedgerEntry
from campaign.selectors import night_running
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.format import ARCHIVE_MAX_BYTES, FIELDS, houses_mapped
from campaign.services.archive.restore import campaign_import
from campaign.services.archive.upload import ARCHIVE_TOO_LARGE
from campaign.services.archive.value_checks import (
    ARCHIVE_VALUE,
    DATE_FORMAT,
    DATE_MAX_YEAR,
    DATE_MIN_YEAR,
    DATE_RANGE,
    DATETIME_FORMAT,
    EFFECT_UNKNOWN,
    FINALE_MISMATCH,
    JSON_KEY,
    JSON_MAX_CHARS,
    JSON_NUMBER,
    JSON_OBJECT,
    JSON_TOO_DEEP,
    JSON_TOO_LARGE,
    MYSTERY_TOO_MANY,
    NIGHT_IMPOSSIBLE,
    NUMBER_RANGE,
    SESSION_LOG_REFUSED,
    TEXT_CONTROL,
    TEXT_KIND,
    TEXT_TOO_LONG,
    TRUE_OR_FALSE,
    WHOLE_NUMBER,
)
from campaign.services.chronicles import CAMPAIGN_CLOSED, legacy_setup_compute
from campaign.services.game_nights import game_night_start
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import UNKNOWN_ACTION
from games.models import GameSession
from games.services.sessions import session_abandon
from tests.unit.contract import property_examples

pytestmark = [pytest.mark.database, pytest.mark.django_db]

NOW = "2026-11-24T12:00:00+00:00"
EDGE_DATETIMES = ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "1899-12-31T23:00:00"]
OUT_OF_WINDOW = DATE_RANGE.format(low=DATE_MIN_YEAR, high=DATE_MAX_YEAR)
# A card met before, in the stored form the night writes ("cards met"): both backs as typed.
KNOWN_CARD = {
    "aye": {"resources": [["wealth", -2]], "sticker": None, "envelope": None, "lightning": False, "note": ""},
    "nay": None,
}


@pytest.fixture(scope="module")
def archive_text(django_db_blocker) -> str:
    """The demo campaign's archive (built once, its rows rolled back) with a night being played at
    the table (a session, its seats, the deal in its log), a Mystery sticker, a known Dilemma card in the deck
    and an event with details, so that every section has a row 0."""
    with django_db_blocker.unblock(), transaction.atomic():
        demo = demo_campaign_load()
        night = game_night_start(  # its first action, the deal, is logged at once
            campaign=demo, houses=list(demo.houses.order_by("number"))[:3], king_name="Crafted", seed=3
        )
        data = json.loads(archive_dumps(campaign_archive(campaign=demo)))
        # The cached state in full, as an export carried it before (today's writes {}).
        numbers = {house.pk: house.number for house in demo.houses.all()}
        data["sessions"][0]["state"] = houses_mapped(night.state, numbers.get)
        transaction.set_rollback(True)
    data["mystery_stickers"].append({"letter": "B", "storyline": "Crown", "game": 1, "attached_at": NOW})
    data["dilemma_cards"].insert(
        0,
        {
            "number": 50,
            "kind": "dilemma",
            "place": "deck",
            "title": "Bread taxes",
            "outcomes": KNOWN_CARD,
            "envelope": None,
            "resolved_in": None,
        },
    )
    data["events"][0]["data"] = {"number": 43, "note": "two\nlines", "list": [1, 2.5, None, True]}
    return json.dumps(data)


@pytest.fixture
def archive(archive_text):
    return json.loads(archive_text)


def renumber_game(archive: dict, old: int, new: int) -> None:
    """Give game ``old`` the number ``new``, in the game and in every row that names it."""
    for section, rows in archive.items():
        for row in rows if isinstance(rows, list) else []:
            for key in (
                ("number",)
                if section == "games"
                else ("game", "unlocked_in", "resolved_in", "chronicle_game")
            ):
                if row.get(key) == old:
                    row[key] = new


def counts():
    return (
        Campaign.objects.count(),
        House.objects.count(),
        ChronicleSticker.objects.count(),
        LedgerEntry.objects.count(),
        CampaignEvent.objects.count(),
    )


def import_refused(archive: dict, owner) -> str:
    """The import's refusal (all its messages), after checking that nothing was written."""
    before = counts()
    with pytest.raises(ValidationError) as error:
        campaign_import(archive=archive, owner=owner)
    assert counts() == before
    return " ".join(error.value.messages)


def refusal(where: str, problem: str) -> str:
    return ARCHIVE_VALUE.format(where=where, problem=problem)


def setter(section: str, field: str, value, index: int = 0):
    def damage(a):
        if section == "campaign":
            a["campaign"][field] = value
        else:
            a[section][index][field] = value

    return damage


# ---- The parametrised list -------------------------------------------------------------------

DATE_FIELDS = [
    ("campaign", "created_at"),
    ("games", "created_at"),
    ("ledger", "created_at"),
    ("stickers", "attached_at"),
    ("envelopes", "opened_at"),
    ("mystery_stickers", "attached_at"),
    ("events", "created_at"),
]


def _where(section: str, field: str, index: int = 0) -> str:
    return f"campaign.{field}" if section == "campaign" else f"{section}[{index}].{field}"


CRAFTED: dict[str, tuple] = {}
for section, field in DATE_FIELDS:
    for value in EDGE_DATETIMES:
        CRAFTED[f"{section}.{field} = {value}"] = (
            setter(section, field, value),
            refusal(_where(section, field), OUT_OF_WINDOW),
        )
    for value in ["2026-13-01T00:00:00+00:00", "soon", 20261124, "2026-11-24T12:00:00+00:00" + " " * 40]:
        CRAFTED[f"{section}.{field} = {value!r}"[:80]] = (
            setter(section, field, value),
            refusal(_where(section, field), DATETIME_FORMAT),
        )
for value, problem in [
    ("0001-01-01", OUT_OF_WINDOW),
    ("9999-12-31", OUT_OF_WINDOW),
    ("1899-12-31", OUT_OF_WINDOW),
    ("2026-W47-2", DATE_FORMAT),
    ("20261124", DATE_FORMAT),
    ("2026-02-30", DATE_FORMAT),
]:
    CRAFTED[f"games.played_on = {value}"] = (
        setter("games", "played_on", value),
        refusal("games[0].played_on", problem),
    )

# Every integer field of every section, past PostgreSQL's column and the 64 bits of SQLite.
INTEGER_FIELDS = [
    (section, field.name)
    for section, (model, names) in FIELDS.items()
    for field in (model._meta.get_field(n) for n in names)
    if isinstance(field, models.IntegerField)
]
for section, field in INTEGER_FIELDS:
    # Past the column's end on PostgreSQL (Django's table of ranges), and past 64 bits.
    top = BaseDatabaseOperations.integer_field_ranges[
        FIELDS[section][0]._meta.get_field(field).get_internal_type()
    ][1]
    for value in sorted({top + 1, 2**63}):
        CRAFTED[f"{section}.{field} = {value}"] = (
            setter(section, field, value),
            refusal(_where(section, field), NUMBER_RANGE.split("{")[0]),
        )
    for value in ("7", 7.0, True):
        CRAFTED[f"{section}.{field} = {value!r}"] = (
            setter(section, field, value),
            refusal(_where(section, field), WHOLE_NUMBER),
        )

# The rules' ranges, inside what the column could hold.
RULE_VALUES = [
    ("houses", "number", 0, 1, 12),
    ("houses", "number", 13, 1, 12),
    ("stickers", "number", 178, 1, 177),
    ("envelopes", "number", 75, 0, 74),
    ("games", "number", 10000, 1, 9999),
    ("games", "revision", 1000, 0, 999),
    ("scores", "position", 6, 1, 5),
    ("scores", "prestige", 1000, 0, 999),
    ("scores", "agenda_points", -1000, -999, 999),
    ("ledger", "amount", 1000, -999, 999),
    ("story_cards", "cohesion", 100, 0, 99),
    ("dilemma_cards", "number", 1000, 1, 999),
    ("achievements", "spaces", 11, 1, 10),
]
for section, field, value, low, high in RULE_VALUES:
    CRAFTED[f"rule {section}.{field} = {value}"] = (
        setter(section, field, value),
        refusal(_where(section, field), NUMBER_RANGE.format(low=low, high=high)),
    )

TEXT_FIELDS = [
    ("campaign", "name", 120),
    ("houses", "name", 80),
    ("houses", "player_name", 80),
    ("games", "king_name", 80),
    ("ledger", "reason", 200),
    ("stickers", "title", 120),
    ("stickers", "text", 5000),
    ("achievements", "name", 120),
    ("achievements", "condition", 5000),
    ("achievements", "ability_text", 5000),
    ("story_cards", "storyline", 40),
    ("story_cards", "text", 5000),
    ("dilemma_cards", "title", 120),
    ("mystery_stickers", "storyline", 40),
    ("events", "kind", 40),
    ("events", "summary", 300),
    ("actions", "label", 1000),  # a TextField whose model says 1000: the importer holds to it
]
for section, field, limit in TEXT_FIELDS:
    for bad in ("Sme\x00the", "Sme\x1bthe", "Sme\u202ethe", "Sme\ud800the"):
        CRAFTED[f"{section}.{field} = {bad!r}"] = (
            setter(section, field, bad),
            refusal(_where(section, field), TEXT_CONTROL),
        )
    CRAFTED[f"{section}.{field} too long"] = (
        setter(section, field, "x" * (limit + 1)),
        refusal(_where(section, field), TEXT_TOO_LONG.format(limit=limit)),
    )
    CRAFTED[f"{section}.{field} = a list"] = (
        setter(section, field, ["x"]),
        refusal(_where(section, field), TEXT_KIND),
    )

for section, field in [
    ("campaign", "closed"),
    ("campaign", "grand_finale_ready"),
    ("stickers", "positive"),
    ("stickers", "covered"),
    ("games", "recorded"),
    ("scores", "last"),
    ("envelopes", "special"),
    ("story_cards", "is_ending"),
]:
    for value in (1, "true", None):
        CRAFTED[f"{section}.{field} = {value!r}"] = (
            setter(section, field, value),
            refusal(_where(section, field), TRUE_OR_FALSE),
        )


def _deep(levels):
    value: object = 1
    for _ in range(levels):
        value = {"x": value}
    return value


JSON_CASES = {
    "event data with NUL": ({"note": "a\x00b"}, TEXT_CONTROL),
    "event data with a NUL key": ({"a\x00": 1}, JSON_KEY),
    "event data 1e400": ({"x": json.loads("1e400")}, JSON_NUMBER),
    "event data NaN": ({"x": float("nan")}, JSON_NUMBER),
    "event data -Infinity": ({"x": [float("-inf")]}, JSON_NUMBER),
    "event data 2**63": ({"x": 2**63}, JSON_NUMBER),
    "event data 13 levels": (_deep(13), JSON_TOO_DEEP.format(limit=12)),
    "event data huge": ({"x": ["y" * 1000] * 1100}, JSON_TOO_LARGE.format(limit=JSON_MAX_CHARS)),
    "event data a list": ([1, 2], JSON_OBJECT),
    "event data a string": ("big", JSON_OBJECT),
}
for name, (value, problem) in JSON_CASES.items():
    CRAFTED[name] = (setter("events", "data", value), problem)

CRAFTED.update(
    {
        "effects 1e400": (setter("achievements", "effects", {"prestige": json.loads("1e400")}), "effects"),
        "effects unknown key": (
            setter("achievements", "effects", {"gold": 1}),
            refusal("achievements[0].effects", EFFECT_UNKNOWN.format(key="gold")),
        ),
        "effects start_power 100": (
            setter("achievements", "effects", {"start_power": 100}),
            refusal("achievements[0].effects.start_power", NUMBER_RANGE.format(low=-99, high=99)),
        ),
        "majority bonus 2**40": (
            setter("story_cards", "majority_signer_bonus", {"prestige": 2**40}),
            "majority_signer_bonus.prestige",
        ),
        "resources_final Infinity": (
            setter("games", "resources_final", {"wealth": float("inf")}),
            JSON_NUMBER,
        ),
        "resources_final row 18": (setter("games", "resources_final", {"wealth": 18}), "resources_final"),
        "outcomes with NUL": (setter("dilemma_cards", "outcomes", {"title": "\x00"}), TEXT_CONTROL),
        "outcomes a list": (setter("dilemma_cards", "outcomes", [KNOWN_CARD]), JSON_OBJECT),
        # Settings, with the checks the settings use everywhere (campaign/legacy.py).
        "settings row_capacity 0": (setter("campaign", "settings", {"row_capacity": 0}), "row_capacity"),
        "settings row_capacity 11": (setter("campaign", "settings", {"row_capacity": 11}), "row_capacity"),
        "settings row_capacity 1.5": (setter("campaign", "settings", {"row_capacity": 1.5}), "row_capacity"),
        "settings row_capacity true": (
            setter("campaign", "settings", {"row_capacity": True}),
            "row_capacity",
        ),
        "settings row_capacity 1e400": (
            setter("campaign", "settings", {"row_capacity": json.loads("1e400")}),
            "row_capacity",
        ),
        "settings start_power 66": (setter("campaign", "settings", {"start_power": 66}), "start_power"),
        "settings start_coins -1": (setter("campaign", "settings", {"start_coins": -1}), "start_coins"),
        "settings null": (setter("campaign", "settings", None), "settings"),
        "settings false": (setter("campaign", "settings", False), "settings"),
        "settings shrink the rows under the stickers": (
            setter("campaign", "settings", {"row_capacity": 1}),
            "slot",
        ),
        "a night's conflicts not a list": (
            setter("games", "conflicts", {"kind": "sticker"}),
            "list of objects",
        ),
        "a night's conflicts of texts": (setter("games", "conflicts", ["sticker 43"]), "list of objects"),
        "a night's conflict with a NUL": (setter("games", "conflicts", [{"what": "a\x00"}]), "control"),
        "settings fewer aging squares than marks": (
            lambda a: (a["campaign"].update(settings={"aging_squares": 1}), a["stickers"][0].update(marks=2)),
            "marks",
        ),
    }
)

# A session's cached state is the fold of its log (docs/architecture.md): its pages read it.
CRAFTED.update(
    {
        # Its table page replays the log (may the last action be undone?): it answered 500.
        "a session's log the rules refuse": (
            lambda a: a["actions"][0]["payload"].update(type="no_such_move"),
            refusal(
                "sessions[0].state",
                SESSION_LOG_REFUSED.format(reason=UNKNOWN_ACTION.format(type="no_such_move")),
            ),
        ),
        "a session's log with a payload of the wrong kind": (
            lambda a: a["actions"][0].update(payload={"seat": None}),
            "sessions[0]",
        ),
    }
)

# Archives each value of which is in range, but with which a night could never start.
NIGHT_CASES = {
    "a House's Prestige over 999": (
        lambda a: a["ledger"].extend(
            {**a["ledger"][0], "kind": "prestige", "amount": 999, "reason": "crafted"} for _ in range(2)
        ),
        "prestige",
    ),
    "a House's Prestige below 0": (
        lambda a: a["ledger"].append({**a["ledger"][0], "kind": "prestige", "amount": -500, "reason": "x"}),
        "prestige",
    ),
    "start Power over the pool": (
        lambda a: a["achievements"][0].update(
            kind="gameplay", agenda="", effects={"start_power": 99}, marked=a["achievements"][0]["spaces"]
        ),
        "power",
    ),
    "a deck card's front past the rules": (
        setter("dilemma_cards", "outcomes", {"front": {"aye": {"resources": "wealth"}}}),
        "Known cards",
    ),
    "a deck card's title too long for the table": (
        setter("dilemma_cards", "outcomes", {**KNOWN_CARD, "title": "T" * 121}),
        "card title",
    ),
}
for name, (damage, _word) in NIGHT_CASES.items():
    CRAFTED[f"night: {name}"] = (damage, NIGHT_IMPOSSIBLE.split(":")[0])

CRAFTED.update(
    {
        "grand_finale_ready without six Mystery stickers": (
            setter("campaign", "grand_finale_ready", True),
            refusal("campaign", FINALE_MISMATCH.format(count=6)),
        ),
        "closed without six Mystery stickers": (
            setter("campaign", "closed", True),
            refusal("campaign", FINALE_MISMATCH.format(count=6)),
        ),
        "six Mystery stickers, campaign still open": (
            lambda a: a["mystery_stickers"].extend(
                {"letter": letter, "storyline": "", "game": None, "attached_at": NOW} for letter in "CDEFG"
            ),
            refusal("campaign", FINALE_MISMATCH.format(count=6)),
        ),
        "seven Mystery stickers": (
            lambda a: (
                a["campaign"].update(grand_finale_ready=True, closed=True),
                a["mystery_stickers"].extend(
                    {"letter": letter, "storyline": "", "game": None, "attached_at": NOW}
                    for letter in "CDEFGH"
                ),
            ),
            refusal("mystery_stickers", MYSTERY_TOO_MANY.format(count=6)),
        ),
    }
)


class CraftedArchiveTests:
    @pytest.mark.parametrize("name", list(CRAFTED))
    def test_a_crafted_archive_is_refused_with_a_message_and_nothing_is_written(self, user, archive, name):
        damage, message = CRAFTED[name]
        damage(archive)  # a fresh copy for each test
        assert str(message) in import_refused(archive, user)

    @pytest.mark.parametrize("name", list(NIGHT_CASES))
    def test_an_archive_that_could_never_start_a_night_says_why(self, user, archive, name):
        damage, word = NIGHT_CASES[name]
        damage(archive)
        message = import_refused(archive, user)
        assert message.startswith(ARCHIVE_VALUE.split("{")[0]) and word in message

    def test_the_valid_archive_imports_and_its_campaign_plays(self, client, user, archive):
        campaign = campaign_import(archive=archive, owner=user)
        pages_and_a_night(client, user, campaign)

    @pytest.mark.parametrize(
        "damage",
        [
            lambda state: state.pop("tracks"),
            lambda state: state.update(phase="voting"),
            lambda state: state.update(stage=state.pop("phase")),  # as an older engine named it
        ],
        ids=["without its tracks", "in another phase", "in an older shape"],
    )
    def test_a_session_state_is_rebuilt_from_its_log_whatever_the_archive_says(
        self, client, user, archive, damage
    ):
        """An archive written before the engines changed shape (issue 28), or a crafted one: the cached
        state is a fold of the log, so the import keeps the fold, never the archive's state."""
        truth = json.loads(json.dumps(archive["sessions"][0]["state"]))
        damage(archive["sessions"][0]["state"])
        campaign = campaign_import(archive=archive, owner=user)
        session = GameSession.objects.get(campaign=campaign)
        rules = get_game(session.game)
        replayed = rules.setup(session.config, session.seed)
        for action in session.actions.filter(undone=False).order_by("seq"):
            replayed = rules.apply(replayed, action.payload)
        assert session.state == json.loads(json.dumps(replayed))
        assert (session.state["phase"], session.state["tracks"]) == (truth["phase"], truth["tracks"])
        pages_and_a_night(client, user, campaign)

    def test_a_campaign_of_houses_only_imports_and_plays(self, client, user, archive):
        """No ledger, no game, no sticker: every House at Prestige 0, the defaults of the box."""
        for section, rows in archive.items():
            if isinstance(rows, list) and section != "houses":
                rows.clear()
        campaign = campaign_import(archive=archive, owner=user)
        pages_and_a_night(client, user, campaign)

    def test_the_last_dates_and_numbers_of_each_window_are_accepted(self, client, user, archive):
        archive["campaign"]["created_at"] = f"{DATE_MIN_YEAR}-01-01T00:00:00+00:00"
        archive["events"][0]["created_at"] = f"{DATE_MAX_YEAR}-12-31T23:59:59+00:00"
        archive["games"][0]["played_on"] = f"{DATE_MAX_YEAR}-12-31"
        renumber_game(archive, archive["games"][-1]["number"], 9999)
        archive["games"][0]["revision"] = 999  # no score of this revision: the table is empty
        campaign = campaign_import(archive=archive, owner=user)
        pages_and_a_night(client, user, campaign)

    def test_the_import_page_answers_400_with_where_and_why(self, client, user, archive):
        from django.core.files.uploadedfile import SimpleUploadedFile

        archive["stickers"][0]["attached_at"] = "9999-12-31T23:59:59-14:00"
        client.force_login(user)
        before = counts()
        upload = SimpleUploadedFile("a.json", json.dumps(archive).encode())
        response = client.post("/campaigns/import/", {"archive": upload})
        assert response.status_code == 400
        assert refusal("stickers[0].attached_at", OUT_OF_WINDOW) in response.content.decode()
        assert counts() == before


# ---- Every page of an accepted archive, and a night ------------------------------------------


def pages_and_a_night(client, user, campaign) -> None:
    """Every page of the imported campaign answers 200 (as its host and in the admin), and a night
    starts (or, for a campaign closed by its sixth Mystery sticker, is refused as the rules say)."""
    client.force_login(user)
    pk = campaign.pk
    urls = [
        "/",
        f"/campaigns/{pk}/",
        f"/campaigns/{pk}/history/",
        f"/campaigns/{pk}/chronicles/",
        f"/campaigns/{pk}/statistics/",
        f"/campaigns/{pk}/night/new/",
        "/api/campaigns/",
        f"/api/campaigns/{pk}/",
        f"/api/campaigns/{pk}/houses/",
        f"/api/campaigns/{pk}/board/",
        f"/api/campaigns/{pk}/history/",
        f"/api/campaigns/{pk}/games/",
        f"/api/campaigns/{pk}/statistics/",
        f"/api/campaigns/{pk}/save-slots/",
        f"/api/campaigns/{pk}/storylines/",
        *(f"/campaigns/{pk}/charts/{name}.svg" for name in ("prestige", "crave", "resources")),
        *(f"/campaigns/{pk}/statistics/{name}.svg" for name in ("stickers", "council")),
        *(f"/campaigns/{pk}/houses/{house.pk}/" for house in campaign.houses.all()),
        *(f"/campaigns/{pk}/games/{game.number}/story/" for game in campaign.games.all()),
        *(
            url
            for session in campaign.sessions.all()
            for url in (
                f"/play/s/{session.pk}/",
                f"/api/sessions/{session.pk}/",
                f"/api/sessions/{session.pk}/log/",
            )
        ),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
    admin = get_user_model().objects.filter(
        is_superuser=True
    ).first() or get_user_model().objects.create_superuser(
        "archive-admin", "admin@example.org", "secret-pass"
    )
    client.force_login(admin)
    for model in (
        "campaign",
        "house",
        "ledgerentry",
        "achievement",
        "chroniclesticker",
        "envelope",
        "storycard",
        "dilemmacard",
        "chroniclegame",
        "mysterysticker",
        "campaignevent",
    ):
        response = client.get(f"/admin/campaign/{model}/")
        assert response.status_code == 200, (model, response.status_code)
    client.force_login(user)
    houses = list(campaign.houses.order_by("number"))
    while len(houses) < 3:  # the pages let a group add Houses before its first night
        taken = {h.number for h in campaign.houses.all()}
        number = min(set(range(1, 13)) - taken)
        houses.append(House.objects.create(campaign=campaign, number=number, name=f"House {number}"))
    chosen = houses[:3]
    setup = legacy_setup_compute(campaign=campaign, houses=chosen)
    keep = {}
    for house_pk, positive, rows in setup["open_agenda_choices"]:
        keep.setdefault(house_pk, {})["positive" if positive else "negative"] = rows[:2]
    if campaign.closed:
        with pytest.raises(ValidationError, match=str(CAMPAIGN_CLOSED)):
            game_night_start(campaign=campaign, houses=chosen, king_name="Check", host=user, keep=keep)
        return
    running = night_running(campaign=campaign)
    if running is not None:  # the night imported runs: one night at a time, it is abandoned first
        with pytest.raises(ValidationError, match=f"Game night #{running.pk} "):
            game_night_start(campaign=campaign, houses=chosen, king_name="Check", host=user, keep=keep)
        session_abandon(session=running)
    games_before = campaign.games.count()
    session = game_night_start(
        campaign=campaign, houses=chosen, king_name="Check", host=user, keep=keep, seed=1
    )
    assert session.chronicle_game is None and campaign.games.count() == games_before  # written at the save
    assert client.get(f"/campaigns/{pk}/").status_code == 200


# ---- One value of a valid archive changed at random ------------------------------------------

NASTY = st.one_of(
    st.sampled_from(
        [
            *EDGE_DATETIMES,
            "1900-01-01T00:00:00+14:00",
            "9000-12-31T23:59:59-14:00",
            "0001-01-01",
            "9999-12-31",
            "2026-11-24",
            NOW,
            "\x00",
            "\u202e",
            "x" * 5001,
            "",
            float("inf"),
            float("nan"),
            1e300,
            2**15,
            2**15 - 1,
            2**31,
            2**53 + 1,
            2**63,
            -1,
            0,
            True,
            False,
            None,
            [],
            {},
            {"start_power": 99},
            {"prestige": -99},
            {"row_capacity": 1},
            _deep(11),
        ]
    ),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.integers(min_value=-3, max_value=200),
    st.text(max_size=30),
    st.dates().map(lambda d: d.isoformat()),
    st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
)


@st.composite
def one_value_changed(draw, archive: dict):
    """A path to one value of the archive (a field of a row or of the campaign, or a value nested in
    a field's JSON: a session's state, a card's outcomes) and its new value."""
    sections = [s for s in archive if isinstance(archive[s], list) and archive[s]] + ["campaign"]
    section = draw(st.sampled_from(sorted(sections)))
    row = archive["campaign"] if section == "campaign" else draw(st.sampled_from(archive[section]))
    path = [section, 0 if section == "campaign" else archive[section].index(row)]
    value = row
    while isinstance(value, dict | list) and value and (len(path) < 3 or draw(st.booleans())):
        key = draw(st.sampled_from(sorted(value) if isinstance(value, dict) else list(range(len(value)))))
        path.append(key)
        value = value[key]
    return path, draw(st.one_of(NASTY, nasty_like(value)))


EDGE_INTEGERS = st.sampled_from([-(2**63) - 1, -(2**31) - 1, -1, 0, 1, 99, 100, 999, 1000, 9999, 10000])


def nasty_like(original):
    """Values at the edges of what the original value's kind allows (so a date field is often
    given an edge date, an integer field an edge integer)."""
    if isinstance(original, bool):
        return st.sampled_from([0, 1, "true", None, not original])
    if isinstance(original, int):
        return st.one_of(
            EDGE_INTEGERS, st.integers(original - 3, original + 3), st.integers(2**15 - 2, 2**15 + 1)
        )
    if isinstance(original, str) and "T" in original and original[:4].isdigit():
        return st.one_of(
            st.sampled_from(EDGE_DATETIMES),
            st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
            st.datetimes().map(lambda d: d.isoformat()),
        )
    if isinstance(original, str) and original[:4].isdigit():
        return st.dates().map(lambda d: d.isoformat())
    if isinstance(original, str):
        return st.one_of(st.text(max_size=200), st.text(min_size=4990, max_size=5010, alphabet="ab\n"))
    if isinstance(original, dict):
        return st.dictionaries(
            st.sampled_from(
                ["start_power", "start_coins", "prestige", "crave", "row_capacity", "wealth", "x"]
            ),
            st.one_of(EDGE_INTEGERS, st.floats(allow_nan=True), st.text(max_size=5), st.none()),
            max_size=3,
        )
    return NASTY


class RandomArchiveTests:
    def test_one_value_changed_is_refused_or_everything_still_works(self, client, user, archive):
        @hypothesis_settings(
            max_examples=property_examples(15),
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
            database=None,
        )
        @given(change=one_value_changed(archive))
        def check(change):
            path, value = change
            damaged = copy.deepcopy(archive)
            place = damaged["campaign"] if path[0] == "campaign" else damaged[path[0]][path[1]]
            for key in path[2:-1]:
                place = place[key]
            place[path[-1]] = value
            before = counts()
            try:
                campaign = campaign_import(archive=damaged, owner=user)
            except ValidationError as error:
                assert all(m.startswith(ARCHIVE_VALUE.split("{")[0]) for m in error.messages), error.messages
                assert counts() == before
                return
            pages_and_a_night(client, user, campaign)

        check()


# ---- The upload's size, refused while it is being received -----------------------------------

BOUNDARY = "chronicleboundary"


def multipart_head(name: str = "Big") -> bytes:
    """A multipart body up to the start of the archive's bytes (the CSRF token and the name come
    first, as the page's form sends them)."""
    return (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\n{name}\r\n'
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="archive"; filename="a.json"\r\n'
        "Content-Type: application/json\r\n\r\n"
    ).encode() + b'{"format": "chronicle-campaign", "pad": "'


class CountingStream:
    """A request body of ``total`` bytes that is never built: it counts what the server reads."""

    def __init__(self, head: bytes, total: int):
        self.head, self.total, self.read_bytes = head, total, 0

    def read(self, size: int = -1) -> bytes:
        left = self.total - self.read_bytes
        size = left if size is None or size < 0 else min(size, left)
        start = self.read_bytes
        chunk = self.head[start : start + size]
        chunk += b"x" * (size - len(chunk))
        self.read_bytes += len(chunk)
        return chunk

    def readline(self, size: int = -1) -> bytes:  # pragma: no cover (multipart reads in chunks)
        return self.read(size)


def post_stream(client, stream: CountingStream):
    return client.request(
        REQUEST_METHOD="POST",
        PATH_INFO="/campaigns/import/",
        CONTENT_TYPE=f"multipart/form-data; boundary={BOUNDARY}",
        CONTENT_LENGTH=str(stream.total),
        **{"wsgi.input": stream},
    )


def asgi_request(path: str, headers: list[tuple[bytes, bytes]], chunks) -> tuple[list[dict], int]:
    """One request to the ASGI application as uvicorn serves it; ``chunks`` are the body's
    messages (an endless generator stands for a body that never ends). Returns what was sent and how
    many body messages the application read."""
    import asyncio

    from config.asgi import application

    sent: list[dict] = []
    read = {"messages": 0}

    async def receive():
        if read.get("ended"):  # as a server does: nothing more until the client goes away
            await asyncio.Future()
        read["messages"] += 1
        body = next(chunks, None)
        if body is None:
            read["ended"] = 1
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.request", "body": body, "more_body": True}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(application(scope, receive, send))
    return sent, read["messages"]


def endless(size: int):
    while True:
        yield b"x" * size


MB = 1024 * 1024


class UploadLimitTests:
    def test_a_500_mb_archive_is_cut_off_before_its_file_is_read(self, client, user):
        """Its declared size is over the limit: only the fields before the file are read."""
        client.force_login(user)
        stream = CountingStream(multipart_head(), 500 * MB)
        before = counts()
        response = post_stream(client, stream)
        assert response.status_code == 413
        assert str(ARCHIVE_TOO_LARGE) in response.content.decode()
        assert stream.read_bytes < 256 * 1024
        assert counts() == before

    def test_an_archive_over_the_limit_is_cut_off_at_the_limit(self, client, user, settings):
        """A body whose declared size passes, but whose file does not: reading stops at the limit."""
        settings.UPLOAD_MAX_BYTES = 1 * MB
        settings.REQUEST_BODY_MAX_BYTES = 4 * MB
        client.force_login(user)
        stream = CountingStream(multipart_head(), 3 * MB)
        response = post_stream(client, stream)
        assert response.status_code == 413
        assert str(ARCHIVE_TOO_LARGE) in response.content.decode()
        assert 1 * MB < stream.read_bytes < 1 * MB + 256 * 1024
        assert not Campaign.objects.filter(name="Big").exists()

    def test_an_archive_at_the_limit_is_read(self, client, user, settings, archive):
        settings.UPLOAD_MAX_BYTES = len(json.dumps(archive).encode())
        settings.REQUEST_BODY_MAX_BYTES = 4 * MB
        from django.core.files.uploadedfile import SimpleUploadedFile

        client.force_login(user)
        upload = SimpleUploadedFile("a.json", json.dumps(archive).encode())
        response = client.post("/campaigns/import/", {"archive": upload, "name": "At the limit"})
        assert response.status_code == 302
        assert Campaign.objects.filter(name="At the limit").exists()

    def test_the_upload_limit_is_the_archive_limit(self, settings):
        assert settings.UPLOAD_MAX_BYTES == ARCHIVE_MAX_BYTES
        assert settings.REQUEST_BODY_MAX_BYTES > ARCHIVE_MAX_BYTES

    def test_the_asgi_server_answers_413_without_reading_a_declared_500_mb_body(self):
        from config.uploads import upload_limit_message

        sent, read = asgi_request(
            "/campaigns/import/", [(b"content-length", str(500 * MB).encode())], endless(MB)
        )
        assert read == 0
        assert sent[0]["status"] == 413
        assert upload_limit_message() in sent[1]["body"].decode()

    def test_the_asgi_server_cuts_a_body_without_length_at_the_limit(self, settings):
        settings.REQUEST_BODY_MAX_BYTES = 3 * MB
        sent, read = asgi_request("/campaigns/import/", [], endless(MB))
        assert sent[0]["status"] == 413
        assert read == 4  # three whole messages fit, the fourth passes the limit

    def test_the_api_answers_its_error_shape(self):
        from config.uploads import upload_limit_message

        sent, _ = asgi_request(
            "/api/campaigns/create/", [(b"content-length", str(500 * MB).encode())], endless(MB)
        )
        assert sent[0]["status"] == 413
        body = json.loads(sent[1]["body"])
        assert body["message"] == upload_limit_message() and body["extra"]["limit"] > 0

    def test_a_body_under_the_limit_reaches_django(self):
        sent, read = asgi_request(
            "/api/auth/token/",
            [(b"content-length", b"2"), (b"content-type", b"application/json")],
            iter([b"{}"]),
        )
        assert sent[0]["status"] == 400  # Django's own answer to the JSON it read, not the limit's
        assert b"username" in b"".join(m.get("body", b"") for m in sent[1:])
        assert read >= 1  # the body (its declared length: the end need not be asked for)

    def test_a_live_server_refuses_a_500_mb_upload_while_receiving_it(self, tmp_path):
        """Real HTTP against uvicorn serving config.asgi: the answer arrives while the client is
        still sending, long before 500 MB."""
        import os
        import socket
        import subprocess
        import sys
        import time
        from pathlib import Path

        root = Path(__file__).resolve().parents[3]
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DEBUG="1")
        log = open(tmp_path / "server.log", "w")  # noqa: SIM115 (closed below)
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--lifespan", "off", "--timeout-graceful-shutdown", "1"],
            env=env, cwd=root, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            guard = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert server.poll() is None and time.monotonic() < guard, (
                        tmp_path / "server.log"
                    ).read_text()
                    time.sleep(0.1)
            # Declared: answered at once (what was sent sits in the sockets' buffers). Chunked: at
            # the limit (32 MB), plus the buffers.
            for headers, most in (
                (f"Content-Length: {500 * MB}", 8 * MB),
                ("Transfer-Encoding: chunked", 64 * MB),
            ):
                status, sent = _send_until_answered(port, headers)
                assert status == 413, headers
                assert sent < most, (headers, sent)
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()


def _send_until_answered(port: int, length_header: str) -> tuple[int, int]:
    """POST an endless archive; stop when the server answers or closes. Returns (status, bytes sent)."""
    import select
    import socket

    chunked = "chunked" in length_header
    piece = b"x" * (64 * 1024)
    frame = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            (
                "POST /campaigns/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n{length_header}\r\n\r\n"
            ).encode()
        )
        answer = b""
        while sent < 500 * MB:
            readable, writable, _ = select.select([sock], [sock], [], 10)
            if readable:
                answer = sock.recv(65536)
                break
            if writable:
                try:
                    sent += sock.send(frame)
                except OSError:  # the server closed the connection: its answer is waiting
                    break
        if not answer:
            try:
                answer = sock.recv(65536)
            except OSError:
                answer = b""
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, sent
