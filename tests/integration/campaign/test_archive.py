"""Campaign export and import (a versioned JSON archive)."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors
from campaign.demo import demo_campaign_load
from campaign.models import Campaign, House
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.format import (
    ADDED_IN,
    ARCHIVE_DAMAGED,
    ARCHIVE_SECTION_ROWS,
    ARCHIVE_SESSION_LOG,
    ARCHIVE_WRONG_FORMAT,
)
from campaign.services.archive.restore import campaign_import
from games.engines.kernel.errors import RuleError
from games.models import GameSession, Seat, SessionAction

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def snapshot(campaign):
    """What a player sees of a campaign, independent of database ids."""
    return {
        "houses": [(h.number, h.name, h.prestige, h.crave) for h in selectors.house_list(campaign=campaign)],
        "board": [
            [(s.number, s.signer.name if s.signer else None, s.marks) if s else None for s in row["spaces"]]
            for row in selectors.realm_board(campaign=campaign)
        ],
        "slots": {k: [c.number for c in v] for k, v in selectors.save_slots(campaign=campaign).items()},
        "games": [
            [(s.house.number, s.total, s.position, s.last) for s in g.current_scores]
            for g in selectors.realm_chronicles(campaign=campaign)
        ],
        "stories": [
            (line["storyline"], line["top"].number) for line in selectors.storylines(campaign=campaign)
        ],
        "events": campaign.events.count(),
    }


class ArchiveTests:
    def test_export_then_import_gives_the_same_campaign(self, user):
        original = demo_campaign_load()
        archive = json.loads(json.dumps(campaign_archive(campaign=original)))
        copy_ = campaign_import(archive=archive, owner=user, name="Copy")
        before, after = snapshot(original), snapshot(copy_)
        assert after.pop("events") == before.pop("events") + 1  # plus the import itself
        assert after == before
        assert selectors.campaign_is_member(campaign=copy_, user=user)

    def test_a_file_that_is_not_an_archive_is_refused(self, user):
        with pytest.raises(ValidationError, match=str(ARCHIVE_WRONG_FORMAT)):
            campaign_import(archive={"hello": 1}, owner=user)

    @pytest.mark.parametrize(
        "damage, message",
        [
            (
                lambda a: a["houses"].append(dict(a["houses"][0])),
                r"houses.4.: House number \d+ appears twice",
            ),
            (lambda a: a["stickers"][0].update(signer=11), "refers to House 11"),
            (
                lambda a: a["stickers"][0].update(row="gold"),
                r"stickers\[0\]: row: Value .gold. is not a valid choice",
            ),
            (lambda a: a["games"][0].pop("king_name"), "missing king_name"),
            (lambda a: a.update(ledger="oops"), "ledger: missing or of the wrong kind"),
        ],
    )
    def test_a_damaged_archive_is_refused_and_nothing_is_written(self, user, damage, message):
        archive = campaign_archive(campaign=demo_campaign_load())
        damaged = copy.deepcopy(archive)
        damage(damaged)
        campaigns, houses = Campaign.objects.count(), House.objects.count()
        with pytest.raises(ValidationError, match=message):
            campaign_import(archive=damaged, owner=user)
        assert (Campaign.objects.count(), House.objects.count()) == (campaigns, houses)


class ExportPageTests:
    def test_export_is_written_by_the_task_and_downloadable(
        self, client, settings, tmp_path, django_capture_on_commit_callbacks
    ):
        settings.MEDIA_ROOT = tmp_path
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"/campaigns/{campaign.pk}/export/")
        export = campaign.exports.get()
        assert export.status == "ready"
        response = client.get(f"/campaigns/{campaign.pk}/exports/{export.pk}/")
        archive = json.loads(b"".join(response.streaming_content))
        assert archive["format"] == "chronicle-campaign" and len(archive["houses"]) == 4

    def test_the_task_is_idempotent(self, settings, tmp_path):
        from campaign.services.archive import export_queue

        settings.MEDIA_ROOT = tmp_path
        campaign = demo_campaign_load()
        export = export_queue.campaign_export_request(campaign=campaign)
        first = export_queue.campaign_export_write(export_id=export.pk)
        assert export_queue.campaign_export_write(export_id=export.pk) == first
        assert len(list((tmp_path / "exports").iterdir())) == 1

    def test_import_page_refuses_a_damaged_file_with_a_message(self, client, user):
        from django.core.files.uploadedfile import SimpleUploadedFile

        client.force_login(user)
        response = client.post("/campaigns/import/", {"archive": SimpleUploadedFile("a.json", b"{not json")})
        assert response.status_code == 400
        assert "The archive is damaged: it is not valid JSON." in response.content.decode()
        assert not Campaign.objects.exists()


@pytest.fixture
def played():
    """The archive of a campaign with one night played at the table (its session, seats, log)."""
    from tests.story_play import campaign_of_nights

    campaign, _, _ = campaign_of_nights(1)
    return json.loads(archive_dumps(campaign_archive(campaign=campaign)))


def _older(archive: dict, version: int) -> dict:
    """The archive as Chronicle wrote it at ``version``: no sessions before 3, no dates before 2."""
    older = {k: v for k, v in archive.items() if k not in ("sessions", "seats", "actions")}
    older["version"] = version
    if version < 2:
        dates = {"games", "ledger", "stickers", "envelopes", "mystery_stickers", "events"}
        for section in dates:
            older[section] = [
                {k: v for k, v in row.items() if k not in ("created_at", "attached_at", "opened_at", "actor")}
                for row in older[section]
            ]
    for (section, field), since in ADDED_IN.items():  # the fields a later version added
        if version < since and section in older:
            older[section] = [{k: v for k, v in row.items() if k != field} for row in older[section]]
    return older


def _counts():
    return (
        Campaign.objects.count(),
        GameSession.objects.count(),
        Seat.objects.count(),
        SessionAction.objects.count(),
    )


SESSION_DAMAGES = {
    "a game this Chronicle does not have": (
        lambda a: a["sessions"][0].update(game="chess"),
        "sessions[0].game: 'chess' is not a game",
    ),
    "a House the archive does not hold": (
        lambda a: a["sessions"][0]["config"]["seats"][0].update(house=9),
        "sessions[0].config: refers to House 9",
    ),
    "a session twice": (lambda a: a["sessions"].append(dict(a["sessions"][0])), "session 1 appears twice"),
    "an action of no session": (lambda a: a["actions"][0].update(session=99), "refers to session 99"),
    "an action of a seat the session lacks": (
        lambda a: a["actions"][1].update(seat=7),
        "actions[1].seat: refers to seat 7",
    ),
    "two actions at one place in the log": (
        lambda a: a["actions"][1].update(seq=a["actions"][0]["seq"]),
        "action 1 of a session appears twice",
    ),
    "a seat twice": (lambda a: a["seats"].append(dict(a["seats"][0])), "seat 0 of a session appears twice"),
    "a seat with a token": (lambda a: a["seats"][0].update(token="stolen"), "unknown field(s) token"),
    "a state that is not an object": (
        lambda a: a["sessions"][0].update(state=[1]),
        "state: must be an object",
    ),
    "a session numbered past the sessions an archive holds": (
        lambda a: a["sessions"][0].update(number=ARCHIVE_SECTION_ROWS["sessions"] + 1),
        "sessions[0].number: must be a whole number from 1",
    ),
    "a night its log ends, still active": (
        lambda a: a["sessions"][0].update(status="active"),
        "sessions[0].status: is active, but its log ends the game",
    ),
    "sessions in a version 2 archive": (
        lambda a: a.update(version=2),
        "unknown field(s) actions, seats, sessions",
    ),
}


class SessionArchiveTests:
    @pytest.mark.parametrize("version", [1, 2])
    def test_an_archive_of_an_older_version_still_imports(self, user, played, version):
        copy_ = campaign_import(archive=_older(played, version), owner=user)
        assert copy_.houses.count() == len(played["houses"]) and copy_.games.count() == 1
        assert not copy_.sessions.exists()

    @pytest.mark.parametrize("name", list(SESSION_DAMAGES))
    def test_a_crafted_session_is_refused_and_nothing_is_written(self, user, played, name):
        damage, message = SESSION_DAMAGES[name]
        damage(played)
        before = _counts()
        with pytest.raises(ValidationError) as refused:
            campaign_import(archive=played, owner=user)
        assert message in refused.value.messages[0]
        assert _counts() == before

    def test_a_log_that_breaks_the_replay_is_refused(self, user, played, monkeypatch):
        """A log the engine refuses is kept (the rules may have changed since: the night is then
        told as far as it can be); one that breaks the replay itself is refused."""
        from campaign.services.archive import section_importers

        def broken(config, seed, actions):
            raise TypeError("a payload of the wrong kind")

        monkeypatch.setattr(section_importers, "night_story", broken)
        before = _counts()
        with pytest.raises(ValidationError) as refused:
            campaign_import(archive=copy.deepcopy(played), owner=user)
        assert refused.value.messages[0] == ARCHIVE_DAMAGED.format(
            where="sessions[0]", problem=ARCHIVE_SESSION_LOG.format(problem="TypeError")
        )
        assert _counts() == before

        def refused_by_the_rules(config, seed, actions):
            raise RuleError("You cannot draw a Dilemma card now.")

        monkeypatch.setattr(section_importers, "night_story", refused_by_the_rules)
        assert campaign_import(archive=played, owner=user).sessions.count() == 1
