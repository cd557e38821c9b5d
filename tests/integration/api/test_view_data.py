"""The answers of every tap are built without DRF's field machinery (api/sessions/view_data.py
``view_data``, ``submit_data``): byte for byte what the declared serializers give, on every game,
for every seat, the table and a closed seat, from the first action to the result."""

import random
from typing import Annotated

import pytest
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from api.sessions.serializers import SubmitOutputSerializer, ViewSerializer, _field_for
from api.sessions.view_data import _reader, submit_data, view_data
from games import selectors
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import get_game
from games.models import GameSession, Seat, SessionAction
from games.selectors import SessionView
from tests.integration.games.conftest import new_session

pytestmark = pytest.mark.django_db

MAX_STEPS = 3000


def rendered(data) -> bytes:
    return JSONRenderer().render(data)


def views_of(session: GameSession, seats: int) -> list[dict]:
    views = [selectors.session_view_for_table(session=session)]
    for index in range(seats):
        seat = Seat(session=session, index=index)
        views.append(selectors.session_view_for_seat(session=session, seat=seat))
        views.append(selectors.session_view_for_closed_seat(session=session, seat=seat))
    return views


class ViewDataTests:
    @pytest.mark.parametrize("game", ["for_the_king", "council_of_four", "kings_dilemma"])
    def test_a_whole_game_reads_the_same_as_through_the_serializer(self, game):
        session = new_session(game=game, seed=11)
        seats = session.seats.count()
        rules, rng, state = get_game(game), random.Random(11), session.state
        kinds: set[str] = set()
        for _ in range(MAX_STEPS):
            session.state = state
            session.status = (
                GameSession.Status.FINISHED if rules.is_over(state) else GameSession.Status.ACTIVE
            )
            for view in views_of(session, seats):
                assert rendered(view_data(view)) == rendered(ViewSerializer(view).data)
                kinds |= {p["kind"] for c in view["legal_actions"] for p in c["params"].values()}
            if rules.is_over(state):
                break
            moves = (bot_choose_action(rules, state, seat, rng) for seat in rules.active_seats(state))
            state = rules.apply(state, next(m for m in moves if m is not None))
        assert rules.is_over(state), "the game should reach its result"
        assert kinds, "some choice had parameters"

    def test_odd_but_declared_values_read_the_same(self):
        """None where a number is declared, a parameter without a kind's usual keys, extra keys the
        serializer leaves out."""
        view = {
            "session": 3,
            "game": "counting",
            "version": 0,
            "status": "active",
            "seat": None,
            "view": {"b": [1, {"x": None}], "a": "é"},
            "legal_actions": [
                {"type": "t", "seat": None, "params": {}, "extra": 1, "title": "Deal"},
                {
                    "type": "u",
                    "seat": 2,
                    "params": {
                        "n": {"options": ["b", 1, None], "kind": "cards", "max": 2, "min": 1, "label": "x"},
                        "m": None,
                        "k": {"kind": "text", "max_length": None},
                    },
                },
            ],
            "to_act": [0],
            "active_seats": [None, 0, 2],
            "over": False,
            "result": None,
            "extra": True,
        }
        assert rendered(view_data(view)) == rendered(ViewSerializer(view).data)

    def test_the_submit_answer_reads_the_same(self):
        session = new_session(seed=4)
        logged = SessionAction.objects.get(session=session, seq=1)
        view = selectors.session_view_for_seat(session=session, seat=session.seats.get(index=1))
        expected = SubmitOutputSerializer({"action": logged, "view": view}).data
        assert rendered(submit_data(logged, view)) == rendered(expected)


class OneDeclarationTests:
    """The seat view's fields are declared once (games.selectors.SessionView): the selectors, the
    API's serializer and ``view_data`` follow from it."""

    def test_the_serializer_view_data_and_the_selectors_have_the_declared_fields(self):
        session = new_session(game="for_the_king", seed=3)
        declared = list(SessionView.__annotations__)
        built = selectors.session_view_for_table(session=session)
        assert list(built) == declared
        assert list(ViewSerializer().fields) == declared
        assert list(view_data(built)) == declared

    def test_a_declared_field_gets_its_serializer_field_and_reader(self):
        field = _field_for(Annotated[list[int | None], "Seats that passed."])
        assert isinstance(field, serializers.ListField) and field.help_text == "Seats that passed."
        assert field.child.allow_null and isinstance(field.child, serializers.IntegerField)
        assert _reader(Annotated[list[int | None], "Seats that passed."])([1, None]) == [1, None]
        assert _reader(bool | None)(None) is None and _reader(bool)(1) is True
