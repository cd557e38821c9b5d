"""Campaign endpoints: reads, writes through the services, permissions and bad input.

Who may: members of a campaign read and write it (as on the campaign pages). An anonymous caller
is 401, a member of another campaign 403, an unknown campaign (or an id of another campaign's
House, achievement or game in the URL) 404."""

import pytest
from django.urls import reverse

from api.campaigns.chronicles import RESULT_HOUSES
from campaign import access, selectors
from campaign.models import ChronicleSticker, Envelope, LedgerEntry, MysterySticker
from campaign.services.chronicles import (
    RESULT_ALREADY,
    RESULT_HOUSE_TWICE,
    RESULT_NOT_RECORDED,
    game_begin,
    game_result_record,
)
from campaign.services.common import CAMPAIGN_CLOSED
from campaign.services.envelopes import STANDARD_ENVELOPE_CARDS
from campaign.services.houses import (
    CAMPAIGN_NAME_REQUIRED,
    HOUSE_NUMBER_RANGE,
    HOUSE_NUMBER_TAKEN,
    achievement_create,
    campaign_create,
    house_create,
    membership_add,
)
from campaign.services.ledger import ledger_add
from campaign.services.stickers import (
    MYSTERY_ALREADY,
    MYSTERY_LETTER,
    STICKER_NUMBER_RANGE,
    chronicle_age,
    mystery_sticker_attach,
    sticker_attach,
)
from tests.integration.api.conftest import harald_rows, token_client

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def url(name, campaign, **kwargs):
    return reverse(f"api:{name}", kwargs={"campaign_id": campaign.pk, **kwargs})


def member_urls(campaign, houses, game):
    """(method, url, body) of every endpoint under /api/campaigns/<id>/."""
    achievement = houses[0].achievements.first()
    return [
        ("get", url("campaign-detail", campaign), None),
        ("get", url("house-list", campaign), None),
        ("post", url("house-create", campaign), {"name": "Late", "number": 9}),
        ("get", url("house-detail", campaign, house_id=houses[0].pk), None),
        ("post", url("achievement-mark", campaign, achievement_id=achievement.pk), {}),
        ("get", url("realm-board", campaign), None),
        ("post", url("sticker-attach", campaign), {"number": 1, "row": "wealth", "positive": True}),
        ("get", url("envelope-list", campaign), None),
        ("post", url("envelope-open", campaign), {"number": 1, "special": True}),
        ("get", url("storyline-list", campaign), None),
        ("get", url("save-slots", campaign), None),
        ("post", url("mystery-attach", campaign), {"letter": "A"}),
        ("get", url("game-list", campaign), None),
        ("post", url("game-begin", campaign), {"king_name": "Olaf"}),
        ("get", url("game-detail", campaign, game_id=game.pk), None),
        ("post", url("game-result-record", campaign, game_id=game.pk), {"end": "king_died", "rows": []}),
        ("post", url("game-result-correct", campaign, game_id=game.pk), {"end": "king_died", "rows": []}),
        ("get", url("history", campaign), None),
    ]


class PermissionTests:
    def test_anonymous_callers_are_401_everywhere(self, harald, anonymous):
        for method, address, body in member_urls(*harald):
            response = getattr(anonymous, method)(address, body, format="json")
            assert response.status_code == 401, address
            assert response.json()["message"] == "Authentication credentials were not provided."

    def test_members_of_another_campaign_get_the_404_of_an_unknown_one_and_nothing_is_written(
        self, harald, stranger
    ):
        campaign = harald[0]
        events = campaign.events.count()
        for method, address, body in member_urls(*harald):
            response = getattr(stranger, method)(address, body, format="json")
            assert response.status_code == 404, address
            assert response.json() == {"message": access.NOT_FOUND, "code": "not_found", "extra": {}}
        assert campaign.events.count() == events

    def test_an_unknown_campaign_is_404(self, harald, api):
        campaign, houses, game = harald
        missing = type(campaign)(pk=campaign.pk + 1000)
        for method, address, body in member_urls(missing, houses, game):
            response = getattr(api, method)(address, body, format="json")
            assert response.status_code == 404, address
            assert response.json() == {"message": access.NOT_FOUND, "code": "not_found", "extra": {}}

    def test_another_campaigns_house_achievement_or_game_is_404(self, harald, api, host):
        other = campaign_create(name="Other", created_by=host)
        other_house = house_create(campaign=other, name="O", number=1)
        other_game = game_begin(campaign=other, king_name="Other")
        campaign = harald[0]
        for address in [
            url("house-detail", campaign, house_id=other_house.pk),
            url("game-detail", campaign, game_id=other_game.pk),
        ]:
            assert api.get(address).status_code == 404
        achievement = other_house.achievements.first()
        assert api.post(url("achievement-mark", campaign, achievement_id=achievement.pk)).status_code == 404
        response = api.post(
            url("game-result-record", campaign, game_id=other_game.pk), {"end": "king_died", "rows": []}
        )
        assert response.status_code == 404

    def test_a_plain_member_may_read_and_write(self, harald):
        from tests.factories import UserFactory

        campaign = harald[0]
        player = UserFactory()
        membership_add(campaign=campaign, user=player)
        client = token_client(player)
        assert client.get(url("campaign-detail", campaign)).status_code == 200
        body = {"number": 43, "row": "welfare", "positive": False}
        assert client.post(url("sticker-attach", campaign), body, format="json").status_code == 201


class CampaignListTests:
    def test_lists_only_my_campaigns_with_my_role(self, harald, api, stranger):
        response = api.get(reverse("api:campaign-list"))
        assert response.status_code == 200
        assert [(c["name"], c["role"]) for c in response.json()] == [("Harald", "owner")]

    def test_create_makes_me_the_host(self, api, host):
        response = api.post(reverse("api:campaign-create"), {"name": " Winter "}, format="json")
        assert response.status_code == 201
        assert response.json()["name"] == "Winter"
        assert [c["role"] for c in api.get(reverse("api:campaign-list")).json()] == ["owner"]

    def test_create_without_a_name_is_400_with_the_services_message(self, api):
        response = api.post(reverse("api:campaign-create"), {"name": "  "}, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == CAMPAIGN_NAME_REQUIRED


class CampaignDetailTests:
    def test_houses_come_by_prestige_with_games_and_mystery_stickers(self, harald, api):
        campaign, houses, game = harald
        ledger_add(house=houses[0], kind="prestige", amount=2, reason="t", source="manual")
        mystery_sticker_attach(campaign=campaign, letter="c", game=game)
        data = api.get(url("campaign-detail", campaign)).json()
        assert [h["name"] for h in data["houses"]][:2] == ["Valentine", "Theodore"]
        assert data["houses"][0]["prestige"] == 2
        assert data["games"] == [{"id": game.pk, "number": 1, "king_name": "Harald V"}]
        assert data["mystery_stickers"][0]["letter"] == "C"


class HouseTests:
    def test_houses_carry_prestige_crave_achievements_and_alignment(self, harald, api):
        campaign, houses, _ = harald
        ledger_add(house=houses[1], kind="crave", amount=3, reason="t", source="manual")
        achievement_create(house=houses[1], name="Builder", spaces=2)
        data = api.get(url("house-list", campaign)).json()
        martina = data[1]
        assert (martina["name"], martina["prestige"], martina["crave"]) == ("Martina", 0, 3)
        assert [a["name"] for a in martina["achievements"]] == ["Builder"]
        assert sorted(a["agenda"] for a in martina["alignment"]) == sorted(
            ["extremist", "opulent", "moderate", "rebel", "opportunist", "greedy"]
        )

    def test_house_detail_lists_its_ledger(self, harald, api):
        campaign, houses, game = harald
        ledger_add(house=houses[0], kind="prestige", amount=2, reason="Story", source="story", game=game)
        data = api.get(url("house-detail", campaign, house_id=houses[0].pk)).json()
        assert data["ledger"][0]["reason"] == "Story"
        assert data["ledger"][0]["game"]["number"] == 1

    def test_add_a_house(self, harald, api):
        campaign = harald[0]
        response = api.post(url("house-create", campaign), {"name": "Late", "number": 9}, format="json")
        assert response.status_code == 201
        assert (response.json()["name"], response.json()["prestige"]) == ("Late", 0)

    def test_a_house_number_used_twice_is_400(self, harald, api):
        campaign = harald[0]
        response = api.post(url("house-create", campaign), {"name": "Twin", "number": 1}, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == HOUSE_NUMBER_TAKEN.format(number=1)
        assert campaign.houses.count() == 5

    def test_a_house_number_out_of_range_is_400(self, harald, api):
        response = api.post(url("house-create", harald[0]), {"name": "X", "number": 13}, format="json")
        assert response.json()["message"] == f"number: {HOUSE_NUMBER_RANGE}"


class AchievementMarkTests:
    def test_marking_the_last_space_unlocks_and_pays_prestige(self, harald, api):
        campaign, houses, game = harald
        builder = achievement_create(house=houses[0], name="Builder", spaces=2, effects={"prestige": 2})
        address = url("achievement-mark", campaign, achievement_id=builder.pk)
        response = api.post(address, {"count": 2}, format="json")
        assert response.status_code == 200
        assert response.json()["unlocked"] is True
        assert selectors.house_totals(house=houses[0])["prestige"] == 2
        assert LedgerEntry.objects.get(house=houses[0]).game == game  # the latest game by default

    def test_marking_beyond_the_spaces_is_400_and_changes_nothing(self, harald, api):
        campaign, houses, _ = harald
        builder = achievement_create(house=houses[0], name="Builder", spaces=2)
        response = api.post(
            url("achievement-mark", campaign, achievement_id=builder.pk), {"count": 3}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["message"] == "Builder has only 2 spaces: 0 are already marked."
        builder.refresh_from_db()
        assert builder.marked == 0

    def test_a_game_of_another_campaign_is_400(self, harald, api, host):
        campaign, houses, _ = harald
        other = campaign_create(name="Other", created_by=host)
        other_game = game_begin(campaign=other, king_name="Other")
        builder = achievement_create(house=houses[0], name="Builder", spaces=2)
        address = url("achievement-mark", campaign, achievement_id=builder.pk)
        response = api.post(address, {"game": other_game.pk}, format="json")
        assert response.status_code == 400
        assert response.json()["message"].startswith("game: Invalid pk")
        builder.refresh_from_db()
        assert builder.marked == 0

    def test_an_unknown_achievement_is_404(self, harald, api):
        assert api.post(url("achievement-mark", harald[0], achievement_id=999999)).status_code == 404


class StickerAttachTests:
    def test_attach_a_sticker_signed_by_a_house_in_the_latest_game(self, harald, api):
        campaign, houses, game = harald
        body = {"number": 43, "row": "welfare", "positive": False, "signer": houses[1].pk}
        response = api.post(url("sticker-attach", campaign), body, format="json")
        assert response.status_code == 201
        data = response.json()
        assert (data["number"], data["slot"], data["signer"]["name"]) == (43, 0, "Martina")
        assert data["game"] == {"id": game.pk, "number": 1, "king_name": "Harald V"}
        event = selectors.sticker_history(campaign=campaign, number=43).get()
        assert event.actor.username == "host"

    def test_attaching_sticker_43_twice_is_400_with_the_services_message(self, harald, api):
        campaign = harald[0]
        body = {"number": 43, "row": "welfare", "positive": False}
        assert api.post(url("sticker-attach", campaign), body, format="json").status_code == 201
        response = api.post(url("sticker-attach", campaign), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == "Sticker 43 is already on the board."
        assert ChronicleSticker.objects.count() == 1

    def test_a_sticker_number_out_of_range_is_400(self, harald, api):
        body = {"number": 178, "row": "welfare", "positive": False}
        response = api.post(url("sticker-attach", harald[0]), body, format="json")
        assert response.json()["message"] == f"number: {STICKER_NUMBER_RANGE}"

    def test_an_unknown_row_is_400_naming_the_field(self, harald, api):
        body = {"number": 4, "row": "gold", "positive": False}
        response = api.post(url("sticker-attach", harald[0]), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == 'row: "gold" is not a valid choice.'

    def test_a_signer_from_another_campaign_is_400_and_not_named(self, harald, api, host):
        other = campaign_create(name="Other", created_by=host)
        spy = house_create(campaign=other, name="Spy", number=1)
        body = {"number": 4, "row": "wealth", "positive": True, "signer": spy.pk}
        response = api.post(url("sticker-attach", harald[0]), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"].startswith("signer: Invalid pk")
        assert "Spy" not in response.content.decode()

    def test_null_game_attaches_between_games(self, harald, api):
        body = {"number": 4, "row": "wealth", "positive": True, "game": None}
        response = api.post(url("sticker-attach", harald[0]), body, format="json")
        assert response.json()["game"] is None

    def test_a_malformed_body_is_400(self, harald, api):
        response = api.post(url("sticker-attach", harald[0]), "{not json", content_type="application/json")
        assert response.status_code == 400
        assert response.json()["message"].startswith("JSON parse error")

    def test_a_form_encoded_body_is_415(self, harald, api):
        response = api.post(
            url("sticker-attach", harald[0]), {"number": 4, "row": "wealth", "positive": True}
        )
        assert response.status_code == 415
        assert response.json()["message"].startswith("Unsupported media type")

    def test_the_board_shows_stickers_by_row_with_signers_and_marks(self, harald, api):
        campaign, houses, _ = harald
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=houses[1])
        chronicle_age(campaign=campaign)
        board = {row["row"]: row for row in api.get(url("realm-board", campaign)).json()}
        assert list(board) == ["influence", "wealth", "morale", "welfare", "knowledge"]
        first = board["welfare"]["spaces"][0]["sticker"]
        assert (first["number"], first["signer"]["name"], first["marks"]) == (43, "Martina", 1)
        assert board["welfare"]["spaces"][1:] == [{"slot": i, "sticker": None} for i in range(1, 5)]


class EnvelopeTests:
    def test_open_a_standard_envelope(self, harald, api):
        campaign, houses, _ = harald
        body = {
            "number": 3,
            "opened_by": houses[2].pk,
            "story_card": {"number": 301, "storyline": "Plague", "effects": {"start_power": 1}},
            "dilemma_numbers": [11, 12, 13],
        }
        response = api.post(url("envelope-open", campaign), body, format="json")
        assert response.status_code == 201, response.json()
        data = response.json()
        assert data["opened_by"]["name"] == "Armin"
        assert data["story_cards"][0]["signer"]["name"] == "Armin"
        assert [c["number"] for c in data["cards"]] == [11, 12, 13]
        lines = api.get(url("storyline-list", campaign)).json()
        assert lines[0]["storyline"] == "Plague" and lines[0]["top"]["number"] == 301
        slots = api.get(url("save-slots", campaign)).json()
        assert [c["number"] for c in slots["deck"]] == [11, 12, 13]
        assert [e["number"] for e in api.get(url("envelope-list", campaign)).json()] == [3]

    def test_a_story_card_may_name_its_own_signer(self, harald, api):
        campaign, houses, _ = harald
        body = {
            "number": 4,
            "special": True,
            "opened_by": houses[0].pk,
            "story_card": {"number": 7, "storyline": "War", "signer": houses[3].pk},
        }
        response = api.post(url("envelope-open", campaign), body, format="json")
        assert response.json()["story_cards"][0]["signer"]["name"] == "Charles"

    def test_a_standard_envelope_needs_three_dilemma_cards(self, harald, api):
        response = api.post(
            url("envelope-open", harald[0]), {"number": 3, "dilemma_numbers": [1]}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["message"] == STANDARD_ENVELOPE_CARDS.format(count=1)
        assert not Envelope.objects.exists()

    def test_an_envelope_opened_twice_is_400(self, harald, api):
        body = {"number": 5, "special": True}
        api.post(url("envelope-open", harald[0]), body, format="json")
        response = api.post(url("envelope-open", harald[0]), body, format="json")
        assert response.json()["message"] == "Envelope 05 has already been opened."

    def test_an_unknown_ability_effect_is_400(self, harald, api):
        body = {
            "number": 5,
            "special": True,
            "story_card": {"number": 1, "storyline": "X", "effects": {"gold": 1}},
        }
        response = api.post(url("envelope-open", harald[0]), body, format="json")
        assert response.status_code == 400
        assert "Unknown ability effect 'gold'" in response.json()["message"]
        assert not Envelope.objects.exists()


class MysteryStickerTests:
    def test_attach_then_again_is_400(self, harald, api):
        campaign = harald[0]
        response = api.post(url("mystery-attach", campaign), {"letter": "b"}, format="json")
        assert response.status_code == 201 and response.json()["letter"] == "B"
        response = api.post(url("mystery-attach", campaign), {"letter": "B"}, format="json")
        assert response.json()["message"] == MYSTERY_ALREADY.format(letter="B")
        assert MysterySticker.objects.count() == 1

    def test_a_letter_past_l_is_400(self, harald, api):
        response = api.post(url("mystery-attach", harald[0]), {"letter": "Z"}, format="json")
        assert response.json()["message"] == f"letter: {MYSTERY_LETTER}"


class GameTests:
    def test_begin_a_game_then_record_the_king_harald_v_table(self, harald, api):
        campaign, houses, _ = harald
        response = api.post(
            url("game-begin", campaign), {"king_name": "Olaf", "played_on": "2025-01-04"}, format="json"
        )
        assert response.status_code == 201
        game = response.json()
        assert (game["number"], game["king_name"], game["recorded"], game["scores"]) == (2, "Olaf", False, [])
        body = {"end": "king_died", "rows": harald_rows(houses)}
        response = api.post(url("game-result-record", campaign, game_id=game["id"]), body, format="json")
        assert response.status_code == 200, response.json()
        scores = {s["house"]["name"]: s for s in response.json()["scores"]}
        assert {n: s["position"] for n, s in scores.items()} == {
            "Martina": 1,
            "Theodore": 2,
            "Charles": 3,
            "Valentine": 4,
            "Armin": 4,
        }
        assert scores["Valentine"]["last"] and scores["Armin"]["last"]
        assert (scores["Martina"]["prestige"], scores["Valentine"]["crave"]) == (3, 2)

    def test_recording_twice_is_400_correct_instead(self, harald, api):
        campaign, houses, game = harald
        address = url("game-result-record", campaign, game_id=game.pk)
        body = {"end": "king_died", "rows": harald_rows(houses)}
        assert api.post(address, body, format="json").status_code == 200
        response = api.post(address, body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == RESULT_ALREADY.format(number=1)

    def test_correct_a_result_makes_a_new_revision(self, harald, api):
        campaign, houses, game = harald
        body = {"end": "king_died", "rows": harald_rows(houses)}
        api.post(url("game-result-record", campaign, game_id=game.pk), body, format="json")
        body["rows"][0]["agenda_points"] = 20
        body["reason"] = "Valentine counted again"
        response = api.post(url("game-result-correct", campaign, game_id=game.pk), body, format="json")
        assert response.status_code == 200
        data = response.json()
        assert data["revision"] == 1
        assert data["scores"][0]["house"]["name"] == "Valentine"
        assert selectors.house_totals(house=houses[0]) == {"prestige": 3, "crave": 0}

    def test_correcting_an_unrecorded_game_is_400(self, harald, api):
        campaign, houses, game = harald
        body = {"end": "king_died", "rows": harald_rows(houses)}
        response = api.post(url("game-result-correct", campaign, game_id=game.pk), body, format="json")
        assert response.json()["message"] == RESULT_NOT_RECORDED.format(number=1)

    def test_two_houses_are_not_a_game(self, harald, api):
        campaign, houses, game = harald
        body = {"end": "king_died", "rows": harald_rows(houses)[:2]}
        response = api.post(url("game-result-record", campaign, game_id=game.pk), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == f"rows: {RESULT_HOUSES}"
        game.refresh_from_db()
        assert not game.recorded

    def test_a_house_twice_is_400(self, harald, api):
        campaign, houses, game = harald
        rows = harald_rows(houses)
        rows[1]["house"] = houses[0].pk
        response = api.post(
            url("game-result-record", campaign, game_id=game.pk),
            {"end": "king_died", "rows": rows},
            format="json",
        )
        assert response.json()["message"] == RESULT_HOUSE_TWICE.format(house="Valentine")

    def test_an_unknown_game_is_404(self, harald, api):
        campaign = harald[0]
        assert api.get(url("game-detail", campaign, game_id=999999)).status_code == 404
        response = api.post(url("game-result-record", campaign, game_id=999999), {}, format="json")
        assert response.status_code == 404

    def test_a_closed_campaign_begins_no_game(self, harald, api):
        campaign = harald[0]
        for letter in "ABCDEF":
            mystery_sticker_attach(campaign=campaign, letter=letter)
        response = api.post(url("game-begin", campaign), {}, format="json")
        assert response.json()["message"] == CAMPAIGN_CLOSED


class RealmChroniclesListTests:
    def test_paginated_and_filtered(self, harald, api):
        campaign, houses, game = harald
        game_result_record(game=game, end="king_died", rows=_rows(houses))
        for king in ("Olaf", "Olga"):
            game_begin(campaign=campaign, king_name=king)
        page = api.get(url("game-list", campaign), {"limit": 2}).json()
        assert page["count"] == 3
        assert [g["king_name"] for g in page["results"]] == ["Harald V", "Olaf"]
        assert len(page["results"][0]["scores"]) == 5
        assert page["next"]
        recorded = api.get(url("game-list", campaign), {"recorded": "false", "king": "ol"}).json()
        assert [g["king_name"] for g in recorded["results"]] == ["Olaf", "Olga"]

    def test_a_bad_filter_is_400(self, harald, api):
        response = api.get(url("game-list", harald[0]), {"end": "dragon"})
        assert response.status_code == 400
        assert response.json()["message"].startswith("end: Select a valid choice.")


class HistoryTests:
    def test_who_signed_sticker_43_in_which_game(self, harald, api):
        campaign, houses, game = harald
        sticker_attach(
            campaign=campaign, number=43, row="welfare", positive=False, signer=houses[1], game=game
        )
        sticker_attach(campaign=campaign, number=44, row="welfare", positive=False, signer=houses[0])
        data = api.get(url("history", campaign), {"sticker": 43}).json()
        assert data["count"] == 1
        event = data["results"][0]
        assert (event["house"]["name"], event["game"]["number"]) == ("Martina", 1)

    def test_newest_first_paginated_and_filtered_by_kind_and_house(self, harald, api):
        campaign, houses, _ = harald
        total = campaign.events.count()
        page = api.get(url("history", campaign), {"limit": 3, "offset": 1}).json()
        assert page["count"] == total and len(page["results"]) == 3
        assert page["results"][0]["id"] == campaign.events.all()[1].pk
        houses_created = api.get(url("history", campaign), {"kind": "house_created"}).json()
        assert houses_created["count"] == 5
        one = api.get(url("history", campaign), {"house": houses[0].pk, "kind": "house_created"}).json()
        assert one["results"][0]["summary"] == "House Valentine (number 1) joins"

    def test_a_huge_offset_is_an_empty_page(self, harald, api):
        response = api.get(url("history", harald[0]), {"offset": 10**30})
        assert response.status_code == 200 and response.json()["results"] == []

    def test_an_id_out_of_range_is_400_not_500(self, harald, api):
        response = api.get(url("history", harald[0]), {"house": -(10**30)})
        assert response.status_code == 400
        assert response.json()["message"].startswith("house: Ensure this value is greater than or equal to 1")

    def test_a_bad_filter_is_400(self, harald, api):
        response = api.get(url("history", harald[0]), {"sticker": 500})
        assert response.status_code == 400
        assert response.json()["message"].startswith(
            "sticker: Ensure this value is less than or equal to 177"
        )


def _rows(houses):
    return [
        {
            "house": h,
            "secret_agenda": r["secret_agenda"],
            **{k: r[k] for k in ("agenda_points", "open_agenda_points", "coins_points", "power_points")},
        }
        for h, r in zip(houses, harald_rows(houses), strict=True)
    ]
