"""Every URL answers (issue 17): each URL pattern of the project, resolved from ``get_resolver()``,
is requested with GET, with an empty POST and, where the table below has one, a valid POST, as the
campaign's owner, as another logged-in user, anonymously, as a phone holding a seat token (the API)
and, for the admin, as a superuser; with the ids of real objects and with ids that do not exist.
No answer may be a 5xx or an exception. A pattern the walker cannot fill fails the test: add its
parameters to ``FILL`` (or its path to ``LITERAL``), or exclude it in ``EXCLUDED`` with a reason."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from api.services import token_obtain
from campaign import services as campaign_services
from campaign.demo import demo_campaign_load
from campaign.models import Achievement, Campaign, CampaignExport
from campaign.services import game_night_start
from games.models import GameSession, Seat
from games.services import session_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MISSING = 999_999
CONVERTER = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")

# Patterns deliberately not walked, with the reason.
EXCLUDED: dict[str, str] = {}

# Regex patterns (no converters to fill): the paths to request for them.
LITERAL = {
    "api/^.*$": ["api/nope/", "api/sessions/x/"],
    "admin/^(?P<app_label>auth|account|campaign|games|api)/$": [
        "admin/campaign/",
        "admin/games/",
        "admin/account/",
        "admin/api/",
    ],
    # django-allauth's links from its mails: a key that does not exist (the tests of accounts follow real ones).
    "accounts/^confirm-email/(?P<key>[-:\\w]+)/$": ["accounts/confirm-email/nope/"],
    "accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$": [
        "accounts/password/reset/key/1-nope/",
        "accounts/password/reset/key/zz-set-password/",
    ],
    "admin/(?P<url>.*)$": ["admin/nope/"],
}

ADMIN_OBJECT = re.compile(r"^admin/(?P<app>\w+)/(?P<model>\w+)/<path:object_id>/")


def walk(resolver=None, prefix=""):
    """Every (route, name) of the project, in order."""
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            yield from walk(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name


class Fixture:
    """A campaign with Houses, stickers, envelopes, games, an achievement and an export; a game
    night of The King's Dilemma and a session of each other game, seats with tokens; users."""

    def __init__(self, media_root, capture):
        with capture(execute=True):
            self.campaign = demo_campaign_load()
            self.owner = self.campaign.created_by
            self.houses = list(self.campaign.houses.order_by("number"))
            self.achievement = campaign_services.achievement_create(
                house=self.houses[0], name="Walker", spaces=3
            )
            self.export = campaign_services.campaign_export_request(
                campaign=self.campaign, requested_by=self.owner
            )
        self.night = game_night_start(
            campaign=self.campaign, houses=self.houses[:3], king_name="Walker I", host=self.owner, seed=3
        )
        self.sessions = [
            self.night,
            session_create(game="for_the_king", seat_names=["Anna", "Ben"], host=self.owner, seed=5),
            session_create(
                game="council_of_four", seat_names=["Anna", "Ben"], host=self.owner, seed=5, bot_seats=[1]
            ),
        ]
        self.other = UserFactory()
        self.superuser = get_user_model().objects.create_superuser("root", "root@example.org", "secret-pass")
        self.game = self.campaign.games.order_by("-number").first()
        self.story_link = campaign_services.story_link_create(
            game=self.campaign.games.order_by("number").first(), actor=self.owner
        )
        self.device, _ = token_obtain(user=self.owner, device="Walker's phone")  # an API token
        self.invitation = campaign_services.invitation_create(campaign=self.campaign, role="viewer")
        self.members = []  # two viewers: one to change the role of, one to remove
        for _ in range(2):
            viewer = UserFactory()
            campaign_services.invitation_accept(invitation=self.invitation, user=viewer)
            self.members.append(self.campaign.memberships.get(user=viewer))
        self.answers: set[tuple[str, str, str, int]] = set()  # (route, who, method, status)

    def seat(self, session: GameSession) -> Seat:
        return session.seats.get(index=0)


def admin_ids(app: str, model: str) -> list:
    model_class = ContentType.objects.get_by_natural_key(app, model).model_class()
    first = model_class._default_manager.order_by("pk").first()
    return [first.pk if first else MISSING, MISSING, "x"]


def fillings(route: str, fx: Fixture) -> list[dict] | None:
    """The keyword sets to fill ``route`` with: real objects, then each parameter missing in turn.
    None: a parameter the walker does not know."""
    names = [m["name"] for m in CONVERTER.finditer(route)]
    if not names:
        return [{}]
    admin = ADMIN_OBJECT.match(route)
    real: list[dict] = []
    if admin:
        ids = admin_ids(admin["app"], admin["model"])
        return [{"object_id": i} for i in ids]
    if route.startswith("admin/r/"):
        ct = ContentType.objects.get_for_model(Campaign).pk
        return [
            {"content_type_id": ct, "object_id": fx.campaign.pk},
            {"content_type_id": MISSING, "object_id": 1},
        ]
    if route.startswith("admin/auth/user/<id>"):
        return [{"id": fx.owner.pk}, {"id": MISSING}]
    if route.startswith("achievements/"):
        return [{"pk": fx.achievement.pk}, {"pk": MISSING}]
    if route.startswith("stories/"):
        return [{"token": fx.story_link.token}, {"token": "nope"}]
    if route.startswith(("invitations/", "api/invitations/")):
        return [{"token": fx.invitation.token}, {"token": "nope"}]
    campaign_id = {"pk": fx.campaign.pk, "campaign_id": fx.campaign.pk}
    sessions = [fx.night] if route.startswith(("campaigns/", "api/campaigns/")) else fx.sessions
    for session in sessions:
        values = {
            **campaign_id,
            "export_id": fx.export.pk,
            "name": "prestige",
            "house_id": fx.houses[0].pk,
            "house_pk": fx.houses[0].pk,
            "number": fx.game.number,
            "achievement_id": fx.achievement.pk,
            "game_id": fx.game.pk,
            # On the demo board; an empty POST removes a sticker: the removal takes another one.
            "sticker_number": 12 if route.endswith("/remove/") else 43,
            "envelope_number": 5,
            "card_number": 14,  # in the demo's Trash
            "session_id": session.pk,
            "seat_index": 0,
            "device_id": fx.device.pk,
            "invitation_id": fx.invitation.pk,
            "member_id": fx.members[1 if route.endswith("/remove/") else 0].pk,
            "token": fx.seat(session).token,
        }
        if any(n not in values for n in names):
            return None
        real.append({n: values[n] for n in names})
    missing = [{**real[0], n: ("nope" if n in ("token", "name") else MISSING)} for n in names]
    return real + missing


def build(route: str, kwargs: dict) -> str:
    return "/" + CONVERTER.sub(lambda m: str(kwargs[m["name"]]), route)


def valid_posts(fx: Fixture) -> dict[str, object]:
    """A valid body for the forms and API operations that take one (route -> data or callable)."""
    house = fx.houses[0].pk
    return {
        "campaigns/new/": {"name": "Walked"},
        "campaigns/<id:pk>/houses/new/": {"name": "Walkers", "number": 11},
        "campaigns/<id:pk>/stickers/new/": {
            "number": 150,
            "row": "wealth",
            "positive": "1",
            "signer": house,
        },
        "campaigns/<id:pk>/envelopes/new/": {"number": 20, "dilemma_numbers": "60, 61, 62"},
        "campaigns/<id:pk>/mystery/new/": {"letter": "A"},
        "campaigns/<id:pk>/games/new/": {"king_name": "Walker II"},
        "campaigns/<id:pk>/achievements/new/": {
            "house": house,
            "kind": "gameplay",
            "name": "W",
            "spaces": 2,
        },
        "campaigns/<id:pk>/stories/new/": {"number": 40, "storyline": "Crown"},
        "campaigns/<id:pk>/stickers/<id:sticker_number>/correct/": {
            "number": 43,
            "row": "knowledge",
            "positive": "0",
            "signer": house,
        },
        "campaigns/<id:pk>/envelopes/<id:envelope_number>/correct/": {"opened_by": house, "special": "on"},
        "campaigns/<id:pk>/cards/<id:card_number>/move/": {"place": "deck"},
        "achievements/<id:pk>/mark/": {"count": 1},
        "play/": {"game": "for_the_king", "seat_1": "Anna", "seat_2": "Ben"},
        "api/auth/token/": {"username": fx.other.username, "password": "secret-pass"},
        "api/campaigns/create/": {"name": "Walked by API"},
        "api/campaigns/<id:campaign_id>/houses/create/": {"name": "Apiwalk", "number": 12},
        "api/campaigns/<id:campaign_id>/stickers/attach/": {
            "number": 151,
            "row": "morale",
            "positive": True,
        },
        "api/campaigns/<id:campaign_id>/envelopes/open/": {"number": 7, "dilemma_numbers": [30, 31, 32]},
        "api/campaigns/<id:campaign_id>/games/begin/": {"king_name": "Walker III"},
        "api/sessions/create/": {"game": "council_of_four", "seat_names": ["A", "B"]},
        "api/sessions/<id:session_id>/seats/<id:seat_index>/join/": {"claim": False},
        # Revoking, removing and accepting take an empty body: the empty POST of the walk is theirs.
        "campaigns/<id:pk>/invitations/new/": {"role": "player", "days": 7},
        "campaigns/<id:pk>/members/<id:member_id>/role/": {"role": "player"},
        "api/campaigns/<id:campaign_id>/invitations/": {"role": "viewer", "days": 3},
        "api/campaigns/<id:campaign_id>/members/<id:member_id>/role/": {"role": "viewer"},
    }


@pytest.fixture
def fx(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    return Fixture(tmp_path, django_capture_on_commit_callbacks)


def identities(fx: Fixture, route: str, kwargs: dict) -> list[tuple[str, object, dict]]:
    """(label, user to log in or None, extra headers) for a route."""
    missing = any(v in (MISSING, "nope", "x") for v in kwargs.values())
    who = [("owner", fx.owner, {}), ("anonymous", None, {})]
    if route.startswith("admin/"):  # owner and other are both users without staff rights
        who.append(("superuser", fx.superuser, {}))
    elif not missing:  # an id that does not exist is the same 404 for every user
        who.insert(1, ("other", fx.other, {}))
    if route.startswith("api/sessions/<id:session_id>/"):
        seat = Seat.objects.filter(session_id=kwargs.get("session_id"), index=0).first()
        if seat is not None:
            who.append(("phone", None, {"X-Seat-Token": seat.token}))
    return who


def request(fx, failures, route, path, who, user, headers, method, data=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    try:
        if method == "GET":
            response = client.get(path, headers=headers)
        elif route.startswith("api/"):
            response = client.post(path, data or {}, content_type="application/json", headers=headers)
        else:
            response = client.post(path, data or {}, headers=headers)
    except Exception as exc:
        failures.append(f"{method} {path} as {who}: {type(exc).__name__}: {exc}")
        return None
    if response.status_code >= 500:
        failures.append(f"{method} {path} as {who}: {response.status_code}")
    fx.answers.add((route, who, method, response.status_code))
    return response


def targets(fx: Fixture, unknown: list[str]):
    for route, _name in walk():
        if route in EXCLUDED:
            continue
        if route in LITERAL:
            for path in LITERAL[route]:
                yield route, "/" + path, {}
            continue
        if "(?P<" in route or "^" in route:
            unknown.append(route)
            continue
        sets = fillings(route, fx)
        if sets is None:
            unknown.append(route)
            continue
        for kwargs in sets:
            yield route, build(route, kwargs), kwargs


def test_every_url_answers_without_a_server_error(fx):
    failures: list[str] = []
    unknown: list[str] = []
    # Routes that give a seat a new token come last: the other routes keep a token that opens a seat.
    walked = sorted(targets(fx, unknown), key=lambda t: t[0].endswith(("/new-code/", "/rotate/")))
    assert not unknown, f"URL patterns the walker cannot fill (add them to FILL/LITERAL/EXCLUDED): {unknown}"
    for method in ("GET", "POST"):
        for route, path, kwargs in walked:
            for who, user, headers in identities(fx, route, kwargs):
                request(fx, failures, route, path, who, user, headers, method)
    Seat.objects.update(joined_at=None)  # the phones of the walk leave: a valid join is the host's
    posts = valid_posts(fx)
    refused: list[str] = []  # a valid form the owner sends must be accepted: the table is right
    assert set(posts) <= {route for route, _ in walk()}, "a valid form for a pattern that is gone"
    for route, path, kwargs in walked:
        if route in posts and not any(v in (MISSING, "nope") for v in kwargs.values()):
            for who, user, headers in identities(fx, route, kwargs):
                response = request(fx, failures, route, path, who, user, headers, "POST", posts[route])
                if who == "owner" and response is not None and response.status_code >= 400:
                    refused.append(f"POST {path}: {response.status_code} {response.content[:200]!r}")
    assert not failures, "\n".join(failures)
    assert not refused, "\n".join(refused)
    assert len(walked) > 150  # the walk reached the admin, the API, the pages and the phones
    # ... and real objects: the pages answered with their content, not only with 404s.
    for reached in [
        ("play/seat/<str:token>/", "anonymous", "GET", 200),
        ("play/s/<id:session_id>/", "owner", "GET", 200),
        ("campaigns/<id:pk>/", "owner", "GET", 200),
        ("api/sessions/<id:session_id>/seats/<id:seat_index>/", "phone", "GET", 200),
        ("admin/campaign/house/<path:object_id>/change/", "superuser", "GET", 200),
    ]:
        assert reached in fx.answers, reached


def test_the_walker_fails_on_a_pattern_it_cannot_fill(fx):
    assert fillings("play/s/<id:session_id>/<slug:mystery>/", fx) is None
    unknown: list[str] = []
    list(targets(fx, unknown))
    assert unknown == []


def test_the_envelope_page_opens_envelope_00_for_a_new_campaign(client):
    user = UserFactory()
    campaign = campaign_services.campaign_create(name="New", created_by=user)
    client.force_login(user)
    url = f"/campaigns/{campaign.pk}/envelopes/new/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"number": 0, "dilemma_numbers": "1, 2, 3"})
    assert response.status_code == 302
    assert campaign.envelopes.filter(number=0).exists()
    html = client.post(url, {"number": 0, "dilemma_numbers": "1, 2, 3"}).content.decode()
    assert "already" in html.lower()
    assert CampaignExport.objects.count() == 0 and Achievement.objects.count() == 0
