"""Issue 27, item 4: the story of a long night is told in pages of STORY_PAGE_CHAPTERS Dilemmas, so a
page of a night of hundreds of Dilemmas costs what a short night's story does; the API still tells
the whole night. The long night is a real night's story with its Dilemmas repeated (in the cache,
where the page reads it), so that each page's Dilemmas are known."""

import copy

import pytest
from django.core.cache import cache

from campaign import story_selectors
from campaign.services.stories import story_link_create
from campaign.story_selectors import STORY_CACHE, STORY_PAGE_CHAPTERS
from tests.story_play import campaign_of_nights

pytestmark = pytest.mark.django_db

LONG = 2 * STORY_PAGE_CHAPTERS + 5  # three pages, the last one short


@pytest.fixture
def long_night(user):
    """A night whose cached story holds LONG Dilemmas, numbered 1 to LONG in their rounds."""
    cache.clear()
    campaign, _, games = campaign_of_nights(1, user=user)
    game = games[0]
    story = story_selectors.night_stories(campaign=campaign, game=game)[game.pk]
    template = story["dilemmas"][0]
    story["dilemmas"] = [
        {**copy.deepcopy(template), "round": n, "title": f"Long {n}"} for n in range(1, LONG + 1)
    ]
    session = game.sessions.get()
    cache.set(STORY_CACHE.format(session=session.pk, version=session.version), story)
    return campaign, game


def _rounds(html: str) -> list[int]:
    return [n for n in range(1, LONG + 1) if f'id="dilemma-{n}"' in html]


class LongStoryPageTests:
    def test_each_page_tells_its_dilemmas_and_only_the_last_tells_the_end(self, client, user, long_night):
        campaign, game = long_night
        client.force_login(user)
        url = f"/campaigns/{campaign.pk}/games/{game.number}/story/"
        first = client.get(url).content.decode()
        assert _rounds(first) == list(range(1, STORY_PAGE_CHAPTERS + 1))
        assert 'id="ending"' not in first
        assert '<a href="?page=2">Dilemmas 21 to 40</a>' in first and "?page=3" in first
        last = client.get(url + "?page=3").content.decode()
        assert _rounds(last) == list(range(2 * STORY_PAGE_CHAPTERS + 1, LONG + 1))
        assert 'id="ending"' in last and "Dilemmas 41 to 45</strong>" in last

    def test_a_page_past_the_last_is_the_last_and_a_wrong_page_the_first(self, client, user, long_night):
        campaign, game = long_night
        client.force_login(user)
        url = f"/campaigns/{campaign.pk}/games/{game.number}/story/"
        assert _rounds(client.get(url + "?page=99").content.decode())[0] == 2 * STORY_PAGE_CHAPTERS + 1
        for wrong in ("abc", "-1", "0", "9" * 40):
            response = client.get(url, {"page": wrong})
            assert response.status_code == 200 and _rounds(response.content.decode())[0] == 1

    def test_the_shared_link_is_paged_too(self, client, user, long_night):
        campaign, game = long_night
        link = story_link_create(game=game, actor=user)
        page = client.get(f"/stories/{link.token}/?page=2").content.decode()
        assert _rounds(page) == list(range(STORY_PAGE_CHAPTERS + 1, 2 * STORY_PAGE_CHAPTERS + 1))

    def test_the_whole_night_without_a_page_and_a_short_night_has_no_pages(self, long_night):
        campaign, game = long_night
        whole = story_selectors.night_chapter(campaign=campaign, game=game)
        assert len(whole["chapters"]) == LONG and whole["pages"] == []
        cache.clear()  # the real night again: about ten Dilemmas, one page
        short = story_selectors.night_chapter(campaign=campaign, game=game, page=1)
        assert 0 < len(short["chapters"]) <= STORY_PAGE_CHAPTERS
        assert short["pages"] == [] and short["last_page"]
