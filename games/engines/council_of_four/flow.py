"""The state, the order of play and the bonuses: who must act now, drawing Politics cards, moving on
the Nobility Track, placing a Merchant (its chain of City tokens and the Reward tiles), pending
bonus choices and the end of a turn."""

from collections import Counter, deque

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.board import (
    BALCONIES,
    CARD_IDS,
    CITIES,
    CITY_TOKENS,
    COLOUR_REWARDS,
    COUNCILOR_COLOURS,
    COUNCILORS_PER_COLOUR,
    GREY,
    LAST_MERCHANT_VP,
    MERCHANTS,
    NEIGHBOURS,
    NOBILITY,
    NOBILITY_LAST,
    PERMITS,
    QUEEN_CITY,
    QUEEN_REWARDS,
    REGION_REWARDS,
    REGIONS,
    START_COINS,
    START_SERVANTS,
    colour_cities,
    region_cities,
)
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import config_seat_names
from games.engines.kernel.turns import turn_guard

MIN_SEATS = 2
MAX_SEATS = 4

# Pending bonus choices, and how a message names each.
CITY_TOKEN = "city_token"
PERMIT_BONUS = "permit_bonus"
FREE_PERMIT = "free_permit"
PENDING_WORDS = {
    CITY_TOKEN: "City token bonus",
    PERMIT_BONUS: "Permit bonus",
    FREE_PERMIT: "free Permit",
}


def fresh_turn() -> dict:
    return {"main_left": 1, "quick_left": 1, "mains_done": 0}


def new_state(config: dict, seed: int) -> dict:
    names = config_seat_names(config, MIN_SEATS, MAX_SEATS, msg)
    return {
        "game": "council_of_four",
        "seed": seed,
        "step": 0,
        "seats": [
            {
                "name": name,
                "coins": START_COINS[i],
                "servants": START_SERVANTS[i],
                "victory": 0,
                "nobility": 0,
                "hand": [],
                "permits": [],  # [{"id": "C03", "face_up": True}] in the order acquired
                "rewards": [],  # [{"kind": "region"|"colour"|"queen", "name": ..., "victory_points": n}]
            }
            for i, name in enumerate(names)
        ],
        "phase": "deal",  # deal -> actions (each turn starts with its draw, made by itself); "over" at the end
        "current": 0,
        "turn": fresh_turn(),
        "pending": [],
        # The box before the deal: every card in the deck, every Councilor beside the board.
        "deck": list(CARD_IDS),
        "discard": [],
        "balconies": {b: [] for b in BALCONIES},  # colours, the newest (next to the arrow) first
        "councilors": dict.fromkeys(COUNCILOR_COLOURS, COUNCILORS_PER_COLOUR),
        "permit_decks": {r: [p for p, tile in PERMITS.items() if tile["region"] == r] for r in REGIONS},
        "face_up": {r: [] for r in REGIONS},
        "city_tokens": {},
        "queen": QUEEN_CITY,
        "merchants": {c: [] for c in CITIES},  # seats, in the order they placed
        "neutral": [],  # cities holding the neutral colour's Merchant (two players)
        "region_rewards": list(REGION_REWARDS),
        "colour_rewards": list(COLOUR_REWARDS),
        "queen_rewards": list(QUEEN_REWARDS),
        "final": None,  # {"by": seat} once someone placed their 10th Merchant
        "over": False,
        "result": None,
    }


def name(state: dict, seat: int) -> str:
    return state["seats"][seat]["name"]


# The kernel's turn guard in this game's words.
expect_turn = turn_guard(msg)


def expect_own_turn(state: dict, action: dict) -> int:
    """The seat of the action, which must be the seat whose turn it is."""
    if state["phase"] == "deal":
        raise RuleError(msg.NOT_DEALT)
    return expect_turn(state, action, phases=None, acting=state["current"], what="play")


def expect_actions(state: dict, action: dict) -> int:
    seat = expect_own_turn(state, action)
    if state["pending"]:
        raise RuleError(msg.CHOOSE_FIRST.format(what=PENDING_WORDS[state["pending"][0]["kind"]]))
    return seat


def expect_main_action(state: dict, action: dict) -> int:
    seat = expect_actions(state, action)
    if state["turn"]["main_left"] < 1:
        raise RuleError(msg.NO_MAIN_ACTION_LEFT)
    return seat


def expect_quick_action(state: dict, action: dict) -> int:
    seat = expect_actions(state, action)
    if state["turn"]["quick_left"] < 1:
        raise RuleError(msg.NO_QUICK_ACTION_LEFT)
    return seat


def use_main(state: dict) -> None:
    state["turn"]["main_left"] -= 1
    state["turn"]["mains_done"] += 1


def use_quick(state: dict) -> None:
    state["turn"]["quick_left"] -= 1


# Politics cards


def draw_card(state: dict, seat: int, rng) -> bool:
    """Draw the top Politics card; an empty deck is first rebuilt from the shuffled discards.
    With both empty the draw is skipped (docs/rules-decisions.md)."""
    if not state["deck"]:
        if not state["discard"]:
            return False
        state["deck"] = list(state["discard"])
        state["discard"] = []
        rng.shuffle(state["deck"])
    state["seats"][seat]["hand"].append(state["deck"].pop(0))
    return True


def shows_hidden(before: dict, action: dict, after: dict) -> bool:
    """Whether an action showed a hidden card: a Politics card drawn into a hand (its owner sees it)
    or a Permit turned face up from its deck ('Replace the tile with the top tile of the
    corresponding deck')."""
    for old, new in zip(before["seats"], after["seats"], strict=True):
        if set(new["hand"]) - set(old["hand"]):
            return True
    face_up = {p for region in REGIONS for p in before["face_up"][region]}
    return any(p not in face_up for region in REGIONS for p in after["face_up"][region])


# Bonuses


def gain(state: dict, seat: int, bonus: dict, rng) -> None:
    """Receive a bonus (City token, Permit, Nobility space). Choices wait in ``pending``."""
    player = state["seats"][seat]
    for key, amount in bonus.items():
        if key == "victory_points":
            player["victory"] += amount
        elif key == "coins":
            player["coins"] += amount
        elif key == "servants":
            player["servants"] += amount
        elif key == "politics_cards":
            for _ in range(amount):
                draw_card(state, seat, rng)
        elif key == "additional_main_action":
            state["turn"]["main_left"] += amount
        elif key == "nobility_steps":
            advance(state, seat, amount, rng)
        elif key == "city_token_bonus":
            state["pending"].append({"kind": CITY_TOKEN, "seat": seat, "count": amount})
        elif key == "free_permit_tile":
            state["pending"].append({"kind": FREE_PERMIT, "seat": seat})
        elif key == "permit_tile_bonus_again":
            state["pending"].append({"kind": PERMIT_BONUS, "seat": seat})


def advance(state: dict, seat: int, steps: int, rng) -> None:
    """Move along the Nobility Track one space at a time, taking each bonus reached. The track
    ends at its last space: further steps are lost."""
    player = state["seats"][seat]
    for _ in range(steps):
        if player["nobility"] >= NOBILITY_LAST:
            return
        player["nobility"] += 1
        bonus = NOBILITY.get(player["nobility"])
        if bonus:
            gain(state, seat, bonus, rng)


def moves_on_nobility(bonus: dict) -> bool:
    return bool(bonus.get("nobility_steps"))


def city_token_options(state: dict, seat: int) -> list[str]:
    """Cities where the seat has a Merchant and whose token does not move it on the Nobility Track."""
    return [
        letter
        for letter, token in sorted(state["city_tokens"].items())
        if seat in state["merchants"][letter] and not moves_on_nobility(CITY_TOKENS[token])
    ]


def permit_bonus_options(state: dict, seat: int) -> list[str]:
    """Every Permit the seat bought, face up or face down, in the order acquired (Nobility space 14:
    "one of the permit tiles which you previously bought (also a face-down tile)"). Unlike the City
    tokens, the rulebook leaves none out: one whose bonus moves the seat on the Nobility Track is
    offered too, and the track only moves forward, so nothing loops (docs/rules-decisions.md)."""
    return [p["id"] for p in state["seats"][seat]["permits"]]


def free_permit_options(state: dict) -> list[str]:
    return [p for region in REGIONS for p in state["face_up"][region]]


def pending_options(state: dict, pending: dict) -> list:
    if pending["kind"] == CITY_TOKEN:
        return city_token_options(state, pending["seat"])
    if pending["kind"] == PERMIT_BONUS:
        return permit_bonus_options(state, pending["seat"])
    return free_permit_options(state)


def settle(state: dict, rng) -> None:
    """After an action: drop bonus choices nothing qualifies for (the bonus is lost), then end the
    turn by itself once both the Main and the Quick actions are used up (the next player's draw
    then happens by itself: ``start_turn``)."""
    while state["pending"] and not pending_options(state, state["pending"][0]):
        state["pending"].pop(0)
    if state["over"] or state["pending"] or state["phase"] != "actions":
        return
    turn = state["turn"]
    if turn["main_left"] == 0 and turn["quick_left"] == 0:
        end_turn(state, rng)


# Councilors and Permits


def insert_councilor(state: dict, balcony: str, colour: str) -> str:
    """Push a Councilor in from the arrow side; the one pushed out goes beside the board."""
    line = state["balconies"][balcony]
    state["councilors"][colour] -= 1
    line.insert(0, colour)
    out = line.pop()
    state["councilors"][out] += 1
    return out


def refill(state: dict, region: str, slot: int) -> None:
    """Replace the taken face-up Permit with the top of its deck (the slot stays empty when the
    deck is exhausted)."""
    deck = state["permit_decks"][region]
    if deck:
        state["face_up"][region].insert(slot, deck.pop(0))


def take_permit(state: dict, seat: int, permit: str, rng) -> None:
    region = PERMITS[permit]["region"]
    slot = state["face_up"][region].index(permit)
    state["face_up"][region].pop(slot)
    refill(state, region, slot)
    state["seats"][seat]["permits"].append({"id": permit, "face_up": True})
    gain(state, seat, PERMITS[permit]["bonus"], rng)


# Merchants


def merchants_of(state: dict, seat: int) -> list[str]:
    return [c for c, seats in state["merchants"].items() if seat in seats]


def others_in(state: dict, city: str, seat: int) -> int:
    """Merchants of other players (the neutral colour included) already in the city."""
    return servants_to_place(state["merchants"][city], city in state["neutral"], seat)


def servants_to_place(merchants: list[int], neutral: bool, seat: int) -> int:
    """Servants ``seat`` returns to place a Merchant in a city holding these Merchants (seat
    indexes) and, in a two-player game, maybe a Neutral one: 1 per Merchant of another player."""
    return sum(1 for s in merchants if s != seat) + bool(neutral)


def placing_problem(state: dict, seat: int, city: str) -> str | None:
    """Why the seat cannot place a Merchant in the city now, or None."""
    player = state["seats"][seat]
    if seat in state["merchants"][city]:
        return msg.ALREADY_IN_CITY.format(city=CITIES[city]["name"])
    if len(merchants_of(state, seat)) >= MERCHANTS:
        return msg.NO_MERCHANTS_LEFT
    cost = others_in(state, city, seat)
    if player["servants"] < cost:
        return msg.NOT_ENOUGH_SERVANTS.format(cost=cost, servants=player["servants"])
    return None


def chain(state: dict, seat: int, city: str) -> list[str]:
    """The city and every city linked to it by roads through cities holding the seat's Merchants
    (neutral Merchants never link), in the order they are reached."""
    seen = [city]
    queue = deque([city])
    while queue:
        here = queue.popleft()
        for there in NEIGHBOURS[here]:
            if there not in seen and seat in state["merchants"][there]:
                seen.append(there)
                queue.append(there)
    return seen


def place_merchant(state: dict, seat: int, city: str, rng) -> None:
    problem = placing_problem(state, seat, city)
    if problem:
        raise RuleError(problem)
    player = state["seats"][seat]
    player["servants"] -= others_in(state, city, seat)
    state["merchants"][city].append(seat)
    for letter in chain(state, seat, city):
        token = state["city_tokens"].get(letter)
        if token is not None:
            gain(state, seat, CITY_TOKENS[token], rng)
    claim_rewards(state, seat, city)
    if len(merchants_of(state, seat)) == MERCHANTS and state["final"] is None:
        player["victory"] += LAST_MERCHANT_VP
        state["final"] = {"by": seat}


def claim_rewards(state: dict, seat: int, city: str) -> None:
    """The first to have a Merchant in every city of a region or of a colour takes its Reward tile
    and the top Queen's Reward tile (while any is left)."""
    player = state["seats"][seat]
    mine = set(merchants_of(state, seat))
    region = CITIES[city]["region"]
    if region in state["region_rewards"] and set(region_cities(region)) <= mine:
        state["region_rewards"].remove(region)
        player["rewards"].append({"kind": "region", "name": region, "victory_points": REGION_REWARDS[region]})
        _queen_reward(state, seat)
    colour = CITIES[city]["colour"]
    if colour != GREY and colour in state["colour_rewards"] and set(colour_cities(colour)) <= mine:
        state["colour_rewards"].remove(colour)
        player["rewards"].append({"kind": "colour", "name": colour, "victory_points": COLOUR_REWARDS[colour]})
        _queen_reward(state, seat)


def _queen_reward(state: dict, seat: int) -> None:
    if state["queen_rewards"]:
        order = len(QUEEN_REWARDS) - len(state["queen_rewards"]) + 1
        points = state["queen_rewards"].pop(0)
        state["seats"][seat]["rewards"].append(
            {"kind": "queen", "name": str(order), "victory_points": points}
        )


# The end of a turn


def start_turn(state: dict, seat: int, rng) -> None:
    """'Phase 1: Draw a Card': compulsory and without a choice, so it happens by itself as the turn
    starts (no tap; the log says it with the action that passed the turn). With no Politics card
    left anywhere the draw is skipped (docs/rules-decisions.md)."""
    state["current"] = seat
    state["turn"] = fresh_turn()
    state["phase"] = "actions"
    draw_card(state, seat, rng)


def end_turn(state: dict, rng) -> None:
    from games.engines.council_of_four.scoring import finish

    following = (state["current"] + 1) % len(state["seats"])
    if state["final"] is not None and following == state["final"]["by"]:
        finish(state)
        return
    start_turn(state, following, rng)


def councilors_in_play(state: dict) -> Counter:
    """Every Councilor by colour: in the Balconies and beside the board (always 4 of each)."""
    total = Counter(state["councilors"])
    for line in state["balconies"].values():
        total.update(line)
    return total
