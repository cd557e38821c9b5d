"""The table companion in the pseudo-language: each game (a King's Dilemma night from a campaign, For
the King, Council of Four) played through every phase, the table at 1920 px and the acting phone at
375 px read at the first screen of each phase, and no visible word may stand outside a wrapped
message: neither the pages' own words nor the engines' (their log lines, choice titles, card words,
said at the edge from their message ids). The engines' words found unwrapped are also written to
screenshots/pseudo-games-engine-words.json, by screen, to find where one slipped through. Also each
seat page at 375 px in German and in Italian, where no long word may run past the screen."""

import json
import random
import re

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import Error as PlaywrightError

from campaign.services import game_nights
from config.catalogues import LOCALE_DIR, PSEUDO_LANGUAGE, framework_catalogues, write_pseudo
from games.engines.kernel.registry import games
from games.models import GameSession, SessionAction
from games.selectors import session_legal_actions, session_view_for_seat, session_view_for_table
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from tests.e2e.conftest import DESKTOP, PHONE, SCREENSHOT_DIR, login
from tests.e2e.pseudo import WORD, page_text, unwrapped_words
from tests.e2e.table import reload_session
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.games.conftest import random_move

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bruno", "Carla"]
MAX_ACTIONS = 400  # a whole game: the walk stops at the end or here
# What a player types or a game names that is no message: the map's cities, the games' titles (kept
# in every edition) and the host's username.
CITY_NAMES = ("Arkon", "Burgen", "Castrum", "Dorful", "Esti", "Framek", "Graden", "Hellar", "Indur")
CITY_NAMES += ("Juvelar", "Kultos", "Lyram", "Merkatim", "Naris", "Osium")
HOST = "host"
TYPED_KEYS = {"title", "question", "label", "note", "name", "king_name", "house_name"}
ENGINE_WORDS_FILE = "pseudo-games-engine-words.json"
STEP_KINDS = ("acquire_permit", "queen_build", "elect", "send_servant", "build", "change_permits")


@pytest.fixture
def pseudo_language(settings, tmp_path):
    """The pseudo-language, compiled from the project's messages and the framework's, first in
    LOCALE_PATHS and in LANGUAGES for this test only (as tests/e2e/test_languages.py does)."""
    sources = [LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po", *framework_catalogues()]
    write_pseudo(tmp_path, sources)
    settings.LOCALE_PATHS = [tmp_path, *django_settings.LOCALE_PATHS]
    settings.LANGUAGES = [*django_settings.LANGUAGES, (PSEUDO_LANGUAGE, "[Þŝéûđö]")]
    return PSEUDO_LANGUAGE


def typed_texts(value, found: set[str]) -> set[str]:
    """The texts a session holds that somebody typed or named (a card's title, a House's name)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in TYPED_KEYS and isinstance(item, str):
                found.add(item)
            typed_texts(item, found)
    elif isinstance(value, list):
        for item in value:
            typed_texts(item, found)
    return found


def engine_words(session) -> set[str]:
    """Every word the engine says of this session in English: its log lines, its views' texts and
    its choices' words (what the edge says again once they are message ids)."""
    reload_session(session)
    texts = list(SessionAction.objects.filter(session=session).values_list("label", flat=True))
    views = [session_view_for_table(session=session)]
    views += [session_view_for_seat(session=session, seat=seat) for seat in session.seats.all()]
    choices = [session_legal_actions(session=session, seat_index=None)]
    choices += [session_legal_actions(session=session, seat_index=s.index) for s in session.seats.all()]
    texts.append(json.dumps([views, choices], default=str))
    return set(WORD.findall("\n".join(texts)))


def read_text(page) -> str:
    return page_text(page)


def open_page(page, url: str) -> None:
    """Open ``url``; a page already open there may reload itself on a nudge as the walk leaves it
    (its script's own navigation interrupts ours): then open it again."""
    try:
        page.goto(url)
    except PlaywrightError as error:
        if "interrupted by another navigation" not in str(error) and "ERR_ABORTED" not in str(error):
            raise
        page.wait_for_load_state()
        page.goto(url)


class Walk:
    """A game played by random legal moves through the services; at the first screen of each phase
    the table and the acting phone are read in the pseudo-language."""

    def __init__(self, live_server, new_page, session, host):
        self.live_server, self.session = live_server, session
        self.table = new_page(DESKTOP, locale="en-XA")
        login(self.table, live_server, host.username)
        self.phones = {s.index: new_page(PHONE, locale="en-XA") for s in session.seats.all()}
        self.seen: set[str] = set()
        self.found: dict[str, list[str]] = {}
        self.read_names: list[str] = []
        self.engine: set[str] = set()
        self.steps_read: set[str] = set()

    def data(self) -> tuple[str, ...]:
        names = {*NAMES, *CITY_NAMES, HOST, *(rules.name for rules in games())}
        names.update(self.session.seats.values_list("name", flat=True))
        return tuple(typed_texts(self.session.state, names))

    def read(self, name: str, page, url: str) -> None:
        self.read_names.append(name)
        open_page(page, self.live_server.url + url)
        assert page.get_attribute("html", "lang") == PSEUDO_LANGUAGE
        words = unwrapped_words(read_text(page), data=self.data())
        if words:
            self.found[name] = words

    def moment(self) -> tuple[str, list[int]]:
        view = session_view_for_table(session=self.session)["view"]
        phase = str(view.get("phase") or view.get("part") or "")
        pending = view.get("pending")  # Council of Four: a bonus or a Permit a seat chooses now
        if isinstance(pending, dict):
            phase += f" {pending.get('kind')}"
        acting = [i for i in view.get("to_act") or [] if i is not None]
        return phase, acting

    def look(self) -> None:
        """The table and the acting phone (each phone once) at a phase met for the first time."""
        phase, acting = self.moment()
        key = f"{phase}:{acting[:1]}"
        if key in self.seen:
            return
        self.seen.add(key)
        self.engine |= engine_words(self.session)
        self.read(f"table {phase}", self.table, f"/play/s/{self.session.pk}/")
        for index in acting[:1] or [0]:
            seat = self.session.seats.get(index=index)
            self.read(f"seat {index} {phase}", self.phones[index], f"/play/seat/{seat.token}/")
            for query in self.steps(index):
                self.read(
                    f"seat {index} {phase} {query}", self.phones[index], f"/play/seat/{seat.token}/{query}"
                )

    def steps(self, index: int) -> list[str]:
        """A decision asked over several screens (Council of Four's phone): each step's screen, read
        once a game: the menu's steps, a Council's Permits and payments, a city of the Queen's."""
        choices = session_legal_actions(session=self.session, seat_index=index)
        queries = []
        for choice in choices:
            kind, params = choice["type"], choice["params"]
            if kind not in STEP_KINDS or kind in self.steps_read:
                continue
            self.steps_read.add(kind)
            queries.append(f"?step={kind}")
            if kind == "acquire_permit":
                balcony, permit = params["balcony"]["options"][0], params["permit"]["options"][0]
                queries += [
                    f"?step={kind}&balcony={balcony}",
                    f"?step={kind}&balcony={balcony}&permit={permit}",
                ]
            elif kind == "queen_build":
                queries.append(f"?step={kind}&city={params['city']['options'][0]}")
        return queries

    def play(self) -> None:
        rng = random.Random(5)
        for _ in range(MAX_ACTIONS):
            reload_session(self.session)
            if self.session.status != GameSession.Status.ACTIVE:
                break
            self.look()
            seat, action = random_move(self.session, rng)
            session_submit_action(
                session=self.session, seat=seat, action=action, expected_version=self.session.version
            )
        reload_session(self.session)
        self.seen.clear()
        self.look()  # the game's end, on the table and a phone's closed seat

    def unwrapped(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """(words no engine says, words the engine says), by screen."""
        engine = self.engine | engine_words(self.session)
        ours = {name: [w for w in words if w not in engine] for name, words in self.found.items()}
        theirs = {name: [w for w in words if w in engine] for name, words in self.found.items()}
        return {k: v for k, v in ours.items() if v}, {k: v for k, v in theirs.items() if v}


def keep_engine_words(game: str, words: dict[str, list[str]], read: list[str]) -> None:
    """The engine's words still unwrapped, by game and screen (for the report: they are wrapped
    once the engines' sentences are message ids)."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / ENGINE_WORDS_FILE
    kept = json.loads(path.read_text()) if path.exists() else {}
    kept[game] = {
        "screens read": read,
        "engine words": {name: sorted(set(found)) for name, found in words.items()},
    }
    path.write_text(json.dumps(kept, indent=1, ensure_ascii=False, sort_keys=True))


def a_session(game: str):
    host = UserFactory(username=HOST)
    if game != "kings_dilemma":
        return session_create(game=game, seat_names=NAMES, host=host, seed=3), host
    campaign, houses = campaign_with_houses(*NAMES, user=host)
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald", host=host, seed=3
    )
    return session, host


class PseudoGamesWalkTests:
    @pytest.mark.parametrize("game", ["kings_dilemma", "for_the_king", "council_of_four"])
    def test_every_phase_of_a_game_in_the_pseudo_language(self, live_server, new_page, pseudo_language, game):
        session, host = a_session(game)
        walk = Walk(live_server, new_page, session, host)
        walk.play()
        assert session.status != GameSession.Status.ACTIVE, "the walk never reached the end of the game"
        ours, engines = walk.unwrapped()
        keep_engine_words(game, engines, walk.read_names)
        assert ours == {}, json.dumps(ours, ensure_ascii=False)
        assert engines == {}, json.dumps(engines, ensure_ascii=False)

    def test_the_walk_finds_a_word_of_a_game_screen_nobody_translated(
        self, live_server, new_page, pseudo_language
    ):
        session, host = a_session("for_the_king")
        walk = Walk(live_server, new_page, session, host)
        walk.look()
        walk.table.evaluate("document.querySelector('#table-panel').append('Untranslated tableau')")
        words = unwrapped_words(page_text(walk.table), data=walk.data())
        assert "Untranslated" in words and "tableau" in words


def no_overflow(page) -> list[str]:
    """The elements wider than the viewport (a long word that does not wrap)."""
    return page.eval_on_selector_all(
        "body *",
        "els => els.filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
        ".map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))",
    )


class SeatPageLanguageTests:
    @pytest.mark.parametrize("language", ["de", "it"])
    @pytest.mark.parametrize("game", ["kings_dilemma", "for_the_king", "council_of_four"])
    def test_a_seat_page_at_375_px(self, live_server, new_page, screenshot, language, game):
        session, _ = a_session(game)
        rng = random.Random(1)
        for _ in range(6):  # past the deal, into the game's first decisions
            seat, action = random_move(session, rng)
            session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
        seat = session.seats.get(index=0)
        page = new_page(PHONE, locale=language)
        page.goto(f"{live_server.url}/play/seat/{seat.token}/")
        assert page.get_attribute("html", "lang") == language
        assert re.search(r"\[Ŝ|Latest", page.inner_text("body")) is None  # its own words, not English
        assert no_overflow(page) == []
        screenshot(page, f"i18n-{language}-seat-{game}")
