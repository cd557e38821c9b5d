"""A night always reaches the campaign (issue 23): the table knows what the campaign holds, a scored
night is always written (what still conflicts is kept as typed, for a correction), and Save Your
Game is the rulebook's Final Cleanup."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors
from campaign.models import CampaignEvent, ChronicleGame, ChronicleSticker, DilemmaCard, Envelope
from campaign.services import game_nights, night_saves
from campaign.services.chronicles import game_begin
from campaign.services.envelopes import (
    ENVELOPE_ALREADY_OPENED,
    dilemma_card_remember,
    envelope_open,
    game_save,
)
from campaign.services.night_saves import NIGHT_CONFLICTS
from campaign.services.stickers import STICKER_ALREADY_ATTACHED, mystery_sticker_attach, sticker_attach
from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from tests.factories import campaign_with_houses
from tests.integration.games.test_ui_kings_dilemma import compose
from tests.kings_dilemma_play import ROWS, draft, end_of_reign, play, play_night, vote_through

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def back(row="wealth", amount=1, sticker=None, envelope=None, lightning=False) -> dict:
    return {"resources": [[row, amount]], "sticker": sticker, "envelope": envelope, "lightning": lightning}


def front(number: int) -> dict:
    return {"number": number, "title": f"Dilemma {number}"}


def round_(session, number: int, *, outcome: dict | None = None, placed="to_time_counter"):
    """One Dilemma: drawn, voted AYE, the back read (Stability kept off its ends), the card placed."""
    state = play(session, None, "draw_dilemma", card=front(number))
    state = vote_through(session, "aye")
    if state["phase"] == "tie_break":
        state = play(session, state["moderator"], "break_tie", side="aye")
    outcome = outcome or back()
    outcome["resources"] = [[ROWS[number % 5], 1 if state["stability"] < 9 else -1]]
    play(session, None, "read_outcome", outcome=outcome)
    if placed == "to_event_area":
        return play(session, None, "to_event_area", label="A Trigger card")
    return play(session, None, placed)


def finish(session) -> dict:
    return end_of_reign(session)


def night(session, numbers, *, event_area=()):
    """Cards in ``numbers`` on the Time Counter (the tenth shows the lightning: the King dies), those
    in ``event_area`` sent to the Event area instead."""
    draft(session)
    return night_after_draft(session, numbers, event_area=event_area)


def night_after_draft(session, numbers, *, event_area=()):
    on_counter = 0
    for number in numbers:
        if number in event_area:
            round_(session, number, placed="to_event_area")
            continue
        on_counter += 1
        round_(session, number, outcome=back(lightning=on_counter == 10))
    return finish(session)


class CampaignMemoryTests:
    def test_the_table_is_told_what_the_campaign_holds(self, user):
        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        envelope_open(campaign=campaign, number=40, special=True, trigger_numbers=[90], event_numbers=[91])
        sticker_attach(campaign=campaign, number=43, row="wealth", positive=True, signer=houses[0])
        mystery_sticker_attach(campaign=campaign, letter="C")
        DilemmaCard.objects.filter(number=2).update(place=DilemmaCard.Place.TRASH)
        config = game_nights.game_night_config(campaign=campaign, houses=houses, king_name="K")
        assert config["dilemma_deck"] == [1, 3, 90]
        assert config["envelopes_opened"] == [0, 40] and config["stickers_attached"] == [43]
        assert config["mystery_stickers"] == ["C"]
        assert config["cards_out_of_deck"] == {"2": "trash", "91": "event_area"}
        assert config["event_area"] == [91]

    def test_the_table_refuses_what_the_campaign_holds_and_writes_nothing(self, user):
        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
        envelope_open(campaign=campaign, number=5, special=True)
        sticker_attach(campaign=campaign, number=43, row="wealth", positive=True, signer=houses[0])
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="K", seed=3)
        draft(session)
        play(session, None, "draw_dilemma", card=front(12))
        state = vote_through(session, "aye")
        if state["phase"] == "tie_break":
            play(session, state["moderator"], "break_tie", side="aye")
        session.refresh_from_db()
        version = session.version
        for typed, message in (
            (back(envelope=5), msg.ENVELOPE_OPENED.format(number=5)),
            (
                back(sticker={"number": 43, "row": "wealth", "positive": True}),
                msg.STICKER_ON_BOARD.format(number=43),
            ),
        ):
            with pytest.raises(RuleError) as raised:
                play(session, None, "read_outcome", outcome=typed)
            assert raised.value.message == message
            session.refresh_from_db()
            assert session.version == version and session.state["phase"] == "outcome"

    def test_an_old_session_without_the_campaign_s_keys_loads_and_replays(self, user):
        from games.services.undo import session_replay

        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="K", seed=3)
        old_keys = (
            "envelopes_opened",
            "stickers_attached",
            "mystery_stickers",
            "cards_out_of_deck",
            "event_area",
        )
        session.config = {k: v for k, v in session.config.items() if k not in old_keys}
        session.state = {
            k: v
            for k, v in session.state.items()
            if k not in ("envelopes_before", "stickers_before", "cards_out_of_deck")
        }
        session.save(update_fields=["config", "state"])
        state = night(session, range(1, 11))
        assert state["result"]["resolved_dilemmas"] == list(range(1, 11))
        session.refresh_from_db()
        assert session_replay(session=session)["result"] == state["result"]
        assert night_saves.game_night_record(session=session, actor=user).recorded


class ConflictTests:
    """Writing a scored night never fails as a whole on a conflict with the campaign."""

    def start(self, user):
        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", "David", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="K", seed=7)
        return campaign, houses, session

    def test_what_was_changed_by_hand_during_the_night_is_kept_as_a_conflict(self, user):
        campaign, houses, session = self.start(user)
        state = play_night(session)  # sticker 43 on card 3, Envelope 09 on card 4
        signer = houses[state["result"]["stickers"][0]["signer"]]
        # Meanwhile, from the pages: sticker 43 attached, Envelope 09 opened, card 2 trashed by hand.
        sticker_attach(campaign=campaign, number=43, row="morale", positive=False, signer=houses[1])
        envelope_open(campaign=campaign, number=9, special=True)
        DilemmaCard.objects.filter(campaign=campaign, number=2).update(place=DilemmaCard.Place.TRASH)
        contents = {9: {"dilemma_numbers": [90, 91, 92], "story_card": {"number": 9, "storyline": "Crown"}}}

        game = night_saves.game_night_record(session=session, envelope_contents=contents, actor=user)

        assert game.recorded and game.scores.count() == 4
        by_kind = {c["kind"]: c for c in game.conflicts}
        assert set(by_kind) == {"sticker", "envelope", "dilemma_card"}
        sticker = by_kind["sticker"]
        assert sticker["message"] == STICKER_ALREADY_ATTACHED.format(number=43)
        assert sticker["typed"]["row"] == "welfare" and sticker["typed"]["positive"] is True
        assert sticker["typed"]["signer_house"] == {"house": signer.pk, "house_name": signer.name}
        envelope = by_kind["envelope"]
        assert envelope["message"] == ENVELOPE_ALREADY_OPENED.format(number=9)
        assert envelope["typed"]["dilemma_numbers"] == [90, 91, 92]  # nothing typed is lost
        assert envelope["typed"]["story_card"] == {"number": 9, "storyline": "Crown"}
        assert envelope["what"].endswith("it held Story card 9 (Crown), Dilemma cards 90, 91, 92")
        card = by_kind["dilemma_card"]
        assert card["number"] == 2 and card["typed"]["title"] == "Dilemma 2"
        assert card["message"].startswith(msg.DILEMMA_NOT_IN_DECK.format(number=2, place="Trash"))
        # The campaign keeps what was done by hand; the rest of the night is in.
        assert ChronicleSticker.objects.get(campaign=campaign, number=43).signer == houses[1]
        assert Envelope.objects.get(campaign=campaign, number=9).game is None
        assert DilemmaCard.objects.get(campaign=campaign, number=2).resolved_in is None
        assert not DilemmaCard.objects.filter(campaign=campaign, number__in=[90, 91, 92]).exists()
        trash = DilemmaCard.objects.filter(campaign=campaign, place=DilemmaCard.Place.TRASH, resolved_in=game)
        assert sorted(trash.values_list("number", flat=True)) == [1, 3, 4, 5, 6, 7, 8, 9, 10]
        events = CampaignEvent.objects.filter(campaign=campaign, kind="night_conflict", game=game)
        assert events.count() == 3 and {e.data["conflict"]["kind"] for e in events} == set(by_kind)

    def test_a_card_trashed_in_an_earlier_game_keeps_its_game(self, user):
        """Rulebook 'Final Cleanup' step 2: trashed Dilemmas "will never be used again!"; recording
        never moves a trashed Dilemma's ``resolved_in`` to a new night."""
        campaign, houses, session = self.start(user)
        # An earlier game recorded (a game is not begun on paper while a night runs; the night's own
        # game is numbered at its save, after it).
        earlier = ChronicleGame.objects.create(
            campaign=campaign, number=1, king_name="Old", played_on=datetime.date.today(), recorded=True
        )
        dilemma_card_remember(campaign=campaign, number=5, title="Plague", outcomes={"note": "old"})
        DilemmaCard.objects.filter(number=5).update(place=DilemmaCard.Place.TRASH, resolved_in=earlier)
        play_night(session)
        game = night_saves.game_night_record(
            session=session,
            envelope_contents={
                9: {"dilemma_numbers": [90, 91, 92], "story_card": {"number": 9, "storyline": "Crown"}}
            },
            actor=user,
        )
        card = DilemmaCard.objects.get(campaign=campaign, number=5)
        assert card.resolved_in == earlier and card.title == "Plague" and card.outcomes == {"note": "old"}
        assert [c["number"] for c in game.conflicts] == [5]
        assert game.number == 2 and "resolved in game 1" in game.conflicts[0]["message"]

    def test_a_mistake_typed_at_save_time_is_still_refused_and_nothing_is_written(self, user):
        campaign, houses, session = self.start(user)
        play_night(session)
        with pytest.raises(ValidationError, match="1 Story card and 3 Dilemma cards"):
            night_saves.game_night_record(
                session=session, envelope_contents={9: {"dilemma_numbers": [90]}}, actor=user
            )
        assert not ChronicleSticker.objects.filter(campaign=campaign).exists()
        assert not CampaignEvent.objects.filter(
            campaign=campaign, kind__in=["night_conflict", "game_saved"]
        ).exists()

    def test_the_conflicts_are_shown_with_the_realm_chronicles(self, client, user):
        campaign, houses, session = self.start(user)
        play_night(session)
        envelope_open(campaign=campaign, number=9, special=True)
        client.force_login(user)
        response = client.post(f"/campaigns/{campaign.pk}/night/{session.pk}/save/", {"e9-dilemmas": ""})
        assert response.status_code == 302, response.content.decode()[-3000:]
        page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        assert "Not written into the campaign" in page
        assert ENVELOPE_ALREADY_OPENED.format(number=9) in page
        assert NIGHT_CONFLICTS.format(count=1) in page  # the save says so at once
        assert "Envelope 09, opened by House" in page


class FinalCleanupTests:
    """Rulebook '5. Final Cleanup: Save Your Game!', steps 1, 2 and 4, and 'Setup Story and Event
    Cards' for the next night."""

    def test_a_night_is_saved_and_the_next_night_restores_it(self, user):
        campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        envelope_open(campaign=campaign, number=40, special=True, trigger_numbers=[90], event_numbers=[91])
        session = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="K", seed=5)
        # 'Setup Story and Event Cards': the ongoing Event card 91 is in the Event area tonight.
        assert session.state["event_cards"] == [91]
        with pytest.raises(RuleError) as raised:
            draft(session)
            play(session, None, "draw_dilemma", card=front(91))
        assert raised.value.message == msg.DILEMMA_NOT_IN_DECK.format(
            number=91, place=msg.OUT_OF_DECK_PLACES["event_area"]
        )
        session.refresh_from_db()
        state = night_after_draft(session, [90, *range(1, 11)], event_area={90})
        assert state["result"]["event_cards"] == [91, 90]
        game = night_saves.game_night_record(session=session, actor=user)
        assert game.conflicts == []
        slots = selectors.save_slots(campaign=campaign)
        # Step 1: "Take the Trigger cards that were placed in the Event area ... and shuffle them back
        # into the Dilemma deck."
        assert [c.number for c in slots["deck"]] == [90]
        assert DilemmaCard.objects.get(campaign=campaign, number=90).kind == DilemmaCard.Kind.TRIGGER
        # Step 2: "Take all the Dilemma cards you resolved ... into the Trash slot."
        assert [c.number for c in slots["trash"]] == list(range(1, 11))
        assert {c.resolved_in for c in slots["trash"]} == {game}
        # Step 4: "Put ... all the ongoing Event cards in the Story Save slot."
        assert [c.number for c in slots["story_slot"]] == [91] and slots["event_area"] == []
        event = CampaignEvent.objects.get(campaign=campaign, kind="game_saved", game=game)
        assert "10 Dilemma cards to the Trash, 1 Trigger card back" in event.summary

        # The next night: the deck holds the Trigger card, the Event card is set up again, the Trash
        # is never drawn.
        second = game_nights.game_night_start(campaign=campaign, houses=houses, king_name="L", seed=6)
        assert second.config["dilemma_deck"] == [90] and second.config["event_area"] == [91]
        assert second.state["event_cards"] == [91]
        draft(second)
        with pytest.raises(RuleError) as raised:
            play(second, None, "draw_dilemma", card=front(5))
        assert raised.value.message == msg.DILEMMA_NOT_IN_DECK.format(
            number=5, place=msg.OUT_OF_DECK_PLACES["trash"]
        )

    def test_the_save_service_never_takes_a_card_out_of_the_trash(self, user):
        campaign, _ = campaign_with_houses("Anna", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        first = game_begin(campaign=campaign, king_name="K")
        assert game_save(game=first, resolved=[1]) == []
        second = game_begin(campaign=campaign, king_name="L")
        conflicts = game_save(game=second, resolved=[2], event_area_triggers=[1], ongoing_events=[1])
        assert [c["number"] for c in conflicts] == [1, 1]
        card = DilemmaCard.objects.get(campaign=campaign, number=1)
        assert card.place == DilemmaCard.Place.TRASH and card.resolved_in == first


class TableFormTests:
    """The host's forms at the table say why a number is refused and keep everything typed."""

    def night(self, user):
        campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        sticker_attach(campaign=campaign, number=43, row="wealth", positive=True, signer=houses[0])
        DilemmaCard.objects.filter(campaign=campaign, number=2).update(place=DilemmaCard.Place.TRASH)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="K", host=user, seed=5
        )
        draft(session)
        return session

    def test_a_trashed_card_typed_at_the_draw_is_refused_with_the_fields_kept(self, client, user):
        session = self.night(user)
        client.force_login(user)
        response = compose(client, session, compose="draw", number=2, title="Bread taxes", question="Why?")
        assert response.status_code == 422
        page = response.content.decode()
        place = msg.OUT_OF_DECK_PLACES["trash"]
        assert msg.DILEMMA_NOT_IN_DECK.format(number=2, place=place) in page
        assert 'value="Bread taxes"' in page and 'value="Why?"' in page
        session.refresh_from_db()
        assert session.state["phase"] == "draw"

    def test_a_sticker_already_on_the_board_is_refused_with_the_fields_kept(self, client, user):
        session = self.night(user)
        client.force_login(user)
        assert compose(client, session, compose="draw", number=12, title="Bread taxes").status_code == 200
        state = vote_through(session, "aye")
        if state["phase"] == "tie_break":
            play(session, state["moderator"], "break_tie", side="aye")
        response = compose(
            client,
            session,
            compose="outcome",
            move_1_row="wealth",
            move_1_amount=-2,
            sticker=43,
            sticker_row="welfare",
            note="A feast",
        )
        assert response.status_code == 422
        page = response.content.decode()
        assert msg.STICKER_ON_BOARD.format(number=43) in page
        assert 'value="-2"' in page and 'value="43"' in page and 'value="A feast"' in page
        session.refresh_from_db()
        assert session.state["phase"] == "outcome" and session.state["stickers"] == []
