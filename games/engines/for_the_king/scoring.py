"""'End of the Game': Duty tiles to the strongest players of each office, then the ranking."""

from collections.abc import Iterable

from games.engines.for_the_king.cards import CARDS, GOVERNMENT, OFFICE_COLOURS, TIE_BREAK_OFFICES, gold_value
from games.engines.kernel.words import count

NO_LETTER = "~"  # sorts after every letter: no card of that office

# The rulebook's order, then any office the data file names differently, in board order.
TIE_BREAK_ORDER = [o for o in TIE_BREAK_OFFICES if o in OFFICE_COLOURS] + [
    o for o in OFFICE_COLOURS if o not in TIE_BREAK_OFFICES
]


def office_strength(hand: list[str], office: str) -> tuple[int, int, str]:
    """(sum of values, number of cards, letter closest to A) of a hand's cards of one office."""
    cards = [CARDS[c] for c in hand if CARDS[c]["kind"] == GOVERNMENT and CARDS[c]["office"] == office]
    letters = [c["letter"] or NO_LETTER for c in cards]
    return sum(c["value"] for c in cards), len(cards), min(letters, default=NO_LETTER)


def duty_holders(state: dict) -> dict[str, dict]:
    """For each office: who takes the Primary and the Secondary Duty tile. The highest sum takes the
    Primary; a tie goes to the card closest to A; the next in that order takes the Secondary (if the
    office has one). Only a player with a card of that office takes a tile."""
    holders = {}
    for office in state["offices"]:
        strengths = {i: office_strength(seat["hand"], office) for i, seat in enumerate(state["seats"])}
        contenders = sorted(
            (i for i, s in strengths.items() if s[1] > 0), key=lambda i: (-strengths[i][0], strengths[i][2])
        )
        duty = state["duties"][office]
        holders[office] = {
            "primary": contenders[0] if contenders else None,
            "secondary": contenders[1] if duty["secondary"] and len(contenders) > 1 else None,
            "sums": [strengths[i][0] for i in range(len(state["seats"]))],
        }
    return holders


def tie_break_key(state: dict, seat: int, score: int) -> tuple:
    """Most victory points, then most Gold, then for Diplomacy, Entertainment, Livestock,
    Architecture, Military and Provisions in turn: most cards, then the letter closest to A."""
    hand = state["seats"][seat]["hand"]
    key: list = [-score, -gold_value(hand)]
    for office in TIE_BREAK_ORDER:
        _, count, letter = office_strength(hand, office)
        key += [-count, letter]
    return tuple(key)


def _names(state: dict, seats: Iterable[int]) -> str:
    names = [state["seats"][s]["name"] for s in seats]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def office_tie_notes(state: dict, holders: dict[str, dict]) -> list[str]:
    """One sentence per office whose highest sum was tied: the letter closest to A decided."""
    notes = []
    for office, held in holders.items():
        sums = held["sums"]
        top = max(sums)
        tied = [i for i, total in enumerate(sums) if total == top and total > 0]
        if len(tied) > 1 and held["primary"] is not None:
            letter = office_strength(state["seats"][held["primary"]]["hand"], office)[2]
            note = (
                f"{office.capitalize()}: {_names(state, tied)} tied at {top}; "
                f"{state['seats'][held['primary']]['name']}'s card {letter} is closest to A and takes the Primary"
            )
            if held["secondary"] is not None:
                note += f", {state['seats'][held['secondary']]['name']} the Secondary"
            notes.append(note + ".")
    return notes


def ranking_tie_notes(state: dict, scores: list[int], keys: list[tuple]) -> list[str]:
    """One sentence per group of players tied on points: what broke the tie, in the rulebook's order."""
    notes = []
    for score in sorted(set(scores), reverse=True):
        tied = [s for s in range(len(scores)) if scores[s] == score]
        if len(tied) < 2:
            continue
        tied.sort(key=lambda s: keys[s])
        first, second = keys[tied[0]], keys[tied[1]]
        if first == second:
            notes.append(
                f"{_names(state, tied)} tied at {count(score, 'point')} and nothing breaks it: they share the place."
            )
            continue
        step = next(i for i in range(1, len(first)) if first[i] != second[i])
        ahead = state["seats"][tied[0]]["name"]
        if step == 1:
            reason = f"{ahead} has the most Gold ({-first[1]} to {-second[1]})"
        else:
            office = TIE_BREAK_ORDER[(step - 2) // 2]
            if (step - 2) % 2 == 0:
                reason = (
                    f"{ahead} has the most {office.capitalize()} cards ({-first[step]} to {-second[step]})"
                )
            else:
                reason = f"{ahead}'s {office.capitalize()} card {first[step]} is closest to A"
        notes.append(f"{_names(state, tied)} tied at {count(score, 'point')}; {reason}.")
    return notes


def final_result(state: dict) -> dict:
    holders = duty_holders(state)
    count = len(state["seats"])
    scores = [0] * count
    tiles: list[list[dict]] = [[] for _ in range(count)]
    for office, held in holders.items():
        for rank in ("primary", "secondary"):
            seat = held[rank]
            if seat is not None:
                value = state["duties"][office][rank]
                scores[seat] += value
                tiles[seat].append({"office": office, "duty": rank, "value": value})
    keys = [tie_break_key(state, s, scores[s]) for s in range(count)]
    ranking = sorted(range(count), key=lambda s: keys[s])
    positions = [0] * count
    for place, seat in enumerate(ranking):
        earlier = ranking[place - 1] if place else None
        positions[seat] = (
            positions[earlier] if earlier is not None and keys[earlier] == keys[seat] else place + 1
        )
    return {
        "winners": [s for s in ranking if keys[s] == keys[ranking[0]]],
        "scores": scores,
        "ranking": ranking,
        "positions": positions,
        "gold": [gold_value(seat["hand"]) for seat in state["seats"]],
        "duties": {o: {"primary": h["primary"], "secondary": h["secondary"]} for o, h in holders.items()},
        "office_sums": {o: h["sums"] for o, h in holders.items()},
        "tiles": tiles,
        "tie_notes": office_tie_notes(state, holders) + ranking_tie_notes(state, scores, keys),
    }


def finish(state: dict) -> None:
    state["result"] = final_result(state)
    state["over"] = True
    state["part"] = "end"
    state["phase"] = "over"
