"""The log's words: every action as the session log says it (``describe``), and the words of a bonus
and of a Permit, which the log and the pages say alike."""

from typing import Any

from games.engines.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    BALCONY_WORDS,
    CARDS,
    CITIES,
    DISTANCES,
    ELECT_COINS,
    ENGAGE_COINS,
    JOKER,
    PERMITS,
    ROAD_COINS,
)
from games.engines.council_of_four.merchants import others_in
from games.engines.council_of_four.payments import payment_cost
from games.engines.kernel.describe import sentence
from games.engines.kernel.errors import RuleError
from games.engines.kernel.words import count, with_article

# The words of each bonus, for one and for more ({n} is the amount): the log and the pages say them alike.
BONUS_WORDS = {
    "victory_points": ("{n} Victory Point", "{n} Victory Points"),
    "coins": ("{n} Coin", "{n} Coins"),
    "servants": ("{n} Servant", "{n} Servants"),
    "politics_cards": ("{n} Politics card", "{n} Politics cards"),
    "nobility_steps": ("{n} step on the Nobility Track", "{n} steps on the Nobility Track"),
    "additional_main_action": ("an additional Main action", "{n} additional Main actions"),
    "city_token_bonus": ("the bonus of a City token again", "the bonus of {n} City tokens again"),
    "free_permit_tile": ("a free face-up Permit", "{n} free face-up Permits"),
    "permit_tile_bonus_again": ("a Permit's bonus again", "{n} Permit bonuses again"),
}


# Words for each choice's button (``Choice.title``, filled by the kernel's ``Rules.legal_actions``).
CHOICE_TITLES = {
    "deal": "Set up the board and deal the Politics cards",
    "elect": "Elect a Councilor",
    "acquire_permit": "Acquire a Permit",
    "build": "Place a Merchant with a Permit",
    "queen_build": "Place a Merchant with the help of the Queen",
    "engage_servant": "Engage a Servant",
    "change_permits": "Change the face-up Permits",
    "send_servant": "Send a Servant to elect a Councilor",
    "additional_main": "Perform an additional Main action",
    "end_turn": "End your turn",
    "choose_city_bonus": "Choose City token bonuses",
    "choose_permit_bonus": "Choose a Permit bonus",
    "take_free_permit": "Take a free Permit",
}
# One way to pay a Council (MAIN ACTION 2 and 4) on its button: "Black + 2 Jokers: 8 Coins".
PAYMENT_LABEL = "{cards}: {coins}"
QUEEN_PAYMENT_LABEL = "{cards}: {coins} ({roads} for the roads)"


def shape_words(shape: dict[str, int]) -> str:
    """Politics cards by colour, Jokers last: "Black + 2 Jokers"."""
    parts = []
    for colour, n in shape.items():
        word = "Joker" if colour == JOKER else colour
        parts.append(f"{n} {word}{'s' if colour == JOKER else ''}" if n > 1 else word)
    words = " + ".join(parts)
    return words[:1].upper() + words[1:]


def payment_label(shape: dict[str, int], coins: int, roads: int = 0) -> str:
    """A payment's words: its cards and its whole price (the Queen's roads included)."""
    if roads:
        return QUEEN_PAYMENT_LABEL.format(
            cards=shape_words(shape), coins=count(coins, "Coin"), roads=count(roads, "Coin")
        )
    return PAYMENT_LABEL.format(cards=shape_words(shape), coins=count(coins, "Coin"))


def bonus_words(bonus: dict) -> str:
    parts = []
    for key, amount in bonus.items():
        one, many = BONUS_WORDS.get(key, ("{n} " + key.replace("_", " "),) * 2)
        parts.append((one if amount == 1 else many).format(n=amount))
    return ", ".join(parts)


def _who(state: dict, seat: Any) -> str:
    try:
        return state["seats"][seat]["name"]
    except (IndexError, TypeError, KeyError):
        return "Someone"


def _cards(cards: Any) -> str:
    colours = [CARDS.get(c, "?") for c in cards or []]
    return f"{count(len(colours), 'Politics card')} ({', '.join(colours)})"


def permit_words(permit_id: str, *, bonus: bool = True) -> str:
    """A Permit as a player reads it on the tile: its cities and its bonus ("the Permit for Arkon
    and Burgen (2 Coins)"), never the data file's id. ``bonus=False``: its cities only (a Permit
    used to build, whose bonus was taken when it was acquired)."""
    tile = PERMITS[permit_id]
    names = [CITIES[c]["name"] for c in tile["cities"]]
    cities = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    words = bonus_words(tile["bonus"]) if bonus else ""
    return f"the Permit for {cities}" + (f" ({words})" if words else "")


def _servant_cost(state: dict, seat: int, city: str) -> str:
    cost = others_in(state, city, seat)
    if not cost:
        return ""
    return f", returning {count(cost, 'Servant')}"


# 'Phase 1: Draw a Card' happens by itself as a turn starts; the log says it with the action that
# started the turn (the card is never named: only its owner sees it).
FIRST_DRAW = "{label}; {who} drew a Politics card to begin the first turn"
TURN_ENDED_DREW = "{label}; {who} drew a Politics card"
TURN_PASSED_DREW = "{label}; the turn passes to {who}, who drew a Politics card"
NOTHING_TO_DRAW = "{label}; the turn passes to {who} (no Politics card left to draw)"


def describe(before: dict, action: dict, after: dict) -> str:
    """The action in the game's words, from the state before it. A drawn card is never named;
    the cards played to a Balcony are shown face up on the table, so their colours are. From
    ``after`` (the state the action led to), the next turn's draw it made is said too."""
    try:
        said = _describe(before, action)
    except (RuleError, KeyError, TypeError, ValueError, IndexError, AttributeError):
        return str(action.get("type") or "?").replace("_", " ")
    if after.get("over") or after.get("phase") == "deal":
        return said
    seat = after["current"]
    who = after["seats"][seat]["name"]
    drew = len(after["seats"][seat]["hand"]) > len(before["seats"][seat]["hand"])
    if before.get("phase") == "deal":
        return FIRST_DRAW.format(label=said, who=who)
    if seat == before.get("current"):
        return said
    if not drew:
        return NOTHING_TO_DRAW.format(label=said, who=who)
    template = TURN_ENDED_DREW if action.get("type") == "end_turn" else TURN_PASSED_DREW
    return template.format(label=said, who=who)


# The actions whose label is a fixed sentence.
SENTENCES = {
    "deal": "The table shuffled the decks, seated the Councilors and dealt 6 Politics cards to each player",
    "engage_servant": f"{{who}} engaged a Servant for {count(ENGAGE_COINS, 'Coin')}",
    "additional_main": f"{{who}} returned {count(ADDITIONAL_MAIN_SERVANTS, 'Servant')} to perform an additional Main action",
    "end_turn": "{who} ended their turn",
}


def _describe(state: dict, action: dict) -> str:
    kind = action.get("type")
    seat: Any = action.get("seat")
    who = _who(state, seat)
    said = sentence(SENTENCES, action, who=who)
    if said is not None:
        return said
    if kind == "elect":
        balcony = BALCONY_WORDS[action["balcony"]]
        councilor = with_article(f"{action['colour']} Councilor")
        return f"{who} elected {councilor} in the {balcony} and gained {count(ELECT_COINS, 'Coin')}"
    if kind == "send_servant":
        balcony = BALCONY_WORDS[action["balcony"]]
        return (
            f"{who} sent a Servant to elect {with_article(action['colour'] + ' Councilor')} in the {balcony}"
        )
    if kind == "acquire_permit":
        cost = payment_cost(state, seat, action["balcony"], action["cards"])
        balcony = BALCONY_WORDS[action["balcony"]]
        return (
            f"{who} satisfied the {balcony} with {_cards(action['cards'])}, paid {count(cost, 'Coin')} "
            f"and acquired {permit_words(action['permit'])}"
        )
    if kind == "build":
        city = CITIES[action["city"]]["name"]
        return (
            f"{who} placed a Merchant in {city} with {permit_words(action['permit'], bonus=False)}"
            f"{_servant_cost(state, seat, action['city'])}"
        )
    if kind == "queen_build":
        start, end = state["queen"], action["city"]
        roads = DISTANCES[start][end]
        cost = payment_cost(state, seat, "queen", action["cards"]) + ROAD_COINS * roads
        move = (
            f"moved the Queen from {CITIES[start]['name']} to {CITIES[end]['name']} ({count(roads, 'road')})"
            if roads
            else f"kept the Queen in {CITIES[end]['name']}"
        )
        return (
            f"{who} satisfied the Queen's Balcony with {_cards(action['cards'])}, {move}, paid {count(cost, 'Coin')} "
            f"and placed a Merchant there{_servant_cost(state, seat, end)}"
        )
    if kind == "change_permits":
        return f"{who} sent a Servant to change the face-up {action['region'].capitalize()} Permits"
    if kind == "choose_city_bonus":
        cities = [CITIES[c]["name"] for c in action["cities"]]
        tokens = " and ".join(cities)
        noun = "token" if len(cities) == 1 else "tokens"
        return f"{who} took again the bonus of the City {noun} of {tokens}"
    if kind == "choose_permit_bonus":
        return f"{who} took again the bonus of {permit_words(action['permit'])}"
    if kind == "take_free_permit":
        return f"{who} took {permit_words(action['permit'])} for free"
    return str(kind or "?").replace("_", " ")
