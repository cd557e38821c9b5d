"""The campaign sheet (campaign/sheet.py): every member reads the same sheet, built from the
campaign's records, with nothing to tap on it; a stranger gets the 404 of a campaign that is not
there."""

import pytest
from django.urls import reverse

from campaign.models import Membership
from campaign.services.houses import membership_add
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    owner = UserFactory(username="olga")
    campaign, houses, games = campaign_of_nights(2, user=owner, name="Our realm")
    return owner, campaign, houses, games


def sheet(client, user, campaign):
    client.force_login(user)
    return client.get(reverse("campaign-sheet", args=[campaign.pk]))


def test_the_sheet_holds_the_board_the_houses_the_slots_and_the_chronicles(client, played):
    owner, campaign, houses, games = played
    html = sheet(client, owner, campaign).content.decode()
    for house in houses:
        house.refresh_from_db()
        assert f"House {house.name}" in html
    for sticker in campaign.stickers.filter(covered=False):
        assert f"<strong>{sticker.number}</strong>" in html
    for achievement in houses[0].achievements.all():
        assert f"{achievement.name} {achievement.marked}/{achievement.spaces}" in html
    for card in campaign.dilemma_cards.filter(place="deck"):
        assert str(card.number) in html
    for game in games:
        assert game.king_name in html
    main = html[html.index("<main>") :]
    assert "<button" not in main and "<form" not in main and "<details" not in main


def test_a_viewer_reads_the_sheet_and_a_stranger_gets_a_404(client, played):
    owner, campaign, _houses, _games = played
    vera = UserFactory(username="vera")
    membership_add(campaign=campaign, user=vera, role=Membership.Role.VIEWER)
    assert sheet(client, vera, campaign).status_code == 200
    assert sheet(client, UserFactory(username="stranger"), campaign).status_code == 404


def test_the_campaign_page_links_to_its_sheet(client, played):
    owner, campaign, _houses, _games = played
    client.force_login(owner)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert f'href="{reverse("campaign-sheet", args=[campaign.pk])}">Print sheet</a>' in html
