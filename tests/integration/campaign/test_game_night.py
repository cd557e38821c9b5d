"""A whole King's Dilemma game night run by the companion and written back into the campaign."""

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors
from campaign.models import ChronicleScore, ChronicleSticker, LedgerEntry
from campaign.services import game_nights, night_saves
from campaign.services.chronicles import game_begin, game_result_record
from campaign.services.common import CAMPAIGN_CLOSED
from campaign.services.envelopes import envelope_open
from campaign.services.stickers import mystery_sticker_attach, sticker_attach
from games.selectors import session_seats
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import ROWS, play_night

pytestmark = [pytest.mark.database, pytest.mark.django_db]


class GameNightTests:
    def test_a_whole_night_is_written_back_into_the_campaign(self, user):
        campaign, houses = campaign_with_houses("Valentine", "Martina", "Armin", "Charles", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="Harald V", host=user, seed=7
        )
        # The night's game is written at its save: none while it runs.
        assert session.chronicle_game is None and not campaign.games.exists()
        assert session.config["dilemma_deck"] == [1, 2, 3]
        # Leader is the highest Prestige: with all at 0, the highest House number (docs/rules-decisions.md).
        assert session.config["leader"] == 3 and session.config["moderator"] == 0
        state = play_night(session)
        leader_when_signed = state["result"]["stickers"][0]["signer"]
        opener = state["result"]["envelopes"][0]["opened_by"]

        with pytest.raises(ValidationError, match="1 Story card and 3 Dilemma cards"):
            night_saves.game_night_record(session=session, actor=user)
        assert not ChronicleSticker.objects.exists()  # nothing half-written

        game = night_saves.game_night_record(
            session=session,
            envelope_contents={
                9: {"dilemma_numbers": [90, 91, 92], "story_card": {"number": 9, "storyline": "Crown"}}
            },
            actor=user,
        )
        assert game.number == 1 and game.king_name == "Harald V" and session.chronicle_game == game
        sticker = ChronicleSticker.objects.get(number=43)
        assert sticker.signer == houses[leader_when_signed] and sticker.game == game
        slots = selectors.save_slots(campaign=campaign)
        assert [c.number for c in slots["deck"]] == [90, 91, 92]
        assert [c.number for c in slots["trash"]] == list(range(1, 11))
        assert selectors.storylines(campaign=campaign)[0]["top"].signer == houses[opener]
        scores = ChronicleScore.objects.filter(game=game)
        assert scores.count() == 4 and game.end == "king_died" and game.recorded
        # The campaign records the engine's awards, row for row.
        engine = [
            (houses[i].pk, r["position"], r["last"], r["prestige_award"], r["crave_award"])
            for i, r in enumerate(state["result"]["seats"])
        ]
        recorded = sorted(scores.values_list("house", "position", "last", "prestige", "crave"))
        assert recorded == sorted(engine)
        assert LedgerEntry.objects.filter(game=game, source="game_result").exists()
        assert game.resources_final and set(game.resources_final) == set(ROWS)
        # Cards met are remembered, so the table types them only once next time.
        # Their front, and the back of the side that won (only what the table read).
        remembered = campaign.dilemma_cards.get(number=4).outcomes
        assert remembered["back"]["aye"]["envelope"] == 9 and remembered["back"]["nay"] is None
        assert remembered["front"]["aye"] == {"resources": [["knowledge", "up"]], "sticker": None}
        with pytest.raises(ValidationError, match=str(game_nights.NIGHT_ALREADY_RECORDED)):
            night_saves.game_night_record(session=session, actor=user)

    def test_open_agendas_over_two_need_the_house_s_choice(self, user):
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)
        for number, row in enumerate(["influence", "wealth", "morale"], start=1):
            sticker_attach(campaign=campaign, number=number, row=row, positive=True, signer=houses[0])
        with pytest.raises(
            ValidationError, match="House A holds 3 positive Open Agendas: choose the 2 it keeps"
        ):
            game_nights.game_night_config(campaign=campaign, houses=houses, king_name="K")
        config = game_nights.game_night_config(
            campaign=campaign,
            houses=houses,
            king_name="K",
            keep={houses[0].pk: {"positive": ["wealth", "morale"]}},
        )
        assert config["seats"][0]["open_agendas"] == [
            {"row": "wealth", "positive": True},
            {"row": "morale", "positive": True},
        ]

    def test_a_closed_campaign_starts_no_night(self, user):
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)
        for letter in "ABCDEF":
            mystery_sticker_attach(campaign=campaign, letter=letter)
        with pytest.raises(ValidationError, match=str(CAMPAIGN_CLOSED)):
            game_nights.game_night_start(campaign=campaign, houses=houses, king_name="K", host=user)

    def test_the_longest_house_and_king_names_the_campaign_keeps_start_a_night(self, user):
        """A House name of 61 to 80 characters could never start a night (seats had at most 60)."""
        campaign, houses = campaign_with_houses("A" * 80, "B" * 80, "C" * 61, user=user)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="K" * 80, host=user
        )
        assert [seat.name for seat in session_seats(session=session)] == ["A" * 80, "B" * 80, "C" * 61]
        assert session.config["king_name"] == "K" * 80


class GameNightPageTests:
    def test_start_page_seats_houses_and_opens_the_table(self, client, user):
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)
        client.force_login(user)
        url = f"/campaigns/{campaign.pk}/night/new/"
        data = {"king_name": "Harald V", "seat0": houses[2].pk, "seat1": houses[0].pk, "seat2": houses[1].pk}
        bad = client.post(url, dict(data, seat1=houses[2].pk))
        assert bad.status_code == 400 and "A House can sit at only one seat." in bad.content.decode()
        response = client.post(url, data)
        assert response.status_code == 302
        session = campaign.sessions.get()
        assert [s.name for s in session_seats(session=session)] == ["C", "A", "B"]
        assert client.get(response.url).status_code == 200

    def test_record_page_asks_for_the_envelope_contents(self, client, user):
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="K", host=user, seed=3
        )
        play_night(session)
        client.force_login(user)
        url = f"/campaigns/{campaign.pk}/night/{session.pk}/save/"
        assert "Envelope 09: Story card number" in client.get(url).content.decode()
        refused = client.post(url, {"e9-dilemmas": "1,2"})
        assert refused.status_code == 400 and "1 Story card and 3 Dilemma cards" in refused.content.decode()
        done = client.post(url, {"e9-dilemmas": "90, 91, 92", "e9-story": 9, "e9-storyline": "Crown"})
        assert done.status_code == 302
        assert campaign.games.get().recorded


class EngineAwardsTests:
    def test_a_result_with_the_engine_s_awards_records_them_as_given(self, user):
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)
        game = game_begin(campaign=campaign, king_name="K", actor=user)
        rows = [{"house": h, "secret_agenda": "rebel", "agenda_points": 1} for h in houses]
        # A group whose corrected table gives 7 Prestige to everyone: the campaign does not recompute it.
        awards = [{"position": 1, "last": False, "prestige": 7, "crave": 0, "rebel_crave": 1}] * 3
        game_result_record(game=game, end="abdicated_top", rows=rows, awards=awards, actor=user)
        assert all(h.prestige == 7 and h.crave == 1 for h in selectors.house_list(campaign=campaign))

    def test_malformed_awards_are_refused_and_nothing_is_written(self, user):
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)
        game = game_begin(campaign=campaign, king_name="K", actor=user)
        rows = [{"house": h, "secret_agenda": "rebel"} for h in houses]
        with pytest.raises(ValidationError, match="awards"):
            game_result_record(game=game, end="king_died", rows=rows, awards=[{}] * 3, actor=user)
        assert not ChronicleScore.objects.exists()
