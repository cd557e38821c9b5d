"""The Realm Chronicles keep their words as messages: a game begun, recorded and corrected, the ledger
reasons it writes and a saved night's conflicts read in each reader's language on the pages and in
the API, while their English stays as it was written."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from rest_framework.test import APIClient

from campaign.models import LedgerEntry
from campaign.services import game_nights, night_saves
from campaign.services.chronicles import game_begin, game_result_correct, game_result_record
from campaign.services.envelopes import ENVELOPE_ALREADY_OPENED, GRAND_FINALE_NOT_YET, envelope_open
from campaign.services.stickers import (
    MYSTERY_ALL_ATTACHED,
    MYSTERY_ALREADY,
    STICKER_ALREADY_ATTACHED,
    sticker_attach,
)
from games.translation import say_to_reader
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import play_night

pytestmark = [pytest.mark.database, pytest.mark.django_db]


@pytest.fixture
def conflicted(user):
    """A night saved after sticker 43 was attached and Envelope 09 opened from the pages meanwhile:
    both stay with the night as conflicts."""
    campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", "David", user=user)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
    session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="Kurt", seed=7)
    state = play_night(session)  # sticker 43 on card 3, Envelope 09 on card 4
    sticker_attach(campaign=campaign, number=43, row="morale", positive=False, signer=houses[1])
    envelope_open(campaign=campaign, number=9, special=True)
    contents = {9: {"dilemma_numbers": [90, 91, 92], "story_card": {"number": 9, "storyline": "Crown"}}}
    game = night_saves.game_night_record(session=session, envelope_contents=contents, actor=user)
    signer = houses[state["result"]["stickers"][0]["signer"]]
    opener = houses[state["result"]["envelopes"][0]["opened_by"]]
    return campaign, game, signer, opener


def _reader(user, language: str) -> tuple[Client, APIClient]:
    page, api = (
        Client(headers={"accept-language": language}),
        APIClient(headers={"accept-language": language}),
    )
    page.force_login(user)
    api.force_authenticate(user)
    return page, api


def _three_houses_recorded():
    campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe")
    game = game_begin(campaign=campaign, king_name="Kurt")
    rows = [
        {
            "house": house,
            "secret_agenda": "moderate",
            "agenda_points": points,
            "open_agenda_points": 0,
            "coins_points": 0,
            "power_points": 0,
        }
        for house, points in zip(houses, (10, 5, 1), strict=True)
    ]
    game_result_record(game=game, end="king_died", rows=rows)
    return campaign, houses, game, rows


class ConflictWordsTests:
    def test_each_conflict_keeps_its_english_and_its_messages(self, conflicted):
        _, game, signer, opener = conflicted
        by_kind = {c["kind"]: c for c in game.conflicts}
        sticker, envelope = by_kind["sticker"], by_kind["envelope"]
        assert sticker["message"] == str(STICKER_ALREADY_ATTACHED.format(number=43))
        assert sticker["what"] == f"Chronicle sticker 43 (Positive Welfare), signed by House {signer.name}"
        assert envelope["message"] == str(ENVELOPE_ALREADY_OPENED.format(number=9))
        assert envelope["what"] == (
            f"Envelope 09, opened by House {opener.name}; it held Story card 9 (Crown), Dilemma cards 90, 91, 92"
        )
        assert all(c["message_data"] and c["what_data"] for c in (sticker, envelope))

    def test_the_realm_chronicles_page_says_the_conflicts_in_german(self, conflicted, user):
        campaign, game, signer, opener = conflicted
        page, _ = _reader(user, "de")
        html = page.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert escape("Umschlag 09 wurde bereits geöffnet.") in html
        assert (
            escape(f"Chronik-Sticker 43 (positiv, Reihe Wohlfahrt), unterzeichnet von Haus {signer.name}")
            in html
        )
        assert (
            escape(
                f"Umschlag 09, geöffnet von Haus {opener.name}; darin lagen Geschichtskarte 9 (Crown), "
                "Dilemmakarten 90, 91, 92"
            )
            in html
        )
        assert "has already been opened" not in html and "it held" not in html

    def test_the_api_says_the_conflicts_in_german_without_their_data(self, conflicted, user):
        campaign, game, signer, _ = conflicted
        _, api = _reader(user, "de")
        answer = api.get(f"/api/campaigns/{campaign.pk}/games/{game.pk}/").json()
        by_kind = {c["kind"]: c for c in answer["conflicts"]}
        assert by_kind["sticker"]["message"] == "Sticker 43 ist bereits auf dem Spielplan."
        assert by_kind["sticker"]["what"].startswith("Chronik-Sticker 43 (positiv, Reihe Wohlfahrt)")
        assert by_kind["envelope"]["message"] == "Umschlag 09 wurde bereits geöffnet."
        assert not any(key.endswith("_data") for item in answer["conflicts"] for key in item)

    def test_the_history_tells_a_conflict_in_italian(self, conflicted, user):
        campaign, game, _, _ = conflicted
        event = campaign.events.filter(kind="night_conflict", data__conflict__kind="envelope").get()
        assert event.summary == (
            f"Game {game.number}: Envelope 09 has already been opened. Not written: kept as typed for a "
            "correction."
        )
        _, api = _reader(user, "it")
        answer = api.get(f"/api/campaigns/{campaign.pk}/history/", {"kind": "night_conflict"}).json()
        summaries = [row["summary"] for row in answer.get("results", answer)]
        assert (
            f"Partita {game.number}: La Busta 09 è già stata aperta. Non scritto: conservato come digitato, "
            "per una correzione."
        ) in summaries

    def test_the_refusals_a_conflict_keeps_read_as_the_services_refusals(self):
        """One catalogue entry serves the refusal and the conflict's copy: the same English, and
        the same words in German."""
        kept_and_refused = [  # a refusal is formatted in the language of the moment: built there
            (night_saves.STICKER_HELD.format(number=3), lambda: STICKER_ALREADY_ATTACHED.format(number=3)),
            (night_saves.ENVELOPE_HELD.format(number=7), lambda: ENVELOPE_ALREADY_OPENED.format(number=7)),
            (night_saves.MYSTERY_HELD.format(letter="B"), lambda: MYSTERY_ALREADY.format(letter="B")),
            (night_saves.MYSTERY_ALL_HELD.format(count=6), lambda: str(MYSTERY_ALL_ATTACHED)),
            (
                night_saves.GRAND_FINALE_HELD.format(envelope=70, stickers=6, count=4),
                lambda: GRAND_FINALE_NOT_YET.format(count=4),
            ),
        ]
        for language in ("en", "de"):
            with translation.override(language):
                for kept, refused in kept_and_refused:
                    assert say_to_reader(kept) == str(refused())


class NightLedgerWordsTests:
    def test_a_house_page_says_the_night_s_ledger_reasons_in_german(self, conflicted, user):
        campaign, game, _, _ = conflicted
        entry = LedgerEntry.objects.filter(game=game, source=LedgerEntry.Source.GAME_RESULT).first()
        assert entry.reason.startswith(f"Game {game.number} (King Kurt): position ")
        page, _ = _reader(user, "de")
        html = page.get(reverse("house-page", args=[campaign.pk, entry.house_id])).content.decode()
        with translation.override("de"):
            german = entry.said_reason
        assert german.startswith(f"Partie {game.number} (König Kurt): Platz ")
        assert escape(german) in html and escape(entry.reason) not in html

    def test_a_card_effect_without_a_label_is_said_and_a_typed_label_kept_as_typed(self, conflicted):
        campaign, game, signer, _ = conflicted
        effects = {
            "prestige_crave_effects": [{"seat": 0, "prestige": 1}, {"seat": 0, "crave": 2, "label": "Feast"}]
        }
        night_saves._night_effects_write(game, effects, lambda seat: signer, None)
        said, typed = LedgerEntry.objects.filter(source=LedgerEntry.Source.MANUAL).order_by("pk")
        assert said.reason == "Card effect" and said.reason_data is not None
        assert typed.reason == "Feast" and typed.reason_data is None
        with translation.override("de"):
            assert (said.said_reason, typed.said_reason) == ("Karteneffekt", "Feast")


class ResultWordsTests:
    def test_a_game_begun_and_recorded_is_told_in_german(self):
        campaign, _, game, _ = _three_houses_recorded()
        begun, recorded = (campaign.events.get(kind=kind) for kind in ("game_begun", "game_recorded"))
        assert begun.summary == "Game 1 begins under King Kurt"
        assert recorded.summary == "Game 1 recorded (The King died); won by Anna"
        with translation.override("de"):
            assert begun.said == "Partie 1 beginnt unter König Kurt"
            assert recorded.said == "Partie 1 eingetragen (Der König ist gestorben); gewonnen von Anna"
        rebel = LedgerEntry.objects.filter(reason__startswith="Rebel")
        assert not rebel.exists()  # no Rebel: the King died

    def test_a_correction_keeps_its_english_and_reads_in_german(self):
        campaign, houses, game, rows = _three_houses_recorded()
        rows[0]["agenda_points"], rows[1]["agenda_points"] = 5, 10
        game_result_correct(game=game, end="abdicated_top", rows=rows, reason="Points swapped")
        event = campaign.events.get(kind="game_corrected")
        assert event.summary == (
            "Game 1 corrected (revision 1): Points swapped (end: The King died → The King abdicated "
            "(Stability at the top); House Anna: Agenda points 10 → 5, position 1 → 2; House Ben: "
            "Agenda points 5 → 10, position 2 → 1)"
        )
        reasons = LedgerEntry.objects.filter(source=LedgerEntry.Source.CORRECTION, house=houses[0])
        assert {entry.reason for entry in reasons} == {
            "Correction of game 1 (King Kurt): position 1 → position 2"
        }
        with translation.override("de"):
            assert event.said.startswith("Partie 1 korrigiert (Fassung 1): Points swapped (Ende: ")
            assert "Haus Anna: Agenda-Punkte 10 → 5, Platz 1 → 2; Haus Ben:" in event.said
            assert {entry.said_reason for entry in reasons} == {
                "Korrektur von Partie 1 (König Kurt): Platz 1 → Platz 2"
            }

    def test_the_rebel_s_crave_and_a_last_place_are_said_in_french(self):
        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe")
        game = game_begin(campaign=campaign, king_name="Kurt")
        rows = [
            {
                "house": house,
                "secret_agenda": agenda,
                "agenda_points": points,
                "open_agenda_points": 0,
                "coins_points": 0,
                "power_points": 0,
            }
            for house, agenda, points in zip(
                houses, ("moderate", "moderate", "rebel"), (10, 5, 1), strict=True
            )
        ]
        game_result_record(game=game, end="abdicated_top", rows=rows)
        rebel = LedgerEntry.objects.get(source=LedgerEntry.Source.SECRET_AGENDA, house=houses[2])
        last = LedgerEntry.objects.filter(source=LedgerEntry.Source.GAME_RESULT, house=houses[2]).first()
        assert (rebel.reason, last.reason) == (
            "Rebel, the King abdicated (game 1)",
            "Game 1 (King Kurt): position 3 (Last)",
        )
        with translation.override("fr"):
            assert (rebel.said_reason, last.said_reason) == (
                "Rebelle, le roi a abdiqué (partie 1)",
                "Partie 1 (Roi Kurt) : place 3 (Dernière)",
            )
