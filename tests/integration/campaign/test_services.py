"""Campaign services: each refusal leaves nothing written; rulebook sections cited."""

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors
from campaign.models import (
    Achievement,
    CampaignEvent,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    House,
    LedgerEntry,
)
from campaign.services.chronicles import (
    RESOURCES_FINAL_FORMAT,
    game_begin,
    game_result_correct,
    game_result_record,
    legacy_setup_compute,
)
from campaign.services.common import CAMPAIGN_CLOSED
from campaign.services.envelopes import envelope_open, game_save, story_card_place
from campaign.services.houses import (
    HOUSE_LIMIT,
    HOUSE_NUMBER_RANGE,
    achievement_create,
    achievement_mark,
    alignment_mark,
    house_create,
)
from campaign.services.ledger import ledger_add
from campaign.services.stickers import (
    MYSTERY_ALL_ATTACHED,
    MYSTERY_LETTER,
    STICKER_NUMBER_RANGE,
    chronicle_age,
    mystery_sticker_attach,
    sticker_attach,
)
from tests.factories import HARALD, campaign_with_houses, harald_rows

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def totals(house):
    return selectors.house_totals(house=house)


class HouseCreateTests:
    def test_house_gets_six_alignment_achievements_with_its_favourites(self):
        campaign, (house,) = campaign_with_houses("Smeethe")
        alignment = {a.agenda: a for a in house.achievements.filter(kind=Achievement.Kind.ALIGNMENT)}
        assert set(alignment) == {"extremist", "opulent", "moderate", "rebel", "opportunist", "greedy"}
        # House number 1, Dukes of Blodyn: favourites Moderate (3) and Opulent (2).
        assert alignment["moderate"].effects == {"prestige": 3}
        assert alignment["opulent"].effects == {"prestige": 2}
        assert alignment["greedy"].effects == {"crave": 1}

    def test_a_thirteenth_house_is_refused(self):
        campaign, _ = campaign_with_houses(*[f"H{i}" for i in range(12)])
        with pytest.raises(ValidationError, match=str(HOUSE_LIMIT)):
            house_create(campaign=campaign, name="Thirteen", number=5)
        assert campaign.houses.count() == 12

    def test_a_house_number_used_twice_is_refused(self):
        campaign, _ = campaign_with_houses("A")
        with pytest.raises(ValidationError, match="House number 1 is already used"):
            house_create(campaign=campaign, name="B", number=1)
        assert House.objects.filter(campaign=campaign).count() == 1

    def test_house_number_out_of_range_is_refused(self):
        campaign, _ = campaign_with_houses()
        with pytest.raises(ValidationError, match=str(HOUSE_NUMBER_RANGE)):
            house_create(campaign=campaign, name="B", number=13)

    def test_prestige_ties_are_broken_by_house_number(self):
        """'Breaking ties of Prestige': a higher House number means a higher Prestige."""
        campaign, (a, b, c) = campaign_with_houses("A", "B", "C")
        ledger_add(house=a, kind="prestige", amount=2, reason="test", source="manual")
        ordered = selectors.houses_by_prestige(campaign=campaign)
        assert [h.name for h in ordered] == ["A", "C", "B"]


class StickerAttachTests:
    def test_attaches_leftmost_and_records_who_signed_it(self):
        campaign, (anna, ben) = campaign_with_houses("Anna", "Ben")
        game = game_begin(campaign=campaign, king_name="Harald V")
        sticker = sticker_attach(
            campaign=campaign, number=43, row="welfare", positive=False, signer=ben, game=game
        )
        assert sticker.slot == 0
        event = selectors.sticker_history(campaign=campaign, number=43).get()
        assert event.house == ben and event.game == game

    def test_a_sticker_number_already_attached_is_refused(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna)
        with pytest.raises(ValidationError, match="Sticker 43 is already on the board."):
            sticker_attach(campaign=campaign, number=43, row="morale", positive=True, signer=anna)
        assert ChronicleSticker.objects.count() == 1

    def test_full_row_covers_the_oldest_which_stays_in_history(self):
        """'Apply Chronicle stickers': no empty space -> over the sticker with most marks, leftmost on a tie."""
        campaign, (anna,) = campaign_with_houses("Anna")
        for number in range(1, 6):
            sticker_attach(campaign=campaign, number=number, row="wealth", positive=True, signer=anna)
            chronicle_age(campaign=campaign)  # the first sticker is the oldest
        new = sticker_attach(campaign=campaign, number=50, row="wealth", positive=False, signer=anna)
        assert new.slot == 0
        old = ChronicleSticker.objects.get(number=1)
        assert old.covered and old.covered_by == new
        assert len(selectors.visible_stickers(campaign=campaign)) == 5

    def test_unknown_row_and_bad_number_are_refused(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        with pytest.raises(ValidationError, match="is not a Resource row"):
            sticker_attach(campaign=campaign, number=3, row="gold", positive=True, signer=anna)
        with pytest.raises(ValidationError, match=str(STICKER_NUMBER_RANGE)):
            sticker_attach(campaign=campaign, number=178, row="wealth", positive=True, signer=anna)
        assert not ChronicleSticker.objects.exists()

    def test_signer_from_another_campaign_is_refused(self):
        campaign, _ = campaign_with_houses("Anna")
        _, (stranger,) = campaign_with_houses("Zed", name="Other")
        with pytest.raises(ValidationError, match="not part of this campaign"):
            sticker_attach(campaign=campaign, number=3, row="wealth", positive=True, signer=stranger)

    def test_chronicle_aging_marks_every_visible_sticker_up_to_its_squares(self):
        """'Chronicle aging': 1 mark on each attached sticker at the start of each game."""
        campaign, (anna,) = campaign_with_houses("Anna")
        sticker_attach(campaign=campaign, number=3, row="wealth", positive=True, signer=anna)
        for _ in range(8):
            game_begin(campaign=campaign, king_name="K")
        assert ChronicleSticker.objects.get(number=3).marks == 6  # DEFAULT squares


class EnvelopeTests:
    def test_standard_envelope_adds_three_dilemmas_and_its_story_card(self):
        """'Open Envelope': 1 Story card, signed by the Leader, and 3 Dilemma cards into the deck."""
        campaign, (anna,) = campaign_with_houses("Anna")
        envelope_open(
            campaign=campaign,
            number=5,
            opened_by=anna,
            dilemma_numbers=[10, 11, 12],
            story_card={"number": 5, "storyline": "Faith"},
        )
        assert [c.number for c in selectors.save_slots(campaign=campaign)["deck"]] == [10, 11, 12]
        line = selectors.storylines(campaign=campaign)[0]
        assert line["top"].signer == anna

    def test_an_envelope_opened_twice_is_refused(self):
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=5, dilemma_numbers=[10, 11, 12])
        with pytest.raises(ValidationError, match="Envelope 05 has already been opened."):
            envelope_open(campaign=campaign, number=5, dilemma_numbers=[20, 21, 22])
        assert DilemmaCard.objects.count() == 3

    def test_standard_envelope_needs_three_dilemma_cards_and_writes_nothing_otherwise(self):
        campaign, _ = campaign_with_houses("Anna")
        with pytest.raises(ValidationError, match="1 Story card and 3 Dilemma cards"):
            envelope_open(campaign=campaign, number=6, dilemma_numbers=[1])
        assert not Envelope.objects.exists()

    def test_failure_in_the_story_card_rolls_back_the_envelope(self):
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(
            campaign=campaign,
            number=1,
            dilemma_numbers=[1, 2, 3],
            story_card={"number": 9, "storyline": "Crown"},
        )
        with pytest.raises(ValidationError, match="Story card 9 is already"):
            envelope_open(
                campaign=campaign,
                number=2,
                dilemma_numbers=[4, 5, 6],
                story_card={"number": 9, "storyline": "Crown"},
            )
        assert not Envelope.objects.filter(number=2).exists()
        assert not DilemmaCard.objects.filter(number=4).exists()

    def test_only_the_top_story_card_is_active_and_covers_the_previous(self):
        campaign, (anna, ben) = campaign_with_houses("Anna", "Ben")
        story_card_place(campaign=campaign, number=1, storyline="Crown", signer=anna)
        story_card_place(campaign=campaign, number=2, storyline="Crown", signer=ben)
        assert selectors.storylines(campaign=campaign)[0]["top"].number == 2

    def test_majority_signer_bonus_goes_to_every_tied_house(self):
        """'Majority Signer Bonus': in case of a tie, all tied players receive the bonus."""
        campaign, (anna, ben, cora) = campaign_with_houses("Anna", "Ben", "Cora")
        story_card_place(campaign=campaign, number=1, storyline="Crown", signer=anna)
        story_card_place(campaign=campaign, number=2, storyline="Crown", signer=ben)
        story_card_place(campaign=campaign, number=3, storyline="Crown", signer=cora)
        story_card_place(
            campaign=campaign,
            number=4,
            storyline="Crown",
            signer=anna,
            is_ending=True,
            cohesion=2,
            majority_signer_bonus={"prestige": 3},
        )
        assert totals(anna)["prestige"] == 3
        assert totals(ben)["prestige"] == 0
        story_card_place(
            campaign=campaign,
            number=5,
            storyline="Faith",
            signer=ben,
            is_ending=True,
            majority_signer_bonus={"crave": 2},
        )
        assert totals(ben)["crave"] == 2

    def test_save_your_game_trashes_resolved_cards_and_returns_triggers(self):
        """'Final Cleanup: Save your game!'."""
        campaign, _ = campaign_with_houses("Anna")
        envelope_open(campaign=campaign, number=40, special=True, trigger_numbers=[90], event_numbers=[91])
        envelope_open(campaign=campaign, number=1, dilemma_numbers=[1, 2, 3])
        game = game_begin(campaign=campaign, king_name="K")
        DilemmaCard.objects.filter(number=90).update(place=DilemmaCard.Place.EVENT_AREA)
        game_save(game=game, resolved=[1, 2], event_area_triggers=[90], ongoing_events=[91])
        slots = selectors.save_slots(campaign=campaign)
        assert [c.number for c in slots["trash"]] == [1, 2]
        assert [c.number for c in slots["deck"]] == [3, 90]
        assert [c.number for c in slots["story_slot"]] == [91]


class AchievementTests:
    def test_marking_the_last_space_unlocks_and_applies_one_time_prestige(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        achievement = achievement_create(
            house=anna, name="Patron", spaces=2, effects={"prestige": 2, "start_coins": 1}
        )
        achievement_mark(achievement=achievement)
        assert totals(anna)["prestige"] == 0
        achievement = achievement_mark(achievement=achievement)
        assert achievement.unlocked and totals(anna)["prestige"] == 2

    def test_marks_beyond_the_spaces_are_refused(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        achievement = achievement_create(house=anna, name="Patron", spaces=2)
        with pytest.raises(ValidationError, match="Patron has only 2 spaces: 0 are already marked."):
            achievement_mark(achievement=achievement, count=3)
        achievement.refresh_from_db()
        assert achievement.marked == 0

    def test_alignment_of_an_unlocked_agenda_is_not_marked(self):
        """'Update House Alignment': if the achievement was already unlocked, do not mark any space."""
        campaign, (anna,) = campaign_with_houses("Anna")
        for _ in range(4):
            alignment_mark(house=anna, agenda="opulent")
        assert totals(anna)["prestige"] == 2  # Blodyn's second favourite
        assert alignment_mark(house=anna, agenda="opulent") is None
        assert totals(anna)["prestige"] == 2

    def test_unknown_effect_is_refused(self):
        campaign, (anna,) = campaign_with_houses("Anna")
        with pytest.raises(ValidationError, match="Unknown ability effect 'gold'"):
            achievement_create(house=anna, name="X", spaces=1, effects={"gold": 1})


class GameResultTests:
    def test_king_harald_v_realm_chronicles(self):
        """'Mark scores on the Realm Chronicles': the King Harald V table, the King died."""
        campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD])
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_result_record(game=game, end="king_died", rows=harald_rows(houses))
        scores = {s.house.name: s for s in ChronicleScore.objects.filter(game=game)}
        assert {n: s.total for n, s in scores.items()} == {
            "Valentine": 7,
            "Martina": 11,
            "Armin": 7,
            "Charles": 9,
            "Theodore": 10,
        }
        assert {n: s.position for n, s in scores.items()} == {
            "Valentine": 4,
            "Martina": 1,
            "Armin": 4,
            "Charles": 3,
            "Theodore": 2,
        }
        assert scores["Valentine"].last and scores["Armin"].last
        got = {h.name: (totals(h)["prestige"], totals(h)["crave"]) for h in houses}
        assert got == {
            "Valentine": (0, 2),
            "Martina": (3, 0),
            "Armin": (0, 2),
            "Charles": (2, 1),
            "Theodore": (2, 0),
        }
        # Alignment marked for the agenda each played.
        assert houses[1].achievements.get(agenda="moderate").marked == 1

    def test_rebel_gains_one_crave_when_the_king_abdicates(self):
        campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD])
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_result_record(game=game, end="abdicated_bottom", rows=harald_rows(houses))
        armin = houses[2]  # Rebel, Last: abdicated at the bottom gives Last 2 Prestige
        assert totals(armin) == {"prestige": 2, "crave": 1}

    def test_correction_keeps_the_old_revision_and_rebalances_the_ledger(self):
        campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD])
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_result_record(game=game, end="king_died", rows=harald_rows(houses))
        rows = harald_rows(houses)
        rows[0]["agenda_points"] = 20  # Valentine actually scored more
        game_result_correct(game=game, end="king_died", rows=rows, reason="Valentine's agenda miscounted")
        assert ChronicleScore.objects.filter(game=game, revision=0).count() == 5
        assert totals(houses[0]) == {"prestige": 3, "crave": 0}
        assert totals(houses[1]) == {"prestige": 2, "crave": 0}  # Martina now 2nd
        assert LedgerEntry.objects.filter(source="correction").exists()
        assert CampaignEvent.objects.filter(kind="game_corrected").exists()

    def test_a_result_recorded_twice_is_refused(self):
        campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD])
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_result_record(game=game, end="king_died", rows=harald_rows(houses))
        with pytest.raises(ValidationError, match="already has a result"):
            game_result_record(game=game, end="king_died", rows=harald_rows(houses))

    def test_bad_results_are_refused_and_write_nothing(self):
        campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD])
        game = game_begin(campaign=campaign, king_name="Harald V")
        rows = harald_rows(houses)
        rows[4]["house"] = houses[0]
        with pytest.raises(ValidationError, match="appears twice"):
            game_result_record(game=game, end="king_died", rows=rows)
        with pytest.raises(ValidationError, match="is not a way a game ends"):
            game_result_record(game=game, end="exploded", rows=harald_rows(houses))
        with pytest.raises(ValidationError, match="3 to 5 Houses"):
            game_result_record(game=game, end="king_died", rows=harald_rows(houses)[:2])
        assert not LedgerEntry.objects.exists() and not ChronicleScore.objects.exists()


class LegacySetupTests:
    def test_legacy_setup_for_participating_houses(self):
        """'Legacy setup effects': Resource and Power legacy, Open Agendas, Leader and Moderator."""
        campaign, (a, b, c, d) = campaign_with_houses("A", "B", "C", "D")
        sticker_attach(campaign=campaign, number=1, row="wealth", positive=True, signer=a)
        sticker_attach(campaign=campaign, number=2, row="wealth", positive=True, signer=d)  # D absent
        sticker_attach(campaign=campaign, number=3, row="morale", positive=False, signer=b)
        sticker_attach(campaign=campaign, number=4, row="morale", positive=False, signer=b)
        ledger_add(house=c, kind="prestige", amount=3, reason="t", source="manual")
        ability = achievement_create(
            house=a, name="Rich", spaces=1, effects={"start_coins": 2, "start_power": 1}
        )
        achievement_mark(achievement=ability)
        setup = legacy_setup_compute(campaign=campaign, houses=[a, b, c])
        assert setup["resources"] == {"influence": 0, "wealth": 2, "morale": -2, "welfare": 0, "knowledge": 0}
        assert setup["start"][a.pk] == {"power": 10, "coins": 12}
        assert setup["start"][b.pk] == {"power": 6, "coins": 10}
        assert setup["open_agendas"][a.pk] == [("wealth", True)]
        assert setup["open_agendas"][b.pk] == [("morale", False)]
        assert setup["leader"] == c.pk  # highest Prestige
        assert setup["moderator"] == a.pk  # lowest Prestige, lowest House number
        assert setup["draft_order"] == [a.pk, b.pk, c.pk]

    def test_power_legacy_never_goes_below_zero(self):
        campaign, (a, b, c) = campaign_with_houses("A", "B", "C")
        for n in range(1, 10):
            sticker_attach(
                campaign=campaign, number=n, row=["wealth", "morale"][n % 2], positive=False, signer=a
            )
        setup = legacy_setup_compute(campaign=campaign, houses=[a, b, c])
        assert setup["start"][a.pk]["power"] == 0


class MysteryStickerTests:
    def test_the_sixth_mystery_sticker_calls_the_grand_finale_and_closes_the_campaign(self):
        """'Triggering the end of the campaign'."""
        campaign, _ = campaign_with_houses("A")
        for letter in "ABCDE":
            mystery_sticker_attach(campaign=campaign, letter=letter)
        campaign.refresh_from_db()
        assert not campaign.grand_finale_ready
        mystery_sticker_attach(campaign=campaign, letter="k")
        campaign.refresh_from_db()
        assert campaign.grand_finale_ready and campaign.closed
        with pytest.raises(ValidationError, match=str(CAMPAIGN_CLOSED)):
            game_begin(campaign=campaign, king_name="Too late")
        with pytest.raises(ValidationError, match=str(MYSTERY_ALL_ATTACHED)):
            mystery_sticker_attach(campaign=campaign, letter="L")

    def test_a_letter_twice_or_outside_a_to_l_is_refused(self):
        campaign, _ = campaign_with_houses("A")
        mystery_sticker_attach(campaign=campaign, letter="A")
        with pytest.raises(ValidationError, match="Mystery sticker A is already attached."):
            mystery_sticker_attach(campaign=campaign, letter="A")
        with pytest.raises(ValidationError, match=str(MYSTERY_LETTER)):
            mystery_sticker_attach(campaign=campaign, letter="Z")


class ResourcesFinalTests:
    def test_final_resources_are_kept_for_the_chart_and_checked(self):
        campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD])
        game = game_begin(campaign=campaign, king_name="Harald V")
        with pytest.raises(ValidationError, match=str(RESOURCES_FINAL_FORMAT)):
            game_result_record(
                game=game, end="king_died", rows=harald_rows(houses), resources_final={"gold": 3}
            )
        assert not ChronicleScore.objects.exists()
        game_result_record(
            game=game, end="king_died", rows=harald_rows(houses), resources_final={"wealth": 12}
        )
        game.refresh_from_db()
        assert game.resources_final == {"wealth": 12}
