"""The schema's typed contract (issue 29, items 1, 3, 5 and the settings of item 9) matches what the
engines answer: over whole random games of every game, every table view, seat view, closed seat's
view and result built by the selectors and read by ``view_data`` (what the API answers) validates
against the published ``View`` component, choices and parameters included; an undeclared key an
engine adds is caught. Each game's settings are published and enforced at session create."""

import functools
import random

import jsonschema
import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from api.sessions.view_data import view_data
from api.sessions.views import CONFIG_WRONG
from api.view_schema import game_prefix, json_schema
from games import selectors
from games.engines.kernel.choices import random_action
from games.engines.kernel.contract import check_value, typed_examples_for, typed_params_for
from games.engines.kernel.registry import games, get_game
from games.models import GameSession, Seat
from tests.integration.games.conftest import new_session

pytestmark = pytest.mark.django_db

GAMES = ["kings_dilemma", "for_the_king", "council_of_four"]
SEED = 4  # bounded: one whole game of each game (each answer validated: about a minute each)
MAX_STEPS = 3000


@functools.cache
def schemas() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


@functools.cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json_schema(schemas(), name))


def _other_variant(errors: list[jsonschema.ValidationError]) -> bool:
    """A branch of a oneOf for another game or kind: its ``game`` or ``kind`` is not the branch's."""
    return any(e.validator == "enum" and list(e.path)[-1:] in (["game"], ["kind"]) for e in errors)


def _leaves(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The innermost errors; of a oneOf, those of the branches for this game or kind only."""
    if not error.context:
        return [error]
    branches: dict[int, list] = {}
    for inner in error.context:
        branches.setdefault(inner.relative_schema_path[0], []).append(inner)
    kept = [errors for errors in branches.values() if not _other_variant(errors)] or list(branches.values())
    return [leaf for errors in kept for inner in errors for leaf in _leaves(inner)]


def errors_of(name: str, data) -> list[str]:
    """What breaks component ``name`` in ``data`` (at most 10)."""
    leaves = [leaf for error in validator(name).iter_errors(data) for leaf in _leaves(error)]
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[-300:] for e in leaves[:10]]


def answers(session: GameSession, seats: int) -> list[dict]:
    """What the API answers for the table and each seat, as view_data reads it: a seat's own view
    while the session runs, the closed seat's once it is over (api/sessions/callers.py ``seat_view``)."""
    views = [selectors.session_view_for_table(session=session)]
    for index in range(seats):
        seat = Seat(session=session, index=index)
        if session.is_running:
            views.append(selectors.session_view_for_seat(session=session, seat=seat))
        else:
            views.append(selectors.session_view_for_closed_seat(session=session, seat=seat))
    return [view_data(view) for view in views]


def next_action(rules, state: dict, rng: random.Random) -> dict:
    """A random legal action (the kernel's random_action) of the first seat that must act."""
    return next(a for s in rules.to_act(state) if (a := random_action(rules, state, s, rng)) is not None)


def play_checking(game: str, seed: int) -> tuple[int, set[str]]:
    """A whole random game (the kernel's random_action, seeded); every answer checked against the
    game's branch of ``View`` (the whole ``View`` on the first and last steps: the other games'
    branches refuse it). Returns the answers checked and the parameter kinds met."""
    branch = f"{game_prefix(game)}SessionView"
    session = new_session(game=game, seed=seed)
    seats = session.seats.count()
    rules, rng, state = get_game(game), random.Random(seed), session.state
    checked, kinds = 0, set()
    for _ in range(MAX_STEPS):
        session.state = state
        over = rules.is_over(state)
        session.status = GameSession.Status.FINISHED if over else GameSession.Status.ACTIVE
        for data in answers(session, seats):
            whole = over or state["step"] <= 1
            assert errors_of("View" if whole else branch, data) == [], (game, seed, state["step"])
            kinds |= {p["kind"] for c in data["legal_actions"] for p in c["params"].values()}
            checked += 1
        if over:
            assert answers(session, seats)[0]["result"] is not None
            return checked, kinds
        state = rules.apply(state, next_action(rules, state, rng))
    raise AssertionError(f"{game} seed {seed} did not end in {MAX_STEPS} steps")


class SchemaVersusEngineTests:
    @pytest.mark.parametrize("game", GAMES)
    def test_every_answer_of_a_whole_game_validates_against_the_published_view(self, game):
        checked, kinds = play_checking(game, SEED)
        assert checked > 100
        assert kinds, "some choice had parameters"

    def test_an_undeclared_key_an_engine_adds_is_caught(self, monkeypatch):
        """The self-test: the same check fails when an engine's view or result grows a key."""
        session = new_session(game="for_the_king", seed=5)
        rules = get_game("for_the_king")
        real = rules.view
        monkeypatch.setattr(rules, "view", lambda state, seat: {**real(state, seat), "surprise": 1})
        data = view_data(selectors.session_view_for_table(session=session))
        assert any("surprise" in e for e in errors_of("View", data))

    def test_a_key_in_a_private_part_a_parameter_or_a_result_is_caught(self):
        session = new_session(game="council_of_four", seed=5)
        seat = Seat(session=session, index=0)
        data = view_data(selectors.session_view_for_seat(session=session, seat=seat))
        assert errors_of("View", data) == []
        data["view"]["private"]["peek"] = []
        assert errors_of("View", data) != []
        data = view_data(selectors.session_view_for_seat(session=session, seat=seat))
        choice = next(c for c in data["legal_actions"] if c["params"])
        next(iter(choice["params"].values()))["label"] = "x"
        assert errors_of("View", data) != []
        data = view_data(selectors.session_view_for_seat(session=session, seat=seat))
        data["result"] = {"winners": [0]}
        assert errors_of("View", data) != []

    def test_a_view_of_another_game_or_a_table_view_holding_private_is_refused(self):
        session = new_session(game="for_the_king", seed=5)
        table = view_data(selectors.session_view_for_table(session=session))
        assert errors_of("View", {**table, "game": "council_of_four"}) != []
        assert errors_of("View", {**table, "view": {**table["view"], "private": {"hand": []}}}) != []


class TypedParamsTests:
    def test_every_typed_schema_is_a_component_with_an_example_that_fits_it(self):
        published = schemas()["ParamTyped"]["properties"]["schema"]["enum"]
        found = 0
        for rules in games():
            examples = typed_examples_for(rules)
            for entry, declared in typed_params_for(rules).items():
                assert entry in published
                name = next(n for n, s in schemas().items() if s.get("example") == examples[entry])
                assert errors_of(name, examples[entry]) == []
                assert check_value(declared, examples[entry]) == []
                assert errors_of(name, {**examples[entry], "back": {}}) != []
                found += 1
        assert found >= 2  # the Dilemma card's front and the back's outcome

    def test_the_dilemma_examples_are_what_the_engine_accepts(self):
        """Rulebook "1. Draw and Read a Card" and "A. Reading the outcome": the typed front and back."""
        from games.engines.kings_dilemma.cards import normalise_front, normalise_outcome
        from games.engines.kings_dilemma.data import tracks_for

        examples, tracks = typed_examples_for(get_game("kings_dilemma")), tracks_for(None)
        assert normalise_front(examples["dilemma_front"], tracks)["number"] == 12
        assert normalise_outcome(examples["dilemma_outcome"], tracks)["envelope"] == 5

    def test_a_payment_parameter_validates_against_its_component(self):
        payment = {"kind": "payment", "options": [{"cards": ["g1", "g2"], "coins": 3, "label": "Pay 3"}]}
        assert errors_of("Param", payment) == []
        assert (
            errors_of("Param", {"kind": "payment", "options": [{"cards": [], "coins": "3", "label": ""}]})
            != []
        )
        assert errors_of("Param", {"kind": "amount", "min": 1}) != []


class ToActTests:
    def test_the_view_says_who_must_act_apart_from_the_choices_open_to_anyone(self):
        """Rulebook "Voting Phase": during a vote every House may give Coins, one House must vote."""
        session = new_session(game="kings_dilemma", seed=3)
        rules, rng, state = get_game("kings_dilemma"), random.Random(3), session.state
        seats = session.seats.count()
        while state["phase"] != "voting":
            state = rules.apply(state, next_action(rules, state, rng))
        session.state = state
        data = answers(session, seats)
        assert all(d["to_act"] == rules.to_act(state) == d["active_seats"] for d in data)
        (voter,) = data[0]["to_act"]
        other = next(i for i in range(seats) if i != voter)
        mine = view_data(
            selectors.session_view_for_seat(session=session, seat=Seat(session=session, index=other))
        )
        assert mine["legal_actions"] and all(c.get("open") for c in mine["legal_actions"])


class SettingsTests:
    def test_the_games_list_answers_each_games_settings_as_a_json_schema(self, api):
        answered = {g["slug"]: g["config_schema"] for g in api.get(reverse("api:table-game-list")).json()}
        assert set(answered) == {r.slug for r in games()}
        king = jsonschema.Draft202012Validator(answered["kings_dilemma"])
        assert king.is_valid({"king_name": "Harald V", "seats": [{"power": 8}], "leader": None})
        assert not king.is_valid({"king_name": 5})
        assert not king.is_valid({"kings_name": "Harald V"})
        assert not jsonschema.Draft202012Validator(answered["for_the_king"]).is_valid({"variant": "x"})

    def create(self, api, game: str, config: dict):
        body = {"game": game, "seat_names": ["Anna", "Ben", "Cleo"], "config": config}
        return api.post(reverse("api:session-create"), body, format="json")

    @pytest.mark.parametrize(
        ("game", "config", "what"),
        [
            ("for_the_king", {"variant": "short"}, "config.variant: not declared"),
            (
                "council_of_four",
                {"seats": [{"name": 1}, {}, {}]},
                "config.seats[0].name: not of the declared type",
            ),
            ("kings_dilemma", {"king_name": ["Harald"]}, "config.king_name: not of the declared type"),
            (
                "kings_dilemma",
                {"seats": [{"power": True}, {}, {}]},
                "config.seats[0].power: not of the declared type",
            ),
        ],
    )
    def test_an_undeclared_setting_or_one_of_another_type_is_refused(self, api, game, config, what):
        response = self.create(api, game, config)
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "invalid"
        assert CONFIG_WRONG.format(what=what) in body["extra"]["fields"]["config"]
        assert not GameSession.objects.exists()

    def test_declared_settings_are_taken(self, api):
        config = {"king_name": "Harald V", "seats": [{"power": 9}, {}, {"coins": 4}], "leader": 1}
        response = self.create(api, "kings_dilemma", config)
        assert response.status_code == 201, response.json()
        assert self.create(api, "for_the_king", {}).status_code == 201
