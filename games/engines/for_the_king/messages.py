"""Every sentence a RuleError of For the King (and Me) can carry: tests assert these constants."""

# Setup
SEAT_COUNT = "For the King (and Me) is played by 2 to 5 players."
SEAT_NAMES = "Every seat needs a name."

# Who may act, and when
NOT_NOW = "You cannot {what} now."
TABLE_ONLY = "Only the table can {what}."
SEAT_ONLY = "The table cannot {what}: a player does."
NOT_YOUR_TURN = "It is {name}'s turn to {what}."
NO_SUCH_SEAT = "There is no such seat at this table."

# Share Influence: the Adviser
UNKNOWN_AREA = "Place the card in front of yourself, in the middle of the table or on the Favor deck."
PERSONAL_FULL = "You already kept a card this turn."
MIDDLE_FULL = "The middle of the table already holds one card per opponent."
FAVOR_FULL = "You already placed a card on the Favor deck this turn."

# Share Influence: choosing central cards
NOT_IN_MIDDLE = "That card is not in the middle of the table."

# King cards
KING_CHANGES_FORMAT = "Say which Primary Duty tiles change: a list of offices, each with +1 or -1."
KING_UNKNOWN_OFFICE = "There is no {office} office on the Government board."
KING_SAME_TILE = "A King card changes two different Primary Duty tiles."
KING_LIMITS = "A Primary Duty tile stays between 1 and 6."
KING_NOT_THE_CARD = "This King card does not do that: it gives {words}."

# Gain Esteem: bidding
BID_NOT_A_NUMBER = "A bid is a whole number."
BID_TOO_LOW_FIRST = "The first bid must be 1 or more."
BID_TOO_LOW = "You must bid more than {high}."

# Gain Esteem: paying
PAY_FORMAT = "Choose the Gold cards you pay with."
PAY_SAME_CARD = "You chose the same card twice."
PAY_NOT_GOLD_IN_HAND = "You can only pay with Gold cards from your hand."
PAY_NOT_ENOUGH = "Those Gold cards do not reach your bid of {owed}."
PAY_TOO_MUCH = "You would pay more than needed: leave out a Gold card and you still reach your bid of {owed}."
DISCARD_NOT_IN_HAND = "That card is not in your hand."
