"""Whole games with a bot, played through the pages: the host starts the session with the form on
/play/, the human seats tap their phones' action buttons, the bot answers by itself (Celery runs
eagerly without Redis, after each commit), and the result shows on the table page."""

import html
import json
import re

import pytest
from django.urls import reverse

from games.models import GameSession
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MAX_TAPS = 1500
BUTTON = re.compile(
    r'name="action" value="(?P<action>[^"]*)">\s*'
    r'<input type="hidden" name="version" value="(?P<version>\d+)">\s*'
    r'<input type="hidden" name="key" value="(?P<key>[^"]*)">'
)

# The humans' simple policy: the first button of the most preferred type (so that games end).
FTK_PREFERENCE = ["draw", "place", "choose", "king_card", "reveal", "pass", "pay_gold", "discard"]
C4_PREFERENCE = [
    "draw",
    "choose_city_bonus",
    "choose_permit_bonus",
    "take_free_permit",
    "build",
    "acquire_permit",
    "elect",
    "end_turn",
]


def buttons(page) -> list[dict]:
    return [
        {
            "action": json.loads(html.unescape(m["action"])),
            "version": int(m["version"]),
            "key": html.unescape(m["key"]),
        }
        for m in BUTTON.finditer(page.content.decode())
    ]


def pick(found: list[dict], preference: list[str]) -> dict:
    rank = {t: i for i, t in enumerate(preference)}
    return min(found, key=lambda b: rank.get(b["action"]["type"], len(rank)))


def start(client, capture, game: str, seats: list[tuple[str, bool]]) -> GameSession:
    data = {"game": game}
    for i, (name, is_bot) in enumerate(seats, start=1):
        data[f"seat_{i}"] = name
        if is_bot:
            data[f"bot_{i}"] = "on"
    with capture(execute=True):
        response = client.post(reverse("games:session_list"), data)
    assert response.status_code == 302
    return GameSession.objects.get()


def play_through_the_phones(client, capture, session: GameSession, preference: list[str]) -> int:
    """Each human seat's phone taps its preferred button until the game is over; returns the taps."""
    humans = list(session.seats.filter(is_bot=False).order_by("index"))
    taps = 0
    while taps < MAX_TAPS:
        session.refresh_from_db()
        if session.status != GameSession.Status.ACTIVE:
            return taps
        tapped = False
        for seat in humans:
            url = reverse("games:seat_page", args=[seat.token])
            found = buttons(client.get(url))
            if not found:
                continue
            button = pick(found, preference)
            with capture(execute=True):
                response = client.post(url, {**button, "action": json.dumps(button["action"])})
            assert response.status_code == 302  # applied, back to the phone
            taps += 1
            tapped = True
            break
        assert tapped, "no human can act, the bot did not answer, and the game is not over"
    raise AssertionError(f"the game did not end within {MAX_TAPS} taps")


def assert_result_on_the_table(client, session: GameSession) -> None:
    session.refresh_from_db()
    assert session.state["over"]
    page = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
    names = {s.index: s.name for s in session.seats.all()}
    winners = " and ".join(names[i] for i in session.state["result"]["winners"])
    assert f"Winner: <strong>{html.escape(winners)}</strong>" in page


class BotGamesThroughThePagesTests:
    def test_a_whole_three_player_for_the_king_game_with_one_bot(
        self, client, django_capture_on_commit_callbacks
    ):
        client.force_login(UserFactory())
        session = start(
            client,
            django_capture_on_commit_callbacks,
            "for_the_king",
            [("Anna", False), ("Robot", True), ("Chiara", False)],
        )
        taps = play_through_the_phones(client, django_capture_on_commit_callbacks, session, FTK_PREFERENCE)
        assert taps > 0
        assert_result_on_the_table(client, session)
        assert session.actions.filter(seat=1).exists()  # the bot played its part

    def test_a_whole_two_player_council_of_four_game_with_one_bot(
        self, client, django_capture_on_commit_callbacks
    ):
        client.force_login(UserFactory())
        session = start(
            client,
            django_capture_on_commit_callbacks,
            "council_of_four",
            [("Anna", False), ("Robot", True)],
        )
        taps = play_through_the_phones(client, django_capture_on_commit_callbacks, session, C4_PREFERENCE)
        assert taps > 0
        assert_result_on_the_table(client, session)
        assert session.actions.filter(seat=1).exists()
