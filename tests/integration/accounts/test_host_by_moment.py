"""A night's host is who they are at the moment of each request. Every page, API operation and
event stream of a running night (the routes of tests/integration/test_every_url.py filled with the
night's ids) is requested, by GET and by an empty POST, as a player who hosts the night, then at a
later moment: the host removed from the campaign answers as a stranger is answered, the host made a
viewer as a viewer is, the phone of a host whose password was reset (its old API token) as a caller
who never logged in; and no refused call writes anything (docs/rules-decisions.md "Who may do what
in a campaign")."""

import pytest
from allauth.account.signals import password_reset
from django.test import Client, RequestFactory

from api.accounts.services import token_obtain
from campaign.services.members import membership_remove, membership_role_change
from games.models import GameSession
from tests.integration.test_every_url import Fixture, targets, written

pytestmark = [pytest.mark.database, pytest.mark.django_db]

# Routes that change the night for whoever may call them (a new seat code, the end of the night):
# refused to everyone this walk compares, they are walked too, last.
LAST = ("/new-code/", "/rotate/", "/abandon/")


@pytest.fixture
def fx(settings, tmp_path, django_capture_on_commit_callbacks):
    """test_every_url's campaign, whose running night is hosted by its player (House 1)."""
    settings.MEDIA_ROOT = tmp_path
    fixture = Fixture(tmp_path, django_capture_on_commit_callbacks)
    GameSession.objects.filter(pk=fixture.night.pk).update(host=fixture.player)
    fixture.night.refresh_from_db()
    return fixture


def night_paths(fx: Fixture) -> list[tuple[str, str]]:
    """(route, path) of every route filled with the night's own ids (its session, its seats)."""
    night_tokens = set(fx.night.seats.values_list("token", flat=True))
    found = []
    for route, path, kwargs in targets(fx, []):
        if kwargs.get("session_id") == fx.night.pk or kwargs.get("token") in night_tokens:
            found.append((route, path))
    return sorted(found, key=lambda t: t[0].endswith(LAST))


def answer(path: str, method: str, user=None, headers=None) -> int:
    client = Client()
    if user is not None:
        client.force_login(user)
    if method == "GET":
        return client.get(path, headers=headers or {}).status_code
    if path.startswith("/api/"):
        return client.post(path, {}, content_type="application/json", headers=headers or {}).status_code
    return client.post(path, {}, headers=headers or {}).status_code


def walk_as(fx: Fixture, then, now, *, then_headers=None, now_headers=None) -> list[str]:
    """Each night route as ``now`` (the host at a later moment) and as ``then`` (who they now are to
    the campaign): the same answer; a refusal writes nothing."""
    differences = []
    for route, path in night_paths(fx):
        for method in ("GET", "POST"):
            before = written()
            got = answer(path, method, now, now_headers)
            if got >= 400 and written() != before:
                differences.append(f"{method} {path}: refused ({got}), yet something was written")
            expected = answer(path, method, then, then_headers)
            if got != expected:
                differences.append(
                    f"{method} {path} ({route}): {got}, as the member they are now: {expected}"
                )
    return differences


class HostByMomentTests:
    def test_the_walk_reaches_the_night_s_table_while_its_host_plays(self, fx):
        paths = dict(night_paths(fx))
        assert len(paths) > 20, paths
        table = next(p for r, p in paths.items() if r == "play/s/<id:session_id>/")
        assert answer(table, "GET", fx.player) == 200
        assert answer(table, "GET", fx.stranger) == 404

    def test_a_host_removed_from_the_campaign_is_answered_as_a_stranger(self, fx):
        membership_remove(membership=fx.campaign.memberships.get(user=fx.player), actor=fx.owner)
        assert walk_as(fx, fx.stranger, fx.player) == []

    def test_a_host_made_a_viewer_is_answered_as_the_viewer(self, fx):
        membership = fx.campaign.memberships.get(user=fx.player)
        membership_role_change(membership=membership, role="viewer", actor=fx.owner)
        assert walk_as(fx, fx.viewer, fx.player) == []

    def test_the_phone_of_a_host_whose_password_was_reset_is_answered_as_nobody(self, fx):
        _, key = token_obtain(user=fx.player, device="The host's phone")
        old = {"Authorization": f"Token {key}"}
        password_reset.send(sender=fx.player.__class__, request=RequestFactory().get("/"), user=fx.player)
        api = [(route, path) for route, path in night_paths(fx) if path.startswith("/api/")]
        assert api
        for _, path in api:
            for method in ("GET", "POST"):
                assert answer(path, method, None, old) == answer(path, method), (method, path)
