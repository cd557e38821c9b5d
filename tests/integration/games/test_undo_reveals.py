"""Undo never drops an action that revealed information (docs/api.md "Undo", issue 23 item 7), through
the service, the API and the table page, in each game: the host's undo is refused with
``NOT_UNDOABLE`` and nothing is written; the card stays where everyone saw it. An action that showed
nothing is still undone, and an action logged before the log recorded it is judged by a replay."""

import random

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import SessionAction
from games.selectors import session_undoable_action, session_view_for_table
from games.services.taps import session_submit_action
from games.services.undo import NOT_UNDOABLE, session_undo
from tests.factories import UserFactory
from tests.integration.api.conftest import token_client
from tests.integration.games.conftest import acting_seat, new_session, random_move

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def snapshot(session) -> tuple:
    session.refresh_from_db()
    log = list(session.actions.order_by("seq").values_list("seq", "undone", "undoable"))
    return session.version, session.state, log


def submit(session, action: dict) -> SessionAction:
    """``action`` by the seat (or the table) that must act now."""
    _, seat = acting_seat(session)
    return session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)


def refused(session, host, logged: SessionAction) -> None:
    """The host's undo of ``logged`` is refused, says why, and writes nothing."""
    before = snapshot(session)
    assert session_undoable_action(session=session) is None  # the table offers no Undo button
    with pytest.raises(ValidationError) as error:
        session_undo(session=session, by=host)
    assert error.value.messages == [NOT_UNDOABLE.format(label=logged.label)]
    assert snapshot(session) == before


def for_the_king_drawn(host):
    """A For the King session whose Adviser has drawn the first card ('Distribute Cards': the
    compulsory draw is part of the deal)."""
    return new_session(host=host, seed=11)


class ForTheKingUndoTests:
    def test_a_card_placed_face_up_in_the_middle_stays_there(self):
        """'Distribute Cards': 'Place the card face up in the middle of the table': everyone saw it."""
        host = UserFactory()
        session = for_the_king_drawn(host)
        card = session.state["drawn"]
        placed = submit(session, {"type": "place", "area": "middle"})
        assert placed.undoable is False
        refused(session, host, placed)
        assert session.state["middle"] == [card]
        assert [c["id"] for c in session_view_for_table(session=session)["view"]["middle"]] == [card]

    def test_a_card_placed_face_down_is_not_undone_once_the_next_card_is_drawn(self):
        """'Distribute Cards': "Then, draw the next card": the draw happens by itself with the
        placement, and the Adviser saw the card drawn: a drawn card is never undone."""
        host = UserFactory()
        session = for_the_king_drawn(host)
        card = session.state["drawn"]
        placed = submit(session, {"type": "place", "area": "favor"})
        assert session.state["drawn"] not in (None, card)
        assert placed.undoable is False
        refused(session, host, placed)
        assert session.state["favor_deck"] == [card]

    def test_the_api_answers_400_and_the_card_stays_in_the_middle(self):
        host = UserFactory()
        session = for_the_king_drawn(host)
        card = session.state["drawn"]
        placed = submit(session, {"type": "place", "area": "middle"})
        api = token_client(host)
        response = api.post(reverse("api:session-undo", kwargs={"session_id": session.pk}))
        assert response.status_code == 400
        assert response.json()["message"] == NOT_UNDOABLE.format(label=placed.label)
        table = api.get(reverse("api:session-table", kwargs={"session_id": session.pk})).json()
        assert [c["id"] for c in table["view"]["middle"]] == [card]
        assert not SessionAction.objects.filter(session=session, undone=True).exists()

    def test_the_table_page_says_why_and_keeps_the_card(self, client):
        host = UserFactory()
        session = for_the_king_drawn(host)
        placed = submit(session, {"type": "place", "area": "middle"})
        client.force_login(host)
        response = client.post(reverse("games:session_undo", args=[session.pk]), follow=True)
        assert response.status_code == 200
        assert NOT_UNDOABLE.format(label=placed.label) in response.content.decode()
        session.refresh_from_db()
        assert not session.actions.filter(undone=True).exists()


class CouncilOfFourUndoTests:
    def test_a_drawn_politics_card_and_a_permit_turned_face_up_stay_seen(self):
        """'DRAW A POLITICS CARD' (its owner sees it); QUICK ACTION 2, change the Permit tiles: two
        new tiles come face up from the deck."""
        host = UserFactory()
        session = new_session(game="council_of_four", host=host, seed=3)
        colour = next(c for c, n in session.state["councilors"].items() if n > 0)
        submit(session, {"type": "elect", "balcony": "coast", "colour": colour})
        ended = submit(session, {"type": "end_turn"})  # the next player's draw, made by itself
        refused(session, host, ended)
        changed = submit(session, {"type": "change_permits", "region": "coast"})
        face_up = list(session.state["face_up"]["coast"])
        refused(session, host, changed)
        assert session.state["face_up"]["coast"] == face_up

    def test_electing_a_councilor_shows_nothing_and_is_undone(self):
        host = UserFactory()
        session = new_session(game="council_of_four", host=host, seed=3)
        colour = next(c for c, n in session.state["councilors"].items() if n > 0)
        elected = submit(session, {"type": "elect", "balcony": "coast", "colour": colour})
        assert elected.undoable is True
        session_undo(session=session, by=host)
        assert session.state["phase"] == "actions" and session.state["turn"]["mains_done"] == 0


class KingsDilemmaUndoTests:
    def test_a_dilemma_card_drawn_and_a_secret_agenda_chosen_stay_seen(self):
        """'1. Draw and Read a Card': the table reads the card drawn; step 6: the Secret Agenda deck
        goes on to the next player, who sees what is left."""
        host = UserFactory()
        session = new_session(game="kings_dilemma", host=host, seed=5)
        rng = random.Random(5)
        chosen = submit(session, random_move(session, rng)[1])
        assert chosen.payload["type"] == "choose_secret_agenda"
        refused(session, host, chosen)
        while session.state["phase"] != "draw":
            submit(session, random_move(session, rng)[1])
        drawn = submit(session, random_move(session, rng)[1])
        assert drawn.payload["type"] == "draw_dilemma"
        refused(session, host, drawn)
        assert (
            session_view_for_table(session=session)["view"]["card"]["number"]
            == (drawn.payload["card"]["number"])
        )


class OldLogUndoTests:
    """An action logged before the log recorded whether it may be undone (``undoable`` NULL) is
    judged by the engine on a replay of the log up to it."""

    def test_a_card_placed_face_up_before_the_upgrade_is_still_kept(self):
        host = UserFactory()
        session = for_the_king_drawn(host)
        placed = submit(session, {"type": "place", "area": "middle"})
        SessionAction.objects.filter(session=session).update(undoable=None)
        placed.refresh_from_db()
        refused(session, host, placed)

    def test_an_action_that_showed_nothing_before_the_upgrade_is_undone(self):
        host = UserFactory()
        session = new_session(game="council_of_four", host=host, seed=3)
        colour = next(c for c, n in session.state["councilors"].items() if n > 0)
        elected = submit(session, {"type": "elect", "balcony": "coast", "colour": colour})
        SessionAction.objects.filter(session=session).update(undoable=None)
        assert session_undoable_action(session=session) == elected
        session_undo(session=session, by=host)
        elected.refresh_from_db()
        assert elected.undone and session.state["turn"]["mains_done"] == 0

    def test_the_table_panel_judges_an_old_log_as_undo_does(self, client):
        """The table's panel reads its newest actions as the version's facts keep them (without
        their payloads): for an old row, its Undo button is still the engine's judgement."""
        from django.core.cache import cache

        host = UserFactory()
        client.force_login(host)
        session = new_session(game="council_of_four", host=host, seed=3)
        colour = next(c for c, n in session.state["councilors"].items() if n > 0)
        elected = submit(session, {"type": "elect", "balcony": "coast", "colour": colour})
        SessionAction.objects.filter(session=session).update(undoable=None)
        cache.clear()
        panel = client.get(reverse("games:session_table", args=[session.pk]), HTTP_HX_REQUEST="true")
        assert f"Undo “{elected.label}”" in panel.content.decode()
        shown = for_the_king_drawn(host)
        placed = submit(shown, {"type": "place", "area": "middle"})
        SessionAction.objects.filter(session=shown).update(undoable=None)
        cache.clear()
        panel = client.get(reverse("games:session_table", args=[shown.pk]), HTTP_HX_REQUEST="true")
        assert panel.status_code == 200 and f"Undo “{placed.label}”" not in panel.content.decode()
