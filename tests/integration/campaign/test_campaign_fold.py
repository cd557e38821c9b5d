"""The campaign is the fold of its saved records. Random sequences of what a group does to a campaign
over months (start a night, play part of it, abandon it, resume it, save it, correct a night's result,
a sticker or its aging marks) are played through the services; after each one the campaign is exported
and imported (rebuilt from its records alone, with no cache of the original), and every page and API
answer a member reads is compared with the rebuilt campaign's. A night that is abandoned before it is
saved leaves every campaign page as it was before it started."""

import difflib
import itertools
import json
import re

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.models import ChronicleGame, ChronicleSticker
from campaign.services import game_nights
from campaign.services import stickers as sticker_services
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.restore import campaign_import
from campaign.services.chronicles import game_result_correct
from campaign.services.game_nights import game_night_start
from campaign.services.night_saves import game_night_record
from games.models import GameSession
from games.services.sessions import session_abandon
from tests.campaign_pages import normalised, pages_of
from tests.factories import UserFactory, campaign_with_houses
from tests.story_play import (
    CARDS_PER_NIGHT,
    HOUSES,
    _first_two_open_agendas,
    envelope_contents,
    play_campaign_cards,
    play_campaign_night,
)
from tests.unit.contract import property_examples

pytestmark = [pytest.mark.database, pytest.mark.django_db]

OPERATIONS = ("start", "play", "abandon", "resume", "save", "correct_result", "correct_sticker", "age")


def _read(client, campaign, user, urls, owner=None) -> dict[str, str]:
    """Each page, normalised (ids, names and tokens out; the original ``owner``'s name too, kept in
    a copy's history), by its normalised URL."""
    client.force_login(user)
    pages = {}
    for i, url in enumerate(urls):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        text = normalised(response.content.decode(), campaign, user)
        text = re.sub(r'<path [^>]*d="M[^"]*"', "QR", text)  # a seat's code, new in a copy
        text = re.sub(r'name="key" value="[\w-]+"', "KEY", text)  # a tap's idempotency key
        pages[f"{i} {normalised(url, campaign, user)}"] = text.replace(owner or user.get_username(), "USER")
    return pages


def _same(before: dict[str, str], after: dict[str, str], done: list[str]) -> None:
    """The same pages, each the same; a page that differs is shown as a diff."""
    assert list(after) == list(before), done
    for url in before:
        diff = difflib.unified_diff(before[url].splitlines(), after[url].splitlines(), lineterm="")
        assert after[url] == before[url], (url, done, "\n".join(diff)[:3000])


def _campaign_urls(campaign) -> list[str]:
    """The pages of the campaign itself, without those of its table sessions."""
    return [u for u in pages_of(campaign) if not u.startswith(("/play/", "/api/sessions/"))]


class Group:
    """A group of four Houses, their owner, and what they did to their campaign so far."""

    def __init__(self, client):
        self.client = client
        self.owner = UserFactory()
        self.campaign, self.houses = campaign_with_houses(*HOUSES, user=self.owner, name="Valley of Kings")
        self.nights = itertools.count(1)  # each started night's own card and sticker numbers
        self.session: GameSession | None = None
        self.night = 0
        self.cards_played = 0
        self.abandoned: tuple[GameSession, int, int] | None = None
        self.before_start: dict[str, str] | None = None
        self.done: list[str] = []

    # What the group may do now: each answers whether it did anything.
    def start(self, data) -> bool:
        if self.session is not None:
            return False
        self.before_start = _read(self.client, self.campaign, self.owner, _campaign_urls(self.campaign))
        self.night = next(self.nights)
        keep = _first_two_open_agendas(self.campaign, self.houses)
        self.session = game_night_start(
            campaign=self.campaign,
            houses=self.houses,
            king_name=f"Aldric {self.night}",
            host=self.owner,
            seed=1000 + self.night,
            keep=keep,
        )
        self.cards_played = 0
        return True

    def play(self, data) -> bool:
        if self.session is None or self.cards_played >= CARDS_PER_NIGHT - 1:
            return False
        count = data.draw(st.integers(1, CARDS_PER_NIGHT - 1 - self.cards_played), label="cards")
        play_campaign_cards(
            self.session, self.night, range(self.cards_played + 1, self.cards_played + count + 1)
        )
        self.cards_played += count
        return True

    def abandon(self, data) -> bool:
        if self.session is None:
            return False
        session_abandon(session=self.session)
        self.abandoned = (self.session, self.night, self.cards_played)
        self.session = None
        # Nothing of the night is in the campaign: every campaign page reads as before it began.
        after = _read(self.client, self.campaign, self.owner, _campaign_urls(self.campaign))
        offered = re.compile(r'<details class="card" id="nights-abandoned">.*?</details>', re.S)
        after = {url: offered.sub("", page, count=1) for url, page in after.items()}  # to resume
        _same(self.before_start or {}, after, [*self.done, "abandon"])
        return True

    def resume(self, data) -> bool:
        if self.abandoned is None or self.session is not None:
            return False
        session, night, cards = self.abandoned
        self.session = game_nights.game_night_resume(session=session, actor=self.owner)
        self.night, self.cards_played, self.abandoned = night, cards, None
        return True

    def save(self, data) -> bool:
        if self.session is None:
            return False
        state = play_campaign_night(self.session, self.night, first_card=self.cards_played + 1)
        game_night_record(
            session=self.session, envelope_contents=envelope_contents(state, self.night), actor=self.owner
        )
        self.session, self.abandoned = None, None
        return True

    def correct_result(self, data) -> bool:
        games = [
            g for g in ChronicleGame.objects.filter(campaign=self.campaign).order_by("number") if g.recorded
        ]
        if not games:
            return False
        game = data.draw(st.sampled_from(games), label="game")
        scores = list(game.scores.filter(revision=game.revision).select_related("house").order_by("pk"))
        changed = data.draw(st.integers(0, len(scores) - 1), label="row")
        delta = data.draw(st.integers(-3, 3), label="coins")
        rows = [
            {
                "house": s.house,
                "secret_agenda": s.secret_agenda,
                "agenda_points": s.agenda_points,
                "open_agenda_points": s.open_agenda_points,
                "coins_points": max(0, s.coins_points + (delta if i == changed else 0)),
                "power_points": s.power_points,
            }
            for i, s in enumerate(scores)
        ]
        try:
            game_result_correct(game=game, end=game.end, rows=rows, reason="typed wrongly", actor=self.owner)
        except ValidationError:
            return False  # nothing to correct
        return True

    def _sticker(self, data) -> ChronicleSticker | None:
        stickers = list(self.campaign.stickers.order_by("number"))
        return data.draw(st.sampled_from(stickers), label="sticker") if stickers else None

    def correct_sticker(self, data) -> bool:
        sticker = self._sticker(data)
        if sticker is None:
            return False
        held = set(self.campaign.stickers.values_list("number", flat=True))
        number = data.draw(st.sampled_from([n for n in range(30, 40) if n not in held]), label="number")
        row = data.draw(
            st.sampled_from(["influence", "wealth", "morale", "welfare", "knowledge"]), label="row"
        )
        sticker_services.sticker_correct(
            sticker=sticker,
            number=number,
            row=row,
            positive=sticker.positive,
            signer=sticker.signer,
            title=sticker.title,
            actor=self.owner,
        )
        return True

    def age(self, data) -> bool:
        sticker = self._sticker(data)
        if sticker is None:
            return False
        marks = data.draw(st.integers(0, 3), label="marks")
        try:
            sticker_services.sticker_marks_correct(sticker=sticker, marks=marks, actor=self.owner)
        except ValidationError:
            return False  # the same marks, or more than the sticker has spaces for
        return True

    def rebuilt_reads_the_same(self) -> None:
        """The campaign exported and imported by another member: every page of the copy, drawn from
        its records alone (the original's cache is kept), shows what the original shows."""
        text = archive_dumps(campaign_archive(campaign=self.campaign))
        rebuilder = UserFactory()  # a member of the copy alone (the home page lists their campaigns)
        copy = campaign_import(archive=json.loads(text), owner=rebuilder)
        copy.events.filter(kind="campaign_imported").delete()
        before = _read(self.client, self.campaign, self.owner, pages_of(self.campaign))
        after = _read(self.client, copy, rebuilder, pages_of(copy), self.owner.get_username())
        _same(before, after, self.done)
        # Every line of the history is kept as its message, so each reader reads it in their language.
        unsaid = self.campaign.events.filter(summary_data__isnull=True).values_list("summary", flat=True)
        assert not unsaid.exists(), (self.done, list(unsaid))


@settings(
    max_examples=property_examples(4),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_page_is_the_fold_of_the_saved_records(client, data):
    cache.clear()
    group = Group(client)
    for _ in range(data.draw(st.integers(3, 7), label="operations")):
        name = data.draw(st.sampled_from(OPERATIONS), label="operation")
        if getattr(group, name)(data):
            group.done.append(name)
            group.rebuilt_reads_the_same()
