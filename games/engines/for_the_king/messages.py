"""Every sentence a RuleError of For the King (and Me) can carry: tests assert these constants. Each
is a message id (the kernel's ``messages``), said in each reader's language at the edge."""

from games.engines.kernel.messages import gettext_noop

# Setup
SEAT_COUNT = gettext_noop("For the King (and Me) is played by 2 to 5 players.")
SEAT_NAMES = gettext_noop("Every seat needs a name.")

# Who may act, and when
NOT_NOW = gettext_noop("You cannot {what} now.")
TABLE_ONLY = gettext_noop("Only the table can {what}.")
SEAT_ONLY = gettext_noop("The table cannot {what}: a player does.")
NOT_YOUR_TURN = gettext_noop("It is {name}'s turn to {what}.")
NO_SUCH_SEAT = gettext_noop("There is no such seat at this table.")

# Share Influence: the Adviser
UNKNOWN_AREA = gettext_noop(
    "Place the card in front of yourself, in the middle of the table or on the Favor deck."
)
PERSONAL_FULL = gettext_noop("You already kept a card this turn.")
MIDDLE_FULL = gettext_noop("The middle of the table already holds one card per opponent.")
FAVOR_FULL = gettext_noop("You already placed a card on the Favor deck this turn.")

# Share Influence: choosing central cards
NOT_IN_MIDDLE = gettext_noop("That card is not in the middle of the table.")

# King cards
KING_CHANGES_FORMAT = gettext_noop(
    "Say which Primary Duty tiles change: a list of offices, each with +1 or -1."
)
KING_UNKNOWN_OFFICE = gettext_noop("There is no {office} office on the Government board.")
KING_SAME_TILE = gettext_noop("A King card changes two different Primary Duty tiles.")
KING_LIMITS = gettext_noop("A Primary Duty tile stays between 1 and 6.")
KING_NOT_THE_CARD = gettext_noop("This King card does not do that: it gives {words}.")

# Gain Esteem: bidding
BID_NOT_A_NUMBER = gettext_noop("A bid is a whole number.")
BID_TOO_LOW_FIRST = gettext_noop("The first bid must be 1 or more.")
BID_TOO_LOW = gettext_noop("You must bid more than {high}.")

# Gain Esteem: paying
PAY_FORMAT = gettext_noop("Choose the Gold cards you pay with.")
PAY_SAME_CARD = gettext_noop("You chose the same card twice.")
PAY_NOT_GOLD_IN_HAND = gettext_noop("You can only pay with Gold cards from your hand.")
PAY_NOT_ENOUGH = gettext_noop("Those Gold cards do not reach your bid of {owed}.")
PAY_TOO_MUCH = gettext_noop(
    "You would pay more than needed: leave out a Gold card and you still reach your bid of {owed}."
)
DISCARD_NOT_IN_HAND = gettext_noop("That card is not in your hand.")
