"""A campaign of several King's Dilemma nights, each played through the session services and saved
into the campaign (for the House pages, the statistics and the stories: tests, e2e and bench)."""

from django.db import transaction

from campaign.services.chronicles import game_begin, legacy_setup_compute
from campaign.services.game_nights import game_night_start
from campaign.services.night_saves import game_night_record
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import ROWS, draft, end_of_reign, front, outcome, play

HOUSES = ("Valentine", "Martina", "Armin", "Charles")
CARDS_PER_NIGHT = 10


def vote_round(session, number: int, side: str) -> dict:
    """The first House with Power votes ``side`` with 1 Power. On each night's second card the next
    House with Power votes the other side with 1 (a tie the Moderator decides for ``side``); on the
    first card the second House gives the first 1 Coin while the vote runs. The others pass."""
    session.refresh_from_db()
    state = session.state
    voters: list[int] = []
    tie = number % CARDS_PER_NIGHT == 2
    while state["phase"] == "voting":
        seat = state["vote"]["turn"]
        if number % CARDS_PER_NIGHT == 1 and len(voters) == 1 and seat != voters[0]:
            state = play(session, seat, "give_coins", to=voters[0], coins=1)
        if state["vote"]["choice"][seat] is not None:
            state = play(session, seat, "stay")
        elif state["seats"][seat]["power"] > 0 and (not voters or (tie and len(voters) == 1)):
            chosen = side if not voters else ("nay" if side == "aye" else "aye")
            state = play(session, seat, "vote", side=chosen, power=1)
            voters.append(seat)
        else:
            state = play(session, seat, "pass_gather")
    if state["phase"] == "tie_break":
        state = play(session, state["moderator"], "break_tie", side=side)
    if state["phase"] == "leader_choice":
        state = play(session, state["moderator"], "give_leader", to=state["leader_candidates"][0])
    return state


def play_campaign_cards(session, night: int, cards: range) -> dict:
    """The draft if it is still on, then the night's cards ``cards`` (1 to 10). Card numbers are the
    night's own (10n+1 to 10n+10); the third card's AYE brings Chronicle sticker ``night`` (row by
    night), odd nights' fourth card's AYE opens Envelope ``night``; each vote is won by the first
    voter's side. Stops early when the reign ends."""
    draft(session)
    session.refresh_from_db()
    state = session.state
    sticker_card, envelope_card = 3, 4
    for k in cards:
        if state["phase"] != "draw":
            break
        number = CARDS_PER_NIGHT * night + k
        row = ROWS[(k + night) % 5]
        sticker = (
            {"number": night, "row": ROWS[night % 5], "positive": night % 2 == 1}
            if k == sticker_card
            else None
        )
        envelope = night if k == envelope_card and night % 2 == 1 and night != 70 else None
        lightning = k == CARDS_PER_NIGHT
        card = {
            "number": number,
            "title": f"Dilemma {number}",
            "question": f"Shall the realm answer question {number}?",
            "aye": outcome(row, 1, sticker, envelope, lightning),
            "nay": outcome(row, -1, lightning=lightning),
        }
        session.refresh_from_db()
        state = play(session, None, "draw_dilemma", card={**front(card), "question": card["question"]})
        side = "aye" if k in (sticker_card, envelope_card) or state["stability"] < 9 else "nay"
        state = vote_round(session, k, side)
        state = play(session, None, "read_outcome", outcome=card[state["winning_side"]])
        state = play(session, None, "to_time_counter")
    return state


def play_campaign_night(session, night: int, *, first_card: int = 1) -> dict:
    """The night's cards from ``first_card`` to the lightning space, then the scoring."""
    play_campaign_cards(session, night, range(first_card, CARDS_PER_NIGHT + 1))
    return end_of_reign(session)


def envelope_contents(state: dict, night: int) -> dict:
    return {
        e["number"]: {
            "dilemma_numbers": [700 + 3 * night + i for i in range(3)],
            "story_card": {"number": night, "storyline": "Crown"},
        }
        for e in state["result"]["envelopes"]
    }


class _Rehearsal(Exception):
    """Rolls the rehearsed aging back."""


def _first_two_open_agendas(campaign, houses) -> dict:
    """The Open Agendas each House keeps when it holds more than two of a kind: the first two rows
    offered. They are offered after the night's Chronicle aging, so the aging is rehearsed in a transaction
    rolled back (game_night_start does it again, the same way)."""
    keep: dict = {}
    choices: list = []
    try:
        with transaction.atomic():
            game_begin(campaign=campaign, king_name="rehearsal")
            choices = legacy_setup_compute(campaign=campaign, houses=houses)["open_agenda_choices"]
            raise _Rehearsal
    except _Rehearsal:
        pass
    for house_pk, positive, rows in choices:
        keep.setdefault(house_pk, {})["positive" if positive else "negative"] = list(rows[:2])
    return keep


def night_played(campaign, houses, night: int, *, host=None):
    """Start the campaign's next night, play it and save it: (ChronicleGame, session). A House
    holding more than two Open Agendas of a kind keeps the first two rows offered."""
    keep = _first_two_open_agendas(campaign, houses)
    session = game_night_start(
        campaign=campaign, houses=houses, king_name=f"Aldric {night}", host=host, seed=1000 + night, keep=keep
    )
    state = play_campaign_night(session, night)
    game = game_night_record(session=session, envelope_contents=envelope_contents(state, night), actor=host)
    return game, session


def campaign_of_nights(count: int, *, user=None, name="Test campaign"):
    """A campaign of four Houses and ``count`` nights played and saved: (campaign, houses, games)."""
    campaign, houses = campaign_with_houses(*HOUSES, user=user, name=name)
    games = [night_played(campaign, houses, night, host=user)[0] for night in range(1, count + 1)]
    return campaign, houses, games
