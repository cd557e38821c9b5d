"""Pure legacy rules of The King's Dilemma (campaign/legacy.py), from the rulebook's examples."""

from campaign.legacy import (
    Sticker,
    open_agendas,
    power_legacy,
    resource_legacy,
    sticker_placement,
)
from games.engines.kings_dilemma.scoring import awards_for, rank


class StickerPlacementTests:
    def test_leftmost_empty_space_is_taken(self):
        """'Apply Chronicle stickers': the empty space furthest to the left."""
        row = [Sticker("morale", 0, True, "a", 2), Sticker("morale", 2, False, "b", 0)]
        assert sticker_placement(row, 5) == (1, None)

    def test_full_row_covers_the_sticker_with_most_marks(self):
        row = [Sticker("morale", i, True, "a", m) for i, m in enumerate([1, 4, 2, 4, 0])]
        assert sticker_placement(row, 5) == (1, 1)  # tie of 4 marks: the leftmost

    def test_capacity_comes_from_settings(self):
        row = [Sticker("wealth", 0, True, "a", 1)]
        assert sticker_placement(row, 1) == (0, 0)


class ResourceAndPowerLegacyTests:
    def test_power_legacy_example_tony_and_catherine(self):
        """'Apply Power Legacy' example: Tony 3 positive and 1 negative gains 2; Catherine 2 negative loses 2."""
        stickers = [
            Sticker("influence", 0, True, "Tony"),
            Sticker("wealth", 0, True, "Tony"),
            Sticker("morale", 0, True, "Tony"),
            Sticker("welfare", 0, False, "Tony"),
            Sticker("knowledge", 0, False, "Catherine"),
            Sticker("knowledge", 1, False, "Catherine"),
        ]
        assert power_legacy(stickers) == {"Tony": 2, "Catherine": -2}

    def test_resource_legacy_counts_positives_minus_negatives_per_row(self):
        """'Apply Resource Legacy'."""
        stickers = [
            Sticker("wealth", 0, True, None),
            Sticker("wealth", 1, True, None),
            Sticker("morale", 0, False, None),
        ]
        assert resource_legacy(stickers) == {
            "influence": 0,
            "wealth": 2,
            "morale": -1,
            "welfare": 0,
            "knowledge": 0,
        }


class OpenAgendaTests:
    def test_rulebook_example_laura_charles_martina_valentine_noah(self):
        """'Assign Open Agendas' example: Charles is absent, so Laura takes Positive Influence; Martina's
        sticker is the oldest (3 marks); Valentine and Noah tie at 1 mark and Noah's is rightmost."""
        stickers = [
            Sticker("influence", 0, True, "Charles", 2),
            Sticker("influence", 1, True, "Laura", 2),
            Sticker("morale", 0, False, "Martina", 3),
            Sticker("morale", 1, False, "Valentine", 1),
            Sticker("morale", 2, False, "Noah", 1),
        ]
        result = open_agendas(stickers, {"Laura", "Martina", "Valentine", "Noah"})
        assert result.tokens == {"Laura": [("influence", True)], "Noah": [("morale", False)]}
        assert result.choices == []

    def test_absent_signers_are_ignored_and_the_next_most_recent_wins(self):
        stickers = [Sticker("wealth", 0, True, "Ann", 3), Sticker("wealth", 1, True, "Bob", 0)]
        assert open_agendas(stickers, {"Ann"}).tokens == {"Ann": [("wealth", True)]}

    def test_more_than_two_tokens_of_a_kind_become_a_choice(self):
        """At most 2 Positive and 2 Negative Open Agendas: the House chooses which to keep."""
        stickers = [Sticker(row, 0, True, "Ann", 0) for row in ["influence", "wealth", "morale"]]
        result = open_agendas(stickers, {"Ann"})
        assert result.tokens == {}
        assert result.choices == [("Ann", True, ["influence", "wealth", "morale"])]


class RankingTests:
    """The ranking and the Prestige/Crave table are the engine's (games.engines.kings_dilemma.scoring)."""

    def test_king_harald_v_table(self):
        """'Mark scores on the Realm Chronicles': Valentine 7, Martina 11, Armin 7, Charles 9, Theodore 10.
        Valentine and Armin share 4th and, being lowest, both take the Last row."""
        totals = [7, 11, 7, 9, 10]
        assert rank(totals) == [(4, True), (1, False), (4, True), (3, False), (2, False)]
        awards = awards_for("king_died", totals, ["moderate"] * 5)
        assert [(a["prestige"], a["crave"]) for a in awards] == [(0, 2), (3, 0), (0, 2), (2, 1), (2, 0)]

    def test_all_equal_totals_all_take_the_first_row(self):
        assert rank([5, 5, 5]) == [(1, False)] * 3
        awards = awards_for("abdicated_bottom", [5, 5, 5], ["moderate"] * 3)
        assert [(a["prestige"], a["crave"]) for a in awards] == [(0, 2)] * 3

    def test_abdication_rows(self):
        top = awards_for("abdicated_top", [9, 8, 7, 6], ["moderate"] * 4)
        assert (top[2]["prestige"], top[2]["crave"]) == (1, 0)
        bottom = awards_for("abdicated_bottom", [9, 8, 7], ["moderate"] * 3)
        assert [(a["prestige"], a["crave"]) for a in bottom[1:]] == [(0, 2), (2, 0)]

    def test_the_rebel_adds_crave_only_when_the_king_abdicated(self):
        agendas = ["rebel", "moderate", "greedy"]
        assert [a["rebel_crave"] for a in awards_for("abdicated_top", [3, 2, 1], agendas)] == [1, 0, 0]
        assert [a["rebel_crave"] for a in awards_for("king_died", [3, 2, 1], agendas)] == [0, 0, 0]
