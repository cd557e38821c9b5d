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

- ``deal`` (table): removes one Secret Agenda at random; the draft starts (lowest Prestige first).
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
- ``move_resource`` {row, amount, label}, ``adjust`` {target, what: coins|power|prestige|crave, amount,
  label}, ``mystery_sticker`` {letter, label}, ``to_event_area`` {label}: the host's hand-applied effects.
- ``to_time_counter`` (table): step E and F of the Dilemma Resolution.
- ``score`` (table): reveals the Secret Agendas and scores; ``choose_heir`` {heir}: the Moderator among
  tied winners.

``legal_actions`` describes each choice with its parameters and bounds (``games.engines.kernel.choices``).
The result (``state["result"]``) is documented in ``scoring.finish``.

Every action leaves ``state["news"]``: one sentence per consequence it had (a Resource moved with
Momentum, Stability at the end of its track, a sticker signed, Prestige or Coins given by hand, the
Moderator's Coin...). The table's banner shows them, and the log's label carries them.
"""

from __future__ import annotations

import logging

from games.engines.kernel.choices import Choice
from games.engines.kernel.rules import ALWAYS, TABLE, Rules
from games.engines.kings_dilemma import bot, realm, scoring, start, voting
from games.engines.kings_dilemma.cards import synthetic_front, synthetic_outcome
from games.engines.kings_dilemma.flow import VOTING_PHASES
from games.engines.kings_dilemma.views import KingsDilemmaView, describe, view

logger = logging.getLogger(__name__)
LABEL_MOST = 1000  # the log's label (games.models.SessionAction.label)


class KingsDilemmaRules(Rules):
    slug = "kings_dilemma"
    table_view_type = seat_view_type = KingsDilemmaView
    name = "The King's Dilemma"
    min_seats = start.MIN_SEATS
    max_seats = start.MAX_SEATS
    order = 1
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": start.deal,
        "choose_secret_agenda": start.choose_secret_agenda,
        "draw_dilemma": realm.draw_dilemma,
        "vote": voting.vote,
        "add_power": voting.add_power,
        "stay": voting.stay,
        "pass_gather": voting.pass_gather,
        "pass_moderator": voting.pass_moderator,
        "give_coins": voting.give_coins,
        "break_tie": voting.break_tie,
        "give_leader": voting.give_leader,
        "move_resource": realm.host_move_resource,
        "adjust": realm.adjust,
        "mystery_sticker": realm.mystery_sticker,
        "to_event_area": realm.to_event_area,
        "read_outcome": realm.read_outcome,
        "to_time_counter": realm.to_time_counter,
        "score": scoring.score,
        "choose_heir": scoring.choose_heir,
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
    setup = staticmethod(start.new_state)
    view = staticmethod(view)

    def apply(self, state: dict, action: dict) -> dict:
        """Each action starts with no news: what it leaves in ``news`` is its own consequences."""
        return super().apply({**state, "news": []}, action)

    def describe(self, state: dict, action: dict) -> str:
        """The log's label: what was done, then one line per consequence (as long as the label holds
        them: the banner shows them all)."""
        label = describe(state, action)
        try:
            news = self.apply(state, action).get("news") or []
        except Exception:  # a label never fails an action (a refused one is never described)
            logger.debug("No consequences for %r", action, exc_info=True)
            news = []
        for line in news:
            if len(label) + 1 + len(line) > LABEL_MOST:
                break
            label += "\n" + line
        return label

    def legal_actions(self, state: dict, seat: int | None) -> list[Choice]:
        if state["over"]:
            return []
        phase = state["phase"]
        if phase in ("deal", "draft"):
            return start.legal_draft(state, seat)
        if phase == "draw":
            return realm.legal_draw(state) if seat is None else []
        if phase in VOTING_PHASES:
            return voting.legal_voting(state, seat)
        if phase == "outcome":
            return realm.legal_outcome(state) if seat is None else []
        if phase == "resolution":
            return realm.legal_resolution(state) if seat is None else []
        return scoring.legal_end(state, seat)

    def sample(self, state: dict, choice: Choice, rng) -> dict | None:
        """Concrete values for typed cards and constrained host effects (bots, property tests)."""
        if choice["type"] == "draw_dilemma":
            return {"type": "draw_dilemma", "seat": None, "card": synthetic_front(state)}
        if choice["type"] == "read_outcome":
            known = realm.known_outcome(state)
            if known is not None and not realm.is_new_to_the_campaign(state, known):
                known = None  # its sticker or Envelope was used since: the table types the back again
            outcome = known if known is not None else synthetic_outcome(state, state["winning_side"])
            action = {"type": "read_outcome", "seat": None, "outcome": outcome}
            place = rng.choice([None, *realm.PLACES])  # absent: as the API accepted it at first
            return action if place is None else {**action, "place": place}
        return realm.sample_host_effect(state, choice, rng)


RULES = KingsDilemmaRules()
