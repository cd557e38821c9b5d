"""Every sentence a RuleError of Council of Four can carry: tests assert these constants. Each is a
message id (the kernel's ``messages``), said in each reader's language at the edge."""

from typing import Any

from games.engines.kernel.messages import Message, gettext_noop, ngettext


class Refusal(Message):
    """A refusal formatted like any constant, ``NOT_ENOUGH_COINS.format(cost=3, coins=2)``, that
    quotes the values a player typed (``quoted``) as Python writes them ('sea', None), and whose
    plural form follows the value named ``count_by``."""

    quoted: tuple[str, ...]
    count_by: str | None

    def format(self, *args: Any, **params: Any) -> Message:
        said = super().format(*args, **{k: repr(v) if k in self.quoted else v for k, v in params.items()})
        n = params.get(self.count_by) if self.count_by else None
        if not isinstance(n, int):
            return said
        return Message(said.id, {k: v for k, v in said.params.items() if k != "n"}, plural=said.plural, n=n)


def refusal(message: Message, *, quoted: tuple[str, ...] = (), count: str | None = None) -> Refusal:
    """``message`` as a :class:`Refusal` quoting ``quoted`` and counting by the value ``count``."""
    made = Refusal(message.id, message.params, plural=message.plural, n=message.n)
    made.quoted, made.count_by = quoted, count
    return made


# Setup
SEAT_COUNT = gettext_noop("Council of Four is played by 2 to 4 players.")
SEAT_NAMES = gettext_noop("Every seat needs a name.")

# Who may act, and when: the kernel's guard of each move declared in rules.py says these
NOT_NOW = gettext_noop("You cannot {what} now.")
TABLE_ONLY = gettext_noop("Only the table deals the game.")
NO_SUCH_SEAT = gettext_noop("There is no such seat at this table.")
SEAT_ONLY = gettext_noop("The table cannot {what}: a player does.")
NOT_YOUR_TURN = gettext_noop("It is {name}'s turn.")
# What a move checks beyond its guard (turn.py)
CHOOSE_FIRST = gettext_noop("First choose your {what}.")
NO_MAIN_ACTION_LEFT = gettext_noop("You have no Main action left this turn.")
NO_QUICK_ACTION_LEFT = gettext_noop("You already took your Quick action this turn.")
MAIN_ACTION_FIRST = gettext_noop("Perform your Main action before ending your turn.")
NO_CHOICE_PENDING = gettext_noop("There is no bonus to choose now.")

# Councilors
UNKNOWN_BALCONY = refusal(
    gettext_noop("There is no Balcony called {balcony}: choose coast, hills, mountains or queen."),
    quoted=("balcony",),
)
NO_SUCH_COUNCILOR = gettext_noop("There is no {colour} Councilor beside the board.")

# Paying a Balcony
CARDS_FORMAT = gettext_noop("Choose 1 to 4 Politics cards from your hand.")
CARD_TWICE = gettext_noop("You chose the same card twice.")
CARD_NOT_IN_HAND = gettext_noop("That card is not in your hand.")
CARDS_DO_NOT_MATCH = gettext_noop(
    "Those cards do not satisfy the {balcony}: each card must match a different Councilor."
)
NOT_ENOUGH_COINS = refusal(
    ngettext("You need {cost} Coin and have {coins}.", "You need {cost} Coins and have {coins}.", 0),
    count="cost",
)
NOT_ENOUGH_SERVANTS = refusal(
    ngettext(
        "You need {cost} Servant and have {servants}.", "You need {cost} Servants and have {servants}.", 0
    ),
    count="cost",
)

# Permits
UNKNOWN_REGION = refusal(
    gettext_noop("There is no region called {region}: choose coast, hills or mountains."), quoted=("region",)
)
PERMIT_NOT_FACE_UP = gettext_noop("That Permit is not face up beside the {balcony}.")
NO_FACE_UP_PERMITS = gettext_noop("There are no face-up Permits in that region to change.")
PERMIT_NOT_YOURS = gettext_noop("You have no face-up Permit {permit}.")
CITY_NOT_ON_PERMIT = gettext_noop("That Permit does not show that city.")

# Placing a Merchant
UNKNOWN_CITY = refusal(gettext_noop("There is no city {city} on the map."), quoted=("city",))
ALREADY_IN_CITY = gettext_noop("You already have a Merchant in {city}.")
NO_MERCHANTS_LEFT = gettext_noop("You have placed all your Merchants.")

# Bonus choices
# The English says "cities" for one too, as it always did; a language with a singular says it.
CHOOSE_CITIES = refusal(
    ngettext(
        "Choose {count} different cities where you have a Merchant and whose token does not move you on the "
        "Nobility Track.",
        "Choose {count} different cities where you have a Merchant and whose token does not move you on the "
        "Nobility Track.",
        0,
    ),
    count="count",
)
FREE_PERMIT_NOT_FACE_UP = gettext_noop("That Permit is not face up on the board.")
CHOOSE_PERMIT = gettext_noop("Choose one of the Permits you bought, face up or face down.")
