"""Issue 26, item 9: "Start a game night" offers last night's seats again, in table order, and
the Realm Chronicles and a finished night's table link to the night's story."""

import pytest
from django.urls import reverse

from campaign import forms, selectors
from campaign.services.houses import house_create
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = pytest.mark.django_db


class NightSeatsAgainTests:
    def test_the_form_offers_last_nights_houses_in_their_table_order(self):
        campaign, houses, games = campaign_of_nights(1, user=UserFactory())
        session = games[0].sessions.get()
        order = [s["house"] for s in session.config["seats"]]
        assert selectors.last_night_houses(campaign=campaign) == order
        form = forms.GameNightForm(campaign=campaign)
        assert [form.fields[f"seat{i}"].initial for i in range(len(order))] == order

    def test_before_the_first_night_nothing_is_chosen(self):
        user = UserFactory()
        campaign, _houses, _games = campaign_of_nights(0, user=user)
        assert selectors.last_night_houses(campaign=campaign) == []
        form = forms.GameNightForm(campaign=campaign)
        assert all(form.fields[f"seat{i}"].initial is None for i in range(form.SEATS))

    def test_the_night_start_page_shows_them_selected(self, client):
        user = UserFactory()
        campaign, houses, games = campaign_of_nights(1, user=user)
        house_create(campaign=campaign, name="Latecomer", number=9)
        client.force_login(user)
        html = client.get(reverse("kd-night-start", args=[campaign.pk])).content.decode()
        first = games[0].sessions.get().config["seats"][0]["house"]
        assert f'<option value="{first}" selected>' in html


class StoryLinksTests:
    def test_the_realm_chronicles_and_the_finished_table_link_to_the_story(self, client):
        user = UserFactory()
        campaign, _houses, games = campaign_of_nights(1, user=user)
        client.force_login(user)
        story = reverse("night-story", args=[campaign.pk, games[0].number])
        assert story in client.get(reverse("campaign-chronicles", args=[campaign.pk])).content.decode()
        session = games[0].sessions.get()
        table = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert "Read the story of this night" in table and story in table
