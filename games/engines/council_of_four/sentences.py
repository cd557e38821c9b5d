"""The log's words: every action as the session log says it (``describe``), and the words of a bonus
and of a Permit, which the log and the pages say alike. Each is a message id with its values (the
kernel's ``messages``), so the log reads in each reader's language; city names are the board's."""

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from games.engines.council_of_four.board import (
    A_COUNCILOR,
    ADDITIONAL_MAIN_SERVANTS,
    BALCONY_WORDS,
    CARDS,
    CITIES,
    COLOUR_NAMES,
    COLOUR_WORDS,
    DISTANCES,
    ELECT_COINS,
    ENGAGE_COINS,
    JOKER,
    PERMITS,
    ROAD_COINS,
    region_word,
)
from games.engines.council_of_four.merchants import others_in
from games.engines.council_of_four.payments import payment_cost
from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import Message, gettext_noop, join, ngettext


def _coins(n: int) -> Message:
    return ngettext("{n} Coin", "{n} Coins", n)


# The words of each bonus, for one and for more ({n} is the amount): the log and the pages say them alike.
BONUS_WORDS: dict[str, Callable[[int], Message]] = {
    "victory_points": lambda n: ngettext("{n} Victory Point", "{n} Victory Points", n),
    "coins": _coins,
    "servants": lambda n: ngettext("{n} Servant", "{n} Servants", n),
    "politics_cards": lambda n: ngettext("{n} Politics card", "{n} Politics cards", n),
    "nobility_steps": lambda n: ngettext(
        "{n} step on the Nobility Track", "{n} steps on the Nobility Track", n
    ),
    "additional_main_action": lambda n: ngettext(
        "an additional Main action", "{n} additional Main actions", n
    ),
    "city_token_bonus": lambda n: ngettext(
        "the bonus of a City token again", "the bonus of {n} City tokens again", n
    ),
    "free_permit_tile": lambda n: ngettext("a free face-up Permit", "{n} free face-up Permits", n),
    "permit_tile_bonus_again": lambda n: ngettext("a Permit's bonus again", "{n} Permit bonuses again", n),
}


# Words for each choice's button (``Choice.title``, filled by the kernel's ``Rules.legal_actions``).
CHOICE_TITLES: dict[str, str] = {
    "deal": gettext_noop("Set up the board and deal the Politics cards"),
    "elect": gettext_noop("Elect a Councilor"),
    "acquire_permit": gettext_noop("Acquire a Permit"),
    "build": gettext_noop("Place a Merchant with a Permit"),
    "queen_build": gettext_noop("Place a Merchant with the help of the Queen"),
    "engage_servant": gettext_noop("Engage a Servant"),
    "change_permits": gettext_noop("Change the face-up Permits"),
    "send_servant": gettext_noop("Send a Servant to elect a Councilor"),
    "additional_main": gettext_noop("Perform an additional Main action"),
    "end_turn": gettext_noop("End your turn"),
    "choose_city_bonus": gettext_noop("Choose City token bonuses"),
    "choose_permit_bonus": gettext_noop("Choose a Permit bonus"),
    "take_free_permit": gettext_noop("Take a free Permit"),
}
# One way to pay a Council (MAIN ACTION 2 and 4) on its button: "Black + 2 Jokers: 8 Coins".
PAYMENT_LABEL = gettext_noop("{cards}: {coins}")
QUEEN_PAYMENT_LABEL = gettext_noop("{cards}: {coins} ({roads} for the roads)")
# Several Politics cards of one colour in a payment: "2 black".
COLOUR_COUNT = gettext_noop("{n} {colour}")


def _shape_part(colour: str, n: int, first: bool) -> str:
    if colour == JOKER:
        return ngettext("{n} Joker", "{n} Jokers", n) if n > 1 else COLOUR_NAMES[JOKER]
    if n > 1:
        return COLOUR_COUNT.format(n=n, colour=COLOUR_WORDS.get(colour, colour))
    return (COLOUR_NAMES if first else COLOUR_WORDS).get(colour, colour)


def shape_words(shape: dict[str, int]) -> str:
    """Politics cards by colour, Jokers last: "Black + 2 Jokers"."""
    return join([_shape_part(colour, n, i == 0) for i, (colour, n) in enumerate(shape.items())], " + ")


def payment_label(shape: dict[str, int], coins: int, roads: int = 0) -> str:
    """A payment's words: its cards and its whole price (the Queen's roads included)."""
    return _payment_label(tuple(shape.items()), coins, roads)


@lru_cache(maxsize=4096)
def _payment_label(shape: tuple[tuple[str, int], ...], coins: int, roads: int) -> Message:
    # Kept: every choice of a turn offers the same few dozen payments, and a message never changes.
    cards = shape_words(dict(shape))
    if roads:
        return QUEEN_PAYMENT_LABEL.format(cards=cards, coins=_coins(coins), roads=_coins(roads))
    return PAYMENT_LABEL.format(cards=cards, coins=_coins(coins))


def bonus_words(bonus: dict) -> str:
    parts: list[str] = []
    for key, amount in bonus.items():
        words = BONUS_WORDS.get(key)
        parts.append(words(amount) if words else f"{amount} {key.replace('_', ' ')}")
    return join(parts, ", ")


SOMEONE = gettext_noop("Someone")  # an action whose seat is no seat of the table
# Two names, or a list's last name after the others: "Arkon and Burgen", "Arkon, Burgen and Castrum".
NAMES_AND = gettext_noop("{names} and {last}")


def _who(state: dict, seat: Any) -> str:
    try:
        return state["seats"][seat]["name"]
    except (IndexError, TypeError, KeyError):
        return SOMEONE


def _cards(cards: Any) -> Message:
    colours = [CARDS.get(c, "?") for c in cards or []]
    words = join([COLOUR_WORDS.get(c, c) for c in colours], ", ")
    return ngettext(
        "{n} Politics card ({colours})", "{n} Politics cards ({colours})", len(colours), colours=words
    )


PERMIT_FOR = gettext_noop("the Permit for {cities}")
PERMIT_FOR_WITH_BONUS = gettext_noop("the Permit for {cities} ({bonus})")


@lru_cache(maxsize=256)  # 45 Permits, each with or without its bonus: the pages say them often
def permit_words(permit_id: str, *, bonus: bool = True) -> str:
    """A Permit as a player reads it on the tile: its cities and its bonus ("the Permit for Arkon
    and Burgen (2 Coins)"), never the data file's id. ``bonus=False``: its cities only (a Permit
    used to build, whose bonus was taken when it was acquired)."""
    tile = PERMITS[permit_id]
    names = [CITIES[c]["name"] for c in tile["cities"]]
    cities = names[0] if len(names) == 1 else NAMES_AND.format(names=", ".join(names[:-1]), last=names[-1])
    if bonus and tile["bonus"]:
        return PERMIT_FOR_WITH_BONUS.format(cities=cities, bonus=bonus_words(tile["bonus"]))
    return PERMIT_FOR.format(cities=cities)


# 'Phase 1: Draw a Card' happens by itself as a turn starts; the log says it with the action that
# started the turn (the card is never named: only its owner sees it).
FIRST_DRAW = gettext_noop("{label}; {who} drew a Politics card to begin the first turn")
TURN_ENDED_DREW = gettext_noop("{label}; {who} drew a Politics card")
TURN_PASSED_DREW = gettext_noop("{label}; the turn passes to {who}, who drew a Politics card")
NOTHING_TO_DRAW = gettext_noop("{label}; the turn passes to {who} (no Politics card left to draw)")


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
    "deal": gettext_noop(
        "The table shuffled the decks, seated the Councilors and dealt 6 Politics cards to each player"
    ),
    "engage_servant": ngettext(
        "{who} engaged a Servant for {n} Coin", "{who} engaged a Servant for {n} Coins", ENGAGE_COINS
    ),
    "additional_main": ngettext(
        "{who} returned {n} Servant to perform an additional Main action",
        "{who} returned {n} Servants to perform an additional Main action",
        ADDITIONAL_MAIN_SERVANTS,
    ),
    "end_turn": gettext_noop("{who} ended their turn"),
}


def _describe(state: dict, action: dict) -> str:
    kind = action.get("type")
    who = _who(state, action.get("seat"))
    if kind in SENTENCES:
        return SENTENCES[kind].format(who=who)
    saying = SAYINGS.get(str(kind))
    if saying is not None:
        return saying(state, action, who)
    return str(kind or "?").replace("_", " ")


ELECTED = gettext_noop("{who} elected {councilor} in the {balcony} and gained {coins}")
SENT_TO_ELECT = gettext_noop("{who} sent a Servant to elect {councilor} in the {balcony}")
ACQUIRED = gettext_noop("{who} satisfied the {balcony} with {cards}, paid {coins} and acquired {permit}")
CHANGED_PERMITS = gettext_noop("{who} sent a Servant to change the face-up {region} Permits")
PERMIT_BONUS_AGAIN = gettext_noop("{who} took again the bonus of {permit}")
FREE_PERMIT = gettext_noop("{who} took {permit} for free")


def _councilor(colour: Any) -> str:
    return A_COUNCILOR.get(colour) or f"a {colour} Councilor"


def _elect(state: dict, action: dict, who: str) -> Message:
    return ELECTED.format(
        who=who,
        councilor=_councilor(action["colour"]),
        balcony=BALCONY_WORDS[action["balcony"]],
        coins=_coins(ELECT_COINS),
    )


def _send_servant(state: dict, action: dict, who: str) -> Message:
    return SENT_TO_ELECT.format(
        who=who, councilor=_councilor(action["colour"]), balcony=BALCONY_WORDS[action["balcony"]]
    )


def _acquire_permit(state: dict, action: dict, who: str) -> Message:
    cost = payment_cost(state, action["seat"], action["balcony"], action["cards"])
    return ACQUIRED.format(
        who=who,
        balcony=BALCONY_WORDS[action["balcony"]],
        cards=_cards(action["cards"]),
        coins=_coins(cost),
        permit=permit_words(action["permit"]),
    )


def _build(state: dict, action: dict, who: str) -> Message:
    city = CITIES[action["city"]]["name"]
    permit = permit_words(action["permit"], bonus=False)
    servants = others_in(state, action["city"], action["seat"])
    if not servants:
        return gettext_noop("{who} placed a Merchant in {city} with {permit}").format(
            who=who, city=city, permit=permit
        )
    return ngettext(
        "{who} placed a Merchant in {city} with {permit}, returning {n} Servant",
        "{who} placed a Merchant in {city} with {permit}, returning {n} Servants",
        servants,
        who=who,
        city=city,
        permit=permit,
    )


def _queen_move(start: str, end: str) -> Message:
    roads = DISTANCES[start][end]
    if not roads:
        return gettext_noop("kept the Queen in {city}").format(city=CITIES[end]["name"])
    return ngettext(
        "moved the Queen from {start} to {end} ({n} road)",
        "moved the Queen from {start} to {end} ({n} roads)",
        roads,
        start=CITIES[start]["name"],
        end=CITIES[end]["name"],
    )


def _queen_build(state: dict, action: dict, who: str) -> Message:
    start, end = state["queen"], action["city"]
    seat = action["seat"]
    cost = payment_cost(state, seat, "queen", action["cards"]) + ROAD_COINS * DISTANCES[start][end]
    words = {
        "who": who,
        "cards": _cards(action["cards"]),
        "move": _queen_move(start, end),
        "coins": _coins(cost),
    }
    servants = others_in(state, end, seat)
    if not servants:
        return gettext_noop(
            "{who} satisfied the Queen's Balcony with {cards}, {move}, paid {coins} and placed a Merchant there"
        ).format(**words)
    return ngettext(
        "{who} satisfied the Queen's Balcony with {cards}, {move}, paid {coins} and placed a Merchant there, "
        "returning {n} Servant",
        "{who} satisfied the Queen's Balcony with {cards}, {move}, paid {coins} and placed a Merchant there, "
        "returning {n} Servants",
        servants,
        **words,
    )


def _change_permits(state: dict, action: dict, who: str) -> Message:
    return CHANGED_PERMITS.format(who=who, region=region_word(action["region"]))


def _choose_city_bonus(state: dict, action: dict, who: str) -> Message:
    cities = [CITIES[c]["name"] for c in action["cities"]]
    tokens: str = cities[0] if cities else ""
    for city in cities[1:]:
        tokens = NAMES_AND.format(names=tokens, last=city)
    return ngettext(
        "{who} took again the bonus of the City token of {cities}",
        "{who} took again the bonus of the City tokens of {cities}",
        len(cities),
        who=who,
        cities=tokens,
    )


def _choose_permit_bonus(state: dict, action: dict, who: str) -> Message:
    return PERMIT_BONUS_AGAIN.format(who=who, permit=permit_words(action["permit"]))


def _take_free_permit(state: dict, action: dict, who: str) -> Message:
    return FREE_PERMIT.format(who=who, permit=permit_words(action["permit"]))


# The actions whose label depends on the state or the action's values, each said by its function.
SAYINGS: dict[str, Callable[[dict, dict, str], Message]] = {
    "elect": _elect,
    "send_servant": _send_servant,
    "acquire_permit": _acquire_permit,
    "build": _build,
    "queen_build": _queen_build,
    "change_permits": _change_permits,
    "choose_city_bonus": _choose_city_bonus,
    "choose_permit_bonus": _choose_permit_bonus,
    "take_free_permit": _take_free_permit,
}
