"""The King's Dilemma: one game night, 3 to 5 Houses, from setup to the end of the game (slug
``kings_dilemma``). The campaign (Houses, stickers, envelopes, save slots) lives in ``campaign/``: the
engine receives the legacy setup in its config and reports what the campaign records in its result.

Config::

    {"king_name": "Harald V",
     "seats": [  # table order, clockwise; 3-5
       {"name": "Anna", "house": 7, "house_number": 3, "prestige": 5, "power": 8, "coins": 10,
        "house_name": "House Smeethe",  # optional, for labels
        "open_agendas": [{"sticker": 43, "row": "influence", "positive": true}]}],
     "resources": {"influence": 0, "wealth": 1, ...},  # Resource legacy: offset from the centre row
     "leader": 0, "moderator": 2,       # seat indexes (default: highest / lowest Prestige, House number ties)
     "dilemma_deck": [12, 31, 7],       # card numbers in the Dilemma save slot (informational)
     "known_cards": {"12": CARD},       # cards met in earlier games, typed once (see cards.py)
     "mystery_stickers": ["A", "C"],    # optional: letters attached in earlier games
     "envelopes_opened": [0, 5],        # optional: Envelopes opened in earlier games
     "stickers_attached": [43],         # optional: Chronicle stickers on the board (covered too)
     "cards_out_of_deck": {"7": "trash"},   # optional: trash | event_area | story_slot
     "event_area": [120],               # optional: ongoing Event cards restored from the Story save slot
     "tracks": {...}}                   # optional overrides of data/tracks.json

Seat fields other than ``name`` default to the data file's start stock (8 Power, 10 Coins), Prestige 0,
House number = seat index + 1, no Open Agendas.

Actions (``seat`` None is the table, i.e. the host's screen):

- ``deal`` (table, the opening action): removes one Secret Agenda at random; the draft starts (lowest Prestige first).
- ``choose_secret_agenda`` {agenda}: the drafting seat keeps one of the cards offered to it.
- ``draw_dilemma`` (table) {card}: the front of the card drawn, typed (number, title, question, the
  Outcome tokens of AYE and NAY), or ``{"number": n}`` for a card met before (``cards.py``). A card
  out of the Dilemma deck (``cards_out_of_deck``) or drawn before tonight is refused; a number new to
  the campaign is accepted (docs/rules-decisions.md).
- ``vote`` {side: "aye"|"nay", power}, ``pass_gather``, ``pass_moderator``: a first voting turn;
  ``add_power`` {power}, ``stay``: a later one. ``give_coins`` {to, coins}: any seat, Voting Phase and
  Vote Resolution.
- ``break_tie`` {side} and ``give_leader`` {to}: the Moderator's Vote Resolution decisions.
- ``read_outcome`` (table) {outcome, place?}: after the vote, the winning side's outcome from the back
  of the card (resource moves in order, sticker, envelope, the lightning, a note), applied at once. A
  sticker or Envelope the campaign already holds, or named earlier tonight, is refused. ``place``
  "time_counter" also places the card on the Time Counter (steps E and F) in the same action; absent
  or "resolution", the resolution stays open for printed effects applied by hand.
- ``move_resource`` {row, amount, label}, ``adjust`` {target: a House or a list of Houses, what:
  coins|power|prestige|crave, amount, label}, ``mystery_sticker`` {letter, label}, ``to_event_area`` {label}, ``to_dilemma_deck`` {number,
  label} (a card of the Trash, Event area or Story save slot put into the deck by a printed effect):
  the host's hand-applied effects.
- ``to_time_counter`` (table): step E and F of the Dilemma Resolution.
- ``score`` (table): reveals the Secret Agendas and scores; ``choose_heir`` {heir}: the Moderator among
  tied winners.

Each action is declared below as a ``Move``: the phases it may be played in and who acts (the table,
any House, the seat whose voting turn it is, the drafting seat or the Moderator); the kernel refuses it
in the game's words (``messages.py``) before the move runs. ``legal_actions`` (``legal.py``) describes
each choice with its parameters and bounds (``games.engines.kernel.choices``); ``view`` (``player_view.py``)
returns the declared table and seat views; ``to_act`` (``turn.py``) who must act now.
The result (``state["result"]``) is documented in ``scoring.finish``.

Every action leaves ``state["news"]``: one sentence per consequence it had (a Resource moved with
Momentum, Stability at the end of its track, a sticker signed, Prestige or Coins given by hand, the
Moderator's Coin...). The table's banner shows them, and the log's label carries them.
"""

from __future__ import annotations

from games.engines.kernel.rules import ALWAYS, TABLE, Move, Rules
from games.engines.kernel.turns import ANY_SEAT, MoveBody
from games.engines.kings_dilemma import bot, draft, legal, messages, realm, scoring, sentences, setup, voting
from games.engines.kings_dilemma.player_view import KingsDilemmaSeatView, KingsDilemmaTableView, view
from games.engines.kings_dilemma.turn import (
    HOST_PHASES,
    VOTING_PHASES,
    drafting_seat,
    moderator,
    to_act,
    voter,
)

VOTING = ("voting",)
WHAT = messages.WHAT


def _voting_turn(run: MoveBody, what: str) -> Move:
    """A move of the seat whose voting turn it is."""
    return Move(run, phases=VOTING, acting=voter, what=what, not_yours=messages.NOT_YOUR_VOTE)


def _moderators(run: MoveBody, phase: str, what: str) -> Move:
    """A decision of the Moderator's."""
    return Move(run, phases=(phase,), acting=moderator, what=what, not_yours=messages.MODERATOR_ONLY)


def _table(run: MoveBody, phases: tuple[str, ...], what: str) -> Move:
    return Move(run, phases=phases, acting=TABLE, what=what)


class KingsDilemmaRules(Rules):
    slug = "kings_dilemma"
    name = "The King's Dilemma"
    min_seats = setup.MIN_SEATS
    max_seats = setup.MAX_SEATS
    order = 1
    table_view_type = KingsDilemmaTableView
    seat_view_type = KingsDilemmaSeatView
    words = messages
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": _table(draft.deal, ("deal",), WHAT["deal"]),
        "choose_secret_agenda": Move(
            draft.choose_secret_agenda,
            phases=("draft",),
            acting=drafting_seat,
            what=WHAT["choose_secret_agenda"],
        ),
        "draw_dilemma": _table(realm.draw_dilemma, ("draw",), WHAT["draw_dilemma"]),
        "vote": _voting_turn(voting.vote, WHAT["vote"]),
        "add_power": _voting_turn(voting.add_power, WHAT["add_power"]),
        "stay": _voting_turn(voting.stay, WHAT["stay"]),
        "pass_gather": _voting_turn(voting.pass_gather, WHAT["pass"]),
        "pass_moderator": _voting_turn(voting.pass_moderator, WHAT["pass"]),
        # Bargaining: any House, without claiming the turn, until the vote is resolved.
        "give_coins": Move(voting.give_coins, phases=VOTING_PHASES, acting=ANY_SEAT, what=WHAT["give_coins"]),
        "break_tie": _moderators(voting.break_tie, "tie_break", WHAT["break_tie"]),
        "give_leader": _moderators(voting.give_leader, "leader_choice", WHAT["give_leader"]),
        "read_outcome": _table(realm.read_outcome, ("outcome",), WHAT["read_outcome"]),
        "move_resource": _table(realm.host_move_resource, ("resolution",), WHAT["move_resource"]),
        "adjust": _table(realm.adjust, HOST_PHASES, WHAT["adjust"]),
        "mystery_sticker": _table(realm.mystery_sticker, HOST_PHASES, WHAT["mystery_sticker"]),
        "to_event_area": _table(realm.to_event_area, ("resolution",), WHAT["to_event_area"]),
        "to_dilemma_deck": _table(realm.to_dilemma_deck, HOST_PHASES, WHAT["to_dilemma_deck"]),
        "to_time_counter": _table(realm.to_time_counter, ("resolution",), WHAT["to_time_counter"]),
        "score": _table(scoring.score, ("end",), WHAT["score"]),
        "choose_heir": _moderators(scoring.choose_heir, "heir", WHAT["choose_heir"]),
    }
    # What each move shows that was hidden: undo never drops it. The deal (a draft offer), a chosen
    # Secret Agenda (the next seat's offer), a Dilemma card drawn (seen by all; a card met before
    # shows its stored front), its back read at resolution (a card met before shows its stored back)
    # and the scoring (every Secret Agenda). Coins given are binding, whatever they show.
    revealing = {
        "deal": ALWAYS,
        "choose_secret_agenda": ALWAYS,
        "draw_dilemma": ALWAYS,
        "read_outcome": ALWAYS,
        "score": ALWAYS,
    }
    not_undoable = frozenset({"give_coins"})
    bot_excluded = frozenset({"give_coins"})  # a bot would bleed its Coins away
    bot_policy = staticmethod(bot.choose)  # votes for its agendas with modest Power: see bot.py
    setup = staticmethod(setup.setup)
    choices = staticmethod(legal.legal_actions)
    choice_titles = sentences.CHOICE_TITLES
    view = staticmethod(view)
    to_act = staticmethod(to_act)
    sample = staticmethod(realm.sample)

    def apply_in_place(self, state: dict, action: dict) -> None:
        """Each action starts with no news: what it leaves in ``news`` is its own consequences."""
        state["news"] = []
        state["news_data"] = []
        super().apply_in_place(state, action)

    describe = staticmethod(sentences.describe)  # what was done, then one line per consequence


RULES = KingsDilemmaRules()
