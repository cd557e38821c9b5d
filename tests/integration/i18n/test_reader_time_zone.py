"""Times in the reader's time zone (config/locale.py): the browser's zone, sent in a cookie by
static/js/locale.js, or the account's; a zone zoneinfo does not know is ignored, never a 500."""

import datetime

import pytest
from django.urls import reverse

from campaign.models import CampaignEvent
from config.locale import TIME_ZONE_COOKIE, valid_time_zone
from tests.factories import UserFactory, campaign_with_houses

pytestmark = pytest.mark.django_db

AFTERNOON_UTC = datetime.datetime(2026, 1, 15, 15, 55, tzinfo=datetime.UTC)


@pytest.fixture
def history(client):
    """A campaign whose one event happened at 15:55 UTC, its owner logged in: its history's URL."""
    user = UserFactory()
    campaign, _ = campaign_with_houses("Ada", user=user)
    CampaignEvent.objects.filter(campaign=campaign).update(created_at=AFTERNOON_UTC)
    client.force_login(user)
    return reverse("campaign-history", args=[campaign.pk])


class ReaderTimeZoneTests:
    def test_without_a_zone_times_are_utc(self, client, history):
        assert "01/15/2026 3:55 p.m." in client.get(history).content.decode()

    def test_the_browser_s_zone_writes_times_in_new_york_time(self, client, history):
        client.cookies[TIME_ZONE_COOKIE] = "America/New_York"
        page = client.get(history).content.decode()
        assert "01/15/2026 10:55 a.m." in page and "15:55" not in page

    @pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd", "", " UTC", "x" * 300, "Europe/"])
    def test_an_invalid_zone_cookie_is_ignored(self, client, history, zone):
        client.cookies[TIME_ZONE_COOKIE] = zone
        response = client.get(history)
        assert response.status_code == 200
        assert "01/15/2026 3:55 p.m." in response.content.decode()

    def test_the_account_s_zone_wins_over_the_browser_s(self, client, history):
        client.post(reverse("account-preferences"), {"language": "en", "time_zone": "Asia/Tokyo"})
        client.cookies[TIME_ZONE_COOKIE] = "America/New_York"
        assert "01/16/2026 12:55 a.m." in client.get(history).content.decode()

    def test_the_account_page_says_the_zone_times_are_written_in(self, client, history):
        client.cookies[TIME_ZONE_COOKIE] = "America/New_York"
        page = client.get(reverse("account-preferences")).content.decode()
        assert "Times are written in America/New_York." in page


def test_only_zones_zoneinfo_knows_are_valid():
    assert valid_time_zone("Europe/Rome") == "Europe/Rome"
    assert [valid_time_zone(z) for z in ("Europe/Nowhere", None, "", "/etc/localtime")] == [None] * 4


def test_sign_up_keeps_the_browser_s_zone_on_the_account(client):
    from campaign.models import AccountPreference

    client.cookies[TIME_ZONE_COOKIE] = "America/New_York"
    password = "a-long-secret-1"
    client.post(
        reverse("account_signup"),
        {"username": "nyc", "email": "n@example.org", "password1": password, "password2": password},
    )
    assert AccountPreference.objects.get(user__username="nyc").time_zone == "America/New_York"
