"""Every sentence a RuleError of Council of Four can carry: tests assert these constants."""

# Setup
SEAT_COUNT = "Council of Four is played by 2 to 4 players."
SEAT_NAMES = "Every seat needs a name."

# Who may act, and when: the kernel's guard of each move declared in rules.py says these
NOT_NOW = "You cannot {what} now."
TABLE_ONLY = "Only the table deals the game."
NO_SUCH_SEAT = "There is no such seat at this table."
SEAT_ONLY = "The table cannot {what}: a player does."
NOT_YOUR_TURN = "It is {name}'s turn."
# What a move checks beyond its guard (turn.py)
CHOOSE_FIRST = "First choose your {what}."
NO_MAIN_ACTION_LEFT = "You have no Main action left this turn."
NO_QUICK_ACTION_LEFT = "You already took your Quick action this turn."
MAIN_ACTION_FIRST = "Perform your Main action before ending your turn."
NO_CHOICE_PENDING = "There is no bonus to choose now."

# Councilors
UNKNOWN_BALCONY = "There is no Balcony called {balcony!r}: choose coast, hills, mountains or queen."
NO_SUCH_COUNCILOR = "There is no {colour} Councilor beside the board."

# Paying a Balcony
CARDS_FORMAT = "Choose 1 to 4 Politics cards from your hand."
CARD_TWICE = "You chose the same card twice."
CARD_NOT_IN_HAND = "That card is not in your hand."
CARDS_DO_NOT_MATCH = "Those cards do not satisfy the {balcony}: each card must match a different Councilor."
NOT_ENOUGH_COINS = "You need {cost} Coin{s} and have {coins}."
NOT_ENOUGH_SERVANTS = "You need {cost} Servant{s} and have {servants}."

# Permits
UNKNOWN_REGION = "There is no region called {region!r}: choose coast, hills or mountains."
PERMIT_NOT_FACE_UP = "That Permit is not face up beside the {balcony}."
NO_FACE_UP_PERMITS = "There are no face-up Permits in that region to change."
PERMIT_NOT_YOURS = "You have no face-up Permit {permit}."
CITY_NOT_ON_PERMIT = "That Permit does not show that city."

# Placing a Merchant
UNKNOWN_CITY = "There is no city {city!r} on the map."
ALREADY_IN_CITY = "You already have a Merchant in {city}."
NO_MERCHANTS_LEFT = "You have placed all your Merchants."

# Bonus choices
CHOOSE_CITIES = "Choose {count} different cities where you have a Merchant and whose token does not move you on the Nobility Track."
FREE_PERMIT_NOT_FACE_UP = "That Permit is not face up on the board."
CHOOSE_PERMIT = "Choose one of the Permits you bought, face up or face down."
