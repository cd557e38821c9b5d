"""The Realm board: drawing a Dilemma card, Dilemma Resolution (Resources, Momentum, Stability,
stickers, envelopes, the Time Counter, the King's death) and the host's hand-applied card effects
(docs/rules-decisions.md "Card effects the app cannot know")."""

from __future__ import annotations

import random
from typing import Any

from games.engines.kernel.choices import Choice
from games.engines.kernel.errors import RuleError
from games.engines.kernel.text import LINE_BREAKS
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.board import from_pool, move_resource, resolve_dilemma, tell, to_pool
from games.engines.kings_dilemma.cards import (
    applies_nothing,
    card_number,
    normalise_front,
    normalise_outcome,
    synthetic_front,
    synthetic_outcome,
)
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.turn import is_int, name, seat_index
from games.engines.kings_dilemma.voting import start_voting

MAX_LABEL = 80
HOST_WHATS = ("coins", "power", "prestige", "crave")


# ---- Phase 1: draw and read a card (its front) ---------------------------------------------------


def drawn_numbers(state: dict) -> set[int]:
    return {int(n) for n in state["cards_met"]}


def out_of_deck(state: dict) -> dict[str, str]:
    """The campaign's cards out of the Dilemma deck (Trash, Event area, Story save slot). A session
    started before the campaign handed them over has none."""
    return state.get("cards_out_of_deck") or {}


def stickers_taken(state: dict) -> dict[int, int | None]:
    """Chronicle sticker numbers already attached: in earlier games (None) or tonight (the card)."""
    taken: dict[int, int | None] = dict.fromkeys(state.get("stickers_before") or [])
    taken.update((s["number"], s.get("dilemma")) for s in state["stickers"])
    return taken


def envelopes_taken(state: dict) -> dict[int, int | None]:
    """Envelope numbers already opened: in earlier games (None) or tonight (the card)."""
    taken: dict[int, int | None] = dict.fromkeys(state.get("envelopes_before") or [])
    taken.update((e["number"], e.get("dilemma")) for e in state["envelopes"])
    return taken


def expect_new_to_the_campaign(state: dict, outcome: dict) -> None:
    """A Chronicle sticker or an Envelope exists once in the box: one the campaign attached or opened
    in an earlier game, or the table named earlier tonight, is refused (typed wrong)."""
    sticker = outcome["sticker"]
    if sticker is not None and sticker["number"] in (stickers := stickers_taken(state)):
        number, dilemma = sticker["number"], stickers[sticker["number"]]
        raise RuleError(
            msg.STICKER_ON_BOARD.format(number=number)
            if dilemma is None and number in (state.get("stickers_before") or [])
            else msg.STICKER_TONIGHT.format(number=number, dilemma=dilemma),
            {"field": "sticker"},
        )
    envelope = outcome["envelope"]
    if envelope is not None and envelope in (envelopes := envelopes_taken(state)):
        dilemma = envelopes[envelope]
        raise RuleError(
            msg.ENVELOPE_OPENED.format(number=envelope)
            if dilemma is None and envelope in (state.get("envelopes_before") or [])
            else msg.ENVELOPE_TONIGHT.format(number=envelope, dilemma=dilemma),
            {"field": "envelope"},
        )


def draw_refusal(number: int, *, drawn: set[int], out: dict[str, str]) -> str | None:
    """Why a card number cannot be drawn, known from its number alone: the draw asks this before
    anything else, and the host's form asks it before the title and the tokens are typed."""
    if number in drawn:
        return msg.CARD_ALREADY.format(number=number)
    place = out.get(str(number))
    if place is not None:
        # 'Final Cleanup' step 2: trashed Dilemmas "will never be used again!"; Event cards lie in
        # the Event area, never in the deck.
        return msg.DILEMMA_NOT_IN_DECK.format(number=number, place=msg.OUT_OF_DECK_PLACES[place])
    return None


def draw_dilemma(state: dict, action: dict, rng: random.Random) -> None:
    """The table types the front of the card drawn: number, title, question and the Outcome tokens
    placed on the Balance. A card met before is typed by its number; its back stays unread."""
    raw = action.get("card")
    if not isinstance(raw, dict):
        raise RuleError(msg.CARD_FORMAT)
    number = card_number(raw.get("number"), state["tracks"])
    refusal = draw_refusal(number, drawn=drawn_numbers(state), out=out_of_deck(state))
    if refusal is not None:
        raise RuleError(refusal, {"field": "number"})
    known = state["known_cards"].get(str(number))
    typed_front = any(raw.get(key) for key in ("title", "question", "aye", "nay"))
    if known is not None and not typed_front:
        card = {**known, "back": dict(known["back"])}
    else:
        card = {**normalise_front(raw, state["tracks"]), "back": {"aye": None, "nay": None}}
        if known is not None:  # typed again: what is known of the back stays known
            card["back"] = dict(known["back"])
    state["cards_met"][str(number)] = card
    if number in state["dilemma_deck"]:
        state["dilemma_deck"].remove(number)
    state["card"] = card
    state["round"] += 1
    start_voting(state)


# ---- Phase 5: Dilemma Resolution --------------------------------------------------------------


# Where the card goes once its outcome is applied: on the Time Counter in the same action (steps E and F,
# nothing else is open), or nowhere yet: the resolution stays open for printed effects applied by hand.
PLACES = ("time_counter", "resolution")


def read_outcome(state: dict, action: dict, rng: random.Random) -> None:
    """Step A: the card is turned over on the winning side and its outcome read (typed by the table,
    or the stored back of a card met before), then steps B-D are applied. With ``place``
    "time_counter" step E and F follow in the same action (docs/rules-decisions.md); without it (or
    "resolution") the table may still apply printed effects by hand, then places the card."""
    card = state["card"]
    side = state["winning_side"]
    stored, offered = card["back"].get(side), known_outcome(state)
    # A remembered back whose every part is already on the board is offered empty: it applies nothing.
    emptied = offered is not None and offered != stored and applies_nothing(offered)
    outcome = normalise_outcome(action.get("outcome"), state["tracks"], allow_empty=emptied)
    place = action.get("place", "resolution")
    if place not in PLACES:
        raise RuleError(msg.OUTCOME_PLACE)
    expect_new_to_the_campaign(state, outcome)
    as_offered = stored is not None and outcome == offered
    # The card keeps what its back says, even the parts not applied again tonight.
    card["back"][side] = stored if as_offered else outcome
    state["cards_met"][str(card["number"])] = card
    if as_offered:
        tell_not_again(state, stored)
    resolve_dilemma(state, outcome)
    if place == "time_counter":
        place_on_time_counter(state)


def known_outcome(state: dict) -> dict | None:
    """The stored back of the winning side, offered again once the vote has ended (never before),
    without what is already on the board (docs/rules-decisions.md "A remembered back")."""
    if state["phase"] != "outcome" or not state["card"]:
        return None
    stored = state["card"]["back"].get(state["winning_side"])
    return None if stored is None else still_to_apply(state, stored)


def still_to_apply(state: dict, outcome: dict) -> dict:
    """A remembered outcome without its Chronicle sticker if that sticker is already attached, and
    without its Envelope if that Envelope is already opened (in an earlier game or tonight): each
    exists once in the box, so that part already happened."""
    offered = dict(outcome)
    if outcome["sticker"] is not None and outcome["sticker"]["number"] in stickers_taken(state):
        offered["sticker"] = None
    if outcome["envelope"] is not None and outcome["envelope"] in envelopes_taken(state):
        offered["envelope"] = None
    return offered


def tell_not_again(state: dict, stored: dict) -> None:
    """The table hears which remembered parts were left out, and why."""
    offered = still_to_apply(state, stored)
    if stored["sticker"] is not None and offered["sticker"] is None:
        tell(state, msg.NEWS_STICKER_NOT_AGAIN.format(number=stored["sticker"]["number"]))
    if stored["envelope"] is not None and offered["envelope"] is None:
        tell(state, msg.NEWS_ENVELOPE_NOT_AGAIN.format(number=stored["envelope"]))


def _lightning_space(state: dict) -> int:
    return state["tracks"]["time_counter"]["spaces"]


def time_counter_filled(cards: int, spaces: int) -> int:
    """The spaces the cards fill: the last one (the lightning space) takes every card from then on
    (rulebook "The King is Dead"), so the count stops at the spaces. The log and the board both say it
    with this."""
    return min(cards, spaces)


def on_lightning(cards: int, spaces: int) -> int:
    """How many cards lie on the lightning space (the last space of the Time Counter)."""
    return max(0, cards - spaces + 1)


def cards_on_lightning(state: dict) -> int:
    return on_lightning(len(state["time_counter"]), _lightning_space(state))


def to_time_counter(state: dict, action: dict, rng: random.Random) -> None:
    """Step E: the card goes next to the top empty space. Step F: on the lightning space, the King
    dies if the back shows the lightning on its central space, or if it is the fifth card there."""
    place_on_time_counter(state)


def place_on_time_counter(state: dict) -> None:
    number = state["card"]["number"]
    state["time_counter"].append(number)
    spaces = _lightning_space(state)
    count = len(state["time_counter"])
    tell(
        state,
        msg.NEWS_TIME_COUNTER.format(number=number, count=time_counter_filled(count, spaces), spaces=spaces),
    )
    on_lightning = cards_on_lightning(state)
    if state["abdicated"] is None and on_lightning >= 1:
        shown = bool(state["outcome"] and state["outcome"]["lightning"])
        if shown or on_lightning >= state["tracks"]["time_counter"]["king_death_cards"]:
            state["king_dead"] = True
        tell(state, msg.NEWS_LIGHTNING_DEAD if state["king_dead"] else msg.NEWS_LIGHTNING_LIVES)
    end_round(state)


def end_round(state: dict) -> None:
    """Step F: the King abdicated or died (the end of the game is triggered), or a new round starts."""
    grand_finale = state["tracks"]["grand_finale_envelope"]
    if mystery_all_attached(state) and grand_finale not in envelopes_taken(state):
        # 'Triggering the end of the campaign': after the resolution of the card that attached the
        # sixth Mystery sticker, Envelope 70 is opened.
        state["envelopes"].append(
            {
                "number": grand_finale,
                "opened_by": state["leader"],
                "dilemma": state["card"]["number"] if state["card"] else None,
                "grand_finale": True,
            }
        )
        tell(state, msg.NEWS_GRAND_FINALE.format(leader=name(state, state["leader"]), number=grand_finale))
    state["card"] = None
    state["outcome"] = None
    state["vote"] = None
    state["winning_side"] = None
    state["leader_candidates"] = None
    if state["abdicated"] or state["king_dead"]:
        state["end"] = "king_died" if state["abdicated"] is None else f"abdicated_{state['abdicated']}"
        state["phase"] = "end"
        tell(state, msg.NEWS_GAME_ENDS)
    else:
        state["phase"] = "draw"


def sample(state: dict, choice_: Choice, rng: random.Random) -> dict | None:
    """Concrete values for typed cards and constrained host effects (bots, property tests)."""
    if choice_["type"] == "draw_dilemma":
        return {"type": "draw_dilemma", "seat": None, "card": synthetic_front(state)}
    if choice_["type"] == "read_outcome":
        known = known_outcome(state)  # without what is already on the board
        outcome = known if known is not None else synthetic_outcome(state, state["winning_side"])
        action = {"type": "read_outcome", "seat": None, "outcome": outcome}
        place = rng.choice([None, *PLACES])  # absent: as the API accepted it at first
        return action if place is None else {**action, "place": place}
    return sample_host_effect(state, choice_, rng)


def sample_host_effect(state: dict, choice_: Choice, rng: random.Random) -> dict | None:
    """Values that constrain each other: a move of 1 or more spaces, an adjustment that takes no more
    than a House holds."""
    if choice_["type"] == "move_resource":
        amount_ = rng.choice([-2, -1, 1, 2])
        return {
            "type": "move_resource",
            "seat": None,
            "row": rng.choice(RESOURCES),
            "amount": amount_,
            "label": "card effect",
        }
    if choice_["type"] == "adjust":
        targets = rng.sample(range(len(state["seats"])), rng.randint(1, len(state["seats"])))
        what = rng.choice(HOST_WHATS)
        held = min(state["seats"][t].get(what, 0) for t in targets) if what in ("coins", "power") else 2
        amount_ = rng.choice([a for a in (-2, -1, 1, 2) if a > 0 or -a <= held])
        return {
            "type": "adjust",
            "seat": None,
            "target": targets,
            "what": what,
            "amount": amount_,
            "label": "card effect",
        }
    return None


# ---- host effects -----------------------------------------------------------------------------


def _label(action: dict) -> str:
    label = action.get("label")
    if not isinstance(label, str) or not label.strip() or len(label.strip()) > MAX_LABEL:
        raise RuleError(msg.LABEL)
    if any(char in LINE_BREAKS for char in label.strip()):  # kept as a ledger entry's reason: one line
        raise RuleError(msg.LABEL)
    return label.strip()


def host_move_resource(state: dict, action: dict, rng: random.Random) -> None:
    """A printed effect moving a Resource, applied like a card outcome (with Momentum and Stability)."""
    _label(action)
    row: Any = action.get("row")
    amount: Any = action.get("amount")
    top = state["tracks"]["resource_track"]["rows"]
    if row not in RESOURCES:
        raise RuleError(msg.RESOURCE_ROW.format(row=row))
    if not is_int(amount, -top, top) or amount == 0:
        raise RuleError(msg.RESOURCE_MOVE.format(top=top))
    move_resource(state, row, amount)


def host_targets(state: dict, value: Any) -> list[int]:
    """The Houses a hand-applied effect names: one House (its seat index, as the first logs hold it) or
    a list of different Houses ("each House that voted NAY pays 1 Coin": one effect, one log line)."""
    if not isinstance(value, list):
        return [seat_index(state, value)]
    if not value:
        raise RuleError(msg.HOST_TARGETS)
    targets = [seat_index(state, target) for target in value]
    if len(set(targets)) != len(targets):
        raise RuleError(msg.HOST_TARGETS_TWICE)
    return targets


def adjust(state: dict, action: dict, rng: random.Random) -> None:
    """Give (amount > 0) or take (amount < 0) Coins or Power (from/to the general pool), Prestige or
    Crave (recorded for the campaign's ledger), to each House named, in the order named."""
    label = _label(action)
    targets = host_targets(state, action.get("target"))
    what: Any = action.get("what")
    amount: Any = action.get("amount")
    if what not in HOST_WHATS:
        raise RuleError(msg.HOST_WHAT)
    most = state["tracks"]["limits"]["hand_adjust"]
    if not is_int(amount, -most, most) or amount == 0:
        raise RuleError(msg.HOST_AMOUNT.format(most=most))
    for target in targets:
        if what in ("coins", "power"):
            _give_or_take(state, target, what, amount)
        else:
            _prestige_or_crave(state, target, what, amount, label)


def _give_or_take(state: dict, target: int, what: str, amount: int) -> None:
    house = state["seats"][target]
    # Coins and Power lie behind the House screen, so the table cannot know how much there is to take:
    # a House that holds less gives up all it holds (docs/rules-decisions.md).
    amount = max(amount, -house[what])
    if amount > 0:
        from_pool(state, what, amount)
    else:
        to_pool(state, what, -amount)
    house[what] += amount
    # Coins and Power lie behind the House screen: the line says what moved, never what is held.
    line = {
        ("coins", True): msg.NEWS_COINS_GIVEN,
        ("coins", False): msg.NEWS_COINS_TAKEN,
        ("power", True): msg.NEWS_POWER_GIVEN,
        ("power", False): msg.NEWS_POWER_TAKEN,
    }[(what, amount > 0)]
    tell(state, line.format(name=name(state, target), amount=abs(amount)))


def _prestige_or_crave(state: dict, target: int, what: str, amount: int, label: str) -> None:
    who = name(state, target)
    if what == "prestige":
        before = prestige_now(state, target)
        tell(state, msg.NEWS_PRESTIGE.format(name=who, before=before, after=before + amount))
    else:
        tell(state, msg.NEWS_CRAVE.format(name=who, amount=amount))
    state["prestige_crave_effects"].append(
        {
            "seat": target,
            "prestige": amount if what == "prestige" else 0,
            "crave": amount if what == "crave" else 0,
            "label": label,
        }
    )


def prestige_now(state: dict, seat: int) -> int:
    """A House's Prestige on the table: what it brought, plus what the table gave or took tonight (the
    campaign's ledger records the same effects when the night is saved)."""
    given = sum(e["prestige"] for e in state["prestige_crave_effects"] if e["seat"] == seat)
    return state["seats"][seat]["prestige"] + given


def mystery_attached(state: dict) -> set[str]:
    return set(state["mystery_before"]) | {m["letter"] for m in state["mystery_stickers"]}


def mystery_all_attached(state: dict) -> bool:
    """'You will attach exactly 6 Mystery stickers during your campaign': earlier games' and tonight's."""
    return len(mystery_attached(state)) >= state["tracks"]["mystery_stickers_per_campaign"]


def mystery_sticker(state: dict, action: dict, rng: random.Random) -> None:
    label = _label(action)
    letter = action.get("letter")
    if not isinstance(letter, str) or len(letter) != 1 or letter not in state["tracks"]["mystery_letters"]:
        raise RuleError(msg.MYSTERY_LETTER)
    if letter in mystery_attached(state):
        raise RuleError(msg.MYSTERY_TWICE.format(letter=letter))
    if mystery_all_attached(state):
        tracks = state["tracks"]
        raise RuleError(
            msg.MYSTERY_ALL.format(
                count=tracks["mystery_stickers_per_campaign"], envelope=tracks["grand_finale_envelope"]
            )
        )
    dilemma = state["card"]["number"] if state["card"] else None
    state["mystery_stickers"].append({"letter": letter, "dilemma": dilemma, "label": label})


def to_event_area(state: dict, action: dict, rng: random.Random) -> None:
    """Event and Trigger cards never go on the Time Counter: the Event area instead."""
    _label(action)
    state["event_cards"].append(state["card"]["number"])
    end_round(state)


def to_dilemma_deck(state: dict, action: dict, rng: random.Random) -> None:
    """A printed effect puts a card of the campaign's Trash, Event area or Story save slot into the
    Dilemma deck tonight: from then on it is drawn like any card of the deck (a card met before by its
    number, under its typed title), and the save puts it in the Dilemma save slot
    (docs/rules-decisions.md "A card put into the Dilemma deck during a night")."""
    _label(action)
    number = card_number(action.get("number"), state["tracks"])
    place = out_of_deck(state).get(str(number))
    if place is None:
        raise RuleError(msg.CARD_NOT_OUT_OF_DECK.format(number=number), {"field": "number"})
    state["cards_out_of_deck"] = {n: p for n, p in out_of_deck(state).items() if n != str(number)}
    if number in state["event_cards"]:  # an ongoing Event card set up in the Event area tonight
        state["event_cards"].remove(number)
    if number not in state["dilemma_deck"]:
        state["dilemma_deck"].append(number)
    state["cards_to_deck"] = [*state.get("cards_to_deck", []), number]
    tell(state, msg.NEWS_TO_DECK.format(number=number, place=msg.PLACE_NAMES[place]))
