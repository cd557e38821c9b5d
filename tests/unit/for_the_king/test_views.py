"""What each seat and the table screen see, and the action labels shown to everyone."""

import json

from games.engines.for_the_king.rules import RULES
from tests.unit.contract import described
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

G1, G2, G3 = gold(1), gold(2), gold(3)
DECK = [gov("military", "E"), gov("diplomacy", "A"), G3[0], gov("livestock", "B"), G2[0], G1[0]]


def views(state):
    return {seat: RULES.view(state, seat) for seat in [None, *range(len(state["seats"]))]}


class ViewTests:
    def test_the_table_screen_before_the_deal(self):
        view = RULES.view(new_game(3), None)
        assert view["part"] == "setup" and view["phase"] == "deal"
        assert view["to_act"] == [None]
        assert "private" not in view and view["you"] is None
        assert [g["office"] for g in view["government"]] == [
            "diplomacy",
            "military",
            "architecture",
            "livestock",
            "entertainment",
        ]
        assert view["government"][0] == {
            "office": "diplomacy",
            "colour": "blue",
            "primary": 3,
            "secondary": 1,
        }
        assert [s["name"] for s in view["seats"]] == ["Anna", "Ben", "Chloe"]

    def test_only_the_adviser_sees_the_card_drawn(self):
        """'Consider it carefully without showing it to the other players.'"""
        state = adviser_turn(3, DECK, adviser=1)
        seen = views(state)
        assert seen[1]["private"]["drawn"]["id"] == DECK[0]
        assert seen[0]["private"]["drawn"] is None
        assert all(DECK[0] not in json.dumps(seen[s]) for s in (None, 0, 2))
        assert all(v["adviser_holds_card"] for v in seen.values())
        assert seen[None]["to_act"] == [1] and seen[None]["adviser"] == 1

    def test_personal_deck_and_favor_deck_are_face_down(self):
        state = adviser_turn(3, DECK, adviser=0)
        for area in ("personal", "favor", "middle"):
            state = act(state, "place", 0, area=area)
        seen = views(state)
        assert [c["id"] for c in seen[0]["private"]["personal_deck"]] == [DECK[0]]
        assert seen[1]["seats"][0]["personal_deck_count"] == 1
        assert seen[None]["favor_deck_count"] == 1
        for seat, view in seen.items():
            text = json.dumps(view)
            assert DECK[1] not in text  # on the Favor deck
            assert (DECK[0] in text) == (seat == 0)
            assert [c["id"] for c in view["middle"]] == [DECK[2]]  # face up
        assert seen[None]["placed"] == {"personal": 1, "middle": 1, "favor": 1}
        assert seen[None]["limits"] == {"personal": 1, "middle": 2, "favor": 1}

    def test_the_bidding_and_the_offer_are_public(self):
        state = act(esteem(3, [[G3[0]], [G2[0]], []], [king("plus1")]), "reveal", 0)
        state = act(state, "bid", 0, amount=2)
        view = RULES.view(state, None)
        assert view["offer"]["effect"] == "plus1"
        assert view["bidding"]["high_bid"] == 2 and view["bidding"]["turn"] == 1
        assert view["bidding"]["last_bids"] == [2, None, None]
        assert view["seats"][0]["hand_count"] == 1
        assert RULES.view(state, 0)["private"]["gold"] == 3

    def test_a_pending_king_card_is_shown_to_all(self):
        state = act(adviser_turn(3, [king("plus1_two"), *DECK]), "place", 0, area="personal")
        view = RULES.view(state, 2)
        assert view["king_card"]["seat"] == 0
        assert view["king_card"]["effect"] == "+1 on two different Primary Duty tiles"

    def test_the_payment_is_public(self):
        state = act(esteem(2, [[G1[0]], []], [gov("military", "H")]), "reveal", 0)
        state = act(act(state, "bid", 0, amount=3), "pass", 1)
        assert RULES.view(state, None)["payment"] == {
            "seat": 0,
            "owed": 3,
            "paid": 0,
            "pays_with": "gold",
            "cannot_pay": True,
        }

    def test_scores_at_the_end_without_revealing_hands(self):
        hands = [[gov("military", "A"), G2[0]], [gov("diplomacy", "A")], []]
        state = ended(3, hands)
        view = RULES.view(state, None)
        assert view["over"] is True and view["to_act"] == []
        assert view["result"]["scores"] == [3, 3, 0] and view["result"]["winners"] == [0]
        text = json.dumps(view)
        assert all(c not in text for hand in hands for c in hand)


class DescribeTests:
    def test_hidden_placements_never_name_the_card(self):
        state = adviser_turn(3, DECK)
        assert (
            described(RULES, state, {"type": "place", "seat": 0, "area": "personal"})
            == "Anna kept a card face down in their personal deck; Anna drew the next card"
        )
        assert (
            described(RULES, state, {"type": "place", "seat": 0, "area": "favor"})
            == "Anna placed a card on the Favor deck; Anna drew the next card"
        )

    def test_face_up_cards_are_named(self):
        state = adviser_turn(3, DECK)
        assert (
            described(RULES, state, {"type": "place", "seat": 0, "area": "middle"})
            == "Anna placed Military 3 (E) in the middle of the table; Anna drew the next card"
        )
        state = act(state, "place", 0, area="middle")
        assert (
            described(RULES, state, {"type": "choose", "seat": 1, "card": DECK[0]})
            == "Ben took Military 3 (E) from the middle of the table"
        )

    def test_a_king_card_kept_is_named_because_it_is_revealed(self):
        state = adviser_turn(3, [king("minus1"), *DECK])
        assert described(RULES, state, {"type": "place", "seat": 0, "area": "personal"}) == (
            "Anna kept King card (-1 on one Primary Duty tile) and reveals it"
        )

    def test_labels_from_the_state_after_never_name_the_next_favor_card(self):
        state = esteem(3, [[], [], []], [gov("military", "H"), gov("diplomacy", "I")])
        action = {"type": "reveal", "seat": 0}
        after = RULES.apply(state, action)
        assert described(RULES, state, action) == described(RULES, after, action)
        assert "Diplomacy" not in described(RULES, after, action)

    def test_the_table_deals(self):
        """'Setup' step 7 and 'Distribute Cards': the first Adviser's compulsory draw is said with
        the deal that made it (issue 26: no tap for it)."""
        state = new_game(2)
        adviser = RULES.apply(state, {"type": "deal", "seat": None})["adviser"]
        assert described(RULES, state, {"type": "deal", "seat": None}) == (
            f"The table shuffled the cards and dealt the deck; {NAMES[adviser]} is the Adviser and "
            "drew the top card of the deck"
        )

    def test_the_new_advisers_draw_is_said_after_the_last_choice(self):
        """'Change Adviser': the new Adviser begins with the Distribute Cards step."""
        state = adviser_turn(2, DECK)
        for area in ("middle", "favor", "personal"):
            state = act(state, "place", 0, area=area)
        assert described(RULES, state, {"type": "choose", "seat": 1, "card": DECK[0]}) == (
            "Ben took Military 3 (E) from the middle of the table; Ben is the Adviser and drew the "
            "top card of the deck"
        )

    def test_gain_esteem_labels(self):
        state = esteem(3, [[G1[0], G3[0]], [gov("livestock", "A")], []], [gov("military", "H")])
        assert (
            described(RULES, state, {"type": "reveal", "seat": 0})
            == "Anna revealed Military 4 (H) from the Favor deck"
        )
        state = act(state, "reveal", 0)
        assert described(RULES, state, {"type": "bid", "seat": 0, "amount": 3}) == "Anna bid 3"
        assert described(RULES, state, {"type": "pass", "seat": 0}) == "Anna passed"
        assert (
            described(RULES, state, {"type": "pay_gold", "seat": 0, "cards": [G1[0], G3[0]]})
            == "Anna paid 4 Gold (1 + 3)"
        )
        assert described(RULES, state, {"type": "discard", "seat": 0, "card": G1[0]}) == (
            "Anna discarded a card face down"
        )
        state = act(act(act(act(state, "bid", 0, amount=1), "bid", 1, amount=5), "pass", 2), "pass", 0)
        assert described(RULES, state, {"type": "draw_random_card", "seat": 2}) == (
            "Chloe drew a random card from Ben's hand and discarded it face down"
        )

    def test_king_card_label(self):
        state = act(adviser_turn(3, [king("plus1_minus1_two"), *DECK]), "place", 0, area="personal")
        changes = [{"office": "military", "change": 1}, {"office": "diplomacy", "change": -1}]
        assert described(RULES, state, {"type": "king_card", "seat": 0, "changes": changes}) == (
            "Anna used a King card: Military 3 → 4, Diplomacy 3 → 2; Anna drew the next card"
        )

    def test_a_malformed_action_still_gets_a_label(self):
        state = new_game(2)
        assert described(RULES, state, {"type": "bid", "seat": 9, "amount": 1}) == "Someone bid 1"
        assert described(RULES, state, {"type": "king_card", "seat": 0, "changes": "x"})
        assert described(RULES, state, {"type": "dance", "seat": 0}) == "dance"
