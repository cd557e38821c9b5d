"""A backup that always restores: an export is imported once (in a transaction rolled back) before
it is offered as ready, and fails with the reason otherwise; every value of an imported session
agrees with its log and its campaign, so an accepted archive can always go on (a tap, the save of a
paused night); and the archive's limits grow with the campaign (a campaign at the old limits of
300 games and 200 sessions exports and imports). Runs on SQLite and PostgreSQL (``database``)."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from campaign.models import Campaign, CampaignEvent, CampaignExport, ChronicleGame, LedgerEntry
from campaign.services.archive import export_queue
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.export_queue import (
    EXPORT_NOT_JSON,
    EXPORT_WOULD_NOT_IMPORT,
    campaign_export_request,
    campaign_export_write,
    campaign_import_check,
)
from campaign.services.archive.restore import campaign_import
from campaign.services.archive.value_checks import (
    ARCHIVE_VALUE,
    SESSION_ACTION_SEAT,
    SESSION_BOTS,
    SESSION_HOUSE,
    SESSION_LAST_SEQ,
    SESSION_NOT_OVER,
    SESSION_SEATS,
    SESSION_VERSION,
    TEXT_CONTROL,
)
from campaign.services.game_nights import game_night_config, game_night_start
from campaign.services.night_saves import game_night_record
from games.models import GameSession, Seat, SessionAction
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import draft
from tests.story_play import HOUSES, _first_two_open_agendas, envelope_contents, play_campaign_night

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def paused_night(user):
    """A campaign of four Houses whose first night is paused: the deal and the draft are logged."""
    campaign, houses = campaign_with_houses(*HOUSES, user=user)
    keep = _first_two_open_agendas(campaign, houses)
    session = game_night_start(
        campaign=campaign, houses=houses, king_name="Aldric 1", host=user, seed=1001, keep=keep
    )
    return campaign, session


@pytest.fixture(scope="module")
def night_text(django_db_blocker) -> str:
    """The archive of a campaign whose night is paused after a few taps (built once, rolled back)."""
    from tests.factories import UserFactory

    with django_db_blocker.unblock(), transaction.atomic():
        campaign, session = paused_night(UserFactory(username="paused-host"))
        draft(session)
        text = archive_dumps(campaign_archive(campaign=campaign))
        transaction.set_rollback(True)
    return text


@pytest.fixture
def night(night_text) -> dict:
    return json.loads(night_text)


def refused(archive: dict, owner) -> str:
    before = (Campaign.objects.count(), GameSession.objects.count(), SessionAction.objects.count())
    with pytest.raises(ValidationError) as error:
        campaign_import(archive=archive, owner=owner)
    assert (Campaign.objects.count(), GameSession.objects.count(), SessionAction.objects.count()) == before
    return " ".join(error.value.messages)


def _seat(index: int):
    return lambda a: a["sessions"][0]["config"]["seats"][index]


def _last_action(a: dict) -> dict:
    return max(a["actions"], key=lambda row: row["seq"])


def _refusal(where: str, problem: str) -> str:
    return ARCHIVE_VALUE.format(where=where, problem=problem)


# Each damage: what it does to the night's archive, and the whole refusal (where and why).
SESSION_VARIANTS = {
    "last_seq below its log": (
        lambda a: a["sessions"][0].update(last_seq=a["sessions"][0]["last_seq"] - 1),
        lambda a: _refusal(
            "sessions[0].last_seq",
            SESSION_LAST_SEQ.format(value=a["sessions"][0]["last_seq"], last=_last_action(a)["seq"]),
        ),
    ),
    "last_seq past its log": (
        lambda a: a["sessions"][0].update(last_seq=a["sessions"][0]["last_seq"] + 5),
        lambda a: _refusal(
            "sessions[0].last_seq",
            SESSION_LAST_SEQ.format(value=a["sessions"][0]["last_seq"], last=_last_action(a)["seq"]),
        ),
    ),
    "last_seq 0 with a log": (
        lambda a: a["sessions"][0].update(last_seq=0),
        lambda a: _refusal(
            "sessions[0].last_seq", SESSION_LAST_SEQ.format(value=0, last=_last_action(a)["seq"])
        ),
    ),
    "version below its log's length": (
        lambda a: a["sessions"][0].update(version=1),
        lambda a: _refusal(
            "sessions[0].version", SESSION_VERSION.format(value=1, least=_last_action(a)["version"])
        ),
    ),
    "version below its last action's": (
        lambda a: _last_action(a).update(version=a["sessions"][0]["version"] + 3),
        lambda a: _refusal(
            "sessions[0].version",
            SESSION_VERSION.format(value=a["sessions"][0]["version"], least=_last_action(a)["version"]),
        ),
    ),
    "an action logged for another seat than its payload's": (
        lambda a: _last_action(a).update(seat=(_last_action(a)["seat"] + 1) % 4),
        lambda a: _refusal(
            "sessions[0]",
            SESSION_ACTION_SEAT.format(
                seq=_last_action(a)["seq"],
                seat=_last_action(a)["seat"],
                payload=_last_action(a)["payload"]["seat"],
            ),
        ),
    ),
    "a seat missing (its actions then refer to no seat)": (
        lambda a: a.update(seats=[s for s in a["seats"] if s["index"] != 3 or s["session"] != 1]),
        lambda a: "refers to seat 3, which is not in its session",
    ),
    "a seat too many": (
        lambda a: a["seats"].append({**a["seats"][0], "index": 4}),
        lambda a: _refusal("sessions[0].seats", SESSION_SEATS.format(got=[0, 1, 2, 3, 4], count=4, last=3)),
    ),
    "has_bots without a bot": (
        lambda a: a["sessions"][0].update(has_bots=True),
        lambda a: _refusal("sessions[0].has_bots", SESSION_BOTS.format(value=True, count=0)),
    ),
    "a bot seat without has_bots": (
        lambda a: a["seats"][1].update(is_bot=True),
        lambda a: _refusal("sessions[0].has_bots", SESSION_BOTS.format(value=False, count=1)),
    ),
    "finished while its game goes on": (
        lambda a: a["sessions"][0].update(status="finished"),
        lambda a: _refusal("sessions[0].status", SESSION_NOT_OVER),
    ),
    **{
        f"a seat's House {name}": (
            damage,
            lambda a, value=value: _refusal("sessions[0].config", SESSION_HOUSE.format(index=1, value=value)),
        )
        for name, damage, value in [
            ("missing", lambda a: _seat(1)(a).pop("house"), None),
            ("null", lambda a: _seat(1)(a).update(house=None), None),
            ("as a text", lambda a: _seat(1)(a).update(house="2"), "2"),
            ("true", lambda a: _seat(1)(a).update(house=True), True),
            ("of another campaign", lambda a: a["houses"].pop(1) and None, 2),
            ("twice", lambda a: _seat(1)(a).update(house=1), 1),
        ]
    },
}


class ImportedSessionTests:
    @pytest.mark.parametrize("name", list(SESSION_VARIANTS))
    def test_a_session_at_odds_with_its_log_or_campaign_is_refused(self, user, night, name):
        damage, message = SESSION_VARIANTS[name]
        damage(night)
        got = refused(night, user)
        assert message(night) in got or (name == "a seat's House of another campaign" and "House 2" in got)

    def test_a_paused_night_imports_and_goes_on_to_its_save(self, user):
        """The night paused after the draft: imported elsewhere, the next tap applies, the night is
        played to its end and saved into the copy (Rulebook: "End of the game")."""
        campaign, session = paused_night(user)
        draft(session)
        copy = campaign_import(
            archive=json.loads(archive_dumps(campaign_archive(campaign=campaign))), owner=user
        )
        restored = copy.sessions.get()
        assert (restored.status, restored.last_seq, restored.version) == (
            session.status,
            session.last_seq,
            session.version,
        )
        state = play_campaign_night(restored, 1)
        game = game_night_record(session=restored, envelope_contents=envelope_contents(state, 1), actor=user)
        assert game.recorded and game.campaign_id == copy.pk
        assert copy.games.filter(recorded=True).count() == 1


# ---- Every export is re-read by the import before it is offered -------------------------------


def tapped_as_an_older_chronicle_kept_it(session) -> None:
    """The last action of the night, as an older Chronicle stored a tap with an extra text key
    holding U+202E (no tap takes it today)."""
    last = session.actions.order_by("-seq").first()
    SessionAction.objects.filter(pk=last.pk).update(payload={**last.payload, "note": "\u202eevil"})


class ExportReReadTests:
    def test_an_export_the_import_would_refuse_fails_with_the_reason(self, user, client, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        campaign, session = paused_night(user)
        tapped_as_an_older_chronicle_kept_it(session)
        before = (Campaign.objects.count(), GameSession.objects.count())
        export = campaign_export_request(campaign=campaign, requested_by=user)
        assert campaign_export_write(export_id=export.pk) == ""
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.FAILED
        assert export.error.startswith(EXPORT_WOULD_NOT_IMPORT.split("{")[0])
        assert str(TEXT_CONTROL) in export.error and ".payload" in export.error
        assert (Campaign.objects.count(), GameSession.objects.count()) == before  # the trial left nothing
        assert not (tmp_path / "exports").exists() or not list((tmp_path / "exports").iterdir())
        client.force_login(user)
        assert export.error in client.get(f"/campaigns/{campaign.pk}/").content.decode()
        api = APIClient()
        api.force_authenticate(user)
        status = api.get(f"/api/campaigns/{campaign.pk}/exports/{export.pk}/").json()
        assert (status["status"], status["reason"]) == ("failed", export.error)

    def test_a_crash_of_the_trial_import_fails_the_export_too(self, user, settings, tmp_path, monkeypatch):
        settings.MEDIA_ROOT = tmp_path
        campaign, _ = paused_night(user)

        def crash(**kwargs):
            raise KeyError("boom")

        monkeypatch.setattr(export_queue, "campaign_import", crash)
        export = campaign_export_request(campaign=campaign, requested_by=user)
        campaign_export_write(export_id=export.pk)
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.FAILED and "KeyError" in export.error

    def test_a_file_that_is_not_json_is_refused_by_the_trial_import(self):
        with pytest.raises(ValidationError) as error:
            campaign_import_check(text='{"format": NaN}')
        assert error.value.messages[0].startswith(EXPORT_NOT_JSON.split("(")[0])

    def test_an_export_that_imports_is_ready_and_leaves_nothing_behind(self, user, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        campaign, _ = paused_night(user)
        before = (Campaign.objects.count(), CampaignEvent.objects.count(), GameSession.objects.count())
        export = campaign_export_request(campaign=campaign, requested_by=user)
        name = campaign_export_write(export_id=export.pk)
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.READY and name
        assert (
            Campaign.objects.count(),
            CampaignEvent.objects.count() - 1,
            GameSession.objects.count(),
        ) == before
        archive = json.loads((tmp_path / "exports" / name).read_text())
        assert archive["sessions"][0]["state"] == {}  # the import replays the log
        copy = campaign_import(archive=archive, owner=user)
        restored, original = copy.sessions.get().state, campaign.sessions.get().state
        assert (restored["phase"], restored["step"], restored["seats"][0]["power"]) == (
            original["phase"],
            original["step"],
            original["seats"][0]["power"],
        )


# ---- The limits grow with the campaign -----------------------------------------------------------


def campaign_at_the_old_limits(user, *, games: int, sessions: int, rows: int) -> Campaign:
    """A campaign of ``games`` recorded games and ``sessions`` abandoned nights (set up, their seats
    in place, nothing played), with ``rows`` ledger entries and events, its rows bulk-created."""
    campaign, houses = campaign_with_houses(*HOUSES, user=user)
    now = timezone.now()
    made = ChronicleGame.objects.bulk_create(
        ChronicleGame(campaign=campaign, number=n, king_name=f"King {n}", played_on=now.date(), recorded=True)
        for n in range(1, games + 1)
    )
    config = game_night_config(campaign=campaign, houses=houses[:3], king_name="Aldric")
    nights = GameSession.objects.bulk_create(
        GameSession(
            game="kings_dilemma",
            config=config,
            seed=n,
            status=GameSession.Status.ABANDONED,
            version=1,
            campaign=campaign,
            chronicle_game=made[n % games],
        )
        for n in range(sessions)
    )
    Seat.objects.bulk_create(
        Seat(session=night, index=i, name=houses[i].name) for night in nights for i in range(3)
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            house=houses[n % 4], kind="prestige", amount=(-1) ** (n // 4), reason="Crafted", source="manual"
        )
        for n in range(rows)
    )
    CampaignEvent.objects.bulk_create(
        CampaignEvent(campaign=campaign, kind="note", summary=f"Event {n}") for n in range(rows)
    )
    return campaign


class LimitTests:
    def test_a_campaign_past_the_old_limits_exports_and_imports(self, user, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        # The ledger's and the history's limits (15,000 before) are computed in
        # test_archive_round_trip.py ArchiveSizeTests: importing 15,000 rows twice takes 10 s.
        campaign = campaign_at_the_old_limits(user, games=301, sessions=201, rows=500)
        export = campaign_export_request(campaign=campaign, requested_by=user)
        name = campaign_export_write(export_id=export.pk)
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.READY, export.error
        copy = campaign_import(archive=json.loads((tmp_path / "exports" / name).read_text()), owner=user)
        assert (copy.games.count(), copy.sessions.count()) == (301, 201)
        assert LedgerEntry.objects.filter(house__campaign=copy).count() == 500
