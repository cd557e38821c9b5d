"""Every sentence a RuleError of The King's Dilemma can carry, and the words of its news: tests
assert these constants. Each is a message id (games/engines/kernel/messages.py), its English as
before, said again at the edge in each reader's language."""

from games.engines.kernel.messages import gettext_noop, ngettext_lazy, pgettext_lazy

# Setup (the config the campaign hands over)
CONFIG_FORMAT = gettext_noop("The game needs a config object with its seats.")
SEAT_COUNT = gettext_noop("The King's Dilemma is played by 3 to 5 Houses.")
SEAT_FORMAT = gettext_noop("Every seat is an object with at least a name.")
SEAT_NAME = gettext_noop("Every seat needs a name of at most {most} characters.")
SEAT_NUMBER = gettext_noop("{name}'s {field} must be a whole number from {low} to {high}.")
HOUSE_NUMBER_TWICE = gettext_noop("Two seats cannot play the same House number ({number}).")
OPEN_AGENDA_FORMAT = gettext_noop("An Open Agenda token names a resource row and whether it is positive.")
OPEN_AGENDA_LIMIT = gettext_noop(
    "A House holds at most 2 Positive and 2 Negative Open Agenda tokens in a game."
)
OPEN_AGENDA_TWICE = gettext_noop("Each Open Agenda token exists once: {row} {sign} is given twice.")
RESOURCES_FORMAT = gettext_noop(
    "The Resource legacy gives each row a whole-number offset from the centre row (-{rows} to {rows})."
)
TOKEN_SEAT = gettext_noop("The {token} token must go to one of the seats (0 to {top}).")
DECK_FORMAT = gettext_noop("The Dilemma deck is a list of card numbers from 1 to {top}.")
KNOWN_CARDS_FORMAT = gettext_noop("Known cards are an object from card number to the card as it was typed.")
KING_NAME = gettext_noop("The King's name is text of at most {most} characters.")
TRACKS_FORMAT = gettext_noop("The track data {what} is not valid: {why}.")
CAMPAIGN_NUMBERS = gettext_noop("The campaign's {what} are a list of numbers from {low} to {high}.")
CAMPAIGN_PLACES = gettext_noop(
    "The campaign's cards out of the Dilemma deck map a card number to trash, story_slot or event_area."
)

# Who may act, and when
NOT_NOW = gettext_noop("You cannot {what} now.")
TABLE_ONLY = gettext_noop("Only the table can {what}.")
SEAT_ONLY = gettext_noop("The table cannot {what}: a House does.")
NOT_YOUR_TURN = gettext_noop("It is {name}'s turn to {what}.")
MODERATOR_ONLY = gettext_noop("Only the Moderator ({name}) can {what}.")
NOT_YOUR_VOTE = gettext_noop("It is {name}'s turn to vote.")
NO_SUCH_SEAT = gettext_noop("There is no such seat at this table.")

# Secret Agenda draft
AGENDA_NOT_OFFERED = gettext_noop("That Secret Agenda is not among the cards offered to you.")

# Drawing a Dilemma card
CARD_FORMAT = gettext_noop(
    "Type the Dilemma card as an object with its number, title and the Outcome tokens of AYE and NAY."
)
CARD_NUMBER = gettext_noop("A Dilemma card number is a whole number from 1 to {top}.")
CARD_TITLE = gettext_noop("A card title is one line of text of at most 120 characters.")
CARD_ALREADY = gettext_noop("Dilemma card {number} was already drawn this game.")
# Also the campaign's sentence (campaign.services.envelopes): the save slots are the campaign's.
DILEMMA_NOT_IN_DECK = gettext_noop("Dilemma card {number} is not in the Dilemma deck (it is in the {place}).")
# Where a card out of the Dilemma deck lies ({place} above), by the campaign's save slot.
OUT_OF_DECK_PLACES = {
    "trash": gettext_noop("Trash: resolved in an earlier game, it will never be used again"),
    "event_area": gettext_noop("Event area"),
    "story_slot": gettext_noop("Story save slot"),
}
# Short names of the same places, for the table's news.
PLACE_NAMES = {
    "trash": gettext_noop("Trash"),
    "event_area": gettext_noop("Event area"),
    "story_slot": gettext_noop("Story save slot"),
}
CARD_NOT_OUT_OF_DECK = gettext_noop(
    "Dilemma card {number} is not in the Trash, the Event area or the Story save slot: draw it as it is."
)
CARD_TITLE_MISSING = gettext_noop(
    "Card {number} was never met before: type its title as printed on the front."
)
CARD_QUESTION = gettext_noop("The card's question is text of at most 300 characters.")
FRONT_FORMAT = gettext_noop(
    "The {side} Outcome tokens are a list of Resources going up or down and an optional sticker."
)
FRONT_DIRECTION = gettext_noop("An Outcome token moves its Resource up or down.")
FRONT_ROW_TWICE = gettext_noop("{row} shows only one Outcome token on the {side} side.")
FRONT_STICKER = gettext_noop("The sticker Outcome token is positive or negative (or absent).")
OUTCOME_FORMAT = gettext_noop(
    "The outcome lists its resource moves in order, its sticker, its envelope, the lightning and a note."
)
OUTCOME_EMPTY = gettext_noop(
    "This outcome has nothing in it: type its resource moves, its sticker, its envelope or a note of what it says."
)
OUTCOME_NOTE = gettext_noop("A note is text of at most 200 characters.")
RESOURCE_ROW = gettext_noop(
    "There is no {row!r} row on the Resource Track: use influence, wealth, morale, welfare or knowledge."
)
RESOURCE_MOVE = gettext_noop(
    "A resource move is a row and a whole number of spaces other than 0 (at most {top} either way)."
)
STICKER_FORMAT = gettext_noop(
    "A Chronicle sticker has a number from 1 to {count}, a resource row and whether it is positive."
)
ENVELOPE_NUMBER = gettext_noop("Envelopes are numbered 0 to {top}.")
# What the campaign already holds, or what was named earlier tonight: each exists once in the box.
STICKER_ON_BOARD = gettext_noop(
    "Chronicle sticker {number} is already on the Realm board (attached in an earlier game): "
    "check the number on the back of the card."
)
STICKER_TONIGHT = gettext_noop(
    "Chronicle sticker {number} was already attached tonight (Dilemma card {dilemma})."
)
ENVELOPE_OPENED = gettext_noop(
    "Envelope {number:02d} was already opened in an earlier game: check the number on the back of the card."
)
ENVELOPE_TONIGHT = gettext_noop("Envelope {number:02d} was already opened tonight (Dilemma card {dilemma}).")

# Voting
VOTE_SIDE = gettext_noop("Vote AYE or NAY.")
VOTE_NO_POWER = gettext_noop("You cannot vote with 0 Power: pass instead.")
POWER_AMOUNT = gettext_noop("Place a whole number of Power of 1 or more.")
POWER_TOO_MUCH = ngettext_lazy(
    "You have only {have} Power behind your screen.", "You have only {have} Power behind your screen.", "have"
)
VOTE_CHANGE = gettext_noop("You cannot change your vote: add Power to it or stay.")
NOT_VOTED = gettext_noop("You have not voted yet: vote AYE or NAY, or pass.")
MODERATOR_TAKEN = gettext_noop("{name} already passed and became Moderator in this Voting Phase.")

# Bargaining
GIFT_SELF = gettext_noop("You cannot give Coins to yourself.")
GIFT_AMOUNT = gettext_noop("Give a whole number of Coins of 1 or more.")
GIFT_TOO_MUCH = ngettext_lazy(
    "You have only {have} Coin behind your screen.", "You have only {have} Coins behind your screen.", "have"
)

# Vote resolution
TIE_SIDE = gettext_noop("The Moderator decides for AYE or NAY.")
LEADER_CANDIDATE = gettext_noop("The Leader token goes to one of the winning side's biggest voters: {names}.")

# Host effects
LABEL = gettext_noop("Type a short label for this effect (1 to 80 characters, on one line).")
HOST_WHAT = gettext_noop("The table can give or take Coins, Power, Prestige or Crave.")
HOST_TARGETS = gettext_noop("Name the House this effect applies to, or a list of one or more Houses.")
HOST_TARGETS_TWICE = gettext_noop("Name each House once: the effect applies once to each House named.")
HOST_AMOUNT = gettext_noop(
    "The amount is a whole number from -{most} to {most} other than 0 (negative to take)."
)
MYSTERY_LETTER = gettext_noop("Mystery stickers are behind doors A to L.")
MYSTERY_TWICE = gettext_noop("Mystery sticker {letter} was already attached.")
MYSTERY_ALL = gettext_noop(
    "All {count} Mystery stickers of the campaign are already attached: the last one opens Envelope "
    "{envelope:02d}, the Grand Finale."
)
LIGHTNING_FORMAT = gettext_noop(
    "Say whether the back of the card shows the lightning on its central space (true or false)."
)

# End of the game
HEIR_CANDIDATE = gettext_noop("The Moderator chooses among the tied winners: {names}.")
OUTCOME_PLACE = gettext_noop(
    "After the outcome the card is placed on the Time Counter (time_counter) or left open (resolution)."
)

# What just happened: one line per consequence, on the table's banner and in the log
NEWS_MOVE = gettext_noop("{row} {amount:+d}: the marker moves {before} → {after}{stability}.")
NEWS_MOMENTUM = gettext_noop(
    "{row} {amount:+d} with Momentum: the marker moves {before} → {after}{stability}."
)
NEWS_AGAINST = gettext_noop(
    "{row} {amount:+d} against its Momentum: the marker moves {before} → {after} and turns {arrow}{stability}."
)
NEWS_STABILITY = gettext_noop("; Stability {before} → {after}")
NEWS_TRACK_END = gettext_noop("{row} stopped at the end of its track ({at}/{top}).")
NEWS_ABDICATES = gettext_noop("Stability reached {at}/{top}: the King abdicates at the end of the round.")
NEWS_STICKER = gettext_noop(
    "{kind} Chronicle sticker {number} goes on the {row} row, signed by {leader} (the Leader)."
)
NEWS_ENVELOPE = gettext_noop("{leader} (the Leader) opens Envelope {number:02d}.")
NEWS_GRAND_FINALE = gettext_noop(
    "The sixth Mystery sticker is attached: {leader} (the Leader) opens Envelope {number:02d} now, the "
    "Grand Finale."
)
# A remembered back never re-adds what is on the board (docs/rules-decisions.md).
NEWS_STICKER_NOT_AGAIN = gettext_noop(
    "Chronicle sticker {number} is already on the Realm board: the card does not attach it again."
)
NEWS_ENVELOPE_NOT_AGAIN = gettext_noop(
    "Envelope {number:02d} is already open: the card does not open it again."
)
NEWS_TO_DECK = gettext_noop(
    "Card {number} goes from the {place} into the Dilemma deck: it may be drawn tonight."
)
NEWS_TIME_COUNTER = gettext_noop("Card {number} goes on the Time Counter ({count}/{spaces}).")
NEWS_LIGHTNING_DEAD = gettext_noop("It lies on the lightning space: the King is dead.")
NEWS_LIGHTNING_LIVES = gettext_noop("It lies on the lightning space, and the King lives on.")
NEWS_GAME_ENDS = gettext_noop("The end of the game is triggered: reveal the Secret Agendas and score.")
NEWS_PRESTIGE = gettext_noop("{name}'s Prestige {before} → {after}.")
NEWS_CRAVE = gettext_noop("{name}'s Crave {amount:+d} (for the campaign).")
NEWS_COINS_GIVEN = ngettext_lazy(
    "{name} takes {amount} Coin from the general pool (behind the screen).",
    "{name} takes {amount} Coins from the general pool (behind the screen).",
    "amount",
)
NEWS_COINS_TAKEN = ngettext_lazy(
    "{name} returns {amount} Coin to the general pool.",
    "{name} returns {amount} Coins to the general pool.",
    "amount",
)
# Power does not take an "s" in English; other languages count it (German: "1 Machtmarker").
NEWS_POWER_GIVEN = ngettext_lazy(
    "{name} takes {amount} Power from the general pool (behind the screen).",
    "{name} takes {amount} Power from the general pool (behind the screen).",
    "amount",
)
NEWS_POWER_TAKEN = ngettext_lazy(
    "{name} returns {amount} Power to the general pool.",
    "{name} returns {amount} Power to the general pool.",
    "amount",
)
NEWS_MODERATOR = gettext_noop(
    "{name} takes the Moderator token and 1 Coin from the general pool (on the PASS card, behind the"
    " screen when the vote ends)."
)
NEWS_GATHER = gettext_noop(
    "{name} takes 1 Coin from the general pool (on the PASS card, behind the screen when the vote ends)."
)

# ---- Words said inside the sentences above (each a message, translated with its sentence) -------

# The table as the one who acts, inside a sentence ("It is the table's turn to ...").
THE_TABLE = gettext_noop("the table")

# The five rows of the Resource Track, as the board prints them.
RESOURCE_NAMES = {
    "influence": gettext_noop("Influence"),
    "wealth": gettext_noop("Wealth"),
    "morale": gettext_noop("Morale"),
    "welfare": gettext_noop("Welfare"),
    "knowledge": gettext_noop("Knowledge"),
}

# The sides of a Dilemma card (the Vote cards print them so).
SIDE_NAMES = {"aye": gettext_noop("AYE"), "nay": gettext_noop("NAY")}

# A Chronicle sticker or an Open Agenda token is positive or negative.
SIGNS = {
    True: pgettext_lazy("sticker or token", "Positive"),
    False: pgettext_lazy("sticker or token", "Negative"),
}

# The tokens a config may hand to a seat.
TOKEN_NAMES = {"leader": gettext_noop("Leader"), "moderator": gettext_noop("Moderator")}

# A seat's numbers in a config ("{name}'s {field} must be a whole number ...").
SEAT_FIELDS = {
    "house_number": gettext_noop("house number"),
    "prestige": pgettext_lazy("a seat's number", "prestige"),
    "power": pgettext_lazy("a seat's number", "power"),
    "coins": pgettext_lazy("a seat's number", "coins"),
}

# What the campaign hands over as lists of numbers ("The campaign's {what} are a list ...").
CAMPAIGN_LISTS = {
    "event_area": gettext_noop("ongoing Event cards"),
    "envelopes_opened": gettext_noop("opened Envelopes"),
    "stickers_attached": gettext_noop("Chronicle stickers"),
}

# The six Secret Agendas, by their key in the data file.
AGENDA_NAMES = {
    "extremist": gettext_noop("Extremist"),
    "opulent": gettext_noop("Opulent"),
    "moderate": gettext_noop("Moderate"),
    "rebel": gettext_noop("Rebel"),
    "opportunist": gettext_noop("Opportunist"),
    "greedy": gettext_noop("Greedy"),
}

# What each move does, inside a refusal ("You cannot {what} now."): a verb phrase.
WHAT = {
    "deal": pgettext_lazy("a move", "deal the Secret Agendas"),
    "choose_secret_agenda": pgettext_lazy("a move", "choose a Secret Agenda"),
    "draw_dilemma": pgettext_lazy("a move", "draw a Dilemma card"),
    "vote": pgettext_lazy("a move", "vote"),
    "add_power": pgettext_lazy("a move", "add Power"),
    "stay": pgettext_lazy("a move", "stay"),
    "pass": pgettext_lazy("a move", "pass"),
    "give_coins": pgettext_lazy("a move", "give Coins"),
    "break_tie": pgettext_lazy("a move", "decide the winning side"),
    "give_leader": pgettext_lazy("a move", "give the Leader token"),
    "read_outcome": pgettext_lazy("a move", "read the outcome"),
    "move_resource": pgettext_lazy("a move", "move a Resource by hand"),
    "adjust": pgettext_lazy("a move", "give or take by hand"),
    "mystery_sticker": pgettext_lazy("a move", "attach a Mystery sticker"),
    "to_event_area": pgettext_lazy("a move", "send the card to the Event area"),
    "to_dilemma_deck": pgettext_lazy("a move", "put a card into the Dilemma deck"),
    "to_time_counter": pgettext_lazy("a move", "place the card on the Time Counter"),
    "score": pgettext_lazy("a move", "score the game"),
    "choose_heir": pgettext_lazy("a move", "choose who marries into the royal line"),
}


def resource_name(row: object) -> str:
    """A row's name as the board prints it (a row the rules do not know, as it was typed)."""
    return RESOURCE_NAMES.get(row, row.capitalize()) if isinstance(row, str) else str(row)


def side_name(side: object) -> str:
    """AYE or NAY (anything else in capitals, as typed)."""
    return SIDE_NAMES.get(side, side.upper()) if isinstance(side, str) else str(side).upper()
