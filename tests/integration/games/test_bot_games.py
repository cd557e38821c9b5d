"""Whole games with a bot, played through the pages: the host starts the session with the form on
/play/, the human seats tap their phones' action buttons, the bot answers by itself (Celery runs
eagerly without Redis, after each commit), and the result shows on the table page."""

import html
import re
from urllib.parse import parse_qsl

import pytest
from django.urls import reverse

from games.models import GameSession
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MAX_TAPS = 1500
MAX_STEPS = 40  # pages a person opens looking for something that works
FORM = re.compile(r'<form [^>]*class="control-group control-(?P<type>\w+)">(?P<body>.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(?P<name>choice|version|key)" value="(?P<value>[^"]*)">')
BUTTON = re.compile(r'<button type="submit" class="choice" name="(?P<name>p_\w+)" value="(?P<value>[^"]*)">')
NUMBER = re.compile(r'<input type="number" name="(?P<name>p_\w+)" min="(?P<min>-?\d+)" max="(?P<max>-?\d+)"')
RADIO = re.compile(r'<input type="radio" name="(?P<name>p_\w+)" value="(?P<value>[^"]*)"')
BOX = re.compile(r'<input type="checkbox" name="(?P<name>p_\w+)" value="(?P<value>[^"]*)"')
# A payment offer or a one-tap Quick action (issue 17): a form posted as it is, all its fields hidden.
READY = re.compile(r'<form [^>]*class="(?:offer|control-\w+)">(?P<body>.*?)</form>', re.S)
ANY_HIDDEN = re.compile(r'<input type="hidden" name="(?P<name>\w+)" value="(?P<value>[^"]*)">')
STEP_LINK = re.compile(r'class="step-link" href="(?P<href>[^"]+)"')

# The humans' simple policy: the first control group of the most preferred type (so that games end).
FTK_PREFERENCE = ["place", "choose", "king_card", "reveal", "pass", "pay_gold", "discard"]
C4_PREFERENCE = [
    "choose_city_bonus",
    "choose_permit_bonus",
    "take_free_permit",
    "build",
    "acquire_permit",
    "elect",
    "end_turn",
]


def control_groups(page) -> list[dict]:
    """What a person sees on the phone: one form per choice, with its fields."""
    groups = []
    for m in FORM.finditer(page.content.decode()):
        body = m["body"]
        hidden = {h["name"]: html.unescape(h["value"]) for h in HIDDEN.finditer(body)}
        fields: dict[str, list] = {}
        for b in BUTTON.finditer(body):
            fields.setdefault(b["name"], []).append(html.unescape(b["value"]))
        for r in RADIO.finditer(body):
            fields.setdefault(r["name"], []).append(html.unescape(r["value"]))
        numbers = {n["name"]: (int(n["min"]), int(n["max"])) for n in NUMBER.finditer(body)}
        boxes: dict[str, list] = {}
        for b in BOX.finditer(body):
            boxes.setdefault(b["name"], []).append(html.unescape(b["value"]))
        groups.append(
            {"type": m["type"], "hidden": hidden, "picks": fields, "numbers": numbers, "boxes": boxes}
        )
    for m in READY.finditer(page.content.decode()):
        hidden = {}
        for h in ANY_HIDDEN.finditer(m["body"]):
            hidden.setdefault(h["name"], []).append(html.unescape(h["value"]))
        groups.append(
            {"type": hidden["choice"][0], "hidden": hidden, "picks": {}, "numbers": {}, "boxes": {}}
        )
    return groups


def step_links(page, preference: list[str]) -> list[str]:
    """The links to a decision's next step (issue 17), the preferred decisions first."""
    hrefs = [html.unescape(m["href"]) for m in STEP_LINK.finditer(page.content.decode())]
    rank = {t: i for i, t in enumerate(preference)}
    return sorted(hrefs, key=lambda h: rank.get(dict(parse_qsl(h.partition("?")[2])).get("step"), len(rank)))


def fillings(group: dict):
    """The ways a person might fill a form: the first option and the least amount; for a set of cards,
    the first one, then the first two, and so on (until the table takes it)."""
    data = {**group["hidden"]}
    for name, options in group["picks"].items():
        data[name] = options[0]
    for name, (low, _) in group["numbers"].items():
        data[name] = str(low)
    if not group["boxes"]:
        yield data
        return
    for name, options in group["boxes"].items():
        for count in range(1, len(options) + 1):
            yield {**data, name: options[:count]}


def ranked(found: list[dict], preference: list[str]) -> list[dict]:
    rank = {t: i for i, t in enumerate(preference)}
    return sorted(found, key=lambda g: rank.get(g["type"], len(rank)))


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
            version = session.version
            pages = [url]  # the phone, then the steps its links open (issue 17), depth first
            tried = 0
            while pages and session.version == version and tried < MAX_STEPS:
                tried += 1
                page = client.get(pages.pop(0))
                found = control_groups(page)
                for group in ranked(found, preference):  # a refused form: the next thing a person tries
                    for data in fillings(group):
                        with capture(execute=True):
                            response = client.post(url, data)
                        assert response.status_code == 302  # back to the phone, applied or with a message
                        session.refresh_from_db()
                        if session.version != version:
                            break
                    if session.version != version:
                        break
                pages = step_links(page, preference) + pages
            if tried == 1 and not found:
                continue
            assert session.version != version, "no control the phone offered was taken"
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
