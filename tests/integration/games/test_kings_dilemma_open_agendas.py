"""Open Agendas in front of each House (issue 26): the engine assigns them at a campaign night (rulebook
"Assign Open Agendas": "Place any Open Agenda tokens you have received in front of your House screen,
so that all players can always see them"); the table's House chips, the House's own phone and the
night's story say them in words, with what they score ("B. Open Agenda tokens")."""

import re

import pytest
from django.urls import reverse

from campaign.services import game_nights
from campaign.services.stickers import sticker_attach
from games.engines.kings_dilemma.scoring import open_agenda_words
from tests.factories import campaign_with_houses
from tests.story_play import night_played

pytestmark = [pytest.mark.database, pytest.mark.django_db]

WEALTH = "Open Agenda: Positive Wealth (up to 3 points)"
MORALE = "Open Agenda: Negative Morale (loses up to 3 points)"
WEALTH_RULE = "gains 3 points if Wealth is the highest Resource at the end of the game, 1 point if it is the second highest"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def chip(page: str, name: str) -> str:
    """The words of the House chip named ``name`` on a board."""
    chips = re.findall(r'<li class="seat-chip[^"]*"[^>]*>(.*?)\n      </li>', page, re.S)
    return text(next(c for c in chips if f"</span>{name}" in c))


@pytest.fixture
def night(user):
    """Anna signed a Positive Wealth sticker, Ben a Negative Morale one: each holds that token."""
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=user)
    sticker_attach(campaign=campaign, number=1, row="wealth", positive=True, signer=houses[0])
    sticker_attach(campaign=campaign, number=2, row="morale", positive=False, signer=houses[1])
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald V", host=user, seed=5
    )
    return session


class OpenAgendaWordsTests:
    def test_the_rulebook_s_points_in_words(self):
        """'B. Open Agenda tokens': Positive, highest 3 points or second highest 1; Negative, lowest
        -3 or second lowest -1."""
        positive = open_agenda_words({"row": "wealth", "positive": True})
        assert (positive["name"], positive["short"], positive["rule"]) == (
            "Positive Wealth",
            "Positive Wealth (up to 3 points)",
            WEALTH_RULE,
        )
        negative = open_agenda_words({"row": "morale", "positive": False})
        assert negative["short"] == "Negative Morale (loses up to 3 points)"
        assert negative["rule"] == (
            "loses 3 points if Morale is the lowest Resource at the end of the game, 1 point if it is the second lowest"
        )


class OpenAgendaPagesTests:
    def test_the_table_shows_each_house_s_tokens_on_its_chip(self, client, user, night):
        held = [[(t["row"], t["positive"]) for t in s["open_agendas"]] for s in night.state["seats"]]
        assert held == [[("wealth", True)], [("morale", False)], []]  # the engine assigned them
        client.force_login(user)
        page = client.get(reverse("games:session_table", args=[night.pk])).content.decode()
        assert WEALTH in chip(page, "Anna") and MORALE not in chip(page, "Anna")
        assert MORALE in chip(page, "Ben")
        assert "Open Agenda" not in chip(page, "Cora")

    def test_a_phone_shows_its_own_tokens_behind_the_screen_and_everyone_s_on_the_chips(self, client, night):
        anna = client.get(reverse("games:seat_page", args=[night.seats.get(index=0).token])).content.decode()
        assert "Your Open Agendas" in anna and f"Positive Wealth</strong>: {WEALTH_RULE}." in anna
        ben = client.get(reverse("games:seat_page", args=[night.seats.get(index=1).token])).content.decode()
        assert WEALTH in chip(ben, "Anna")  # in front of Anna's screen: Ben sees it too
        assert "Your Open Agendas" in ben and "Negative Morale</strong>: loses 3 points" in ben
        cora = client.get(reverse("games:seat_page", args=[night.seats.get(index=2).token])).content.decode()
        assert "Your Open Agendas" not in cora


class OpenAgendaStoryTests:
    def test_the_story_tells_each_house_s_open_agendas(self, client, user):
        campaign, houses = campaign_with_houses("Valentine", "Martina", "Armin", "Charles", user=user)
        sticker_attach(campaign=campaign, number=170, row="wealth", positive=True, signer=houses[1])
        game, _ = night_played(campaign, houses, 1, host=user)
        client.force_login(user)
        page = client.get(reverse("night-story", args=[campaign.pk, game.number])).content.decode()
        assert "In front of their screens, the Open Agendas:" in page
        assert f"House Martina</span>: Positive Wealth ({WEALTH_RULE})." in page
        assert "House Valentine</span>:" not in page


class StoryTokensTests:
    def test_a_house_holding_both_tokens_is_named_once(self):
        """Issue 26: "House Humblescore held the Leader token and House Humblescore the Moderator's"."""
        from types import SimpleNamespace

        from django.template.loader import render_to_string

        house = {"seat": 0, "name": "Humblescore", "colour": "#4e79a7", "open_agendas": []}
        other = {**house, "seat": 1, "name": "Tork"}
        chapter = {"round": 1, "number": 12, "title": "Bread taxes", "leader": house, "moderator": house}
        game = SimpleNamespace(number=1, played_on=None, king_name="Harald V")
        story = {"houses": [house, other], "open_agendas": [], "chapters": [chapter]}
        page = text(render_to_string("campaign/_story.html", {"game": game, "story": story}))
        assert "House Humblescore held both the Leader and the Moderator tokens." in page
        assert "the Moderator's" not in page
        chapter["moderator"] = other
        page = text(render_to_string("campaign/_story.html", {"game": game, "story": story}))
        assert "House Humblescore held the Leader token and House Tork the Moderator's." in page


class SecretAgendaDraftWordsTests:
    def test_each_card_offered_reads_as_sentences(self):
        """Issue 26: "Opulent: rows 9-17 -> 0/4/7/10/14/15 · Coins 6/4/2"; rulebook "Secret Agenda
        cards" (points from the data file)."""
        from games.presenters.kings_dilemma import agenda_short

        assert agenda_short("opulent") == (
            "Opulent: Resources in rows 9 to 17 score 4 points for one, 7 for two, 10 for three, "
            "14 for four, 15 for all five. Most Coins 6 points, second 4, third 2."
        )
        assert agenda_short("greedy").startswith(
            "Greedy: Resources in rows 1 to 5 or 13 to 17 score 4 points for none, 7 for one,"
        )
        assert agenda_short("extremist") == (
            "Extremist: scores the distance between the highest and the lowest Resource, in points. "
            "Most Coins 4 points, second 2, third 1."
        )

    def test_the_drafting_phone_offers_them_in_words(self, client, night):
        from games.engines.kings_dilemma.player_view import view

        drafting = view(night.state, None)["to_act"][0]
        seat = night.seats.get(index=drafting)
        page = text(client.get(reverse("games:seat_page", args=[seat.token])).content.decode())
        decision = page.split("Your decision", 1)[1].split("Behind your screen", 1)[0]
        assert "Resources in rows" in decision or "highest and the lowest Resource" in decision
        assert "Most Coins" in decision and "→" not in decision and "·" not in decision
