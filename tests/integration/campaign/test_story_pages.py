"""A campaign of several nights played through the services: each figure of the House page and the
statistics checked against the campaign's events and the nights' logs; the story of each night; its
read-only link; every new page robust to wrong ids and wrong users; query counts that do not grow."""

import re
from collections import Counter

import pytest
from django.core.cache import cache

from campaign import statistics_selectors, story_selectors
from campaign.models import CampaignEvent, ChronicleScore, StoryLink
from campaign.services.chronicles import game_begin, game_result_record
from campaign.services.game_nights import game_night_start
from campaign.services.stories import STORY_LINK_NONE, story_link_create
from tests.factories import UserFactory, campaign_with_houses
from tests.kings_dilemma_play import draft, play
from tests.story_play import campaign_of_nights, night_played

pytestmark = pytest.mark.django_db

INTERNAL_KEYS = (
    "abdicated_",
    "king_died",
    "seat ",
    "side aye",
    "side nay",
    "time_counter",
    "event_area",
    "None",
)
NIGHTS = 3


@pytest.fixture
def realm(user):
    cache.clear()
    campaign, houses, games = campaign_of_nights(NIGHTS, user=user)
    return campaign, houses, games


def _log(game):
    session = game.sessions.get()
    return session, [a.payload for a in session.actions.filter(undone=False).order_by("seq")]


def _seat(session, house):
    return next(i for i, s in enumerate(session.config["seats"]) if s["house"] == house.pk)


def _visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


class HousePageTests:
    def test_each_figure_matches_the_events_and_the_logs(self, realm):
        campaign, houses, games = realm
        for house in houses:
            page = statistics_selectors.house_page(campaign=campaign, house=house)
            ledger_events = CampaignEvent.objects.filter(campaign=campaign, house=house, kind="ledger")
            for kind in ("prestige", "crave"):
                expected = sum(e.data["amount"] for e in ledger_events if e.data["kind_"] == kind)
                assert page[kind] == expected
            assert len(page["ledger"]) == ledger_events.count()
            assert all(entry.reason for entry in page["ledger"])
            signed = CampaignEvent.objects.filter(campaign=campaign, house=house, kind="sticker_attached")
            assert page["stickers_signed"] == signed.count()
            shown = {s.number for row in page["sticker_rows"] for s in row["positive"] + row["negative"]}
            assert shown == {e.data["number"] for e in signed}
            for row in page["sticker_rows"]:
                assert all(s.row == row["row"] and s.positive for s in row["positive"])
                assert all(s.row == row["row"] and not s.positive for s in row["negative"])
            marks = CampaignEvent.objects.filter(
                campaign=campaign, house=house, kind__in=["achievement_marked", "achievement_unlocked"]
            )
            assert [m.pk for m in page["marks"]] == [m.pk for m in marks.order_by("created_at", "id")]
            assert len(page["marks"]) >= NIGHTS  # one alignment mark per night at least
            assert [n["game"].number for n in page["nights"]] == [g.number for g in games]
            for night in page["nights"]:
                score = ChronicleScore.objects.get(game=night["game"], house=house)
                assert night["score"].secret_agenda == score.secret_agenda
                assert night["score"].total == score.total

            given = received = 0
            for game in games:
                session, log = _log(game)
                seat = _seat(session, house)
                given += sum(a["coins"] for a in log if a["type"] == "give_coins" and a["seat"] == seat)
                received += sum(a["coins"] for a in log if a["type"] == "give_coins" and a["to"] == seat)
            assert page["figures"]["coins_given"] == given
            assert page["figures"]["coins_received"] == received
            assert page["figures"]["dilemmas"] == 10 * NIGHTS
        total_given = sum(
            statistics_selectors.house_page(campaign=campaign, house=h)["figures"]["coins_given"]
            for h in houses
        )
        assert total_given > 0  # the nights did bargain: the figure is not a zero that cannot fail

    def test_leading_and_winning_agree_with_the_stickers_and_envelopes_signed(self, realm):
        """The Leader when the vote ended signs the sticker and opens the Envelope: the campaign
        recorded those signers from the game's result, the story tells them from the log."""
        campaign, houses, games = realm
        stories = story_selectors.night_stories(campaign=campaign)
        by_pk = {h.pk: h for h in houses}
        for game in games:
            story = stories[game.pk]
            seat_house = {h["seat"]: by_pk[h["house"]] for h in story["houses"]}
            for dilemma in story["dilemmas"]:
                for sticker in dilemma["stickers"]:
                    signed = game.stickers.get(number=sticker["number"])
                    assert signed.signer == seat_house[dilemma["resolved_by"]]
                for envelope in dilemma["envelopes"]:
                    opened = campaign.envelopes.get(number=envelope["number"])
                    assert opened.opened_by == seat_house[dilemma["resolved_by"]]
                # The side chosen is the side with more Power, or the Moderator's on a tie.
                if dilemma["undecided"] is None:
                    assert dilemma[dilemma["side"]] > dilemma["nay" if dilemma["side"] == "aye" else "aye"]
                else:
                    assert dilemma["aye"] == dilemma["nay"] and dilemma["decided_by"] is not None
            session, log = _log(game)
            assert [d["number"] for d in story["dilemmas"]] == session.state["result"]["resolved_dilemmas"]
        for house in houses:
            figures = statistics_selectors.house_page(campaign=campaign, house=house)["figures"]
            won = 0
            for game in games:
                story = stories[game.pk]
                seat = next(h["seat"] for h in story["houses"] if h["house"] == house.pk)
                won += sum(
                    1
                    for d in story["dilemmas"]
                    for v in d["votes"]
                    if v["seat"] == seat and v["vote"] == d["side"]
                )
            assert figures["won"] == won

    def test_the_page_shows_the_house_in_words(self, client, user, realm):
        campaign, houses, games = realm
        client.force_login(user)
        response = client.get(f"/campaigns/{campaign.pk}/houses/{houses[0].pk}/")
        assert response.status_code == 200
        html = response.content.decode()
        page = response.context
        assert f"<strong>{page['prestige']}</strong><span>Prestige</span>" in html
        assert f"<strong>{page['figures']['led']}</strong><span>Dilemmas led</span>" in html
        assert "Game 1" in html and "Realm Chronicles" in html
        text = _visible_text(html)
        assert not any(key in text for key in INTERNAL_KEYS), [k for k in INTERNAL_KEYS if k in text]


class StatisticsTests:
    def test_each_figure_matches_the_events(self, realm):
        campaign, houses, games = realm
        stats = statistics_selectors.realm_statistics(campaign=campaign)
        assert [n["game"].number for n in stats["nights"]] == [g.number for g in games]
        for night, game in zip(stats["nights"], games, strict=True):
            assert night["resources"] == [
                game.resources_final[r] for r in ("influence", "wealth", "morale", "welfare", "knowledge")
            ]
        ends = Counter(g.end for g in games)
        assert {r["end"]: r["count"] for r in stats["reigns"]} == {
            end: ends[end] for end in {r["end"] for r in stats["reigns"]}
        }
        signed = Counter(
            (e.data["row"], e.house_id)
            for e in CampaignEvent.objects.filter(campaign=campaign, kind="sticker_attached")
        )
        for row in stats["sticker_rows"]:
            counts = {c["house"].pk: c["count"] for c in row["counts"]}
            assert counts == {house: n for (r, house), n in signed.items() if r == row["row"]}
            if counts:
                assert {h.pk for h in row["most"]} == {
                    h for h, n in counts.items() if n == max(counts.values())
                }
        opened = CampaignEvent.objects.filter(campaign=campaign, kind="envelope_opened")
        assert [(e.number, e.opened_by_id) for e in stats["envelopes"]] == sorted(
            (o.data["number"], o.house_id) for o in opened
        )
        assert len(stats["envelopes"]) == 2  # nights 1 and 3
        assert len(stats["dilemmas"]) == 10 * NIGHTS
        for dilemma in stats["dilemmas"]:
            assert dilemma["power"] == dilemma[dilemma["side"]]
            assert dilemma["side_words"] == dilemma["side"].upper()  # one casing for data, words apart
        ties = [d for d in stats["dilemmas"] if d["undecided"] == "tie"]
        assert len(ties) == NIGHTS  # the second card of each night
        council = {c["house"].pk: c for c in stats["council"]}
        for house in houses:
            figures = statistics_selectors.house_page(campaign=campaign, house=house)["figures"]
            assert {k: council[house.pk][k] for k in figures} == figures
        assert sum(c["led"] for c in stats["council"]) == 10 * NIGHTS

    def test_the_page_and_its_charts(self, client, user, realm):
        campaign, houses, games = realm
        client.force_login(user)
        response = client.get(f"/campaigns/{campaign.pk}/statistics/")
        assert response.status_code == 200
        html = response.content.decode()
        assert "The realm's statistics" in html and "Dilemma 11" in html and "Envelope 01" in html
        text = _visible_text(html)
        assert not any(key in text for key in INTERNAL_KEYS), [k for k in INTERNAL_KEYS if k in text]
        for name in ("stickers", "council"):
            for size in ("wide", "narrow"):
                chart = client.get(f"/campaigns/{campaign.pk}/statistics/{name}.svg?size={size}")
                svg = chart.content.decode()
                assert chart.status_code == 200 and chart["Content-Type"] == "image/svg+xml"
                assert "<script" not in svg
                for house in houses:
                    assert house.colour in svg and f"House {house.name}" in svg
        assert client.get(f"/campaigns/{campaign.pk}/statistics/nope.svg").status_code == 404
        assert client.get(f"/campaigns/{campaign.pk}/statistics/stickers.svg?size=huge").status_code == 400


class NightStoryPageTests:
    def test_the_story_tells_the_night_in_the_game_s_words(self, client, user, realm):
        campaign, houses, games = realm
        client.force_login(user)
        response = client.get(f"/campaigns/{campaign.pk}/games/2/story/")
        assert response.status_code == 200
        html = response.content.decode()
        assert "The reign of King Aldric 2" in html
        assert "Dilemma 21: Dilemma 21" in html and "Shall the realm answer question 21?" in html
        assert "The council was split, 1 Power to 1" in html
        assert re.search(r"House \w+</span> voted (AYE|NAY) with 1 Power", html)
        assert "passed and gathered Power" in html and "gave 1 Coin to House" in html
        assert "The King died." in html and "The Realm Chronicles" in html
        session, _ = _log(games[1])
        for row in session.state["result"]["seats"]:
            assert row["secret_agenda"].capitalize() in html  # the night is over: they were revealed
        text = _visible_text(html)
        assert not any(key in text for key in INTERNAL_KEYS), [k for k in INTERNAL_KEYS if k in text]
        assert 'href="/static/css/story.css"' in html  # the print stylesheet

    def test_a_night_still_played_has_no_story_in_the_campaign_yet(self, client, user):
        """A night writes into the campaign only when it is saved (docs/rules-decisions.md): while it
        is played, its story (and its Secret Agendas) are on the table, not on the campaign's pages."""
        campaign, houses = campaign_with_houses("A", "B", "C", user=user)

        session = game_night_start(campaign=campaign, houses=houses, king_name="Olaf", host=user, seed=5)
        draft(session)
        play(
            session,
            None,
            "draw_dilemma",
            card={"number": 7, "title": "A harsh winter", "question": "Open the granaries?"},
        )
        client.force_login(user)
        assert client.get(f"/campaigns/{campaign.pk}/games/1/story/").status_code == 404
        assert "A harsh winter" not in client.get(f"/campaigns/{campaign.pk}/chronicles/").content.decode()

    def test_a_night_recorded_from_paper_shows_its_realm_chronicles(self, client, user):
        from tests.factories import harald_rows

        campaign, houses = campaign_with_houses(
            "Valentine", "Martina", "Armin", "Charles", "Theodore", user=user
        )
        game = game_begin(campaign=campaign, king_name="Harald V")
        game_result_record(game=game, end="king_died", rows=harald_rows(houses))
        client.force_login(user)
        response = client.get(f"/campaigns/{campaign.pk}/games/1/story/")
        assert response.status_code == 200 and "played on paper" in response.content.decode()
        assert client.get(f"/campaigns/{campaign.pk}/houses/{houses[0].pk}/").status_code == 200
        assert client.get(f"/campaigns/{campaign.pk}/statistics/").status_code == 200


class StoryLinkTests:
    def test_the_link_shows_the_story_and_nothing_else_until_revoked(self, client, user, realm):
        campaign, houses, games = realm
        client.force_login(user)
        shared = client.post(f"/campaigns/{campaign.pk}/games/1/story/share/")
        assert shared.status_code == 302
        link = StoryLink.objects.get()
        assert link.game == games[0] and link.created_by == user and len(link.token) >= 40
        assert CampaignEvent.objects.filter(campaign=campaign, kind="story_shared", game=games[0]).exists()
        again = client.post(f"/campaigns/{campaign.pk}/games/1/story/share/")
        assert again.status_code == 302 and StoryLink.objects.count() == 1  # the same link
        page = client.get(f"/campaigns/{campaign.pk}/games/1/story/").content.decode()
        assert f"/stories/{link.token}/" in page and "Stop sharing" in page
        assert "://testserver/stories/" in page  # the address the others reach, as the seat codes

        client.logout()
        response = client.get(f"/stories/{link.token}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert "The reign of King Aldric 1" in html and "Dilemma 11" in html
        assert campaign.name not in html
        assert "/campaigns/" not in html and 'href="/"' not in html and "Aldric 2" not in html
        assert response["Referrer-Policy"] == "no-referrer"

        client.force_login(user)
        revoked = client.post(f"/campaigns/{campaign.pk}/games/1/story/unshare/")
        assert revoked.status_code == 302
        assert CampaignEvent.objects.filter(campaign=campaign, kind="story_unshared").exists()
        client.logout()
        gone = client.get(f"/stories/{link.token}/")  # a revoked link says so (issue 26, item 5)
        assert gone.status_code == 410
        assert "This story link was revoked" in gone.content.decode()
        assert "Dilemma 11" not in gone.content.decode() and "seat" not in gone.content.decode()
        client.force_login(user)
        nothing = client.post(f"/campaigns/{campaign.pk}/games/1/story/unshare/", follow=True)
        assert STORY_LINK_NONE.format(number=1) in nothing.content.decode()
        new = client.post(f"/campaigns/{campaign.pk}/games/1/story/share/")
        assert new.status_code == 302
        fresh = StoryLink.objects.get(revoked_at__isnull=True)
        assert fresh.token != link.token and client.get(f"/stories/{link.token}/").status_code == 410

    def test_only_members_share_and_revoke(self, client, user, realm):
        campaign, houses, games = realm
        client.force_login(UserFactory())
        assert client.post(f"/campaigns/{campaign.pk}/games/1/story/share/").status_code == 404
        link = story_link_create(game=games[0], actor=user)
        assert client.post(f"/campaigns/{campaign.pk}/games/1/story/unshare/").status_code == 404
        client.logout()
        assert client.post(f"/campaigns/{campaign.pk}/games/1/story/unshare/").status_code == 302  # to log in
        link.refresh_from_db()
        assert link.revoked_at is None
        client.force_login(user)
        assert client.get(f"/campaigns/{campaign.pk}/games/1/story/share/").status_code == 405

    def test_unknown_tokens_are_404(self, client):
        for token in ("x", "a" * 43, "a" * 500, "../../etc"):
            assert client.get(f"/stories/{token}/").status_code == 404
        assert client.get("/stories/%00/").status_code == 400  # the one URL guard (config/input_guard.py)


class RobustnessTests:
    def test_every_new_page_answers_owner_stranger_and_anonymous_without_5xx(self, client, user, realm):
        campaign, houses, games = realm
        other, other_houses = campaign_with_houses("X", "Y", "Z", user=UserFactory(), name="Other")
        urls = {
            f"/campaigns/{campaign.pk}/houses/{houses[0].pk}/": (200, 404, 302),
            f"/campaigns/{campaign.pk}/houses/{other_houses[0].pk}/": (404, 404, 302),
            f"/campaigns/{campaign.pk}/houses/999999/": (404, 404, 302),
            "/campaigns/999999/houses/1/": (404, 404, 302),
            f"/campaigns/{campaign.pk}/statistics/": (200, 404, 302),
            "/campaigns/999999/statistics/": (404, 404, 302),
            f"/campaigns/{campaign.pk}/statistics/council.svg": (200, 404, 302),
            f"/campaigns/{campaign.pk}/games/1/story/": (200, 404, 302),
            f"/campaigns/{campaign.pk}/games/99/story/": (404, 404, 302),
            f"/campaigns/{other.pk}/games/1/story/": (404, 404, 302),
        }
        stranger = UserFactory()
        for who in (user, stranger, None):
            client.logout()
            if who is not None:
                client.force_login(who)
            column = 0 if who is user else 1 if who is stranger else 2
            for url, codes in urls.items():
                expected = codes[column]  # a campaign one is not a member of is as unknown as a missing one
                assert client.get(url).status_code == expected, (url, who)


class QueryCountTests:
    @pytest.mark.parametrize("warm", [False, True], ids=["cold cache", "warm cache"])
    def test_pages_take_as_many_queries_with_one_night_as_with_several(
        self, client, user, django_assert_max_num_queries, warm
    ):
        cache.clear()
        campaign, houses, games = campaign_of_nights(1, user=user, name="One night")
        client.force_login(user)
        pages = [
            f"/campaigns/{campaign.pk}/houses/{houses[0].pk}/",
            f"/campaigns/{campaign.pk}/statistics/",
            f"/campaigns/{campaign.pk}/games/1/story/",
        ]
        counted = {}
        for url in pages:
            if warm:
                client.get(url)
            else:
                cache.clear()
            with django_assert_max_num_queries(100) as captured:
                assert client.get(url).status_code == 200
            counted[url] = len(captured)
        for night in range(2, 5):
            night_played(campaign, houses, night, host=user)
        link = story_link_create(game=games[0], actor=user)
        for url in pages:
            if warm:
                client.get(url)
            else:
                cache.clear()
            with django_assert_max_num_queries(counted[url]):
                assert client.get(url).status_code == 200
        client.logout()
        with django_assert_max_num_queries(counted[pages[2]]):
            assert client.get(f"/stories/{link.token}/").status_code == 200


class StatisticsChartTests:
    def test_counts_are_whole_numbers_on_the_axis(self, client, user):
        campaign, houses, games = campaign_of_nights(1, user=user)
        client.force_login(user)
        for name in ("stickers", "council"):
            svg = client.get(f"/campaigns/{campaign.pk}/statistics/{name}.svg").content.decode()
            labels = re.findall(r'class="axis y[^"]*".*?</g></g>', svg, re.S)
            assert labels, name
            assert not re.search(r">\d+\.\d+</text>", labels[0]), name  # no 0.1, 0.2 ... of a sticker


class UnreadableLogTests:
    def test_a_log_the_engine_refuses_leaves_that_night_untold_and_the_pages_standing(self, client, user):
        from games.models import SessionAction

        cache.clear()
        campaign, houses, games = campaign_of_nights(2, user=user)
        broken = games[0].sessions.get().actions.filter(payload__type="draw_dilemma").order_by("seq").first()
        SessionAction.objects.filter(pk=broken.pk).update(payload={"type": "no_such_move", "seat": None})
        stories = story_selectors.night_stories(campaign=campaign)
        assert set(stories) == {games[1].pk}
        client.force_login(user)
        for url in (
            f"/campaigns/{campaign.pk}/houses/{houses[0].pk}/",
            f"/campaigns/{campaign.pk}/statistics/",
            f"/campaigns/{campaign.pk}/games/1/story/",
            f"/campaigns/{campaign.pk}/games/2/story/",
        ):
            assert client.get(url).status_code == 200, url
        stats = statistics_selectors.realm_statistics(campaign=campaign)
        assert {d["game"].number for d in stats["dilemmas"]} == {2}
