"""A phone left on last night's seat: the closed seat's page points to the seat its player holds at
the campaign's night running now, through the account (never with tonight's code, which the holder
of an old code is not thereby owed), or says where the same House's code is."""

from urllib.parse import quote

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign.services import game_nights
from campaign.services.houses import campaign_create, house_create
from games.services.sessions import session_abandon
from games.tonight import TONIGHT_SAME_HOUSE, TONIGHT_SIGN_IN, TONIGHT_YOURS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def nights():
    """Last night abandoned (its seats closed) and tonight's night running, with the same Houses:
    two played by accounts, one by a typed name."""
    owner, anna, ben = UserFactory(username="olga"), UserFactory(username="anna"), UserFactory(username="ben")
    campaign = campaign_create(name="Our realm", created_by=owner)
    houses = [
        house_create(campaign=campaign, name="Valentine", number=1, user=anna),
        house_create(campaign=campaign, name="Martina", number=2, user=ben),
        house_create(campaign=campaign, name="Armin", number=3, player_name="Grandpa"),
    ]
    last = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald V", host=owner, seed=5
    )
    session_abandon(session=last)
    tonight = game_nights.game_night_start(
        campaign=campaign, houses=houses[::-1], king_name="Harald VI", host=owner, seed=6
    )
    return {"anna": anna, "last": last, "tonight": tonight}


def closed_page(client, seat) -> str:
    response = client.get(reverse("games:seat_page", args=[seat.token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "This seat is closed" in html
    return html


def test_the_player_signed_in_is_pointed_to_their_seat_tonight(client, nights):
    client.force_login(nights["anna"])
    html = closed_page(client, nights["last"].seats.get(name="Valentine"))
    assert escape(str(TONIGHT_YOURS)) in html
    assert f'href="{reverse("games:my_seat", args=[nights["tonight"].pk])}"' in html
    assert nights["tonight"].seats.get(name="Valentine").token not in html


def test_a_phone_not_signed_in_is_asked_to_sign_in_and_given_no_code(client, nights):
    html = closed_page(client, nights["last"].seats.get(name="Martina"))
    assert escape(str(TONIGHT_SIGN_IN)) in html
    assert quote(reverse("games:my_seat", args=[nights["tonight"].pk]), safe="") in html
    assert all(seat.token not in html for seat in nights["tonight"].seats.all())


def test_a_house_without_an_account_is_told_where_its_code_is(client, nights):
    html = closed_page(client, nights["last"].seats.get(name="Armin"))
    assert escape(str(TONIGHT_SAME_HOUSE).format(name="Armin")) in html
    assert all(seat.token not in html for seat in nights["tonight"].seats.all())


def test_without_a_night_running_the_closed_seat_points_nowhere(client, nights):
    session_abandon(session=nights["tonight"])
    html = closed_page(client, nights["last"].seats.get(name="Valentine"))
    assert 'id="tonight-seat"' not in html
