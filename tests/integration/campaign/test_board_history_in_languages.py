"""The Realm board's history and ledger in each reader's language: a sticker attached, aged,
corrected and removed, an Envelope opened and removed, a Story card's Prestige and its correction,
a save's conflict. The English kept beside each message reads as it always did."""

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from campaign.models import CampaignEvent, LedgerEntry
from campaign.services.chronicles import game_begin
from campaign.services.envelopes import dilemma_card_move, envelope_open, envelope_remove, game_save
from campaign.services.stickers import chronicle_age, sticker_attach, sticker_correct, sticker_remove
from games.engines.kernel.messages import from_data
from games.translation import say_stored
from tests.factories import UserFactory, campaign_with_houses

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(client):
    """Envelope 00 opened by House Smeethe, sticker 12 attached by it, aged once, then corrected
    (its side, its signer, its title); the owner logged in."""
    owner = UserFactory(username="olga")
    campaign, houses = campaign_with_houses("Smeethe", "Tork", user=owner, name="Herbst")
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3], opened_by=houses[0])
    sticker = sticker_attach(campaign=campaign, number=12, row="wealth", positive=True, signer=houses[0])
    chronicle_age(campaign=campaign)
    sticker_correct(
        sticker=sticker, number=12, row="wealth", positive=False, signer=houses[1], title="Bread riots"
    )
    client.force_login(owner)
    return owner, campaign, houses


ENGLISH = [
    "Envelope 00 opened by House Smeethe",
    "Chronicle sticker 12 (positive Wealth) attached, signed by House Smeethe",
    "Chronicle aging: 1 sticker marked",
    "Chronicle sticker 12 corrected: side positive → negative; signer House Smeethe → House Tork; "
    "title (no title) → Bread riots",
]

GERMAN = [
    "Umschlag 00 geöffnet von Haus Smeethe",
    "Chronik-Sticker 12 (Wohlstand, positiv) angebracht, unterschrieben von Haus Smeethe",
    "Alterung der Chronik: 1 Sticker markiert",
    "Chronik-Sticker 12 korrigiert: Seite positiv → negativ; Unterzeichner Haus Smeethe → Haus Tork; "
    "Titel (kein Titel) → Bread riots",
]


def _page(client, name: str, campaign, language: str) -> str:
    url = reverse(name, args=[campaign.pk])
    return client.get(url, headers={"accept-language": language}).content.decode()


class BoardHistoryInLanguagesTests:
    def test_the_history_keeps_the_english_it_always_wrote(self, board):
        _, campaign, _ = board
        summaries = list(campaign.events.order_by("pk").values_list("summary", flat=True))
        assert [s for s in summaries if s in ENGLISH] == ENGLISH

    def test_every_line_of_the_board_is_kept_as_its_message_which_says_its_english_again(self, board):
        _, campaign, houses = board
        envelope = envelope_open(
            campaign=campaign,
            number=1,
            dilemma_numbers=[4, 5, 6],
            story_card={"number": 5, "storyline": "Crown", "signer": houses[1], "effects": {"crave": 1}},
        )
        envelope_remove(envelope=envelope)
        sticker_remove(sticker=campaign.stickers.get(number=12))
        others = {"ledger", "campaign_created", "house_created"}  # lines other services write
        events = list(campaign.events.exclude(kind__in=others).order_by("pk"))
        assert len(events) == 8 and all(e.summary_data is not None for e in events)
        assert [str(from_data(e.summary_data)) for e in events] == [e.summary for e in events]
        with translation.override("de"):
            assert not [e.summary for e in events if e.said == e.summary]

    def test_the_history_page_in_german_says_the_board_s_lines_in_german(self, client, board):
        _, campaign, _ = board
        page = _page(client, "campaign-history", campaign, "de")
        assert all(line in page for line in GERMAN), page
        assert not any(line in page for line in ENGLISH)

    def test_the_campaign_page_in_german_lists_the_latest_changes_in_german(self, client, board):
        _, campaign, _ = board
        page = _page(client, "campaign-detail", campaign, "de")
        latest = page[page.index('id="latest-changes"') :]
        assert all(line in latest for line in GERMAN)
        assert not any(line in latest for line in ENGLISH)

    def test_the_api_history_answers_in_italian(self, board):
        owner, campaign, _ = board
        api = APIClient(headers={"accept-language": "it"})
        api.force_authenticate(owner)
        answer = api.get(f"/api/campaigns/{campaign.pk}/history/").json()
        summaries = [row["summary"] for row in answer.get("results", answer)]
        assert "Adesivo Cronaca 12 (Ricchezza, positivo) attaccato, firmato dalla Casata Smeethe" in summaries
        assert "Invecchiamento della Cronaca: 1 adesivo segnato" in summaries
        assert "Busta 00 aperta dalla Casata Smeethe" in summaries
        assert not set(ENGLISH) & set(summaries)

    def test_a_removed_sticker_reads_its_row_side_and_signer_in_french(self, board):
        _, campaign, _ = board
        sticker_remove(sticker=campaign.stickers.get(number=12))
        event = campaign.events.get(kind="sticker_removed")
        assert event.summary == (
            "Chronicle sticker 12 (negative Wealth, signed by House Tork) removed: attached by mistake"
        )
        assert event.data["before"]["signer"] == "House Tork"  # the data keeps the English words
        with translation.override("fr"):
            assert event.said == (
                "Autocollant Chronique 12 (Prospérité, négatif, signé par : Maison Tork) retiré : collé par erreur"
            )


class EnvelopeAndLedgerInLanguagesTests:
    def test_a_story_card_s_prestige_and_its_correction_read_in_german(self, board):
        _, campaign, houses = board
        envelope = envelope_open(
            campaign=campaign,
            number=1,
            dilemma_numbers=[4, 5, 6],
            opened_by=houses[0],
            story_card={"number": 5, "storyline": "Crown", "effects": {"prestige": 2}},
        )
        envelope_remove(envelope=envelope)
        entries = LedgerEntry.objects.filter(house=houses[0]).order_by("pk")
        assert [(e.amount, e.reason) for e in entries] == [
            (2, "Story card 5"),
            (-2, "Correction: Story card 5 removed"),
        ]
        with translation.override("de"):
            assert [e.said_reason for e in entries] == [
                "Geschichtskarte 5",
                "Korrektur: Geschichtskarte 5 entfernt",
            ]
        removed = campaign.events.get(kind="envelope_removed")
        assert removed.summary == (
            "Envelope 01 removed: opened by mistake; its Dilemma cards 4, 5, 6 left the deck; Story card 5 removed"
        )
        with translation.override("es"):
            assert removed.said == (
                "Sobre 01 retirado: abierto por error; sus cartas de Dilema 4, 5, 6 han salido del mazo; "
                "carta de Historia 5 retirada"
            )

    def test_a_card_moved_by_hand_names_its_save_slots_in_italian(self, board):
        _, campaign, _ = board
        dilemma_card_move(card=campaign.dilemma_cards.get(number=2), place="trash")
        event = campaign.events.get(kind="dilemma_card_moved")
        assert event.summary == "Dilemma card 2 moved: Dilemma save slot → Trash"
        assert event.data["before"] == "Dilemma save slot" and event.data["after"] == "Trash"
        with translation.override("it"):
            assert event.said == "Carta Dilemma 2 spostata: scomparto dei Dilemmi → Scarti"


class SaveConflictInLanguagesTests:
    def test_a_card_already_in_the_trash_keeps_its_english_and_reads_in_german(self, board):
        _, campaign, _ = board
        first = game_begin(campaign=campaign, king_name="K")
        assert game_save(game=first, resolved=[1]) == []
        second = game_begin(campaign=campaign, king_name="L")
        [conflict] = game_save(game=second, resolved=[1])
        assert conflict["message"] == (
            "Dilemma card 1 is not in the Dilemma deck (it is in the Trash). "
            "Dilemma card 1 was already in the Trash (resolved in game 1): it stays there as it was."
        )
        with translation.override("de"):
            assert say_stored(conflict["message_data"], english=conflict["message"]) == (
                "Die Dilemmakarte 1 ist nicht im Dilemmastapel (sie liegt hier: Ablage). "
                "Die Dilemmakarte 1 lag bereits in der Ablage (abgehandelt in Partie 1): Sie bleibt dort, wie sie war."
            )
        saved = CampaignEvent.objects.get(campaign=campaign, kind="game_saved", game=second)
        assert saved.summary == (
            "Game 2 saved: 0 Dilemma cards to the Trash, 0 Trigger cards back into the Dilemma deck, "
            "0 Event cards to the Story save slot"
        )
        with translation.override("de"):
            assert saved.said == (
                "Partie 2 gespeichert: 0 Dilemmakarten in die Ablage, 0 Auslöserkarten zurück in den "
                "Dilemmastapel, 0 Ereigniskarten ins Geschichten-Speicherfach"
            )

    def test_a_card_put_in_the_trash_by_hand_says_so_without_a_game(self, board):
        _, campaign, _ = board
        dilemma_card_move(card=campaign.dilemma_cards.get(number=3), place="trash")
        game = game_begin(campaign=campaign, king_name="K")
        [conflict] = game_save(game=game, resolved=[3])
        assert conflict["message"].endswith(
            "Dilemma card 3 was already in the Trash: it stays there as it was."
        )
        with translation.override("fr"):
            said = say_stored(conflict["message_data"], english=conflict["message"])
        assert said.endswith("La carte Dilemme 3 était déjà dans la défausse : elle y reste telle quelle.")
