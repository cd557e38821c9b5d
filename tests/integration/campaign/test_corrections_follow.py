"""Every page is derived from the record: after a night's result or a sticker is corrected, the
night's story (page, read-only link and API), the House pages, the statistics and the history show
what the campaign holds now, and the story says what the table played ("corrected on <date>, was
<old>"). A correction that changes nothing writes nothing; one that changes a ranking writes only
the difference in the ledgers."""

import re

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import formats, timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from campaign import story_selectors
from campaign.models import CampaignEvent, ChronicleScore, LedgerEntry
from campaign.selectors import house_totals, sticker_history
from campaign.services.chronicles import game_result_correct
from campaign.services.stickers import NOTHING_TO_CORRECT, sticker_attach, sticker_correct, sticker_remove
from campaign.services.stories import story_link_create
from games.engines.kings_dilemma import scoring
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights
from tests.unit.contract import property_examples

pytestmark = [pytest.mark.database, pytest.mark.django_db]


@pytest.fixture
def night(user):
    """One night of four Houses played at the table and saved. As the seeded night ends: Martina
    22 points (1st), Armin 14 (2nd), Charles 13 (3rd), Valentine 12 (Last); Charles signed
    Chronicle sticker 1 in the Wealth row (positive)."""
    cache.clear()
    campaign, houses, (game,) = campaign_of_nights(1, user=user)
    return campaign, {h.name: h for h in houses}, game


def rows_now(game, **coins):
    """The game's current table as result rows, with some Houses' Coins points changed."""
    scores = game.scores.filter(revision=game.revision).select_related("house")
    return [
        {
            "house": s.house,
            "secret_agenda": s.secret_agenda,
            "agenda_points": s.agenda_points,
            "open_agenda_points": s.open_agenda_points,
            "coins_points": coins.get(s.house.name, s.coins_points),
            "power_points": s.power_points,
        }
        for s in scores
    ]


def text(html: str) -> str:
    """What a reader sees: the tags dropped (a block or a cell ends a word, an inline tag does
    not), the spaces folded."""
    inline = re.sub(r"</?(span|strong|em|a)\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inline))


def today() -> str:
    return formats.date_format(timezone.localtime(), "DATE_FORMAT")


def totals(houses) -> dict[str, dict[str, int]]:
    return {name: house_totals(house=h) for name, h in houses.items()}


def story_page(client, campaign, game) -> str:
    return text(client.get(reverse("night-story", args=[campaign.pk, game.number])).content.decode())


class ResultCorrectionLedgerTests:
    """'Gain Prestige and Crave' from the Realm Chronicles: a correction rewrites the table; the
    ledgers get only what changed."""

    def test_a_correction_that_moves_no_ranking_writes_no_ledger_entry(self, night):
        campaign, houses, game = night
        before, entries = totals(houses), LedgerEntry.objects.count()
        events = CampaignEvent.objects.count()
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Martina=8), reason="2 Coins missed")
        game.refresh_from_db()
        assert game.revision == 1
        assert ChronicleScore.objects.get(game=game, revision=1, house=houses["Martina"]).total == 24
        assert LedgerEntry.objects.count() == entries  # was 12 reversed and re-awarded rows
        assert totals(houses) == before
        (event,) = CampaignEvent.objects.filter(id__gt=0).order_by("-id")[:1]
        assert event.kind == "game_corrected" and CampaignEvent.objects.count() == events + 1
        assert event.summary == "Game 1 corrected (revision 1): 2 Coins missed (House Martina: Coins 6 → 8)"

    def test_a_correction_that_changes_a_ranking_writes_one_entry_per_house_and_kind_changed(self, night):
        campaign, houses, game = night
        before, last = totals(houses), LedgerEntry.objects.order_by("-id").first().pk
        # Charles's 2 Coins more: 15 points, 2nd; Armin 3rd. For four Houses the 2nd row gives
        # 2 Prestige, the 3rd 2 Prestige and 1 Crave: only the Crave moves.
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Charles=2))
        new = list(LedgerEntry.objects.filter(id__gt=last).order_by("id"))
        assert [(e.house.name, e.kind, e.amount, e.source) for e in new] == [
            ("Armin", "crave", 1, LedgerEntry.Source.CORRECTION),
            ("Charles", "crave", -1, LedgerEntry.Source.CORRECTION),
        ]
        assert new[0].reason == "Correction of game 1 (King Aldric 1): position 2 → position 3"
        after = totals(houses)
        assert after["Armin"] == {**before["Armin"], "crave": before["Armin"]["crave"] + 1}
        assert after["Charles"] == {**before["Charles"], "crave": before["Charles"]["crave"] - 1}
        assert after["Martina"] == before["Martina"] and after["Valentine"] == before["Valentine"]
        for name, house in houses.items():  # the ledger explains the table as it stands
            score = ChronicleScore.objects.get(game=game, revision=1, house=house)
            from_game = sum(
                e.amount for e in LedgerEntry.objects.filter(house=house, game=game, kind="crave")
            )
            assert from_game == score.crave, name

    def test_the_rebel_s_crave_follows_a_corrected_end_within_the_one_crave_difference(self, night):
        """The Rebel card: +1 Crave when the King abdicated (Armin played the Rebel). A corrected end
        changes the awards: each House whose award changed gets one entry per kind, its difference."""
        campaign, houses, game = night
        last = LedgerEntry.objects.order_by("-id").first().pk
        game_result_correct(game=game, end="abdicated_top", rows=rows_now(game))
        expected = []
        for name, house in houses.items():
            was, now = (ChronicleScore.objects.get(game=game, revision=r, house=house) for r in (0, 1))
            rebel = 1 if now.secret_agenda == "rebel" else 0
            for kind, delta in (
                ("prestige", now.prestige - was.prestige),
                ("crave", now.crave + rebel - was.crave),
            ):
                if delta:
                    expected.append((name, kind, delta))
        new = list(LedgerEntry.objects.filter(id__gt=last))
        assert sorted((e.house.name, e.kind, e.amount) for e in new) == sorted(expected)
        assert len(new) == len({(e.house_id, e.kind) for e in new})  # one entry per House and kind
        armin = [e for e in new if e.house == houses["Armin"] and e.kind == "crave"]
        assert (
            sum(e.amount for e in armin)
            == ChronicleScore.objects.get(game=game, revision=1, house=houses["Armin"]).crave
            + 1
            - ChronicleScore.objects.get(game=game, revision=0, house=houses["Armin"]).crave
        )

    def test_a_correction_that_changes_nothing_writes_nothing(self, night):
        campaign, houses, game = night
        counts = (LedgerEntry.objects.count(), CampaignEvent.objects.count(), ChronicleScore.objects.count())
        with pytest.raises(ValidationError) as refused:
            game_result_correct(game=game, end=game.end, rows=rows_now(game), reason="checked again")
        assert refused.value.messages == [NOTHING_TO_CORRECT.format(thing="game 1")]
        game.refresh_from_db()
        assert game.revision == 0
        assert (
            LedgerEntry.objects.count(),
            CampaignEvent.objects.count(),
            ChronicleScore.objects.count(),
        ) == counts

    def test_the_page_says_why_a_correction_that_changes_nothing_is_refused(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        data = {"end": game.end, "reason": "", "row4-house": ""}  # four Houses: the fifth row empty
        data.update({f"row4-{k}": 0 for k in ("agenda_points", "open_agenda_points", "coins_points")})
        data["row4-power_points"] = 0
        for i, row in enumerate(rows_now(game)):
            data.update({f"row{i}-{k}": (v.pk if k == "house" else v) for k, v in row.items()})
        response = client.post(reverse("game-correct", args=[campaign.pk, game.number]), data)
        assert response.status_code == 400
        assert NOTHING_TO_CORRECT.format(thing="game 1") in text(response.content.decode())
        game.refresh_from_db()
        assert game.revision == 0

    def test_the_api_refuses_a_correction_that_changes_nothing_and_writes_nothing(self, night):
        campaign, houses, game = night
        api = APIClient()
        api.force_authenticate(campaign.created_by)
        counts = (LedgerEntry.objects.count(), CampaignEvent.objects.count(), ChronicleScore.objects.count())
        rows = [{**row, "house": row["house"].pk} for row in rows_now(game)]
        url = reverse("api:game-result-correct", kwargs={"campaign_id": campaign.pk, "game_id": game.pk})
        response = api.post(url, {"end": game.end, "rows": rows, "reason": "again"}, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == NOTHING_TO_CORRECT.format(thing="game 1")
        assert (
            LedgerEntry.objects.count(),
            CampaignEvent.objects.count(),
            ChronicleScore.objects.count(),
        ) == counts
        rows[0]["coins_points"] += 2  # 2 Coins more for the leader: no ranking moves
        assert api.post(url, {"end": game.end, "rows": rows}, format="json").status_code == 200
        assert LedgerEntry.objects.count() == counts[0] and ChronicleScore.objects.count() == counts[2] + 4
        game.refresh_from_db()
        assert game.revision == 1


class StoryFollowsCorrectionsTests:
    def test_the_story_ranks_the_corrected_result_and_says_what_the_table_played(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        assert "Charles Moderate 13" in story_page(client, campaign, game)  # told and cached
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Charles=2))
        page = story_page(client, campaign, game)
        day = today()
        assert (
            f"2 (corrected on {day}, was 3) House Charles Moderate 15 (corrected on {day}, was 13) "
            f"3 (corrected on {day}, was 2) House Armin Rebel 14 Last House Valentine"
        ) in page
        assert "1 House Martina Opportunist 22 " in page  # unchanged: no mark

    def test_the_story_says_which_house_a_correction_took_out_of_the_table(self, client, night):
        """A House the table ranked and a correction then removed from the Realm Chronicles is not
        silently gone from the night's story: a note says so, with when, on the page and in the API."""
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        story_page(client, campaign, game)  # told and cached
        rows = [row for row in rows_now(game) if row["house"].name != "Valentine"]
        game_result_correct(game=game, end=game.end, rows=rows, reason="Valentine left early")
        page = story_page(client, campaign, game)
        assert "Last House Valentine" not in page
        assert (
            f"House Valentine, ranked Last at the table, was taken out of this table by a correction on {today()}."
        ) in page
        api = APIClient()
        api.force_authenticate(campaign.created_by)
        url = reverse("api:game-story", kwargs={"campaign_id": campaign.pk, "game_id": game.pk})
        (dropped,) = api.get(url).json()["story"]["dropped"]
        assert (dropped["house"]["name"], dropped["rank"]) == ("Valentine", "Last")
        assert dropped["removed_on"] is not None

    def test_the_story_shows_a_corrected_sticker_with_what_the_table_typed(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        assert "House Charles signed Chronicle sticker 1 in the Wealth row (positive)." in story_page(
            client, campaign, game
        )
        sticker = campaign.stickers.get(number=1)
        sticker_correct(sticker=sticker, number=13, row="influence", positive=True, signer=houses["Charles"])
        page = story_page(client, campaign, game)
        assert (
            "House Charles signed Chronicle sticker 13 in the Influence row (positive), "
            f"corrected on {today()}, was sticker 1 in the Wealth row."
        ) in page
        assert "sticker 1 in the Wealth row (positive)." not in page

    def test_a_corrected_signer_and_a_removed_sticker_are_told(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        sticker = campaign.stickers.get(number=1)
        sticker_correct(sticker=sticker, number=1, row="wealth", positive=False, signer=houses["Armin"])
        assert (
            "House Armin signed Chronicle sticker 1 in the Wealth row (negative), "
            f"corrected on {today()}, was positive, signed by House Charles."
        ) in story_page(client, campaign, game)
        sticker_remove(sticker=campaign.stickers.get(number=1))
        assert (
            "House Charles signed Chronicle sticker 1 in the Wealth row (positive), "
            f"removed on {today()}: attached by mistake."
        ) in story_page(client, campaign, game)

    def test_a_corrected_end_of_the_reign_is_told_with_the_end_played(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        game_result_correct(game=game, end="abdicated_top", rows=rows_now(game))
        assert (
            f"The King abdicated (Stability at the top), corrected on {today()}, was: The King died."
        ) in story_page(client, campaign, game)

    def test_the_shared_link_follows_the_corrections(self, client, night):
        campaign, houses, game = night
        link = story_link_create(game=game, actor=campaign.created_by)
        assert "Charles Moderate 13 " in text(client.get(f"/stories/{link.token}/").content.decode())
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Charles=2))
        sticker_correct(
            sticker=campaign.stickers.get(number=1),
            number=13,
            row="influence",
            positive=True,
            signer=houses["Charles"],
        )
        shared = text(client.get(f"/stories/{link.token}/").content.decode())
        day = today()
        assert f"House Charles Moderate 15 (corrected on {day}, was 13)" in shared
        assert (
            "House Charles signed Chronicle sticker 13 in the Influence row (positive), "
            f"corrected on {day}, was sticker 1 in the Wealth row."
        ) in shared

    def test_the_story_api_follows_the_corrections(self, night):
        campaign, houses, game = night
        api = APIClient()
        api.force_authenticate(campaign.created_by)
        url = reverse("api:game-story", kwargs={"campaign_id": campaign.pk, "game_id": game.pk})
        api.get(url)  # told and cached
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Charles=2))
        sticker_correct(
            sticker=campaign.stickers.get(number=1), number=13, row="influence", positive=True, signer=None
        )
        story = api.get(url).json()["story"]
        charles = next(r for r in story["ranking"] if r["house"]["name"] == "Charles")
        assert (charles["total"], charles["position"], charles["was"]) == (
            15,
            2,
            {"rank": "3", "total": "13"},
        )
        assert charles["corrected_on"] is not None
        martina = next(r for r in story["ranking"] if r["house"]["name"] == "Martina")
        assert martina["was"] == {} and martina["corrected_on"] is None
        (sticker,) = [s for c in story["chapters"] for s in c["stickers"]]
        assert (sticker["number"], sticker["row"], sticker["signer"]) == (13, "Influence", None)
        assert sticker["was"] == "sticker 1 in the Wealth row, signed by House Charles"


class OtherPagesFollowCorrectionsTests:
    def test_the_house_page_shows_the_corrected_night_stickers_and_ledger(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Charles=2))
        sticker_correct(
            sticker=campaign.stickers.get(number=1),
            number=13,
            row="influence",
            positive=True,
            signer=houses["Charles"],
        )
        url = reverse("house-page", args=[campaign.pk, houses["Charles"].pk])
        page = text(client.get(url).content.decode())
        day = today()
        assert (
            f"Game 1 Aldric 1 Moderate 15 (corrected on {day}, was 13) 2 (corrected on {day}, was 3) +2 +0 "
        ) in page
        assert "-1 Crave Correction of game 1 (King Aldric 1): position 3 → position 2 (Correction)" in page
        assert "Influence Positive: 13 " in page and "Wealth Positive: none " in page

    def test_the_house_page_api_says_what_the_table_played(self, night):
        campaign, houses, game = night
        game_result_correct(game=game, end=game.end, rows=rows_now(game, Charles=2))
        api = APIClient()
        api.force_authenticate(campaign.created_by)
        for name, was in (("Charles", {"rank": "3", "total": "13"}), ("Martina", {})):
            url = reverse("api:house-page", kwargs={"campaign_id": campaign.pk, "house_id": houses[name].pk})
            (night_row,) = api.get(url).json()["nights"]
            assert night_row["was"] == was and (night_row["corrected_on"] is not None) == bool(was)

    def test_the_statistics_count_a_corrected_sticker_in_its_new_row(self, client, night):
        campaign, houses, game = night
        client.force_login(campaign.created_by)
        sticker_correct(
            sticker=campaign.stickers.get(number=1),
            number=13,
            row="influence",
            positive=True,
            signer=houses["Charles"],
        )
        page = text(client.get(reverse("campaign-statistics", args=[campaign.pk])).content.decode())
        assert "Influence 1 House Charles House Charles 1 Wealth 0 nobody yet " in page


class StickerHistoryFollowsCorrectionsTests:
    def test_who_signed_sticker_13_after_31_was_corrected_to_13(self, client):
        from campaign.services.chronicles import game_begin
        from tests.factories import campaign_with_houses

        campaign, (anna, ben) = campaign_with_houses("Anna", "Ben")
        game = game_begin(campaign=campaign, king_name="Harald V")
        sticker = sticker_attach(
            campaign=campaign, number=31, row="wealth", positive=True, signer=anna, game=game
        )
        sticker_correct(sticker=sticker, number=13, row="influence", positive=True, signer=anna)
        sticker_attach(campaign=campaign, number=31, row="morale", positive=False, signer=ben)  # another
        history = list(sticker_history(campaign=campaign, number=13))
        assert [(e.kind, e.house, e.game) for e in history] == [
            ("sticker_corrected", anna, game),
            ("sticker_attached", anna, game),
        ]
        assert history[0].summary == "Chronicle sticker 31 corrected: number 31 → 13; row Wealth → Influence"
        assert [e.kind for e in sticker_history(campaign=campaign, number=31)] == [
            "sticker_attached",  # the new 31, signed by Ben
            "sticker_corrected",
            "sticker_attached",
        ]
        client.force_login(campaign.created_by)
        page = text(
            client.get(reverse("campaign-history", args=[campaign.pk]), {"sticker": 13}).content.decode()
        )
        assert (
            f"Sticker 13: signed by House Anna in game 1 (King Harald V), attached as sticker 31, "
            f"corrected on {today()}."
        ) in page
        assert "Chronicle sticker 31 (positive Wealth) attached, signed by House Anna" in page
        assert "Chronicle sticker 31 corrected: number 31 → 13; row Wealth → Influence" in page
        assert "Ben" not in page

    def test_the_history_api_follows_a_sticker_through_its_corrections(self):
        from campaign.services.chronicles import game_begin
        from tests.factories import campaign_with_houses

        campaign, (anna,) = campaign_with_houses("Anna")
        game = game_begin(campaign=campaign, king_name="Harald V")
        sticker = sticker_attach(
            campaign=campaign, number=31, row="wealth", positive=True, signer=anna, game=game
        )
        sticker_correct(sticker=sticker, number=13, row="influence", positive=True, signer=anna)
        api = APIClient()
        api.force_authenticate(campaign.created_by)
        data = api.get(reverse("api:history", kwargs={"campaign_id": campaign.pk}), {"sticker": 13}).json()
        assert [(e["kind"], e["house"]["name"], e["game"]["number"]) for e in data["results"]] == [
            ("sticker_corrected", "Anna", 1),
            ("sticker_attached", "Anna", 1),
        ]

    def test_a_removed_sticker_still_answers_who_signed_it(self, client):
        from campaign.services.chronicles import game_begin
        from tests.factories import campaign_with_houses

        campaign, (anna,) = campaign_with_houses("Anna")
        game = game_begin(campaign=campaign, king_name="Harald V")
        sticker = sticker_attach(
            campaign=campaign, number=31, row="wealth", positive=True, signer=anna, game=game
        )
        sticker_remove(sticker=sticker)
        client.force_login(campaign.created_by)
        url = reverse("campaign-history", args=[campaign.pk])
        page = text(client.get(url, {"sticker": 31}).content.decode())
        assert f"Sticker 31: signed by House Anna in game 1 (King Harald V), removed on {today()}." in page
        assert "No sticker 7 in this campaign's history." in text(
            client.get(url, {"sticker": 7}).content.decode()
        )


def check_pages_follow_the_record(campaign, game):
    """The night's story, its ledgers and History agree with the records as they stand."""
    game.refresh_from_db()
    chapter = story_selectors.night_chapter(campaign=campaign, game=game)
    story = story_selectors.night_stories(campaign=campaign)[game.pk]
    played = {r["house"]: r for r in story["ranking"]}
    assert chapter["end"] == game.end and bool(chapter["end_was"]) == (game.end != story["end"])
    scores = list(game.scores.filter(revision=game.revision).select_related("house"))
    assert [(r["house"]["house"], r["total"], r["position"], r["last"]) for r in chapter["ranking"]] == [
        (s.house_id, s.total, s.position, s.last) for s in scores
    ]
    for row in chapter["ranking"]:
        then = played[row["house"]["house"]]
        assert ("total" in row["was"]) == (then["total"] != row["total"])
        assert bool(row["was"]) == (row["corrected_on"] is not None)
    for score in scores:  # the ledger of the night explains its table as it stands
        entries = LedgerEntry.objects.filter(house=score.house, game=game)
        rebel = scoring.rebel_crave(game.end, score.secret_agenda)
        assert sum(e.amount for e in entries if e.kind == "prestige") == score.prestige
        assert sum(e.amount for e in entries if e.kind == "crave") == score.crave + rebel
    (told,) = [s for c in chapter["chapters"] for s in c["stickers"]]
    sticker = campaign.stickers.get(number=told["number"])
    assert (told["row"], told["positive"], (told["signer"] or {}).get("house")) == (
        sticker.get_row_display(),
        sticker.positive,
        sticker.signer_id,
    )
    assert bool(told["was"]) == (told["number"] != 1 or told["row"] != "Wealth")
    kinds = [e.kind for e in sticker_history(campaign=campaign, number=sticker.number)]
    assert kinds[-1] == "sticker_attached" and set(kinds[:-1]) <= {"sticker_corrected"}


@settings(
    max_examples=property_examples(2),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_corrections_keep_every_page_on_the_record(data):
    """A night played at the table, then random corrections of its result (Coins, the end of the
    reign, or nothing at all) and of its sticker (number, row): after each, the story, the ledgers
    and History follow the records, and each correction wrote only what changed."""
    cache.clear()
    campaign, houses, (game,) = campaign_of_nights(1, user=UserFactory())
    check_pages_follow_the_record(campaign, game)
    for _ in range(data.draw(st.integers(1, 5))):
        if data.draw(st.booleans()):
            game.refresh_from_db()
            coins = {
                h.name: data.draw(st.integers(0, 8)) for h in data.draw(st.sets(st.sampled_from(houses)))
            }
            end = data.draw(st.sampled_from(["king_died", "abdicated_top", "abdicated_bottom"]))
            before = {s.house_id: s for s in game.scores.filter(revision=game.revision)}
            last = LedgerEntry.objects.order_by("-id").values_list("id", flat=True).first()
            try:
                game_result_correct(game=game, end=end, rows=rows_now(game, **coins))
            except ValidationError as refused:
                assert refused.messages == [NOTHING_TO_CORRECT.format(thing="game 1")]
                assert not LedgerEntry.objects.filter(id__gt=last).exists()
                continue
            game.refresh_from_db()
            written = LedgerEntry.objects.filter(id__gt=last)
            changed = {
                (s.house_id, kind)
                for s in game.scores.filter(revision=game.revision)
                for kind in ("prestige", "crave")
                if getattr(s, kind) != getattr(before[s.house_id], kind)
                or (kind == "crave" and s.secret_agenda == "rebel")
            }
            assert {(e.house_id, e.kind) for e in written} <= changed
            assert written.count() == len({(e.house_id, e.kind) for e in written})
        else:
            sticker = campaign.stickers.get()
            number = data.draw(st.integers(1, 177))  # the night's sticker is the only one on the board
            row = data.draw(st.sampled_from(["influence", "wealth", "morale", "welfare", "knowledge"]))
            try:
                sticker_correct(
                    sticker=sticker, number=number, row=row, positive=sticker.positive, signer=sticker.signer
                )
            except ValidationError as refused:
                assert refused.messages == [NOTHING_TO_CORRECT.format(thing=f"sticker {number}")]
        check_pages_follow_the_record(campaign, game)
