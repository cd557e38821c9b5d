"""The first evening as the box plays it (issue 23). Rulebook, 'Before your first game', 1. Prepare
Your Starting Dilemma Deck: "Open Envelope 00 ... Read the first card included in the Envelope (the
Story card), then place it on the Realm board, in the Storyline space with the same symbol.
Afterwards, shuffle the remaining Dilemma cards ... This will be your starting Dilemma deck"."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.forms import CARD_NUMBERS_FORMAT, CARD_RANGE_TOO_LONG, MAX_TYPED_CARDS, card_numbers
from campaign.models import CampaignEvent, DilemmaCard, Envelope, StoryCard
from campaign.services.envelopes import (
    STANDARD_ENVELOPE_CARDS,
    STARTING_DECK_EMPTY,
    STARTING_ENVELOPE,
    envelope_open,
)
from campaign.services.game_nights import game_night_config
from tests.factories import campaign_with_houses

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
FIRST_STEP = "Before your first game: open Envelope 00"


def first_envelope(**extra):
    return {
        "story_number": 1,
        "storyline": "Crown",
        "title": "A new reign",
        "dilemma_numbers": "1-12",
        **extra,
    }


class EnvelopeZeroTests:
    def test_envelope_00_holds_a_story_card_and_the_starting_dilemma_deck(self):
        campaign, _ = campaign_with_houses("Anna", "Ben", "Carla")
        envelope = envelope_open(
            campaign=campaign,
            number=STARTING_ENVELOPE,
            dilemma_numbers=list(range(1, 13)),
            story_card={"number": 1, "storyline": "Crown"},
        )
        assert envelope.number == 0 and not envelope.special
        deck = campaign.dilemma_cards.filter(place=DilemmaCard.Place.DECK, envelope=envelope)
        assert sorted(deck.values_list("number", flat=True)) == list(range(1, 13))
        assert StoryCard.objects.get(campaign=campaign, number=1).storyline == "Crown"

    def test_the_first_night_draws_from_the_starting_deck(self):
        """Game Setup step 7: 'Take the Dilemma deck ... from the Dilemma Save slot'."""
        campaign, houses = campaign_with_houses("Anna", "Ben", "Carla")
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[3, 1, 2, 4])
        config = game_night_config(campaign=campaign, houses=houses, king_name="Harald V")
        assert config["dilemma_deck"] == [1, 2, 3, 4]

    def test_envelope_00_without_its_dilemma_cards_is_refused_and_writes_nothing(self):
        campaign, _ = campaign_with_houses("Anna")
        with pytest.raises(ValidationError) as refused:
            envelope_open(campaign=campaign, number=0, dilemma_numbers=[])
        assert refused.value.messages == [STARTING_DECK_EMPTY]
        assert not Envelope.objects.exists() and not CampaignEvent.objects.filter(kind="envelope_opened")

    def test_every_other_standard_envelope_still_holds_three_dilemma_cards(self):
        """'A standard Envelope will contain 1 Story card and 3 Dilemma cards' (Open Envelope)."""
        campaign, _ = campaign_with_houses("Anna")
        with pytest.raises(ValidationError) as refused:
            envelope_open(campaign=campaign, number=5, dilemma_numbers=list(range(1, 13)))
        assert refused.value.messages == [STANDARD_ENVELOPE_CARDS.format(count=12)]
        assert not Envelope.objects.exists()


class CardNumbersTests:
    def test_numbers_and_ranges_are_read_in_order(self):
        assert card_numbers("12, 31,7") == [12, 31, 7]
        assert card_numbers("1-4, 9") == [1, 2, 3, 4, 9]
        assert card_numbers("") == []

    @pytest.mark.parametrize("raw", ["a", "1-", "5-2", "1--3", "²", "1-x"])
    def test_what_is_not_a_number_or_a_range_is_refused(self, raw):
        with pytest.raises(ValidationError) as refused:
            card_numbers(raw)
        assert refused.value.messages == [CARD_NUMBERS_FORMAT]

    def test_a_range_longer_than_a_box_holds_is_refused(self):
        with pytest.raises(ValidationError) as refused:
            card_numbers(f"1-{MAX_TYPED_CARDS + 1}")
        assert refused.value.messages == [CARD_RANGE_TOO_LONG % {"most": MAX_TYPED_CARDS}]


class FirstStepPageTests:
    def test_a_new_campaign_offers_open_envelope_00_as_its_first_step(self, client):
        campaign, _ = campaign_with_houses()
        client.force_login(campaign.created_by)
        html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert FIRST_STEP in html
        assert reverse("envelope-first", args=[campaign.pk]) in html

    def test_the_first_step_opens_envelope_00_then_leaves_the_page(self, client):
        campaign, _ = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        response = client.post(reverse("envelope-first", args=[campaign.pk]), first_envelope(), follow=True)
        html = response.content.decode()
        assert "Envelope 00 opened: Story card 1 is on its storyline and 12 Dilemma cards" in html
        assert FIRST_STEP not in html
        assert list(campaign.dilemma_cards.values_list("number", flat=True)) == list(range(1, 13))

    def test_with_htmx_the_save_confirms_itself_at_once_and_the_save_slots_follow(self, client):
        campaign, _ = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        response = client.post(reverse("envelope-first", args=[campaign.pk]), first_envelope(), headers=HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert 'id="first-envelope-form" role="status">Envelope 00 opened' in html
        assert '<div id="save-slots" hx-swap-oob="true">' in html and "Dilemma card 12: move it" in html
        assert '<p id="envelope-list" hx-swap-oob="true">' in html
        assert '<div id="storylines" hx-swap-oob="true">' in html

    def test_a_refused_first_envelope_keeps_what_was_typed(self, client):
        campaign, _ = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        url = reverse("envelope-first", args=[campaign.pk])
        response = client.post(url, first_envelope(dilemma_numbers="1-3, x"), headers=HTMX)
        html = response.content.decode()
        assert response.status_code == 422
        assert str(CARD_NUMBERS_FORMAT) in html and 'value="1-3, x"' in html and 'value="Crown"' in html
        assert not Envelope.objects.exists()

    def test_envelope_00_typed_in_the_envelope_form_is_accepted_as_what_it_is(self, client):
        campaign, _ = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        url = reverse("envelope-open", args=[campaign.pk])
        response = client.post(url, {"number": 0, "dilemma_numbers": "1-20"}, headers=HTMX)
        assert response.status_code == 200
        assert campaign.dilemma_cards.filter(place=DilemmaCard.Place.DECK).count() == 20


class SaveConfirmsItselfTests:
    """Every form of the campaign page confirms its save at once with htmx: the fragments sent
    beside it never replace the form that carries the confirmation."""

    @pytest.mark.parametrize(
        ("route", "form_id", "data", "message"),
        [
            (
                "envelope-open",
                "envelope-form",
                {"number": 5, "dilemma_numbers": "1, 2, 3"},
                "Envelope 05 opened.",
            ),
            ("story-place", "story-form", {"number": 9, "storyline": "Crown"}, "Story card 9 is on top"),
            (
                "achievement-create",
                "achievement-form",
                {"house": "HOUSE", "kind": "gameplay", "name": "Feast", "spaces": 2},
                "Feast added to House Anna.",
            ),
            ("house-create", "house-form", {"name": "Ben", "number": 2}, "House Ben joined the campaign."),
            (
                "sticker-attach",
                "sticker-form",
                {"number": 43, "row": "welfare", "positive": "0"},
                "Sticker 43 attached",
            ),
        ],
    )
    def test_the_saved_form_shows_its_message_once_and_is_not_replaced(
        self, client, route, form_id, data, message
    ):
        campaign, (anna,) = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        data = {k: (anna.pk if v == "HOUSE" else v) for k, v in data.items()}
        html = client.post(reverse(route, args=[campaign.pk]), data, headers=HTMX).content.decode()
        assert message in html
        assert html.count(f'id="{form_id}"') == 1, "an out-of-band copy would replace the confirmation"


class NightStartTests:
    def test_starting_a_night_before_envelope_00_points_to_it(self, client):
        campaign, _ = campaign_with_houses("Anna", "Ben", "Carla")
        client.force_login(campaign.created_by)
        url = reverse("kd-night-start", args=[campaign.pk])
        assert "open Envelope 00</a>" in client.get(url).content.decode()
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        assert "open Envelope 00" not in client.get(url).content.decode()
