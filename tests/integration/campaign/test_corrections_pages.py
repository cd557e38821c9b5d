"""Corrections from the pages (issue 23): a night's result, a Chronicle sticker, an Envelope and a card
in the wrong save slot, each corrected through a service that checks the campaign, runs in a
transaction and says in the history what changed, from what to what, and by whom."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.models import (
    CampaignEvent,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    LedgerEntry,
    StoryCard,
)
from campaign.selectors import house_totals, sticker_history
from campaign.services.chronicles import (
    RESULT_HOUSE_TWICE,
    game_begin,
    game_result_correct,
    game_result_record,
)
from campaign.services.envelopes import (
    ENVELOPE_CARDS_PLAYED,
    UNKNOWN_PLACE,
    dilemma_card_move,
    envelope_correct,
    envelope_open,
    envelope_remove,
    game_save,
)
from campaign.services.ledger import PRESTIGE_BELOW_ZERO, ledger_add
from campaign.services.stickers import (
    NOTHING_TO_CORRECT,
    STICKER_ALREADY_ATTACHED,
    sticker_attach,
    sticker_correct,
    sticker_remove,
)
from tests.factories import HARALD, UserFactory, campaign_with_houses, harald_rows

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def recorded_night(user=None):
    """The rulebook's King Harald V table ('Mark scores on the Realm Chronicles'), recorded."""
    campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD], user=user)
    game = game_begin(campaign=campaign, king_name="Harald V")
    game_result_record(game=game, end="king_died", rows=harald_rows(houses))
    return campaign, houses, game


def posted_rows(houses, rows, end="king_died", reason=""):
    data = {"end": end, "reason": reason}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"row{i}-{key}"] = value.pk if key == "house" else value
    return data


def new_events(campaign, kind):
    return list(CampaignEvent.objects.filter(campaign=campaign, kind=kind))


class GameCorrectPageTests:
    def test_each_recorded_night_of_the_realm_chronicles_offers_its_correction(self, client):
        campaign, _, game = recorded_night()
        game_begin(campaign=campaign, king_name="Unrecorded")
        client.force_login(campaign.created_by)
        html = client.get(reverse("campaign-chronicles", args=[campaign.pk])).content.decode()
        assert html.count(">Correct this night</a>") == 1
        assert reverse("game-correct", args=[campaign.pk, game.number]) in html

    def test_the_form_is_prefilled_with_the_current_revision(self, client):
        campaign, houses, game = recorded_night()
        client.force_login(campaign.created_by)
        html = client.get(reverse("game-correct", args=[campaign.pk, game.number])).content.decode()
        assert '<option value="king_died" selected>' in html
        # Charles's 12 Secret Agenda points lead the table: the first row.
        assert f'<option value="{houses[3].pk}" selected>' in html and 'value="12"' in html
        assert '<option value="greedy" selected>' in html

    def test_a_correction_writes_a_new_revision_and_the_ledger_keeps_both(self, client):
        campaign, houses, game = recorded_night()
        client.force_login(campaign.created_by)
        rows = harald_rows(houses)
        rows[0]["agenda_points"] = 20  # Valentine actually scored more
        url = reverse("game-correct", args=[campaign.pk, game.number])
        response = client.post(url, posted_rows(houses, rows, reason="Valentine's agenda miscounted"))
        assert response.status_code == 302
        assert response.url == reverse("campaign-chronicles", args=[campaign.pk])
        game.refresh_from_db()
        assert game.revision == 1
        assert ChronicleScore.objects.filter(game=game, revision=0).count() == 5  # the original stays
        assert house_totals(house=houses[0]) == {"prestige": 3, "crave": 0}
        assert LedgerEntry.objects.filter(source=LedgerEntry.Source.CORRECTION).exists()
        (event,) = new_events(campaign, "game_corrected")
        assert event.summary == (
            "Game 1 corrected (revision 1): Valentine's agenda miscounted "
            "(House Valentine: Agenda points 5 → 20, position 4 → 1; House Martina: position 1 → 2; "
            "House Armin: position 4 → 5; House Charles: position 3 → 4; House Theodore: position 2 → 3)"
        )
        assert event.actor == campaign.created_by
        page = client.get(response.url).content.decode()
        assert "Game 1 corrected: the Realm Chronicles keep the result played and this correction" in page
        assert "corrected" in page

    def test_the_history_names_a_changed_secret_agenda_and_end(self):
        campaign, houses, game = recorded_night()
        rows = harald_rows(houses)
        rows[1]["secret_agenda"] = "rebel"
        game_result_correct(game=game, end="abdicated_top", rows=rows, actor=campaign.created_by)
        (event,) = new_events(campaign, "game_corrected")
        assert event.summary.startswith(
            "Game 1 corrected (revision 1) (end: The King died → The King abdicated (Stability at the top); "
            "House Martina: Secret Agenda Moderate → Rebel"
        )
        assert len(event.summary) <= 300 and event.actor == campaign.created_by

    def test_a_refused_correction_shows_why_keeps_what_was_typed_and_writes_nothing(self, client):
        campaign, houses, game = recorded_night()
        client.force_login(campaign.created_by)
        rows = harald_rows(houses)
        rows[4]["house"] = houses[0]
        rows[4]["agenda_points"] = 77
        ledger = LedgerEntry.objects.count()
        response = client.post(
            reverse("game-correct", args=[campaign.pk, game.number]), posted_rows(houses, rows)
        )
        html = response.content.decode()
        assert response.status_code == 400
        assert RESULT_HOUSE_TWICE.format(house="Valentine") in html
        assert 'value="77"' in html
        game.refresh_from_db()
        assert game.revision == 0 and LedgerEntry.objects.count() == ledger
        assert not new_events(campaign, "game_corrected")

    def test_a_night_without_a_result_has_nothing_to_correct(self, client):
        campaign, _ = campaign_with_houses("Anna")
        game = game_begin(campaign=campaign, king_name="Harald V")
        client.force_login(campaign.created_by)
        assert client.get(reverse("game-correct", args=[campaign.pk, game.number])).status_code == 404

    def test_someone_outside_the_campaign_can_correct_nothing(self, client):
        campaign, houses, game = recorded_night()
        client.force_login(UserFactory())
        url = reverse("game-correct", args=[campaign.pk, game.number])
        assert client.get(url).status_code == 404
        assert client.post(url, posted_rows(houses, harald_rows(houses))).status_code == 404
        game.refresh_from_db()
        assert game.revision == 0


def board(campaign):
    return {s.number: (s.row, s.slot, s.covered) for s in ChronicleSticker.objects.filter(campaign=campaign)}


class StickerCorrectTests:
    def test_a_sticker_typed_on_the_wrong_row_moves_and_the_history_says_from_what_to_what(self):
        campaign, (anna, ben) = campaign_with_houses("Anna", "Ben")
        actor = campaign.created_by
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna)
        sticker_attach(campaign=campaign, number=12, row="morale", positive=True, signer=None)
        sticker = campaign.stickers.get(number=43)
        sticker_correct(
            sticker=sticker, number=43, row="morale", positive=False, signer=ben, title="", actor=actor
        )
        assert board(campaign)[43] == ("morale", 1, False)  # the leftmost empty space of its new row
        (event,) = new_events(campaign, "sticker_corrected")
        assert event.summary == (
            "Chronicle sticker 43 corrected: row Welfare → Morale; signer House Anna → House Ben"
        )
        assert event.actor == actor and event.house == ben
        assert [e.kind for e in sticker_history(campaign=campaign, number=43)] == [
            "sticker_corrected",
            "sticker_attached",
        ]

    def test_a_sticker_leaving_a_full_row_gives_the_covered_sticker_its_space_back(self):
        """'Apply Chronicle stickers': in a full row the new sticker covers the oldest."""
        campaign, _ = campaign_with_houses("Anna")
        campaign.settings = {"row_capacity": 2}
        campaign.save()
        for number in (1, 2, 3):
            sticker_attach(campaign=campaign, number=number, row="wealth", positive=True, signer=None)
        assert board(campaign)[1] == ("wealth", 0, True)
        sticker_correct(
            sticker=campaign.stickers.get(number=3), number=3, row="influence", positive=True, signer=None
        )
        assert board(campaign) == {
            1: ("wealth", 0, False),
            2: ("wealth", 1, False),
            3: ("influence", 0, False),
        }

    def test_a_number_already_on_the_board_is_refused_and_nothing_changes(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna)
        sticker_attach(campaign=campaign, number=12, row="morale", positive=True, signer=None)
        before = board(campaign)
        with pytest.raises(ValidationError) as refused:
            sticker_correct(
                sticker=campaign.stickers.get(number=43),
                number=12,
                row="welfare",
                positive=False,
                signer=anna,
            )
        assert refused.value.messages == [STICKER_ALREADY_ATTACHED.format(number=12)]
        assert board(campaign) == before and not new_events(campaign, "sticker_corrected")

    def test_a_correction_that_changes_nothing_is_refused(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        sticker = sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna)
        with pytest.raises(ValidationError) as refused:
            sticker_correct(sticker=sticker, number=43, row="welfare", positive=False, signer=anna)
        assert refused.value.messages == [NOTHING_TO_CORRECT.format(thing="sticker 43")]

    def test_a_sticker_attached_by_mistake_comes_off_and_uncovers_the_one_beneath(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        campaign.settings = {"row_capacity": 1}
        campaign.save()
        sticker_attach(campaign=campaign, number=1, row="wealth", positive=True, signer=None)
        sticker_attach(campaign=campaign, number=2, row="wealth", positive=False, signer=anna)
        sticker_remove(sticker=campaign.stickers.get(number=2), actor=campaign.created_by)
        assert board(campaign) == {1: ("wealth", 0, False)}
        (event,) = new_events(campaign, "sticker_removed")
        assert event.summary == (
            "Chronicle sticker 2 (negative Wealth, signed by House Anna) removed: attached by mistake"
        )
        assert new_events(campaign, "sticker_attached")  # the attachment stays in the history

    def test_the_page_corrects_a_sticker_and_a_refusal_keeps_what_was_typed(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna)
        sticker_attach(campaign=campaign, number=12, row="morale", positive=True, signer=None)
        client.force_login(campaign.created_by)
        detail = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        url = reverse("sticker-correct", args=[campaign.pk, 43])
        assert url in detail
        page = client.get(url).content.decode()
        assert 'value="43"' in page and '<option value="welfare" selected>' in page
        data = {"number": 12, "row": "knowledge", "positive": "0", "signer": anna.pk, "title": "Plague"}
        refused = client.post(url, data)
        assert refused.status_code == 400
        html = refused.content.decode()
        assert STICKER_ALREADY_ATTACHED.format(number=12) in html and 'value="Plague"' in html
        response = client.post(url, {**data, "number": 44})
        assert response.status_code == 302
        assert board(campaign)[44] == ("knowledge", 0, False)
        assert "Sticker 44 corrected." in client.get(response.url).content.decode()

    def test_the_page_removes_a_sticker_attached_by_mistake(self, client):
        campaign, _ = campaign_with_houses("Anna")
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=None)
        client.force_login(campaign.created_by)
        response = client.post(reverse("sticker-correct", args=[campaign.pk, 43]), {"remove": "1"})
        assert response.status_code == 302 and not ChronicleSticker.objects.exists()


class EnvelopeCorrectTests:
    def test_who_opened_an_envelope_and_its_kind_are_corrected_with_the_history(self):
        campaign, (anna, ben) = campaign_with_houses("Anna", "Ben")
        envelope = envelope_open(campaign=campaign, number=5, opened_by=anna, dilemma_numbers=[1, 2, 3])
        envelope_correct(envelope=envelope, opened_by=ben, special=True, actor=campaign.created_by)
        envelope.refresh_from_db()
        assert envelope.opened_by == ben and envelope.special
        (event,) = new_events(campaign, "envelope_corrected")
        assert (
            event.summary
            == "Envelope 05 corrected: opened by House Anna → House Ben; kind standard → Special"
        )

    def test_an_envelope_opened_by_mistake_goes_back_with_its_cards_and_rewards(self):
        """'Open Envelope': its Story card went on a storyline and its 3 Dilemma cards into the deck."""
        campaign, (anna,) = campaign_with_houses("Anna")
        envelope = envelope_open(
            campaign=campaign,
            number=5,
            opened_by=anna,
            dilemma_numbers=[1, 2, 3],
            story_card={"number": 5, "storyline": "Faith", "effects": {"prestige": 2}},
        )
        assert house_totals(house=anna)["prestige"] == 2
        envelope_remove(envelope=envelope, actor=campaign.created_by)
        assert not Envelope.objects.exists() and not DilemmaCard.objects.exists()
        assert not StoryCard.objects.exists()
        assert house_totals(house=anna)["prestige"] == 0
        assert LedgerEntry.objects.filter(source=LedgerEntry.Source.CORRECTION, amount=-2).exists()
        (event,) = new_events(campaign, "envelope_removed")
        assert event.summary == (
            "Envelope 05 removed: opened by mistake; its Dilemma cards 1, 2, 3 left the deck; Story card 5 removed"
        )

    def test_an_envelope_whose_card_was_played_since_stays(self):
        campaign, _ = campaign_with_houses("Anna")
        envelope = envelope_open(campaign=campaign, number=5, dilemma_numbers=[1, 2, 3])
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_save(game=game, resolved=[2])
        with pytest.raises(ValidationError) as refused:
            envelope_remove(envelope=envelope)
        assert refused.value.messages == [ENVELOPE_CARDS_PLAYED.format(number=5, card="Dilemma card 2")]
        assert Envelope.objects.count() == 1 and DilemmaCard.objects.count() == 3

    def test_the_page_corrects_and_removes_an_envelope(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=5, dilemma_numbers=[1, 2, 3])
        client.force_login(campaign.created_by)
        url = reverse("envelope-correct", args=[campaign.pk, 5])
        assert url in client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert "its Dilemma cards: 1, 2, 3" in client.get(url).content.decode()
        assert client.post(url, {"opened_by": anna.pk}).status_code == 302
        assert Envelope.objects.get().opened_by == anna
        refused = client.post(url, {"opened_by": anna.pk})
        assert refused.status_code == 400
        assert NOTHING_TO_CORRECT.format(thing="Envelope 05") in refused.content.decode()
        assert client.post(url, {"remove": "1"}).status_code == 302
        assert not Envelope.objects.exists()

    def test_a_refused_removal_shows_why_on_the_page(self, client):
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=5, dilemma_numbers=[1, 2, 3])
        game_save(game=game_begin(campaign=campaign, king_name="H"), resolved=[1])
        client.force_login(campaign.created_by)
        response = client.post(reverse("envelope-correct", args=[campaign.pk, 5]), {"remove": "1"})
        assert response.status_code == 400
        assert ENVELOPE_CARDS_PLAYED.format(number=5, card="Dilemma card 1") in response.content.decode()
        assert Envelope.objects.exists()


class DilemmaCardMoveTests:
    def test_a_card_trashed_by_mistake_goes_back_to_the_dilemma_save_slot(self):
        """'Final Cleanup': resolved Dilemmas go to the Trash; one put there wrongly comes back."""
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=5, dilemma_numbers=[1, 2, 3])
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_save(game=game, resolved=[2])
        card = campaign.dilemma_cards.get(number=2)
        dilemma_card_move(card=card, place=DilemmaCard.Place.DECK, actor=campaign.created_by)
        card.refresh_from_db()
        assert card.place == DilemmaCard.Place.DECK and card.resolved_in is None
        (event,) = new_events(campaign, "dilemma_card_moved")
        assert event.summary == "Dilemma card 2 moved: Trash → Dilemma save slot"
        assert event.actor == campaign.created_by

    @pytest.mark.parametrize(
        ("place", "message"),
        [
            ("deck", NOTHING_TO_CORRECT.format(thing="card 1")),
            ("box", UNKNOWN_PLACE.format(place="box")),
        ],
    )
    def test_a_move_to_nowhere_new_is_refused(self, place, message):
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=5, dilemma_numbers=[1, 2, 3])
        with pytest.raises(ValidationError) as refused:
            dilemma_card_move(card=campaign.dilemma_cards.get(number=1), place=place)
        assert refused.value.messages == [message]
        assert not new_events(campaign, "dilemma_card_moved")

    def test_the_page_moves_a_card_between_the_save_slots(self, client):
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=5, dilemma_numbers=[1, 2, 3])
        client.force_login(campaign.created_by)
        url = reverse("card-move", args=[campaign.pk, 3])
        assert url in client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        response = client.post(url, {"place": "event_area"})
        assert response.status_code == 302
        assert campaign.dilemma_cards.get(number=3).place == DilemmaCard.Place.EVENT_AREA
        assert "Dilemma card 3 moved to the Event area." in client.get(response.url).content.decode()
        assert client.post(url, {"place": "attic"}).status_code == 400


class PrestigeNeverBelowZeroTests:
    """A House's Prestige never goes below 0 (the engine refuses to seat such a House: no next
    night): a correction that would take it there is refused and writes nothing."""

    def test_a_result_correction_that_would_leave_prestige_below_zero_is_refused(self):
        campaign, houses, game = recorded_night()
        martina = houses[1]  # 2nd in the rulebook's table: 3 Prestige, then a card took them away
        ledger_add(
            house=martina, kind="prestige", amount=-3, reason="Card effect", source="manual", game=game
        )
        entries, events = LedgerEntry.objects.count(), CampaignEvent.objects.count()
        rows = harald_rows(houses)
        rows[0]["agenda_points"] = 20  # Valentine first: Martina 3rd, 2 Prestige instead of 3
        with pytest.raises(ValidationError) as refused:
            game_result_correct(game=game, end="king_died", rows=rows, reason="miscounted")
        assert refused.value.messages == [PRESTIGE_BELOW_ZERO.format(house="Martina", prestige=-1)]
        game.refresh_from_db()
        assert game.revision == 0 and not ChronicleScore.objects.filter(revision=1).exists()
        assert (LedgerEntry.objects.count(), CampaignEvent.objects.count()) == (entries, events)
        assert house_totals(house=martina)["prestige"] == 0

    def test_an_envelope_removal_that_would_leave_prestige_below_zero_is_refused(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        envelope = envelope_open(
            campaign=campaign,
            number=5,
            opened_by=anna,
            dilemma_numbers=[1, 2, 3],
            story_card={"number": 5, "storyline": "Faith", "effects": {"prestige": 2}},
        )
        ledger_add(house=anna, kind="prestige", amount=-2, reason="Card effect", source="manual")
        with pytest.raises(ValidationError) as refused:
            envelope_remove(envelope=envelope, actor=campaign.created_by)
        assert refused.value.messages == [PRESTIGE_BELOW_ZERO.format(house="Anna", prestige=-2)]
        assert Envelope.objects.exists() and StoryCard.objects.exists()
        assert house_totals(house=anna)["prestige"] == 0
