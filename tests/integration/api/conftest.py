import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaign import services
from tests.factories import HARALD, HARALD_AGENDAS, UserFactory, campaign_with_houses
from tests.factories import harald_rows as factory_harald_rows

AGENDAS = HARALD_AGENDAS


def harald_rows(houses, agendas=AGENDAS):
    """The King Harald V Realm Chronicles table as an API body (House ids)."""
    return factory_harald_rows(houses, agendas, house_key=lambda h: h.pk)


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def host(db):
    return UserFactory(username="host")


@pytest.fixture
def harald(host):
    """A campaign of five Houses (the King Harald V table), its first game begun."""
    campaign, houses = campaign_with_houses(*[n for n, *_ in HARALD], user=host, name="Harald")
    game = services.game_begin(campaign=campaign, king_name="Harald V")
    return campaign, houses, game


@pytest.fixture
def api(host) -> APIClient:
    """The host of the Harald campaign, authenticated with a token."""
    return token_client(host)


@pytest.fixture
def stranger(db) -> APIClient:
    """A member of another campaign only."""
    user = UserFactory(username="stranger")
    campaign_with_houses("Elsewhere", user=user, name="Another campaign")
    return token_client(user)


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()
