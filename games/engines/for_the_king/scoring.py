"""'End of the Game': Duty tiles to the strongest players of each office, then the ranking."""

from collections.abc import Iterable

from games.engines.for_the_king.cards import (
    CARDS,
    GOVERNMENT,
    OFFICE_COLOURS,
    TIE_BREAK_OFFICES,
    gold_value,
    office_word,
)
from games.engines.kernel.messages import gettext_noop, ngettext

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


# The final scoring's ties, each said in one sentence (messages: the result page reads them in
# each reader's language).
NAMES_AND = gettext_noop("{names} and {last}")
OFFICE_TIE = gettext_noop(
    "{office}: {names} tied at {top}; {holder}'s card {letter} is closest to A and takes the Primary."
)
OFFICE_TIE_SECONDARY = gettext_noop(
    "{office}: {names} tied at {top}; {holder}'s card {letter} is closest to A and takes the Primary, "
    "{second} the Secondary."
)
MOST_GOLD = gettext_noop("{ahead} has the most Gold ({first} to {second})")
MOST_CARDS = gettext_noop("{ahead} has the most {office} cards ({first} to {second})")
CLOSEST_LETTER = gettext_noop("{ahead}'s {office} card {letter} is closest to A")


def _names(state: dict, seats: Iterable[int]) -> str:
    names = [state["seats"][s]["name"] for s in seats]
    return NAMES_AND.format(names=", ".join(names[:-1]), last=names[-1]) if len(names) > 1 else names[0]


def office_tie_notes(state: dict, holders: dict[str, dict]) -> list[str]:
    """One sentence per office whose highest sum was tied: the letter closest to A decided."""
    notes: list[str] = []
    for office, held in holders.items():
        sums = held["sums"]
        top = max(sums)
        tied = [i for i, total in enumerate(sums) if total == top and total > 0]
        if len(tied) > 1 and held["primary"] is not None:
            letter = office_strength(state["seats"][held["primary"]]["hand"], office)[2]
            words = {
                "office": office_word(office),
                "names": _names(state, tied),
                "top": top,
                "holder": state["seats"][held["primary"]]["name"],
                "letter": letter,
            }
            if held["secondary"] is not None:
                second = state["seats"][held["secondary"]]["name"]
                notes.append(OFFICE_TIE_SECONDARY.format(second=second, **words))
            else:
                notes.append(OFFICE_TIE.format(**words))
    return notes


def _tie_reason(ahead: str, first: tuple, second: tuple, step: int) -> str:
    """What broke a tie on points at ``step`` of the tie-break keys (Gold, then each office's cards
    and letter in the rulebook's order)."""
    if step == 1:
        return MOST_GOLD.format(ahead=ahead, first=-first[1], second=-second[1])
    office = office_word(TIE_BREAK_ORDER[(step - 2) // 2])
    if (step - 2) % 2 == 0:
        return MOST_CARDS.format(ahead=ahead, office=office, first=-first[step], second=-second[step])
    return CLOSEST_LETTER.format(ahead=ahead, office=office, letter=first[step])


def ranking_tie_notes(state: dict, scores: list[int], keys: list[tuple]) -> list[str]:
    """One sentence per group of players tied on points: what broke the tie, in the rulebook's order."""
    notes: list[str] = []
    for score in sorted(set(scores), reverse=True):
        tied = [s for s in range(len(scores)) if scores[s] == score]
        if len(tied) < 2:
            continue
        tied.sort(key=lambda s: keys[s])
        first, second = keys[tied[0]], keys[tied[1]]
        names = _names(state, tied)
        if first == second:
            notes.append(
                ngettext(
                    "{names} tied at {n} point and nothing breaks it: they share the place.",
                    "{names} tied at {n} points and nothing breaks it: they share the place.",
                    score,
                    names=names,
                )
            )
            continue
        step = next(i for i in range(1, len(first)) if first[i] != second[i])
        reason = _tie_reason(state["seats"][tied[0]]["name"], first, second, step)
        notes.append(
            ngettext(
                "{names} tied at {n} point; {reason}.",
                "{names} tied at {n} points; {reason}.",
                score,
                names=names,
                reason=reason,
            )
        )
    return notes


def tie_notes(state: dict, scores: list[int]) -> list[str]:
    """Every tie of the final scoring explained: the offices', then the ranking's."""
    keys = [tie_break_key(state, s, scores[s]) for s in range(len(scores))]
    return office_tie_notes(state, duty_holders(state)) + ranking_tie_notes(state, scores, keys)


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
