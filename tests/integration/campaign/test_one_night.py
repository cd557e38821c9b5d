"""One night of a campaign at a time, and a night changes the campaign only when it is saved: its
setup is computed from the campaign (rulebook 'CHRONICLE AGING', a setup step, is written at the
save), an abandoned night leaves nothing behind, a night abandoned by mistake is resumed, aging
marks are corrected by the owner, and the clock never abandons a campaign's night
(docs/rules-decisions.md "One night of a campaign at a time")."""

import datetime
import json
import re
import threading

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaign.models import (
    Achievement,
    CampaignEvent,
    ChronicleGame,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    LedgerEntry,
    MysterySticker,
    StoryCard,
)
from campaign.services import game_nights, night_saves
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.restore import campaign_import
from campaign.services.chronicles import PAPER_GAME_NIGHT_RUNNING, game_begin
from campaign.services.envelopes import envelope_open
from campaign.services.members import invitation_accept, invitation_create
from campaign.services.stickers import (
    AGING_MARKS_RANGE,
    AGING_MARKS_UNCHANGED,
    sticker_attach,
    sticker_marks_correct,
)
from campaign.views.nights import NIGHT_RESUMED
from games.models import GameSession
from games.services.sessions import (
    SESSION_NOT_ABANDONED,
    session_abandon,
    session_cleanup_abandoned,
    session_create,
)
from games.views import TABLE_CLOSES
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.test_concurrency import race
from tests.integration.campaign.test_events import verify_events
from tests.kings_dilemma_play import draft, play, play_night

pytestmark = [pytest.mark.database, pytest.mark.django_db]

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|csrf[-_]token[^>]*>|"X-CSRFToken": "[^"]*"')


def records(campaign) -> dict:
    """Every record of the campaign a night could write, as values (ids included)."""
    return {
        "stickers": list(ChronicleSticker.objects.filter(campaign=campaign).order_by("pk").values()),
        "games": list(ChronicleGame.objects.filter(campaign=campaign).order_by("pk").values()),
        "scores": list(ChronicleScore.objects.filter(game__campaign=campaign).order_by("pk").values()),
        "ledger": list(LedgerEntry.objects.filter(house__campaign=campaign).order_by("pk").values()),
        "events": list(CampaignEvent.objects.filter(campaign=campaign).order_by("pk").values()),
        "envelopes": list(Envelope.objects.filter(campaign=campaign).order_by("pk").values()),
        "story_cards": list(StoryCard.objects.filter(campaign=campaign).order_by("pk").values()),
        "dilemma_cards": list(DilemmaCard.objects.filter(campaign=campaign).order_by("pk").values()),
        "mystery": list(MysterySticker.objects.filter(campaign=campaign).order_by("pk").values()),
        "achievements": list(Achievement.objects.filter(house__campaign=campaign).order_by("pk").values()),
    }


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return CSRF.sub("", response.content.decode())


@pytest.fixture
def realm(user):
    """A campaign of three Houses with two Chronicle stickers on the board (one already aged twice)
    and its first Envelope opened."""
    campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
    sticker_attach(campaign=campaign, number=12, row="wealth", positive=True, signer=houses[0])
    sticker_attach(campaign=campaign, number=13, row="morale", positive=False, signer=houses[1])
    ChronicleSticker.objects.filter(campaign=campaign, number=13).update(marks=2)
    return campaign, houses


def start(campaign, houses, user, **kwargs):
    return game_nights.game_night_start(
        campaign=campaign,
        houses=houses,
        king_name=kwargs.pop("king_name", "Olaf"),
        host=user,
        seed=7,
        **kwargs,
    )


def marks(campaign) -> dict[int, int]:
    return dict(ChronicleSticker.objects.filter(campaign=campaign).values_list("number", "marks"))


class OneNightAtATimeTests:
    def test_a_second_night_is_refused_while_one_runs_and_names_it(self, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        with pytest.raises(ValidationError, match=f"Game night #{night.pk} \\(King Olaf\\)"):
            start(campaign, houses, user, king_name="Another")
        assert campaign.sessions.count() == 1 and marks(campaign) == {12: 0, 13: 2}

    def test_once_the_running_night_is_abandoned_another_may_start(self, realm, user):
        campaign, houses = realm
        session_abandon(session=start(campaign, houses, user))
        assert start(campaign, houses, user, king_name="Next").status == "active"

    def test_a_night_over_but_not_saved_holds_the_next_until_its_save(self, client, realm, user):
        """The next night's legacy setup needs this one's result: it waits for the save (and the
        page shows the night to save, with no Abandon: a night played to its end is saved)."""
        campaign, houses = realm
        night = start(campaign, houses, user)
        play_night(night)
        night.refresh_from_db()
        assert night.status == "finished" and night.chronicle_game is None
        refusal = game_nights.NIGHT_AWAITS_SAVE.format(session=night.pk, king="Olaf")
        with pytest.raises(ValidationError, match=re.escape(refusal)):
            start(campaign, houses, user, king_name="Too early")
        client.force_login(user)
        html = page(client, f"/campaigns/{campaign.pk}/night/new/")
        assert refusal in html and f"/play/s/{night.pk}/" in html and "/abandon/" not in html
        assert "is over and waits for its save" in page(client, f"/campaigns/{campaign.pk}/")
        night_saves.game_night_record(session=night, envelope_contents={9: {"special": True}}, actor=user)
        assert start(campaign, houses, user, king_name="Next").status == "active"

    def test_the_start_page_opens_the_running_night_instead_of_starting_another(self, client, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        client.force_login(user)
        url = f"/campaigns/{campaign.pk}/night/new/"
        html = page(client, url)
        assert f"Game night #{night.pk} (King Olaf) of this campaign is running" in html
        assert (
            f"/play/s/{night.pk}/" in html and f"/play/s/{night.pk}/abandon/" in html
        )  # host: table, abandon
        data = {"king_name": "Two", "seat0": houses[0].pk, "seat1": houses[1].pk, "seat2": houses[2].pk}
        assert client.post(url, data).status_code == 200 and campaign.sessions.count() == 1

    def test_a_player_is_shown_their_seat_at_the_running_night_not_its_table(self, client, realm, user):
        campaign, houses = realm
        player = UserFactory()
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[1]), user=player)
        night = start(campaign, houses, user)
        client.force_login(player)
        html = page(client, f"/campaigns/{campaign.pk}/night/new/")
        assert f"/play/s/{night.pk}/my-seat/" in html and "Open your seat (House Ben)" in html
        assert f"/play/s/{night.pk}/abandon/" not in html and f'href="/play/s/{night.pk}/"' not in html

    def test_the_api_answers_400_naming_the_running_night(self, client, realm, user):
        campaign, houses = realm
        client.force_login(user)
        url = f"/api/campaigns/{campaign.pk}/nights/start/"
        body = {"king_name": "Olaf", "houses": [h.pk for h in houses]}
        first = client.post(url, body, content_type="application/json")
        assert first.status_code == 201
        second = client.post(url, dict(body, king_name="Twice"), content_type="application/json")
        night = campaign.sessions.get()
        assert second.status_code == 400 and second.json()["code"] == "invalid"
        assert second.json()["message"] == game_nights.NIGHT_RUNNING.format(session=night.pk, king="Olaf")

    def test_a_paper_game_is_not_begun_while_a_night_runs_nor_a_night_started_during_a_paper_game(
        self, realm, user
    ):
        campaign, houses = realm
        night = start(campaign, houses, user)
        with pytest.raises(
            ValidationError, match=re.escape(PAPER_GAME_NIGHT_RUNNING.format(session=night.pk))
        ):
            game_begin(campaign=campaign, king_name="On paper")
        session_abandon(session=night)
        paper = game_begin(campaign=campaign, king_name="On paper")
        with pytest.raises(
            ValidationError,
            match=re.escape(game_nights.NIGHT_PAPER_GAME.format(number=paper.number, king="On paper")),
        ):
            start(campaign, houses, user)
        with pytest.raises(
            ValidationError,
            match=re.escape(game_nights.NIGHT_PAPER_GAME.format(number=paper.number, king="On paper")),
        ):
            game_nights.game_night_resume(session=night)

    def test_the_begin_page_and_api_refuse_a_paper_game_while_a_night_runs(self, client, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        client.force_login(user)
        refusal = PAPER_GAME_NIGHT_RUNNING.format(session=night.pk)
        on_page = client.post(f"/campaigns/{campaign.pk}/games/new/", {"king_name": "On paper"})
        assert on_page.status_code == 400 and refusal in on_page.content.decode()
        by_api = client.post(
            f"/api/campaigns/{campaign.pk}/games/begin/",
            {"king_name": "On paper"},
            content_type="application/json",
        )
        assert by_api.status_code == 400 and by_api.json()["message"] == refusal
        assert not campaign.games.exists() and marks(campaign) == {12: 0, 13: 2}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
class OneNightRaceTests:
    """Against PostgreSQL (row locks): two starts at once, one night."""

    def test_two_starts_at_once_start_one_night(self):
        user = UserFactory()
        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
        lock, kings = threading.Lock(), iter(["One", "Two"])

        def go():
            with lock:
                king = next(kings)
            try:
                return start(campaign, houses, user, king_name=king).pk
            except ValidationError as error:
                return error.messages[0]

        answers = race(go)
        assert campaign.sessions.count() == 1
        night = campaign.sessions.get()
        assert sorted(answers, key=str) == sorted(
            [night.pk, game_nights.NIGHT_RUNNING.format(session=night.pk, king=night.config["king_name"])],
            key=str,
        )


class NothingWrittenBeforeTheSaveTests:
    def test_a_night_started_writes_nothing_into_the_campaign(self, realm, user):
        campaign, houses = realm
        before = records(campaign)
        night = start(campaign, houses, user)
        assert records(campaign) == before and night.chronicle_game is None

    def test_an_abandoned_night_leaves_the_campaign_and_its_pages_as_before(self, client, realm, user):
        campaign, houses = realm
        player = UserFactory()
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[1]), user=player)
        client.force_login(player)
        urls = [f"/campaigns/{campaign.pk}/{part}" for part in ("", "chronicles/", "history/", "statistics/")]
        before, pages = records(campaign), [page(client, url) for url in urls]
        night = start(campaign, houses, user)
        draft(night)
        play(night, None, "draw_dilemma", card={"number": 1, "title": "Bread"})
        session_abandon(session=night)
        assert records(campaign) == before
        assert [page(client, url) for url in urls] == pages
        chronicles = pages[1]
        assert "In progress" not in chronicles and "Record game" not in chronicles

    def test_the_setup_is_the_one_chronicle_aging_leaves_without_writing_it(self, realm, user):
        """'Assign Open Agendas' reads the aged board: the most recent sticker has the fewest marks."""
        campaign, houses = realm
        config = start(campaign, houses, user).config
        assert config["stickers_attached"] == [12, 13] and marks(campaign) == {12: 0, 13: 2}
        assert config["seats"][0]["open_agendas"] == [{"row": "wealth", "positive": True}]

    def test_the_save_ages_the_stickers_of_its_setup_once_then_attaches_tonight_s(self, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        play_night(night, envelope_card=None)  # sticker 43 attached tonight
        assert marks(campaign) == {12: 0, 13: 2}
        game = night_saves.game_night_record(session=night, actor=user)
        assert marks(campaign) == {12: 1, 13: 3, 43: 0}
        assert game.number == 1 and game.king_name == "Olaf" and game.recorded
        night.refresh_from_db()
        assert night.chronicle_game == game
        aged = CampaignEvent.objects.filter(campaign=campaign, kind="chronicle_aged")
        assert [(e.summary, e.game_id) for e in aged] == [("Chronicle aging: 2 stickers marked", game.pk)]
        kinds = list(
            CampaignEvent.objects.filter(campaign=campaign, game=game)
            .order_by("pk")
            .values_list("kind", flat=True)
        )
        assert kinds[:3] == ["game_begun", "chronicle_aged", "sticker_attached"]
        with pytest.raises(ValidationError, match=str(game_nights.NIGHT_ALREADY_RECORDED)):
            night_saves.game_night_record(session=night, actor=user)
        assert marks(campaign) == {12: 1, 13: 3, 43: 0}

    def test_a_sticker_attached_from_the_pages_during_the_night_is_not_aged_by_it(self, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        sticker_attach(campaign=campaign, number=20, row="knowledge", positive=True, signer=None)
        play_night(night, envelope_card=None)
        night_saves.game_night_record(session=night, actor=user)
        assert marks(campaign) == {12: 1, 13: 3, 20: 0, 43: 0}

    def test_the_number_of_the_game_is_taken_at_the_save(self, realm, user):
        campaign, houses = realm
        session_abandon(session=start(campaign, houses, user, king_name="Forgotten"))
        night = start(campaign, houses, user, king_name="Kept")
        play_night(night, envelope_card=None)
        game = night_saves.game_night_record(session=night, actor=user)
        assert (
            list(campaign.games.values_list("number", "king_name"))
            == [(1, "Kept")]
            == [(game.number, game.king_name)]
        )

    def test_a_running_night_goes_through_the_archive_and_is_saved_once_in_the_copy(self, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        copy = campaign_import(archive=json.loads(archive_dumps(campaign_archive(campaign=campaign))))
        copied = copy.sessions.get()
        assert copied.chronicle_game is None and not copy.games.exists()
        assert marks(copy) == {12: 0, 13: 2}
        play_night(copied, envelope_card=None)
        game = night_saves.game_night_record(session=copied, actor=user)
        assert marks(copy) == {12: 1, 13: 3, 43: 0} and game.number == 1
        saved = campaign_import(archive=json.loads(archive_dumps(campaign_archive(campaign=copy))))
        assert saved.sessions.get().chronicle_game.number == 1 and marks(saved) == marks(copy)
        assert night.chronicle_game is None and marks(campaign) == {12: 0, 13: 2}  # the original untouched


class ResumeTests:
    def test_an_abandoned_night_is_resumed_where_it_stopped(self, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        draft(night)
        night.refresh_from_db()
        log, state = list(night.actions.order_by("seq").values_list("seq", "payload")), night.state
        session_abandon(session=night)
        game_nights.game_night_resume(session=night, actor=user)
        night.refresh_from_db()
        assert night.status == "active" and night.state == state
        assert list(night.actions.order_by("seq").values_list("seq", "payload")) == log
        version = night.version
        play(night, None, "draw_dilemma", card={"number": 1, "title": "Bread"})
        assert night.version == version + 1 and night.actions.count() == len(log) + 1

    def test_resuming_is_refused_while_another_night_runs_or_for_a_night_not_abandoned(self, realm, user):
        campaign, houses = realm
        first = start(campaign, houses, user, king_name="First")
        with pytest.raises(ValidationError, match=SESSION_NOT_ABANDONED.format(status="active")):
            game_nights.game_night_resume(session=first)
        session_abandon(session=first)
        second = start(campaign, houses, user, king_name="Second")
        with pytest.raises(ValidationError, match=re.escape(f"Game night #{second.pk} (King Second)")):
            game_nights.game_night_resume(session=first)
        first.refresh_from_db()
        assert first.status == "abandoned"

    def test_the_owner_resumes_from_the_campaign_page_after_a_confirmation(self, client, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        session_abandon(session=night)
        client.force_login(user)
        detail = page(client, f"/campaigns/{campaign.pk}/")
        url = f"/campaigns/{campaign.pk}/night/{night.pk}/resume/"
        assert url in detail
        assert "Yes, resume this night" in page(client, url)
        assert client.post(url, {}).status_code == 200  # without the confirmation: asked again
        night.refresh_from_db()
        assert night.status == "abandoned"
        done = client.post(url, {"confirm": "yes"}, follow=True)
        night.refresh_from_db()
        assert night.status == "active" and NIGHT_RESUMED % {"session": night.pk} in done.content.decode()

    def test_a_player_may_not_resume_and_is_not_offered_it(self, client, realm, user):
        campaign, houses = realm
        player = UserFactory()
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[1]), user=player)
        night = start(campaign, houses, user)
        session_abandon(session=night)
        client.force_login(player)
        url = f"/campaigns/{campaign.pk}/night/{night.pk}/resume/"
        assert url not in page(client, f"/campaigns/{campaign.pk}/")
        assert client.post(url, {"confirm": "yes"}).status_code == 403
        api = client.post(f"/api/campaigns/{campaign.pk}/nights/{night.pk}/resume/")
        assert api.status_code == 403
        night.refresh_from_db()
        assert night.status == "abandoned"

    def test_the_api_resumes_and_refuses_while_another_night_runs(self, client, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        session_abandon(session=night)
        client.force_login(user)
        url = f"/api/campaigns/{campaign.pk}/nights/{night.pk}/resume/"
        done = client.post(url)
        assert done.status_code == 200 and done.json()["status"] == "active"
        session_abandon(session=night)
        other = start(campaign, houses, user, king_name="Other")
        refused = client.post(url)
        assert refused.status_code == 400
        assert refused.json()["message"] == game_nights.NIGHT_RUNNING.format(session=other.pk, king="Other")

    def test_the_api_abandons_for_the_host_or_the_owner_only(self, client, realm, user):
        """A mobile client abandons a night as the table page does: its host or the campaign's
        owner; another player is refused and the night goes on."""
        from api.campaigns.nights import NIGHT_ABANDON_NOT_YOURS

        campaign, houses = realm
        player, host = UserFactory(), UserFactory()
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[1]), user=player)
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[2]), user=host)
        night = start(campaign, houses, host)
        url = f"/api/campaigns/{campaign.pk}/nights/{night.pk}/abandon/"
        client.force_login(player)
        refused = client.post(url)
        assert refused.status_code == 403 and refused.json()["message"] == NIGHT_ABANDON_NOT_YOURS
        night.refresh_from_db()
        assert night.status == "active"
        client.force_login(host)
        done = client.post(url)
        assert done.status_code == 200 and done.json()["status"] == "abandoned"
        again = client.post(url)
        assert again.status_code == 400
        client.force_login(user)  # the owner resumes it, and may abandon it too
        assert client.post(f"/api/campaigns/{campaign.pk}/nights/{night.pk}/resume/").status_code == 200
        assert client.post(url).json()["status"] == "abandoned"


class AgingCorrectionTests:
    def test_the_owner_corrects_aging_marks_and_history_says_from_what_to_what(self, realm, user):
        campaign, houses = realm
        sticker = campaign.stickers.get(number=13)
        with verify_events(campaign, ["sticker_aging_corrected"], actor=user):
            sticker_marks_correct(sticker=sticker, marks=1, actor=user)
        assert marks(campaign)[13] == 1
        event = CampaignEvent.objects.filter(campaign=campaign).latest("pk")
        assert event.kind == "sticker_aging_corrected" and event.actor == user
        assert event.summary == "Aging marks of Chronicle sticker 13 corrected: 2 → 1"

    def test_marks_are_bounded_by_the_sticker_s_squares(self, realm):
        campaign, houses = realm
        sticker = campaign.stickers.get(number=13)
        before = records(campaign)
        for wrong in (-1, 7, True, "2"):
            with pytest.raises(
                ValidationError, match=re.escape(AGING_MARKS_RANGE.format(number=13, squares=6))
            ):
                sticker_marks_correct(sticker=sticker, marks=wrong)
        assert records(campaign) == before
        sticker_marks_correct(sticker=sticker, marks=6)
        assert marks(campaign)[13] == 6

    def test_a_correction_that_changes_nothing_writes_nothing(self, client, realm, user):
        campaign, houses = realm
        before = records(campaign)
        with pytest.raises(
            ValidationError, match=re.escape(AGING_MARKS_UNCHANGED.format(number=13, marks=2))
        ):
            sticker_marks_correct(sticker=campaign.stickers.get(number=13), marks=2)
        client.force_login(user)
        page_answer = client.post(f"/campaigns/{campaign.pk}/stickers/13/aging/", {"marks": 2})
        api_answer = client.post(
            f"/api/campaigns/{campaign.pk}/stickers/13/aging/", {"marks": 2}, content_type="application/json"
        )
        assert page_answer.status_code == 400 == api_answer.status_code
        assert AGING_MARKS_UNCHANGED.format(number=13, marks=2) in page_answer.content.decode()
        assert records(campaign) == before

    def test_the_page_and_the_api_correct_for_the_owner_only(self, client, realm, user):
        campaign, houses = realm
        player = UserFactory()
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[1]), user=player)
        client.force_login(user)
        assert f"/campaigns/{campaign.pk}/stickers/13/aging/" in page(client, f"/campaigns/{campaign.pk}/")
        assert "2 of 6 squares marked" in page(client, f"/campaigns/{campaign.pk}/stickers/13/aging/")
        assert client.post(f"/campaigns/{campaign.pk}/stickers/13/aging/", {"marks": 1}).status_code == 302
        api = client.post(
            f"/api/campaigns/{campaign.pk}/stickers/12/aging/", {"marks": 3}, content_type="application/json"
        )
        assert api.status_code == 200 and api.json()["marks"] == 3
        assert marks(campaign) == {12: 3, 13: 1}
        history = page(client, f"/campaigns/{campaign.pk}/history/")
        assert "Aging marks of Chronicle sticker 13 corrected: 2 → 1" in history
        assert "Aging marks of Chronicle sticker 12 corrected: 0 → 3" in history
        client.force_login(player)
        assert client.post(f"/campaigns/{campaign.pk}/stickers/13/aging/", {"marks": 0}).status_code == 403
        refused = client.post(
            f"/api/campaigns/{campaign.pk}/stickers/13/aging/", {"marks": 0}, content_type="application/json"
        )
        assert refused.status_code == 403 and marks(campaign) == {12: 3, 13: 1}


class ClockTests:
    def test_a_paused_campaign_night_is_never_abandoned_by_the_clock(self, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        table = session_create(game="for_the_king", seat_names=["A", "B", "C"], host=user)
        long_ago = timezone.now() - datetime.timedelta(days=3)
        GameSession.objects.filter(pk__in=[night.pk, table.pk]).update(last_activity=long_ago)
        assert session_cleanup_abandoned() == 1
        night.refresh_from_db()
        table.refresh_from_db()
        assert night.status == "active" and table.status == "abandoned"

    def test_a_table_without_a_campaign_says_when_it_will_be_closed(self, client, realm, user):
        campaign, houses = realm
        night = start(campaign, houses, user)
        table = session_create(game="for_the_king", seat_names=["A", "B", "C"], host=user)
        client.force_login(user)
        notice = TABLE_CLOSES.format(hours=12)
        assert notice in page(client, f"/play/s/{table.pk}/")
        assert notice in page(client, f"/play/seat/{table.seats.get(index=0).token}/")
        assert notice not in page(client, f"/play/s/{night.pk}/")
