"""The table's message after an undo reads as one sentence (issue 26: "Undone: ... .." when the label
carries its own full stop, as the King's Dilemma's do)."""

import pytest
from django.urls import reverse

from games.models import SessionAction
from tests.factories import UserFactory
from tests.integration.games.conftest import acting_seat, new_session

pytestmark = pytest.mark.django_db


class UndoMessageTests:
    def test_a_label_with_its_own_full_stop_is_undone_with_one(self, client):
        from games.services.taps import session_submit_action

        host = UserFactory()
        session = new_session(game="council_of_four", host=host, seed=3)
        _, seat = acting_seat(session)
        colour = next(c for c, n in session.state["councilors"].items() if n > 0)
        logged = session_submit_action(
            session=session,
            seat=seat,
            action={"type": "elect", "balcony": "coast", "colour": colour},
            expected_version=session.version,
        )
        assert logged.undoable
        SessionAction.objects.filter(pk=logged.pk).update(label=logged.label + ".")
        client.force_login(host)
        response = client.post(reverse("games:session_undo", args=[session.pk]), follow=True)
        page = response.content.decode()
        assert f"Undone: {logged.label}." in page and f"{logged.label}.." not in page
