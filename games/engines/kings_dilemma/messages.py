"""Every sentence a RuleError of The King's Dilemma can carry: tests assert these constants."""

# Setup (the config the campaign hands over)
CONFIG_FORMAT = "The game needs a config object with its seats."
SEAT_COUNT = "The King's Dilemma is played by 3 to 5 Houses."
SEAT_FORMAT = "Every seat is an object with at least a name."
SEAT_NAME = "Every seat needs a name of at most {most} characters."
SEAT_NUMBER = "{name}'s {field} must be a whole number from {low} to {high}."
HOUSE_NUMBER_TWICE = "Two seats cannot play the same House number ({number})."
OPEN_AGENDA_FORMAT = "An Open Agenda token names a resource row and whether it is positive."
OPEN_AGENDA_LIMIT = "A House holds at most 2 Positive and 2 Negative Open Agenda tokens in a game."
OPEN_AGENDA_TWICE = "Each Open Agenda token exists once: {row} {sign} is given twice."
RESOURCES_FORMAT = (
    "The Resource legacy gives each row a whole-number offset from the centre row (-{rows} to {rows})."
)
TOKEN_SEAT = "The {token} token must go to one of the seats (0 to {top})."
DECK_FORMAT = "The Dilemma deck is a list of card numbers from 1 to {top}."
KNOWN_CARDS_FORMAT = "Known cards are an object from card number to the card as it was typed."
KING_NAME = "The King's name is text of at most {most} characters."
TRACKS_FORMAT = "The track data {what} is not valid: {why}."
CAMPAIGN_NUMBERS = "The campaign's {what} are a list of numbers from {low} to {high}."
CAMPAIGN_PLACES = (
    "The campaign's cards out of the Dilemma deck map a card number to trash, story_slot or event_area."
)

# Who may act, and when
NOT_NOW = "You cannot {what} now."
TABLE_ONLY = "Only the table can {what}."
SEAT_ONLY = "The table cannot {what}: a House does."
NOT_YOUR_TURN = "It is {name}'s turn to {what}."
MODERATOR_ONLY = "Only the Moderator ({name}) can {what}."
NOT_YOUR_VOTE = "It is {name}'s turn to vote."
NO_SUCH_SEAT = "There is no such seat at this table."

# Secret Agenda draft
AGENDA_NOT_OFFERED = "That Secret Agenda is not among the cards offered to you."

# Drawing a Dilemma card
CARD_FORMAT = (
    "Type the Dilemma card as an object with its number, title and the Outcome tokens of AYE and NAY."
)
CARD_NUMBER = "A Dilemma card number is a whole number from 1 to {top}."
CARD_TITLE = "A card title is one line of text of at most 120 characters."
CARD_ALREADY = "Dilemma card {number} was already drawn this game."
# Also the campaign's sentence (campaign.services.envelopes): the save slots are the campaign's.
DILEMMA_NOT_IN_DECK = "Dilemma card {number} is not in the Dilemma deck (it is in the {place})."
# Where a card out of the Dilemma deck lies ({place} above), by the campaign's save slot.
OUT_OF_DECK_PLACES = {
    "trash": "Trash: resolved in an earlier game, it will never be used again",
    "event_area": "Event area",
    "story_slot": "Story save slot",
}
# Short names of the same places, for the table's news.
PLACE_NAMES = {"trash": "Trash", "event_area": "Event area", "story_slot": "Story save slot"}
CARD_NOT_OUT_OF_DECK = (
    "Dilemma card {number} is not in the Trash, the Event area or the Story save slot: draw it as it is."
)
CARD_TITLE_MISSING = "Card {number} was never met before: type its title as printed on the front."
CARD_QUESTION = "The card's question is text of at most 300 characters."
FRONT_FORMAT = "The {side} Outcome tokens are a list of Resources going up or down and an optional sticker."
FRONT_DIRECTION = "An Outcome token moves its Resource up or down."
FRONT_ROW_TWICE = "{row} shows only one Outcome token on the {side} side."
FRONT_STICKER = "The sticker Outcome token is positive or negative (or absent)."
OUTCOME_FORMAT = (
    "The outcome lists its resource moves in order, its sticker, its envelope, the lightning and a note."
)
OUTCOME_EMPTY = "This outcome has nothing in it: type its resource moves, its sticker, its envelope or a note of what it says."
OUTCOME_NOTE = "A note is text of at most 200 characters."
RESOURCE_ROW = (
    "There is no {row!r} row on the Resource Track: use influence, wealth, morale, welfare or knowledge."
)
RESOURCE_MOVE = (
    "A resource move is a row and a whole number of spaces other than 0 (at most {top} either way)."
)
STICKER_FORMAT = (
    "A Chronicle sticker has a number from 1 to {count}, a resource row and whether it is positive."
)
ENVELOPE_NUMBER = "Envelopes are numbered 0 to {top}."
# What the campaign already holds, or what was named earlier tonight: each exists once in the box.
STICKER_ON_BOARD = (
    "Chronicle sticker {number} is already on the Realm board (attached in an earlier game): "
    "check the number on the back of the card."
)
STICKER_TONIGHT = "Chronicle sticker {number} was already attached tonight (Dilemma card {dilemma})."
ENVELOPE_OPENED = (
    "Envelope {number:02d} was already opened in an earlier game: check the number on the back of the card."
)
ENVELOPE_TONIGHT = "Envelope {number:02d} was already opened tonight (Dilemma card {dilemma})."

# Voting
VOTE_SIDE = "Vote AYE or NAY."
VOTE_NO_POWER = "You cannot vote with 0 Power: pass instead."
POWER_AMOUNT = "Place a whole number of Power of 1 or more."
POWER_TOO_MUCH = "You have only {have} Power behind your screen."
VOTE_CHANGE = "You cannot change your vote: add Power to it or stay."
NOT_VOTED = "You have not voted yet: vote AYE or NAY, or pass."
MODERATOR_TAKEN = "{name} already passed and became Moderator in this Voting Phase."

# Bargaining
GIFT_SELF = "You cannot give Coins to yourself."
GIFT_AMOUNT = "Give a whole number of Coins of 1 or more."
GIFT_TOO_MUCH = "You have only {have} Coin{s} behind your screen."

# Vote resolution
TIE_SIDE = "The Moderator decides for AYE or NAY."
LEADER_CANDIDATE = "The Leader token goes to one of the winning side's biggest voters: {names}."

# Host effects
LABEL = "Type a short label for this effect (1 to 80 characters, on one line)."
HOST_WHAT = "The table can give or take Coins, Power, Prestige or Crave."
HOST_TARGETS = "Name the House this effect applies to, or a list of one or more Houses."
HOST_TARGETS_TWICE = "Name each House once: the effect applies once to each House named."
HOST_AMOUNT = "The amount is a whole number from -{most} to {most} other than 0 (negative to take)."
MYSTERY_LETTER = "Mystery stickers are behind doors A to L."
MYSTERY_TWICE = "Mystery sticker {letter} was already attached."
MYSTERY_ALL = (
    "All {count} Mystery stickers of the campaign are already attached: the last one opens Envelope "
    "{envelope:02d}, the Grand Finale."
)
LIGHTNING_FORMAT = (
    "Say whether the back of the card shows the lightning on its central space (true or false)."
)

# End of the game
HEIR_CANDIDATE = "The Moderator chooses among the tied winners: {names}."
OUTCOME_PLACE = (
    "After the outcome the card is placed on the Time Counter (time_counter) or left open (resolution)."
)

# What just happened: one line per consequence, on the table's banner and in the log
NEWS_MOVE = "{row} {amount:+d}: the marker moves {before} → {after}{stability}."
NEWS_MOMENTUM = "{row} {amount:+d} with Momentum: the marker moves {before} → {after}{stability}."
NEWS_AGAINST = "{row} {amount:+d} against its Momentum: the marker moves {before} → {after} and turns {arrow}{stability}."
NEWS_STABILITY = "; Stability {before} → {after}"
NEWS_TRACK_END = "{row} stopped at the end of its track ({at}/{top})."
NEWS_ABDICATES = "Stability reached {at}/{top}: the King abdicates at the end of the round."
NEWS_STICKER = "{kind} Chronicle sticker {number} goes on the {row} row, signed by {leader} (the Leader)."
NEWS_ENVELOPE = "{leader} (the Leader) opens Envelope {number:02d}."
NEWS_GRAND_FINALE = (
    "The sixth Mystery sticker is attached: {leader} (the Leader) opens Envelope {number:02d} now, the "
    "Grand Finale."
)
# A remembered back never re-adds what is on the board (docs/rules-decisions.md).
NEWS_STICKER_NOT_AGAIN = (
    "Chronicle sticker {number} is already on the Realm board: the card does not attach it again."
)
NEWS_ENVELOPE_NOT_AGAIN = "Envelope {number:02d} is already open: the card does not open it again."
NEWS_TO_DECK = "Card {number} goes from the {place} into the Dilemma deck: it may be drawn tonight."
NEWS_TIME_COUNTER = "Card {number} goes on the Time Counter ({count}/{spaces})."
NEWS_LIGHTNING_DEAD = "It lies on the lightning space: the King is dead."
NEWS_LIGHTNING_LIVES = "It lies on the lightning space, and the King lives on."
NEWS_GAME_ENDS = "The end of the game is triggered: reveal the Secret Agendas and score."
NEWS_PRESTIGE = "{name}'s Prestige {before} → {after}."
NEWS_CRAVE = "{name}'s Crave {amount:+d} (for the campaign)."
NEWS_COINS_GIVEN = "{name} takes {amount} Coin{s} from the general pool (behind the screen)."
NEWS_COINS_TAKEN = "{name} returns {amount} Coin{s} to the general pool."
NEWS_POWER_GIVEN = "{name} takes {amount} Power from the general pool (behind the screen)."
NEWS_POWER_TAKEN = "{name} returns {amount} Power to the general pool."
NEWS_MODERATOR = (
    "{name} takes the Moderator token and 1 Coin from the general pool (on the PASS card, behind the"
    " screen when the vote ends)."
)
NEWS_GATHER = (
    "{name} takes 1 Coin from the general pool (on the PASS card, behind the screen when the vote ends)."
)
