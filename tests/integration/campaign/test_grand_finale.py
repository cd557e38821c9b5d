"""The campaign's end as the box plays it (rulebook 'Triggering the end of the campaign' and 'Mystery
Stickers'): exactly six Mystery stickers, Envelope 70 the Grand Finale (never a standard Envelope),
the last night saved and the campaign closed with its final standings; and the Story cards of a
storyline set up by number ('Setup Story and Event Cards')."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from campaign import selectors
from campaign.models import CampaignEvent, Envelope, MysterySticker
from campaign.services import game_nights, night_saves
from campaign.services.chronicles import legacy_setup_compute
from campaign.services.common import CAMPAIGN_CLOSED
from campaign.services.envelopes import GRAND_FINALE_NOT_YET, envelope_open, story_card_place
from campaign.services.stickers import MYSTERY_ALL_ATTACHED, mystery_sticker_attach
from campaign.story_selectors import night_finale
from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from tests.factories import campaign_at_the_last_mystery, campaign_with_houses
from tests.kings_dilemma_play import ROWS, draft, end_of_reign, play, vote_through

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def back(number: int, state: dict, *, envelope=None, lightning=False) -> dict:
    amount = 1 if state["stability"] < 9 else -1
    return {
        "resources": [[ROWS[number % 5], amount]],
        "sticker": None,
        "envelope": envelope,
        "lightning": lightning,
    }


def last_night(session, *, letter="F", envelope_on=None) -> dict:
    """Ten Dilemmas to the lightning space; on the tenth, whose back shows the lightning (the King
    dies), the table attaches Mystery sticker ``letter`` (none: ``letter=None``) before placing it.
    ``envelope_on``: the card whose back the table types Envelope 70 on."""
    draft(session)
    for number in range(1, 11):
        play(session, None, "draw_dilemma", card={"number": number, "title": f"Dilemma {number}"})
        state = vote_through(session, "aye")
        if state["phase"] == "tie_break":
            state = play(session, state["moderator"], "break_tie", side="aye")
        envelope = 70 if number == envelope_on else None
        play(
            session,
            None,
            "read_outcome",
            outcome=back(number, state, envelope=envelope, lightning=number == 10),
        )
        if number == 10 and letter:
            play(session, None, "mystery_sticker", letter=letter, label="The last dossier")
        state = play(session, None, "to_time_counter")
    return end_of_reign(session)


def five_mysteries(user):
    """A campaign with its starting deck, two Ending cards and Mystery stickers A to E."""
    return campaign_at_the_last_mystery("Anna", "Ben", "Chloe", user=user)


class LastNightTests:
    """'When the sixth Mystery sticker has been attached, after you complete the resolution of the
    Dilemma card that made you attach that sticker, you must immediately open Envelope 70'."""

    def test_the_table_opens_envelope_70_after_the_sixth_and_the_save_closes_the_campaign(self, client, user):
        campaign, houses = five_mysteries(user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="Last", seed=3)
        state = last_night(session)
        assert [e["number"] for e in state["result"]["envelopes"]] == [70]
        client.force_login(user)
        address = reverse("kd-night-record", args=[campaign.pk, session.pk])
        page = client.get(address).content.decode()
        assert 'id="grand-finale-note"' in page and 'name="e70-dilemmas"' not in page  # nothing to type

        response = client.post(address, {})

        assert response.status_code == 302, response.content.decode()[-2000:]
        campaign.refresh_from_db()
        session.refresh_from_db()  # the save names the game it wrote
        game = session.chronicle_game
        assert campaign.closed and campaign.grand_finale_ready
        assert game.recorded and game.conflicts == []
        assert Envelope.objects.get(campaign=campaign, number=70).game == game
        assert MysterySticker.objects.get(campaign=campaign, letter="F").game == game
        assert CampaignEvent.objects.filter(campaign=campaign, kind="grand_finale", game=game).exists()
        detail = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert 'id="grand-finale"' in detail and "Start a game night" not in detail
        assert "Story card 61 (Crown), signed by House Anna: Cohesion 3, Dissent 0" in detail
        assert "Story card 66 Schism (Faith), signed by House Ben: Cohesion 0, Dissent 2" in detail
        assert "Cohesion <strong>3</strong> · Dissent <strong>2</strong>" in detail
        assert f"Envelope 70 was opened in game {game.number}" in detail

    def test_the_api_saves_the_last_night_without_contents_for_envelope_70(self, user):
        campaign, houses = five_mysteries(user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="Last", seed=5)
        last_night(session)
        api = APIClient()
        api.force_authenticate(user)
        address = reverse("api:night-save", kwargs={"campaign_id": campaign.pk, "session_id": session.pk})
        response = api.post(address, {}, format="json")
        assert response.status_code == 200, response.json()
        campaign.refresh_from_db()
        assert campaign.closed and Envelope.objects.filter(campaign=campaign, number=70).exists()

    def test_a_closed_campaign_starts_no_new_night(self, client, user):
        campaign, houses = five_mysteries(user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="Last", seed=3)
        last_night(session)
        night_saves.game_night_record(session=session, actor=user)
        with pytest.raises(ValidationError, match=str(CAMPAIGN_CLOSED)):
            game_nights.game_night_start(campaign=campaign, houses=houses, king_name="After", seed=4)
        client.force_login(user)
        body = {"king_name": "After", **{f"seat{i}": h.pk for i, h in enumerate(houses)}}
        response = client.post(reverse("kd-night-start", args=[campaign.pk]), body)
        assert response.status_code == 400 and str(CAMPAIGN_CLOSED) in response.content.decode()
        api = APIClient()
        api.force_authenticate(user)
        address = reverse("api:night-start", kwargs={"campaign_id": campaign.pk})
        response = api.post(address, {"king_name": "After", "houses": [h.pk for h in houses]}, format="json")
        assert response.status_code == 400 and response.json()["message"] == CAMPAIGN_CLOSED
        assert campaign.sessions.count() == 1

    def test_the_story_of_the_last_night_tells_the_final_standings(self, client, user):
        campaign, houses = five_mysteries(user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="Last", seed=3)
        last_night(session)
        game = night_saves.game_night_record(session=session, actor=user)
        finale = night_finale(campaign=campaign, game=game)
        assert finale is not None and (finale["cohesion"], finale["dissent"]) == (3, 2)
        assert [card.number for card in finale["endings"]] == [61, 66]
        assert [h.pk for h in finale["houses"]] == [
            h.pk for h in selectors.houses_by_prestige(campaign=campaign)
        ]
        client.force_login(user)
        story = client.get(reverse("night-story", args=[campaign.pk, game.number])).content.decode()
        assert 'id="grand-finale"' in story and "Story card 66 Schism (Faith)" in story

    def test_envelope_70_typed_without_the_sixth_sticker_is_kept_as_a_conflict(self, user):
        campaign, houses = five_mysteries(user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="Last", seed=3)
        last_night(session, letter=None, envelope_on=4)
        game = night_saves.game_night_record(session=session, actor=user)
        assert game.recorded
        assert [(c["kind"], c["number"], c["message"]) for c in game.conflicts] == [
            ("envelope", 70, GRAND_FINALE_NOT_YET.format(count=5))
        ]
        campaign.refresh_from_db()
        assert not campaign.closed and not Envelope.objects.filter(campaign=campaign, number=70).exists()


class SeventhMysteryStickerTests:
    """'You will attach exactly 6 Mystery stickers during your campaign.'"""

    def test_the_table_refuses_a_seventh_mystery_sticker(self, user):
        campaign, houses = five_mysteries(user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="K", seed=3)
        assert session.config["mystery_stickers"] == list("ABCDE")
        draft(session)
        play(session, None, "mystery_sticker", letter="F", label="The sixth")
        version = session.version
        with pytest.raises(RuleError) as refused:
            play(session, None, "mystery_sticker", letter="G", label="One too many")
        assert refused.value.message == msg.MYSTERY_ALL.format(count=6, envelope=70)
        session.refresh_from_db()
        assert session.version == version and [m["letter"] for m in session.state["mystery_stickers"]] == [
            "F"
        ]

    def test_the_pages_and_the_api_refuse_a_seventh(self, client, user):
        campaign, _ = five_mysteries(user)
        mystery_sticker_attach(campaign=campaign, letter="F")
        client.force_login(user)
        response = client.post(reverse("mystery-attach", args=[campaign.pk]), {"letter": "G"})
        assert response.status_code == 400 and str(MYSTERY_ALL_ATTACHED) in response.content.decode()
        api = APIClient()
        api.force_authenticate(user)
        address = reverse("api:mystery-attach", kwargs={"campaign_id": campaign.pk})
        response = api.post(address, {"letter": "H"}, format="json")
        assert response.status_code == 400 and response.json()["message"] == MYSTERY_ALL_ATTACHED
        assert campaign.mystery_stickers.count() == 6


class EnvelopeSeventyTests:
    """Envelope 70 from the campaign's pages and API: the Grand Finale, never a standard Envelope."""

    def test_envelope_70_waits_for_the_sixth_mystery_sticker(self, user):
        campaign, _ = five_mysteries(user)
        with pytest.raises(ValidationError) as refused:
            envelope_open(campaign=campaign, number=70)
        assert refused.value.messages == [GRAND_FINALE_NOT_YET.format(count=5)]
        campaign.refresh_from_db()
        assert not campaign.closed and not campaign.envelopes.filter(number=70).exists()

    def test_envelope_70_opens_with_nothing_typed_once_the_sixth_is_attached(self, client, user):
        campaign, houses = five_mysteries(user)
        mystery_sticker_attach(campaign=campaign, letter="F")
        client.force_login(user)
        detail = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert 'id="open-envelope-70"' in detail
        body = {"number": 70, "opened_by": houses[0].pk, "dilemma_numbers": ""}
        response = client.post(reverse("envelope-open", args=[campaign.pk]), body)
        assert response.status_code in (200, 302), response.content.decode()[-2000:]
        envelope = Envelope.objects.get(campaign=campaign, number=70)
        assert not envelope.special and not envelope.cards.exists()
        campaign.refresh_from_db()
        assert campaign.closed

    def test_the_api_opens_envelope_70_with_nothing_typed(self, user):
        campaign, _ = five_mysteries(user)
        api = APIClient()
        api.force_authenticate(user)
        address = reverse("api:envelope-open", kwargs={"campaign_id": campaign.pk})
        early = api.post(address, {"number": 70}, format="json")
        assert early.status_code == 400 and early.json()["message"] == GRAND_FINALE_NOT_YET.format(count=5)
        mystery_sticker_attach(campaign=campaign, letter="F")
        response = api.post(address, {"number": 70}, format="json")
        assert response.status_code == 201, response.json()
        assert Envelope.objects.filter(campaign=campaign, number=70).exists()


class StorylineOrderTests:
    """'Setup Story and Event Cards': "divide the Story cards by Storyline ... into different decks,
    ordered by number, with the highest number on top"."""

    def test_the_highest_number_is_on_top_whatever_order_the_cards_were_opened_in(self, user):
        campaign, (anna, ben, chloe) = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
        bonus = {"start_coins": 2, "start_power": 1}
        story_card_place(
            campaign=campaign, number=12, storyline="Crown", signer=anna, effects=bonus
        )  # night 1
        story_card_place(campaign=campaign, number=7, storyline="Crown", signer=ben, effects=bonus)  # night 2
        (crown,) = selectors.storylines(campaign=campaign)
        assert crown["top"].number == 12 and [c.number for c in crown["cards"]] == [12, 7]
        setup = legacy_setup_compute(campaign=campaign, houses=[anna, ben, chloe])
        assert setup["start"][anna.pk] == {"coins": 12, "power": 9}  # card 12's signer: its bonus
        assert setup["start"][ben.pk] == {"coins": 10, "power": 8}


class FinalStandingsApiTests:
    def test_the_campaign_api_gives_the_final_standings_once_the_sixth_is_attached(self, user):
        campaign, houses = five_mysteries(user)
        api = APIClient()
        api.force_authenticate(user)
        address = reverse("api:campaign-detail", kwargs={"campaign_id": campaign.pk})
        assert api.get(address).json()["final_standings"] is None
        mystery_sticker_attach(campaign=campaign, letter="F")
        envelope_open(campaign=campaign, number=70)
        standings = api.get(address).json()["final_standings"]
        assert (standings["cohesion"], standings["dissent"]) == (3, 2)
        assert [card["number"] for card in standings["endings"]] == [61, 66]
        assert {h["name"]: (h["prestige"], h["crave"]) for h in standings["houses"]} == {
            "Anna": (0, 0),
            "Ben": (0, 0),
            "Chloe": (0, 0),
        }
        assert standings["grand_finale_game"] is None  # opened from the pages, outside a game
