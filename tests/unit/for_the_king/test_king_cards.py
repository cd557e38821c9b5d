"""King cards and Duty tiles ('Receiving King cards' and 'Secondary Duty tiles' in the rulebook)."""

import pytest

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.board import secondary_value
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.errors import RuleError
from tests.unit.for_the_king.builders import act, esteem, gold, king


def pending(effect: str, primaries: dict | None = None, count: int = 3) -> dict:
    """Anna must use a King card with ``effect`` (as if she had just won it)."""
    state = esteem(count, [[] for _ in range(count)], [gold(1)[0]], primaries=primaries)
    state["king_card"] = {"seat": 0, "card": king(effect), "then": "next_round"}
    state["phase"] = "king_card"
    return state


def options(state: dict) -> list[list[tuple[str, int]]]:
    """The ways the one King card choice offers, as (office, change) pairs."""
    (king_choice,) = RULES.legal_actions(state, 0)
    assert king_choice["type"] == "king_card" and set(king_choice["params"]) == {"changes"}
    return [[(c["office"], c["change"]) for c in o] for o in king_choice["params"]["changes"]["options"]]


def use(state: dict, *changes: tuple[str, int]) -> dict:
    return act(state, "king_card", 0, changes=[{"office": o, "change": c} for o, c in changes])


def primaries(state: dict) -> dict[str, int]:
    return {office: duty["primary"] for office, duty in state["duties"].items()}


ALL3 = {"diplomacy": 3, "military": 3, "architecture": 3, "livestock": 3, "entertainment": 3}


class KingCardEffectTests:
    def test_plus_one_on_one_tile(self):
        """'Modify the value of a single Primary Duty tile of your choice by 1, as shown on the card.'"""
        state = use(pending("plus1"), ("livestock", 1))
        assert primaries(state) == {**ALL3, "livestock": 4}
        assert len(options(pending("plus1"))) == 5

    def test_minus_one_on_one_tile(self):
        state = use(pending("minus1"), ("diplomacy", -1))
        assert primaries(state) == {**ALL3, "diplomacy": 2}

    def test_increase_or_decrease_one_tile(self):
        """'Increase or decrease the value of a single Primary Duty tile of your choice by 1.'"""
        assert len(options(pending("plus_or_minus1"))) == 10
        state = use(pending("plus_or_minus1"), ("military", -1))
        assert primaries(state) == {**ALL3, "military": 2}
        state = use(pending("plus_or_minus1"), ("military", 1))
        assert primaries(state) == {**ALL3, "military": 4}

    def test_plus_one_on_two_different_tiles(self):
        """'Modify the value of two different Primary Duty tiles of your choice by 1.'"""
        assert len(options(pending("plus1_two"))) == 10  # 5 offices, 2 of them
        state = use(pending("plus1_two"), ("entertainment", 1), ("diplomacy", 1))
        assert primaries(state) == {**ALL3, "diplomacy": 4, "entertainment": 4}

    def test_minus_one_on_two_different_tiles(self):
        state = use(pending("minus1_two"), ("architecture", -1), ("livestock", -1))
        assert primaries(state) == {**ALL3, "architecture": 2, "livestock": 2}

    def test_increase_one_tile_and_decrease_a_different_one(self):
        """'Increase the value of a single Primary Duty tile. Then, decrease the value of a different
        Primary Duty tile.'"""
        assert len(options(pending("plus1_minus1_two"))) == 20
        state = use(pending("plus1_minus1_two"), ("military", 1), ("diplomacy", -1))
        assert primaries(state) == {**ALL3, "military": 4, "diplomacy": 2}

    def test_the_used_king_card_goes_back_to_the_box_and_play_goes_on(self):
        """'If they won a King card, they immediately apply its effect then discard it.'"""
        state = use(pending("plus1"), ("livestock", 1))
        assert state["king_cards_used"] == [king("plus1")]
        assert state["king_card"] is None
        assert state["phase"] == "reveal" and state["first_player"] == 1

    def test_king_cards_work_on_the_sixth_office_with_five_players(self):
        state = use(pending("plus1", count=5), ("provisions", 1))
        assert state["duties"]["provisions"] == {"primary": 4, "secondary": 2}


class DutyTileLimitTests:
    def test_no_tile_goes_above_six_or_below_one(self):
        """'You cannot decrease a value below 1 and you cannot increase a value above 6.'"""
        state = pending("plus_or_minus1", {"diplomacy": 6, "military": 1})
        assert ("diplomacy", 1) not in [o[0] for o in options(state)]
        assert ("military", -1) not in [o[0] for o in options(state)]
        with pytest.raises(RuleError) as error:
            use(state, ("diplomacy", 1))
        assert error.value.message == msg.KING_LIMITS
        with pytest.raises(RuleError) as error:
            use(state, ("military", -1))
        assert error.value.message == msg.KING_LIMITS

    def test_a_card_that_cannot_be_used_in_full_does_what_it_can(self):
        """Decision 'King card that cannot be used in full': +1 on two tiles with only one tile
        below 6 raises that tile only."""
        state = pending(
            "plus1_two",
            {"diplomacy": 5, "military": 6, "architecture": 6, "livestock": 6, "entertainment": 6},
        )
        assert options(state) == [[("diplomacy", 1)]]
        assert primaries(use(state, ("diplomacy", 1)))["diplomacy"] == 6

    def test_a_card_that_can_do_nothing_is_used_without_change(self):
        state = pending("minus1", dict.fromkeys(ALL3, 1))
        assert options(state) == [[]]
        state = use(state)
        assert primaries(state) == dict.fromkeys(ALL3, 1)
        assert state["king_cards_used"] == [king("minus1")]

    def test_a_complete_use_is_required_when_the_board_allows_it(self):
        with pytest.raises(RuleError) as error:
            use(pending("plus1_two"), ("diplomacy", 1))
        assert error.value.message == msg.KING_NOT_THE_CARD.format(
            words="+1 on two different Primary Duty tiles"
        )


class KingCardErrorTests:
    def test_the_change_must_match_the_card(self):
        with pytest.raises(RuleError) as error:
            use(pending("plus1"), ("diplomacy", -1))
        assert error.value.message == msg.KING_NOT_THE_CARD.format(words="+1 on one Primary Duty tile")

    @pytest.mark.parametrize(
        "changes",
        [
            None,
            "diplomacy",
            [{"office": "diplomacy"}],
            [{"office": "diplomacy", "change": 2}],
            [["diplomacy", 1]],
        ],
    )
    def test_changes_must_be_offices_with_plus_or_minus_one(self, changes):
        with pytest.raises(RuleError) as error:
            act(pending("plus1"), "king_card", 0, changes=changes)
        assert error.value.message == msg.KING_CHANGES_FORMAT

    def test_the_office_must_be_on_the_board(self):
        """Provisions (the pink suit) is only on the board with 5 players."""
        with pytest.raises(RuleError) as error:
            use(pending("plus1"), ("provisions", 1))
        assert error.value.message == msg.KING_UNKNOWN_OFFICE.format(office="provisions")

    def test_two_changes_need_two_different_tiles(self):
        with pytest.raises(RuleError) as error:
            use(pending("plus1_two"), ("diplomacy", 1), ("diplomacy", 1))
        assert error.value.message == msg.KING_SAME_TILE

    def test_only_the_receiver_uses_the_card(self):
        with pytest.raises(RuleError) as error:
            act(pending("plus1"), "king_card", 1, changes=[{"office": "diplomacy", "change": 1}])
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Anna", what="use a King card")

    def test_no_king_card_to_use(self):
        state = esteem(3, [[], [], []], [gold(1)[0]])
        with pytest.raises(RuleError) as error:
            act(state, "king_card", 0, changes=[])
        assert error.value.message == msg.NOT_NOW.format(what="use a King card")


class SecondaryDutyTileTests:
    @pytest.mark.parametrize(("primary", "secondary"), [(1, None), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
    def test_secondary_is_half_the_primary_rounded_down(self, primary, secondary):
        """'Secondary Duty tiles': half of the Primary (rounded down); at 0 there is no tile."""
        assert secondary_value(primary, 3) == secondary

    def test_secondary_follows_every_primary_change(self):
        """'Adjust the value of the Secondary Duty tiles ... any time you change a Primary Duty tile.'"""
        state = use(
            pending("plus1_minus1_two", {"military": 5, "diplomacy": 2}), ("military", 1), ("diplomacy", -1)
        )
        assert state["duties"]["military"] == {"primary": 6, "secondary": 3}
        assert state["duties"]["diplomacy"] == {"primary": 1, "secondary": None}
        state = use(pending("plus1", {"diplomacy": 1}), ("diplomacy", 1))
        assert state["duties"]["diplomacy"] == {"primary": 2, "secondary": 1}

    def test_two_players_never_have_secondary_tiles(self):
        """'During a 2-player game, only the Primary Duty tiles are used.'"""
        state = use(pending("plus1", count=2), ("diplomacy", 1))
        assert state["duties"]["diplomacy"] == {"primary": 4, "secondary": None}
        assert all(d["secondary"] is None for d in state["duties"].values())
