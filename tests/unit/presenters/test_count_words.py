"""A count and its noun on the King's Dilemma table agree: "1 Coin", "2 Coins", "1 point" (the table
showed "1 Coins"). Power, Prestige and Crave are counted like a mass ("1 Power", "3 Power")."""

import pytest
from django.template.loader import render_to_string

from games.engines.kernel.words import count, plural


@pytest.mark.parametrize(("coins", "words"), [(1, "1 Coin</dd>"), (0, "0 Coins</dd>"), (2, "2 Coins</dd>")])
def test_the_general_pool_counts_its_coins(coins, words):
    page = render_to_string(
        "games/kings_dilemma/_board.html", {"present": {"pool": {"power": 1, "coins": coins}}}
    )
    assert words in page and "1 Power ·" in page


@pytest.mark.parametrize(
    ("total", "words"), [(1, "1 point</span>"), (2, "2 points</span>"), (0, "0 points</span>")]
)
def test_a_ranking_row_counts_its_points(total, words):
    result = {"rows": [{"total": total, "name": "Anna", "position": 1}], "ties": [], "awards": []}
    page = render_to_string("games/kings_dilemma/_result.html", {"result": result})
    assert words in page


def test_a_regular_noun_after_a_number():
    assert (count(1, "Coin"), count(-1, "point"), count(2, "Coin"), count(0, "card")) == (
        "1 Coin",
        "-1 point",
        "2 Coins",
        "0 cards",
    )
    assert (plural(1), plural(-1), plural(0), plural(3)) == ("", "", "s", "s")
