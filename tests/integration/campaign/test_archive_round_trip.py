"""A backup that restores everything (issue 23): a campaign whose nights were played at the table is
exported, imported by another user, and every table the campaign owns and every page it shows come
back as they were (ids, URLs and the user's name aside)."""

import json

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import models

from campaign.models import (
    Campaign,
    CampaignEvent,
    CampaignExport,
    House,
    Invitation,
    Membership,
    StoryLink,
)
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.format import (
    ARCHIVE_EXPORT_TOO_LARGE,
    ARCHIVE_MAX_BYTES,
    ARCHIVE_SECTION_ROWS,
    ARCHIVE_VERSION,
    houses_mapped,
    smallest_row,
)
from campaign.services.archive.restore import campaign_import
from campaign.services.archive.value_checks import GAME_NUMBER_MAX
from games.models import GameSession, Seat, SessionAction, SessionSnapshot
from tests.campaign_pages import normalised, pages_of
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.database, pytest.mark.django_db]
NIGHTS = 3
STORY_ON_PAPER = "This night was played on paper"  # templates/campaign/_story.html

# What a campaign owns and the archive does not carry, and why (docs/operations.md says the same).
NOT_CARRIED = {
    Membership: "accounts do not travel: the importer becomes the host, others are invited again",
    CampaignExport: "the exports made on the old machine are files of that machine",
    StoryLink: "a story link's token is a secret: a member makes a new link in one click",
    SessionSnapshot: "a cache of a night's log: an imported night replays from its setup once",
    Invitation: "an invitation's token is a secret, and its accounts do not travel: the owner invites again",
}


def owned_models() -> set[type[models.Model]]:
    """Every model with a row that belongs to one campaign: a link to the campaign, or to a row of
    a model the campaign owns (found again until nothing new is found)."""
    owned: set[type[models.Model]] = {Campaign}
    grown = True
    while grown:
        grown = False
        for model in apps.get_models():
            if model in owned:
                continue
            for field in model._meta.get_fields():
                if field.many_to_one and field.concrete and field.related_model in owned:
                    owned.add(model)
                    grown = True
                    break
    return owned - {Campaign}


def _rows_of(model, campaign) -> models.QuerySet:
    """The rows of ``model`` that belong to ``campaign``, in the order they were written."""
    paths = {
        "campaign": "campaign",
        "house": "house__campaign",
        "game": "game__campaign",
        "session": "session__campaign",
    }
    links = {f.name for f in model._meta.get_fields() if f.many_to_one and f.concrete}
    for field, path in paths.items():
        if field in links:
            return model._default_manager.filter(**{path: campaign}).order_by("pk")
    raise AssertionError(f"{model.__name__}: no link to its campaign")


class Naming:
    """Names for the rows of one campaign that do not depend on database ids."""

    def __init__(self, campaign):
        self.campaign = campaign
        self.houses = {h.pk: h.number for h in campaign.houses.all()}
        self.sessions = {s.pk: i for i, s in enumerate(campaign.sessions.order_by("pk"), start=1)}

    def name(self, field, value):
        if value is None:
            return None
        target = field.related_model
        if target is Campaign:
            return "the campaign"
        if target is House:
            return f"House {self.houses[value]}"
        if target is GameSession:
            return f"session {self.sessions[value]}"
        if target._meta.label == "auth.User":
            return "a user"
        obj = target._default_manager.get(pk=value)
        return f"{target.__name__} {getattr(obj, 'number', obj.pk)}"

    def row(self, obj) -> dict:
        out = {}
        for field in obj._meta.concrete_fields:
            if field.primary_key:
                continue
            value = getattr(obj, field.attname)
            if field.is_relation:
                value = self.name(field, value)
            elif isinstance(field, models.JSONField) and isinstance(obj, GameSession):
                value = houses_mapped(value, self.houses.get)
            out[field.name] = value
        return out


def table_of(model, campaign) -> list[dict]:
    naming = Naming(campaign)
    rows = [naming.row(obj) for obj in _rows_of(model, campaign)]
    if model is CampaignEvent:  # the copy's actors are kept by name (the importer is another user)
        for row, event in zip(rows, _rows_of(model, campaign), strict=True):
            row["actor"] = event.actor.get_username() if event.actor else event.actor_name
            row.pop("actor_name")
    if model is Seat:  # fresh tokens: nobody has joined the restored seats yet
        for row in rows:
            for secret in ("token", "joined_at", "user"):
                row.pop(secret)
    if model is GameSession:  # hosted by whoever hosts the campaign
        for row in rows:
            row.pop("host")
            row.pop("state_kept_digest")  # of the state's large keys, with this database's House ids
    return rows


@pytest.fixture
def two_campaigns():
    """The original (nights played at the table, by alice) and its copy (imported by bruno), the
    import's own event removed from the copy's history once checked."""
    cache.clear()
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    original, _, _ = campaign_of_nights(NIGHTS, user=alice, name="Valley of Kings")
    text = archive_dumps(campaign_archive(campaign=original))
    copy = campaign_import(archive=json.loads(text), owner=bruno)
    imported = CampaignEvent.objects.get(campaign=copy, kind="campaign_imported")
    assert imported.actor == bruno
    imported.delete()
    cache.clear()
    return (original, alice), (copy, bruno), text


class ArchiveRoundTripTests:
    def test_every_table_the_campaign_owns_comes_back_row_for_row(self, two_campaigns):
        """Each campaign-owned model (found from the links, so a new model is not forgotten) is
        carried, or named in NOT_CARRIED with the reason. The export is compact JSON of version 3;
        the restored seats have fresh tokens, nobody joined, and the importer hosts the sessions."""
        (original, _), (copy, bruno), text = two_campaigns
        assert set(NOT_CARRIED) <= owned_models()
        for model in owned_models() - set(NOT_CARRIED):
            before, after = table_of(model, original), table_of(model, copy)
            assert after == before, model.__name__
        for model in (GameSession, Seat, SessionAction):
            assert table_of(model, original), f"{model.__name__}: the nights played at the table"

        old = set(Seat.objects.filter(session__campaign=original).values_list("token", flat=True))
        new = Seat.objects.filter(session__campaign=copy)
        assert new.count() == len(old) and not old & {s.token for s in new}
        assert all(s.joined_at is None and s.user is None for s in new)
        assert {s.host for s in copy.sessions.all()} == {bruno}

        archive = json.loads(text)
        assert archive["version"] == ARCHIVE_VERSION == 6
        assert "\n" not in text and '": ' not in text and '", "' not in text
        assert len(archive["sessions"]) == NIGHTS and len(archive["actions"]) > 50 * NIGHTS

    def test_every_page_of_the_copy_shows_what_the_original_showed(self, client, two_campaigns):
        """Every page and API answer of the campaign, its Houses, its nights and its sessions, for
        its host; and they do tell the nights (not a round trip of empty pages)."""
        (original, alice), (copy, bruno), _ = two_campaigns
        seen = {}
        for campaign, user in ((original, alice), (copy, bruno)):
            client.force_login(user)
            cache.clear()
            pages = {}
            for i, url in enumerate(pages_of(campaign)):
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)
                pages[f"{i} {normalised(url, campaign, user)}"] = normalised(
                    response.content.decode(), campaign, user
                )
            seen[campaign.pk] = pages
        before, after = seen[original.pk], seen[copy.pk]
        assert list(after) == list(before)
        for url in before:
            assert after[url] == before[url], url

        story = client.get(f"/campaigns/{copy.pk}/games/2/story/").content.decode()  # as bruno
        assert STORY_ON_PAPER not in story and "Aldric 2" in story
        house = copy.houses.get(number=1)
        page = client.get(f"/api/campaigns/{copy.pk}/houses/{house.pk}/page/").json()
        assert page["figures"]["dilemmas"] == 10 * NIGHTS


BOX_SECTIONS = {"houses", "stickers", "envelopes", "mystery_stickers"}  # bounded by the box's pieces


class ArchiveSizeTests:
    def test_a_file_the_import_reads_never_holds_more_rows_than_a_section_takes(self, two_campaigns):
        """The limits grow with the campaign: each section that grows with the nights takes as many
        rows as the largest file can hold (games: as many as their numbers), so an export is only
        ever refused for its size. By computation: one more row than the limit, each row as small
        as a row can be (one character per value), is past the file's size; and no row of the
        played campaigns is smaller than that bound."""
        _, _, text = two_campaigns
        archive = json.loads(text)
        for section, limit in ARCHIVE_SECTION_ROWS.items():
            if section in BOX_SECTIONS:
                continue
            smallest = smallest_row(section)
            assert all(len(archive_dumps(row)) + 1 >= smallest for row in archive[section]), section
            if section == "games":
                assert limit == GAME_NUMBER_MAX
            else:
                assert (limit + 1) * smallest > ARCHIVE_MAX_BYTES, section

    def test_an_export_the_import_would_refuse_is_not_written_and_says_why(
        self, settings, tmp_path, monkeypatch
    ):
        from campaign.services.archive import export_queue

        settings.MEDIA_ROOT = tmp_path
        campaign, _, _ = campaign_of_nights(1)
        monkeypatch.setattr(export_queue, "ARCHIVE_MAX_BYTES", 1000)
        export = export_queue.campaign_export_request(campaign=campaign)
        assert export_queue.campaign_export_write(export_id=export.pk) == ""
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.FAILED
        assert export.error.startswith(ARCHIVE_EXPORT_TOO_LARGE.split("(")[0])
        assert not (tmp_path / "exports").exists() or not list((tmp_path / "exports").iterdir())
