"""'End of the Game': Duty tiles, victory points and every tie-break in order."""

from tests.unit.for_the_king.builders import ended, gold, gov

G1, G2, G3 = gold(1), gold(2), gold(3)


def m(letter):
    return gov("military", letter)


def d(letter):
    return gov("diplomacy", letter)


class DutyTileTests:
    def test_rulebook_example_nine_points_with_five_players(self):
        """'End of the Game' example: in a 5-player game you have the most in Military and
        Entertainment and the second most in Provisions: 3 tiles, 9 victory points."""
        you = [m("H"), gov("entertainment", "H"), gov("provisions", "A")]
        hands = [you, [gov("provisions", "H")], [m("A")], [], []]
        state = ended(5, hands, primaries={"military": 4, "entertainment": 3, "provisions": 4})
        result = state["result"]
        assert result["scores"][0] == 9  # Military 4 + Entertainment 3 + Provisions Secondary 2
        assert result["tiles"][0] == [
            {"office": "military", "duty": "primary", "value": 4},
            {"office": "entertainment", "duty": "primary", "value": 3},
            {"office": "provisions", "duty": "secondary", "value": 2},
        ]
        assert result["duties"]["military"] == {"primary": 0, "secondary": 2}
        assert result["duties"]["provisions"] == {"primary": 1, "secondary": 0}
        assert result["scores"] == [9, 4, 2, 0, 0]
        assert result["winners"] == [0]
        assert result["office_sums"]["military"] == [4, 0, 2, 0, 0]

    def test_office_tie_goes_to_the_card_closest_to_a_and_the_loser_takes_the_secondary(self):
        """'If there is a tie, the tied player with the card marked A (or closest to A) in that colour
        takes the tile ... In case of a tie for the Primary Duty, the player who lost the tie takes the
        corresponding Secondary Duty tile.'"""
        state = ended(3, [[m("C")], [m("B")], []])
        assert state["result"]["duties"]["military"] == {"primary": 1, "secondary": 0}
        assert state["result"]["scores"] == [1, 3, 0]

    def test_tie_for_second_place_is_broken_by_letters_too(self):
        """'If there is a tie between multiple players for second place, break the tie the same way.'"""
        state = ended(4, [[m("D")], [m("H")], [m("C")], []])
        assert state["result"]["duties"]["military"] == {"primary": 1, "secondary": 2}

    def test_the_next_highest_sum_takes_the_secondary(self):
        state = ended(3, [[m("A"), m("B")], [m("I")], [m("C")]])  # sums 4, 4, 2
        assert state["result"]["duties"]["military"] == {"primary": 0, "secondary": 1}

    def test_only_players_with_cards_of_the_office_take_its_tiles(self):
        """Decision 'Nobody else holds the colour': a player with no card of the office is not 'the
        next highest sum'."""
        state = ended(3, [[m("A")], [], []])
        assert state["result"]["duties"]["military"] == {"primary": 0, "secondary": None}
        assert state["result"]["duties"]["diplomacy"] == {"primary": None, "secondary": None}
        assert state["result"]["scores"] == [3, 0, 0]

    def test_no_secondary_tile_when_the_primary_is_one(self):
        """'If this value is 0, do not put any Secondary Duty tile on the board.'"""
        state = ended(3, [[m("A")], [m("B")], []], primaries={"military": 1})
        assert state["result"]["duties"]["military"] == {"primary": 0, "secondary": None}
        assert state["result"]["scores"] == [1, 0, 0]

    def test_two_players_score_primary_tiles_only(self):
        """'During a 2-player game, only the Primary Duty tiles are used.'"""
        state = ended(2, [[m("A")], [m("B")]])
        assert state["result"]["duties"]["military"] == {"primary": 0, "secondary": None}
        assert state["result"]["scores"] == [3, 0]

    def test_duty_values_at_the_end_count(self):
        state = ended(3, [[m("A")], [d("A")], []], primaries={"military": 6, "diplomacy": 2})
        assert state["result"]["scores"] == [6, 2, 0]


class FinalTieBreakTests:
    def test_most_gold_breaks_a_tie_in_the_lead(self):
        """'If there's a tie between players in the lead, the tied player with the highest value in
        Gold cards wins.'"""
        state = ended(3, [[m("A"), G1[0]], [d("A"), G2[0]], []])
        assert state["result"]["scores"] == [3, 3, 0]
        assert state["result"]["gold"] == [1, 2, 0]
        assert state["result"]["winners"] == [1]
        assert state["result"]["ranking"] == [1, 0, 2]

    def test_gold_comes_before_diplomacy_cards(self):
        # Anna: Diplomacy (A+B) 3 points, 3 Gold; Ben: Military 3 points, 1 Diplomacy card, no Gold.
        state = ended(2, [[d("A"), d("B"), G3[0]], [d("C"), m("A")]])
        assert state["result"]["scores"] == [3, 3]
        assert state["result"]["winners"] == [0]

    def test_then_the_most_diplomacy_cards(self):
        """'If there is still a tie, the one with the most Diplomacy cards wins.'"""
        state = ended(2, [[d("B"), d("C")], [d("A"), m("A")]])
        # Anna 4 Diplomacy beats Ben's 2: 3 points each (Diplomacy / Military).
        assert state["result"]["scores"] == [3, 3]
        assert state["result"]["winners"] == [0]

    def test_then_the_diplomacy_card_closest_to_a(self):
        """'If there is still a tie, the one who has the blue card with A (or closest to A) wins.'"""
        state = ended(2, [[d("B"), m("A")], [d("A")]])
        assert state["result"]["scores"] == [3, 3]
        assert state["result"]["winners"] == [1]

    def test_without_diplomacy_cards_entertainment_decides(self):
        """'If no tied player has any Diplomacy cards, follow the same steps with the Entertainment
        cards, then Livestock, Architecture, Military, and Provision cards.'"""
        ent, liv = (lambda x: gov("entertainment", x)), (lambda x: gov("livestock", x))
        state = ended(2, [[ent("C"), liv("A")], [ent("A"), ent("B")]])
        assert state["result"]["scores"] == [3, 3]
        assert state["result"]["winners"] == [1]

    def test_livestock_comes_before_architecture_and_military(self):
        arch, liv = (lambda x: gov("architecture", x)), (lambda x: gov("livestock", x))
        # Anna: Livestock 3 points with 1 card; Ben: Architecture 3 points with 2 cards + Military.
        state = ended(3, [[liv("A")], [arch("A"), arch("B"), m("A")], [m("B"), m("C")]])
        assert state["result"]["duties"]["military"] == {"primary": 2, "secondary": 1}
        assert state["result"]["scores"] == [3, 4, 3]
        assert state["result"]["ranking"] == [1, 0, 2]

    def test_down_to_provisions_and_shared_places(self):
        """The chain reaches Provisions (5 players); seats still tied share their place."""
        prov = lambda x: gov("provisions", x)  # noqa: E731
        hands = [[prov("A")], [], [prov("H"), prov("I")], [prov("F"), prov("G")], []]
        state = ended(5, hands)
        result = state["result"]
        assert result["scores"] == [0, 0, 3, 1, 0]
        assert result["ranking"] == [2, 3, 0, 1, 4]
        assert result["positions"] == [3, 4, 1, 2, 4]
        assert result["winners"] == [2]

    def test_a_tie_nothing_breaks_is_shared(self):
        """Decision 'A tie nothing breaks': all tied players win."""
        state = ended(3, [[G1[0]], [G1[1]], []])
        assert state["result"]["winners"] == [0, 1]
        assert state["result"]["positions"] == [1, 1, 3]


class TieNoteTests:
    """The table page explains each tie of the final scoring (the issue: 'with each tie explained')."""

    def test_an_office_tie_names_the_letter_that_decided(self):
        state = ended(3, [[m("C")], [m("B")], []])
        names = [s["name"] for s in state["seats"]]
        assert (
            f"Military: {names[0]} and {names[1]} tied at 2; {names[1]}'s card B is closest to A "
            f"and takes the Primary, {names[0]} the Secondary." in state["result"]["tie_notes"]
        )

    def test_a_points_tie_names_the_gold_that_broke_it(self):
        state = ended(3, [[m("A"), G1[0]], [d("A"), G2[0]], []])
        names = [s["name"] for s in state["seats"]]
        assert (
            f"{names[1]} and {names[0]} tied at 3 points; {names[1]} has the most Gold (2 to 1)."
            in state["result"]["tie_notes"]
        )

    def test_a_points_tie_broken_by_an_office_letter(self):
        state = ended(2, [[d("B"), m("A")], [d("A")]])
        names = [s["name"] for s in state["seats"]]
        assert (
            f"{names[1]} and {names[0]} tied at 3 points; {names[1]}'s Diplomacy card A is closest to A."
            in state["result"]["tie_notes"]
        )

    def test_a_shared_place_is_said(self):
        state = ended(3, [[G1[0]], [G1[1]], []])
        notes = state["result"]["tie_notes"]
        assert any(note.endswith("nothing breaks it: they share the place.") for note in notes)
