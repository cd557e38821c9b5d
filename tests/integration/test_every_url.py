"""Every URL answers (issue 17): each URL pattern of the project, resolved from ``get_resolver()``,
is requested with GET, with an empty POST and, where the table below has one, a valid POST, as the
campaign's owner, as another logged-in user (a stranger to the campaign), anonymously, as a phone
holding a seat token (the API) and, for the admin, as a superuser; with the ids of real objects and
with ids that do not exist. No answer may be a 5xx or an exception. A pattern the walker cannot fill
fails the test: add its parameters to ``FILL`` (or its path to ``LITERAL``), or exclude it in
``EXCLUDED`` with a reason.

The role walk (issue 24): every route of a campaign is walked as its owner, a player (linked to a
House), a viewer, a stranger and anonymously, and each answer is checked against ``CAMPAIGN_ROUTES``
(what each route needs, written here from the rules, docs/rules-decisions.md "Who may do what in a
campaign", not read from the code): a refusal is a 403 with its reason, and writes nothing."""

from __future__ import annotations

import html
import re
from typing import NamedTuple

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from api.accounts.services import token_obtain
from api.campaigns.nights import NIGHT_ABANDON_NOT_YOURS
from campaign.access import OWNER_ONLY, VIEWER_READS_ONLY
from campaign.models import (
    Achievement,
    Campaign,
    CampaignEvent,
    CampaignExport,
    ChronicleGame,
)
from campaign.services.archive.export_queue import campaign_export_request
from campaign.services.game_nights import game_night_resume, game_night_start
from campaign.services.houses import achievement_create, campaign_create
from campaign.services.members import NAME_OWN_OR_OWNER, invitation_accept, invitation_create
from campaign.services.stories import story_link_create
from games.models import GameSession, Seat, SessionAction
from games.services.sessions import session_create
from tests.factories import UserFactory, group_campaign

# On both databases: the role walk is the written table of who may do what (docs/rules-decisions.md).
pytestmark = [pytest.mark.database, pytest.mark.django_db]

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


# ---- Who may do what in a campaign (issue 24) -----------------------------------------------
# Each route of a campaign with what its GET and its POST need: "read" (any member), "play" (the
# owner or a player: what happens at the table), "own" (the owner only: corrections of past records,
# the archive, share links); None: the route does not take that method. Written from the rules,
# independently of the code's declarations: a new campaign route fails the walk until it is here.
READ, PLAY, OWN = "read", "play", "own"
# "host": the night's host (while a player) or the owner; the walk's night is the owner's, so a
# player who does not host it is refused with the night's own reason.
HOST = "host"
# "name": a member's display name, set by the owner or the member themself; the walk names the
# owner, so a player or a viewer is refused with that rule's reason.
NAME = "name"
ROLE_MAY = {
    "owner": {READ, PLAY, OWN, HOST, NAME},
    "player": {READ, PLAY},
    "viewer": {READ},
    "stranger": set(),
}
CAMPAIGN_PREFIXES = ("campaigns/<id:pk>/", "api/campaigns/<id:campaign_id>/", "achievements/<id:pk>/mark/")
PAGE_FORMS = (  # a form page is for those who may send it
    "houses/new/",
    "stickers/new/",
    "envelopes/new/",
    "mystery/new/",
    "night/new/",
    "night/<id:session_id>/save/",
    "games/new/",
    "achievements/new/",
    "stories/new/",
    "envelopes/first/",
)
PAGE_CORRECTIONS = (
    "games/<id:number>/correct/",
    "stickers/<id:sticker_number>/correct/",
    "envelopes/<id:envelope_number>/correct/",
    "cards/<id:card_number>/move/",
    "stickers/<id:sticker_number>/aging/",
    "night/<id:session_id>/resume/",  # the owner's choice, as the corrections
)
API_READS = (
    "",
    "houses/",
    "houses/<id:house_id>/",
    "board/",
    "envelopes/",
    "storylines/",
    "save-slots/",
    "games/",
    "games/<id:game_id>/",
    "history/",
    "houses/<id:house_id>/page/",
    "statistics/",
    "games/<id:game_id>/story/",
)
API_PLAYS = (
    "houses/create/",
    "achievements/<id:achievement_id>/mark/",
    "stickers/attach/",
    "envelopes/open/",
    "mystery-stickers/attach/",
    "games/begin/",
    "games/<id:game_id>/result/",
    "nights/start/",
    "nights/<id:session_id>/save/",
)
API_OWNS = (
    "games/<id:game_id>/result/correct/",
    "stickers/<id:sticker_number>/correct/",
    "stickers/<id:sticker_number>/remove/",
    "envelopes/<id:envelope_number>/correct/",
    "envelopes/<id:envelope_number>/remove/",
    "cards/<id:card_number>/move/",
    "games/<id:game_id>/story/share/",
    "games/<id:game_id>/story/share/revoke/",
    "export/",  # the archive holds the whole campaign, as on the page
    "stickers/<id:sticker_number>/aging/",
    "nights/<id:session_id>/resume/",
)
PAGE, API = "campaigns/<id:pk>/", "api/campaigns/<id:campaign_id>/"
CAMPAIGN_ROUTES: dict[str, tuple[str | None, str | None]] = {
    PAGE: (READ, None),
    PAGE + "export/": (None, OWN),
    PAGE + "exports/<id:export_id>/retry/": (None, OWN),
    PAGE + "exports/<id:export_id>/": (OWN, None),  # the archive holds the whole campaign
    API + "exports/<id:export_id>/": (OWN, None),
    API + "exports/<id:export_id>/download/": (OWN, None),
    PAGE + "charts/<str:name>.svg": (READ, None),
    PAGE + "history/": (READ, None),
    PAGE + "sheet/": (READ, None),  # the printable sheet: what the campaign page shows, on paper
    PAGE + "chronicles/": (READ, PLAY),  # the Realm Chronicles; a player records a night's result
    API + "nights/<id:session_id>/abandon/": (None, HOST),
    # A player may ask; the night's rule then says whether they take the table (the walk's night is
    # the owner's, who still plays: refused with its reason, nothing written).
    PAGE + "night/<id:session_id>/take-over/": (None, PLAY),
    API + "nights/<id:session_id>/take-over/": (None, PLAY),
    PAGE + "houses/<id:house_pk>/": (READ, None),
    PAGE + "statistics/": (READ, None),
    PAGE + "statistics/<str:name>.svg": (READ, None),
    PAGE + "games/<id:number>/story/": (READ, None),
    PAGE + "games/<id:number>/story/share/": (None, OWN),
    PAGE + "games/<id:number>/story/unshare/": (None, OWN),
    "achievements/<id:pk>/mark/": (None, PLAY),
    **{PAGE + route: (PLAY, PLAY) for route in PAGE_FORMS},
    **{PAGE + route: (OWN, OWN) for route in PAGE_CORRECTIONS},
    **{API + route: (READ, None) for route in API_READS},
    **{API + route: (None, PLAY) for route in API_PLAYS},
    **{API + route: (None, OWN) for route in API_OWNS},
    # Members and invitations: everyone sees who plays; the owner invites and manages them.
    PAGE + "members/": (READ, None),
    PAGE + "invitations/new/": (None, OWN),
    PAGE + "invitations/<id:invitation_id>/revoke/": (None, OWN),
    PAGE + "members/<id:member_id>/role/": (None, OWN),
    PAGE + "members/<id:member_id>/remove/": (None, OWN),
    PAGE + "members/<id:member_id>/house/": (None, OWN),
    PAGE + "members/<id:member_id>/name/": (None, NAME),
    API + "members/": (READ, None),
    API + "invitations/": (OWN, OWN),  # the links are secrets: only the owner lists them
    API + "invitations/<id:invitation_id>/revoke/": (None, OWN),
    API + "members/<id:member_id>/role/": (None, OWN),
    API + "members/<id:member_id>/remove/": (None, OWN),
    API + "members/<id:member_id>/house/": (None, OWN),
    API + "members/<id:member_id>/name/": (None, NAME),
}
ROLE_WALKERS = ("owner", "player", "viewer", "stranger", "anonymous")


def is_campaign_route(route: str) -> bool:
    return route.startswith(CAMPAIGN_PREFIXES)


def unclassified(routes) -> list[str]:
    """Campaign routes the table above does not say anything about."""
    return [r for r in routes if is_campaign_route(r) and r not in CAMPAIGN_ROUTES]


class Answer(NamedTuple):
    status: int
    text: str  # the body (HTML unescaped), or the API's message
    location: str = ""


def answer_of(response) -> Answer:
    if getattr(response, "streaming", False):  # a file (the archive)
        text = ""
    elif response.get("Content-Type", "").startswith("application/json") and response.content:
        body = response.json()
        text = str(body.get("message", "")) if isinstance(body, dict) else ""
    else:
        text = html.unescape(response.content.decode(errors="replace"))
    return Answer(response.status_code, text, response.get("Location", ""))


def unexpected(route: str, who: str, method: str, answer: Answer, *, valid: bool, wrote: bool) -> str | None:
    """What is wrong with ``answer`` to ``who``'s ``method`` on a campaign route (None: as the
    rules say). ``valid``: the POST carried a valid body; ``wrote``: something changed."""
    need = CAMPAIGN_ROUTES[route][0 if method == "GET" else 1]
    api = route.startswith("api/")
    status = answer.status
    if who == "anonymous":
        to_login = status == 302 and answer.location.startswith(resolve_url(django_settings.LOGIN_URL))
        ok = status == 401 if api else to_login
        return None if ok and not wrote else f"anonymous must log in first, got {status}"
    if not api and need is None:  # the page does not take this method, whoever asks
        return None if status == 405 and not wrote else f"405 expected, got {status}"
    # The API checks the role before the method: an owner's route is the owner's whatever the method;
    # else reading for a GET, playing for a POST.
    checked = need or (OWN if OWN in CAMPAIGN_ROUTES[route] else READ if method == "GET" else PLAY)
    if who == "stranger":
        return None if status == 404 and not wrote else f"a stranger gets 404, got {status}"
    if checked not in ROLE_MAY[who]:
        reason = {OWN: OWNER_ONLY, HOST: NIGHT_ABANDON_NOT_YOURS, NAME: NAME_OWN_OR_OWNER}.get(
            checked, VIEWER_READS_ONLY
        )
        reason = VIEWER_READS_ONLY if who == "viewer" and checked == HOST else reason
        if status != 403:
            return f"refused with 403 expected, got {status}"
        if str(reason) not in answer.text:  # str(): a lazy message
            return f"403 without its reason {reason!r}"
        return "refused, yet something was written" if wrote else None
    if need is None:
        return None if status == 405 else f"405 expected, got {status}"
    if status in (401, 403, 404):
        return f"allowed, yet refused with {status}"
    if (method == "GET" or valid) and status >= 400:
        return f"accepted expected, got {status}"
    return None


class Fixture:
    """A campaign with Houses, stickers, envelopes, games, an achievement and an export; a game
    night of The King's Dilemma and a session of each other game, seats with tokens; users: the
    campaign's owner (not the demo account: the demo creates no campaign), a player who plays a
    House, a viewer, a stranger, a superuser."""

    def __init__(self, media_root, capture):
        self.owner = UserFactory()
        self.player = UserFactory()
        self.viewer = UserFactory()
        with capture(execute=True):
            self.campaign = group_campaign(self.owner, player=self.player, viewer=self.viewer)
            self.houses = list(self.campaign.houses.order_by("number"))
            self.achievement = achievement_create(house=self.houses[0], name="Walker", spaces=3)
            self.export = campaign_export_request(campaign=self.campaign, requested_by=self.owner)
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
        self.stranger = UserFactory()
        self.superuser = get_user_model().objects.create_superuser("root", "root@example.org", "secret-pass")
        self.game = self.campaign.games.order_by("-number").first()
        self.recorded = self.campaign.games.filter(recorded=True).order_by("-number").first()
        self.story_link = story_link_create(
            game=self.campaign.games.order_by("number").first(), actor=self.owner
        )
        self.device, _ = token_obtain(user=self.owner, device="Walker's phone")  # an API token
        self.invitation = invitation_create(campaign=self.campaign, role="viewer")
        self.members = []  # viewers: one to change the role of, one to remove by page, one by the API
        for _ in range(3):
            viewer = UserFactory()
            invitation_accept(invitation=self.invitation, user=viewer)
            self.members.append(self.campaign.memberships.get(user=viewer))
        self.answers: set[tuple[str, str, str, int]] = set()  # (route, who, method, status)
        self.role_failures: list[str] = []  # answers a role should not get (``unexpected``)
        self.kwargs_of: dict[str, dict] = {}  # path -> what filled it

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
            "name": "stickers" if "/statistics/" in route else "prestige",
            "house_id": fx.houses[0].pk,
            "house_pk": fx.houses[0].pk,
            "number": (fx.recorded if route.endswith("/correct/") else fx.game).number,
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
            "member_id": fx.members[
                (2 if route.startswith("api/") else 1) if route.endswith("/remove/") else 0
            ].pk,
            "token": fx.seat(session).token,
        }
        if any(n not in values for n in names):
            return None
        real.append({n: values[n] for n in names})
    missing = [{**real[0], n: ("nope" if n in ("token", "name") else MISSING)} for n in names]
    return real + missing


def build(route: str, kwargs: dict) -> str:
    return "/" + CONVERTER.sub(lambda m: str(kwargs[m["name"]]), route)


def valid_posts(fx: Fixture, n: int = 0) -> dict[str, dict]:
    """A valid body for the forms and API operations that take one (route -> data). ``n``: the
    how-manieth identity sends it, so each one's House, sticker, Envelope... is a new one."""
    house = fx.houses[0].pk
    return {
        "campaigns/new/": {"name": "Walked"},
        "campaigns/<id:pk>/houses/new/": {"name": f"Walkers{n}", "number": 11 - 2 * n},
        "campaigns/<id:pk>/stickers/new/": {
            "number": 150 + 2 * n,
            "row": "wealth",
            "positive": "1",
            "signer": house,
        },
        "campaigns/<id:pk>/envelopes/new/": {
            "number": 20 + n,
            "dilemma_numbers": ", ".join(str(60 + 3 * n + i) for i in range(3)),
        },
        "campaigns/<id:pk>/mystery/new/": {"letter": "AB"[n]},
        # A game begun on paper is refused while the walk's night runs at the table (one night at
        # a time, docs/rules-decisions.md): tests/integration/campaign/test_one_night.py sends it.
        "campaigns/<id:pk>/achievements/new/": {
            "house": house,
            "kind": "gameplay",
            "name": "W",
            "spaces": 2,
        },
        "campaigns/<id:pk>/stories/new/": {"number": 40 + n, "storyline": "Crown"},
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
        "api/auth/token/": {"username": fx.stranger.username, "password": "secret-pass"},
        "api/campaigns/create/": {"name": "Walked by API"},
        "api/campaigns/<id:campaign_id>/houses/create/": {"name": f"Apiwalk{n}", "number": 12 - 2 * n},
        "api/campaigns/<id:campaign_id>/stickers/attach/": {
            "number": 151 + 2 * n,
            "row": "morale",
            "positive": True,
        },
        "api/campaigns/<id:campaign_id>/envelopes/open/": {
            "number": 7 + n,
            "dilemma_numbers": [30 + 3 * n + i for i in range(3)],
        },
        "api/sessions/create/": {"game": "council_of_four", "seat_names": ["A", "B"]},
        "api/sessions/<id:session_id>/seats/<id:seat_index>/join/": {"claim": False},
        # Revoking, removing and accepting take an empty body: the empty POST of the walk is theirs.
        "campaigns/<id:pk>/invitations/new/": {"role": "player", "days": 7},
        "campaigns/<id:pk>/members/<id:member_id>/role/": {"role": "player"},
        "api/campaigns/<id:campaign_id>/invitations/": {"role": "viewer", "days": 3},
        "api/campaigns/<id:campaign_id>/members/<id:member_id>/role/": {"role": "viewer"},
        "campaigns/<id:pk>/members/<id:member_id>/name/": {"display_name": "Zoé"},
        "api/campaigns/<id:campaign_id>/members/<id:member_id>/house/": {"house": None},
        "api/campaigns/<id:campaign_id>/members/<id:member_id>/name/": {"display_name": "Zoé"},
    }


@pytest.fixture
def fx(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    return Fixture(tmp_path, django_capture_on_commit_callbacks)


def is_missing(kwargs: dict) -> bool:
    return any(v in (MISSING, "nope", "x") for v in kwargs.values())


def identities(fx: Fixture, route: str, kwargs: dict) -> list[tuple[str, object, dict]]:
    """(label, user to log in or None, extra headers) for a route."""
    who = [("owner", fx.owner, {}), ("anonymous", None, {})]
    if route.startswith("admin/"):  # owner and stranger are both users without staff rights
        who.append(("superuser", fx.superuser, {}))
    elif is_missing(kwargs):  # an id that does not exist is the same 404 for every user
        pass
    elif is_campaign_route(route):  # the role walk
        who[1:1] = [("player", fx.player, {}), ("viewer", fx.viewer, {}), ("stranger", fx.stranger, {})]
    else:
        who.insert(1, ("stranger", fx.stranger, {}))
    if route.startswith("api/sessions/<id:session_id>/"):
        seat = Seat.objects.filter(session_id=kwargs.get("session_id"), index=0).first()
        if seat is not None:
            who.append(("phone", None, {"X-Seat-Token": seat.token}))
    return who


def written() -> tuple:
    """What a write would change: each campaign service writes an event in the history; a night
    writes its session, its actions and its game; a mark or a move changes a number in place."""
    return (
        CampaignEvent.objects.order_by("-pk").values_list("pk", flat=True).first(),
        GameSession.objects.count(),
        SessionAction.objects.count(),
        ChronicleGame.objects.count(),
        sum(GameSession.objects.values_list("version", flat=True)),
        sum(Achievement.objects.values_list("marked", flat=True)),
    )


def request(fx, failures, route, path, who, user, headers, method, data=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    roles = is_campaign_route(route) and not is_missing(fx.kwargs_of.get(path, {}))
    before = written() if roles and method == "POST" else None
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
    if roles and route in CAMPAIGN_ROUTES:
        answer = answer_of(response)
        wrong = unexpected(
            route,
            who,
            method,
            answer,
            valid=data is not None,
            wrote=before is not None and written() != before,
        )
        if wrong:
            fx.role_failures.append(f"{method} {path} as {who}{' (valid)' if data else ''}: {wrong}")
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
            path = build(route, kwargs)
            fx.kwargs_of[path] = kwargs
            yield route, path, kwargs


def test_every_url_answers_without_a_server_error_and_as_each_role_may(fx):
    failures: list[str] = []
    unknown: list[str] = []
    # Routes that give a seat a new token come last: the other routes keep a token that opens a seat.
    walked = sorted(targets(fx, unknown), key=lambda t: t[0].endswith(("/new-code/", "/rotate/")))
    assert not unknown, f"URL patterns the walker cannot fill (add them to FILL/LITERAL/EXCLUDED): {unknown}"
    routes = {route for route, _ in walk()}
    assert not unclassified(routes), (
        f"campaign routes with no role in CAMPAIGN_ROUTES: {unclassified(routes)}"
    )
    assert set(CAMPAIGN_ROUTES) <= routes, "CAMPAIGN_ROUTES names a route that is gone"
    for method in ("GET", "POST"):
        for route, path, kwargs in walked:
            for who, user, headers in identities(fx, route, kwargs):
                request(fx, failures, route, path, who, user, headers, method)
    Seat.objects.update(joined_at=None)  # the phones of the walk leave: a valid join is the host's
    fx.night.refresh_from_db()
    if fx.night.status == GameSession.Status.ABANDONED:  # the owner's empty POST abandoned it
        game_night_resume(session=fx.night, actor=fx.owner)
    refused: list[str] = []  # a valid form the owner sends must be accepted: the table is right
    assert set(valid_posts(fx)) <= routes, "a valid form for a pattern that is gone"
    for route, path, kwargs in walked:
        if route in valid_posts(fx) and not is_missing(kwargs):
            for n, (who, user, headers) in enumerate(identities(fx, route, kwargs)):
                data = valid_posts(fx, min(n, 1))[route]
                response = request(fx, failures, route, path, who, user, headers, "POST", data)
                if who == "owner" and response is not None and response.status_code >= 400:
                    refused.append(f"POST {path}: {response.status_code} {response.content[:200]!r}")
    assert not failures, "\n".join(failures)
    assert not refused, "\n".join(refused)
    assert not fx.role_failures, "\n".join(fx.role_failures)
    assert len(walked) > 150  # the walk reached the admin, the API, the pages and the phones
    # ... and real objects: the pages answered with their content, not only with 404s.
    for reached in [
        ("play/seat/<str:token>/", "anonymous", "GET", 200),
        ("play/s/<id:session_id>/", "owner", "GET", 200),
        ("campaigns/<id:pk>/", "owner", "GET", 200),
        ("campaigns/<id:pk>/", "viewer", "GET", 200),
        ("campaigns/<id:pk>/", "stranger", "GET", 404),
        ("campaigns/<id:pk>/export/", "player", "POST", 403),
        ("api/campaigns/<id:campaign_id>/stickers/attach/", "player", "POST", 201),
        ("api/campaigns/<id:campaign_id>/stickers/attach/", "viewer", "POST", 403),
        ("api/campaigns/<id:campaign_id>/export/", "owner", "POST", 202),
        ("api/campaigns/<id:campaign_id>/export/", "player", "POST", 403),
        ("api/campaigns/<id:campaign_id>/exports/<id:export_id>/download/", "owner", "GET", 200),
        ("api/sessions/<id:session_id>/seats/<id:seat_index>/", "phone", "GET", 200),
        ("admin/campaign/house/<path:object_id>/change/", "superuser", "GET", 200),
        # The installable app's files answer everyone, and refuse a POST (config/pwa.py).
        ("manifest.webmanifest", "anonymous", "GET", 200),
        ("sw.js", "stranger", "GET", 200),
        ("favicon.ico", "anonymous", "GET", 200),
        ("offline/", "owner", "GET", 200),
        ("sw.js", "anonymous", "POST", 405),
    ]:
        assert reached in fx.answers, reached


def test_the_walker_fails_on_a_pattern_it_cannot_fill(fx):
    assert fillings("play/s/<id:session_id>/<slug:mystery>/", fx) is None
    unknown: list[str] = []
    list(targets(fx, unknown))
    assert unknown == []


def test_the_role_walk_fails_on_a_campaign_route_it_cannot_classify():
    routes = {
        "campaigns/<id:pk>/",
        "campaigns/<id:pk>/members/new/",
        "api/campaigns/<id:campaign_id>/houses/<id:house_id>/retire/",
        "play/",
        "api/campaigns/create/",
    }
    assert set(unclassified(routes)) == {
        "campaigns/<id:pk>/members/new/",
        "api/campaigns/<id:campaign_id>/houses/<id:house_id>/retire/",
    }


def test_the_role_walk_reports_an_answer_a_role_should_not_get():
    """The expectation check on fabricated answers: a role check removed, a refusal without its
    reason or one that wrote anyway, a stranger told that the campaign exists, are all reported."""
    export = PAGE + "export/"
    attach = API + "stickers/attach/"
    correct = API + "stickers/<id:sticker_number>/correct/"
    ok, wrote = {"valid": True, "wrote": False}, {"valid": True, "wrote": True}
    # As the rules say: nothing to report.
    assert unexpected(export, "owner", "POST", Answer(302, ""), **ok) is None
    assert unexpected(export, "player", "POST", Answer(403, f"<p>{OWNER_ONLY}</p>"), **ok) is None
    assert unexpected(attach, "viewer", "POST", Answer(403, VIEWER_READS_ONLY), **ok) is None
    assert unexpected(attach, "player", "POST", Answer(201, ""), **wrote) is None
    assert unexpected(PAGE, "stranger", "GET", Answer(404, ""), **ok) is None
    assert unexpected(PAGE, "anonymous", "GET", Answer(302, "", "/accounts/login/?next=/"), **ok) is None
    assert unexpected(attach, "anonymous", "POST", Answer(401, ""), **ok) is None
    # A role check removed: the player exports, the viewer attaches, the player corrects.
    assert "403 expected, got 302" in unexpected(export, "player", "POST", Answer(302, ""), **wrote)
    assert "403 expected, got 201" in unexpected(attach, "viewer", "POST", Answer(201, ""), **wrote)
    assert "403 expected, got 200" in unexpected(correct, "player", "POST", Answer(200, ""), **wrote)
    # A refusal without its reason, or one that wrote anyway.
    assert "without its reason" in unexpected(attach, "viewer", "POST", Answer(403, "Forbidden"), **ok)
    assert "written" in unexpected(attach, "viewer", "POST", Answer(403, VIEWER_READS_ONLY), **wrote)
    # A stranger learns the campaign exists; anonymous sees it; the owner is refused a valid form.
    assert "404" in unexpected(PAGE, "stranger", "GET", Answer(403, ""), **ok)
    assert "log in" in unexpected(PAGE, "anonymous", "GET", Answer(200, ""), **ok)
    assert "accepted expected" in unexpected(attach, "owner", "POST", Answer(400, ""), **ok)
    assert "refused with 403" in unexpected(PAGE, "viewer", "GET", Answer(403, ""), **ok)


def test_the_envelope_page_opens_envelope_00_for_a_new_campaign(client):
    user = UserFactory()
    campaign = campaign_create(name="New", created_by=user)
    client.force_login(user)
    url = f"/campaigns/{campaign.pk}/envelopes/new/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"number": 0, "dilemma_numbers": "1, 2, 3"})
    assert response.status_code == 302
    assert campaign.envelopes.filter(number=0).exists()
    html = client.post(url, {"number": 0, "dilemma_numbers": "1, 2, 3"}).content.decode()
    assert "already" in html.lower()
    assert CampaignExport.objects.count() == 0 and Achievement.objects.count() == 0
