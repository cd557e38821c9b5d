"""Random legal games (docs/architecture.md, engines and sessions): the engine contract, conservation of Power and Coins
(pool + screens + Balance + Vote cards), markers within their tracks, no seat's Secret Agenda in another
seat's view before the end, and the removed Secret Agenda in no view at all."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.kernel.choices import draw_action
from games.engines.kings_dilemma.data import AGENDAS, RESOURCES
from games.engines.kings_dilemma.rules import RULES
from tests.unit.contract import play_random_game, property_examples
from tests.unit.kings_dilemma.builders import card, coins_total, outcome, power_total

HOST_EFFECTS = {"adjust", "move_resource", "mystery_sticker", "to_event_area", "give_coins"}
SEATS = [None, 0, 1, 2, 3, 4]


def pick(state, options, rng):
    """Mostly actions that move the game on; now and then a gift or a hand-applied effect."""
    onward = [o for o in options if o[1]["type"] not in HOST_EFFECTS]
    seat, choice = rng.choice(onward) if onward and rng.random() < 0.85 else rng.choice(options)
    return seat, draw_action(RULES, state, choice, rng)


def agenda_words(view: dict) -> set[str]:
    text = json.dumps(view)
    return {a for a in AGENDAS if f'"{a}"' in text}


def check(state: dict) -> None:
    totals = state["tracks"]["general_pool"]
    assert power_total(state) == totals["power"]
    assert coins_total(state) == totals["coins"]
    assert all(s["power"] >= 0 and s["coins"] >= 0 for s in state["seats"])
    assert state["balance"] >= 0
    rows = state["tracks"]["resource_track"]["rows"]
    assert all(1 <= state["resources"][r]["position"] <= rows for r in RESOURCES)
    assert 1 <= state["stability"] <= state["tracks"]["stability_track"]["spaces"]
    count = len(state["seats"])
    for seat in SEATS[: count + 1]:
        view = RULES.view(state, seat)
        if state["removed_agenda"]:
            assert f'"{state["removed_agenda"]}"' not in json.dumps(view)
        if state["scores"] is None:
            own = set()
            if seat is not None:
                mine = state["seats"][seat]
                own = set(mine["draft_offer"] or []) | {mine["secret_agenda"]}
            assert agenda_words(view) <= own, f"seat {seat} sees another seat's Secret Agenda"
        if state["phase"] not in ("outcome", "resolution") and view["card"] is not None:
            assert set(view["card"]) == {"number", "title", "question", "front"}  # never the back
        # An action drawn from each choice applies, and reads as words.
        rng = random.Random(state["step"])
        for choice in RULES.legal_actions(state, seat):
            action = draw_action(RULES, state, choice, rng)
            assert RULES.describe(state, action, RULES.apply(state, action))


def random_config(data, count: int) -> dict:
    seats = []
    tokens = [(r, p) for r in RESOURCES for p in (True, False)]
    for i in range(count):
        seat = {
            "name": f"House {i}",
            "house": 10 + i,
            "house_number": i + 1,
            "prestige": data.draw(st.integers(0, 6)),
            "power": data.draw(st.integers(0, 10)),
            "coins": data.draw(st.integers(0, 12)),
        }
        if tokens and data.draw(st.booleans()):
            row, positive = tokens.pop(data.draw(st.integers(0, len(tokens) - 1)))
            seat["open_agendas"] = [{"sticker": 100 + i, "row": row, "positive": positive}]
        seats.append(seat)
    known = {"31": card(31, aye=outcome(("wealth", 2)), nay=outcome(("morale", -1)))}
    return {
        "king_name": "Harald V",
        "seats": seats,
        "resources": {r: data.draw(st.integers(-3, 3)) for r in RESOURCES},
        "dilemma_deck": [31, 40, 41],
        "known_cards": known,
        # What the campaign already holds: the synthetic cards and backs never name it again.
        "envelopes_opened": data.draw(st.lists(st.integers(0, 74), max_size=74)),
        "stickers_attached": data.draw(st.lists(st.integers(1, 177), max_size=176)),
        "cards_out_of_deck": {
            str(n): data.draw(st.sampled_from(["trash", "event_area", "story_slot"]))
            for n in data.draw(st.lists(st.integers(1, 60).filter(lambda n: n != 31), max_size=20))
        },
    }


@settings(max_examples=property_examples(25), deadline=None)
@given(data=st.data(), count=st.integers(3, 5), seed=st.integers(0, 2**31))
def test_random_games_keep_the_contract(data, count, seed):
    config = random_config(data, count)
    state, log = play_random_game(RULES, config, seed, check=check, pick=pick)
    assert state["over"]
    result = state["result"]
    assert result["end"] in ("king_died", "abdicated_top", "abdicated_bottom")
    assert len(result["seats"]) == count
    assert result["heir"] in result["winners"]
    assert min(s["position"] for s in result["seats"]) == 1
    assert result["resolved_dilemmas"] == state["time_counter"]
    # Each sticker and Envelope once, none the campaign already holds; no card out of the deck drawn.
    stickers = [s["number"] for s in result["stickers"]]
    envelopes = [e["number"] for e in result["envelopes"]]
    assert len(set(stickers)) == len(stickers) and not set(stickers) & set(config["stickers_attached"])
    assert len(set(envelopes)) == len(envelopes) and not set(envelopes) & set(config["envelopes_opened"])
    # ...unless a printed effect put it into the deck first (docs/rules-decisions.md).
    put_back = {str(n) for n in result["cards_to_deck"]}
    assert not set(result["cards_met"]) & (set(config["cards_out_of_deck"]) - put_back)
    json.dumps(result)
