"""Playing a King's Dilemma game night through the session services, for tests."""

from games.selectors import session_seats
from games.services import session_submit_action


def play(session, seat_index, type_, **fields):
    seat = None if seat_index is None else session_seats(session=session).get(index=seat_index)
    session.refresh_from_db()
    session_submit_action(
        session=session, seat=seat, action={"type": type_, **fields}, expected_version=session.version
    )
    session.refresh_from_db()
    return session.state


def draft(session):
    state = session.state
    while state["phase"] == "draft":
        seat = state["draft"]["order"][state["draft"]["index"]]
        state = play(session, seat, "choose_secret_agenda", agenda=state["draft"]["remaining"][-1])
    return state


def vote_through(session, side):
    """The first seat with Power votes ``side`` with 1 Power; every other seat passes."""
    session.refresh_from_db()
    state, voted = session.state, False
    while state["phase"] == "voting":
        seat = state["vote"]["turn"]
        if state["vote"]["choice"][seat] is not None:
            state = play(session, seat, "stay")
        elif not voted and state["seats"][seat]["power"] > 0:
            state = play(session, seat, "vote", side=side, power=1)
            voted = True
        else:
            state = play(
                session,
                seat,
                "pass_gather",
            )
    return state
