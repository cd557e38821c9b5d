"""End of the Game: Calculate Scores (Secret Agendas, Open Agendas, majority of Power), the Realm
Chronicles ranking and the Prestige/Crave table, and the result the campaign records."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import Message, gettext_noop, join, ngettext
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.data import DEFAULT_TRACKS, RESOURCES
from games.engines.kings_dilemma.turn import name


def competition_positions(values: list[int]) -> list[int]:
    """Tied values share a position and the next ones skip (1, 2, 2, 4): higher values first."""
    return [1 + sum(1 for other in values if other > v) for v in values]


def dense_positions(values: list[int], highest_first: bool = True) -> list[int]:
    """Tied values share a position and the next distinct value is the next position (1, 2, 2, 3)."""
    distinct = sorted(set(values), reverse=highest_first)
    return [distinct.index(v) + 1 for v in values]


def resource_goal_points(agenda: dict, positions: list[int]) -> int:
    """'Resource Goal': markers inside the card's zone (boundary rows count); Extremist scores the
    distance between the highest and the lowest marker, both rows counted."""
    if agenda["resource"] == "distance":
        return max(positions) - min(positions) + 1
    inside = sum(1 for p in positions if any(low <= p <= high for low, high in agenda["zones"]))
    return agenda["resource"][inside]


def money_ranking_points(agenda: dict, coins: list[int], seat: int) -> int:
    """'Money Ranking Goal': 1st, 2nd and 3rd most Coins score I, II and III; tied players share a
    position (competition ranking: two tied 1st, the next is 3rd)."""
    position = competition_positions(coins)[seat]
    table = agenda["coins"]
    return table[position - 1] if position <= len(table) else 0


def open_agenda_points(tokens: list[dict], resources: dict[str, int], tracks: dict) -> int:
    """'Open Agenda tokens': Positive scores if its Resource is the highest (3) or second highest (1);
    Negative loses if the lowest (-3) or second lowest (-1). Tied Resources give the same: positions
    run over distinct heights (in the rulebook's example Knowledge, tied for second highest with Morale
    above tied Welfare and Wealth, is also second lowest)."""
    rows = list(RESOURCES)
    heights = [resources[r] for r in rows]
    from_top = dict(zip(rows, dense_positions(heights, True), strict=True))
    from_bottom = dict(zip(rows, dense_positions(heights, False), strict=True))
    total = 0
    for token in tokens:
        points = tracks["open_agenda"]["positive" if token["positive"] else "negative"]
        position = (from_top if token["positive"] else from_bottom)[token["row"]]
        total += points[position - 1] if position <= len(points) else 0
    return total


def _points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n)


def _open_agenda_parts(positive: bool, resource: str, points: list[int]) -> list[Message]:
    """What each position of an Open Agenda token scores: the first position names the Resource."""
    parts: list[Message] = []
    for k, p in enumerate(points[:2]):
        if positive and k == 0:
            said = ngettext(
                "{n} point if {resource} is the highest Resource at the end of the game",
                "{n} points if {resource} is the highest Resource at the end of the game",
                p,
                resource=resource,
            )
        elif positive:
            said = ngettext(
                "{n} point if it is the second highest", "{n} points if it is the second highest", p
            )
        elif k == 0:
            said = ngettext(
                "{n} point if {resource} is the lowest Resource at the end of the game",
                "{n} points if {resource} is the lowest Resource at the end of the game",
                p,
                resource=resource,
            )
        else:
            said = ngettext(
                "{n} point if it is the second lowest", "{n} points if it is the second lowest", p
            )
        parts.append(said)
    return parts


def open_agenda_words(token: Mapping[str, Any], tracks: dict = DEFAULT_TRACKS) -> dict:
    """An Open Agenda token as a player reads it in front of a House screen, with what it scores at
    the end (rulebook 'B. Open Agenda tokens', points from the data file): ``name`` ("Positive
    Wealth"), ``short`` ("Positive Wealth (up to 3 points)", "Negative Morale (loses up to 3
    points)") and ``rule`` ("gains 3 points if Wealth is the highest Resource at the end of the
    game, 1 point if it is the second highest"), each a message."""
    positive = bool(token["positive"])
    resource = msg.resource_name(str(token["row"]))
    if positive:
        name = gettext_noop("Positive {resource}").format(resource=resource)
    else:
        name = gettext_noop("Negative {resource}").format(resource=resource)
    points = [abs(p) for p in tracks["open_agenda"]["positive" if positive else "negative"]]
    parts = join(_open_agenda_parts(positive, resource, points), ", ")
    best = _points(max(points, default=0))
    if positive:
        short = gettext_noop("{name} (up to {points})").format(name=name, points=best)
        rule = gettext_noop("gains {parts}").format(parts=parts)
    else:
        short = gettext_noop("{name} (loses up to {points})").format(name=name, points=best)
        rule = gettext_noop("loses {parts}").format(parts=parts)
    return {"row": token["row"], "positive": positive, "name": name, "short": short, "rule": rule}


def power_majority_points(power: list[int], tracks: dict) -> list[int]:
    """'Majority of Power tokens': the most Power +2, the second most +1; tied players score the bonus
    of the tied position, and 'second most' is the next amount below the most (dense positions)."""
    table = tracks["power_majority"]
    return [table[p - 1] if p <= len(table) else 0 for p in dense_positions(power, True)]


def rank(totals: list[int]) -> list[tuple[int, bool]]:
    """Realm Chronicles ranking (docs/rules-decisions.md): shared positions on ties (1, 2, 2, 4); every seat
    with the lowest total is Last, unless every total is equal (then all are 1st)."""
    lowest = min(totals)
    everyone_equal = lowest == max(totals)
    return [
        (p, t == lowest and not everyone_equal)
        for p, t in zip(competition_positions(totals), totals, strict=True)
    ]


def prestige_crave_for(
    positions: list[int], n_players: int, end: str = "king_died", table: dict | None = None
) -> list[tuple[int, int]]:
    """The (Prestige, Crave) each seat records ('Mark scores on the Realm Chronicles'), from the positions
    of the ranking (ties shared). Every seat at the worst position takes the Last row, unless all
    positions are equal (all take the 1st row). ``table`` defaults to the data file's."""
    if len(positions) != n_players:
        raise ValueError("one position per player")
    rows = (table or DEFAULT_TRACKS["prestige_crave"])[end]
    worst = max(positions)
    everyone_equal = worst == min(positions)
    awards = []
    for position in positions:
        key = "last" if position == worst and not everyone_equal else str(min(position, 4))
        prestige, crave = rows[key]
        awards.append((prestige, crave))
    return awards


def rebel_crave(end: str, secret_agenda: str, tracks: dict | None = None) -> int:
    """Crave printed on a Secret Agenda card for an abdication (the Rebel's +1)."""
    agenda = (tracks or DEFAULT_TRACKS)["secret_agendas"][secret_agenda]
    return agenda.get("abdication_crave", 0) if end != "king_died" else 0


def awards_for(end: str, totals: list[int], agendas: list[str], tracks: dict | None = None) -> list[dict]:
    """What each seat records on the Realm Chronicles: position (shared on ties), last, the Prestige
    and Crave of its row of the table, and the Crave its Secret Agenda adds for an abdication."""
    tracks = tracks or DEFAULT_TRACKS
    ranking = rank(totals)
    table = prestige_crave_for([p for p, _ in ranking], len(totals), end, tracks["prestige_crave"])
    return [
        {
            "position": position,
            "last": last,
            "prestige": prestige,
            "crave": crave,
            "rebel_crave": rebel_crave(end, agenda, tracks),
        }
        for (position, last), (prestige, crave), agenda in zip(ranking, table, agendas, strict=True)
    ]


# ---- the end of the game ----------------------------------------------------------------------


def compute_scores(state: dict) -> dict:
    tracks = state["tracks"]
    seats = state["seats"]
    heights = {r: state["resources"][r]["position"] for r in RESOURCES}
    positions = list(heights.values())
    coins = [s["coins"] for s in seats]
    power = [s["power"] for s in seats]
    power_points = power_majority_points(power, tracks)
    rows = []
    for index, seat in enumerate(seats):
        agenda = tracks["secret_agendas"][seat["secret_agenda"]]
        row = {
            "house": seat["house"],
            "name": seat["name"],
            "secret_agenda": seat["secret_agenda"],
            "agenda_points": resource_goal_points(agenda, positions),
            "coins_points": money_ranking_points(agenda, coins, index),
            "open_agenda_points": open_agenda_points(seat["open_agendas"], heights, tracks),
            "power_points": power_points[index],
            "coins": seat["coins"],
            "power": seat["power"],
        }
        row["total"] = sum(
            row[k] for k in ("agenda_points", "coins_points", "open_agenda_points", "power_points")
        )
        rows.append(row)
    awards = awards_for(state["end"], [r["total"] for r in rows], [r["secret_agenda"] for r in rows], tracks)
    for row, award in zip(rows, awards, strict=True):
        row["position"], row["last"], row["rebel_crave"] = (
            award["position"],
            award["last"],
            award["rebel_crave"],
        )
        row["prestige_award"], row["crave_award"] = award["prestige"], award["crave"] + award["rebel_crave"]
    return {"seats": rows, "winners": [i for i, r in enumerate(rows) if r["position"] == 1]}


def score(state: dict, action: dict, rng: random.Random) -> None:
    """Reveal the Secret Agendas and score. Tied winners share the victory; the Moderator chooses
    which of them marries into the royal line."""
    state["scores"] = compute_scores(state)
    winners = state["scores"]["winners"]
    if len(winners) > 1:
        state["heir_candidates"] = winners
        state["phase"] = "heir"
    else:
        finish(state, winners[0])


def choose_heir(state: dict, action: dict, rng: random.Random) -> None:
    """The Moderator chooses which of the tied winners marries into the royal line."""
    heir: Any = action.get("heir")
    if isinstance(heir, bool) or heir not in state["heir_candidates"]:
        names = join([name(state, i) for i in state["heir_candidates"]], ", ")
        raise RuleError(msg.HEIR_CANDIDATE.format(names=names))
    finish(state, heir)


def finish(state: dict, heir: int) -> None:
    """The game is over; ``state["result"]`` holds what the campaign records:

    - ``end``: "king_died" | "abdicated_top" | "abdicated_bottom"; ``king_name``;
    - ``seats`` (seat order): house, name, secret_agenda, agenda_points (Resource Goal: the Realm
      Chronicles' "Secret Agenda" column), coins_points (Money Ranking: its "Coins" column),
      open_agenda_points, power_points, coins and power held, total, position (shared on ties), last,
      rebel_crave (1 for the Rebel when the King abdicated), prestige_award and crave_award (the
      Prestige/Crave table row plus rebel_crave: what the campaign records);
    - ``winners`` (every seat at position 1: a tie shares the victory) and ``heir`` (the one the
      Moderator chose to marry into the royal line; the only winner when there is no tie);
    - ``stickers`` [{number, row, positive, signer, dilemma}], ``envelopes`` [{number, opened_by, dilemma}]
      (Envelope 70 also carries ``grand_finale``), ``resolved_dilemmas`` (the Time Counter, in order),
      ``event_cards``, ``cards_met`` {number: card}, ``prestige_crave_effects`` [{seat, prestige, crave,
      label}], ``mystery_stickers`` [letters], ``resources_final`` {row: position}, ``stability_final``,
      ``pool_shortfalls``; ``cards_to_deck`` (the cards a printed effect put into the Dilemma deck tonight).
    """
    scores = state["scores"]
    state["result"] = {
        "end": state["end"],
        "king_name": state["king_name"],
        "seats": scores["seats"],
        "winners": scores["winners"],
        "heir": heir,
        "stickers": list(state["stickers"]),
        "envelopes": list(state["envelopes"]),
        "resolved_dilemmas": list(state["time_counter"]),
        "event_cards": list(state["event_cards"]),
        "cards_to_deck": list(state.get("cards_to_deck", [])),
        "cards_met": dict(state["cards_met"]),
        "prestige_crave_effects": list(state["prestige_crave_effects"]),
        "mystery_stickers": [m["letter"] for m in state["mystery_stickers"]],
        "resources_final": {r: state["resources"][r]["position"] for r in RESOURCES},
        "stability_final": state["stability"],
        "pool_shortfalls": list(state["shortfalls"]),
    }
    state["heir_candidates"] = None
    state["phase"] = "over"
    state["over"] = True
