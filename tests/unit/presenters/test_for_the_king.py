"""The For the King presenter alone, without a database: views recorded from seeded games of the
engine (tests/unit/for_the_king/builders.py), at each phase, for the table and for seats. The words
it shows for cards, prices and counts are the engine's own."""

import json
import random

import pytest

from games.engines.for_the_king.cards import label
from games.engines.for_the_king.rules import RULES
from games.engines.for_the_king.scoring import final_result
from games.engines.for_the_king.turn import limits
from games.engines.kernel.bots import bot_choose_action
from games.presenters.base import build_controls
from games.presenters.for_the_king import (
    DOING,
    GAME_OVER,
    KING_AT_ONCE,
    PRESENTER,
    PROMPT,
)
from tests.unit.for_the_king.builders import (
    NAMES,
    act,
    adviser_turn,
    ended,
    esteem,
    gold,
    gov,
    king,
    new_game,
)
from tests.unit.presenters.shown import shown_controls

G1, G2, G3 = gold(1), gold(2), gold(3)
DECK = [gov("military", "E"), gov("diplomacy", "A"), G3[0], gov("livestock", "B"), G2[0], G1[0]]


def names(count: int) -> dict[int, dict]:
    return {i: {"index": i, "name": NAMES[i], "hex": "#123456"} for i in range(count)}


def present(state: dict, seat=None) -> dict:
    view = RULES.view(state, seat)
    return PRESENTER.present(view, names(len(state["seats"])), view["result"])


def controls(state: dict, seat: int, step=None) -> list[dict]:
    view = RULES.view(state, seat)
    return shown_controls(PRESENTER, RULES.legal_actions(state, seat), view, names(len(state["seats"])), step)


class SetupTests:
    def test_the_table_before_the_deal(self):
        shown = present(new_game(3))
        assert shown["phase"] == "Setup"
        assert shown["doing"] == DOING["deal"] and shown["prompt"] == ""
        assert shown["areas"] == [] and shown["offer"] is None
        assert [g["office"] for g in shown["government"]][:2] == ["Diplomacy", "Military"]
        assert [s["name"] for s in shown["seats"]] == NAMES[:3]

    def test_the_table_view_has_no_private_part(self):
        assert PRESENTER.private(RULES.view(new_game(3), None)) is None


class ShareInfluenceTests:
    def test_the_adviser_sees_the_card_drawn_in_the_engines_words(self):
        """'Distribute Cards': only the Adviser sees the card it drew."""
        state = adviser_turn(3, DECK, adviser=1)
        private = PRESENTER.private(RULES.view(state, 1))
        assert private["drawn"]["label"] == label(DECK[0]) == "Military 3 (E)"
        assert PRESENTER.private(RULES.view(state, 0))["drawn"] is None

    def test_the_areas_show_the_engines_limits(self):
        state = act(adviser_turn(3, DECK, adviser=0), "place", 0, area="middle")
        shown = present(state)
        room = limits(state)
        assert [(a["placed"], a["limit"]) for a in shown["areas"]] == [
            (0, room["personal"]),
            (1, room["middle"]),
            (0, room["favor"]),
        ]
        assert shown["doing"] == "Anna is the Adviser: Distribute Cards (1 of 4 placed) and holds a card."
        assert present(state, 0)["prompt"] == "You are the Adviser: place the card you drew (1 of 4 placed)."
        assert [c["label"] for c in shown["middle"]] == [label(DECK[0])]

    def test_a_king_card_with_many_uses_is_asked_tile_first(self):
        """'Receiving King cards': +1 on two different tiles, 5 offices: more ways than KING_AT_ONCE."""
        state = act(adviser_turn(3, [king("plus1_two"), *DECK]), "place", 0, area="personal")
        options = RULES.legal_actions(state, 0)[0]["params"]["changes"]["options"]
        assert len(options) > KING_AT_ONCE
        tiles = controls(state, 0)[0]
        assert (tiles["kind"], tiles["type"]) == ("links", "king_card")
        assert [link["data"] for link in tiles["links"]] == state["offices"]
        assert [link["detail"] for link in tiles["links"]] == ["Primary Duty 3"] * len(state["offices"])
        narrowed = controls(state, 0, {"office": "military"})
        assert narrowed[0]["label"] == "Another Primary Duty tile"
        assert present(state)["doing"] == "Anna reveals a King card: +1 on two different Primary Duty tiles."


class GainEsteemTests:
    def test_the_first_bid_then_a_raise(self):
        state = act(esteem(3, [[G3[0]], [G2[0]], []], [gov("military", "H")]), "reveal", 0)
        assert present(state)["doing"] == DOING["first_bid"].format(who="Anna")
        assert present(state, 0)["prompt"] == PROMPT["first_bid"]
        state = act(state, "bid", 0, amount=2)
        shown = present(state)
        assert shown["phase"] == "Gain Esteem Phase"
        assert shown["doing"] == "Ben: Raise or Pass. Anna bid 2."
        assert shown["offer"]["label"] == label(gov("military", "H"))
        assert [s["last_bid"] for s in shown["seats"]] == [2, None, None]
        assert shown["high_bid"] == 2 and shown["high_bidder"] == "Anna"

    def test_the_payment_title_is_the_engines_debt(self):
        """'End of a round': the winner pays the bid in Gold; each Gold card's worth is its value."""
        state = act(esteem(2, [[G1[0], G2[0], G3[0]], []], [gov("military", "H")]), "reveal", 0)
        state = act(act(state, "bid", 0, amount=4), "pass", 1)
        owed = state["payment"]["owed"]
        view = RULES.view(state, 0)
        choices = RULES.legal_actions(state, 0)
        [group] = build_controls(choices, PRESENTER.words(view, names(2), choices))
        assert group["kind"] == "offers" and group["title"] == f"Pay {owed} Gold"
        # Issue 29: a bid of 4 with 1, 2 and 3 offers 3 + 1 and 3 + 2, never 1 + 2 (3, refused).
        assert [(o["label"], o["coins"]) for o in group["offers"]] == [
            (f"{label(G3[0])} + {label(G1[0])}", "4 Gold"),
            (f"{label(G3[0])} + {label(G2[0])}", "5 Gold"),
        ]
        assert [sorted(v for f, v in o["fields"]) for o in group["offers"]] == [
            sorted(json.dumps(c) for c in (G1[0], G3[0])),
            sorted(json.dumps(c) for c in (G2[0], G3[0])),
        ]
        assert present(state)["payment"]["pays_with"] == "gold"
        assert present(state)["doing"] == f"Anna won the card and pays {owed} Gold."

    def test_a_gold_card_won_is_paid_in_cards(self):
        hand = [gov("military", "A"), gov("diplomacy", "A"), G1[0]]
        state = act(esteem(2, [hand, []], [G3[1]]), "reveal", 0)
        state = act(act(state, "bid", 0, amount=2), "pass", 1)
        assert present(state)["doing"] == "Anna won the Gold card and discards 2 cards more face down."
        state = act(state, "discard", 0, card=hand[0])
        assert present(state, 0)["prompt"] == "You won the Gold card: discard 1 card face down."

    def test_who_cannot_pay_loses_a_random_card(self):
        state = act(esteem(3, [[G1[0]], [gov("military", "A")], []], [gov("military", "H")]), "reveal", 0)
        state = act(act(act(state, "bid", 0, amount=3), "pass", 1), "pass", 2)
        assert present(state)["payment"]["cannot_pay"] is True
        view = RULES.view(state, 1)
        choices = RULES.legal_actions(state, 1)
        words = PRESENTER.words(view, names(3), choices)
        assert words.title(choices[0]) == "Draw a random card from Anna's hand"


class EndTests:
    def test_the_result_is_the_engines(self):
        hands = [[gov("military", "A"), G2[0]], [gov("diplomacy", "A")], []]
        state = ended(3, hands)
        shown = present(state)
        expected = final_result(state)
        assert shown["doing"] == GAME_OVER
        assert [r["name"] for r in shown["result"]["rows"]] == [NAMES[i] for i in expected["ranking"]]
        assert [r["score"] for r in shown["result"]["rows"]] == [
            expected["scores"][i] for i in expected["ranking"]
        ]
        assert shown["result"]["winners"] == ["Anna"]


@pytest.mark.parametrize("count", [2, 5])
def test_every_view_of_a_seeded_game_is_presented(count):
    """Each view of a whole bot game, table and seats: the presenter reads only declared keys."""
    state = RULES.setup({"seats": [{"name": n} for n in NAMES[:count]]}, 11 + count)
    rng = random.Random(count)
    while not state["over"]:
        for seat in [None, *range(count)]:
            view = RULES.view(state, seat)
            assert present(state, seat)["doing"]
            PRESENTER.private(view)
            shown_controls(PRESENTER, RULES.legal_actions(state, seat), view, names(count), None)
        seat = RULES.to_act(state)[0]
        state = RULES.apply(state, bot_choose_action(RULES, state, seat, rng))
    assert present(state)["result"]["rows"]
