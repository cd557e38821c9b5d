"""Playing a King's Dilemma game night through the session services, for tests."""

from games.selectors import session_seats
from games.services.taps import session_submit_action


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


def vote_as(session, votes: dict[int, tuple[str, int]]):
    """Each seat of ``votes`` votes its side with its Power on its first turn; every other seat
    passes, and a seat that voted stays."""
    session.refresh_from_db()
    state = session.state
    while state["phase"] == "voting":
        seat = state["vote"]["turn"]
        if state["vote"]["choice"][seat] is not None:
            state = play(session, seat, "stay")
        elif seat in votes:
            side, power = votes[seat]
            state = play(session, seat, "vote", side=side, power=power)
        else:
            state = play(session, seat, "pass_gather")
    return state


ROWS = ["influence", "wealth", "morale", "welfare", "knowledge"]


def outcome(row, amount, sticker=None, envelope=None, lightning=False):
    return {"resources": [[row, amount]], "sticker": sticker, "envelope": envelope, "lightning": lightning}


def front(card):
    """What the table types at the draw: the Outcome tokens each back implies."""
    typed = {"number": card["number"], "title": card["title"]}
    for side in ("aye", "nay"):
        back = card[side]
        typed[side] = {
            "resources": [[row, "up" if amount > 0 else "down"] for row, amount in back["resources"]],
            "sticker": None
            if not back["sticker"]
            else ("positive" if back["sticker"]["positive"] else "negative"),
        }
    return typed


def end_of_reign(session) -> dict:
    """The scoring, and the heir the Moderator chooses among tied winners."""
    state = play(session, None, "score")
    if state["phase"] == "heir":
        state = play(session, state["moderator"], "choose_heir", heir=state["heir_candidates"][0])
    assert state["over"]
    return state


def play_night(session, *, sticker_card=3, envelope_card=4):
    """Ten small alternating Dilemmas to the lightning space, one AYE with a sticker and one with an
    Envelope, each vote won by the first voter's side."""
    draft(session)
    for number in range(1, 11):
        row = ROWS[number % 5]
        sticker = (
            {"number": 40 + number, "row": row, "positive": number % 2 == 1}
            if number == sticker_card
            else None
        )
        envelope = 9 if number == envelope_card else None
        lightning = number == 10
        card = {
            "number": number,
            "title": f"Dilemma {number}",
            "aye": outcome(row, 1, sticker, envelope, lightning),
            "nay": outcome(row, -1, lightning=lightning),
        }
        state = play(session, None, "draw_dilemma", card=front(card))
        side = "aye" if number in (sticker_card, envelope_card) or state["stability"] < 9 else "nay"
        state = vote_through(session, side)
        if state["phase"] == "tie_break":
            state = play(session, state["moderator"], "break_tie", side=side)
        state = play(session, None, "read_outcome", outcome=card[state["winning_side"]])
        state = play(session, None, "to_time_counter")
    return end_of_reign(session)


# A card the campaign met before: two Resource moves per side and a sticker on its front (issue 26).
LIBRARY_FRONT = {
    "aye": {"resources": [["knowledge", "up"], ["wealth", "down"]], "sticker": "positive"},
    "nay": {"resources": [["morale", "down"], ["influence", "up"]], "sticker": None},
}


def remember_library(campaign) -> None:
    """Dilemma card 31, "The library", met in an earlier game: its front is known, neither back."""
    from campaign.services import envelopes

    envelopes.dilemma_card_remember(
        campaign=campaign,
        number=31,
        title="The library",
        outcomes={"title": "The library", "front": LIBRARY_FRONT, "back": {"aye": None, "nay": None}},
    )
