"""A player's campaign page: a member who is not the owner sees their House, tonight's seat and the
Realm board first, and the forms they may use after everything they read (a viewer gets none); the
owner keeps each form beside what it changes."""

import pytest
from django.urls import reverse

from campaign.models import Membership
from campaign.services import game_nights
from campaign.services.houses import campaign_create, house_create, membership_add
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SECTIONS = ('id="board"', 'id="houses"', 'id="latest"')
FORMS = ('id="sticker-form"', 'id="envelope-form"', 'id="story-form"', 'id="house-form"', 'id="begin-form"')


@pytest.fixture
def group():
    owner, anna, vera = (
        UserFactory(username="olga"),
        UserFactory(username="anna"),
        UserFactory(username="vera"),
    )
    campaign = campaign_create(name="Our realm", created_by=owner)
    houses = [
        house_create(campaign=campaign, name="Valentine", number=1, user=anna),
        house_create(campaign=campaign, name="Martina", number=2, user=owner),
        house_create(campaign=campaign, name="Armin", number=3, player_name="Grandpa"),
    ]
    membership_add(campaign=campaign, user=vera, role=Membership.Role.VIEWER)
    return {"owner": owner, "anna": anna, "vera": vera, "campaign": campaign, "houses": houses}


def page(client, user, campaign) -> str:
    client.force_login(user)
    response = client.get(reverse("campaign-detail", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_sees_their_house_and_the_board_first_and_the_forms_last(client, group):
    html = page(client, group["anna"], group["campaign"])
    board, houses, latest = (html.index(mark) for mark in SECTIONS)
    your_house = html.index("Your House:")
    assert your_house < board < houses < latest
    assert "House Valentine" in html[your_house:board]
    record = html.index('id="record"')
    assert latest < record
    assert all(latest < html.index(form) for form in FORMS)
    assert html.count('id="realm-board"') == 1 and html.count('id="sticker-form"') == 1


def test_tonight_s_seat_comes_before_the_board_for_a_player(client, group):
    night = game_nights.game_night_start(
        campaign=group["campaign"], houses=group["houses"], king_name="Harald V", host=group["owner"], seed=5
    )
    html = page(client, group["anna"], group["campaign"])
    seat = html.index(reverse("games:my_seat", args=[night.pk]))
    assert seat < html.index("Your House:") < html.index('id="board"')


def test_the_owner_keeps_each_form_beside_what_it_changes(client, group):
    html = page(client, group["owner"], group["campaign"])
    houses, board, stories, latest = (
        html.index(m) for m in ('id="houses"', 'id="board"', 'id="stories"', 'id="latest"')
    )
    assert houses < board < html.index('id="sticker-form"') < stories
    assert html.index('id="house-form"') < board
    assert "Your House:" not in html and 'id="record"' not in html
    assert all(html.index(form) < latest for form in FORMS)


def test_a_viewer_sees_the_board_first_and_no_form(client, group):
    html = page(client, group["vera"], group["campaign"])
    assert html.index('id="board"') < html.index('id="houses"')
    assert "Your House:" not in html and 'id="record"' not in html
    assert not [form for form in FORMS if form in html]
